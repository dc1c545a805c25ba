//! UDMA engine register map: offsets and field positions, defined once.
//!
//! Public sources (PUBLIC-FACTS §1): the aws-neuron-driver "v4" layout
//! (`udma/udma_regs.h`, `udma/udma.h`) and the Alpine HAL register headers
//! (`al_hal_udma_regs_m2s.h`, `al_hal_udma_regs_s2m.h`). Every constant below
//! that is not in those sources is marked "project-defined" and listed in
//! `docs/udma.md` and `docs/decisions.md`.
//!
//! Address = side base (M2S 0x00000 / S2M 0x20000) + either an engine
//! register offset (< 0x1000) or `Q_ARRAY_BASE + q * Q_STRIDE + per-queue offset`.
//! The same per-queue offsets serve both sides (TD*/TC* names in M2S, RD*/RC*
//! in S2M) except `q_sw_ctrl` (0xb0 in M2S, 0x64 in S2M) and `comp_cfg`
//! (0x54, S2M only). The CSR port is an AXI4-Lite slave with
//! [`UDMA_CSR_ADDR_WIDTH`]-bit addresses covering the whole engine space.

crate::sv_consts! {
    // ---- engine space ----
    /// Width of the AXI4-Lite CSR address (engine space 0x00000..0x3FFFF).
    UDMA_CSR_ADDR_WIDTH: u32 [32] = 18;
    /// Address bit that selects the S2M side (0x20000).
    UDMA_SIDE_BIT: u32 [32] = 17;
    /// "gen" unit base (public); not implemented here, accesses answer SLVERR.
    UDMA_GEN_BASE: u32 [32] = 0x3_8000;
    /// Number of queues per side (public: 16).
    UDMA_NUM_QUEUES: u32 [32] = 16;
    /// M2S (TX) unit base (public: driver v4 layout).
    UDMA_M2S_BASE: u32 [32] = 0x0_0000;
    /// S2M (RX) unit base (public: driver v4 layout).
    UDMA_S2M_BASE: u32 [32] = 0x2_0000;
    /// Queue array base inside a side (public).
    UDMA_Q_ARRAY_BASE: u32 [32] = 0x1000;
    /// Queue register bundle stride (public: BundleSizeInBytes 4096).
    UDMA_Q_STRIDE: u32 [32] = 0x1000;

    // ---- engine registers (offset inside a side) ----
    /// Engine state, read-only: `[1:0]` 0 idle, 1 normal, 2 abort (public values).
    UDMA_ENG_STATE: u32 [32] = 0x200;
    /// Change state, write-only: bit0 NORMAL, bit1 DIS, bit2 ABORT (Alpine HAL).
    UDMA_ENG_CHANGE_STATE: u32 [32] = 0x204;
    /// Error log mask: a set bit keeps that cause off `err_irq_o` (public offset).
    UDMA_ENG_ERR_LOG_MASK: u32 [32] = 0x20c;
    /// M2S cfg_len (public offset); stored, no effect in this model.
    UDMA_M2S_CFG_LEN: u32 [32] = 0x254;
    /// Project-defined: sticky error status, same bit layout as err_log_mask, write 1 to clear.
    UDMA_ENG_ERR_STATUS: u32 [32] = 0x300;
    /// Project-defined: interrupt status, bit q set when a queue-q descriptor with INT_EN completes; W1C.
    UDMA_ENG_INT_STATUS: u32 [32] = 0x304;
    /// Project-defined: S2M no-descriptor timeout in cycles (0 = never); M2S: stored, unused.
    UDMA_ENG_NO_DESC_TOUT: u32 [32] = 0x308;
    /// Project-defined: debug read of the side's FSM: `[3:0]` state, `[11:8]` queue, `[16]` packet open.
    UDMA_ENG_DBG_STATE: u32 [32] = 0x30c;

    // ---- engine state values ----
    /// Engine state: idle (reset value).
    UDMA_STATE_IDLE: u32 [32] = ENG_STATE_STATE.values[0].value;
    /// Engine state: normal operation.
    UDMA_STATE_NORMAL: u32 [32] = ENG_STATE_STATE.values[1].value;
    /// Engine state: abort.
    UDMA_STATE_ABORT: u32 [32] = ENG_STATE_STATE.values[2].value;

    // ---- error cause bits (err_log_mask / ERR_STATUS / Q_ERR) ----
    /// M2S data read AXI response error (Alpine HAL bit 8).
    UDMA_M2S_ERR_DATA_AXI_RESPONSE: u32 [32] = M2S_ERR_DATA_AXI_RESPONSE.lsb;
    /// M2S descriptor prefetch AXI response error (Alpine HAL bit 11).
    UDMA_M2S_ERR_PREF_AXI_RESPONSE: u32 [32] = M2S_ERR_PREF_AXI_RESPONSE.lsb;
    /// M2S descriptor ring-id mismatch on prefetch (public: bit 17).
    UDMA_M2S_ERR_PREF_RING_ID: u32 [32] = M2S_ERR_PREF_RING_ID.lsb;
    /// M2S descriptor FIRST bit inconsistent with the packet state: a descriptor
    /// that starts a packet without FIRST, or FIRST inside an open packet
    /// (project-defined bit).
    UDMA_M2S_ERR_DESC_FIRST: u32 [32] = M2S_ERR_DESC_FIRST.lsb;
    /// S2M completion write AXI response error (project-defined bit).
    UDMA_S2M_ERR_COMP_AXI_RESPONSE: u32 [32] = S2M_ERR_COMP_AXI_RESPONSE.lsb;
    /// S2M data write AXI response error (project-defined bit).
    UDMA_S2M_ERR_DATA_AXI_RESPONSE: u32 [32] = S2M_ERR_DATA_AXI_RESPONSE.lsb;
    /// S2M descriptor prefetch AXI response error (project-defined bit).
    UDMA_S2M_ERR_PREF_AXI_RESPONSE: u32 [32] = S2M_ERR_PREF_AXI_RESPONSE.lsb;
    /// S2M descriptor ring-id mismatch on prefetch (public: bit 11).
    UDMA_S2M_ERR_PREF_RING_ID: u32 [32] = S2M_ERR_PREF_RING_ID.lsb;
    /// S2M packet waited longer than NO_DESC_TOUT cycles for a descriptor (project-defined bit).
    UDMA_S2M_ERR_NO_DESC: u32 [32] = S2M_ERR_NO_DESC.lsb;
    /// Doorbell would move the tail past the free space (project-defined bit, both sides).
    UDMA_ERR_DB_OVERFLOW: u32 [32] = ERR_DB_OVERFLOW.lsb;
    /// Bad CSR access answered with SLVERR (project-defined bit, side = address bit 17).
    UDMA_ERR_CSR: u32 [32] = ERR_CSR.lsb;

    // ---- per-queue registers (offset inside a queue bundle) ----
    /// M2S desc_pref_cfg (public offset); stored, no effect.
    UDMA_Q_DESC_PREF_CFG: u32 [32] = 0x00;
    /// Queue cfg: EN_PREF bit16, EN_SCHEDULING (M2S) / EN_STREAM (S2M) bit17.
    UDMA_Q_CFG: u32 [32] = 0x20;
    /// Queue status, read-only: Q_USED `[23:0]`, STOPPED 27, PREFETCH 28, SCHEDULER/RX 29, Q_FULL 31.
    UDMA_Q_STATUS: u32 [32] = 0x24;
    /// Descriptor ring base low, bits `[31:6]` (rings 256-byte aligned by the driver).
    UDMA_Q_RBP_LOW: u32 [32] = 0x28;
    /// Descriptor ring base high `[63:32]`.
    UDMA_Q_RBP_HIGH: u32 [32] = 0x2c;
    /// Ring length in descriptors, 24 bits.
    UDMA_Q_RL: u32 [32] = 0x30;
    /// Head pointer, read-only: offset `[23:0]`, ring id `[31:30]`.
    UDMA_Q_RHP: u32 [32] = 0x34;
    /// Tail-pointer increment (the doorbell), write-only, value `[23:0]`.
    UDMA_Q_RTP_INC: u32 [32] = 0x38;
    /// Tail pointer, read-only: offset `[23:0]`, ring id `[31:30]`.
    UDMA_Q_RTP: u32 [32] = 0x3c;
    /// Current pointer, read-only: offset of the descriptor being (or next to be) fetched.
    UDMA_Q_RCP: u32 [32] = 0x40;
    /// Completion ring base low, bits `[31:6]`.
    UDMA_Q_CRBP_LOW: u32 [32] = 0x44;
    /// Completion ring base high `[63:32]`.
    UDMA_Q_CRBP_HIGH: u32 [32] = 0x48;
    /// Completion ring head (next slot hardware writes), read-only: offset `[23:0]`, ring id `[31:30]`.
    UDMA_Q_CRHP: u32 [32] = 0x4c;
    /// S2M comp_cfg: bit0 EN_COMP_RING_UPDATE (Alpine HAL).
    UDMA_S2M_Q_COMP_CFG: u32 [32] = 0x54;
    /// M2S q_sw_ctrl (public): bit8 RST_Q.
    UDMA_M2S_Q_SW_CTRL: u32 [32] = 0xb0;
    /// S2M q_sw_ctrl (public): bit8 RST_Q.
    UDMA_S2M_Q_SW_CTRL: u32 [32] = 0x64;
    /// Project-defined: queue sticky error causes (bit layout of err_log_mask), cleared by RST_Q.
    UDMA_Q_ERR: u32 [32] = 0xc0;
    /// Project-defined: bytes moved (M2S: accepted by the stream; S2M: written to memory), mod 2^32.
    UDMA_Q_BYTES: u32 [32] = 0xc4;
    /// Project-defined: S2M bytes accepted from the stream and dropped (no usable descriptor).
    UDMA_Q_DROP_BYTES: u32 [32] = 0xc8;
    /// Project-defined: descriptors completed, mod 2^32.
    UDMA_Q_DESC_DONE: u32 [32] = 0xcc;

    // ---- per-queue fields ----
    /// Ring base low: lowest stored bit (public: `[31:6]`).
    UDMA_Q_RBP_LOW_SHIFT: u32 [32] = Q_BASE_LOW_ADDR.lsb;

    // ---- descriptor fields (PUBLIC-FACTS §1; word = little-endian u32 at byte 4*k) ----
    /// Descriptor size in bytes (public: 16).
    UDMA_DESC_BYTES: u32 [32] = 16;
    /// Maximum bytes per descriptor (public: 65536).
    UDMA_DESC_MAX_LEN: u32 [32] = 65536;

    // ---- AXI response codes ----
    /// AXI OKAY.
    AXI_RESP_OKAY: u32 [32] = 0;
    /// AXI SLVERR.
    AXI_RESP_SLVERR: u32 [32] = 2;
}

// ---- constants the RTL does not use (Rust models and stimulus only) ----

/// len_ctrl RING_ID field position `[25:24]` (public; also completion word 0).
pub const UDMA_DESC_RING_ID_SHIFT: u32 = DESC_RING_ID.lsb;
/// len_ctrl FIRST (M2S) / completion FIRST (public bit 26).
pub const UDMA_DESC_FIRST_BIT: u32 = DESC_FIRST.lsb;
/// len_ctrl LAST (M2S) / completion LAST (public bit 27).
pub const UDMA_DESC_LAST_BIT: u32 = DESC_LAST.lsb;
/// len_ctrl INT_EN (public bit 28).
pub const UDMA_DESC_INT_EN_BIT: u32 = DESC_INT_EN.lsb;
/// M2S len_ctrl DMB, data memory barrier (public bit 30); accepted, no effect here.
pub const UDMA_DESC_DMB_BIT: u32 = DESC_DMB.lsb;
/// M2S len_ctrl CONCAT (public bit 31); accepted, no effect here.
pub const UDMA_DESC_CONCAT_BIT: u32 = DESC_CONCAT.lsb;
/// Completion word 0 BUF1_USED (public bit 30).
pub const UDMA_CDESC_BUF1_USED_BIT: u32 = CDESC_BUF1_USED.lsb;
/// Completion word 0 ERROR (public bit 31).
pub const UDMA_CDESC_ERROR_BIT: u32 = CDESC_ERROR.lsb;
/// change_state bit: start normal operation (Alpine HAL bit 0).
pub const UDMA_CHANGE_STATE_NORMAL_BIT: u32 = CHANGE_STATE_NORMAL.lsb;
/// change_state bit: stop normal operation (Alpine HAL bit 1).
pub const UDMA_CHANGE_STATE_DIS_BIT: u32 = CHANGE_STATE_DIS.lsb;
/// change_state bit: abort (Alpine HAL bit 2).
pub const UDMA_CHANGE_STATE_ABORT_BIT: u32 = CHANGE_STATE_ABORT.lsb;
/// cfg: enable prefetch.
pub const UDMA_Q_CFG_EN_PREF_BIT: u32 = Q_CFG_EN_PREF.lsb;
/// cfg: enable scheduling (M2S) / stream (S2M).
pub const UDMA_Q_CFG_EN_SCHED_BIT: u32 = Q_CFG_EN_SCHED.lsb;
/// status: queue stopped by an error (project-defined bit).
pub const UDMA_Q_STATUS_STOPPED_BIT: u32 = Q_STATUS_STOPPED.lsb;
/// status: prefetch operational (public bit 28).
pub const UDMA_Q_STATUS_PREFETCH_BIT: u32 = Q_STATUS_PREFETCH.lsb;
/// status: scheduler (M2S) / RX (S2M) active (public bit 29).
pub const UDMA_Q_STATUS_SCHED_BIT: u32 = Q_STATUS_SCHED.lsb;
/// status: queue full (public bit 31).
pub const UDMA_Q_STATUS_Q_FULL_BIT: u32 = Q_STATUS_Q_FULL.lsb;
/// comp_cfg: enable completion ring writes (Alpine HAL bit 0).
pub const UDMA_COMP_CFG_EN_COMP_RING_UPDATE_BIT: u32 = Q_COMP_CFG_EN.lsb;
/// q_sw_ctrl: queue reset (public bit 8).
pub const UDMA_Q_SW_CTRL_RST_Q_BIT: u32 = Q_SW_CTRL_RST_Q.lsb;
/// Ring id after reset (public: initial value 1); the RTL uses `UDMA_Q_PTR_RESET`.
pub const UDMA_RING_ID_INIT: u32 = Q_PTR_RING_ID.reset;

/// M2S completion write AXI response error (Alpine HAL bit 5; unused: M2S writes no completions).
pub const UDMA_M2S_ERR_COMP_AXI_RESPONSE: u32 = M2S_ERR_COMP_AXI_RESPONSE.lsb;
/// status: Q_USED field width (project: 24 bits; ring offsets are 24 bits).
pub const UDMA_Q_STATUS_Q_USED_WIDTH: u32 = Q_STATUS_Q_USED.width;
/// Pointer registers: offset field width (public `[23:0]`).
pub const UDMA_PTR_OFFSET_WIDTH: u32 = Q_PTR_OFFSET.width;
/// Pointer registers: ring id field position (public `[31:30]`).
pub const UDMA_PTR_RING_ID_SHIFT: u32 = Q_PTR_RING_ID.lsb;
/// len_ctrl LEN field width: `[15:0]`, 0 encodes 65536 (public).
pub const UDMA_DESC_LEN_WIDTH: u32 = DESC_LEN.width;
/// Completion word 1: bytes written into buf1, `[16:0]` (project-defined).
pub const UDMA_CDESC_LEN_WIDTH: u32 = CDESC_LEN.width;
/// AXI DECERR.
pub const AXI_RESP_DECERR: u32 = 3;

// ---- register description (model/src/regs): layouts ----

use crate::regs::{Access, Array, Block, Field, Group, Layout, Reg, Sides, Source, Value};

const DRV: Source = Source::Public("driver v4");
const HAL: Source = Source::Public("Alpine HAL");
const PRJ: Source = Source::Project;

/// A plain 32-bit value.
pub const WORD_VALUE: Field = Field::new("VALUE", 0, 32, "", PRJ);
/// Layout of a plain 32-bit register.
pub const WORD: Layout = Layout {
    name: "udma_word",
    fields: &[WORD_VALUE],
};

/// state: engine state.
pub const ENG_STATE_STATE: Field = Field::new("STATE", 0, 2, "", DRV).values(&[
    Value {
        name: "IDLE",
        value: 0,
    },
    Value {
        name: "NORMAL",
        value: 1,
    },
    Value {
        name: "ABORT",
        value: 2,
    },
]);
/// Layout of `state`.
pub const ENG_STATE: Layout = Layout {
    name: "udma_eng_state",
    fields: &[ENG_STATE_STATE],
};

/// change_state: start normal operation.
pub const CHANGE_STATE_NORMAL: Field = Field::new("NORMAL", 0, 1, "start", HAL);
/// change_state: stop normal operation.
pub const CHANGE_STATE_DIS: Field = Field::new("DIS", 1, 1, "stop", HAL);
/// change_state: abort (= DIS here).
pub const CHANGE_STATE_ABORT: Field =
    Field::new("ABORT", 2, 1, "priority ABORT > DIS > NORMAL", HAL);
/// Layout of `change_state`.
pub const CHANGE_STATE: Layout = Layout {
    name: "udma_change_state",
    fields: &[CHANGE_STATE_NORMAL, CHANGE_STATE_DIS, CHANGE_STATE_ABORT],
};

/// INT_STATUS: one bit per queue.
pub const INT_STATUS_QUEUES: Field = Field::new(
    "QUEUES",
    0,
    16,
    "bit q: an INT_EN descriptor of queue q completed",
    PRJ,
);
/// Layout of INT_STATUS.
pub const INT_STATUS: Layout = Layout {
    name: "udma_int_status",
    fields: &[INT_STATUS_QUEUES],
};

/// DBG_STATE: side FSM state.
pub const DBG_STATE_STATE: Field = Field::new("STATE", 0, 4, "FSM state code", PRJ);
/// DBG_STATE: queue the FSM works on.
pub const DBG_STATE_QUEUE: Field = Field::new("QUEUE", 8, 4, "", PRJ);
/// DBG_STATE: a packet is open.
pub const DBG_STATE_PKT: Field = Field::new("PKT", 16, 1, "packet open", PRJ);
/// Layout of DBG_STATE.
pub const DBG_STATE: Layout = Layout {
    name: "udma_dbg_state",
    fields: &[DBG_STATE_STATE, DBG_STATE_QUEUE, DBG_STATE_PKT],
};

/// cfg: enable prefetch.
pub const Q_CFG_EN_PREF: Field = Field::new("EN_PREF", 16, 1, "", DRV);
/// cfg: enable scheduling (M2S) / stream (S2M).
pub const Q_CFG_EN_SCHED: Field = Field::new("EN_SCHED", 17, 1, "EN_SCHEDULING / EN_STREAM", DRV);
/// Layout of `cfg` (both bits needed for the queue to run).
pub const Q_CFG: Layout = Layout {
    name: "udma_q_cfg",
    fields: &[Q_CFG_EN_PREF, Q_CFG_EN_SCHED],
};

/// status: descriptors posted and not completed.
pub const Q_STATUS_Q_USED: Field = Field::new("Q_USED", 0, 24, "", DRV);
/// status: queue stopped by an error.
pub const Q_STATUS_STOPPED: Field = Field::new("STOPPED", 27, 1, "project-defined bit", PRJ);
/// status: prefetch operational (EN_PREF and not stopped).
pub const Q_STATUS_PREFETCH: Field = Field::new("PREFETCH", 28, 1, "", DRV);
/// status: scheduler (M2S) / RX (S2M) busy on this queue.
pub const Q_STATUS_SCHED: Field = Field::new("SCHED", 29, 1, "SCHEDULER / RX busy", DRV);
/// status: queue full (used = rl − 1).
pub const Q_STATUS_Q_FULL: Field = Field::new("Q_FULL", 31, 1, "", DRV);
/// Layout of `status`.
pub const Q_STATUS: Layout = Layout {
    name: "udma_q_status",
    fields: &[
        Q_STATUS_Q_USED,
        Q_STATUS_STOPPED,
        Q_STATUS_PREFETCH,
        Q_STATUS_SCHED,
        Q_STATUS_Q_FULL,
    ],
};

/// Ring base low word: address bits `[31:6]` (rings 64-byte aligned at least).
pub const Q_BASE_LOW_ADDR: Field = Field::new("ADDR", 6, 26, "address bits [31:6]", DRV);
/// Layout of `rbp_low` / `crbp_low`.
pub const Q_BASE_LOW: Layout = Layout {
    name: "udma_q_base_low",
    fields: &[Q_BASE_LOW_ADDR],
};

/// Ring length in descriptors.
pub const Q_RL_LEN: Field = Field::new("LEN", 0, 24, "descriptors", DRV);
/// Layout of `rl`.
pub const Q_RL: Layout = Layout {
    name: "udma_q_rl",
    fields: &[Q_RL_LEN],
};

/// Pointer registers: slot offset.
pub const Q_PTR_OFFSET: Field = Field::new("OFFSET", 0, 24, "slot", DRV);
/// Pointer registers: ring id of the slot's lap (2-bit generation tag, seed 001 §5.3).
pub const Q_PTR_RING_ID: Field = Field::new("RING_ID", 30, 2, "lap", DRV).reset(1);
/// Layout of the head / tail / current / completion-head pointers.
pub const Q_PTR: Layout = Layout {
    name: "udma_q_ptr",
    fields: &[Q_PTR_OFFSET, Q_PTR_RING_ID],
};

/// Doorbell: number of new descriptors.
pub const Q_RTP_INC_INC: Field = Field::new("INC", 0, 24, "", Source::Seed("001 §4"));
/// Layout of `rtp_inc`.
pub const Q_RTP_INC: Layout = Layout {
    name: "udma_q_rtp_inc",
    fields: &[Q_RTP_INC_INC],
};

/// comp_cfg: enable completion ring writes.
pub const Q_COMP_CFG_EN: Field = Field::new("EN_COMP_RING_UPDATE", 0, 1, "", HAL);
/// Layout of `comp_cfg`.
pub const Q_COMP_CFG: Layout = Layout {
    name: "udma_q_comp_cfg",
    fields: &[Q_COMP_CFG_EN],
};

/// q_sw_ctrl: queue reset.
pub const Q_SW_CTRL_RST_Q: Field = Field::new("RST_Q", 8, 1, "", DRV);
/// Layout of `q_sw_ctrl`.
pub const Q_SW_CTRL: Layout = Layout {
    name: "udma_q_sw_ctrl",
    fields: &[Q_SW_CTRL_RST_Q],
};

/// Descriptor word 0 (`len_ctrl`): LEN, 0 encodes 65536.
pub const DESC_LEN: Field = Field::new("LEN", 0, 16, "bytes, 0 = 65536", DRV);
/// Descriptor / completion word 0: ring id.
pub const DESC_RING_ID: Field = Field::new("RING_ID", 24, 2, "", DRV);
/// Descriptor / completion word 0: FIRST.
pub const DESC_FIRST: Field = Field::new("FIRST", 26, 1, "", DRV);
/// Descriptor / completion word 0: LAST.
pub const DESC_LAST: Field = Field::new("LAST", 27, 1, "", DRV);
/// Descriptor word 0: INT_EN.
pub const DESC_INT_EN: Field = Field::new("INT_EN", 28, 1, "", DRV);
/// M2S descriptor word 0: DMB (data memory barrier).
pub const DESC_DMB: Field = Field::new("DMB", 30, 1, "", DRV);
/// M2S descriptor word 0: CONCAT.
pub const DESC_CONCAT: Field = Field::new("CONCAT", 31, 1, "", DRV);
/// Layout of descriptor word 0 (`len_ctrl`).
pub const DESC_LEN_CTRL: Layout = Layout {
    name: "udma_desc_len_ctrl",
    fields: &[
        DESC_LEN,
        DESC_RING_ID,
        DESC_FIRST,
        DESC_LAST,
        DESC_INT_EN,
        DESC_DMB,
        DESC_CONCAT,
    ],
};
/// Completion word 0: BUF1_USED.
pub const CDESC_BUF1_USED: Field = Field::new("BUF1_USED", 30, 1, "", DRV);
/// Completion word 0: ERROR.
pub const CDESC_ERROR: Field = Field::new("ERROR", 31, 1, "", DRV);
/// Layout of completion word 0.
pub const CDESC_W0: Layout = Layout {
    name: "udma_cdesc_w0",
    fields: &[
        DESC_RING_ID,
        DESC_FIRST,
        DESC_LAST,
        CDESC_BUF1_USED,
        CDESC_ERROR,
    ],
};
/// Completion word 1: bytes written into buf1 (0..=65536).
pub const CDESC_LEN: Field = Field::new("LEN", 0, 17, "bytes written into buf1", PRJ);
/// Layout of completion word 1.
pub const CDESC_W1: Layout = Layout {
    name: "udma_cdesc_w1",
    fields: &[CDESC_LEN],
};
/// Completion word 2: ring offset of the completed S2M descriptor.
pub const CDESC_DESC_OFFSET: Field = Field::new("DESC_OFFSET", 0, 24, "S2M descriptor slot", PRJ);
/// Layout of completion word 2 (word 3 is zero).
pub const CDESC_W2: Layout = Layout {
    name: "udma_cdesc_w2",
    fields: &[CDESC_DESC_OFFSET],
};

// ---- error causes: the bit layout of err_log_mask / ERR_STATUS / Q_ERR per side ----
// The `UDMA_*_ERR_*` constants above are these fields' positions; the cause
// table of docs/udma.md §3 is generated from them (`render_causes_md`).

/// Doorbell would move the tail past the free space (both sides).
pub const ERR_DB_OVERFLOW: Field = Field::new("DB_OVERFLOW", 24, 1, "", PRJ);
/// Bad CSR access answered SLVERR (both sides; side = address bit 17).
pub const ERR_CSR: Field = Field::new("CSR", 25, 1, "bad access, side = address bit 17", PRJ);
/// M2S: completion write AXI response error (M2S writes no completions: never raised).
pub const M2S_ERR_COMP_AXI_RESPONSE: Field = Field::new("COMP_AXI_RESPONSE", 5, 1, "unused", HAL);
/// M2S: data read AXI response error.
pub const M2S_ERR_DATA_AXI_RESPONSE: Field = Field::new("DATA_AXI_RESPONSE", 8, 1, "", HAL);
/// M2S: descriptor prefetch AXI response error.
pub const M2S_ERR_PREF_AXI_RESPONSE: Field = Field::new("PREF_AXI_RESPONSE", 11, 1, "", HAL);
/// M2S: FIRST bit inconsistent with the packet state.
pub const M2S_ERR_DESC_FIRST: Field = Field::new("DESC_FIRST", 13, 1, "", PRJ);
/// M2S: descriptor ring-id mismatch on prefetch.
pub const M2S_ERR_PREF_RING_ID: Field = Field::new("PREF_RING_ID", 17, 1, "", DRV);
/// S2M: completion write AXI response error.
pub const S2M_ERR_COMP_AXI_RESPONSE: Field = Field::new("COMP_AXI_RESPONSE", 5, 1, "", PRJ);
/// S2M: data write AXI response error.
pub const S2M_ERR_DATA_AXI_RESPONSE: Field = Field::new("DATA_AXI_RESPONSE", 8, 1, "", PRJ);
/// S2M: descriptor prefetch AXI response error.
pub const S2M_ERR_PREF_AXI_RESPONSE: Field = Field::new("PREF_AXI_RESPONSE", 10, 1, "", PRJ);
/// S2M: descriptor ring-id mismatch on prefetch.
pub const S2M_ERR_PREF_RING_ID: Field = Field::new("PREF_RING_ID", 11, 1, "", DRV);
/// S2M: a packet waited longer than NO_DESC_TOUT cycles for a descriptor.
pub const S2M_ERR_NO_DESC: Field = Field::new("NO_DESC", 12, 1, "", PRJ);
/// Error causes of the M2S side.
pub const M2S_ERR_CAUSES: Layout = Layout {
    name: "udma_m2s_err",
    fields: &[
        M2S_ERR_COMP_AXI_RESPONSE,
        M2S_ERR_DATA_AXI_RESPONSE,
        M2S_ERR_PREF_AXI_RESPONSE,
        M2S_ERR_DESC_FIRST,
        M2S_ERR_PREF_RING_ID,
        ERR_DB_OVERFLOW,
        ERR_CSR,
    ],
};
/// Error causes of the S2M side.
pub const S2M_ERR_CAUSES: Layout = Layout {
    name: "udma_s2m_err",
    fields: &[
        S2M_ERR_COMP_AXI_RESPONSE,
        S2M_ERR_DATA_AXI_RESPONSE,
        S2M_ERR_PREF_AXI_RESPONSE,
        S2M_ERR_PREF_RING_ID,
        S2M_ERR_NO_DESC,
        ERR_DB_OVERFLOW,
        ERR_CSR,
    ],
};

const fn r(
    name: &'static str,
    offset: u32,
    access: Access,
    layout: &'static Layout,
    desc: &'static str,
    source: Source,
) -> Reg {
    Reg {
        name,
        offset,
        array: None,
        access,
        layout,
        sides: Sides::Both,
        effect: "",
        volatile: false,
        storage: None,
        desc,
        source,
    }
}
const fn volatile(reg: Reg) -> Reg {
    Reg {
        volatile: true,
        ..reg
    }
}
const fn side(reg: Reg, sides: Sides) -> Reg {
    Reg { sides, ..reg }
}
const fn effect(reg: Reg, effect: &'static str) -> Reg {
    Reg { effect, ..reg }
}

/// Engine registers of one side (offset inside the side).
pub const ENG_REGS: &[Reg] = &[
    r(
        "state",
        UDMA_ENG_STATE,
        Access::Ro,
        &ENG_STATE,
        "engine state",
        DRV,
    ),
    effect(
        r(
            "change_state",
            UDMA_ENG_CHANGE_STATE,
            Access::Wo,
            &CHANGE_STATE,
            "",
            HAL,
        ),
        "moves `state` (ABORT > DIS > NORMAL)",
    ),
    r(
        "err_log_mask",
        UDMA_ENG_ERR_LOG_MASK,
        Access::Rw,
        &WORD,
        "a set bit keeps that cause off `err_irq_o`",
        DRV,
    ),
    side(
        r(
            "cfg_len",
            UDMA_M2S_CFG_LEN,
            Access::Rw,
            &WORD,
            "stored, no effect",
            DRV,
        ),
        Sides::M2s,
    ),
    volatile(r(
        "ERR_STATUS",
        UDMA_ENG_ERR_STATUS,
        Access::W1c,
        &WORD,
        "sticky error causes (bits of err_log_mask)",
        PRJ,
    )),
    volatile(r(
        "INT_STATUS",
        UDMA_ENG_INT_STATUS,
        Access::W1c,
        &INT_STATUS,
        "",
        PRJ,
    )),
    r(
        "NO_DESC_TOUT",
        UDMA_ENG_NO_DESC_TOUT,
        Access::Rw,
        &WORD,
        "S2M: stalled cycles before NO_DESC (0 = never); M2S: stored",
        PRJ,
    ),
    volatile(r(
        "DBG_STATE",
        UDMA_ENG_DBG_STATE,
        Access::Ro,
        &DBG_STATE,
        "the side's FSM",
        PRJ,
    )),
];

/// Registers of one queue bundle (offset inside the bundle).
pub const QUEUE_REGS: &[Reg] = &[
    side(
        r(
            "desc_pref_cfg",
            UDMA_Q_DESC_PREF_CFG,
            Access::Rw,
            &WORD,
            "stored, no effect",
            DRV,
        ),
        Sides::M2s,
    ),
    r("cfg", UDMA_Q_CFG, Access::Rw, &Q_CFG, "", DRV),
    volatile(r("status", UDMA_Q_STATUS, Access::Ro, &Q_STATUS, "", DRV)),
    r(
        "rbp_low",
        UDMA_Q_RBP_LOW,
        Access::Rw,
        &Q_BASE_LOW,
        "descriptor ring base",
        DRV,
    ),
    r(
        "rbp_high",
        UDMA_Q_RBP_HIGH,
        Access::Rw,
        &WORD,
        "descriptor ring base [63:32]",
        DRV,
    ),
    r("rl", UDMA_Q_RL, Access::Rw, &Q_RL, "ring length", DRV),
    r("rhp", UDMA_Q_RHP, Access::Ro, &Q_PTR, "head pointer", DRV),
    effect(
        r(
            "rtp_inc",
            UDMA_Q_RTP_INC,
            Access::Wo,
            &Q_RTP_INC,
            "the doorbell",
            Source::Seed("001 §4"),
        ),
        "tail += INC (ring id +1 on wrap); INC > free slots: DB_OVERFLOW, queue stops",
    ),
    r("rtp", UDMA_Q_RTP, Access::Ro, &Q_PTR, "tail pointer", DRV),
    r(
        "rcp",
        UDMA_Q_RCP,
        Access::Ro,
        &Q_PTR,
        "current pointer (= head here)",
        DRV,
    ),
    r(
        "crbp_low",
        UDMA_Q_CRBP_LOW,
        Access::Rw,
        &Q_BASE_LOW,
        "completion ring base",
        DRV,
    ),
    r(
        "crbp_high",
        UDMA_Q_CRBP_HIGH,
        Access::Rw,
        &WORD,
        "completion ring base [63:32]",
        DRV,
    ),
    r(
        "crhp",
        UDMA_Q_CRHP,
        Access::Ro,
        &Q_PTR,
        "completion head (next slot written)",
        DRV,
    ),
    side(
        r(
            "comp_cfg",
            UDMA_S2M_Q_COMP_CFG,
            Access::Rw,
            &Q_COMP_CFG,
            "",
            HAL,
        ),
        Sides::S2m,
    ),
    effect(
        side(
            r(
                "q_sw_ctrl",
                UDMA_M2S_Q_SW_CTRL,
                Access::Wo,
                &Q_SW_CTRL,
                "",
                DRV,
            ),
            Sides::M2s,
        ),
        "RST_Q: pointers ← offset 0, ring id 1; clears STOPPED, Q_ERR and the counters",
    ),
    effect(
        side(
            r(
                "q_sw_ctrl",
                UDMA_S2M_Q_SW_CTRL,
                Access::Wo,
                &Q_SW_CTRL,
                "",
                DRV,
            ),
            Sides::S2m,
        ),
        "as M2S q_sw_ctrl",
    ),
    volatile(r(
        "Q_ERR",
        UDMA_Q_ERR,
        Access::Ro,
        &WORD,
        "sticky causes of this queue",
        PRJ,
    )),
    r(
        "Q_BYTES",
        UDMA_Q_BYTES,
        Access::Ro,
        &WORD,
        "M2S: bytes accepted by the stream; S2M: bytes written",
        PRJ,
    ),
    r(
        "Q_DROP_BYTES",
        UDMA_Q_DROP_BYTES,
        Access::Ro,
        &WORD,
        "bytes accepted and dropped (no usable descriptor); M2S reads 0",
        PRJ,
    ),
    r(
        "Q_DESC_DONE",
        UDMA_Q_DESC_DONE,
        Access::Ro,
        &WORD,
        "descriptors completed",
        PRJ,
    ),
];

/// Register description of one UDMA engine (both sides).
pub const DESC: Block = Block {
    name: "udma",
    groups: &[
        Group {
            title: "Engine registers (M2S side at 0x00000, S2M side at 0x20000)",
            sv: "udma_eng",
            base: 0,
            array: Some(Array {
                count: 2,
                stride: UDMA_S2M_BASE,
            }),
            regs: ENG_REGS,
        },
        Group {
            title: "Queue registers (per side: queue q at side + 0x1000 + q·0x1000)",
            sv: "udma_queue",
            base: UDMA_Q_ARRAY_BASE,
            array: Some(Array {
                count: UDMA_NUM_QUEUES,
                stride: UDMA_Q_STRIDE,
            }),
            regs: QUEUE_REGS,
        },
    ],
    layouts: &[
        &WORD,
        &ENG_STATE,
        &CHANGE_STATE,
        &INT_STATUS,
        &DBG_STATE,
        &Q_CFG,
        &Q_STATUS,
        &Q_BASE_LOW,
        &Q_RL,
        &Q_PTR,
        &Q_RTP_INC,
        &Q_COMP_CFG,
        &Q_SW_CTRL,
        &DESC_LEN_CTRL,
        &CDESC_W0,
        &CDESC_W1,
        &CDESC_W2,
    ],
};

/// The error-cause table of docs/udma.md §3 (bit in err_log_mask / ERR_STATUS / Q_ERR).
pub fn render_cause_table() -> String {
    crate::regs::render_causes_md(
        "udma_err",
        &[("M2S", &M2S_ERR_CAUSES), ("S2M", &S2M_ERR_CAUSES)],
    )
}

fn on_side(r: &Reg, side: Side) -> bool {
    match r.sides {
        Sides::Both => true,
        Sides::M2s => side == Side::M2s,
        Sides::S2m => side == Side::S2m,
    }
}

/// The engine register at offset `off` of `side`, if one is mapped there.
pub fn eng_reg(side: Side, off: u32) -> Option<&'static Reg> {
    ENG_REGS
        .iter()
        .find(|r| r.offset == off && on_side(r, side))
}

/// The per-queue register at bundle offset `off` of `side`, if one is mapped there.
pub fn queue_reg(side: Side, off: u32) -> Option<&'static Reg> {
    QUEUE_REGS
        .iter()
        .find(|r| r.offset == off && on_side(r, side))
}

/// Engine side: M2S (TX, memory to stream) or S2M (RX, stream to memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Memory to stream (TX; doorbell TDRTP_inc).
    M2s,
    /// Stream to memory (RX; doorbell RDRTP_inc).
    S2m,
}

impl Side {
    /// Base address of the side in the engine space.
    pub const fn base(self) -> u32 {
        match self {
            Side::M2s => UDMA_M2S_BASE,
            Side::S2m => UDMA_S2M_BASE,
        }
    }
    /// Offset of `q_sw_ctrl` inside a queue bundle.
    pub const fn q_sw_ctrl(self) -> u32 {
        match self {
            Side::M2s => UDMA_M2S_Q_SW_CTRL,
            Side::S2m => UDMA_S2M_Q_SW_CTRL,
        }
    }
    /// err_log_mask bit of the descriptor ring-id mismatch (PREF_RING_ID).
    pub const fn err_pref_ring_id(self) -> u32 {
        match self {
            Side::M2s => UDMA_M2S_ERR_PREF_RING_ID,
            Side::S2m => UDMA_S2M_ERR_PREF_RING_ID,
        }
    }
    /// err_log_mask bit of a descriptor-fetch AXI response error.
    pub const fn err_pref_axi(self) -> u32 {
        match self {
            Side::M2s => UDMA_M2S_ERR_PREF_AXI_RESPONSE,
            Side::S2m => UDMA_S2M_ERR_PREF_AXI_RESPONSE,
        }
    }
    /// err_log_mask bit of a data AXI response error.
    pub const fn err_data_axi(self) -> u32 {
        match self {
            Side::M2s => UDMA_M2S_ERR_DATA_AXI_RESPONSE,
            Side::S2m => UDMA_S2M_ERR_DATA_AXI_RESPONSE,
        }
    }
}

/// Engine-space address of an engine register of `side`.
pub const fn eng_addr(side: Side, off: u32) -> u32 {
    side.base() + off
}

/// Engine-space address of per-queue register `off` of queue `q` on `side`.
pub const fn q_addr(side: Side, q: u32, off: u32) -> u32 {
    side.base() + UDMA_Q_ARRAY_BASE + q * UDMA_Q_STRIDE + off
}

/// Mask of a pointer register's offset field.
pub const PTR_OFFSET_MASK: u32 = Q_PTR_OFFSET.max();

/// Split a head/tail/completion pointer register value into (offset, ring id).
pub const fn ptr_fields(v: u32) -> (u32, u32) {
    (Q_PTR_OFFSET.get(v), Q_PTR_RING_ID.get(v))
}

/// Build a pointer register value from an offset and a ring id.
pub const fn ptr_value(offset: u32, ring_id: u32) -> u32 {
    Q_PTR_OFFSET.val(offset) | Q_PTR_RING_ID.val(ring_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cause layouts hold one-bit fields that do not overlap, and the bits
    /// the golden model and RTL raise are exactly the exported constants.
    #[test]
    fn error_cause_bits_are_one_bit_distinct_and_match_the_constants() {
        for l in [&M2S_ERR_CAUSES, &S2M_ERR_CAUSES] {
            let mut used = 0u32;
            for f in l.fields {
                assert_eq!(f.width, 1, "{}.{}", l.name, f.name);
                assert_eq!(used & f.mask(), 0, "{}.{} overlaps", l.name, f.name);
                used |= f.mask();
            }
        }
        let m2s: Vec<u32> = M2S_ERR_CAUSES.fields.iter().map(|f| f.lsb).collect();
        let s2m: Vec<u32> = S2M_ERR_CAUSES.fields.iter().map(|f| f.lsb).collect();
        assert_eq!(m2s, [5, 8, 11, 13, 17, 24, 25]);
        assert_eq!(s2m, [5, 8, 10, 11, 12, 24, 25]);
        assert_eq!(UDMA_S2M_ERR_PREF_RING_ID, 11); // public (PUBLIC-FACTS §1)
        assert_eq!(UDMA_M2S_ERR_PREF_RING_ID, 17); // public
    }

    #[test]
    fn public_offsets_doorbell_of_queue_q_is_0x1000_plus_q_times_0x1000_plus_0x38() {
        // seed 001 §4: per-queue doorbell = 0x1000 + q*0x1000 + 0x038
        for q in 0..UDMA_NUM_QUEUES {
            assert_eq!(
                q_addr(Side::M2s, q, UDMA_Q_RTP_INC),
                0x1000 + q * 0x1000 + 0x38
            );
            assert_eq!(
                q_addr(Side::S2m, q, UDMA_Q_RTP_INC),
                0x20000 + 0x1000 + q * 0x1000 + 0x38
            );
        }
        assert_eq!(eng_addr(Side::M2s, UDMA_ENG_ERR_LOG_MASK), 0x20c);
        assert_eq!(eng_addr(Side::S2m, UDMA_ENG_STATE), 0x20200);
        assert_eq!(Side::M2s.err_pref_ring_id(), 17);
        assert_eq!(Side::S2m.err_pref_ring_id(), 11);
    }

    #[test]
    fn queue_array_fits_below_the_other_side_and_the_csr_address_width() {
        let last = q_addr(Side::S2m, UDMA_NUM_QUEUES - 1, 0xffc);
        assert!(last < (1 << UDMA_CSR_ADDR_WIDTH));
        assert!(q_addr(Side::M2s, UDMA_NUM_QUEUES - 1, 0xffc) < UDMA_S2M_BASE);
        assert_eq!(UDMA_S2M_BASE, 1 << UDMA_SIDE_BIT);
    }

    /// A ring pointer packs the offset in [23:0] and the ring id in [31:30]
    /// (docs/udma.md), and unpacks back to both (hand-computed word).
    #[test]
    fn pointer_fields_round_trip() {
        let v = ptr_value(0x12_3456, 2);
        assert_eq!(v, 0x8012_3456);
        assert_eq!(ptr_fields(v), (0x12_3456, 2));
    }
}
