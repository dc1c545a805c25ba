//! Golden model of `rtl/axi4_sram.sv`: an AXI4 SRAM slave, word-addressed
//! (one word = one beat of the core's data bus, [`clock::ENGINE_DATA_BITS`]),
//! Moore outputs, streaming back to back: the next AW and its first W beat
//! are taken in the cycle after a WLAST while that burst's B waits (a
//! two-entry response queue), the next AR while a read burst streams (one
//! held AR, whose first word the last R beat's handshake loads).
//!
//! The FSM ([`Sram`]) and the memory array are separate: the array is any
//! [`WordStore`] handed to [`Sram::update`] — a `Vec<u64>` of 64-bit lanes
//! ([`LANES`] per word) in the golden pair,
//! an adapter over the system model's lazily allocated SBUF / descriptor RAM
//! in the system model's cycle mode (`system::core`), so both execution modes
//! of the system read and write the same bytes.

use crate::clock;
use crate::udma::beat::{Beat, MAX_BB, ZERO};

/// Bytes of one memory word: one beat of the core's data bus.
pub const WORD_BYTES: u32 = clock::ENGINE_BEAT_BYTES;
/// 64-bit lanes of a word (the debug port's unit; `Lanes` of the RTL).
pub const LANES: u32 = WORD_BYTES / 8;
const _: () = assert!(WORD_BYTES as usize == MAX_BB, "a word is one full beat");

/// The memory array of an [`Sram`]: words of [`WORD_BYTES`] bytes (a
/// [`Beat`], byte `b` in lane `b / 8`), written under a byte strobe.
pub trait WordStore {
    /// Words of the array (`Words` of the RTL).
    fn words(&self) -> u32;
    /// Word `word` (`word < words()`).
    fn read(&self, word: u32) -> Beat;
    /// Byte `b` of word `word` becomes byte `b` of `data` where bit `b` of
    /// `strb` is set (`word < words()`).
    fn write(&mut self, word: u32, data: &Beat, strb: u64);
}

/// A word array kept as 64-bit lanes: word `w` is lanes `LANES w ..
/// LANES (w + 1)` (the layout the debug port addresses).
impl WordStore for Vec<u64> {
    #[inline(always)]
    fn words(&self) -> u32 {
        (self.len() / LANES as usize) as u32
    }
    #[inline(always)]
    fn read(&self, word: u32) -> Beat {
        let at = word as usize * LANES as usize;
        let mut b = ZERO;
        b.copy_from_slice(&self[at..at + LANES as usize]);
        b
    }
    #[inline(always)]
    fn write(&mut self, word: u32, data: &Beat, strb: u64) {
        let at = word as usize * LANES as usize;
        for (k, (w, d)) in self[at..at + LANES as usize]
            .iter_mut()
            .zip(data)
            .enumerate()
        {
            let mask = strb_mask(strb >> (8 * k));
            *w = (*w & !mask) | (d & mask);
        }
    }
}

/// Strobe of every byte of a word.
pub const STRB_ALL: u64 = (1u64 << WORD_BYTES) - 1;

/// Write FSM states: `wr_st_e` of `rtl/axi4_sram.sv`, same names and encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum WrState {
    /// Idle: AWREADY high (W only with its AW).
    #[default]
    WrIdle = 0,
    /// Write data beats.
    WrData = 1,
}

/// Read FSM states: `rd_st_e` of `rtl/axi4_sram.sv`, same names and encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum RdState {
    /// Idle: ARREADY high.
    #[default]
    RdIdle = 0,
    /// Load the first word.
    RdLoad = 1,
    /// Data beats.
    RdData = 2,
}

/// Outputs of the SRAM (function of the state and `stall_i`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SramOut {
    pub awready: bool,
    pub wready: bool,
    pub bresp: u64,
    pub bvalid: bool,
    pub arready: bool,
    pub rdata: Beat,
    pub rresp: u64,
    pub rlast: bool,
    pub rvalid: bool,
    pub dbg_rdata: u64,
}

/// Inputs of the SRAM from the interconnect and the debug port.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SramIn {
    pub awaddr: u32,
    pub awvalid: bool,
    pub wdata: Beat,
    /// Byte strobe (bit `b` = byte `b` of the word).
    pub wstrb: u64,
    pub wlast: bool,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u32,
    pub arlen: u32,
    pub arvalid: bool,
    pub rready: bool,
    pub dbg_we: bool,
    /// Debug address in 64-bit lanes (lane `dbg_addr % LANES` of word
    /// `dbg_addr / LANES`).
    pub dbg_addr: u32,
    pub dbg_wdata: u64,
}

/// The SRAM's state registers (the array is a [`WordStore`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sram {
    /// Words of the array (`Words`).
    pub words: u32,
    pub wr_st: WrState,
    pub wr_addr: u32,
    pub wr_err: bool,
    /// Response queue: B responses owed (0..=2) and their errors (head at 0).
    pub b_cnt: u8,
    pub b_err: [bool; 2],
    pub rd_st: RdState,
    pub rd_addr: u32,
    pub rd_left: u32,
    pub rd_data: Beat,
    pub rd_err: bool,
    /// RD_LOAD / RD_DATA: the next burst's AR is held (address, length).
    pub rd_nxt: bool,
    pub rd_nxt_addr: u32,
    pub rd_nxt_len: u32,
    pub dbg: u64,
    /// Mask of the debug port's lane index (`words × LANES` rounded up to a
    /// power of two, minus one; fixed by `words`).
    dbg_mask: u32,
}

/// Byte-lane mask of an 8-bit strobe (bits above 7 are ignored): byte `b`
/// of the mask is 0xFF where strobe bit `b` is set (`STRB_MASKS`).
#[inline(always)]
pub fn strb_mask(strb: u64) -> u64 {
    STRB_MASKS[(strb & 0xFF) as usize]
}

/// [`strb_mask`] of every 8-bit strobe, built by the per-lane loop.
const STRB_MASKS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut s = 0;
    while s < 256 {
        t[s] = strb_mask_loop(s as u64);
        s += 1;
    }
    t
};

/// Byte-lane mask of an 8-bit strobe, one lane at a time (the plain form
/// of [`STRB_MASKS`]).
const fn strb_mask_loop(strb: u64) -> u64 {
    let mut m = 0u64;
    let mut b = 0;
    while b < 8 {
        if strb >> b & 1 == 1 {
            m |= 0xff << (8 * b);
        }
        b += 1;
    }
    m
}

impl Sram {
    /// The FSM of an array of `words` words (a power of two in the
    /// RTL's `Words`; the system model's SBUF adapter may hold any count).
    pub fn new(words: usize) -> Self {
        Self {
            words: words as u32,
            wr_st: WrState::WrIdle,
            wr_addr: 0,
            wr_err: false,
            b_cnt: 0,
            b_err: [false; 2],
            rd_st: RdState::RdIdle,
            rd_addr: 0,
            rd_left: 0,
            rd_data: ZERO,
            rd_err: false,
            rd_nxt: false,
            rd_nxt_addr: 0,
            rd_nxt_len: 0,
            dbg: 0,
            dbg_mask: (words as u32 * LANES).next_power_of_two() - 1,
        }
    }

    fn reset(&mut self) {
        self.wr_st = WrState::WrIdle;
        self.wr_addr = 0;
        self.wr_err = false;
        self.b_cnt = 0;
        self.b_err = [false; 2];
        self.rd_st = RdState::RdIdle;
        self.rd_addr = 0;
        self.rd_left = 0;
        self.rd_data = ZERO;
        self.rd_err = false;
        self.rd_nxt = false;
        self.rd_nxt_addr = 0;
        self.rd_nxt_len = 0;
        self.dbg = 0;
    }

    fn words(&self) -> u32 {
        self.words
    }

    /// Both FSMs idle (no burst open).
    pub fn idle(&self) -> bool {
        self.wr_st == WrState::WrIdle && self.rd_st == RdState::RdIdle && self.b_cnt == 0
    }

    /// Outputs from the registered state (the reset state while `rst`).
    #[inline]
    pub fn outputs(&self, rst: bool, stall: bool) -> SramOut {
        if rst {
            return Self::new(self.words as usize).outputs(false, stall);
        }
        let (wr_st, rd_st, rd_err, rd_left, rd_data, dbg) = (
            self.wr_st,
            self.rd_st,
            self.rd_err,
            self.rd_left,
            self.rd_data,
            self.dbg,
        );
        SramOut {
            awready: wr_st == WrState::WrIdle && self.b_cnt != 2 && !stall,
            wready: self.b_cnt != 2 && !stall,
            bvalid: self.b_cnt != 0 && !stall,
            bresp: if self.b_err[0] { 2 } else { 0 },
            arready: !self.rd_nxt && !stall,
            rvalid: rd_st == RdState::RdData && !stall,
            rdata: rd_data,
            rresp: if rd_err { 2 } else { 0 },
            rlast: rd_st == RdState::RdData && rd_left == 0,
            dbg_rdata: dbg,
        }
    }

    fn load(&mut self, mem: &impl WordStore) {
        let ok = self.rd_addr < self.words();
        self.rd_data = if ok { mem.read(self.rd_addr) } else { ZERO };
        self.rd_err = !ok;
        self.rd_addr = self.rd_addr.wrapping_add(1);
    }

    /// Clock edge with this cycle's inputs and outputs `o`; `mem` is the array.
    #[inline]
    pub fn update(&mut self, rst: bool, i: &SramIn, o: &SramOut, mem: &mut impl WordStore) {
        // Debug port lane index: `dbg_addr & (Words × LANES - 1)` (an index
        // past a non-power-of-two array reads 0 and drops the write).
        let dbg_at = i.dbg_addr & self.dbg_mask;
        let dbg_ok = dbg_at < self.words() * LANES;
        let (dbg_word, dbg_lane) = (dbg_at / LANES, (dbg_at % LANES) as usize);
        // Both FSMs idle, no B owed and neither address handshakes: no write
        // beat (W is taken in WR_IDLE only with its AW), no load, no state
        // change; only the debug port acts (the RTL lockstep checks this
        // shortcut).
        let quiet = self.wr_st == WrState::WrIdle
            && self.rd_st == RdState::RdIdle
            && self.b_cnt == 0
            && !(o.awready && i.awvalid)
            && !(o.arready && i.arvalid);
        if rst {
            self.reset();
        } else if quiet {
            self.dbg = if i.dbg_we {
                i.dbg_wdata
            } else if dbg_ok {
                mem.read(dbg_word)[dbg_lane]
            } else {
                0
            };
        } else {
            let write_at = self.write_edge(i, o);
            self.dbg = if i.dbg_we {
                i.dbg_wdata
            } else if dbg_ok {
                mem.read(dbg_word)[dbg_lane]
            } else {
                0
            };
            self.read_edge(i, o, mem);
            if let Some(a) = write_at {
                mem.write(a, &i.wdata, i.wstrb);
            }
        }
        // The memory array has no reset; the debug write wins over an AXI write.
        if i.dbg_we && dbg_ok {
            let mut d = ZERO;
            d[dbg_lane] = i.dbg_wdata;
            mem.write(dbg_word, &d, 0xFF << (8 * dbg_lane));
        }
    }

    /// The write FSM's clock edge: an AW opens a burst (its first W beat may
    /// go with it), WLAST closes it and appends its B to the response queue,
    /// whose head the B handshake pops. Returns the word this edge writes.
    #[inline(always)]
    fn write_edge(&mut self, i: &SramIn, o: &SramOut) -> Option<u32> {
        let aw_hs = o.awready && i.awvalid;
        let data = self.wr_st == WrState::WrData;
        let w_take = o.wready && i.wvalid && (data || aw_hs);
        let at = if data { self.wr_addr } else { i.awaddr };
        let ok = at < self.words();
        let err = data && self.wr_err;
        let mut done = false;
        if aw_hs {
            self.wr_st = WrState::WrData;
            self.wr_addr = i.awaddr;
            self.wr_err = false;
        }
        if w_take {
            self.wr_addr = at.wrapping_add(1);
            self.wr_err = err || !ok;
            if i.wlast {
                self.wr_st = WrState::WrIdle;
                done = true;
            }
        }
        if o.bvalid && i.bready {
            self.b_cnt -= 1;
            self.b_err = [self.b_err[1], false];
        }
        if done {
            self.b_err[usize::from(self.b_cnt & 1)] = err || !ok;
            self.b_cnt += 1;
        }
        (w_take && ok).then_some(at)
    }

    /// The read FSM's clock edge: an AR taken while a burst is open is held;
    /// the last beat's handshake loads the held burst's first word.
    #[inline(always)]
    fn read_edge(&mut self, i: &SramIn, o: &SramOut, mem: &impl WordStore) {
        let ar_hs = o.arready && i.arvalid;
        if ar_hs && self.rd_st != RdState::RdIdle {
            self.rd_nxt = true;
            self.rd_nxt_addr = i.araddr;
            self.rd_nxt_len = i.arlen;
        }
        match self.rd_st {
            RdState::RdIdle => {
                if ar_hs {
                    self.rd_st = RdState::RdLoad;
                    self.rd_addr = i.araddr;
                    self.rd_left = i.arlen;
                }
            }
            RdState::RdLoad => {
                self.rd_st = RdState::RdData;
                self.load(mem);
            }
            _ => {
                if o.rvalid && i.rready {
                    if self.rd_left == 0 {
                        if self.rd_nxt {
                            // the next burst's first word, registered
                            // like RD_LOAD's (the held AR, or the one
                            // taken this cycle)
                            self.rd_nxt = false;
                            self.rd_left = self.rd_nxt_len;
                            self.rd_addr = self.rd_nxt_addr;
                            self.load(mem);
                        } else {
                            self.rd_st = RdState::RdIdle;
                        }
                    } else {
                        self.rd_left -= 1;
                        self.load(mem);
                    }
                }
            }
        }
    }
}
