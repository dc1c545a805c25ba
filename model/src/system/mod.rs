//! System model: packages × 2 dies × cores joined by io_d2d links, running
//! real `rdma_desc_gen` / `rdma_desc_start` legs over real UDMA descriptor
//! rings, in a fast mode (descriptor by descriptor, SIMD copies) or a cycle
//! mode (beat by beat, the EVT_SEM golden model stepped every cycle).
//! Theory of operation: `docs/system.md`.
//!
//! # Public API (for the host-lowering and collective layers)
//!
//! ```
//! use sb2sb_model::system::{System, Topology, CoreId, SystemLeg, Mode};
//! let mut sys = System::new(Topology::default()).unwrap();          // 1 package, 2 dies × 4 cores
//! sys.write_sbuf(CoreId(1), 0, 0x100, &[7u8; 64]).unwrap();          // (core, partition, offset)
//! let leg = SystemLeg::new(CoreId(1), 0x100, CoreId(5), 0x200, 64, 1); // 1 partition × 64 bytes
//! let rep = sys.send_recv(&leg, Mode::Fast).unwrap();                // RX arms, TX launches
//! assert_eq!(sys.st.read_sbuf(CoreId(5), 0, 0x200, 64).unwrap(), vec![7u8; 64]);
//! assert_eq!(sys.st.sem(CoreId(1), leg.local_sem).unwrap(), 1);      // one engine
//! assert_eq!(sys.st.sem(CoreId(5), leg.remote_sem).unwrap(), 1);
//! sys.wait_sem(CoreId(5), leg.remote_sem, 1, Mode::Fast).unwrap();   // next step: wait ≥ 1, decrement
//! assert!(rep.modeled_ps > 0);
//! ```
//!
//! - [`System::new`]`(Topology)`; [`Topology`] sets packages, cores per die,
//!   SBUF bytes per partition, arch, CAYMAN_IDs and routing ids (timing: [`timing`]).
//! - SBUF: [`SystemState::read_sbuf`] / [`System::write_sbuf`] by (core,
//!   partition, offset); [`SystemState::sbuf`] borrows a core's [`mem::Sbuf`].
//! - Several legs at once (a ring step): [`SystemState::issue_leg`] for each,
//!   then [`System::run`]; [`SystemState::clear_pending`] after an error.
//! - A directed leg: [`System::send_recv`]`(&SystemLeg, Mode) -> LegReport`
//!   (src/dst core and offset, bytes per partition, partition start/count,
//!   engine mask, queue, local/remote/go semaphores, [`LegOp`]). The report
//!   carries the folded `dst_soc`, descriptor counts and modeled time.
//! - Reducing receive: `SystemLeg::op = LegOp::Reduce(f)` applies
//!   `f(dst, src)` on the destination bytes instead of a copy (fast and cycle
//!   mode), e.g. a `datapath::reduce` kernel.
//! - Semaphores: [`SystemState::sem`], [`SystemState::set_sem`],
//!   [`System::wait_sem`] (wait ≥ target and decrement, with the deadlock
//!   watchdog).
//! - The device primitives one by one: [`SystemState::rdma_desc_gen`]
//!   (checks the word and queues its ring set-up program of [`Q7Step`]s),
//!   [`SystemState::rdma_desc_start`], [`System::run`] (runs the set-up
//!   programs, then the start programs); queue state:
//!   [`SystemState::queue`]; a trace of transactions: [`SystemState::trace`].
//!
//! Structure: [`System`] owns the shared state ([`SystemState`], the field
//! `System::st`, named at each call: every method above that needs no
//! executor is there) and the two executors, [`FastExec`] and [`CycleExec`], whose code takes the
//! shared state as an argument; [`System::run`] runs the one a [`Mode`] names.
//!
//! Errors are [`SystemError`]; a leg that can never complete ends in
//! [`SystemError::Deadlock`] naming the core, semaphore and target.

pub mod bcast;
pub mod classify;
pub mod comp;
pub mod core;
pub mod cycle;
pub mod fast;
pub mod firmware;
pub mod legs;
pub mod link;
pub mod map;
pub mod mem;
pub mod mirror;
pub mod peer;
pub mod q7_exec;
pub mod q7_master;
pub mod timing;
pub mod topology;
pub mod watchdog;

#[cfg(test)]
mod tests;

use std::collections::{BTreeSet, VecDeque};

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::addr::AddrError;
use crate::isa::{IsaError, RdmaDescGen, RdmaDescStart, Role};
use crate::udma::desc::DescError;

pub use self::core::{QueueState, SystemCore};
pub use crate::pair::CoreParams;
pub use bcast::{DmaApbBcast, Doorbells, Trigger};
pub use classify::{PeerClass, PreSync};
pub use cycle::{CycleExec, SemWatch};
pub use fast::FastExec;
pub use firmware::{Q7Step, RingLayout, COMPACT_RING_LEN};
pub use legs::{prid, GenReport};
pub use link::{LinkClass, Ps};
pub use peer::{cayman_get_p2p_pod_peer_node, sengine_get_d2d_peer_nums, Neigh};
pub use topology::{CoreId, CoreLoc, FoldMode, Topology};

/// Errors of the system model. Each names the core (and engine, queue,
/// semaphore…) involved and the rule broken.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SystemError {
    #[error("topology: {field} = {value}: {rule}")]
    Topology {
        field: &'static str,
        value: u64,
        rule: &'static str,
    },
    #[error("core parameters: {field}: {rule}")]
    CoreParams {
        field: &'static str,
        rule: &'static str,
    },
    #[error("no core {core} (the topology has {cores})")]
    NoSuchCore { core: u16, cores: usize },
    #[error("SBUF partition {partition} [{offset:#x}, +{len:#x}) is outside the partition ({bytes_per_partition:#x} bytes, 128 partitions)")]
    SbufRange {
        partition: u8,
        offset: u64,
        len: u64,
        bytes_per_partition: u32,
    },
    #[error("core offset {offset:#x} is unmapped")]
    Unmapped { offset: u64 },
    #[error("core {from}: address {addr:#x} cannot be routed: {rule}")]
    Route {
        from: u16,
        addr: u64,
        rule: &'static str,
    },
    #[error("core {core} UDMA engine {engine} CSR {offset:#x}: {rule}")]
    Csr {
        core: u16,
        engine: u8,
        offset: u32,
        rule: &'static str,
    },
    #[error("core {core} EVT_SEM offset {offset:#x}: AXI response {resp}")]
    EvtSemResp { core: u16, offset: u32, resp: u8 },
    #[error("core {core} Q7 port: AXI4-Lite {access} of {addr:#010x} (issued by the Q7 of core {by}) answered {resp} (0 OKAY, 2 SLVERR): not a register or memory the Q7 port serves")]
    Q7Resp {
        /// The core whose Q7 port answered.
        core: u16,
        /// The core whose Q7 program issued the access.
        by: u16,
        /// Core-local 32-bit address on the port.
        addr: u32,
        access: &'static str,
        resp: u32,
    },
    #[error("core {core}: Q7 PRID {prid}: {rule}")]
    Prid {
        core: u16,
        prid: u32,
        rule: &'static str,
    },
    #[error(
        "core {core}: rdma_desc_start role {word:?} does not match PRID {prid} parity ({parity:?})"
    )]
    RoleMismatch {
        core: u16,
        prid: u32,
        parity: Role,
        word: Role,
    },
    #[error("core {core}: DescriptorStream wrote {wrote} descriptors, expected {expected}")]
    DescriptorStream {
        core: u16,
        wrote: u32,
        expected: u32,
    },
    #[error("core {core}: a leg needs a peer other than itself")]
    SelfPeer { core: u16 },
    #[error("core {core}: remote_routing_id {found:#x} for peer core {peer}, the host's routing-id map gives {expected:#x}")]
    RoutingId {
        core: u16,
        peer: u16,
        expected: u32,
        found: u32,
    },
    #[error("leg: {field} = {value:#x}: {rule}")]
    Leg {
        field: &'static str,
        value: u64,
        rule: &'static str,
    },
    #[error("core {core} engine {engine} queue {queue} side {side}: ring busy (descriptors pending) and cannot be re-based")]
    RingBusy {
        core: u16,
        engine: u8,
        queue: u8,
        side: u8,
    },
    #[error("core {core} engine {engine} queue {queue} side {side}: ring needs {need} free slots, has {free}")]
    RingFull {
        core: u16,
        engine: u8,
        queue: u8,
        side: u8,
        need: u32,
        free: u32,
    },
    #[error("core {core} engine {engine} queue {queue} side {side} slot {slot}: descriptor ring id {found}, expected {expected} (PREF_RING_ID)")]
    RingId {
        core: u16,
        engine: u8,
        queue: u8,
        side: u8,
        slot: u32,
        expected: u8,
        found: u8,
    },
    #[error("core {core} engine {engine} queue {queue}: {rule}")]
    Dma {
        core: u16,
        engine: u8,
        queue: u8,
        rule: String,
    },
    #[error("deadlock: core {core} waits for semaphore {sem} >= {target} (value {value}) and nothing pending can increment it ({what})")]
    Deadlock {
        core: u16,
        sem: u8,
        target: i32,
        value: i32,
        what: &'static str,
    },
    #[error("stalled: core {core} engine {engine} queue {queue} has {m2s} M2S and {s2m} S2M descriptors pending that can never pair")]
    Stalled {
        core: u16,
        engine: u8,
        queue: u8,
        m2s: u32,
        s2m: u32,
    },
    #[error("core {core} engine {engine} queue {queue}: completion slot {slot} holds generation tag {found}, the poll expects {expected} ({seen} of {want} completions seen; a stale tag is never taken as done)")]
    CompletionPending {
        core: u16,
        engine: u8,
        queue: u8,
        slot: u32,
        expected: u8,
        found: u8,
        seen: u64,
        want: u64,
    },
    #[error("cycle budget of {cycles} cycles exhausted")]
    Timeout { cycles: u64 },
    /// The machine clocked beside cycle mode ([`mirror::Mirror`]) parted
    /// from the golden cores on a Q7 port, or raised an error of its own.
    #[error("cycle {cycle}: the mirrored system top {what}")]
    Mirror { cycle: u64, what: String },
    #[error("register {index}: {rule}")]
    Register { index: u16, rule: &'static str },
    #[error("reduce op failed: {0}")]
    Reduce(String),
    #[error(transparent)]
    Addr(#[from] AddrError),
    #[error(transparent)]
    Isa(IsaError),
    #[error(transparent)]
    Desc(DescError),
}

/// Execution mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Descriptor by descriptor with SIMD copies; time from `system::timing`.
    Fast,
    /// Clock by clock: the golden UDMA engines and EVT_SEM models.
    Cycle,
}

/// A reduce function applied on the receive side: `f(dst, src)` folds `src`
/// into `dst` (equal lengths; a multiple of the element size).
pub type ReduceFn = Arc<dyn Fn(&mut [u8], &[u8]) -> Result<(), String> + Send + Sync>;

/// What the receive side does with the bytes.
#[derive(Clone, Default)]
pub enum LegOp {
    /// Plain copy (SENDRECV is a pure move, seed 000 §7).
    #[default]
    Copy,
    /// Fold the bytes into the destination (reducing ring steps, seed 000 §6 NOTE).
    Reduce(ReduceFn),
}

impl std::fmt::Debug for LegOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LegOp::Copy => f.write_str("Copy"),
            LegOp::Reduce(_) => f.write_str("Reduce(..)"),
        }
    }
}

/// Default go-semaphore of the RX→TX right_push / left_pop handshake
/// (project-defined).
pub const DEFAULT_GO_SEM: u8 = 255;

/// One directed SBUF→SBUF leg of the system model.
#[derive(Debug, Clone)]
pub struct SystemLeg {
    /// TX (source) core.
    pub src: CoreId,
    /// Source byte offset inside each partition.
    pub src_offset: u64,
    /// RX (destination) core.
    pub dst: CoreId,
    /// Destination byte offset inside each partition.
    pub dst_offset: u64,
    /// Bytes per partition (`free_dim_bytes`).
    pub bytes_per_partition: u32,
    /// First partition.
    pub partition_start: u8,
    /// Partitions (1..=128).
    pub partitions: u8,
    /// DMA engines (one bit each).
    pub engine_mask: u16,
    /// UDMA queue.
    pub queue: u8,
    /// Semaphore on the TX core, +1 per engine when the source is released.
    pub local_sem: u8,
    /// Semaphore on the RX core, +1 per engine when the bytes have landed.
    pub remote_sem: u8,
    /// TX-core semaphore of the RX→TX go handshake.
    pub go_sem: u8,
    /// Receive operation.
    pub op: LegOp,
}

impl SystemLeg {
    /// A copy leg with engine mask 0x000F (or fewer engines than partitions),
    /// queue 0, local_sem 12, remote_sem 20 (seed 001 §8), go_sem 255.
    pub fn new(
        src: CoreId,
        src_offset: u64,
        dst: CoreId,
        dst_offset: u64,
        bytes: u32,
        partitions: u8,
    ) -> Self {
        let engines = partitions.clamp(1, 4);
        Self {
            src,
            src_offset,
            dst,
            dst_offset,
            bytes_per_partition: bytes,
            partition_start: 0,
            partitions,
            engine_mask: (1u16 << engines) - 1,
            queue: 0,
            local_sem: 12,
            remote_sem: 20,
            go_sem: DEFAULT_GO_SEM,
            op: LegOp::Copy,
        }
    }
}

/// What a leg did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LegReport {
    /// The folded destination as the firmware logs it (seed 001 §8: 0x58800000100000).
    pub dst_soc: u64,
    /// The RX core's routing id the TX word carried (`remote_routing_id`).
    pub routing_id: u32,
    /// How the destination was folded.
    pub fold: FoldMode,
    /// Link class crossed.
    pub link: LinkClass,
    /// Descriptors per engine (engine, count) on each side.
    pub per_engine: Vec<(u8, u32)>,
    /// Total descriptors per side (the DescriptorStream count).
    pub descriptors: u32,
    /// Data bytes moved.
    pub bytes: u64,
    /// Modeled time of the leg (ps).
    pub modeled_ps: Ps,
    /// Cycles (cycle mode) or 0.
    pub cycles: u64,
    /// The TX Q7's §2.4 classifier line ("P%i: engine_base_addr=… -> is_tpb=…
    /// is_die_0=… engine_idx=…").
    pub classifier: String,
    /// The RX Q7's pre-sync record after program_window (§2.5).
    pub pre_sync: Option<PreSync>,
}

/// A Q7 program queued by `rdma_desc_start` or `wait_sem`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Q7Op {
    /// RX: S2M doorbells of the TX engines, then right_push the go-semaphore.
    RxArm {
        core: CoreId,
        tx: CoreId,
        queue: u8,
        engines: Vec<(u8, u32)>,
        go_sem: u8,
    },
    /// TX: left_pop (wait go ≥ 1, decrement), then M2S doorbells.
    TxLaunch {
        core: CoreId,
        queue: u8,
        engines: Vec<(u8, u32)>,
        go_sem: u8,
    },
    /// Wait semaphore ≥ target, then decrement by target.
    Wait { core: CoreId, sem: u8, target: i32 },
    /// TX: busy-poll the completion rings of `engines` until each has seen
    /// its total (engine, completions) with the expected generation tag.
    PollComp {
        core: CoreId,
        queue: u8,
        engines: Vec<(u8, u64)>,
    },
    /// A program the host has the Q7 of `core` run (the boot bring-up, an
    /// instruction's semaphore update on a fixed system top): `what` names
    /// it on the timeline.
    Host {
        core: CoreId,
        steps: Vec<Q7Step>,
        what: &'static str,
    },
}

/// One traced transaction (for the transaction-level VCD of the CLI).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum TraceEvent {
    /// A doorbell: (time, issuing core, engine's core, engine, queue, side, new tail).
    Doorbell {
        t: Ps,
        /// The core whose Q7 rang it.
        by: u16,
        core: u16,
        engine: u8,
        queue: u8,
        side: u8,
        tail: u32,
    },
    /// A descriptor pair completed: head pointers after it.
    Desc {
        t: Ps,
        core: u16,
        engine: u8,
        queue: u8,
        m2s_head: u32,
        s2m_head: u32,
        bytes: u32,
    },
    /// A semaphore changed: (time, core, sem, new value).
    Sem {
        t: Ps,
        core: u16,
        sem: u8,
        value: i32,
    },
}

/// A batch of byte moves in flight (fast mode, `system::fast`) writes into
/// the cores' SBUFs: it finishes before they are freed.
impl Drop for System {
    fn drop(&mut self) {
        self.fast.sync_moves();
        // Inside `trace::capture`: the timeline goes to the capture.
        if let (Some(r), Some(i)) = (self.st.rec.take(), self.st.rec_index) {
            crate::trace::deposit(*r, i);
        }
    }
}

/// The system's shared state, read and written by both executors: the
/// topology, the cores with their memories and registers, the queued Q7
/// programs, the modeled clock, the traces and the options. Every
/// operation that needs no executor is a method here, called through
/// the field [`System::st`].
pub struct SystemState {
    topo: Topology,
    /// The parameters of every core ([`System::with_core`]).
    core: CoreParams,
    /// The ring layout of every core's descriptor RAM (with the default
    /// ring length; [`SystemState::layout`] applies [`SystemState::ring_len`]).
    layout: RingLayout,
    cores: Vec<SystemCore>,
    pub(crate) pending: VecDeque<Q7Op>,
    /// Set-up programs queued by `rdma_desc_gen`, run before the start
    /// programs ([`legs::Q7Setup`]).
    pub(crate) setups: VecDeque<legs::Q7Setup>,
    /// Set-up programs queued so far (their ids).
    pub(crate) setup_seq: u64,
    pub(crate) streams: HashMap<(u16, u8, u8), GenReport>,
    /// Receive op per TX (core, engine, queue).
    pub(crate) rx_ops: HashMap<(u16, u8, u8), LegOp>,
    /// Receive ranges of reducing legs per RX core, for cycle mode's SBUF
    /// array adapter ([`mem::SbufWords`]); a later copy leg into the same
    /// range replaces the entry.
    pub(crate) rx_reduce: HashMap<u16, Vec<mem::RxReduce>>,
    /// Queues with doorbells rung: (core, engine, queue).
    pub(crate) active: BTreeSet<(u16, u8, u8)>,
    /// Modeled time now (ps): the end of the last run, in either mode.
    pub(crate) now: Ps,
    /// Transaction trace (off unless `trace_on`).
    pub trace: Vec<TraceEvent>,
    /// Record [`SystemState::trace`].
    pub trace_on: bool,
    /// How `rdma_desc_start` rings its engines' doorbells (default: broadcast).
    pub doorbells: Doorbells,
    /// Broadcast triggers (recorded when `trace_on` or `log_triggers`).
    pub triggers: Vec<Trigger>,
    /// Record [`SystemState::triggers`] without the full trace.
    pub log_triggers: bool,
    /// The TX firmware's completion rings (seed 001 §5.3, default on): the
    /// TX gen configures each engine queue's S2M completion ring (the S2M
    /// side writes one completion per descriptor) and the TX start polls
    /// it. Off: neither, as in the pair environment (`pair::stim`), whose
    /// TX Q7 relies on local_sem alone; the engines then write no
    /// completions, so a leg's data phase is the pair's.
    pub completion_rings: bool,
    /// Ring length (descriptors) `rdma_desc_gen` gives a queue it configures
    /// (default: the layout's, [`map::RING_LEN`] for the system's default
    /// core; 2..=the layout's slot, smaller rings wrap sooner).
    pub ring_len: u32,
    /// The timeline recorder, only while tracing (docs/timeline.md): every
    /// hook is one test of this option.
    pub(crate) rec: Option<Box<crate::trace::Recorder>>,
    /// Index of this system in the enclosing `trace::capture`.
    rec_index: Option<usize>,
}

/// The whole system: the shared state ([`SystemState`], the field `st`)
/// and each executor's own state and code: the fast
/// executor ([`FastExec`]) and the cycle executor ([`CycleExec`]), each
/// taking the shared state as an argument. `System` runs the one the
/// [`Mode`] names.
pub struct System {
    /// The shared state: every operation that needs no executor is a
    /// method of it, named at the call (`sys.st.sem(..)`).
    pub st: SystemState,
    /// The fast executor ([`FastExec`]).
    pub(crate) fast: FastExec,
    /// The cycle executor ([`CycleExec`]).
    pub cycle: CycleExec,
}

impl System {
    /// Build a system (cores created, no SBUF allocated) whose cores are the
    /// system's default core ([`CoreParams::SYSTEM`]) with an SBUF window of
    /// the topology's whole partition.
    pub fn new(topo: Topology) -> Result<Self, SystemError> {
        let core = CoreParams::SYSTEM.with_sbuf(topo.sbuf_bytes_per_partition);
        Self::with_core(topo, core)
    }

    /// Build a system whose every core is the golden core at parameters
    /// `core` (engines, SBUF window, descriptor RAM, link latency), e.g. a
    /// lockstep block's (`pair::seed_params()`): the SBUF window must lie in
    /// the topology's partition, and the descriptor RAM hold the system's
    /// ring layout ([`RingLayout::SYSTEM`]) or else the compact one of the
    /// pair ([`RingLayout::compact`], rings of [`COMPACT_RING_LEN`]).
    pub fn with_core(topo: Topology, core: CoreParams) -> Result<Self, SystemError> {
        let mut sys = Self::unbooted(topo, core)?;
        sys.boot()?;
        Ok(sys)
    }

    /// [`Self::with_core`] with the engines still in reset state: the
    /// caller runs the boot program ([`Self::queue_boot`]) in the mode of
    /// its choice.
    pub fn unbooted(topo: Topology, core: CoreParams) -> Result<Self, SystemError> {
        topo.validate()?;
        core.check()
            .map_err(|(field, rule)| SystemError::CoreParams { field, rule })?;
        if u64::from(core.sbuf_win_base) + u64::from(core.sbuf_part_bytes)
            > u64::from(topo.sbuf_bytes_per_partition)
        {
            return Err(SystemError::CoreParams {
                field: "sbuf_part_bytes",
                rule: "the SBUF window (sbuf_win_base + sbuf_part_bytes) must lie inside the topology's partition",
            });
        }
        let layout = RingLayout::for_core(&core);
        let cores = (0..topo.num_cores() as u16)
            .map(|i| {
                let loc = topo.loc(CoreId(i))?;
                // The chip strap of the composition's decoders: this core's
                // routing id (a chip-id folded address carrying it names this
                // core's package, docs/system.md "Cycle mode").
                let chip = u64::from(topo.routing_id_of(CoreId(i))?);
                Ok(SystemCore::new(
                    CoreId(i),
                    loc,
                    topo.sbuf_bytes_per_partition,
                    &core,
                    chip,
                ))
            })
            .collect::<Result<Vec<_>, SystemError>>()?;
        let ambient = crate::trace::ambient(|| core_names(&topo));
        let st = SystemState {
            topo,
            core,
            layout,
            cores,
            pending: VecDeque::new(),
            setups: VecDeque::new(),
            setup_seq: 0,
            streams: HashMap::default(),
            rx_ops: HashMap::default(),
            rx_reduce: HashMap::default(),
            active: BTreeSet::new(),
            now: 0,
            trace: Vec::new(),
            trace_on: false,
            doorbells: Doorbells::default(),
            triggers: Vec::new(),
            log_triggers: false,
            completion_rings: true,
            ring_len: layout.ring_len,
            rec_index: ambient.as_ref().map(|a| a.1),
            rec: ambient.map(|a| a.0),
        };
        Ok(Self {
            st,
            fast: FastExec::default(),
            cycle: CycleExec {
                max_cycles: 1 << 32,
                ..CycleExec::default()
            },
        })
    }

    /// The boot firmware's engine bring-up (the driver's
    /// `al_udma_state_set`): every core's Q7 writes
    /// [`firmware::engine_normal`] to both sides of each of its engines,
    /// applied as fast mode applies every firmware step (the pair
    /// environment's Q7s make the same write through their ports).
    fn boot(&mut self) -> Result<(), SystemError> {
        for (c, step) in self.boot_program()? {
            self.fast.apply_q7_step(&mut self.st, c, &step)?;
        }
        Ok(())
    }

    /// Queue the boot program as one host program per core
    /// ([`Self::queue_host`]), for the next [`Self::run`].
    pub fn queue_boot(&mut self) -> Result<(), SystemError> {
        let mut per_core: Vec<(CoreId, Vec<Q7Step>)> = Vec::new();
        for (c, step) in self.boot_program()? {
            match per_core.last_mut() {
                Some((k, steps)) if *k == c => steps.push(step),
                _ => per_core.push((c, vec![step])),
            }
        }
        for (core, steps) in per_core {
            self.queue_host(core, steps, "boot")?;
        }
        Ok(())
    }

    /// Queue a program of bus steps for the Q7 of `core`, for the next
    /// [`Self::run`] (fast mode applies it, cycle mode runs it on the Q7
    /// ports).
    pub fn queue_host(
        &mut self,
        core: CoreId,
        steps: Vec<Q7Step>,
        what: &'static str,
    ) -> Result<(), SystemError> {
        self.st.core(core)?;
        self.st.pending.push_back(Q7Op::Host { core, steps, what });
        Ok(())
    }

    /// The boot firmware's steps, per core in order: [`firmware::engine_normal`]
    /// to both sides of each engine (a machine clocked beside cycle mode,
    /// [`mirror`], runs the same steps on its Q7 ports).
    pub fn boot_program(&self) -> Result<Vec<(CoreId, Q7Step)>, SystemError> {
        use crate::udma::regs::{eng_addr, UDMA_ENG_CHANGE_STATE};
        let mut prog = Vec::new();
        for c in (0..self.st.topo.num_cores() as u16).map(CoreId) {
            let loc = self.st.topo.loc(c)?;
            for e in 0..self.st.engines() {
                for side in 0..2u8 {
                    let reg = eng_addr(map::side_of(side), UDMA_ENG_CHANGE_STATE);
                    let local = map::core_local(loc.core, map::udma_offset(e, reg));
                    prog.push((c, firmware::engine_normal(self.st.topo.fold(c, c, local)?)));
                }
            }
        }
        Ok(prog)
    }

    /// The executor clock of `mode` now (ps).
    pub(crate) fn clock_ps(&self, mode: Mode) -> Ps {
        match mode {
            Mode::Fast => self.st.now,
            Mode::Cycle => crate::clock::cycles_to_ps(self.cycle.cycles),
        }
    }

    /// Write SBUF bytes at (core, partition, offset).
    pub fn write_sbuf(
        &mut self,
        c: CoreId,
        partition: u8,
        offset: u64,
        data: &[u8],
    ) -> Result<(), SystemError> {
        // A batch in flight (a held sequence) finishes first.
        self.fast.sync_moves();
        self.st.core_mut(c)?.sbuf.write(partition, offset, data)
    }

    /// Run every queued Q7 program and DMA transfer to completion: first the
    /// set-up programs `rdma_desc_gen` queued (fast mode applies them at
    /// once; cycle mode plays them on the Q7 ports before any start program
    /// issues an access), then the start and wait programs.
    pub fn run(&mut self, mode: Mode) -> Result<(), SystemError> {
        match mode {
            Mode::Fast => {
                if self.st.rec.is_some() {
                    self.st.trace_setups();
                }
                self.fast.apply_setups(&mut self.st)?;
                self.fast.run(&mut self.st)
            }
            Mode::Cycle => {
                // Cycle mode moves SBUF bytes itself: no batch in flight.
                self.fast.sync_moves();
                self.cycle.run(&mut self.st, None)
            }
        }
    }

    /// Cycle mode with machine `m` clocked beside the golden cores, its Q7
    /// ports driven by the same executor and checked every cycle
    /// ([`mirror`]).
    pub fn run_mirrored(&mut self, m: &mut dyn mirror::Mirror) -> Result<(), SystemError> {
        self.fast.sync_moves();
        self.cycle.run(&mut self.st, Some(m))
    }

    /// Wait until semaphore `sem` of core `c` is ≥ `target`, then decrement
    /// it by `target` (the next ring step's add_semaphore_wait_ge_and_dec,
    /// seed 001 §5.2). Errors with [`SystemError::Deadlock`] when nothing
    /// pending can ever satisfy it.
    pub fn wait_sem(
        &mut self,
        c: CoreId,
        sem: u8,
        target: i32,
        mode: Mode,
    ) -> Result<(), SystemError> {
        self.queue_wait_sem(c, sem, target)?;
        self.run(mode)
    }

    /// Queue [`System::wait_sem`]'s wait without running it: the next
    /// [`System::run`] plays it on core `c`'s Q7 with the programs queued
    /// before it (every core's waits of a batch in flight together).
    pub fn queue_wait_sem(&mut self, c: CoreId, sem: u8, target: i32) -> Result<(), SystemError> {
        self.st.core(c)?;
        self.st.pending.push_back(Q7Op::Wait {
            core: c,
            sem,
            target,
        });
        Ok(())
    }

    /// The start word matching a gen report.
    pub fn leg_start_word(leg: &SystemLeg, g: &GenReport) -> RdmaDescStart {
        RdmaDescStart {
            queue_id: leg.queue,
            local_sem: leg.local_sem,
            remote_sem: leg.remote_sem,
            remote_core_id: g.peer.0.into(),
            role: g.role,
            go_sem: leg.go_sem,
            dma_engine_mask: leg.engine_mask,
            num_descriptors: g.total,
            ..RdmaDescStart::default()
        }
    }

    /// Host threads the fast executor moves bytes on ([`FastExec::threads`]).
    pub fn threads(&self) -> usize {
        self.fast.threads()
    }

    /// Set the fast executor's thread count (0 = the default; 1 = serial).
    pub fn set_threads(&mut self, n: usize) {
        self.fast.set_threads(n);
    }

    /// Keep the fast executor's deferred byte moves across runs
    /// ([`FastExec::hold_moves`]).
    pub(crate) fn hold_moves(&mut self, hold: bool) {
        self.fast.hold_moves(hold);
    }

    /// Run every deferred byte move of the fast executor
    /// ([`FastExec::flush_moves`]).
    pub fn flush_moves(&mut self) -> Result<(), SystemError> {
        self.fast.flush_moves(&mut self.st)
    }

    /// Run one directed leg: gen on both Q7s, RX start (arm S2M, right_push),
    /// TX start (left_pop, M2S launch), then run to completion. local_sem on
    /// the TX core and remote_sem on the RX core each rise by the number of
    /// engines; nothing waits on them here.
    pub fn send_recv(&mut self, leg: &SystemLeg, mode: Mode) -> Result<LegReport, SystemError> {
        let t0 = self.st.now;
        let c0 = self.cycle.cycles;
        if self.st.rec.is_some() {
            let origin = self.clock_ps(mode);
            let (name, args) = self.st.leg_trace_label(leg)?;
            if let Some(r) = self.st.rec() {
                r.leg_begin(name, args, origin);
            }
        }
        let issued = self.st.issue_leg_pair(leg);
        let ran = issued.and_then(|g| self.run(mode).map(|()| g));
        if self.st.rec.is_some() {
            let end = self.clock_ps(mode);
            if let Some(r) = self.st.rec() {
                r.leg_end(end);
            }
        }
        let (gtx, grx) = ran?;
        let link = self.st.topo.link_class(leg.src, leg.dst)?;
        Ok(LegReport {
            dst_soc: gtx.dst_soc,
            routing_id: gtx.routing_id,
            fold: self.st.topo.fold_mode(leg.src, leg.dst)?,
            link,
            per_engine: gtx.per_engine.clone(),
            descriptors: gtx.total,
            bytes: u64::from(leg.bytes_per_partition) * u64::from(leg.partitions),
            modeled_ps: match mode {
                Mode::Fast => self.st.now - t0,
                Mode::Cycle => crate::clock::cycles_to_ps(self.cycle.cycles - c0),
            },
            cycles: self.cycle.cycles - c0,
            classifier: gtx.class.log(prid(leg.src, Role::Tx)),
            pre_sync: grx.pre_sync,
        })
    }
}

impl SystemState {
    /// The parameters of every core of this system.
    pub fn core_params(&self) -> &CoreParams {
        &self.core
    }

    /// Engines per core (`CoreParams::engines`).
    pub fn engines(&self) -> u8 {
        self.core.engines as u8
    }

    /// Start recording a timeline (docs/timeline.md); replaces a recorder
    /// already attached.
    pub fn trace_start(&mut self) {
        self.rec = Some(Box::new(crate::trace::Recorder::new(core_names(
            &self.topo,
        ))));
        self.rec_index = None;
    }

    /// Stop recording: the timeline so far, wrapped in a collective named
    /// `label` when given.
    pub fn trace_finish(&mut self, label: Option<String>) -> Option<crate::trace::Recording> {
        self.rec_index = None;
        self.rec.take().map(|r| r.finish(label))
    }

    /// The recorder, while tracing.
    pub(crate) fn rec(&mut self) -> Option<&mut crate::trace::Recorder> {
        self.rec.as_deref_mut()
    }

    /// The topology.
    pub fn topology(&self) -> &Topology {
        &self.topo
    }

    /// A core.
    pub fn core(&self, c: CoreId) -> Result<&SystemCore, SystemError> {
        self.cores
            .get(usize::from(c.0))
            .ok_or(SystemError::NoSuchCore {
                core: c.0,
                cores: self.cores.len(),
            })
    }

    /// A core, mutably.
    pub fn core_mut(&mut self, c: CoreId) -> Result<&mut SystemCore, SystemError> {
        let n = self.cores.len();
        self.cores
            .get_mut(usize::from(c.0))
            .ok_or(SystemError::NoSuchCore {
                core: c.0,
                cores: n,
            })
    }

    /// A core's SBUF.
    pub fn sbuf(&self, c: CoreId) -> Result<&mem::Sbuf, SystemError> {
        Ok(&self.core(c)?.sbuf)
    }

    /// Read `len` SBUF bytes of (core, partition, offset).
    pub fn read_sbuf(
        &self,
        c: CoreId,
        partition: u8,
        offset: u64,
        len: usize,
    ) -> Result<Vec<u8>, SystemError> {
        let mut v = vec![0u8; len];
        self.core(c)?.sbuf.read(partition, offset, &mut v)?;
        Ok(v)
    }

    /// Semaphore value.
    pub fn sem(&self, c: CoreId, sem: u8) -> Result<i32, SystemError> {
        Ok(self.core(c)?.evt.sem(sem))
    }

    /// Set a semaphore (an AXI write to SEM_SET).
    pub fn set_sem(&mut self, c: CoreId, sem: u8, value: i32) -> Result<(), SystemError> {
        let off = crate::evt_sem::regs::EVT_SEM_SEM_SET_BASE + u32::from(sem) * 4;
        let before = match self.rec {
            Some(_) => self.sem(c, sem)?,
            None => 0,
        };
        self.core_mut(c)?.evt_write(off, value as u32)?;
        if self.rec.is_some() {
            let after = self.sem(c, sem)?;
            let t = self.now;
            if let Some(r) = self.rec() {
                r.sem(c.0, sem, before, after, t);
            }
        }
        Ok(())
    }

    /// Queue register state of (core, engine, queue, side 0 = M2S / 1 = S2M).
    pub fn queue(
        &self,
        c: CoreId,
        engine: u8,
        queue: u8,
        side: u8,
    ) -> Result<QueueState, SystemError> {
        if engine >= self.engines() || queue >= topology::DMA_QUEUES || side > 1 {
            return Err(SystemError::Leg {
                field: "engine/queue/side",
                value: engine.into(),
                rule: "engine < the core's engines, queue < 16, side 0|1",
            });
        }
        Ok(self.core(c)?.queue(engine, queue, side))
    }

    /// Modeled time now (ps).
    pub fn now_ps(&self) -> Ps {
        self.now
    }

    /// Bytes of host memory held by SBUFs and descriptor RAMs.
    pub fn allocated_bytes(&self) -> u64 {
        self.cores
            .iter()
            .map(|c| c.sbuf.allocated_bytes() + c.desc.allocated_bytes())
            .sum()
    }

    /// A 32-bit MMIO write by a Q7 of core `from` to the routed SoC address
    /// `soc`. An offset nothing of the core serves is the Q7 port's SLVERR,
    /// the error cycle mode's port answers ([`SystemError::Q7Resp`]).
    pub fn mmio_write(&mut self, from: CoreId, soc: u64, data: u32) -> Result<(), SystemError> {
        let (to, off) = map::route_address(&self.topo, from, soc)?;
        let bpp = self.topo.sbuf_bytes_per_partition;
        let target = match map::decode_core_offset(off, bpp) {
            Err(SystemError::Unmapped { .. }) => {
                return Err(SystemError::Q7Resp {
                    core: to.0,
                    by: from.0,
                    addr: off as u32,
                    access: "write",
                    resp: crate::udma::regs::AXI_RESP_SLVERR,
                })
            }
            t => t?,
        };
        match target {
            map::Target::Udma { engine, offset } => match doorbell_of(offset) {
                Some((side, q)) => self.ring_doorbell(from, to, engine, q, side, data)?,
                None => self.core_mut(to)?.udma_write(engine, offset, data)?,
            },
            map::Target::Bcast { offset } => self.bcast_write(from, to, offset, data)?,
            map::Target::EvtSem { offset } => {
                self.core_mut(to)?.evt_write(offset, data)?;
                self.trace_sem(to, offset);
            }
            map::Target::Desc { offset } => {
                self.core_mut(to)?.desc.write(offset, &data.to_le_bytes())
            }
            map::Target::Sbuf { partition, offset } => {
                self.core_mut(to)?
                    .sbuf
                    .write(partition, offset.into(), &data.to_le_bytes())?
            }
        }
        Ok(())
    }

    pub(crate) fn trace_sem(&mut self, c: CoreId, evt_offset: u32) {
        let sem = match map::sem_reg(evt_offset) {
            Some(map::SemReg::Read(s) | map::SemReg::Incr(s) | map::SemReg::Decr(s)) => s,
            None => return,
        };
        if self.trace_on {
            let value = self.cores[usize::from(c.0)].evt.sem(sem);
            self.trace.push(TraceEvent::Sem {
                t: self.now,
                core: c.0,
                sem,
                value,
            });
        }
    }

    /// The gen/start words of a leg: (TX gen, RX gen) — the start words need
    /// the descriptor counts the gens report.
    pub fn leg_gen_words(
        &self,
        leg: &SystemLeg,
    ) -> Result<(RdmaDescGen, RdmaDescGen), SystemError> {
        let base = RdmaDescGen {
            queue_id: leg.queue,
            local_sem: leg.local_sem,
            remote_sem: leg.remote_sem,
            src_addr: leg.src_offset,
            dst_addr: leg.dst_offset,
            free_dim_bytes: leg.bytes_per_partition,
            dma_engine_mask: leg.engine_mask,
            partition_start: leg.partition_start,
            partition_count: leg.partitions,
            ..RdmaDescGen::default()
        };
        let tx = RdmaDescGen {
            remote_core_id: leg.dst.0.into(),
            remote_routing_id: self.topo.routing_id(leg.src, leg.dst)?,
            ..base
        };
        let rx = RdmaDescGen {
            remote_core_id: leg.src.0.into(),
            remote_routing_id: self.topo.routing_id(leg.dst, leg.src)?,
            ..base
        };
        Ok((tx, rx))
    }

    /// Queue one leg without running it: gen on both Q7s, then the RX and TX
    /// starts. Issue every leg of a ring step, then [`System::run`] once, so
    /// the legs overlap in modeled time. Returns the TX gen report.
    pub fn issue_leg(&mut self, leg: &SystemLeg) -> Result<GenReport, SystemError> {
        Ok(self.issue_leg_pair(leg)?.0)
    }

    /// [`SystemState::issue_leg`] returning both gen reports (TX, RX).
    fn issue_leg_pair(&mut self, leg: &SystemLeg) -> Result<(GenReport, GenReport), SystemError> {
        let (wtx, wrx) = self.leg_gen_words(leg)?;
        let gtx = self.rdma_desc_gen(leg.src, prid(leg.src, Role::Tx), &wtx)?;
        let grx = match self.rdma_desc_gen(leg.dst, prid(leg.dst, Role::Rx), &wrx) {
            Ok(g) => g,
            Err(e) => {
                // The leg is refused whole: the TX gen's record and set-up
                // program go too (nothing reaches a port).
                self.setups.pop_back();
                self.streams.remove(&(leg.src.0, Role::Tx as u8, leg.queue));
                return Err(e);
            }
        };
        for &(e, _) in &gtx.per_engine {
            self.rx_ops
                .insert((leg.src.0, e, leg.queue), leg.op.clone());
        }
        let f = match &leg.op {
            LegOp::Copy => None,
            LegOp::Reduce(f) => Some(f.clone()),
        };
        let list = self.rx_reduce.entry(leg.dst.0).or_default();
        if f.is_some() || !list.is_empty() {
            let r = mem::RxReduce {
                parts: (
                    leg.partition_start,
                    u16::from(leg.partition_start) + u16::from(leg.partitions),
                ),
                bytes: (
                    leg.dst_offset,
                    leg.dst_offset + u64::from(leg.bytes_per_partition),
                ),
                f,
            };
            list.retain(|o| o.parts != r.parts || o.bytes != r.bytes);
            if r.f.is_some() || !list.is_empty() {
                list.push(r);
            }
        }
        self.rdma_desc_start(
            leg.dst,
            prid(leg.dst, Role::Rx),
            &System::leg_start_word(leg, &grx),
        )?;
        self.rdma_desc_start(
            leg.src,
            prid(leg.src, Role::Tx),
            &System::leg_start_word(leg, &gtx),
        )?;
        Ok((gtx, grx))
    }

    /// Drop every queued Q7 program (set-up programs included) and unstarted
    /// gen record (after an error such as a deadlock the queued programs stay
    /// queued until dropped).
    pub fn clear_pending(&mut self) {
        self.pending.clear();
        self.setups.clear();
        self.streams.clear();
    }
}

/// The timeline's Q7 of a role.
pub(crate) fn q7_role(r: Role) -> crate::trace::Q7Role {
    match r {
        Role::Rx => crate::trace::Q7Role::Rx,
        Role::Tx => crate::trace::Q7Role::Tx,
    }
}

/// Process names of the timeline: one per core.
fn core_names(topo: &Topology) -> Vec<String> {
    (0..topo.num_cores() as u16)
        .map(|c| match topo.loc(CoreId(c)) {
            Ok(l) => format!(
                "core {c} (package {} die {} core {})",
                l.package, l.die, l.core
            ),
            Err(_) => format!("core {c}"),
        })
        .collect()
}

impl SystemState {
    /// Fast mode applies the queued ring set-up programs at once (no
    /// modeled time): each is an instant slice on its Q7.
    fn trace_setups(&mut self) {
        let now = self.now;
        let progs: Vec<_> = self
            .setups
            .iter()
            .map(|s| (s.core.0, s.role, s.accesses.len()))
            .collect();
        if let Some(r) = self.rec() {
            for (core, role, n) in progs {
                r.slice(
                    crate::trace::Track::Q7 {
                        core,
                        role: q7_role(role),
                    },
                    "ring set-up",
                    now,
                    now,
                    serde_json::json!({"accesses": n}),
                );
            }
        }
    }

    /// A leg's name and arguments on the timeline.
    fn leg_trace_label(&self, leg: &SystemLeg) -> Result<(String, serde_json::Value), SystemError> {
        let link = self.topo.link_class(leg.src, leg.dst)?;
        Ok((
            // A plain name: speedscope labels a slice with its name and
            // its arguments (the leg's arguments go on its end event).
            format!(
                "leg core {} -> core {} ({} x {} B, {})",
                leg.src.0,
                leg.dst.0,
                leg.partitions,
                leg.bytes_per_partition,
                link.name()
            ),
            serde_json::json!({
                "bytes": u64::from(leg.bytes_per_partition) * u64::from(leg.partitions),
                "partitions": leg.partitions,
                "bytes_per_partition": leg.bytes_per_partition,
                "engine_mask": format!("{:#06x}", leg.engine_mask),
                "queue": leg.queue,
                "link": link,
                "reduce": matches!(leg.op, LegOp::Reduce(_)),
                "local_sem": leg.local_sem,
                "remote_sem": leg.remote_sem,
            }),
        ))
    }
}

/// (side, queue) when a UDMA CSR offset is a tail-pointer-increment doorbell
/// (`*DRTP_inc` of the register description, addressed with [`crate::udma::regs::q_addr`]).
pub(crate) fn doorbell_of(offset: u32) -> Option<(u8, u8)> {
    use crate::udma::regs::{q_addr, Side, UDMA_NUM_QUEUES, UDMA_Q_RTP_INC};
    [Side::M2s, Side::S2m]
        .into_iter()
        .enumerate()
        .flat_map(|(s, side)| (0..UDMA_NUM_QUEUES).map(move |q| (s as u8, side, q)))
        .find(|&(_, side, q)| q_addr(side, q, UDMA_Q_RTP_INC) == offset)
        .map(|(s, _, q)| (s, q as u8))
}
