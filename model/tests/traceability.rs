//! docs/traceability.md must name tests that exist: every `name` in its test
//! column has to appear as an identifier in the workspace's Rust sources.

use std::path::{Path, PathBuf};

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() && !name.starts_with('.') && name != "target" {
            rust_sources(&p, out);
        } else if name.ends_with(".rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_test_named_in_the_traceability_table_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let table = std::fs::read_to_string(root.join("docs/traceability.md")).unwrap();
    let mut files = Vec::new();
    for d in ["model", "cosim", "tb", "benches"] {
        rust_sources(&root.join(d), &mut files);
    }
    let text: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .collect();
    let mut missing = Vec::new();
    let mut checked = 0;
    for line in table.lines().filter(|l| l.starts_with('|')) {
        let Some(test_col) = line.trim_end_matches('|').rsplit('|').next() else {
            continue;
        };
        for name in test_col.split('`').skip(1).step_by(2) {
            // Paths like `mod::case_3_name` name their last segment; keep identifiers only.
            let leaf = name.rsplit("::").next().unwrap_or(name).trim();
            if leaf.is_empty() || !leaf.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let ident = leaf
                .split_once("case_")
                .map(|(_, r)| r.trim_start_matches(|c: char| c.is_ascii_digit() || c == '_'))
                .unwrap_or(leaf);
            checked += 1;
            if !text.contains(ident) {
                missing.push(name.to_string());
            }
        }
    }
    assert!(
        checked > 50,
        "expected the table to name many tests, found {checked}"
    );
    assert!(
        missing.is_empty(),
        "docs/traceability.md names tests that do not exist: {missing:?}"
    );
}
