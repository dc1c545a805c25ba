//! Derive fast mode's data-path timing from the cycle model
//! (`system::timing::characterise`): prints the fitted rows; `--write`
//! rewrites the committed table `model/src/system/timing/table.rs`.
//!
//!     cargo run --release -p sb2sb-model --example derive_timing -- --write
//!
//! (`make timing`). Run it after any change to the cycle model (UDMA
//! engine, core interconnect, SRAMs, link); the test
//! `system::timing::tests::derived_table_is_current` fails until then.

use sb2sb_model::system::timing;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let write = std::env::args().any(|a| a == "--write");
    let rows = timing::characterise()?;
    let text = timing::render(&rows);
    for r in &rows {
        println!(
            "{:>7} engines {:>2}: fixed {:>10.3} cyc, per descriptor {:>8.3} cyc, per byte {:>8.6} cyc",
            r.class.name(),
            r.engines,
            r.fixed_mcyc as f64 / 1e3,
            r.desc_mcyc as f64 / 1e3,
            r.byte_ucyc as f64 / 1e6
        );
    }
    if write {
        std::fs::write(timing::TABLE_PATH, text)?;
        println!("wrote {}", timing::TABLE_PATH);
    } else {
        let committed = std::fs::read_to_string(timing::TABLE_PATH).unwrap_or_default();
        println!(
            "{}: {}",
            timing::TABLE_PATH,
            if committed == text {
                "current"
            } else {
                "stale (re-run with --write)"
            }
        );
    }
    Ok(())
}
