//! Golden model of `rtl/sb2sb_q7_port.sv`: the Q7 AXI4-Lite port of a core,
//! demultiplexed onto the UDMA and EVT_SEM CSR ports and a single-beat
//! memory store master into the interconnect. Outputs depend on the
//! registered state only.

const Q_IDLE: u8 = 0;
const Q_WAIT_W: u8 = 1;
const Q_WAIT_AW: u8 = 2;
const Q_W_FWD: u8 = 3;
const Q_W_RESP: u8 = 4;
const Q_BACK: u8 = 5;
const Q_R_FWD: u8 = 6;
const Q_R_RESP: u8 = 7;
const Q_R_BACK: u8 = 8;

/// The Q7's AXI4-Lite master outputs (pair inputs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilIn {
    pub awaddr: u64,
    pub awvalid: bool,
    pub wdata: u64,
    pub wstrb: u64,
    pub wvalid: bool,
    pub bready: bool,
    pub araddr: u64,
    pub arvalid: bool,
    pub rready: bool,
}

/// The slave side's outputs (towards the Q7), also the CSR targets' outputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxilOut {
    pub awready: bool,
    pub wready: bool,
    pub bresp: u64,
    pub bvalid: bool,
    pub arready: bool,
    pub rdata: u64,
    pub rresp: u64,
    pub rvalid: bool,
}

/// Drive of the CSR targets (shared address/data, per-target valids).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CsrDrive {
    pub awaddr: u64,
    pub araddr: u64,
    pub wdata: u64,
    pub wstrb: u64,
    /// Target index whose valid/ready lines are driven (`None`: none).
    pub tgt: Option<usize>,
    pub awvalid: bool,
    pub wvalid: bool,
    pub bready: bool,
    pub arvalid: bool,
    pub rready: bool,
}

/// Drive of the memory store master.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemDrive {
    pub awaddr: u64,
    pub awvalid: bool,
    pub wdata: u64,
    pub wstrb: u64,
    pub wvalid: bool,
    pub bready: bool,
}

/// Responses of the interconnect to the memory store master.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemResp {
    pub awready: bool,
    pub wready: bool,
    pub bresp: u64,
    pub bvalid: bool,
}

/// The port registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q7Port {
    pub engines: usize,
    pub self_die: u64,
    pub core_idx: u64,
    st: u8,
    pref: bool,
    addr: u32,
    data: u32,
    strb: u32,
    awp: bool,
    wp: bool,
    resp: u64,
}

impl Q7Port {
    pub fn new(engines: usize, self_die: u64, core_idx: u64) -> Self {
        Self {
            engines,
            self_die,
            core_idx,
            st: Q_IDLE,
            pref: false,
            addr: 0,
            data: 0,
            strb: 0,
            awp: false,
            wp: false,
            resp: 0,
        }
    }

    fn reset(&mut self) {
        *self = Self::new(self.engines, self.self_die, self.core_idx);
    }

    fn t_mem(&self) -> usize {
        self.engines + 1
    }

    fn t_err(&self) -> usize {
        self.engines + 2
    }

    /// Target of the captured address (0..engines: UDMA, engines: EVT_SEM,
    /// engines+1: memory, engines+2: error).
    fn tgt(&self) -> usize {
        let a = self.addr;
        let n = self.engines as u32;
        if (0x1000_0000..0x1000_2000).contains(&a) {
            self.engines
        } else if a >= 0x1100_0000 && a < 0x1100_0000 + n * 0x4_0000 {
            ((a - 0x1100_0000) >> 18) as usize
        } else if a < 0x1000_0000 || (0x1200_0000..0x1600_0000).contains(&a) {
            self.t_mem()
        } else {
            self.t_err()
        }
    }

    /// Outputs: towards the Q7, the CSR targets, the memory master, debug.
    #[inline]
    pub fn outputs(&self, rst: bool) -> (AxilOut, CsrDrive, MemDrive, u64) {
        let s = if rst {
            Self::new(self.engines, self.self_die, self.core_idx)
        } else {
            *self
        };
        let idle = s.st == Q_IDLE;
        let o = AxilOut {
            awready: (idle && !s.pref) || s.st == Q_WAIT_AW,
            wready: (idle && !s.pref) || s.st == Q_WAIT_W,
            arready: idle && s.pref,
            bvalid: s.st == Q_BACK,
            bresp: s.resp,
            rvalid: s.st == Q_R_BACK,
            rdata: u64::from(s.data),
            rresp: s.resp,
        };
        let tgt = s.tgt();
        let fwd = s.st == Q_W_FWD;
        let mut c = CsrDrive {
            awaddr: u64::from(s.addr & 0x3FFFF),
            araddr: u64::from(s.addr & 0x3FFFF),
            wdata: u64::from(s.data),
            wstrb: u64::from(s.strb),
            ..Default::default()
        };
        let mut m = MemDrive {
            awaddr: s.self_die << 47 | s.core_idx << 32 | u64::from(s.addr),
            wdata: u64::from(s.data) << 32 | u64::from(s.data),
            wstrb: if s.addr & 4 != 0 {
                u64::from(s.strb) << 4
            } else {
                u64::from(s.strb)
            },
            ..Default::default()
        };
        if tgt <= self.engines {
            c.tgt = Some(tgt);
            c.awvalid = fwd && s.awp;
            c.wvalid = fwd && s.wp;
            c.bready = s.st == Q_W_RESP;
            c.arvalid = s.st == Q_R_FWD;
            c.rready = s.st == Q_R_RESP;
        } else if tgt == s.t_mem() {
            m.awvalid = fwd && s.awp;
            m.wvalid = fwd && s.wp;
            m.bready = s.st == Q_W_RESP;
        }
        let dbg = ((tgt as u64) << 4 | u64::from(s.st)) & 0xFF;
        (o, c, m, dbg)
    }

    /// Clock edge. `t` holds the CSR targets' outputs (UDMA engines, then EVT_SEM).
    #[inline]
    pub fn update(&mut self, rst: bool, i: &AxilIn, t: &[AxilOut], mem: &MemResp) {
        if rst {
            self.reset();
            return;
        }
        let tgt = self.tgt();
        match self.st {
            Q_IDLE => {
                let pref = self.pref;
                self.pref = !pref;
                if !pref && (i.awvalid || i.wvalid) {
                    if i.awvalid {
                        self.addr = i.awaddr as u32;
                    }
                    if i.wvalid {
                        self.data = i.wdata as u32;
                        self.strb = (i.wstrb & 0xF) as u32;
                    }
                    self.awp = true;
                    self.wp = true;
                    self.st = if !i.wvalid {
                        Q_WAIT_W
                    } else if !i.awvalid {
                        Q_WAIT_AW
                    } else {
                        Q_W_FWD
                    };
                } else if pref && i.arvalid {
                    self.addr = i.araddr as u32;
                    self.st = Q_R_FWD;
                }
            }
            Q_WAIT_W => {
                if i.wvalid {
                    self.data = i.wdata as u32;
                    self.strb = (i.wstrb & 0xF) as u32;
                    self.st = Q_W_FWD;
                }
            }
            Q_WAIT_AW => {
                if i.awvalid {
                    self.addr = i.awaddr as u32;
                    self.st = Q_W_FWD;
                }
            }
            Q_W_FWD => {
                if tgt == self.t_err() {
                    self.resp = 2;
                    self.st = Q_BACK;
                } else {
                    let (awr, wr) = if tgt == self.t_mem() {
                        (mem.awready, mem.wready)
                    } else {
                        (t[tgt].awready, t[tgt].wready)
                    };
                    let done = (!self.awp || awr) && (!self.wp || wr);
                    if awr {
                        self.awp = false;
                    }
                    if wr {
                        self.wp = false;
                    }
                    if done {
                        self.st = Q_W_RESP;
                    }
                }
            }
            Q_W_RESP => {
                let (v, r) = if tgt == self.t_mem() {
                    (mem.bvalid, mem.bresp)
                } else {
                    (t[tgt].bvalid, t[tgt].bresp)
                };
                if v {
                    self.resp = r;
                    self.st = Q_BACK;
                }
            }
            Q_BACK => {
                if i.bready {
                    self.st = Q_IDLE;
                }
            }
            Q_R_FWD => {
                if tgt >= self.t_mem() {
                    self.resp = 2;
                    self.data = 0;
                    self.st = Q_R_BACK;
                } else if t[tgt].arready {
                    self.st = Q_R_RESP;
                }
            }
            Q_R_RESP => {
                if t[tgt].rvalid {
                    self.resp = t[tgt].rresp;
                    self.data = t[tgt].rdata as u32;
                    self.st = Q_R_BACK;
                }
            }
            _ => {
                if i.rready {
                    self.st = Q_IDLE;
                }
            }
        }
    }
}
