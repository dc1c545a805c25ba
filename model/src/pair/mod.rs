//! The SB2SB leg composed from the golden blocks: a NeuronCore ([`Core`],
//! twin of `rtl/sb2sb_core.sv`), the io_d2d link ([`Link`], `rtl/io_d2d_link.sv`)
//! and the pair ([`Pair`], `rtl/sb2sb_pair.sv`), plus the lockstep block
//! `leg` and its environment ([`LegEnv`]), which plays both Q7s.
//!
//! See `docs/pair.md` for the block diagram, the address routing table and
//! the link timing.

pub mod configs;
pub mod core;
pub mod fabric;
pub mod fifo;
pub mod link;
pub mod q7port;
pub mod regs;
pub mod sram;
pub mod stim;
pub mod sys_stim;
pub mod system;
pub mod top;
pub mod xbar;

pub use self::core::{Core, CoreIn, CoreOut, Straps};
pub use link::{Link, LinkFault};
pub use stim::{LegEnv, Scenario, SCENARIOS};
pub use top::{LegFault, Pair, PairIn, PairOut, LEG_FAULTS};
pub use xbar::XbarFault;

use crate::clock::ENGINE_DATA_BITS;
use crate::ports::{BlockDesc, PortBundle};

/// The golden UDMA engine of a core: at the core's data width
/// ([`ENGINE_DATA_BITS`], `udma_engine #(.DataWidth(DataBits))` in
/// `rtl/sb2sb_core.sv`).
pub type Engine = crate::udma::UdmaEngine<crate::udma::W256>;
const _: () = assert!(
    <crate::udma::W256 as crate::udma::UdmaWidth>::BEAT_BYTES * 8 == ENGINE_DATA_BITS,
    "the core's engines are built at the one data width"
);

/// Parameters of one NeuronCore: the RTL parameters of `rtl/sb2sb_core.sv`
/// / `rtl/sb2sb_pair.sv` (`NumEngines`, `SbufPartBytes`, `SbufWinBase`,
/// `DescBytes`, `LinkLatency`), of the golden core ([`Core`], the
/// composition [`self::core::Glue`]) and of every system core
/// (`system::SystemCore`, built with `System::with_core`). The registered
/// lockstep blocks take their parameter overrides from the named values
/// ([`CoreParams::LEG`], [`seed_params`], [`seed16_params`]); the system's
/// default core is [`CoreParams::SYSTEM`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoreParams {
    /// UDMA engines per core (`NumEngines`, 1..=16, a divisor of the 128
    /// SBUF partitions: one SBUF bank per engine).
    pub engines: usize,
    /// Data width of the engines, interconnect, memories and link lanes in
    /// bits (`DataBits` of `rtl/sb2sb_core.sv`; the golden core is built at
    /// [`ENGINE_DATA_BITS`], the one configuration).
    pub data_bits: u32,
    /// Bytes stored per SBUF partition (`SbufPartBytes`): the SBUF window's size.
    pub sbuf_part_bytes: u32,
    /// Partition offset where the stored window starts (`SbufWinBase`).
    pub sbuf_win_base: u32,
    /// Descriptor RAM bytes (`DescBytes`).
    pub desc_bytes: u32,
    /// io_d2d link latency in cycles (`LinkLatency`): the other-die link; the
    /// system derives its on-die and other-package links from it
    /// (`system::cycle::link_latency`).
    pub link_latency: u16,
}

impl Default for CoreParams {
    fn default() -> Self {
        Self::LEG
    }
}

impl CoreParams {
    /// The registered lockstep block `leg` ([`BLOCK`]): the RTL's defaults.
    pub const LEG: Self = Self {
        engines: NUM_ENGINES,
        data_bits: ENGINE_DATA_BITS,
        sbuf_part_bytes: SBUF_PART_BYTES,
        sbuf_win_base: SBUF_WIN_BASE,
        desc_bytes: DESC_BYTES,
        link_latency: link::LINK_LATENCY,
    };

    /// The system model's default core: 16 engines (PUBLIC-FACTS §4), the
    /// SBUF window = every partition from offset 0 at the trn2 size (a system
    /// sizes the window to its topology's partition, `System::new`), 64 MiB of
    /// descriptor RAM (`system::map::CORE_DESC_BYTES`, room for
    /// `RingLayout::SYSTEM`).
    pub const SYSTEM: Self = Self {
        engines: crate::system::topology::DMA_ENGINES as usize,
        data_bits: ENGINE_DATA_BITS,
        sbuf_part_bytes: crate::system::topology::SBUF_BYTES_V3,
        sbuf_win_base: 0,
        desc_bytes: crate::system::map::CORE_DESC_BYTES as u32,
        link_latency: link::LINK_LATENCY,
    };

    /// 64-bit words of the SBUF (128 partitions): the unit of the debug
    /// port and of the images (the memories hold words of
    /// [`sram::WORD_BYTES`], [`sram::LANES`] of these each).
    pub fn sbuf_words(&self) -> usize {
        (128 * self.sbuf_part_bytes / 8) as usize
    }

    /// The same core with an SBUF window of `bytes` per partition from offset 0.
    pub const fn with_sbuf(self, bytes: u32) -> Self {
        Self {
            sbuf_part_bytes: bytes,
            sbuf_win_base: 0,
            ..self
        }
    }

    /// Checks the parameters against what the golden core and the RTL
    /// build: `Err((field, rule))` names the first one broken.
    pub const fn check(&self) -> Result<(), (&'static str, &'static str)> {
        if self.engines == 0 || self.engines > 16 || 128 % self.engines != 0 {
            return Err(("engines", "1..=16 and a divisor of the 128 SBUF partitions"));
        }
        if self.data_bits != ENGINE_DATA_BITS {
            return Err((
                "data_bits",
                "the core is built at the one data width, clock::ENGINE_DATA_BITS (256)",
            ));
        }
        if self.sbuf_part_bytes == 0 || !self.sbuf_part_bytes.is_multiple_of(sram::WORD_BYTES) {
            return Err(("sbuf_part_bytes", "a non-zero multiple of the 32-byte beat"));
        }
        if !self.sbuf_win_base.is_multiple_of(sram::WORD_BYTES)
            || self.sbuf_win_base as u64 + self.sbuf_part_bytes as u64
                > crate::system::map::SBUF_PARTITION_STRIDE
        {
            return Err((
                "sbuf_win_base",
                "32-byte (beat) aligned, the window inside the 2 MiB partition stride",
            ));
        }
        if self.desc_bytes == 0
            || !self.desc_bytes.is_multiple_of(sram::WORD_BYTES)
            || self.desc_bytes as u64 > crate::system::map::CORE_DESC_BYTES
        {
            return Err((
                "desc_bytes",
                "a non-zero multiple of the 32-byte beat, at most the core map's descriptor RAM",
            ));
        }
        if self.link_latency == 0 {
            return Err(("link_latency", "at least one cycle"));
        }
        Ok(())
    }
}

/// UDMA engines per core of the registered block (the seed's mask 0x000F).
pub const NUM_ENGINES: usize = 4;
/// SBUF bytes stored per partition in the registered block (project-defined,
/// docs/pair.md: the leg moves this many bytes per partition).
pub const SBUF_PART_BYTES: u32 = 256;
/// Start of the stored window inside each 2 MiB partition: seed 001 §8's
/// src/dst offset 0x100000.
pub const SBUF_WIN_BASE: u32 = 0x10_0000;
/// Descriptor RAM bytes of the registered block.
pub const DESC_BYTES: u32 = 16384;

/// RTL files of one core and its io_d2d link, in compile order: what every
/// top made of cores (`sb2sb_pair`, `sb2sb_system`) compiles before its own.
pub const CORE_RTL_FILES: [&str; 16] = [
    "sb2sb_pkg.sv",
    "cayman_addr_decode.sv",
    "axil_reg_adapter.sv",
    "evt_sem.sv",
    "udma_regs.sv",
    "udma_desc_pf.sv",
    "udma_desc_fetch.sv",
    "udma_m2s.sv",
    "udma_s2m.sv",
    "udma_engine.sv",
    "axi4_sram.sv",
    "axis_loop_fifo.sv",
    "sb2sb_xbar.sv",
    "sb2sb_q7_port.sv",
    "sb2sb_core.sv",
    "io_d2d_link.sv",
];

/// `CORE_RTL_FILES` followed by a top's own files (`K` = 16 + `M`, checked
/// at compile time).
pub const fn core_rtl_files_and<const M: usize, const K: usize>(
    tail: [&'static str; M],
) -> [&'static str; K] {
    assert!(CORE_RTL_FILES.len() + M == K, "K must be 16 + M");
    let mut out = [""; K];
    let mut i = 0;
    while i < CORE_RTL_FILES.len() {
        out[i] = CORE_RTL_FILES[i];
        i += 1;
    }
    let mut j = 0;
    while j < M {
        out[CORE_RTL_FILES.len() + j] = tail[j];
        j += 1;
    }
    out
}

const PAIR_RTL_FILES: [&str; 17] = core_rtl_files_and(["sb2sb_pair.sv"]);

/// RTL files of `sb2sb_pair`, in compile order.
pub const RTL_FILES: &[&str] = &PAIR_RTL_FILES;

/// SBUF bytes stored per partition in the seed-size pair ([`BLOCK_SEED`]):
/// room for seed 001 §8's 16 KiB per partition and for the 64 KiB legs of
/// the bus-utilisation measurement, from the window base 0x100000.
pub const SEED_SBUF_PART_BYTES: u32 = 64 * 1024;

/// Parameters of the seed-size pair ([`BLOCK_SEED`]).
pub const fn seed_params() -> CoreParams {
    CoreParams {
        sbuf_part_bytes: SEED_SBUF_PART_BYTES,
        ..CoreParams::LEG
    }
}

/// Lockstep registration of the pair (`sb2sb cosim --block leg`).
pub const BLOCK: BlockDesc = BlockDesc {
    name: "leg",
    top: "sb2sb_pair",
    rtl_files: RTL_FILES,
    params: &[],
    inputs: <PairIn as PortBundle>::SIGNALS,
    outputs: <PairOut as PortBundle>::SIGNALS,
};

/// The pair at the seed's size (`SbufPartBytes` = [`SEED_SBUF_PART_BYTES`]):
/// an RTL-only build (`crate::blocks::RTL_ONLY`) that `sb2sb run sendrecv
/// --mode rtl` runs and checks against fast mode; the same RTL and golden
/// twin as [`BLOCK`] at another parameter value.
pub const BLOCK_SEED: BlockDesc = BlockDesc {
    name: "leg_seed",
    top: "sb2sb_pair",
    rtl_files: RTL_FILES,
    params: &[("SbufPartBytes", seed_params().sbuf_part_bytes as i64)],
    inputs: <PairIn as PortBundle>::SIGNALS,
    outputs: <PairOut as PortBundle>::SIGNALS,
};

/// [`BLOCK_SEED`] with 16 engines per core (`--engine-mask` up to 0xFFFF in
/// `run sendrecv --mode rtl`): built only on request
/// (`SB2SB_BLOCKS=all,leg_seed16`, `crate::blocks::RTL_OPT_IN`), its
/// Verilation and C++ build costing several times that of the 4-engine pair.
pub const BLOCK_SEED16: BlockDesc = BlockDesc {
    name: "leg_seed16",
    top: "sb2sb_pair",
    rtl_files: RTL_FILES,
    params: &[
        ("NumEngines", seed16_params().engines as i64),
        ("SbufPartBytes", seed16_params().sbuf_part_bytes as i64),
        ("DescBytes", seed16_params().desc_bytes as i64),
    ],
    inputs: <PairIn as PortBundle>::SIGNALS,
    outputs: <PairOut as PortBundle>::SIGNALS,
};

/// Engines per core of [`BLOCK_SEED16`].
pub const SEED16_ENGINES: usize = 16;
/// Descriptor RAM bytes of [`BLOCK_SEED16`]: the environment's 2 rings of
/// 64 descriptors per engine (32 KiB for 16 engines, [`LegEnv::layout`]),
/// the completion rings and the semaphore constants at its end.
pub const SEED16_DESC_BYTES: u32 = 65536;

/// Parameters of [`BLOCK_SEED16`].
pub const fn seed16_params() -> CoreParams {
    CoreParams {
        engines: SEED16_ENGINES,
        desc_bytes: SEED16_DESC_BYTES,
        ..seed_params()
    }
}

/// Parameters of [`BLOCK_LEG16`]: the system's default core's 16 engines
/// ([`CoreParams::SYSTEM`]) on the `leg` block's SBUF window (256 B per
/// partition from 0x100000, all the random legs of the environment need)
/// and the descriptor RAM the environment's rings take at 16 engines
/// ([`SEED16_DESC_BYTES`]).
pub const fn leg16_params() -> CoreParams {
    CoreParams {
        engines: CoreParams::SYSTEM.engines,
        desc_bytes: SEED16_DESC_BYTES,
        ..CoreParams::LEG
    }
}

/// The pair with 16 engines per core in lockstep with the golden pair at
/// the same parameters ([`leg16_params`]): an opt-in lockstep block
/// (`SB2SB_BLOCKS=leg16`, `crate::blocks::LOCKSTEP_OPT_IN`), run with
/// `sb2sb cosim --block leg16`; the `leg` environment ([`LegEnv::with_params`])
/// drives random legs over all 16 engines. The same RTL and golden twin as
/// [`BLOCK`] at other parameter values.
pub const BLOCK_LEG16: BlockDesc = BlockDesc {
    name: "leg16",
    top: "sb2sb_pair",
    rtl_files: RTL_FILES,
    params: &[
        ("NumEngines", leg16_params().engines as i64),
        ("DescBytes", leg16_params().desc_bytes as i64),
    ],
    inputs: <PairIn as PortBundle>::SIGNALS,
    outputs: <PairOut as PortBundle>::SIGNALS,
};

#[cfg(test)]
mod tests;
