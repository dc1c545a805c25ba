//! One NeuronCore of the system model: SBUF, descriptor RAM, the EVT_SEM
//! golden model (the single source of semaphore state in both execution
//! modes), the engine register file, the program_window remapper and the
//! register state of 16 DMA engines × 16 queues × {M2S, S2M}.

use crate::addr::WindowRemapper;
use crate::evt_sem::regs::{EVT_SEM_FULL_STRB, EVT_SEM_RESP_OKAY, EVT_SEM_WAIT_SEM_GE_DEC};
use crate::evt_sem::{EvtSem, EvtSemIn};
use crate::ports::CycleModel;
use crate::udma::desc::RingPos;
use crate::udma::regs::*;

use super::map::NUM_REGS;
use super::mem::{Sbuf, SparseMem};
use super::topology::{CoreId, CoreLoc, DMA_ENGINES, DMA_QUEUES};
use super::SystemError;

/// AXI4-Lite handshakes give up after this many cycles (a model bug, never a hang).
const AXI_MAX_CYCLES: u32 = 64;

/// Register state of one UDMA queue (one direction), PUBLIC-FACTS §1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct QueueState {
    /// `cfg` (EN_PREF bit 16, EN_SCHEDULING/EN_STREAM bit 17).
    pub cfg: u32,
    /// Ring base (`*DRBP_LOW/HIGH`), a routed SoC address.
    pub rbp: u64,
    /// Ring length in descriptors (`*DRL`).
    pub rl: u32,
    /// Head pointer (`*DRHP`): next descriptor the engine fetches.
    #[serde(serialize_with = "ser_pos")]
    pub head: RingPos,
    /// Tail pointer (`*DRTP`): advanced by the doorbell.
    #[serde(serialize_with = "ser_pos")]
    pub tail: RingPos,
    /// S2M `comp_cfg` (bit 0 EN_COMP_RING_UPDATE).
    pub comp_cfg: u32,
    /// Completion ring base (`*CRBP_LOW/HIGH`), a routed SoC address.
    pub crbp: u64,
    /// Completion ring head (`*CRHP`): next completion slot and its ring id.
    #[serde(serialize_with = "ser_pos")]
    pub crhp: RingPos,
    /// Descriptors completed.
    pub desc_done: u32,
    /// Bytes moved.
    pub bytes: u64,
}

fn ser_pos<S: serde::Serializer>(p: &RingPos, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(pack_pos(*p))
}

/// Pack a ring position as the pointer registers hold it: offset [23:0], ring id [31:30].
pub const fn pack_pos(p: RingPos) -> u32 {
    p.reg()
}

impl QueueState {
    /// Descriptors between head and tail.
    pub fn pending(&self) -> u32 {
        if self.rl == 0 {
            return 0;
        }
        (self.tail.offset + self.rl - self.head.offset) % self.rl
    }

    /// Free slots for the submitter (one slot is kept free, PUBLIC-FACTS §1).
    pub fn free(&self) -> u32 {
        self.rl.saturating_sub(1).saturating_sub(self.pending())
    }
}

/// One DMA engine: 16 M2S and 16 S2M queues.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct EngineState {
    /// M2S queues.
    pub m2s: [QueueState; DMA_QUEUES as usize],
    /// S2M queues.
    pub s2m: [QueueState; DMA_QUEUES as usize],
}

/// One core.
#[derive(Debug, Clone)]
pub struct Core {
    /// Global id.
    pub id: CoreId,
    /// Position.
    pub loc: CoreLoc,
    /// State Buffer.
    pub sbuf: Sbuf,
    /// Descriptor RAM (rings and the semaphore constant).
    pub desc: SparseMem,
    /// EVT_SEM golden model.
    pub evt: EvtSem,
    /// Engine register file (u32 per register).
    pub regs: Vec<u32>,
    /// program_window remapper of this core's Q7.
    pub windows: WindowRemapper,
    /// DMA engines.
    pub engines: Vec<EngineState>,
    /// EVT_SEM cycles stepped (increments, waits, AXI accesses).
    pub evt_cycles: u64,
    /// Broadcast doorbell masks per (queue, side) (seed 001 §4.4, [`super::bcast`]).
    pub bcast_mask: [[u16; 2]; DMA_QUEUES as usize],
    /// `sb2sb_ready_to_receive_remote` of this core's RX Q7 (seed 001 §2.5
    /// pre-sync): set by `rdma_desc_gen` after program_window, cleared when
    /// `rdma_desc_start` arms the S2M ring.
    pub ready_to_receive_remote: u32,
    /// This core's TX Q7 completion-poll state per (engine, queue) ([`super::comp`]).
    pub comp_poll: [[super::comp::CompPoll; DMA_QUEUES as usize]; DMA_ENGINES as usize],
}

impl Core {
    /// A core in its reset state (no SBUF allocated).
    pub fn new(id: CoreId, loc: CoreLoc, bytes_per_partition: u32) -> Self {
        Self {
            id,
            loc,
            sbuf: Sbuf::new(bytes_per_partition),
            desc: SparseMem::default(),
            evt: EvtSem::new(),
            regs: vec![0; NUM_REGS as usize],
            windows: WindowRemapper::new(),
            engines: vec![EngineState::default(); usize::from(DMA_ENGINES)],
            evt_cycles: 0,
            bcast_mask: [[0; 2]; DMA_QUEUES as usize],
            ready_to_receive_remote: 0,
            comp_poll: Default::default(),
        }
    }

    fn evt_step(&mut self, i: &EvtSemIn) -> crate::evt_sem::EvtSemOut {
        self.evt_cycles += 1;
        self.evt.step(i)
    }

    /// Hardware increment ports (one per DMA engine): every `(port, sem, value)`
    /// lands in one EVT_SEM cycle.
    pub fn sem_inc(&mut self, incs: &[(usize, u8, i32)]) {
        let mut i = EvtSemIn::idle();
        for &(p, idx, v) in incs {
            i.set_inc(p, idx, v);
        }
        self.evt_step(&i);
    }

    /// One AXI4-Lite write into the EVT_SEM window (byte offset `off`).
    pub fn evt_write(&mut self, off: u32, data: u32) -> Result<(), SystemError> {
        let mut i = EvtSemIn::idle();
        i.s_axil_awaddr = u64::from(off);
        i.s_axil_awvalid = 1;
        i.s_axil_wdata = u64::from(data);
        i.s_axil_wstrb = u64::from(EVT_SEM_FULL_STRB);
        i.s_axil_wvalid = 1;
        i.s_axil_bready = 1;
        for _ in 0..AXI_MAX_CYCLES {
            let o = self.evt_step(&i);
            if i.s_axil_awvalid == 1 && o.s_axil_awready == 1 {
                i.s_axil_awvalid = 0;
            }
            if i.s_axil_wvalid == 1 && o.s_axil_wready == 1 {
                i.s_axil_wvalid = 0;
            }
            if o.s_axil_bvalid == 1 {
                if o.s_axil_bresp != u64::from(EVT_SEM_RESP_OKAY) {
                    return Err(SystemError::EvtSemResp {
                        core: self.id.0,
                        offset: off,
                        resp: o.s_axil_bresp as u8,
                    });
                }
                return Ok(());
            }
        }
        Err(SystemError::EvtSemResp {
            core: self.id.0,
            offset: off,
            resp: 0xFF,
        })
    }

    /// One AXI4-Lite read of the EVT_SEM window.
    pub fn evt_read(&mut self, off: u32) -> Result<u32, SystemError> {
        let mut i = EvtSemIn::idle();
        i.s_axil_araddr = u64::from(off);
        i.s_axil_arvalid = 1;
        i.s_axil_rready = 1;
        for _ in 0..AXI_MAX_CYCLES {
            let o = self.evt_step(&i);
            if i.s_axil_arvalid == 1 && o.s_axil_arready == 1 {
                i.s_axil_arvalid = 0;
            }
            if o.s_axil_rvalid == 1 {
                if o.s_axil_rresp != u64::from(EVT_SEM_RESP_OKAY) {
                    return Err(SystemError::EvtSemResp {
                        core: self.id.0,
                        offset: off,
                        resp: o.s_axil_rresp as u8,
                    });
                }
                return Ok(o.s_axil_rdata as u32);
            }
        }
        Err(SystemError::EvtSemResp {
            core: self.id.0,
            offset: off,
            resp: 0xFF,
        })
    }

    /// One cycle of wait port 0 in "wait ≥ target then decrement" mode
    /// (add_semaphore_wait_ge_and_dec, seed 001 §5.2). `true` when satisfied
    /// (the decrement lands at the edge).
    pub fn sem_wait_ge_dec(&mut self, sem: u8, target: i32) -> bool {
        let mut i = EvtSemIn::idle();
        i.set_wait(0, EVT_SEM_WAIT_SEM_GE_DEC as u8, sem, target);
        let o = self.evt_step(&i);
        o.wait_done_o & 1 == 1
    }

    /// Queue of `engine`, `side` (0 = M2S, 1 = S2M).
    pub fn queue(&self, engine: u8, queue: u8, side: u8) -> &QueueState {
        let e = &self.engines[usize::from(engine)];
        if side == 0 {
            &e.m2s[usize::from(queue)]
        } else {
            &e.s2m[usize::from(queue)]
        }
    }

    /// Mutable queue.
    pub fn queue_mut(&mut self, engine: u8, queue: u8, side: u8) -> &mut QueueState {
        let e = &mut self.engines[usize::from(engine)];
        if side == 0 {
            &mut e.m2s[usize::from(queue)]
        } else {
            &mut e.s2m[usize::from(queue)]
        }
    }

    /// Decode a UDMA CSR offset into (side, queue, register) if it is a queue register.
    fn csr_queue(offset: u32) -> Option<(u8, u8, u32)> {
        let side = u8::from(offset >= UDMA_S2M_BASE);
        let rel = offset
            - if side == 1 {
                UDMA_S2M_BASE
            } else {
                UDMA_M2S_BASE
            };
        if !(UDMA_Q_ARRAY_BASE..UDMA_Q_ARRAY_BASE + UDMA_NUM_QUEUES * UDMA_Q_STRIDE).contains(&rel)
        {
            return None;
        }
        let q = ((rel - UDMA_Q_ARRAY_BASE) / UDMA_Q_STRIDE) as u8;
        Some((side, q, (rel - UDMA_Q_ARRAY_BASE) % UDMA_Q_STRIDE))
    }

    /// A 32-bit CSR write to UDMA engine `engine` (queue registers only).
    pub fn udma_write(&mut self, engine: u8, offset: u32, data: u32) -> Result<(), SystemError> {
        let core = self.id.0;
        let err = |rule| SystemError::Csr {
            core,
            engine,
            offset,
            rule,
        };
        let (side, q, reg) = Self::csr_queue(offset).ok_or(err("not a queue register"))?;
        let qs = self.queue_mut(engine, q, side);
        match reg {
            UDMA_Q_CFG => qs.cfg = data,
            UDMA_Q_RBP_LOW => qs.rbp = (qs.rbp & !0xFFFF_FFFF) | u64::from(data),
            UDMA_Q_RBP_HIGH => qs.rbp = (qs.rbp & 0xFFFF_FFFF) | u64::from(data) << 32,
            UDMA_Q_RL => {
                if qs.pending() != 0 {
                    return Err(err("ring length written while descriptors are pending"));
                }
                qs.rl = data & ((1 << UDMA_PTR_OFFSET_WIDTH) - 1);
                qs.head = RingPos::default();
                qs.tail = RingPos::default();
                qs.crhp = RingPos::default();
            }
            UDMA_Q_CRBP_LOW => qs.crbp = (qs.crbp & !0xFFFF_FFFF) | u64::from(data),
            UDMA_Q_CRBP_HIGH => qs.crbp = (qs.crbp & 0xFFFF_FFFF) | u64::from(data) << 32,
            UDMA_S2M_Q_COMP_CFG if side == 1 => {
                qs.comp_cfg = data & 1 << UDMA_COMP_CFG_EN_COMP_RING_UPDATE_BIT
            }
            UDMA_Q_RTP_INC => {
                let n = data & ((1 << UDMA_PTR_OFFSET_WIDTH) - 1);
                if qs.rl == 0 {
                    return Err(err("doorbell on a queue with no ring (RL = 0)"));
                }
                if n > qs.free() {
                    return Err(err("doorbell past free space (DB overflow)"));
                }
                qs.tail = qs.tail.advance(n, qs.rl);
            }
            _ => return Err(err("register not modeled for writes")),
        }
        Ok(())
    }

    /// A 32-bit CSR read of UDMA engine `engine` (queue pointer registers).
    pub fn udma_read(&self, engine: u8, offset: u32) -> Result<u32, SystemError> {
        let err = SystemError::Csr {
            core: self.id.0,
            engine,
            offset,
            rule: "not a readable queue register",
        };
        let (side, q, reg) = Self::csr_queue(offset).ok_or(err.clone())?;
        let qs = self.queue(engine, q, side);
        Ok(match reg {
            UDMA_Q_CFG => qs.cfg,
            UDMA_Q_RBP_LOW => qs.rbp as u32,
            UDMA_Q_RBP_HIGH => (qs.rbp >> 32) as u32,
            UDMA_Q_RL => qs.rl,
            UDMA_Q_RHP => pack_pos(qs.head),
            UDMA_Q_RTP => pack_pos(qs.tail),
            UDMA_Q_CRBP_LOW => qs.crbp as u32,
            UDMA_Q_CRBP_HIGH => (qs.crbp >> 32) as u32,
            UDMA_Q_CRHP => pack_pos(qs.crhp),
            UDMA_S2M_Q_COMP_CFG if side == 1 => qs.comp_cfg,
            UDMA_Q_DESC_DONE => qs.desc_done,
            UDMA_Q_BYTES => qs.bytes as u32,
            _ => return Err(err),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evt_sem::regs::EVT_SEM_SEM_INCR_BASE;

    fn core() -> Core {
        Core::new(
            CoreId(0),
            CoreLoc {
                package: 0,
                die: 0,
                core: 0,
            },
            1024,
        )
    }

    #[test]
    fn evt_sem_axi_incr_and_wait_ge_dec() {
        let mut c = core();
        c.evt_write(EVT_SEM_SEM_INCR_BASE + 12 * 4, 3).unwrap();
        assert_eq!(c.evt.sem(12), 3);
        assert_eq!(c.evt_read(0x1000 + 12 * 4).unwrap(), 3);
        c.sem_inc(&[(0, 12, 1), (1, 12, 1)]);
        assert_eq!(c.evt.sem(12), 5);
        assert!(!c.sem_wait_ge_dec(12, 6));
        assert!(c.sem_wait_ge_dec(12, 5));
        assert_eq!(c.evt.sem(12), 0);
        assert!(c.evt_write(0x1000, 1).is_err(), "SEM_READ is read-only");
    }

    #[test]
    fn doorbell_advances_tail_and_refuses_overflow() {
        let mut c = core();
        let q = UDMA_Q_ARRAY_BASE + 2 * UDMA_Q_STRIDE;
        c.udma_write(3, q + UDMA_Q_RL, 16).unwrap();
        c.udma_write(3, q + UDMA_Q_RTP_INC, 15).unwrap();
        assert_eq!(
            c.queue(3, 2, 0).tail,
            RingPos {
                offset: 15,
                ring_id: 1
            }
        );
        assert!(c.udma_write(3, q + UDMA_Q_RTP_INC, 1).is_err());
        assert_eq!(c.udma_read(3, q + UDMA_Q_RTP).unwrap(), 15 | 1 << 30);
        assert!(
            c.udma_write(3, UDMA_S2M_BASE + q + UDMA_Q_RTP_INC, 1)
                .is_err(),
            "S2M ring not set up"
        );
    }

    /// Seed 001 §4 / PUBLIC-FACTS §1: 16 M2S and 16 S2M queues, the doorbell of
    /// queue q at 0x1000 + q·0x1000 + 0x38 of each side, a 24-bit value.
    #[test]
    fn seed001_s4_doorbell_of_each_of_16_queues_takes_a_24_bit_value() {
        let mut c = core();
        for side in 0..2u8 {
            let base = if side == 0 { 0 } else { 0x2_0000 };
            for q in 0..16u32 {
                let qreg = base + 0x1000 + q * 0x1000;
                c.udma_write(1, qreg + 0x30, 1 << 23).unwrap(); // RL
                assert_eq!(c.queue(1, q as u8, side).rl, 1 << 23);
                // Bits above [23:0] of the doorbell value are ignored: 0x0100_0005 → +5.
                c.udma_write(1, qreg + 0x38, 0x0100_0005).unwrap();
                assert_eq!(
                    c.queue(1, q as u8, side).tail.offset,
                    5,
                    "side {side} q {q}"
                );
                c.udma_write(1, qreg + 0x38, 0xFF_FFFF & 7).unwrap();
                assert_eq!(c.queue(1, q as u8, side).tail.offset, 12);
                // The other 31 queues are untouched.
                let others: u32 = (0..16u8)
                    .flat_map(|k| [(k, 0u8), (k, 1u8)])
                    .filter(|&(k, s)| (k, s) != (q as u8, side))
                    .map(|(k, s)| c.queue(1, k, s).tail.offset)
                    .sum();
                assert_eq!(others, 12 * (u32::from(side) * 16 + q), "aliasing");
            }
        }
        // There is no 17th queue: 0x1000 + 16·0x1000 + 0x38 is not a queue register.
        assert!(c.udma_write(1, 0x1000 + 16 * 0x1000 + 0x38, 1).is_err());
        assert_eq!(UDMA_NUM_QUEUES, 16);
        assert_eq!(UDMA_Q_RTP_INC, 0x38);
        assert_eq!(UDMA_PTR_OFFSET_WIDTH, 24);
    }
}
