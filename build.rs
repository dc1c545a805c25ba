//! Verilates every block registered in `sb2sb_model::blocks::BLOCKS`,
//! generates the C++ shim (one `Dut` subclass per block, port code derived
//! from the Rust port lists) and compiles it with the `cxx` bridge.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use sb2sb_model::ports::{BlockDesc, Signal};

/// Port lists of the assertion checker harness (`tb/assert/assert_harness.sv`),
/// shared with the firing tests.
#[allow(dead_code)]
mod assert_ports {
    include!("cosim/src/assert_ports.rs");
}

/// C++ of assertion builds: the checkers' DPI call records the first failure
/// of the current step in the model being stepped (one model per thread).
const ASSERT_SINK: &str = r#"
#include <cstdio>
#include "svdpi.h"
static thread_local std::string* sb2sb_assert_sink = nullptr;
// Called by SB2SB_ASSERT (rtl/assert/sb2sb_assert.svh) when a check fails.
extern "C" void sb2sb_assert_fail(const char* scope, const char* name) {
  std::string msg = std::string(name) + " in " + scope;
  if (sb2sb_assert_sink) {
    if (sb2sb_assert_sink->empty()) *sb2sb_assert_sink = msg;
  } else {
    fprintf(stderr, "assertion %s failed outside a lockstep step\n", msg.c_str());
  }
}
"#;

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(1);
}

fn verilator_root() -> PathBuf {
    if let Ok(r) = std::env::var("VERILATOR_ROOT") {
        if !r.is_empty() {
            return PathBuf::from(r);
        }
    }
    let out = Command::new("verilator")
        .arg("--getenv")
        .arg("VERILATOR_ROOT")
        .output();
    match out {
        Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
        _ => fail(
            "Verilator not found (need `verilator` on PATH or VERILATOR_ROOT): run `make setup` \
             (installs Debian's verilator package)",
        ),
    }
}

/// Verilator re-runs the whole "input combinational" (ico) region at the
/// start of every `eval()`, whether or not an input changed. The shim changes
/// inputs only while `clk_i` is low and then raises `clk_i` alone, so the ico
/// pass of the rising-edge `eval()` recomputes exactly what the previous
/// `eval()` left (same inputs, same state) — about a third of the Verilated
/// work per cycle. This patches the ico trigger of the generated model to
/// `first iteration && !clk_i`. The lockstep against the golden model checks
/// that nothing depended on the skipped pass; `SB2SB_NO_ICO_SKIP=1` builds the
/// unpatched model. A Verilator whose output lacks the pattern is left as is.
///
/// Two generations of the trigger are known: Verilator 5.006 (Debian 12)
/// writes `__VicoTriggered.at(0U) = (0U == __VicoIterCount)`, 5.048 (the PyPI
/// wheel) sets bit 0 of a trigger word from `__VicoFirstIteration`. Whether
/// the patch pays on each is measured in docs/signoff.md (§ two Verilators);
/// `ico_patch_default` keeps it only where it does.
fn skip_ico_on_edge(mdir: &Path, block: &str, enabled: bool) {
    const PATTERNS: [(&str, &str); 2] = [
        (
            "vlSelf->__VicoTriggered.at(0U) = (0U == vlSelf->__VicoIterCount);",
            "vlSelf->__VicoTriggered.at(0U) = ((0U == vlSelf->__VicoIterCount) && !vlSelf->clk_i);",
        ),
        (
            "| (IData)((IData)(vlSelfRef.__VicoFirstIteration)));",
            "| (IData)((IData)(vlSelfRef.__VicoFirstIteration) & (IData)(!vlSelfRef.clk_i)));",
        ),
    ];
    if !enabled {
        return;
    }
    let mut hits = 0;
    for e in std::fs::read_dir(mdir).unwrap().flatten() {
        let p = e.path();
        if p.extension().and_then(|x| x.to_str()) != Some("cpp") {
            continue;
        }
        let Ok(src) = std::fs::read_to_string(&p) else {
            continue;
        };
        for (orig, patched) in PATTERNS {
            if src.contains(patched) {
                hits += 1;
            } else if src.contains(orig) {
                std::fs::write(&p, src.replace(orig, patched)).unwrap();
                hits += 1;
            }
        }
    }
    if hits != 1 {
        println!(
            "cargo:warning=block {block}: ico trigger pattern found {hits} times (expected 1); \
             the Verilated model runs unpatched (slower, same behaviour)"
        );
    }
}

/// `verilator --version` → (major, minor), e.g. (5, 6); the wheel prints no
/// number (`rev vUNKNOWN-…`), so its `verilated_config.h` is read as well.
fn verilator_version(bin: &str, vinc: &Path) -> (u32, u32) {
    let parse = |t: &str| -> Option<(u32, u32)> {
        let i = t.find(|c: char| c.is_ascii_digit())?;
        let mut it = t[i..].split(|c: char| !c.is_ascii_digit());
        let a = it.next()?.parse().ok()?;
        let b = it.next()?.parse().ok()?;
        Some((a, b))
    };
    if let Ok(o) = Command::new(bin).arg("--version").output() {
        let t = String::from_utf8_lossy(&o.stdout);
        if let Some(v) = t.strip_prefix("Verilator ").and_then(parse) {
            return v;
        }
    }
    // `#define VERILATOR_VERSION "5.006 2023-01-22"` (the wheel: "5.49").
    if let Ok(cfg) = std::fs::read_to_string(vinc.join("verilated_config.h")) {
        for l in cfg.lines() {
            if let Some(r) = l.trim().strip_prefix("#define VERILATOR_VERSION ") {
                if let Some(v) = parse(r) {
                    return v;
                }
            }
        }
    }
    (0, 0)
}

/// Whether the ico patch is applied by default on this Verilator (measured:
/// docs/signoff.md). `SB2SB_NO_ICO_SKIP=1` turns it off, `SB2SB_ICO_SKIP=1` on.
fn ico_patch_default(ver: (u32, u32)) -> bool {
    let _ = ver;
    true
}

fn env_flag(name: &str) -> bool {
    println!("cargo:rerun-if-env-changed={name}");
    std::env::var(name)
        .map(|v| !v.is_empty() && v != "0")
        .unwrap_or(false)
}

/// Read a `VAR += a b c` list (with `\` continuations) from a Verilator `_classes.mk`.
fn mk_list(mk: &str, var: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut cont = false;
    for line in mk.lines() {
        let t = line.trim();
        let body = if cont {
            Some(t)
        } else {
            t.strip_prefix(var)
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix("+=").or_else(|| r.strip_prefix('=')))
        };
        match body {
            Some(b) => {
                v.extend(
                    b.split_whitespace()
                        .filter(|s| *s != "\\")
                        .map(String::from),
                );
                cont = t.ends_with('\\');
            }
            None => cont = false,
        }
    }
    v
}

fn cxx_type_words32(s: &Signal) -> usize {
    s.width.div_ceil(32) as usize
}

/// The shim's `Dut_<block>` class: constructor, `step`, then coverage and trace plumbing.
fn gen_block(b: &BlockDesc, out: &mut String, asserts: bool, fst: bool) {
    let cls = format!("Dut_{}", b.name);
    let tcls = if fst {
        "VerilatedFstC"
    } else {
        "VerilatedVcdC"
    };
    let tname = if fst { "FST" } else { "VCD" };
    let v = format!("V{}", b.name);
    gen_block_ctor(b, out, &cls, tcls, &v);
    gen_block_step(b, out, asserts);
    writeln!(out, "  void write_coverage(rust::Str path) override {{\n#if VM_COVERAGE\n    ctx_->coveragep()->write(std::string(path).c_str());\n#else\n    (void)path;\n    throw std::runtime_error(\"not a coverage build (build with SB2SB_COVERAGE=1: make coverage)\");\n#endif\n  }}").unwrap();
    writeln!(out, "  rust::String take_assert_failure() override {{ rust::String r(fail_); fail_.clear(); return r; }}").unwrap();
    writeln!(out, "  void open_trace(rust::Str path) override {{\n    close_trace();\n    tfp_.reset(new {tcls});\n    m_->trace(tfp_.get(), 99);\n    tfp_->open(std::string(path).c_str());\n    if (!tfp_->isOpen()) {{ tfp_.reset(); throw std::runtime_error(\"cannot open {tname} \" + std::string(path)); }}\n  }}").unwrap();
    writeln!(out, "  void close_trace() override {{ if (tfp_) {{ tfp_->dump(t_); tfp_->close(); tfp_.reset(); }} }}").unwrap();
    writeln!(out, "}};\n").unwrap();
}

/// Class head, members, constructor and destructor of `Dut_<block>`.
fn gen_block_ctor(b: &BlockDesc, out: &mut String, cls: &str, tcls: &str, v: &str) {
    writeln!(out, "class {cls} final : public Dut {{").unwrap();
    writeln!(out, "  std::unique_ptr<VerilatedContext> ctx_;\n  std::unique_ptr<{v}> m_;\n  std::unique_ptr<{tcls}> tfp_;\n  uint64_t t_ = 0;\n  std::string fail_;").unwrap();
    writeln!(out, " public:").unwrap();
    writeln!(
        out,
        "  {cls}(uint32_t seed, uint32_t rr) : ctx_(new VerilatedContext) {{"
    )
    .unwrap();
    writeln!(out, "    ctx_->randReset(int(rr));\n    ctx_->randSeed(int(seed & 0x7fffffffu));\n    ctx_->traceEverOn(true);").unwrap();
    writeln!(
        out,
        "    m_.reset(new {v}(ctx_.get(), \"TOP\"));\n    backdoor_init(ctx_.get());\n    m_->clk_i = 0;"
    )
    .unwrap();
    if b.inputs.iter().any(|s| s.name == "rst_ni") {
        // Power-on: settle once with reset released so that the stimulus'
        // first `rst_ni = 0` is a real negative edge for the async reset.
        writeln!(out, "    m_->rst_ni = 1;\n    m_->eval();").unwrap();
    }
    writeln!(out, "  }}").unwrap();
    writeln!(out, "  ~{cls}() override {{ close_trace(); m_->final(); }}").unwrap();
}

/// `Dut_<block>::step`: inputs in, settle, outputs out, one clock edge.
fn gen_block_step(b: &BlockDesc, out: &mut String, asserts: bool) {
    writeln!(
        out,
        "  void step(rust::Slice<const uint64_t> in, rust::Slice<uint64_t> out) override {{"
    )
    .unwrap();
    // Raw pointers: `rust::Slice::operator[]` is an out-of-line call per word.
    writeln!(
        out,
        "    const uint64_t* const ip = in.data();\n    uint64_t* const op = out.data();"
    )
    .unwrap();
    gen_step_inputs(b, out);
    if asserts {
        // A checker that fails during this step reports into this model.
        writeln!(out, "    sb2sb_assert_sink = &fail_;").unwrap();
    }
    writeln!(out, "    m_->eval();").unwrap();
    gen_step_outputs(b, out);
    writeln!(out, "    if (tfp_) tfp_->dump(t_);\n    m_->clk_i = 1;\n    m_->eval();\n    if (tfp_) tfp_->dump(t_ + 5);\n    m_->clk_i = 0;\n    t_ += 10;").unwrap();
    if asserts {
        writeln!(out, "    sb2sb_assert_sink = nullptr;").unwrap();
    }
    writeln!(out, "  }}").unwrap();
}

/// Input words of `step` into the model's ports (wide ports as 32-bit words).
fn gen_step_inputs(b: &BlockDesc, out: &mut String) {
    let mut off = 0usize;
    for s in b.inputs {
        if s.width <= 64 {
            writeln!(out, "    m_->{} = ip[{off}];", s.name).unwrap();
        } else {
            for k in 0..cxx_type_words32(s) {
                writeln!(
                    out,
                    "    m_->{}[{k}] = uint32_t(ip[{}] >> {});",
                    s.name,
                    off + k / 2,
                    32 * (k % 2)
                )
                .unwrap();
            }
        }
        off += s.words();
    }
}

/// The model's output ports into the output words of `step`.
fn gen_step_outputs(b: &BlockDesc, out: &mut String) {
    let mut off = 0usize;
    for s in b.outputs {
        if s.width <= 64 {
            writeln!(out, "    op[{off}] = uint64_t(m_->{});", s.name).unwrap();
        } else {
            for w in 0..s.words() {
                let lo = 2 * w;
                let hi = 2 * w + 1;
                if hi < cxx_type_words32(s) {
                    writeln!(
                        out,
                        "    op[{}] = uint64_t(m_->{n}[{lo}]) | (uint64_t(m_->{n}[{hi}]) << 32);",
                        off + w,
                        n = s.name
                    )
                    .unwrap();
                } else {
                    writeln!(
                        out,
                        "    op[{}] = uint64_t(m_->{n}[{lo}]);",
                        off + w,
                        n = s.name
                    )
                    .unwrap();
                }
            }
        }
        off += s.words();
    }
}

/// What this build script invocation builds: paths, the Verilator, and the
/// build variant flags, read once from the environment.
struct Config {
    manifest: PathBuf,
    out_dir: PathBuf,
    vroot: PathBuf,
    vinc: PathBuf,
    verilator_bin: String,
    coverage: bool,
    asserts: bool,
    trace_fst: bool,
    ico: bool,
    assert_dir: PathBuf,
    /// Interface checkers of `rtl/assert/` (assertion builds only).
    assert_files: Vec<PathBuf>,
    /// Generated RTL (the SV package).
    gen_rtl: PathBuf,
}

fn main() {
    let cfg = Config::from_env();
    render_sv_package(&cfg);
    let blocks = select_blocks(&cfg);
    let mut block_cpp: Vec<(&BlockDesc, Vec<PathBuf>)> = Vec::new();
    let mut includes: Vec<PathBuf> = vec![cfg.vinc.clone(), cfg.vinc.join("vltstd")];
    let mut shim = shim_head(&cfg, &blocks);
    for b in &blocks {
        let mdir = cfg.out_dir.join(format!("v_{}", b.name));
        let files = verilate(&cfg, b, &mdir);
        block_cpp.push((*b, files));
        includes.push(mdir.clone());
        gen_block(b, &mut shim, cfg.asserts, cfg.trace_fst);
    }
    shim_tail(&mut shim, &blocks);
    let shim_path = cfg.out_dir.join("duts.cc");
    std::fs::write(&shim_path, shim).unwrap();

    // 1. Bridge + shim (small, always rebuilt).
    compile_bridge(&cfg, &shim_path, &includes);
    let mut libs = vec!["sb2sb_bridge".to_string()];
    // 2. One static library per Verilated block.
    libs.extend(compile_block_libs(&cfg, &block_cpp, &includes));
    // 3. The Verilator runtime.
    libs.extend(compile_runtime(&cfg, &includes));
    emit_link(&cfg, &libs);
}

impl Config {
    fn from_env() -> Config {
        let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
        let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
        println!("cargo:rerun-if-changed=rtl");
        println!("cargo:rerun-if-changed=cosim/cpp");
        println!("cargo:rerun-if-changed=cosim/src/ffi.rs");
        println!("cargo:rerun-if-changed=cosim/src/assert_ports.rs");
        println!("cargo:rerun-if-env-changed=VERILATOR_ROOT");
        println!("cargo:rerun-if-env-changed=SB2SB_NO_ICO_SKIP");
        println!("cargo:rerun-if-env-changed=PATH");

        let vroot = verilator_root();
        let vinc = vroot.join("include");
        if !vinc.join("verilated.cpp").exists() {
            fail(&format!(
                "Verilator include directory {} has no verilated.cpp: run `make setup`",
                vinc.display()
            ));
        }
        let verilator_bin = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
        println!("cargo:rerun-if-env-changed=VERILATOR");

        // Build variants (each in its own CARGO_TARGET_DIR, see the Makefile):
        // SB2SB_COVERAGE=1 adds `--coverage` (line + toggle, expression where the
        // Verilator has it); SB2SB_ASSERT=1 adds `--assert` and binds the
        // interface checkers of rtl/assert/ into every block that has a bind file.
        let coverage = env_flag("SB2SB_COVERAGE");
        let asserts = env_flag("SB2SB_ASSERT");
        // SB2SB_TRACE_FST=1 (`make waves-fst`, target/fst): the RTL trace is
        // written by Verilator's own FST writer (`--trace-fst`) instead of VCD.
        let trace_fst = env_flag("SB2SB_TRACE_FST");
        emit_variant_cfgs(coverage, asserts, trace_fst);
        let ver = verilator_version(&verilator_bin, &vinc);
        let ico = if env_flag("SB2SB_NO_ICO_SKIP") {
            false
        } else {
            env_flag("SB2SB_ICO_SKIP") || ico_patch_default(ver)
        };
        println!(
            "cargo:rustc-env=SB2SB_VERILATOR_VERSION={}.{:03}",
            ver.0, ver.1
        );
        println!("cargo:rustc-env=SB2SB_ICO_PATCH={}", u8::from(ico));
        let assert_dir = manifest.join("rtl").join("assert");
        let assert_files = if asserts {
            assert_checkers(&assert_dir)
        } else {
            Vec::new()
        };
        let gen_rtl = out_dir.join("rtl");
        Config {
            manifest,
            out_dir,
            vroot,
            vinc,
            verilator_bin,
            coverage,
            asserts,
            trace_fst,
            ico,
            assert_dir,
            assert_files,
            gen_rtl,
        }
    }
}

/// The `cfg`s the cosim crate compiles against, one per build variant.
fn emit_variant_cfgs(coverage: bool, asserts: bool, trace_fst: bool) {
    println!("cargo:rustc-check-cfg=cfg(sb2sb_trace_fst)");
    if trace_fst {
        println!("cargo:rustc-cfg=sb2sb_trace_fst");
    }
    println!("cargo:rustc-check-cfg=cfg(sb2sb_coverage)");
    println!("cargo:rustc-check-cfg=cfg(sb2sb_assert)");
    if coverage {
        println!("cargo:rustc-cfg=sb2sb_coverage");
    }
    if asserts {
        println!("cargo:rustc-cfg=sb2sb_assert");
    }
}

/// The interface checkers (`rtl/assert/*_chk.sv`), sorted.
fn assert_checkers(assert_dir: &Path) -> Vec<PathBuf> {
    println!("cargo:rerun-if-changed=tb/assert");
    let mut v: Vec<PathBuf> = std::fs::read_dir(assert_dir)
        .unwrap_or_else(|e| fail(&format!("{}: {e}", assert_dir.display())))
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with("_chk.sv"))
        })
        .collect();
    v.sort();
    v
}

/// The SV package is rendered fresh from the Rust constants.
fn render_sv_package(cfg: &Config) {
    std::fs::create_dir_all(&cfg.gen_rtl).unwrap();
    std::fs::write(
        cfg.gen_rtl.join("sb2sb_pkg.sv"),
        sb2sb_model::svpkg::render(),
    )
    .unwrap();
}

/// The blocks this build verilates.
fn select_blocks(cfg: &Config) -> Vec<&'static BlockDesc> {
    // SB2SB_BLOCKS=a,b verilates only those blocks (e.g. one block of a build
    // variant); the others then report "no Verilated model" at run time.
    println!("cargo:rerun-if-env-changed=SB2SB_BLOCKS");
    println!("cargo:rerun-if-env-changed=SB2SB_VL_O1");
    // `all` in the list stands for every block of the default selection
    // (`SB2SB_BLOCKS=all,leg_seed16` adds an opt-in block to it);
    // `lockstep` for the blocks `cosim --block all` runs (the default
    // selection without the RTL-only ones).
    let listed: Vec<String> = std::env::var("SB2SB_BLOCKS")
        .unwrap_or_default()
        .split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect();
    let lockstep_only = listed.iter().any(|n| n == "lockstep");
    let only: Option<Vec<String>> = (!listed.is_empty()
        && !listed.iter().any(|n| n == "all" || n == "lockstep"))
    .then(|| listed.clone());
    let mut blocks: Vec<&BlockDesc> = sb2sb_model::blocks::BLOCKS
        .iter()
        .filter(|b| !b.inputs.is_empty())
        .filter(|b| only.as_ref().is_none_or(|o| o.iter().any(|n| n == b.name)))
        .collect();
    // RTL-only blocks (no lockstep) join the default build only; opt-in ones
    // only when named.
    if !cfg.coverage && !cfg.asserts {
        blocks.extend(
            sb2sb_model::blocks::RTL_ONLY
                .iter()
                .filter(|_| !lockstep_only)
                .filter(|b| only.as_ref().is_none_or(|o| o.iter().any(|n| n == b.name))),
        );
        blocks.extend(
            sb2sb_model::blocks::RTL_OPT_IN
                .iter()
                .filter(|b| listed.iter().any(|n| n == b.name)),
        );
    }
    // Opt-in lockstep blocks only when named, in every build variant.
    blocks.extend(
        sb2sb_model::blocks::LOCKSTEP_OPT_IN
            .iter()
            .filter(|b| listed.iter().any(|n| n == b.name)),
    );
    // Assertion builds also verilate the checker harness of the firing tests.
    if cfg.asserts {
        blocks.push(&assert_ports::HARNESS);
    }
    blocks
}

/// The shim's includes (one Verilated header per block) up to its namespace.
fn shim_head(cfg: &Config, blocks: &[&BlockDesc]) -> String {
    let mut shim = String::new();
    shim.push_str("// Generated by build.rs — do not edit.\n#include \"sb2sb/cosim/cpp/dut.h\"\n#include <stdexcept>\n#include <string>\n#include \"verilated.h\"\n#include \"verilated_vcd_c.h\"\n");
    if cfg.trace_fst {
        shim.push_str("#include \"verilated_fst_c.h\"\n");
    }
    for b in blocks {
        writeln!(shim, "#include \"V{}.h\"", b.name).unwrap();
    }
    if cfg.asserts {
        shim.push_str(ASSERT_SINK);
    }
    shim.push_str("\nnamespace sb2sb {\n\n");
    shim
}

/// The shim's factory `new_dut` and `compiled_blocks`, closing its namespace.
fn shim_tail(shim: &mut String, blocks: &[&BlockDesc]) {
    shim.push_str("std::unique_ptr<Dut> new_dut(rust::Str name, uint32_t seed, uint32_t rand_reset) {\n  std::string n(name);\n");
    for b in blocks {
        writeln!(
            shim,
            "  if (n == \"{}\") return std::unique_ptr<Dut>(new Dut_{}(seed, rand_reset));",
            b.name, b.name
        )
        .unwrap();
    }
    shim.push_str("  throw std::runtime_error(\"no Verilated model for block '\" + n + \"' in this build\");\n}\n\n");
    let names: Vec<&str> = blocks.iter().map(|b| b.name).collect();
    writeln!(
        shim,
        "rust::String compiled_blocks() {{ return rust::String(\"{}\"); }}\n",
        names.join(",")
    )
    .unwrap();
    shim.push_str("}  // namespace sb2sb\n");
}

/// Verilates block `b` into `mdir` and returns the C++ files to compile.
fn verilate(cfg: &Config, b: &BlockDesc, mdir: &Path) -> Vec<PathBuf> {
    // Keep the directory: unchanged Verilator output keeps its compiled library.
    std::fs::create_dir_all(mdir).unwrap();
    let mut cmd = verilator_cmd(cfg, b, mdir);
    let o = cmd
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run verilator: {e}: run `make setup`")));
    if !o.status.success() {
        fail(&format!(
            "verilator failed on block {} ({}):\n{}",
            b.name,
            b.top,
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    skip_ico_on_edge(mdir, b.name, cfg.ico);
    let mk = std::fs::read_to_string(mdir.join(format!("V{}_classes.mk", b.name)))
        .unwrap_or_else(|e| fail(&format!("no _classes.mk for {}: {e}", b.name)));
    let mut files = Vec::new();
    for var in [
        "VM_CLASSES_FAST",
        "VM_CLASSES_SLOW",
        "VM_SUPPORT_FAST",
        "VM_SUPPORT_SLOW",
    ] {
        for c in mk_list(&mk, var) {
            files.push(mdir.join(format!("{c}.cpp")));
        }
    }
    files
}

/// The Verilator command line of block `b`: options, parameter overrides,
/// RTL sources, then (assertion builds) the checkers and the top's bind file.
fn verilator_cmd(cfg: &Config, b: &BlockDesc, mdir: &Path) -> Command {
    let mut cmd = Command::new(&cfg.verilator_bin);
    cmd.arg("--cc")
        .arg(if cfg.trace_fst {
            "--trace-fst"
        } else {
            "--trace"
        })
        .arg("-O3")
        .arg("--x-assign")
        .arg("unique")
        .arg("--x-initial")
        .arg("unique")
        .arg("-Wall")
        .arg("-Wno-fatal")
        .arg("--top-module")
        .arg(b.top)
        .arg("--prefix")
        .arg(format!("V{}", b.name))
        .arg("--Mdir")
        .arg(mdir)
        .arg(format!("-I{}", cfg.manifest.join("rtl").display()));
    if cfg.coverage {
        cmd.arg("--coverage");
    }
    if cfg.asserts {
        cmd.arg("--assert")
            .arg(format!("-I{}", cfg.assert_dir.display()));
    }
    if has_backdoor(b) {
        cmd.arg(cfg.manifest.join("cosim/cpp/backdoor.vlt"));
    }
    // Parameter overrides: one RTL top can serve several registered blocks.
    for (k, v) in b.params {
        cmd.arg(format!("-G{k}={v}"));
    }
    for f in b.rtl_files {
        if *f == "sb2sb_pkg.sv" {
            cmd.arg(cfg.gen_rtl.join(f));
        } else if let Some(outside) = f.strip_prefix("../") {
            // Harness tops outside rtl/ (tb/assert/).
            cmd.arg(cfg.manifest.join(outside));
        } else {
            cmd.arg(cfg.manifest.join("rtl").join(f));
        }
    }
    if cfg.asserts {
        // Checkers, then this top's bind file (`rtl/assert/<top>_bind.sv`).
        cmd.args(&cfg.assert_files);
        let bind = cfg.assert_dir.join(format!("{}_bind.sv", b.top));
        if bind.exists() {
            cmd.arg(bind);
        } else if b.name != assert_ports::HARNESS.name {
            println!(
                "cargo:warning=block {}: no rtl/assert/{}_bind.sv, so no interface \
                 assertions are bound to it",
                b.name, b.top
            );
        }
    }
    cmd
}

/// Whether block `b` is verilated with the testbench backdoor
/// (`cosim/cpp/backdoor.vlt`: its SRAM arrays public, read and written by
/// `cosim/cpp/backdoor.cc`): the RTL-only blocks, which run outside the
/// lockstep (`run sendrecv --mode rtl` loads and reads their SBUFs so). The
/// lockstep blocks keep their Verilator output as it is.
fn has_backdoor(b: &BlockDesc) -> bool {
    sb2sb_model::blocks::RTL_ONLY
        .iter()
        .chain(sb2sb_model::blocks::RTL_OPT_IN)
        .any(|r| r.name == b.name)
}

/// The `cxx` bridge, the backdoor and the generated shim (small, always rebuilt).
fn compile_bridge(cfg: &Config, shim_path: &Path, includes: &[PathBuf]) {
    let mut b = cxx_build::bridge("cosim/src/ffi.rs");
    if cfg.coverage {
        b.define("VM_COVERAGE", "1");
    }
    b.file(cfg.manifest.join("cosim/cpp/backdoor.cc"))
        .file(shim_path)
        .includes(includes)
        .std("c++17")
        .opt_level(2)
        .cargo_metadata(false)
        .warnings(false);
    b.compile("sb2sb_bridge");
}

/// One static library per Verilated block, rebuilt only when the Verilator
/// output changed (C++ at -O2 regardless of the Rust profile). Compiled
/// libraries are also kept in a cache shared by every profile of this target
/// directory (dev for `cargo test`, release for `make cosim`, the check
/// profile of clippy), keyed by the content of the Verilator output, the
/// Verilator installation and the coverage flag: the same RTL is compiled
/// once, not once per profile. Returns the libraries' link names.
fn compile_block_libs(
    cfg: &Config,
    block_cpp: &[(&BlockDesc, Vec<PathBuf>)],
    includes: &[PathBuf],
) -> Vec<String> {
    let out_dir = &cfg.out_dir;
    let cache = vblk_cache_dir(out_dir);
    let mut libs = Vec::new();
    for (blk, files) in block_cpp {
        let mdir = out_dir.join(format!("v_{}", blk.name));
        let stamp = out_dir.join(format!("libvblk_{}.stamp", blk.name));
        let lib = out_dir.join(format!("libvblk_{}.a", blk.name));
        // SB2SB_VL_O1=leg,...: those blocks' C++ at -O1 (the Makefile's
        // coverage build compiles the leg so: its ~125 instrumented files take
        // about an hour at -O2 on a loaded 2-core machine).
        let o1 = std::env::var("SB2SB_VL_O1")
            .map(|v| v.split(',').any(|b| b == blk.name))
            .unwrap_or(false);
        // A coverage build keeps its source paths in the key: every coverage
        // point names its file, and the report reads the sources from there.
        let roots: Vec<&Path> = if cfg.coverage {
            Vec::new()
        } else {
            vec![out_dir.as_path(), cfg.manifest.as_path()]
        };
        let h = if o1 {
            format!("{} O1", dir_hash(&mdir, &roots))
        } else {
            dir_hash(&mdir, &roots)
        };
        let fresh =
            lib.exists() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(h.as_str());
        if !fresh {
            let cached = cache
                .as_ref()
                .map(|c| c.join(format!("{}-{}.a", blk.name, block_cache_key(cfg, &h))));
            match cached.as_ref().filter(|c| c.exists()) {
                Some(c) => {
                    std::fs::copy(c, &lib)
                        .unwrap_or_else(|e| fail(&format!("cannot copy {}: {e}", c.display())));
                }
                None => {
                    let mut cb = cc_build(includes, cfg.coverage);
                    if o1 {
                        cb.opt_level(1);
                    }
                    cb.files(files).compile(&format!("vblk_{}", blk.name));
                    if let Some(c) = cached {
                        // Write then rename, so a concurrent build never sees half a file.
                        let tmp = c.with_extension(format!("tmp{}", std::process::id()));
                        if std::fs::copy(&lib, &tmp).is_ok() {
                            let _ = std::fs::rename(&tmp, &c);
                        }
                    }
                }
            }
            std::fs::write(&stamp, &h).unwrap();
        }
        libs.push(format!("vblk_{}", blk.name));
    }
    libs
}

/// The shared cache's key of a block library whose Verilator output hashes to `h`.
fn block_cache_key(cfg: &Config, h: &str) -> String {
    key_hash(&format!(
        "{h} {} coverage={} debug={}{}",
        cfg.vroot.display(),
        cfg.coverage,
        env_flag("SB2SB_VL_DEBUG"),
        if cfg.trace_fst { " fst" } else { "" }
    ))
}

/// Whether Verilator's `verilated_fst_c.cpp` #includes GTKWave's FST writer
/// (fstapi.c, lz4.c, fastlz.c) itself, as 5.006 and the 5.048 wheel do: then
/// compiling them again fails (fstapi.c wants the config.h only that file provides).
fn fst_writer_inlined(vinc: &Path) -> bool {
    std::fs::read_to_string(vinc.join("verilated_fst_c.cpp"))
        .is_ok_and(|t| t.contains("gtkwave/fstapi.c"))
}

/// The Verilator runtime, built once per Verilator installation and variant
/// (plus GTKWave's FST writer where the runtime does not include it).
/// Returns the libraries' link names.
fn compile_runtime(cfg: &Config, includes: &[PathBuf]) -> Vec<String> {
    let (coverage, asserts, trace_fst) = (cfg.coverage, cfg.asserts, cfg.trace_fst);
    let vinc = &cfg.vinc;
    let rt_stamp = cfg.out_dir.join("libsb2sb_vlrt.stamp");
    let rt_key = format!(
        "{} coverage={coverage} assert={asserts}{}",
        cfg.vroot.display(),
        if trace_fst { " fst" } else { "" }
    );
    let rt_fresh = cfg.out_dir.join("libsb2sb_vlrt.a").exists()
        && std::fs::read_to_string(&rt_stamp).ok().as_deref() == Some(rt_key.as_str());
    if !rt_fresh {
        let mut rt = cc_build(includes, coverage);
        for g in ["verilated", "verilated_vcd_c", "verilated_threads"] {
            rt.file(vinc.join(format!("{g}.cpp")));
        }
        if coverage {
            rt.file(vinc.join("verilated_cov.cpp"));
        }
        if asserts {
            rt.file(vinc.join("verilated_dpi.cpp"));
        }
        if trace_fst {
            rt.file(vinc.join("verilated_fst_c.cpp"));
        }
        rt.compile("sb2sb_vlrt");
        if trace_fst && !fst_writer_inlined(vinc) {
            compile_fst_writer(vinc, includes);
        }
        std::fs::write(&rt_stamp, &rt_key).unwrap();
    }
    let mut libs = vec!["sb2sb_vlrt".to_string()];
    if trace_fst && !fst_writer_inlined(vinc) {
        libs.push("sb2sb_fstw".into());
    }
    libs
}

/// GTKWave's FST writer that Verilator ships (C sources).
fn compile_fst_writer(vinc: &Path, includes: &[PathBuf]) {
    let gw = vinc.join("gtkwave");
    let mut c = cc::Build::new();
    c.include(&gw)
        .includes(includes)
        .opt_level(2)
        .cargo_metadata(false)
        .warnings(false)
        .flag_if_supported("-w");
    for f in ["fstapi.c", "lz4.c", "fastlz.c"] {
        if gw.join(f).exists() {
            c.file(gw.join(f));
        }
    }
    c.compile("sb2sb_fstw");
}

/// Link lines: the static libraries in order, then the C++ runtime and system libraries.
fn emit_link(cfg: &Config, libs: &[String]) {
    println!("cargo:rustc-link-search=native={}", cfg.out_dir.display());
    for l in libs {
        println!("cargo:rustc-link-lib=static={l}");
    }
    println!("cargo:rustc-link-lib=stdc++");
    if cfg.trace_fst {
        println!("cargo:rustc-link-lib=z");
    }
    println!("cargo:rustc-link-lib=pthread");
}

fn cc_build(includes: &[PathBuf], coverage: bool) -> cc::Build {
    let mut b = cc::Build::new();
    if coverage {
        b.define("VM_COVERAGE", "1");
    }
    b.cpp(true)
        .includes(includes)
        .std("c++17")
        .opt_level(2)
        // Debug info only on request (SB2SB_VL_DEBUG=1): it costs compile time on
        // every Verilated block and is rarely wanted in generated code.
        .debug(env_flag("SB2SB_VL_DEBUG"))
        .cargo_metadata(false)
        .define("VM_TRACE", "1")
        .define(
            if env_flag("SB2SB_TRACE_FST") {
                "VM_TRACE_FST"
            } else {
                "VM_TRACE_VCD"
            },
            "1",
        )
        .flag_if_supported("-fno-strict-aliasing")
        .warnings(false)
        .flag_if_supported("-w");
    b
}

/// `<target dir>/vblk-cache`, found from OUT_DIR (`<target>/[<triple>/]<profile>/build/<pkg>/out`);
/// `None` (no sharing) when the layout is not the expected one.
fn vblk_cache_dir(out_dir: &Path) -> Option<PathBuf> {
    let build = out_dir.ancestors().nth(2)?;
    if build.file_name()? != "build" {
        return None;
    }
    let dir = build.parent()?.parent()?.join("vblk-cache");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}

fn key_hash(s: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    format!("{:016x}", h.finish())
}

/// Content hash of a Verilator output directory (deterministic across runs),
/// with every occurrence of the directories in `roots` (the build's
/// OUT_DIR, then the checkout that holds it) removed first: Verilator writes its source files'
/// absolute paths into the C++ (the file of a fatal "did not converge"
/// message), so without this two checkouts of the same RTL would never
/// share a cached library.
fn dir_hash(dir: &Path, roots: &[&Path]) -> String {
    use std::hash::{Hash, Hasher};
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    names.sort();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for n in names {
        if matches!(n.extension().and_then(|e| e.to_str()), Some("cpp" | "h")) {
            n.file_name().hash(&mut h);
            let text = String::from_utf8_lossy(&std::fs::read(&n).unwrap_or_default()).into_owned();
            let text = roots
                .iter()
                .fold(text, |t, r| t.replace(&format!("{}/", r.display()), ""));
            text.hash(&mut h);
        }
    }
    format!("{:016x}", h.finish())
}
