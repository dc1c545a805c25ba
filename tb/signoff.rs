//! Sign-off tooling end to end through the binary: `sb2sb regress` shards
//! partition the job list and write JUnit XML; a failing run's `.gtkw` opens
//! on the failing cycle with labelled golden/RTL pairs; `--fst` writes FST.

mod common;

use std::collections::BTreeSet;
use std::process::{Command, Output};

fn sb2sb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(args)
        .output()
        .expect("run sb2sb")
}

fn jobs(o: &Output) -> Vec<(usize, String, u64)> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["index"].as_u64().unwrap() as usize,
                j["block"].as_str().unwrap().to_string(),
                j["seed"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn regress_shards_together_run_exactly_the_whole_job_list() {
    let all = jobs(&sb2sb(&["regress", "--seeds", "1-16", "--list", "--json"]));
    let blocks = sb2sb::blocks::names();
    assert_eq!(all.len(), 16 * blocks.len());
    let whole: BTreeSet<_> = all.iter().cloned().collect();
    assert_eq!(whole.len(), all.len(), "no job twice");
    for n in [2usize, 3] {
        let mut union = BTreeSet::new();
        let mut total = 0;
        for i in 1..=n {
            let part = jobs(&sb2sb(&[
                "regress",
                "--seeds",
                "1-16",
                "--list",
                "--json",
                "--shard",
                &format!("{i}/{n}"),
            ]));
            total += part.len();
            union.extend(part);
        }
        assert_eq!(total, all.len(), "shards of {n} overlap or miss jobs");
        assert_eq!(union, whole, "shards of {n}");
    }
    let e = sb2sb(&["regress", "--shard", "3/2", "--list"]);
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("--shard"));
}

#[test]
fn regress_runs_jobs_in_parallel_and_writes_junit() {
    let _g = common::lock();
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("out/regress.xml");
    let o = sb2sb(&[
        "regress",
        "--blocks",
        "decoder,evt_sem",
        "--seeds",
        "1-3",
        "--cycles",
        "20000",
        "--jobs",
        "2",
        "--json",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["jobs"], 6);
    assert_eq!(v["failed"], 0);
    assert_eq!(v["cycles"], 6 * 20000);
    let x = std::fs::read_to_string(&junit).unwrap();
    assert!(x.contains("<testsuite name=\"sb2sb regress\" tests=\"6\" failures=\"0\""));
    for s in 1..=3 {
        assert!(x.contains(&format!("classname=\"lockstep.evt_sem\" name=\"seed {s}\"")));
    }
}

fn gtkw_of_failing_run(dir: &std::path::Path, extra: &[&str]) -> String {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "cosim",
        "--block",
        "decoder",
        "--cycles",
        "3000",
        "--inject-fault",
        "valid_o:0@1000",
        "--vcd",
        d,
    ];
    args.extend_from_slice(extra);
    let o = sb2sb(&args);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains(&format!("gtkwave -r {d}/gtkwaverc {d}/decoder.gtkw")),
        "{e}"
    );
    std::fs::read_to_string(dir.join("decoder.gtkw")).unwrap()
}

#[test]
fn a_failing_runs_gtkw_opens_on_the_failing_cycle_with_labelled_pairs() {
    let _g = common::lock();
    let dir = tempfile::tempdir().unwrap();
    let g = gtkw_of_failing_run(dir.path(), &[]);
    // 32 cycles before the failing cycle 1000 (10 ns per cycle), marker on it.
    assert!(g.contains("[timestart] 9690\n"), "{g}");
    let zoom_line = g.lines().find(|l| l.starts_with('*')).unwrap();
    let mut it = zoom_line[1..].split_whitespace();
    let zoom: f64 = it.next().unwrap().parse().unwrap();
    assert_eq!(it.next(), Some("10000"), "primary marker at 10000 ns");
    // GTKWave shows 2^-zoom ns per 200 pixels: the ~1000-pixel pane spans
    // the 32 cycles before the failure and the failing one.
    let span_ns = 2f64.powf(-zoom) / 200.0 * 980.0;
    assert!((320.0..=400.0).contains(&span_ns), "{span_ns}");
    // The differing output comes first, red, labelled golden./rtl.
    let diff = g.find("-differing outputs").unwrap();
    let pair = g
        .find("+{golden.valid_o} TOP.golden.valid_o\n+{rtl.valid_o} TOP.rtl.valid_o")
        .unwrap();
    assert!(diff < pair && pair < g.find("-inputs").unwrap());
    assert!(g[..pair].ends_with("[color] 1\n@28\n"), "{g}");
    assert!(g.contains("[color] 1\n@29\n+{MISMATCH} TOP.mismatch"));
    // Every output is a labelled pair; every named trace exists in the VCD.
    let vcd = dir.path().join("decoder.cmp.vcd");
    for s in sb2sb_model::decoder::BLOCK.outputs {
        assert!(
            g.contains(&format!("+{{golden.{}}} ", s.name)),
            "{}",
            s.name
        );
        assert!(g.contains(&format!("+{{rtl.{}}} ", s.name)), "{}", s.name);
    }
    for line in g
        .lines()
        .filter(|l| l.starts_with("TOP.") || l.starts_with("+{"))
    {
        let name = line.rsplit(' ').next().unwrap().trim_start_matches("TOP.");
        let (scope, leaf) = match name.rsplit_once('.') {
            Some((s, l)) => (format!("TOP.{s}"), l),
            None => ("TOP".to_string(), name),
        };
        let leaf = leaf.split('[').next().unwrap();
        assert!(
            common::vcd_vars(&vcd, &scope).iter().any(|v| v.0 == leaf),
            "{line} not in the comparison VCD"
        );
    }
    // The rc file that shows the labels in full.
    let rc = std::fs::read_to_string(dir.path().join("gtkwaverc")).unwrap();
    assert!(rc.contains("hier_max_level 2"));
    common::vcd2fst_accepts(&vcd);
}

#[test]
fn a_clean_runs_gtkw_opens_on_its_first_200_cycles_and_fst_replaces_vcd() {
    let _g = common::lock();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = sb2sb(&[
        "cosim", "--block", "evt_sem", "--cycles", "5000", "--vcd", d, "--fst",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let g = std::fs::read_to_string(dir.path().join("evt_sem.gtkw")).unwrap();
    assert!(g.contains("[timestart] 0\n"));
    let zoom: f64 = g.lines().find(|l| l.starts_with('*')).unwrap()[1..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let span_ns = 2f64.powf(-zoom) / 200.0 * 980.0;
    assert!((span_ns - 2000.0).abs() < 1.0, "{span_ns}");
    assert!(g.contains(" -1 -1"), "no marker on a clean run");
    for f in ["rtl", "golden", "cmp"] {
        let fst = dir.path().join(format!("evt_sem.{f}.fst"));
        let head = std::fs::read(&fst).unwrap();
        assert!(head.len() > 100, "{}", fst.display());
        assert!(!dir.path().join(format!("evt_sem.{f}.vcd")).exists());
    }
    assert!(g.contains("evt_sem.cmp.fst\""), "{g}");
}

fn history_of_failing_run(block: &str, fault: &str, cycles: &str) -> Vec<String> {
    let o = sb2sb(&[
        "cosim",
        "--block",
        block,
        "--cycles",
        cycles,
        "--inject-fault",
        fault,
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let r = &v["blocks"][0];
    r["first_mismatch"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap().to_string())
        .collect()
}

/// The mismatch history names the bus transactions of each cycle: UDMA's
/// AXI4 master beats numbered within their 16-beat burst, its CSR reads by
/// register name; at the failing cycle the RTL side's extra W beat is shown.
#[test]
fn the_mismatch_history_shows_named_axi_transactions() {
    let _g = common::lock();
    let h = history_of_failing_run("udma", "m_axi_wvalid:0@3000", "5000");
    let all = h.join("\n");
    // Seed 1: a 16-beat write burst is under way in cycles 2969..3000.
    let beat = regex_lite_find(&all, "m_axi W beat ", "/16 last=0 strb=0x");
    assert!(beat, "{all}");
    assert!(all.contains("m_axi R beat "), "{all}");
    assert!(all.contains("s_axil AR addr=0x21034 S2M.Q0.RHP"), "{all}");
    assert!(all.contains("s_axil R data=0x"), "{all}");
    let last = h.last().unwrap();
    assert!(last.starts_with("cycle     3000 |"), "{last}");
    // The RTL side's own description (after "|| rtl: ") names the extra W beat,
    // whatever else (a CSR read) happens in the same cycle.
    let rtl_side = last.split("|| rtl: ").nth(1).unwrap_or("");
    assert!(rtl_side.contains("m_axi W beat "), "{last}");
    // EVT_SEM: register names of the AXI4-Lite window, increments by port.
    let h = history_of_failing_run("evt_sem", "s_axil_bvalid:0@20000", "30000");
    let all = h.join("\n");
    assert!(all.contains(" || "), "{all}");
    assert!(
        all.contains("AW addr=0x") || all.contains("AR addr=0x"),
        "{all}"
    );
}

/// `hay` contains `pre` + digits + `mid`.
fn regex_lite_find(hay: &str, pre: &str, mid: &str) -> bool {
    hay.match_indices(pre).any(|(i, _)| {
        let rest = &hay[i + pre.len()..];
        let d = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        d > 0 && rest[d..].starts_with(mid)
    })
}

/// The decoder's environment with an end-of-run state check that always
/// fails (as a memory-image difference would).
#[derive(Clone)]
struct FinalFails(sb2sb_model::decoder::DecoderStim);

impl sb2sb_model::ports::Stimulus for FinalFails {
    type In = sb2sb_model::decoder::DecoderIn;
    type Out = sb2sb_model::decoder::DecoderOut;
    const TWIN: bool = true;
    fn new(seed: u64, cycles: u64) -> Self {
        Self(sb2sb_model::decoder::DecoderStim::new(seed, cycles))
    }
    fn next(&mut self, cycle: u64, prev: Option<&Self::Out>) -> Self::In {
        self.0.next(cycle, prev)
    }
    fn coverage(&self) -> Vec<(String, u64)> {
        self.0.coverage()
    }
    fn compare_final(&self, _other: &Self) -> Result<(), String> {
        Err("image of SBUF B differs at byte 0x40\n(second line)".into())
    }
}

/// An end-of-run (final-state) mismatch is found after the traces are
/// closed; its `.gtkw` still opens on it: marker on the cycle after the last
/// sample, the 32 cycles before it, the detail as a red comment, labelled pairs.
#[test]
fn a_final_state_mismatch_gtkw_opens_at_the_end_of_the_run() {
    use sb2sb_model::ports::Stimulus;
    let _g = common::lock();
    let dir = tempfile::tempdir().unwrap();
    let opts = sb2sb::lockstep::Options {
        cycles: 2000,
        vcd_dir: Some(dir.path().to_path_buf()),
        threads: 1,
        // The end-of-run check compares the two environment twins.
        twin: true,
        ..Default::default()
    };
    let golden = sb2sb_model::decoder::Decoder::new();
    let r = sb2sb::lockstep::run(
        golden,
        FinalFails::new(1, 2000),
        &sb2sb_model::decoder::BLOCK,
        &opts,
    )
    .unwrap();
    let m = r.first_mismatch.unwrap();
    assert_eq!(m.kind, sb2sb::lockstep::MismatchKind::Final);
    assert_eq!(m.cycle, 2000);
    let g = std::fs::read_to_string(dir.path().join("decoder.gtkw")).unwrap();
    assert!(g.contains("[timestart] 19690\n"), "{g}");
    let zoom_line = g.lines().find(|l| l.starts_with('*')).unwrap();
    assert_eq!(zoom_line.split_whitespace().nth(1), Some("20000"), "{g}");
    assert!(
        g.contains("[color] 1\n@200\n-end-of-run state mismatch: image of SBUF B differs at byte 0x40 (second line)\n[color] 0"),
        "{g}"
    );
    assert!(g.contains("+{golden.valid_o} TOP.golden.valid_o\n+{rtl.valid_o} TOP.rtl.valid_o"));
    // GTKWave accepts the window: the comparison trace runs past cycle 2000.
    common::vcd2fst_accepts(&dir.path().join("decoder.cmp.vcd"));
}
