//! AXI4 slave memory model serving the engine's `m_axi_*` master port in the
//! testbench: seeded ready/valid gaps and latency, SLVERR in a poisoned
//! window, DECERR above the memory. Up to `rd_depth` read bursts and
//! `wr_depth` write bursts are outstanding at a time (in order, one ID); each
//! read burst's first beat comes `rd_lat` plus 0..=`max_lat` cycles after its
//! AR, the bursts' latencies overlapping; a write burst's B comes `b_lat`
//! plus 0..=`max_lat` cycles after its last W beat is committed.

use std::collections::VecDeque;

use super::beat::{from_bytes, keep_at, to_bytes, Beat, MAX_BB, ZERO};
use super::engine::PinsOut;
use super::regs::{AXI_RESP_DECERR, AXI_RESP_OKAY, AXI_RESP_SLVERR};
use crate::stim::StimRng;

/// Channel stalls seen by the memory (coverage).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemCov {
    /// AR valid while the memory held AR ready low.
    pub bp_ar: u64,
    /// Cycles a read burst waited for its next R beat.
    pub bp_r: u64,
    pub bp_aw: u64,
    pub bp_w: u64,
    /// Cycles a finished write waited for its B response.
    pub bp_b: u64,
    pub slverr: u64,
    pub decerr: u64,
    /// Write bursts of more than one beat accepted at or above `burst_lo`.
    pub aw_bursts: u64,
}

#[derive(Debug, Clone, Copy)]
struct Burst {
    addr: u64,
    len: u32,
    cnt: u32,
    /// Cycle from which its beats may be returned.
    ready_at: u64,
}

/// The ready/valid bits the memory drove in the last cycle.
#[derive(Debug, Clone, Copy)]
struct Handshake {
    arready: bool,
    rvalid: bool,
    awready: bool,
    wready: bool,
    bvalid: bool,
}

/// Signals the memory drives (the `m_axi_*` inputs of the engine).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemDrive {
    pub arready: bool,
    pub rvalid: bool,
    pub rdata: Beat,
    pub rresp: u32,
    pub rlast: bool,
    pub awready: bool,
    pub wready: bool,
    pub bvalid: bool,
    pub bresp: u32,
}

/// The AXI4 memory.
#[derive(Debug)]
pub struct AxiMem {
    pub data: Vec<u8>,
    /// Bytes per data beat (the port's `DataWidth / 8`).
    pub bb: u64,
    /// `[lo, hi)` answers SLVERR (reads return 0, writes are dropped).
    pub slverr: (u64, u64),
    rng: StimRng,
    /// Ready/valid probability in percent.
    pub p_ready: u32,
    /// Maximum random first-beat / B latency in cycles.
    pub max_lat: u32,
    /// Fixed read latency: cycles from the AR handshake to the first beat at
    /// the earliest (0 = the cycle after).
    pub rd_lat: u32,
    /// Fixed B latency: cycles from a write burst's commit to its B at the
    /// earliest (0 = the cycle after; a remote write's link round trip).
    pub b_lat: u32,
    /// Read bursts accepted and not yet fully returned, at most.
    pub rd_depth: usize,
    /// Write bursts accepted (AW) and not yet answered (B taken), at most.
    pub wr_depth: usize,
    now: u64,
    rd: VecDeque<Burst>,
    aw: VecDeque<(u64, u32)>,
    /// W beats (data, strobe, WLAST) not yet committed.
    wq: VecDeque<(Beat, u64, bool)>,
    /// Complete W bursts (WLAST taken) in `wq`.
    wlasts: usize,
    /// B responses of committed writes: (response, cycle it may be given).
    bq: VecDeque<(u32, u64)>,
    pub drive: MemDrive,
    pub cov: MemCov,
    /// Lowest address counted in `cov.aw_bursts` (the testbench's data area).
    pub burst_lo: u64,
}

/// `dst.copy_from_slice(src)` for the bytes of one beat: the beat sizes of
/// the UDMA widths as copies of a constant length (a length known only at
/// run time is a call to `memcpy`, for 4 to 16 bytes, on most beats).
#[inline(always)]
fn copy_beat_bytes(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len(), "beat byte counts differ");
    match src.len() {
        4 => dst[..4].copy_from_slice(&src[..4]),
        8 => dst[..8].copy_from_slice(&src[..8]),
        16 => dst[..16].copy_from_slice(&src[..16]),
        _ => dst.copy_from_slice(src),
    }
}

/// Bytes per chunk of [`clone_image`]: a page.
const CLONE_CHUNK: usize = 4096;

/// A copy of the memory image `src` that leaves its all-zero pages untouched
/// in a zeroed allocation (the OS maps those lazily). The lockstep copies an
/// environment before cycle 0, when its 4.4 MB image is still all zeros:
/// a plain copy wrote every page of the copy (a page fault and a page clear
/// each), ≈ 2.8 ms of a 2 000-cycle udma run.
fn clone_image(src: &[u8]) -> Vec<u8> {
    let mut v = vec![0u8; src.len()];
    for (d, s) in v.chunks_mut(CLONE_CHUNK).zip(src.chunks(CLONE_CHUNK)) {
        // A fold, not `any`: no early exit, so it compiles to vector ORs.
        if s.iter().fold(0u8, |a, &b| a | b) != 0 {
            d.copy_from_slice(s);
        }
    }
    v
}

impl Clone for AxiMem {
    fn clone(&self) -> Self {
        Self {
            data: clone_image(&self.data),
            bb: self.bb,
            slverr: self.slverr,
            rng: self.rng.clone(),
            p_ready: self.p_ready,
            max_lat: self.max_lat,
            rd_lat: self.rd_lat,
            b_lat: self.b_lat,
            rd_depth: self.rd_depth,
            wr_depth: self.wr_depth,
            now: self.now,
            rd: self.rd.clone(),
            aw: self.aw.clone(),
            wq: self.wq.clone(),
            wlasts: self.wlasts,
            bq: self.bq.clone(),
            drive: self.drive,
            cov: self.cov,
            burst_lo: self.burst_lo,
        }
    }
}

impl AxiMem {
    /// Memory of `size` bytes (zeroed) on a port of `bb` bytes per beat.
    pub fn new(size: usize, bb: u64, slverr: (u64, u64), rng: StimRng) -> Self {
        Self {
            data: vec![0; size],
            bb,
            slverr,
            rng,
            p_ready: 70,
            max_lat: 4,
            rd_lat: 0,
            b_lat: 0,
            rd_depth: 4,
            wr_depth: 4,
            now: 0,
            rd: VecDeque::with_capacity(16),
            aw: VecDeque::with_capacity(16),
            wq: VecDeque::with_capacity(256),
            wlasts: 0,
            bq: VecDeque::with_capacity(16),
            drive: MemDrive::default(),
            cov: MemCov::default(),
            burst_lo: 0,
        }
    }

    /// Response for a beat at `addr`.
    pub fn resp(&self, addr: u64) -> u32 {
        if addr.saturating_add(self.bb) > self.data.len() as u64 {
            AXI_RESP_DECERR
        } else if addr >= self.slverr.0 && addr < self.slverr.1 {
            AXI_RESP_SLVERR
        } else {
            AXI_RESP_OKAY
        }
    }

    fn read_beat(&self, addr: u64) -> Beat {
        if self.resp(addr) == AXI_RESP_OKAY {
            let (a, n) = (addr as usize, self.bb as usize);
            // `from_bytes(&self.data[a..a + n])`, the bytes zero-padded
            // first so that `from_bytes` sees a constant length.
            let n = n.min(MAX_BB);
            let mut full = [0u8; MAX_BB];
            copy_beat_bytes(&mut full[..n], &self.data[a..a + n]);
            from_bytes(&full)
        } else {
            ZERO
        }
    }

    fn chance(&mut self) -> bool {
        self.rng.chance(self.p_ready, 100)
    }

    /// Advance one cycle: consume the handshakes of the previous cycle (`o`
    /// are the engine outputs sampled then), then choose this cycle's drive.
    pub fn step(&mut self, o: Option<&PinsOut>) {
        self.now += 1;
        // The handshake bits of the last cycle (not a copy of the data beat).
        let prev = Handshake {
            arready: self.drive.arready,
            rvalid: self.drive.rvalid,
            awready: self.drive.awready,
            wready: self.drive.wready,
            bvalid: self.drive.bvalid,
        };
        if let Some(o) = o {
            self.take_reads(o, &prev);
            self.take_writes(o, &prev);
        }
        self.commit_write();
        self.drive_read();
        self.drive_write();
    }

    /// AR and R handshakes of the last cycle: a burst accepted (with its
    /// latency), a beat taken.
    #[inline(always)]
    fn take_reads(&mut self, o: &PinsOut, prev: &Handshake) {
        if o.m_axi_arvalid != 0 {
            if prev.arready {
                let lat = self.rd_lat as u64 + self.rng.below(self.max_lat as u64 + 1);
                self.rd.push_back(Burst {
                    addr: o.m_axi_araddr & !(self.bb - 1),
                    len: o.m_axi_arlen as u32,
                    cnt: 0,
                    ready_at: self.now + lat,
                });
            } else {
                self.cov.bp_ar += 1;
            }
        }
        if prev.rvalid && o.m_axi_rready != 0 {
            if let Some(b) = self.rd.front_mut() {
                b.cnt += 1;
                if b.cnt > b.len {
                    self.rd.pop_front();
                }
            }
            self.drive.rvalid = false;
        }
    }

    /// AW, W and B handshakes of the last cycle.
    #[inline(always)]
    fn take_writes(&mut self, o: &PinsOut, prev: &Handshake) {
        if o.m_axi_awvalid != 0 {
            if prev.awready {
                self.aw
                    .push_back((o.m_axi_awaddr & !(self.bb - 1), o.m_axi_awlen as u32));
                self.cov.aw_bursts += (o.m_axi_awlen > 0 && o.m_axi_awaddr >= self.burst_lo) as u64;
            } else {
                self.cov.bp_aw += 1;
            }
        }
        if o.m_axi_wvalid != 0 {
            if prev.wready {
                let last = o.m_axi_wlast != 0;
                self.wq.push_back((o.m_axi_wdata, o.m_axi_wstrb, last));
                self.wlasts += last as usize;
            } else {
                self.cov.bp_w += 1;
            }
        }
        if prev.bvalid && o.m_axi_bready != 0 {
            self.drive.bvalid = false;
        }
    }

    /// Commit a write once its address and last data beat are in; its B
    /// (the worst response of its beats) may be given after a random latency.
    #[inline(always)]
    fn commit_write(&mut self) {
        if self.wlasts == 0 {
            return;
        }
        let Some((addr, len)) = self.aw.pop_front() else {
            return;
        };
        let mut worst = AXI_RESP_OKAY;
        let mut k = 0u64;
        while let Some((d, strb, last)) = self.wq.pop_front() {
            if k <= u64::from(len) {
                let a = addr.wrapping_add(k * self.bb);
                let r = self.resp(a);
                worst = worst.max(r);
                if r == AXI_RESP_OKAY {
                    self.write_beat(a, &d, strb);
                }
            }
            k += 1;
            if last {
                break;
            }
        }
        self.wlasts -= 1;
        self.count_err(worst);
        let lat = self.b_lat as u64 + self.rng.below(self.max_lat as u64 + 1);
        self.bq.push_back((worst, self.now + lat));
    }

    /// This cycle's AR ready and R beat.
    #[inline(always)]
    fn drive_read(&mut self) {
        self.drive.arready = self.rd.len() < self.rd_depth && self.chance();
        if !self.drive.rvalid {
            if let Some(&b) = self.rd.front() {
                if b.ready_at > self.now {
                    self.cov.bp_r += 1;
                } else if self.chance() {
                    let a = b.addr.wrapping_add(b.cnt as u64 * self.bb);
                    let r = self.resp(a);
                    self.count_err(r);
                    self.drive.rvalid = true;
                    self.drive.rdata = self.read_beat(a);
                    self.drive.rresp = r;
                    self.drive.rlast = b.cnt == b.len;
                } else {
                    self.cov.bp_r += 1;
                }
            }
        }
        if !self.drive.rvalid {
            self.drive.rdata = ZERO;
            self.drive.rresp = 0;
            self.drive.rlast = false;
        }
    }

    /// This cycle's AW and W ready and B response.
    #[inline(always)]
    fn drive_write(&mut self) {
        let writes = self.aw.len() + self.bq.len() + self.drive.bvalid as usize;
        self.drive.awready = writes < self.wr_depth && self.chance();
        self.drive.wready =
            self.wlasts < self.wr_depth && self.wq.len() < 16 * self.wr_depth && self.chance();
        if !self.drive.bvalid {
            match self.bq.front() {
                Some(&(r, at)) if at <= self.now => {
                    self.drive.bvalid = true;
                    self.drive.bresp = r;
                    self.bq.pop_front();
                }
                Some(_) => {
                    self.cov.bp_b += 1;
                    self.drive.bresp = 0;
                }
                None => self.drive.bresp = 0,
            }
        }
    }

    /// One beat's strobed bytes into the memory at `a`.
    fn write_beat(&mut self, a: u64, d: &Beat, strb: u64) {
        let n = self.bb as usize;
        let bytes = to_bytes(d);
        let dst = &mut self.data[a as usize..a as usize + n];
        let all = keep_at(self.bb as u32, 0);
        if strb & all == all {
            copy_beat_bytes(dst, &bytes[..n]);
        } else {
            // the strobed lanes only, one set bit at a time
            let mut m = strb & all;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                dst[j] = bytes[j];
                m &= m - 1;
            }
        }
    }

    fn count_err(&mut self, r: u32) {
        if r == AXI_RESP_SLVERR {
            self.cov.slverr += 1;
        } else if r == AXI_RESP_DECERR {
            self.cov.decerr += 1;
        }
    }

    /// Write bytes (the driver's stores).
    pub fn write(&mut self, addr: u64, bytes: &[u8]) {
        let a = addr as usize;
        self.data[a..a + bytes.len()].copy_from_slice(bytes);
    }

    /// Read bytes.
    pub fn read(&self, addr: u64, len: usize) -> &[u8] {
        let a = addr as usize;
        &self.data[a..a + len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_holds_every_written_byte_including_the_last_partial_page() {
        let page = CLONE_CHUNK as u64;
        let mut m = AxiMem::new(3 * CLONE_CHUNK + 100, 8, (0, 0), StimRng::new(1));
        m.write(5, &[1, 2, 3]);
        m.write(2 * page - 1, &[0xFF, 0xEE]);
        m.write(3 * page + 99, &[7]);
        let c = m.clone();
        assert_eq!(c.data, m.data);
        assert_eq!(c.read(2 * page - 1, 2), &[0xFF, 0xEE]);
    }
}
