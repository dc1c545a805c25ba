//! Stimulus for the decoder block: reset, the directed seed vectors, then
//! seeded constrained-random traffic with random reset pulses. Coverage
//! counts what the block produced (observed on the previous cycle's outputs).

use super::{DecoderIn, DecoderOut};
use crate::addr::fields::{
    CAYMAN_ID, DIE, EXIT_DIE, EXIT_SENG, ID_VALID, LOCAL, NEIGHBOR_ROUTE, PEB, RSVD_HI, RSVD_MID,
    RSVD_NBR,
};
use crate::addr::{Route, ADDR_HOST_BIT, ADDR_OP_DECODE, ADDR_OP_FOLD_CHIP, ADDR_OP_FOLD_NEIGHBOR};
use crate::ports::Stimulus;
use crate::stim::StimRng;

/// This core's position used by the directed vectors (seed 001 §8: die 0).
const SELF_DIE: u64 = 0;
/// This core's chip id in the directed vectors (illustrative).
const SELF_CHIP: u64 = 5;

const fn decode(addr: u64) -> DecoderIn {
    DecoderIn {
        rst_ni: 1,
        valid_i: 1,
        op_i: ADDR_OP_DECODE as u64,
        addr_i: addr,
        local_i: 0,
        die_i: 0,
        chip_id_i: 0,
        exit_seng_i: 0,
        self_die_i: SELF_DIE,
        self_chip_id_i: SELF_CHIP,
    }
}

const fn fold_chip(local: u64, die: u64, chip: u64) -> DecoderIn {
    DecoderIn {
        op_i: ADDR_OP_FOLD_CHIP as u64,
        local_i: local,
        die_i: die,
        chip_id_i: chip,
        ..decode(0)
    }
}

const fn fold_nbr(local: u64, die: u64, seng: u64) -> DecoderIn {
    DecoderIn {
        op_i: ADDR_OP_FOLD_NEIGHBOR as u64,
        local_i: local,
        die_i: die,
        exit_seng_i: seng,
        ..decode(0)
    }
}

const RESET: DecoderIn = DecoderIn {
    rst_ni: 0,
    valid_i: 0,
    ..decode(0)
};
const IDLE: DecoderIn = DecoderIn {
    valid_i: 0,
    ..decode(0)
};

/// Directed vectors, driven first (after two reset cycles).
pub const DIRECTED: &[DecoderIn] = &[
    RESET,
    RESET,
    // Seed 001 §8 worked example: neighbor fold → 0x58800000100000.
    fold_nbr(0x10_0000, 1, 0),
    // Seed 001 §8 cross-package example from the field table → 0x0052_8000_0010_0000.
    fold_chip(0x10_0000, 1, 0x12),
    decode(0x0058_8000_0010_0000),
    decode(0x0052_8000_0010_0000),
    // The seed's slip values, decoded as given (dropped zeros; printed cross-package value).
    decode(0x0000_5880_0010_0000),
    decode(0x4012_8000_0010_0000),
    // PUBLIC-FACTS §3 apertures: host bit 46, die bit 47, neighbor devices bit 52 | n << 50.
    decode(1 << 46),
    decode(1 << 47),
    decode(0x0010_0000_0000_0000),
    decode(0x0014_0000_0000_0000),
    decode(0x0018_0000_0000_0000),
    decode(0x001C_0000_0000_0000),
    // Reserved-bit cases, one at a time.
    decode(0b11 << 48),
    decode(0b11 << 55),
    decode(0x7F << 57),
    // Folds at the field limits and this chip's own id.
    fold_chip((1 << 47) - 1, 1, 63),
    fold_chip(0, 0, SELF_CHIP),
    fold_chip(1 << 46, 1, SELF_CHIP),
    fold_nbr((1 << 47) - 1, 0, 1),
    decode(u64::MAX),
    decode(0),
    // Unused op code 3 decodes addr_i.
    DecoderIn {
        op_i: 3,
        ..decode(0x0058_8000_0010_0000)
    },
    IDLE,
];

/// Coverage counter names, in the order of [`DecoderStim::coverage`].
pub const COVERAGE_NAMES: [&str; 20] = [
    "route.chip_view.same_die",
    "route.chip_view.other_die",
    "route.chip_view.other_chip",
    "route.chip_view.neighbor_device",
    "route.chip_view.host",
    "route.neighbor_view.same_die",
    "route.neighbor_view.other_die",
    "route.neighbor_view.neighbor_device",
    "route.neighbor_view.host",
    "rsvd.none",
    "rsvd.nbr_49_48",
    "rsvd.mid_56_55",
    "rsvd.hi_63_57",
    "op.decode",
    "op.fold_chip",
    "op.fold_neighbor",
    "op.unused_3",
    "view.unrouted",
    "view.chip_id",
    "view.neighbor",
];

/// Index of the first neighbor-view route counter. The neighbor view has no
/// other-chip class (route rule, docs/address.md), so it has four counters.
const C_ROUTE_NBR: usize = 5;
const C_RSVD: usize = 9;
const C_OP: usize = 13;
const C_VIEW: usize = 17;

/// Seeded stimulus for `cayman_addr_decode`.
#[derive(Debug, Clone)]
pub struct DecoderStim {
    rng: StimRng,
    /// Cycles left in the current reset pulse.
    reset_left: u32,
    self_die: u64,
    self_chip: u64,
    counts: [u64; COVERAGE_NAMES.len()],
    /// Reset cycles driven.
    pub resets: u64,
}

impl DecoderStim {
    fn random(&mut self) -> DecoderIn {
        let r = &mut self.rng;
        if self.reset_left > 0 {
            self.reset_left -= 1;
            return DecoderIn {
                rst_ni: 0,
                valid_i: r.u64() & 1,
                addr_i: r.u64(),
                ..decode(0)
            };
        }
        if r.chance(1, 400) {
            self.reset_left = r.range(0, 2) as u32;
            return DecoderIn {
                rst_ni: 0,
                valid_i: r.u64() & 1,
                addr_i: r.u64(),
                ..decode(0)
            };
        }
        // This core's position changes now and then.
        if r.chance(1, 64) {
            self.self_die = r.u64() & 1;
            self.self_chip = r.below(64);
        }
        let local = match r.below(4) {
            0 => r.u64() & LOCAL.mask() & !(1 << ADDR_HOST_BIT),
            1 => r.u64() & LOCAL.mask(),
            2 => r.below(1 << 24),
            _ => *r.pick(&[0, LOCAL.mask(), 1 << ADDR_HOST_BIT, 0x10_0000]),
        };
        let die = if r.bool() {
            self.self_die
        } else {
            self.self_die ^ 1
        };
        let chip = if r.chance(1, 3) {
            self.self_chip
        } else {
            r.below(64)
        };
        let mut i = DecoderIn {
            rst_ni: 1,
            valid_i: u64::from(!r.chance(1, 8)),
            op_i: 0,
            addr_i: 0,
            // Unused input bits are random too (they must not matter).
            local_i: local,
            die_i: die,
            chip_id_i: chip,
            exit_seng_i: r.u64() & 1,
            self_die_i: self.self_die,
            self_chip_id_i: self.self_chip,
        };
        let pick = r.below(20);
        i.op_i = match pick {
            0..=8 => u64::from(ADDR_OP_DECODE),
            9..=12 => u64::from(ADDR_OP_FOLD_CHIP),
            13..=17 => u64::from(ADDR_OP_FOLD_NEIGHBOR),
            _ => 3,
        };
        // addr_i: structured most of the time, fully random otherwise.
        let mut a = match r.below(6) {
            0 => r.u64(),
            1 => {
                // Chip-id view address.
                let a = LOCAL.insert(0, local);
                let a = DIE.insert(a, die);
                let a = CAYMAN_ID.insert(a, chip);
                ID_VALID.insert(a, r.u64() & 1)
            }
            2 | 3 => {
                // Neighbor view address, any route bits.
                let a = LOCAL.insert(0, local);
                let a = DIE.insert(a, die);
                let a = EXIT_SENG.insert(a, r.u64());
                let a = EXIT_DIE.insert(a, r.u64());
                let a = NEIGHBOR_ROUTE.insert(a, r.u64());
                let a = PEB.insert(a, r.u64());
                ID_VALID.insert(a, r.u64())
            }
            4 => {
                // Un-routed physical apertures.
                let n = r.below(4);
                *r.pick(&[
                    local,
                    local | 1 << ADDR_HOST_BIT,
                    DIE.insert(local, die),
                    0x0010_0000_0000_0000 | n << 50 | (local & 0xFFFF_FFFF),
                ])
            }
            _ => LOCAL.insert(0, local) | (r.u64() & !LOCAL.mask()),
        };
        // Reserved-bit cases, each on its own now and then.
        if r.chance(1, 6) {
            let f = *r.pick(&[RSVD_NBR, RSVD_MID, RSVD_HI]);
            a = f.insert(a, r.range(1, f.mask()));
        } else if r.chance(3, 5) {
            a &= !(RSVD_MID.mask_in_place() | RSVD_HI.mask_in_place());
        }
        i.addr_i = a;
        i
    }

    fn observe(&mut self, o: &DecoderOut) {
        if o.valid_o != 1 {
            return;
        }
        if let Some(r) = Route::from_code(o.route_chip_o) {
            self.counts[usize::from(r.code())] += 1;
        }
        let nbr = match Route::from_code(o.route_nbr_o) {
            Some(Route::SameDie) => Some(0),
            Some(Route::OtherDie) => Some(1),
            Some(Route::NeighborDevice) => Some(2),
            Some(Route::Host) => Some(3),
            Some(Route::OtherChip) | None => None,
        };
        if let Some(k) = nbr {
            self.counts[C_ROUTE_NBR + k] += 1;
        }
        let rsvd = [o.rsvd_nbr_o, o.rsvd_mid_o, o.rsvd_hi_o];
        if rsvd == [0, 0, 0] {
            self.counts[C_RSVD] += 1;
        }
        for (k, f) in rsvd.iter().enumerate() {
            self.counts[C_RSVD + 1 + k] += f & 1;
        }
        self.counts[C_OP + (o.op_o & 3) as usize] += 1;
        let clean = o.rsvd_mid_o == 0 && o.rsvd_hi_o == 0;
        if o.id_valid_o == 0 {
            self.counts[C_VIEW] += 1;
        } else if clean {
            self.counts[C_VIEW + 1] += 1;
            if o.neighbor_route_o == 1 && o.rsvd_nbr_o == 0 {
                self.counts[C_VIEW + 2] += 1;
            }
        }
    }

    /// Counter value by name (0 for an unknown name).
    pub fn count(&self, name: &str) -> u64 {
        COVERAGE_NAMES
            .iter()
            .position(|n| *n == name)
            .map_or(0, |k| self.counts[k])
    }
}

impl Stimulus for DecoderStim {
    type In = DecoderIn;
    type Out = DecoderOut;

    fn new(seed: u64, _cycles: u64) -> Self {
        Self {
            rng: StimRng::new(seed ^ 0xADD2_DEC0),
            reset_left: 0,
            self_die: SELF_DIE,
            self_chip: SELF_CHIP,
            counts: [0; COVERAGE_NAMES.len()],
            resets: 0,
        }
    }

    fn next(&mut self, cycle: u64, prev_out: Option<&DecoderOut>) -> DecoderIn {
        if let Some(o) = prev_out {
            self.observe(o);
        }
        let i = match DIRECTED.get(cycle as usize) {
            Some(v) => *v,
            None => self.random(),
        };
        self.resets += u64::from(i.rst_ni == 0);
        i
    }

    fn coverage(&self) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = COVERAGE_NAMES
            .iter()
            .zip(self.counts)
            .map(|(n, c)| (n.to_string(), c))
            .collect();
        v.push(("reset_cycles".to_string(), self.resets));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoder::Decoder;
    use crate::ports::CycleModel;

    fn drive(seed: u64, cycles: u64) -> DecoderStim {
        let mut s = DecoderStim::new(seed, cycles);
        let mut d = Decoder::new();
        let mut prev = None;
        for c in 0..cycles {
            let i = s.next(c, prev.as_ref());
            prev = Some(d.step(&i));
        }
        s
    }

    #[test]
    fn directed_vectors_come_first_and_give_the_seed_values() {
        let mut s = DecoderStim::new(1, 100);
        let mut d = Decoder::new();
        let mut outs = vec![];
        let mut prev = None;
        for c in 0..DIRECTED.len() as u64 + 1 {
            let i = s.next(c, prev.as_ref());
            if (c as usize) < DIRECTED.len() {
                assert_eq!(i, DIRECTED[c as usize]);
            }
            let o = d.step(&i);
            outs.push(o);
            prev = Some(o);
        }
        // Latency 1: vector k's result appears at step k + 1.
        assert_eq!(outs[3].addr_o, 0x0058_8000_0010_0000);
        assert_eq!(outs[4].addr_o, 0x0052_8000_0010_0000);
    }

    #[test]
    fn every_coverage_bin_is_hit_in_20k_cycles() {
        let s = drive(7, 20_000);
        for (name, n) in s.coverage() {
            assert!(n > 0, "coverage bin {name} never hit");
        }
    }

    #[test]
    fn same_seed_same_stimulus() {
        let a = drive(42, 3000).coverage();
        let b = drive(42, 3000).coverage();
        let c = drive(43, 3000).coverage();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
