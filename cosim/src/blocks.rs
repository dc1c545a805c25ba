//! `sb2sb cosim --block NAME` dispatch: one match arm per block binds its
//! golden model and stimulus to the generic runner.

use anyhow::{bail, Result};
use sb2sb_model::ports::{CycleModel, Stimulus};

use sb2sb_model::decoder::{Decoder, DecoderStim};
use sb2sb_model::evt_sem::{EvtSem, EvtSemStim};
use sb2sb_model::pair::sys_stim::SysEnv;
use sb2sb_model::pair::system::{SysIn, SysOut, SysParams, SysTop};
use sb2sb_model::pair::{
    leg16_params, LegEnv, Pair, PairIn, PairOut, Scenario, LEG_FAULTS, SCENARIOS,
};
use sb2sb_model::udma::{Udma, UdmaEngine, UdmaEnv, UdmaStim, W128, W256, W32};

use crate::lockstep::{self, FlipOutputBit, Options, Report};

/// Optional generic fault: flip `bit` of output `signal` at `cycle`.
#[derive(Debug, Clone)]
pub struct Fault {
    pub signal: String,
    pub bit: u32,
    pub cycle: u64,
}

fn go<G, S>(name: &str, golden: G, opts: &Options, fault: Option<&Fault>) -> Result<Report>
where
    G: CycleModel<In = S::In, Out = S::Out> + Clone,
    S: Stimulus,
{
    let Some(desc) = sb2sb_model::blocks::find(name) else {
        bail!("block `{name}` is not registered")
    };
    let stim = S::new(opts.seed, opts.cycles);
    match fault {
        None => lockstep::run(golden, stim, desc, opts),
        Some(f) => lockstep::run(
            FlipOutputBit::new(golden, &f.signal, f.bit, f.cycle)?,
            stim,
            desc,
            opts,
        ),
    }
}

/// Names accepted by `--block` (besides `all`).
pub fn names() -> Vec<&'static str> {
    sb2sb_model::blocks::BLOCKS
        .iter()
        .filter(|b| !b.inputs.is_empty())
        .map(|b| b.name)
        .collect()
}

/// Run one block by name.
pub fn run_named(name: &str, opts: &Options, fault: Option<&Fault>) -> Result<Report> {
    match name {
        // One arm per block: golden model type and stimulus type.
        "decoder" => go::<Decoder, DecoderStim>(name, Decoder::new(), opts, fault),
        "evt_sem" => go::<EvtSem, EvtSemStim>(name, EvtSem::new(), opts, fault),
        "udma" => go::<Udma, UdmaStim>(name, Udma::new(), opts, fault),
        "udma_w32" => go::<UdmaEngine<W32>, UdmaEnv<W32>>(name, UdmaEngine::new(), opts, fault),
        "udma_w128" => go::<UdmaEngine<W128>, UdmaEnv<W128>>(name, UdmaEngine::new(), opts, fault),
        "udma_w256" => go::<UdmaEngine<W256>, UdmaEnv<W256>>(name, UdmaEngine::new(), opts, fault),
        "leg" => run_leg(opts, None, None, fault),
        "system" => go::<SysTop, SysEnv>(name, SysTop::default(), opts, fault),
        "system_2pkg" => go::<SysTop, SysEnv2Pkg>(
            name,
            SysTop::new(SysParams::BLOCK.two_packages()),
            opts,
            fault,
        ),
        "leg16" => go::<Pair, Leg16Env>(name, Pair::new(&leg16_params()), opts, fault),
        _ => {
            let _ = go::<Never, Never>;
            bail!("unknown block `{name}` (known: {})", names().join(", "))
        }
    }
}

/// The environment of block `system_2pkg`: [`SysEnv`] on the system top's
/// two-package placement (one core per die; the fold between the packages
/// is the chip-id view, their links the other-package class).
#[derive(Debug, Clone)]
pub struct SysEnv2Pkg(SysEnv);

impl Stimulus for SysEnv2Pkg {
    type In = SysIn;
    type Out = SysOut;

    fn new(seed: u64, cycles: u64) -> Self {
        Self(SysEnv::with_params(
            SysParams::BLOCK.two_packages(),
            seed,
            cycles,
        ))
    }

    fn next(&mut self, cycle: u64, prev_out: Option<&SysOut>) -> SysIn {
        self.0.next(cycle, prev_out)
    }

    fn coverage(&self) -> Vec<(String, u64)> {
        self.0.coverage()
    }

    fn compare_final(&self, other: &Self) -> Result<(), String> {
        self.0.compare_final(&other.0)
    }
}

/// The environment of block `leg16`: [`LegEnv`] (every scenario in turn,
/// then random legs over all 16 engines) on the pair at
/// [`leg16_params`].
#[derive(Debug, Clone)]
pub struct Leg16Env(LegEnv);

impl Stimulus for Leg16Env {
    type In = PairIn;
    type Out = PairOut;

    fn new(seed: u64, cycles: u64) -> Self {
        Self(LegEnv::with_params(leg16_params(), seed, cycles, None))
    }

    fn next(&mut self, cycle: u64, prev_out: Option<&PairOut>) -> PairIn {
        self.0.next(cycle, prev_out)
    }

    fn coverage(&self) -> Vec<(String, u64)> {
        self.0.coverage()
    }

    fn compare_final(&self, other: &Self) -> Result<(), String> {
        self.0.compare_final(&other.0)
    }
}

/// Run block `leg` (the SB2SB pair): every scenario in turn then random legs,
/// or only `scenario` then random legs; `leg_fault` injects one of
/// [`LEG_FAULTS`] into the golden pair.
pub fn run_leg(
    opts: &Options,
    scenario: Option<&str>,
    leg_fault: Option<&str>,
    fault: Option<&Fault>,
) -> Result<Report> {
    let sc = match scenario {
        None => None,
        Some(n) => match Scenario::by_name(n) {
            Some(s) => Some(s),
            None => bail!(
                "unknown scenario `{n}` (known: {})",
                SCENARIOS.iter().map(|s| s.0).collect::<Vec<_>>().join(", ")
            ),
        },
    };
    let mut golden = Pair::default();
    if let Some(n) = leg_fault {
        match LEG_FAULTS.iter().find(|f| f.0 == n) {
            Some(f) => golden.inject(f.1),
            None => bail!(
                "unknown leg fault `{n}` (known: {})",
                LEG_FAULTS
                    .iter()
                    .map(|f| f.0)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    let Some(desc) = sb2sb_model::blocks::find("leg") else {
        bail!("block `leg` is not registered")
    };
    let stim = LegEnv::with_scenario(opts.seed, opts.cycles, sc);
    match fault {
        None => lockstep::run(golden, stim, desc, opts),
        Some(f) => lockstep::run(
            FlipOutputBit::new(golden, &f.signal, f.bit, f.cycle)?,
            stim,
            desc,
            opts,
        ),
    }
}

/// Placeholder type so `go` is instantiated while no block is registered.
#[derive(Clone)]
enum Never {}
impl CycleModel for Never {
    type In = NoPorts;
    type Out = NoPorts;
    fn step(&mut self, _: &NoPorts) -> NoPorts {
        match *self {}
    }
}
impl Stimulus for Never {
    type In = NoPorts;
    type Out = NoPorts;
    fn new(_: u64, _: u64) -> Self {
        unreachable!("placeholder stimulus")
    }
    fn next(&mut self, _: u64, _: Option<&NoPorts>) -> NoPorts {
        match *self {}
    }
    fn coverage(&self) -> Vec<(String, u64)> {
        match *self {}
    }
}
sb2sb_model::port_bundle! {
    /// No ports.
    pub struct NoPorts {}
}
