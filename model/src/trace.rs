//! Timelines of system-model runs as Chrome trace-event JSON
//! (docs/timeline.md): the executors record what happened at which modeled
//! time into a [`Recorder`] the [`crate::system::System`] carries only while
//! tracing; [`chrome`] writes the finished [`Recording`]s as one trace that
//! ui.perfetto.dev, chrome://tracing and speedscope open.
//!
//! # Time
//!
//! Trace time is the *reported* modeled time. A leg ([`Recorder::leg_begin`],
//! opened by `System::send_recv`) maps the executor's clock (fast mode: the
//! timing model's ps; cycle mode: `clock::cycles_to_ps` of the cycle count) onto the trace from
//! where the leg starts: the legs of one step ([`Recorder::step_begin`], a
//! `Target::run_legs` batch) all start at the step's start — they run one
//! after the other in the executor but are reported concurrent (the batch's
//! time is its slowest leg) — and a step ends at its reported time, so the
//! steps of a collective follow each other as the report adds them up.
//! Outside a leg (the lowering's completion waits after a leg, host
//! semaphore writes) time stands still at the end of the last leg: those
//! accesses are not part of any reported time.
//!
//! # Tracks
//!
//! One process per core; in it one thread per Q7 (RX = PRID 2c, TX = PRID
//! 2c+1, and one for the lowering's semaphore waits), one per DMA engine
//! queue used, one per outgoing link used, and a counter track per
//! semaphore that changed. Every slice recorded inside a leg is wrapped, on
//! its own thread, by that leg, its step and its collective, so each thread
//! shows the stack collective → step → leg → Q7 program / engine transfer /
//! link occupancy. Slices are written as `B`/`E` pairs in nesting order
//! (zero-length ones as instants), counters as `C` samples. Slices that would overlap without nesting on one thread
//! (two legs of a step on one engine queue, or two Q7 programs polling at
//! once) go to numbered lanes of that thread.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Map, Value};

/// Picoseconds of modeled time (the system model's unit).
pub type Ps = u64;

/// Which Q7 of a core (seed 001 §4.2: a core has an RX and a TX Q7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Q7Role {
    /// PRID 2 × core.
    Rx,
    /// PRID 2 × core + 1.
    Tx,
    /// The lowering's semaphore waits (`System::wait_sem`).
    Wait,
}

/// A thread of a core's process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Track {
    /// One DMA engine queue's descriptor transfers (first: viewers that
    /// open one thread at a time open a core's first engine queue).
    Queue { core: u16, engine: u8, queue: u8 },
    /// A Q7's programs.
    Q7 { core: u16, role: Q7Role },
    /// Occupancy of the link from `from` to `to`.
    Link { from: u16, to: u16 },
}

impl Track {
    fn core(self) -> u16 {
        match self {
            Track::Q7 { core, .. } | Track::Queue { core, .. } => core,
            Track::Link { from, .. } => from,
        }
    }

    /// Thread id inside the core's process (lane 0).
    fn tid(self) -> u64 {
        match self {
            Track::Queue { engine, queue, .. } => 1 + u64::from(engine) * 16 + u64::from(queue),
            Track::Q7 { role, .. } => 300 + role as u64,
            Track::Link { to, .. } => 1024 + u64::from(to),
        }
    }

    fn name(self) -> String {
        match self {
            Track::Q7 { core, role } => match role {
                Q7Role::Rx => format!("Q7 RX (PRID {})", 2 * u32::from(core)),
                Q7Role::Tx => format!("Q7 TX (PRID {})", 2 * u32::from(core) + 1),
                Q7Role::Wait => "semaphore waits".to_string(),
            },
            Track::Queue { engine, queue, .. } => format!("DMA engine {engine} queue {queue}"),
            Track::Link { to, .. } => format!("link to core {to}"),
        }
    }

    /// Category of the slices on the track.
    fn cat(self) -> &'static str {
        match self {
            Track::Q7 { .. } => "q7",
            Track::Queue { .. } => "dma",
            Track::Link { .. } => "link",
        }
    }
}

/// A recorded slice (trace time).
#[derive(Debug, Clone)]
struct Slice {
    track: Track,
    name: String,
    start: Ps,
    end: Ps,
    /// The leg it happened in (index into `legs`).
    leg: Option<usize>,
    args: Value,
}

/// A change of one semaphore (trace time).
#[derive(Debug, Clone, Copy)]
struct SemChange {
    core: u16,
    sem: u8,
    t: Ps,
    delta: i64,
    after: i32,
}

/// A collective, step or leg.
#[derive(Debug, Clone)]
struct Scope {
    name: String,
    start: Ps,
    end: Ps,
    parent: Option<usize>,
    args: Value,
}

#[derive(Debug, Clone, Copy)]
struct OpenLeg {
    id: usize,
    /// Trace time where the leg starts.
    base: Ps,
    /// Executor clock at the leg's start.
    origin: Ps,
}

/// Cycle mode's per-queue bookkeeping: S2M descriptors done and bytes at
/// the last look, and since when the current descriptor has been running.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct QueueMark {
    pub done: u32,
    pub bytes: u64,
    pub since: Option<Ps>,
}

/// Records one system's timeline (module docs). Created by
/// [`crate::system::SystemState::trace_start`] or, inside [`capture`], by every
/// `System::new`.
#[derive(Debug, Clone, Default)]
pub struct Recorder {
    /// Process names, one per core.
    cores: Vec<String>,
    cursor: Ps,
    leg: Option<OpenLeg>,
    last_leg: Option<(usize, Ps)>,
    step: Option<(usize, Ps)>,
    /// Steps of the open collective, or of the recording (for their names).
    steps_in: usize,
    collective: Option<usize>,
    collectives: Vec<Scope>,
    steps: Vec<Scope>,
    legs: Vec<Scope>,
    slices: Vec<Slice>,
    sems: Vec<SemChange>,
    /// Last value seen of every semaphore of a core, once the core is known.
    pub(crate) sem_seen: HashMap<u16, Vec<i32>>,
    /// Fast mode: when the last completion of (core, queue) landed.
    pub(crate) comp_land: HashMap<(u16, u8), Ps>,
    /// Cycle mode: per (core, engine, queue).
    pub(crate) queue_marks: HashMap<(u16, u8, u8), QueueMark>,
    /// Cycle mode: since when each link has been busy.
    pub(crate) link_busy: HashMap<(u16, u16), Ps>,
}

impl Recorder {
    /// A recorder for a system whose cores are named `cores`.
    pub fn new(cores: Vec<String>) -> Self {
        Self {
            cores,
            ..Self::default()
        }
    }

    /// Trace time of executor time `sys`, and the leg it belongs to.
    pub fn at(&self, sys: Ps) -> (Ps, Option<usize>) {
        match (self.leg, self.last_leg) {
            (Some(l), _) => (l.base + sys.saturating_sub(l.origin), Some(l.id)),
            (None, Some((id, end))) => (end, Some(id)),
            (None, None) => (self.cursor, None),
        }
    }

    /// Open a collective at the cursor.
    pub fn collective_begin(&mut self, name: &str, args: Value) {
        self.collective_end();
        self.collective = Some(self.collectives.len());
        self.steps_in = 0;
        self.collectives.push(Scope {
            name: name.to_string(),
            start: self.cursor,
            end: self.cursor,
            parent: None,
            args,
        });
    }

    /// Close the open collective at the cursor.
    pub fn collective_end(&mut self) {
        self.step_end(None);
        if let Some(c) = self.collective.take() {
            self.collectives[c].end = self.cursor;
        }
    }

    /// Open a step (a batch of concurrent legs) at the cursor.
    pub fn step_begin(&mut self, args: Value) {
        self.step_end(None);
        let name = format!("step {}", self.steps_in);
        self.steps_in += 1;
        self.step = Some((self.steps.len(), self.cursor));
        self.steps.push(Scope {
            name,
            start: self.cursor,
            end: self.cursor,
            parent: self.collective,
            args,
        });
    }

    /// Close the open step; `reported`: its reported time (the slowest leg,
    /// as rounded by the report), else the end of its last leg.
    pub fn step_end(&mut self, reported: Option<Ps>) {
        if let Some((id, start)) = self.step.take() {
            let legs_end = self
                .legs
                .iter()
                .filter(|l| l.parent == Some(id))
                .map(|l| l.end)
                .max()
                .unwrap_or(start);
            let end = reported.map_or(legs_end, |r| (start + r).max(legs_end));
            self.steps[id].end = end;
            self.cursor = end;
            self.last_leg = None;
        }
    }

    /// A collective's launch (`system::timing::COLLECTIVE_LAUNCH_NS`):
    /// `ps` of trace time before its first step, with no leg.
    pub fn launch(&mut self, ps: Ps) {
        self.step_end(None);
        self.cursor += ps;
    }

    /// Open a leg at executor time `origin`: it starts at the open step's
    /// start, else at the cursor.
    pub fn leg_begin(&mut self, name: String, args: Value, origin: Ps) {
        let base = self.step.map_or(self.cursor, |(_, s)| s);
        let id = self.legs.len();
        self.legs.push(Scope {
            name,
            start: base,
            end: base,
            parent: self.step.map(|(s, _)| s),
            args,
        });
        self.leg = Some(OpenLeg { id, base, origin });
    }

    /// Close the open leg at executor time `end`.
    pub fn leg_end(&mut self, end: Ps) {
        if let Some(l) = self.leg.take() {
            let e = l.base + end.saturating_sub(l.origin);
            self.legs[l.id].end = e;
            self.last_leg = Some((l.id, e));
            if self.step.is_none() {
                self.cursor = self.cursor.max(e);
            }
        }
    }

    /// A slice on `track` from executor time `start` to `end`.
    pub fn slice(
        &mut self,
        track: Track,
        name: impl Into<String>,
        start: Ps,
        end: Ps,
        args: Value,
    ) {
        let (s, leg) = self.at(start);
        let (e, _) = self.at(end.max(start));
        self.slices.push(Slice {
            track,
            name: name.into(),
            start: s,
            end: e.max(s),
            leg,
            args,
        });
    }

    /// The values of semaphore `sem` of `core` before and after a change at
    /// executor time `t`.
    pub fn sem(&mut self, core: u16, sem: u8, before: i32, after: i32, t: Ps) {
        if let Some(v) = self.sem_seen.get_mut(&core) {
            v[usize::from(sem)] = after;
        }
        if before == after {
            return;
        }
        let (t, _) = self.at(t);
        self.sems.push(SemChange {
            core,
            sem,
            t,
            delta: i64::from(after) - i64::from(before),
            after,
        });
    }

    /// Finish: close what is open; the recording.
    pub fn finish(mut self, label: Option<String>) -> Recording {
        self.leg_end(self.leg.map_or(0, |l| l.origin));
        self.collective_end();
        self.step_end(None);
        let end = self
            .cursor
            .max(self.last_leg.map_or(0, |(_, e)| e))
            .max(self.slices.iter().map(|s| s.end).max().unwrap_or(0))
            .max(self.sems.iter().map(|s| s.t).max().unwrap_or(0));
        Recording {
            label,
            end,
            rec: self,
        }
    }
}

/// A finished timeline of one system.
#[derive(Debug, Clone)]
pub struct Recording {
    /// Wraps the whole recording in a collective of this name.
    pub label: Option<String>,
    /// Trace time of its end (its reported modeled time).
    pub end: Ps,
    rec: Recorder,
}

impl Recording {
    /// Slices recorded (Q7 programs, engine transfers, link occupancy).
    pub fn slices(&self) -> usize {
        self.rec.slices.len()
    }
}

thread_local! {
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

#[derive(Debug, Default)]
struct Capture {
    labels: Vec<String>,
    runs: Vec<Recording>,
    systems: usize,
}

/// Run `f` with every `System` it creates on this thread recording its
/// timeline; the recordings in creation order (each handed over when its
/// system is dropped). Lets a command trace the systems its library calls
/// build (`sb2sb nccom --trace`) without a parameter through every layer;
/// costs one thread-local look-up per `System::new` when not capturing.
pub fn capture<R>(f: impl FnOnce() -> R) -> (R, Vec<Recording>) {
    CAPTURE.with(|c| *c.borrow_mut() = Some(Capture::default()));
    let r = f();
    let cap = CAPTURE.with(|c| c.borrow_mut().take()).unwrap_or_default();
    (r, cap.runs)
}

/// Inside [`capture`]: name the collectives of the systems created next
/// (the n-th system created is wrapped in a collective named `labels[n]`).
pub fn label_systems(labels: impl IntoIterator<Item = String>) {
    CAPTURE.with(|c| {
        if let Some(cap) = c.borrow_mut().as_mut() {
            cap.labels = labels.into_iter().collect();
        }
    });
}

/// A recorder for a new system, when capturing; its index.
pub(crate) fn ambient(cores: impl FnOnce() -> Vec<String>) -> Option<(Box<Recorder>, usize)> {
    CAPTURE.with(|c| {
        let mut b = c.borrow_mut();
        let cap = b.as_mut()?;
        cap.systems += 1;
        Some((Box::new(Recorder::new(cores())), cap.systems - 1))
    })
}

/// Hand a dropped system's recorder to the capture.
pub(crate) fn deposit(rec: Recorder, index: usize) {
    CAPTURE.with(|c| {
        if let Some(cap) = c.borrow_mut().as_mut() {
            let label = cap.labels.get(index).cloned();
            cap.runs.push(rec.finish(label));
        }
    });
}

/// Microseconds (the trace's `ts` unit) of `ps`.
fn us(ps: Ps) -> f64 {
    ps as f64 / 1e6
}

/// One slice to emit on a lane.
struct Emit<'a> {
    /// 0 collective, 1 step, 2 leg, 3 recorded slices: the outer one first
    /// when two share their interval.
    depth: u8,
    cat: &'static str,
    name: &'a str,
    start: Ps,
    end: Ps,
    args: &'a Value,
}

/// Assign `items` (start, end) to sub-lanes on which they nest: an item goes
/// to the first lane where it lies inside the innermost open item or after
/// every open item. Returns the lane of each item.
fn nest_lanes(items: &[(Ps, Ps)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (items[i].0, std::cmp::Reverse(items[i].1), i));
    let mut stacks: Vec<Vec<Ps>> = Vec::new();
    let mut lane = vec![0; items.len()];
    for i in order {
        let (s, e) = items[i];
        let mut placed = None;
        for (k, st) in stacks.iter_mut().enumerate() {
            while st
                .last()
                .is_some_and(|&top| top <= s && !(top == s && e == s))
            {
                st.pop();
            }
            if st.last().is_none_or(|&top| e <= top) {
                st.push(e);
                placed = Some(k);
                break;
            }
        }
        lane[i] = placed.unwrap_or_else(|| {
            stacks.push(vec![e]);
            stacks.len() - 1
        });
    }
    lane
}

/// A busy interval (start, end).
type Span = (Ps, Ps);

/// A semaphore change on the trace: (time, order of recording, delta, value after).
type Sample = (Ps, usize, i64, i32);

/// Link occupancy: the busy intervals of each link in each leg joined where
/// they overlap or touch (several engines share a link).
fn merge_links(slices: &[Slice]) -> Vec<Slice> {
    let mut by: BTreeMap<(Track, Option<usize>), Vec<Span>> = BTreeMap::new();
    for s in slices {
        if let Track::Link { .. } = s.track {
            by.entry((s.track, s.leg))
                .or_default()
                .push((s.start, s.end));
        }
    }
    let mut out = Vec::new();
    for ((track, leg), mut v) in by {
        v.sort_unstable();
        let mut cur: Option<(Ps, Ps, u64)> = None;
        let flush = |c: (Ps, Ps, u64), out: &mut Vec<Slice>| {
            out.push(Slice {
                track,
                name: "busy".to_string(),
                start: c.0,
                end: c.1,
                leg,
                args: json!({"transfers": c.2}),
            })
        };
        for (a, b) in v {
            cur = match cur {
                Some((s, e, n)) if a <= e => Some((s, e.max(b), n + 1)),
                Some(c) => {
                    flush(c, &mut out);
                    Some((a, b, 1))
                }
                None => Some((a, b, 1)),
            };
        }
        if let Some(c) = cur {
            flush(c, &mut out);
        }
    }
    out
}

/// A unit of one track: a leg's slices on one sub-lane (`start`, `end` of
/// the leg's whole interval, the leg, the slices), or the slices of no leg.
type Unit<'a> = (Ps, Ps, Option<usize>, Vec<&'a Slice>);

/// The Chrome trace-event JSON of `runs`, one after the other in trace time
/// (each starts where the one before ended); `meta` goes to `otherData`.
pub fn chrome(runs: &[Recording], meta: Value) -> Value {
    let mut events: Vec<Value> = Vec::new();
    let mut procs: BTreeMap<u16, String> = BTreeMap::new();
    let mut threads: BTreeMap<(u16, u64), (String, u64)> = BTreeMap::new();
    let mut offset: Ps = 0;
    for run in runs {
        let r = &run.rec;
        for (i, n) in r.cores.iter().enumerate() {
            procs.entry(i as u16).or_insert_with(|| n.clone());
        }
        // The recording's own collective (its label) around everything.
        let outer = run.label.as_ref().map(|l| Scope {
            name: l.clone(),
            start: 0,
            end: run.end,
            parent: None,
            args: json!({}),
        });
        let links = merge_links(&r.slices);
        for (track, slices) in slices_by_track(r, &links) {
            let units = track_units(r, slices);
            let core = track.core();
            for (k, members) in pack_lanes(&units).iter().enumerate() {
                let tid = track.tid() + 100_000 * k as u64;
                let name = if k == 0 {
                    track.name()
                } else {
                    format!("{} ({})", track.name(), k + 1)
                };
                threads.insert((core, tid), (name, tid));
                let out = lane_emits(r, outer.as_ref(), track, &units, members);
                let pid = u64::from(core) + 1;
                lane_events(&mut events, out, offset, pid, tid);
            }
        }
        counter_events(&mut events, r, offset);
        offset += run.end;
    }
    trace_json(&procs, &threads, events, offset, meta)
}

/// The recorded slices of each track, links' busy intervals merged.
fn slices_by_track<'a>(r: &'a Recorder, links: &'a [Slice]) -> BTreeMap<Track, Vec<&'a Slice>> {
    let mut by_track: BTreeMap<Track, Vec<&Slice>> = BTreeMap::new();
    for s in r
        .slices
        .iter()
        .filter(|s| !matches!(s.track, Track::Link { .. }))
    {
        by_track.entry(s.track).or_default().push(s);
    }
    for s in links {
        by_track.entry(s.track).or_default().push(s);
    }
    by_track
}

/// Units of one track: a leg's slices on one sub-lane; a unit holds its
/// leg's whole interval. Sorted by start, then leg.
fn track_units<'a>(r: &Recorder, slices: Vec<&'a Slice>) -> Vec<Unit<'a>> {
    let mut legs: BTreeMap<Option<usize>, Vec<&Slice>> = BTreeMap::new();
    for s in slices {
        legs.entry(s.leg).or_default().push(s);
    }
    let mut units: Vec<Unit<'a>> = Vec::new();
    for (leg, ss) in legs {
        let sub = nest_lanes(&ss.iter().map(|s| (s.start, s.end)).collect::<Vec<_>>());
        let n = sub.iter().copied().max().map_or(0, |m| m + 1);
        for k in 0..n {
            let mine: Vec<&Slice> = ss
                .iter()
                .zip(&sub)
                .filter(|(_, &l)| l == k)
                .map(|(s, _)| *s)
                .collect();
            let (a, b) = match leg {
                Some(l) => (r.legs[l].start, r.legs[l].end),
                None => (
                    mine.iter().map(|s| s.start).min().unwrap_or(0),
                    mine.iter().map(|s| s.end).max().unwrap_or(0),
                ),
            };
            units.push((a, b, leg, mine));
        }
    }
    units.sort_by_key(|u| (u.0, u.2));
    units
}

/// First-fit packing of the (sorted) units into lanes that do not overlap:
/// the indices of each lane's units.
fn pack_lanes(units: &[Unit<'_>]) -> Vec<Vec<usize>> {
    let mut lane_end: Vec<Ps> = Vec::new();
    let mut lanes: Vec<Vec<usize>> = Vec::new();
    for (i, u) in units.iter().enumerate() {
        let k = match lane_end.iter().position(|&e| e <= u.0) {
            Some(k) => k,
            None => {
                lane_end.push(0);
                lanes.push(Vec::new());
                lane_end.len() - 1
            }
        };
        lane_end[k] = u.1.max(u.0);
        lanes[k].push(i);
    }
    lanes
}

/// Everything drawn on one lane: each unit's leg with its step and
/// collective (once each), the recording's outer collective (once), and the
/// unit's slices; parents first: by start, then the longer one.
fn lane_emits<'a>(
    r: &'a Recorder,
    outer: Option<&'a Scope>,
    track: Track,
    units: &'a [Unit<'a>],
    members: &[usize],
) -> Vec<Emit<'a>> {
    let mut out: Vec<Emit> = Vec::new();
    let mut seen_steps = std::collections::BTreeSet::new();
    let mut seen_colls = std::collections::BTreeSet::new();
    let mut outer_done = false;
    for &i in members {
        let (_, _, leg, ref ss) = units[i];
        if let Some(l) = leg {
            leg_emits(r, l, &mut out, &mut seen_steps, &mut seen_colls);
        }
        if let (Some(o), false) = (outer, outer_done) {
            outer_done = true;
            out.push(Emit {
                depth: 0,
                cat: "collective",
                name: &o.name,
                start: o.start,
                end: o.end,
                args: &o.args,
            });
        }
        for s in ss {
            out.push(Emit {
                depth: 3,
                cat: track.cat(),
                name: &s.name,
                start: s.start,
                end: s.end,
                args: &s.args,
            });
        }
    }
    out.sort_by_key(|e| (e.start, std::cmp::Reverse(e.end), e.depth));
    out
}

/// Leg `l`, then its step and the step's collective where not yet on the lane.
fn leg_emits<'a>(
    r: &'a Recorder,
    l: usize,
    out: &mut Vec<Emit<'a>>,
    seen_steps: &mut std::collections::BTreeSet<usize>,
    seen_colls: &mut std::collections::BTreeSet<usize>,
) {
    let lg = &r.legs[l];
    out.push(Emit {
        depth: 2,
        cat: "leg",
        name: &lg.name,
        start: lg.start,
        end: lg.end,
        args: &lg.args,
    });
    let Some(st) = lg.parent else { return };
    if !seen_steps.insert(st) {
        return;
    }
    let s = &r.steps[st];
    out.push(Emit {
        depth: 1,
        cat: "step",
        name: &s.name,
        start: s.start,
        end: s.end,
        args: &s.args,
    });
    let Some(c) = s.parent else { return };
    if seen_colls.insert(c) {
        let c = &r.collectives[c];
        out.push(Emit {
            depth: 0,
            cat: "collective",
            name: &c.name,
            start: c.start,
            end: c.end,
            args: &c.args,
        });
    }
}

/// One lane's emits (parents first) as begin/end pairs in nesting order: a
/// viewer that turns `X` into begin/end computes `ts + dur` in floating
/// point and may close a step after the next one opened.
fn lane_events(events: &mut Vec<Value>, out: Vec<Emit<'_>>, offset: Ps, pid: u64, tid: u64) {
    let mut open: Vec<(Ps, &str, Option<&Value>)> = Vec::new();
    let end_ev = |t: Ps, name: &str, args: Option<&Value>| {
        let mut ev = json!({"name": name, "ph": "E", "ts": us(offset + t), "pid": pid, "tid": tid});
        if let Some(a) = args {
            ev["args"] = a.clone();
        }
        ev
    };
    for e in &out {
        while let Some(&(t, n, a)) = open.last().filter(|(t, _, _)| *t <= e.start) {
            events.push(end_ev(t, n, a));
            open.pop();
        }
        // A zero-length slice is an instant.
        let mut ev = json!({
            "name": e.name, "cat": e.cat, "ph": if e.end > e.start { "B" } else { "i" },
            "ts": us(offset + e.start), "pid": pid, "tid": tid,
        });
        if e.end == e.start {
            ev["s"] = json!("t");
        }
        // A leg's arguments go on its end event (trace viewers
        // merge them into the slice; speedscope, which labels a
        // slice with its begin event's name and arguments, shows
        // the plain name).
        let on_end = e.cat == "leg" && e.end > e.start;
        let args = e.args.as_object().is_some_and(|a| !a.is_empty());
        if args && !on_end {
            ev["args"] = e.args.clone();
        }
        events.push(ev);
        if e.end > e.start {
            open.push((e.end, e.name, (args && on_end).then_some(e.args)));
        }
    }
    while let Some((t, n, a)) = open.pop() {
        events.push(end_ev(t, n, a));
    }
}

/// Counter tracks: at the recording's start the value before its first
/// change, then the running sum of the changes in trace-time order (legs of
/// a step ran one after the other in the executor but are concurrent on the
/// trace).
fn counter_events(events: &mut Vec<Value>, r: &Recorder, offset: Ps) {
    let mut counters: BTreeMap<(u16, u8), Vec<Sample>> = BTreeMap::new();
    for (k, c) in r.sems.iter().enumerate() {
        counters
            .entry((c.core, c.sem))
            .or_default()
            .push((c.t, k, c.delta, c.after));
    }
    for ((core, sem), mut v) in counters {
        v.sort_by_key(|&(t, k, _, _)| (t, k));
        let (_, _, d0, a0) = v[0];
        let mut val = i64::from(a0) - d0;
        let name = format!("sem {sem}");
        let pid = u64::from(core) + 1;
        events.push(json!({
            "name": name, "ph": "C", "ts": us(offset), "pid": pid, "args": {"value": val},
        }));
        for (t, _, d, _) in v {
            val += d;
            events.push(json!({
                "name": name, "ph": "C", "ts": us(offset + t), "pid": pid, "args": {"value": val},
            }));
        }
    }
}

/// Process and thread names and sort order, then `events`, with `otherData`.
fn trace_json(
    procs: &BTreeMap<u16, String>,
    threads: &BTreeMap<(u16, u64), (String, u64)>,
    events: Vec<Value>,
    end: Ps,
    meta: Value,
) -> Value {
    let mut meta_ev: Vec<Value> = Vec::new();
    for (&c, n) in procs {
        let pid = u64::from(c) + 1;
        meta_ev.push(json!({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": n}}));
        meta_ev.push(
            json!({"name": "process_sort_index", "ph": "M", "pid": pid, "args": {"sort_index": c}}),
        );
    }
    for (&(c, tid), (n, sort)) in threads {
        let pid = u64::from(c) + 1;
        meta_ev.push(
            json!({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": n}}),
        );
        meta_ev.push(json!({"name": "thread_sort_index", "ph": "M", "pid": pid, "tid": tid, "args": {"sort_index": sort}}));
    }
    meta_ev.extend(events);
    let mut other = Map::new();
    other.insert("time".into(), json!("modeled (ts and dur in microseconds)"));
    other.insert("end_us".into(), json!(us(end)));
    if let Value::Object(m) = meta {
        other.extend(m);
    }
    json!({
        "traceEvents": meta_ev,
        "displayTimeUnit": "ns",
        "otherData": other,
    })
}

pub mod check;

#[cfg(test)]
mod tests;
