//! Stimulus for the EVT_SEM lockstep: the seed's two-semaphore completion
//! sequence first (seed 001 §5.2, §8), then constrained-random AXI traffic
//! (through [`AxiLiteMaster`]), increment bursts (including all 16 ports on
//! one semaphore), waits of every mode and resets in mid-run.
//!
//! Coverage is counted from what the stimulus drives and from the outputs it
//! observes (handshakes, `wait_done_o`, `err_pulse_o`), never from the model's
//! internals, so both lockstep twins count the same.

use super::bfm::{AxiLiteMaster, Dice, Done, RdTxn, Timing, WrTxn};
use super::io::{lane, set_lane, EvtSemIn, EvtSemOut, IDX_W, MODE_W, NUM_INC, NUM_WAIT, VAL_W};
use super::regs::*;
use super::NUM_SEM;
use crate::ports::Stimulus;
use crate::stim::StimRng;
use bitvec::{order::Lsb0, BitArr};

/// Directed sequence constants: seed 001 §8 (local_sem = 12, remote_sem = 20,
/// dma_engine_mask = 0x000F → 4 engines), then the full 16 engines (§5.2).
pub const LOCAL_SEM: u8 = 12;
/// See [`LOCAL_SEM`].
pub const REMOTE_SEM: u8 = 20;
/// Engines of the seed 001 §8 example (dma_engine_mask = 0x000F).
pub const EXAMPLE_ENGINES: u32 = 4;

/// Coverage counters (index into [`EvtSemStim::coverage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Cov {
    WinEventRd,
    WinEventWr,
    WinErrStatusRd,
    WinErrStatusWr,
    WinFirstErrRd,
    WinFirstErrWr,
    WinFirstErrDataRd,
    WinFirstErrDataWr,
    WinSemReadRd,
    WinSemReadWr,
    WinSemSetRd,
    WinSemSetWr,
    WinSemIncrRd,
    WinSemIncrWr,
    WinSemDecrRd,
    WinSemDecrWr,
    WinUnmappedRd,
    WinUnmappedWr,
    WaitNone,
    WaitSemEq,
    WaitSemLt,
    WaitSemLe,
    WaitSemGt,
    WaitSemGe,
    WaitEvtSet,
    WaitEvtSetThenClear,
    WaitSemGeDec,
    WaitCancelled,
    WaitBadMode,
    CollideInc2Plus,
    CollideIncAll16,
    CollideIncAxi,
    CollideDecDec,
    CollideDecInc,
    CollideEvtClearAxi,
    Overflow,
    SlverrWr,
    SlverrRd,
    PartialStrb,
    WrRo,
    Unmapped,
    AxiAwBeforeW,
    AxiWBeforeAw,
    AxiAwWSameCycle,
    AxiBBackpressure,
    AxiRBackpressure,
    ResetMidRun,
    DirectedCompletion,
    FirstErrProbeRd,
    FirstErrProbeOvf,
    FirstErrProbeBadWait,
}

/// Stable counter names, in [`Cov`] order.
pub const COV_NAMES: [&str; 51] = [
    "win_event_rd",
    "win_event_wr",
    "win_err_status_rd",
    "win_err_status_wr",
    "win_first_err_rd",
    "win_first_err_wr",
    "win_first_err_data_rd",
    "win_first_err_data_wr",
    "win_sem_read_rd",
    "win_sem_read_wr",
    "win_sem_set_rd",
    "win_sem_set_wr",
    "win_sem_incr_rd",
    "win_sem_incr_wr",
    "win_sem_decr_rd",
    "win_sem_decr_wr",
    "win_unmapped_rd",
    "win_unmapped_wr",
    "wait_none",
    "wait_sem_eq",
    "wait_sem_lt",
    "wait_sem_le",
    "wait_sem_gt",
    "wait_sem_ge",
    "wait_evt_set",
    "wait_evt_set_then_clear",
    "wait_sem_ge_dec",
    "wait_cancelled",
    "wait_bad_mode",
    "collide_inc_2plus",
    "collide_inc_all16",
    "collide_inc_axi",
    "collide_dec_dec",
    "collide_dec_inc",
    "collide_evt_clear_axi",
    "overflow",
    "slverr_wr",
    "slverr_rd",
    "partial_strb",
    "wr_ro",
    "unmapped",
    "axi_aw_before_w",
    "axi_w_before_aw",
    "axi_aw_w_same_cycle",
    "axi_b_backpressure",
    "axi_r_backpressure",
    "reset_mid_run",
    "directed_completion",
    "first_err_probe_rd",
    "first_err_probe_ovf",
    "first_err_probe_bad_wait",
];

const NUM_COV: usize = COV_NAMES.len();
/// Semaphores/events the random traffic concentrates on (collisions).
const NUM_HOT: usize = 8;

/// What [`EvtSemStim::observe`] needs of the last cycle's inputs besides
/// the wait ports (those are [`EvtSemStim::ports`], unchanged between the
/// cycle that drove them and its `observe`).
#[derive(Debug, Clone, Copy, Default)]
struct LastIn {
    rst_ni: u64,
    dbg_idx_i: u64,
}

impl LastIn {
    fn of(i: &EvtSemIn) -> Self {
        Self {
            rst_ni: i.rst_ni,
            dbg_idx_i: i.dbg_idx_i,
        }
    }
}

/// A wait request (its lanes, while held, are in [`WaitPorts`]).
#[derive(Debug, Clone, Copy, Default)]
struct WaitReq {
    mode: u8,
    idx: u8,
    value: i32,
    /// Cycles of random waits after which it is cancelled.
    limit: u32,
}

/// The wait ports as driven, packed as on the ports: the lanes of the held
/// requests, zero on idle ports. A request is held for up to ~120 cycles, so
/// the lanes change only when one starts or ends and are copied into the
/// inputs every cycle (packing the four ports every cycle was a tenth of the
/// environment's work).
#[derive(Debug, Clone, Copy, Default)]
struct WaitPorts {
    valid: u64,
    mode: u64,
    idx: u64,
    value: [u64; 2],
    /// Ports holding an unsupported mode (counted by `observe` every cycle).
    bad: u64,
}

impl WaitPorts {
    fn mode(&self, p: usize) -> u8 {
        lane(core::slice::from_ref(&self.mode), p, MODE_W) as u8
    }
    fn idx(&self, p: usize) -> u8 {
        lane(core::slice::from_ref(&self.idx), p, IDX_W) as u8
    }
    /// Hold `w` on port `p`.
    fn hold(&mut self, p: usize, w: &WaitReq) {
        self.release(p);
        self.put(p, w.mode, w.idx, w.value);
        self.valid |= 1 << p;
        self.bad |= u64::from(WaitMode::from_code(u32::from(w.mode)).is_none()) << p;
    }
    /// Drop port `p`'s request (its lanes to zero, as an idle port's).
    fn release(&mut self, p: usize) {
        self.put(p, 0, 0, 0);
        self.valid &= !(1 << p);
        self.bad &= !(1 << p);
    }
    fn put(&mut self, p: usize, mode: u8, idx: u8, value: i32) {
        set_lane(
            core::slice::from_mut(&mut self.mode),
            p,
            MODE_W,
            mode.into(),
        );
        set_lane(core::slice::from_mut(&mut self.idx), p, IDX_W, idx.into());
        set_lane(&mut self.value, p, VAL_W, u64::from(value as u32));
    }
    /// Drive the ports (equal to `set_wait` of every held request on idle
    /// wait ports).
    fn drive(&self, i: &mut EvtSemIn) {
        i.wait_valid_i = self.valid;
        i.wait_mode_i = self.mode;
        i.wait_idx_i = self.idx;
        i.wait_value_i = self.value;
    }
}

/// Directed-sequence progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Seed 001 §8: 4 engines, local_sem 12 and remote_sem 20.
    Example { t: u32 },
    /// 16 engines (seed 001 §5.2).
    Full { t: u32 },
    /// Constrained-random traffic.
    Random,
}

/// The error a first-error probe raises on its own (see [`EvtSemStim::probe_step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProbeKind {
    /// A read of an unmapped offset.
    Read,
    /// An increment port saturating a semaphore SET to i32::MAX.
    Overflow,
    /// A wait request with an unsupported mode.
    BadWait,
}

/// Steps of a first-error probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProbeStep {
    /// Random traffic stopped; waiting for the bus and the ports to go quiet.
    Drain(u32),
    /// FIRST_ERR re-armed; waiting for its response.
    Rearmed(u32),
    /// The one error raised; waiting before reading FIRST_ERR back.
    Raised(u32),
    /// FIRST_ERR and FIRST_ERR_DATA read back; waiting for the responses.
    ReadBack,
}

/// Seeded stimulus for `evt_sem`.
#[derive(Debug, Clone)]
pub struct EvtSemStim {
    rng: Dice,
    cycles: u64,
    bfm: AxiLiteMaster,
    /// Cycles of random waits (calls of `drive_waits`), and the count at
    /// which each port's request is cancelled: a request held for `limit`
    /// of them is cancelled in the next.
    wait_tick: u64,
    wait_expires: [u64; NUM_WAIT],
    /// The wait ports driven in every cycle out of reset.
    ports: WaitPorts,
    phase: Phase,
    /// Waiters of the directed phase still pending (bit p = wait port p).
    directed_pending: u32,
    reset_left: u32,
    next_reset: u64,
    hot: [u8; NUM_HOT],
    burst_left: u32,
    burst_density: u32,
    /// Last value seen of each semaphore on the debug port.
    seen: [i32; NUM_SEM],
    /// The fields of the last cycle's inputs that `observe` reads.
    last_in: LastIn,
    /// Increment ports of the last two cycles (commit detection).
    inc_hist: [IncPorts; 2],
    /// The cycle (a count of driven cycles, [`EvtSemStim::inc_tag`]) in which
    /// each semaphore was last named by a valid increment port: two ports of
    /// one cycle name one semaphore when the second finds the first's stamp.
    /// (A stamp per semaphore, not a set: nothing to clear per cycle.)
    named_at: [u64; NUM_SEM],
    inc_tag: u64,
    /// Events cleared by the waits satisfied in the last observed cycle
    /// (set at the end of `observe`, read by the next one).
    clr_mask: SemSet,
    /// Directed INCR writes to remote_sem still to queue.
    directed_writes: u32,
    bvalid_prev: bool,
    sweep: u8,
    /// A first-error probe in progress, and the cycle of the next one.
    probe: Option<(ProbeKind, ProbeStep)>,
    next_probe: u64,
    cov: [u64; NUM_COV],
    /// Hash of every response received (compared between the twins).
    resp_hash: u64,
}

/// The increment ports (bit p) whose nibble p of `gate` is below `density`
/// (1..=16), all nibbles compared at once: the even and the odd nibbles each
/// sit in the low half of a byte, `0x80 + nibble - density` stays inside its
/// byte, and its bit 7 is clear exactly when the nibble is below.
#[inline(always)]
pub(super) fn gate_ports(gate: u64, density: u32) -> u64 {
    const LO: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const HI: u64 = 0x8080_8080_8080_8080;
    debug_assert!((1..=16).contains(&density));
    let d = u64::from(density) * 0x0101_0101_0101_0101;
    let even = !(((gate & LO) | HI) - d) & HI;
    let odd = !((((gate >> 4) & LO) | HI) - d) & HI;
    spread_even(gather_bytes(even)) | spread_even(gather_bytes(odd)) << 1
}

/// Bit 7 of byte k of `m` (the only bits set) to bit k.
#[inline(always)]
fn gather_bytes(m: u64) -> u64 {
    // Byte k's bit lands at bit 56 + k (distinct partial products: no carries).
    (m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Bit k (k < 8) of `x` to bit 2k.
#[inline(always)]
fn spread_even(x: u64) -> u64 {
    let x = (x | x << 4) & 0x0F0F;
    let x = (x | x << 2) & 0x3333;
    (x | x << 1) & 0x5555
}

/// A set of semaphores (bit i of the 256).
type SemSet = BitArr!(for 256, in u64, Lsb0);

/// The increment ports of one cycle (valid bits and index lanes), kept for
/// the collision checks against an AXI write or a satisfied wait (rare:
/// only when one completes).
#[derive(Debug, Clone, Copy, Default)]
struct IncPorts {
    valid: u64,
    idx: [u64; 2],
}

impl IncPorts {
    fn of(i: &EvtSemIn) -> Self {
        Self {
            valid: i.inc_valid_i,
            idx: i.inc_idx_i,
        }
    }
    /// A valid port names semaphore `s`.
    fn names(&self, s: u8) -> bool {
        (0..NUM_INC).any(|p| (self.valid >> p) & 1 == 1 && lane(&self.idx, p, IDX_W) as u8 == s)
    }
    /// All 16 ports are valid and name one semaphore.
    fn all_on_one(&self) -> bool {
        let same = u64::from(self.idx[0] as u8) * 0x0101_0101_0101_0101;
        self.valid == (1 << NUM_INC) - 1 && self.idx == [same, same]
    }
}

/// The value of a random increment port by byte 2 of its draw, for bytes
/// 3..=255: the sign of `small + 1` (3..=100: negative, 101..=110: zero,
/// above: positive). A table, not a `match` or a chain of selects: the byte
/// is random per port.
const INC_SIGN: [i8; 256] = {
    let mut t = [1i8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b {
            0..=2 => 0, // not used (the wide values)
            3..=100 => -1,
            101..=110 => 0,
            _ => 1,
        };
        b += 1;
    }
    t
};

/// An increment port's value from its draw `r`: by byte 2, +2^30, -2^30 or
/// any 32-bit value (bytes 0, 1, 2), otherwise a small step of 1..=4 (bits
/// 24..26) with the sign of [`INC_SIGN`].
#[inline(always)]
fn inc_value(r: u64) -> i32 {
    let b = ((r >> 16) & 0xFF) as usize;
    let small = ((r >> 24) & 3) as i32 + 1;
    // Rare (3 in 256): a branch that is predicted.
    if b < 3 {
        [0x4000_0000, -0x4000_0000, (r >> 32) as u32 as i32][b]
    } else {
        i32::from(INC_SIGN[b]) * small
    }
}

impl EvtSemStim {
    fn hit(&mut self, c: Cov) {
        self.cov[c as usize] += 1;
    }

    /// Count of one coverage counter.
    pub fn count(&self, c: Cov) -> u64 {
        self.cov[c as usize]
    }

    /// The directed completion sequence is over.
    pub fn directed_done(&self) -> bool {
        self.phase == Phase::Random
    }

    fn hot_idx(&mut self) -> u8 {
        if self.rng.chance16(1) {
            self.rng.bits(8) as u8
        } else {
            self.hot[self.rng.bits(3) as usize]
        }
    }

    fn reshuffle_hot(&mut self) {
        for k in 0..NUM_HOT {
            self.hot[k] = match self.rng.rng.below(8) {
                0 => 0,
                1 => 255,
                _ => self.rng.rng.below(NUM_SEM as u64) as u8,
            };
        }
    }

    fn start_reset(&mut self) {
        self.reset_left = self.rng.rng.range(1, 3) as u32;
        self.bfm.reset();
        self.ports = WaitPorts::default();
        self.burst_left = 0;
        self.bvalid_prev = false;
        self.seen = [0; NUM_SEM];
        self.probe = None;
    }

    fn window_cov(reg: Reg, write: bool) -> Cov {
        use Cov::*;
        let (rd, wr) = match reg {
            Reg::Event(_) => (WinEventRd, WinEventWr),
            Reg::ErrStatus => (WinErrStatusRd, WinErrStatusWr),
            Reg::FirstErr => (WinFirstErrRd, WinFirstErrWr),
            Reg::FirstErrData => (WinFirstErrDataRd, WinFirstErrDataWr),
            Reg::Sem(SemWindow::Read, _) => (WinSemReadRd, WinSemReadWr),
            Reg::Sem(SemWindow::Set, _) => (WinSemSetRd, WinSemSetWr),
            Reg::Sem(SemWindow::Incr, _) => (WinSemIncrRd, WinSemIncrWr),
            Reg::Sem(SemWindow::Decr, _) => (WinSemDecrRd, WinSemDecrWr),
            Reg::Unmapped => (WinUnmappedRd, WinUnmappedWr),
        };
        if write {
            wr
        } else {
            rd
        }
    }

    fn mode_cov(mode: u8) -> Cov {
        use Cov::*;
        match WaitMode::from_code(u32::from(mode)) {
            Some(WaitMode::None) => WaitNone,
            Some(WaitMode::SemEq) => WaitSemEq,
            Some(WaitMode::SemLt) => WaitSemLt,
            Some(WaitMode::SemLe) => WaitSemLe,
            Some(WaitMode::SemGt) => WaitSemGt,
            Some(WaitMode::SemGe) => WaitSemGe,
            Some(WaitMode::EvtSet) => WaitEvtSet,
            Some(WaitMode::EvtSetThenClear) => WaitEvtSetThenClear,
            Some(WaitMode::SemGeDec) => WaitSemGeDec,
            None => WaitBadMode,
        }
    }

    /// Coverage and the response hash of a finished AXI transaction.
    #[inline(always)]
    fn account(cov: &mut [u64; NUM_COV], resp_hash: &mut u64, d: Done) {
        let mut hit = |c: Cov| cov[c as usize] += 1;
        match d {
            Done::Write(w, resp) => {
                *resp_hash = resp_hash.rotate_left(5) ^ u64::from(resp);
                hit(Self::window_cov(Reg::decode(w.addr), true));
                if resp == EVT_SEM_RESP_SLVERR {
                    hit(Cov::SlverrWr);
                }
                hit(match w.aw_at.cmp(&w.w_at) {
                    core::cmp::Ordering::Less => Cov::AxiAwBeforeW,
                    core::cmp::Ordering::Greater => Cov::AxiWBeforeAw,
                    core::cmp::Ordering::Equal => Cov::AxiAwWSameCycle,
                });
            }
            Done::Read(r, data, resp) => {
                *resp_hash = resp_hash.rotate_left(5) ^ u64::from(data) ^ (u64::from(resp) << 32);
                hit(Self::window_cov(Reg::decode(r.addr), false));
                if resp == EVT_SEM_RESP_SLVERR {
                    hit(Cov::SlverrRd);
                }
            }
        }
    }

    /// Account for everything observed in the outputs of cycle `cycle - 1`.
    fn observe(&mut self, cycle: u64, o: &EvtSemOut) {
        let last = self.last_in;
        if last.rst_ni & 1 == 0 {
            return;
        }
        // Debug port shadow.
        self.seen[(last.dbg_idx_i as u32 & IDX_MASK) as usize] = o.dbg_sem_o as u32 as i32;

        // AXI.
        // Counted without branches (backpressure and errors are random).
        self.cov[Cov::AxiBBackpressure as usize] += u64::from(self.bfm.b_stalled(o));
        self.cov[Cov::AxiRBackpressure as usize] += u64::from(self.bfm.r_stalled(o));
        // A write committed in cycle - 2 when bvalid rises in cycle - 1.
        let bvalid = o.s_axil_bvalid & 1 == 1;
        if bvalid && !self.bvalid_prev {
            if let Some(w) = self.bfm.oldest_write() {
                match Reg::decode(w.addr) {
                    Reg::Sem(SemWindow::Set | SemWindow::Incr | SemWindow::Decr, i)
                        if w.strb == EVT_SEM_FULL_STRB && self.inc_hist[1].names(i) =>
                    {
                        self.hit(Cov::CollideIncAxi)
                    }
                    Reg::Event(i)
                        if w.strb == EVT_SEM_FULL_STRB && self.clr_mask[usize::from(i)] =>
                    {
                        self.hit(Cov::CollideEvtClearAxi)
                    }
                    _ => {}
                }
            }
        }
        self.bvalid_prev = bvalid;
        // Finished transactions, accounted as the master reports them.
        let (cov, resp_hash) = (&mut self.cov, &mut self.resp_hash);
        self.bfm
            .observe(cycle, o, |d| Self::account(cov, resp_hash, d));

        // Errors.
        let pulse = o.err_pulse_o as u32;
        for (k, c) in [
            (ErrKind::Overflow, Cov::Overflow),
            (ErrKind::PartialStrb, Cov::PartialStrb),
            (ErrKind::WrRo, Cov::WrRo),
            (ErrKind::Unmapped, Cov::Unmapped),
        ] {
            self.cov[c as usize] += u64::from(pulse & k.bit() != 0);
        }

        // Waits (and the event clears of the last cycle, for the event-write
        // collision counter: one pass over the ports).
        let done = o.wait_done_o;
        // Unsupported modes on valid ports.
        // (Rare: no `count_ones`, no single instruction on the baseline x86-64, otherwise.)
        if self.ports.bad != 0 {
            self.cov[Cov::WaitBadMode as usize] += u64::from(self.ports.bad.count_ones());
        }
        let mut dec_mask = SemSet::ZERO;
        let mut dec_dup = false;
        let mut clr = SemSet::ZERO;
        // The satisfied ports, in port order.
        let mut sat = done & self.ports.valid;
        while sat != 0 {
            let p = sat.trailing_zeros() as usize;
            sat &= sat - 1;
            let mode = self.ports.mode(p);
            let idx = self.ports.idx(p);
            let c = Self::mode_cov(mode);
            self.hit(c);
            self.ports.release(p);
            if u32::from(mode) == EVT_SEM_WAIT_EVT_SET_CLR {
                clr.set(usize::from(idx), true);
            }
            if u32::from(mode) == EVT_SEM_WAIT_SEM_GE_DEC {
                dec_dup |= dec_mask.replace(usize::from(idx), true);
                if self.inc_hist[0].names(idx) {
                    self.hit(Cov::CollideDecInc);
                }
            }
            if self.directed_pending & (1 << p) != 0 {
                self.directed_pending &= !(1 << p);
                if self.directed_pending == 0 {
                    self.hit(Cov::DirectedCompletion);
                }
            }
        }
        if dec_dup {
            self.hit(Cov::CollideDecDec);
        }
        self.clr_mask = clr;
    }

    /// Drive the increment ports for this cycle (random bursts).
    /// Returns whether two valid ports name one semaphore (found as they
    /// are driven, for [`EvtSemStim::collision_cov`]).
    fn drive_incs_random(&mut self, i: &mut EvtSemIn) -> bool {
        if self.burst_left == 0 {
            if self.rng.bits(6) == 0 {
                self.burst_left = self.rng.rng.range(1, 200) as u32;
                self.burst_density = self.rng.rng.range(1, 16) as u32;
            }
            return false;
        }
        self.burst_left -= 1;
        if self.rng.bits(6) == 0 {
            // All 16 DMA engines finish on the same semaphore in the same cycle.
            let idx = self.hot_idx();
            let v = if self.rng.bits(4) == 0 {
                0x1000_0000
            } else {
                1
            };
            for p in 0..NUM_INC {
                i.set_inc(p, idx, v);
            }
            return true;
        }
        // One draw gates all 16 ports (a nibble each: valid with probability
        // density/16), one draw per valid port for its index and value. The
        // ports are idle here, so their lanes are OR-ed in without masking.
        let gate = self.rng.u64();
        let mut valid = gate_ports(gate, self.burst_density);
        i.inc_valid_i = valid;
        let mut shared = false;
        while valid != 0 {
            let p = valid.trailing_zeros() as usize;
            valid &= valid - 1;
            let r = self.rng.u64();
            // As `hot_idx`: any semaphore with probability 1/16, else a hot one.
            let hot = self.hot[((r >> 12) & 7) as usize];
            let idx = if r & 0xF == 0 { (r >> 4) as u8 } else { hot };
            let v = inc_value(r);
            i.inc_idx_i[p / 8] |= u64::from(idx) << (8 * (p % 8));
            i.inc_value_i[p / 2] |= u64::from(v as u32) << (32 * (p % 2));
            shared |= self.name(idx);
        }
        shared
    }

    /// A valid increment port names semaphore `s` this cycle; whether an
    /// earlier port of the cycle did.
    #[inline(always)]
    fn name(&mut self, s: u8) -> bool {
        let stamp = &mut self.named_at[usize::from(s)];
        let shared = *stamp == self.inc_tag;
        *stamp = self.inc_tag;
        shared
    }

    fn random_write(&mut self) -> WrTxn {
        let idx = self.hot_idx();
        let value = match self.rng.rng.below(64) {
            0 => i32::MAX as u32 - self.rng.rng.below(8) as u32,
            1 => i32::MIN as u32 + self.rng.rng.below(8) as u32,
            2 => self.rng.rng.u32(),
            3 => 0x4000_0000,
            _ => self.rng.rng.range(0, 40) as u32,
        };
        let reg = match self.rng.rng.below(40) {
            0..=7 => Reg::Sem(SemWindow::Incr, idx),
            8..=12 => Reg::Sem(SemWindow::Decr, idx),
            13..=18 => Reg::Sem(SemWindow::Set, idx),
            19..=26 => Reg::Event(idx),
            27..=28 => Reg::ErrStatus,
            29..=30 => Reg::FirstErr,
            31 => Reg::FirstErrData,
            32..=33 => Reg::Sem(SemWindow::Read, idx),
            34..=35 => Reg::Unmapped,
            _ => Reg::Sem(SemWindow::Incr, self.rng.rng.below(NUM_SEM as u64) as u8),
        };
        let mut addr = reg.offset();
        if reg == Reg::Unmapped {
            addr = self.rng.rng.range(0x40C, 0xFFF) as u32;
        }
        if self.rng.rng.chance(1, 8) {
            addr |= self.rng.rng.below(4) as u32; // bits [1:0] are ignored
        }
        let data = match reg {
            Reg::Event(_) => {
                if self.rng.rng.chance(1, 4) {
                    self.rng.rng.u32()
                } else {
                    self.rng.rng.below(2) as u32
                }
            }
            Reg::ErrStatus => self.rng.rng.u32(),
            Reg::FirstErr => {
                if self.rng.rng.chance(3, 4) {
                    FIRST_ERR_VALID.val(1)
                } else {
                    self.rng.rng.u32()
                }
            }
            _ => value,
        };
        let strb = if self.rng.rng.chance(1, 24) {
            self.rng.rng.below(15) as u32
        } else {
            EVT_SEM_FULL_STRB
        };
        WrTxn {
            addr,
            data,
            strb,
            ..WrTxn::default()
        }
    }

    fn random_read(&mut self) -> RdTxn {
        let idx = self.hot_idx();
        let reg = match self.rng.rng.below(16) {
            0..=2 => Reg::Event(idx),
            3 => Reg::ErrStatus,
            4 => Reg::FirstErr,
            5 => Reg::FirstErrData,
            6..=7 => Reg::Sem(SemWindow::Read, idx),
            8 => Reg::Sem(SemWindow::Set, idx),
            9 => Reg::Sem(SemWindow::Incr, idx),
            10 => Reg::Sem(SemWindow::Decr, idx),
            11 => Reg::Unmapped,
            _ => Reg::Sem(SemWindow::Read, self.rng.rng.below(NUM_SEM as u64) as u8),
        };
        let mut addr = reg.offset();
        if reg == Reg::Unmapped {
            addr = self.rng.rng.range(0x40C, 0xFFF) as u32;
        }
        RdTxn { addr }
    }

    fn new_wait(&mut self) -> WaitReq {
        let idx = self.hot_idx();
        let mode = if self.rng.rng.chance(1, 60) {
            *self.rng.rng.pick(&[0x09u8, 0x7F, 0x81, 0x83, 0x85, 0xFF])
        } else {
            WaitMode::ALL[self.rng.rng.below(WaitMode::ALL.len() as u64) as usize].code() as u8
        };
        let seen = self.seen[usize::from(idx)];
        let value = match WaitMode::from_code(u32::from(mode)) {
            Some(WaitMode::SemGeDec) => {
                if self.rng.rng.chance(1, 4) {
                    seen
                } else {
                    self.rng.rng.range(1, 6) as i32
                }
            }
            _ => seen.wrapping_add(self.rng.rng.range(0, 4) as i32 - 2),
        };
        let bad = WaitMode::from_code(u32::from(mode)).is_none();
        let limit = if bad {
            self.rng.rng.range(1, 4)
        } else {
            self.rng.rng.range(1, 120)
        } as u32;
        WaitReq {
            mode,
            idx,
            value,
            limit,
        }
    }

    /// Random waits: a held request is cancelled (dropped without done)
    /// after its limit, an idle port starts one with probability 1/8.
    /// (The cancellations draw nothing, so they are done first; the draws
    /// of the idle ports follow in port order.)
    fn drive_waits(&mut self, i: &mut EvtSemIn) {
        self.wait_tick += 1;
        let mut held = self.ports.valid;
        while held != 0 {
            let p = held.trailing_zeros() as usize % NUM_WAIT;
            held &= held - 1;
            if self.wait_expires[p] == self.wait_tick {
                self.ports.release(p);
                self.cov[Cov::WaitCancelled as usize] += 1;
            }
        }
        let mut idle = !self.ports.valid & ((1 << NUM_WAIT) - 1);
        while idle != 0 {
            let p = idle.trailing_zeros() as usize;
            idle &= idle - 1;
            if self.rng.bits(3) == 0 {
                let w = self.new_wait();
                self.hold_wait(p, w);
            }
        }
        self.ports.drive(i);
    }

    fn hold_wait(&mut self, p: usize, w: WaitReq) {
        self.wait_expires[p] = self.wait_tick + u64::from(w.limit) + 1;
        self.ports.hold(p, &w);
    }

    fn directed(&mut self, i: &mut EvtSemIn) {
        let sem_incr = |s: u8| WrTxn::full(Reg::Sem(SemWindow::Incr, s).offset(), 1);
        let ge_dec = |idx: u8, n: u32| WaitReq {
            mode: EVT_SEM_WAIT_SEM_GE_DEC as u8,
            idx,
            value: n as i32,
            limit: u32::MAX,
        };
        match self.phase {
            Phase::Example { t } => {
                if t == 0 {
                    // §8 step 3: the 4 engines of mask 0x000F bump local_sem 12 (one cycle);
                    // the routed remote BDs arrive at the peer's +0x1800[20*4] over the fabric.
                    for p in 0..EXAMPLE_ENGINES as usize {
                        i.set_inc(p, LOCAL_SEM, 1);
                    }
                    self.directed_writes = EXAMPLE_ENGINES;
                    self.hold_wait(0, ge_dec(REMOTE_SEM, EXAMPLE_ENGINES));
                    self.hold_wait(1, ge_dec(LOCAL_SEM, EXAMPLE_ENGINES));
                    self.directed_pending = 0b11;
                }
                let quiet = self.directed_writes == 0 && self.bfm.idle();
                self.phase = if self.directed_pending == 0 && t > 0 && quiet {
                    Phase::Full { t: 0 }
                } else if t > 2000 {
                    Phase::Random
                } else {
                    Phase::Example { t: t + 1 }
                };
            }
            Phase::Full { t } => {
                if t == 0 {
                    // §5.2 (3): all 16 engines bump local_sem in the same cycle.
                    for p in 0..NUM_INC {
                        i.set_inc(p, LOCAL_SEM, 1);
                    }
                    self.hold_wait(0, ge_dec(REMOTE_SEM, NUM_INC as u32));
                    self.hold_wait(1, ge_dec(LOCAL_SEM, NUM_INC as u32));
                    self.directed_pending = 0b11;
                }
                // §5.2 (4): remote_sem rises by the number of engines — 8 routed writes
                // through the INCR window and 8 engines through their ports, staggered.
                if t < 8 * 3 && t % 3 == 1 {
                    self.directed_writes += 1;
                }
                if t < 8 * 3 && t % 3 == 2 {
                    i.set_inc(8 + (t / 3) as usize, REMOTE_SEM, 1);
                }
                let quiet = self.directed_writes == 0 && self.bfm.idle();
                // Done, or given up (the lockstep still compares every cycle).
                let over = (self.directed_pending == 0 && t > 24 && quiet) || t > 4000;
                self.phase = if over {
                    Phase::Random
                } else {
                    Phase::Full { t: t + 1 }
                };
            }
            Phase::Random => {}
        }
        if self.directed_writes > 0 && self.bfm.push_write(sem_incr(REMOTE_SEM)) {
            self.directed_writes -= 1;
        }
        self.ports.drive(i);
    }

    /// First-error probe (coverage closure of the FIRST_ERR record, docs/signoff.md):
    /// every 10,000–30,000 cycles of random traffic, stop the traffic, let the
    /// bus and ports drain, re-arm FIRST_ERR, raise exactly one error that is not
    /// a write error (an unmapped read, an increment overflow, a bad wait mode),
    /// and read FIRST_ERR / FIRST_ERR_DATA back. In random traffic increments
    /// overflow almost every cycle, so after a re-arm the record otherwise
    /// almost always takes a write error or an overflow. Returns whether the
    /// probe drives this cycle (random traffic is suspended while it does).
    fn probe_step(&mut self, cycle: u64, i: &mut EvtSemIn) -> bool {
        let (kind, step) = match self.probe {
            Some(p) => p,
            None => {
                if cycle < self.next_probe || cycle + 2_000 >= self.cycles {
                    return false;
                }
                let kind = match self.rng.rng.below(3) {
                    0 => ProbeKind::Read,
                    1 => ProbeKind::Overflow,
                    _ => ProbeKind::BadWait,
                };
                self.burst_left = 0;
                (kind, ProbeStep::Drain(0))
            }
        };
        // No waits while the probe runs but its own bad wait, held for one cycle.
        self.ports = WaitPorts::default();
        let sem = self.hot[0];
        let next = match step {
            ProbeStep::Drain(t) => {
                if self.bfm.idle() && t >= 4 {
                    let rearm = WrTxn::full(Reg::FirstErr.offset(), FIRST_ERR_VALID.val(1));
                    self.bfm.push_write(rearm);
                    if kind == ProbeKind::Overflow {
                        let set =
                            WrTxn::full(Reg::Sem(SemWindow::Set, sem).offset(), i32::MAX as u32);
                        self.bfm.push_write(set);
                    }
                    ProbeStep::Rearmed(0)
                } else {
                    ProbeStep::Drain(t + 1)
                }
            }
            ProbeStep::Rearmed(t) => {
                if self.bfm.idle() && t >= 2 {
                    match kind {
                        ProbeKind::Read => {
                            let addr = self.rng.rng.range(0x40C, 0xFFF) as u32 & !3;
                            self.bfm.push_read(RdTxn { addr });
                            self.hit(Cov::FirstErrProbeRd);
                        }
                        ProbeKind::Overflow => {
                            i.set_inc(0, sem, 1);
                            self.hit(Cov::FirstErrProbeOvf);
                        }
                        ProbeKind::BadWait => {
                            let bad = WaitReq {
                                mode: 0x09,
                                idx: sem,
                                ..WaitReq::default()
                            };
                            self.hold_wait(0, bad);
                            self.hit(Cov::FirstErrProbeBadWait);
                        }
                    }
                    ProbeStep::Raised(0)
                } else {
                    ProbeStep::Rearmed(t + 1)
                }
            }
            ProbeStep::Raised(t) => {
                if self.bfm.idle() && t >= 3 {
                    self.bfm.push_read(RdTxn {
                        addr: Reg::FirstErr.offset(),
                    });
                    self.bfm.push_read(RdTxn {
                        addr: Reg::FirstErrData.offset(),
                    });
                    ProbeStep::ReadBack
                } else {
                    ProbeStep::Raised(t + 1)
                }
            }
            ProbeStep::ReadBack => {
                if self.bfm.idle() {
                    self.probe = None;
                    self.next_probe = cycle + self.rng.rng.range(10_000, 30_000);
                    return false;
                }
                ProbeStep::ReadBack
            }
        };
        self.probe = Some((kind, next));
        true
    }

    /// This cycle's inputs (on idle inputs `i`).
    fn drive(&mut self, cycle: u64, i: &mut EvtSemIn) {
        // Reset: initial and in mid-run. AXI valids stay low during reset;
        // the other ports carry noise (their outputs are still compared).
        if self.reset_left == 0 && cycle == self.next_reset && cycle + 100 < self.cycles {
            self.start_reset();
            self.hit(Cov::ResetMidRun);
            self.next_reset = cycle + self.rng.rng.range(20_000, 120_000);
        }
        if self.reset_left > 0 {
            self.reset_left -= 1;
            i.rst_ni = 0;
            if self.rng.rng.bool() {
                i.inc_valid_i = self.rng.rng.below(1 << NUM_INC);
                i.inc_idx_i = [self.rng.rng.u64(), self.rng.rng.u64()];
                i.wait_valid_i = self.rng.rng.below(1 << NUM_WAIT);
                i.wait_mode_i = self.rng.rng.u64() & 0x0707_0707; // modes 0..7 on every port
            }
            i.dbg_idx_i = self.rng.rng.below(NUM_SEM as u64);
            self.inc_hist = [IncPorts::default(); 2];
            return;
        }

        self.inc_tag += 1;
        let shared = if self.phase == Phase::Random && self.probe_step(cycle, i) {
            // A first-error probe drives this cycle (no random traffic).
            self.ports.drive(i);
            self.inc_shared(i)
        } else if self.phase == Phase::Random {
            if self.rng.bits(15) == 0 {
                self.reshuffle_hot();
                self.bfm.timing = Timing::random(&mut self.rng.rng);
            }
            if self.bfm.can_write() && self.rng.chance16(5) {
                let w = self.random_write();
                self.bfm.push_write(w);
            }
            if self.bfm.can_read() && self.rng.chance16(5) {
                let r = self.random_read();
                self.bfm.push_read(r);
            }
            let shared = self.drive_incs_random(i);
            self.drive_waits(i);
            shared
        } else {
            self.directed(i);
            self.inc_shared(i)
        };
        self.bfm.drive(&mut self.rng, i);
        self.collision_cov(i, shared);

        // Debug port: mostly the hot semaphores, otherwise a sweep of all 256.
        i.dbg_idx_i = if self.rng.bits(2) != 0 {
            u64::from(self.hot[self.rng.bits(3) as usize])
        } else {
            self.sweep = self.sweep.wrapping_add(1);
            u64::from(self.sweep)
        };
    }

    /// Whether two valid increment ports of `i` name one semaphore.
    fn inc_shared(&mut self, i: &EvtSemIn) -> bool {
        let mut shared = false;
        let mut valid = i.inc_valid_i & ((1 << NUM_INC) - 1);
        while valid != 0 {
            let idx = i.inc_idx(valid.trailing_zeros() as usize);
            valid &= valid - 1;
            shared |= self.name(idx);
        }
        shared
    }

    /// Increment-port collisions: two ports on one semaphore (`shared`),
    /// all 16 on one.
    fn collision_cov(&mut self, i: &EvtSemIn, shared: bool) {
        if shared {
            self.hit(Cov::CollideInc2Plus);
        }
        let ports = IncPorts::of(i);
        if ports.all_on_one() {
            self.hit(Cov::CollideIncAll16);
        }
        self.inc_hist = [ports, self.inc_hist[0]];
    }
}

impl Stimulus for EvtSemStim {
    type In = EvtSemIn;
    /// Outputs are compared every cycle and the environment keeps no state
    /// that needs an end-of-run comparison: one environment drives both sides.
    const TWIN: bool = false;
    type Out = EvtSemOut;

    fn new(seed: u64, cycles: u64) -> Self {
        let mut rng = StimRng::new(seed ^ 0xE5E5_0001);
        let timing = Timing::random(&mut rng);
        let next_reset = if cycles < 60_000 {
            cycles / 2
        } else {
            rng.range(20_000, 80_000)
        };
        let rng = Dice::new(rng);
        let mut s = Self {
            rng,
            cycles,
            bfm: AxiLiteMaster::new(timing),
            wait_tick: 0,
            wait_expires: [0; NUM_WAIT],
            ports: WaitPorts::default(),
            phase: Phase::Example { t: 0 },
            directed_pending: 0,
            reset_left: 2,
            next_reset,
            hot: [0; NUM_HOT],
            burst_left: 0,
            burst_density: 0,
            seen: [0; NUM_SEM],
            last_in: LastIn::default(),
            inc_hist: [IncPorts::default(); 2],
            named_at: [0; NUM_SEM],
            inc_tag: 0,
            clr_mask: SemSet::ZERO,
            directed_writes: 0,
            bvalid_prev: false,
            sweep: 0,
            probe: None,
            next_probe: 10_000,
            cov: [0; NUM_COV],
            resp_hash: 0,
        };
        s.hot = [LOCAL_SEM, REMOTE_SEM, 0, 255, 1, 2, 3, 128];
        s
    }

    fn next(&mut self, cycle: u64, prev_out: Option<&EvtSemOut>) -> EvtSemIn {
        if let Some(o) = prev_out {
            self.observe(cycle, o);
        }
        let mut i = EvtSemIn::idle();
        self.drive(cycle, &mut i);
        self.last_in = LastIn::of(&i);
        i
    }

    fn coverage(&self) -> Vec<(String, u64)> {
        COV_NAMES
            .iter()
            .zip(self.cov)
            .map(|(n, c)| (n.to_string(), c))
            .collect()
    }

    fn compare_final(&self, other: &Self) -> Result<(), String> {
        if self.resp_hash != other.resp_hash {
            return Err(format!(
                "AXI response hash differs: {:#018x} vs {:#018x}",
                self.resp_hash, other.resp_hash
            ));
        }
        Ok(())
    }
}
