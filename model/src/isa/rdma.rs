//! The extended instructions RDMA_DESC_GEN (sub-op 8) and RDMA_DESC_START
//! (sub-op 9) (seed 001 §1, §4, §5).
//!
//! Seed-known offsets (RDMA_DESC_GEN): local_sem u8 @14, remote_sem u8 @15,
//! remote_core_id u32 @16, remote_routing_id u32 @20, dst_addr u64 @32.
//! Everything else — the extended opcode byte, the sub-op byte at 12, and the
//! remaining fields — is project-defined (docs/decisions.md). RDMA_DESC_START
//! shares bytes 12..23 with RDMA_DESC_GEN.

use serde::{Deserialize, Serialize};

use super::arch::Arch;
use super::error::IsaError;
use super::field::{code_enum, FieldDesc, RawWord, WORD_BYTES};
use super::header::{layout_with_prefix, set_prefix_field, Events, Header, PREFIX_SETTABLE};

/// Opcode byte of the extended instructions (project-defined; not a pseudo-op:
/// bits `[7:5]` = 0b111).
pub const OPCODE_EXTENDED: u8 = 0xE0;
/// EXTENDED_RDMA_DESC_GEN (seed 001 §1).
pub const EXT_OP_RDMA_DESC_GEN: u8 = 8;
/// EXTENDED_RDMA_DESC_START (seed 001 §1).
pub const EXT_OP_RDMA_DESC_START: u8 = 9;

/// UDMA queues per direction (seed 001 §4: ArraySize 16).
pub const NUM_QUEUES: u8 = 16;
/// SBUF partitions (seed 001 §8: 128 partitions).
pub const NUM_PARTITIONS: u16 = 128;
/// Width of the LOCAL SBUF offset, bits `[46:0]` (seed 001 §2.3).
pub const LOCAL_ADDR_BITS: u32 = 47;
/// Width of the tail-pointer-increment value (seed 001 §4: 24-bit val).
pub const TAIL_INC_BITS: u32 = 24;

/// `ext_op` u8: the extended sub-opcode (project-defined position).
pub const EXT_OP: FieldDesc = FieldDesc::new("ext_op", 12, 1);
/// `queue_id` u8: UDMA queue 0..15 (project-defined).
pub const QUEUE_ID: FieldDesc = FieldDesc::new("queue_id", 13, 1);
/// `local_sem` u8 (seed 001 §5: @14): incremented when the local side is done.
pub const LOCAL_SEM: FieldDesc = FieldDesc::new("local_sem", 14, 1);
/// `remote_sem` u8 (seed 001 §5: @15): incremented on the peer when data has landed.
pub const REMOTE_SEM: FieldDesc = FieldDesc::new("remote_sem", 15, 1);
/// `remote_core_id` u32 (seed 001 §2.3: @16): physical id of the peer core.
pub const REMOTE_CORE_ID: FieldDesc = FieldDesc::new("remote_core_id", 16, 4);
/// `remote_routing_id` u32 (seed 001 §2.3: @20): routing id folded into the SoC high bits.
pub const REMOTE_ROUTING_ID: FieldDesc = FieldDesc::new("remote_routing_id", 20, 4);

/// GEN `src_addr` u64: local SBUF offset (project-defined position).
pub const SRC_ADDR: FieldDesc = FieldDesc::new("src_addr", 24, 8);
/// GEN `dst_addr` u64 (seed 001 §2.3: @32): the peer's LOCAL SBUF offset before the fold.
pub const DST_ADDR: FieldDesc = FieldDesc::new("dst_addr", 32, 8);
/// GEN `free_dim_bytes` u32: bytes per partition.
pub const FREE_DIM_BYTES: FieldDesc = FieldDesc::new("free_dim_bytes", 40, 4);
/// GEN `dma_engine_mask` u16: one bit per DMA engine (16 engines).
pub const GEN_DMA_ENGINE_MASK: FieldDesc = FieldDesc::new("dma_engine_mask", 44, 2);
/// GEN `partition_start` u8.
pub const PARTITION_START: FieldDesc = FieldDesc::new("partition_start", 46, 1);
/// GEN `partition_count` u8 (1..=128).
pub const PARTITION_COUNT: FieldDesc = FieldDesc::new("partition_count", 47, 1);
/// GEN `reserved0` (bytes 48..63).
pub const GEN_RESERVED0: FieldDesc = FieldDesc::reserved("reserved0", 48, 16);

/// START `role` u8: 0 = RX, 1 = TX.
pub const ROLE: FieldDesc = FieldDesc::new("role", 24, 1);
/// START `go_sem` u8: the right_push / left_pop go-semaphore.
pub const GO_SEM: FieldDesc = FieldDesc::new("go_sem", 25, 1);
/// START `dma_engine_mask` u16.
pub const START_DMA_ENGINE_MASK: FieldDesc = FieldDesc::new("dma_engine_mask", 26, 2);
/// START `num_descriptors` u32: expected descriptor count (the tail increment).
pub const NUM_DESCRIPTORS: FieldDesc = FieldDesc::new("num_descriptors", 28, 4);
/// START `reserved0` (bytes 32..63).
pub const START_RESERVED0: FieldDesc = FieldDesc::reserved("reserved0", 32, 32);

code_enum! {
    /// rdma_desc_start role (seed 001 §4.2: a6 == 0 ⇒ RX, ≠ 0 ⇒ TX; the word
    /// carries exactly 0 or 1 — project-defined).
    pub enum Role: u8 {
        /// Receiver: arms S2M (RDRTP_inc) first, then right_push-signals TX.
        Rx = 0 => "RX",
        /// Sender: left_pop-waits for RX, then rings M2S (TDRTP_inc) = launch.
        Tx = 1 => "TX",
    }
}

/// The common bytes 12..23 of both extended RDMA words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Common {
    queue_id: u8,
    local_sem: u8,
    remote_sem: u8,
    remote_core_id: u32,
    remote_routing_id: u32,
}

fn decode_common(
    w: &RawWord,
    kind: &'static str,
    ext_op: u8,
) -> Result<(Header, Events, Common), IsaError> {
    let header = Header::decode_expect(w, kind, OPCODE_EXTENDED)?;
    let events = Events::decode(w)?;
    let op = EXT_OP.read(w);
    if op != u64::from(ext_op) {
        return Err(IsaError::UnknownCode {
            field: EXT_OP.name,
            offset: EXT_OP.offset,
            enum_name: "extended sub-op (8 RDMA_DESC_GEN, 9 RDMA_DESC_START)",
            value: op,
        });
    }
    let c = Common {
        queue_id: QUEUE_ID.read(w) as u8,
        local_sem: LOCAL_SEM.read(w) as u8,
        remote_sem: REMOTE_SEM.read(w) as u8,
        remote_core_id: REMOTE_CORE_ID.read(w) as u32,
        remote_routing_id: REMOTE_ROUTING_ID.read(w) as u32,
    };
    Ok((header, events, c))
}

fn encode_common(w: &mut RawWord, h: &Header, e: &Events, ext_op: u8, c: Common) {
    h.encode_into(w);
    e.encode_into(w);
    EXT_OP.write(w, ext_op.into());
    QUEUE_ID.write(w, c.queue_id.into());
    LOCAL_SEM.write(w, c.local_sem.into());
    REMOTE_SEM.write(w, c.remote_sem.into());
    REMOTE_CORE_ID.write(w, c.remote_core_id.into());
    REMOTE_ROUTING_ID.write(w, c.remote_routing_id.into());
}

fn check_queue(queue_id: u8) -> Result<(), IsaError> {
    if queue_id >= NUM_QUEUES {
        return Err(IsaError::RuleBroken {
            field: QUEUE_ID.name,
            offset: QUEUE_ID.offset,
            value: queue_id.into(),
            rule: "queue_id must be < 16 (16 M2S/S2M queues)",
        });
    }
    Ok(())
}

fn check_mask(f: FieldDesc, mask: u16) -> Result<(), IsaError> {
    if mask == 0 {
        return Err(IsaError::RuleBroken {
            field: f.name,
            offset: f.offset,
            value: 0,
            rule: "dma_engine_mask must select at least one DMA engine",
        });
    }
    Ok(())
}

/// Set one of the common fields; `Ok(false)` if `name` is not one.
fn set_common(c: &mut Common, name: &str, text: &str) -> Result<bool, IsaError> {
    match name {
        "queue_id" => c.queue_id = QUEUE_ID.parse_value(text)? as u8,
        "local_sem" => c.local_sem = LOCAL_SEM.parse_value(text)? as u8,
        "remote_sem" => c.remote_sem = REMOTE_SEM.parse_value(text)? as u8,
        "remote_core_id" => c.remote_core_id = REMOTE_CORE_ID.parse_value(text)? as u32,
        "remote_routing_id" => c.remote_routing_id = REMOTE_ROUTING_ID.parse_value(text)? as u32,
        _ => return Ok(false),
    }
    Ok(true)
}

/// RDMA_DESC_GEN (extended op 8): build the descriptor rings of one leg —
/// copy `partition_count` partitions × `free_dim_bytes` from local `src_addr`
/// to the peer's `dst_addr` (folded with `remote_routing_id`), plus the LOCAL
/// and REMOTE semaphore descriptors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RdmaDescGen {
    /// HEADER (opcode [`OPCODE_EXTENDED`]).
    pub header: Header,
    /// EVENTS.
    pub events: Events,
    /// UDMA queue (0..15) the rings are built on.
    pub queue_id: u8,
    /// Local semaphore incremented when the local side is done (source released).
    pub local_sem: u8,
    /// Peer semaphore incremented when all bytes have landed.
    pub remote_sem: u8,
    /// Physical id of the peer core.
    pub remote_core_id: u32,
    /// Routing id of the peer core (folded into the SoC address high bits).
    pub remote_routing_id: u32,
    /// Local SBUF offset of the source (LOCAL `[46:0]`).
    pub src_addr: u64,
    /// Peer SBUF offset of the destination, before the fold (LOCAL `[46:0]`).
    pub dst_addr: u64,
    /// Bytes per partition.
    pub free_dim_bytes: u32,
    /// DMA engines used, one bit each.
    pub dma_engine_mask: u16,
    /// First partition.
    pub partition_start: u8,
    /// Number of partitions (1..=128, start + count <= 128).
    pub partition_count: u8,
}

impl Default for RdmaDescGen {
    fn default() -> Self {
        Self {
            header: Header::new(OPCODE_EXTENDED),
            events: Events::default(),
            queue_id: 0,
            local_sem: 0,
            remote_sem: 0,
            remote_core_id: 0,
            remote_routing_id: 0,
            src_addr: 0,
            dst_addr: 0,
            free_dim_bytes: 0,
            dma_engine_mask: 1,
            partition_start: 0,
            partition_count: 128,
        }
    }
}

impl RdmaDescGen {
    /// Kind name used in messages.
    pub const KIND_NAME: &'static str = "RDMA_DESC_GEN";

    /// Every field, in layout order (tiles bytes 0..64).
    pub const LAYOUT: &'static [FieldDesc] = layout_with_prefix![
        EXT_OP,
        QUEUE_ID,
        LOCAL_SEM,
        REMOTE_SEM,
        REMOTE_CORE_ID,
        REMOTE_ROUTING_ID,
        SRC_ADDR,
        DST_ADDR,
        FREE_DIM_BYTES,
        GEN_DMA_ENGINE_MASK,
        PARTITION_START,
        PARTITION_COUNT,
        GEN_RESERVED0
    ];

    /// Names settable by [`crate::isa::Word::set_field`] (besides the prefix).
    pub const SETTABLE: &'static [&'static str] = &[
        "queue_id",
        "local_sem",
        "remote_sem",
        "remote_core_id",
        "remote_routing_id",
        "src_addr",
        "dst_addr",
        "free_dim_bytes",
        "dma_engine_mask",
        "partition_start",
        "partition_count",
    ];

    fn common(&self) -> Common {
        Common {
            queue_id: self.queue_id,
            local_sem: self.local_sem,
            remote_sem: self.remote_sem,
            remote_core_id: self.remote_core_id,
            remote_routing_id: self.remote_routing_id,
        }
    }

    fn set_common_fields(&mut self, c: Common) {
        self.queue_id = c.queue_id;
        self.local_sem = c.local_sem;
        self.remote_sem = c.remote_sem;
        self.remote_core_id = c.remote_core_id;
        self.remote_routing_id = c.remote_routing_id;
    }

    /// Decode a word and check it (opcode, sub-op, events codes, reserved
    /// bytes, [`Self::validate`]).
    pub fn decode(w: &RawWord, arch: Arch) -> Result<Self, IsaError> {
        let (header, events, c) = decode_common(w, Self::KIND_NAME, EXT_OP_RDMA_DESC_GEN)?;
        GEN_RESERVED0.check_zero(w)?;
        let mut g = Self {
            header,
            events,
            src_addr: SRC_ADDR.read(w),
            dst_addr: DST_ADDR.read(w),
            free_dim_bytes: FREE_DIM_BYTES.read(w) as u32,
            dma_engine_mask: GEN_DMA_ENGINE_MASK.read(w) as u16,
            partition_start: PARTITION_START.read(w) as u8,
            partition_count: PARTITION_COUNT.read(w) as u8,
            ..Self::default()
        };
        g.set_common_fields(c);
        g.validate(arch)?;
        Ok(g)
    }

    /// Encode to the 64-byte word (reserved bytes zero).
    pub fn encode(&self) -> RawWord {
        let mut w = [0u8; WORD_BYTES];
        encode_common(
            &mut w,
            &self.header,
            &self.events,
            EXT_OP_RDMA_DESC_GEN,
            self.common(),
        );
        SRC_ADDR.write(&mut w, self.src_addr);
        DST_ADDR.write(&mut w, self.dst_addr);
        FREE_DIM_BYTES.write(&mut w, self.free_dim_bytes.into());
        GEN_DMA_ENGINE_MASK.write(&mut w, self.dma_engine_mask.into());
        PARTITION_START.write(&mut w, self.partition_start.into());
        PARTITION_COUNT.write(&mut w, self.partition_count.into());
        w
    }

    /// Project-defined rules: queue_id < 16; at least one DMA engine;
    /// src/dst are LOCAL offsets (< 2^47); 1 <= partition_count and
    /// partition_start + partition_count <= 128.
    pub fn validate(&self, _arch: Arch) -> Result<(), IsaError> {
        self.header
            .expect_opcode(Self::KIND_NAME, OPCODE_EXTENDED)?;
        check_queue(self.queue_id)?;
        for (f, v) in [(SRC_ADDR, self.src_addr), (DST_ADDR, self.dst_addr)] {
            if v >> LOCAL_ADDR_BITS != 0 {
                return Err(IsaError::RuleBroken {
                    field: f.name,
                    offset: f.offset,
                    value: v,
                    rule:
                        "must be a LOCAL SBUF offset (bits [46:0]); the fold adds the routing bits",
                });
            }
        }
        check_mask(GEN_DMA_ENGINE_MASK, self.dma_engine_mask)?;
        if self.partition_count == 0 {
            return Err(IsaError::RuleBroken {
                field: PARTITION_COUNT.name,
                offset: PARTITION_COUNT.offset,
                value: 0,
                rule: "partition_count must be at least 1",
            });
        }
        let end = u16::from(self.partition_start) + u16::from(self.partition_count);
        if end > NUM_PARTITIONS {
            return Err(IsaError::RuleBroken {
                field: PARTITION_COUNT.name,
                offset: PARTITION_COUNT.offset,
                value: self.partition_count.into(),
                rule: "partition_start + partition_count must be <= 128",
            });
        }
        Ok(())
    }

    pub(crate) fn set_field(&mut self, name: &str, text: &str) -> Result<(), IsaError> {
        if set_prefix_field(&mut self.header, &mut self.events, name, text)? {
            return Ok(());
        }
        let mut c = self.common();
        if set_common(&mut c, name, text)? {
            self.set_common_fields(c);
            return Ok(());
        }
        match name {
            "src_addr" => self.src_addr = SRC_ADDR.parse_value(text)?,
            "dst_addr" => self.dst_addr = DST_ADDR.parse_value(text)?,
            "free_dim_bytes" => self.free_dim_bytes = FREE_DIM_BYTES.parse_value(text)? as u32,
            "dma_engine_mask" => {
                self.dma_engine_mask = GEN_DMA_ENGINE_MASK.parse_value(text)? as u16
            }
            "partition_start" => self.partition_start = PARTITION_START.parse_value(text)? as u8,
            "partition_count" => self.partition_count = PARTITION_COUNT.parse_value(text)? as u8,
            _ => {
                return Err(super::unknown_field(
                    name,
                    Self::KIND_NAME,
                    &[PREFIX_SETTABLE, Self::SETTABLE],
                ))
            }
        }
        Ok(())
    }

    pub(crate) fn describe(&self, name: &str) -> Option<String> {
        match name {
            "ext_op" => Some("EXTENDED_RDMA_DESC_GEN".to_string()),
            "dma_engine_mask" => Some(format!("{} engine(s)", self.dma_engine_mask.count_ones())),
            "free_dim_bytes" => Some(format!(
                "{} bytes in total",
                u64::from(self.free_dim_bytes) * u64::from(self.partition_count)
            )),
            _ => None,
        }
    }
}

/// RDMA_DESC_START (extended op 9): drain the rings and ring the doorbell —
/// RX arms its S2M queue then signals `go_sem` (right_push); TX waits on
/// `go_sem` (left_pop) then advances its M2S tail by `num_descriptors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RdmaDescStart {
    /// HEADER (opcode [`OPCODE_EXTENDED`]).
    pub header: Header,
    /// EVENTS.
    pub events: Events,
    /// UDMA queue (0..15) whose tail is advanced.
    pub queue_id: u8,
    /// Local semaphore of the leg (as in RDMA_DESC_GEN).
    pub local_sem: u8,
    /// Peer semaphore of the leg (as in RDMA_DESC_GEN).
    pub remote_sem: u8,
    /// Physical id of the peer core.
    pub remote_core_id: u32,
    /// Routing id of the peer core (routes the right_push signal).
    pub remote_routing_id: u32,
    /// RX (arm S2M, then signal) or TX (wait, then launch M2S).
    pub role: Role,
    /// The go-semaphore: RX increments it on the peer (right_push), TX waits on it (left_pop).
    pub go_sem: u8,
    /// DMA engines whose queues are triggered.
    pub dma_engine_mask: u16,
    /// Expected descriptor count = the tail-pointer increment (24-bit).
    pub num_descriptors: u32,
}

impl Default for RdmaDescStart {
    fn default() -> Self {
        Self {
            header: Header::new(OPCODE_EXTENDED),
            events: Events::default(),
            queue_id: 0,
            local_sem: 0,
            remote_sem: 0,
            remote_core_id: 0,
            remote_routing_id: 0,
            role: Role::Rx,
            go_sem: 0,
            dma_engine_mask: 1,
            num_descriptors: 0,
        }
    }
}

impl RdmaDescStart {
    /// Kind name used in messages.
    pub const KIND_NAME: &'static str = "RDMA_DESC_START";

    /// Every field, in layout order (tiles bytes 0..64).
    pub const LAYOUT: &'static [FieldDesc] = layout_with_prefix![
        EXT_OP,
        QUEUE_ID,
        LOCAL_SEM,
        REMOTE_SEM,
        REMOTE_CORE_ID,
        REMOTE_ROUTING_ID,
        ROLE,
        GO_SEM,
        START_DMA_ENGINE_MASK,
        NUM_DESCRIPTORS,
        START_RESERVED0
    ];

    /// Names settable by [`crate::isa::Word::set_field`] (besides the prefix).
    pub const SETTABLE: &'static [&'static str] = &[
        "queue_id",
        "local_sem",
        "remote_sem",
        "remote_core_id",
        "remote_routing_id",
        "role",
        "go_sem",
        "dma_engine_mask",
        "num_descriptors",
    ];

    fn common(&self) -> Common {
        Common {
            queue_id: self.queue_id,
            local_sem: self.local_sem,
            remote_sem: self.remote_sem,
            remote_core_id: self.remote_core_id,
            remote_routing_id: self.remote_routing_id,
        }
    }

    fn set_common_fields(&mut self, c: Common) {
        self.queue_id = c.queue_id;
        self.local_sem = c.local_sem;
        self.remote_sem = c.remote_sem;
        self.remote_core_id = c.remote_core_id;
        self.remote_routing_id = c.remote_routing_id;
    }

    /// Decode a word and check it (opcode, sub-op, events codes, role code,
    /// reserved bytes, [`Self::validate`]).
    pub fn decode(w: &RawWord, arch: Arch) -> Result<Self, IsaError> {
        let (header, events, c) = decode_common(w, Self::KIND_NAME, EXT_OP_RDMA_DESC_START)?;
        let r = ROLE.read(w) as u8;
        let role = Role::from_code(r).ok_or(IsaError::UnknownCode {
            field: ROLE.name,
            offset: ROLE.offset,
            enum_name: "role (0 RX, 1 TX)",
            value: r.into(),
        })?;
        START_RESERVED0.check_zero(w)?;
        let mut s = Self {
            header,
            events,
            role,
            go_sem: GO_SEM.read(w) as u8,
            dma_engine_mask: START_DMA_ENGINE_MASK.read(w) as u16,
            num_descriptors: NUM_DESCRIPTORS.read(w) as u32,
            ..Self::default()
        };
        s.set_common_fields(c);
        s.validate(arch)?;
        Ok(s)
    }

    /// Encode to the 64-byte word (reserved bytes zero).
    pub fn encode(&self) -> RawWord {
        let mut w = [0u8; WORD_BYTES];
        encode_common(
            &mut w,
            &self.header,
            &self.events,
            EXT_OP_RDMA_DESC_START,
            self.common(),
        );
        ROLE.write(&mut w, self.role.code().into());
        GO_SEM.write(&mut w, self.go_sem.into());
        START_DMA_ENGINE_MASK.write(&mut w, self.dma_engine_mask.into());
        NUM_DESCRIPTORS.write(&mut w, self.num_descriptors.into());
        w
    }

    /// Project-defined rules: queue_id < 16; at least one DMA engine;
    /// num_descriptors fits the 24-bit tail-pointer increment.
    pub fn validate(&self, _arch: Arch) -> Result<(), IsaError> {
        self.header
            .expect_opcode(Self::KIND_NAME, OPCODE_EXTENDED)?;
        check_queue(self.queue_id)?;
        check_mask(START_DMA_ENGINE_MASK, self.dma_engine_mask)?;
        if self.num_descriptors >> TAIL_INC_BITS != 0 {
            return Err(IsaError::RuleBroken {
                field: NUM_DESCRIPTORS.name,
                offset: NUM_DESCRIPTORS.offset,
                value: self.num_descriptors.into(),
                rule: "num_descriptors must fit the 24-bit tail-pointer increment",
            });
        }
        Ok(())
    }

    pub(crate) fn set_field(&mut self, name: &str, text: &str) -> Result<(), IsaError> {
        if set_prefix_field(&mut self.header, &mut self.events, name, text)? {
            return Ok(());
        }
        let mut c = self.common();
        if set_common(&mut c, name, text)? {
            self.set_common_fields(c);
            return Ok(());
        }
        match name {
            "role" => {
                self.role = text.parse().map_err(|_| IsaError::BadValue {
                    field: ROLE.name,
                    text: text.into(),
                })?
            }
            "go_sem" => self.go_sem = GO_SEM.parse_value(text)? as u8,
            "dma_engine_mask" => {
                self.dma_engine_mask = START_DMA_ENGINE_MASK.parse_value(text)? as u16
            }
            "num_descriptors" => self.num_descriptors = NUM_DESCRIPTORS.parse_value(text)? as u32,
            _ => {
                return Err(super::unknown_field(
                    name,
                    Self::KIND_NAME,
                    &[PREFIX_SETTABLE, Self::SETTABLE],
                ))
            }
        }
        Ok(())
    }

    pub(crate) fn describe(&self, name: &str) -> Option<String> {
        match name {
            "ext_op" => Some("EXTENDED_RDMA_DESC_START".to_string()),
            "role" => Some(match self.role {
                Role::Rx => "RX: arm S2M (RDRTP_inc), then right_push go_sem".to_string(),
                Role::Tx => "TX: left_pop go_sem, then M2S TDRTP_inc (launch)".to_string(),
            }),
            "dma_engine_mask" => Some(format!("{} engine(s)", self.dma_engine_mask.count_ones())),
            _ => None,
        }
    }
}
