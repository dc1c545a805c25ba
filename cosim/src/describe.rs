//! Named transactions for the mismatch history: per block, a decoder of one
//! cycle's ports (inputs and the outputs of one side) into what happened on
//! its buses — `s_axil AW addr=0x01830 SEM_INCR[12]`, `m_axi W beat 3/16
//! last=0`, `m_axi B resp=OKAY`, `inc p3 sem[12]+=1` — instead of packed hex.
//!
//! A transfer is reported in the cycle whose sample point shows VALID and
//! READY both high (it completes at that cycle's rising edge, the lockstep's
//! step contract). Signals are found by name in the block's port lists, so an
//! AXI interface is described the same way on every block that has it; the
//! per-block part is only which interfaces exist and how addresses and
//! block-specific ports read (`spec`).
//!
//! W and R beats are numbered within their burst (`beat k/n`, n = AxLEN+1 of
//! the AW/AR the burst belongs to, W bursts paired with AWs in order, W may
//! run ahead of its AW). The numbering needs the whole run, not only the
//! history window, so a [`BeatTrack`] follows the handshakes every cycle
//! (a few bit tests per cycle, only on blocks with an AXI4 burst master) and
//! stores one word per channel in each history row; `n` is `?` for a W burst
//! whose AW has not been accepted yet.

use std::fmt::Write as _;

use sb2sb_model::evt_sem::regs::{Reg, SemWindow};
use sb2sb_model::ports::{total_words, BlockDesc, Signal};
use sb2sb_model::udma::regs as ur;

/// The packed ports of one cycle: inputs and the outputs of one side.
#[derive(Clone, Copy)]
pub struct Ports<'a> {
    block: &'a BlockDesc,
    ins: &'a [u64],
    outs: &'a [u64],
}

fn find<'w>(sigs: &[Signal], words: &'w [u64], name: &str) -> Option<(Signal, &'w [u64])> {
    let mut off = 0;
    for s in sigs {
        let n = s.words();
        if s.name == name {
            return words.get(off..off + n).map(|w| (*s, w));
        }
        off += n;
    }
    None
}

impl<'a> Ports<'a> {
    /// `ins`/`outs`: packed as [`sb2sb_model::ports::PortBundle::pack`] does.
    pub fn new(block: &'a BlockDesc, ins: &'a [u64], outs: &'a [u64]) -> Self {
        Self { block, ins, outs }
    }

    fn get(&self, name: &str) -> Option<(Signal, &'a [u64])> {
        find(self.block.inputs, self.ins, name)
            .or_else(|| find(self.block.outputs, self.outs, name))
    }

    /// Low 64 bits of a port (0 when the block has no such port).
    fn v(&self, name: &str) -> u64 {
        self.get(name).map_or(0, |(_, w)| w[0])
    }

    fn bit(&self, name: &str) -> bool {
        self.v(name) & 1 == 1
    }

    fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Hex of a (possibly wide) port, shortened to its low 64 bits with `…`.
    fn hex(&self, name: &str) -> String {
        match self.get(name) {
            Some((s, w)) if s.width > 64 => format!("0x…{:016x}", w[0]),
            Some((_, w)) => format!("{:#x}", w[0]),
            None => "?".into(),
        }
    }
}

/// AXI response code name.
pub fn resp_name(r: u64) -> &'static str {
    match r & 3 {
        0 => "OKAY",
        1 => "EXOKAY",
        2 => "SLVERR",
        _ => "DECERR",
    }
}

/// What an interface is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// AXI4-Lite (no LEN/LAST): register accesses.
    Lite,
    /// AXI4 with bursts.
    Full,
    /// AXI4-Stream.
    Stream,
}

/// One bus interface of a block: the common prefix of its port names.
#[derive(Clone, Copy)]
struct Bus {
    prefix: &'static str,
    kind: Kind,
    /// Register name of a (Lite) address.
    reg_name: Option<fn(u64) -> String>,
}

/// A block's describer: its interfaces and block-specific ports.
struct Spec {
    buses: &'static [Bus],
    extra: Option<fn(&Ports, &mut Vec<String>)>,
}

fn spec(block: &str) -> Option<Spec> {
    Some(match block {
        "decoder" => Spec {
            buses: &[],
            extra: Some(decoder_extra),
        },
        "evt_sem" => Spec {
            buses: &[Bus {
                prefix: "s_axil_",
                kind: Kind::Lite,
                reg_name: Some(evt_sem_reg),
            }],
            extra: Some(evt_sem_extra),
        },
        "leg" => Spec {
            buses: &[
                Bus {
                    prefix: "s_axil_a_",
                    kind: Kind::Lite,
                    reg_name: Some(leg_reg),
                },
                Bus {
                    prefix: "s_axil_b_",
                    kind: Kind::Lite,
                    reg_name: Some(leg_reg),
                },
            ],
            extra: Some(leg_extra),
        },
        b if b.starts_with("udma") => Spec {
            buses: &[
                Bus {
                    prefix: "s_axil_",
                    kind: Kind::Lite,
                    reg_name: Some(udma_reg),
                },
                Bus {
                    prefix: "m_axi_",
                    kind: Kind::Full,
                    reg_name: None,
                },
                Bus {
                    prefix: "m_axis_",
                    kind: Kind::Stream,
                    reg_name: None,
                },
                Bus {
                    prefix: "s_axis_",
                    kind: Kind::Stream,
                    reg_name: None,
                },
            ],
            extra: Some(udma_extra),
        },
        _ => return None,
    })
}

/// Describes consecutive cycles of one side of one block.
pub struct Describer {
    spec: Option<Spec>,
    prev_irq: Option<(u64, u64)>,
}

impl Describer {
    /// The describer of `block` (one that describes nothing for an unknown block).
    pub fn new(block: &BlockDesc) -> Self {
        Self {
            spec: spec(block.name),
            prev_irq: None,
        }
    }

    /// Whether this block has a describer.
    pub fn known(&self) -> bool {
        self.spec.is_some()
    }

    /// The named events of one cycle, in port order; `beats` is the row's
    /// [`BeatTrack`] record (empty: beats unnumbered).
    pub fn cycle(&mut self, p: &Ports, beats: &[u64]) -> Vec<String> {
        let mut ev = Vec::new();
        let Some(spec) = &self.spec else {
            return ev;
        };
        if p.has("rst_ni") && !p.bit("rst_ni") {
            ev.push("reset".into());
            return ev;
        }
        let many = spec.buses.len() > 1;
        let mut beats = beats.iter().copied();
        for bus in spec.buses {
            let (w, r) = if bus.kind == Kind::Full {
                (beats.next().unwrap_or(0), beats.next().unwrap_or(0))
            } else {
                (0, 0)
            };
            describe_bus(p, bus, (w, r), many, &mut ev);
        }
        if let Some(x) = spec.extra {
            x(p, &mut ev);
        }
        if spec.buses.iter().any(|b| b.prefix == "m_axi_") {
            let irq = (p.v("irq_o"), p.v("err_irq_o"));
            if let Some(old) = self.prev_irq {
                if irq.0 != old.0 {
                    ev.push(format!("irq_o={}", irq.0));
                }
                if irq.1 != old.1 {
                    ev.push(format!("err_irq_o={}", irq.1));
                }
            }
            self.prev_irq = Some(irq);
        }
        ev
    }
}

/// `beat k/n` from a [`BeatTrack`] word (`beat ?/?` when none was tracked).
fn beat_label(word: u64) -> String {
    let k = word & 0xFFFF;
    let n = (word >> 16) & 0xFFFF;
    let ks = if k == 0 {
        "?".to_string()
    } else {
        k.to_string()
    };
    let ns = if n == 0 {
        "?".to_string()
    } else {
        n.to_string()
    };
    format!("beat {ks}/{ns}")
}

fn describe_bus(p: &Ports, bus: &Bus, beats: (u64, u64), many: bool, ev: &mut Vec<String>) {
    let x = bus.prefix;
    let tag = if many {
        format!("{} ", x.trim_end_matches('_'))
    } else {
        String::new()
    };
    let hs = |ch: &str| p.bit(&format!("{x}{ch}valid")) && p.bit(&format!("{x}{ch}ready"));
    let n = |f: &str| format!("{x}{f}");
    if bus.kind == Kind::Stream {
        if hs("t") {
            let mut s = format!(
                "{tag}T tid={} keep={} last={}",
                p.v(&n("tid")),
                p.hex(&n("tkeep")),
                p.v(&n("tlast"))
            );
            if p.bit(&n("tuser")) {
                s.push_str(" tuser=1");
            }
            let _ = write!(s, " data={}", p.hex(&n("tdata")));
            ev.push(s);
        }
        return;
    }
    let name_of = |a: u64| {
        bus.reg_name
            .map(|f| format!(" {}", f(a)))
            .unwrap_or_default()
    };
    if hs("aw") {
        let a = p.v(&n("awaddr"));
        if bus.kind == Kind::Full {
            let len = p.v(&n("awlen"));
            ev.push(format!(
                "{tag}AW addr={a:#x} len={len} size={}",
                p.v(&n("awsize"))
            ));
        } else {
            ev.push(format!("{tag}AW addr={a:#x}{}", name_of(a)));
        }
    }
    if hs("w") {
        if bus.kind == Kind::Full {
            let last = p.bit(&n("wlast"));
            ev.push(format!(
                "{tag}W {} last={} strb={}",
                beat_label(beats.0),
                u8::from(last),
                p.hex(&n("wstrb"))
            ));
        } else {
            ev.push(format!(
                "{tag}W data={:#010x} strb={:#x}",
                p.v(&n("wdata")),
                p.v(&n("wstrb"))
            ));
        }
    }
    if hs("b") {
        ev.push(format!("{tag}B resp={}", resp_name(p.v(&n("bresp")))));
    }
    if hs("ar") {
        let a = p.v(&n("araddr"));
        if bus.kind == Kind::Full {
            let len = p.v(&n("arlen"));
            ev.push(format!(
                "{tag}AR addr={a:#x} len={len} size={}",
                p.v(&n("arsize"))
            ));
        } else {
            ev.push(format!("{tag}AR addr={a:#x}{}", name_of(a)));
        }
    }
    if hs("r") {
        let resp = resp_name(p.v(&n("rresp")));
        if bus.kind == Kind::Full {
            let last = p.bit(&n("rlast"));
            ev.push(format!(
                "{tag}R {} last={} resp={resp}",
                beat_label(beats.1),
                u8::from(last)
            ));
        } else {
            ev.push(format!(
                "{tag}R data={:#010x} resp={resp}",
                p.v(&n("rdata"))
            ));
        }
    }
}

// ---------------------------------------------------------------- decoder

fn decoder_extra(p: &Ports, ev: &mut Vec<String>) {
    use sb2sb_model::addr::{ADDR_OP_DECODE, ADDR_OP_FOLD_CHIP, ADDR_OP_FOLD_NEIGHBOR};
    let op_name = |op: u64| match op {
        o if o == u64::from(ADDR_OP_DECODE) => "DECODE",
        o if o == u64::from(ADDR_OP_FOLD_CHIP) => "FOLD_CHIP",
        o if o == u64::from(ADDR_OP_FOLD_NEIGHBOR) => "FOLD_NEIGHBOR",
        _ => "OP3",
    };
    if p.bit("valid_i") {
        let op = p.v("op_i");
        let arg = if op == u64::from(ADDR_OP_DECODE) || op == 3 {
            format!("addr={:#x}", p.v("addr_i"))
        } else {
            format!(
                "local={:#x} die={} chip_id={}",
                p.v("local_i"),
                p.v("die_i"),
                p.v("chip_id_i")
            )
        };
        ev.push(format!("req {} {arg}", op_name(op)));
    }
    if p.bit("valid_o") {
        let mut s = format!(
            "resp {} addr={:#x} local={:#x} die={}",
            op_name(p.v("op_o")),
            p.v("addr_o"),
            p.v("local_o"),
            p.v("die_o")
        );
        if p.bit("id_valid_o") {
            let _ = write!(s, " cayman_id={:#x}", p.v("cayman_id_o"));
        }
        let _ = write!(
            s,
            " route_chip={} route_nbr={}",
            p.v("route_chip_o"),
            p.v("route_nbr_o")
        );
        for f in [
            "exit_seng_o",
            "exit_die_o",
            "neighbor_route_o",
            "peb_o",
            "rsvd_nbr_o",
            "rsvd_mid_o",
            "rsvd_hi_o",
        ] {
            if p.bit(f) {
                let _ = write!(s, " {}", f.trim_end_matches("_o"));
            }
        }
        ev.push(s);
    }
}

// ---------------------------------------------------------------- evt_sem

/// EVT_SEM register name of a byte offset.
pub fn evt_sem_reg(a: u64) -> String {
    match Reg::decode(a as u32) {
        Reg::Event(i) => format!("EVENT[{i}]"),
        Reg::ErrStatus => "ERR_STATUS".into(),
        Reg::FirstErr => "FIRST_ERR".into(),
        Reg::FirstErrData => "FIRST_ERR_DATA".into(),
        Reg::Sem(w, i) => format!(
            "{}[{i}]",
            match w {
                SemWindow::Read => "SEM_READ",
                SemWindow::Set => "SEM_SET",
                SemWindow::Incr => "SEM_INCR",
                SemWindow::Decr => "SEM_DECR",
            }
        ),
        Reg::Unmapped => "unmapped".into(),
    }
}

const EVT_ERR_NAMES: [&str; 5] = [
    "WR_RO",
    "UNMAPPED",
    "PARTIAL_STRB",
    "OVERFLOW",
    "BAD_WAIT_MODE",
];

fn evt_sem_extra(p: &Ports, ev: &mut Vec<String>) {
    use sb2sb_model::evt_sem::io::{lane, NUM_INC, NUM_WAIT};
    let lanes = |name: &str, k: usize, w: usize| p.get(name).map_or(0, |(_, ws)| lane(ws, k, w));
    let valid = p.v("inc_valid_i");
    if valid != 0 {
        let mut s = String::from("inc");
        for k in 0..NUM_INC {
            if (valid >> k) & 1 == 1 {
                let v = lanes("inc_value_i", k, 32) as u32 as i32;
                let _ = write!(s, " p{k}:sem[{}]{v:+}", lanes("inc_idx_i", k, 8));
            }
        }
        ev.push(s);
    }
    let done = p.v("wait_done_o");
    for k in 0..NUM_WAIT {
        if (done >> k) & 1 == 1 {
            ev.push(format!(
                "wait p{k} done mode={:#04x} idx={} value={}",
                lanes("wait_mode_i", k, 8),
                lanes("wait_idx_i", k, 8),
                lanes("wait_value_i", k, 32) as u32 as i32
            ));
        }
    }
    let pulse = p.v("err_pulse_o");
    if pulse != 0 {
        let names: Vec<&str> = (0..EVT_ERR_NAMES.len())
            .filter(|b| (pulse >> b) & 1 == 1)
            .map(|b| EVT_ERR_NAMES[b])
            .collect();
        ev.push(format!("err {}", names.join("|")));
    }
}

// ---------------------------------------------------------------- udma

/// UDMA register name of an engine-space address (`M2S.Q3.RTP_INC`, `S2M.ERR_STATUS`).
pub fn udma_reg(a: u64) -> String {
    let a = a as u32;
    let s2m = (a >> ur::UDMA_SIDE_BIT) & 1 == 1;
    let side = if s2m { "S2M" } else { "M2S" };
    let off = a & ((1 << ur::UDMA_SIDE_BIT) - 1);
    if a >= ur::UDMA_GEN_BASE {
        return "GEN (unmapped)".into();
    }
    if off >= ur::UDMA_Q_ARRAY_BASE {
        let q = (off - ur::UDMA_Q_ARRAY_BASE) / ur::UDMA_Q_STRIDE;
        let qo = (off - ur::UDMA_Q_ARRAY_BASE) % ur::UDMA_Q_STRIDE;
        if q >= ur::UDMA_NUM_QUEUES {
            return format!("{side}+{off:#x} (unmapped)");
        }
        let name = match qo {
            ur::UDMA_Q_DESC_PREF_CFG if !s2m => "DESC_PREF_CFG",
            ur::UDMA_Q_CFG => "CFG",
            ur::UDMA_Q_STATUS => "STATUS",
            ur::UDMA_Q_RBP_LOW => "RBP_LOW",
            ur::UDMA_Q_RBP_HIGH => "RBP_HIGH",
            ur::UDMA_Q_RL => "RL",
            ur::UDMA_Q_RHP => "RHP",
            ur::UDMA_Q_RTP_INC => "RTP_INC",
            ur::UDMA_Q_RTP => "RTP",
            ur::UDMA_Q_RCP => "RCP",
            ur::UDMA_Q_CRBP_LOW => "CRBP_LOW",
            ur::UDMA_Q_CRBP_HIGH => "CRBP_HIGH",
            ur::UDMA_Q_CRHP => "CRHP",
            ur::UDMA_Q_ERR => "ERR",
            ur::UDMA_Q_BYTES => "BYTES",
            ur::UDMA_Q_DROP_BYTES => "DROP_BYTES",
            ur::UDMA_Q_DESC_DONE => "DESC_DONE",
            ur::UDMA_S2M_Q_COMP_CFG if s2m => "COMP_CFG",
            ur::UDMA_M2S_Q_SW_CTRL if !s2m => "SW_CTRL",
            ur::UDMA_S2M_Q_SW_CTRL if s2m => "SW_CTRL",
            _ => return format!("{side}.Q{q}+{qo:#x} (unmapped)"),
        };
        return format!("{side}.Q{q}.{name}");
    }
    let name = match off {
        ur::UDMA_ENG_STATE => "STATE",
        ur::UDMA_ENG_CHANGE_STATE => "CHANGE_STATE",
        ur::UDMA_ENG_ERR_LOG_MASK => "ERR_LOG_MASK",
        ur::UDMA_M2S_CFG_LEN if !s2m => "CFG_LEN",
        ur::UDMA_ENG_ERR_STATUS => "ERR_STATUS",
        ur::UDMA_ENG_INT_STATUS => "INT_STATUS",
        ur::UDMA_ENG_NO_DESC_TOUT => "NO_DESC_TOUT",
        ur::UDMA_ENG_DBG_STATE => "DBG_STATE",
        _ => return format!("{side}+{off:#x} (unmapped)"),
    };
    format!("{side}.{name}")
}

fn udma_extra(_p: &Ports, _ev: &mut Vec<String>) {}

// ---------------------------------------------------------------- leg

/// Q7 port address map of a core (rtl/sb2sb_q7_port.sv): EVT_SEM window,
/// one 256 KiB UDMA window per engine, else memory.
const LEG_EVT_BASE: u64 = 0x1000_0000;
const LEG_EVT_END: u64 = 0x1000_2000;
const LEG_UDMA_BASE: u64 = 0x1100_0000;
const LEG_UDMA_STRIDE: u64 = 0x4_0000;
const LEG_UDMA_END: u64 = 0x1200_0000;

/// Name of a Q7 port address of a leg core.
pub fn leg_reg(a: u64) -> String {
    if (LEG_EVT_BASE..LEG_EVT_END).contains(&a) {
        format!("EVT_SEM.{}", evt_sem_reg(a - LEG_EVT_BASE))
    } else if (LEG_UDMA_BASE..LEG_UDMA_END).contains(&a) {
        let e = (a - LEG_UDMA_BASE) / LEG_UDMA_STRIDE;
        format!(
            "UDMA{e}.{}",
            udma_reg((a - LEG_UDMA_BASE) % LEG_UDMA_STRIDE)
        )
    } else {
        "mem".into()
    }
}

fn leg_extra(p: &Ports, ev: &mut Vec<String>) {
    for c in ["a", "b"] {
        for f in ["irq_o", "err_irq_o", "sem_err_o"] {
            let v = p.v(&format!("{c}_{f}"));
            if v != 0 {
                ev.push(format!("{c}_{f}={v:#x}"));
            }
        }
    }
}

/// Where one field of a cycle's packed ports lives (≤ 64 bits, one word:
/// every signal starts a word of its own, so no shift is needed).
#[derive(Debug, Clone, Copy)]
struct Field {
    out: bool,
    word: usize,
    mask: u64,
}

impl Field {
    fn locate(block: &BlockDesc, name: &str) -> Option<Field> {
        for (out, sigs) in [(false, block.inputs), (true, block.outputs)] {
            let mut bit = 0usize;
            for s in sigs {
                if s.name == name {
                    let w = s.width.min(64);
                    return Some(Field {
                        out,
                        word: bit / 64,
                        mask: if w == 64 { u64::MAX } else { (1 << w) - 1 },
                    });
                }
                bit += 64 * s.words();
            }
        }
        None
    }

    #[inline(always)]
    fn get(&self, ins: &[u64], outs: &[u64]) -> u64 {
        let w = if self.out { outs } else { ins };
        w[self.word] & self.mask
    }

    /// [`Field::get`] from `ports` = `[inputs, outputs]` without a bounds
    /// check: the per-cycle reads of [`BeatTrack::step`].
    ///
    /// # Safety
    /// `ports` are at least as long as the block's packed inputs and
    /// outputs (the block this field was located in).
    #[inline(always)]
    unsafe fn get_fast(&self, ports: &[&[u64]; 2]) -> u64 {
        // SAFETY: `locate` only returns words inside the block's packed
        // image of the field's side (`word` < that side's total words), and
        // the caller guarantees the slice is at least that long.
        let v = unsafe { *ports[usize::from(self.out)].get_unchecked(self.word) };
        v & self.mask
    }
}

/// Outstanding address handshakes remembered per channel.
const TRACK_DEPTH: usize = 64;

/// One burst channel: the address handshake (AW or AR) and its data beats.
#[derive(Debug, Clone)]
struct Chan {
    a_valid: Field,
    a_ready: Field,
    a_len: Field,
    d_valid: Field,
    d_ready: Field,
    d_last: Field,
    /// Beats (AxLEN+1) of accepted bursts whose data has not finished, a ring.
    lens: [u16; TRACK_DEPTH],
    head: usize,
    count: usize,
    /// Data bursts finished before their address was accepted.
    ahead: u32,
    /// Beats of the current data burst so far.
    k: u32,
}

impl Chan {
    fn new(block: &BlockDesc, prefix: &str, a: &str, d: &str) -> Option<Chan> {
        let f = |n: &str| Field::locate(block, &format!("{prefix}{n}"));
        Some(Chan {
            a_valid: f(&format!("{a}valid"))?,
            a_ready: f(&format!("{a}ready"))?,
            a_len: f(&format!("{a}len"))?,
            d_valid: f(&format!("{d}valid"))?,
            d_ready: f(&format!("{d}ready"))?,
            d_last: f(&format!("{d}last"))?,
            lens: [0; TRACK_DEPTH],
            head: 0,
            count: 0,
            ahead: 0,
            k: 0,
        })
    }

    fn clear(&mut self) {
        self.head = 0;
        self.count = 0;
        self.ahead = 0;
        self.k = 0;
    }

    /// One cycle; returns `k | n << 16` for a data beat (n = 0: unknown), else 0.
    /// Most cycles have neither an address nor a data handshake and change
    /// nothing: those return after the four valid/ready reads
    /// ([`Chan::handshake`] does the rest, out of line).
    ///
    /// # Safety
    /// As [`Field::get_fast`]: `ports` (`[inputs, outputs]`) are at least
    /// as long as the block's packed images.
    #[inline(always)]
    unsafe fn step(&mut self, ports: &[&[u64]; 2]) -> u64 {
        // SAFETY: the fields are of this block; the caller checked the lengths.
        let (a, d) = unsafe {
            (
                self.a_valid.get_fast(ports) & self.a_ready.get_fast(ports) == 1,
                self.d_valid.get_fast(ports) & self.d_ready.get_fast(ports) != 0,
            )
        };
        if !(a | d) {
            return 0;
        }
        self.handshake(a, d, ports[0], ports[1])
    }

    /// [`Chan::step`] on a cycle with a handshake: `a` the address one, `d`
    /// the data one.
    #[inline(never)]
    fn handshake(&mut self, a: bool, d: bool, ins: &[u64], outs: &[u64]) -> u64 {
        if a {
            if self.ahead > 0 {
                self.ahead -= 1;
            } else if self.count < TRACK_DEPTH {
                let n = (self.a_len.get(ins, outs) + 1) as u16;
                self.lens[(self.head + self.count) % TRACK_DEPTH] = n;
                self.count += 1;
            }
        }
        if !d {
            return 0;
        }
        self.k += 1;
        let n = if self.count > 0 {
            u64::from(self.lens[self.head])
        } else {
            0
        };
        let rec = u64::from(self.k.min(0xFFFF)) | (n << 16);
        if self.d_last.get(ins, outs) & 1 == 1 {
            self.k = 0;
            if self.count > 0 {
                self.head = (self.head + 1) % TRACK_DEPTH;
                self.count -= 1;
            } else {
                self.ahead += 1;
            }
        }
        rec
    }
}

/// Follows the AXI4 burst channels of a block through a whole run so that
/// history rows can number W and R beats (`beat k/n`). Two words per AXI4
/// master per row (W, then R); none on blocks without one.
#[derive(Debug, Clone)]
pub struct BeatTrack {
    rst: Option<Field>,
    chans: Vec<Chan>,
    /// Packed words of the block's inputs and outputs: every field lies
    /// inside them ([`BeatTrack::step`] checks the images are that long).
    in_words: usize,
    out_words: usize,
}

impl BeatTrack {
    pub fn new(block: &BlockDesc) -> Self {
        let mut chans = Vec::new();
        if let Some(sp) = spec(block.name) {
            for b in sp.buses.iter().filter(|b| b.kind == Kind::Full) {
                // A bus missing a port would shift the words: keep both or none.
                if let (Some(w), Some(r)) = (
                    Chan::new(block, b.prefix, "aw", "w"),
                    Chan::new(block, b.prefix, "ar", "r"),
                ) {
                    chans.push(w);
                    chans.push(r);
                }
            }
        }
        Self {
            rst: Field::locate(block, "rst_ni"),
            chans,
            in_words: total_words(block.inputs),
            out_words: total_words(block.outputs),
        }
    }

    /// Words of one row's record.
    pub fn words(&self) -> usize {
        self.chans.len()
    }

    /// Follow one cycle (golden side) and write its record into `rec`.
    /// Inlined into the runners' loops: on most cycles it is the few
    /// valid/ready reads of `Chan::step`.
    #[inline(always)]
    pub fn step(&mut self, ins: &[u64], outs: &[u64], rec: &mut [u64]) {
        if self.chans.is_empty() {
            return;
        }
        if self.rst.is_some_and(|r| r.get(ins, outs) & 1 == 0) {
            self.reset(rec);
            return;
        }
        assert!(
            ins.len() >= self.in_words && outs.len() >= self.out_words,
            "BeatTrack::step: port images shorter than the block's ({} / {} words, need {} / {})",
            ins.len(),
            outs.len(),
            self.in_words,
            self.out_words
        );
        let ports = [ins, outs];
        for (c, r) in self.chans.iter_mut().zip(rec.iter_mut()) {
            // SAFETY: the images were checked at least as long as the block's.
            *r = unsafe { c.step(&ports) };
        }
    }
}

impl BeatTrack {
    /// A cycle in reset: every channel forgets its bursts; no beats.
    #[cold]
    #[inline(never)]
    fn reset(&mut self, rec: &mut [u64]) {
        for (c, r) in self.chans.iter_mut().zip(rec.iter_mut()) {
            c.clear();
            *r = 0;
        }
    }
}

/// Descriptions of consecutive cycles (`(inputs, outputs)` of one side per
/// row, oldest first), with beats numbered by a [`BeatTrack`] started on the
/// first row: one list of events per row.
pub fn rows(block: &BlockDesc, rows: &[(&[u64], &[u64])]) -> Vec<Vec<String>> {
    let mut d = Describer::new(block);
    let mut t = BeatTrack::new(block);
    let mut rec = vec![0; t.words()];
    rows.iter()
        .map(|(i, o)| {
            t.step(i, o, &mut rec);
            d.cycle(&Ports::new(block, i, o), &rec)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sb2sb_model::ports::PortBundle;
    use sb2sb_model::udma::{UdmaIn, UdmaOut, BLOCK};

    #[test]
    fn udma_register_names_follow_the_map() {
        assert_eq!(udma_reg(0x1038), "M2S.Q0.RTP_INC");
        assert_eq!(udma_reg(0x2_4038), "S2M.Q3.RTP_INC");
        assert_eq!(udma_reg(0x2_0300), "S2M.ERR_STATUS");
        assert_eq!(udma_reg(0x1054), "M2S.Q0+0x54 (unmapped)");
        assert_eq!(udma_reg(0x2_1054), "S2M.Q0.COMP_CFG");
        assert_eq!(leg_reg(0x1000_1830), "EVT_SEM.SEM_INCR[12]");
        assert_eq!(leg_reg(0x1104_1038), "UDMA1.M2S.Q0.RTP_INC");
    }

    fn packed(f: &dyn Fn(&mut UdmaIn, &mut UdmaOut)) -> (Vec<u64>, Vec<u64>) {
        let mut i = UdmaIn {
            rst_ni: 1,
            ..Default::default()
        };
        let mut o = UdmaOut::default();
        f(&mut i, &mut o);
        let (mut iw, mut ow) = (vec![0; UdmaIn::WORDS], vec![0; UdmaOut::WORDS]);
        i.pack(&mut iw);
        o.pack(&mut ow);
        (iw, ow)
    }

    /// A 4-beat AXI4 write burst and its response, a 16-beat burst whose W
    /// runs ahead of its AW, and a stalled beat.
    #[test]
    fn axi4_bursts_read_as_aw_numbered_w_beats_and_b() {
        let mut cyc: Vec<(Vec<u64>, Vec<u64>)> = Vec::new();
        cyc.push(packed(&|i, o| {
            o.m_axi_awvalid = 1;
            o.m_axi_awaddr = 0x8_0040;
            o.m_axi_awlen = 3;
            o.m_axi_awsize = 3;
            i.m_axi_awready = 1;
        }));
        for k in 0..4u64 {
            cyc.push(packed(&|i, o| {
                o.m_axi_wvalid = 1;
                o.m_axi_wlast = u64::from(k == 3);
                o.m_axi_wstrb = 0xFF;
                i.m_axi_wready = 1;
            }));
        }
        cyc.push(packed(&|_i, o| o.m_axi_wvalid = 1));
        cyc.push(packed(&|i, o| {
            i.m_axi_bvalid = 1;
            i.m_axi_bresp = 2;
            o.m_axi_bready = 1;
        }));
        // W before its AW: n unknown until the AW is accepted.
        cyc.push(packed(&|i, o| {
            o.m_axi_wvalid = 1;
            i.m_axi_wready = 1;
        }));
        cyc.push(packed(&|i, o| {
            o.m_axi_wvalid = 1;
            i.m_axi_wready = 1;
            o.m_axi_awvalid = 1;
            o.m_axi_awlen = 15;
            i.m_axi_awready = 1;
        }));
        let rows_in: Vec<(&[u64], &[u64])> = cyc.iter().map(|(i, o)| (&i[..], &o[..])).collect();
        let d: Vec<String> = rows(&BLOCK, &rows_in)
            .into_iter()
            .map(|e| e.join("; "))
            .collect();
        assert_eq!(d[0], "m_axi AW addr=0x80040 len=3 size=3");
        assert_eq!(d[1], "m_axi W beat 1/4 last=0 strb=0xff");
        assert_eq!(d[4], "m_axi W beat 4/4 last=1 strb=0xff");
        assert_eq!(d[5], "", "no transfer without READY");
        assert_eq!(d[6], "m_axi B resp=SLVERR");
        assert_eq!(d[7], "m_axi W beat 1/? last=0 strb=0x0");
        assert_eq!(
            d[8],
            "m_axi AW addr=0x0 len=15 size=0; m_axi W beat 2/16 last=0 strb=0x0"
        );
    }
}
