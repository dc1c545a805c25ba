//! Generic CSR tests generated from a register description (OpenTitan's
//! `csr_hw_reset`, `csr_rw`, `csr_bit_bash`, `csr_aliasing`, plus W1C/RO/WO),
//! as a reactive AXI4-Lite stimulus that runs against the golden model and the
//! RTL in lockstep (`tb/cosim_csr.rs`).
//!
//! The plan comes from the description alone: every register instance of a
//! sample (first and last array element and queue, both UDMA sides), with its
//! reset value, access and field mask. [`CsrSeq`] plays it one transaction at a
//! time and checks each response against a shadow of the expected register
//! values; a failure is counted (`csr_fail`) and the first is kept as a
//! sentence. The lockstep additionally checks golden = RTL on every cycle, so a
//! bug present in both is caught by the shadow, a bug in one by the lockstep.
//!
//! Sequences, in order: (1) reset values of every readable register, WO reads
//! return 0; (2) per plain RW register: all-ones, zero and a pattern written and
//! read back masked to its fields, then every writable bit alone (bit-bash),
//! and after each write every other checked register reads its shadow value
//! (aliasing); (3) writes of 0 to WO registers answer OKAY and change nothing;
//! (4) writes to RO registers answer SLVERR and change nothing; (5) W1C
//! registers written with all ones read 0.

use super::{Access, Block, Reg};
use crate::regs::axil::{AxilIn, AxilOut};
use crate::udma::regs::{AXI_RESP_OKAY, AXI_RESP_SLVERR};

/// One register instance: its address and description.
#[derive(Debug, Clone, Copy)]
pub struct Inst {
    pub addr: u32,
    pub reg: &'static Reg,
    /// Shadow key: instances with the same key read the same storage.
    pub key: (u32, &'static str, u32),
}

/// One CSR transaction and what it must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Write `data`; expect `resp`. `store`: shadow key and masked value it sets.
    Write { addr: u32, data: u32, resp: u32 },
    /// Read; expect `resp` and, when `expect` is `Some((mask, value))`, `rdata & mask == value`.
    Read {
        addr: u32,
        resp: u32,
        expect: Option<(u32, u32)>,
    },
}

/// Build the generic CSR plan for `insts` (see the module docs).
pub fn plan(insts: &[Inst]) -> Vec<(Op, &'static str)> {
    use std::collections::HashMap;
    let mut shadow: HashMap<(u32, &'static str, u32), u32> = HashMap::new();
    for i in insts {
        shadow.entry(i.key).or_insert(i.reg.reset());
    }
    let readable = |i: &Inst| i.reg.access != Access::Wo;
    let checked = |i: &Inst| readable(i) && !i.reg.volatile;
    let plain_rw = |i: &Inst| i.reg.access == Access::Rw && i.reg.effect.is_empty();
    let mut ops: Vec<(Op, &'static str)> = Vec::new();
    let read_exp = |i: &Inst, v: u32| Op::Read {
        addr: i.addr,
        resp: AXI_RESP_OKAY,
        expect: Some((u32::MAX, v)),
    };
    // (1) reset values; WO reads 0.
    for i in insts {
        let v = if readable(i) { i.reg.reset() } else { 0 };
        ops.push((read_exp(i, v), "hw_reset"));
    }
    // (2) read/write, bit-bash, aliasing.
    for (n, i) in insts.iter().enumerate().filter(|(_, i)| plain_rw(i)) {
        let mask = i.reg.layout.mask();
        let mut vals = vec![
            u32::MAX,
            0,
            0xA5A5_5A5A ^ (n as u32).wrapping_mul(0x0101_0101),
        ];
        if n == insts
            .iter()
            .position(|j| j.reg.name == i.reg.name)
            .unwrap_or(n)
        {
            // Bit-bash on the first instance of each register.
            vals.extend((0..32).map(|b| 1u32 << b).filter(|v| v & mask != 0));
        }
        for (k, v) in vals.iter().enumerate() {
            ops.push((
                Op::Write {
                    addr: i.addr,
                    data: *v,
                    resp: AXI_RESP_OKAY,
                },
                if k < 3 { "rw" } else { "bit_bash" },
            ));
            shadow.insert(i.key, v & mask);
            ops.push((read_exp(i, v & mask), if k < 3 { "rw" } else { "bit_bash" }));
            if k == 2 {
                for j in insts.iter().filter(|j| checked(j) && j.addr != i.addr) {
                    ops.push((read_exp(j, shadow[&j.key]), "aliasing"));
                }
            }
        }
    }
    // (3) WO: writing 0 answers OKAY and changes nothing.
    for i in insts.iter().filter(|i| i.reg.access == Access::Wo) {
        ops.push((
            Op::Write {
                addr: i.addr,
                data: 0,
                resp: AXI_RESP_OKAY,
            },
            "wo",
        ));
    }
    for j in insts.iter().filter(|j| checked(j)) {
        ops.push((read_exp(j, shadow[&j.key]), "wo"));
    }
    // (4) RO: writes answer SLVERR and change nothing.
    for i in insts.iter().filter(|i| i.reg.access == Access::Ro) {
        ops.push((
            Op::Write {
                addr: i.addr,
                data: u32::MAX,
                resp: AXI_RESP_SLVERR,
            },
            "ro",
        ));
        if checked(i) {
            ops.push((read_exp(i, shadow[&i.key]), "ro"));
        }
    }
    // (5) W1C: all ones clears every bit (the RO writes above set some).
    for i in insts.iter().filter(|i| i.reg.access == Access::W1c) {
        ops.push((
            Op::Write {
                addr: i.addr,
                data: u32::MAX,
                resp: AXI_RESP_OKAY,
            },
            "w1c",
        ));
        ops.push((read_exp(i, 0), "w1c"));
    }
    ops
}

/// Instances of `block` sampled for the CSR tests: per group repetition `reps`
/// (UDMA sides), per array element `elems` of the group (UDMA queues), per
/// register array the elements `idx`.
pub fn instances(
    block: &Block,
    group_reps: &dyn Fn(usize) -> Vec<u32>,
    reg_on: &dyn Fn(u32, &Reg) -> bool,
    idx: &[u32],
) -> Vec<Inst> {
    let mut v = Vec::new();
    for (gi, g) in block.groups.iter().enumerate() {
        for base in group_reps(gi) {
            for r in g.regs {
                if !reg_on(base, r) {
                    continue;
                }
                let ks: Vec<u32> = match r.array {
                    Some(a) => idx.iter().copied().filter(|k| *k < a.count).collect(),
                    None => vec![0],
                };
                for k in ks {
                    v.push(Inst {
                        addr: base + g.base + r.at(k),
                        reg: r,
                        key: (base, r.storage.unwrap_or(r.name), k),
                    });
                }
            }
        }
    }
    v
}

/// The [`AxilOut`](crate::regs::axil::AxilOut) seen on the `s_axil_*` slave
/// outputs of any port bundle (EVT_SEM, UDMA pins): one mapping for every
/// block's CSR environment.
#[macro_export]
macro_rules! axil_out_of {
    ($o:expr) => {{
        let o = &$o;
        $crate::regs::axil::AxilOut {
            awready: o.s_axil_awready == 1,
            wready: o.s_axil_wready == 1,
            bvalid: o.s_axil_bvalid == 1,
            bresp: o.s_axil_bresp as u32,
            arready: o.s_axil_arready == 1,
            rvalid: o.s_axil_rvalid == 1,
            rdata: o.s_axil_rdata as u32,
            rresp: o.s_axil_rresp as u32,
        }
    }};
}

/// A port bundle `$ty` driving `rst_ni` (low while `$reset`) and the
/// `s_axil_*` slave inputs from the [`AxilIn`] `$a`; every other input default.
#[macro_export]
macro_rules! axil_in_to {
    ($ty:ident, $reset:expr, $a:expr) => {
        $ty {
            rst_ni: u64::from(!$reset),
            s_axil_awaddr: u64::from($a.awaddr),
            s_axil_awvalid: u64::from($a.awvalid),
            s_axil_wdata: u64::from($a.wdata),
            s_axil_wstrb: u64::from($a.wstrb),
            s_axil_wvalid: u64::from($a.wvalid),
            s_axil_bready: u64::from($a.bready),
            s_axil_araddr: u64::from($a.araddr),
            s_axil_arvalid: u64::from($a.arvalid),
            s_axil_rready: u64::from($a.rready),
            ..$ty::default()
        }
    };
}

/// `Stimulus::compare_final` of a CSR environment: the first failure of the
/// golden (`golden`) or the RTL (`rtl`) side's sequence, naming `block` and the side.
pub fn compare_sides(block: &str, golden: &CsrSeq, rtl: &CsrSeq) -> Result<(), String> {
    for (twin, s) in [("golden", golden), ("RTL", rtl)] {
        if let Some(f) = &s.first_fail {
            return Err(format!(
                "{block} CSR test on the {twin} side: {} failures, first: {f}",
                s.fails
            ));
        }
    }
    Ok(())
}

/// Plays a CSR plan through an AXI4-Lite master, one transaction at a time.
#[derive(Debug, Clone)]
pub struct CsrSeq {
    ops: std::sync::Arc<Vec<(Op, &'static str)>>,
    next: usize,
    /// Phase of the current op: 0 request, 1 response.
    aw_done: bool,
    w_done: bool,
    phase_resp: bool,
    drove: AxilIn,
    /// Cycles of reset at the start.
    reset_left: u32,
    pub counts: [u64; 7],
    pub fails: u64,
    pub first_fail: Option<String>,
    /// Cycles seen (calls of [`CsrSeq::next`]): the cycle a failure is reported at.
    pub cycle: u64,
    /// Register of each planned address, for failure messages ([`CsrSeq::with_insts`]).
    names: std::sync::Arc<Vec<(u32, &'static Reg)>>,
}

/// `name @addr` of the register at `addr` (or the address alone).
fn reg_at(names: &[(u32, &'static Reg)], addr: u32) -> String {
    match names.iter().find(|(a, _)| *a == addr) {
        Some((_, r)) => format!("{} @{addr:#x}", r.name),
        None => format!("{addr:#x}"),
    }
}

/// The fields of `reg` whose value differs between `got` and `want`
/// (`EN_PREF got 1 expected 0`), or the differing bits outside every field.
pub fn field_diff(reg: &Reg, got: u32, want: u32) -> String {
    let mut parts: Vec<String> = reg
        .layout
        .fields_msb_first()
        .iter()
        .filter(|f| f.get(got) != f.get(want))
        .map(|f| {
            format!(
                "{} got {:#x} expected {:#x}",
                f.name,
                f.get(got),
                f.get(want)
            )
        })
        .collect();
    let outside = (got ^ want) & !reg.layout.mask();
    if outside != 0 {
        parts.push(format!("bits {outside:#010x} outside every field"));
    }
    parts.join(", ")
}

/// Coverage counter names of [`CsrSeq`], in `counts` order.
pub const SEQ_NAMES: [&str; 7] = ["hw_reset", "rw", "bit_bash", "aliasing", "wo", "ro", "w1c"];

impl CsrSeq {
    /// A sequence for `ops`, after `reset` cycles of reset.
    pub fn new(ops: Vec<(Op, &'static str)>, reset: u32) -> Self {
        Self {
            ops: std::sync::Arc::new(ops),
            next: 0,
            aw_done: false,
            w_done: false,
            phase_resp: false,
            drove: AxilIn::default(),
            reset_left: reset,
            counts: [0; 7],
            fails: 0,
            first_fail: None,
            cycle: 0,
            names: std::sync::Arc::new(Vec::new()),
        }
    }

    /// The same sequence naming registers (and their differing fields) in failures.
    pub fn with_insts(mut self, insts: &[Inst]) -> Self {
        self.names = std::sync::Arc::new(insts.iter().map(|i| (i.addr, i.reg)).collect());
        self
    }

    /// Every op answered.
    pub fn done(&self) -> bool {
        self.next >= self.ops.len()
    }

    fn fail(&mut self, msg: String) {
        self.fails += 1;
        let c = self.cycle;
        self.first_fail.get_or_insert(format!("cycle {c}: {msg}"));
    }

    /// `true` while the sequence holds the block in reset.
    pub fn in_reset(&self) -> bool {
        self.reset_left > 0
    }

    /// This cycle's AXI inputs, from the outputs sampled in the previous cycle.
    pub fn next(&mut self, prev: Option<&AxilOut>) -> AxilIn {
        self.cycle += 1;
        if self.reset_left > 0 {
            self.reset_left -= 1;
            self.drove = AxilIn::default();
            return self.drove;
        }
        if let (Some(o), Some((op, seq))) = (prev, self.ops.get(self.next).copied()) {
            let d = self.drove;
            match op {
                Op::Write { addr, data, resp } => {
                    if !self.phase_resp {
                        self.aw_done |= d.awvalid && o.awready;
                        self.w_done |= d.wvalid && o.wready;
                        self.phase_resp = self.aw_done && self.w_done;
                    } else if d.bready && o.bvalid {
                        if o.bresp != resp {
                            let r = reg_at(&self.names, addr);
                            self.fail(format!(
                                "{seq}: write {data:#010x} to {r}: bresp {} (expected {resp})",
                                o.bresp
                            ));
                        }
                        self.finish(seq);
                    }
                }
                Op::Read { addr, resp, expect } => {
                    if !self.phase_resp {
                        self.phase_resp = d.arvalid && o.arready;
                    } else if d.rready && o.rvalid {
                        if o.rresp != resp {
                            let r = reg_at(&self.names, addr);
                            self.fail(format!(
                                "{seq}: read {r}: rresp {} (expected {resp})",
                                o.rresp
                            ));
                        }
                        if let Some((mask, v)) = expect {
                            let got = o.rdata & mask;
                            if got != v {
                                let r = reg_at(&self.names, addr);
                                let fields = self
                                    .names
                                    .iter()
                                    .find(|(a, _)| *a == addr)
                                    .map(|(_, reg)| format!(" [{}]", field_diff(reg, got, v)))
                                    .unwrap_or_default();
                                self.fail(format!(
                                    "{seq}: read {r}: got {got:#010x} expected {v:#010x}{fields}"
                                ));
                            }
                        }
                        self.finish(seq);
                    }
                }
            }
        }
        let mut i = AxilIn::default();
        if let Some((op, _)) = self.ops.get(self.next).copied() {
            match op {
                Op::Write { addr, data, .. } => {
                    if !self.phase_resp {
                        i.awaddr = addr;
                        i.awvalid = !self.aw_done;
                        i.wdata = data;
                        i.wstrb = 0xF;
                        i.wvalid = !self.w_done;
                    } else {
                        i.bready = true;
                    }
                }
                Op::Read { addr, .. } => {
                    if !self.phase_resp {
                        i.araddr = addr;
                        i.arvalid = true;
                    } else {
                        i.rready = true;
                    }
                }
            }
        }
        self.drove = i;
        i
    }

    fn finish(&mut self, seq: &str) {
        if let Some(k) = SEQ_NAMES.iter().position(|n| *n == seq) {
            self.counts[k] += 1;
        }
        self.next += 1;
        self.aw_done = false;
        self.w_done = false;
        self.phase_resp = false;
    }

    /// Coverage counters: ops passed per sequence, then `csr_fail` and `csr_left`.
    pub fn coverage(&self) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = SEQ_NAMES
            .iter()
            .zip(self.counts)
            .map(|(n, c)| (format!("csr_{n}"), c))
            .collect();
        v.push(("csr_fail".into(), self.fails));
        v.push((
            "csr_left".into(),
            (self.ops.len() - self.next.min(self.ops.len())) as u64,
        ));
        v
    }
}

#[cfg(test)]
mod tests {
    use crate::evt_sem::csr::EvtSemCsr;
    use crate::evt_sem::{EvtSem, EvtSemIn, EvtSemOut};
    use crate::ports::{CycleModel, Stimulus};
    use crate::udma::csr::UdmaCsr;
    use crate::udma::{UdmaEngine, W128, W32};

    fn run<G: CycleModel, S: Stimulus<In = G::In, Out = G::Out>>(mut g: G, mut s: S, n: u64) -> S {
        let mut out = None;
        for c in 0..n {
            let i = s.next(c, out.as_ref());
            out = Some(g.step(&i));
        }
        s
    }

    #[test]
    fn evt_sem_csr_tests_pass_on_the_golden_model_and_cover_every_sequence() {
        let s = run(EvtSem::new(), EvtSemCsr::new(1, 0), 60_000);
        assert!(s.seq.done(), "plan not finished: {:?}", s.coverage());
        assert_eq!(s.seq.first_fail, None);
        for (name, n) in s.coverage() {
            if name != "csr_fail" && name != "csr_left" {
                assert!(n > 0, "{name}");
            }
        }
    }

    #[test]
    fn udma_csr_tests_pass_on_the_golden_model_at_every_width() {
        fn one<W: crate::udma::UdmaWidth>() {
            let s = run(UdmaEngine::<W>::new(), UdmaCsr::<W>::new(1, 0), 200_000);
            assert!(s.seq.done(), "plan not finished: {:?}", s.coverage());
            assert_eq!(s.seq.first_fail, None);
            assert!(s
                .coverage()
                .iter()
                .all(|(n, c)| *c > 0 || n == "csr_fail" || n == "csr_left"));
        }
        one::<crate::udma::W64>();
        one::<W32>();
        one::<W128>();
    }

    /// A seeded register bug: EVENT[1] aliases EVENT[0] (index bit 0 ignored on writes).
    #[derive(Clone)]
    struct AliasBug(EvtSem);
    impl CycleModel for AliasBug {
        type In = EvtSemIn;
        type Out = EvtSemOut;
        fn step(&mut self, i: &EvtSemIn) -> EvtSemOut {
            let mut j = *i;
            if j.s_axil_awaddr == 0x4 {
                j.s_axil_awaddr = 0x0;
            }
            self.0.step(&j)
        }
    }

    #[test]
    fn the_csr_tests_catch_a_seeded_aliasing_bug() {
        let s = run(AliasBug(EvtSem::new()), EvtSemCsr::new(1, 0), 60_000);
        assert!(s.seq.fails > 0);
        let f = s.seq.first_fail.unwrap();
        // Cycle, register, field and both values are named.
        assert!(f.starts_with("cycle "), "{f}");
        assert!(f.contains("read EVENT @0x"), "{f}");
        assert!(f.contains("[VALUE got 0x"), "{f}");
        assert!(f.contains("expected 0x"), "{f}");
    }
}
