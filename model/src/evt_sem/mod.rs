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
/// Entries of [`SemUpdates::idx`]: the slots rounded up to a power of two,
/// so an entry index is masked (not bounds-checked) into range.
const SLOT_CAP: usize = NUM_SLOTS.next_power_of_two();

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
    /// Scratch: the semaphores' next values, exact (64-bit) while stage 3
    /// sums a cycle's deltas into them, saturated at its end; equal to `sem`
    /// between steps (stage 3's saturation pass latches the touched ones into
    /// `sem`, the edge's semaphore write folded in). Summing into
    /// a copy of the value needs no first-touch detection: a repeat touch
    /// adds to the same entry, and saturating an entry twice is saturating once.
    next: [i64; NUM_SEM],
    /// Test-only fault; `None` in normal use.
    pub fault: Option<EvtSemFault>,
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
            next: [0; NUM_SEM],
            fault: None,
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

    /// Back to the state of [`EvtSem::new`] (in place: no 3 KiB temporary);
    /// the fault stays.
    fn reset(&mut self) {
        self.sem = [0; NUM_SEM];
        self.evt = [0; NUM_SEM / 64];
        self.err = 0;
        self.err_pulse = 0;
        self.first_err = 0;
        self.first_err_data = 0;
        self.axi = AxilAdapter::default();
        self.next = [0; NUM_SEM];
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
    /// Valid ports (bit p).
    valid: u64,
    /// Satisfied ports (bit p).
    done: u64,
    /// Valid ports with an unsupported mode (bit p).
    bad: u32,
    /// The ports' mode bytes (`wait_mode_i`, for [`Waits::first_bad`]).
    modes: u64,
    /// The ports' [`MODE_INFO`] entries (byte p).
    infos: u32,
    /// Satisfied GE-then-decrement ports (bit p).
    dec: u32,
    /// Satisfied SET_THEN_CLEAR ports (bit p).
    clr: u32,
    /// The ports' semaphore / event indices and immediates.
    idx: [u8; NUM_WAIT],
    imm: [i32; NUM_WAIT],
}

impl Waits {
    /// No wait port valid: nothing satisfied, no side effect, no error.
    const IDLE: Waits = Waits {
        valid: 0,
        done: 0,
        bad: 0,
        modes: 0,
        infos: 0,
        dec: 0,
        clr: 0,
        idx: [0; NUM_WAIT],
        imm: [0; NUM_WAIT],
    };

    /// After every port is served: the satisfied ports masked by `valid`,
    /// their side effects and the errors, from the modes' entries.
    #[inline(always)]
    fn finish(&mut self) {
        self.done &= self.valid;
        self.clr = self.done as u32 & port_flags(self.infos, MI_CLR);
        self.dec = self.done as u32 & port_flags(self.infos, MI_DEC);
        self.bad = self.valid as u32 & !port_flags(self.infos, MI_KNOWN);
    }

    /// First port with an unsupported mode: (port, mode byte).
    #[inline(always)]
    fn first_bad(&self) -> Option<(usize, u8)> {
        (self.bad != 0).then(|| {
            let p = self.bad.trailing_zeros() as usize;
            (p, (self.modes >> (8 * p)) as u8)
        })
    }
}

/// The semaphore updates of this cycle (the RTL's semaphore next state,
/// stages 1–3): semaphores `idx[..count]` (one per update source, in slot
/// order, repeats included) take their values in [`EvtSem::next`]. The
/// first entry of a semaphore is the RTL's leader slot, which sums every
/// slot naming it; the repeats add into the same entry.
struct SemUpdates {
    idx: [u8; SLOT_CAP],
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

    /// Stage 2: wait ports, served in port order (each sees the lower
    /// ports' effects), into `w` (idle on entry).
    #[inline(always)]
    fn serve_waits(&self, i: &EvtSemIn, w: &mut Waits) {
        w.valid = i.wait_valid_i & WAIT_VALID_MASK;
        w.modes = i.wait_mode_i;
        for p in 0..NUM_WAIT {
            let (_, _, idx, imm) = i.wait(p);
            (w.idx[p], w.imm[p]) = (idx, imm);
        }
        // Idle ports are evaluated too and their results masked by `valid`
        // (whether a port is valid is random: a branch per port mispredicts).
        // One call per port with the port number a constant: the loop over
        // the lower ports then has a fixed length and unrolls.
        //
        // Only a satisfied decrement or clear of a lower port changes what a
        // port sees, and those are rare: every port is first served alone
        // (as if no lower port had an effect), and only when one of ports
        // 0..NUM_WAIT-1 decremented or cleared are they served again in
        // order, each after the lower ports' effects (one well-predicted
        // branch per cycle). The lockstep against the RTL, which serves the
        // ports in order every cycle, is the check of the shortcut.
        self.serve_wait::<0, false>(w);
        self.serve_wait::<1, false>(w);
        self.serve_wait::<2, false>(w);
        self.serve_wait::<3, false>(w);
        const _: () = assert!(NUM_WAIT == 4, "one serve_wait call per wait port");
        w.finish();
        const LOWER: u32 = (1 << (NUM_WAIT - 1)) - 1;
        if (w.dec | w.clr) & LOWER != 0 {
            (w.done, w.dec, w.clr, w.infos) = (0, 0, 0, 0);
            self.serve_wait::<0, true>(w);
            self.serve_wait::<1, true>(w);
            self.serve_wait::<2, true>(w);
            self.serve_wait::<3, true>(w);
            w.finish();
        }
    }

    /// Wait port `P` of stage 2, after ports `0..P` (whose effects it sees
    /// when `ORDERED`; alone otherwise). Leaves its satisfaction unmasked by
    /// `valid` in `w.done` and its mode's entry in `w.infos` (see [`Waits::finish`]).
    #[inline(always)]
    fn serve_wait<const P: usize, const ORDERED: bool>(&self, w: &mut Waits) {
        let (idx, imm) = (w.idx[P], w.imm[P]);
        let mode = (w.modes >> (8 * P)) as u8;
        let mut eff = i64::from(self.sem[usize::from(idx)]);
        let mut ev = self.evt(idx);
        if ORDERED {
            for q in 0..P {
                let dec = ((w.dec >> q) & 1 == 1) & (w.idx[q] == idx);
                // `imm[q]` when `dec`, else 0 (a mask, not a branch).
                eff -= i64::from(w.imm[q]) & -i64::from(dec);
                ev &= !(((w.clr >> q) & 1 == 1) & (w.idx[q] == idx));
            }
        }
        // The `unique case (wait_mode_i[p])`: the comparison's outcome
        // (one of LT / EQ / GT) and the event form a 4-bit state, and the
        // mode's arm accepts a set of states; what the arm accepts, whether
        // the mode is known and which side effect it has come from one
        // lookup (`MODE_INFO`): selects instead of a random multi-way
        // branch per port.
        let info = MODE_INFO[usize::from(mode)];
        let sat = wait_satisfied(info, eff, i64::from(imm), ev);
        w.done |= u64::from(sat) << P;
        w.infos |= u32::from(info) << (8 * P);
        if ORDERED {
            // Side effects of the satisfied SET_THEN_CLEAR / GE-then-decrement
            // arms, seen by the higher ports (the valid ports' only).
            let ok = sat & ((w.valid >> P) & 1 == 1);
            w.clr |= u32::from(ok & (info & MI_CLR != 0)) << P;
            w.dec |= u32::from(ok & (info & MI_DEC != 0)) << P;
        }
    }

    /// Stage 3: semaphore next values: base + exact sum of this cycle's
    /// deltas, saturated (into [`EvtSem::next`], which holds `sem` on entry).
    #[inline(always)]
    fn sum_semaphores(&mut self, i: &EvtSemIn, op: WriteOp, waits: &Waits, out: &mut SemUpdates) {
        // Every update source in slot order (AXI, increment ports, wait
        // ports), repeats included; the deltas are summed per semaphore.
        let (next, sem) = (&mut self.next, &mut self.sem);
        let mut n = 0usize;
        match op {
            WriteOp::SemSet(idx, v) => {
                // The AXI is slot 0: the set replaces the base before any delta.
                next[usize::from(idx)] = i64::from(v);
                out.idx[0] = idx;
                n = 1;
            }
            WriteOp::SemAdd(idx, v) => {
                next[usize::from(idx)] += v;
                out.idx[0] = idx;
                n = 1;
            }
            _ => {}
        }
        // The lanes as arrays (two and eight word copies), then one load per port.
        let inc_idx = i.inc_idx_lanes();
        let inc_value = i.inc_value_lanes();
        let mut valid = i.inc_valid_i & INC_VALID_MASK;
        while valid != 0 {
            let p = valid.trailing_zeros() as usize % NUM_INC;
            valid &= valid - 1;
            let idx = inc_idx[p];
            next[usize::from(idx)] += i64::from(inc_value[p]);
            out.idx[n % SLOT_CAP] = idx;
            n += 1;
        }
        let mut dec = waits.dec;
        while dec != 0 {
            let p = dec.trailing_zeros() as usize % NUM_WAIT;
            dec &= dec - 1;
            let idx = waits.idx[p];
            next[usize::from(idx)] -= i64::from(waits.imm[p]);
            out.idx[n % SLOT_CAP] = idx;
            n += 1;
        }
        out.count = n;
        // Saturate in slot order. A repeat touch finds its semaphore already
        // saturated (never saturating again), so the first saturating entry is
        // the first-touched semaphore that saturates (the RTL's first leader
        // whose semaphore saturated, stage 3). Branch-free: whether a
        // sum saturates is random in the traffic.
        //
        // The same pass does the edge's semaphore write (`p_state`'s
        // `sem_q <= sem_d` for the touched entries): nothing reads `sem`
        // between this stage and the edge (the outputs and stage 2 read it
        // before), and whenever this stage runs `edge_state` runs too (an
        // update source makes the cycle `busy`). One loop over the touched
        // entries instead of two: 55.4 -> 52.9 ns a cycle (docs/evt_sem.md).
        let mut sat_at = 0u32;
        for (k, &idx) in out.idx[..n.min(SLOT_CAP)].iter().enumerate() {
            let (v, sat) = saturate(next[usize::from(idx)]);
            next[usize::from(idx)] = i64::from(v);
            sem[usize::from(idx)] = v;
            sat_at |= u32::from(sat) << k;
        }
        out.overflow = (sat_at != 0).then(|| {
            let idx = out.idx[sat_at.trailing_zeros() as usize % SLOT_CAP];
            (idx, next[usize::from(idx)] as i32)
        });
    }

    /// Stage 4 (clock edge, `p_state`): events, sticky errors, first-error
    /// capture (the semaphores were latched by stage 3's saturation pass,
    /// see `sum_semaphores`). Skipped in a cycle that changes none of them (see `step_clean`).
    #[inline(always)]
    fn edge_state(&mut self, axi: &AxiCycle, waits: &Waits, sems: &SemUpdates, pulse: u32) {
        let mut clr = waits.clr;
        while clr != 0 {
            let e = waits.idx[clr.trailing_zeros() as usize % NUM_WAIT];
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
            } else if let Some((p, mode)) = waits.first_bad() {
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
        let mut o = EvtSemOut::default();
        self.step_to(i, &mut o);
        o
    }

    /// [`CycleModel::step`] with the outputs formed in `o` (the lockstep's
    /// slot): no 128-byte return value copied after the edge.
    fn step_to(&mut self, i: &EvtSemIn, o: &mut EvtSemOut) {
        if self.fault == Some(EvtSemFault::DropSameCycleIncrement) {
            // Test-only fault, applied to the inputs so the model itself stays fault-free.
            let j = drop_same_cycle_increments(i);
            return self.step_clean(&j, o);
        }
        self.step_clean(i, o)
    }
}

impl EvtSem {
    #[inline(always)]
    fn step_clean(&mut self, i: &EvtSemIn, o: &mut EvtSemOut) {
        let in_reset = i.rst_ni & 1 == 0;
        if in_reset {
            self.reset();
        }
        *o = self.outputs(i);
        let axi = self.axi_cycle(i);
        // As the RTL, a stage with nothing to do is skipped (docs/decisions.md,
        // "Evaluate-when-used logic"): without a valid wait port the wait
        // logic yields nothing; without an update source the adder writes no
        // semaphore; without any of those, an AXI effect, an error or a pending
        // pulse, `p_state` changes no register (its `busy` gate).
        let mut waits = Waits::IDLE;
        if i.wait_valid_i & WAIT_VALID_MASK != 0 {
            self.serve_waits(i, &mut waits);
        }
        o.wait_done_o = waits.done;
        // Stage 3's result, filled in place (a 192-byte return value is a `memcpy` call).
        let mut sems = SemUpdates {
            idx: [0; SLOT_CAP],
            count: 0,
            overflow: None,
        };
        let sem_write = matches!(axi.write_op, WriteOp::SemSet(..) | WriteOp::SemAdd(..));
        let sources = sem_write || i.inc_valid_i & INC_VALID_MASK != 0 || waits.dec != 0;
        // In reset the edge keeps the reset state, so no next value is formed
        // (`next` must stay equal to `sem`).
        if sources && !in_reset {
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
        if waits.bad != 0 {
            pulse |= ErrKind::BadWaitMode.bit();
        }
        if in_reset {
            return;
        }
        // `busy`: any write effect counts (a superset of the RTL's, same result).
        let busy = sources
            || waits.clr != 0
            || axi.write_op != WriteOp::None
            || pulse != 0
            || self.err_pulse != 0;
        if busy {
            self.edge_state(&axi, &waits, &sems, pulse);
        }
        self.edge_axi(&axi);
    }
}

impl EvtSem {
    /// The outputs of a cycle whose step would change no register, `None`
    /// otherwise: out of reset, no AXI4-Lite
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
/// `SEM_GE_DEC` are unknown: [`MODE_INFO`] accepts nothing for them).
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

/// [`MODE_INFO`] bit: the mode is known (a valid port with an unknown one is an error).
const MI_KNOWN: u8 = 1 << 4;
/// [`MODE_INFO`] bit: the mode is SET_THEN_CLEAR (a satisfied wait clears the event).
const MI_CLR: u8 = 1 << 5;
/// [`MODE_INFO`] bit: the mode is GE-then-decrement (a satisfied wait consumes the immediate).
const MI_DEC: u8 = 1 << 6;

/// Per wait_mode byte: the wait states its arm accepts (bits 0..=3, as
/// [`WAIT_ACCEPT`]; none for an unknown mode) and the `MI_*` flags.
static MODE_INFO: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut code = 0;
    while code <= EVT_SEM_WAIT_SEM_GE_DEC as usize {
        t[code] = WAIT_ACCEPT[code] | MI_KNOWN;
        code += 1;
    }
    t[EVT_SEM_WAIT_EVT_SET_CLR as usize] |= MI_CLR;
    t[EVT_SEM_WAIT_SEM_GE_DEC as usize] |= MI_DEC;
    t
};

/// The ports (bit p) whose [`MODE_INFO`] entry (byte p of `infos`) has `flag`.
#[inline(always)]
fn port_flags(infos: u32, flag: u8) -> u32 {
    const _: () = assert!(NUM_WAIT == 4, "one byte of `infos` per wait port");
    let b = (infos >> flag.trailing_zeros()) & 0x0101_0101;
    // Byte p's bit lands at bit 24 + p (distinct partial products: no carries).
    (b.wrapping_mul(0x0102_0408) >> 24) & 0xF
}

/// Whether a wait whose mode has the [`MODE_INFO`] entry `info` is satisfied
/// by the semaphore's effective value `eff` against `imm` and the event `ev`
/// (false for an unknown mode).
#[inline(always)]
fn wait_satisfied(info: u8, eff: i64, imm: i64, ev: bool) -> bool {
    let cmp = u32::from(eff >= imm) + u32::from(eff > imm);
    let state = (1u8 << cmp) | u8::from(ev) << ACC_EV;
    info & state != 0
}

/// Valid bits of the wait ports in `wait_valid_i`.
const WAIT_VALID_MASK: u64 = (1 << NUM_WAIT) - 1;
/// Valid bits of the increment ports in `inc_valid_i`.
const INC_VALID_MASK: u64 = (1 << NUM_INC) - 1;
