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
//! [`CSR_ADDR_WIDTH`]-bit addresses covering the whole engine space.

crate::sv_consts! {
    // ---- engine space ----
    /// Width of the AXI4-Lite CSR address (engine space 0x00000..0x3FFFF).
    UDMA_CSR_ADDR_WIDTH: u32 [32] = 18;
    /// M2S (TX) unit base (public: driver v4 layout).
    UDMA_M2S_BASE: u32 [32] = 0x0_0000;
    /// S2M (RX) unit base (public: driver v4 layout).
    UDMA_S2M_BASE: u32 [32] = 0x2_0000;
    /// Address bit that selects the S2M side (0x20000).
    UDMA_SIDE_BIT: u32 [32] = 17;
    /// "gen" unit base (public); not implemented here, accesses answer SLVERR.
    UDMA_GEN_BASE: u32 [32] = 0x3_8000;
    /// Number of queues per side (public: 16).
    UDMA_NUM_QUEUES: u32 [32] = 16;
    /// Queue array base inside a side (public).
    UDMA_Q_ARRAY_BASE: u32 [32] = 0x1000;
    /// Queue register bundle stride (public: BundleSizeInBytes 4096).
    UDMA_Q_STRIDE: u32 [32] = 0x1000;

    // ---- engine registers (offset inside a side) ----
    /// Engine state, read-only: [1:0] 0 idle, 1 normal, 2 abort (public values).
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
    /// Project-defined: debug read of the side's FSM: [3:0] state, [11:8] queue, [16] packet open.
    UDMA_ENG_DBG_STATE: u32 [32] = 0x30c;

    // ---- engine state values ----
    /// Engine state: idle (reset value).
    UDMA_STATE_IDLE: u32 [32] = 0;
    /// Engine state: normal operation.
    UDMA_STATE_NORMAL: u32 [32] = 1;
    /// Engine state: abort.
    UDMA_STATE_ABORT: u32 [32] = 2;
    /// change_state bit: start normal operation (Alpine HAL bit 0).
    UDMA_CHANGE_STATE_NORMAL_BIT: u32 [32] = 0;
    /// change_state bit: stop normal operation (Alpine HAL bit 1).
    UDMA_CHANGE_STATE_DIS_BIT: u32 [32] = 1;
    /// change_state bit: abort (Alpine HAL bit 2).
    UDMA_CHANGE_STATE_ABORT_BIT: u32 [32] = 2;

    // ---- error cause bits (err_log_mask / ERR_STATUS / Q_ERR) ----
    /// M2S completion write AXI response error (Alpine HAL bit 5; unused: M2S writes no completions).
    UDMA_M2S_ERR_COMP_AXI_RESPONSE: u32 [32] = 5;
    /// M2S data read AXI response error (Alpine HAL bit 8).
    UDMA_M2S_ERR_DATA_AXI_RESPONSE: u32 [32] = 8;
    /// M2S descriptor prefetch AXI response error (Alpine HAL bit 11).
    UDMA_M2S_ERR_PREF_AXI_RESPONSE: u32 [32] = 11;
    /// M2S descriptor ring-id mismatch on prefetch (public: bit 17).
    UDMA_M2S_ERR_PREF_RING_ID: u32 [32] = 17;
    /// M2S descriptor FIRST bit inconsistent with the packet state: a descriptor
    /// that starts a packet without FIRST, or FIRST inside an open packet
    /// (project-defined bit).
    UDMA_M2S_ERR_DESC_FIRST: u32 [32] = 13;
    /// S2M completion write AXI response error (project-defined bit).
    UDMA_S2M_ERR_COMP_AXI_RESPONSE: u32 [32] = 5;
    /// S2M data write AXI response error (project-defined bit).
    UDMA_S2M_ERR_DATA_AXI_RESPONSE: u32 [32] = 8;
    /// S2M descriptor prefetch AXI response error (project-defined bit).
    UDMA_S2M_ERR_PREF_AXI_RESPONSE: u32 [32] = 10;
    /// S2M descriptor ring-id mismatch on prefetch (public: bit 11).
    UDMA_S2M_ERR_PREF_RING_ID: u32 [32] = 11;
    /// S2M packet waited longer than NO_DESC_TOUT cycles for a descriptor (project-defined bit).
    UDMA_S2M_ERR_NO_DESC: u32 [32] = 12;
    /// Doorbell would move the tail past the free space (project-defined bit, both sides).
    UDMA_ERR_DB_OVERFLOW: u32 [32] = 24;
    /// Bad CSR access answered with SLVERR (project-defined bit, side = address bit 17).
    UDMA_ERR_CSR: u32 [32] = 25;

    // ---- per-queue registers (offset inside a queue bundle) ----
    /// M2S desc_pref_cfg (public offset); stored, no effect.
    UDMA_Q_DESC_PREF_CFG: u32 [32] = 0x00;
    /// Queue cfg: EN_PREF bit16, EN_SCHEDULING (M2S) / EN_STREAM (S2M) bit17.
    UDMA_Q_CFG: u32 [32] = 0x20;
    /// Queue status, read-only: Q_USED [23:0], STOPPED 27, PREFETCH 28, SCHEDULER/RX 29, Q_FULL 31.
    UDMA_Q_STATUS: u32 [32] = 0x24;
    /// Descriptor ring base low, bits [31:6] (rings 256-byte aligned by the driver).
    UDMA_Q_RBP_LOW: u32 [32] = 0x28;
    /// Descriptor ring base high [63:32].
    UDMA_Q_RBP_HIGH: u32 [32] = 0x2c;
    /// Ring length in descriptors, 24 bits.
    UDMA_Q_RL: u32 [32] = 0x30;
    /// Head pointer, read-only: offset [23:0], ring id [31:30].
    UDMA_Q_RHP: u32 [32] = 0x34;
    /// Tail-pointer increment (the doorbell), write-only, value [23:0].
    UDMA_Q_RTP_INC: u32 [32] = 0x38;
    /// Tail pointer, read-only: offset [23:0], ring id [31:30].
    UDMA_Q_RTP: u32 [32] = 0x3c;
    /// Current pointer, read-only: offset of the descriptor being (or next to be) fetched.
    UDMA_Q_RCP: u32 [32] = 0x40;
    /// Completion ring base low, bits [31:6].
    UDMA_Q_CRBP_LOW: u32 [32] = 0x44;
    /// Completion ring base high [63:32].
    UDMA_Q_CRBP_HIGH: u32 [32] = 0x48;
    /// Completion ring head (next slot hardware writes), read-only: offset [23:0], ring id [31:30].
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
    /// cfg: enable prefetch.
    UDMA_Q_CFG_EN_PREF_BIT: u32 [32] = 16;
    /// cfg: enable scheduling (M2S) / stream (S2M).
    UDMA_Q_CFG_EN_SCHED_BIT: u32 [32] = 17;
    /// status: Q_USED field width (project: 24 bits; ring offsets are 24 bits).
    UDMA_Q_STATUS_Q_USED_WIDTH: u32 [32] = 24;
    /// status: queue stopped by an error (project-defined bit).
    UDMA_Q_STATUS_STOPPED_BIT: u32 [32] = 27;
    /// status: prefetch operational (public bit 28).
    UDMA_Q_STATUS_PREFETCH_BIT: u32 [32] = 28;
    /// status: scheduler (M2S) / RX (S2M) active (public bit 29).
    UDMA_Q_STATUS_SCHED_BIT: u32 [32] = 29;
    /// status: queue full (public bit 31).
    UDMA_Q_STATUS_Q_FULL_BIT: u32 [32] = 31;
    /// Ring base low: lowest stored bit (public: [31:6]).
    UDMA_Q_RBP_LOW_SHIFT: u32 [32] = 6;
    /// Pointer registers: offset field width (public [23:0]).
    UDMA_PTR_OFFSET_WIDTH: u32 [32] = 24;
    /// Pointer registers: ring id field position (public [31:30]).
    UDMA_PTR_RING_ID_SHIFT: u32 [32] = 30;
    /// comp_cfg: enable completion ring writes (Alpine HAL bit 0).
    UDMA_COMP_CFG_EN_COMP_RING_UPDATE_BIT: u32 [32] = 0;
    /// q_sw_ctrl: queue reset (public bit 8).
    UDMA_Q_SW_CTRL_RST_Q_BIT: u32 [32] = 8;
    /// Ring id after reset (public: initial value 1).
    UDMA_RING_ID_INIT: u32 [32] = 1;

    // ---- descriptor fields (PUBLIC-FACTS §1; word = little-endian u32 at byte 4*k) ----
    /// Descriptor size in bytes (public: 16).
    UDMA_DESC_BYTES: u32 [32] = 16;
    /// len_ctrl LEN field width: [15:0], 0 encodes 65536 (public).
    UDMA_DESC_LEN_WIDTH: u32 [32] = 16;
    /// len_ctrl RING_ID field position [25:24] (public; also completion word 0).
    UDMA_DESC_RING_ID_SHIFT: u32 [32] = 24;
    /// len_ctrl FIRST (M2S) / completion FIRST (public bit 26).
    UDMA_DESC_FIRST_BIT: u32 [32] = 26;
    /// len_ctrl LAST (M2S) / completion LAST (public bit 27).
    UDMA_DESC_LAST_BIT: u32 [32] = 27;
    /// len_ctrl INT_EN (public bit 28).
    UDMA_DESC_INT_EN_BIT: u32 [32] = 28;
    /// M2S len_ctrl DMB, data memory barrier (public bit 30); accepted, no effect here.
    UDMA_DESC_DMB_BIT: u32 [32] = 30;
    /// M2S len_ctrl CONCAT (public bit 31); accepted, no effect here.
    UDMA_DESC_CONCAT_BIT: u32 [32] = 31;
    /// Completion word 0 BUF1_USED (public bit 30).
    UDMA_CDESC_BUF1_USED_BIT: u32 [32] = 30;
    /// Completion word 0 ERROR (public bit 31).
    UDMA_CDESC_ERROR_BIT: u32 [32] = 31;
    /// Completion word 1: bytes written into buf1, [16:0] (project-defined).
    UDMA_CDESC_LEN_WIDTH: u32 [32] = 17;
    /// Maximum bytes per descriptor (public: 65536).
    UDMA_DESC_MAX_LEN: u32 [32] = 65536;

    // ---- AXI response codes ----
    /// AXI OKAY.
    AXI_RESP_OKAY: u32 [32] = 0;
    /// AXI SLVERR.
    AXI_RESP_SLVERR: u32 [32] = 2;
    /// AXI DECERR.
    AXI_RESP_DECERR: u32 [32] = 3;
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
pub const PTR_OFFSET_MASK: u32 = (1 << UDMA_PTR_OFFSET_WIDTH) - 1;

/// Split a head/tail/completion pointer register value into (offset, ring id).
pub const fn ptr_fields(v: u32) -> (u32, u32) {
    (v & PTR_OFFSET_MASK, v >> UDMA_PTR_RING_ID_SHIFT)
}

/// Build a pointer register value from an offset and a ring id.
pub const fn ptr_value(offset: u32, ring_id: u32) -> u32 {
    (offset & PTR_OFFSET_MASK) | ((ring_id & 3) << UDMA_PTR_RING_ID_SHIFT)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn pointer_fields_round_trip() {
        let v = ptr_value(0x12_3456, 2);
        assert_eq!(v, 0x8012_3456);
        assert_eq!(ptr_fields(v), (0x12_3456, 2));
    }
}
