//! `--trace FILE` of `sb2sb run sendrecv`, `sb2sb run program` and `sb2sb
//! nccom`: the command runs inside [`sb2sb_model::trace::capture`], so every
//! system it builds records its timeline, and the recordings are written
//! one after the other as Chrome trace-event JSON (docs/timeline.md).

use std::path::Path;

use anyhow::Context;
use sb2sb_model::trace;
use serde_json::json;

/// Run `f`; with `path`, record the timelines of the systems it builds and
/// write them to `path` once it succeeded (a note on stderr: stdout may be
/// `--json`).
pub fn traced(path: Option<&Path>, f: impl FnOnce() -> anyhow::Result<i32>) -> anyhow::Result<i32> {
    let Some(path) = path else { return f() };
    let (r, runs) = trace::capture(f);
    let code = r?;
    anyhow::ensure!(
        !runs.is_empty(),
        "--trace: the run built no system model to trace (--mode flat has no timeline)"
    );
    write(path, &runs)?;
    Ok(code)
}

/// Write `runs` to `path`.
pub fn write(path: &Path, runs: &[trace::Recording]) -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let meta = json!({
        "command": args.join(" "),
        "version": env!("CARGO_PKG_VERSION"),
        "format": "Chrome trace-event JSON; open in ui.perfetto.dev, chrome://tracing or speedscope",
    });
    let v = trace::chrome(runs, meta);
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
    }
    let f = std::fs::File::create(path).with_context(|| format!("writing {}", path.display()))?;
    serde_json::to_writer(std::io::BufWriter::new(f), &v)
        .with_context(|| format!("writing {}", path.display()))?;
    let n = v["traceEvents"].as_array().map_or(0, Vec::len);
    eprintln!(
        "trace: {} ({n} events, {:.3} us modeled)",
        path.display(),
        v["otherData"]["end_us"].as_f64().unwrap_or(0.0)
    );
    Ok(())
}

/// Inside [`traced`]: name the n-th system's collective `labels[n]`.
pub fn label(labels: impl IntoIterator<Item = String>) {
    trace::label_systems(labels);
}
