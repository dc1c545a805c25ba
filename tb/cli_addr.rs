//! `sb2sb addr` end to end: the seed vectors through the binary, `--json`
//! parses, bad input is one line on stderr with a non-zero exit.

use std::process::{Command, Output};

fn sb2sb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sb2sb"))
        .args(args)
        .output()
        .expect("run sb2sb")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(&sb2sb(args))).expect("--json output parses as JSON")
}

fn one_line_error(args: &[&str], needle: &str) {
    let o = sb2sb(args);
    assert!(!o.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: `{err}` should mention {needle}"
    );
    assert!(o.stdout.is_empty());
}

/// Seed 001 §8 worked example through the CLI (issue 2 "done when").
#[test]
fn seed001_s8_fold_neighbor_prints_0x58800000100000() {
    let out = stdout(&sb2sb(&[
        "addr",
        "fold",
        "--local",
        "0x100000",
        "--die",
        "1",
        "--neighbor",
    ]));
    assert_eq!(out.lines().next(), Some("0x58800000100000"));
    assert!(!out.contains("0x588000100000\n"));
    let j = json(&[
        "addr",
        "fold",
        "--local",
        "0x100000",
        "--die",
        "1",
        "--neighbor",
        "--json",
    ]);
    assert_eq!(j["addr"].as_u64(), Some(0x58800000100000));
    assert_eq!(j["addr_hex"], "0x58800000100000");
    assert_eq!(j["bits_set"], serde_json::json!([20, 47, 51, 52, 54]));
    assert_eq!(j["fields"]["exit_die"], 1);
    assert_eq!(j["fields"]["local"], 0x100000);
}

/// Seed 001 §8 cross-package example: the field-table value, not the printed one.
#[test]
fn seed001_s8_fold_chip_id_gives_the_field_table_value() {
    let j = json(&[
        "addr",
        "fold",
        "--local",
        "1048576",
        "--die",
        "1",
        "--chip-id",
        "0x12",
        "--json",
    ]);
    assert_eq!(j["addr"].as_u64(), Some(0x0052_8000_0010_0000));
    assert_ne!(j["addr"].as_u64(), Some(0x4012_8000_0010_0000));
    assert_eq!(j["fold"], "chip_id");
    assert_eq!(j["fields"]["cayman_id"], 0x12);
}

#[test]
fn exit_seng_sets_bit_50() {
    let j = json(&[
        "addr",
        "fold",
        "--local",
        "0",
        "--die",
        "0",
        "--neighbor",
        "--exit-seng",
        "1",
        "--json",
    ]);
    assert_eq!(
        j["addr"].as_u64(),
        Some((1 << 50) | (1 << 51) | (1 << 52) | (1 << 54))
    );
}

#[test]
fn decode_shows_both_views_routes_and_reserved_bits() {
    let j = json(&[
        "addr",
        "decode",
        "0x58800000100000",
        "--self-chip-id",
        "5",
        "--json",
    ]);
    assert_eq!(j["neighbor_view"]["route"], "other_die");
    assert_eq!(j["chip_id_view"]["route"], "other_chip");
    assert_eq!(j["chip_id_view"]["cayman_id"], 0x18);
    assert_eq!(j["neighbor_view"]["reserved_clear"], true);
    // The seed's printed cross-package value sets reserved bit 62.
    let j = json(&["addr", "decode", "0x4012800000100000", "--json"]);
    assert_eq!(j["reserved"]["hi_63_57"], 0x20);
    assert_eq!(j["chip_id_view"]["reserved_clear"], false);
    let t = stdout(&sb2sb(&["addr", "decode", "0x58800000100000"]));
    for needle in [
        "chip-id view",
        "neighbor view",
        "NEIGHBOR_ROUTE",
        "CAYMAN_ID",
        "route other_die",
        "[63:57]",
    ] {
        assert!(t.contains(needle), "table lacks {needle}:\n{t}");
    }
}

#[test]
fn decode_accepts_decimal_and_host_aperture() {
    let j = json(&["addr", "decode", &(1u64 << 46).to_string(), "--json"]);
    assert_eq!(j["chip_id_view"]["route"], "host");
    assert_eq!(j["addr"].as_u64(), Some(1 << 46));
}

#[test]
fn bad_input_is_one_line_on_stderr_and_nonzero_exit() {
    one_line_error(&["addr", "decode", "0xnothex"], "ADDR");
    one_line_error(&["addr", "decode", "1", "--self-die", "2"], "--self-die");
    one_line_error(
        &[
            "addr",
            "fold",
            "--local",
            "0x100000",
            "--die",
            "2",
            "--neighbor",
        ],
        "DIE",
    );
    one_line_error(
        &[
            "addr",
            "fold",
            "--local",
            "0x800000000000",
            "--die",
            "0",
            "--neighbor",
        ],
        "LOCAL",
    );
    one_line_error(
        &[
            "addr",
            "fold",
            "--local",
            "0",
            "--die",
            "0",
            "--chip-id",
            "64",
        ],
        "CAYMAN_ID",
    );
    one_line_error(
        &["addr", "fold", "--local", "0", "--die", "0"],
        "--neighbor",
    );
    one_line_error(
        &[
            "addr",
            "fold",
            "--local",
            "0",
            "--die",
            "0",
            "--chip-id",
            "1",
            "--neighbor",
        ],
        "exclude",
    );
    one_line_error(
        &[
            "addr",
            "fold",
            "--local",
            "0",
            "--die",
            "0",
            "--chip-id",
            "1",
            "--exit-seng",
            "1",
        ],
        "--exit-seng",
    );
    one_line_error(&["addr", "fold", "--die", "0", "--neighbor"], "--local");
}
