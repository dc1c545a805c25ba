//! Run a [`Program`] on a [`Target`]: load and check it, issue each rank's
//! stream in order, pair SENDs with RECVs into legs, run collectives, then
//! check the expected results.
//!
//! Issue model (project-defined, docs/programs.md): a rank issues its next
//! entry when the entry's wait predicate holds. 0xDB and 0xDC complete at
//! issue. A SENDRECV is posted and completes when the peer posts the
//! matching opposite leg (FIFO per ordered pair; RX arms first, then TX
//! fires, seed 001 §4.3); then the leg runs and both sides' completion
//! semaphores are updated. The issuing rank does not stop at a posted
//! SENDRECV — later entries wait on semaphores, as on hardware. A collective
//! entry runs when every rank of its group has reached one.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

use half::{bf16, f16};
use serde::Serialize;

use super::error::{Guard, ProgramError};
use super::layout::Layout;
use super::program::{CollectiveSpec, Data, DataSpec, InstrSpec, Program, TensorSpec};
use super::rank_id::{host_route, resolve, HostRoute, StreamMap};
use super::sendrecv::{
    check_completion_semaphore, check_p2p_op, check_range, pair, resolve_peer, PeerSource, Posted,
};
use super::target::{default_partition_bytes, FlatTarget, LegReport, Target, SBUF_PARTITIONS};
use crate::collective::{self, read_tensor, reference, write_tensor, Member, Ring};
use crate::datapath::reduce::{Dtype, ReduceOp};
use crate::isa::{self, Events, GidDst, Kind, RawWord, SendRecv, Word, WORD_BYTES};
use crate::stim::StimRng;

/// One decoded stream entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A pseudo-op word plus its host-side annotations.
    Word {
        /// The word.
        word: Word,
        /// SENDRECV pair group.
        group: Option<u32>,
        /// SENDRECV peer register.
        peer_reg: Option<u8>,
    },
    /// A ring collective.
    Collective(CollectiveSpec),
}

/// One check of the expected results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked.
    pub what: String,
    /// Passed?
    pub ok: bool,
    /// Detail (first difference).
    pub detail: String,
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunReport {
    /// Program name.
    pub name: String,
    /// Ranks.
    pub ranks: usize,
    /// Entries issued.
    pub issued: u64,
    /// SENDRECV pairs completed.
    pub pairs: u64,
    /// Collectives run.
    pub collectives: u64,
    /// Legs, bytes and modeled time.
    pub legs: LegReport,
    /// Host wall time, µs.
    pub host_us: f64,
    /// The run's error, if it failed.
    pub error: Option<String>,
    /// Result checks.
    pub checks: Vec<Check>,
    /// The host's node resolution of every peer a 0xDB word or a completed
    /// SENDRECV pair named (`rank_id::host_route`, seed 000 §4b), in issue order.
    pub routes: Vec<HostRoute>,
}

impl RunReport {
    /// Every check passed (and an expected error, if any, occurred).
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
    }
}

/// Decode one stream entry.
pub fn decode_entry(e: &InstrSpec, arch: isa::Arch) -> Result<Entry, Guard> {
    let forms = e.hex.is_some() as u8 + e.kind.is_some() as u8 + e.collective.is_some() as u8;
    if forms != 1 {
        return Err(Guard::BadEntry(
            "an entry needs exactly one of \"hex\", \"kind\" (+ \"fields\") or \"collective\""
                .into(),
        ));
    }
    if let Some(c) = &e.collective {
        if e.group.is_some() || e.peer_reg.is_some() || !e.fields.is_empty() {
            return Err(Guard::BadEntry(
                "a collective entry takes no fields, group or peer_reg".into(),
            ));
        }
        return Ok(Entry::Collective(c.clone()));
    }
    let word = if let Some(h) = &e.hex {
        if !e.fields.is_empty() {
            return Err(Guard::BadEntry(
                "\"fields\" go with \"kind\", not with \"hex\"".into(),
            ));
        }
        let raw = parse_hex(h).map_err(Guard::BadEntry)?;
        let raw: RawWord = raw.as_slice().try_into().map_err(|_| {
            Guard::BadEntry(format!(
                "\"hex\" gives {} bytes; an instruction word is {WORD_BYTES}",
                raw.len()
            ))
        })?;
        isa::decode(&raw, arch)?
    } else {
        let kind_text = e.kind.as_deref().unwrap_or_default();
        let kind: Kind = kind_text
            .parse()
            .map_err(|x: isa::UnknownKind| Guard::BadEntry(x.to_string()))?;
        let texts: Vec<(String, String)> = e
            .fields
            .iter()
            .map(|(k, v)| {
                let t = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (k.clone(), t)
            })
            .collect();
        Word::from_fields(
            kind,
            texts.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            arch,
        )?
    };
    match word {
        Word::SendRecv(_) => {
            if e.group.is_some() && e.peer_reg.is_some() {
                return Err(Guard::BadEntry(
                    "give the SENDRECV peer by \"group\" or by \"peer_reg\", not both".into(),
                ));
            }
        }
        Word::CurProcessingRankId(_) | Word::GidLoad(_) => {
            if e.group.is_some() || e.peer_reg.is_some() {
                return Err(Guard::BadEntry(
                    "\"group\" and \"peer_reg\" belong to SENDRECV entries".into(),
                ));
            }
        }
        Word::RdmaDescGen(_) | Word::RdmaDescStart(_) => {
            return Err(Guard::NotLowered {
                kind: word.kind().seed_name(),
            });
        }
    }
    Ok(Entry::Word {
        word,
        group: e.group,
        peer_reg: e.peer_reg,
    })
}

/// Parse hex text (whitespace, `_` and a `0x` prefix ignored).
pub fn parse_hex(h: &str) -> Result<Vec<u8>, String> {
    let t: String = h
        .trim()
        .trim_start_matches("0x")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    if let Some((i, c)) = t.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(format!("{c:?} at {i} is not a hex digit"));
    }
    if !t.len().is_multiple_of(2) {
        return Err(format!(
            "hex text has an odd number of digits ({})",
            t.len()
        ));
    }
    (0..t.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&t[i..i + 2], 16)
                .map_err(|_| format!("bad hex digits {:?} at {i}", &t[i..i + 2]))
        })
        .collect()
}

/// A tensor as loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tensor {
    /// Placement.
    pub layout: Layout,
    /// Element type.
    pub dtype: Dtype,
}

/// A checked, decoded program, ready to run.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The program.
    pub program: Program,
    /// Core of each rank.
    pub cores: Vec<usize>,
    /// Tensors by (rank, tensor_id).
    pub tensors: HashMap<(u32, u32), Tensor>,
    /// Decoded streams.
    pub streams: Vec<Vec<Entry>>,
    /// Bytes per SBUF partition.
    pub partition_bytes: u64,
}

/// Largest SBUF partition a program may ask for (2 MiB, the system model's limit).
pub const MAX_PARTITION_BYTES: u64 = 2 << 20;
/// Most cores a program topology may have (64 dies × 8 cores).
pub const MAX_CORES: usize = 512;

/// Check the static parts of a program and decode its streams: topology,
/// rank placement, replica groups, stream bindings, tensors, then each
/// rank's entries.
pub fn load(program: Program) -> Result<Loaded, ProgramError> {
    let p = &program;
    let (ncores, pb) = check_topology(p)?;
    let cores = place_ranks(p, ncores)?;
    let n = cores.len() as u32;
    check_groups(p, n)?;
    check_stream_bindings(p)?;
    let mut tensors = HashMap::new();
    for (i, t) in p.tensors.iter().enumerate() {
        let key = format!("tensors[{i}]");
        let tensor = load_tensor(t, &key, &cores, pb)?;
        if tensors.insert((t.rank, t.id), tensor).is_some() {
            return Err(ProgramError::setup(
                key,
                format!("rank {} already has tensor_id {}", t.rank, t.id),
            ));
        }
    }
    let streams = decode_streams(p)?;
    Ok(Loaded {
        cores,
        tensors,
        streams,
        partition_bytes: pb,
        program,
    })
}

/// The topology's core count and bytes per SBUF partition, both in range.
fn check_topology(p: &Program) -> Result<(usize, u64), ProgramError> {
    let ncores = p.topology.cores();
    if ncores == 0 {
        return Err(ProgramError::setup("topology", "the topology has no cores"));
    }
    let pb = p
        .topology
        .partition_bytes
        .unwrap_or(default_partition_bytes(p.arch));
    if pb == 0 || pb > MAX_PARTITION_BYTES {
        return Err(ProgramError::setup(
            "topology.partition_bytes",
            format!(
                "{pb} is outside 1..={MAX_PARTITION_BYTES} (the SBUF aperture's partition stride)"
            ),
        ));
    }
    if ncores > MAX_CORES {
        return Err(ProgramError::setup(
            "topology",
            format!("{ncores} cores; at most {MAX_CORES} (64 dies x 8 cores)"),
        ));
    }
    Ok((ncores, pb))
}

/// The core of each rank: one stream per rank, each on its own core of the
/// topology.
fn place_ranks(p: &Program, ncores: usize) -> Result<Vec<usize>, ProgramError> {
    let cores = super::rank_id::place(p)?;
    if cores.len() != p.programs.len() {
        return Err(ProgramError::setup(
            "ranks",
            format!(
                "{} ranks listed but {} instruction streams in \"programs\"",
                cores.len(),
                p.programs.len()
            ),
        ));
    }
    let mut seen = BTreeSet::new();
    for (r, &c) in cores.iter().enumerate() {
        if c >= ncores {
            return Err(ProgramError::setup(
                format!("ranks[{r}]"),
                format!("core {c} is not in the topology ({ncores} cores)"),
            ));
        }
        if !seen.insert(c) {
            return Err(ProgramError::setup(
                format!("ranks[{r}]"),
                format!("core {c} already runs another rank"),
            ));
        }
    }
    Ok(cores)
}

/// Every replica group lists existing ranks (of `n`), each once.
fn check_groups(p: &Program, n: u32) -> Result<(), ProgramError> {
    for (g, members) in p.replica_groups.iter().enumerate() {
        let mut s = BTreeSet::new();
        for &r in members {
            if r >= n {
                return Err(ProgramError::setup(
                    format!("replica_groups[{g}]"),
                    format!("rank {r} does not exist ({n} ranks)"),
                ));
            }
            if !s.insert(r) {
                return Err(ProgramError::setup(
                    format!("replica_groups[{g}]"),
                    format!("rank {r} is listed twice"),
                ));
            }
        }
    }
    Ok(())
}

/// Fixed stream bindings, if given, are consistent and name existing groups.
fn check_stream_bindings(p: &Program) -> Result<(), ProgramError> {
    if let Some(streams) = &p.streams {
        StreamMap::fixed(streams.iter().map(|b| (b.stream_id, b.group_id)))
            .map_err(ProgramError::Rule)?;
        for (i, b) in streams.iter().enumerate() {
            if b.group_id as usize >= p.replica_groups.len() {
                return Err(ProgramError::setup(
                    format!("streams[{i}]"),
                    format!("group_id {} does not exist", b.group_id),
                ));
            }
        }
    }
    Ok(())
}

/// Tensor `key` placed on its rank's core: an existing rank, a partition
/// range inside the SBUF, a size that divides over it and fits the partition.
fn load_tensor(
    t: &TensorSpec,
    key: &str,
    cores: &[usize],
    pb: u64,
) -> Result<Tensor, ProgramError> {
    let n = cores.len() as u32;
    if t.rank >= n {
        return Err(ProgramError::setup(
            key,
            format!("rank {} does not exist", t.rank),
        ));
    }
    let [lo, hi] = t.partitions;
    if lo >= hi || hi > u32::from(SBUF_PARTITIONS) {
        return Err(ProgramError::setup(
            key,
            format!(
                "partitions [{lo}, {hi}) must be a non-empty range inside 0..{SBUF_PARTITIONS}"
            ),
        ));
    }
    let parts = hi - lo;
    if !t.size.is_multiple_of(parts as u64) {
        return Err(ProgramError::setup(
            key,
            format!(
                "size {} is not a multiple of its {parts} partitions",
                t.size
            ),
        ));
    }
    if t.offset.saturating_add(t.size / parts as u64) > pb {
        return Err(ProgramError::setup(
            key,
            format!(
                "bytes {}..{} of each partition exceed the {pb}-byte partition",
                t.offset,
                t.offset.saturating_add(t.size / parts as u64)
            ),
        ));
    }
    let layout = Layout {
        core: cores[t.rank as usize],
        partition: lo,
        partitions: parts,
        offset: t.offset,
        size: t.size,
    };
    Ok(Tensor {
        layout,
        dtype: t.dtype,
    })
}

/// Each rank's entries, decoded (an error names rank and entry).
fn decode_streams(p: &Program) -> Result<Vec<Vec<Entry>>, ProgramError> {
    let mut streams = Vec::with_capacity(p.programs.len());
    for (r, prog) in p.programs.iter().enumerate() {
        let mut v = Vec::with_capacity(prog.len());
        for (pc, e) in prog.iter().enumerate() {
            v.push(decode_entry(e, p.arch).map_err(|guard| ProgramError::At {
                rank: r as u32,
                pc,
                guard,
            })?);
        }
        streams.push(v);
    }
    Ok(streams)
}

/// A fast-path machine sized for the program.
pub fn fast_target(l: &Loaded) -> FlatTarget {
    let mut t = FlatTarget::new(
        l.program.arch,
        l.program.topology.cores(),
        l.partition_bytes,
    );
    t.timing.cores_per_die = l.program.topology.cores_per_die;
    t
}

/// Source of the pre-run bytes of a tensor range (for `copy_of`).
type Snapshot<'a> = dyn Fn(&Tensor, u64, u64) -> Result<Vec<u8>, ProgramError> + 'a;

/// The system model sized for the program, running its legs in `mode`.
pub fn system_target(
    l: &Loaded,
    mode: crate::system::Mode,
) -> Result<super::SystemTarget, ProgramError> {
    let t = &l.program.topology;
    if t.dies_per_package != usize::from(crate::system::topology::DIES_PER_PACKAGE) {
        return Err(ProgramError::setup(
            "topology.dies_per_package",
            format!(
                "the system model has 2 dies per package, the program asks for {}",
                t.dies_per_package
            ),
        ));
    }
    super::SystemTarget::new(
        l.program.arch,
        t.packages,
        t.cores_per_die,
        l.partition_bytes,
        mode,
    )
    .map_err(|e| ProgramError::setup("topology", e.to_string()))
}

/// Materialise a data spec to bytes. `snapshot` gives initial bytes for `copy_of`.
fn materialize(
    l: &Loaded,
    d: &DataSpec,
    key: &str,
    snapshot: &Snapshot,
) -> Result<(Tensor, Vec<u8>), ProgramError> {
    let t = *l.tensors.get(&(d.rank, d.tensor)).ok_or_else(|| {
        ProgramError::setup(
            key,
            format!("rank {} has no tensor_id {}", d.rank, d.tensor),
        )
    })?;
    let room = t.layout.size.checked_sub(d.offset).ok_or_else(|| {
        ProgramError::setup(
            key,
            format!(
                "offset {} is past the end of the {}-byte tensor",
                d.offset, t.layout.size
            ),
        )
    })?;
    let len = d.size.unwrap_or(room);
    if len > room {
        return Err(ProgramError::setup(
            key,
            format!(
                "{len} bytes at offset {} do not fit the {}-byte tensor",
                d.offset, t.layout.size
            ),
        ));
    }
    let es = t.dtype.size();
    let bytes = match &d.data {
        Data::Hex(h) => parse_hex(h).map_err(|e| ProgramError::setup(key, e))?,
        Data::Values(v) => v.iter().flat_map(|x| encode_value(t.dtype, *x)).collect(),
        Data::Fill(b) => vec![*b; len as usize],
        Data::Iota { start, step } => (0..len as usize / es)
            .flat_map(|i| encode_value(t.dtype, start + step * i as f64))
            .collect(),
        Data::Random(seed) => {
            let mut v = vec![0u8; len as usize];
            StimRng::new(*seed).fill(&mut v);
            v
        }
        Data::CopyOf {
            rank,
            tensor,
            offset,
        } => {
            let src = *l.tensors.get(&(*rank, *tensor)).ok_or_else(|| {
                ProgramError::setup(
                    key,
                    format!("copy_of: rank {rank} has no tensor_id {tensor}"),
                )
            })?;
            snapshot(&src, *offset, len)?
        }
    };
    if bytes.len() as u64 > room {
        return Err(ProgramError::setup(
            key,
            format!(
                "{} bytes at offset {} do not fit the {}-byte tensor",
                bytes.len(),
                d.offset,
                t.layout.size
            ),
        ));
    }
    Ok((t, bytes))
}

/// One value in `dtype`, little-endian.
fn encode_value(dtype: Dtype, x: f64) -> Vec<u8> {
    match dtype {
        Dtype::Fp32 => (x as f32).to_le_bytes().to_vec(),
        Dtype::Bf16 => bf16::from_f64(x).to_le_bytes().to_vec(),
        Dtype::Fp16 => f16::from_f64(x).to_le_bytes().to_vec(),
        Dtype::Int32 => (x as i64 as i32).to_le_bytes().to_vec(),
    }
}

/// Run state.
struct Run<'a> {
    l: &'a Loaded,
    t: &'a mut dyn Target,
    streams: StreamMap,
    pending: Vec<Posted>,
    pcs: Vec<usize>,
    arrived: BTreeMap<u32, usize>,
    rep: RunReport,
}

impl<'a> Run<'a> {
    fn core(&self, rank: u32) -> usize {
        self.l.cores[rank as usize]
    }

    fn tensor(&self, rank: u32, id: u32) -> Result<Tensor, Guard> {
        self.l
            .tensors
            .get(&(rank, id))
            .copied()
            .ok_or(Guard::NoSuchTensor { tensor: id, rank })
    }

    fn events(e: &Entry) -> Option<&Events> {
        match e {
            Entry::Word { word, .. } => Some(word.events()),
            Entry::Collective(_) => None,
        }
    }

    /// Record the host's node resolution of `peer` from `rank` (a rank
    /// outside the placement is refused later by the word's own checks).
    fn route(&mut self, rank: u32, peer: u32, via: &'static str) {
        let topo = &self.l.program.topology;
        if let Some(&pc) = self.l.cores.get(peer as usize) {
            let r = host_route(
                topo.dies_per_package,
                topo.cores_per_die,
                (rank, self.core(rank)),
                (peer, pc),
                via,
            );
            self.rep.routes.push(r);
        }
    }

    /// Issue one word for `rank`.
    fn issue(
        &mut self,
        rank: u32,
        pc: usize,
        word: &Word,
        group: Option<u32>,
        peer_reg: Option<u8>,
    ) -> Result<(), Guard> {
        let core = self.core(rank);
        let arch = self.l.program.arch;
        let groups = &self.l.program.replica_groups;
        match word {
            Word::CurProcessingRankId(w) => {
                let peer = resolve(w, rank, groups, arch)?;
                self.streams.use_pair(w.stream_id, w.group_id)?;
                self.route(rank, peer, "0xDB");
                self.t.reg_write(core, w.dst_reg, peer as u64)?;
                self.t.sem_update(core, &w.events)?;
            }
            Word::GidLoad(w) => {
                w.validate(arch)?;
                self.gid_store(rank, core, &w.dst)?;
                self.t.sem_update(core, &w.events)?;
            }
            Word::SendRecv(w) => {
                let me = self.post(rank, pc, core, w, group, peer_reg)?;
                match self.pending.iter().position(|p| p.meets(&me)) {
                    Some(i) => {
                        let other = self.pending.remove(i);
                        self.complete_pair(me, other)?;
                    }
                    None => self.pending.push(me),
                }
            }
            Word::RdmaDescGen(_) | Word::RdmaDescStart(_) => {
                return Err(Guard::NotLowered {
                    kind: word.kind().seed_name(),
                });
            }
        }
        Ok(())
    }

    /// 0xDC: store `rank`'s group id (the rank) where `dst` says.
    fn gid_store(&mut self, rank: u32, core: usize, dst: &GidDst) -> Result<(), Guard> {
        let gid = rank;
        match *dst {
            GidDst::Register { regnum } => self.t.reg_write(core, regnum, gid as u64)?,
            GidDst::AddrReg { reg_lo, offset } => {
                let base = self.t.reg_read(core, reg_lo)?;
                let addr = base
                    .checked_add(offset as u64)
                    .ok_or_else(|| Guard::GidAddress {
                        detail: format!(
                            "register {reg_lo} ({base:#x}) + offset {offset} overflows"
                        ),
                    })?;
                let pb = self.t.partition_bytes();
                let (part, off) = (addr / pb, addr % pb);
                if part >= SBUF_PARTITIONS as u64 || off + 4 > pb {
                    return Err(Guard::GidAddress {
                        detail: format!("SBUF address {addr:#x} (register {reg_lo} + {offset}) is outside the SBUF or splits a partition"),
                    });
                }
                self.t.write(core, part as u32, off, &gid.to_le_bytes())?;
            }
            GidDst::AddrVar { var_id, offset } => {
                let t = self.tensor(rank, var_id)?;
                if offset as u64 + 4 > t.layout.size {
                    return Err(Guard::GidAddress {
                        detail: format!(
                            "var {var_id} + offset {offset}: 4 bytes do not fit the {}-byte tensor",
                            t.layout.size
                        ),
                    });
                }
                write_tensor(self.t, &t.layout, offset as u64, &gid.to_le_bytes())?;
            }
        }
        Ok(())
    }

    /// A SENDRECV checked and resolved to its peer, ready to be posted.
    fn post(
        &mut self,
        rank: u32,
        pc: usize,
        core: usize,
        w: &SendRecv,
        group: Option<u32>,
        peer_reg: Option<u8>,
    ) -> Result<Posted, Guard> {
        let op = w.enc_op_type();
        check_p2p_op(op)?;
        check_completion_semaphore(&w.events)?;
        let source = match (group, peer_reg) {
            (Some(g), _) => PeerSource::Group(g),
            (None, Some(r)) => PeerSource::Register(self.t.reg_read(core, r)?),
            (None, None) => PeerSource::PeerId,
        };
        let groups = &self.l.program.replica_groups;
        let peer = resolve_peer(w, rank, source, groups, self.l.cores.len())?;
        let t = self.tensor(rank, w.tensor_id)?;
        check_range(w, &t.layout)?;
        Ok(Posted {
            rank,
            pc,
            op,
            peer,
            tensor: t.layout,
            offset: w.offset_bytes,
            size: w.size_bytes,
            events: w.events,
        })
    }

    /// Two matching SENDRECVs: run their legs, then both completion
    /// semaphores (RX side first).
    fn complete_pair(&mut self, me: Posted, other: Posted) -> Result<(), Guard> {
        let (s, r) = if me.is_send() {
            (me, other)
        } else {
            (other, me)
        };
        self.route(s.rank, r.rank, "SENDRECV");
        let legs = pair(&s, &r)?;
        let rep = self.t.run_legs(&legs)?;
        self.rep.legs.then(rep);
        self.rep.pairs += 1;
        self.t.sem_update(self.core(r.rank), &r.events)?;
        self.t.sem_update(self.core(s.rank), &s.events)?;
        Ok(())
    }

    /// Rank `rank` reached collective `c`; run it when its whole group has.
    /// Returns true when it ran.
    fn arrive(&mut self, rank: u32, pc: usize, c: &CollectiveSpec) -> Result<bool, Guard> {
        let members = self.group_of(rank, c)?;
        self.arrived.insert(rank, pc);
        if !members.iter().all(|m| self.arrived.contains_key(m)) {
            return Ok(false);
        }
        self.check_agreement(members, c)?;
        if c.channel >= super::rank_id::CHANNELS {
            return Err(Guard::ChannelOutOfRange { channel: c.channel });
        }
        let (ms, dtype) = self.collective_members(members, c)?;
        let red =
            c.op.reduces()
                .then_some((dtype, c.reduce.unwrap_or(ReduceOp::Sum)));
        let inputs: Vec<Vec<u8>> = if c.check {
            ms.iter()
                .map(|m| read_tensor(&*self.t, &m.input, 0, m.input.size))
                .collect::<Result<_, _>>()?
        } else {
            Vec::new()
        };
        self.t.trace_collective(Some(&format!(
            "{} group {} channel {}",
            c.op, c.group, c.channel
        )));
        let rep = collective::run(self.t, c.op, &ms, c.channel, red);
        self.t.trace_collective(None);
        self.rep.legs.then(rep?);
        self.rep.collectives += 1;
        if c.check {
            self.check_collective(c, members, &ms, &inputs, red)?;
        }
        for &m in members {
            self.arrived.remove(&m);
            self.pcs[m as usize] += 1;
        }
        Ok(true)
    }

    /// The members of `c`'s group, which must include `rank`.
    fn group_of(&self, rank: u32, c: &CollectiveSpec) -> Result<&'a [u32], Guard> {
        let groups = &self.l.program.replica_groups;
        let members = groups.get(c.group as usize).ok_or(Guard::NoSuchGroup {
            group: c.group,
            groups: groups.len(),
        })?;
        if !members.contains(&rank) {
            return Err(Guard::NotInGroup {
                rank,
                group: c.group,
                members: members.clone(),
            });
        }
        Ok(members)
    }

    /// Everyone is here: the entries must agree.
    fn check_agreement(&self, members: &[u32], c: &CollectiveSpec) -> Result<(), Guard> {
        for &m in members {
            let mpc = self.arrived[&m];
            match &self.l.streams[m as usize][mpc] {
                Entry::Collective(o) if o.op == c.op && o.group == c.group && o.channel == c.channel && o.reduce == c.reduce => {}
                _ => {
                    return Err(Guard::BadEntry(format!(
                        "rank {m} instruction {mpc} is not the same collective ({} on group {}, channel {})",
                        c.op, c.group, c.channel
                    )))
                }
            }
        }
        Ok(())
    }

    /// Each member's input (and output) tensor of `c`, and the element type
    /// (the first member's; Int32 for an empty group).
    fn collective_members(
        &self,
        members: &[u32],
        c: &CollectiveSpec,
    ) -> Result<(Vec<Member>, Dtype), Guard> {
        let mut ms = Vec::new();
        let mut dtype = None;
        for &m in members {
            let t = self.tensor(m, c.tensor)?;
            dtype.get_or_insert(t.dtype);
            let output = match c.output {
                Some(o) => Some(self.tensor(m, o)?.layout),
                None => None,
            };
            ms.push(Member {
                input: t.layout,
                output,
                scratch: None,
            });
        }
        Ok((ms, dtype.unwrap_or(Dtype::Int32)))
    }

    /// The collective's results against the plain reference of its inputs.
    fn check_collective(
        &mut self,
        c: &CollectiveSpec,
        members: &[u32],
        ms: &[Member],
        inputs: &[Vec<u8>],
        red: Option<(Dtype, ReduceOp)>,
    ) -> Result<(), Guard> {
        let ring = Ring::new(ms.len(), c.channel);
        let mut bad = None;
        for e in reference::expected(c.op, inputs, &ring, red) {
            let m = &ms[e.pos];
            let buf = if c.op.needs_output() {
                m.output.unwrap_or(m.input)
            } else {
                m.input
            };
            let got = read_tensor(&*self.t, &buf, e.offset, e.bytes.len() as u64)?;
            if let Some(i) = got.iter().zip(&e.bytes).position(|(a, b)| a != b) {
                bad.get_or_insert(format!(
                    "rank {} byte {}: got {:#04x}, reference {:#04x}",
                    members[e.pos],
                    e.offset + i as u64,
                    got[i],
                    e.bytes[i]
                ));
            }
        }
        self.rep.checks.push(Check {
            what: format!(
                "{} on group {} (channel {}) vs reference",
                c.op, c.group, c.channel
            ),
            ok: bad.is_none(),
            detail: bad.unwrap_or_else(|| "bit-exact".into()),
        });
        Ok(())
    }

    /// Issue entries round-robin over the ranks until every stream is done
    /// (an unmatched SENDRECV left is an error) or no rank can move (a
    /// deadlock).
    fn go(&mut self) -> Result<(), ProgramError> {
        let n = self.l.streams.len();
        loop {
            let mut progress = false;
            for r in 0..n {
                progress |= self.advance(r)?;
            }
            let done = (0..n).all(|r| self.pcs[r] >= self.l.streams[r].len());
            if done && self.arrived.is_empty() {
                return match self.pending.first() {
                    Some(p) => Err(unmatched(p)),
                    None => Ok(()),
                };
            }
            if !progress {
                return Err(self.deadlock());
            }
        }
    }

    /// Issue rank `r`'s entries while their waits hold; true when it issued one.
    fn advance(&mut self, r: usize) -> Result<bool, ProgramError> {
        let l = self.l;
        let mut progress = false;
        loop {
            let pc = self.pcs[r];
            if pc >= l.streams[r].len() || self.arrived.contains_key(&(r as u32)) {
                break;
            }
            let entry = &l.streams[r][pc];
            let at = |guard| ProgramError::At {
                rank: r as u32,
                pc,
                guard,
            };
            if let Some(ev) = Self::events(entry) {
                if !self
                    .t
                    .wait_satisfied(l.cores[r], ev)
                    .map_err(|e| at(e.into()))?
                {
                    break;
                }
            }
            self.rep.issued += 1;
            progress = true;
            match entry {
                Entry::Word {
                    word,
                    group,
                    peer_reg,
                } => {
                    self.issue(r as u32, pc, word, *group, *peer_reg)
                        .map_err(at)?;
                    self.pcs[r] += 1;
                }
                Entry::Collective(c) => {
                    if !self.arrive(r as u32, pc, c).map_err(at)? {
                        break;
                    }
                }
            }
        }
        Ok(progress)
    }

    /// No rank can move: what each waits for, and the legs still posted.
    fn deadlock(&self) -> ProgramError {
        let n = self.l.streams.len();
        let blocked: Vec<String> = (0..n)
            .filter(|&r| self.pcs[r] < self.l.streams[r].len())
            .map(|r| {
                if self.arrived.contains_key(&(r as u32)) {
                    format!("rank {r} waits for its group at collective {}", self.pcs[r])
                } else {
                    format!(
                        "rank {r} waits on the semaphore of instruction {}",
                        self.pcs[r]
                    )
                }
            })
            .collect();
        let posted: Vec<String> = self
            .pending
            .iter()
            .map(|p| {
                format!(
                    "{} r{}→r{} {} B",
                    if p.is_send() { "SEND" } else { "RECV" },
                    p.rank,
                    p.peer,
                    p.size
                )
            })
            .collect();
        ProgramError::Deadlock {
            detail: format!(
                "{}; unmatched legs: [{}]",
                blocked.join("; "),
                posted.join(", ")
            ),
        }
    }
}

/// A SENDRECV still posted when every stream is done.
fn unmatched(p: &Posted) -> ProgramError {
    let (dir, other) = if p.is_send() {
        ("SEND", "RECV")
    } else {
        ("RECV", "SEND")
    };
    ProgramError::At {
        rank: p.rank,
        pc: p.pc,
        guard: Guard::Unmatched {
            dir,
            other,
            rank: p.rank,
            pc: p.pc,
            size: p.size,
            peer: p.peer,
        },
    }
}

/// Load the initial data, run every stream, check the expectations.
/// A failing run returns `Ok` with `error` set when the program expects
/// that error; otherwise the error.
pub fn run(l: &Loaded, target: &mut dyn Target) -> Result<RunReport, ProgramError> {
    let p = &l.program;
    let start = Instant::now();
    write_init(l, target)?;
    let snaps = copy_of_snapshots(l, target)?;
    let mut run = Run {
        l,
        t: target,
        streams: match &p.streams {
            Some(s) => StreamMap::fixed(s.iter().map(|b| (b.stream_id, b.group_id)))
                .map_err(ProgramError::Rule)?,
            None => StreamMap::open(),
        },
        pending: Vec::new(),
        pcs: vec![0; l.streams.len()],
        arrived: BTreeMap::new(),
        rep: RunReport {
            name: p.name.clone(),
            ranks: l.streams.len(),
            ..Default::default()
        },
    };
    let outcome = run.go();
    let mut rep = std::mem::take(&mut run.rep);
    let target = run.t;
    rep.host_us = start.elapsed().as_secs_f64() * 1e6;
    match (outcome, &p.expect.error) {
        (Err(e), Some(want)) => {
            let msg = e.to_string();
            rep.checks.push(Check {
                what: format!("error contains {want:?}"),
                ok: msg.contains(want.as_str()),
                detail: msg.clone(),
            });
            rep.error = Some(msg);
            return Ok(rep);
        }
        (Err(e), None) => return Err(e),
        (Ok(()), Some(want)) => {
            rep.checks.push(Check {
                what: format!("error contains {want:?}"),
                ok: false,
                detail: "the run succeeded".into(),
            });
        }
        (Ok(()), None) => {}
    }
    check_data(l, &*target, &snaps, &mut rep)?;
    check_regs_and_sems(l, &*target, &mut rep)?;
    Ok(rep)
}

/// Write the program's initial data.
fn write_init(l: &Loaded, target: &mut dyn Target) -> Result<(), ProgramError> {
    for (i, d) in l.program.init.iter().enumerate() {
        let key = format!("init[{i}]");
        let (t, bytes) = materialize(l, d, &key, &|_, _, _| {
            Err(ProgramError::setup(
                key.clone(),
                "copy_of is for expectations, not initial data",
            ))
        })?;
        write_tensor(target, &t.layout, d.offset, &bytes)
            .map_err(|e| ProgramError::setup(key.clone(), e.to_string()))?;
    }
    Ok(())
}

/// Snapshots for copy_of expectations, taken before the run: by index of
/// the expectation.
fn copy_of_snapshots(
    l: &Loaded,
    target: &dyn Target,
) -> Result<HashMap<usize, Vec<u8>>, ProgramError> {
    let mut snaps: HashMap<usize, Vec<u8>> = HashMap::new();
    for (i, d) in l.program.expect.data.iter().enumerate() {
        if let Data::CopyOf {
            rank,
            tensor,
            offset,
        } = &d.data
        {
            let key = format!("expect.data[{i}]");
            let src = *l.tensors.get(&(*rank, *tensor)).ok_or_else(|| {
                ProgramError::setup(
                    key.clone(),
                    format!("copy_of: rank {rank} has no tensor_id {tensor}"),
                )
            })?;
            let dst = l.tensors.get(&(d.rank, d.tensor)).ok_or_else(|| {
                ProgramError::setup(
                    key.clone(),
                    format!("rank {} has no tensor_id {}", d.rank, d.tensor),
                )
            })?;
            let len = d.size.unwrap_or(dst.layout.size.saturating_sub(d.offset));
            if offset.saturating_add(len) > src.layout.size {
                return Err(ProgramError::setup(key, "copy_of range exceeds its tensor"));
            }
            let v = read_tensor(target, &src.layout, *offset, len)
                .map_err(|e| ProgramError::setup(key, e.to_string()))?;
            snaps.insert(i, v);
        }
    }
    Ok(snaps)
}

/// The expected data after the run, byte for byte (first difference reported).
fn check_data(
    l: &Loaded,
    target: &dyn Target,
    snaps: &HashMap<usize, Vec<u8>>,
    rep: &mut RunReport,
) -> Result<(), ProgramError> {
    for (i, d) in l.program.expect.data.iter().enumerate() {
        let key = format!("expect.data[{i}]");
        let snap = snaps.get(&i).cloned();
        let (t, want) = materialize(l, d, &key, &|_, _, _| Ok(snap.clone().unwrap_or_default()))?;
        let got = read_tensor(target, &t.layout, d.offset, want.len() as u64)
            .map_err(|e| ProgramError::setup(key.clone(), e.to_string()))?;
        let bad = got.iter().zip(&want).position(|(a, b)| a != b);
        rep.checks.push(Check {
            what: format!(
                "rank {} tensor {} bytes {}..{}",
                d.rank,
                d.tensor,
                d.offset,
                d.offset + want.len() as u64
            ),
            ok: bad.is_none(),
            detail: match bad {
                None => "equal".into(),
                Some(k) => format!(
                    "byte {}: got {:#04x}, want {:#04x}",
                    d.offset + k as u64,
                    got[k],
                    want[k]
                ),
            },
        });
    }
    Ok(())
}

/// The expected register and semaphore values after the run.
fn check_regs_and_sems(
    l: &Loaded,
    target: &dyn Target,
    rep: &mut RunReport,
) -> Result<(), ProgramError> {
    let p = &l.program;
    for r in &p.expect.regs {
        let core = *l.cores.get(r.rank as usize).ok_or_else(|| {
            ProgramError::setup("expect.regs", format!("rank {} does not exist", r.rank))
        })?;
        let got = target
            .reg_read(core, r.reg)
            .map_err(|e| ProgramError::setup("expect.regs", e.to_string()))?;
        rep.checks.push(Check {
            what: format!("rank {} register {}", r.rank, r.reg),
            ok: got == r.value,
            detail: format!("got {got}, want {}", r.value),
        });
    }
    for s in &p.expect.sems {
        let core = *l.cores.get(s.rank as usize).ok_or_else(|| {
            ProgramError::setup("expect.sems", format!("rank {} does not exist", s.rank))
        })?;
        let got = target
            .sem(core, s.idx)
            .map_err(|e| ProgramError::setup("expect.sems", e.to_string()))?;
        rep.checks.push(Check {
            what: format!("rank {} semaphore {}", s.rank, s.idx),
            ok: got == s.value,
            detail: format!("got {got}, want {}", s.value),
        });
    }
    Ok(())
}
