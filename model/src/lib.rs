//! `sb2sb-model`: pure-Rust golden models of the cross-die SBUF→SBUF data path.
//!
//! Layers (see `docs/theory.md`):
//! - [`isa`]: the 64-byte instruction words (0xCB, 0xDB, 0xDC, extended ops 8/9).
//! - [`addr`]: the CAYMAN SoC address codec and the program_window remapper;
//!   [`decoder`] is the golden cycle model of `rtl/cayman_addr_decode.sv`.
//! - [`evt_sem`]: the EVT_SEM semaphore window (golden cycle model).
//! - [`udma`]: the UDMA M2S/S2M queue engine (golden cycle model), descriptors, registers.
//! - [`datapath`]: SIMD copy and fused receive-reduce kernels.
//! - [`system`]: packages × dies × cores, io_d2d links, rdma_desc_gen/start legs.
//! - [`lower`] and [`collective`]: host lowering of the pseudo-ops and ring collectives.
//!
//! Every golden block implements [`ports::CycleModel`] over port bundles whose
//! names and widths equal the RTL's; [`blocks::BLOCKS`] lists them for the
//! Verilator build and the lockstep harness.

pub mod ports;
pub mod regs;
pub mod stim;
pub mod svpkg;

pub mod addr;
pub mod decoder;
pub mod evt_sem;
pub mod isa;
pub mod udma;

pub mod clock;
pub mod collective;
pub mod cputime;
pub mod datapath;
pub mod lower;
pub mod pair;
pub mod system;
pub mod trace;

pub mod blocks;
