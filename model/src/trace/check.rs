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

/// Check `trace` (the object form, `{"traceEvents": [...]}`): every event
/// read in file order, then each thread's slices for proper nesting.
pub fn check(trace: &Value) -> Result<Summary, String> {
    let evs = trace
        .get("traceEvents")
        .and_then(Value::as_array)
        .ok_or("no traceEvents array")?;
    let mut scan = Scan::default();
    for (i, e) in evs.iter().enumerate() {
        scan.event(i, e)?;
    }
    if let Some(((pid, tid), v)) = scan.open.iter().find(|(_, v)| !v.is_empty()) {
        return Err(format!("({pid}, {tid}): slice {:?} never closed", v[0].0));
    }
    let mut sum = scan.sum;
    for ((pid, tid), v) in scan.threads {
        check_nesting(pid, tid, v, &mut sum)?;
    }
    sum.counters = scan
        .counters
        .into_iter()
        .map(|(k, (_, v))| (k, v))
        .collect();
    sum.end_ps = u64::try_from(scan.end).unwrap_or(0);
    Ok(sum)
}

/// What the pass over the events collects.
#[derive(Default)]
struct Scan {
    sum: Summary,
    /// Per thread: (start, end, cat, file index).
    threads: BTreeMap<(u64, u64), Vec<Closed>>,
    open: BTreeMap<(u64, u64), Vec<Opened>>,
    /// Per counter track: the latest sample (ps, value).
    counters: BTreeMap<(u64, String), (i128, f64)>,
    end: i128,
}

impl Scan {
    /// Event `i` by its phase.
    fn event(&mut self, i: usize, e: &Value) -> Result<(), String> {
        let ph = field(e, "ph", i)?.as_str().ok_or("ph is not a string")?;
        let pid = field(e, "pid", i)?.as_u64().ok_or("pid")?;
        let name = field(e, "name", i)?
            .as_str()
            .unwrap_or_default()
            .to_string();
        match ph {
            "M" => self.metadata(i, e, pid, &name),
            "X" => self.complete(i, e, pid),
            "B" => {
                let tid = field(e, "tid", i)?.as_u64().ok_or("tid")?;
                let cat = e["cat"].as_str().unwrap_or_default().to_string();
                self.open
                    .entry((pid, tid))
                    .or_default()
                    .push((name, ps(num(e, "ts", i)?), cat, i));
                Ok(())
            }
            "E" => self.end_slice(i, e, pid, &name),
            "C" => self.counter(i, e, pid, name),
            "i" | "I" | "R" | "n" => Ok(()),
            other => Err(format!("event {i}: phase {other:?} not expected")),
        }
    }

    /// `M`: process and thread names.
    fn metadata(&mut self, i: usize, e: &Value, pid: u64, name: &str) -> Result<(), String> {
        let n = e["args"]["name"].as_str().unwrap_or_default().to_string();
        match name {
            "process_name" => {
                self.sum.processes.insert(pid, n);
            }
            "thread_name" => {
                let tid = field(e, "tid", i)?.as_u64().ok_or("tid")?;
                self.sum.threads.insert((pid, tid), n);
            }
            _ => {}
        }
        Ok(())
    }

    /// `X`: a complete slice.
    fn complete(&mut self, i: usize, e: &Value, pid: u64) -> Result<(), String> {
        let tid = field(e, "tid", i)?.as_u64().ok_or("tid")?;
        let (ts, dur) = (num(e, "ts", i)?, num(e, "dur", i)?);
        if ts < 0.0 || dur < 0.0 {
            return Err(format!("event {i}: negative ts or dur: {e}"));
        }
        let (s, d) = (ps(ts), ps(dur));
        let cat = e["cat"].as_str().unwrap_or_default().to_string();
        self.threads
            .entry((pid, tid))
            .or_default()
            .push((s, s + d, cat, i));
        self.end = self.end.max(s + d);
        Ok(())
    }

    /// `E`: closes the thread's innermost open `B` (same name, not earlier).
    fn end_slice(&mut self, i: usize, e: &Value, pid: u64, name: &str) -> Result<(), String> {
        let tid = field(e, "tid", i)?.as_u64().ok_or("tid")?;
        let t = ps(num(e, "ts", i)?);
        let (n, s, cat, k) = self
            .open
            .get_mut(&(pid, tid))
            .and_then(Vec::pop)
            .ok_or_else(|| format!("event {i}: E without B on ({pid}, {tid})"))?;
        if !name.is_empty() && name != n {
            return Err(format!("event {i}: E {name:?} closes B {n:?}"));
        }
        if t < s {
            return Err(format!("event {i}: E before its B"));
        }
        self.threads
            .entry((pid, tid))
            .or_default()
            .push((s, t, cat, k));
        self.end = self.end.max(t);
        Ok(())
    }

    /// `C`: a counter sample; the latest one per track is kept.
    fn counter(&mut self, i: usize, e: &Value, pid: u64, name: String) -> Result<(), String> {
        let t = ps(num(e, "ts", i)?);
        let v = e["args"]
            .as_object()
            .and_then(|a| a.values().next())
            .and_then(Value::as_f64)
            .ok_or_else(|| format!("event {i}: counter without a value"))?;
        let c = self.counters.entry((pid, name)).or_insert((t, v));
        if t >= c.0 {
            *c = (t, v);
        }
        self.end = self.end.max(t);
        Ok(())
    }
}

/// The slices of thread (`pid`, `tid`) nest properly; counts them and
/// records the category chain above each `dma` slice.
fn check_nesting(pid: u64, tid: u64, mut v: Vec<Closed>, sum: &mut Summary) -> Result<(), String> {
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
    Ok(())
}
