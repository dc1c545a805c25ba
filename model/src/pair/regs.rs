//! Register map of the SB2SB core top that is not a block's own: the
//! broadcast doorbell in front of the engines (seed 001 §4.4; offsets
//! project-defined, docs/decisions.md "Broadcast doorbell block"; the
//! block's base and size are in the core address map,
//! `system::map::CORE_BCAST_BASE` / `CORE_BCAST_BYTES`). Rendered
//! into `rtl/sb2sb_pkg.sv` ("SB2SB core top" group) and used by
//! `rtl/sb2sb_q7_port.sv`, its golden twin [`super::q7port`] and the system
//! model ([`crate::system::bcast`]).

crate::sv_consts! {
    /// Bytes per queue group (queue q at q × 0x10).
    BCAST_Q_STRIDE: u32 [32] = 0x10;
    /// M2S mask register in a queue group (RW, one bit per engine).
    BCAST_MASK: u32 [32] = 0x0;
    /// M2S tail-increment trigger in a queue group (WO, wdata `[23:0]` descriptors).
    BCAST_TAIL_INC: u32 [32] = 0x4;
    /// Offset of the S2M registers from the M2S ones in a queue group.
    BCAST_SIDE_STRIDE: u32 [32] = 0x8;
}
