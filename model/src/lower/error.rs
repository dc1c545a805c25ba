//! Errors of the host lowering. Guard messages quote the seed's assert and
//! diagnostic strings verbatim where the seed gives one.

use thiserror::Error;

use crate::collective::CollectiveError;
use crate::isa::{Arch, EncOpType, IsaError};

use super::target::TargetError;

/// Seed 000 §3 / §5a: the host validator of `__compose_p2p_channel` (.rodata 0x7f2008).
pub const MSG_P2P_OP: &str = "send_recv_op_type == ENC_SEND || send_recv_op_type == ENC_RECV";
/// Seed 000 §4a: `enc_init_sendrecv_group` asserts `g_device_id != peer_id` (0x841e4f).
pub const MSG_SELF_PEER: &str = "g_device_id != peer_id";
/// Seed 000 §8a: `instr_col_setup_psr` (.rodata 0x80f938).
pub const MSG_SEMAPHORE: &str = "Collective instruction must increment semaphore when done";
/// Seed 002 §5: the stream map resolver's diagnostic (its tail is cut in the seed).
pub const MSG_STREAM_MAP: &str =
    "stream_id <-> group_id mapping violation. There should be a one-to-one mapping between stream_id and group_id";

/// A rule one instruction (or collective entry) breaks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Guard {
    /// The P2P composer got an op other than SEND / RECV.
    #[error("assertion `{MSG_P2P_OP}` failed: op is {op}")]
    NotP2p {
        /// The op given.
        op: EncOpType,
    },
    /// peer == self.
    #[error("assertion `{MSG_SELF_PEER}` failed: rank {rank} cannot send/recv to itself")]
    SendToSelf {
        /// The rank.
        rank: u32,
    },
    /// SENDRECV without an increment of its completion semaphore.
    #[error("{MSG_SEMAPHORE} (events.update_mode at byte 6 is {mode}, semaphore_value {value}; use SEM_INC_ON_COMPLETE, or SEM_ADD_ON_COMPLETE with a value > 0)")]
    NoSemaphoreIncrement {
        /// Update mode name.
        mode: &'static str,
        /// semaphore_value.
        value: u32,
    },
    /// A replica group index that does not exist.
    #[error("group_id {group} does not exist (the program has {groups} replica groups)")]
    NoSuchGroup {
        /// Group asked for.
        group: u32,
        /// Groups present.
        groups: usize,
    },
    /// The rank is not a member of the group it uses.
    #[error("rank {rank} is not in replica group {group} {members:?}")]
    NotInGroup {
        /// Rank.
        rank: u32,
        /// Group.
        group: u32,
        /// Its members.
        members: Vec<u32>,
    },
    /// A SENDRECV pair group with other than 2 ranks.
    #[error("send/recv replica group {group} has {len} ranks; the group of a send/recv pair has exactly 2 (sender and receiver)")]
    GroupNotPair {
        /// Group.
        group: u32,
        /// Its size.
        len: usize,
    },
    /// peer_id disagrees with the pair group.
    #[error(
        "peer_id (byte 16) is {peer_id} but replica group {group} makes the peer rank {group_peer}"
    )]
    PeerConflict {
        /// Group.
        group: u32,
        /// Peer by group.
        group_peer: u32,
        /// peer_id of the word.
        peer_id: u64,
    },
    /// A peer rank outside the program.
    #[error("peer rank {peer} does not exist (the program has {ranks} ranks)")]
    NoSuchPeer {
        /// Peer.
        peer: u64,
        /// Ranks.
        ranks: usize,
    },
    /// A tensor_id the rank does not have.
    #[error("tensor_id {tensor} (byte 12) is not a tensor of rank {rank}")]
    NoSuchTensor {
        /// Tensor.
        tensor: u32,
        /// Rank.
        rank: u32,
    },
    /// offset + size beyond the tensor.
    #[error("offset_bytes {offset} + size_bytes {size} (bytes 48, 56) exceeds tensor {tensor} of {tensor_size} bytes")]
    OutOfTensor {
        /// Tensor.
        tensor: u32,
        /// offset_bytes.
        offset: u64,
        /// size_bytes.
        size: u64,
        /// Tensor size.
        tensor_size: u64,
    },
    /// Send and receive sizes differ.
    #[error("a send must meet a receive of the same size: SEND of rank {send_rank} (instruction {send_pc}) moves {send_size} bytes, RECV of rank {recv_rank} (instruction {recv_pc}) takes {recv_size} bytes")]
    SizeMismatch {
        /// Sender.
        send_rank: u32,
        /// Its instruction.
        send_pc: usize,
        /// Its size.
        send_size: u64,
        /// Receiver.
        recv_rank: u32,
        /// Its instruction.
        recv_pc: usize,
        /// Its size.
        recv_size: u64,
    },
    /// A SEND or RECV that never met its other side.
    #[error("{dir} of rank {rank} (instruction {pc}, {size} bytes, peer {peer}) never met a matching {other} from rank {peer}")]
    Unmatched {
        /// "SEND" or "RECV".
        dir: &'static str,
        /// The other side's name.
        other: &'static str,
        /// Rank.
        rank: u32,
        /// Instruction.
        pc: usize,
        /// Size.
        size: u64,
        /// Peer.
        peer: u32,
    },
    /// 0xDB channel out of range.
    #[error(
        "channel_id {channel} (byte 14) out of range: a group has two CC rings, channel 0 or 1"
    )]
    ChannelOutOfRange {
        /// Channel.
        channel: u16,
    },
    /// 0xDB stream_id beyond the host's stream table.
    #[error("stream_id {stream} (byte 20) out of range: stream_id < NEC_MAX_STREAM_N = {max}")]
    StreamIdOutOfRange {
        /// Stream.
        stream: u16,
        /// NEC_MAX_STREAM_N.
        max: u16,
    },
    /// 0xDB iteration out of range.
    #[error("iteration_id {iteration} (byte 16) out of range: replica group {group} has {n} ranks, so iterations are 0..{n}")]
    IterationOutOfRange {
        /// Iteration.
        iteration: u16,
        /// Group.
        group: u32,
        /// Group size.
        n: usize,
    },
    /// 0xDB dst_reg beyond the register file.
    #[error("dst_reg {reg} (byte 18) is not a general register on {arch}: NUM_REGISTERS is {num}")]
    DstRegOutOfRange {
        /// Register.
        reg: u8,
        /// Arch.
        arch: Arch,
        /// NUM_REGISTERS.
        num: u16,
    },
    /// stream_id ↔ group_id not one-to-one.
    #[error("{MSG_STREAM_MAP}: {detail}")]
    StreamMap {
        /// What collided.
        detail: String,
    },
    /// GID_LOAD address destination outside SBUF or the tensor.
    #[error("GID_LOAD destination {detail}")]
    GidAddress {
        /// Why.
        detail: String,
    },
    /// The word does not decode or fails its validator.
    #[error(transparent)]
    Isa(#[from] IsaError),
    /// A word kind that has no host lowering.
    #[error("{kind} words are device legs, not host pseudo-ops; a program stream holds sendrecv, cur-rank, gid-load and collective entries")]
    NotLowered {
        /// Kind name.
        kind: &'static str,
    },
    /// The stream entry itself is malformed.
    #[error("{0}")]
    BadEntry(String),
    /// The machine refused.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The collective refused.
    #[error(transparent)]
    Collective(#[from] CollectiveError),
}

/// A program that cannot be loaded or run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProgramError {
    /// A static problem of the program (names the JSON key).
    #[error("{key}: {detail}")]
    Setup {
        /// JSON key path.
        key: String,
        /// What is wrong.
        detail: String,
    },
    /// A static rule broken program-wide (e.g. the stream map).
    #[error("{0}")]
    Rule(Guard),
    /// An instruction broke a rule.
    #[error("rank {rank}, instruction {pc}: {guard}")]
    At {
        /// Rank.
        rank: u32,
        /// Index in its stream.
        pc: usize,
        /// The rule.
        guard: Guard,
    },
    /// A `peers` entry the host's peer-node helpers cannot place, or whose
    /// helper core disagrees with the explicit `ranks` placement.
    #[error("peers[{index}]: rank {rank} is placed on core {placed:?} but cayman_get_p2p_pod_peer_node(core {of_core} of rank {of}, dir {dir}) names core {helper:?} ({rule})")]
    Placement {
        /// Index in `peers`.
        index: usize,
        /// The rank placed.
        rank: u32,
        /// Its explicit core (`ranks`), if any.
        placed: Option<usize>,
        /// The rank the helper starts from.
        of: u32,
        /// That rank's core.
        of_core: usize,
        /// Direction code.
        dir: u8,
        /// The helper's core (`None`: the helper cannot name one).
        helper: Option<usize>,
        /// The rule broken.
        rule: &'static str,
    },
    /// No rank can make progress.
    #[error("deadlock: no rank can proceed ({detail})")]
    Deadlock {
        /// Where each blocked rank waits.
        detail: String,
    },
}

impl ProgramError {
    /// Shorthand for [`ProgramError::Setup`].
    pub fn setup(key: impl Into<String>, detail: impl Into<String>) -> Self {
        ProgramError::Setup {
            key: key.into(),
            detail: detail.into(),
        }
    }
}
