//! The one modeled time: every timing parameter of fast mode, the flat
//! path and the trace, each defined once here with its source.
//!
//! Two kinds of cost make up the modeled time of a collective:
//!
//! 1. **The data path of a leg** (everything the RTL and the cycle model
//!    show: the ring set-up program on the Q7 ports, the RX arm and go
//!    handshake, the doorbells, descriptor fetch, the bursts through the
//!    core interconnect and the fabric link, the completion-semaphore
//!    writes and the completion poll). Its parameters are **derived from
//!    the cycle model by code**: [`characterise`] runs legs on the golden
//!    composition (`Mode::Cycle`) for every link class and the engine
//!    counts of [`ENGINE_POINTS`], and fits per (class, engines)
//!    `cycles = fixed + desc × descriptors per engine + byte × bytes per engine`
//!    by least squares. The fit is written to the committed, generated
//!    table `system/timing/table.rs` ([`table::ROWS`]); the test
//!    `derived_table_is_current` re-derives it and fails when the cycle
//!    model changed underneath. Re-derive with
//!    `cargo run --release -p sb2sb-model --example derive_timing -- --write`
//!    (`make timing`). Nothing is characterised at start-up.
//! 2. **Firmware and runtime costs no RTL shows**: the per-collective
//!    launch, the per-step hop (semaphore-to-start) and the Q7's per-leg
//!    instruction cost, calibrated against the published nccom-test
//!    measurement (PUBLIC-FACTS §7; [`COLLECTIVE_LAUNCH_NS`],
//!    [`STEP_HOP_NS`], [`Q7_LEG_NS`]). They are added by the lowering per
//!    collective and per step, identically for the flat path, fast mode
//!    and cycle mode.
//!
//! Cycles convert to time with the one core clock ([`crate::clock`]).

use super::cycle;
use super::link::{LinkClass, Ps};
use crate::clock;

#[rustfmt::skip]
pub mod table;

/// Fitted data-path cost of one leg for one (link class, engine count), in
/// milli-cycles (fixed, per descriptor) and micro-cycles per byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DataRow {
    /// Link class of the leg.
    pub class: LinkClass,
    /// DMA engines the leg is spread over.
    pub engines: u8,
    /// Per-leg cost (set-up program, handshake, doorbells, link latency,
    /// completion), milli-cycles.
    pub fixed_mcyc: i64,
    /// Per descriptor of one engine (data and semaphore descriptors), milli-cycles.
    pub desc_mcyc: i64,
    /// Per data byte of one engine, micro-cycles.
    pub byte_ucyc: i64,
}

/// Engine counts the characterisation runs; other counts interpolate
/// linearly between the two neighbours.
pub const ENGINE_POINTS: [u8; 5] = [1, 2, 4, 8, 16];

/// Link classes in table order.
pub const CLASSES: [LinkClass; 3] = [LinkClass::OnDie, LinkClass::D2d, LinkClass::C2c];

/// Partitions per engine of the characterisation legs.
pub const FIT_PARTITIONS_PER_ENGINE: [u8; 2] = [1, 8];
/// Bytes per partition of the characterisation legs.
pub const FIT_BYTES: [u32; 3] = [64, 4096, 16384];

/// Semaphore descriptors per engine at the end of a leg (LOCAL and REMOTE,
/// seed 001 §5).
pub const SEM_DESCRIPTORS: u64 = 2;

/// Per-collective launch cost (runtime: the collective handed to the Q7s),
/// ns: the public "~1.3 µs fixed cost" of a transfer (PUBLIC-FACTS §7). With
/// the data path at one beat per cycle in every lane (docs/pair.md) the
/// 512 KiB row of the published all-gather below needs it whole (1 150 ns
/// gave 0.666 of that row, outside 1.5×).
pub const COLLECTIVE_LAUNCH_NS: u64 = 1_300;

/// Per-step hop: a step's semaphore-to-start latency ("~1300 ns
/// cross-engine", PUBLIC-FACTS §7), ns.
pub const STEP_HOP_NS: u64 = 1_300;

/// Q7 firmware cost of one leg it issues (rdma_desc_gen and rdma_desc_start
/// on both roles), ns; legs a core issues in one step are serial on its Q7.
/// Calibrated against the published 8-rank fp32 all-gather (PUBLIC-FACTS §7,
/// nccom-test SDK 2.28: 1 KiB 10.0, 8 KiB 10.22, 64 KiB 11.31, 512 KiB
/// 14.83 µs; `auto` = one mesh step of 7 legs per core): with the launch
/// and the hop above fixed, the value (in 50 ns steps, at most the public
/// ~600 ns of one hardware-DGE DMA instruction, PUBLIC-FACTS §7, an upper
/// bound here) that makes the worst of the four rows' ratios, model /
/// published or its inverse, smallest; the bound gives 600 ns. On the cycle
/// model's data path of docs/pair.md's interconnect, one beat per cycle in
/// every lane (1.96, 1.98, 2.12 and 3.23 µs), the model is 0.88, 0.86, 0.79
/// and 0.68 of the published rows (test
/// `published_trn2_all_gather_rows_are_within_1_5x_where_the_data_path_allows`).
pub const Q7_LEG_NS: u64 = 600;

/// Firmware cost of one step in which one core issues at most `legs_per_core`
/// legs, ns (0 for an empty step).
pub const fn step_ns(legs_per_core: u64) -> u64 {
    if legs_per_core == 0 {
        0
    } else {
        STEP_HOP_NS + legs_per_core * Q7_LEG_NS
    }
}

/// Link latency of a class in the cycle model's fabric, cycles (its one
/// definition: [`cycle::link_latency`]); part of every row's fixed cost.
pub fn link_latency_ps(class: LinkClass) -> Ps {
    clock::cycles_to_ps(u64::from(cycle::link_latency(class)))
}

/// The link class between two global cores laid out as the system model
/// does (`(package × 2 + die) × cores_per_die + core`).
pub fn class_of(from: usize, to: usize, cores_per_die: usize) -> LinkClass {
    let cpd = cores_per_die.max(1);
    let (df, dt) = (from / cpd, to / cpd);
    if df == dt {
        LinkClass::OnDie
    } else if df / 2 == dt / 2 {
        LinkClass::D2d
    } else {
        LinkClass::C2c
    }
}

/// The data-path coefficients of (class, engines): a table row, or the
/// linear interpolation of the two neighbouring engine counts.
pub fn coeffs(class: LinkClass, engines: u32) -> DataRow {
    let e = engines.clamp(1, 16) as i64;
    let row = |n: u8| {
        table::ROWS
            .iter()
            .find(|r| r.class == class && r.engines == n)
            .copied()
            .unwrap_or(DataRow {
                class,
                engines: n,
                fixed_mcyc: 0,
                desc_mcyc: 0,
                byte_ucyc: 0,
            })
    };
    let hi = ENGINE_POINTS
        .iter()
        .copied()
        .find(|&n| i64::from(n) >= e)
        .unwrap_or(16);
    let lo = ENGINE_POINTS
        .iter()
        .copied()
        .rev()
        .find(|&n| i64::from(n) <= e)
        .unwrap_or(1);
    let (a, b) = (row(lo), row(hi));
    if lo == hi {
        return a;
    }
    let (l, h) = (i64::from(lo), i64::from(hi));
    let lerp = |x: i64, y: i64| x + (y - x) * (e - l) / (h - l);
    DataRow {
        class,
        engines: e as u8,
        fixed_mcyc: lerp(a.fixed_mcyc, b.fixed_mcyc),
        desc_mcyc: lerp(a.desc_mcyc, b.desc_mcyc),
        byte_ucyc: lerp(a.byte_ucyc, b.byte_ucyc),
    }
}

/// Picoseconds of `mcyc` milli-cycles (negative → 0).
pub fn mcyc_to_ps(mcyc: i64) -> Ps {
    let m = mcyc.max(0) as u64;
    // m / 1000 cycles × 10^6 / MHz ps, rounded to nearest.
    let num = m as u128 * 1000;
    let mhz = clock::CORE_CLK_MHZ as u128;
    ((num + mhz / 2) / mhz) as u64
}

impl DataRow {
    /// Fixed cost of a leg, ps.
    pub fn fixed_ps(&self) -> Ps {
        mcyc_to_ps(self.fixed_mcyc)
    }

    /// One descriptor of `bytes` on one engine, ps.
    pub fn desc_ps(&self, bytes: u64) -> Ps {
        mcyc_to_ps(self.desc_mcyc + (bytes as i64 * self.byte_ucyc) / 1000)
    }

    /// A whole leg whose busiest engine runs `descs` descriptors carrying
    /// `bytes` data bytes, ps (the closed form fast mode sums descriptor by
    /// descriptor).
    pub fn leg_ps(&self, descs: u64, bytes: u64) -> Ps {
        mcyc_to_ps(
            self.fixed_mcyc
                + descs as i64 * self.desc_mcyc
                + (bytes as i64 * self.byte_ucyc) / 1000,
        )
    }
}

/// Largest data descriptor (seed 001 §8: one per ≤ 64 KiB chunk of a partition).
pub const MAX_DESC_BYTES: u64 = 64 << 10;

/// The busiest engine of a leg of `partitions` × `bytes_per_partition` over
/// `engines` engines: (descriptors incl. the semaphore ones, data bytes).
/// The first `partitions % engines` engines take one partition more
/// (`legs::split_partitions`).
pub fn busiest_engine(partitions: u64, bytes_per_partition: u64, engines: u64) -> (u64, u64) {
    let e = engines.max(1);
    let p = partitions.div_ceil(e);
    let chunks = bytes_per_partition.div_ceil(MAX_DESC_BYTES).max(1);
    (p * chunks + SEM_DESCRIPTORS, p * bytes_per_partition)
}

/// Modeled data-path time of one leg (no firmware costs), ps: the closed
/// form of fast mode, used by the flat path.
pub fn leg_ps(class: LinkClass, partitions: u64, bytes_per_partition: u64, engines: u32) -> Ps {
    let (d, b) = busiest_engine(partitions, bytes_per_partition, u64::from(engines));
    coeffs(class, engines).leg_ps(d, b)
}

/// DMA engines a lowered leg of `partitions` partitions uses: about 8
/// partitions each (PUBLIC-FACTS §4), 1..=16.
pub const fn lowered_engines(partitions: u32) -> u32 {
    let e = partitions.div_ceil(8);
    if e < 1 {
        1
    } else if e > 16 {
        16
    } else {
        e
    }
}

/// One characterisation leg: (class, engines, partitions per engine, bytes
/// per partition) → cycles of `System::send_recv` in cycle mode.
pub fn cycle_leg_cycles(
    class: LinkClass,
    engines: u8,
    per_engine: u8,
    bytes: u32,
) -> Result<u64, super::SystemError> {
    use super::{CoreId, Mode, System, SystemLeg, Topology};
    let topo = Topology {
        sbuf_bytes_per_partition: 64 << 10,
        ..Topology::trn2(2)
    };
    let (src, dst) = match class {
        LinkClass::OnDie => (CoreId(0), CoreId(1)),
        LinkClass::D2d => (CoreId(0), CoreId(4)),
        LinkClass::C2c => (CoreId(0), CoreId(8)),
    };
    let mut sys = System::new(topo)?;
    let parts = engines * per_engine;
    let leg = SystemLeg {
        engine_mask: ((1u32 << engines) - 1) as u16,
        ..SystemLeg::new(src, 0, dst, 0, bytes, parts)
    };
    Ok(sys.send_recv(&leg, Mode::Cycle)?.cycles)
}

/// Least-squares fit of `y = a + b·x1 + c·x2` (normal equations, f64).
fn fit3(pts: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    let mut m = [[0f64; 4]; 3];
    for &(x1, x2, y) in pts {
        let v = [1.0, x1, x2];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += v[i] * v[j];
            }
            m[i][3] += v[i] * y;
        }
    }
    // Gauss-Jordan elimination with partial pivoting.
    for c in 0..3 {
        let p = (c..3)
            .max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))
            .unwrap_or(c);
        m.swap(c, p);
        let d = m[c][c];
        if d == 0.0 {
            continue;
        }
        let pivot = m[c].map(|x| x / d);
        m[c] = pivot;
        for (r, row) in m.iter_mut().enumerate() {
            if r != c {
                let f = row[c];
                for (x, p) in row.iter_mut().zip(pivot) {
                    *x -= f * p;
                }
            }
        }
    }
    (m[0][3], m[1][3], m[2][3])
}

/// Run the characterisation on the cycle model and fit every (class,
/// engine count) row (module docs). Deterministic: the same cycle model
/// gives the same table.
pub fn characterise() -> Result<Vec<DataRow>, super::SystemError> {
    let mut rows = Vec::new();
    for class in CLASSES {
        for engines in ENGINE_POINTS {
            let mut pts = Vec::new();
            for pe in FIT_PARTITIONS_PER_ENGINE {
                for b in FIT_BYTES {
                    let cyc = cycle_leg_cycles(class, engines, pe, b)?;
                    let (d, bytes) = busiest_engine(
                        u64::from(engines) * u64::from(pe),
                        u64::from(b),
                        u64::from(engines),
                    );
                    pts.push((d as f64, bytes as f64, cyc as f64));
                }
            }
            let (a, d, b) = fit3(&pts);
            rows.push(DataRow {
                class,
                engines,
                fixed_mcyc: (a * 1e3).round() as i64,
                desc_mcyc: (d * 1e3).round() as i64,
                byte_ucyc: (b * 1e6).round() as i64,
            });
        }
    }
    Ok(rows)
}

/// The generated file for `rows`.
pub fn render(rows: &[DataRow]) -> String {
    let mut s = String::new();
    s.push_str("// @generated by `cargo run --release -p sb2sb-model --example derive_timing -- --write`\n");
    s.push_str(
        "// (`make timing`) from the cycle model (system::timing::characterise); do not edit.\n",
    );
    s.push_str(
        "// Per (link class, engines): a leg's cycles = fixed + desc × descriptors per engine\n",
    );
    s.push_str("// + byte × data bytes per engine (milli-cycles, milli-cycles, micro-cycles per byte).\n\n");
    s.push_str("//! The data-path rows of `system::timing`, derived from the cycle model.\n\n");
    s.push_str("use super::DataRow;\nuse crate::system::link::LinkClass;\n\n");
    s.push_str("/// The fitted rows, class-major, engine counts ascending.\n");
    s.push_str("pub const ROWS: &[DataRow] = &[\n");
    for r in rows {
        s.push_str(&format!(
            "    DataRow {{ class: LinkClass::{:?}, engines: {}, fixed_mcyc: {}, desc_mcyc: {}, byte_ucyc: {} }},\n",
            r.class, r.engines, r.fixed_mcyc, r.desc_mcyc, r.byte_ucyc
        ));
    }
    s.push_str("];\n");
    s
}

/// Every timing parameter as JSON (reports: `nccom --report-to-json-file`).
pub fn summary() -> serde_json::Value {
    serde_json::json!({
        "clock_mhz": clock::CORE_CLK_MHZ,
        "engine_data_bits": clock::ENGINE_DATA_BITS,
        "firmware": {
            "collective_launch_ns": COLLECTIVE_LAUNCH_NS,
            "step_hop_ns": STEP_HOP_NS,
            "q7_leg_ns": Q7_LEG_NS,
        },
        "link_latency_cycles": CLASSES.iter().map(|&c| (c.name(), cycle::link_latency(c))).collect::<std::collections::BTreeMap<_, _>>(),
        "data_path": table::ROWS,
        "data_path_source": "cycle model (system::timing::characterise), fitted per link class and engine count",
    })
}

/// Path of the committed table.
pub const TABLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/system/timing/table.rs");

#[cfg(test)]
mod tests;
