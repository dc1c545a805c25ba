//! EVT_SEM: 256 events and 256 signed 32-bit semaphores behind a 0x2000-byte
//! AXI4-Lite window, 16 hardware increment ports (one per DMA engine) and 4
//! wait ports — the golden cycle model of `rtl/evt_sem.sv`.
//!
//! Theory of operation, register map and every same-cycle rule:
//! `docs/evt_sem.md`. In short, per cycle (all reads see the state *before*
//! the clock edge, all updates land *at* the edge):
//!
//! 1. Wait ports are served in port order: a port sees the semaphore minus
//!    the decrements, and the event after the clears, of lower-numbered ports
//!    satisfied in the same cycle (so two GE-and-decrement waiters never
//!    consume the same count).
//! 2. A semaphore's next value is `base + Σ deltas`, saturated to the signed
//!    32-bit range: `base` is the AXI SEM_SET value if one commits this cycle,
//!    else the current value; the deltas are every valid increment port, the
//!    AXI INCR (+wdata) or DECR (−wdata), and every satisfied GE-and-decrement
//!    wait port (−imm). The exact sum is formed first, so the order of the
//!    deltas never matters. Saturation sets ERR_STATUS.OVERFLOW.
//! 3. An event's next value: cleared by satisfied SET_THEN_CLEAR waiters, then
//!    an AXI EVENT write of the same cycle overrides.
//! 4. `err_pulse_o` is registered: it shows the errors detected in the
//!    previous cycle, in the cycle their sticky ERR_STATUS bits first read 1.

pub mod bfm;
pub mod csr;
pub mod io;
pub mod regs;
pub mod stim;

#[cfg(test)]
mod tests;

pub use io::{EvtSemIn, EvtSemOut, NUM_INC, NUM_WAIT};
pub use stim::EvtSemStim;

use crate::ports::{BlockDesc, CycleModel, PortBundle};
use crate::regs::axil::{AxilAdapter, AxilAnswer, AxilIn, AxilReq};
use regs::*;

/// Lockstep registration of this block.
pub const BLOCK: BlockDesc = BlockDesc {
    name: "evt_sem",
    top: "evt_sem",
    rtl_files: &["sb2sb_pkg.sv", "axil_reg_adapter.sv", "evt_sem.sv"],
    params: &[],
    inputs: EvtSemIn::SIGNALS,
    outputs: EvtSemOut::SIGNALS,
};

/// Number of semaphores / events.
pub const NUM_SEM: usize = EVT_SEM_NUM_SEM as usize;
/// Update sources per cycle: AXI, the increment ports, the wait ports.
const NUM_SLOTS: usize = 1 + NUM_INC + NUM_WAIT;

/// Test-only faults that make the golden model deliberately wrong, to prove
/// the lockstep catches bugs. Off (`None`) by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvtSemFault {
    /// When two or more increment ports hit one semaphore in a cycle, drop
    /// every increment after the first (the classic lost update).
    DropSameCycleIncrement,
}

/// One AXI error detected in a cycle (for FIRST_ERR capture).
#[derive(Debug, Clone, Copy)]
struct AxiErr {
    kind: ErrKind,
    write: bool,
    addr: u32,
    data: u32,
}

/// The effect of a committed AXI write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WriteOp {
    None,
    Event(u8, bool),
    SemSet(u8, i32),
    SemAdd(u8, i64),
    ErrW1c(u32),
    FirstErrRearm,
}

/// Golden model of `evt_sem`.
#[derive(Debug, Clone)]
pub struct EvtSem {
    sem: [i32; NUM_SEM],
    evt: [u64; NUM_SEM / 64],
    err: u32,
    /// Errors detected in the previous cycle (`err_pulse_o`).
    err_pulse: u32,
    first_err: u32,
    first_err_data: u32,
    /// The shared AXI4-Lite register adapter (`u_axil`).
    axi: AxilAdapter,
    /// Scratch: per-semaphore sum of this cycle's deltas (always zero between steps).
    delta: [i64; NUM_SEM],
    /// Scratch: the step that last took semaphore i's update (first-touch
    /// detection without a bit set shared by all semaphores: its words made
    /// a chain of dependent read-modify-writes through memory).
    taken: [u64; NUM_SEM],
    /// Steps so far (the stamp of [`EvtSem::taken`]; never wraps in practice).
    steps: u64,
    /// Test-only fault; `None` in normal use.
    pub fault: Option<EvtSemFault>,
    /// Test-only: evaluate every stage in every cycle (no idle skipping), the
    /// reference the gated stages are checked against (`tests.rs`).
    pub(crate) eval_all: bool,
}

impl Default for EvtSem {
    fn default() -> Self {
        Self::new()
    }
}

impl EvtSem {
    /// A block in its reset state.
    pub fn new() -> Self {
        Self {
            sem: [0; NUM_SEM],
            evt: [0; NUM_SEM / 64],
            err: 0,
            err_pulse: 0,
            first_err: 0,
            first_err_data: 0,
            axi: AxilAdapter::default(),
            delta: [0; NUM_SEM],
            taken: [0; NUM_SEM],
            steps: 0,
            fault: None,
            eval_all: false,
        }
    }

    /// Semaphore `i` (debug/test view).
    pub fn sem(&self, i: u8) -> i32 {
        self.sem[usize::from(i)]
    }

    /// Event `i` (debug/test view).
    pub fn evt(&self, i: u8) -> bool {
        (self.evt[usize::from(i) / 64] >> (i % 64)) & 1 == 1
    }

    /// ERR_STATUS.
    pub fn err_status(&self) -> u32 {
        self.err
    }

    /// Errors detected in the cycle last stepped (what `err_pulse_o` shows next cycle).
    pub fn err_pulse(&self) -> u32 {
        self.err_pulse
    }

    /// FIRST_ERR.
    pub fn first_err(&self) -> FirstErr {
        FirstErr::unpack(self.first_err)
    }

    /// Back to the state of [`EvtSem::new`] (in place: no 3 KiB temporary;
    /// `delta` is already all zero between steps); the fault stays.
    fn reset(&mut self) {
        self.sem = [0; NUM_SEM];
        self.evt = [0; NUM_SEM / 64];
        self.err = 0;
        self.err_pulse = 0;
        self.first_err = 0;
        self.first_err_data = 0;
        self.axi = AxilAdapter::default();
        debug_assert!(self.delta.iter().all(|&d| d == 0));
    }

    /// Read data and error for a read of `addr` (state before the edge).
    fn read(&self, addr: u32) -> (u32, Option<ErrKind>) {
        match Reg::decode(addr) {
            Reg::Event(i) => (u32::from(self.evt(i)), None),
            Reg::ErrStatus => (self.err, None),
            Reg::FirstErr => (self.first_err, None),
            Reg::FirstErrData => (self.first_err_data, None),
            Reg::Sem(_, i) => (self.sem(i) as u32, None),
            Reg::Unmapped => (0, Some(ErrKind::Unmapped)),
        }
    }

    /// Classify a write: its effect, or the error it raises (no effect).
    fn write_op(addr: u32, data: u32, strb: u32) -> Result<WriteOp, ErrKind> {
        let reg = Reg::decode(addr);
        // Access kind from the register description (regs::access_table).
        match regs::access(addr) {
            None => return Err(ErrKind::Unmapped),
            Some(crate::regs::Access::Ro) => return Err(ErrKind::WrRo),
            _ => {}
        }
        if strb != EVT_SEM_FULL_STRB {
            return Err(ErrKind::PartialStrb);
        }
        let signed = i64::from(data as i32);
        Ok(match reg {
            Reg::Event(i) => WriteOp::Event(i, data & 1 == 1),
            Reg::ErrStatus => WriteOp::ErrW1c(data & ERR_MASK),
            Reg::FirstErr if (data >> EVT_SEM_FE_VALID_BIT) & 1 == 1 => WriteOp::FirstErrRearm,
            Reg::Sem(SemWindow::Set, i) => WriteOp::SemSet(i, data as i32),
            Reg::Sem(SemWindow::Incr, i) => WriteOp::SemAdd(i, signed),
            Reg::Sem(SemWindow::Decr, i) => WriteOp::SemAdd(i, -signed),
            _ => WriteOp::None,
        })
    }
}

/// Saturate an exact sum to the signed 32-bit range; `true` when it was outside.
#[inline(always)]
fn saturate(v: i64) -> (i32, bool) {
    // A clamp (selects): whether a sum saturates is random in the traffic.
    let c = v.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
    (c as i32, c != v)
}

/// This cycle's AXI traffic as the block sees it (the `wr_*` / `rd_*` logic of the RTL).
struct AxiCycle {
    axi_in: AxilIn,
    req: AxilReq,
    /// Effect of the committed write.
    write_op: WriteOp,
    write_err: Option<AxiErr>,
    read_data: u32,
    read_err: Option<AxiErr>,
}

/// The wait ports' results (the RTL's wait-port `always_comb`).
///
/// Per-port fields are plain arrays (not arrays of tuples): a fresh value
/// every cycle is then a few vector stores, not one store per tuple field
/// (those filled the store buffer: a tenth of the step's time).
struct Waits {
    done: u64,
    /// First port with an unsupported mode: (port, mode byte).
    bad: Option<(usize, u8)>,
    /// Satisfied GE-then-decrement ports (bit p), their semaphores and immediates.
    dec: u32,
    dec_idx: [u8; NUM_WAIT],
    dec_imm: [i64; NUM_WAIT],
    /// Satisfied SET_THEN_CLEAR ports (bit p) and their events.
    clr: u32,
    clr_idx: [u8; NUM_WAIT],
}

impl Waits {
    /// No wait port valid: nothing satisfied, no side effect, no error.
    const IDLE: Waits = Waits {
        done: 0,
        bad: None,
        dec: 0,
        dec_idx: [0; NUM_WAIT],
        dec_imm: [0; NUM_WAIT],
        clr: 0,
        clr_idx: [0; NUM_WAIT],
    };
}

/// The semaphore updates of this cycle (the slot adder of `p_state`):
/// update `k < count` writes `val[k]` into semaphore `idx[k]`.
struct SemUpdates {
    idx: [u8; NUM_SLOTS],
    val: [i32; NUM_SLOTS],
    count: usize,
    /// First saturating update: (semaphore, saturated value).
    overflow: Option<(u8, i32)>,
}

impl EvtSem {
    /// Registered outputs (state before the edge).
    #[inline(always)]
    fn outputs(&self, i: &EvtSemIn) -> EvtSemOut {
        let ao = self.axi.out();
        EvtSemOut {
            s_axil_awready: u64::from(ao.awready),
            s_axil_wready: u64::from(ao.wready),
            s_axil_bresp: u64::from(ao.bresp),
            s_axil_bvalid: u64::from(ao.bvalid),
            s_axil_arready: u64::from(ao.arready),
            s_axil_rdata: u64::from(ao.rdata),
            s_axil_rresp: u64::from(ao.rresp),
            s_axil_rvalid: u64::from(ao.rvalid),
            err_status_o: u64::from(self.err),
            err_pulse_o: u64::from(self.err_pulse),
            evt_o: self.evt,
            dbg_sem_o: u64::from(self.sem[(i.dbg_idx_i as u32 & IDX_MASK) as usize] as u32),
            ..EvtSemOut::default()
        }
    }

    /// Stage 1: the adapter's requests, the write's classification and the read's answer.
    #[inline(always)]
    fn axi_cycle(&self, i: &EvtSemIn) -> AxiCycle {
        let axi_in = AxilIn {
            awaddr: i.s_axil_awaddr as u32,
            awvalid: i.s_axil_awvalid & 1 == 1,
            wdata: i.s_axil_wdata as u32,
            wstrb: i.s_axil_wstrb as u32,
            wvalid: i.s_axil_wvalid & 1 == 1,
            bready: i.s_axil_bready & 1 == 1,
            araddr: i.s_axil_araddr as u32,
            arvalid: i.s_axil_arvalid & 1 == 1,
            rready: i.s_axil_rready & 1 == 1,
        };
        let req = self.axi.requests(&axi_in, ADDR_MASK);
        let mut write_err = None;
        let mut write_op = WriteOp::None;
        if let Some(w) = req.write {
            match Self::write_op(w.addr, w.data, w.strb) {
                Ok(op) => write_op = op,
                Err(kind) => {
                    write_err = Some(AxiErr {
                        kind,
                        write: true,
                        addr: w.addr,
                        data: w.data,
                    })
                }
            }
        }
        let mut read_data = 0;
        let mut read_err = None;
        if let Some(addr) = req.read {
            let (data, err) = self.read(addr);
            read_data = data;
            read_err = err.map(|kind| AxiErr {
                kind,
                write: false,
                addr,
                data: 0,
            });
        }
        AxiCycle {
            axi_in,
            req,
            write_op,
            write_err,
            read_data,
            read_err,
        }
    }

    /// Stage 2: wait ports, served in port order (each sees the lower ports' effects).
    #[inline(always)]
    fn serve_waits(&self, i: &EvtSemIn) -> Waits {
        let mut w = Waits::IDLE;
        // Idle ports are evaluated too and their results masked by `valid`
        // (whether a port is valid is random: a branch per port mispredicts).
        // One call per port with the port number a constant: the loop over
        // the lower ports then has a fixed length and unrolls.
        self.serve_wait::<0>(i, &mut w);
        self.serve_wait::<1>(i, &mut w);
        self.serve_wait::<2>(i, &mut w);
        self.serve_wait::<3>(i, &mut w);
        const _: () = assert!(NUM_WAIT == 4, "one serve_wait call per wait port");
        w
    }

    /// Wait port `P` of stage 2, after ports `0..P` (whose effects it sees).
    #[inline(always)]
    fn serve_wait<const P: usize>(&self, i: &EvtSemIn, w: &mut Waits) {
        let (valid, mode, idx, imm) = i.wait(P);
        let mut eff = i64::from(self.sem[usize::from(idx)]);
        let mut ev = self.evt(idx);
        for q in 0..P {
            let dec = ((w.dec >> q) & 1 == 1) & (w.dec_idx[q] == idx);
            // `dec_imm[q]` when `dec`, else 0 (a mask, not a branch).
            eff -= w.dec_imm[q] & -i64::from(dec);
            ev &= !(((w.clr >> q) & 1 == 1) & (w.clr_idx[q] == idx));
        }
        let imm64 = i64::from(imm);
        // The `unique case (wait_mode_i[p])`: the comparison's outcome
        // (one of LT / EQ / GT) and the event form a 4-bit state, and the
        // mode's arm accepts a set of states (`WAIT_ACCEPT`): a select
        // instead of a random multi-way branch per port.
        let code = u32::from(mode);
        let known = code <= EVT_SEM_WAIT_SEM_GE_DEC;
        let ok = valid & wait_satisfied(code, eff, imm64, ev);
        // Side effects of the satisfied SET_THEN_CLEAR / GE-then-decrement arms.
        w.clr |= u32::from(ok & (code == EVT_SEM_WAIT_EVT_SET_CLR)) << P;
        w.clr_idx[P] = idx;
        w.dec |= u32::from(ok & (code == EVT_SEM_WAIT_SEM_GE_DEC)) << P;
        w.dec_idx[P] = idx;
        w.dec_imm[P] = imm64;
        if valid && !known {
            w.bad.get_or_insert((P, mode));
        }
        w.done |= u64::from(ok) << P;
    }

    /// Stage 3: semaphore next values: base + exact sum of this cycle's deltas, saturated.
    #[inline(always)]
    fn sum_semaphores(&mut self, i: &EvtSemIn, op: WriteOp, waits: &Waits, out: &mut SemUpdates) {
        // Every update source in slot order (AXI, increment ports, wait
        // ports), repeats included; the deltas are summed per semaphore.
        let mut touched = [0u8; NUM_SLOTS];
        let mut n_touched = 0usize;
        let mut set: Option<(u8, i32)> = None;
        {
            let delta = &mut self.delta;
            let mut touch = |idx: u8, v: i64| {
                touched[n_touched] = idx;
                n_touched += 1;
                delta[usize::from(idx)] += v;
            };
            match op {
                WriteOp::SemSet(idx, v) => {
                    set = Some((idx, v));
                    touch(idx, 0);
                }
                WriteOp::SemAdd(idx, v) => touch(idx, v),
                _ => {}
            }
            let mut valid = i.inc_valid_i & INC_VALID_MASK;
            while valid != 0 {
                let p = valid.trailing_zeros() as usize;
                valid &= valid - 1;
                touch(i.inc_idx(p), i64::from(i.inc_value(p)));
            }
            let mut dec = waits.dec;
            while dec != 0 {
                let p = dec.trailing_zeros() as usize;
                dec &= dec - 1;
                touch(waits.dec_idx[p], -waits.dec_imm[p]);
            }
        }
        out.count = 0;
        out.overflow = None;
        // One update per semaphore, in the order of first touch (so the first
        // saturating semaphore is the lowest slot's). Branch-free: every
        // touch writes the next update entry, only a first touch keeps it
        // (the slot pattern is random, a branch per touch mispredicts).
        self.steps += 1;
        let stamp = self.steps;
        for &idx in &touched[..n_touched] {
            let fresh = self.taken[usize::from(idx)] != stamp;
            self.taken[usize::from(idx)] = stamp;
            let base = match set {
                Some((s, v)) if s == idx => i64::from(v),
                _ => i64::from(self.sem[usize::from(idx)]),
            };
            // A repeat touch sees the delta already taken (0) and is dropped.
            let (v, sat) = saturate(base + self.delta[usize::from(idx)]);
            self.delta[usize::from(idx)] = 0;
            if sat && fresh {
                out.overflow.get_or_insert((idx, v));
            }
            let k = out.count.min(NUM_SLOTS - 1);
            out.idx[k] = idx;
            out.val[k] = v;
            out.count += usize::from(fresh);
        }
    }

    /// Stage 4 (clock edge, `p_state`): semaphores, events, sticky errors,
    /// first-error capture. Skipped in a cycle that changes none of them (see `step_clean`).
    #[inline(always)]
    fn edge_state(&mut self, axi: &AxiCycle, waits: &Waits, sems: &SemUpdates, pulse: u32) {
        for (&idx, &v) in sems.idx[..sems.count].iter().zip(&sems.val) {
            self.sem[usize::from(idx)] = v;
        }
        let mut clr = waits.clr;
        while clr != 0 {
            let e = waits.clr_idx[clr.trailing_zeros() as usize];
            clr &= clr - 1;
            self.evt[usize::from(e) / 64] &= !(1u64 << (e % 64));
        }
        let mut err_clear = 0u32;
        let mut rearm = false;
        match axi.write_op {
            WriteOp::Event(idx, v) => {
                let (w, b) = (usize::from(idx) / 64, idx % 64);
                self.evt[w] = (self.evt[w] & !(1u64 << b)) | (u64::from(v) << b);
            }
            WriteOp::ErrW1c(m) => err_clear = m,
            WriteOp::FirstErrRearm => rearm = true,
            _ => {}
        }
        self.err = (self.err & !err_clear) | pulse;
        self.err_pulse = pulse;
        if rearm {
            self.first_err = 0;
            self.first_err_data = 0;
        }
        if !FirstErr::unpack(self.first_err).valid && pulse != 0 {
            let (fe, data) = if let Some(e) = axi.write_err.or(axi.read_err) {
                (
                    FirstErr {
                        valid: true,
                        kind: e.kind as u32,
                        write: e.write,
                        info: e.addr,
                    },
                    e.data,
                )
            } else if let Some((idx, v)) = sems.overflow {
                (
                    FirstErr {
                        valid: true,
                        kind: ErrKind::Overflow as u32,
                        write: false,
                        info: u32::from(idx),
                    },
                    v as u32,
                )
            } else if let Some((p, mode)) = waits.bad {
                (
                    FirstErr {
                        valid: true,
                        kind: ErrKind::BadWaitMode as u32,
                        write: false,
                        info: p as u32,
                    },
                    u32::from(mode),
                )
            } else {
                (FirstErr::default(), 0)
            };
            self.first_err = fe.pack();
            self.first_err_data = data;
        }
    }

    /// Stage 5 (clock edge, `u_axil`): the adapter's registers.
    #[inline(always)]
    fn edge_axi(&mut self, axi: &AxiCycle) {
        self.axi.update(
            &axi.axi_in,
            &axi.req,
            &AxilAnswer {
                write_err: axi.write_err.is_some(),
                read_data: axi.read_data,
                read_err: axi.read_err.is_some(),
            },
            ADDR_MASK,
        );
    }
}

/// Inputs with [`EvtSemFault::DropSameCycleIncrement`] applied: every increment
/// port after the first one naming the same semaphore is dropped.
fn drop_same_cycle_increments(i: &EvtSemIn) -> EvtSemIn {
    let mut j = *i;
    let mut seen = [0u64; NUM_SEM / 64];
    for p in 0..NUM_INC {
        let (valid, idx, _) = i.inc(p);
        if valid {
            let (w, b) = (usize::from(idx) / 64, idx % 64);
            if (seen[w] >> b) & 1 == 1 {
                j.inc_valid_i &= !(1 << p);
            }
            seen[w] |= 1 << b;
        }
    }
    j
}

impl CycleModel for EvtSem {
    type In = EvtSemIn;
    type Out = EvtSemOut;

    /// One cycle: outputs, then the RTL's processes as named stages (AXI requests,
    /// wait ports, semaphore adder, error pulse), then the clock edge.
    fn step(&mut self, i: &EvtSemIn) -> EvtSemOut {
        if self.fault == Some(EvtSemFault::DropSameCycleIncrement) {
            // Test-only fault, applied to the inputs so the model itself stays fault-free.
            let j = drop_same_cycle_increments(i);
            return self.step_clean(&j);
        }
        self.step_clean(i)
    }
}

impl EvtSem {
    #[inline(always)]
    fn step_clean(&mut self, i: &EvtSemIn) -> EvtSemOut {
        let in_reset = i.rst_ni & 1 == 0;
        if in_reset {
            self.reset();
        }
        let mut o = self.outputs(i);
        let axi = self.axi_cycle(i);
        // As the RTL, a stage with nothing to do is skipped (docs/decisions.md,
        // "Evaluate-when-used logic"): without a valid wait port the wait
        // logic yields nothing; without an update source the adder writes no
        // semaphore; without any of those, an AXI effect, an error or a pending
        // pulse, `p_state` changes no register (its `busy` gate).
        let eval_all = self.eval_all;
        let waits = if i.wait_valid_i & WAIT_VALID_MASK != 0 || eval_all {
            self.serve_waits(i)
        } else {
            Waits::IDLE
        };
        o.wait_done_o = waits.done;
        // Stage 3's result, filled in place (a 192-byte return value is a `memcpy` call).
        let mut sems = SemUpdates {
            idx: [0; NUM_SLOTS],
            val: [0; NUM_SLOTS],
            count: 0,
            overflow: None,
        };
        let sem_write = matches!(axi.write_op, WriteOp::SemSet(..) | WriteOp::SemAdd(..));
        let sources = sem_write || i.inc_valid_i & INC_VALID_MASK != 0 || waits.dec != 0;
        if sources || eval_all {
            self.sum_semaphores(i, axi.write_op, &waits, &mut sems);
        }
        // Error pulse of this cycle.
        let mut pulse = 0u32;
        for e in [axi.write_err, axi.read_err].into_iter().flatten() {
            pulse |= e.kind.bit();
        }
        if sems.overflow.is_some() {
            pulse |= ErrKind::Overflow.bit();
        }
        if waits.bad.is_some() {
            pulse |= ErrKind::BadWaitMode.bit();
        }
        if in_reset {
            return o;
        }
        // `busy`: any write effect counts (a superset of the RTL's, same result).
        let busy = sources
            || waits.clr != 0
            || axi.write_op != WriteOp::None
            || pulse != 0
            || self.err_pulse != 0;
        if busy || eval_all {
            self.edge_state(&axi, &waits, &sems, pulse);
        }
        self.edge_axi(&axi);
        o
    }
}

impl EvtSem {
    /// The outputs of a cycle whose step would change no register, `None`
    /// otherwise (and always with `eval_all`): out of reset, no AXI4-Lite
    /// valid or ready, no write committing in the adapter, no increment or
    /// wait port valid, no error pulse to clear. Every stage of the step is
    /// then gated off and the adapter holds, so a caller may take these
    /// outputs instead of stepping (the pair's glue does; tested equal to
    /// stepping in `pair::tests`).
    #[inline(always)]
    pub fn quiet_outputs(&self, i: &EvtSemIn) -> Option<EvtSemOut> {
        let lines = i.s_axil_awvalid
            | i.s_axil_wvalid
            | i.s_axil_bready
            | i.s_axil_arvalid
            | i.s_axil_rready;
        let quiet = i.rst_ni & 1 == 1
            && lines & 1 == 0
            && i.inc_valid_i & INC_VALID_MASK == 0
            && i.wait_valid_i & WAIT_VALID_MASK == 0
            && self.err_pulse == 0
            && !self.eval_all
            && self
                .axi
                .requests(&AxilIn::default(), ADDR_MASK)
                .write
                .is_none();
        quiet.then(|| self.outputs(i))
    }
}

/// Wait-state bits of `serve_waits`: the semaphore compares below, equal to
/// or above the immediate (exactly one set), and the event is set.
const ACC_LT: u8 = 1 << 0;
const ACC_EQ: u8 = 1 << 1;
const ACC_GT: u8 = 1 << 2;
const ACC_EV: u8 = 3;

/// The wait states each mode's arm accepts, by mode code (codes above
/// `SEM_GE_DEC` are unknown: `serve_waits` masks them out).
const WAIT_ACCEPT: [u8; 16] = {
    let mut t = [0u8; 16];
    t[EVT_SEM_WAIT_NONE as usize] = ACC_LT | ACC_EQ | ACC_GT;
    t[EVT_SEM_WAIT_SEM_EQ as usize] = ACC_EQ;
    t[EVT_SEM_WAIT_SEM_LT as usize] = ACC_LT;
    t[EVT_SEM_WAIT_SEM_LE as usize] = ACC_LT | ACC_EQ;
    t[EVT_SEM_WAIT_SEM_GT as usize] = ACC_GT;
    t[EVT_SEM_WAIT_SEM_GE as usize] = ACC_EQ | ACC_GT;
    t[EVT_SEM_WAIT_EVT_SET as usize] = 1 << ACC_EV;
    t[EVT_SEM_WAIT_EVT_SET_CLR as usize] = 1 << ACC_EV;
    t[EVT_SEM_WAIT_SEM_GE_DEC as usize] = ACC_EQ | ACC_GT;
    t
};

/// Whether a wait of mode `code` is satisfied by the semaphore's effective
/// value `eff` against `imm` and the event `ev` (false for an unknown mode).
#[inline(always)]
fn wait_satisfied(code: u32, eff: i64, imm: i64, ev: bool) -> bool {
    let cmp = u32::from(eff >= imm) + u32::from(eff > imm);
    let state = (1u8 << cmp) | u8::from(ev) << ACC_EV;
    let known = code <= EVT_SEM_WAIT_SEM_GE_DEC;
    let accept = WAIT_ACCEPT[(code as usize) % WAIT_ACCEPT.len()];
    known & (accept & state != 0)
}

/// Valid bits of the wait ports in `wait_valid_i`.
const WAIT_VALID_MASK: u64 = (1 << NUM_WAIT) - 1;
/// Valid bits of the increment ports in `inc_valid_i`.
const INC_VALID_MASK: u64 = (1 << NUM_INC) - 1;
