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

/// A Verilated block driven through packed port words.
pub struct RtlDut<I: PortBundle, O: PortBundle> {
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

    /// Raw output words of the last step (already masked to each width).
    pub fn last_words(&self) -> &[u64] {
        &self.outw
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

/// Blocks compiled into this binary.
pub fn compiled_blocks() -> Vec<String> {
    bridge::compiled_blocks()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}
