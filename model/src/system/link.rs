//! Link timing: latency and bandwidth per link class, with fixed-point rates
//! (the `fixed` crate) so modeled time is exact and identical on every host.
//!
//! Time is counted in picoseconds ([`Ps`]). A rate is bytes per nanosecond as
//! an unsigned 32.32 fixed-point number ([`Rate`]); the time to move `n` bytes
//! at rate `r` is `ceil(n × 1000 / r)` ps, computed in 64.64 fixed point.
//!
//! The numbers are project-defined (docs/decisions.md): the DMA engine rate is
//! the public 27.2 GB/s (PUBLIC-FACTS §4); the chip-to-chip latency is inside
//! the public "about 1–2 µs" hop latency; the on-die and io_d2d figures are
//! chosen to keep the three classes ordered (on-die fastest, chip-to-chip
//! slowest), since the seeds give none.

use fixed::types::{U32F32, U64F64};

use crate::addr::Route;

use super::SystemError;

/// Modeled time in picoseconds.
pub type Ps = u64;
/// A rate in bytes per nanosecond (unsigned 32.32 fixed point).
pub type Rate = U32F32;

/// The three transport classes of seed 001 §3.4 as the model sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkClass {
    /// On-die fabric (source and destination on one die).
    OnDie,
    /// io_d2d: the other die of the same package (DWC-PCIe over XSR, seed 001 §3.1).
    D2d,
    /// Chip-to-chip (another package, CAYMAN_ID routed).
    C2c,
}

impl LinkClass {
    /// Link class of a route.
    pub const fn of(r: Route) -> Self {
        match r {
            Route::SameDie => LinkClass::OnDie,
            Route::OtherDie => LinkClass::D2d,
            Route::OtherChip | Route::NeighborDevice | Route::Host => LinkClass::C2c,
        }
    }
    /// Stable name.
    pub const fn name(self) -> &'static str {
        match self {
            LinkClass::OnDie => "on_die",
            LinkClass::D2d => "io_d2d",
            LinkClass::C2c => "c2c",
        }
    }
}

/// Latency and bandwidth of one link class.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Link {
    /// One-way latency of a write (ns).
    pub latency_ns: u32,
    /// Bandwidth (bytes per ns = GB/s), shared by every engine crossing it.
    #[serde(serialize_with = "ser_rate")]
    pub rate: Rate,
}

fn ser_rate<S: serde::Serializer>(r: &Rate, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(r.to_num::<f64>())
}

/// Timing parameters of the whole system.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct LinkParams {
    /// On-die fabric.
    pub on_die: Link,
    /// io_d2d link between the two dies of a package.
    pub d2d: Link,
    /// Chip-to-chip link.
    pub c2c: Link,
    /// One DMA engine's streaming rate (bytes per ns).
    #[serde(serialize_with = "ser_rate")]
    pub engine_rate: Rate,
    /// Fixed cost of one descriptor (fetch + completion), ns.
    pub desc_overhead_ns: u32,
    /// Cost of a doorbell or semaphore write by a Q7 core, ns.
    pub mmio_ns: u32,
}

impl Default for LinkParams {
    fn default() -> Self {
        Self {
            on_die: Link {
                latency_ns: 100,
                rate: Rate::from_num(1024),
            },
            d2d: Link {
                latency_ns: 400,
                rate: Rate::from_num(256),
            },
            c2c: Link {
                latency_ns: 1500,
                rate: Rate::from_num(160),
            },
            // 27.2 GB/s = 27.2 bytes/ns (PUBLIC-FACTS §4); 27.2 = 136/5.
            engine_rate: Rate::from_num(136) / Rate::from_num(5),
            desc_overhead_ns: 16,
            mmio_ns: 50,
        }
    }
}

impl LinkParams {
    /// The parameters of one class.
    pub const fn link(&self, c: LinkClass) -> Link {
        match c {
            LinkClass::OnDie => self.on_die,
            LinkClass::D2d => self.d2d,
            LinkClass::C2c => self.c2c,
        }
    }

    /// Check every rate is non-zero.
    pub fn validate(&self) -> Result<(), SystemError> {
        for (field, r) in [
            ("links.on_die.rate", self.on_die.rate),
            ("links.d2d.rate", self.d2d.rate),
            ("links.c2c.rate", self.c2c.rate),
            ("links.engine_rate", self.engine_rate),
        ] {
            if r == Rate::ZERO {
                return Err(SystemError::Topology {
                    field,
                    value: 0,
                    rule: "a rate must be > 0",
                });
            }
        }
        Ok(())
    }
}

/// Picoseconds to move `bytes` at `rate` (rounded up). `rate` must be non-zero.
pub fn transfer_ps(bytes: u64, rate: Rate) -> Ps {
    if bytes == 0 {
        return 0;
    }
    let num = U64F64::from_num(bytes) * U64F64::from_num(1000u32);
    let q = num / U64F64::from_num(rate);
    q.ceil().to_num::<u64>()
}

/// Nanoseconds to picoseconds.
pub const fn ns(n: u32) -> Ps {
    n as u64 * 1000
}

/// The effective rate of `engines` engines streaming over one link: the sum of
/// the engine rates, capped by the link bandwidth.
pub fn aggregate_rate(p: &LinkParams, class: LinkClass, engines: u32) -> Rate {
    let sum = p.engine_rate.saturating_mul(Rate::from_num(engines.max(1)));
    sum.min(p.link(class).rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_time_is_exact_and_rounds_up() {
        assert_eq!(transfer_ps(1000, Rate::from_num(1)), 1_000_000);
        assert_eq!(transfer_ps(0, Rate::from_num(3)), 0);
        // 1 byte at 3 B/ns = 333.33… ps → 334.
        assert_eq!(transfer_ps(1, Rate::from_num(3)), 334);
    }

    #[test]
    fn public_facts_s4_engine_rate_is_27_2_gb_per_s() {
        let p = LinkParams::default();
        // 272 bytes at 27.2 B/ns = 10 ns exactly (modulo the 2^-32 rate step).
        let t = transfer_ps(272, p.engine_rate);
        assert!((10_000..=10_001).contains(&t), "{t}");
    }

    #[test]
    fn aggregate_rate_is_capped_by_the_link() {
        let p = LinkParams::default();
        assert_eq!(aggregate_rate(&p, LinkClass::C2c, 16), p.c2c.rate);
        assert_eq!(aggregate_rate(&p, LinkClass::D2d, 1), p.engine_rate);
        assert!(p.on_die.latency_ns < p.d2d.latency_ns && p.d2d.latency_ns < p.c2c.latency_ns);
    }
}
