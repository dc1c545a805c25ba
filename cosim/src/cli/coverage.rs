//! `sb2sb coverage DIR`: the per-block table of `make coverage`.
//!
//! Reads the merged Verilator coverage files `DIR/<block>.dat` (one per
//! registered block, merged over seeds by `verilator_coverage --write`),
//! applies the reviewed waiver file and prints line / toggle / expression
//! coverage per block plus every uncovered point as `file:line`. Coverage is
//! reported, never asserted: the exit code is 0 whatever the figures.
//!
//! Waiver file (`docs/coverage-waivers.txt`), one waiver per line:
//!
//! ```text
//! # kind    where                              reason
//! line      udma_s2m.sv:412                    default arm of a unique case: unreachable
//! toggle    udma_engine:m_axi_araddr[6*        ...
//! ```
//!
//! `line` waives the line/branch points (and expression points) of one source
//! line (file name without directories); `text` does the same for the one
//! line of FILE whose source text contains the quoted pattern, so that the
//! waiver survives edits that move lines (`text evt_sem.sv "default: ;" reason`;
//! a pattern found on no line or on several is an error naming the file, and
//! `"PATTERN"#N` names the N-th of several identical lines);
//! `toggle` waives toggle points of module MODULE whose signal name starts
//! with the given prefix (a trailing `*` is optional). Every waiver needs a
//! reason; a waiver that matches no point is reported as stale.
//!
//! `credit BLOCK:MODULE FROM[,FROM...] REASON` is not a waiver of code: a point
//! of MODULE (same parameters: Verilator's mangled module name) inside BLOCK
//! that BLOCK's own run left at 0 counts as covered when the *same* source
//! point (module, file, line, column, kind, comment; any instance) is covered
//! in the merged data of block FROM — the module is closed by its own block's
//! environment, and the integration block is judged on its glue (OpenTitan's
//! chip-level coverage likewise excludes IPs closed at block level). A point
//! covered nowhere stays uncovered. Reported as `credited`, apart from waived.
//! A module whose parameterized name Verilator hashed (`__piN`) is matched by
//! its instance path below FROM's top instead ([`super::cov_credit`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use super::cov_credit::{anchors_in, CreditSource};

#[derive(clap::Args, Debug)]
pub struct CoverageArgs {
    /// Directory holding one merged `<block>.dat` per block.
    pub dir: PathBuf,
    /// Reviewed waiver file.
    #[arg(long, default_value = "docs/coverage-waivers.txt")]
    pub waivers: PathBuf,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Uncovered points listed per block at most (0: all).
    #[arg(long, default_value_t = 0)]
    pub max_list: usize,
}

/// Coverage kinds reported per block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Verilator line coverage: every block, including each arm of an `if`/`case`.
    Line,
    Toggle,
    /// Expression coverage (Verilator 5.018 and later).
    Expr,
}

/// One coverage point of a `.dat` file.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    pub kind: Kind,
    pub file: String,
    pub line: u32,
    /// Column (Verilator's `n` key; 0 when absent).
    pub column: u32,
    /// Module (from the page name, `v_toggle/udma_regs` → `udma_regs`).
    pub module: String,
    /// Verilator's comment: `block`, `if`, `else`, a signal name for toggles.
    pub comment: String,
    pub hier: String,
    pub count: u64,
}

/// Parse Verilator's coverage data (`SystemC::Coverage-3`): one
/// `C '<\x01key\x02value>...' count` line per point.
pub fn parse_dat(text: &str) -> Result<Vec<Point>> {
    let mut v = Vec::new();
    for (n, l) in text.lines().enumerate() {
        let Some(rest) = l.strip_prefix("C '") else {
            continue;
        };
        let end = rest
            .rfind('\'')
            .with_context(|| format!("coverage line {}: no closing quote", n + 1))?;
        let count: u64 = rest[end + 1..]
            .trim()
            .parse()
            .with_context(|| format!("coverage line {}: bad count", n + 1))?;
        let mut kv: BTreeMap<&str, &str> = BTreeMap::new();
        for field in rest[..end].split('\x01').filter(|f| !f.is_empty()) {
            if let Some((k, val)) = field.split_once('\x02') {
                kv.insert(k, val);
            }
        }
        let page = kv.get("page").copied().unwrap_or("");
        let (ptype, module) = page.split_once('/').unwrap_or((page, ""));
        let kind = match ptype {
            "v_line" | "v_branch" => Kind::Line,
            "v_toggle" => Kind::Toggle,
            "v_expr" => Kind::Expr,
            _ => continue, // user coverage points etc.
        };
        v.push(Point {
            kind,
            file: kv.get("f").copied().unwrap_or("").to_string(),
            line: kv.get("l").and_then(|s| s.parse().ok()).unwrap_or(0),
            column: kv.get("n").and_then(|s| s.parse().ok()).unwrap_or(0),
            module: module.to_string(),
            comment: kv.get("o").copied().unwrap_or("").to_string(),
            hier: kv.get("h").copied().unwrap_or("").to_string(),
            count,
        });
    }
    Ok(v)
}

/// One reviewed waiver.
#[derive(Debug, Clone, Serialize)]
pub struct Waiver {
    pub kind: String,
    pub target: String,
    /// `text` waivers: the source text searched for, and the line it was found on.
    pub pattern: Option<String>,
    /// `text` waivers: which of several lines with the pattern (1-based, `"…"#N`);
    /// `None`: the pattern must be on exactly one line.
    pub occurrence: Option<usize>,
    pub resolved_line: Option<u32>,
    pub reason: String,
    /// Line of the waiver file.
    pub at: usize,
    /// `verilator=VERSION KIND ...`: a tool-bug waiver, applied only to data
    /// of a build whose Verilator version starts with VERSION (the wrong
    /// count is that tool's, not the design's).
    pub tool: Option<String>,
    /// `credit` entries: the blocks whose merged data closes the module.
    pub from: Vec<String>,
}

/// Errors in the waiver file name the line and the rule broken.
#[derive(Debug, thiserror::Error)]
pub enum WaiverError {
    #[error("{file}:{line}: waiver kind `{kind}`: must be `line`, `text`, `toggle` or `credit`")]
    Kind {
        file: String,
        line: usize,
        kind: String,
    },
    #[error("{file}:{line}: waiver needs KIND WHERE REASON (the reason is mandatory)")]
    NoReason { file: String, line: usize },
    #[error("{file}:{line}: `line` waiver `{target}`: expected FILE.sv:LINE")]
    LineTarget {
        file: String,
        line: usize,
        target: String,
    },
    #[error("{file}:{line}: `toggle` waiver `{target}`: expected MODULE:SIGNAL")]
    ToggleTarget {
        file: String,
        line: usize,
        target: String,
    },
    #[error("{file}:{line}: `credit` `{target}`: expected BLOCK:MODULE FROM[,FROM...] REASON (FROM: blocks whose data closes MODULE)")]
    CreditTarget {
        file: String,
        line: usize,
        target: String,
    },
    #[error("{file}:{line}: `text` waiver: expected FILE.sv \"PATTERN\" REASON (pattern in double quotes, then the reason)")]
    TextTarget { file: String, line: usize },
    #[error("{file}:{line}: `text` waiver \"{pattern}\": found on {found} lines of {src_file} (must be exactly one, or name the occurrence with \"…\"#N)")]
    TextNotUnique {
        file: String,
        line: usize,
        pattern: String,
        src_file: String,
        found: usize,
    },
}

pub fn parse_waivers(text: &str, file: &str) -> Result<Vec<Waiver>, WaiverError> {
    let mut v = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        v.push(parse_waiver(t, file, i + 1)?);
    }
    Ok(v)
}

/// One waiver line `t` (not blank, not a comment), line `line` of `file`.
fn parse_waiver(t: &str, file: &str, line: usize) -> Result<Waiver, WaiverError> {
    let (tool, t) = split_tool(t, file, line)?;
    let mut it = t.splitn(3, char::is_whitespace);
    let kind = it.next().unwrap_or("").to_string();
    let target = it.next().unwrap_or("").trim().to_string();
    let mut reason = it.next().unwrap_or("").trim().to_string();
    let file = file.to_string();
    let mut pattern = None;
    let mut occurrence = None;
    let mut from = Vec::new();
    if kind == "credit" {
        (from, reason) =
            parse_credit(&target, &reason).ok_or_else(|| WaiverError::CreditTarget {
                file: file.clone(),
                line,
                target: target.clone(),
            })?;
    }
    if kind == "text" {
        let (pat, occ, r) =
            parse_text(&target, &reason).ok_or_else(|| WaiverError::TextTarget {
                file: file.clone(),
                line,
            })?;
        (pattern, occurrence, reason) = (Some(pat), occ, r);
    }
    if reason.is_empty() {
        return Err(WaiverError::NoReason { file, line });
    }
    check_target(&kind, &target, &file, line)?;
    Ok(Waiver {
        kind,
        target,
        pattern,
        occurrence,
        resolved_line: None,
        reason,
        at: line,
        tool,
        from,
    })
}

/// The optional `verilator=VERSION` prefix of a waiver line: the version and
/// the rest of the line.
fn split_tool<'a>(
    t: &'a str,
    file: &str,
    line: usize,
) -> Result<(Option<String>, &'a str), WaiverError> {
    let Some(rest) = t.strip_prefix("verilator=") else {
        return Ok((None, t));
    };
    let (ver, r) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if ver.is_empty() {
        return Err(WaiverError::Kind {
            file: file.to_string(),
            line,
            kind: "verilator=".into(),
        });
    }
    Ok((Some(ver.to_string()), r.trim_start()))
}

/// `credit BLOCK:MODULE FROM[,FROM] REASON`: the blocks FROM and the reason;
/// `None` when BLOCK, MODULE or FROM is missing.
fn parse_credit(target: &str, rest: &str) -> Option<(Vec<String>, String)> {
    let ok = target
        .split_once(':')
        .is_some_and(|(b, m)| !b.is_empty() && !m.is_empty());
    let (f, r) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let from: Vec<String> = f
        .split(',')
        .filter(|x| !x.is_empty())
        .map(str::to_string)
        .collect();
    (ok && !from.is_empty()).then(|| (from, r.trim().to_string()))
}

/// `text FILE "PATTERN"[#N] REASON`: the pattern, the occurrence N and the
/// reason; `None` when the quotes, the file, the pattern or N (≥ 1) is
/// malformed.
fn parse_text(target: &str, rest: &str) -> Option<(String, Option<usize>, String)> {
    let (pat, mut r) = rest.strip_prefix('"')?.split_once('"')?;
    if pat.is_empty() || target.is_empty() {
        return None;
    }
    let mut occurrence = None;
    if let Some(n) = r.strip_prefix('#') {
        let digits: String = n.chars().take_while(|c| c.is_ascii_digit()).collect();
        occurrence = Some(digits.parse::<usize>().ok().filter(|k| *k >= 1)?);
        r = &n[digits.len()..];
    }
    Some((pat.to_string(), occurrence, r.trim().to_string()))
}

/// The waiver kind is known and its WHERE has that kind's form.
fn check_target(kind: &str, target: &str, file: &str, line: usize) -> Result<(), WaiverError> {
    let (file, target_s) = (file.to_string(), target.to_string());
    match kind {
        "line" => {
            let ok = target
                .rsplit_once(':')
                .is_some_and(|(f, n)| !f.is_empty() && n.parse::<u32>().is_ok());
            if !ok {
                return Err(WaiverError::LineTarget {
                    file,
                    line,
                    target: target_s,
                });
            }
        }
        "toggle" => {
            if !target.contains(':') {
                return Err(WaiverError::ToggleTarget {
                    file,
                    line,
                    target: target_s,
                });
            }
        }
        "text" | "credit" => {}
        _ => {
            return Err(WaiverError::Kind {
                file,
                line,
                kind: kind.to_string(),
            })
        }
    }
    Ok(())
}

fn base(f: &str) -> &str {
    Path::new(f)
        .file_name()
        .and_then(|s| s.to_str())
        .unwrap_or(f)
}

impl Waiver {
    pub fn matches(&self, p: &Point) -> bool {
        match self.kind.as_str() {
            "line" => {
                let Some((f, n)) = self.target.rsplit_once(':') else {
                    return false;
                };
                p.kind != Kind::Toggle && base(&p.file) == f && n.parse() == Ok(p.line)
            }
            "text" => {
                p.kind != Kind::Toggle
                    && base(&p.file) == self.target
                    && self.resolved_line == Some(p.line)
            }
            "toggle" => {
                let Some((m, sig)) = self.target.split_once(':') else {
                    return false;
                };
                let sig = sig.trim_end_matches('*');
                p.kind == Kind::Toggle && p.module == m && p.comment.starts_with(sig)
            }
            _ => false,
        }
    }

    /// `credit` entries: does this entry speak for point `p` of block `block`?
    pub fn credits(&self, block: &str, p: &Point) -> bool {
        let Some((b, m)) = self.target.split_once(':') else {
            return false;
        };
        self.kind == "credit"
            && b == block
            && (p.module == m
                || p.module
                    .strip_prefix(m)
                    .is_some_and(|r| r.starts_with("__")))
    }
}

/// A point without its instance: the same source point of the same module
/// with the same parameters (Verilator's mangled module name), in any block.
pub type PointKey = (Kind, String, String, u32, u32, String);

pub fn point_key(p: &Point) -> PointKey {
    (
        p.kind,
        p.module.clone(),
        base(&p.file).to_string(),
        p.line,
        p.column,
        p.comment.clone(),
    )
}

/// Find the line of each `text` waiver in the source file its points name
/// (`read` returns a file's text). A waiver whose file no point names stays
/// unresolved (reported as stale); a pattern on no line or several is an error.
pub fn resolve_text_waivers(
    waivers: &mut [Waiver],
    points: &[Point],
    wfile: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Result<(), WaiverError> {
    for w in waivers.iter_mut().filter(|w| w.kind == "text") {
        let Some(pat) = w.pattern.clone() else {
            continue;
        };
        let Some(src) = points
            .iter()
            .find(|p| base(&p.file) == w.target)
            .map(|p| p.file.clone())
        else {
            continue;
        };
        let Some(text) = read(&src) else { continue };
        let hits: Vec<u32> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains(pat.as_str()))
            .map(|(i, _)| i as u32 + 1)
            .collect();
        let pick = match w.occurrence {
            None if hits.len() == 1 => Some(hits[0]),
            Some(k) => hits.get(k - 1).copied(),
            None => None,
        };
        let Some(at) = pick else {
            return Err(WaiverError::TextNotUnique {
                file: wfile.to_string(),
                line: w.at,
                pattern: pat,
                src_file: src,
                found: hits.len(),
            });
        };
        w.resolved_line = Some(at);
    }
    Ok(())
}

/// Figures of one kind for one block.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Figure {
    pub total: u64,
    pub covered: u64,
    pub waived: u64,
    /// Points of a module closed by another block's data (`credit` entries).
    pub credited: u64,
    /// (covered + credited + waived) / total, in percent.
    pub percent: f64,
    /// covered / total, before waivers.
    pub raw_percent: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Uncovered {
    pub kind: Kind,
    /// `file:line` (file relative to the repository where possible).
    pub at: String,
    pub module: String,
    pub comment: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct BlockCoverage {
    pub block: String,
    pub line: Figure,
    pub toggle: Figure,
    /// `None` when the Verilator in use has no expression coverage.
    pub expr: Option<Figure>,
    pub uncovered: Vec<Uncovered>,
}

/// Coverage of one block from its points and the waivers; marks used waivers.
pub fn block_coverage(
    block: &str,
    points: &[Point],
    waivers: &[Waiver],
    used: &mut [bool],
    root: &str,
) -> BlockCoverage {
    block_coverage_credited(block, points, waivers, used, root, &BTreeMap::new())
}

/// As [`block_coverage`], with `credit` entries: `covered_in[FROM]` holds the
/// points covered in block FROM's merged data.
pub fn block_coverage_credited(
    block: &str,
    points: &[Point],
    waivers: &[Waiver],
    used: &mut [bool],
    root: &str,
    covered_in: &BTreeMap<String, CreditSource>,
) -> BlockCoverage {
    let anchors = anchors_in(points, covered_in);
    let mut figs: BTreeMap<Kind, Figure> = BTreeMap::new();
    let mut unc = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for p in points {
        let f = figs.entry(p.kind).or_default();
        f.total += 1;
        if p.count > 0 {
            f.covered += 1;
            continue;
        }
        let credit = waivers.iter().position(|w| {
            w.credits(block, p)
                && w.from
                    .iter()
                    .any(|b| covered_in.get(b).is_some_and(|s| s.covers(p, &anchors[b])))
        });
        if let Some(k) = credit {
            used[k] = true;
            f.credited += 1;
            continue;
        }
        if let Some(k) = waivers.iter().position(|w| w.matches(p)) {
            used[k] = true;
            f.waived += 1;
            continue;
        }
        let file = p.file.strip_prefix(root).unwrap_or(&p.file).to_string();
        let key = (p.kind, file.clone(), p.line, p.comment.clone());
        if seen.insert(key) {
            unc.push(Uncovered {
                kind: p.kind,
                at: format!("{file}:{}", p.line),
                module: p.module.clone(),
                comment: p.comment.clone(),
            });
        }
    }
    for f in figs.values_mut() {
        if f.total > 0 {
            f.percent = 100.0 * (f.covered + f.credited + f.waived) as f64 / f.total as f64;
            f.raw_percent = 100.0 * f.covered as f64 / f.total as f64;
        }
    }
    BlockCoverage {
        block: block.to_string(),
        line: figs.get(&Kind::Line).cloned().unwrap_or_default(),
        toggle: figs.get(&Kind::Toggle).cloned().unwrap_or_default(),
        expr: figs.get(&Kind::Expr).cloned(),
        uncovered: unc,
    }
}

fn pct(f: &Figure) -> String {
    if f.total == 0 {
        "-".into()
    } else {
        format!(
            "{:.2} % ({}/{})",
            f.percent,
            f.covered + f.credited + f.waived,
            f.total
        )
    }
}

pub fn run(a: CoverageArgs) -> Result<i32> {
    let wfile = a.waivers.display().to_string();
    let mut waivers = load_waivers(&a.waivers)?;
    let data = load_blocks(&a.dir, &mut waivers, &wfile)?;
    let covered_in = credit_sources(&data, &waivers);
    let root = format!(
        "{}/",
        std::fs::canonicalize(".")
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    );
    let mut used = vec![false; waivers.len()];
    let blocks: Vec<BlockCoverage> = data
        .iter()
        .map(|(name, pts)| {
            block_coverage_credited(name, pts, &waivers, &mut used, &root, &covered_in)
        })
        .collect();
    anyhow::ensure!(
        !blocks.is_empty(),
        "no <block>.dat in {} (run `make coverage`)",
        a.dir.display()
    );
    let stale: Vec<&Waiver> = waivers
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(w, _)| w)
        .collect();
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "blocks": blocks,
                "waivers": waivers.len(),
                "stale_waivers": stale,
            }))?
        );
        return Ok(0);
    }
    print_table(&blocks);
    print_uncovered(&blocks, a.max_list);
    for w in &stale {
        println!(
            "stale waiver ({wfile}:{}): {} {} matches no uncovered point",
            w.at, w.kind, w.target
        );
    }
    Ok(0)
}

/// The waivers of `path` that apply to this build: tool-bug waivers of
/// another Verilator are left out (said on stderr).
fn load_waivers(path: &Path) -> Result<Vec<Waiver>> {
    let wtext = std::fs::read_to_string(path)
        .with_context(|| format!("reading waiver file {}", path.display()))?;
    let waivers = parse_waivers(&wtext, &path.display().to_string())?;
    let tool = crate::rtl::VERILATOR_VERSION;
    let (mine, other): (Vec<Waiver>, Vec<Waiver>) = waivers
        .into_iter()
        .partition(|w| w.tool.as_deref().is_none_or(|v| tool.starts_with(v)));
    if !other.is_empty() {
        eprintln!(
            "coverage: {} tool-bug waiver(s) of another Verilator not applied (this build: {tool})",
            other.len()
        );
    }
    Ok(mine)
}

/// The points of every registered block with a `<block>.dat` in `dir`, in
/// registry order; the `text` waivers resolved against each block's sources.
fn load_blocks(
    dir: &Path,
    waivers: &mut [Waiver],
    wfile: &str,
) -> Result<Vec<(&'static str, Vec<Point>)>> {
    let mut data = Vec::new();
    for name in crate::blocks::names() {
        let p = dir.join(format!("{name}.dat"));
        if !p.exists() {
            continue;
        }
        let text =
            std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
        let pts = parse_dat(&text).with_context(|| p.display().to_string())?;
        resolve_text_waivers(waivers, &pts, wfile, &|f| std::fs::read_to_string(f).ok())?;
        data.push((name, pts));
    }
    Ok(data)
}

/// Covered points of every block a `credit` entry names.
fn credit_sources(
    data: &[(&'static str, Vec<Point>)],
    waivers: &[Waiver],
) -> BTreeMap<String, CreditSource> {
    let mut covered_in = BTreeMap::new();
    for (name, pts) in data {
        if waivers.iter().any(|w| w.from.iter().any(|b| b == name)) {
            let top = sb2sb_model::blocks::find(name).map_or(*name, |b| b.top);
            covered_in.insert(name.to_string(), CreditSource::new(top, pts));
        }
    }
    covered_in
}

/// The per-block table: line (after waivers), toggle, expression, waived.
fn print_table(blocks: &[BlockCoverage]) {
    println!(
        "{:<10} {:>24} {:>24} {:>24} {:>9}",
        "block", "line (after waivers)", "toggle", "expression", "waived"
    );
    for b in blocks {
        let waived = b.line.waived + b.toggle.waived + b.expr.as_ref().map_or(0, |e| e.waived);
        let credited =
            b.line.credited + b.toggle.credited + b.expr.as_ref().map_or(0, |e| e.credited);
        println!(
            "{:<10} {:>24} {:>24} {:>24} {:>9}{}",
            b.block,
            pct(&b.line),
            pct(&b.toggle),
            b.expr.as_ref().map(pct).unwrap_or_else(|| "n/a".into()),
            waived,
            if credited > 0 {
                format!(
                    "  (+{credited} credited from block-level runs: line {}, toggle {})",
                    b.line.credited, b.toggle.credited
                )
            } else {
                String::new()
            }
        );
    }
}

/// The uncovered points of each block, at most `max_list` a block (0: all).
fn print_uncovered(blocks: &[BlockCoverage], max_list: usize) {
    for b in blocks {
        if b.uncovered.is_empty() {
            continue;
        }
        println!("\nuncovered in {} ({} points):", b.block, b.uncovered.len());
        let n = if max_list == 0 {
            b.uncovered.len()
        } else {
            max_list.min(b.uncovered.len())
        };
        for u in &b.uncovered[..n] {
            let k = match u.kind {
                Kind::Line => "line",
                Kind::Toggle => "toggle",
                Kind::Expr => "expr",
            };
            println!("  {}  {k:<6} {} {}", u.at, u.module, u.comment);
        }
        if n < b.uncovered.len() {
            println!(
                "  ... {} more (--max-list 0 lists all)",
                b.uncovered.len() - n
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAT: &str = "# SystemC::Coverage-3\n\
C '\x01t\x02line\x01page\x02v_line/udma_s2m\x01f\x02/r/rtl/udma_s2m.sv\x01l\x0212\x01n\x020\x01o\x02if\x01h\x02TOP.udma_engine.u_s2m' 0\n\
C '\x01t\x02line\x01page\x02v_branch/udma_s2m\x01f\x02/r/rtl/udma_s2m.sv\x01l\x0213\x01n\x020\x01o\x02else\x01h\x02TOP.udma_engine.u_s2m' 5\n\
C '\x01t\x02toggle\x01page\x02v_toggle/udma_engine\x01f\x02/r/rtl/udma_engine.sv\x01l\x0238\x01n\x020\x01o\x02m_axi_araddr[63]\x01h\x02TOP.udma_engine' 0\n\
C '\x01t\x02user\x01page\x02v_user/x\x01f\x02a.sv\x01l\x021\x01h\x02TOP' 0\n";

    #[test]
    fn tool_bug_waivers_name_their_verilator_version() {
        let w = parse_waivers(
            "verilator=5.006 text evt_sem.sv \"if (x)\" miscounted by 5.006\nline a.sv:1 r\n",
            "w",
        )
        .unwrap();
        assert_eq!(w[0].tool.as_deref(), Some("5.006"));
        assert_eq!(
            (w[0].kind.as_str(), w[0].target.as_str()),
            ("text", "evt_sem.sv")
        );
        assert_eq!(w[0].pattern.as_deref(), Some("if (x)"));
        assert_eq!(w[0].reason, "miscounted by 5.006");
        assert_eq!(w[1].tool, None);
        assert!(parse_waivers("verilator= line a.sv:1 r\n", "w").is_err());
        assert!(parse_waivers("verilator=5.006 line a.sv:1\n", "w").is_err());
    }

    #[test]
    fn dat_points_are_classified_and_counted() {
        let p = parse_dat(DAT).unwrap();
        assert_eq!(p.len(), 3, "user points are not reported");
        assert_eq!(p[0].kind, Kind::Line);
        assert_eq!(p[1].kind, Kind::Line);
        assert_eq!(p[2].kind, Kind::Toggle);
        assert_eq!(p[2].comment, "m_axi_araddr[63]");
        assert_eq!(p[0].line, 12);
        assert_eq!(p[1].count, 5);
    }

    #[test]
    fn waivers_apply_by_line_and_by_signal_prefix_and_stale_ones_show() {
        let p = parse_dat(DAT).unwrap();
        let w = parse_waivers(
            "# c\nline udma_s2m.sv:12 unreachable default\ntoggle udma_engine:m_axi_araddr[6* tied\nline udma_m2s.sv:1 stale\n",
            "w",
        )
        .unwrap();
        let mut used = vec![false; w.len()];
        let b = block_coverage("udma", &p, &w, &mut used, "/r/");
        assert_eq!((b.line.total, b.line.covered, b.line.waived), (2, 1, 1));
        assert_eq!(b.line.percent, 100.0);
        assert_eq!(b.line.raw_percent, 50.0);
        assert_eq!(b.toggle.waived, 1);
        assert!(b.uncovered.is_empty());
        assert_eq!(used, vec![true, true, false]);
        // Without waivers both uncovered points are listed as file:line.
        let mut u2 = vec![];
        let b = block_coverage("udma", &p, &[], &mut u2, "/r/");
        let at: Vec<_> = b.uncovered.iter().map(|u| u.at.as_str()).collect();
        assert_eq!(at, vec!["rtl/udma_s2m.sv:12", "rtl/udma_engine.sv:38"]);
    }

    #[test]
    fn a_waiver_without_reason_or_with_a_bad_target_is_a_typed_error() {
        let e = parse_waivers("line udma_s2m.sv:12\n", "w.txt").unwrap_err();
        assert!(matches!(e, WaiverError::NoReason { line: 1, .. }), "{e}");
        let e = parse_waivers("line udma_s2m.sv reason\n", "w.txt").unwrap_err();
        assert!(e.to_string().contains("expected FILE.sv:LINE"), "{e}");
        let e = parse_waivers("branch x:1 reason\n", "w.txt").unwrap_err();
        assert!(
            e.to_string()
                .contains("`line`, `text`, `toggle` or `credit`"),
            "{e}"
        );
        let e = parse_waivers("text udma_s2m.sv default: ; reason\n", "w.txt").unwrap_err();
        assert!(matches!(e, WaiverError::TextTarget { line: 1, .. }), "{e}");
    }

    /// A `credit` entry counts a point of the integration block as covered
    /// only where the same source point is covered in the named block; a point
    /// covered nowhere stays uncovered, and other modules are not touched.
    #[test]
    fn credit_entries_take_a_point_only_from_the_named_blocks_data() {
        let leg = parse_dat(&DAT.replace("TOP.udma_engine", "TOP.sb2sb_pair.u_core_a.g[0].u_udma"))
            .unwrap();
        let udma = parse_dat(&DAT.replace("' 0\n", "' 3\n")).unwrap();
        assert!(udma.iter().all(|p| p.count > 0));
        let w = parse_waivers(
            "credit leg:udma_s2m udma,evt_sem closed by the udma block's environment\n",
            "w",
        )
        .unwrap();
        assert_eq!(w[0].from, vec!["udma".to_string(), "evt_sem".to_string()]);
        assert_eq!(w[0].reason, "closed by the udma block's environment");
        let keys = |pts: &[Point]| CreditSource::new("udma_engine", pts);
        // Covered in block udma: the leg's udma_s2m point 12 is credited; the
        // udma_engine toggle point (another module) is not.
        let covered_in = BTreeMap::from([("udma".to_string(), keys(&udma))]);
        let mut used = vec![false];
        let b = block_coverage_credited("leg", &leg, &w, &mut used, "/r/", &covered_in);
        assert_eq!((b.line.covered, b.line.credited, b.line.waived), (1, 1, 0));
        assert_eq!(b.line.percent, 100.0);
        assert_eq!((b.toggle.credited, b.uncovered.len()), (0, 1));
        assert_eq!(used, vec![true]);
        // Not covered in udma either (its own run left it at 0): stays uncovered.
        let covered_in = BTreeMap::from([("udma".to_string(), keys(&parse_dat(DAT).unwrap()))]);
        let b = block_coverage_credited("leg", &leg, &w, &mut used, "/r/", &covered_in);
        assert_eq!(b.line.credited, 0);
        assert_eq!(b.uncovered[0].at, "rtl/udma_s2m.sv:12");
        // Another block's points are never credited by a `leg:` entry.
        let covered_in = BTreeMap::from([("udma".to_string(), keys(&udma))]);
        let b = block_coverage_credited("udma_w32", &leg, &w, &mut used, "/r/", &covered_in);
        assert_eq!(b.line.credited, 0);
        let e = parse_waivers("credit leg:udma_s2m\n", "w").unwrap_err();
        assert!(
            matches!(
                e,
                WaiverError::NoReason { .. } | WaiverError::CreditTarget { .. }
            ),
            "{e}"
        );
        let e = parse_waivers("credit leg udma reason\n", "w").unwrap_err();
        assert!(matches!(e, WaiverError::CreditTarget { .. }), "{e}");
    }

    /// A `text` waiver finds its line by source text, whatever the line number.
    #[test]
    fn text_waivers_follow_the_source_line_and_must_be_unique() {
        let p = parse_dat(DAT).unwrap();
        let src = |body: &'static str| {
            move |f: &str| (f == "/r/rtl/udma_s2m.sv").then(|| body.to_string())
        };
        let mut w =
            parse_waivers("text udma_s2m.sv \"default: ;\" unreachable arm\n", "w").unwrap();
        // The pattern sits on line 12 of the source: the uncovered point 12 is waived.
        let body = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n    default: ;  // x\n";
        resolve_text_waivers(&mut w, &p, "w", &src(body)).unwrap();
        assert_eq!(w[0].resolved_line, Some(12));
        assert_eq!(w[0].reason, "unreachable arm");
        let mut used = vec![false];
        let b = block_coverage("udma", &p, &w, &mut used, "/r/");
        assert_eq!(b.line.waived, 1);
        assert_eq!(used, vec![true]);
        // Moved to line 2: it no longer waives point 12.
        let mut w2 = w.clone();
        resolve_text_waivers(&mut w2, &p, "w", &src("a\ndefault: ;\n")).unwrap();
        let mut used = vec![false];
        assert_eq!(
            block_coverage("udma", &p, &w2, &mut used, "/r/")
                .line
                .waived,
            0
        );
        // Ambiguous or missing patterns are errors.
        let e =
            resolve_text_waivers(&mut w2, &p, "w", &src("default: ;\ndefault: ;\n")).unwrap_err();
        assert!(
            matches!(e, WaiverError::TextNotUnique { found: 2, .. }),
            "{e}"
        );
        // `#N` picks one of several identical lines.
        let mut w3 = parse_waivers("text udma_s2m.sv \"default: ;\"#2 second arm\n", "w").unwrap();
        assert_eq!(
            (w3[0].occurrence, w3[0].reason.as_str()),
            (Some(2), "second arm")
        );
        resolve_text_waivers(&mut w3, &p, "w", &src("default: ;\nx\ndefault: ;\n")).unwrap();
        assert_eq!(w3[0].resolved_line, Some(3));
        let e = resolve_text_waivers(&mut w2, &p, "w", &src("nothing\n")).unwrap_err();
        assert!(
            matches!(e, WaiverError::TextNotUnique { found: 0, .. }),
            "{e}"
        );
    }
}

/// `sb2sb coverage-csr`: the generated CSR tests (reset values, read/write,
/// bit-bash, aliasing, WO/RO/W1C; `model/src/regs/csr.rs`) run in lockstep
/// once per CSR block of a coverage build, each writing its Verilator
/// coverage points to `DIR/<block>.csr.dat`, so that `make coverage` merges
/// register traffic the random environments never make into the figures.
#[derive(clap::Args, Debug)]
pub struct CovCsrArgs {
    /// Directory for the `.dat` files (`make coverage`: coverage/runs).
    #[arg(long, value_name = "DIR")]
    pub coverage_dir: PathBuf,
    /// Seed of the CSR plans.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Cycles per CSR block: enough for the whole plan (tb/cosim_csr.rs runs
/// 60,000 for EVT_SEM and 200,000 per UDMA width and asserts it finishes).
fn csr_cycles(block: &str) -> u64 {
    if block == "evt_sem" {
        60_000
    } else {
        200_000
    }
}

fn csr_run<G, S>(block: &str, golden: G, a: &CovCsrArgs) -> Result<()>
where
    G: sb2sb_model::ports::CycleModel<In = S::In, Out = S::Out> + Clone,
    S: sb2sb_model::ports::Stimulus,
{
    let Some(desc) = sb2sb_model::blocks::find(block) else {
        anyhow::bail!("block `{block}` is not registered")
    };
    let cycles = csr_cycles(block);
    let opts = crate::lockstep::Options {
        seed: a.seed,
        cycles,
        progress: false,
        threads: 1,
        coverage_out: Some(a.coverage_dir.join(format!("{block}.csr.dat"))),
        ..crate::lockstep::Options::default()
    };
    let r = crate::lockstep::run(golden, S::new(a.seed, cycles), desc, &opts)?;
    if let Some(m) = &r.first_mismatch {
        anyhow::bail!("{block} CSR tests: {}", m.render());
    }
    anyhow::ensure!(r.passed(), "{block} CSR tests did not pass");
    println!(
        "{block:<10} CSR tests: {} cycles, csr_fail {}, csr_left {}",
        r.cycles_run,
        r.cov("csr_fail"),
        r.cov("csr_left")
    );
    Ok(())
}

pub fn run_csr(a: CovCsrArgs) -> Result<i32> {
    use sb2sb_model::evt_sem::{csr::EvtSemCsr, EvtSem};
    use sb2sb_model::udma::{csr::UdmaCsr, UdmaEngine, W128, W256, W32, W64};
    anyhow::ensure!(
        crate::rtl::COVERAGE_BUILD,
        "coverage-csr needs a coverage build (SB2SB_COVERAGE=1; `make coverage` makes one)"
    );
    std::fs::create_dir_all(&a.coverage_dir)?;
    let built = crate::rtl::compiled_blocks();
    for b in crate::blocks::names() {
        if !built.iter().any(|n| n == b) {
            continue;
        }
        match b {
            "evt_sem" => csr_run::<_, EvtSemCsr>(b, EvtSem::new(), &a)?,
            "udma" => csr_run::<_, UdmaCsr<W64>>(b, UdmaEngine::<W64>::new(), &a)?,
            "udma_w32" => csr_run::<_, UdmaCsr<W32>>(b, UdmaEngine::<W32>::new(), &a)?,
            "udma_w128" => csr_run::<_, UdmaCsr<W128>>(b, UdmaEngine::<W128>::new(), &a)?,
            "udma_w256" => csr_run::<_, UdmaCsr<W256>>(b, UdmaEngine::<W256>::new(), &a)?,
            _ => {}
        }
    }
    Ok(0)
}
