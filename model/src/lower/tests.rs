//! Programs end to end: every guard fed its bad input, message checked;
//! the no-reduce guarantee; 0xDB / 0xDC results; collectives; examples/.

use serde_json::{json, Value};

use super::*;
use crate::isa::{Arch, GidDst, GidLoad, GidTarget};

fn run_json(v: Value) -> Result<RunReport, ProgramError> {
    let p: Program = serde_json::from_value(v).expect("test program parses");
    let l = load(p)?;
    let mut t = fast_target(&l);
    run(&l, &mut t)
}

fn err_of(v: Value) -> String {
    match run_json(v) {
        Err(e) => e.to_string(),
        Ok(r) => panic!("expected an error, got {r:?}"),
    }
}

fn hex(w: &[u8]) -> String {
    w.iter().map(|b| format!("{b:02x}")).collect()
}

/// SEND word fields from rank `peer` perspective.
fn sr(is_send: u8, peer: u64, tensor: u32, off: u64, size: u64) -> Value {
    json!({"kind": "sendrecv", "fields": {
        "tensor_id": tensor, "peer_id": peer, "is_send": is_send,
        "offset_bytes": off, "size_bytes": size,
        "update_mode": "SEM_INC_ON_COMPLETE", "update_idx": 3}})
}

/// Two ranks on different dies (cores 0 and 4), one 4 KiB fp32 tensor each.
fn pair_program(p0: Vec<Value>, p1: Vec<Value>) -> Value {
    json!({
        "arch": "cayman",
        "ranks": [0, 4],
        "replica_groups": [[0, 1]],
        "tensors": [
            {"rank": 0, "id": 1, "partitions": [0, 32], "offset": 256, "size": 4096, "dtype": "fp32"},
            {"rank": 1, "id": 1, "partitions": [64, 128], "offset": 0, "size": 4096, "dtype": "fp32"}
        ],
        "init": [
            {"rank": 0, "tensor": 1, "data": {"iota": {"start": 1.5, "step": 0.25}}},
            {"rank": 1, "tensor": 1, "data": {"fill": 85}}
        ],
        "programs": [p0, p1]
    })
}

#[test]
fn sendrecv_moves_exact_bytes_and_never_reduces_seed_000_7() {
    // The destination held nonzero data: a fold (sum/max) would change the result.
    let mut p = pair_program(vec![sr(1, 1, 1, 0, 4096)], vec![sr(0, 0, 1, 0, 4096)]);
    p["expect"] = json!({
        "data": [{"rank": 1, "tensor": 1, "data": {"copy_of": {"rank": 0, "tensor": 1}}}],
        "sems": [{"rank": 0, "idx": 3, "value": 1}, {"rank": 1, "idx": 3, "value": 1}]
    });
    let rep = run_json(p).unwrap();
    assert!(rep.passed(), "{:?}", rep.checks);
    assert_eq!(rep.pairs, 1);
    assert_eq!(rep.legs.bytes, 4096);
}

#[test]
fn sendrecv_partial_range_lands_at_receiver_offset() {
    let mut p = pair_program(vec![sr(1, 1, 1, 100, 1000)], vec![sr(0, 0, 1, 2000, 1000)]);
    p["expect"] = json!({"data": [
        {"rank": 1, "tensor": 1, "offset": 2000, "size": 1000, "data": {"copy_of": {"rank": 0, "tensor": 1, "offset": 100}}},
        {"rank": 1, "tensor": 1, "offset": 0, "size": 2000, "data": {"fill": 85}},
        {"rank": 1, "tensor": 1, "offset": 3000, "data": {"fill": 85}}
    ]});
    let rep = run_json(p).unwrap();
    assert!(rep.passed(), "{:?}", rep.checks);
}

#[test]
fn sendrecv_peer_from_two_rank_group_seed_000_4a() {
    let mut s = sr(1, 1, 1, 0, 64);
    s["group"] = json!(0);
    let mut p = pair_program(vec![s], vec![sr(0, 0, 1, 0, 64)]);
    p["expect"] = json!({"data": [{"rank": 1, "tensor": 1, "size": 64, "data": {"copy_of": {"rank": 0, "tensor": 1}}}]});
    assert!(run_json(p).unwrap().passed());
}

#[test]
fn guard_rank_cannot_send_to_itself_seed_000_4a() {
    let e = err_of(pair_program(vec![sr(1, 0, 1, 0, 64)], vec![]));
    assert!(
        e.contains("assertion `g_device_id != peer_id` failed: rank 0"),
        "{e}"
    );
    assert!(e.starts_with("rank 0, instruction 0:"), "{e}");
}

#[test]
fn guard_sendrecv_must_increment_semaphore_seed_000_8a() {
    let mut s = sr(1, 1, 1, 0, 64);
    s["fields"]["update_mode"] = json!("NONE");
    let e = err_of(pair_program(vec![s], vec![sr(0, 0, 1, 0, 64)]));
    assert!(
        e.contains("Collective instruction must increment semaphore when done"),
        "{e}"
    );
}

#[test]
fn guard_send_must_meet_receive_of_same_size_public_facts_5() {
    let e = err_of(pair_program(
        vec![sr(1, 1, 1, 0, 64)],
        vec![sr(0, 0, 1, 0, 128)],
    ));
    assert!(
        e.contains("a send must meet a receive of the same size"),
        "{e}"
    );
    assert!(
        e.contains("moves 64 bytes") && e.contains("takes 128 bytes"),
        "{e}"
    );
}

#[test]
fn guard_unmatched_send_is_reported() {
    let e = err_of(pair_program(vec![sr(1, 1, 1, 0, 64)], vec![]));
    assert!(
        e.contains("SEND of rank 0 (instruction 0, 64 bytes, peer 1) never met a matching RECV"),
        "{e}"
    );
}

#[test]
fn guard_offset_plus_size_inside_tensor() {
    let e = err_of(pair_program(vec![sr(1, 1, 1, 4000, 97)], vec![]));
    assert!(e.contains("offset_bytes 4000 + size_bytes 97"), "{e}");
    let e = err_of(pair_program(vec![sr(1, 1, 9, 0, 1)], vec![]));
    assert!(
        e.contains("tensor_id 9 (byte 12) is not a tensor of rank 0"),
        "{e}"
    );
}

#[test]
fn guard_pair_group_must_have_two_ranks_and_agree_with_peer_id() {
    let mut p = pair_program(vec![], vec![]);
    p["replica_groups"] = json!([[0, 1], [0]]);
    let mut s = sr(1, 1, 1, 0, 64);
    s["group"] = json!(1);
    p["programs"] = json!([[s], []]);
    let e = err_of(p.clone());
    assert!(e.contains("send/recv replica group 1 has 1 ranks"), "{e}");
    let mut s = sr(1, 5, 1, 0, 64);
    s["group"] = json!(0);
    p["programs"] = json!([[s], []]);
    let e = err_of(p);
    assert!(
        e.contains("peer_id (byte 16) is 5 but replica group 0 makes the peer rank 1"),
        "{e}"
    );
}

/// A SENDRECV to a rank the program does not have is refused, naming the
/// missing peer rank.
#[test]
fn guard_peer_must_exist() {
    let e = err_of(pair_program(vec![sr(1, 9, 1, 0, 64)], vec![]));
    assert!(e.contains("peer rank 9 does not exist"), "{e}");
}

fn ranks4(programs: Value) -> Value {
    json!({
        "arch": "cayman",
        "replica_groups": [[0, 1, 2, 3], [3, 2, 1, 0]],
        "tensors": (0..4).map(|r| json!({"rank": r, "id": 7, "partitions": [0, 1], "size": 64})).collect::<Vec<_>>(),
        "programs": programs
    })
}

fn cur(group: u32, channel: u32, iteration: u32, reg: u32, stream: u32) -> Value {
    json!({"kind": "cur-rank", "fields": {"group_id": group, "channel_id": channel, "iteration_id": iteration, "dst_reg": reg, "stream_id": stream}})
}

#[test]
fn cur_rank_id_writes_ring_peer_into_dst_reg_seed_002_4() {
    let progs: Vec<Value> = (0..4)
        .map(|_| {
            json!([
                cur(0, 0, 0, 10, 0),
                cur(0, 0, 1, 11, 0),
                cur(0, 1, 1, 12, 0),
                cur(0, 0, 3, 13, 0)
            ])
        })
        .collect();
    let mut p = ranks4(json!(progs));
    let mut regs = Vec::new();
    for r in 0u32..4 {
        regs.push(json!({"rank": r, "reg": 10, "value": r}));
        regs.push(json!({"rank": r, "reg": 11, "value": (r + 3) % 4}));
        regs.push(json!({"rank": r, "reg": 12, "value": (r + 1) % 4}));
        regs.push(json!({"rank": r, "reg": 13, "value": (r + 1) % 4}));
    }
    p["expect"] = json!({"regs": regs});
    let rep = run_json(p).unwrap();
    assert!(rep.passed(), "{:?}", rep.checks);
}

#[test]
fn guard_cur_rank_id_checks_group_channel_iteration_and_dst_reg_seed_002_1() {
    let one = |w: Value| ranks4(json!([[w], [], [], []]));
    assert!(err_of(one(cur(5, 0, 0, 1, 0))).contains("group_id 5 does not exist"));
    assert!(err_of(one(cur(0, 2, 0, 1, 0))).contains("channel_id 2 (byte 14) out of range"));
    assert!(err_of(one(cur(0, 0, 4, 1, 0))).contains("iteration_id 4 (byte 16) out of range"));
    let e = err_of(one(cur(0, 0, 0, 64, 0)));
    assert!(
        e.contains(
            "dst_reg 64 (byte 18) is not a general register on cayman (v3): NUM_REGISTERS is 64"
        ),
        "{e}"
    );
    // v5 has 192 registers.
    let mut p = one(cur(0, 0, 1, 150, 0));
    p["arch"] = json!("maverick");
    p["expect"] = json!({"regs": [{"rank": 0, "reg": 150, "value": 3}]});
    assert!(run_json(p).unwrap().passed());
}

#[test]
fn guard_stream_group_one_to_one_seed_002_5() {
    // Same stream, two groups.
    let p = ranks4(json!([
        [cur(0, 0, 0, 1, 4), cur(1, 0, 0, 2, 4)],
        [],
        [],
        []
    ]));
    let e = err_of(p);
    assert!(
        e.contains("stream_id <-> group_id mapping violation. There should be a one-to-one"),
        "{e}"
    );
    // A fixed map that is not one-to-one is refused at load.
    let mut p = ranks4(json!([[], [], [], []]));
    p["streams"] = json!([{"stream_id": 0, "group_id": 0}, {"stream_id": 1, "group_id": 0}]);
    let e = err_of(p);
    assert!(
        e.starts_with("stream_id <-> group_id mapping violation"),
        "{e}"
    );
    // A word outside a fixed map.
    let mut p = ranks4(json!([[cur(1, 0, 0, 1, 0)], [], [], []]));
    p["streams"] = json!([{"stream_id": 0, "group_id": 0}]);
    assert!(err_of(p).contains("mapping violation"));
}

fn gid_prog(words: Vec<Value>, arch: &str) -> Value {
    let mut p = ranks4(json!([[], [], words, []]));
    p["arch"] = json!(arch);
    p
}

#[test]
fn gid_load_writes_own_gid_to_register_and_address_forms_seed_002_7() {
    let reg = json!({"kind": "gid-load", "fields": {"regnum": 20}});
    let dge = json!({"kind": "gid-load", "fields": {"regnum": 131}});
    // addr_reg: register 21 holds an SBUF address (partition 3, byte 16), +8.
    let base = json!({"kind": "cur-rank", "fields": {"group_id": 0, "channel_id": 0, "iteration_id": 0, "dst_reg": 21}});
    let addr_reg = GidLoad {
        dst_target: GidTarget::Address,
        dst: GidDst::AddrReg {
            reg_lo: 21,
            offset: 8,
        },
        ..Default::default()
    };
    let addr_var = GidLoad {
        dst_target: GidTarget::Address,
        dst: GidDst::AddrVar {
            var_id: 7,
            offset: 16,
        },
        ..Default::default()
    };
    let words = vec![
        reg,
        dge,
        base,
        json!({"hex": hex(&addr_reg.encode())}),
        json!({"hex": hex(&addr_var.encode())}),
    ];
    let mut p = gid_prog(words, "cayman");
    // Rank 2's 0xDB at iteration 0 writes 2 into r21: SBUF address 2 + 8 = byte 10 of partition 0.
    p["tensors"] = json!([{"rank": 2, "id": 7, "partitions": [0, 1], "size": 64}]);
    p["expect"] = json!({
        "regs": [{"rank": 2, "reg": 20, "value": 2}, {"rank": 2, "reg": 131, "value": 2}],
        "data": [
            {"rank": 2, "tensor": 7, "offset": 10, "size": 4, "data": {"hex": "02000000"}},
            {"rank": 2, "tensor": 7, "offset": 16, "size": 4, "data": {"hex": "02000000"}}
        ]
    });
    let rep = run_json(p).unwrap();
    assert!(rep.passed(), "{:?}", rep.checks);
}

#[test]
fn guard_gid_load_validator_on_both_forms_seed_002_7_2() {
    // Register form: 64 is not writable on v2–v4 (130/131 are).
    let e = err_of(gid_prog(
        vec![json!({"kind": "gid-load", "fields": {"regnum": 64}})],
        "cayman",
    ));
    assert!(e.contains("64"), "{e}");
    assert!(run_json(gid_prog(
        vec![json!({"kind": "gid-load", "fields": {"regnum": 100}})],
        "maverick"
    ))
    .is_ok());
    // Register form with a nonzero reserved byte.
    let mut w = GidLoad::to_register(5).encode();
    w[16] = 1;
    let e = err_of(gid_prog(vec![json!({"hex": hex(&w)})], "cayman"));
    assert!(e.contains("reserved"), "{e}");
    // Address form: addr_reg marker with reg_hi != 0.
    let mut w = GidLoad {
        dst_target: GidTarget::Address,
        dst: GidDst::AddrReg {
            reg_lo: 1,
            offset: 0,
        },
        ..Default::default()
    }
    .encode();
    w[17] = 1;
    let e = err_of(gid_prog(vec![json!({"hex": hex(&w)})], "cayman"));
    assert!(e.contains("reg_hi"), "{e}");
    // Address form with an unknown marker.
    let mut w = GidLoad {
        dst_target: GidTarget::Address,
        dst: GidDst::AddrReg {
            reg_lo: 1,
            offset: 0,
        },
        ..Default::default()
    }
    .encode();
    w[23] = 0x11;
    let e = err_of(gid_prog(vec![json!({"hex": hex(&w)})], "cayman"));
    assert!(e.contains("marker"), "{e}");
    // Var form naming a tensor the rank does not have.
    let w = GidLoad {
        dst_target: GidTarget::Address,
        dst: GidDst::AddrVar {
            var_id: 99,
            offset: 0,
        },
        ..Default::default()
    }
    .encode();
    let e = err_of(gid_prog(vec![json!({"hex": hex(&w)})], "cayman"));
    assert!(e.contains("tensor_id 99"), "{e}");
}

#[test]
fn permute_from_cur_rank_id_and_sendrecv_peer_reg_seed_002_6() {
    // Channel 0 iteration 1 = the rank we receive from; channel 1 iteration 1 = the one we send to.
    let progs: Vec<Value> = (0..4)
        .map(|_| {
            let mut recv = sr(0, 0, 8, 0, 64);
            recv["peer_reg"] = json!(1);
            let mut send = sr(1, 0, 7, 0, 64);
            send["peer_reg"] = json!(2);
            json!([cur(0, 0, 1, 1, 0), cur(0, 1, 1, 2, 0), recv, send])
        })
        .collect();
    let mut p = ranks4(json!(progs));
    let mut tensors: Vec<Value> = p["tensors"].as_array().unwrap().clone();
    let mut init = Vec::new();
    let mut expect = Vec::new();
    for r in 0..4u32 {
        tensors.push(json!({"rank": r, "id": 8, "partitions": [1, 2], "size": 64}));
        init.push(json!({"rank": r, "tensor": 7, "data": {"random": r}}));
        expect.push(json!({"rank": (r + 1) % 4, "tensor": 8, "data": {"copy_of": {"rank": r, "tensor": 7}}}));
    }
    p["tensors"] = json!(tensors);
    p["init"] = json!(init);
    p["expect"] = json!({"data": expect, "sems": [{"rank": 0, "idx": 3, "value": 2}]});
    let rep = run_json(p).unwrap();
    assert!(rep.passed(), "{:?}", rep.checks);
    assert_eq!(rep.pairs, 4);
}

#[test]
fn deadlock_on_a_semaphore_that_never_rises_is_reported() {
    let mut s = sr(1, 1, 1, 0, 64);
    s["fields"]["wait_mode"] = json!("SEM_GE_IMM");
    s["fields"]["wait_idx"] = json!(9);
    s["fields"]["semaphore_value"] = json!(1);
    let e = err_of(pair_program(vec![s], vec![sr(0, 0, 1, 0, 64)]));
    assert!(e.starts_with("deadlock: no rank can proceed"), "{e}");
}

#[test]
fn collective_entries_run_and_match_the_reference() {
    for (op, dtype) in [
        ("all_reduce", "bf16"),
        ("reduce_scatter", "fp16"),
        ("all_gather", "int32"),
        ("permute", "fp32"),
    ] {
        let mut tensors = Vec::new();
        let mut init = Vec::new();
        for r in 0..4u32 {
            tensors.push(
                json!({"rank": r, "id": 1, "partitions": [0, 16], "size": 1024, "dtype": dtype}),
            );
            tensors.push(
                json!({"rank": r, "id": 2, "partitions": [16, 32], "size": 1024, "dtype": dtype}),
            );
            init.push(
                json!({"rank": r, "tensor": 1, "data": {"iota": {"start": r as f64, "step": 0.5}}}),
            );
        }
        let out = if op == "permute" {
            json!(2)
        } else {
            Value::Null
        };
        let c =
            json!({"collective": {"op": op, "group": 0, "tensor": 1, "output": out, "channel": 1}});
        let p = json!({
            "replica_groups": [[0, 1, 2, 3]],
            "tensors": tensors, "init": init,
            "programs": [[c], [c], [c], [c]]
        });
        let rep = run_json(p).unwrap();
        assert_eq!(rep.collectives, 1);
        assert!(
            rep.passed() && rep.checks.len() == 1,
            "{op}: {:?}",
            rep.checks
        );
    }
}

#[test]
fn malformed_entries_and_setup_errors_name_the_key() {
    let mut p = pair_program(vec![json!({"comment": "nothing"})], vec![]);
    assert!(err_of(p.clone()).contains("exactly one of"));
    p["programs"] = json!([[{"hex": "cb00"}], []]);
    assert!(err_of(p.clone()).contains("an instruction word is 64"));
    p["programs"] = json!([[], []]);
    p["tensors"][0]["size"] = json!(4097);
    assert!(err_of(p.clone()).starts_with("tensors[0]: size 4097 is not a multiple"));
    p["tensors"][0]["size"] = json!(4096);
    p["ranks"] = json!([0, 8]);
    assert!(err_of(p).starts_with("ranks[1]: core 8 is not in the topology"));
}

/// examples/ (the programs `sb2sb run program` ships with).
fn examples_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// Every program of examples/, loaded: (file name, program), by name.
#[rstest::fixture]
fn examples() -> Vec<(String, Loaded)> {
    let mut v: Vec<(String, Loaded)> = std::fs::read_dir(examples_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("json"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name.clone(), example(&name))
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// examples/`name`, loaded.
fn example(name: &str) -> Loaded {
    let text = std::fs::read_to_string(examples_dir().join(name)).unwrap();
    let p = Program::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    load(p).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[rstest::rstest]
fn every_example_program_runs_and_verifies(examples: Vec<(String, Loaded)>) {
    for (name, l) in &examples {
        let mut t = fast_target(l);
        let rep = run(l, &mut t).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(rep.passed(), "{name}: {:?}", rep.checks);
        assert!(
            !rep.checks.is_empty(),
            "{name}: an example must check something"
        );
    }
    let n = examples.len();
    assert!(n >= 8, "examples/ holds {n} programs");
}

/// Run a program on a target and return the SBUF bytes of every tensor.
fn tensor_bytes(l: &Loaded, t: &mut dyn Target) -> Vec<((u32, u32), Vec<u8>)> {
    run(l, t).unwrap();
    let mut keys: Vec<_> = l.tensors.keys().copied().collect();
    keys.sort();
    keys.into_iter()
        .map(|k| {
            let lay = l.tensors[&k].layout;
            (
                k,
                crate::collective::read_tensor(t, &lay, 0, lay.size).unwrap(),
            )
        })
        .collect()
}

#[rstest::rstest]
fn examples_agree_on_flat_target_and_system_model_fast_mode(examples: Vec<(String, Loaded)>) {
    for (name, l) in &examples {
        if name.starts_with("guard_") {
            continue;
        }
        let mut flat = fast_target(l);
        let mut sys = system_target(l, crate::system::Mode::Fast).unwrap();
        let a = tensor_bytes(l, &mut flat);
        let b = tensor_bytes(l, &mut sys);
        assert_eq!(a, b, "{name}");
        let rep = run(l, &mut system_target(l, crate::system::Mode::Fast).unwrap()).unwrap();
        assert!(rep.passed(), "{name}: {:?}", rep.checks);
    }
}

#[rstest::rstest]
#[case::sendrecv("sendrecv.json")]
#[case::all_reduce_fp32_max("all_reduce_fp32_max.json")]
#[case::permute("permute.json")]
fn sendrecv_and_all_reduce_in_cycle_mode_match_the_fast_path(#[case] ex: &str) {
    let l = example(ex);
    let mut cyc = system_target(&l, crate::system::Mode::Cycle).unwrap();
    let rep = run(&l, &mut cyc).unwrap();
    assert!(rep.passed(), "{ex}: {:?}", rep.checks);
    let mut cyc = system_target(&l, crate::system::Mode::Cycle).unwrap();
    let mut flat = fast_target(&l);
    assert_eq!(
        tensor_bytes(&l, &mut cyc),
        tensor_bytes(&l, &mut flat),
        "{ex}"
    );
}

#[test]
fn system_model_refuses_a_partition_shift() {
    // Different offset_bytes on the two sides put the bytes on other partitions.
    let mut p = pair_program(vec![sr(1, 1, 1, 0, 256)], vec![sr(0, 0, 1, 1024, 256)]);
    p["tensors"][1]["partitions"] = json!([0, 32]);
    let l = load(serde_json::from_value(p).unwrap()).unwrap();
    let mut sys = system_target(&l, crate::system::Mode::Fast).unwrap();
    let e = run(&l, &mut sys).unwrap_err().to_string();
    assert!(e.contains("shifts partitions"), "{e}");
    // The flat target moves it.
    assert!(run(&l, &mut fast_target(&l)).is_ok());
}

/// The opcodes seed 000 defines and the project decodes (0xCB SENDRECV,
/// 0xDB CUR_PROCESSING_RANK_ID, 0xDC GID_LOAD, 0xE0 the extended RDMA
/// words, which the host lowering refuses): the oracle of the random-word
/// property, written from the seed, not from the decoder.
const SEED_OPCODES: [u8; 4] = [0xCB, 0xDB, 0xDC, 0xE0];

/// Hex text as `parse_hex` reads it: trimmed, a leading `0x` dropped,
/// whitespace and `_` removed.
fn hex_digits(text: &str) -> String {
    text.trim()
        .trim_start_matches("0x")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Random words (any opcode, any bytes) on rank 0 of three: a word whose
    /// opcode the seed does not define is refused at load, at its own entry
    /// or an earlier one, naming the opcode; only 0xCB/0xDB/0xDC streams can
    /// succeed, and a successful run issued every entry and paired every
    /// SENDRECV (ranks 1 and 2 have none, so rank 0's pair among themselves).
    #[test]
    fn random_words_are_refused_at_their_entry_or_run_to_the_end(
        words in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 64), 1..4),
        op in proptest::prelude::any::<u8>(),
    ) {
        let mut entries = Vec::new();
        let mut opcodes = Vec::new();
        for mut w in words {
            // Bias towards the pseudo-ops so that the decoder gets past the opcode.
            w[0] = [0xCB, 0xDB, 0xDC, op][w[1] as usize % 4];
            opcodes.push(w[0]);
            entries.push(json!({"hex": hex(&w)}));
        }
        let n = entries.len();
        let p = json!({
            "replica_groups": [[0, 1], [0, 1, 2]],
            "tensors": [{"rank": 0, "id": 0, "partitions": [0, 4], "size": 256}],
            "programs": [entries, [], []]
        });
        let unknown = opcodes.iter().position(|o| !SEED_OPCODES.contains(o));
        match run_json(p) {
            Ok(rep) => {
                proptest::prop_assert!(opcodes.iter().all(|o| [0xCB, 0xDB, 0xDC].contains(o)), "{opcodes:x?} ran");
                proptest::prop_assert_eq!(rep.issued, n as u64);
                let sendrecvs = opcodes.iter().filter(|&&o| o == 0xCB).count() as u64;
                proptest::prop_assert_eq!(2 * rep.pairs, sendrecvs);
            }
            Err(ProgramError::At { rank, pc, guard }) => {
                proptest::prop_assert_eq!(rank, 0);
                proptest::prop_assert!(pc < n);
                if let Some(k) = unknown {
                    proptest::prop_assert!(pc <= k, "entry {k} has opcode {:#04x}, error at {pc}", opcodes[k]);
                    if pc == k {
                        let msg = guard.to_string();
                        let want = format!("0x{:02x}", opcodes[k]);
                        proptest::prop_assert!(msg.contains("field `opcode` at byte 0") && msg.contains(&want), "{msg}");
                    }
                }
            }
            Err(ProgramError::Deadlock { detail }) => {
                // Only a wait that never holds stops a stream the loader accepted.
                proptest::prop_assert!(unknown.is_none(), "{detail}");
                proptest::prop_assert!(detail.contains("rank 0 waits"), "{detail}");
            }
            Err(e) => proptest::prop_assert!(false, "not an entry error: {e}"),
        }
    }

    /// Random text: `parse_hex` accepts exactly the texts whose digits (after
    /// trimming, a `0x` prefix, whitespace and `_`) are an even number of
    /// hex digits, and then returns bytes that print back as those digits;
    /// `Program::from_json` refuses whatever is not JSON.
    #[test]
    fn random_text_is_hex_exactly_when_its_digits_are(text in "\\PC{0,200}|[0-9a-fA-F_ x]{0,40}") {
        let digits = hex_digits(&text);
        let is_hex = digits.chars().all(|c| c.is_ascii_hexdigit()) && digits.len().is_multiple_of(2);
        match exec::parse_hex(&text) {
            Ok(bytes) => {
                proptest::prop_assert!(is_hex, "{text:?} parsed");
                proptest::prop_assert_eq!(hex(&bytes), digits.to_ascii_lowercase());
            }
            Err(e) => {
                proptest::prop_assert!(!is_hex, "{text:?}: {e}");
                proptest::prop_assert!(e.contains("hex"), "{e}");
            }
        }
        if serde_json::from_str::<Value>(&text).is_err() {
            proptest::prop_assert!(Program::from_json(&text).is_err());
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// A tensor placement is refused, naming `tensors[0]`, exactly when it
    /// breaks one of the rules written here from docs/programs.md (a
    /// non-empty partition range inside the 128 SBUF partitions, a size that
    /// divides over them, each partition's bytes inside the partition);
    /// otherwise it loads with the layout asked for.
    #[test]
    fn tensor_placement_is_refused_exactly_when_it_breaks_a_rule(
        lo in proptest::prop_oneof![0u32..132, 116u32..132],
        len in 0u32..12,
        per_part in 0u64..40_000,
        ragged in proptest::prelude::any::<bool>(),
        offset in 0u64..40_000,
        edge in proptest::prelude::any::<bool>(),
        slack in -2i64..=2,
    ) {
        const PB: u64 = 65_536;
        let hi = lo + len;
        // Half the cases end each partition's bytes within 2 of the partition's end.
        let offset = if edge {
            (PB as i64 - per_part as i64 + slack).max(0) as u64
        } else {
            offset
        };
        let size = per_part * u64::from(len) + u64::from(ragged);
        let p = json!({
            "topology": {"packages": 1, "dies_per_package": 2, "cores_per_die": 4, "partition_bytes": PB},
            "tensors": [{"rank": 0, "id": 7, "partitions": [lo, hi], "offset": offset, "size": size}],
            "programs": [[]]
        });
        let valid = len > 0
            && hi <= 128
            && size.is_multiple_of(u64::from(len))
            && offset + size / u64::from(len) <= PB;
        match load(serde_json::from_value(p).unwrap()) {
            Ok(l) => {
                proptest::prop_assert!(valid, "[{lo}, {hi}) offset {offset} size {size} loaded");
                let t = l.tensors[&(0, 7)];
                proptest::prop_assert_eq!(
                    (t.layout.core, t.layout.partition, t.layout.partitions, t.layout.offset, t.layout.size),
                    (0, lo, len, offset, size)
                );
            }
            Err(ProgramError::Setup { key, detail }) => {
                proptest::prop_assert!(!valid, "[{lo}, {hi}) offset {offset} size {size}: {detail}");
                proptest::prop_assert_eq!(key, "tensors[0]");
            }
            Err(e) => proptest::prop_assert!(false, "not a setup error: {e}"),
        }
    }
}

#[test]
fn huge_sizes_are_errors_not_aborts() {
    let mut p = pair_program(vec![], vec![]);
    p["init"] = json!([{"rank": 0, "tensor": 1, "size": 1u64 << 60, "data": {"fill": 1}}]);
    assert!(err_of(p.clone()).contains("do not fit"));
    p["init"] = json!([]);
    p["topology"] = json!({"packages": 1000000, "dies_per_package": 2, "cores_per_die": 4});
    assert!(err_of(p.clone()).contains("at most 512"));
    p["topology"] = json!({"packages": 1, "dies_per_package": 2, "cores_per_die": 4, "partition_bytes": 1u64 << 40});
    assert!(err_of(p.clone()).contains("partition_bytes"));
    p["topology"] = json!({"packages": 1, "dies_per_package": 2, "cores_per_die": 4});
    p["tensors"][0]["offset"] = json!(u64::MAX);
    assert!(err_of(p).contains("tensors[0]"));
}

/// A program that names no architecture is lowered for Cayman (docs/programs.md).
#[test]
fn arch_default_is_cayman() {
    let p: Program = serde_json::from_value(json!({"programs": [[]]})).unwrap();
    assert_eq!(p.arch, Arch::Cayman);
}

/// docs/decisions.md (lower): event waits (EVT_SET, EVT_SET_THEN_CLEAR) and the
/// register-compare waits (_REG) are treated as satisfied by the host
/// lowering — a SENDRECV that waits on an event nobody sets, or a register
/// compare, still runs — while an immediate wait that never holds deadlocks.
#[test]
fn event_and_reg_waits_are_treated_as_satisfied_by_the_lowering() {
    for mode in ["EVT_SET", "EVT_SET_THEN_CLEAR", "SEM_EQ_REG", "SEM_GE_REG"] {
        let mut s = sr(1, 1, 1, 0, 64);
        s["fields"]["wait_mode"] = json!(mode);
        s["fields"]["wait_idx"] = json!(9);
        s["fields"]["semaphore_value"] = json!(1);
        let rep = run_json(pair_program(vec![s], vec![sr(0, 0, 1, 0, 64)])).unwrap();
        assert!(rep.error.is_none(), "{mode}: {:?}", rep.error);
        assert_eq!(rep.pairs, 1, "{mode}: the pair ran");
    }
    let mut s = sr(1, 1, 1, 0, 64);
    s["fields"]["wait_mode"] = json!("SEM_EQ_IMM");
    s["fields"]["wait_idx"] = json!(9);
    s["fields"]["semaphore_value"] = json!(1);
    let e = err_of(pair_program(vec![s], vec![sr(0, 0, 1, 0, 64)]));
    assert!(e.starts_with("deadlock"), "{e}");
}

/// Seed 000 §5c / 001 §4.1: SEND = TX leg, RECV = RX leg, asserted on the
/// queues each side rings in the system model: the SEND rank's Q7 rings only
/// M2S doorbells (of its own engines), the RECV rank's Q7 only S2M doorbells
/// (routed to the sender's engines), and the RECV side rings first.
#[test]
fn send_rings_m2s_and_recv_rings_s2m_on_the_system_model_seed_000_5c() {
    use crate::system::{Mode, TraceEvent};
    for (send_rank, mode) in [(0usize, Mode::Fast), (1, Mode::Fast), (0, Mode::Cycle)] {
        let recv_rank = 1 - send_rank;
        let (mut p0, mut p1) = (vec![sr(1, 1, 1, 0, 4096)], vec![sr(0, 0, 1, 0, 4096)]);
        if send_rank == 1 {
            std::mem::swap(&mut p0, &mut p1);
            p0[0]["fields"]["peer_id"] = json!(1);
            p1[0]["fields"]["peer_id"] = json!(0);
        }
        let mut prog = pair_program(p0, p1);
        prog["tensors"] = json!([
            {"rank": 0, "id": 1, "partitions": [0, 32], "size": 4096, "dtype": "fp32"},
            {"rank": 1, "id": 1, "partitions": [0, 32], "size": 4096, "dtype": "fp32"}
        ]);
        prog["init"] = json!([
            {"rank": send_rank, "tensor": 1, "data": {"iota": {"start": 1.5, "step": 0.25}}},
            {"rank": recv_rank, "tensor": 1, "data": {"fill": 85}}
        ]);
        prog["expect"] = json!({"data": [{"rank": recv_rank, "tensor": 1,
            "data": {"copy_of": {"rank": send_rank, "tensor": 1}}}]});
        let p: Program = serde_json::from_value(prog).unwrap();
        let l = load(p).unwrap();
        let mut t = system_target(&l, mode).unwrap();
        t.sys.st.trace_on = true;
        let rep = run(&l, &mut t).unwrap();
        assert!(rep.passed(), "{:?}", rep.checks);
        let cores = [0u16, 4]; // ranks [0, 4] in pair_program
        let (tx, rx) = (cores[send_rank], cores[recv_rank]);
        let bells: Vec<(u16, u16, u8)> = t
            .sys
            .st
            .trace
            .iter()
            .filter_map(|e| match e {
                TraceEvent::Doorbell { by, core, side, .. } => Some((*by, *core, *side)),
                _ => None,
            })
            .collect();
        assert!(bells.iter().any(|b| b.2 == 0) && bells.iter().any(|b| b.2 == 1));
        for &(by, core, side) in &bells {
            assert_eq!(core, tx, "every queue rung is on the SEND core's engines");
            assert_eq!(
                by,
                if side == 0 { tx } else { rx },
                "M2S by SEND, S2M by RECV: {bells:?}"
            );
        }
        let first_m2s = bells.iter().position(|b| b.2 == 0).unwrap();
        let last_s2m = bells.iter().rposition(|b| b.2 == 1).unwrap();
        assert!(
            last_s2m < first_m2s,
            "RECV arms before SEND fires: {bells:?}"
        );
    }
}

#[test]
fn seed000_s4b_lowering_resolves_every_0xdb_and_sendrecv_peer_with_the_helpers() {
    // examples/all_gather_sendrecv.json: 4 ranks on cores 0..3, a ring
    // 0 → 1 → 2 → 3 → 0 built from 0xDB and SENDRECV. node = core >> 1:
    // cores 0/1 are node 0, cores 2/3 node 1, so 0 → 1 and 2 → 3 are
    // direction 0 (LOCAL, pod node 8 / 9) and 1 → 2, 3 → 0 direction 1 (^1:
    // NEXT, pod node 9 / 8); none is a d2d (^2) peer.
    use crate::system::Neigh;
    let l = example("all_gather_sendrecv.json");
    let rep = run(&l, &mut fast_target(&l)).unwrap();
    assert!(rep.passed(), "{:?}", rep.checks);
    let pairs: Vec<_> = rep.routes.iter().filter(|r| r.via == "SENDRECV").collect();
    assert_eq!(pairs.len() as u64, rep.pairs);
    assert!(!pairs.is_empty());
    for r in &pairs {
        let want = match (r.core, r.peer_core) {
            (0, 1) => (0, Neigh::Local, 8),
            (1, 2) => (1, Neigh::Next, 9),
            (2, 3) => (0, Neigh::Local, 9),
            (3, 0) => (1, Neigh::Next, 8),
            other => panic!("unexpected ring pair {other:?}"),
        };
        assert_eq!(
            (r.dir, r.neigh, r.pod_node),
            (Some(want.0), Some(want.1), Some(want.2))
        );
        assert!(!r.d2d);
    }
    // Every 0xDB result is resolved too, and names a ring member's core.
    let db: Vec<_> = rep.routes.iter().filter(|r| r.via == "0xDB").collect();
    assert!(!db.is_empty());
    for r in db {
        assert_eq!(r.peer_core, r.peer_rank as usize, "rank r runs on core r");
        assert_eq!(r.pod_node, Some((r.peer_core as u32 >> 1) + 8));
    }
}

// ---- issue 12: the peer-node helpers decide the placement (`peers`) ----

fn load_json(v: Value) -> Result<Loaded, ProgramError> {
    load(serde_json::from_value(v).expect("test program parses"))
}

#[test]
fn seed000_s4b_peers_place_the_receiver_on_the_core_the_helper_names() {
    // No `ranks`: rank 1 is rank 0's direction-3 peer. Independent arithmetic:
    // core 0 -> node 0 >> 1 = 0; (0 ^ 3) + 8 = 11; node 11 - 8 = 3 -> cores 6, 7;
    // position 0 of the pair -> core 6 (not the default core 1).
    let mut p = pair_program(vec![sr(1, 1, 1, 0, 4096)], vec![sr(0, 0, 1, 0, 4096)]);
    p.as_object_mut().unwrap().remove("ranks");
    p["peers"] = json!([{"rank": 1, "of": 0, "dir": 3}]);
    p["expect"] = json!({
        "data": [{"rank": 1, "tensor": 1, "data": {"copy_of": {"rank": 0, "tensor": 1}}}]
    });
    let l = load_json(p).unwrap();
    assert_eq!(l.cores, vec![0, 6]);
    let mut t = fast_target(&l);
    let rep = run(&l, &mut t).unwrap();
    assert!(rep.passed(), "{:?}", rep.checks);
    let r = rep
        .routes
        .iter()
        .find(|r| r.via == "SENDRECV")
        .expect("one SENDRECV route");
    assert_eq!((r.core, r.peer_core), (0, 6));
    assert_eq!((r.dir, r.pod_node, r.d2d), (Some(3), Some(11), false));
}

#[test]
fn seed001_s8_explicit_placement_must_agree_with_the_helper() {
    // §8: TX core 3, its d2d peer core 7 (node 1 ^ 2 = 3 -> cores 6, 7, position 1).
    let mut p = pair_program(vec![sr(1, 1, 1, 0, 4096)], vec![sr(0, 0, 1, 0, 4096)]);
    p["ranks"] = json!([3, 7]);
    p["peers"] = json!([{"rank": 1, "of": 0, "dir": 2}]);
    assert_eq!(load_json(p.clone()).unwrap().cores, vec![3, 7]);
    p["ranks"] = json!([3, 6]);
    match load_json(p) {
        Err(ProgramError::Placement {
            index: 0,
            rank: 1,
            placed: Some(6),
            of: 0,
            of_core: 3,
            dir: 2,
            helper: Some(7),
            rule,
        }) => assert!(rule.contains("disagree"), "{rule}"),
        other => panic!("expected a Placement error, got {other:?}"),
    }
}

#[test]
fn seed001_s8_seng_5_d2d_peer_is_seng_7_in_the_placement() {
    // sengine_get_d2d_peer_nums(5) = 5 ^ 2 = 7: SENG 5 = cores 10, 11 (package 1),
    // SENG 7 = cores 14, 15. Rank 0 on core 10 -> its dir-2 peer is core 14.
    let mut p = pair_program(vec![sr(1, 1, 1, 0, 4096)], vec![sr(0, 0, 1, 0, 4096)]);
    p["topology"] = json!({"packages": 2, "dies_per_package": 2, "cores_per_die": 4});
    p["ranks"] = json!([10, 14]);
    p["peers"] = json!([{"rank": 1, "of": 0, "dir": 2}]);
    let l = load_json(p.clone()).unwrap();
    let mut t = fast_target(&l);
    let rep = run(&l, &mut t).unwrap();
    let r = rep.routes.iter().find(|r| r.via == "SENDRECV").unwrap();
    assert_eq!((r.core, r.peer_core, r.d2d), (10, 14, true));
    assert_eq!(r.pod_node, Some(((10 >> 1) ^ 2) + 8));
    p["ranks"] = json!([10, 15]);
    assert!(matches!(
        load_json(p),
        Err(ProgramError::Placement {
            helper: Some(14),
            placed: Some(15),
            ..
        })
    ));
}

#[test]
fn seed000_s4b_a_helper_placed_ring_resolves_0xdb_next_and_prev_to_their_directions() {
    // Ring 0 -> 1 -> 2 -> 3 laid on the pod by the helpers: rank 1 = dir 1 of
    // rank 0 (node 0 -> 1: core 2), rank 2 = dir 2 of rank 1 (node 1 -> 3:
    // core 6), rank 3 = dir 1 of rank 2 (node 3 -> 2: core 4).
    let progs: Vec<Value> = (0..4)
        .map(|_| json!([cur(0, 1, 1, 12, 0), cur(0, 0, 1, 11, 0)]))
        .collect();
    let mut p = ranks4(json!(progs));
    p["peers"] = json!([
        {"rank": 1, "of": 0, "dir": 1},
        {"rank": 2, "of": 1, "dir": 2},
        {"rank": 3, "of": 2, "dir": 1}
    ]);
    let l = load_json(p).unwrap();
    assert_eq!(l.cores, vec![0, 2, 6, 4]);
    let mut t = fast_target(&l);
    let rep = run(&l, &mut t).unwrap();
    // Channel 1 (forwards): rank r's next is r + 1, reached in the direction the
    // placement used; rank 3's next is rank 0 (node 2 -> 0: direction 2).
    let next_dir = [1u8, 2, 1, 2];
    for (r, want) in next_dir.iter().enumerate() {
        let nx = (r as u32 + 1) % 4;
        let route = rep
            .routes
            .iter()
            .find(|x| x.via == "0xDB" && x.rank == r as u32 && x.peer_rank == nx)
            .expect("a 0xDB route to the next rank");
        assert_eq!(route.dir, Some(*want), "rank {r} -> {nx}");
        assert_eq!(route.peer_core, l.cores[nx as usize]);
    }
}

#[test]
fn peers_outside_the_helpers_layout_are_refused() {
    let mut p = pair_program(vec![], vec![]);
    p.as_object_mut().unwrap().remove("ranks");
    p["topology"] = json!({"packages": 1, "dies_per_package": 2, "cores_per_die": 2});
    p["peers"] = json!([{"rank": 1, "of": 0, "dir": 1}]);
    match load_json(p.clone()) {
        Err(ProgramError::Placement {
            helper: None, rule, ..
        }) => {
            assert!(rule.contains("2 dies x 4 cores"), "{rule}")
        }
        other => panic!("expected a Placement error, got {other:?}"),
    }
    p["topology"] = json!({"packages": 1, "dies_per_package": 2, "cores_per_die": 4});
    p["peers"] = json!([{"rank": 1, "of": 0, "dir": 4}]);
    assert!(matches!(
        load_json(p),
        Err(ProgramError::Placement {
            dir: 4,
            helper: None,
            ..
        })
    ));
}
