//! The lockstep block registry (`sb2sb_model::blocks::BLOCKS`) as JSON lines:
//! name, RTL top, RTL files and parameter overrides of every block. Read by
//! `scripts/synth.py` (`make synth`, the slang pass of `make lint`), so the
//! synthesis and lint tops are the registered ones.

fn main() {
    for b in sb2sb_model::blocks::BLOCKS {
        let files: Vec<String> = b.rtl_files.iter().map(|f| format!("\"{f}\"")).collect();
        let params: Vec<String> = b
            .params
            .iter()
            .map(|(k, v)| format!("\"{k}\": {v}"))
            .collect();
        println!(
            "{{\"name\": \"{}\", \"top\": \"{}\", \"rtl_files\": [{}], \"params\": {{{}}}}}",
            b.name,
            b.top,
            files.join(", "),
            params.join(", ")
        );
    }
}
