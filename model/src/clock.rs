//! The one core clock of the modeled machine.
//!
//! Every mode (fast, cycle, RTL, flat) reports modeled time in ns from this
//! clock; cycle and RTL modes report the cycle count as well. The engines'
//! AXI data width is chosen with it so that one engine's peak equals the
//! public per-engine DMA rate: 256 bits × 850 MHz = 32 B × 0.85 GHz =
//! 27.2 GB/s (PUBLIC-FACTS §4, NeuronCore-v2/v3). The frequency itself is
//! project-defined (docs/decisions.md "One core clock").

/// Core clock frequency in MHz.
pub const CORE_CLK_MHZ: u64 = 850;

crate::sv_consts! {
    /// AXI data width of a UDMA engine and of the core's interconnect, SBUF, descriptor RAM and io_d2d link, in bits (model/src/clock.rs).
    ENGINE_DATA_BITS: u32 [16] = 256;
}

/// Bytes per engine beat.
pub const ENGINE_BEAT_BYTES: u32 = ENGINE_DATA_BITS / 8;

/// Picoseconds of `cycles` core-clock cycles, rounded to the nearest ps
/// (the period, 1176.47 ps, is not a whole number of ps; rounding happens
/// once, on the total, so no error accumulates per cycle).
pub const fn cycles_to_ps(cycles: u64) -> u64 {
    // cycles × 10^6 / MHz, rounded half up; u128 keeps 2^64 cycles exact.
    let num = cycles as u128 * 1_000_000;
    let mhz = CORE_CLK_MHZ as u128;
    ((num + mhz / 2) / mhz) as u64
}

/// Nanoseconds of `cycles` core-clock cycles.
pub fn cycles_to_ns(cycles: u64) -> f64 {
    cycles as f64 * 1000.0 / CORE_CLK_MHZ as f64
}

/// Whole core-clock cycles that cover `ps` picoseconds (rounded up).
pub const fn ps_to_cycles(ps: u64) -> u64 {
    let num = ps as u128 * CORE_CLK_MHZ as u128;
    num.div_ceil(1_000_000) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_engine_peak_is_the_public_27_2_gb_per_s() {
        // PUBLIC-FACTS §4: 27.2 GB/s per engine. Bytes per second, exact.
        assert_eq!(
            ENGINE_BEAT_BYTES as u64 * CORE_CLK_MHZ * 1_000_000,
            27_200_000_000
        );
    }

    #[test]
    fn cycles_convert_to_time_by_hand_values() {
        // 850 cycles = 1 µs exactly; 1 cycle = 1176.47 ps → 1176.
        assert_eq!(cycles_to_ps(850), 1_000_000);
        assert_eq!(cycles_to_ps(1), 1176);
        assert_eq!(cycles_to_ps(17), 20_000);
        assert!((cycles_to_ns(1700) - 2000.0).abs() < 1e-9);
        assert_eq!(ps_to_cycles(1_000_000), 850);
        assert_eq!(ps_to_cycles(1), 1);
        assert_eq!(ps_to_cycles(0), 0);
    }
}
