//! The JSON program format (documented in `docs/programs.md`): arch,
//! topology, ranks, replica groups, the stream_id ↔ group_id map, tensors,
//! one instruction stream per rank, initial data and expected results.
//!
//! Parsing is strict (`deny_unknown_fields`) so a misspelt key is an error,
//! not a silently ignored setting.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::collective::CollectiveOp;
use crate::datapath::reduce::{Dtype, ReduceOp};
use crate::isa::Arch;

/// A whole program.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Program {
    /// Short name.
    #[serde(default)]
    pub name: String,
    /// What it shows.
    #[serde(default)]
    pub description: String,
    /// Target architecture (`cayman`, `v3`, …); default cayman.
    #[serde(default)]
    pub arch: Arch,
    /// Packages × dies × cores.
    #[serde(default)]
    pub topology: ProgramTopology,
    /// `ranks[r]` is the global core rank r runs on; default one rank per core.
    #[serde(default)]
    pub ranks: Option<Vec<usize>>,
    /// Peer placements decided by the host's peer-node helpers (seed 000 §4b,
    /// 001 §7.2, §8): rank `rank` runs on the core that
    /// `cayman_get_p2p_pod_peer_node(core of rank `of`, dir)` names
    /// (`rank_id::helper_peer_core`). Applied in order, so `of` may itself be
    /// placed by an earlier entry. Without `ranks` the helper decides the
    /// core; with `ranks` the explicit core must be the helper's, else
    /// [`ProgramError::Placement`](super::ProgramError::Placement).
    #[serde(default)]
    pub peers: Vec<PeerPlacement>,
    /// Replica groups: `replica_groups[g]` lists the ranks of group_id g.
    #[serde(default)]
    pub replica_groups: Vec<Vec<u32>>,
    /// The stream_id ↔ group_id map (one-to-one). When absent, 0xDB words
    /// bind streams to groups on first use.
    #[serde(default)]
    pub streams: Option<Vec<StreamBinding>>,
    /// SBUF tensors.
    #[serde(default)]
    pub tensors: Vec<TensorSpec>,
    /// Initial contents.
    #[serde(default)]
    pub init: Vec<DataSpec>,
    /// `programs[r]` is rank r's instruction stream.
    pub programs: Vec<Vec<InstrSpec>>,
    /// Expected results, checked after the run.
    #[serde(default)]
    pub expect: Expect,
}

/// Packages × dies per package × cores per die (default: one trn2-like
/// package, 2 dies × 4 cores, PUBLIC-FACTS §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramTopology {
    /// Packages (devices).
    pub packages: usize,
    /// Dies per package.
    pub dies_per_package: usize,
    /// NeuronCores per die.
    pub cores_per_die: usize,
    /// Bytes per SBUF partition (default: the arch's, see `target::default_partition_bytes`).
    #[serde(default)]
    pub partition_bytes: Option<u64>,
}

impl Default for ProgramTopology {
    fn default() -> Self {
        Self {
            packages: 1,
            dies_per_package: 2,
            cores_per_die: 4,
            partition_bytes: None,
        }
    }
}

impl ProgramTopology {
    /// Total cores.
    pub fn cores(&self) -> usize {
        self.packages
            .saturating_mul(self.dies_per_package)
            .saturating_mul(self.cores_per_die)
    }
}

/// One helper-decided placement (`Program::peers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeerPlacement {
    /// The rank placed.
    pub rank: u32,
    /// The rank whose core the helper starts from.
    pub of: u32,
    /// Direction code of `cayman_get_p2p_pod_peer_node` (0 LOCAL, 1 NEXT,
    /// 2 PREV = the d2d peer, 3 PEER_RMTV; positional reading, MED).
    pub dir: u8,
}

/// One stream_id ↔ group_id binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamBinding {
    /// CC stream.
    pub stream_id: u16,
    /// Replica group.
    pub group_id: u16,
}

/// One tensor: `id` on `rank`, in SBUF partitions `[partitions[0], partitions[1])`
/// at byte `offset` of each, `size` bytes in total (partition-major).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TensorSpec {
    /// Owning rank (the tensor lives on that rank's core).
    pub rank: u32,
    /// tensor_id, as named by SENDRECV.
    pub id: u32,
    /// Partition range, half-open.
    pub partitions: [u32; 2],
    /// Byte offset inside each partition.
    #[serde(default)]
    pub offset: u64,
    /// Total bytes (a multiple of the partition count).
    pub size: u64,
    /// Element type (used by typed data and collectives).
    #[serde(default = "default_dtype")]
    pub dtype: Dtype,
}

fn default_dtype() -> Dtype {
    Dtype::Int32
}

/// Bytes for a tensor range: initial data or an expectation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataSpec {
    /// Rank.
    pub rank: u32,
    /// tensor_id.
    pub tensor: u32,
    /// Byte offset in the tensor.
    #[serde(default)]
    pub offset: u64,
    /// Byte count for `fill` / `iota` / `random` (default: to the end of the tensor).
    #[serde(default)]
    pub size: Option<u64>,
    /// The bytes.
    pub data: Data,
}

/// How bytes are given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Data {
    /// Hex string (whitespace and `_` ignored).
    Hex(String),
    /// Values of the tensor's dtype, little-endian.
    Values(Vec<f64>),
    /// Every byte equal.
    Fill(u8),
    /// Element i = start + i × step, in the tensor's dtype.
    Iota {
        /// First value.
        start: f64,
        /// Increment.
        step: f64,
    },
    /// Reproducible random bytes from a seed.
    Random(u64),
    /// The initial bytes of another tensor range (same length as this one).
    CopyOf {
        /// Rank.
        rank: u32,
        /// tensor_id.
        tensor: u32,
        /// Byte offset.
        #[serde(default)]
        offset: u64,
    },
}

/// Expected results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Tensor contents.
    #[serde(default)]
    pub data: Vec<DataSpec>,
    /// Engine registers.
    #[serde(default)]
    pub regs: Vec<RegExpect>,
    /// Semaphores.
    #[serde(default)]
    pub sems: Vec<SemExpect>,
    /// The run must fail with an error containing this text (guard examples).
    #[serde(default)]
    pub error: Option<String>,
}

/// An expected engine register value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegExpect {
    /// Rank.
    pub rank: u32,
    /// Register number.
    pub reg: u8,
    /// Value.
    pub value: u64,
}

/// An expected semaphore value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SemExpect {
    /// Rank.
    pub rank: u32,
    /// Semaphore index.
    pub idx: u8,
    /// Value.
    pub value: i32,
}

/// One entry of a rank's instruction stream: exactly one of `hex`, `kind`
/// (+ `fields`) or `collective`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstrSpec {
    /// The 64-byte word as 128 hex digits (whitespace and `_` ignored).
    #[serde(default)]
    pub hex: Option<String>,
    /// Word kind (`sendrecv`, `cur-rank`, `gid-load`) built from `fields`.
    #[serde(default)]
    pub kind: Option<String>,
    /// Named fields (seed names; numbers or strings such as `"0x10"`, `"SEM_INC_ON_COMPLETE"`).
    #[serde(default)]
    pub fields: BTreeMap<String, serde_json::Value>,
    /// SENDRECV: the 2-rank replica group naming the pair (peer = the other element).
    #[serde(default)]
    pub group: Option<u32>,
    /// SENDRECV: take peer_id from this engine register at issue (a 0xDB result).
    #[serde(default)]
    pub peer_reg: Option<u8>,
    /// A whole ring collective over a replica group (project-defined host op).
    #[serde(default)]
    pub collective: Option<CollectiveSpec>,
    /// Free text.
    #[serde(default)]
    pub comment: Option<String>,
}

/// A ring collective entry. Every rank of the group must reach one; it runs
/// when all have, then all continue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectiveSpec {
    /// Op.
    pub op: CollectiveOp,
    /// Replica group.
    pub group: u32,
    /// Buffer tensor_id (input for permute).
    pub tensor: u32,
    /// Output tensor_id (permute).
    #[serde(default)]
    pub output: Option<u32>,
    /// Reduction operator (reducing ops; default sum).
    #[serde(default)]
    pub reduce: Option<ReduceOp>,
    /// Ring direction: 0 group order, 1 reverse.
    #[serde(default)]
    pub channel: u16,
    /// Check the result against the plain reference (default true).
    #[serde(default = "yes")]
    pub check: bool,
}

fn yes() -> bool {
    true
}

impl Program {
    /// Parse JSON text.
    pub fn from_json(text: &str) -> Result<Program, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Core of each rank.
    pub fn rank_cores(&self) -> Vec<usize> {
        match &self.ranks {
            Some(r) => r.clone(),
            None => (0..self.programs.len()).collect(),
        }
    }
}
