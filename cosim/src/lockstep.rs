//! The generic lockstep runner: one golden model and its Verilated RTL, the
//! same seeded environment driving both, every output compared every cycle.
//!
//! Per cycle: the environment produces the inputs from the previous golden
//! outputs (with [`Options::twin`], a twin of it produces the RTL's from the
//! RTL's outputs, and the twins must agree — a divergence of inputs is
//! reported too), both sides step, and the packed outputs (masked to each
//! port's width) are compared. On the first divergence the run stops and the
//! [`Mismatch`] names the cycle, every differing signal with both values, the
//! last `history` cycles of inputs and outputs, the seed, and the command that
//! replays the run with waveforms.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use sb2sb_model::ports::{BlockDesc, CycleModel, PortBundle, Signal, Stimulus};
use serde::Serialize;

use crate::describe::{BeatTrack, Describer, Ports};
use crate::rtl::{RtlDut, XInit};
use crate::waves::{WavePaths, WaveSet};

/// How to run one block.
#[derive(Debug, Clone)]
pub struct Options {
    pub seed: u64,
    pub cycles: u64,
    /// Write golden, RTL and comparison VCDs plus a `.gtkw` here.
    pub vcd_dir: Option<PathBuf>,
    /// Show a progress bar (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Cycles of history in a mismatch report.
    pub history: usize,
    pub x_init: XInit,
    /// Extra CLI arguments that reproduce this run (e.g. an injected fault),
    /// appended to the replay command.
    pub replay_extra: String,
    /// 1: golden and RTL on one thread; 2: each on its own thread (see [`run`]).
    pub threads: usize,
    /// Coverage builds: write the Verilated model's coverage points here at
    /// the end of the run (`make coverage` merges them).
    pub coverage_out: Option<PathBuf>,
    /// With `vcd_dir`: convert the traces to FST (GTKWave's `vcd2fst`).
    pub fst: bool,
    /// Blocks whose environment keeps end-of-run state (`Stimulus::TWIN`):
    /// drive the RTL from an environment twin of its own, fed by the RTL's
    /// outputs, check that both twins produce the same inputs every cycle and
    /// compare their end state (`Stimulus::compare_final`). Off by default:
    /// one environment drives both sides (docs/decisions.md row "One
    /// environment by default").
    pub twin: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            seed: 1,
            cycles: 10_000,
            vcd_dir: None,
            progress: false,
            history: 32,
            x_init: XInit::Random,
            replay_extra: String::new(),
            threads: default_threads(),
            coverage_out: None,
            fst: false,
            twin: false,
        }
    }
}

/// One differing signal.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SignalDiff {
    pub signal: String,
    pub golden: String,
    pub rtl: String,
}

/// What diverged.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MismatchKind {
    /// Outputs of golden and RTL differ.
    Output,
    /// The two environment twins produced different inputs.
    Stimulus,
    /// End-of-run state (e.g. memory images) differs.
    Final,
    /// An interface assertion bound into the RTL failed (assertion builds).
    Assertion,
}

/// The first divergence of a run.
#[derive(Debug, Clone, Serialize)]
pub struct Mismatch {
    pub block: String,
    pub kind: MismatchKind,
    pub cycle: u64,
    pub seed: u64,
    pub diffs: Vec<SignalDiff>,
    /// Free text for `Final` mismatches; `NAME in TOP.<scope>` for `Assertion`.
    pub detail: String,
    /// The failed assertion's name (`AXI_WLAST`, ...) for `Assertion` failures.
    pub assertion: Option<String>,
    /// One line per cycle, oldest first, ending with the failing cycle.
    pub history: Vec<String>,
    pub replay: String,
}

impl Mismatch {
    /// The human-readable report.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let what = match self.kind {
            MismatchKind::Output => "output mismatch",
            MismatchKind::Stimulus => {
                "stimulus divergence (environment twins produced different inputs)"
            }
            MismatchKind::Final => "end-of-run state mismatch",
            MismatchKind::Assertion => "interface assertion failed",
        };
        let _ = writeln!(
            s,
            "LOCKSTEP FAILURE in block `{}`: {what} at cycle {} (seed {})",
            self.block, self.cycle, self.seed
        );
        if !self.diffs.is_empty() {
            let w = self
                .diffs
                .iter()
                .map(|d| d.signal.len())
                .max()
                .unwrap_or(6)
                .max(6);
            let gw = self
                .diffs
                .iter()
                .map(|d| d.golden.len())
                .max()
                .unwrap_or(6)
                .max(6);
            let _ = writeln!(s, "  {:w$}  {:gw$}  rtl", "signal", "golden");
            for d in &self.diffs {
                let _ = writeln!(s, "  {:w$}  {:gw$}  {}", d.signal, d.golden, d.rtl);
            }
        }
        if let Some(a) = &self.assertion {
            let _ = writeln!(s, "  assertion {a} ({})", self.detail);
        } else if !self.detail.is_empty() {
            let _ = writeln!(s, "  {}", self.detail);
        }
        if !self.history.is_empty() {
            let _ = writeln!(
                s,
                "history (last {} cycles; first row in full, then only signals that changed; o:/r: = golden/RTL outputs):",
                self.history.len()
            );
            for h in &self.history {
                let _ = writeln!(s, "  {h}");
            }
        }
        let _ = writeln!(s, "replay with waveforms:\n  {}", self.replay);
        s
    }
}

/// Result of a run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub block: String,
    pub seed: u64,
    pub cycles_planned: u64,
    pub cycles_run: u64,
    pub mismatches: u64,
    pub first_mismatch: Option<Mismatch>,
    pub seconds: f64,
    pub cycles_per_sec: f64,
    pub coverage: Vec<(String, u64)>,
    pub waves: Option<WavePaths>,
    /// Threads the run used (1 = serial, 2 = golden and RTL on their own threads).
    pub threads: usize,
    /// The RTL was driven by an environment twin of its own (`Options::twin`
    /// on a block whose environment keeps end-of-run state).
    pub twin: bool,
    /// CPU seconds of the calling thread (golden model + environment, and on
    /// one thread also the RTL), when the OS reports per-thread CPU time.
    pub cpu_main_s: Option<f64>,
    /// CPU seconds of the RTL thread of a two-thread run.
    pub cpu_rtl_s: Option<f64>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.mismatches == 0
    }
    /// Coverage counter by name (0 when absent).
    pub fn cov(&self, name: &str) -> u64 {
        self.coverage
            .iter()
            .find(|(n, _)| n == name)
            .map(|c| c.1)
            .unwrap_or(0)
    }
}

/// Format a packed signal value as hex with the digits its width needs.
pub fn fmt_value(s: &Signal, w: &[u64]) -> String {
    let digits = s.width.div_ceil(4) as usize;
    let mut h = String::new();
    for k in (0..s.words()).rev() {
        let d = if k == s.words() - 1 {
            digits - 16 * (s.words() - 1)
        } else {
            16
        };
        let _ = write!(h, "{:0d$x}", w[k], d = d);
    }
    if s.width == 1 {
        format!("{}", w[0] & 1)
    } else {
        format!("0x{h}")
    }
}

fn diffs(sigs: &[Signal], a: &[u64], b: &[u64]) -> Vec<SignalDiff> {
    let mut v = Vec::new();
    let mut off = 0;
    for s in sigs {
        let n = s.words();
        if a[off..off + n] != b[off..off + n] {
            v.push(SignalDiff {
                signal: s.name.to_string(),
                golden: fmt_value(s, &a[off..off + n]),
                rtl: fmt_value(s, &b[off..off + n]),
            });
        }
        off += n;
    }
    v
}

/// Equality of two packed port images, without a `memcmp` call (they are a
/// few words long and compared every cycle).
#[inline(always)]
fn words_eq(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Cycles ahead of the one being checked whose batch rows the RTL thread
/// asks the cache for ([`prefetch`]). 32 rather than 8: the
/// decoder's RTL thread, the shortest cycle (≈ 85 ns), went from 11.5–13.2
/// to 8.7–9.5 ms per 100 000 cycles against 8.4–8.6 ms for the RTL alone
/// (`cargo bench --bench lockstep`, per-thread CPU times, 7 rounds × 2
/// runs each); a row lands ≈ 3 µs before its cycle on the decoder and 32
/// rows of the widest block (the leg, 544 bytes) stay within L1.
const PREFETCH_AHEAD: usize = 32;

/// Ask the cache for the lines of `w` (a hint: no effect on results). The
/// RTL thread reads each batch row once, written by the golden thread on the
/// other core; without the hint those loads stalled the comparison (`perf`:
/// ≈ 13 % of the RTL thread's samples in `RtlSide::batch`, most on the first
/// loads of the golden row).
#[inline(always)]
fn prefetch(w: &[u64]) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for line in w.chunks(8) {
            // SAFETY: a prefetch never faults and reads nothing into the
            // program; the pointer is in bounds of `w`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = w;
}

/// One history row: cycle, packed inputs, golden outputs, RTL outputs, beat record.
type Row<'a> = (u64, &'a [u64], &'a [u64], &'a [u64], &'a [u64]);

/// Ring buffer of the last cycles' packed ports, preallocated. A cycle is
/// written in place: the runner packs the inputs and golden outputs straight
/// into the next row ([`History::slot`]), the Verilated model writes its
/// outputs there and the beat record goes there too, so recording costs no
/// extra copy; [`History::commit`] then makes the row part of the history.
#[derive(Clone)]
struct History {
    /// Rows kept (the `history` option; 0 keeps none).
    cap: usize,
    /// Rows allocated: `cap` + 1, so the row being written never overwrites
    /// the oldest kept one (a stimulus divergence is reported with the row
    /// of its cycle written but not committed).
    alloc: usize,
    /// Words of one row: cycle, inputs, golden outputs, RTL outputs, beat record.
    iw: usize,
    ow: usize,
    /// Words of one row (`1 + iw + 2 * ow + xw`, `xw` the words of the
    /// [`BeatTrack`] record, AXI4 beat numbers).
    w: usize,
    /// `alloc` rows back to back, a ring; `next` is the row written next,
    /// starting at word `off` (= `next * w`).
    buf: Vec<u64>,
    next: usize,
    off: usize,
    len: usize,
    /// Beat record of the RTL outputs of a differing cycle (the rows hold the golden side's).
    rtl_rec: Option<(u64, Vec<u64>)>,
}

/// The four parts of the row being written: inputs, golden outputs, RTL outputs, beat record.
type Slot<'a> = (&'a mut [u64], &'a mut [u64], &'a mut [u64], &'a mut [u64]);

impl History {
    fn new(cap: usize, iw: usize, ow: usize, xw: usize) -> Self {
        let alloc = cap + 1;
        let w = 1 + iw + 2 * ow + xw;
        Self {
            cap,
            alloc,
            iw,
            ow,
            w,
            buf: vec![0; alloc * w],
            next: 0,
            off: 0,
            len: 0,
            rtl_rec: None,
        }
    }

    #[inline(always)]
    fn width(&self) -> usize {
        self.w
    }

    /// The row written next (not yet part of the history).
    #[inline(always)]
    fn slot(&mut self) -> Slot<'_> {
        let row = &mut self.buf[self.off + 1..self.off + self.w];
        let (ri, rest) = row.split_at_mut(self.iw);
        let (rg, rest) = rest.split_at_mut(self.ow);
        let (rr, rx) = rest.split_at_mut(self.ow);
        (ri, rg, rr, rx)
    }

    /// The row of [`History::slot`] becomes cycle `cycle` of the history.
    #[inline(always)]
    fn commit(&mut self, cycle: u64) {
        self.buf[self.off] = cycle;
        if self.next + 1 == self.alloc {
            self.next = 0;
            self.off = 0;
        } else {
            self.next += 1;
            self.off += self.w;
        }
        self.len = (self.len + 1).min(self.cap);
    }

    /// The row committed last: (inputs, RTL outputs).
    fn last(&self) -> (&[u64], &[u64]) {
        let w = self.width();
        let j = (self.next + self.alloc - 1) % self.alloc;
        let row = &self.buf[j * w + 1..(j + 1) * w];
        let (ri, rest) = row.split_at(self.iw);
        (ri, &rest[self.ow..2 * self.ow])
    }

    /// The recorded rows, oldest first.
    fn rows(&self) -> Vec<Row<'_>> {
        let w = self.width();
        let start = (self.next + self.alloc - self.len) % self.alloc;
        (0..self.len)
            .map(|k| {
                let j = (start + k) % self.alloc;
                let row = &self.buf[j * w..(j + 1) * w];
                let (ins, rest) = row[1..].split_at(self.iw);
                let (g, rest) = rest.split_at(self.ow);
                let (r, x) = rest.split_at(self.ow);
                (row[0], ins, g, r, x)
            })
            .collect()
    }

    fn render(&self, block: &BlockDesc) -> Vec<String> {
        let mut out = Vec::new();
        let rows = self.rows();
        let mut prev: Option<&Row> = None;
        // Named transactions of each row (golden side; the RTL side's where it differs).
        let mut desc_g = Describer::new(block);
        let mut desc_r = Describer::new(block);
        for row in &rows {
            let mut line = format!("cycle {:>8} |", row.0);
            let mut any = false;
            let mut emit = |prefix: &str,
                            sigs: &[Signal],
                            cur: &[u64],
                            old: Option<&[u64]>,
                            line: &mut String| {
                let mut off = 0;
                for s in sigs {
                    let n = s.words();
                    let v = &cur[off..off + n];
                    if old.map(|o| &o[off..off + n] != v).unwrap_or(true) {
                        let _ = write!(line, " {prefix}{}={}", s.name, fmt_value(s, v));
                        any = true;
                    }
                    off += n;
                }
            };
            emit("", block.inputs, row.1, prev.map(|p| p.1), &mut line);
            line.push_str(" |");
            emit("o:", block.outputs, row.2, prev.map(|p| p.2), &mut line);
            if row.2 != row.3 {
                line.push_str(" | RTL differs:");
                for d in diffs(block.outputs, row.2, row.3) {
                    let _ = write!(line, " r:{}={}", d.signal, d.rtl);
                }
            }
            if !any {
                line.push_str(" (no change)");
            }
            let eg = desc_g.cycle(&Ports::new(block, row.1, row.2), row.4);
            let rec_r = match &self.rtl_rec {
                Some((c, r)) if *c == row.0 => &r[..],
                _ => row.4,
            };
            let er = desc_r.cycle(&Ports::new(block, row.1, row.3), rec_r);
            if !eg.is_empty() {
                let _ = write!(line, " || {}", eg.join("; "));
            }
            if er != eg {
                let _ = write!(line, " || rtl: {}", er.join("; "));
            }
            out.push(line);
            prev = Some(row);
        }
        out
    }
}

fn replay_cmd(block: &BlockDesc, opts: &Options) -> String {
    let dir = opts
        .vcd_dir
        .as_ref()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|| "waves".into());
    let x = match opts.x_init {
        XInit::Zero => " --x-init zero",
        XInit::Random => "",
    };
    let twin = if opts.twin { " --twin" } else { "" };
    format!(
        "sb2sb cosim --block {} --seed {} --cycles {}{x}{twin}{} --vcd {dir}   (then: gtkwave -r {dir}/gtkwaverc {dir}/{}.gtkw)",
        block.name,
        opts.seed,
        opts.cycles,
        if opts.replay_extra.is_empty() { String::new() } else { format!(" {}", opts.replay_extra) },
        block.name
    )
}

/// Cycles per batch handed from the golden thread to the RTL thread.
const BATCH: usize = 2048;
/// Batches in flight between the two threads.
const QUEUE: usize = 4;

/// Number of threads a run uses by default: 2 (golden + environment on one,
/// Verilated RTL on the other) when the machine has two hardware threads.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().min(2))
        .unwrap_or(1)
}

/// The RTL side of a run: the Verilated model, its environment twin (for
/// blocks whose environment keeps end-of-run state), waveforms, history and
/// the per-cycle comparison. The serial and the two-thread runner share it,
/// so both check exactly the same things in the same order.
struct RtlSide<S: Stimulus> {
    rtl: RtlDut<S::In, S::Out>,
    waves: Option<WaveSet>,
    hist: History,
    /// AXI4 beat numbering for the history (nothing on blocks without a burst master).
    beats: BeatTrack,
    env_r: Option<S>,
    prev_r: Option<S::Out>,
    inw_r: Vec<u64>,
    block: &'static BlockDesc,
    opts: Options,
    cycles_run: u64,
    /// The first mismatch, once found (the run stops there).
    first: Option<Mismatch>,
    /// [`RtlSide::batch`]: the RTL outputs of the cycle being checked.
    out_r: Vec<u64>,
}

/// What the RTL side hands back at the end of a run.
struct RtlDone<S> {
    first: Option<Mismatch>,
    /// Two-thread runs that stopped early: the environment as it was at the
    /// failing cycle (the golden thread's own has run ahead), for coverage.
    env_stop: Option<S>,
    cycles_run: u64,
    env_r: Option<S>,
    waves: Option<WavePaths>,
    /// The last cycles, rendered only if an end-of-run mismatch needs them.
    hist: History,
    /// CPU seconds of the RTL thread (two-thread runs).
    cpu_s: Option<f64>,
}

impl<S: Stimulus> RtlSide<S> {
    fn new(block: &'static BlockDesc, opts: &Options, env_r: Option<S>) -> Result<Self> {
        let mut rtl: RtlDut<S::In, S::Out> = RtlDut::new(block, opts.seed, opts.x_init)?;
        let waves = match &opts.vcd_dir {
            Some(d) => {
                let w = WaveSet::create(d, block)?;
                rtl.open_trace(&w.paths().rtl_vcd)?;
                Some(w)
            }
            None => None,
        };
        let iw = <S::In as PortBundle>::WORDS;
        let ow = <S::Out as PortBundle>::WORDS;
        let beats = BeatTrack::new(block);
        let xw = beats.words();
        Ok(Self {
            rtl,
            waves,
            hist: History::new(opts.history, iw, ow, xw),
            beats,
            env_r,
            prev_r: None,
            inw_r: vec![0; iw],
            block,
            opts: opts.clone(),
            cycles_run: 0,
            first: None,
            out_r: vec![0; ow],
        })
    }

    fn mismatch(
        &self,
        kind: MismatchKind,
        cycle: u64,
        diffs: Vec<SignalDiff>,
        detail: &str,
    ) -> Mismatch {
        Mismatch {
            block: self.block.name.into(),
            kind,
            cycle,
            seed: self.opts.seed,
            diffs,
            detail: detail.into(),
            assertion: None,
            history: self.hist.render(self.block),
            replay: replay_cmd(self.block, &self.opts),
        }
    }

    /// An interface assertion failed in cycle `c`: `what` is `NAME in SCOPE`.
    #[cold]
    fn assertion_failure(&self, c: u64, what: String) -> Mismatch {
        let (name, scope) = match what.split_once(" in ") {
            // `%m` of the check names its labelled block last: drop it.
            Some((n, sc)) => {
                let sc = sc.strip_suffix(&format!(".{n}")).unwrap_or(sc);
                (n.to_string(), format!("in {sc}"))
            }
            None => (what.clone(), String::new()),
        };
        let mut m = self.mismatch(MismatchKind::Assertion, c, Vec::new(), &scope);
        m.assertion = Some(name);
        m
    }

    /// The beat record of the RTL outputs of a differing cycle (the row
    /// committed last), for the history; `beats` is the tracker as it was
    /// before that cycle.
    #[cold]
    fn rtl_beats(mut beats: BeatTrack, hist: &mut History, c: u64) {
        let mut rec = vec![0; beats.words()];
        let (ri, rr) = hist.last();
        beats.step(ri, rr, &mut rec);
        hist.rtl_rec = Some((c, rec));
    }

    #[cold]
    fn stimulus_divergence(&mut self, c: u64) {
        let (ri, ..) = self.hist.slot();
        let inw_g = ri.to_vec();
        let d = diffs(self.block.inputs, &inw_g, &self.inw_r);
        self.first = Some(self.mismatch(
            MismatchKind::Stimulus,
            c,
            d,
            "inputs listed as golden-side / RTL-side environment",
        ));
    }

    #[cold]
    fn output_mismatch(&mut self, c: u64, pre: BeatTrack) {
        Self::rtl_beats(pre, &mut self.hist, c);
        let w = self.hist.width();
        let j = (self.hist.next + self.hist.alloc - 1) % self.hist.alloc;
        let row = &self.hist.buf[j * w + 1..(j + 1) * w];
        let (_, rest) = row.split_at(self.hist.iw);
        let (g, rest) = rest.split_at(self.hist.ow);
        let d = diffs(self.block.outputs, g, &rest[..self.hist.ow]);
        self.first = Some(self.mismatch(MismatchKind::Output, c, d, ""));
    }

    /// Cycle `c` of the RTL: `fill` writes the golden side's packed inputs
    /// and outputs of the cycle (into the history row, see [`History::slot`]).
    /// Returns `true` when the run must stop ([`RtlSide::first`] is set).
    #[inline]
    fn cycle(&mut self, c: u64, fill: impl FnOnce(&mut [u64], &mut [u64])) -> Result<bool> {
        let (ri, rg, rr, rx) = self.hist.slot();
        fill(ri, rg);
        if let Some(env) = self.env_r.as_mut() {
            let ir = env.next(c, self.prev_r.as_ref());
            ir.pack(&mut self.inw_r);
            if !words_eq(&self.inw_r, ri) {
                self.stimulus_divergence(c);
                return Ok(true);
            }
        }
        self.rtl.step_into(ri, rr);
        // Always `None` (and compiled out) outside assertion builds.
        let failed = self.rtl.take_assert_failure();
        if let Some(w) = self.waves.as_mut() {
            w.sample(c, ri, rg, rr)?;
        }
        let differ = !words_eq(rg, rr);
        let pre = if differ {
            Some(self.beats.clone())
        } else {
            None
        };
        self.beats.step(ri, rg, rx);
        if self.env_r.is_some() && !differ {
            self.prev_r = Some(<S::Out as PortBundle>::unpack(rr));
        }
        self.hist.commit(c);
        self.cycles_run = c + 1;
        if let Some(pre) = pre {
            self.output_mismatch(c, pre);
            return Ok(true);
        }
        if let Some(a) = failed {
            self.first = Some(self.assertion_failure(c, a));
            return Ok(true);
        }
        Ok(false)
    }

    /// The cycles of a two-thread batch `b` without copying each into the
    /// history: the RTL steps straight from the batch's packed inputs and is
    /// compared with its golden outputs, and only the rows the history keeps
    /// are written into it, at the end of the batch or when the run stops.
    /// The beat records come with the batch (the golden thread followed the
    /// beats: [`Batch::recs`]); on a stop the tracker as it stood before the
    /// failing cycle is the batch-start snapshot [`Batch::beats0`] advanced
    /// through the cycles before it. The history, the beat records and the
    /// report are those [`RtlSide::cycle`] makes for the same cycles. Only
    /// without an RTL-side environment twin or waveforms (the caller checks).
    /// Returns the index of the cycle the run stopped at ([`RtlSide::first`]
    /// is set).
    fn batch(&mut self, b: &Batch) -> Option<usize> {
        debug_assert!(self.env_r.is_none() && self.waves.is_none());
        let iw = <S::In as PortBundle>::WORDS;
        let ow = <S::Out as PortBundle>::WORDS;
        let xw = self.beats.words();
        let (first, n, inw, gw) = (b.first, b.n, &b.inw[..], &b.gw[..]);
        for k in 0..n {
            let ri = &inw[k * iw..(k + 1) * iw];
            let rg = &gw[k * ow..(k + 1) * ow];
            let ahead = k + PREFETCH_AHEAD;
            if ahead < n {
                prefetch(&inw[ahead * iw..(ahead + 1) * iw]);
                prefetch(&gw[ahead * ow..(ahead + 1) * ow]);
            }
            self.rtl.step_into(ri, &mut self.out_r);
            // Always `None` (and compiled out) outside assertion builds.
            let failed = self.rtl.take_assert_failure();
            let differ = !words_eq(rg, &self.out_r);
            if differ || failed.is_some() {
                // The tracker as it stood before cycle k.
                let mut pre = b.beats0.clone();
                let mut scratch = vec![0; xw];
                for j in 0..k {
                    pre.step(
                        &inw[j * iw..(j + 1) * iw],
                        &gw[j * ow..(j + 1) * ow],
                        &mut scratch,
                    );
                }
                // The row of cycle k (always written: the report reads it
                // back even when no history is kept) and the rows before it.
                let keep = self.hist.cap.max(1);
                self.hist_rows(b, (k + 1).saturating_sub(keep), k);
                let (hi, hg, hr, hx) = self.hist.slot();
                hi.copy_from_slice(ri);
                hg.copy_from_slice(rg);
                hr.copy_from_slice(&self.out_r);
                hx.copy_from_slice(&b.recs[k * xw..(k + 1) * xw]);
                self.hist.commit(first + k as u64);
                self.cycles_run = first + k as u64 + 1;
                if differ {
                    self.output_mismatch(first + k as u64, pre);
                } else if let Some(a) = failed {
                    self.first = Some(self.assertion_failure(first + k as u64, a));
                }
                return Some(k);
            }
        }
        self.hist_rows(b, n.saturating_sub(self.hist.cap), n);
        self.cycles_run = first + n as u64;
        None
    }

    /// Rows `from..to` of batch `b`, committed into the history (RTL outputs
    /// = golden outputs: every one of them was checked equal).
    fn hist_rows(&mut self, b: &Batch, from: usize, to: usize) {
        let iw = <S::In as PortBundle>::WORDS;
        let ow = <S::Out as PortBundle>::WORDS;
        let xw = self.beats.words();
        for j in from..to {
            let (ri, rg, rr, rx) = self.hist.slot();
            ri.copy_from_slice(&b.inw[j * iw..(j + 1) * iw]);
            rg.copy_from_slice(&b.gw[j * ow..(j + 1) * ow]);
            rr.copy_from_slice(&b.gw[j * ow..(j + 1) * ow]);
            rx.copy_from_slice(&b.recs[j * xw..(j + 1) * xw]);
            self.hist.commit(b.first + j as u64);
        }
    }

    fn finish(mut self) -> Result<RtlDone<S>> {
        let first = self.first.take();
        self.rtl.close_trace();
        if let Some(p) = &self.opts.coverage_out {
            self.rtl.write_coverage(p)?;
        }
        let waves = match self.waves.take() {
            Some(w) => {
                let diffs: Vec<String> = first
                    .iter()
                    .flat_map(|m| m.diffs.iter().map(|d| d.signal.clone()))
                    .collect();
                let w = w.finish(first.as_ref().map(|m| m.cycle), &diffs)?;
                if self.opts.fst {
                    Some(crate::waves::to_fst(
                        w,
                        self.block,
                        first.as_ref().map(|m| m.cycle),
                        &diffs,
                    )?)
                } else {
                    Some(w)
                }
            }
            None => None,
        };
        Ok(RtlDone {
            hist: self.hist,
            first,
            env_stop: None,
            cpu_s: None,
            cycles_run: self.cycles_run,
            env_r: self.env_r,
            waves,
        })
    }
}

fn progress_bar(block: &BlockDesc, opts: &Options) -> Option<indicatif::ProgressBar> {
    if !(opts.progress && std::io::stderr().is_terminal() && opts.cycles >= 100_000) {
        return None;
    }
    let b = indicatif::ProgressBar::new(opts.cycles);
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix:>10} [{bar:40}] {pos}/{len} cycles {per_sec} eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    b.set_prefix(block.name);
    Some(b)
}

/// Run `golden` against the Verilated RTL of `block` under environment `stim`.
///
/// With `opts.threads >= 2` the golden model and its environment run on the
/// calling thread and the Verilated RTL on a second thread, fed in batches
/// of packed inputs and golden outputs; the checks, the history and the
/// first-mismatch report are the same as on one thread (the RTL side makes
/// them), only the golden side may have run a few batches past the failing
/// cycle when it stops. One thread without a twin or waveforms alternates
/// the same way, a batch of golden cycles then the RTL's
/// (`run_serial_batched`); with either, it goes cycle by cycle. The RTL-side environment twin (`Stimulus::TWIN` with `Options::twin`)
/// runs on the calling thread too, a few batches behind (`GoldenTwin`);
/// with `vcd_dir` set it stays on the RTL thread (so the RTL trace of a run
/// stopped by a twin divergence ends at that cycle, as on one thread).
pub fn run<G, S>(golden: G, stim: S, block: &'static BlockDesc, opts: &Options) -> Result<Report>
where
    G: CycleModel<In = S::In, Out = S::Out> + Clone,
    S: Stimulus,
{
    let env_r = if S::TWIN && opts.twin {
        Some(stim.clone())
    } else {
        None
    };
    let t0 = Instant::now();
    let cpu0 = crate::cputime::thread_cpu_ns();
    let (env_g, done) = if opts.threads >= 2 {
        run_pipelined(golden, stim, env_r, block, opts)?
    } else {
        run_serial(golden, stim, env_r, block, opts)?
    };
    let seconds = t0.elapsed().as_secs_f64();
    let cpu_main_s = crate::cputime::thread_cpu_s_since(cpu0);
    let RtlDone {
        mut first,
        env_stop,
        cycles_run,
        env_r,
        waves,
        hist,
        cpu_s: cpu_rtl_s,
    } = done;
    if first.is_none() {
        if let Some(env_r) = &env_r {
            if let Err(detail) = env_g.compare_final(env_r) {
                first = Some(Mismatch {
                    block: block.name.into(),
                    kind: MismatchKind::Final,
                    cycle: cycles_run,
                    seed: opts.seed,
                    diffs: Vec::new(),
                    detail,
                    assertion: None,
                    history: hist.render(block),
                    replay: replay_cmd(block, opts),
                });
                // The traces were closed before this check: reopen the `.gtkw` on it.
                if let (Some(w), Some(m)) = (&waves, &first) {
                    crate::waves::reopen_at_final(w, block, m.cycle, &m.detail)?;
                }
            }
        }
    }
    Ok(Report {
        block: block.name.into(),
        seed: opts.seed,
        cycles_planned: opts.cycles,
        cycles_run,
        mismatches: u64::from(first.is_some()),
        first_mismatch: first,
        seconds,
        cycles_per_sec: if seconds > 0.0 {
            cycles_run as f64 / seconds
        } else {
            0.0
        },
        coverage: env_stop.as_ref().unwrap_or(&env_g).coverage(),
        waves,
        threads: if opts.threads >= 2 { 2 } else { 1 },
        twin: S::TWIN && opts.twin,
        cpu_main_s,
        cpu_rtl_s,
    })
}

fn run_serial<G, S>(
    golden: G,
    env_g: S,
    env_r: Option<S>,
    block: &'static BlockDesc,
    opts: &Options,
) -> Result<(S, RtlDone<S>)>
where
    G: CycleModel<In = S::In, Out = S::Out> + Clone,
    S: Stimulus,
{
    // Without an RTL-side twin or waveforms (the default): in batches.
    if env_r.is_none() && opts.vcd_dir.is_none() {
        run_serial_batched(golden, env_g, block, opts)
    } else {
        run_serial_cycles(golden, env_g, env_r, block, opts)
    }
}

/// The serial runner cycle by cycle: the environment twin, when there is one,
/// must follow the RTL outputs of each cycle before the next, and waveforms
/// end at the cycle the run stops at.
fn run_serial_cycles<G, S>(
    mut golden: G,
    mut env_g: S,
    env_r: Option<S>,
    block: &'static BlockDesc,
    opts: &Options,
) -> Result<(S, RtlDone<S>)>
where
    G: CycleModel<In = S::In, Out = S::Out>,
    S: Stimulus,
{
    let mut side = RtlSide::<S>::new(block, opts, env_r)?;
    let mut prev_g: Option<S::Out> = None;
    let bar = progress_bar(block, opts);
    for c in 0..opts.cycles {
        let ig = env_g.next(c, prev_g.as_ref());
        let og = golden.step(&ig);
        if side.cycle(c, |iw, gw| {
            ig.pack(iw);
            og.pack(gw);
        })? {
            break;
        }
        prev_g = Some(og);
        if let Some(b) = &bar {
            if c & 0xFFFF == 0 {
                b.set_position(c);
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok((env_g, side.finish()?))
}

/// Cycles the serial runner steps the golden side ahead of the RTL
/// ([`run_serial_batched`]). 512: udma 2 000 000 cycles took 0.87 / 0.89 /
/// 0.83 / 0.84 / 0.83 s user at 128 / 256 / 512 / 1024 / 2048 (0.97 s
/// cycle by cycle); a batch of the udma (62 words a cycle) is 254 KB, within
/// the L2 cache.
const SERIAL_BATCH: usize = 512;

/// The serial runner without an RTL-side twin or waveforms: the golden model
/// and its environment run [`SERIAL_BATCH`] cycles into a [`Batch`], then the
/// Verilated model checks them ([`RtlSide::batch`], as the RTL thread of a
/// two-thread run does), batch after batch, on one thread.
///
/// Why not cycle by cycle: golden model, environment and Verilated model
/// each have more code than the caches and branch predictors keep at once,
/// and alternating them every cycle made every one of them slower
/// (`perf`: the udma golden model took ≈ 76 ns a cycle inside the lockstep
/// against 50 ns alone). In batches, `cargo bench --bench udma` lockstep 1
/// speed went from 0.50 to 0.56–0.60 (udma, udma_w128, udma_w32); evt_sem
/// 2 000 000 cycles from 1.07 to 0.93 s, the leg from 0.83 to 0.80 s,
/// the decoder (small code) unchanged.
///
/// The checks, the history and the report are the two-thread run's, which
/// are the cycle-by-cycle run's; the environment's coverage at a failing
/// cycle is rebuilt as there, by replaying from copies taken before cycle 0
/// ([`replay_env`]): the golden side has run up to a batch past it.
fn run_serial_batched<G, S>(
    mut golden: G,
    mut env_g: S,
    block: &'static BlockDesc,
    opts: &Options,
) -> Result<(S, RtlDone<S>)>
where
    G: CycleModel<In = S::In, Out = S::Out> + Clone,
    S: Stimulus,
{
    let mut side = RtlSide::<S>::new(block, opts, None)?;
    let mut beats_g = BeatTrack::new(block);
    let start = (golden.clone(), env_g.clone());
    let mut b = Batch::new::<S>(SERIAL_BATCH, beats_g.words(), &beats_g);
    let bar = progress_bar(block, opts);
    let mut prev_g: Option<S::Out> = None;
    let mut c = 0u64;
    while c < opts.cycles {
        fill_batch(
            &mut b,
            SERIAL_BATCH,
            opts.cycles,
            &mut c,
            &mut golden,
            &mut env_g,
            &mut prev_g,
            &mut beats_g,
        );
        if side.batch(&b).is_some() {
            break;
        }
        if let Some(bar) = &bar {
            if c & 0xFFFF < SERIAL_BATCH as u64 {
                bar.set_position(c);
            }
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let mut done = side.finish()?;
    if done.first.is_some() {
        done.env_stop = Some(replay_env(start.0, start.1, done.cycles_run));
    }
    Ok((env_g, done))
}

/// Fills batch `b` from cycle `*c` on (advanced past the batch): up to `cap`
/// cycles, or to `cycles`, of the golden model driven by its environment,
/// each cycle's inputs and golden outputs packed into the batch's rows and
/// its beat record followed over the golden outputs when the batch has room
/// for them (`Batch::xw` > 0; the batch keeps the tracker as it stood before
/// the first cycle). The golden side of both
/// batched runners ([`run_serial_batched`], [`run_pipelined`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn fill_batch<G, S>(
    b: &mut Batch,
    cap: usize,
    cycles: u64,
    c: &mut u64,
    golden: &mut G,
    env_g: &mut S,
    prev_g: &mut Option<S::Out>,
    beats_g: &mut BeatTrack,
) where
    G: CycleModel<In = S::In, Out = S::Out>,
    S: Stimulus,
{
    let iw = <S::In as PortBundle>::WORDS;
    let ow = <S::Out as PortBundle>::WORDS;
    let xw = b.xw;
    b.first = *c;
    b.n = 0;
    if xw > 0 {
        b.beats0.clone_from(beats_g);
    }
    while b.n < cap && *c < cycles {
        let ig = env_g.next(*c, prev_g.as_ref());
        // The environment has read the last outputs: this cycle's are
        // written over them, in place (`CycleModel::step_to`).
        let og = prev_g.get_or_insert_with(Default::default);
        golden.step_to(&ig, og);
        let (ri, rg) = (
            &mut b.inw[b.n * iw..(b.n + 1) * iw],
            &mut b.gw[b.n * ow..(b.n + 1) * ow],
        );
        ig.pack(ri);
        og.pack(rg);
        if xw > 0 {
            beats_g.step(ri, rg, &mut b.recs[b.n * xw..(b.n + 1) * xw]);
        }
        b.n += 1;
        *c += 1;
    }
}

/// Packed inputs and golden outputs of `n` consecutive cycles from `first`.
struct Batch {
    first: u64,
    n: usize,
    /// Words of one beat record in [`Batch::recs`]; 0 when the golden side
    /// does not follow the beats (the RTL side checks cycle by cycle).
    xw: usize,
    inw: Vec<u64>,
    gw: Vec<u64>,
    /// Beat records of the cycles ([`BeatTrack::words`] per cycle), followed
    /// on the golden thread over the golden outputs (equal to the RTL ones on
    /// every cycle the RTL side checks clean), so the RTL thread, the busier
    /// one on every block but the decoder, does not follow the beats itself.
    /// Only filled when the RTL side checks whole batches ([`RtlSide::batch`]).
    recs: Vec<u64>,
    /// The golden thread's beat tracker as it stood before `first`.
    beats0: BeatTrack,
    /// Set by the RTL thread when the run stopped in this batch: the failing cycle.
    stop: Option<u64>,
    /// Twin on the golden thread: the RTL side's history as it was before
    /// `first`, to render a stimulus divergence found in this batch exactly
    /// as the RTL side would have.
    hist0: Option<History>,
}

impl Batch {
    /// An empty batch with room for `cap` cycles of block bundles `S` and
    /// beat records of `xw` words (0: the golden side does not follow the
    /// beats), the tracker `beats` as its start.
    fn new<S: Stimulus>(cap: usize, xw: usize, beats: &BeatTrack) -> Self {
        Self {
            first: 0,
            n: 0,
            xw,
            inw: vec![0; cap * <S::In as PortBundle>::WORDS],
            gw: vec![0; cap * <S::Out as PortBundle>::WORDS],
            recs: vec![0; cap * xw],
            beats0: beats.clone(),
            stop: None,
            hist0: None,
        }
    }
}

/// The RTL-side environment twin of a two-thread run, on the golden thread.
///
/// It lags the golden environment: it steps through each batch only when the
/// RTL thread hands the batch back, i.e. once every output of it was checked
/// equal, so the golden outputs it is driven from *are* the RTL outputs (the
/// packed words compared equal). When the RTL thread stopped in a batch it
/// steps up to the failing cycle, and stands where the serial runner's
/// environment stands (coverage at stop). A twin whose inputs differ from
/// the golden environment's is reported as [`MismatchKind::Stimulus`] with
/// the history the RTL side had at that cycle (rebuilt from the batch's
/// `hist0` snapshot), and the RTL thread is told to stop.
struct GoldenTwin<S: Stimulus> {
    env: S,
    prev: Option<S::Out>,
    inw: Vec<u64>,
    /// A stimulus divergence, once found (the cycle is `cycles_run`).
    first: Option<Mismatch>,
    /// The RTL thread stopped (mismatch or assertion) and the twin is there.
    stopped: bool,
}

impl<S: Stimulus> GoldenTwin<S> {
    fn new(env: S) -> Self {
        Self {
            env,
            prev: None,
            inw: vec![0; <S::In as PortBundle>::WORDS],
            first: None,
            stopped: false,
        }
    }

    /// Step through a batch handed back by the RTL thread.
    fn take(&mut self, b: &mut Batch, block: &'static BlockDesc, opts: &Options) {
        if self.first.is_some() || self.stopped {
            return;
        }
        let iw = <S::In as PortBundle>::WORDS;
        let ow = <S::Out as PortBundle>::WORDS;
        let last = match b.stop {
            Some(c) => (c - b.first) as usize + 1,
            None => b.n,
        };
        for k in 0..last {
            let c = b.first + k as u64;
            self.env.next(c, self.prev.as_ref()).pack(&mut self.inw);
            if !words_eq(&self.inw, &b.inw[k * iw..(k + 1) * iw]) {
                self.first = Some(self.divergence(b, k, block, opts));
                return;
            }
            self.prev = Some(<S::Out as PortBundle>::unpack(&b.gw[k * ow..(k + 1) * ow]));
        }
        self.stopped = b.stop.is_some();
    }

    /// The report the RTL side makes for a divergence at cycle `first + k`
    /// ([`RtlSide::stimulus_divergence`]): its history is the batch-start
    /// snapshot advanced through the batch's clean cycles (RTL outputs =
    /// golden outputs there).
    #[cold]
    fn divergence(
        &self,
        b: &mut Batch,
        k: usize,
        block: &'static BlockDesc,
        opts: &Options,
    ) -> Mismatch {
        let iw = <S::In as PortBundle>::WORDS;
        let ow = <S::Out as PortBundle>::WORDS;
        let mut hist = b.hist0.take().expect(
            "the RTL thread snapshots its history into every batch of a golden-thread twin",
        );
        let xw = b.beats0.words();
        for j in 0..k {
            let (ri, rg, rr, rx) = hist.slot();
            ri.copy_from_slice(&b.inw[j * iw..(j + 1) * iw]);
            rg.copy_from_slice(&b.gw[j * ow..(j + 1) * ow]);
            rr.copy_from_slice(&b.gw[j * ow..(j + 1) * ow]);
            rx.copy_from_slice(&b.recs[j * xw..(j + 1) * xw]);
            hist.commit(b.first + j as u64);
        }
        let c = b.first + k as u64;
        let inw_g = &b.inw[k * iw..(k + 1) * iw];
        Mismatch {
            block: block.name.into(),
            kind: MismatchKind::Stimulus,
            cycle: c,
            seed: opts.seed,
            diffs: diffs(block.inputs, inw_g, &self.inw),
            detail: "inputs listed as golden-side / RTL-side environment".into(),
            assertion: None,
            history: hist.render(block),
            replay: replay_cmd(block, opts),
        }
    }
}

fn run_pipelined<G, S>(
    mut golden: G,
    mut env_g: S,
    env_r: Option<S>,
    block: &'static BlockDesc,
    opts: &Options,
) -> Result<(S, RtlDone<S>)>
where
    G: CycleModel<In = S::In, Out = S::Out> + Clone,
    S: Stimulus,
{
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc;
    // Environment twins: the RTL-side twin runs on this (golden) thread,
    // lagging by the batches in flight (see [`GoldenTwin`]), so the RTL thread
    // runs the Verilated model and the checks only. Waveform runs keep it on
    // the RTL thread: their traces then end where the serial run's end.
    let (env_r, mut twin) = match env_r {
        Some(e) if opts.vcd_dir.is_none() => (None, Some(GoldenTwin::new(e))),
        e => (e, None),
    };
    let twin_here = twin.is_some();
    // The RTL side checks whole batches ([`RtlSide::batch`]) when it has no
    // environment twin and writes no waveforms; the golden thread then
    // follows the AXI beats for it ([`Batch::recs`]).
    let beats_here = env_r.is_none() && opts.vcd_dir.is_none();
    // Without a twin, the golden thread has run batches past a failing
    // cycle when it hears of it; the environment as it stood at that cycle
    // (its coverage is the report's) is rebuilt from copies taken before
    // cycle 0, by replaying golden model and environment up to the cycle
    // (`replay_env`): a cost paid once, by a failing run only.
    let start = if twin.is_none() && env_r.is_none() {
        Some((golden.clone(), env_g.clone()))
    } else {
        None
    };
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::sync_channel::<Batch>(QUEUE);
    let (back_tx, back_rx) = mpsc::channel::<Batch>();
    std::thread::scope(|sc| {
        let abort = &abort;
        // The Verilated model is created, stepped and dropped on this thread.
        let worker =
            sc.spawn(move || rtl_thread(block, opts, env_r, twin_here, rx, back_tx, abort));
        let ends = GoldenEnds { tx, back_rx, abort };
        produce_batches(
            &mut golden,
            &mut env_g,
            &mut twin,
            beats_here,
            ends,
            block,
            opts,
        );
        let done = worker
            .join()
            .map_err(|_| anyhow::anyhow!("the RTL thread of block {} panicked", block.name))??;
        Ok((env_g, merge_twin(done, twin, start)))
    })
}

/// The golden thread's ends of the two batch channels and the abort flag.
struct GoldenEnds<'a> {
    tx: std::sync::mpsc::SyncSender<Batch>,
    back_rx: std::sync::mpsc::Receiver<Batch>,
    abort: &'a std::sync::atomic::AtomicBool,
}

/// The RTL thread of [`run_pipelined`]: creates the Verilated model, checks
/// every batch the golden thread sends (whole batches in place when it has
/// no environment twin and writes no waveforms, cycle by cycle otherwise),
/// hands each batch back, and stops at the first mismatch or assertion.
fn rtl_thread<S: Stimulus>(
    block: &'static BlockDesc,
    opts: &Options,
    env_r: Option<S>,
    twin_here: bool,
    rx: std::sync::mpsc::Receiver<Batch>,
    back_tx: std::sync::mpsc::Sender<Batch>,
    abort: &std::sync::atomic::AtomicBool,
) -> Result<RtlDone<S>> {
    use std::sync::atomic::Ordering;
    let iw = <S::In as PortBundle>::WORDS;
    let ow = <S::Out as PortBundle>::WORDS;
    let cpu0 = crate::cputime::thread_cpu_ns();
    let mut side = RtlSide::<S>::new(block, opts, env_r)?;
    // No twin and no waveforms on this thread: check whole batches
    // in place ([`RtlSide::batch`]).
    let fast = side.env_r.is_none() && side.waves.is_none();
    let mut env_stop = None;
    for mut b in rx {
        // The golden thread's twin diverged in an earlier batch.
        if abort.load(Ordering::Relaxed) {
            break;
        }
        if twin_here {
            b.hist0 = Some(side.hist.clone());
        }
        // The cycle the run stopped at, if it did in this batch.
        let stopped = if fast {
            side.batch(&b)
        } else {
            let mut stopped = None;
            for k in 0..b.n {
                let c = b.first + k as u64;
                let gw = &b.gw[k * ow..(k + 1) * ow];
                let inw = &b.inw[k * iw..(k + 1) * iw];
                if side.cycle(c, |ri, rg| {
                    ri.copy_from_slice(inw);
                    rg.copy_from_slice(gw);
                })? {
                    stopped = Some(k);
                    break;
                }
            }
            stopped
        };
        if let Some(k) = stopped {
            // The RTL-side twin stopped at this cycle too (`None`
            // when the twin is on the golden thread or there is none:
            // the golden thread then provides it).
            env_stop = side.env_r.clone();
            b.stop = Some(b.first + k as u64);
            let _ = back_tx.send(b);
            break;
        }
        let _ = back_tx.send(b);
    }
    let mut done = side.finish()?;
    done.env_stop = env_stop;
    done.cpu_s = crate::cputime::thread_cpu_s_since(cpu0);
    Ok(done)
}

/// The golden thread of [`run_pipelined`]: fills batches (golden model,
/// environment, AXI beat records) and sends them to the RTL thread until the
/// run's cycles are done or the RTL thread hangs up; the environment twin
/// steps through every batch the RTL thread hands back, and a twin
/// divergence raises the abort flag.
fn produce_batches<G, S>(
    golden: &mut G,
    env_g: &mut S,
    twin: &mut Option<GoldenTwin<S>>,
    beats_here: bool,
    ends: GoldenEnds<'_>,
    block: &'static BlockDesc,
    opts: &Options,
) where
    G: CycleModel<In = S::In, Out = S::Out>,
    S: Stimulus,
{
    use std::sync::atomic::Ordering;
    let GoldenEnds { tx, back_rx, abort } = ends;
    let mut beats_g = BeatTrack::new(block);
    let xw = if beats_here { beats_g.words() } else { 0 };
    let bar = progress_bar(block, opts);
    let mut prev_g: Option<S::Out> = None;
    let mut free: Vec<Batch> = Vec::new();
    let mut c = 0u64;
    while c < opts.cycles {
        // Batches the RTL thread is done with: the twin steps through them.
        while let Ok(mut rb) = back_rx.try_recv() {
            if let Some(t) = twin.as_mut() {
                t.take(&mut rb, block, opts);
            }
            free.push(rb);
        }
        if twin.as_ref().is_some_and(|t| t.first.is_some()) {
            abort.store(true, Ordering::Relaxed);
            break;
        }
        let mut b = free
            .pop()
            .unwrap_or_else(|| Batch::new::<S>(BATCH, xw, &beats_g));
        b.stop = None;
        fill_batch(
            &mut b,
            BATCH,
            opts.cycles,
            &mut c,
            golden,
            env_g,
            &mut prev_g,
            &mut beats_g,
        );
        // The RTL side hung up: it found the first mismatch (or failed).
        if tx.send(b).is_err() {
            break;
        }
        if let Some(bar) = &bar {
            if c & 0xFFFF < BATCH as u64 {
                bar.set_position(c);
            }
        }
    }
    drop(tx);
    // The rest of the batches, until the RTL thread hangs up.
    for mut rb in back_rx.iter() {
        if let Some(t) = twin.as_mut() {
            t.take(&mut rb, block, opts);
            if t.first.is_some() {
                abort.store(true, Ordering::Relaxed);
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// The run's result from the RTL thread's, the environment twin's and, for a
/// failing run without a twin, the environment replayed to the failing cycle.
fn merge_twin<G, S>(
    mut done: RtlDone<S>,
    twin: Option<GoldenTwin<S>>,
    start: Option<(G, S)>,
) -> RtlDone<S>
where
    G: CycleModel<In = S::In, Out = S::Out>,
    S: Stimulus,
{
    if let Some(t) = twin {
        match t.first {
            // The twin diverged before any cycle the RTL side stopped at.
            Some(m) => {
                done.cycles_run = m.cycle;
                done.first = Some(m);
                done.env_stop = Some(t.env);
            }
            None if done.first.is_some() => done.env_stop = Some(t.env),
            None => done.env_r = Some(t.env),
        }
    }
    if let Some((g, e)) = start {
        if done.first.is_some() && done.env_stop.is_none() {
            done.env_stop = Some(replay_env(g, e, done.cycles_run));
        }
    }
    done
}

/// The environment `env` as it stands after producing the inputs of cycles
/// `0..cycles`, each from the outputs `golden` gave for the cycle before —
/// what the serial runner's environment is when it stops after `cycles`
/// cycles (the RTL outputs it would have seen are the golden ones: every
/// cycle before the failing one was checked equal).
#[cold]
fn replay_env<G, S>(mut golden: G, mut env: S, cycles: u64) -> S
where
    G: CycleModel<In = S::In, Out = S::Out>,
    S: Stimulus,
{
    let mut prev: Option<S::Out> = None;
    for c in 0..cycles {
        let i = env.next(c, prev.as_ref());
        if c + 1 < cycles {
            prev = Some(golden.step(&i));
        }
    }
    env
}

/// A test-only fault for any block: flip bit `bit` of output `signal` at
/// cycle `cycle` of the wrapped (golden) model. Proves the harness catches a
/// single-bit divergence and names the right cycle and signal.
#[derive(Clone)]
pub struct FlipOutputBit<G: CycleModel> {
    pub inner: G,
    pub cycle: u64,
    pub signal: &'static str,
    pub bit: u32,
    now: u64,
    words: Vec<u64>,
    off: usize,
}

impl<G: CycleModel> FlipOutputBit<G> {
    /// Errors when `signal` is not an output of the block or `bit` is out of range.
    pub fn new(inner: G, signal: &str, bit: u32, cycle: u64) -> Result<Self> {
        let sigs = <G::Out as PortBundle>::SIGNALS;
        let mut off = 0;
        for s in sigs {
            if s.name == signal {
                anyhow::ensure!(
                    bit < s.width,
                    "fault bit {bit} is outside output `{signal}` ({} bits)",
                    s.width
                );
                return Ok(Self {
                    inner,
                    cycle,
                    signal: s.name,
                    bit,
                    now: 0,
                    words: vec![0; <G::Out as PortBundle>::WORDS],
                    off: off + (bit / 64) as usize,
                });
            }
            off += s.words();
        }
        anyhow::bail!(
            "fault signal `{signal}` is not an output of this block (outputs: {})",
            sigs.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
        )
    }
}

impl<G: CycleModel> CycleModel for FlipOutputBit<G> {
    type In = G::In;
    type Out = G::Out;
    fn step(&mut self, i: &G::In) -> G::Out {
        let mut o = self.inner.step(i);
        if self.now == self.cycle {
            o.pack(&mut self.words);
            self.words[self.off] ^= 1u64 << (self.bit % 64);
            o = G::Out::unpack(&self.words);
        }
        self.now += 1;
        o
    }
}

/// Parse `SIGNAL:BIT@CYCLE` (the `--inject-fault` syntax).
pub fn parse_fault(spec: &str) -> Result<(String, u32, u64)> {
    let err = || {
        anyhow::anyhow!("--inject-fault `{spec}`: expected SIGNAL:BIT@CYCLE, e.g. addr_o:3@1000")
    };
    let (sig, rest) = spec.split_once(':').ok_or_else(err)?;
    let (bit, cyc) = rest.split_once('@').ok_or_else(err)?;
    let bit = bit.trim().parse().map_err(|_| err())?;
    let cyc = cyc.trim().parse().map_err(|_| err())?;
    anyhow::ensure!(!sig.is_empty(), err());
    Ok((sig.to_string(), bit, cyc))
}

#[cfg(test)]
mod tests {
    //! The batched serial runner against the cycle-by-cycle one: the same
    //! report (cycle, signals, history rows with beat records), cycles run
    //! and coverage, for flips at and around batch boundaries.

    use super::*;
    use sb2sb_model::decoder::{self, Decoder, DecoderStim};
    use sb2sb_model::evt_sem::{self, EvtSem, EvtSemFault, EvtSemStim};
    use sb2sb_model::udma::{self, Udma, UdmaStim};

    fn opts(seed: u64, cycles: u64, history: usize) -> Options {
        Options {
            seed,
            cycles,
            history,
            threads: 1,
            ..Options::default()
        }
    }

    /// What a user sees of a serial run (as `run` reports it).
    fn visible<S: Stimulus>(r: (S, RtlDone<S>)) -> String {
        let (env, done) = r;
        let m = done.first.as_ref().map(|m| m.render()).unwrap_or_default();
        let cov = done.env_stop.as_ref().unwrap_or(&env).coverage();
        format!("run={}\n{m}\ncov={cov:?}", done.cycles_run)
    }

    /// Both serial runners over `golden` and `env`; returns the batched report.
    fn same<G, S>(golden: G, env: S, block: &'static BlockDesc, o: &Options) -> String
    where
        G: CycleModel<In = S::In, Out = S::Out> + Clone,
        S: Stimulus,
    {
        let b = visible(run_serial_batched(golden.clone(), env.clone(), block, o).unwrap());
        let c = visible(run_serial_cycles(golden, env, None, block, o).unwrap());
        assert_eq!(b, c);
        b
    }

    #[test]
    fn decoder_flips_around_batch_boundaries_report_as_cycle_by_cycle() {
        let last = SERIAL_BATCH as u64 - 1;
        for hist in [0usize, 5, 32, SERIAL_BATCH + 100] {
            for cycle in [0u64, 1, last, last + 1, 3 * last + 2, 4000] {
                let g = FlipOutputBit::new(Decoder::new(), "addr_o", 3, cycle).unwrap();
                let r = same(
                    g,
                    DecoderStim::new(9, 5_000),
                    &decoder::BLOCK,
                    &opts(9, 5_000, hist),
                );
                assert!(r.starts_with(&format!("run={}\n", cycle + 1)), "{r}");
            }
        }
        // A clean run, ending inside a batch.
        let o = opts(3, 2 * SERIAL_BATCH as u64 + 7, 32);
        same(
            Decoder::new(),
            DecoderStim::new(3, o.cycles),
            &decoder::BLOCK,
            &o,
        );
    }

    #[test]
    fn udma_flips_with_beat_records_report_as_cycle_by_cycle() {
        let (seed, cycles) = (3u64, 6_000u64);
        // A W beat in the middle of a burst: the RTL side's beat record of
        // the failing row differs from the golden one.
        let (mut g, mut s) = (Udma::new(), UdmaStim::new(seed, cycles));
        let (mut prev, mut k, mut mid) = (None, 0u32, None);
        for c in 0..cycles {
            let i = s.next(c, prev.as_ref());
            let o = g.step(&i);
            if o.m_axi_wvalid == 1 && i.m_axi_wready == 1 {
                k += 1;
                if k >= 2 && o.m_axi_wlast == 0 && c > 2_000 && mid.is_none() {
                    mid = Some(c);
                }
                if o.m_axi_wlast == 1 {
                    k = 0;
                }
            }
            prev = Some(o);
        }
        let mid = mid.expect("a mid-burst W beat");
        let o = opts(seed, cycles, 32);
        let r = same(
            FlipOutputBit::new(Udma::new(), "m_axi_wvalid", 0, mid).unwrap(),
            UdmaStim::new(seed, cycles),
            &udma::BLOCK,
            &o,
        );
        assert!(r.contains("|| rtl:") && r.contains("beat "), "{r}");
        for cycle in [SERIAL_BATCH as u64 * 4 - 1, SERIAL_BATCH as u64 * 4] {
            let g = FlipOutputBit::new(Udma::new(), "s_axil_rvalid", 0, cycle).unwrap();
            same(g, UdmaStim::new(seed, cycles), &udma::BLOCK, &o);
        }
        same(
            Udma::new(),
            UdmaStim::new(seed, 3_000),
            &udma::BLOCK,
            &opts(seed, 3_000, 32),
        );
    }

    #[test]
    fn evt_sem_fault_reports_as_cycle_by_cycle() {
        let (seed, cycles) = (5u64, 40_000u64);
        let mut g = EvtSem::new();
        g.fault = Some(EvtSemFault::DropSameCycleIncrement);
        let r = same(
            g,
            EvtSemStim::new(seed, cycles),
            &evt_sem::BLOCK,
            &opts(seed, cycles, 32),
        );
        assert!(r.contains("LOCKSTEP FAILURE"), "{r}");
    }
}
