//! Golden-model-only tests of the UDMA engine driven by its testbench environment.

use super::*;
use crate::ports::{CycleModel, Stimulus};

/// Run the golden model against the environment for `cycles` cycles.
fn run(seed: u64, cycles: u64, stop_after_directed: bool) -> UdmaStim {
    let mut env = UdmaStim::new(seed, cycles);
    let mut dut = Udma::new();
    let mut prev: Option<UdmaOut> = None;
    for c in 0..cycles {
        let i = env.next(c, prev.as_ref());
        prev = Some(dut.step(&i));
        if stop_after_directed && env.directed_jobs() >= stim::DIRECTED_JOBS as u64 {
            break;
        }
    }
    env
}

fn cov(env: &UdmaStim, name: &str) -> u64 {
    env.coverage()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
        .unwrap_or(u64::MAX)
}

#[test]
fn driver_style_rx_first_copy_wraps_ring_five_times_with_every_ring_id() {
    // seed 001 §4.3 / PUBLIC-FACTS §1: one M2S + one S2M descriptor of equal size on the
    // same queue, S2M (RX) doorbell first, M2S (TX) second; ring id 1,2,3,0,... per wrap.
    let env = run(1, 2_000_000, true);
    assert_eq!(env.fail_msg, None);
    assert_eq!(env.directed_jobs(), stim::DIRECTED_JOBS as u64);
    assert!(
        cov(&env, "wraps_m2s") >= 5,
        "wraps {}",
        cov(&env, "wraps_m2s")
    );
    for k in 0..4 {
        assert!(
            cov(&env, &format!("ring_id_{k}")) > 0,
            "ring id {k} never seen"
        );
    }
    assert!(cov(&env, "completions_checked") >= stim::DIRECTED_JOBS as u64);
    assert!(cov(&env, "irq_cycles") > 0);
}

#[test]
#[ignore]
fn print_coverage() {
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let cycles: u64 = std::env::var("CYCLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let env = run(seed, cycles, false);
    for (n, v) in env.coverage() {
        println!("{n:24} {v}");
    }
    println!("fail: {:?}", env.fail_msg);
}

/// A minimal synchronous bench: the golden engine, an always-ready memory,
/// CSR accesses one at a time, and a stream source for S2M.
struct Bench {
    dut: Udma,
    mem: mem::AxiMem,
    i: UdmaIn,
    o: UdmaOut,
}

impl Bench {
    fn new() -> Self {
        let mut m = mem::AxiMem::new(
            0x10_0000,
            (0xF_0000, 0x10_0000),
            crate::stim::StimRng::new(1),
        );
        m.p_ready = 100;
        m.max_lat = 0;
        let mut b = Self {
            dut: Udma::new(),
            mem: m,
            i: UdmaIn::default(),
            o: UdmaOut::default(),
        };
        b.tick(); // reset cycle (rst_ni = 0)
        b.i.rst_ni = 1;
        b
    }
    fn tick(&mut self) {
        let d = self.mem.drive;
        self.i.m_axi_arready = d.arready as u64;
        self.i.m_axi_rvalid = d.rvalid as u64;
        self.i.m_axi_rdata = d.rdata;
        self.i.m_axi_rresp = d.rresp as u64;
        self.i.m_axi_awready = d.awready as u64;
        self.i.m_axi_wready = d.wready as u64;
        self.i.m_axi_bvalid = d.bvalid as u64;
        self.i.m_axi_bresp = d.bresp as u64;
        self.o = self.dut.step(&self.i);
        let o = self.o;
        self.mem.step(Some(&o));
    }
    fn write(&mut self, addr: u32, data: u32) -> u64 {
        self.i.s_axil_awaddr = addr as u64;
        self.i.s_axil_wdata = data as u64;
        self.i.s_axil_wstrb = 0xf;
        self.i.s_axil_awvalid = 1;
        self.i.s_axil_wvalid = 1;
        self.i.s_axil_bready = 1;
        loop {
            self.tick();
            if self.o.s_axil_awready == 1 {
                break;
            }
        }
        self.i.s_axil_awvalid = 0;
        self.i.s_axil_wvalid = 0;
        loop {
            self.tick();
            if self.o.s_axil_bvalid == 1 {
                return self.o.s_axil_bresp;
            }
        }
    }
    fn read(&mut self, addr: u32) -> (u32, u64) {
        self.i.s_axil_araddr = addr as u64;
        self.i.s_axil_arvalid = 1;
        self.i.s_axil_rready = 1;
        loop {
            self.tick();
            if self.o.s_axil_arready == 1 {
                break;
            }
        }
        self.i.s_axil_arvalid = 0;
        loop {
            self.tick();
            if self.o.s_axil_rvalid == 1 {
                return (self.o.s_axil_rdata as u32, self.o.s_axil_rresp);
            }
        }
    }
    fn run(&mut self, n: usize) {
        for _ in 0..n {
            self.tick();
        }
    }
    fn setup(&mut self, side: regs::Side, q: u32, ring: u64, rl: u32) {
        use regs::*;
        self.write(
            eng_addr(side, UDMA_ENG_CHANGE_STATE),
            1 << UDMA_CHANGE_STATE_NORMAL_BIT,
        );
        self.write(q_addr(side, q, UDMA_Q_RBP_LOW), ring as u32);
        self.write(q_addr(side, q, UDMA_Q_RL), rl);
        self.write(
            q_addr(side, q, UDMA_Q_CFG),
            (1 << UDMA_Q_CFG_EN_PREF_BIT) | (1 << UDMA_Q_CFG_EN_SCHED_BIT),
        );
    }
}

#[test]
fn ring_id_mismatch_sets_pref_ring_id_bit_17_m2s_and_11_s2m() {
    use desc::*;
    use regs::*;
    // PUBLIC-FACTS §1: a descriptor whose ring id does not match is not executed (PREF_RING_ID).
    let mut b = Bench::new();
    let q = 3;
    b.setup(Side::M2s, q, 0x1000, 8);
    let d = M2sDesc {
        len: 16,
        ring_id: 2,
        first: true,
        last: true,
        int_en: false,
        dmb: false,
        concat: false,
        meta_ctrl: 0,
        buf_ptr: 0x8000,
    };
    b.mem.write(0x1000, &d.encode().unwrap());
    assert_eq!(
        b.write(q_addr(Side::M2s, q, UDMA_Q_RTP_INC), 1),
        AXI_RESP_OKAY as u64
    );
    b.run(50);
    let (qerr, _) = b.read(q_addr(Side::M2s, q, UDMA_Q_ERR));
    assert_eq!(qerr, 1 << 17);
    let (st, _) = b.read(eng_addr(Side::M2s, UDMA_ENG_ERR_STATUS));
    assert_eq!(st, 1 << 17);
    let (status, _) = b.read(q_addr(Side::M2s, q, UDMA_Q_STATUS));
    assert!(status & (1 << UDMA_Q_STATUS_STOPPED_BIT) != 0);
    assert_eq!(
        b.read(q_addr(Side::M2s, q, UDMA_Q_RHP)).0,
        RingPos::default().reg(),
        "head did not move"
    );
    assert_eq!(
        b.read(q_addr(Side::M2s, q, UDMA_Q_BYTES)).0,
        0,
        "descriptor not executed"
    );
    assert_eq!(b.o.err_irq_o, 1);
    // err_log_mask bit 17 masks the error interrupt, the sticky bit stays.
    b.write(eng_addr(Side::M2s, UDMA_ENG_ERR_LOG_MASK), 1 << 17);
    b.run(1);
    assert_eq!(b.o.err_irq_o, 0);

    // S2M: a stream packet for a queue whose descriptor carries ring id 3 (expected 1).
    b.setup(Side::S2m, q, 0x2000, 8);
    let d = S2mDesc {
        len: 64,
        ring_id: 3,
        int_en: false,
        buf2_ptr_lo: 0,
        buf1_ptr: 0x9000,
    };
    b.mem.write(0x2000, &d.encode().unwrap());
    b.write(q_addr(Side::S2m, q, UDMA_Q_RTP_INC), 1);
    b.i.s_axis_tvalid = 1;
    b.i.s_axis_tkeep = 0xff;
    b.i.s_axis_tid = q as u64;
    b.i.s_axis_tdata = 0x1122_3344_5566_7788;
    b.i.s_axis_tlast = 1;
    for _ in 0..100 {
        b.tick();
        if b.o.s_axis_tready == 1 {
            break;
        }
    }
    b.i.s_axis_tvalid = 0;
    b.run(5);
    assert_eq!(b.read(q_addr(Side::S2m, q, UDMA_Q_ERR)).0, 1 << 11);
    assert_eq!(
        b.read(q_addr(Side::S2m, q, UDMA_Q_DROP_BYTES)).0,
        8,
        "dropped bytes are accounted for"
    );
    assert_eq!(b.mem.read(0x9000, 8), &[0u8; 8], "nothing written");
}

#[test]
fn doorbell_past_free_space_and_bad_csr_access_are_refused() {
    use regs::*;
    let mut b = Bench::new();
    b.setup(Side::M2s, 0, 0x1000, 4);
    // One slot kept free: 3 fit, a 4th does not.
    assert_eq!(
        b.write(q_addr(Side::M2s, 0, UDMA_Q_RTP_INC), 4),
        AXI_RESP_OKAY as u64
    );
    assert_eq!(
        b.read(q_addr(Side::M2s, 0, UDMA_Q_RTP)).0,
        desc::RingPos::default().reg(),
        "ignored"
    );
    assert_eq!(
        b.read(q_addr(Side::M2s, 0, UDMA_Q_ERR)).0,
        1 << UDMA_ERR_DB_OVERFLOW
    );
    // RST_Q clears it.
    b.write(
        q_addr(Side::M2s, 0, UDMA_M2S_Q_SW_CTRL),
        1 << UDMA_Q_SW_CTRL_RST_Q_BIT,
    );
    assert_eq!(b.read(q_addr(Side::M2s, 0, UDMA_Q_ERR)).0, 0);
    // Bad CSR accesses answer SLVERR and set the CSR bit.
    assert_eq!(b.read(UDMA_GEN_BASE).1, AXI_RESP_SLVERR as u64);
    assert_eq!(
        b.write(q_addr(Side::M2s, 0, UDMA_Q_STATUS), 1),
        AXI_RESP_SLVERR as u64
    );
    assert_eq!(
        b.write(q_addr(Side::M2s, 0, UDMA_Q_CFG) + 2, 1),
        AXI_RESP_SLVERR as u64
    );
    assert_eq!(
        b.write(q_addr(Side::S2m, 0, UDMA_M2S_Q_SW_CTRL), 1),
        AXI_RESP_SLVERR as u64
    );
    assert_eq!(
        b.read(eng_addr(Side::M2s, UDMA_ENG_ERR_STATUS)).0 & (1 << UDMA_ERR_CSR),
        1 << UDMA_ERR_CSR
    );
    assert_eq!(
        b.read(eng_addr(Side::S2m, UDMA_ENG_ERR_STATUS)).0 & (1 << UDMA_ERR_CSR),
        1 << UDMA_ERR_CSR
    );
}

#[test]
fn every_injected_error_kind_stops_its_queue_and_is_recovered_by_rst_q() {
    let env = run(3, 2_000_000, false);
    assert_eq!(env.fail_msg, None);
    for name in [
        "err_m2s_pref_ring_id",
        "err_s2m_pref_ring_id",
        "err_m2s_db_overflow",
        "err_s2m_db_overflow",
        "err_m2s_data_axi",
        "err_m2s_pref_axi",
        "err_s2m_data_axi",
        "err_s2m_pref_axi",
        "err_s2m_no_desc",
        "csr_slverr",
        "stream_close_beats",
    ] {
        assert!(cov(&env, name) > 0, "{name} never hit");
    }
    assert!(cov(&env, "random_jobs") > 100);
}

/// Copy one packet made of M2S descriptors of `m2s_lens` into S2M buffers of
/// `s2m_lens` on the golden model, the M2S stream looped into S2M through a
/// 4-beat FIFO. Returns (source bytes, destination bytes, stream beats (tkeep, tlast)).
fn pack_copy(m2s_lens: &[u32], s2m_lens: &[u32]) -> (Vec<u8>, Vec<u8>, Vec<(u64, bool)>) {
    use desc::*;
    use regs::*;
    use std::collections::VecDeque;
    let mut b = Bench::new();
    let q = 5;
    b.setup(Side::M2s, q, 0x1000, 8);
    b.setup(Side::S2m, q, 0x2000, 8);
    // Source buffers at 8-byte aligned pointers, filled with a counting pattern.
    let mut src = Vec::new();
    let mut addr = 0x8000u64;
    for (k, &len) in m2s_lens.iter().enumerate() {
        let bytes: Vec<u8> = (0..len).map(|i| (src.len() as u32 + i + 1) as u8).collect();
        b.mem.write(addr, &bytes);
        src.extend_from_slice(&bytes);
        let d = M2sDesc {
            len,
            ring_id: 1,
            first: k == 0,
            last: k + 1 == m2s_lens.len(),
            int_en: false,
            dmb: false,
            concat: false,
            meta_ctrl: 0,
            buf_ptr: addr,
        };
        b.mem.write(0x1000 + 16 * k as u64, &d.encode().unwrap());
        addr += (len as u64).div_ceil(8) * 8 + 8;
    }
    let mut dst_bufs = Vec::new();
    let mut addr = 0xA000u64;
    for (k, &len) in s2m_lens.iter().enumerate() {
        b.mem
            .write(addr, &vec![0xA5; (len as usize).div_ceil(8) * 8 + 8]);
        let d = S2mDesc {
            len,
            ring_id: 1,
            int_en: false,
            buf2_ptr_lo: 0,
            buf1_ptr: addr,
        };
        b.mem.write(0x2000 + 16 * k as u64, &d.encode().unwrap());
        dst_bufs.push((addr, len));
        addr += (len as u64).div_ceil(8) * 8 + 8;
    }
    // RX doorbell first, then TX.
    b.write(q_addr(Side::S2m, q, UDMA_Q_RTP_INC), s2m_lens.len() as u32);
    b.write(q_addr(Side::M2s, q, UDMA_Q_RTP_INC), m2s_lens.len() as u32);
    let mut fifo: VecDeque<(u64, u64, bool, bool)> = VecDeque::new();
    let mut beats = Vec::new();
    for _ in 0..2000 {
        b.i.m_axis_tready = (fifo.len() < 4) as u64;
        let front = fifo.front().copied();
        b.i.s_axis_tvalid = front.is_some() as u64;
        let (d, k, l, u) = front.unwrap_or((0, 0, false, false));
        b.i.s_axis_tdata = d;
        b.i.s_axis_tkeep = k;
        b.i.s_axis_tlast = l as u64;
        b.i.s_axis_tuser = u as u64;
        b.i.s_axis_tid = q as u64;
        b.tick();
        if b.o.s_axis_tready == 1 && front.is_some() {
            fifo.pop_front();
        }
        if b.o.m_axis_tvalid == 1 && b.i.m_axis_tready == 1 {
            let o = b.o;
            fifo.push_back((
                o.m_axis_tdata,
                o.m_axis_tkeep,
                o.m_axis_tlast == 1,
                o.m_axis_tuser == 1,
            ));
            beats.push((o.m_axis_tkeep, o.m_axis_tlast == 1));
        }
    }
    b.i.m_axis_tready = 0;
    b.i.s_axis_tvalid = 0;
    let rhp = RingPos::from_reg(b.read(q_addr(Side::S2m, q, UDMA_Q_RHP)).0);
    assert_eq!(
        rhp.offset as usize,
        s2m_lens.len(),
        "every S2M descriptor completed"
    );
    let rhp = RingPos::from_reg(b.read(q_addr(Side::M2s, q, UDMA_Q_RHP)).0);
    assert_eq!(
        rhp.offset as usize,
        m2s_lens.len(),
        "every M2S descriptor completed"
    );
    let mut dst = Vec::new();
    for (a, l) in dst_bufs {
        dst.extend_from_slice(b.mem.read(a, l as usize));
    }
    (src, dst, beats)
}

#[test]
fn multi_descriptor_packet_5_13_7_lands_contiguously() {
    // Independent expectation: the packet is the concatenation of the source
    // buffers; every stream beat but the tlast one is full (8 bytes).
    for s2m in [&[25u32][..], &[3, 9, 13][..], &[11, 14][..]] {
        let (src, dst, beats) = pack_copy(&[5, 13, 7], s2m);
        assert_eq!(src.len(), 25);
        assert_eq!(dst, src, "S2M buffers {s2m:?}: destination equals source");
        assert_eq!(
            beats,
            vec![(0xff, false), (0xff, false), (0xff, false), (0x01, true)],
            "dense stream: 25 bytes = 3 full beats + 1 byte with tlast"
        );
    }
}
