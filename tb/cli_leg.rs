//! `sb2sb run sendrecv`: the seed 001 §8 leg end to end on the system model.

mod common;

use std::process::{Command, Output};

fn sb2sb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(args)
        .output()
        .unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = sb2sb(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn seed001_s8_leg_folds_to_0x58800000100000_and_both_semaphores_reach_4() {
    let o = sb2sb(&["run", "sendrecv"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("dst_soc          0x58800000100000"), "{text}");
    assert!(text.contains("result: PASS"), "{text}");
    let v = json(&["run", "sendrecv", "--json"]);
    assert_eq!(v["dst_soc"], 0x58800000100000u64);
    assert_eq!(v["bytes"], 128 * 16384);
    assert_eq!(v["engines"], 4);
    assert_eq!(
        v["descriptors"], 136,
        "4 engines x (32 data + local + remote semaphore descriptors)"
    );
    assert_eq!(v["local_sem"]["index"], 12);
    assert_eq!(v["local_sem"]["value"], 4);
    assert_eq!(v["remote_sem"]["index"], 20);
    assert_eq!(v["remote_sem"]["value"], 4);
    assert_eq!(v["remote_sem"]["after_wait_ge_and_dec"], 0);
    assert_eq!(v["verified"], true);
    assert!(v["modeled_us"].as_f64().unwrap() > 0.0);
}

/// The seed 001 §8 gen word, byte for byte, built here from the seed's offsets
/// (local_sem@14, remote_sem@15, remote_core_id@16, remote_routing_id@20,
/// dst_addr@32) and the project-defined ones (docs/decisions.md: opcode 0xE0,
/// inst_word_len 64, ext_op@12 = 8, src_addr@24, free_dim_bytes@40,
/// dma_engine_mask@44, partition_start@46, partition_count@47).
fn seed_s8_word_hex() -> String {
    let mut b = [0u8; 64];
    b[0] = 0xE0;
    b[1] = 64;
    b[12] = 8;
    b[14] = 12;
    b[15] = 20;
    b[16] = 7;
    b[20] = 0x12;
    b[24..32].copy_from_slice(&0x10_0000u64.to_le_bytes());
    b[32..40].copy_from_slice(&0x10_0000u64.to_le_bytes());
    b[40..44].copy_from_slice(&0x4000u32.to_le_bytes());
    b[44] = 0x0F;
    b[47] = 128;
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn seed001_s8_run_sendrecv_uses_the_printed_word_with_routing_id_0x12() {
    for mode in ["fast", "cycle"] {
        let v = json(&["run", "sendrecv", "--json", "--mode", mode]);
        assert_eq!(v["gen_word_hex"], seed_s8_word_hex(), "{mode}");
        assert_eq!(v["remote_core_id"], 7);
        assert_eq!(v["remote_routing_id"], 0x12);
        assert_eq!(v["src_core"], 3);
        assert_eq!(v["dst_core"], 7);
        assert_eq!(
            v["log"], "after remote_routing_id=$18, dst_addr=0x58800000100000",
            "the firmware log line of seed 001 §2.3/§8"
        );
        // §8: "die-decode (§2.4): is_die_0(peer)=0, engine_idx=7 -> cross-die -> NEIGHBOR fold mode".
        let c = v["classifier"].as_str().unwrap();
        assert!(
            c.starts_with("P7: ") && c.ends_with("-> is_tpb=1 is_die_0=0 engine_idx=7"),
            "{c}"
        );
        assert_eq!(
            v["pre_sync"],
            "remote_pool_xt_addr=0x0, remote_q7_xt_addr=0x30000000, sb2sb_ready_to_receive_remote=0x1"
        );
        assert_eq!(v["pass"], true, "{mode}");
        // seed 001 §4.4: one broadcast trigger per side, mask 0xF, 34 descriptors each.
        let t: Vec<&str> = v["triggers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(t.len(), 2, "{mode}: {t:?}");
        assert!(
            t[0].ends_with("trigger addr = 0x1140000c, mask = 0x0000000f n_desc=34"),
            "RX S2M first: {t:?}"
        );
        assert!(
            t[1].ends_with("trigger addr = 0x11400004, mask = 0x0000000f n_desc=34"),
            "then TX M2S: {t:?}"
        );
        let p = json(&[
            "run",
            "sendrecv",
            "--json",
            "--mode",
            mode,
            "--per-engine-doorbells",
        ]);
        assert_eq!(p["triggers"].as_array().unwrap().len(), 0);
        assert_eq!(
            p["pass"], true,
            "{mode}: per-engine doorbells move the same bytes"
        );
    }
    let text = String::from_utf8_lossy(&sb2sb(&["run", "sendrecv"]).stdout).to_string();
    assert!(
        text.contains("after remote_routing_id=$18, dst_addr=0x58800000100000"),
        "{text}"
    );
    assert!(text.contains(&seed_s8_word_hex()), "{text}");
}

#[test]
fn same_die_and_cross_chip_variants_verify_in_fast_and_cycle_mode() {
    let s = json(&[
        "run",
        "sendrecv",
        "--same-die",
        "--json",
        "--bytes",
        "4K",
        "--partitions",
        "16",
    ]);
    assert_eq!(s["dst_soc"], 0x100000, "same die: no fold");
    assert_eq!(s["link"], "on_die");
    assert_eq!(s["pass"], true);
    for mode in ["fast", "cycle"] {
        let c = json(&[
            "run",
            "sendrecv",
            "--cross-chip",
            "--json",
            "--bytes",
            "2K",
            "--partitions",
            "8",
            "--mode",
            mode,
        ]);
        // Chip-id fold of 0x100000, die 1, CAYMAN_ID <- routing id 0x12 (the
        // field-table value, seed 001 §8; §2.3 CAYMAN_ID [53:48] <- routing_id).
        assert_eq!(c["dst_soc"], 0x0052_8000_0010_0000u64, "{mode}");
        assert_eq!(c["remote_routing_id"], 0x12, "{mode}");
        assert_eq!(c["fold"], "ChipId", "{mode}");
        assert_eq!(c["pass"], true, "{mode}");
        assert_eq!(c["remote_sem"]["value"], 4, "{mode}");
    }
}

#[test]
fn engine_mask_sets_the_semaphore_targets() {
    let v = json(&[
        "run",
        "sendrecv",
        "--json",
        "--engine-mask",
        "0xFFFF",
        "--bytes",
        "1K",
    ]);
    assert_eq!(v["engines"], 16);
    assert_eq!(
        v["local_sem"]["value"], 16,
        "local_sem is bumped by all 16 engines (seed 001 §5.2)"
    );
    assert_eq!(v["remote_sem"]["value"], 16);
}

#[test]
fn transaction_trace_is_a_vcd_gtkwave_parses() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("leg.vcd");
    let o = sb2sb(&[
        "run",
        "sendrecv",
        "--bytes",
        "1K",
        "--partitions",
        "8",
        "--vcd",
        p.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    common::vcd2fst_accepts(&p);
    let vars = common::vcd_vars(&p, "system.core7");
    assert!(
        vars.iter().any(|v| v.0 == "sem20"),
        "remote_sem traced on the RX core: {vars:?}"
    );
}

#[test]
fn bad_leg_arguments_are_one_line_errors() {
    for args in [
        &["run", "sendrecv", "--engine-mask", "0"][..],
        &["run", "sendrecv", "--partitions", "0"][..],
        &["run", "sendrecv", "--chip-id", "64", "--cross-chip"][..],
        &["run", "sendrecv", "--src-offset", "0x10000000"][..],
    ] {
        let o = sb2sb(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    }
}

#[test]
fn odd_byte_offsets_run_in_both_modes() {
    for mode in ["fast", "cycle"] {
        let o = sb2sb(&[
            "run",
            "sendrecv",
            "--src-offset",
            "0x100003",
            "--dst-offset",
            "0x100005",
            "--mode",
            mode,
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{mode}: {out}");
        assert!(out.contains("bytes equal, byte by byte"), "{mode}: {out}");
    }
}

/// `run sendrecv --mode rtl` with `args` after the small leg's own
/// (8 partitions × 1 KiB, the seed's engines and semaphores): exit code and
/// the JSON report.
fn rtl_leg(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut all = vec![
        "run",
        "sendrecv",
        "--mode",
        "rtl",
        "--json",
        "--partitions",
        "8",
        "--bytes",
        "1K",
    ];
    all.extend_from_slice(args);
    let o = sb2sb(&all);
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{all:?}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code(), v)
}

/// The testbench backdoor against the old path as the oracle: the same
/// small leg loaded and read through the debug memory ports passes with the
/// same ring set-up and data-phase cycles (the backdoor changes nothing the
/// pair sees during the leg), and spends exactly its preload — one word per
/// cycle: the leg's source and destination words (the same words here: the
/// offsets are equal), then the descriptor RAM — in cycles the backdoor
/// does not.
#[test]
fn rtl_leg_through_the_backdoor_passes_with_the_debug_port_paths_cycle_counts() {
    let _g = common::lock();
    let (code_bd, bd) = rtl_leg(&["--preload", "backdoor"]);
    let (code_dp, dp) = rtl_leg(&["--preload", "debug-port"]);
    for (code, v, what) in [(code_bd, &bd, "backdoor"), (code_dp, &dp, "debug port")] {
        assert_eq!(code, Some(0), "{what}: {v}");
        assert_eq!(v["pass"], true, "{what}");
        assert_eq!(v["verified_against_fast"], true, "{what}");
        assert_eq!(v["mismatched_bytes"], 0, "{what}");
        assert_eq!(v["src_mismatched_bytes"], 0, "{what}");
        assert_eq!(v["bytes"], 8 * 1024, "{what}");
        // 8 partitions over the 4 engines of mask 0x000F: 4 completions each side
        assert_eq!(v["local_sem"]["value"], 4, "{what}");
        assert_eq!(v["remote_sem"]["value"], 4, "{what}");
    }
    assert_eq!(bd["host"]["preload"], "backdoor");
    assert_eq!(dp["host"]["preload"], "debug-port");
    let setup = bd["bus"]["setup_cycles"].as_u64().unwrap();
    let data = bd["bus"]["data_cycles"].as_u64().unwrap();
    assert!(setup > 0 && data > 0);
    assert_eq!(dp["bus"]["setup_cycles"].as_u64(), Some(setup));
    assert_eq!(dp["bus"]["data_cycles"].as_u64(), Some(data));
    let preload = 8 * 1024 / 8 + u64::from(sb2sb_model::pair::DESC_BYTES) / 8;
    assert_eq!(
        dp["cycles"].as_u64().unwrap() - bd["cycles"].as_u64().unwrap(),
        preload,
        "the debug port's preload, one word per cycle"
    );
}

/// The comparison with fast mode can fail: one source bit flipped as the
/// backdoor stores it is one wrong byte in core B's destination and one in
/// core A's source, and the run fails.
#[test]
fn a_corrupted_backdoor_word_is_caught_by_the_comparison_with_fast_mode() {
    let _g = common::lock();
    let (code, v) = rtl_leg(&["--inject-backdoor-fault", "5"]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(v["pass"], false);
    assert_eq!(v["verified_against_fast"], false);
    assert_eq!(v["mismatched_bytes"], 1);
    assert_eq!(v["src_mismatched_bytes"], 1);
    // the semaphores are untouched by the data: only the bytes fail
    assert_eq!(v["remote_sem"]["value"], 4);
}

/// The backdoor as a generic capability of a Verilated block: the seed-size
/// pair lists each core's memories (4 SBUF banks of 32 partitions × 64 KiB,
/// then the descriptor RAM) and refuses words past an array's end; a block
/// verilated without it reports a typed error.
#[test]
fn the_backdoor_lists_the_pairs_memories_and_a_block_without_one_is_a_typed_error() {
    use sb2sb::rtl::{BackdoorError, RtlDut, XInit};
    use sb2sb_model::pair::{PairIn, PairOut, BLOCK_SEED, DESC_BYTES, SEED_SBUF_PART_BYTES};
    let _g = common::lock();
    let d: RtlDut<sb2sb_model::decoder::DecoderIn, sb2sb_model::decoder::DecoderOut> =
        RtlDut::new(&sb2sb_model::decoder::BLOCK, 1, XInit::Zero).unwrap();
    assert!(
        matches!(d.backdoor_mems(), Err(BackdoorError::Absent { ref block }) if block == "decoder"),
        "{:?}",
        d.backdoor_mems()
    );
    let mut p: RtlDut<PairIn, PairOut> = RtlDut::new(&BLOCK_SEED, 1, XInit::Zero).unwrap();
    let mems = p.backdoor_mems().unwrap();
    let bank_words = 32 * SEED_SBUF_PART_BYTES / 8;
    let mut want = Vec::new();
    for core in ["a", "b"] {
        for k in 0..5 {
            let words = if k < 4 { bank_words } else { DESC_BYTES / 8 };
            want.push((
                format!("TOP.sb2sb_pair.u_core_{core}.gen_mem[{k}].u_mem.mem_q"),
                words,
                64,
            ));
        }
    }
    let got: Vec<(String, u32, u32)> = mems
        .iter()
        .map(|m| (m.name.clone(), m.words, m.bits))
        .collect();
    assert_eq!(got, want);
    // a round trip, and the words past the end of the descriptor RAM
    let desc = p
        .backdoor_find("TOP.sb2sb_pair.u_core_b.gen_mem[4].u_mem.mem_q")
        .unwrap();
    p.backdoor_write(desc, 7, &[0x0123_4567_89ab_cdef, 42])
        .unwrap();
    let mut back = [0u64; 2];
    p.backdoor_read(desc, 7, &mut back).unwrap();
    assert_eq!(back, [0x0123_4567_89ab_cdef, 42]);
    let end = DESC_BYTES / 8;
    assert!(matches!(
        p.backdoor_write(desc, end - 1, &[0, 0]),
        Err(BackdoorError::Range { words, .. }) if words == end
    ));
    assert!(matches!(
        p.backdoor_find("TOP.sb2sb_pair.u_core_c.gen_mem[0].u_mem.mem_q"),
        Err(BackdoorError::NoMemory { .. })
    ));
}
