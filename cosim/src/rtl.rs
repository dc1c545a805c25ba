//! The Verilated side of the lockstep: a generic wrapper that gives any
//! registered block the same [`CycleModel`] contract as its golden model.

use std::marker::PhantomData;
use std::path::Path;

use anyhow::{Context, Result};
use cxx::UniquePtr;
use sb2sb_model::ports::{BlockDesc, CycleModel, PortBundle};

use crate::ffi::bridge;

/// Initial value of RTL state before reset (`VerilatedContext::randReset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
pub enum XInit {
    /// All state starts at zero (`randReset(0)`).
    Zero,
    /// All state starts random, seeded by the run seed (`randReset(2)`).
    #[default]
    Random,
}

impl XInit {
    fn code(self) -> u32 {
        match self {
            XInit::Zero => 0,
            XInit::Random => 2,
        }
    }
}

/// One memory array of a block's testbench backdoor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackdoorMem {
    /// Hierarchical name, `TOP.<instance path>.<array>` (Verilator's scope
    /// name: `TOP.sb2sb_pair.u_core_a.gen_mem[0].u_mem.mem_q`).
    pub name: String,
    /// Words of the array.
    pub words: u32,
    /// Bits per word (1..=64).
    pub bits: u32,
}

/// A testbench backdoor access that cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackdoorError {
    /// The block was verilated without the backdoor configuration.
    #[error(
        "block {block} has no testbench backdoor (only the RTL-only blocks are verilated \
         with cosim/cpp/backdoor.vlt)"
    )]
    Absent { block: String },
    /// No backdoor memory of that name.
    #[error("block {block}: no backdoor memory {name}")]
    NoMemory { block: String, name: String },
    /// A memory's layout is not what the caller maps onto it.
    #[error("block {block}: backdoor memory {name}: {rule}")]
    Layout {
        block: String,
        name: String,
        rule: String,
    },
    /// The words lie past the end of the memory.
    #[error("block {block}: backdoor memory {name}: words {first}..{end} past its {words} words")]
    Range {
        block: String,
        name: String,
        first: u64,
        end: u64,
        words: u32,
    },
}

/// A Verilated block driven through packed port words.
pub struct RtlDut<I: PortBundle, O: PortBundle> {
    block: &'static str,
    dut: UniquePtr<bridge::Dut>,
    inw: Vec<u64>,
    outw: Vec<u64>,
    _p: PhantomData<(I, O)>,
}

impl<I: PortBundle, O: PortBundle> RtlDut<I, O> {
    /// Build the Verilated model of `block`, checking that the Rust port lists
    /// agree with the block description compiled into this binary.
    pub fn new(block: &BlockDesc, seed: u64, x_init: XInit) -> Result<Self> {
        anyhow::ensure!(
            I::SIGNALS == block.inputs && O::SIGNALS == block.outputs,
            "port lists of block {} differ from its BlockDesc",
            block.name
        );
        // Fold the 64-bit seed into Verilator's 31-bit seed space.
        let vseed = ((seed ^ (seed >> 31) ^ (seed >> 62)) & 0x7fff_ffff) as u32;
        let dut = bridge::new_dut(block.name, vseed, x_init.code())
            .with_context(|| format!("creating the Verilated model of block {}", block.name))?;
        Ok(Self {
            block: block.name,
            dut,
            inw: vec![0; I::WORDS],
            outw: vec![0; O::WORDS],
            _p: PhantomData,
        })
    }

    /// Start a full-hierarchy VCD trace from Verilator.
    pub fn open_trace(&mut self, path: &Path) -> Result<()> {
        let p = path.to_str().context("VCD path is not UTF-8")?;
        self.dut
            .pin_mut()
            .open_trace(p)
            .with_context(|| format!("opening {}", path.display()))
    }

    /// Flush and close the trace.
    pub fn close_trace(&mut self) {
        self.dut.pin_mut().close_trace();
    }

    /// Write the Verilated coverage points of this model to `path`
    /// (a `verilator_coverage` `.dat`; coverage builds only, see [`COVERAGE_BUILD`]).
    pub fn write_coverage(&mut self, path: &Path) -> Result<()> {
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
        }
        let p = path.to_str().context("coverage path is not UTF-8")?;
        self.dut
            .pin_mut()
            .write_coverage(p)
            .with_context(|| format!("writing {}", path.display()))
    }

    /// The first interface assertion that failed since the last call, as
    /// `NAME in TOP.<hierarchy>` (always `None` outside assertion builds).
    #[inline]
    pub fn take_assert_failure(&mut self) -> Option<String> {
        if !ASSERT_BUILD {
            return None;
        }
        let s = self.dut.pin_mut().take_assert_failure();
        if s.is_empty() {
            None
        } else {
            Some(s.to_string())
        }
    }

    /// One cycle, leaving the outputs packed in [`RtlDut::last_words`].
    #[inline]
    pub fn step_words(&mut self, i: &I) {
        i.pack(&mut self.inw);
        self.dut.pin_mut().step(&self.inw, &mut self.outw);
    }

    /// One cycle from inputs already packed in port order (`I::WORDS` words).
    #[inline]
    pub fn step_packed(&mut self, inw: &[u64]) {
        self.dut.pin_mut().step(inw, &mut self.outw);
    }

    /// One cycle from packed inputs, writing the packed outputs into `outw`
    /// (`O::WORDS` words) instead of [`RtlDut::last_words`].
    #[inline]
    pub fn step_into(&mut self, inw: &[u64], outw: &mut [u64]) {
        self.dut.pin_mut().step(inw, outw);
    }

    /// Raw output words of the last step (already masked to each width).
    pub fn last_words(&self) -> &[u64] {
        &self.outw
    }

    /// The memories of this block's testbench backdoor, in name order
    /// ([`BackdoorError::Absent`] for a block verilated without it).
    pub fn backdoor_mems(&self) -> Result<Vec<BackdoorMem>, BackdoorError> {
        let n = self.dut.backdoor_count();
        if n == 0 {
            return Err(BackdoorError::Absent {
                block: self.block.to_string(),
            });
        }
        // Indices below the count are always valid.
        Ok((0..n)
            .filter_map(|k| {
                Some(BackdoorMem {
                    name: self.dut.backdoor_name(k).ok()?,
                    words: self.dut.backdoor_words(k).ok()?,
                    bits: self.dut.backdoor_bits(k).ok()?,
                })
            })
            .collect())
    }

    /// Index of the backdoor memory called `name` (its full hierarchical name).
    pub fn backdoor_find(&self, name: &str) -> Result<usize, BackdoorError> {
        self.backdoor_mems()?
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| BackdoorError::NoMemory {
                block: self.block.to_string(),
                name: name.to_string(),
            })
    }

    fn backdoor_range(&self, k: usize, first: u32, n: usize) -> Result<(), BackdoorError> {
        let mems = self.backdoor_mems()?;
        let m = mems.get(k).ok_or_else(|| BackdoorError::NoMemory {
            block: self.block.to_string(),
            name: format!("#{k}"),
        })?;
        let end = u64::from(first) + n as u64;
        if end > u64::from(m.words) {
            return Err(BackdoorError::Range {
                block: self.block.to_string(),
                name: m.name.clone(),
                first: first.into(),
                end,
                words: m.words,
            });
        }
        Ok(())
    }

    /// Words `first..first + out.len()` of backdoor memory `k`, read between
    /// two cycles without touching the model's ports.
    pub fn backdoor_read(
        &self,
        k: usize,
        first: u32,
        out: &mut [u64],
    ) -> Result<(), BackdoorError> {
        self.backdoor_range(k, first, out.len())?;
        // the range was checked: the C++ side's own check cannot fail
        self.dut
            .backdoor_read(k, first, out)
            .map_err(|e| BackdoorError::Layout {
                block: self.block.to_string(),
                name: format!("#{k}"),
                rule: e.what().to_string(),
            })
    }

    /// Store `data` at words `first..` of backdoor memory `k` (each word
    /// masked to the memory's width), between two cycles.
    pub fn backdoor_write(
        &mut self,
        k: usize,
        first: u32,
        data: &[u64],
    ) -> Result<(), BackdoorError> {
        self.backdoor_range(k, first, data.len())?;
        self.dut
            .pin_mut()
            .backdoor_write(k, first, data)
            .map_err(|e| BackdoorError::Layout {
                block: self.block.to_string(),
                name: format!("#{k}"),
                rule: e.what().to_string(),
            })
    }
}

impl<I: PortBundle, O: PortBundle> CycleModel for RtlDut<I, O> {
    type In = I;
    type Out = O;
    #[inline]
    fn step(&mut self, i: &I) -> O {
        self.step_words(i);
        O::unpack(&self.outw)
    }
}

/// This binary's Verilated models carry coverage points (`SB2SB_COVERAGE=1`).
pub const COVERAGE_BUILD: bool = cfg!(sb2sb_coverage);
/// This binary's Verilated models have the interface checkers of
/// `rtl/assert/` bound and `--assert` on (`SB2SB_ASSERT=1`).
pub const ASSERT_BUILD: bool = cfg!(sb2sb_assert);
/// Version of the Verilator this binary was built with (`5.006`, ...).
pub const VERILATOR_VERSION: &str = env!("SB2SB_VERILATOR_VERSION");
/// Whether the `skip_ico_on_edge` patch was applied (see build.rs).
pub const ICO_PATCH: bool = matches!(env!("SB2SB_ICO_PATCH").as_bytes(), b"1");

/// Blocks compiled into this binary.
pub fn compiled_blocks() -> Vec<String> {
    bridge::compiled_blocks()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}
