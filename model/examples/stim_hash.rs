//! The hash of every cycle's
//! packed input vector of each block's lockstep environment, driven by its
//! golden model, for seeds 1-3. Run before and after a change to the
//! environments or golden models: the printed hashes must be equal.
//!
//! `cargo run --release -p sb2sb-model --example stim_hash [cycles]`

use sb2sb_model::decoder::{Decoder, DecoderStim};
use sb2sb_model::evt_sem::{EvtSem, EvtSemStim};
use sb2sb_model::pair::sys_stim::SysEnv;
use sb2sb_model::pair::system::SysTop;
use sb2sb_model::pair::{LegEnv, Pair};
use sb2sb_model::ports::{CycleModel, PortBundle, Stimulus};
use sb2sb_model::udma::{Udma, UdmaEngine, UdmaEnv, UdmaStim, W128, W256, W32};

/// FNV-1a over the packed words of every cycle's inputs, plus the coverage.
fn hash<G: CycleModel<In = S::In, Out = S::Out>, S: Stimulus>(
    mut g: G,
    seed: u64,
    cycles: u64,
) -> (u64, u64) {
    let mut s = S::new(seed, cycles);
    let mut w = vec![0u64; <S::In as PortBundle>::WORDS];
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut prev = None;
    for c in 0..cycles {
        let i = s.next(c, prev.as_ref());
        i.pack(&mut w);
        for x in &w {
            h = (h ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        }
        prev = Some(g.step(&i));
    }
    let mut hc = 0xcbf2_9ce4_8422_2325u64;
    for (n, v) in s.coverage() {
        for b in n.bytes() {
            hc = (hc ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        hc = (hc ^ v).wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h, hc)
}

fn main() {
    let cycles: u64 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("cycles"))
        .unwrap_or(300_000);
    for seed in 1..=3u64 {
        let rows = [
            (
                "decoder",
                hash::<_, DecoderStim>(Decoder::new(), seed, cycles),
            ),
            (
                "evt_sem",
                hash::<_, EvtSemStim>(EvtSem::new(), seed, cycles),
            ),
            ("udma", hash::<_, UdmaStim>(Udma::new(), seed, cycles)),
            (
                "udma_w128",
                hash::<_, UdmaEnv<W128>>(UdmaEngine::<W128>::new(), seed, cycles),
            ),
            (
                "udma_w256",
                hash::<_, UdmaEnv<W256>>(UdmaEngine::<W256>::new(), seed, cycles),
            ),
            ("leg", hash::<_, LegEnv>(Pair::default(), seed, cycles)),
            ("system", hash::<_, SysEnv>(SysTop::default(), seed, cycles)),
            (
                "udma_w32",
                hash::<_, UdmaEnv<W32>>(UdmaEngine::<W32>::new(), seed, cycles),
            ),
        ];
        for (b, (h, hc)) in rows {
            println!("{b:10} seed {seed} cycles {cycles}: inputs {h:016x} coverage {hc:016x}");
        }
    }
}
