//! Golden cycle model of `rtl/cayman_addr_decode.sv`: the CAYMAN address
//! decoder/folder with a registered output stage (latency 1).
//!
//! Each cycle with `valid_i = 1` the block computes the address of `op_i`
//! (decode `addr_i`, or fold `local_i`/`die_i`/`chip_id_i`/`exit_seng_i`),
//! classifies its route under both views relative to `self_die_i` /
//! `self_chip_id_i`, and loads the result into its output registers at the
//! clock edge; with `valid_i = 0` the registers hold. `valid_o` is `valid_i`
//! delayed by one cycle. Field outputs are slices of the registered address.
//! Built on [`crate::addr`].

pub mod stim;

use crate::addr::fields::{
    CAYMAN_ID, DIE, EXIT_DIE, EXIT_SENG, ID_VALID, LOCAL, NEIGHBOR_ROUTE, PEB, RSVD_HI, RSVD_MID,
    RSVD_NBR,
};
use crate::addr::fold::{fold_chip_id_masked, fold_neighbor_masked};
use crate::addr::{
    Route, SelfId, ADDR_HOST_BIT, ADDR_OP_FOLD_CHIP, ADDR_OP_FOLD_NEIGHBOR, ADDR_OP_W,
};
use crate::ports::{BlockDesc, CycleModel, PortBundle};

pub use stim::DecoderStim;

crate::port_bundle! {
    /// Inputs of `cayman_addr_decode` (names and widths as in the SV).
    pub struct DecoderIn {
        rst_ni: u64 = 1,
        valid_i: u64 = 1,
        op_i: u64 = 2,
        addr_i: u64 = 64,
        local_i: u64 = 47,
        die_i: u64 = 1,
        chip_id_i: u64 = 6,
        exit_seng_i: u64 = 1,
        self_die_i: u64 = 1,
        self_chip_id_i: u64 = 6,
    }
}

crate::port_bundle! {
    /// Outputs of `cayman_addr_decode` (names and widths as in the SV).
    pub struct DecoderOut {
        valid_o: u64 = 1,
        op_o: u64 = 2,
        addr_o: u64 = 64,
        local_o: u64 = 47,
        die_o: u64 = 1,
        cayman_id_o: u64 = 6,
        id_valid_o: u64 = 1,
        exit_seng_o: u64 = 1,
        exit_die_o: u64 = 1,
        neighbor_route_o: u64 = 1,
        peb_o: u64 = 1,
        rsvd_nbr_o: u64 = 1,
        rsvd_mid_o: u64 = 1,
        rsvd_hi_o: u64 = 1,
        route_chip_o: u64 = 3,
        route_nbr_o: u64 = 3,
    }
}

/// The lockstep block: golden [`Decoder`] ↔ `rtl/cayman_addr_decode.sv`.
pub const BLOCK: BlockDesc = BlockDesc {
    name: "decoder",
    top: "cayman_addr_decode",
    rtl_files: &["sb2sb_pkg.sv", "cayman_addr_decode.sv"],
    params: &[],
    inputs: DecoderIn::SIGNALS,
    outputs: DecoderOut::SIGNALS,
};

/// Test-only fault: flip bit `bit` of output `signal` in the outputs sampled
/// at step number `cycle` (0-based, counting every `step` call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecoderFault {
    pub cycle: u64,
    /// Output port name (an entry of `DecoderOut::SIGNALS`).
    pub signal: &'static str,
    /// Bit within the signal (taken modulo the signal's width).
    pub bit: u32,
}

/// Register state of the output stage (`*_q` in the RTL).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DecoderState {
    pub valid_q: u64,
    pub op_q: u64,
    pub addr_q: u64,
    pub route_chip_q: u64,
    pub route_nbr_q: u64,
}

/// Golden model of `cayman_addr_decode`.
#[derive(Debug, Clone, Default)]
pub struct Decoder {
    /// Output registers.
    pub q: DecoderState,
    /// Steps taken so far (for [`DecoderFault`]).
    pub cycles: u64,
    /// Test-only fault injection; `None` in normal runs.
    pub fault: Option<DecoderFault>,
}

impl Decoder {
    /// A decoder in its reset state.
    pub fn new() -> Self {
        Self::default()
    }

    /// The address of this cycle's operation (`addr_d` in the RTL): the
    /// candidates of the `unique case` are formed and `op_i` selects one
    /// (a select, not a branch on the random op code).
    #[inline(always)]
    pub fn addr_d(i: &DecoderIn) -> u64 {
        let op = i.op_i & ((1 << ADDR_OP_W) - 1);
        let chip = fold_chip_id_masked(i.local_i, i.die_i, i.chip_id_i);
        let nbr = fold_neighbor_masked(i.local_i, i.die_i, i.exit_seng_i);
        // ADDR_OP_DECODE and the unused code 3 decode addr_i.
        let a = if op == u64::from(ADDR_OP_FOLD_NEIGHBOR) {
            nbr
        } else {
            i.addr_i
        };
        if op == u64::from(ADDR_OP_FOLD_CHIP) {
            chip
        } else {
            a
        }
    }

    /// Outputs driven by register state `q`.
    #[inline(always)]
    pub fn outputs(q: &DecoderState) -> DecoderOut {
        let a = q.addr_q;
        DecoderOut {
            valid_o: q.valid_q,
            op_o: q.op_q,
            addr_o: a,
            local_o: LOCAL.get(a),
            die_o: DIE.get(a),
            cayman_id_o: CAYMAN_ID.get(a),
            id_valid_o: ID_VALID.get(a),
            exit_seng_o: EXIT_SENG.get(a),
            exit_die_o: EXIT_DIE.get(a),
            neighbor_route_o: NEIGHBOR_ROUTE.get(a),
            peb_o: PEB.get(a),
            rsvd_nbr_o: u64::from(RSVD_NBR.get(a) != 0),
            rsvd_mid_o: u64::from(RSVD_MID.get(a) != 0),
            rsvd_hi_o: u64::from(RSVD_HI.get(a) != 0),
            route_chip_o: q.route_chip_q,
            route_nbr_o: q.route_nbr_q,
        }
    }

    #[inline(never)]
    fn inject(&self, out: DecoderOut) -> DecoderOut {
        let Some(f) = self.fault else { return out };
        if f.cycle != self.cycles {
            return out;
        }
        let mut w = [0u64; DecoderOut::WORDS];
        out.pack(&mut w);
        let mut off = 0usize;
        for s in DecoderOut::SIGNALS {
            if s.name == f.signal {
                w[off] ^= 1u64 << (f.bit % s.width);
            }
            off += s.words();
        }
        DecoderOut::unpack(&w)
    }
}

/// Route code as a `u64` register value.
#[inline(always)]
const fn code(r: Route) -> u64 {
    r.code() as u64
}

/// `a` if `c`, else `b`, without a branch (the route bits of a random
/// address are random: a branch on each mispredicts half the time).
#[inline(always)]
const fn sel(c: bool, a: u64, b: u64) -> u64 {
    b ^ ((a ^ b) & 0u64.wrapping_sub(c as u64))
}

/// The RTL's `route_of` function: the route code of address `a` under the
/// chip-id view (`nbr_view = false`) or the neighbor view, relative to `me`;
/// the rule of [`crate::addr::classify`] (tested equal), as selects.
#[inline(always)]
pub const fn route_of(a: u64, nbr_view: bool, me: SelfId) -> u64 {
    let host = (a >> ADDR_HOST_BIT) & 1 == 1;
    let same_die = DIE.get(a) == me.die as u64 & 1;
    let local_route = sel(
        host,
        code(Route::Host),
        sel(same_die, code(Route::SameDie), code(Route::OtherDie)),
    );
    let nbr_route = NEIGHBOR_ROUTE.get(a) == 1;
    // Un-routed physical address: neighbor-device aperture, host, or die.
    let unrouted = sel(nbr_route, code(Route::NeighborDevice), local_route);
    // Chip-id view: another chip, or this chip's own map.
    let other_chip = CAYMAN_ID.get(a) != CAYMAN_ID.mask() & me.chip_id as u64;
    let chip = sel(other_chip, code(Route::OtherChip), local_route);
    // Neighbor view, routed: across the die boundary or out to a neighbor device.
    let exit = sel(
        EXIT_DIE.get(a) == 1,
        code(Route::OtherDie),
        code(Route::NeighborDevice),
    );
    let nbr = sel(nbr_route, exit, local_route);
    sel(ID_VALID.get(a) == 0, unrouted, sel(nbr_view, nbr, chip))
}

impl CycleModel for Decoder {
    type In = DecoderIn;
    type Out = DecoderOut;

    #[inline(always)]
    fn step(&mut self, i: &DecoderIn) -> DecoderOut {
        if i.rst_ni & 1 == 0 {
            self.q = DecoderState::default();
        }
        let mut out = Self::outputs(&self.q);
        if self.fault.is_some() {
            out = self.inject(out);
        }
        if i.rst_ni & 1 == 1 {
            self.q.valid_q = i.valid_i & 1;
            if i.valid_i & 1 == 1 {
                let a = Self::addr_d(i);
                let me = SelfId {
                    die: (i.self_die_i & 1) as u8,
                    chip_id: (i.self_chip_id_i & CAYMAN_ID.mask()) as u8,
                };
                self.q.op_q = i.op_i & ((1 << ADDR_OP_W) - 1);
                self.q.addr_q = a;
                self.q.route_chip_q = route_of(a, false, me);
                self.q.route_nbr_q = route_of(a, true, me);
            }
        }
        self.cycles += 1;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addr::{Route, ADDR_CAYMAN_ID_W, ADDR_LOCAL_W, ADDR_OP_DECODE, ROUTE_W};

    /// The select form of `route_of` equals `addr::classify` (the rule of
    /// docs/address.md) on every combination of the bits it reads and on
    /// random addresses, for both views and every self id.
    #[test]
    fn route_of_equals_classify_in_both_views() {
        use crate::addr::fields::{CAYMAN_ID, DIE, EXIT_DIE, ID_VALID, NEIGHBOR_ROUTE};
        use crate::addr::{classify, View};
        let mut addrs = Vec::new();
        for bits in 0u64..64 {
            for chip in [0u64, 1, 17, 63] {
                let mut a = 0u64;
                a = DIE.insert(a, bits & 1);
                a = ID_VALID.insert(a, (bits >> 1) & 1);
                a = NEIGHBOR_ROUTE.insert(a, (bits >> 2) & 1);
                a = EXIT_DIE.insert(a, (bits >> 3) & 1);
                a |= ((bits >> 4) & 1) << ADDR_HOST_BIT;
                a = CAYMAN_ID.insert(a, chip);
                addrs.push(a | ((bits >> 5) << 63));
            }
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            addrs.push(x);
        }
        let mut n = 0;
        for &a in &addrs {
            for die in 0..2u8 {
                for chip_id in [0u8, 1, 17, 63] {
                    let me = SelfId { die, chip_id };
                    let c = u64::from(classify(a, View::ChipId, me).code());
                    let nb = u64::from(classify(a, View::Neighbor, me).code());
                    assert_eq!(route_of(a, false, me), c, "{a:#x} {me:?}");
                    assert_eq!(route_of(a, true, me), nb, "{a:#x} {me:?}");
                    n += 1;
                }
            }
        }
        assert_eq!(n, addrs.len() * 8);
    }

    fn run(d: &mut Decoder, i: DecoderIn) -> DecoderOut {
        d.step(&i)
    }

    fn op(op: u8) -> DecoderIn {
        DecoderIn {
            rst_ni: 1,
            valid_i: 1,
            op_i: op.into(),
            ..Default::default()
        }
    }

    #[test]
    fn port_widths_equal_the_package_constants() {
        let w = |name: &str| {
            DecoderIn::SIGNALS
                .iter()
                .chain(DecoderOut::SIGNALS)
                .find(|s| s.name == name)
                .unwrap()
                .width
        };
        assert_eq!(w("local_i"), ADDR_LOCAL_W);
        assert_eq!(w("local_o"), ADDR_LOCAL_W);
        assert_eq!(w("chip_id_i"), ADDR_CAYMAN_ID_W);
        assert_eq!(w("self_chip_id_i"), ADDR_CAYMAN_ID_W);
        assert_eq!(w("cayman_id_o"), ADDR_CAYMAN_ID_W);
        assert_eq!(w("op_i"), ADDR_OP_W);
        assert_eq!(w("op_o"), ADDR_OP_W);
        assert_eq!(w("route_chip_o"), ROUTE_W);
        assert_eq!(w("route_nbr_o"), ROUTE_W);
    }

    /// Seed 001 §8 worked example through the block: latency 1.
    #[test]
    fn seed001_s8_worked_example_through_the_decoder_block() {
        let mut d = Decoder::new();
        let i = DecoderIn {
            local_i: 0x10_0000,
            die_i: 1,
            ..op(ADDR_OP_FOLD_NEIGHBOR)
        };
        let o0 = run(&mut d, i);
        assert_eq!(o0.valid_o, 0, "latency 1: nothing valid in the first cycle");
        let o1 = run(
            &mut d,
            DecoderIn {
                rst_ni: 1,
                ..Default::default()
            },
        );
        assert_eq!(o1.valid_o, 1);
        assert_eq!(o1.addr_o, 0x58800000100000);
        assert_eq!(
            (o1.exit_die_o, o1.neighbor_route_o, o1.id_valid_o, o1.die_o),
            (1, 1, 1, 1)
        );
        assert_eq!(o1.route_nbr_o, u64::from(Route::OtherDie.code()));
        // Registers hold while valid_i = 0.
        let o2 = run(
            &mut d,
            DecoderIn {
                rst_ni: 1,
                ..Default::default()
            },
        );
        assert_eq!(o2.valid_o, 0);
        assert_eq!(o2.addr_o, 0x58800000100000);
    }

    #[test]
    fn seed001_s8_cross_package_example_through_the_decoder_block() {
        let mut d = Decoder::new();
        run(
            &mut d,
            DecoderIn {
                local_i: 0x10_0000,
                die_i: 1,
                chip_id_i: 0x12,
                ..op(ADDR_OP_FOLD_CHIP)
            },
        );
        let o = run(&mut d, op(ADDR_OP_DECODE));
        assert_eq!(o.addr_o, 0x0052_8000_0010_0000);
        assert_ne!(o.addr_o, 0x4012_8000_0010_0000);
        assert_eq!(o.cayman_id_o, 0x12);
        assert_eq!(o.route_chip_o, u64::from(Route::OtherChip.code()));
    }

    #[test]
    fn reset_clears_state_before_the_outputs_are_sampled() {
        let mut d = Decoder::new();
        run(
            &mut d,
            DecoderIn {
                addr_i: u64::MAX,
                ..op(ADDR_OP_DECODE)
            },
        );
        let o = run(
            &mut d,
            DecoderIn {
                rst_ni: 0,
                valid_i: 1,
                addr_i: 5,
                ..Default::default()
            },
        );
        assert_eq!(o, DecoderOut::default());
        let o = run(
            &mut d,
            DecoderIn {
                rst_ni: 1,
                ..Default::default()
            },
        );
        assert_eq!(o, DecoderOut::default(), "stays reset through the edge");
    }

    /// An address with a bit set in each reserved field (bits 48, 56 and 63, from
    /// the address map) raises each of the three reserved-field flags.
    #[test]
    fn decode_flags_reserved_fields() {
        let mut d = Decoder::new();
        run(
            &mut d,
            DecoderIn {
                addr_i: (1 << 48) | (1 << 56) | (1 << 63),
                ..op(ADDR_OP_DECODE)
            },
        );
        let o = run(&mut d, op(ADDR_OP_DECODE));
        assert_eq!((o.rsvd_nbr_o, o.rsvd_mid_o, o.rsvd_hi_o), (1, 1, 1));
    }

    #[test]
    fn fault_flips_exactly_one_output_bit_at_the_chosen_cycle() {
        let mut good = Decoder::new();
        let mut bad = Decoder {
            fault: Some(DecoderFault {
                cycle: 3,
                signal: "route_nbr_o",
                bit: 1,
            }),
            ..Decoder::new()
        };
        for c in 0..6u64 {
            let i = DecoderIn {
                addr_i: c * 0x1234_5678_9ABC,
                ..op(ADDR_OP_DECODE)
            };
            let (g, b) = (good.step(&i), bad.step(&i));
            if c == 3 {
                assert_eq!(g.route_nbr_o ^ b.route_nbr_o, 0b10);
                assert_eq!(
                    DecoderOut {
                        route_nbr_o: g.route_nbr_o,
                        ..b
                    },
                    g
                );
            } else {
                assert_eq!(g, b, "cycle {c}");
            }
        }
    }
}
