//! Helpers shared by the lockstep integration tests.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// Verilator 5 models are evaluated on one thread at a time in this
/// project (PUBLIC-FACTS §6); tests that build a model take this lock.
pub static VERILATOR: Mutex<()> = Mutex::new(());

pub fn lock() -> std::sync::MutexGuard<'static, ()> {
    VERILATOR.lock().unwrap_or_else(|e| e.into_inner())
}

/// Run GTKWave's `vcd2fst` (the viewer's own VCD parser) on `vcd`; panics
/// with its output when it rejects the file.
pub fn vcd2fst_accepts(vcd: &Path) {
    let fst = vcd.with_extension("fst");
    let out = Command::new("vcd2fst")
        .arg(vcd)
        .arg(&fst)
        .output()
        .expect("vcd2fst (Debian package gtkwave) is required: run `make setup`");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "vcd2fst rejected {}: {text}",
        vcd.display()
    );
    assert!(
        !text.to_lowercase().contains("error"),
        "vcd2fst complained about {}: {text}",
        vcd.display()
    );
    assert!(
        std::fs::metadata(&fst)
            .map(|m| m.len() > 0)
            .unwrap_or(false),
        "vcd2fst wrote no FST for {}",
        vcd.display()
    );
}

/// Names of the variables directly in scope `scope` (a `.`-path such as
/// `TOP` or `TOP.golden`) of a VCD file.
pub fn vcd_vars(path: &Path, scope: &str) -> Vec<(String, u32)> {
    let f = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut p = vcd::Parser::new(f);
    let h = p.parse_header().expect("VCD header parses");
    let mut items: &[vcd::ScopeItem] = &h.items;
    let mut found: Vec<(String, u32)> = Vec::new();
    for (k, part) in scope.split('.').enumerate() {
        let sc = items.iter().find_map(|it| match it {
            vcd::ScopeItem::Scope(s) if s.identifier == part => Some(s),
            _ => None,
        });
        let sc =
            sc.unwrap_or_else(|| panic!("scope {part} (of {scope}) not in {}", path.display()));
        items = &sc.items;
        if k == scope.split('.').count() - 1 {
            for it in items {
                if let vcd::ScopeItem::Var(v) = it {
                    found.push((v.reference.clone(), v.size));
                }
            }
        }
    }
    found
}
