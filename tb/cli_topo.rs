//! `sb2sb topo peer`: the host's peer-node helpers on the command line
//! (seed 000 §4b, seed 001 §7.2, §8).

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
fn seed_numbers_of_the_peer_helpers_core_5_dir_2() {
    let v = json(&["topo", "peer", "--core", "5", "--dir", "2", "--json"]);
    // cayman_get_p2p_pod_peer_node: node = 5 >> 1 = 2; 2 ^ 2 = 0; + 8 = 8.
    assert_eq!(v["cayman_get_p2p_pod_peer_node"]["node"], 2);
    assert_eq!(v["cayman_get_p2p_pod_peer_node"]["peer_node"], 8);
    assert_eq!(v["raw"]["cayman_get_p2p_pod_peer_node"], 8);
    // sengine_get_d2d_peer_nums on the seed's number: 5 ^ 2 = 7.
    assert_eq!(v["raw"]["sengine_get_d2d_peer_nums"], 7);
    // Model binding: core 5 (die 1, core 1) is SENG 2; direction 2 and the
    // d2d peer both name core 1, the same position on die 0, a neighbor fold.
    assert_eq!(v["sengine_get_d2d_peer_nums"]["seng"], 2);
    assert_eq!(v["sengine_get_d2d_peer_nums"]["peer_seng"], 0);
    assert_eq!(v["sengine_get_d2d_peer_nums"]["core"], 1);
    assert_eq!(v["cayman_get_p2p_pod_peer_node"]["core"], 1);
    assert_eq!(v["cayman_get_p2p_pod_peer_node"]["loc"]["die"], 0);
    assert_eq!(v["neigh"], "PREV");
    assert_eq!(v["fold"], "Neighbor");
}

#[test]
fn every_direction_code_of_core_3() {
    // node 1: dir 0 → 1, 1 → 0, 2 → 3, 3 → 2 (then + 8); cores keep bit 0.
    for (dir, node, core) in [(0, 9, 3), (1, 8, 1), (2, 11, 7), (3, 10, 5)] {
        let v = json(&[
            "topo",
            "peer",
            "--core",
            "3",
            "--dir",
            &dir.to_string(),
            "--json",
        ]);
        assert_eq!(
            v["cayman_get_p2p_pod_peer_node"]["peer_node"], node,
            "dir {dir}"
        );
        assert_eq!(v["cayman_get_p2p_pod_peer_node"]["core"], core, "dir {dir}");
    }
    let t = String::from_utf8_lossy(&sb2sb(&["topo", "peer", "--core", "3", "--dir", "2"]).stdout)
        .to_string();
    assert!(t.contains("node 1 ^ 2 + 8 = 11"), "{t}");
}

#[test]
fn bad_peer_arguments_are_one_line_errors() {
    for args in [
        &["topo", "peer", "--core", "5", "--dir", "4"][..],
        &["topo", "peer", "--core", "8", "--dir", "0"][..],
    ] {
        let o = sb2sb(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
    }
}
