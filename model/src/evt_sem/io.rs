//! Port bundles of `rtl/evt_sem.sv` and lane accessors for its packed vectors.

use super::regs::{EVT_SEM_NUM_INC, EVT_SEM_NUM_WAIT};

crate::port_bundle! {
    /// Inputs of `evt_sem` (names and widths equal the SystemVerilog ports).
    pub struct EvtSemIn {
        /// Asynchronous active-low reset.
        rst_ni: u64 = 1,
        s_axil_awaddr: u64 = 13,
        s_axil_awprot: u64 = 3,
        s_axil_awvalid: u64 = 1,
        s_axil_wdata: u64 = 32,
        s_axil_wstrb: u64 = 4,
        s_axil_wvalid: u64 = 1,
        s_axil_bready: u64 = 1,
        s_axil_araddr: u64 = 13,
        s_axil_arprot: u64 = 3,
        s_axil_arvalid: u64 = 1,
        s_axil_rready: u64 = 1,
        /// Increment port p valid (bit p), one port per DMA engine.
        inc_valid_i: u64 = 16,
        /// Increment port p semaphore index (bits 8p+7:8p).
        inc_idx_i: [u64; 2] = 128,
        /// Increment port p signed value (bits 32p+31:32p).
        inc_value_i: [u64; 8] = 512,
        /// Wait port p request valid (bit p); may be dropped without done (cancel).
        wait_valid_i: u64 = 4,
        /// Wait port p wait_mode byte (seed 002 §3 codes; 0x08 = GE then decrement).
        wait_mode_i: u64 = 32,
        /// Wait port p semaphore or event index.
        wait_idx_i: u64 = 32,
        /// Wait port p signed immediate.
        wait_value_i: [u64; 2] = 128,
        /// Debug read index.
        dbg_idx_i: u64 = 8,
    }
}

crate::port_bundle! {
    /// Outputs of `evt_sem`.
    pub struct EvtSemOut {
        s_axil_awready: u64 = 1,
        s_axil_wready: u64 = 1,
        s_axil_bresp: u64 = 2,
        s_axil_bvalid: u64 = 1,
        s_axil_arready: u64 = 1,
        s_axil_rdata: u64 = 32,
        s_axil_rresp: u64 = 2,
        s_axil_rvalid: u64 = 1,
        /// Wait port p satisfied this cycle (its side effect lands at the edge).
        wait_done_o: u64 = 4,
        /// Error conditions detected this cycle (ERR_STATUS bit positions).
        err_pulse_o: u64 = 5,
        /// ERR_STATUS (sticky).
        err_status_o: u64 = 5,
        /// All 256 events.
        evt_o: [u64; 4] = 256,
        /// Semaphore `dbg_idx_i`.
        dbg_sem_o: u64 = 32,
    }
}

/// Lane `k` of width `w` (≤ 32, dividing 64) of a packed vector stored in 64-bit words.
#[inline(always)]
pub fn lane(words: &[u64], k: usize, w: usize) -> u64 {
    let bit = k * w;
    (words[bit / 64] >> (bit % 64)) & ((1u64 << w) - 1)
}

/// Set lane `k` of width `w` (≤ 32, dividing 64) to `v`.
#[inline(always)]
pub fn set_lane(words: &mut [u64], k: usize, w: usize, v: u64) {
    let bit = k * w;
    let m = ((1u64 << w) - 1) << (bit % 64);
    words[bit / 64] = (words[bit / 64] & !m) | ((v << (bit % 64)) & m);
}

/// Width of an index lane.
pub const IDX_W: usize = 8;
/// Width of a value lane.
pub const VAL_W: usize = 32;
/// Width of a wait_mode lane.
pub const MODE_W: usize = 8;
/// Number of increment ports.
pub const NUM_INC: usize = EVT_SEM_NUM_INC as usize;
/// Number of wait ports.
pub const NUM_WAIT: usize = EVT_SEM_NUM_WAIT as usize;

impl EvtSemIn {
    /// Idle inputs (reset released, no traffic).
    pub fn idle() -> Self {
        Self {
            rst_ni: 1,
            ..Self::default()
        }
    }
    /// Drive increment port `p`.
    pub fn set_inc(&mut self, p: usize, idx: u8, value: i32) {
        self.inc_valid_i |= 1 << p;
        set_lane(&mut self.inc_idx_i, p, IDX_W, u64::from(idx));
        set_lane(&mut self.inc_value_i, p, VAL_W, u64::from(value as u32));
    }
    /// Drive wait port `p` with a raw wait_mode byte.
    /// (`p` taken modulo [`NUM_WAIT`]; the lanes' shifts and masks written
    /// out, equal to [`set_lane`]: this runs for every held wait every cycle.)
    #[inline]
    pub fn set_wait(&mut self, p: usize, mode: u8, idx: u8, value: i32) {
        let p = p % NUM_WAIT;
        self.wait_valid_i |= 1 << p;
        let s = MODE_W * p;
        self.wait_mode_i = (self.wait_mode_i & !(0xFF << s)) | (u64::from(mode) << s);
        let s = IDX_W * p;
        self.wait_idx_i = (self.wait_idx_i & !(0xFF << s)) | (u64::from(idx) << s);
        let (w, s) = (p / 2, VAL_W * (p % 2));
        self.wait_value_i[w] =
            (self.wait_value_i[w] & !(0xFFFF_FFFF << s)) | (u64::from(value as u32) << s);
    }
    /// Increment port `p`: (valid, index, value).
    #[inline(always)]
    pub fn inc(&self, p: usize) -> (bool, u8, i32) {
        (
            (self.inc_valid_i >> p) & 1 == 1,
            self.inc_idx(p),
            self.inc_value(p),
        )
    }
    /// Increment port `p`'s index (`p` taken modulo [`NUM_INC`]: the word
    /// index then needs no bounds check, as `p` comes from a bit scan).
    #[inline(always)]
    pub fn inc_idx(&self, p: usize) -> u8 {
        let p = p % NUM_INC;
        (self.inc_idx_i[p / 8] >> (8 * (p % 8))) as u8
    }
    /// Increment port `p`'s value (`p` taken modulo [`NUM_INC`]).
    #[inline(always)]
    pub fn inc_value(&self, p: usize) -> i32 {
        let p = p % NUM_INC;
        (self.inc_value_i[p / 2] >> (32 * (p % 2))) as u32 as i32
    }
    /// Every increment port's index, by port (equal to [`EvtSemIn::inc_idx`]).
    #[inline(always)]
    pub fn inc_idx_lanes(&self) -> [u8; NUM_INC] {
        let mut b = [0u8; NUM_INC];
        for (c, w) in b.chunks_exact_mut(8).zip(&self.inc_idx_i) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        b
    }
    /// Every increment port's value, by port (equal to [`EvtSemIn::inc_value`]).
    #[inline(always)]
    pub fn inc_value_lanes(&self) -> [i32; NUM_INC] {
        let mut v = [0i32; NUM_INC];
        for (c, &w) in v.chunks_exact_mut(2).zip(&self.inc_value_i) {
            c[0] = w as u32 as i32;
            c[1] = (w >> 32) as u32 as i32;
        }
        v
    }
    /// Wait port `p`: (valid, mode byte, index, value).
    #[inline(always)]
    pub fn wait(&self, p: usize) -> (bool, u8, u8, i32) {
        (
            (self.wait_valid_i >> p) & 1 == 1,
            lane(core::slice::from_ref(&self.wait_mode_i), p, MODE_W) as u8,
            lane(core::slice::from_ref(&self.wait_idx_i), p, IDX_W) as u8,
            lane(&self.wait_value_i, p, VAL_W) as u32 as i32,
        )
    }
}

impl EvtSemOut {
    /// Event `i` from `evt_o`.
    pub fn evt(&self, i: u8) -> bool {
        lane(&self.evt_o, usize::from(i), 1) == 1
    }
}
