//! EVT_SEM register map, defined once (exported to `rtl/sb2sb_pkg.sv`).
//!
//! Window layout (0x2000 bytes, 4-byte registers):
//!
//! | offset | window | source |
//! | --- | --- | --- |
//! | 0x0000–0x03FF | EVENT\[i\] (256 events, read 0/1, write stores wdata\[0\]) | PUBLIC-FACTS §2 ("events live below the semaphore windows"); offset project-defined |
//! | 0x0400 | ERR_STATUS (sticky, write-1-to-clear) | project-defined |
//! | 0x0404 | FIRST_ERR (first error since re-armed; write VALID=1 to re-arm) | project-defined |
//! | 0x0408 | FIRST_ERR_DATA (read-only) | project-defined |
//! | 0x040C–0x0FFF | unmapped (SLVERR) | project-defined |
//! | 0x1000 | SEM_READ\[i\] (read-only) | PUBLIC-FACTS §2 |
//! | 0x1400 | SEM_SET\[i\] | PUBLIC-FACTS §2 |
//! | 0x1800 | SEM_INCR\[i\] (+= wdata) | seed 001 §5.1 (HIGH/OBSERVED), PUBLIC-FACTS §2 |
//! | 0x1C00 | SEM_DECR\[i\] (-= wdata) | PUBLIC-FACTS §2 |
//!
//! The window is selected by offset bits \[12:10\], the register index by
//! bits \[9:2\]; bits \[1:0\] are ignored (32-bit registers).

crate::sv_consts! {
    /// EVT_SEM: AXI4-Lite address width (byte offset inside the window).
    EVT_SEM_ADDR_W: u32[8] = 13;
    /// EVT_SEM: number of semaphores (signed 32-bit).
    EVT_SEM_NUM_SEM: u32[16] = 256;
    /// EVT_SEM: number of events (one bit each).
    EVT_SEM_NUM_EVT: u32[16] = 256;
    /// EVT_SEM: hardware increment ports (one per DMA engine).
    EVT_SEM_NUM_INC: u32[8] = 16;
    /// EVT_SEM: wait ports.
    EVT_SEM_NUM_WAIT: u32[8] = 4;
    /// EVT_SEM: lowest offset bit of the window selector (`offset[12:10]`).
    EVT_SEM_WIN_LSB: u32[8] = 10;
    /// EVT_SEM: lowest offset bit of the register index (`offset[9:2]`).
    EVT_SEM_IDX_LSB: u32[8] = 2;
    /// EVT_SEM: window code of `EVENT[i]` (0x0000).
    EVT_SEM_WIN_EVENT: u32[3] = 0;
    /// EVT_SEM: window code of `SEM_READ[i]` (0x1000), read-only.
    EVT_SEM_WIN_SEM_READ: u32[3] = 4;
    /// EVT_SEM: window code of `SEM_SET[i]` (0x1400).
    EVT_SEM_WIN_SEM_SET: u32[3] = 5;
    /// EVT_SEM: window code of `SEM_INCR[i]` (0x1800).
    EVT_SEM_WIN_SEM_INCR: u32[3] = 6;
    /// EVT_SEM: window code of `SEM_DECR[i]` (0x1C00).
    EVT_SEM_WIN_SEM_DECR: u32[3] = 7;
    /// EVT_SEM: ERR_STATUS offset (sticky error bits, write-1-to-clear).
    EVT_SEM_ERR_STATUS: u32[13] = 0x0400;
    /// EVT_SEM: FIRST_ERR offset (write with VALID set re-arms the capture).
    EVT_SEM_FIRST_ERR: u32[13] = 0x0404;
    /// EVT_SEM: FIRST_ERR_DATA offset (read-only).
    EVT_SEM_FIRST_ERR_DATA: u32[13] = 0x0408;
    /// EVT_SEM: ERR bit: write to a read-only register (SEM_READ, FIRST_ERR_DATA).
    EVT_SEM_ERR_WR_RO: u32[3] = ERR_WR_RO.lsb;
    /// EVT_SEM: ERR bit: access to an unmapped offset.
    EVT_SEM_ERR_UNMAPPED: u32[3] = ERR_UNMAPPED.lsb;
    /// EVT_SEM: ERR bit: write with wstrb != 4'hF.
    EVT_SEM_ERR_PARTIAL_STRB: u32[3] = ERR_PARTIAL_STRB.lsb;
    /// EVT_SEM: ERR bit: a semaphore update left the signed 32-bit range (saturated).
    EVT_SEM_ERR_OVERFLOW: u32[3] = ERR_OVERFLOW.lsb;
    /// EVT_SEM: ERR bit: a wait port was valid with an unsupported wait_mode.
    EVT_SEM_ERR_BAD_WAIT_MODE: u32[3] = ERR_BAD_WAIT_MODE.lsb;
    /// EVT_SEM: number of ERR_STATUS bits.
    EVT_SEM_NUM_ERR: u32[8] = 5;
    /// EVT_SEM: wait_mode NONE (satisfied at once). Seed 002 §3.
    EVT_SEM_WAIT_NONE: u32[8] = 0x00;
    /// EVT_SEM: wait_mode WAIT_FOR_SEM_EQ_IMM. Seed 002 §3.
    EVT_SEM_WAIT_SEM_EQ: u32[8] = 0x01;
    /// EVT_SEM: wait_mode WAIT_FOR_SEM_LT_IMM. Seed 002 §3.
    EVT_SEM_WAIT_SEM_LT: u32[8] = 0x02;
    /// EVT_SEM: wait_mode WAIT_FOR_SEM_LE_IMM. Seed 002 §3.
    EVT_SEM_WAIT_SEM_LE: u32[8] = 0x03;
    /// EVT_SEM: wait_mode WAIT_FOR_SEM_GT_IMM. Seed 002 §3.
    EVT_SEM_WAIT_SEM_GT: u32[8] = 0x04;
    /// EVT_SEM: wait_mode WAIT_FOR_SEM_GE_IMM. Seed 002 §3.
    EVT_SEM_WAIT_SEM_GE: u32[8] = 0x05;
    /// EVT_SEM: wait_mode WAIT_FOR_EVT_SET. Seed 002 §3.
    EVT_SEM_WAIT_EVT_SET: u32[8] = 0x06;
    /// EVT_SEM: wait_mode WAIT_FOR_EVT_SET_THEN_CLEAR. Seed 002 §3.
    EVT_SEM_WAIT_EVT_SET_CLR: u32[8] = 0x07;
    /// EVT_SEM: wait_mode wait >= immediate then decrement by it (project-defined code; seed 001 §5.2 add_semaphore_wait_ge_and_dec).
    EVT_SEM_WAIT_SEM_GE_DEC: u32[8] = 0x08;
    /// EVT_SEM: full write strobe (the only one accepted).
    EVT_SEM_FULL_STRB: u32[4] = 0xF;
}

// ---- constants the RTL does not use (Rust models and stimulus only) ----

/// AXI response OKAY.
pub const EVT_SEM_RESP_OKAY: u32 = 0;
/// AXI response SLVERR.
pub const EVT_SEM_RESP_SLVERR: u32 = 2;

/// EVT_SEM: FIRST_ERR bit: a first error is captured.
pub const EVT_SEM_FE_VALID_BIT: u32 = FIRST_ERR_VALID.lsb;
/// EVT_SEM: FIRST_ERR lowest bit of KIND (the ERR bit number, 3 bits).
pub const EVT_SEM_FE_KIND_LSB: u32 = FIRST_ERR_KIND.lsb;
/// EVT_SEM: FIRST_ERR bit: the error was an AXI write (1) or read (0).
pub const EVT_SEM_FE_WRITE_BIT: u32 = FIRST_ERR_WRITE.lsb;
/// EVT_SEM: FIRST_ERR INFO width (INFO in `[15:0]`: byte offset, semaphore or port index).
pub const EVT_SEM_FE_INFO_W: u32 = FIRST_ERR_INFO.width;

/// EVT_SEM: bytes in the register window.
pub const EVT_SEM_WINDOW_BYTES: u32 = 0x2000;
/// EVT_SEM: byte offset of `EVENT[0]`.
pub const EVT_SEM_EVENT_BASE: u32 = 0x0000;
/// EVT_SEM: byte offset of `SEM_READ[0]`.
pub const EVT_SEM_SEM_READ_BASE: u32 = 0x1000;
/// EVT_SEM: byte offset of `SEM_SET[0]`.
pub const EVT_SEM_SEM_SET_BASE: u32 = 0x1400;
/// EVT_SEM: byte offset of `SEM_INCR[0]`.
pub const EVT_SEM_SEM_INCR_BASE: u32 = 0x1800;
/// EVT_SEM: byte offset of `SEM_DECR[0]`.
pub const EVT_SEM_SEM_DECR_BASE: u32 = 0x1C00;

// ---- register description (model/src/regs) ----

use crate::regs::{Access, Array, Block, Field, Group, Layout, Reg as RegDesc, Sides, Source};

const PF2: Source = Source::Public("PUBLIC-FACTS §2");
const PRJ: Source = Source::Project;

/// `EVENT[i]`: the event bit.
pub const EVENT_VALUE: Field = Field::new("VALUE", 0, 1, "", PRJ);
/// Layout of `EVENT[i]`.
pub const EVENT: Layout = Layout {
    name: "evt_sem_event",
    fields: &[EVENT_VALUE],
};
/// ERR bit: write to a read-only register.
pub const ERR_WR_RO: Field = Field::new("WR_RO", 0, 1, "write to SEM_READ / FIRST_ERR_DATA", PRJ);
/// ERR bit: access to an unmapped offset.
pub const ERR_UNMAPPED: Field = Field::new("UNMAPPED", 1, 1, "access to an unmapped offset", PRJ);
/// ERR bit: write with a partial strobe.
pub const ERR_PARTIAL_STRB: Field =
    Field::new("PARTIAL_STRB", 2, 1, "write with wstrb != 4'hF", PRJ);
/// ERR bit: a semaphore saturated.
pub const ERR_OVERFLOW: Field = Field::new("OVERFLOW", 3, 1, "a semaphore saturated", PRJ);
/// ERR bit: unsupported wait mode on a valid wait port.
pub const ERR_BAD_WAIT_MODE: Field =
    Field::new("BAD_WAIT_MODE", 4, 1, "unsupported wait_mode", PRJ);
/// Layout of ERR_STATUS (and of `err_pulse_o` / `err_status_o`).
pub const ERR: Layout = Layout {
    name: "evt_sem_err",
    fields: &[
        ERR_WR_RO,
        ERR_UNMAPPED,
        ERR_PARTIAL_STRB,
        ERR_OVERFLOW,
        ERR_BAD_WAIT_MODE,
    ],
};
/// FIRST_ERR: a first error is captured.
pub const FIRST_ERR_VALID: Field = Field::new("VALID", 31, 1, "write 1 to re-arm", PRJ);
/// FIRST_ERR: the ERR bit number of the error.
pub const FIRST_ERR_KIND: Field = Field::new("KIND", 28, 3, "ERR_STATUS bit number", PRJ);
/// FIRST_ERR: the error was an AXI write.
pub const FIRST_ERR_WRITE: Field = Field::new("WRITE", 27, 1, "AXI write (1) or read (0)", PRJ);
/// FIRST_ERR: byte offset (AXI), semaphore index (overflow) or port index (wait mode).
pub const FIRST_ERR_INFO: Field = Field::new("INFO", 0, 16, "offset, semaphore or port", PRJ);
/// Layout of FIRST_ERR.
pub const FIRST_ERR: Layout = Layout {
    name: "evt_sem_first_err",
    fields: &[
        FIRST_ERR_VALID,
        FIRST_ERR_KIND,
        FIRST_ERR_WRITE,
        FIRST_ERR_INFO,
    ],
};
/// A signed 32-bit semaphore value (also FIRST_ERR_DATA).
pub const SEM_VALUE: Field = Field::new("VALUE", 0, 32, "signed", PF2);
/// Layout of a semaphore register.
pub const SEM: Layout = Layout {
    name: "evt_sem_sem",
    fields: &[SEM_VALUE],
};

#[allow(clippy::too_many_arguments)] // one argument per column of the register table
const fn r(
    name: &'static str,
    offset: u32,
    count: u32,
    access: Access,
    layout: &'static Layout,
    effect: &'static str,
    desc: &'static str,
    source: Source,
) -> RegDesc {
    RegDesc {
        name,
        offset,
        array: if count > 1 {
            Some(Array {
                count,
                stride: 1 << EVT_SEM_IDX_LSB,
            })
        } else {
            None
        },
        access,
        layout,
        sides: Sides::Both,
        effect,
        volatile: false,
        storage: None,
        desc,
        source,
    }
}
const fn volatile(reg: RegDesc) -> RegDesc {
    RegDesc {
        volatile: true,
        ..reg
    }
}
const fn semaphore(reg: RegDesc) -> RegDesc {
    RegDesc {
        storage: Some("SEM_READ"),
        ..reg
    }
}

/// Registers of the EVT_SEM window.
pub const WINDOW_REGS: &[RegDesc] = &[
    r(
        "EVENT",
        EVT_SEM_EVENT_BASE,
        EVT_SEM_NUM_EVT,
        Access::Rw,
        &EVENT,
        "",
        "event i: read 0/1, write stores wdata[0] (events below the semaphore windows, 256 per core; offset project-defined)",
        PF2,
    ),
    volatile(r(
        "ERR_STATUS",
        EVT_SEM_ERR_STATUS,
        1,
        Access::W1c,
        &ERR,
        "",
        "sticky error bits",
        PRJ,
    )),
    volatile(r(
        "FIRST_ERR",
        EVT_SEM_FIRST_ERR,
        1,
        Access::Rw,
        &FIRST_ERR,
        "VALID = 1 re-arms (clears FIRST_ERR and FIRST_ERR_DATA); other bits ignored",
        "first error since re-armed",
        PRJ,
    )),
    volatile(r(
        "FIRST_ERR_DATA",
        EVT_SEM_FIRST_ERR_DATA,
        1,
        Access::Ro,
        &SEM,
        "",
        "wdata of a failed write; 0 for a failed read; the clamped value for OVERFLOW; the wait_mode byte for BAD_WAIT_MODE",
        PRJ,
    )),
    r(
        "SEM_READ",
        EVT_SEM_SEM_READ_BASE,
        EVT_SEM_NUM_SEM,
        Access::Ro,
        &SEM,
        "",
        "semaphore i; a write answers SLVERR (WR_RO)",
        PF2,
    ),
    semaphore(r(
        "SEM_SET",
        EVT_SEM_SEM_SET_BASE,
        EVT_SEM_NUM_SEM,
        Access::Rw,
        &SEM,
        "",
        "semaphore i: write replaces, read returns it",
        PF2,
    )),
    semaphore(r(
        "SEM_INCR",
        EVT_SEM_SEM_INCR_BASE,
        EVT_SEM_NUM_SEM,
        Access::Rw,
        &SEM,
        "semaphore i += wdata (signed, saturating)",
        "reads semaphore i",
        Source::Seed("001 §5.1"),
    )),
    semaphore(r(
        "SEM_DECR",
        EVT_SEM_SEM_DECR_BASE,
        EVT_SEM_NUM_SEM,
        Access::Rw,
        &SEM,
        "semaphore i -= wdata (signed, saturating)",
        "reads semaphore i",
        PF2,
    )),
];

/// Register description of EVT_SEM.
pub const DESC: Block = Block {
    name: "evt_sem",
    groups: &[Group {
        title: "EVT_SEM window (0x2000 bytes; offsets 0x040C–0x0FFF unmapped: SLVERR)",
        sv: "evt_sem",
        base: 0,
        array: None,
        regs: WINDOW_REGS,
    }],
    layouts: &[&EVENT, &ERR, &FIRST_ERR, &SEM],
};

/// Words of the EVT_SEM window.
const WINDOW_WORDS: usize = 1 << (EVT_SEM_ADDR_W - EVT_SEM_IDX_LSB);
/// Decode table built at compile time from the description (`WINDOW_REGS`); the
/// RTL's is generated from the same description (`evt_sem_access` in
/// `rtl/sb2sb_pkg.sv`).
static WINDOW_ACCESS: [Option<Access>; WINDOW_WORDS] =
    crate::regs::access_table(WINDOW_REGS, Sides::Both);

/// Access kind of window byte offset `offset` (bits above the window and bits
/// \[1:0\] ignored, as [`Reg::decode`]); `None` when nothing is mapped there.
#[inline(always)]
pub fn access(offset: u32) -> Option<Access> {
    WINDOW_ACCESS[((offset & ADDR_MASK) >> EVT_SEM_IDX_LSB) as usize]
}

/// Mask of the valid bits of ERR_STATUS.
pub const ERR_MASK: u32 = ERR.mask();
/// Mask of the FIRST_ERR INFO field.
pub const FE_INFO_MASK: u32 = FIRST_ERR_INFO.max();
/// Mask of the byte offset inside the window.
pub const ADDR_MASK: u32 = (1 << EVT_SEM_ADDR_W) - 1;
/// Mask of a register index (8 bits).
pub const IDX_MASK: u32 = EVT_SEM_NUM_SEM - 1;
/// Mask of the window selector (3 bits) once shifted down.
pub const WIN_MASK: u32 = 0x7;

/// The four semaphore windows (PUBLIC-FACTS §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SemWindow {
    /// 0x1000: read-only.
    Read,
    /// 0x1400: write replaces the value.
    Set,
    /// 0x1800: write adds wdata (signed).
    Incr,
    /// 0x1C00: write subtracts wdata (signed).
    Decr,
}

/// What one window offset addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reg {
    /// EVENT\[i\].
    Event(u8),
    /// ERR_STATUS (W1C).
    ErrStatus,
    /// FIRST_ERR (write VALID=1 to re-arm).
    FirstErr,
    /// FIRST_ERR_DATA (read-only).
    FirstErrData,
    /// A semaphore window and index.
    Sem(SemWindow, u8),
    /// Nothing is mapped here (0x040C–0x0FFF).
    Unmapped,
}

impl Reg {
    /// Decode a byte offset (bits above the window and bits \[1:0\] are ignored).
    pub fn decode(offset: u32) -> Reg {
        let off = offset & ADDR_MASK;
        let idx = ((off >> EVT_SEM_IDX_LSB) & IDX_MASK) as u8;
        let word = off >> EVT_SEM_IDX_LSB;
        match (off >> EVT_SEM_WIN_LSB) & WIN_MASK {
            EVT_SEM_WIN_EVENT => Reg::Event(idx),
            EVT_SEM_WIN_SEM_READ => Reg::Sem(SemWindow::Read, idx),
            EVT_SEM_WIN_SEM_SET => Reg::Sem(SemWindow::Set, idx),
            EVT_SEM_WIN_SEM_INCR => Reg::Sem(SemWindow::Incr, idx),
            EVT_SEM_WIN_SEM_DECR => Reg::Sem(SemWindow::Decr, idx),
            _ if word == EVT_SEM_ERR_STATUS >> EVT_SEM_IDX_LSB => Reg::ErrStatus,
            _ if word == EVT_SEM_FIRST_ERR >> EVT_SEM_IDX_LSB => Reg::FirstErr,
            _ if word == EVT_SEM_FIRST_ERR_DATA >> EVT_SEM_IDX_LSB => Reg::FirstErrData,
            _ => Reg::Unmapped,
        }
    }

    /// Byte offset of this register (inverse of [`Reg::decode`]).
    pub fn offset(self) -> u32 {
        let at = |base: u32, i: u8| base + (u32::from(i) << EVT_SEM_IDX_LSB);
        match self {
            Reg::Event(i) => at(EVT_SEM_EVENT_BASE, i),
            Reg::ErrStatus => EVT_SEM_ERR_STATUS,
            Reg::FirstErr => EVT_SEM_FIRST_ERR,
            Reg::FirstErrData => EVT_SEM_FIRST_ERR_DATA,
            Reg::Sem(SemWindow::Read, i) => at(EVT_SEM_SEM_READ_BASE, i),
            Reg::Sem(SemWindow::Set, i) => at(EVT_SEM_SEM_SET_BASE, i),
            Reg::Sem(SemWindow::Incr, i) => at(EVT_SEM_SEM_INCR_BASE, i),
            Reg::Sem(SemWindow::Decr, i) => at(EVT_SEM_SEM_DECR_BASE, i),
            Reg::Unmapped => EVT_SEM_FIRST_ERR_DATA + (1 << EVT_SEM_IDX_LSB),
        }
    }
}

/// Error kinds recorded in ERR_STATUS (bit number = discriminant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum ErrKind {
    /// Write to a read-only register.
    WrRo = EVT_SEM_ERR_WR_RO,
    /// Access to an unmapped offset.
    Unmapped = EVT_SEM_ERR_UNMAPPED,
    /// Write with a partial strobe.
    PartialStrb = EVT_SEM_ERR_PARTIAL_STRB,
    /// Semaphore saturated.
    Overflow = EVT_SEM_ERR_OVERFLOW,
    /// Unsupported wait mode on a valid wait port.
    BadWaitMode = EVT_SEM_ERR_BAD_WAIT_MODE,
}

impl ErrKind {
    /// The ERR_STATUS bit of this kind.
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }
}

/// A decoded FIRST_ERR register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FirstErr {
    /// A first error is captured.
    pub valid: bool,
    /// ERR_STATUS bit number of the error.
    pub kind: u32,
    /// The error came from an AXI write.
    pub write: bool,
    /// Byte offset (AXI errors), semaphore index (overflow) or port index (wait mode).
    pub info: u32,
}

impl FirstErr {
    /// Pack into the register value.
    pub const fn pack(self) -> u32 {
        FIRST_ERR_VALID.val(self.valid as u32)
            | FIRST_ERR_KIND.val(self.kind)
            | FIRST_ERR_WRITE.val(self.write as u32)
            | FIRST_ERR_INFO.val(self.info)
    }
    /// Unpack a register value (never fails: every field is total).
    pub const fn unpack(v: u32) -> Self {
        Self {
            valid: FIRST_ERR_VALID.is_set(v),
            kind: FIRST_ERR_KIND.get(v),
            write: FIRST_ERR_WRITE.is_set(v),
            info: FIRST_ERR_INFO.get(v),
        }
    }
}

/// Wait modes accepted by the wait ports (seed 002 §3 codes; GE_DEC project-defined).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitMode {
    /// No wait: satisfied at once.
    None,
    /// sem == imm.
    SemEq,
    /// sem < imm (signed).
    SemLt,
    /// sem <= imm.
    SemLe,
    /// sem > imm.
    SemGt,
    /// sem >= imm.
    SemGe,
    /// event set.
    EvtSet,
    /// event set; clear it when satisfied.
    EvtSetThenClear,
    /// sem >= imm; subtract imm when satisfied (atomic).
    SemGeDec,
}

impl WaitMode {
    /// All supported modes, in code order.
    pub const ALL: [WaitMode; 9] = [
        WaitMode::None,
        WaitMode::SemEq,
        WaitMode::SemLt,
        WaitMode::SemLe,
        WaitMode::SemGt,
        WaitMode::SemGe,
        WaitMode::EvtSet,
        WaitMode::EvtSetThenClear,
        WaitMode::SemGeDec,
    ];

    /// Decode a wait_mode byte; `None` for unsupported codes (e.g. the _REG variants 0x81..0x85).
    pub const fn from_code(code: u32) -> Option<WaitMode> {
        Some(match code {
            EVT_SEM_WAIT_NONE => WaitMode::None,
            EVT_SEM_WAIT_SEM_EQ => WaitMode::SemEq,
            EVT_SEM_WAIT_SEM_LT => WaitMode::SemLt,
            EVT_SEM_WAIT_SEM_LE => WaitMode::SemLe,
            EVT_SEM_WAIT_SEM_GT => WaitMode::SemGt,
            EVT_SEM_WAIT_SEM_GE => WaitMode::SemGe,
            EVT_SEM_WAIT_EVT_SET => WaitMode::EvtSet,
            EVT_SEM_WAIT_EVT_SET_CLR => WaitMode::EvtSetThenClear,
            EVT_SEM_WAIT_SEM_GE_DEC => WaitMode::SemGeDec,
            _ => return None,
        })
    }

    /// The wait_mode byte of this mode.
    pub const fn code(self) -> u32 {
        match self {
            WaitMode::None => EVT_SEM_WAIT_NONE,
            WaitMode::SemEq => EVT_SEM_WAIT_SEM_EQ,
            WaitMode::SemLt => EVT_SEM_WAIT_SEM_LT,
            WaitMode::SemLe => EVT_SEM_WAIT_SEM_LE,
            WaitMode::SemGt => EVT_SEM_WAIT_SEM_GT,
            WaitMode::SemGe => EVT_SEM_WAIT_SEM_GE,
            WaitMode::EvtSet => EVT_SEM_WAIT_EVT_SET,
            WaitMode::EvtSetThenClear => EVT_SEM_WAIT_EVT_SET_CLR,
            WaitMode::SemGeDec => EVT_SEM_WAIT_SEM_GE_DEC,
        }
    }

    /// Stable lower-case name (coverage counters, docs).
    pub const fn name(self) -> &'static str {
        match self {
            WaitMode::None => "none",
            WaitMode::SemEq => "sem_eq",
            WaitMode::SemLt => "sem_lt",
            WaitMode::SemLe => "sem_le",
            WaitMode::SemGt => "sem_gt",
            WaitMode::SemGe => "sem_ge",
            WaitMode::EvtSet => "evt_set",
            WaitMode::EvtSetThenClear => "evt_set_then_clear",
            WaitMode::SemGeDec => "sem_ge_dec",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_semaphore_window_offsets_match_public_facts_2() {
        // PUBLIC-FACTS §2: READ +0x1000, SET +0x1400, INCR +0x1800, DECR +0x1c00, 0x2000 bytes.
        assert_eq!(Reg::Sem(SemWindow::Read, 0).offset(), 0x1000);
        assert_eq!(Reg::Sem(SemWindow::Set, 0).offset(), 0x1400);
        assert_eq!(Reg::Sem(SemWindow::Incr, 0).offset(), 0x1800);
        assert_eq!(Reg::Sem(SemWindow::Decr, 0).offset(), 0x1c00);
        assert_eq!(EVT_SEM_WINDOW_BYTES, 0x2000);
        assert_eq!(
            Reg::Sem(SemWindow::Decr, 255).offset() + 4,
            EVT_SEM_WINDOW_BYTES
        );
    }

    #[test]
    fn seed001_5_1_incr_window_is_0x1800_with_4_byte_stride_over_256_semaphores() {
        // seed 001 §5.1: +0x1800[sem*4], ArraySize 256, BundleSizeInBytes 4; §8: local_sem=12, remote_sem=20.
        assert_eq!(Reg::Sem(SemWindow::Incr, 12).offset(), 0x1800 + 12 * 4);
        assert_eq!(Reg::decode(0x1800 + 20 * 4), Reg::Sem(SemWindow::Incr, 20));
        assert_eq!(EVT_SEM_NUM_SEM, 256);
    }

    #[test]
    fn seed002_3_wait_mode_codes() {
        // seed 002 §3: NONE=0, SEM_{EQ,LT,LE,GT,GE}_IMM=1..5, EVT_SET=6, EVT_SET_THEN_CLEAR=7.
        let seed = [0u32, 1, 2, 3, 4, 5, 6, 7];
        for (m, c) in WaitMode::ALL.iter().zip(seed) {
            assert_eq!(m.code(), c, "{}", m.name());
        }
        for c in 0x81..=0x85 {
            assert_eq!(
                WaitMode::from_code(c),
                None,
                "_REG variant {c:#x} unsupported"
            );
        }
        for m in WaitMode::ALL {
            assert_eq!(WaitMode::from_code(m.code()), Some(m));
        }
    }

    #[test]
    fn every_offset_decodes_and_mapped_offsets_round_trip() {
        for off in (0..EVT_SEM_WINDOW_BYTES).step_by(4) {
            let r = Reg::decode(off);
            if r != Reg::Unmapped {
                assert_eq!(r.offset(), off, "{r:?}");
            } else {
                assert!((0x40C..0x1000).contains(&off), "{off:#x}");
            }
        }
        assert_eq!(Reg::decode(Reg::Unmapped.offset()), Reg::Unmapped);
    }

    /// The register identity decode (`Reg::decode`, behaviour) and the access
    /// table generated from the description agree at every word of the window.
    #[test]
    fn identity_decode_agrees_with_the_description_access_at_every_word() {
        for off in (0..(1u32 << EVT_SEM_ADDR_W)).step_by(4) {
            let reg = Reg::decode(off);
            let want = match reg {
                Reg::Unmapped => None,
                Reg::FirstErrData | Reg::Sem(SemWindow::Read, _) => Some(Access::Ro),
                Reg::ErrStatus => Some(Access::W1c),
                _ => Some(Access::Rw),
            };
            assert_eq!(access(off), want, "{off:#x} {reg:?}");
            assert_eq!(access(off | 3), want, "{off:#x} low bits ignored");
        }
    }

    #[test]
    fn first_err_pack_unpack_round_trip() {
        let f = FirstErr {
            valid: true,
            kind: 4,
            write: true,
            info: 0x1ffc,
        };
        assert_eq!(FirstErr::unpack(f.pack()), f);
        assert_eq!(f.pack() >> 31, 1);
    }
}
