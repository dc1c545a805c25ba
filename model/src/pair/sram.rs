//! Golden model of `rtl/axi4_sram.sv`: an AXI4 SRAM slave with one write and
//! one read burst in flight, word-addressed, Moore outputs.

/// Write FSM state (`wr_st_e`).
pub const WR_IDLE: u8 = 0;
/// Write data beats.
pub const WR_DATA: u8 = 1;
/// Write response.
pub const WR_RESP: u8 = 2;
/// Read FSM: idle.
pub const RD_IDLE: u8 = 0;
/// Read FSM: load the first word.
pub const RD_LOAD: u8 = 1;
/// Read FSM: data beats.
pub const RD_DATA: u8 = 2;

/// Outputs of the SRAM (function of the state and `stall_i`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SramOut {
    pub awready: bool,
    pub wready: bool,
    pub bresp: u64,
    pub bvalid: bool,
    pub arready: bool,
    pub rdata: u64,
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
    pub wdata: u64,
    pub wstrb: u64,
    pub wlast: bool,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u32,
    pub arlen: u32,
    pub arvalid: bool,
    pub rready: bool,
    pub dbg_we: bool,
    pub dbg_addr: u32,
    pub dbg_wdata: u64,
}

/// The SRAM: state registers and the memory array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sram {
    pub mem: Vec<u64>,
    pub wr_st: u8,
    pub wr_addr: u32,
    pub wr_err: bool,
    pub rd_st: u8,
    pub rd_addr: u32,
    pub rd_left: u32,
    pub rd_data: u64,
    pub rd_err: bool,
    pub dbg: u64,
}

/// Byte-lane mask of an 8-bit strobe.
#[inline(always)]
pub fn strb_mask(strb: u64) -> u64 {
    let mut m = 0u64;
    for b in 0..8 {
        if strb >> b & 1 == 1 {
            m |= 0xff << (8 * b);
        }
    }
    m
}

impl Sram {
    /// `words` 64-bit words (a power of two, like the RTL's `Words`).
    pub fn new(words: usize) -> Self {
        Self {
            mem: vec![0; words],
            wr_st: WR_IDLE,
            wr_addr: 0,
            wr_err: false,
            rd_st: RD_IDLE,
            rd_addr: 0,
            rd_left: 0,
            rd_data: 0,
            rd_err: false,
            dbg: 0,
        }
    }

    fn reset(&mut self) {
        self.wr_st = WR_IDLE;
        self.wr_addr = 0;
        self.wr_err = false;
        self.rd_st = RD_IDLE;
        self.rd_addr = 0;
        self.rd_left = 0;
        self.rd_data = 0;
        self.rd_err = false;
        self.dbg = 0;
    }

    fn words(&self) -> u32 {
        self.mem.len() as u32
    }

    /// Outputs from the registered state (the reset state while `rst`).
    #[inline]
    pub fn outputs(&self, rst: bool, stall: bool) -> SramOut {
        let (wr_st, rd_st, wr_err, rd_err, rd_left, rd_data, dbg) = if rst {
            (WR_IDLE, RD_IDLE, false, false, 0, 0, 0)
        } else {
            (
                self.wr_st,
                self.rd_st,
                self.wr_err,
                self.rd_err,
                self.rd_left,
                self.rd_data,
                self.dbg,
            )
        };
        SramOut {
            awready: wr_st == WR_IDLE && !stall,
            wready: wr_st == WR_DATA && !stall,
            bvalid: wr_st == WR_RESP && !stall,
            bresp: if wr_err { 2 } else { 0 },
            arready: rd_st == RD_IDLE && !stall,
            rvalid: rd_st == RD_DATA && !stall,
            rdata: rd_data,
            rresp: if rd_err { 2 } else { 0 },
            rlast: rd_st == RD_DATA && rd_left == 0,
            dbg_rdata: dbg,
        }
    }

    fn load(&mut self) {
        let ok = self.rd_addr < self.words();
        self.rd_data = if ok {
            self.mem[self.rd_addr as usize]
        } else {
            0
        };
        self.rd_err = !ok;
        self.rd_addr = self.rd_addr.wrapping_add(1);
    }

    /// Clock edge with this cycle's inputs and outputs `o`.
    #[inline]
    pub fn update(&mut self, rst: bool, i: &SramIn, o: &SramOut) {
        let mask = self.words() - 1;
        if rst {
            self.reset();
        } else {
            let w_hs = o.wready && i.wvalid;
            let wr_ok = self.wr_addr < self.words();
            // Reads below see the memory before this edge's writes.
            let write_at = (w_hs && wr_ok).then_some(self.wr_addr as usize);
            self.dbg = if i.dbg_we {
                i.dbg_wdata
            } else {
                self.mem[(i.dbg_addr & mask) as usize]
            };
            match self.wr_st {
                WR_IDLE => {
                    if o.awready && i.awvalid {
                        self.wr_st = WR_DATA;
                        self.wr_addr = i.awaddr;
                        self.wr_err = false;
                    }
                }
                WR_DATA => {
                    if w_hs {
                        self.wr_addr = self.wr_addr.wrapping_add(1);
                        self.wr_err |= !wr_ok;
                        if i.wlast {
                            self.wr_st = WR_RESP;
                        }
                    }
                }
                _ => {
                    if o.bvalid && i.bready {
                        self.wr_st = WR_IDLE;
                    }
                }
            }
            match self.rd_st {
                RD_IDLE => {
                    if o.arready && i.arvalid {
                        self.rd_st = RD_LOAD;
                        self.rd_addr = i.araddr;
                        self.rd_left = i.arlen;
                    }
                }
                RD_LOAD => {
                    self.rd_st = RD_DATA;
                    self.load();
                }
                _ => {
                    if o.rvalid && i.rready {
                        if self.rd_left == 0 {
                            self.rd_st = RD_IDLE;
                        } else {
                            self.rd_left -= 1;
                            self.load();
                        }
                    }
                }
            }
            if let Some(a) = write_at {
                let m = strb_mask(i.wstrb);
                let w = &mut self.mem[a];
                *w = (*w & !m) | (i.wdata & m);
            }
        }
        // The memory array has no reset; the debug write wins over an AXI write.
        if i.dbg_we {
            self.mem[(i.dbg_addr & mask) as usize] = i.dbg_wdata;
        }
    }
}
