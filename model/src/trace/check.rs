//! The structure check of a Chrome trace-event JSON (docs/timeline.md),
//! written against the format, not against the recorder: every `B` has its
//! `E` on the same thread, every `X` lies inside the slice it starts in or
//! after it (proper nesting), durations are not negative; counter tracks'
//! last values and the last timestamp are returned for the caller to compare
//! with the run's own report.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// What a well-formed trace holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Complete slices (`X` and matched `B`/`E`).
    pub slices: usize,
    /// Latest `ts + dur` of a slice or `ts` of a counter sample, in ps.
    pub end_ps: u64,
    /// Last value of every counter track: (pid, name) → value.
    pub counters: BTreeMap<(u64, String), f64>,
    /// Distinct chains of categories from the outermost slice down to each
    /// slice of category `dma`, e.g. `["collective", "step", "leg", "dma"]`.
    pub dma_chains: BTreeSet<Vec<String>>,
    /// Process names by pid.
    pub processes: BTreeMap<u64, String>,
    /// Thread names by (pid, tid).
    pub threads: BTreeMap<(u64, u64), String>,
}

/// A complete slice of a thread: (start ps, end ps, category, event index).
type Closed = (i128, i128, String, usize);

/// An open `B`: (name, start ps, category, event index).
type Opened = (String, i128, String, usize);

/// Picoseconds of a µs timestamp (the writer's values are whole ps).
fn ps(us: f64) -> i128 {
    (us * 1e6).round() as i128
}

fn field<'a>(e: &'a Value, k: &str, i: usize) -> Result<&'a Value, String> {
    e.get(k)
        .ok_or_else(|| format!("event {i} has no {k:?}: {e}"))
}

fn num(e: &Value, k: &str, i: usize) -> Result<f64, String> {
    field(e, k, i)?
        .as_f64()
        .ok_or_else(|| format!("event {i}: {k:?} is not a number: {e}"))
}

/// Check `trace` (the object form, `{"traceEvents": [...]}`).
pub fn check(trace: &Value) -> Result<Summary, String> {
    let evs = trace
        .get("traceEvents")
        .and_then(Value::as_array)
        .ok_or("no traceEvents array")?;
    let mut sum = Summary::default();
    // Per thread: (start, end, cat, file index).
    let mut threads: BTreeMap<(u64, u64), Vec<Closed>> = BTreeMap::new();
    let mut open: BTreeMap<(u64, u64), Vec<Opened>> = BTreeMap::new();
    let mut counters: BTreeMap<(u64, String), (i128, f64)> = BTreeMap::new();
    let mut end: i128 = 0;
    for (i, e) in evs.iter().enumerate() {
        let ph = field(e, "ph", i)?.as_str().ok_or("ph is not a string")?;
        let pid = field(e, "pid", i)?.as_u64().ok_or("pid")?;
        let name = field(e, "name", i)?
            .as_str()
            .unwrap_or_default()
            .to_string();
        match ph {
            "M" => {
                let n = e["args"]["name"].as_str().unwrap_or_default().to_string();
                match name.as_str() {
                    "process_name" => {
                        sum.processes.insert(pid, n);
                    }
                    "thread_name" => {
                        let tid = field(e, "tid", i)?.as_u64().ok_or("tid")?;
                        sum.threads.insert((pid, tid), n);
                    }
                    _ => {}
                }
            }
            "X" => {
                let tid = field(e, "tid", i)?.as_u64().ok_or("tid")?;
                let (ts, dur) = (num(e, "ts", i)?, num(e, "dur", i)?);
                if ts < 0.0 || dur < 0.0 {
                    return Err(format!("event {i}: negative ts or dur: {e}"));
                }
                let (s, d) = (ps(ts), ps(dur));
                let cat = e["cat"].as_str().unwrap_or_default().to_string();
                threads
                    .entry((pid, tid))
                    .or_default()
                    .push((s, s + d, cat, i));
                end = end.max(s + d);
            }
            "B" => {
                let tid = field(e, "tid", i)?.as_u64().ok_or("tid")?;
                let cat = e["cat"].as_str().unwrap_or_default().to_string();
                open.entry((pid, tid))
                    .or_default()
                    .push((name, ps(num(e, "ts", i)?), cat, i));
            }
            "E" => {
                let tid = field(e, "tid", i)?.as_u64().ok_or("tid")?;
                let t = ps(num(e, "ts", i)?);
                let (n, s, cat, k) = open
                    .get_mut(&(pid, tid))
                    .and_then(Vec::pop)
                    .ok_or_else(|| format!("event {i}: E without B on ({pid}, {tid})"))?;
                if !name.is_empty() && name != n {
                    return Err(format!("event {i}: E {name:?} closes B {n:?}"));
                }
                if t < s {
                    return Err(format!("event {i}: E before its B"));
                }
                threads.entry((pid, tid)).or_default().push((s, t, cat, k));
                end = end.max(t);
            }
            "C" => {
                let t = ps(num(e, "ts", i)?);
                let v = e["args"]
                    .as_object()
                    .and_then(|a| a.values().next())
                    .and_then(Value::as_f64)
                    .ok_or_else(|| format!("event {i}: counter without a value"))?;
                let c = counters.entry((pid, name)).or_insert((t, v));
                if t >= c.0 {
                    *c = (t, v);
                }
                end = end.max(t);
            }
            "i" | "I" | "R" | "n" => {}
            other => return Err(format!("event {i}: phase {other:?} not expected")),
        }
    }
    if let Some(((pid, tid), v)) = open.iter().find(|(_, v)| !v.is_empty()) {
        return Err(format!("({pid}, {tid}): slice {:?} never closed", v[0].0));
    }
    for ((pid, tid), mut v) in threads {
        v.sort_by_key(|&(s, e, _, i)| (s, std::cmp::Reverse(e), i));
        let mut stack: Vec<(i128, String)> = Vec::new();
        for (s, e, cat, i) in v {
            while stack
                .last()
                .is_some_and(|(end, _)| *end <= s && !(*end == s && e == s))
            {
                stack.pop();
            }
            if let Some((pe, pcat)) = stack.last() {
                if e > *pe {
                    return Err(format!(
                        "({pid}, {tid}): event {i} [{s}, {e}] ps ({cat}) overlaps its parent ({pcat}, ending at {pe}) without nesting"
                    ));
                }
            }
            if cat == "dma" {
                let mut chain: Vec<String> = stack.iter().map(|(_, c)| c.clone()).collect();
                chain.push(cat.clone());
                sum.dma_chains.insert(chain);
            }
            stack.push((e, cat));
            sum.slices += 1;
        }
    }
    sum.counters = counters.into_iter().map(|(k, (_, v))| (k, v)).collect();
    sum.end_ps = u64::try_from(end).unwrap_or(0);
    Ok(sum)
}
