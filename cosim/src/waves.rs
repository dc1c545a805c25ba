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

/// Paths written for one block.
#[derive(Debug, Clone, serde::Serialize)]
pub struct WavePaths {
    pub rtl_vcd: PathBuf,
    pub golden_vcd: PathBuf,
    pub cmp_vcd: PathBuf,
    pub gtkw: PathBuf,
}

impl WavePaths {
    pub fn new(dir: &Path, block: &str) -> Self {
        Self {
            rtl_vcd: dir.join(format!("{block}.rtl.vcd")),
            golden_vcd: dir.join(format!("{block}.golden.vcd")),
            cmp_vcd: dir.join(format!("{block}.cmp.vcd")),
            gtkw: dir.join(format!("{block}.gtkw")),
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

    /// Close the traces and write the `.gtkw` save file.
    pub fn finish(self) -> Result<WavePaths> {
        self.golden.finish(self.cycles)?;
        self.cmp.finish(self.cycles)?;
        write_gtkw(&self.paths, self.block)?;
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

/// A GTKWave save file showing clock, cycle and mismatch, the inputs, then
/// each output as a golden/RTL pair.
pub fn write_gtkw(paths: &WavePaths, block: &BlockDesc) -> Result<()> {
    let mut f = BufWriter::new(File::create(&paths.gtkw)?);
    writeln!(
        f,
        "[*] sb2sb lockstep: golden vs RTL for block {}",
        block.name
    )?;
    writeln!(f, "[dumpfile] \"{}\"", abs(&paths.cmp_vcd).display())?;
    writeln!(f, "[savefile] \"{}\"", abs(&paths.gtkw).display())?;
    writeln!(
        f,
        "[timestart] 0\n[size] 1600 1000\n[pos] -1 -1\n[sst_width] 240\n[signals_width] 320"
    )?;
    writeln!(f, "@28\nTOP.clk_i\nTOP.mismatch\n@24\nTOP.cycle[63:0]")?;
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
        writeln!(f, "{}", if s.width > 1 { "@22" } else { "@28" })?;
        writeln!(f, "{}\n{}", gtkw_name("golden.", s), gtkw_name("rtl.", s))?;
    }
    f.flush()?;
    Ok(())
}
