//! The generic lockstep runner: one golden model and its Verilated RTL, the
//! same seeded environment driving both, every output compared every cycle.
//!
//! Per cycle: the environment twin of each side produces the inputs from that
//! side's previous outputs (the twins must agree — a divergence of inputs is
//! reported too), both sides step, and the packed outputs (masked to each
//! port's width) are compared. On the first divergence the run stops and the
//! [`Mismatch`] names the cycle, every differing signal with both values, the
//! last `history` cycles of inputs and outputs, the seed, and the command that
//! replays the run with waveforms.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use sb2sb_model::ports::{BlockDesc, CycleModel, PortBundle, Signal, Stimulus};
use serde::Serialize;

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
}

/// The first divergence of a run.
#[derive(Debug, Clone, Serialize)]
pub struct Mismatch {
    pub block: String,
    pub kind: MismatchKind,
    pub cycle: u64,
    pub seed: u64,
    pub diffs: Vec<SignalDiff>,
    /// Free text for `Final` mismatches.
    pub detail: String,
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
        if !self.detail.is_empty() {
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

/// One history row: cycle, packed inputs, golden outputs, RTL outputs.
type Row = (u64, Vec<u64>, Vec<u64>, Vec<u64>);

/// Ring buffer of the last cycles' packed ports, preallocated so that a
/// cycle costs three slice copies.
struct History {
    cap: usize,
    rows: VecDeque<Row>,
    spare: Vec<Row>,
}

impl History {
    fn new(cap: usize, iw: usize, ow: usize) -> Self {
        let spare = (0..cap)
            .map(|_| (0, vec![0; iw], vec![0; ow], vec![0; ow]))
            .collect();
        Self {
            cap,
            rows: VecDeque::with_capacity(cap),
            spare,
        }
    }

    #[inline]
    fn push(&mut self, cycle: u64, i: &[u64], g: &[u64], r: &[u64]) {
        if self.cap == 0 {
            return;
        }
        let mut row = if self.rows.len() == self.cap {
            self.rows.pop_front()
        } else {
            self.spare.pop()
        }
        .unwrap_or_default();
        row.0 = cycle;
        row.1.clear();
        row.1.extend_from_slice(i);
        row.2.clear();
        row.2.extend_from_slice(g);
        row.3.clear();
        row.3.extend_from_slice(r);
        self.rows.push_back(row);
    }

    fn render(&self, block: &BlockDesc) -> Vec<String> {
        let mut out = Vec::new();
        let mut prev: Option<&Row> = None;
        for row in &self.rows {
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
            emit(
                "",
                block.inputs,
                &row.1,
                prev.map(|p| p.1.as_slice()),
                &mut line,
            );
            line.push_str(" |");
            emit(
                "o:",
                block.outputs,
                &row.2,
                prev.map(|p| p.2.as_slice()),
                &mut line,
            );
            if row.2 != row.3 {
                line.push_str(" | RTL differs:");
                for d in diffs(block.outputs, &row.2, &row.3) {
                    let _ = write!(line, " r:{}={}", d.signal, d.rtl);
                }
            }
            if !any {
                line.push_str(" (no change)");
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
    format!(
        "sb2sb cosim --block {} --seed {} --cycles {}{x}{} --vcd {dir}   (then: gtkwave {dir}/{}.gtkw)",
        block.name,
        opts.seed,
        opts.cycles,
        if opts.replay_extra.is_empty() { String::new() } else { format!(" {}", opts.replay_extra) },
        block.name
    )
}

/// Run `golden` against the Verilated RTL of `block` under environment `stim`.
pub fn run<G, S>(
    mut golden: G,
    stim: S,
    block: &'static BlockDesc,
    opts: &Options,
) -> Result<Report>
where
    G: CycleModel<In = S::In, Out = S::Out>,
    S: Stimulus,
{
    let mut rtl: RtlDut<S::In, S::Out> = RtlDut::new(block, opts.seed, opts.x_init)?;
    let mut waves = match &opts.vcd_dir {
        Some(d) => {
            let w = WaveSet::create(d, block)?;
            rtl.open_trace(&w.paths().rtl_vcd)?;
            Some(w)
        }
        None => None,
    };
    let iw = <S::In as PortBundle>::WORDS;
    let ow = <S::Out as PortBundle>::WORDS;
    let (mut inw_g, mut inw_r) = (vec![0u64; iw], vec![0u64; iw]);
    let (mut gw, mut rw) = (vec![0u64; ow], vec![0u64; ow]);
    let mut env_g = stim;
    let mut env_r = env_g.clone();
    let mut prev_g: Option<S::Out> = None;
    let mut prev_r: Option<S::Out> = None;
    let mut hist = History::new(opts.history, iw, ow);

    let bar = if opts.progress && std::io::stderr().is_terminal() && opts.cycles >= 100_000 {
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
    } else {
        None
    };

    let t0 = Instant::now();
    let mut first: Option<Mismatch> = None;
    let mut cycles_run = 0;
    for c in 0..opts.cycles {
        let ig = env_g.next(c, prev_g.as_ref());
        let ir = if S::TWIN {
            env_r.next(c, prev_r.as_ref())
        } else {
            ig.clone()
        };
        ig.pack(&mut inw_g);
        if S::TWIN && ig != ir {
            ir.pack(&mut inw_r);
            if inw_g != inw_r {
                first = Some(Mismatch {
                    block: block.name.into(),
                    kind: MismatchKind::Stimulus,
                    cycle: c,
                    seed: opts.seed,
                    diffs: diffs(block.inputs, &inw_g, &inw_r),
                    detail: "inputs listed as golden-side / RTL-side environment".into(),
                    history: hist.render(block),
                    replay: replay_cmd(block, opts),
                });
                cycles_run = c;
                break;
            }
        }
        let og = golden.step(&ig);
        rtl.step_words(&ir);
        og.pack(&mut gw);
        rw.copy_from_slice(rtl.last_words());
        if let Some(w) = waves.as_mut() {
            w.sample(c, &inw_g, &gw, &rw)?;
        }
        hist.push(c, &inw_g, &gw, &rw);
        cycles_run = c + 1;
        if gw != rw {
            first = Some(Mismatch {
                block: block.name.into(),
                kind: MismatchKind::Output,
                cycle: c,
                seed: opts.seed,
                diffs: diffs(block.outputs, &gw, &rw),
                detail: String::new(),
                history: hist.render(block),
                replay: replay_cmd(block, opts),
            });
            break;
        }
        prev_g = Some(og);
        if S::TWIN {
            prev_r = Some(<S::Out as PortBundle>::unpack(&rw));
        }
        if let Some(b) = &bar {
            if c & 0xFFFF == 0 {
                b.set_position(c);
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let seconds = t0.elapsed().as_secs_f64();
    if first.is_none() && S::TWIN {
        if let Err(detail) = env_g.compare_final(&env_r) {
            first = Some(Mismatch {
                block: block.name.into(),
                kind: MismatchKind::Final,
                cycle: cycles_run,
                seed: opts.seed,
                diffs: Vec::new(),
                detail,
                history: hist.render(block),
                replay: replay_cmd(block, opts),
            });
        }
    }
    rtl.close_trace();
    let waves = match waves {
        Some(w) => Some(w.finish()?),
        None => None,
    };
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
        coverage: env_g.coverage(),
        waves,
    })
}

/// A test-only fault for any block: flip bit `bit` of output `signal` at
/// cycle `cycle` of the wrapped (golden) model. Proves the harness catches a
/// single-bit divergence and names the right cycle and signal.
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
