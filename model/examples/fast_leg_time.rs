//! The fast-mode 28 MiB leg (16 engines, core 0 → core 4, the other die)
//! against `copy_from_slice` and one flat streamed copy of the same bytes,
//! interleaved best of rounds (wall time), on one thread and on the
//! system's threads, plus a hash of the destination SBUF (the same hash on
//! two builds = the same bytes moved). Every timing starts after a read of
//! twice the last-level cache, so no candidate finds the bytes another one
//! left in the cache (as the leg row of `cargo bench --bench datapath`,
//! whose table docs/performance.md reports); this tool is for comparing two
//! builds on the same machine.
//!
//! `cargo run --release -p sb2sb-model --example fast_leg_time [rounds]`

use sb2sb_model::datapath::plan;
use sb2sb_model::system::{CoreId, Mode, System, SystemLeg, Topology};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn main() {
    let rounds: usize = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 15,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("fast_leg_time: rounds must be a number");
            std::process::exit(2)
        }
    };
    let topo = Topology::trn2(1);
    let bpp = topo.sbuf_bytes_per_partition;
    let total = topo.sbuf_bytes() as usize;
    let mut sys = match System::new(topo) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("fast_leg_time: {e}");
            std::process::exit(1)
        }
    };
    let row: Vec<u8> = (0..bpp).map(|i| (i % 251) as u8).collect();
    let leg = SystemLeg {
        engine_mask: 0xFFFF,
        ..SystemLeg::new(CoreId(0), 0, CoreId(4), 0, bpp, 128)
    };
    let run = |sys: &mut System, threads: usize| -> Duration {
        sys.set_threads(threads);
        let t = Instant::now();
        if let Err(e) = sys.send_recv(black_box(&leg), Mode::Fast) {
            eprintln!("fast_leg_time: leg: {e}");
            std::process::exit(1)
        }
        t.elapsed()
    };
    for p in 0..128u8 {
        let r: Vec<u8> = row.iter().map(|b| b.wrapping_add(p)).collect();
        if let Err(e) = sys.write_sbuf(CoreId(0), p, 0, &r) {
            eprintln!("fast_leg_time: fill: {e}");
            std::process::exit(1)
        }
    }
    run(&mut sys, 1);
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for p in 0..128u8 {
        let Ok(b) = sys.st.read_sbuf(CoreId(4), p, 0, bpp as usize) else {
            eprintln!("fast_leg_time: read back partition {p}");
            std::process::exit(1)
        };
        for x in b.chunks(8) {
            h = (h ^ u64::from_le_bytes(x.try_into().unwrap_or([0; 8])))
                .wrapping_mul(0x100_0000_01b3);
        }
    }
    let src = vec![1u8; total];
    let mut dst = vec![0u8; total];
    let evict = vec![1u8; plan::llc_bytes().map_or(64 << 20, |l| 2 * l)];
    let cold = || {
        let mut acc = 0u8;
        for i in (0..evict.len()).step_by(64) {
            acc = acc.wrapping_add(evict[i]);
        }
        black_box(acc);
    };
    let mut best = [Duration::MAX; 4];
    for _ in 0..rounds {
        cold();
        let t = Instant::now();
        dst.copy_from_slice(black_box(&src));
        best[0] = best[0].min(t.elapsed());
        cold();
        let t = Instant::now();
        let _ = sb2sb_model::datapath::copy_streamed(&mut dst, black_box(&src));
        best[1] = best[1].min(t.elapsed());
        cold();
        best[2] = best[2].min(run(&mut sys, 1));
        cold();
        best[3] = best[3].min(run(&mut sys, 0));
    }
    let r = |i: usize| best[0].as_secs_f64() / best[i].as_secs_f64();
    println!(
        "memcpy {:?} | flat stream {:?} ({:.2}x) | leg 1 thread {:?} ({:.2}x) | leg {} threads {:?} ({:.2}x) | dst hash {h:016x}",
        best[0],
        best[1],
        r(1),
        best[2],
        r(2),
        sys.threads(),
        best[3],
        r(3)
    );
}
