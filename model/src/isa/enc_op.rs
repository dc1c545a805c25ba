//! The host op-kind `enc_op_type` (seed 000 §3, libnrt DWARF, HIGH/OBSERVED).

use serde::{Deserialize, Serialize};

/// `enc_op_type`: a 4-byte unsigned enum in the host runtime. SENDRECV's
/// `is_send` byte re-expands to [`EncOpType::Send`] / [`EncOpType::Recv`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u32)]
pub enum EncOpType {
    /// ENC_ALLGATHER = 0
    #[serde(rename = "ENC_ALLGATHER")]
    Allgather = 0,
    /// ENC_ALLREDUCE = 1
    #[serde(rename = "ENC_ALLREDUCE")]
    Allreduce = 1,
    /// ENC_BROADCAST = 2
    #[serde(rename = "ENC_BROADCAST")]
    Broadcast = 2,
    /// ENC_REDUCE = 3
    #[serde(rename = "ENC_REDUCE")]
    Reduce = 3,
    /// ENC_REDUCE_SCATTER = 4
    #[serde(rename = "ENC_REDUCE_SCATTER")]
    ReduceScatter = 4,
    /// ENC_SEND = 5 (SENDRECV with is_send != 0: the TX leg)
    #[serde(rename = "ENC_SEND")]
    Send = 5,
    /// ENC_RECV = 6 (SENDRECV with is_send == 0: the RX leg)
    #[serde(rename = "ENC_RECV")]
    Recv = 6,
    /// ENC_ALLTOALL = 7
    #[serde(rename = "ENC_ALLTOALL")]
    Alltoall = 7,
    /// ENC_PERMUTE = 8
    #[serde(rename = "ENC_PERMUTE")]
    Permute = 8,
    /// ENC_PERMUTE_REDUCE = 9
    #[serde(rename = "ENC_PERMUTE_REDUCE")]
    PermuteReduce = 9,
    /// ENC_PERMUTE_IMPLICIT = 10
    #[serde(rename = "ENC_PERMUTE_IMPLICIT")]
    PermuteImplicit = 10,
    /// ENC_PERMUTE_REDUCE_IMPLICIT = 11
    #[serde(rename = "ENC_PERMUTE_REDUCE_IMPLICIT")]
    PermuteReduceImplicit = 11,
    /// ENC_ALLTOALL_V = 12
    #[serde(rename = "ENC_ALLTOALL_V")]
    AlltoallV = 12,
    /// ENC_OP_INVALID = 13 (== ENC_OP_N, the sentinel)
    #[serde(rename = "ENC_OP_INVALID")]
    OpInvalid = 13,
}

impl EncOpType {
    /// ENC_OP_N: the number of real op kinds (== ENC_OP_INVALID).
    pub const ENC_OP_N: u32 = 13;

    /// All 14 values, in code order.
    pub const ALL: [EncOpType; 14] = [
        EncOpType::Allgather,
        EncOpType::Allreduce,
        EncOpType::Broadcast,
        EncOpType::Reduce,
        EncOpType::ReduceScatter,
        EncOpType::Send,
        EncOpType::Recv,
        EncOpType::Alltoall,
        EncOpType::Permute,
        EncOpType::PermuteReduce,
        EncOpType::PermuteImplicit,
        EncOpType::PermuteReduceImplicit,
        EncOpType::AlltoallV,
        EncOpType::OpInvalid,
    ];

    /// The numeric value.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The value with this code (0..=13).
    pub fn from_code(code: u32) -> Option<Self> {
        Self::ALL.get(code as usize).copied()
    }

    /// The host re-encoding of SENDRECV's is_send byte (seed 000 §3):
    /// `is_send != 0 ⇒ ENC_SEND (5)`, otherwise `ENC_RECV (6)`.
    pub const fn from_is_send(is_send: u8) -> Self {
        if is_send != 0 {
            EncOpType::Send
        } else {
            EncOpType::Recv
        }
    }

    /// The host validator of `__compose_p2p_channel`: `(op - 5) <= 1`,
    /// i.e. the op is ENC_SEND or ENC_RECV (seed 000 §5a).
    pub const fn is_p2p(self) -> bool {
        (self as u32).wrapping_sub(5) <= 1
    }

    /// The seed's enumerator name (`"ENC_SEND"`).
    pub const fn name(self) -> &'static str {
        match self {
            EncOpType::Allgather => "ENC_ALLGATHER",
            EncOpType::Allreduce => "ENC_ALLREDUCE",
            EncOpType::Broadcast => "ENC_BROADCAST",
            EncOpType::Reduce => "ENC_REDUCE",
            EncOpType::ReduceScatter => "ENC_REDUCE_SCATTER",
            EncOpType::Send => "ENC_SEND",
            EncOpType::Recv => "ENC_RECV",
            EncOpType::Alltoall => "ENC_ALLTOALL",
            EncOpType::Permute => "ENC_PERMUTE",
            EncOpType::PermuteReduce => "ENC_PERMUTE_REDUCE",
            EncOpType::PermuteImplicit => "ENC_PERMUTE_IMPLICIT",
            EncOpType::PermuteReduceImplicit => "ENC_PERMUTE_REDUCE_IMPLICIT",
            EncOpType::AlltoallV => "ENC_ALLTOALL_V",
            EncOpType::OpInvalid => "ENC_OP_INVALID",
        }
    }
}

impl core::fmt::Display for EncOpType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}={}", self.name(), self.code())
    }
}
