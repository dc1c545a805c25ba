use super::*;
use crate::system::{CoreId, Mode, System, SystemLeg, Topology};

#[test]
fn derived_table_is_current() {
    // Re-run the characterisation on the cycle model and compare with the
    // committed, generated table. Stale after any change to the cycle
    // model's data path: `make timing` rewrites it.
    let rows = characterise().expect("characterisation legs run in cycle mode");
    let rendered = render(&rows);
    if std::env::var_os("SB2SB_UPDATE_TIMING").is_some() {
        std::fs::write(TABLE_PATH, &rendered).expect("write the timing table");
        return;
    }
    let committed = std::fs::read_to_string(TABLE_PATH).unwrap_or_default();
    assert!(
        committed == rendered,
        "model/src/system/timing/table.rs is stale: run `make timing` \
         (cargo run --release -p sb2sb-model --example derive_timing -- --write)"
    );
    assert_eq!(table::ROWS, &rows[..]);
}

/// One leg of `bytes` per partition over `engines` engines, 8 partitions
/// each, of class `class`: (fast-mode ps, cycle-mode ps, cycles). The
/// offsets are 4 KiB-aligned as in the seed's leg (0x100000 on both sides);
/// the rows carry no per-4 KiB-boundary cost (docs/system.md "Modeled time").
fn leg_both_modes(class: LinkClass, engines: u8, bytes: u32) -> (u64, u64, u64) {
    let (src, dst) = match class {
        LinkClass::OnDie => (CoreId(2), CoreId(3)),
        LinkClass::D2d => (CoreId(3), CoreId(7)),
        LinkClass::C2c => (CoreId(5), CoreId(9)),
    };
    let parts = 8 * engines;
    let leg = SystemLeg {
        engine_mask: ((1u32 << engines) - 1) as u16,
        ..SystemLeg::new(src, 0x1000, dst, 0x2000, bytes, parts)
    };
    let topo = Topology {
        sbuf_bytes_per_partition: 32 << 10,
        ..Topology::trn2(2)
    };
    let mut out = [(0u64, 0u64); 2];
    for (i, mode) in [Mode::Fast, Mode::Cycle].into_iter().enumerate() {
        let mut sys = System::new(topo.clone()).unwrap();
        let r = sys.send_recv(&leg, mode).unwrap();
        assert_eq!(r.link, class);
        assert_eq!(sys.st.sem(dst, leg.remote_sem).unwrap(), i32::from(engines));
        out[i] = (r.modeled_ps, r.cycles);
    }
    (out[0].0, out[1].0, out[1].1)
}

#[test]
fn fast_mode_is_within_10_percent_of_cycle_mode_on_12_leg_shapes() {
    // Issue 34 item 4: bytes per partition 512 B … 16 KiB, engines 1 / 4 /
    // 16 (8 partitions each, PUBLIC-FACTS §4), same die / other die /
    // other package; every combination of engines and class at least once.
    use LinkClass::{C2c, D2d, OnDie};
    let shapes: [(u32, u8, LinkClass); 12] = [
        (512, 1, OnDie),
        (512, 4, D2d),
        (512, 16, C2c),
        (2048, 1, D2d),
        (2048, 4, C2c),
        (2048, 16, OnDie),
        (8192, 1, C2c),
        (8192, 4, OnDie),
        (8192, 16, D2d),
        (16384, 1, OnDie),
        (16384, 4, C2c),
        (16384, 16, D2d),
    ];
    let mut bad = Vec::new();
    for (bytes, engines, class) in shapes {
        let (fast, cycle, cycles) = leg_both_modes(class, engines, bytes);
        // The cycle-mode time is the one clock's conversion of its cycles.
        assert_eq!(cycle, crate::clock::cycles_to_ps(cycles));
        let ratio = fast as f64 / cycle as f64;
        eprintln!(
            "{bytes:>6} B x {:>3} partitions, {engines:>2} engines, {:>7}: fast {:>10.3} us, cycle {:>10.3} us ({cycles} cycles), fast/cycle {ratio:.3}",
            8 * u32::from(engines),
            class.name(),
            fast as f64 / 1e6,
            cycle as f64 / 1e6
        );
        if !(0.9..=1.1).contains(&ratio) {
            bad.push((bytes, engines, class, ratio));
        }
    }
    assert!(bad.is_empty(), "fast/cycle outside 10 %: {bad:?}");
}

#[test]
fn interpolated_rows_lie_between_their_neighbours() {
    for class in CLASSES {
        let (a, b) = (coeffs(class, 4), coeffs(class, 8));
        let m = coeffs(class, 6);
        assert_eq!(
            m.fixed_mcyc,
            a.fixed_mcyc + (b.fixed_mcyc - a.fixed_mcyc) / 2
        );
        assert_eq!(m.byte_ucyc, a.byte_ucyc + (b.byte_ucyc - a.byte_ucyc) / 2);
        assert_eq!(
            coeffs(class, 16),
            coeffs(class, 40),
            "clamped to 16 engines"
        );
    }
}

#[test]
fn busiest_engine_counts_semaphore_descriptors_and_64k_chunks() {
    // 20 partitions over 3 engines: 7, 7, 6 → the busiest 7.
    assert_eq!(busiest_engine(20, 1000, 3), (7 + 2, 7000));
    // 100 KiB per partition = 2 descriptors (≤ 64 KiB each).
    assert_eq!(busiest_engine(8, 100 << 10, 1), (16 + 2, 800 << 10));
    assert_eq!(lowered_engines(1), 1);
    assert_eq!(lowered_engines(16), 2);
    assert_eq!(lowered_engines(128), 16);
}

#[test]
fn milli_cycles_convert_with_the_one_clock() {
    // 850 cycles = 1 µs at 850 MHz.
    assert_eq!(mcyc_to_ps(850_000), 1_000_000);
    assert_eq!(mcyc_to_ps(-5), 0);
    assert_eq!(
        link_latency_ps(LinkClass::D2d),
        crate::clock::cycles_to_ps(u64::from(crate::pair::link::LINK_LATENCY))
    );
}

#[test]
fn the_fit_recovers_an_exact_plane() {
    // y = 5 + 2·x1 + 0.25·x2 on four points, least squares is exact.
    let pts: Vec<(f64, f64, f64)> = [(3.0, 64.0), (10.0, 512.0), (3.0, 4096.0), (10.0, 32768.0)]
        .iter()
        .map(|&(a, b)| (a, b, 5.0 + 2.0 * a + 0.25 * b))
        .collect();
    let (c0, c1, c2) = fit3(&pts);
    assert!((c0 - 5.0).abs() < 1e-6 && (c1 - 2.0).abs() < 1e-6 && (c2 - 0.25).abs() < 1e-9);
}
