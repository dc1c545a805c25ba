//! Golden model of `rtl/sb2sb_core.sv`: one NeuronCore built from the golden
//! blocks — `NumEngines` [`Engine`] engines (UDMA at the core's data width,
//! [`crate::clock::ENGINE_DATA_BITS`]) with their CME-COPY loops
//! ([`LoopFifo`]), one [`EvtSem`], the [`Decoder`]s inside the [`Xbar`] (one
//! per write lane, in-lane and read lane), one [`Sram`] per SBUF bank and one for the
//! descriptor RAM, and the [`Q7Port`] — wired port to port
//! as the RTL top wires its instances. Nothing is reached around the ports:
//! rings, doorbells and semaphores arrive through the Q7 port and the AXI
//! fabric.
//!
//! Evaluation order of one cycle (every instance whose inputs are known
//! first): the Moore outputs of the memories, the interconnect (towards the
//! masters), the Q7 port and the loops; then the engines, the EVT_SEM and the
//! decoders step; then the interconnect's target side and every clock edge.

use crate::decoder::{Decoder, DecoderOut};
use crate::evt_sem::{EvtSem, EvtSemIn, EvtSemOut};
use crate::ports::CycleModel;
use crate::udma::beat::Beat;
use crate::udma::{PinsIn, PinsOut};

use super::fifo::{AxisBeat, LoopFifo};
use super::link::{LinkFarIn, LinkNearIn, LinkOut};
use super::q7port::{CsrDrive, CsrTargets, MemDrive, MemResp, Q7Port};
use super::sram::{Sram, SramIn, SramOut, WordStore, LANES};
use super::xbar::{Masters, RmIn, WmIn, Xbar, XbarCfg, XbarMOut, MAX_MEM};
use super::{CoreParams, Engine};
use crate::regs::axil::{AxilIn, AxilOut};

/// Per-cycle inputs of one core (the pair's pins of that core).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CoreIn {
    pub rst: bool,
    pub mem_stall: bool,
    pub axil: AxilIn,
    pub dbg_sem_idx: u64,
    pub dbg_mem_sel: bool,
    pub dbg_mem_we: bool,
    pub dbg_mem_addr: u64,
    pub dbg_mem_wdata: u64,
}

/// Per-cycle outputs of one core.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CoreOut {
    pub axil: AxilOut,
    pub dbg_sem: u64,
    pub dbg_mem_rdata: u64,
    pub dbg_xbar: u64,
    pub dbg_xin: u64,
    pub dbg_q7: u64,
    pub irq: u64,
    pub err_irq: u64,
    pub sem_err: u64,
}

/// Placement straps of a core.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Straps {
    pub die: u64,
    pub chip: u64,
    pub core_idx: u64,
}

/// One golden NeuronCore: the blocks with state of their own ([`Engine`]
/// engines, [`EvtSem`]), the two memory arrays, and the glue that wires them
/// ([`Glue`]: loops, decoders, interconnect, SRAM FSMs, Q7 port).
#[derive(Debug, Clone)]
pub struct Core {
    pub engines: Vec<Engine>,
    pub evt: EvtSem,
    /// Arrays of the SBUF (0) and the descriptor RAM (1), as 64-bit lanes
    /// ([`LANES`] per memory word; the debug port's and the images' unit).
    pub mem: [Vec<u64>; 2],
    pub glue: Glue,
}

/// The composition of `rtl/sb2sb_core.sv` around its engines, EVT_SEM and
/// memory arrays: everything [`Glue::step_into`] clocks besides the [`Parts`] it
/// is handed. The golden pair's [`Core`] owns its parts; the system model's
/// cycle mode (`system::cycle`) hands each system core's own engines,
/// EVT_SEM and memories (through [`WordStore`] adapters) to that core's glue.
#[derive(Debug, Clone)]
pub struct Glue {
    pub loops: Vec<LoopFifo>,
    /// Decoders of the write lanes, in-lanes and read lanes
    /// ([`Xbar::dec_count`]; inside the xbar in the RTL).
    pub dec: Vec<Decoder>,
    pub xbar: Xbar,
    /// FSMs of the SBUF banks (`0..engines`) and the descriptor RAM
    /// (`engines`) `axi4_sram` instances.
    pub sram: Vec<Sram>,
    pub q7: Q7Port,
    /// Words of one SBUF bank (`BankWords`).
    bank_words: u32,
    /// The debug port's SBUF lane mask (`2^SAW - 1`, SAW = clog2 of the
    /// SBUF's 64-bit lanes).
    dbg_sbuf_mask: u32,
    /// Debug memory select, bank, and whether the bank exists, of the
    /// previous cycle (`dbg_sel_q`, `dbg_bank_q`, `dbg_bank_ok_q`).
    pub dbg_sel: bool,
    dbg_bank: usize,
    dbg_bank_ok: bool,
    /// Model-only event counters (no RTL register; read by the system model).
    pub stats: GlueStats,
    /// The decoders' outputs this cycle (kept while a decoder's step is
    /// skipped, see [`Glue::step_into`]'s decoder stage).
    dec_out: Vec<DecoderOut>,
    /// `dec_out[k]` already holds the outputs of decoder `k`'s held registers.
    dec_held: Vec<bool>,
    /// Per-cycle wiring between the instances, kept between cycles so a
    /// cycle allocates nothing (every slot is rewritten every cycle; no state).
    wires: Wires,
}

/// The wires of one [`Glue::step_into`] kept between cycles: the engines' and
/// the EVT_SEM's input pins.
#[derive(Debug, Clone, Default)]
struct Wires {
    /// The engines' input pins (shared lines written once a cycle, each
    /// engine's own lines before its step).
    pins: PinsIn,
    /// The EVT_SEM's input pins (the driven ones written every cycle).
    evt_in: EvtSemIn,
    /// Every engine's read master outputs (each read lane reads its own).
    rms: Vec<RmIn>,
    /// Every engine's write master outputs (each write lane reads its own).
    wms: Vec<WmIn>,
    /// The incoming link lanes' far sides as write masters of the in-lanes.
    lins: Vec<WmIn>,
}

/// SBUF bank `k`'s words inside the core's one SBUF array: word `w` of the
/// bank is word `base + w` of the array (banks hold consecutive partitions).
struct BankStore<'a, S: WordStore> {
    s: &'a mut S,
    base: u32,
    words: u32,
}

impl<S: WordStore> WordStore for BankStore<'_, S> {
    #[inline(always)]
    fn words(&self) -> u32 {
        self.words
    }
    #[inline(always)]
    fn read(&self, word: u32) -> Beat {
        self.s.read(self.base + word)
    }
    #[inline(always)]
    fn write(&mut self, word: u32, data: &Beat, strb: u64) {
        self.s.write(self.base + word, data, strb);
    }
}

/// Write master `e`'s outputs from engine `e`'s pins.
#[inline(always)]
fn engine_wm(o: &PinsOut) -> WmIn {
    WmIn {
        awaddr: o.m_axi_awaddr,
        awlen: o.m_axi_awlen,
        awvalid: b(o.m_axi_awvalid),
        wdata: o.m_axi_wdata,
        wstrb: o.m_axi_wstrb,
        wlast: b(o.m_axi_wlast),
        wvalid: b(o.m_axi_wvalid),
        bready: b(o.m_axi_bready),
    }
}

/// The Q7 port's memory-store master (single-beat bursts) as a write master.
#[inline(always)]
fn q7_store_wm(m: &MemDrive) -> WmIn {
    WmIn {
        awaddr: m.awaddr,
        awlen: 0,
        awvalid: m.awvalid,
        wdata: m.wdata,
        wstrb: m.wstrb,
        wlast: true,
        wvalid: m.wvalid,
        bready: m.bready,
    }
}

/// The incoming link lanes' far-side inputs from the in-lanes' outputs.
#[inline(always)]
fn far_lines(xo: &XbarMOut, far: &mut [LinkFarIn]) {
    for (k, f) in far.iter_mut().enumerate() {
        *f = LinkFarIn {
            awready: xo.lin_awready >> k & 1 == 1,
            wready: xo.lin_wready >> k & 1 == 1,
            bresp: xo.lin_bresp[k],
            bvalid: xo.lin_bvalid >> k & 1 == 1,
        };
    }
}

/// An incoming link lane's far side as an in-lane's write master.
#[inline(always)]
fn link_wm(l: &LinkOut) -> WmIn {
    WmIn {
        awaddr: l.m_awaddr,
        awlen: l.m_awlen,
        awvalid: l.m_awvalid,
        wdata: l.m_wdata,
        wstrb: l.m_wstrb,
        wlast: l.m_wlast,
        wvalid: l.m_wvalid,
        bready: l.m_bready,
    }
}

/// The EVT_SEM's CSR port outputs as the Q7 port's bundle.
#[inline(always)]
fn evt_axil(so: &EvtSemOut) -> AxilOut {
    axil_out(
        [
            so.s_axil_awready,
            so.s_axil_wready,
            so.s_axil_bvalid,
            so.s_axil_arready,
            so.s_axil_rvalid,
        ],
        so.s_axil_bresp,
        so.s_axil_rdata,
        so.s_axil_rresp,
    )
}

/// The interconnect's masters this cycle: every engine's write and read
/// master, the Q7 store, the incoming link lanes.
struct MasterView<'a> {
    n: usize,
    wms: &'a [WmIn],
    rms: &'a [RmIn],
    lins: &'a [WmIn],
    q7: &'a WmIn,
}

impl Masters for MasterView<'_> {
    #[inline(always)]
    fn wm(&self, j: usize) -> &WmIn {
        if j == self.n {
            self.q7
        } else {
            &self.wms[j]
        }
    }
    #[inline(always)]
    fn lin(&self, i: usize) -> &WmIn {
        &self.lins[i]
    }
    #[inline(always)]
    fn rm(&self, e: usize) -> &RmIn {
        &self.rms[e]
    }
}

/// The Q7 port's CSR targets this cycle: the engine its outputs drive
/// (the only engine it reads, [`CsrDrive::tgt`]) and the EVT_SEM.
struct TargetView {
    n: usize,
    sel: Option<usize>,
    sel_out: AxilOut,
    evt: AxilOut,
}

impl CsrTargets for TargetView {
    #[inline(always)]
    fn target(&self, k: usize) -> AxilOut {
        if k == self.n {
            self.evt
        } else {
            assert_eq!(
                Some(k),
                self.sel,
                "the Q7 port reads its driven target only"
            );
            self.sel_out
        }
    }
}

/// The engines' outputs the core's pins and statistics take (per-engine
/// bits at bit e).
#[derive(Debug, Clone, Copy, Default)]
struct EngineSum {
    irq: u64,
    err_irq: u64,
    /// Outputs of the driven CSR target, when an engine.
    gt: AxilOut,
    /// AWVALID, WVALID, BREADY, ARVALID, RREADY of the engines' AXI masters.
    aw: u32,
    w: u32,
    b: u32,
    ar: u32,
    r: u32,
}

impl EngineSum {
    /// Any engine AXI handshake this cycle (a valid or ready of engine e
    /// meeting the interconnect's ready or valid of master e).
    fn moved(&self, xo: &XbarMOut) -> bool {
        (self.ar & xo.rm_arready
            | self.r & xo.rm_rvalid
            | self.aw & xo.wm_awready
            | self.w & xo.wm_wready
            | self.b & xo.wm_bvalid)
            != 0
    }
}

impl EngineSum {
    /// Engine `e`'s bits and, when it is the driven CSR target (`tgt`), its
    /// CSR outputs.
    #[inline(always)]
    fn take(&mut self, o: &PinsOut, e: usize, tgt: bool) {
        if tgt {
            self.gt = axil_out(
                [
                    o.s_axil_awready,
                    o.s_axil_wready,
                    o.s_axil_bvalid,
                    o.s_axil_arready,
                    o.s_axil_rvalid,
                ],
                o.s_axil_bresp,
                o.s_axil_rdata,
                o.s_axil_rresp,
            );
        }
        let m = |x: u64| (x as u32 & 1) << e;
        self.aw |= m(o.m_axi_awvalid);
        self.w |= m(o.m_axi_wvalid);
        self.b |= m(o.m_axi_bready);
        self.ar |= m(o.m_axi_arvalid);
        self.r |= m(o.m_axi_rready);
        self.irq |= (o.irq_o & 1) << e;
        self.err_irq |= (o.err_irq_o & 1) << e;
    }
}

/// Drive engine `e`'s ten per-engine lines from `masks` (bit e of each, in
/// the order of [`Glue::engines_step`]).
#[inline(always)]
fn drive_lines(pi: &mut PinsIn, masks: &[u32; 10], e: usize) {
    let bit = |k: usize| u64::from(masks[k] >> e & 1);
    pi.s_axil_awvalid = bit(0);
    pi.s_axil_wvalid = bit(1);
    pi.s_axil_bready = bit(2);
    pi.s_axil_arvalid = bit(3);
    pi.s_axil_rready = bit(4);
    pi.m_axi_arready = bit(5);
    pi.m_axi_rvalid = bit(6);
    pi.m_axi_awready = bit(7);
    pi.m_axi_wready = bit(8);
    pi.m_axi_bvalid = bit(9);
}

/// A CSR target's `s_axil_*` output pins as the Q7 port's bundle (the
/// engines' `PinsOut` and the EVT_SEM's `EvtSemOut` name them alike):
/// `v` = awready, wready, bvalid, arready, rvalid.
#[inline(always)]
fn axil_out(v: [u64; 5], bresp: u64, rdata: u64, rresp: u64) -> AxilOut {
    AxilOut {
        awready: b(v[0]),
        wready: b(v[1]),
        bresp: bresp as u32,
        bvalid: b(v[2]),
        arready: b(v[3]),
        rdata: rdata as u32,
        rresp: rresp as u32,
        rvalid: b(v[4]),
    }
}

/// Event counters of a [`Glue`] (observability of the golden model only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GlueStats {
    /// Bursts accepted by the in-lanes from the link lanes (AW handshakes on the link-in masters).
    pub in_bursts: u64,
    /// EVT_SEM increments raised on the in-lanes' ports (2, 3): remote semaphore writes.
    pub in_incs: u64,
    /// EVT_SEM increments raised on the write lanes' ports (0, 1).
    pub out_incs: u64,
    /// Cycles in which any engine AXI handshake or a handshake of the
    /// in-lane with an incoming link lane (AW or W) happened.
    pub busy_cycles: u64,
}

/// The instances a [`Glue`] wires for one cycle: the engines, the EVT_SEM
/// and the two memory arrays (the SBUF array holds every bank).
pub struct Parts<'a, S0: WordStore, S1: WordStore> {
    pub engines: &'a mut [Engine],
    pub evt: &'a mut EvtSem,
    pub sbuf: &'a mut S0,
    pub desc: &'a mut S1,
}

#[inline(always)]
fn b(x: u64) -> bool {
    x & 1 != 0
}

impl Core {
    /// A core in reset state with parameters `p`.
    pub fn new(p: &CoreParams) -> Self {
        Self {
            engines: (0..p.engines)
                .map(|_| Engine::with_max_wr_burst(16))
                .collect(),
            evt: EvtSem::new(),
            mem: [
                vec![0; p.sbuf_words()],
                vec![0; (p.desc_bytes / 8) as usize],
            ],
            glue: Glue::of(p),
        }
    }

    /// Drive the placement straps (continuous pins in the RTL).
    pub fn set_straps(&mut self, s: Straps) {
        self.glue.set_straps(s);
    }

    /// One cycle. `link_out` are the outputs of the outgoing link lanes
    /// (their near sides serve this core's link lanes), `link_in` those of
    /// the incoming link lanes (their far sides are this core's in-lanes'
    /// masters). Writes the core's outputs, the outgoing lanes' near-side
    /// inputs and the incoming lanes' far-side inputs in place.
    pub fn step_into(&mut self, i: &CoreIn, links: LinkPorts<'_>, out: &mut CoreOut) {
        let [m0, m1] = &mut self.mem;
        let parts = Parts {
            engines: &mut self.engines,
            evt: &mut self.evt,
            sbuf: m0,
            desc: m1,
        };
        self.glue.step_into(parts, i, links, out);
    }
}

/// A core's link lanes for one cycle: the outputs of its outgoing lanes
/// (`out`) and incoming lanes (`inc`), and the slots for the outgoing lanes'
/// near-side inputs (`near`) and the incoming lanes' far-side inputs
/// (`far`), one per lane ([`Xbar::link_lanes`]).
pub struct LinkPorts<'a> {
    pub out: &'a [LinkOut],
    pub inc: &'a [LinkOut],
    pub near: &'a mut [LinkNearIn],
    pub far: &'a mut [LinkFarIn],
}

impl Glue {
    /// The glue of a core with parameters `p` (straps 0 until
    /// [`Glue::set_straps`]), in reset state.
    pub fn of(p: &CoreParams) -> Self {
        let cfg = XbarCfg {
            engines: p.engines,
            part_bytes: p.sbuf_part_bytes,
            win_base: p.sbuf_win_base,
            desc_bytes: p.desc_bytes,
            self_die: 0,
            self_chip: 0,
            core_idx: 0,
        };
        Self::new(
            cfg,
            p.sbuf_words() / LANES as usize,
            p.desc_bytes as usize / super::sram::WORD_BYTES as usize,
        )
    }

    /// The glue of a core with `cfg.engines` engines, an SBUF array of
    /// `sbuf_words` and a descriptor array of `desc_words` memory words
    /// ([`super::sram::WORD_BYTES`] each), in reset state.
    ///
    /// `cfg.engines` (1..=16) divides the 128 SBUF partitions: one SBUF bank
    /// of `sbuf_words / engines` words per engine.
    pub fn new(cfg: XbarCfg, sbuf_words: usize, desc_words: usize) -> Self {
        let n = cfg.engines;
        assert!(
            (1..MAX_MEM).contains(&n) && 128 % n == 0,
            "engines {n}: 1..=16 and a divisor of the 128 SBUF partitions"
        );
        let bank_words = sbuf_words / n;
        let mut sram: Vec<Sram> = (0..n).map(|_| Sram::new(bank_words)).collect();
        sram.push(Sram::new(desc_words));
        Self {
            loops: vec![LoopFifo::default(); n],
            dec: (0..3 * n + 1).map(|_| Decoder::new()).collect(),
            xbar: Xbar::new(cfg),
            sram,
            q7: Q7Port::new(n, 0, 0),
            bank_words: bank_words as u32,
            dbg_sbuf_mask: (sbuf_words as u32 * LANES).next_power_of_two() - 1,
            dbg_sel: false,
            dbg_bank: 0,
            dbg_bank_ok: false,
            stats: GlueStats::default(),
            dec_out: vec![DecoderOut::default(); 3 * n + 1],
            dec_held: vec![false; 3 * n + 1],
            wires: Wires {
                rms: vec![RmIn::default(); n],
                wms: vec![WmIn::default(); n],
                lins: vec![WmIn::default(); n],
                ..Default::default()
            },
        }
    }

    /// Whether the glue holds no transaction: interconnect paths idle, SRAM
    /// FSMs idle, loop FIFOs empty, Q7 port idle (engines and links are
    /// checked by their owners).
    pub fn idle(&self) -> bool {
        self.xbar.idle()
            && self.sram.iter().all(|m| m.idle())
            && self.loops.iter().all(|l| l.cnt == 0)
            && self.q7.idle()
    }

    /// Drive the placement straps (continuous pins in the RTL).
    pub fn set_straps(&mut self, s: Straps) {
        self.xbar.cfg.self_die = s.die;
        self.xbar.cfg.self_chip = s.chip;
        self.xbar.cfg.core_idx = s.core_idx;
        self.q7.self_die = s.die;
        self.q7.core_idx = s.core_idx;
    }

    /// One cycle of the core with its `parts` and link lanes (see
    /// [`Core::step_into`]), in the RTL's evaluation order: the Moore
    /// outputs, the engines and the EVT_SEM, the decoders, the interconnect's
    /// target side, then the clock edges.
    #[inline]
    pub fn step_into<S0: WordStore, S1: WordStore>(
        &mut self,
        parts: Parts<'_, S0, S1>,
        i: &CoreIn,
        links: LinkPorts<'_>,
        out: &mut CoreOut,
    ) {
        let Parts {
            engines,
            evt,
            sbuf,
            desc,
        } = parts;
        let rst = i.rst;
        let n = engines.len();
        // ---- Moore outputs
        let mut mo = [SramOut::default(); MAX_MEM];
        for (o, m) in mo.iter_mut().zip(&self.sram) {
            *o = m.outputs(rst, i.mem_stall);
        }
        let mo = &mo[..n + 1];
        // ---- the in-lanes' masters (the incoming lanes' far sides, Moore)
        for (w, l) in self.wires.lins.iter_mut().zip(links.inc) {
            *w = link_wm(l);
        }
        let xo = self
            .xbar
            .master_outputs(rst, mo, links.out, &self.wires.lins);
        let (q7o, csr, memdrv, q7dbg) = self.q7.outputs(rst);
        // ---- UDMA engines (each with its CME-COPY loop) and the EVT_SEM
        let eng = self.engines_step(engines, rst, &csr, &xo);
        let so = Self::evt_step(
            evt,
            &mut self.wires.evt_in,
            rst,
            &csr,
            &xo,
            i.dbg_sem_idx,
            n,
        );
        let (out_p, in_p) = xo.inc_valid.split_at(super::xbar::INC_L);
        self.stats.out_incs += out_p.iter().map(|&v| u64::from(v)).sum::<u64>();
        self.stats.in_incs += in_p.iter().map(|&v| u64::from(v)).sum::<u64>();
        // ---- the Q7 store
        let q7_wm = q7_store_wm(&memdrv);
        let ms = MasterView {
            n,
            wms: &self.wires.wms,
            rms: &self.wires.rms,
            lins: &self.wires.lins,
            q7: &q7_wm,
        };
        // ---- decoders (a lane in ADDR hands its decoder the master's address)
        Self::decoders_step(
            &mut self.dec,
            &mut self.dec_out,
            &mut self.dec_held,
            &self.xbar,
            rst,
            &ms,
        );
        let mut mem_in = [SramIn::default(); MAX_MEM];
        self.xbar
            .target_outputs(rst, &ms, mo, links.out, &mut mem_in, links.near);
        let bank = self.dbg_lines(i, &mut mem_in[..n + 1]);
        // ---- clock edges of the glue (the loops took theirs with their engines)
        self.xbar.update(rst, &ms, mo, links.out, &self.dec);
        self.srams_update(rst, &mem_in, mo, sbuf, desc);
        let tv = TargetView {
            n,
            sel: csr.tgt,
            sel_out: eng.gt,
            evt: evt_axil(&so),
        };
        let mresp = MemResp {
            awready: xo.wm_awready >> n & 1 == 1,
            wready: xo.wm_wready >> n & 1 == 1,
            bresp: xo.wm_bresp[n],
            bvalid: xo.wm_bvalid >> n & 1 == 1,
        };
        self.q7.update(rst, &i.axil, &tv, &mresp);
        far_lines(&xo, links.far);
        if !rst {
            self.count_link_in(&xo, links.inc, eng.moved(&xo));
        }
        let dbg_mem_rdata = self.dbg_read(rst, mo, i.dbg_mem_sel, bank);
        *out = CoreOut {
            axil: q7o,
            dbg_sem: so.dbg_sem_o,
            dbg_mem_rdata,
            dbg_xbar: xo.dbg,
            dbg_xin: xo.dbg_in,
            dbg_q7: q7dbg,
            irq: eng.irq,
            err_irq: eng.err_irq,
            sem_err: so.err_status_o,
        };
    }

    /// The memories' debug lines: SBUF lane w (of the one SBUF array of
    /// 64-bit lanes, masked to 2^SAW) is lane w % BankLanes of bank w /
    /// BankLanes; returns the bank.
    #[inline(always)]
    fn dbg_lines(&self, i: &CoreIn, mem_in: &mut [SramIn]) -> usize {
        let n = mem_in.len() - 1;
        let sword = i.dbg_mem_addr as u32 & self.dbg_sbuf_mask;
        let bank_lanes = self.bank_words * LANES;
        let (bank, bword) = ((sword / bank_lanes) as usize, sword % bank_lanes);
        for (k, m) in mem_in.iter_mut().enumerate() {
            m.dbg_we = if i.dbg_mem_sel {
                k == n && i.dbg_mem_we
            } else {
                k == bank && i.dbg_mem_we
            };
            m.dbg_addr = if k < n { bword } else { i.dbg_mem_addr as u32 };
            m.dbg_wdata = i.dbg_mem_wdata;
        }
        bank
    }

    /// Clock edges of the SRAM FSMs: the SBUF banks on their windows of the
    /// SBUF array, the descriptor RAM on its array.
    #[inline(always)]
    fn srams_update<S0: WordStore, S1: WordStore>(
        &mut self,
        rst: bool,
        mem_in: &[SramIn],
        mo: &[SramOut],
        sbuf: &mut S0,
        desc: &mut S1,
    ) {
        let n = mo.len() - 1;
        let bank_words = self.bank_words;
        for (k, m) in self.sram[..n].iter_mut().enumerate() {
            let mut bs = BankStore {
                s: &mut *sbuf,
                base: k as u32 * bank_words,
                words: bank_words,
            };
            m.update(rst, &mem_in[k], &mo[k], &mut bs);
        }
        self.sram[n].update(rst, &mem_in[n], &mo[n], desc);
    }

    /// The debug read data (the memory selected in the previous cycle) and
    /// this cycle's selection registers.
    #[inline(always)]
    fn dbg_read(&mut self, rst: bool, mo: &[SramOut], sel: bool, bank: usize) -> u64 {
        let n = mo.len() - 1;
        let d = if rst {
            0
        } else if self.dbg_sel {
            mo[n].dbg_rdata
        } else if self.dbg_bank_ok {
            mo[self.dbg_bank].dbg_rdata
        } else {
            0
        };
        self.dbg_sel = !rst && sel;
        self.dbg_bank = if rst { 0 } else { bank };
        self.dbg_bank_ok = !rst && bank < n;
        d
    }

    /// Statistics of the incoming link lanes: in-lane AW handshakes, and a
    /// busy cycle on any engine or in-lane handshake.
    #[inline(always)]
    fn count_link_in(&mut self, xo: &XbarMOut, inc: &[LinkOut], eng_moved: bool) {
        let mut moved = eng_moved;
        for (k, l) in inc.iter().enumerate() {
            let aw = xo.lin_awready >> k & 1 != 0 && l.m_awvalid;
            self.stats.in_bursts += u64::from(aw);
            moved |= aw || xo.lin_wready >> k & 1 != 0 && l.m_wvalid;
        }
        self.stats.busy_cycles += u64::from(moved);
    }

    /// Step every engine on its pins and clock its loop FIFO (fed by that
    /// engine alone). The engine's `PinsOut` is read where it was returned:
    /// the request masks, the interrupts and the loop take their bits, and
    /// every engine's read and write master and the driven CSR target their
    /// bundles (the engine outputs the interconnect and the Q7 port read,
    /// [`MasterView`], [`TargetView`]). The pins every engine shares (reset, the CSR
    /// bus, the read data and responses) are written once per cycle into
    /// [`Wires::pins`]; each engine's own lines are written before its step.
    #[inline(always)]
    fn engines_step(
        &mut self,
        engines: &mut [Engine],
        rst: bool,
        csr: &CsrDrive,
        xo: &XbarMOut,
    ) -> EngineSum {
        let mut sum = EngineSum::default();
        let n = engines.len();
        let w = &mut self.wires;
        let loops = &mut self.loops[..n];
        let pi = &mut w.pins;
        pi.rst_ni = u64::from(!rst);
        pi.s_axil_awaddr = csr.awaddr;
        pi.s_axil_wdata = csr.wdata;
        pi.s_axil_wstrb = csr.wstrb;
        pi.s_axil_araddr = csr.araddr;
        // The CSR target's valid/ready lines (bit e = engine e).
        let tm = match csr.tgt {
            Some(t) if t < n => 1u32 << t,
            _ => 0,
        };
        let lane = |v: bool| if v { tm } else { 0 };
        let (awv, wv, brd, arv, rrd) = (
            lane(csr.awvalid),
            lane(csr.wvalid),
            lane(csr.bready),
            lane(csr.arvalid),
            lane(csr.rready),
        );
        // The ten per-engine lines: the CSR target's valids / readies, the
        // interconnect's readies and valids (bit e = engine e). Engines with
        // none of them high see them all low, which `pi` holds between
        // engines (each engine's lines are cleared after its step).
        let masks = [
            awv,
            wv,
            brd,
            arv,
            rrd,
            xo.rm_arready,
            xo.rm_rvalid,
            xo.wm_awready,
            xo.wm_wready,
            xo.wm_bvalid,
        ];
        let lines = masks.iter().fold(0, |acc, m| acc | m);
        for e in 0..n {
            let (eng, lp) = (&mut engines[e], &mut loops[e]);
            let (tv, head) = lp.head_ref(rst);
            let own = lines >> e & 1 != 0;
            if own {
                drive_lines(pi, &masks, e);
            }
            // each engine's lanes drive its own B response and R payload
            pi.m_axi_bresp = xo.wm_bresp[e];
            pi.m_axi_rdata = xo.rm_rdata[e];
            pi.m_axi_rresp = xo.rm_rresp[e];
            pi.m_axi_rlast = u64::from(xo.rm_rlast >> e & 1);
            pi.m_axis_tready = u64::from(lp.tready(rst));
            pi.s_axis_tdata = head.data;
            pi.s_axis_tkeep = head.keep;
            pi.s_axis_tlast = u64::from(head.last);
            pi.s_axis_tid = head.id;
            pi.s_axis_tuser = u64::from(head.user);
            pi.s_axis_tvalid = u64::from(tv);
            let o = &eng.step_pins(pi);
            if own {
                drive_lines(pi, &[0; 10], e);
            }
            w.wms[e] = engine_wm(o);
            w.rms[e] = RmIn {
                araddr: o.m_axi_araddr,
                arlen: o.m_axi_arlen,
                arvalid: b(o.m_axi_arvalid),
                rready: b(o.m_axi_rready),
            };
            sum.take(o, e, csr.tgt == Some(e));
            // Clock edge of the loop: only this engine's outputs feed it, and
            // its registered outputs were read above.
            lp.update_with(rst, b(o.m_axis_tvalid), b(o.s_axis_tready), || AxisBeat {
                data: o.m_axis_tdata,
                keep: o.m_axis_tkeep,
                last: b(o.m_axis_tlast),
                id: o.m_axis_tid,
                user: b(o.m_axis_tuser),
            });
        }
        sum
    }

    /// Step the EVT_SEM: its CSR port from the Q7 port (target `n`), its
    /// four increment lanes from the interconnect (an idle lane still
    /// carries the registered index and value).
    ///
    /// The pins the core leaves at 0 (protection, the upper increment
    /// ports, the wait ports) are never written: they keep the zeros of
    /// [`Wires::evt_in`]'s default.
    ///
    /// A quiet cycle (out of reset, no CSR valid or ready of the EVT_SEM
    /// high, no increment lane valid, nothing pending inside:
    /// [`EvtSem::quiet_outputs`]) changes no register, so the step is
    /// skipped and its outputs taken (unless `always`, the test-only
    /// reference); only the lines such a cycle reads are driven. Returns the outputs and whether
    /// the step was skipped.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn evt_step(
        evt: &mut EvtSem,
        si: &mut EvtSemIn,
        rst: bool,
        csr: &CsrDrive,
        xo: &XbarMOut,
        dbg_idx: u64,
        n: usize,
    ) -> EvtSemOut {
        let mine = csr.tgt == Some(n);
        let lines = mine && (csr.awvalid | csr.wvalid | csr.bready | csr.arvalid | csr.rready);
        let valid = xo
            .inc_valid
            .iter()
            .enumerate()
            .fold(0u64, |m, (p, &v)| m | u64::from(v) << p);
        si.rst_ni = u64::from(!rst);
        si.dbg_idx_i = dbg_idx & 0xFF;
        if !(rst || lines || valid != 0) {
            // Every valid and ready low: the address, data, index and value
            // lines are not read by a quiet cycle (they keep their last
            // values; every step below drives them first).
            si.s_axil_awvalid = 0;
            si.s_axil_wvalid = 0;
            si.s_axil_bready = 0;
            si.s_axil_arvalid = 0;
            si.s_axil_rready = 0;
            si.inc_valid_i = 0;
            if let Some(o) = evt.quiet_outputs(si) {
                return o;
            }
        }
        si.s_axil_awaddr = csr.awaddr & 0x1FFF;
        si.s_axil_awvalid = u64::from(mine && csr.awvalid);
        si.s_axil_wdata = csr.wdata;
        si.s_axil_wstrb = csr.wstrb;
        si.s_axil_wvalid = u64::from(mine && csr.wvalid);
        si.s_axil_bready = u64::from(mine && csr.bready);
        si.s_axil_araddr = csr.araddr & 0x1FFF;
        si.s_axil_arvalid = u64::from(mine && csr.arvalid);
        si.s_axil_rready = u64::from(mine && csr.rready);
        si.inc_valid_i = valid;
        // port p: index byte p % 8 of word p / 8, value half p % 2 of word p / 2
        si.inc_idx_i = [0; 2];
        si.inc_value_i = [0; 8];
        for (p, (&i, &v)) in xo.inc_idx.iter().zip(&xo.inc_value).enumerate() {
            si.inc_idx_i[p / 8] |= u64::from(i) << (8 * (p % 8));
            si.inc_value_i[p / 2] |= u64::from(v) << (32 * (p % 2));
        }
        evt.step(si)
    }

    /// Step the three decoders while they have work: `valid_i` high (their
    /// path in DEC), `valid_q` high (it falls), in reset, or with a fault
    /// armed (it counts steps). Otherwise a step would leave every register
    /// as it is (the RTL's output stage holds), so it is skipped; the
    /// outputs are then those of the held registers, computed once.
    #[inline(always)]
    fn decoders_step(
        dec: &mut [Decoder],
        dec_out: &mut [DecoderOut],
        dec_held: &mut [bool],
        xbar: &Xbar,
        rst: bool,
        ms: &impl Masters,
    ) {
        for (k, d) in dec.iter_mut().enumerate() {
            if rst || xbar.dec_valid(k, rst, ms) || d.q.valid_q != 0 || d.fault.is_some() {
                dec_out[k] = d.step(&xbar.dec_input(k, rst, ms));
                dec_held[k] = false;
            } else if !dec_held[k] {
                dec_out[k] = Decoder::outputs(&d.q);
                dec_held[k] = true;
            }
        }
    }
}
