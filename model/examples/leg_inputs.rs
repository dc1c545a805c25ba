//! Leg speed tooling: `leg_inputs N FILE` records N
//! golden-driven inputs of seed 1 (every scenario, then random legs) as
//! little-endian u64 words (`PairIn::WORDS` a cycle), the inputs the lockstep
//! bench replays; `leg_inputs N FILE golden [ROUNDS]` replays FILE on the
//! golden pair alone and prints its best thread CPU time and an output hash
//! (the same hash on two builds = the same outputs on every cycle).
use sb2sb_model::pair::{LegEnv, Pair, PairIn};
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};
use std::io::Write;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: u64 = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let path = a.get(2).cloned().unwrap_or("leg_in.bin".into());
    let iw = <PairIn as PortBundle>::WORDS;
    if a.get(3).map(String::as_str) == Some("golden") {
        let rounds: usize = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(3);
        let raw = std::fs::read(&path).expect("input file");
        let w: Vec<u64> = raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let ins: Vec<PairIn> = w.chunks_exact(iw).map(PairIn::unpack).collect();
        let ow = <sb2sb_model::pair::PairOut as PortBundle>::WORDS;
        let mut best = f64::MAX;
        let mut h = 0u64;
        for _ in 0..rounds {
            let mut g = Pair::default();
            let mut o = vec![0u64; ow];
            h = 0xcbf2_9ce4_8422_2325;
            let t0 = sb2sb_model::cputime::thread_cpu_s();
            for i in &ins {
                g.step(i).pack(&mut o);
                for x in &o {
                    h = (h ^ x).wrapping_mul(0x100_0000_01b3);
                }
            }
            best = best.min(sb2sb_model::cputime::thread_cpu_s() - t0);
        }
        println!(
            "golden cycles {} best {:.3} s  {:.1} k cycles/s  hash {h:016x}",
            ins.len(),
            best,
            ins.len() as f64 / best / 1e3
        );
        return;
    }
    let mut g = Pair::default();
    let mut s = LegEnv::new(1, n);
    let mut prev = None;
    let mut w = vec![0u64; iw];
    let mut out = Vec::new();
    for c in 0..n {
        let i = s.next(c, prev.as_ref());
        i.pack(&mut w);
        for x in &w {
            out.extend_from_slice(&x.to_le_bytes());
        }
        prev = Some(g.step(&i));
    }
    std::fs::File::create(&path)
        .unwrap()
        .write_all(&out)
        .unwrap();
    eprintln!("{n} cycles, {iw} words/cycle -> {path}");
}
