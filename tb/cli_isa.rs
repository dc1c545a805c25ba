//! `sb2sb isa` end to end: runs the built binary.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn sb2sb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(args)
        .output()
        .expect("run sb2sb")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let s = stdout(o);
    assert_eq!(s.trim_end().lines().count(), 1, "one JSON object: {s}");
    serde_json::from_str(&s).expect("valid JSON")
}

fn encode_hex(args: &[&str]) -> String {
    let o = sb2sb(args);
    assert!(
        o.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout(&o).lines().next().unwrap().to_string()
}

#[test]
fn encode_sendrecv_json_has_seed_field_names_as_numbers() {
    let v = json(&sb2sb(&[
        "isa",
        "encode",
        "sendrecv",
        "--peer_id",
        "3",
        "--is_send",
        "1",
        "--tensor_id",
        "7",
        "--offset_bytes",
        "0x40",
        "--size_bytes",
        "4096",
        "--json",
    ]));
    assert_eq!(v["kind"], "sendrecv");
    assert_eq!(v["peer_id"], 3);
    assert_eq!(v["is_send"], 1);
    assert_eq!(v["tensor_id"], 7);
    assert_eq!(v["offset_bytes"], 64);
    assert_eq!(v["size_bytes"], 4096);
    assert_eq!(v["header"]["opcode"], 0xCB);
    assert_eq!(v["enc_op_type"], "ENC_SEND");
    assert_eq!(v["enc_op_type_code"], 5);
    assert_eq!(v["is_pseudo_op"], true);
    assert_eq!(v["hex"].as_str().unwrap().len(), 128);
}

#[test]
fn decode_of_an_encoded_sendrecv_shows_every_field() {
    let hex = encode_hex(&[
        "isa",
        "encode",
        "sendrecv",
        "--peer_id",
        "3",
        "--is_send",
        "0",
        "--size_bytes",
        "256",
    ]);
    assert_eq!(hex.len(), 128);
    assert!(hex.starts_with("cb"));
    let o = sb2sb(&["isa", "decode", &hex]);
    assert!(o.status.success());
    let table = stdout(&o);
    for f in [
        "opcode",
        "inst_word_len",
        "debug_cmd",
        "debug_hint",
        "wait_mode",
        "wait_idx",
        "update_mode",
        "update_idx",
        "semaphore_value",
        "tensor_id",
        "peer_id",
        "is_send",
        "reserved0",
        "offset_bytes",
        "size_bytes",
    ] {
        assert!(table.contains(f), "missing {f}:\n{table}");
    }
    assert!(table.contains("ENC_RECV"));
    // the same word as JSON, split by spaces, through stdin, on another arch
    let spaced = format!("{} {}", &hex[..64], &hex[64..]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(["isa", "decode", "-", "--json", "--arch", "v5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(spaced.as_bytes())
        .unwrap();
    let v = json(&child.wait_with_output().unwrap());
    assert_eq!(
        (
            v["peer_id"].as_u64(),
            v["is_send"].as_u64(),
            v["size_bytes"].as_u64()
        ),
        (Some(3), Some(0), Some(256))
    );
    assert_eq!(v["arch"], "maverick");
    assert_eq!(v["hex"], hex.as_str());
}

#[test]
fn decode_with_a_nonzero_reserved_byte_fails_and_names_the_byte() {
    let hex = encode_hex(&["isa", "encode", "sendrecv", "--peer_id", "1"]);
    let mut b = hex.into_bytes();
    b[2 * 30 + 1] = b'1'; // byte 30 = 0x01, inside reserved0[23] @25
    let o = sb2sb(&["isa", "decode", std::str::from_utf8(&b).unwrap()]);
    assert!(!o.status.success());
    assert!(o.stdout.is_empty());
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("reserved0") && err.contains("byte 30"),
        "{err}"
    );
}

#[test]
fn every_kind_encodes_and_decodes_through_the_cli() {
    for args in [
        &[
            "cur-rank",
            "--group_id",
            "2",
            "--iteration_id",
            "5",
            "--dst_reg",
            "9",
        ][..],
        &["gid-load", "--regnum", "130"][..],
        &["gid-load", "--var_id", "0x1234", "--offset", "8"][..],
        &[
            "rdma-gen",
            "--local_sem",
            "12",
            "--remote_sem",
            "20",
            "--remote_routing_id",
            "0x12",
            "--dst_addr",
            "0x100000",
        ][..],
        &[
            "rdma-start",
            "--role",
            "TX",
            "--go_sem",
            "3",
            "--num_descriptors=128",
        ][..],
    ] {
        let mut enc = vec!["isa", "encode"];
        enc.extend_from_slice(args);
        enc.push("--json");
        let v = json(&sb2sb(&enc));
        let hex = v["hex"].as_str().unwrap().to_string();
        let d = json(&sb2sb(&["isa", "decode", &hex, "--json"]));
        assert_eq!(d, v, "{args:?}");
    }
}

#[test]
fn bad_input_gives_one_line_and_nonzero_exit() {
    for args in [
        &["isa", "decode", "abc"][..],
        &["isa", "decode", &"zz".repeat(64)][..],
        &["isa", "encode", "gid-load", "--regnum", "64"][..],
        &["isa", "encode", "sendrecv", "--peer", "1"][..],
        &["isa", "encode", "sendrecv", "--peer_id"][..],
        &["isa", "encode", "nope"][..],
        &["isa", "decode", &"00".repeat(64)][..],
    ] {
        let o = sb2sb(args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("sb2sb: error:"), "{err}");
    }
    let o = sb2sb(&["isa", "encode", "gid-load", "--regnum", "64"]);
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("dst.reg_padded.regnum") && err.contains("byte 23") && err.contains("cayman"),
        "{err}"
    );
}
