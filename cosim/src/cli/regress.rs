//! `sb2sb regress`: blocks × seeds lockstep jobs over all hardware threads,
//! a summary table (or `--json`), JUnit XML for CI, and `--shard I/N` so a CI
//! matrix of N machines runs disjoint slices of one job list.
//!
//! The job list is every block (registration order) × every seed (the order
//! given); job k belongs to shard `k mod N` (round robin, so each shard gets
//! every block). Each job is one serial lockstep run (`--threads 1`); jobs run
//! in parallel, one per worker thread.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::blocks;
use crate::lockstep::{Options, Report};
use crate::rtl::XInit;

#[derive(clap::Args, Debug)]
pub struct RegressArgs {
    /// Blocks, comma separated, or `all` (every registered block).
    #[arg(long, default_value = "all")]
    pub blocks: String,
    /// Seeds: `1-16`, `1,5,9` or a mix (`1-4,100`).
    #[arg(long, default_value = "1-4")]
    pub seeds: String,
    /// Cycles per job.
    #[arg(long, default_value_t = 1_000_000)]
    pub cycles: u64,
    /// Worker threads (default: every hardware thread).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Run only slice I of N of the job list (1-based), e.g. `--shard 2/4`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Print the jobs of this shard and exit without running them.
    #[arg(long)]
    pub list: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write JUnit XML (one testcase per job) to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Initial RTL state before reset.
    #[arg(long, value_enum, default_value = "random")]
    pub x_init: XInit,
}

/// Slice `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// Errors of `--shard` and `--seeds`, naming the value and the rule.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RegressError {
    #[error("--shard `{0}`: expected I/N with 1 <= I <= N, e.g. 1/2")]
    Shard(String),
    #[error("--seeds `{0}`: expected seeds or ranges like 1-16 or 1,5,9 (ranges ascending)")]
    Seeds(String),
    #[error("--seeds `{0}`: the list has no seed")]
    NoSeed(String),
}

pub fn parse_shard(s: &str) -> Result<Shard, RegressError> {
    let err = || RegressError::Shard(s.to_string());
    let (i, n) = s.split_once('/').ok_or_else(err)?;
    let index: usize = i.trim().parse().map_err(|_| err())?;
    let count: usize = n.trim().parse().map_err(|_| err())?;
    if index == 0 || count == 0 || index > count {
        return Err(err());
    }
    Ok(Shard { index, count })
}

pub fn parse_seeds(s: &str) -> Result<Vec<u64>, RegressError> {
    let err = || RegressError::Seeds(s.to_string());
    let num = |t: &str| crate::cli::cosim::parse_u64(t).map_err(|_| err());
    let mut v = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(err());
                }
                v.extend(a..=b);
            }
            None => v.push(num(part)?),
        }
    }
    if v.is_empty() {
        return Err(RegressError::NoSeed(s.to_string()));
    }
    Ok(v)
}

/// One lockstep job.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Job {
    /// Position in the whole (unsharded) job list.
    pub index: usize,
    pub block: String,
    pub seed: u64,
}

/// Every block × every seed, in that order.
pub fn job_list(blocks: &[String], seeds: &[u64]) -> Vec<Job> {
    let mut v = Vec::new();
    for b in blocks {
        for &seed in seeds {
            v.push(Job {
                index: v.len(),
                block: b.clone(),
                seed,
            });
        }
    }
    v
}

/// The jobs of one shard: job k belongs to shard `k mod N + 1`.
pub fn shard_jobs(jobs: &[Job], shard: Option<Shard>) -> Vec<Job> {
    match shard {
        None => jobs.to_vec(),
        Some(s) => jobs
            .iter()
            .filter(|j| j.index % s.count == s.index - 1)
            .cloned()
            .collect(),
    }
}

/// Result of one job.
#[derive(Debug, Clone, Serialize)]
pub struct JobResult {
    pub job: Job,
    pub passed: bool,
    pub cycles_run: u64,
    pub seconds: f64,
    /// The mismatch or assertion report (failures only).
    pub report: Option<String>,
    pub replay: Option<String>,
    /// An error that kept the job from running.
    pub error: Option<String>,
}

/// What the regression did.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub shard: Option<Shard>,
    pub jobs: usize,
    pub passed: usize,
    pub failed: usize,
    pub cycles: u64,
    pub seconds: f64,
    pub cycles_per_sec: f64,
    pub workers: usize,
    pub results: Vec<JobResult>,
}

fn run_job(job: &Job, cycles: u64, x_init: XInit) -> JobResult {
    let opts = Options {
        seed: job.seed,
        cycles,
        threads: 1,
        x_init,
        ..Options::default()
    };
    let t0 = Instant::now();
    let r: Result<Report> = blocks::run_named(&job.block, &opts, None);
    let seconds = t0.elapsed().as_secs_f64();
    match r {
        Ok(r) => JobResult {
            job: job.clone(),
            passed: r.passed(),
            cycles_run: r.cycles_run,
            seconds,
            report: r.first_mismatch.as_ref().map(|m| m.render()),
            replay: r.first_mismatch.as_ref().map(|m| m.replay.clone()),
            error: None,
        },
        Err(e) => JobResult {
            job: job.clone(),
            passed: false,
            cycles_run: 0,
            seconds,
            report: None,
            replay: None,
            error: Some(format!("{e:#}")),
        },
    }
}

/// Run `jobs` on `workers` threads; results in job order.
pub fn run_jobs(jobs: &[Job], cycles: u64, workers: usize, x_init: XInit) -> Vec<JobResult> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<JobResult>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|s| {
        for _ in 0..workers.max(1).min(jobs.len().max(1)) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(k) else { break };
                let r = run_job(job, cycles, x_init);
                out.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(r);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => o.push(c),
        }
    }
    o
}

/// JUnit XML: one `<testcase>` per job (`classname` = `lockstep.<block>`,
/// `name` = `seed <S>`), failures carry the report with its replay command.
pub fn junit_xml(s: &Summary) -> String {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let name = match s.shard {
        Some(sh) => format!("sb2sb regress shard {}/{}", sh.index, sh.count),
        None => "sb2sb regress".to_string(),
    };
    x.push_str(&format!(
        "<testsuites tests=\"{}\" failures=\"{}\" time=\"{:.3}\">\n  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3}\">\n",
        s.jobs, s.failed, s.seconds, xml_escape(&name), s.jobs, s.failed, s.seconds
    ));
    for r in &s.results {
        x.push_str(&format!(
            "    <testcase classname=\"lockstep.{}\" name=\"seed {}\" time=\"{:.3}\"",
            xml_escape(&r.job.block),
            r.job.seed,
            r.seconds
        ));
        if r.passed {
            x.push_str("/>\n");
        } else {
            let msg = r
                .error
                .clone()
                .or_else(|| {
                    r.report
                        .as_ref()
                        .and_then(|t| t.lines().next().map(String::from))
                })
                .unwrap_or_default();
            let body = r
                .report
                .clone()
                .or_else(|| r.error.clone())
                .unwrap_or_default();
            x.push_str(&format!(
                ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                xml_escape(&msg),
                xml_escape(&body)
            ));
        }
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

fn block_names(spec: &str) -> Result<Vec<String>> {
    let all = blocks::names();
    if spec == "all" {
        return Ok(all.into_iter().map(String::from).collect());
    }
    let mut v = Vec::new();
    for b in spec.split(',').map(str::trim).filter(|b| !b.is_empty()) {
        anyhow::ensure!(
            all.contains(&b),
            "--blocks: unknown block `{b}` (known: {})",
            all.join(", ")
        );
        v.push(b.to_string());
    }
    anyhow::ensure!(!v.is_empty(), "--blocks `{spec}`: no block named");
    Ok(v)
}

pub fn run(a: RegressArgs) -> Result<i32> {
    let names = block_names(&a.blocks)?;
    let seeds = parse_seeds(&a.seeds)?;
    let all = job_list(&names, &seeds);
    let jobs = shard_jobs(&all, a.shard);
    if a.list {
        if a.json {
            println!("{}", serde_json::to_string_pretty(&jobs)?);
        } else {
            for j in &jobs {
                println!("{:>5} {} seed {}", j.index, j.block, j.seed);
            }
        }
        return Ok(0);
    }
    let workers = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let t0 = Instant::now();
    let results = run_jobs(&jobs, a.cycles, workers, a.x_init);
    let seconds = t0.elapsed().as_secs_f64();
    let cycles: u64 = results.iter().map(|r| r.cycles_run).sum();
    let failed = results.iter().filter(|r| !r.passed).count();
    let s = Summary {
        shard: a.shard,
        jobs: results.len(),
        passed: results.len() - failed,
        failed,
        cycles,
        seconds,
        cycles_per_sec: if seconds > 0.0 {
            cycles as f64 / seconds
        } else {
            0.0
        },
        workers,
        results,
    };
    if let Some(p) = &a.junit {
        if let Some(d) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
        }
        std::fs::write(p, junit_xml(&s)).with_context(|| format!("writing {}", p.display()))?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        print_summary(&s, &names);
    }
    Ok(i32::from(failed > 0))
}

fn print_summary(s: &Summary, names: &[String]) {
    println!(
        "{:<10} {:>6} {:>7} {:>14} {:>14}",
        "block", "jobs", "failed", "cycles", "job cycles/s"
    );
    for b in names {
        let rs: Vec<&JobResult> = s.results.iter().filter(|r| &r.job.block == b).collect();
        if rs.is_empty() {
            continue;
        }
        let cyc: u64 = rs.iter().map(|r| r.cycles_run).sum();
        let sec: f64 = rs.iter().map(|r| r.seconds).sum();
        println!(
            "{:<10} {:>6} {:>7} {:>14} {:>14.0}",
            b,
            rs.len(),
            rs.iter().filter(|r| !r.passed).count(),
            cyc,
            if sec > 0.0 { cyc as f64 / sec } else { 0.0 }
        );
    }
    let shard = s
        .shard
        .map(|sh| format!(" (shard {}/{})", sh.index, sh.count))
        .unwrap_or_default();
    println!(
        "{} jobs{shard}, {} passed, {} failed; {} cycles in {:.1} s on {} worker(s): {:.0} cycles/s aggregate",
        s.jobs, s.passed, s.failed, s.cycles, s.seconds, s.workers, s.cycles_per_sec
    );
    for r in s.results.iter().filter(|r| !r.passed) {
        println!("\nFAILED {} seed {}:", r.job.block, r.job.seed);
        if let Some(e) = &r.error {
            println!("  error: {e}");
        }
        if let Some(rep) = &r.replay {
            println!("  replay: {rep}");
        }
    }
    println!("{} passed, {} failed", s.passed, s.failed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_job_list() {
        let blocks: Vec<String> = ["decoder", "evt_sem", "udma", "udma_w32", "udma_w128"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let seeds = parse_seeds("1-16").unwrap();
        let all = job_list(&blocks, &seeds);
        assert_eq!(all.len(), 80);
        for n in 1..=7usize {
            let mut seen = std::collections::HashSet::new();
            let mut total = 0;
            for i in 1..=n {
                let part = shard_jobs(&all, Some(Shard { index: i, count: n }));
                // Balanced: sizes differ by at most one.
                assert!(part.len() == all.len() / n || part.len() == all.len() / n + 1);
                total += part.len();
                for j in part {
                    assert!(seen.insert(j.clone()), "job {j:?} in two shards");
                }
            }
            assert_eq!(total, all.len(), "N = {n}");
            let every: std::collections::HashSet<Job> = all.iter().cloned().collect();
            assert_eq!(seen, every, "N = {n}");
        }
    }

    #[test]
    fn shard_and_seed_syntax_errors_name_the_value() {
        assert_eq!(parse_shard("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
            assert_eq!(parse_shard(bad), Err(RegressError::Shard(bad.into())));
        }
        assert_eq!(parse_seeds("1-3,7,0x10").unwrap(), vec![1, 2, 3, 7, 16]);
        assert!(matches!(parse_seeds("5-1"), Err(RegressError::Seeds(_))));
        assert!(matches!(parse_seeds(","), Err(RegressError::NoSeed(_))));
    }

    #[test]
    fn junit_marks_failures_with_the_replay_report_escaped() {
        let ok = JobResult {
            job: Job {
                index: 0,
                block: "decoder".into(),
                seed: 1,
            },
            passed: true,
            cycles_run: 10,
            seconds: 0.5,
            report: None,
            replay: None,
            error: None,
        };
        let mut bad = ok.clone();
        bad.job.seed = 2;
        bad.passed = false;
        bad.report = Some("LOCKSTEP FAILURE in block `decoder` <a&b>\nreplay: sb2sb cosim".into());
        let s = Summary {
            shard: Some(Shard { index: 1, count: 2 }),
            jobs: 2,
            passed: 1,
            failed: 1,
            cycles: 20,
            seconds: 1.0,
            cycles_per_sec: 20.0,
            workers: 2,
            results: vec![ok, bad],
        };
        let x = junit_xml(&s);
        assert!(
            x.contains("<testsuite name=\"sb2sb regress shard 1/2\" tests=\"2\" failures=\"1\"")
        );
        assert!(
            x.contains("<testcase classname=\"lockstep.decoder\" name=\"seed 1\" time=\"0.500\"/>")
        );
        assert!(
            x.contains("<failure message=\"LOCKSTEP FAILURE in block `decoder` &lt;a&amp;b&gt;\">")
        );
        assert!(x.contains("replay: sb2sb cosim</failure>"));
        assert_eq!(x.matches("<testcase").count(), 2);
    }
}
