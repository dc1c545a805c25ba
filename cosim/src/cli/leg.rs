//! `sb2sb run sendrecv`: one directed SBUF→SBUF leg on the system model,
//! reproducing seed 001 §8 by default — 128 partitions × 16 KiB from SBUF
//! offset 0x100000 to the peer's 0x100000, engines 0x000F, local_sem 12,
//! remote_sem 20, cross-die neighbor route. The TX gen word is the §8 word as
//! printed (remote_core_id 7, remote_routing_id 0x12): core 3 on die 0 sends
//! to core 7 on die 1, its d2d peer (`Topology::d2d_peer`: the seed's
//! `sengine_get_d2d_peer_nums` seng ^ 2 on SENG 1 → 3, the same core position
//! on the other die), and the host's routing-id map gives core 7 routing id
//! 0x12 (`Topology::seed_001_s8`).
//!
//! Prints the folded dst_soc, the descriptor counts, the semaphore values of
//! the two-semaphore protocol (after the leg, and after the next step's
//! wait-≥-target-and-decrement), a byte-by-byte verification, modeled time and
//! host time. `--vcd FILE` writes a transaction-level trace (per engine queue
//! pointers, per core semaphores).

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use sb2sb_model::collective::nccom::parse_size;
use sb2sb_model::stim::StimRng;
use sb2sb_model::system::{CoreId, Mode, System, SystemLeg, Topology, TraceEvent};
use serde_json::json;

use super::cosim::parse_u64;

mod backdoor;

/// How `--mode rtl` loads the SBUFs before the leg and reads them after it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preload {
    /// The testbench writes and reads the Verilated SRAM arrays directly
    /// between two cycles (cosim/cpp/backdoor.vlt); no cycle is spent.
    Backdoor,
    /// The environment preloads and scans through the pair's one-word
    /// debug memory ports, one word per core per cycle.
    DebugPort,
}

/// Execution mode of the leg.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegMode {
    /// Descriptor by descriptor with SIMD copies.
    Fast,
    /// The golden UDMA and EVT_SEM cycle models, clock by clock.
    Cycle,
    /// The Verilated `rtl/sb2sb_pair.sv` (block `leg`), the environment
    /// playing both Q7s through the AXI4-Lite ports; checked against fast mode.
    Rtl,
}

#[derive(clap::Args, Debug)]
pub struct LegArgs {
    /// Peer on the same die (core 3 → core 2; no fold).
    #[arg(long, conflicts_with = "cross_chip")]
    pub same_die: bool,
    /// Peer in another package (core 3 → core 15; chip-id fold: CAYMAN_ID <- the
    /// peer's routing id, which is --chip-id, its package's CAYMAN_ID).
    #[arg(long)]
    pub cross_chip: bool,
    /// CAYMAN_ID of the second package for --cross-chip (seed 001 §8 uses routing id 0x12).
    #[arg(long, default_value = "0x12", value_parser = parse_u64)]
    pub chip_id: u64,
    /// Source byte offset inside each partition.
    #[arg(long, default_value = "0x100000", value_parser = parse_u64)]
    pub src_offset: u64,
    /// Destination byte offset inside each partition.
    #[arg(long, default_value = "0x100000", value_parser = parse_u64)]
    pub dst_offset: u64,
    /// Bytes per partition (free_dim_bytes; K/M suffixes).
    #[arg(long, default_value = "16K")]
    pub bytes: String,
    /// Partitions (1..=128).
    #[arg(long, default_value_t = 128)]
    pub partitions: u8,
    /// DMA engines (dma_engine_mask).
    #[arg(long, default_value = "0x000F", value_parser = parse_u64)]
    pub engine_mask: u64,
    /// Semaphore on the TX core (source released).
    #[arg(long, default_value_t = 12)]
    pub local_sem: u8,
    /// Semaphore on the RX core (data landed).
    #[arg(long, default_value_t = 20)]
    pub remote_sem: u8,
    /// UDMA queue.
    #[arg(long, default_value_t = 0)]
    pub queue: u8,
    /// Execution mode.
    #[arg(long, value_enum, default_value = "fast")]
    pub mode: LegMode,
    /// Seed of the source data.
    #[arg(long, default_value = "1", value_parser = parse_u64)]
    pub seed: u64,
    /// Ring one tail-pointer doorbell per engine instead of the broadcast
    /// doorbell (seed 001 §4.4 `dma_apb_bcast`, the default).
    #[arg(long)]
    pub per_engine_doorbells: bool,
    /// Write a transaction-level VCD trace here.
    #[arg(long, value_name = "FILE")]
    pub vcd: Option<PathBuf>,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
    /// `--mode rtl`: load the SBUFs before the leg and read them after it
    /// through the testbench backdoor or the debug memory ports.
    #[arg(long, value_enum, default_value = "backdoor")]
    pub preload: Preload,
    /// `--mode rtl --preload backdoor`: flip bit 0 of the first source word of
    /// this partition as the backdoor stores it (the comparison with fast
    /// mode must report the byte).
    #[arg(long, hide = true, value_name = "PARTITION")]
    pub inject_backdoor_fault: Option<u8>,
}

/// `sb2sb run sendrecv`, in stages: check the arguments (`check_args`),
/// build the system (`build_system`), load the source bytes and the
/// destination background (`load_sbufs`), run the leg, verify bytes and the
/// two semaphores (`verify`), write the trace, then report (`report_json`
/// or `report_text`).
pub fn run(a: LegArgs) -> Result<i32> {
    if a.mode == LegMode::Rtl {
        return run_rtl(a);
    }
    let (bytes, engine_mask, chip_id) = check_args(&a)?;
    let (mut sys, src, dst, mode) = build_system(&a, bytes, chip_id)?;
    let expect = load_sbufs(&mut sys, &a, src, dst, bytes)?;
    let leg = SystemLeg {
        engine_mask,
        queue: a.queue,
        local_sem: a.local_sem,
        remote_sem: a.remote_sem,
        ..SystemLeg::new(
            src,
            a.src_offset,
            dst,
            a.dst_offset,
            bytes as u32,
            a.partitions,
        )
    };
    let engines = u64::from(engine_mask.count_ones().min(u32::from(a.partitions)));
    let (gen_tx, _) = sys.st.leg_gen_words(&leg)?;
    let t0 = Instant::now();
    let rep = sys.send_recv(&leg, mode)?;
    let host_us = t0.elapsed().as_secs_f64() * 1e6;
    let v = verify(&mut sys, &a, &leg, &expect, engines, mode)?;
    if let Some(path) = &a.vcd {
        write_trace(path, &sys.st.trace).with_context(|| format!("writing {}", path.display()))?;
    }
    let out = Outcome {
        a: &a,
        sys: &sys,
        leg: &leg,
        gen_tx: &gen_tx,
        rep: &rep,
        v: &v,
        bytes,
        engines,
        host_us,
    };
    if a.json {
        report_json(&out)?;
    } else {
        report_text(&out);
    }
    Ok(if v.pass { 0 } else { 1 })
}

/// Stage 1: the arguments' ranges → (bytes per partition, engine mask, chip id).
fn check_args(a: &LegArgs) -> Result<(u64, u16, u8)> {
    anyhow::ensure!(
        a.inject_backdoor_fault.is_none(),
        "--inject-backdoor-fault: only --mode rtl has a backdoor"
    );
    let bytes = parse_size(&a.bytes).map_err(|e| anyhow::anyhow!("--bytes: {e}"))?;
    anyhow::ensure!(
        (1..=65536 * 16).contains(&bytes),
        "--bytes {bytes}: bytes per partition must be 1..=1 MiB"
    );
    anyhow::ensure!(
        (1..=128).contains(&a.partitions),
        "--partitions {}: must be 1..=128",
        a.partitions
    );
    let engine_mask = u16::try_from(a.engine_mask)
        .ok()
        .filter(|m| *m != 0)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--engine-mask {:#x}: must be a non-zero 16-bit mask",
                a.engine_mask
            )
        })?;
    let chip_id = u8::try_from(a.chip_id)
        .ok()
        .filter(|c| *c < 64)
        .ok_or_else(|| anyhow::anyhow!("--chip-id {:#x}: CAYMAN_ID is 6 bits", a.chip_id))?;
    Ok((bytes, engine_mask, chip_id))
}

/// Stage 2: the topology (seed 001 §8's, cross-chip or same-die variant), the
/// two cores of the leg and the system with its doorbell style and tracing.
fn build_system(a: &LegArgs, bytes: u64, chip_id: u8) -> Result<(System, CoreId, CoreId, Mode)> {
    // The seed's offsets (0x100000 + 16 KiB) exceed a 224 KiB trn2 partition
    // (its numbers are illustrative): the partition is sized to fit them.
    let need = (a.src_offset.max(a.dst_offset) + bytes).next_multiple_of(64 * 1024);
    let mut topo = if a.cross_chip {
        Topology {
            chip_ids: vec![0, chip_id],
            ..Topology::trn2(2)
        }
    } else {
        Topology::seed_001_s8()
    };
    topo.sbuf_bytes_per_partition = topo
        .sbuf_bytes_per_partition
        .max(u32::try_from(need).context("offsets too large")?);
    let src = CoreId(3);
    let dst = if a.same_die {
        CoreId(2)
    } else if a.cross_chip {
        CoreId(15)
    } else {
        topo.d2d_peer(src)?
    };
    let mode = match a.mode {
        LegMode::Fast => Mode::Fast,
        LegMode::Cycle => Mode::Cycle,
        LegMode::Rtl => anyhow::bail!("rtl mode runs on the Verilated pair (run_rtl)"),
    };
    let mut sys = System::new(topo)?;
    sys.st.trace_on = a.vcd.is_some();
    sys.st.log_triggers = true;
    if a.per_engine_doorbells {
        sys.st.doorbells = sb2sb_model::system::Doorbells::PerEngine;
    }
    Ok((sys, src, dst, mode))
}

/// Stage 3: random source bytes and a different, non-zero destination
/// background per partition; returns the expected destination bytes.
fn load_sbufs(
    sys: &mut System,
    a: &LegArgs,
    src: CoreId,
    dst: CoreId,
    bytes: u64,
) -> Result<Vec<Vec<u8>>> {
    let mut rng = StimRng::new(a.seed);
    let mut src_data = vec![0u8; bytes as usize];
    let mut old = vec![0u8; bytes as usize];
    let mut expect = Vec::with_capacity(a.partitions as usize);
    for p in 0..a.partitions {
        rng.fill(&mut src_data);
        rng.fill(&mut old);
        sys.write_sbuf(src, p, a.src_offset, &src_data)?;
        sys.write_sbuf(dst, p, a.dst_offset, &old)?;
        expect.push(src_data.clone());
    }
    Ok(expect)
}

/// What [`verify`] found.
struct Verdict {
    mismatched: u64,
    first_bad: Option<(u8, u64)>,
    local: i32,
    remote: i32,
    remote_after_wait: i32,
    pass: bool,
}

/// Stage 4: the destination bytes against the source, both semaphores at the
/// engine count, then the next step's wait-≥-engines-and-decrement (seed 001 §5.2).
fn verify(
    sys: &mut System,
    a: &LegArgs,
    leg: &SystemLeg,
    expect: &[Vec<u8>],
    engines: u64,
    mode: Mode,
) -> Result<Verdict> {
    let (src, dst) = (leg.src, leg.dst);
    let mut mismatched: u64 = 0;
    let mut first_bad: Option<(u8, u64)> = None;
    for (p, want) in expect.iter().enumerate() {
        let got = sys.st.read_sbuf(dst, p as u8, a.dst_offset, want.len())?;
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            if g != w {
                mismatched += 1;
                first_bad.get_or_insert((p as u8, k as u64));
            }
        }
    }
    let local = sys.st.sem(src, a.local_sem)?;
    let remote = sys.st.sem(dst, a.remote_sem)?;
    sys.wait_sem(dst, a.remote_sem, engines as i32, mode)?;
    let remote_after_wait = sys.st.sem(dst, a.remote_sem)?;
    let sems_ok = i64::from(local) == engines as i64
        && i64::from(remote) == engines as i64
        && remote_after_wait == 0;
    Ok(Verdict {
        mismatched,
        first_bad,
        local,
        remote,
        remote_after_wait,
        pass: mismatched == 0 && sems_ok,
    })
}

/// Everything the report prints.
struct Outcome<'a> {
    a: &'a LegArgs,
    sys: &'a System,
    leg: &'a SystemLeg,
    gen_tx: &'a sb2sb_model::isa::RdmaDescGen,
    rep: &'a sb2sb_model::system::LegReport,
    v: &'a Verdict,
    bytes: u64,
    engines: u64,
    host_us: f64,
}

impl Outcome<'_> {
    /// The firmware's post-fold DEBUG log (seed 001 §2.3, DRAM 0x497b): "$" is literal, %d decimal.
    fn fw_log(&self) -> String {
        format!(
            "after remote_routing_id=${}, dst_addr={:#x}",
            self.rep.routing_id, self.rep.dst_soc
        )
    }
    fn moved(&self) -> u64 {
        self.bytes * u64::from(self.a.partitions)
    }
}

/// Stage 5a: one JSON object.
fn report_json(o: &Outcome) -> Result<()> {
    let (a, rep, v) = (o.a, o.rep, o.v);
    let (src, dst, engines) = (o.leg.src, o.leg.dst, o.engines);
    let j = json!({
        "mode": format!("{:?}", a.mode).to_lowercase(),
        "src_core": src.0, "dst_core": dst.0,
        "dst_soc": rep.dst_soc, "dst_soc_hex": format!("{:#x}", rep.dst_soc),
        "remote_core_id": o.gen_tx.remote_core_id, "remote_routing_id": o.gen_tx.remote_routing_id,
        "gen_word_hex": super::isa::hex_word(&o.gen_tx.encode()), "log": o.fw_log(),
        "classifier": rep.classifier,
        "pre_sync": rep.pre_sync.map(|p| p.log()),
        "doorbells": o.sys.st.doorbells,
        "triggers": o.sys.st.triggers.iter().map(|t| t.log()).collect::<Vec<_>>(),
        "fold": rep.fold, "link": rep.link,
        "engine_mask": o.leg.engine_mask, "engines": engines,
        "descriptors_per_engine": rep.per_engine, "descriptors": rep.descriptors,
        "bytes": o.moved(), "bytes_per_partition": o.bytes, "partitions": a.partitions,
        "verified": v.mismatched == 0, "mismatched_bytes": v.mismatched,
        "local_sem": {"core": src.0, "index": a.local_sem, "value": v.local, "expected": engines},
        "remote_sem": {"core": dst.0, "index": a.remote_sem, "value": v.remote, "expected": engines,
                        "after_wait_ge_and_dec": v.remote_after_wait},
        "modeled_ns": rep.modeled_ps as f64 / 1e3, "modeled_us": rep.modeled_ps as f64 / 1e6,
        "host_us": o.host_us, "cycles": rep.cycles, "clock_mhz": sb2sb_model::clock::CORE_CLK_MHZ,
        "pass": v.pass,
    });
    println!("{}", serde_json::to_string_pretty(&j)?);
    Ok(())
}

/// Stage 5b: the human-readable report.
fn report_text(o: &Outcome) {
    let (a, rep, v) = (o.a, o.rep, o.v);
    let (src, dst, engines, moved) = (o.leg.src, o.leg.dst, o.engines, o.moved());
    let modeled_us = rep.modeled_ps as f64 / 1e6;
    println!(
        "leg: core {} -> core {} ({:?} mode), {} partitions x {} B = {} B, engines {:#06x} ({} engines), queue {}",
        src.0, dst.0, a.mode, a.partitions, o.bytes, moved, o.leg.engine_mask, engines, a.queue
    );
    println!(
        "  gen word (TX)    remote_core_id={} remote_routing_id={:#x}: {}",
        o.gen_tx.remote_core_id,
        o.gen_tx.remote_routing_id,
        super::isa::hex_word(&o.gen_tx.encode())
    );
    println!("  rdma_desc_gen    {}", rep.classifier);
    if let Some(p) = &rep.pre_sync {
        println!("  pre-sync (RX)    {}", p.log());
    }
    println!("  rdma_desc_gen    {}", o.fw_log());
    for t in &o.sys.st.triggers {
        println!("  rdma_desc_start  core {}: {}", t.from, t.log());
    }
    println!(
        "  dst_soc          {:#x}  ({:?} fold, {:?} link)",
        rep.dst_soc, rep.fold, rep.link
    );
    println!(
        "  descriptors      {} per side; per engine {:?}",
        rep.descriptors, rep.per_engine
    );
    println!(
        "  local_sem  {:>3}  core {}: {} (expected {} = engines)",
        a.local_sem, src.0, v.local, engines
    );
    println!(
        "  remote_sem {:>3}  core {}: {} (expected {}); after wait>={} and decrement: {}",
        a.remote_sem, dst.0, v.remote, engines, engines, v.remote_after_wait
    );
    match v.first_bad {
        None => println!("  verify           {moved} bytes equal, byte by byte"),
        Some((p, k)) => println!(
            "  verify           {} bytes differ; first at partition {p} byte {k}",
            v.mismatched
        ),
    }
    println!(
        "  time             modeled {modeled_us:.3} us ({:.2} GB/s), host {:.1} us{}",
        moved as f64 / (modeled_us * 1e3),
        o.host_us,
        if rep.cycles > 0 {
            format!(
                ", {} cycles at {} MHz",
                rep.cycles,
                sb2sb_model::clock::CORE_CLK_MHZ
            )
        } else {
            String::new()
        }
    );
    if let Some(p) = &a.vcd {
        println!(
            "  trace            {} ({} events)",
            p.display(),
            o.sys.st.trace.len()
        );
    }
    println!("result: {}", if v.pass { "PASS" } else { "FAIL" });
}

/// Trace signal ids: per (core, engine, queue) the M2S/S2M tails, the
/// M2S/S2M heads and the bytes moved; per (core, semaphore) its value.
struct TraceIds {
    queues: std::collections::BTreeMap<(u16, u8, u8), [vcd::IdCode; 5]>,
    sems: std::collections::BTreeMap<(u16, u8), vcd::IdCode>,
}

/// Modeled time of a trace event (ps).
fn trace_time(e: &TraceEvent) -> u64 {
    match e {
        TraceEvent::Doorbell { t, .. } | TraceEvent::Desc { t, .. } | TraceEvent::Sem { t, .. } => {
            *t
        }
    }
}

/// Transaction-level VCD: per (core, engine, queue) the M2S/S2M tails rung
/// and the heads after each descriptor; per core the semaphores that changed.
/// Time unit: 1 ps of modeled time.
fn write_trace(path: &PathBuf, events: &[TraceEvent]) -> Result<()> {
    let mut ev: Vec<&TraceEvent> = events.iter().collect();
    ev.sort_by_key(|e| trace_time(e));
    let mut w = vcd::Writer::new(BufWriter::new(File::create(path)?));
    let ids = declare_trace(&mut w, &ev)?;
    write_trace_changes(&mut w, &ev, &ids)?;
    use std::io::Write;
    w.writer().flush()?;
    Ok(())
}

/// The VCD header: scope `system`, one scope per core with a signal set per
/// (engine, queue) and a signal per semaphore that any event names.
fn declare_trace<W: std::io::Write>(
    w: &mut vcd::Writer<W>,
    ev: &[&TraceEvent],
) -> Result<TraceIds> {
    use std::collections::BTreeSet;
    w.timescale(1, vcd::TimescaleUnit::PS)?;
    w.add_module("system")?;
    let mut queues: BTreeSet<(u16, u8, u8)> = BTreeSet::new();
    let mut sems: BTreeSet<(u16, u8)> = BTreeSet::new();
    for e in ev {
        match e {
            TraceEvent::Doorbell {
                core,
                engine,
                queue,
                ..
            }
            | TraceEvent::Desc {
                core,
                engine,
                queue,
                ..
            } => {
                queues.insert((*core, *engine, *queue));
            }
            TraceEvent::Sem { core, sem, .. } => {
                sems.insert((*core, *sem));
            }
        }
    }
    let cores: BTreeSet<u16> = queues
        .iter()
        .map(|k| k.0)
        .chain(sems.iter().map(|k| k.0))
        .collect();
    let mut ids = TraceIds {
        queues: Default::default(),
        sems: Default::default(),
    };
    for &c in &cores {
        w.add_module(&format!("core{c}"))?;
        for &(qc, e, q) in queues.range((c, 0, 0)..=(c, u8::MAX, u8::MAX)) {
            let p = format!("e{e}_q{q}");
            ids.queues.insert(
                (qc, e, q),
                [
                    w.add_wire(32, &format!("{p}_m2s_tail"))?,
                    w.add_wire(32, &format!("{p}_s2m_tail"))?,
                    w.add_wire(32, &format!("{p}_m2s_head"))?,
                    w.add_wire(32, &format!("{p}_s2m_head"))?,
                    w.add_wire(32, &format!("{p}_bytes"))?,
                ],
            );
        }
        for &(sc, s) in sems.range((c, 0)..=(c, u8::MAX)) {
            ids.sems
                .insert((sc, s), w.add_wire(32, &format!("sem{s}"))?);
        }
        w.upscope()?;
    }
    w.upscope()?;
    w.enddefinitions()?;
    Ok(ids)
}

/// The VCD body: a timestamp per distinct event time, then the tails, heads,
/// bytes moved (accumulated per queue) and semaphore values the events carry.
fn write_trace_changes<W: std::io::Write>(
    w: &mut vcd::Writer<W>,
    ev: &[&TraceEvent],
    ids: &TraceIds,
) -> Result<()> {
    use std::collections::BTreeMap;
    let bits = |v: u32| {
        (0..32).rev().map(move |b| {
            if (v >> b) & 1 == 1 {
                vcd::Value::V1
            } else {
                vcd::Value::V0
            }
        })
    };
    let mut bytes_acc: BTreeMap<(u16, u8, u8), u32> = BTreeMap::new();
    let mut last_t = None;
    for &e in ev {
        let t = trace_time(e);
        if last_t != Some(t) {
            w.timestamp(t)?;
            last_t = Some(t);
        }
        match e {
            TraceEvent::Doorbell {
                core,
                engine,
                queue,
                side,
                tail,
                ..
            } => {
                let q = ids.queues[&(*core, *engine, *queue)];
                w.change_vector(q[usize::from(*side & 1)], bits(*tail))?;
            }
            TraceEvent::Desc {
                core,
                engine,
                queue,
                m2s_head,
                s2m_head,
                bytes,
                ..
            } => {
                let q = ids.queues[&(*core, *engine, *queue)];
                let acc = bytes_acc.entry((*core, *engine, *queue)).or_default();
                *acc = acc.wrapping_add(*bytes);
                w.change_vector(q[2], bits(*m2s_head))?;
                w.change_vector(q[3], bits(*s2m_head))?;
                w.change_vector(q[4], bits(*acc))?;
            }
            TraceEvent::Sem {
                core, sem, value, ..
            } => {
                w.change_vector(ids.sems[&(*core, *sem)], bits(*value as u32))?;
            }
        }
    }
    Ok(())
}

/// `--mode rtl`: the leg on the Verilated pair, then the same leg (same
/// source bytes, same destination background) in fast mode; bytes and the two
/// semaphores must agree.
use crate::rtl::{RtlDut, XInit};
use sb2sb_model::pair::stim::{soc_route, LegSpec as PairLeg};
use sb2sb_model::pair::{
    seed16_params, seed_params, top, CoreParams, LegEnv, PairIn, PairOut, BLOCK_SEED, BLOCK_SEED16,
};
use sb2sb_model::ports::BlockDesc;
use sb2sb_model::ports::Stimulus;

/// The checked arguments of an rtl-mode leg.
struct RtlPlan {
    /// Bytes per partition.
    bytes: u64,
    /// SBUF window of the Verilated pair per partition: size and first byte.
    win: u32,
    lo: u64,
    /// Placement strap of the pair (`top::PLACE_*`).
    place: u64,
    leg: PairLeg,
    /// Parameters of the Verilated pair and its block (`BLOCK_SEED`, or
    /// `BLOCK_SEED16` for a mask beyond 4 engines).
    params: CoreParams,
    block: &'static BlockDesc,
}

/// A finished run of the Verilated pair.
struct PairRun {
    env: LegEnv,
    cycles: u64,
    done_at: Option<u64>,
    /// Host time of the cycles (the Verilated pair and the environment).
    host_us: f64,
    /// Host time of the backdoor's preload and read-back (0 with the debug port).
    load_us: f64,
    read_us: f64,
    /// The VCD and .gtkw written (`--vcd`).
    waves: Option<(PathBuf, PathBuf)>,
}

/// The same leg in fast mode, from the same initial SBUF images.
struct FastRef {
    sys: System,
    src: CoreId,
    dst: CoreId,
    dst_soc: u64,
}

/// `sb2sb run sendrecv --mode rtl`: plan, run the Verilated pair, run the same
/// leg in fast mode, compare and report.
fn run_rtl(a: LegArgs) -> Result<i32> {
    let t0 = Instant::now();
    small_pages();
    let plan = rtl_plan(&a)?;
    let run = run_pair(&a, &plan)?;
    let t_fast = Instant::now();
    let fast = fast_reference(&a, &plan)?;
    let fast_us = t_fast.elapsed().as_secs_f64() * 1e6;
    report_rtl(&a, &plan, &run, fast, HostTimes { fast_us, t0 })
}

/// Transparent huge pages off for this process (Linux `PR_SET_THP_DISABLE`;
/// elsewhere, or if refused, nothing changes). The fast-mode reference
/// touches 16 KiB of each 1.06 MiB SBUF partition (the seed's offset
/// 0x100000), and its huge-page advised SBUF (`datapath::ZeroedBuf`) then
/// zeroes a 2 MiB page per touched partition: 0.2–0.4 s of kernel time for
/// the seed's leg, against 0.05 s with small pages (docs/performance.md).
fn small_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: a process attribute; no memory is passed to the kernel.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Host time of the parts of an rtl-mode run that are not the pair's cycles.
struct HostTimes {
    /// The fast-mode reference leg (its system built and loaded, the leg run).
    fast_us: f64,
    /// Start of the run (the total is taken when the report is made).
    t0: Instant,
}

/// Checks the arguments against the Verilated pair and builds its leg.
fn rtl_plan(a: &LegArgs) -> Result<RtlPlan> {
    let (params, block) = if a.engine_mask > (1 << seed_params().engines) - 1 {
        (seed16_params(), &BLOCK_SEED16)
    } else {
        (seed_params(), &BLOCK_SEED)
    };
    let (win, base) = (params.sbuf_part_bytes, params.sbuf_win_base);
    let bytes = parse_size(&a.bytes).map_err(|e| anyhow::anyhow!("--bytes: {e}"))?;
    let (lo, hi) = (u64::from(base), u64::from(base + win));
    for (what, off) in [("src-offset", a.src_offset), ("dst-offset", a.dst_offset)] {
        anyhow::ensure!(
            bytes >= 1 && off >= lo && off + bytes <= hi,
            "--{what} {off:#x} --bytes {bytes}: the Verilated pair stores SBUF bytes \
             {lo:#x}..{hi:#x} of each partition (docs/pair.md)"
        );
    }
    anyhow::ensure!(
        a.src_offset.is_multiple_of(8),
        "--src-offset {:#x}: must be 8-byte aligned in rtl mode",
        a.src_offset
    );
    anyhow::ensure!(
        (1..=128).contains(&a.partitions),
        "--partitions {}: must be 1..=128",
        a.partitions
    );
    let all = (1u64 << params.engines) - 1;
    anyhow::ensure!(
        a.engine_mask != 0 && a.engine_mask <= all,
        "--engine-mask {:#x}: the pair has {} engines per core (mask within {all:#06x})",
        a.engine_mask,
        params.engines
    );
    anyhow::ensure!(a.queue == 0, "--queue {}: rtl mode uses queue 0", a.queue);
    if let Some(p) = a.inject_backdoor_fault {
        anyhow::ensure!(
            a.preload == Preload::Backdoor && p < a.partitions,
            "--inject-backdoor-fault {p}: needs --preload backdoor and a partition below \
             --partitions {}",
            a.partitions
        );
    }
    let place = if a.same_die {
        top::PLACE_SAME_DIE
    } else if a.cross_chip {
        anyhow::ensure!(
            a.chip_id == top::PKG_B_CHIP,
            "--chip-id {:#x}: the pair's other-package strap gives core B CAYMAN_ID {:#x}",
            a.chip_id,
            top::PKG_B_CHIP
        );
        top::PLACE_OTHER_PKG
    } else {
        top::PLACE_OTHER_DIE
    };
    let leg = PairLeg {
        tx: 0,
        mask: a.engine_mask as u16,
        part_start: 0,
        part_count: a.partitions,
        bytes: bytes as u32,
        src_off: a.src_offset as u32,
        dst_off: a.dst_offset as u32,
        local_sem: a.local_sem,
        remote_sem: a.remote_sem,
        tx_first: false,
        ring_err: None,
        stall: None,
        bcast: !a.per_engine_doorbells,
    };
    Ok(RtlPlan {
        bytes,
        win,
        lo,
        place,
        leg,
        params,
        block,
    })
}

/// Runs the leg on the Verilated pair (with `--vcd`, traced): the SBUFs
/// loaded ([`Preload`]), the leg to its completion, a drain in which the
/// semaphore debug port passes every semaphore (and, without the backdoor,
/// the debug memory port scans the leg's words once more), then the SBUFs
/// read.
fn run_pair(a: &LegArgs, plan: &RtlPlan) -> Result<PairRun> {
    let (place, leg) = (plan.place, plan.leg);
    let moved = plan.bytes * u64::from(leg.part_count);
    let mut env = LegEnv::single_with(plan.params, a.seed, u64::MAX, place, leg);
    if a.preload == Preload::Backdoor {
        env = env.with_backdoor();
    }
    // preload and one scan of the leg's words, and at least 1/16 byte a cycle
    let max_cycles = 2 * env.scan_words() as u64 + 16 * moved + 1_000_000;
    let mut dut: RtlDut<PairIn, PairOut> = RtlDut::new(plan.block, a.seed, XInit::Random)
        .with_context(|| {
            format!(
                "block {} (a mask beyond 0x000F needs the 16-engine pair: build with \
                 SB2SB_BLOCKS=all,{})",
                plan.block.name, BLOCK_SEED16.name
            )
        })?;
    let t_load = Instant::now();
    let bd = match a.preload {
        Preload::Backdoor => Some(backdoor_preload(a, plan, &env, &mut dut)?),
        Preload::DebugPort => None,
    };
    let load_us = t_load.elapsed().as_secs_f64() * 1e6;
    // `--vcd DIR` (an existing directory or a path ending in `/`): DIR/leg_rtl.vcd
    // and DIR/leg_rtl.gtkw; `--vcd FILE`: FILE and FILE with extension .gtkw.
    let waves = a.vcd.as_ref().map(|p| {
        if p.is_dir() || p.to_string_lossy().ends_with('/') {
            (p.join("leg_rtl.vcd"), p.join("leg_rtl.gtkw"))
        } else {
            (p.clone(), p.with_extension("gtkw"))
        }
    });
    if let Some((vcd, _)) = &waves {
        if let Some(d) = vcd.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(d)?;
        }
        // the Verilator trace of the whole pair hierarchy
        dut.open_trace(vcd)?;
    }
    let t0 = Instant::now();
    let progress = Progress::new(a.json);
    let mut prev: Option<PairOut> = None;
    let mut cycles = 0u64;
    let mut done_at = None;
    // after the leg: every semaphore through the rotating semaphore debug
    // port (256 cycles), and one full scan of the leg's words without the backdoor
    let drain = env.scan_words() as u64 + 300;
    for c in 0..max_cycles {
        let i = env.next(c, prev.as_ref());
        prev = Some(sb2sb_model::ports::CycleModel::step(&mut dut, &i));
        cycles = c + 1;
        if done_at.is_none() && env.legs_complete() {
            done_at = Some(c);
        }
        if done_at.is_some_and(|d| c > d + drain) {
            break;
        }
        if c % 4096 == 0 {
            progress.at(c, &env, done_at, t0);
        }
    }
    progress.finish();
    dut.close_trace();
    let host_us = t0.elapsed().as_secs_f64() * 1e6;
    let t_read = Instant::now();
    if let Some(bd) = &bd {
        for c in 0..2 {
            let img = bd.read_sbuf(&dut, c)?;
            env.observe_image(c, &img);
        }
    }
    let read_us = t_read.elapsed().as_secs_f64() * 1e6;
    if let Some((vcd, gtkw)) = &waves {
        crate::waves::pair_gtkw(
            vcd,
            gtkw,
            leg.mask,
            "sb2sb run sendrecv --mode rtl: the whole leg, grouped per core",
        )?;
    }
    anyhow::ensure!(
        done_at.is_some(),
        "the leg did not complete in {max_cycles} cycles"
    );
    if let Some(f) = env.failure() {
        anyhow::bail!("environment check failed: {f}");
    }
    Ok(PairRun {
        env,
        cycles,
        done_at,
        host_us,
        load_us,
        read_us,
        waves,
    })
}

/// Loads both SBUFs through the backdoor as the debug port's preload would
/// (the environment's words of the leg over the model's initial contents,
/// the descriptor RAMs cleared), with `--inject-backdoor-fault`'s bit flipped.
fn backdoor_preload(
    a: &LegArgs,
    plan: &RtlPlan,
    env: &LegEnv,
    dut: &mut RtlDut<PairIn, PairOut>,
) -> Result<backdoor::PairBackdoor> {
    let bd = backdoor::PairBackdoor::new(dut, plan.block.name, &plan.params)?;
    for c in 0..2 {
        let mut img = bd.read_sbuf(dut, c)?;
        env.preload_image(c, &mut img);
        if let (0, Some(p)) = (c, a.inject_backdoor_fault) {
            let pw = (plan.params.sbuf_part_bytes / 8) as usize;
            let k = usize::from(p) * pw + ((a.src_offset - plan.lo) / 8) as usize;
            img[k] ^= 1;
        }
        bd.write_sbuf(dut, c, &img)?;
        bd.clear_desc(dut, c, env.desc_ram_words())?;
    }
    Ok(bd)
}

/// Progress of a long rtl-mode run on stderr (cycles, rate, phase), shown
/// once the run has taken more than [`Progress::AFTER`] and not with `--json`.
struct Progress {
    bar: indicatif::ProgressBar,
    quiet: bool,
}

impl Progress {
    const AFTER: std::time::Duration = std::time::Duration::from_secs(2);

    fn new(json: bool) -> Self {
        let bar = indicatif::ProgressBar::hidden();
        if let Ok(st) =
            indicatif::ProgressStyle::with_template("{spinner} {elapsed} {pos} cycles {msg}")
        {
            bar.set_style(st);
        }
        Self { bar, quiet: json }
    }

    fn at(&self, c: u64, env: &LegEnv, done_at: Option<u64>, t0: Instant) {
        if self.quiet {
            return;
        }
        if self.bar.is_hidden() && t0.elapsed() > Self::AFTER {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        let m = env.marks();
        let phase = match (m.leg_start, m.tx_doorbell, done_at) {
            (None, _, _) => "reset, preload, queue set-up",
            (Some(_), None, _) => "ring set-up",
            (Some(_), Some(_), None) => "data phase",
            (_, _, Some(_)) => "drain",
        };
        let rate = c as f64 / t0.elapsed().as_secs_f64().max(1e-9);
        self.bar
            .set_message(format!("({rate:.0} cycles/s) {phase}"));
        self.bar.set_position(c);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The same leg in fast mode on a system whose SBUFs hold the pair's initial images.
fn fast_reference(a: &LegArgs, plan: &RtlPlan) -> Result<FastRef> {
    let (bytes, win, lo, leg) = (plan.bytes, plan.win, plan.lo, plan.leg);
    let a0 = LegEnv::initial_sbuf_with(plan.params, a.seed, 0);
    let b0 = LegEnv::initial_sbuf_with(plan.params, a.seed, 1);
    let need = (a.dst_offset.max(a.src_offset) + bytes).next_multiple_of(64 * 1024);
    let mut topo = if a.cross_chip {
        Topology {
            chip_ids: vec![0, top::PKG_B_CHIP as u8],
            ..Topology::trn2(2)
        }
    } else {
        Topology::trn2(1)
    };
    topo.sbuf_bytes_per_partition = topo.sbuf_bytes_per_partition.max(need as u32);
    let (src, dst) = if a.same_die {
        (CoreId(1), CoreId(2))
    } else if a.cross_chip {
        (CoreId(1), CoreId(13))
    } else {
        (CoreId(1), CoreId(7))
    };
    let mut sys = System::new(topo)?;
    let off = |p: u8, o: u64| usize::from(p) * win as usize + (o - lo) as usize;
    for p in 0..a.partitions {
        let s = off(p, a.src_offset);
        let d = off(p, a.dst_offset);
        sys.write_sbuf(src, p, a.src_offset, &a0[s..s + bytes as usize])?;
        sys.write_sbuf(dst, p, a.dst_offset, &b0[d..d + bytes as usize])?;
    }
    let spec = SystemLeg {
        engine_mask: leg.mask,
        queue: 0,
        local_sem: a.local_sem,
        remote_sem: a.remote_sem,
        ..SystemLeg::new(
            src,
            a.src_offset,
            dst,
            a.dst_offset,
            bytes as u32,
            a.partitions,
        )
    };
    let fast = sys.send_recv(&spec, Mode::Fast)?;
    Ok(FastRef {
        sys,
        src,
        dst,
        dst_soc: fast.dst_soc,
    })
}

/// What the comparison of the pair's end state with fast mode's found.
struct RtlVerdict {
    /// Core B's destination bytes and core A's source bytes that differ.
    mismatched: u64,
    src_mismatched: u64,
    /// local_sem on core A and remote_sem on core B: the pair's, fast mode's.
    local: i32,
    remote: i32,
    f_local: i32,
    f_remote: i32,
    engines: u64,
    pass: bool,
}

/// Compares core B's destination bytes, core A's source bytes and both
/// semaphores of the pair with fast mode's system after the same leg.
fn compare_rtl(a: &LegArgs, plan: &RtlPlan, env: &LegEnv, fast: &FastRef) -> Result<RtlVerdict> {
    let (bytes, win, lo, leg) = (plan.bytes, plan.win, plan.lo, plan.leg);
    let (sys, src, dst) = (&fast.sys, fast.src, fast.dst);
    let off = |p: u8, o: u64| usize::from(p) * win as usize + (o - lo) as usize;
    let engines = u64::from(
        sb2sb_model::system::legs::split_partitions(leg.mask, 0, leg.part_count).len() as u32,
    );
    let (rtl_a, rtl_b) = (env.observed_sbuf(0), env.observed_sbuf(1));
    let mut mismatched = 0u64;
    let mut src_mismatched = 0u64;
    for p in 0..a.partitions {
        let d = off(p, a.dst_offset);
        let want = sys.st.read_sbuf(dst, p, a.dst_offset, bytes as usize)?;
        mismatched += want
            .iter()
            .zip(&rtl_b[d..d + bytes as usize])
            .filter(|(x, y)| x != y)
            .count() as u64;
        let s0 = off(p, a.src_offset);
        let want = sys.st.read_sbuf(src, p, a.src_offset, bytes as usize)?;
        src_mismatched += want
            .iter()
            .zip(&rtl_a[s0..s0 + bytes as usize])
            .filter(|(x, y)| x != y)
            .count() as u64;
    }
    let sems_a = env.observed_sems(0);
    let sems_b = env.observed_sems(1);
    let (local, remote) = (
        sems_a[usize::from(a.local_sem)],
        sems_b[usize::from(a.remote_sem)],
    );
    let (f_local, f_remote) = (
        sys.st.sem(src, a.local_sem)?,
        sys.st.sem(dst, a.remote_sem)?,
    );
    let pass = mismatched == 0
        && src_mismatched == 0
        && local == f_local
        && remote == f_remote
        && i64::from(local) == engines as i64
        && i64::from(remote) == engines as i64;
    Ok(RtlVerdict {
        mismatched,
        src_mismatched,
        local,
        remote,
        f_local,
        f_remote,
        engines,
        pass,
    })
}

impl HostTimes {
    /// The host-time split of the run (`host` of the JSON report).
    fn json(&self, a: &LegArgs, run: &PairRun, total_us: f64) -> serde_json::Value {
        json!({
            "preload": a.preload,
            "pair_cycles": run.cycles,
            "pair_us": run.host_us,
            "pair_cycles_per_s": run.cycles as f64 / (run.host_us / 1e6),
            "backdoor_load_us": run.load_us,
            "backdoor_read_us": run.read_us,
            "fast_reference_us": self.fast_us,
            "total_us": total_us,
        })
    }

    /// The host-time line of the text report.
    fn print(&self, a: &LegArgs, run: &PairRun, total_us: f64) {
        println!(
            "  host             {:.2} s: pair {:.2} s for {} cycles ({:.0} cycles/s), SBUFs through the {} {:.3} s, fast-mode reference {:.2} s",
            total_us / 1e6,
            run.host_us / 1e6,
            run.cycles,
            run.cycles as f64 / (run.host_us / 1e6),
            match a.preload {
                Preload::Backdoor => "backdoor",
                Preload::DebugPort => "debug port (in the pair's cycles)",
            },
            (run.load_us + run.read_us) / 1e6,
            self.fast_us / 1e6
        );
    }
}

/// Compares the pair's end state with fast mode ([`compare_rtl`]) and prints the result.
fn report_rtl(
    a: &LegArgs,
    plan: &RtlPlan,
    run: &PairRun,
    fast: FastRef,
    host: HostTimes,
) -> Result<i32> {
    let (bytes, place, leg) = (plan.bytes, plan.place, plan.leg);
    let (env, cycles, done_at, host_us, waves) =
        (&run.env, run.cycles, run.done_at, run.host_us, &run.waves);
    let (sa, sb) = top::straps(place);
    let dst_soc = soc_route(place, sa, sb, u64::from(leg.dst_off));
    let v = compare_rtl(a, plan, env, &fast)?;
    let RtlVerdict {
        mismatched,
        src_mismatched,
        local,
        remote,
        f_local,
        f_remote,
        engines,
        pass,
    } = v;
    let (src, dst, fast_dst_soc) = (fast.src, fast.dst, fast.dst_soc);
    let moved = bytes * u64::from(a.partitions);
    let run_cycles = done_at.unwrap_or(cycles) + 1;
    let bus = BusUse::of(env, moved, engines);
    let total_us = host.t0.elapsed().as_secs_f64() * 1e6;
    if a.json {
        let v = json!({
            "mode": "rtl",
            "placement": place,
            "dst_soc": dst_soc, "dst_soc_hex": format!("{dst_soc:#x}"),
            "fast_dst_soc_hex": format!("{fast_dst_soc:#x}"),
            "engine_mask": leg.mask, "engines": engines,
            "bytes": moved, "bytes_per_partition": bytes, "partitions": a.partitions,
            "verified_against_fast": mismatched == 0 && src_mismatched == 0,
            "mismatched_bytes": mismatched, "src_mismatched_bytes": src_mismatched,
            "local_sem": {"index": a.local_sem, "value": local, "fast": f_local, "expected": engines},
            "remote_sem": {"index": a.remote_sem, "value": remote, "fast": f_remote, "expected": engines},
            "cycles": run_cycles, "modeled_ns": sb2sb_model::clock::cycles_to_ns(run_cycles),
            "clock_mhz": sb2sb_model::clock::CORE_CLK_MHZ, "host_us": host_us, "pass": pass,
            "host": host.json(a, run, total_us),
            "sbuf_part_bytes": plan.params.sbuf_part_bytes,
            "bus": bus.json(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "leg: core A -> core B of the Verilated pair (rtl mode, placement {place}), {} partitions x {bytes} B = {moved} B, engines {:#06x} ({engines} engines), queue 0",
            a.partitions, leg.mask
        );
        println!(
            "  dst_soc          {dst_soc:#x}  (fast mode core {} -> {}: {:#x})",
            src.0, dst.0, fast_dst_soc
        );
        println!(
            "  local_sem  {:>3}  core A: {local} (fast {f_local}, expected {engines} = engines)",
            a.local_sem
        );
        println!(
            "  remote_sem {:>3}  core B: {remote} (fast {f_remote}, expected {engines})",
            a.remote_sem
        );
        if mismatched == 0 && src_mismatched == 0 {
            println!(
                "  verify           {moved} bytes equal to fast mode, byte by byte (and core A's source bytes unchanged)"
            );
        } else {
            println!(
                "  verify           {mismatched} destination bytes and {src_mismatched} source bytes differ from fast mode"
            );
        }
        println!(
            "  time             modeled {:.3} us = {run_cycles} cycles at {} MHz, host {host_us:.1} us{}",
            sb2sb_model::clock::cycles_to_ns(run_cycles) / 1e3,
            sb2sb_model::clock::CORE_CLK_MHZ,
            waves
                .as_ref()
                .map(|(v, g)| format!(", waves {} (gtkwave {})", v.display(), g.display()))
                .unwrap_or_default()
        );
        bus.print();
        host.print(a, run, total_us);
        println!("result: {}", if pass { "PASS" } else { "FAIL" });
    }
    Ok(if pass { 0 } else { 1 })
}

/// Bus utilisation of the leg on the Verilated pair: bytes moved per cycle
/// over the engines' peak (engines × data width in bytes), from the TX
/// doorbell to the last remote-semaphore increment; the ring set-up (leg
/// start to TX doorbell) is reported separately.
struct BusUse {
    setup: Option<u64>,
    data: Option<u64>,
    moved: u64,
    engines: u64,
}

impl BusUse {
    fn of(env: &LegEnv, moved: u64, engines: u64) -> Self {
        let m = env.marks();
        Self {
            setup: m.leg_start.zip(m.tx_doorbell).map(|(s, d)| d - s),
            data: m.tx_doorbell.zip(m.sem_reached).map(|(d, r)| r - d),
            moved,
            engines,
        }
    }

    /// Utilisation against engines of `beat` bytes per cycle.
    fn util(&self, beat: u32) -> Option<f64> {
        self.data
            .map(|c| self.moved as f64 / c as f64 / (self.engines * u64::from(beat)) as f64)
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "setup_cycles": self.setup,
            "data_cycles": self.data,
            "data_ns": self.data.map(sb2sb_model::clock::cycles_to_ns),
            "bytes_per_cycle": self.data.map(|c| self.moved as f64 / c as f64),
            "beat_bytes": sb2sb_model::clock::ENGINE_BEAT_BYTES,
            "utilisation": self.util(sb2sb_model::clock::ENGINE_BEAT_BYTES),
        })
    }

    fn print(&self) {
        let (Some(setup), Some(data)) = (self.setup, self.data) else {
            println!("  bus              (the leg's milestones were not all seen)");
            return;
        };
        let cb = sb2sb_model::clock::ENGINE_BEAT_BYTES;
        println!(
            "  bus              ring set-up {setup} cycles; TX doorbell -> last remote_sem increment {data} cycles ({:.1} ns), {:.2} B/cycle",
            sb2sb_model::clock::cycles_to_ns(data),
            self.moved as f64 / data as f64
        );
        println!(
            "  utilisation      {:.3} of {} engines x {cb} B/cycle (clock::ENGINE_DATA_BITS)",
            self.util(cb).unwrap_or(0.0),
            self.engines
        );
    }
}
