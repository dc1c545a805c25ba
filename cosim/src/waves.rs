//! Waveforms of a lockstep run: the golden trace (same signal names as the
//! Verilator trace), a comparison trace with golden and RTL side by side, and
//! a GTKWave save file (`.gtkw`) that opens the comparison.
//!
//! Sampling: one sample per cycle at the lockstep sample point (inputs driven,
//! combinational logic settled, before the rising edge) at time `10·cycle` ns;
//! `clk_i` rises at `10·cycle + 5`. The Verilator trace additionally shows the
//! post-edge values at `10·cycle + 5`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use sb2sb_model::ports::{BlockDesc, Signal};
use vcd::{IdCode, ReferenceIndex, TimescaleUnit, Value, VarType};

type Vw = vcd::Writer<BufWriter<File>>;

/// Extension of the Verilator trace: `fst` in an `SB2SB_TRACE_FST=1` build
/// (Verilator's `--trace-fst`, `make waves-fst`), else `vcd`.
pub const RTL_TRACE_EXT: &str = if cfg!(sb2sb_trace_fst) { "fst" } else { "vcd" };

/// Paths written for one block.
#[derive(Debug, Clone, serde::Serialize)]
pub struct WavePaths {
    pub rtl_vcd: PathBuf,
    pub golden_vcd: PathBuf,
    pub cmp_vcd: PathBuf,
    pub gtkw: PathBuf,
    /// Block `leg` only: the RTL trace of the whole pair, grouped per core
    /// ([`pair_gtkw`], the same save file `run sendrecv --mode rtl --vcd` writes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pair_gtkw: Option<PathBuf>,
}

impl WavePaths {
    pub fn new(dir: &Path, block: &str) -> Self {
        Self {
            rtl_vcd: dir.join(format!("{block}.rtl.{RTL_TRACE_EXT}")),
            golden_vcd: dir.join(format!("{block}.golden.vcd")),
            cmp_vcd: dir.join(format!("{block}.cmp.vcd")),
            gtkw: dir.join(format!("{block}.gtkw")),
            pair_gtkw: None,
        }
    }
}

struct Trace {
    w: Vw,
    clk: IdCode,
    ids: Vec<(IdCode, Signal)>,
    last: Vec<Option<Vec<u64>>>,
}

fn add(w: &mut Vw, s: &Signal) -> Result<IdCode> {
    let idx = if s.width > 1 {
        Some(ReferenceIndex::Range(s.width as i32 - 1, 0))
    } else {
        None
    };
    Ok(w.add_var(VarType::Wire, s.width, s.name, idx)?)
}

fn bits(s: &Signal, words: &[u64]) -> Vec<Value> {
    (0..s.width)
        .rev()
        .map(|b| {
            if (words[(b / 64) as usize] >> (b % 64)) & 1 == 1 {
                Value::V1
            } else {
                Value::V0
            }
        })
        .collect()
}

impl Trace {
    /// `groups`: (scope name or "" for TOP itself, signals).
    fn create(path: &Path, groups: &[(&str, &[Signal])], extra: &[Signal]) -> Result<Self> {
        let f = File::create(path).with_context(|| format!("creating {}", path.display()))?;
        let mut w = vcd::Writer::new(BufWriter::new(f));
        w.timescale(1, TimescaleUnit::NS)?;
        w.add_module("TOP")?;
        let clk = w.add_wire(1, "clk_i")?;
        let mut ids = Vec::new();
        for s in extra {
            ids.push((add(&mut w, s)?, *s));
        }
        for (scope, sigs) in groups {
            if !scope.is_empty() {
                w.add_module(scope)?;
            }
            for s in *sigs {
                ids.push((add(&mut w, s)?, *s));
            }
            if !scope.is_empty() {
                w.upscope()?;
            }
        }
        w.upscope()?;
        w.enddefinitions()?;
        let n = ids.len();
        Ok(Self {
            w,
            clk,
            ids,
            last: vec![None; n],
        })
    }

    /// Write one cycle; `words` holds the packed values of every signal in order.
    fn sample(&mut self, cycle: u64, words: &[&[u64]]) -> Result<()> {
        let t = cycle * 10;
        self.w.timestamp(t)?;
        self.w.change_scalar(self.clk, Value::V0)?;
        let mut k = 0;
        for ws in words {
            let mut off = 0;
            while off < ws.len() {
                let (id, s) = self.ids[k];
                let v = &ws[off..off + s.words()];
                if self.last[k].as_deref() != Some(v) {
                    if s.width == 1 {
                        self.w
                            .change_scalar(id, if v[0] & 1 == 1 { Value::V1 } else { Value::V0 })?;
                    } else {
                        self.w.change_vector(id, bits(&s, v))?;
                    }
                    self.last[k] = Some(v.to_vec());
                }
                off += s.words();
                k += 1;
            }
        }
        self.w.timestamp(t + 5)?;
        self.w.change_scalar(self.clk, Value::V1)?;
        Ok(())
    }

    fn finish(mut self, cycle: u64) -> Result<()> {
        self.w.timestamp(cycle * 10)?;
        self.w.change_scalar(self.clk, Value::V0)?;
        self.w.flush()?;
        Ok(())
    }
}

const CYCLE: Signal = Signal {
    name: "cycle",
    width: 64,
};
const MISMATCH: Signal = Signal {
    name: "mismatch",
    width: 1,
};

/// Golden and comparison traces of one run.
pub struct WaveSet {
    paths: WavePaths,
    block: &'static BlockDesc,
    golden: Trace,
    cmp: Trace,
    cycles: u64,
}

impl WaveSet {
    pub fn create(dir: &Path, block: &'static BlockDesc) -> Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let paths = WavePaths::new(dir, block.name);
        let golden = Trace::create(
            &paths.golden_vcd,
            &[("", block.inputs), ("", block.outputs)],
            &[],
        )?;
        let cmp = Trace::create(
            &paths.cmp_vcd,
            &[
                ("in", block.inputs),
                ("golden", block.outputs),
                ("rtl", block.outputs),
            ],
            &[CYCLE, MISMATCH],
        )?;
        Ok(Self {
            paths,
            block,
            golden,
            cmp,
            cycles: 0,
        })
    }

    pub fn paths(&self) -> &WavePaths {
        &self.paths
    }

    pub fn sample(&mut self, cycle: u64, inw: &[u64], gw: &[u64], rw: &[u64]) -> Result<()> {
        self.golden.sample(cycle, &[inw, gw])?;
        let mm = [u64::from(gw != rw)];
        let cyc = [cycle];
        self.cmp.sample(cycle, &[&cyc, &mm, inw, gw, rw])?;
        self.cycles = cycle + 1;
        Ok(())
    }

    /// Close the traces and write the `.gtkw` save file, opened on the
    /// failing cycle `fail` (with the differing outputs `diffs` first) or,
    /// for a clean run, on its first cycles.
    pub fn finish(self, fail: Option<u64>, diffs: &[String]) -> Result<WavePaths> {
        self.golden.finish(self.cycles)?;
        // The comparison trace runs four cycles past the last sample (values
        // held), so GTKWave can open the window ending after a failure on
        // the last cycle (it refuses a start time whose window passes the end).
        self.cmp.finish(self.cycles + 4)?;
        let view = View::new(fail, self.cycles, diffs);
        write_gtkw(&self.paths, self.block, &view)?;
        Ok(self.paths)
    }
}

fn gtkw_name(scope: &str, s: &Signal) -> String {
    if s.width > 1 {
        format!("TOP.{scope}{}[{}:0]", s.name, s.width - 1)
    } else {
        format!("TOP.{scope}{}", s.name)
    }
}

fn abs(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Cycles shown before the failing one when a `.gtkw` opens on a failure.
pub const FAIL_WINDOW: u64 = 32;
/// Cycles shown when a clean run's `.gtkw` opens.
pub const CLEAN_WINDOW: u64 = 200;
/// Width in pixels of GTKWave's wave pane for the `[size]` written below
/// (window 1600 minus the signal tree, the names column and the scrollbar).
const WAVE_PANE_PX: f64 = 980.0;
/// GTKWave draws `pixelsperframe` (200) pixels per `2^-zoom` time units.
const GTKWAVE_PX_PER_FRAME: f64 = 200.0;

/// The GTKWave rc file written next to the `.gtkw` files: GTKWave shows only
/// the last component of a name by default, which would hide the `golden.` /
/// `rtl.` of each pair; `hier_max_level 2` shows them (`gtkwave -r DIR/gtkwaverc`).
pub const GTKWAVERC: &str = "# sb2sb: show golden.x / rtl.x labels in full (gtkwave -r gtkwaverc FILE.gtkw)\nhier_max_level 2\n";

/// Path of the rc file that belongs to a `.gtkw`.
pub fn rc_path(gtkw: &Path) -> PathBuf {
    gtkw.with_file_name("gtkwaverc")
}

/// Where a `.gtkw` opens: the time range shown, the marker and the outputs
/// to put first.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// Left edge of the window, ns.
    pub start_ns: u64,
    /// Right edge of the window, ns.
    pub end_ns: u64,
    /// Primary marker (the failing cycle's sample point), ns.
    pub marker_ns: Option<u64>,
    /// Outputs that differ at the failing cycle (shown first, in red).
    pub diffs: Vec<String>,
    /// A comment shown above the traces (an end-of-run mismatch's detail).
    pub note: Option<String>,
}

impl View {
    /// A failure at cycle `f` opens on the `FAIL_WINDOW` cycles before it
    /// (and two after), marker on `f`; a clean run on its first `CLEAN_WINDOW` cycles.
    pub fn new(fail: Option<u64>, cycles: u64, diffs: &[String]) -> Self {
        match fail {
            Some(f) => Self {
                start_ns: 10 * f.saturating_sub(FAIL_WINDOW - 1),
                end_ns: 10 * (f + 3),
                marker_ns: Some(10 * f),
                diffs: diffs.to_vec(),
                note: None,
            },
            None => Self {
                start_ns: 0,
                end_ns: 10 * CLEAN_WINDOW.min(cycles.max(1)),
                marker_ns: None,
                diffs: Vec::new(),
                note: None,
            },
        }
    }

    /// GTKWave's zoom value for this window: GTKWave draws 2^-zoom time
    /// units (ns here) per frame of 200 pixels.
    pub fn zoom(&self) -> f64 {
        let ns_per_px = (self.end_ns - self.start_ns).max(1) as f64 / WAVE_PANE_PX;
        -(ns_per_px * GTKWAVE_PX_PER_FRAME).log2()
    }
}

/// A GTKWave save file showing clock, cycle and mismatch, the inputs, then
/// each output as a golden/RTL pair labelled `golden.x` / `rtl.x`. It opens on
/// `view`: zoomed on the cycles before a failure with the marker on the failing
/// cycle and the differing outputs first, highlighted in red.
pub fn write_gtkw(paths: &WavePaths, block: &BlockDesc, view: &View) -> Result<()> {
    write_gtkw_for(paths, &paths.cmp_vcd, block, view)
}

/// As [`write_gtkw`], opening `dump` (the comparison trace as VCD or FST).
pub fn write_gtkw_for(
    paths: &WavePaths,
    dump: &Path,
    block: &BlockDesc,
    view: &View,
) -> Result<()> {
    std::fs::write(rc_path(&paths.gtkw), GTKWAVERC)?;
    let mut f = BufWriter::new(File::create(&paths.gtkw)?);
    writeln!(
        f,
        "[*] sb2sb lockstep: golden vs RTL for block {}",
        block.name
    )?;
    writeln!(f, "[dumpfile] \"{}\"", abs(dump).display())?;
    writeln!(f, "[savefile] \"{}\"", abs(&paths.gtkw).display())?;
    writeln!(
        f,
        "[timestart] {}\n[size] 1600 1000\n[pos] -1 -1\n[sst_width] 240\n[signals_width] 320",
        view.start_ns
    )?;
    // Zoom and primary marker (then the 26 named markers, unset).
    let marker = view.marker_ns.map_or(-1i64, |m| m as i64);
    writeln!(f, "*{:.6} {marker}{}", view.zoom(), " -1".repeat(26))?;
    writeln!(f, "@28\nTOP.clk_i")?;
    // The mismatch flag: red and highlighted (flag 0x1).
    writeln!(f, "[color] 1\n@29\n+{{MISMATCH}} TOP.mismatch\n[color] 0")?;
    writeln!(f, "@24\nTOP.cycle[63:0]")?;
    if let Some(n) = &view.note {
        // A comment trace: one line, no characters GTKWave's parser treats specially.
        let one: String = n
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(160)
            .collect();
        writeln!(f, "[color] 1\n@200\n-{one}\n[color] 0")?;
    }
    let pair = |f: &mut BufWriter<File>, s: &Signal, red: bool| -> Result<()> {
        let fmt = if s.width > 1 { 22 } else { 28 };
        if red {
            writeln!(f, "[color] 1")?;
        }
        writeln!(f, "@{fmt}")?;
        writeln!(f, "+{{golden.{}}} {}", s.name, gtkw_name("golden.", s))?;
        writeln!(f, "+{{rtl.{}}} {}", s.name, gtkw_name("rtl.", s))?;
        if red {
            writeln!(f, "[color] 0")?;
        }
        Ok(())
    };
    let differing: Vec<&Signal> = block
        .outputs
        .iter()
        .filter(|s| view.diffs.iter().any(|d| d == s.name))
        .collect();
    if !differing.is_empty() {
        writeln!(f, "@200\n-differing outputs (golden / rtl)")?;
        for s in &differing {
            pair(&mut f, s, true)?;
        }
    }
    writeln!(f, "@200\n-inputs")?;
    for s in block.inputs {
        writeln!(
            f,
            "{}\n{}",
            if s.width > 1 { "@22" } else { "@28" },
            gtkw_name("in.", s)
        )?;
    }
    writeln!(f, "@200\n-outputs (golden / rtl)")?;
    for s in block.outputs {
        if !differing.iter().any(|d| d.name == s.name) {
            pair(&mut f, s, false)?;
        }
    }
    f.flush()?;
    Ok(())
}

/// Rewrite a finished run's `.gtkw` to open on an end-of-run (final-state)
/// mismatch found after the traces were closed: marker on `cycle` (the
/// cycle after the last sample; the comparison trace runs four cycles past
/// it), the 32 cycles before it in view, `detail` as a red comment above the
/// labelled golden/RTL pairs.
pub fn reopen_at_final(
    paths: &WavePaths,
    block: &BlockDesc,
    cycle: u64,
    detail: &str,
) -> Result<()> {
    let mut view = View::new(Some(cycle), cycle, &[]);
    view.note = Some(format!("end-of-run state mismatch: {detail}"));
    write_gtkw_for(paths, &paths.cmp_vcd, block, &view)
}

/// Convert a run's traces to FST with GTKWave's `vcd2fst` (the RTL trace
/// only when Verilator wrote it as VCD), remove the VCDs and point the `.gtkw` at the comparison FST. The returned paths name
/// the `.fst` files.
pub fn to_fst(
    paths: WavePaths,
    block: &BlockDesc,
    fail: Option<u64>,
    diffs: &[String],
) -> Result<WavePaths> {
    let conv = |vcd: &Path| -> Result<PathBuf> {
        if vcd.extension().is_some_and(|e| e == "fst") {
            // Written as FST by Verilator itself (`--trace-fst` build).
            return Ok(vcd.to_path_buf());
        }
        let fst = vcd.with_extension("fst");
        let out = std::process::Command::new("vcd2fst")
            .arg(vcd)
            .arg(&fst)
            .output()
            .context("running vcd2fst (Debian package gtkwave): run `make setup`")?;
        anyhow::ensure!(
            out.status.success() && fst.exists(),
            "vcd2fst failed on {}: {}",
            vcd.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
        std::fs::remove_file(vcd).with_context(|| format!("removing {}", vcd.display()))?;
        Ok(fst)
    };
    let out = WavePaths {
        rtl_vcd: conv(&paths.rtl_vcd)?,
        golden_vcd: conv(&paths.golden_vcd)?,
        cmp_vcd: conv(&paths.cmp_vcd)?,
        gtkw: paths.gtkw.clone(),
        pair_gtkw: None,
    };
    // Cycles in the comparison trace: the failing one, or read back from the view.
    let cycles = fail.map_or(CLEAN_WINDOW, |f| f + 1);
    write_gtkw_for(&out, &out.cmp_vcd, block, &View::new(fail, cycles, diffs))?;
    Ok(out)
}

/// `(scope, name[range])` of every variable in a VCD header.
pub fn vcd_signals(vcd: &Path) -> Result<Vec<(String, String)>> {
    use std::io::BufRead;
    let f = std::io::BufReader::new(File::open(vcd).with_context(|| format!("{}", vcd.display()))?);
    let mut scope: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in f.lines() {
        let line = line?;
        let t: Vec<&str> = line.split_whitespace().collect();
        match t.as_slice() {
            ["$scope", _, name, "$end"] => scope.push((*name).to_string()),
            ["$upscope", "$end"] => {
                scope.pop();
            }
            ["$var", _, _, _, name, "$end"] => out.push((scope.join("."), (*name).to_string())),
            ["$var", _, _, _, name, range, "$end"] => {
                out.push((scope.join("."), format!("{name}{range}")))
            }
            ["$enddefinitions", ..] => break,
            _ => {}
        }
    }
    Ok(out)
}

/// The GTKWave save file of a Verilator trace of `sb2sb_pair`, grouped per
/// core: the Q7 CSR port, each engine's AXI4 master (bursts) for the engines
/// of `mask` present in the trace, the EVT_SEM increment ports, then the two
/// links. `title` is the save file's comment line. Returns the number of
/// signals placed.
pub fn pair_gtkw(vcd: &Path, gtkw: &Path, mask: u16, title: &str) -> Result<usize> {
    let sigs = vcd_signals(vcd)?;
    let pick = |scope: &str, prefixes: &[&str]| -> Vec<String> {
        sigs.iter()
            .filter(|(s, n)| s == scope && prefixes.iter().any(|p| n.starts_with(p)))
            .map(|(s, n)| format!("{s}.{n}"))
            .collect()
    };
    let top = "TOP.sb2sb_pair";
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (c, u) in [("A", "u_core_a"), ("B", "u_core_b")] {
        let core = format!("{top}.{u}");
        groups.push((
            format!("core {c}: Q7 CSR writes (AXI4-Lite port)"),
            pick(
                &format!("{core}.u_q7"),
                &[
                    "s_axil_aw",
                    "s_axil_w",
                    "s_axil_b",
                    "s_axil_ar",
                    "s_axil_r",
                    "st_q",
                ],
            ),
        ));
        for e in (0..16).filter(|e| mask >> e & 1 == 1) {
            let list = pick(
                &format!("{core}.gen_eng[{e}].u_udma"),
                &["m_axi_aw", "m_axi_w", "m_axi_b", "m_axi_ar", "m_axi_r"],
            );
            if !list.is_empty() {
                groups.push((format!("core {c}: engine {e} AXI4 bursts"), list));
            }
        }
        groups.push((
            format!("core {c}: EVT_SEM increments"),
            pick(&format!("{core}.u_evt_sem"), &["inc_"]),
        ));
    }
    for (n, u) in [("A -> B", "u_link_ab"), ("B -> A", "u_link_ba")] {
        groups.push((
            format!("link {n} (io_d2d)"),
            pick(&format!("{top}.{u}"), &["stall_i", "s_axi_", "m_axi_"]),
        ));
    }
    let mut f = BufWriter::new(File::create(gtkw)?);
    writeln!(f, "[*] {title}")?;
    writeln!(f, "[dumpfile] \"{}\"", abs(vcd).display())?;
    writeln!(f, "[savefile] \"{}\"", abs(gtkw).display())?;
    writeln!(f, "[size] 1600 1000\n[sst_width] 240\n[signals_width] 420")?;
    writeln!(f, "@28\n{top}.clk_i\n{top}.rst_ni")?;
    let mut n = 0;
    for (title, list) in &groups {
        // a closed group: 0x800200 opens it, 0x1000200 ends it
        writeln!(f, "@800200\n-{title}")?;
        for s in list {
            writeln!(f, "@{}\n{s}", if s.ends_with(']') { 22 } else { 28 })?;
            n += 1;
        }
        writeln!(f, "@1000200\n-{title}")?;
    }
    f.flush()?;
    Ok(n)
}

/// Block `leg`: next to the lockstep's own `.gtkw`, write `leg.pair.gtkw`
/// over the RTL trace of the whole pair (every engine the trace has), and
/// record it in `wv`. A no-op for an FST trace (`--fst` or an FST build: its
/// header is not text).
pub fn add_pair_gtkw(wv: &mut WavePaths) -> Result<()> {
    if wv.rtl_vcd.extension().is_none_or(|x| x != "vcd") || !wv.rtl_vcd.exists() {
        return Ok(());
    }
    let g = wv.gtkw.with_file_name("leg.pair.gtkw");
    pair_gtkw(
        &wv.rtl_vcd,
        &g,
        u16::MAX,
        "sb2sb cosim --block leg: the RTL pair, grouped per core",
    )?;
    wv.pair_gtkw = Some(g);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_view_covers_the_32_cycles_before_the_failing_one() {
        let v = View::new(Some(1000), 5000, &["valid_o".into()]);
        assert_eq!(v.start_ns, 10 * 969);
        assert_eq!(v.marker_ns, Some(10_000));
        assert_eq!(v.end_ns, 10 * 1003);
        // 340 ns over the 980-pixel pane, 200 pixels per GTKWave frame:
        // 69.4 ns per frame, zoom = -log2(69.4) (checked in GTKWave: 9690..10030 ns).
        assert!((v.zoom() + 6.117).abs() < 0.01, "{}", v.zoom());
        // Near the start the window is clamped at 0.
        assert_eq!(View::new(Some(5), 100, &[]).start_ns, 0);
    }

    #[test]
    fn clean_view_opens_on_the_first_200_cycles() {
        let v = View::new(None, 1_000_000, &[]);
        assert_eq!((v.start_ns, v.end_ns, v.marker_ns), (0, 2000, None));
        // 2000 ns over 980 pixels: zoom = -log2(2000 / 980 * 200).
        assert!((v.zoom() + (2000.0f64 / 980.0 * 200.0).log2()).abs() < 1e-9);
        assert_eq!(View::new(None, 50, &[]).end_ns, 500);
    }
}
