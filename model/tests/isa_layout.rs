//! Field offsets and sizes of every instruction word, each a named case
//! checked against the seeds' probe tables (seed 000 §2, seed 002 §1 and §7,
//! seed 001 §2.3/§5) — both in the layout table and in the encoded bytes.

use rstest::rstest;
use sb2sb_model::isa::{self, Arch, FieldDesc, GidLoad, IsaError, Kind, Word, WORD_BYTES};

fn find(layout: &[FieldDesc], name: &str) -> FieldDesc {
    *layout
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field {name} in layout"))
}

fn word(kind: Kind, base: &[(&str, &str)]) -> Word {
    let mut w = Word::new(kind);
    for (n, v) in base {
        w.set_field(n, v).unwrap();
    }
    w
}

/// Set `name` to `pattern` and check that exactly bytes `offset..offset+size`
/// change, holding `pattern` little-endian; the layout table must agree.
#[rstest]
// Common prefix (seed 000 §2: HEADER 4 B @0, EVENTS 8 B @4).
#[case::header_offset_of_inst_word_len_is_1(Kind::SendRecv, &[], "inst_word_len", 1, 1, 0x5A)]
#[case::header_offset_of_debug_cmd_is_2(Kind::SendRecv, &[], "debug_cmd", 2, 1, 0xA5)]
#[case::header_offset_of_debug_hint_is_3(Kind::SendRecv, &[], "debug_hint", 3, 1, 0x3C)]
#[case::events_offset_of_wait_mode_is_4(Kind::SendRecv, &[], "wait_mode", 4, 1, 0x85)]
#[case::events_offset_of_wait_idx_is_5(Kind::SendRecv, &[], "wait_idx", 5, 1, 0xFE)]
#[case::events_offset_of_update_mode_is_6(Kind::SendRecv, &[], "update_mode", 6, 1, 0x15)]
#[case::events_offset_of_update_idx_is_7(Kind::SendRecv, &[], "update_idx", 7, 1, 0xEF)]
#[case::events_offset_of_semaphore_value_is_8(Kind::SendRecv, &[], "semaphore_value", 8, 4, 0x8877_6655)]
// SENDRECV 0xCB (seed 000 §2 probe).
#[case::sendrecv_offset_of_tensor_id_is_12(Kind::SendRecv, &[], "tensor_id", 12, 4, 0x4433_2211)]
#[case::sendrecv_offset_of_peer_id_is_16(Kind::SendRecv, &[], "peer_id", 16, 8, 0x8877_6655_4433_2211)]
#[case::sendrecv_offset_of_is_send_is_24(Kind::SendRecv, &[], "is_send", 24, 1, 0x01)]
#[case::sendrecv_offset_of_offset_bytes_is_48(Kind::SendRecv, &[], "offset_bytes", 48, 8, 0x1122_3344_5566_7788)]
#[case::sendrecv_offset_of_size_bytes_is_56(Kind::SendRecv, &[], "size_bytes", 56, 8, 0x99AA_BBCC_DDEE_FF01)]
// CUR_PROCESSING_RANK_ID 0xDB (seed 002 §1 probe).
#[case::cur_rank_offset_of_group_id_is_12(Kind::CurRank, &[], "group_id", 12, 2, 0xBEEF)]
#[case::cur_rank_offset_of_channel_id_is_14(Kind::CurRank, &[], "channel_id", 14, 2, 0x0101)]
#[case::cur_rank_offset_of_iteration_id_is_16(Kind::CurRank, &[], "iteration_id", 16, 2, 0xCAFE)]
#[case::cur_rank_offset_of_dst_reg_is_18(Kind::CurRank, &[], "dst_reg", 18, 1, 0x3F)]
#[case::cur_rank_offset_of_stream_id_is_20(Kind::CurRank, &[], "stream_id", 20, 2, 0xF00D)]
// GID_LOAD 0xDC (seed 002 §7 probe; the addr forms are project-defined).
#[case::gid_load_offset_of_regnum_is_23(Kind::GidLoad, &[], "dst.reg_padded.regnum", 23, 1, 0x3F)]
#[case::gid_load_addr_offset_of_marker_is_23(Kind::GidLoad, &[("marker", "0x80")], "dst.addr.marker", 23, 1, 0x40)]
#[case::gid_load_addr_reg_offset_of_reg_lo_is_16(Kind::GidLoad, &[("marker", "0x80")], "dst.addr.reg_lo", 16, 1, 0x2A)]
#[case::gid_load_addr_reg_offset_of_offset_is_18(Kind::GidLoad, &[("marker", "0x80")], "dst.addr.offset", 18, 4, 0x4433_2211)]
#[case::gid_load_addr_var_offset_of_var_id_is_16(Kind::GidLoad, &[("marker", "0x40")], "dst.addr.var_id", 16, 4, 0x4433_2211)]
#[case::gid_load_addr_var_offset_of_offset_is_20(Kind::GidLoad, &[("marker", "0x40")], "dst.addr.offset", 20, 2, 0x2211)]
// RDMA_DESC_GEN (seed 001: local_sem@14, remote_sem@15, remote_core_id@16,
// remote_routing_id@20, dst_addr@32; the rest project-defined).
#[case::rdma_gen_offset_of_queue_id_is_13(Kind::RdmaGen, &[], "queue_id", 13, 1, 0x0F)]
#[case::rdma_gen_offset_of_local_sem_is_14(Kind::RdmaGen, &[], "local_sem", 14, 1, 0x0C)]
#[case::rdma_gen_offset_of_remote_sem_is_15(Kind::RdmaGen, &[], "remote_sem", 15, 1, 0x14)]
#[case::rdma_gen_offset_of_remote_core_id_is_16(Kind::RdmaGen, &[], "remote_core_id", 16, 4, 0x4433_2211)]
#[case::rdma_gen_offset_of_remote_routing_id_is_20(Kind::RdmaGen, &[], "remote_routing_id", 20, 4, 0x8877_6655)]
#[case::rdma_gen_offset_of_src_addr_is_24(Kind::RdmaGen, &[], "src_addr", 24, 8, 0x0000_7766_5544_3322)]
#[case::rdma_gen_offset_of_dst_addr_is_32(Kind::RdmaGen, &[], "dst_addr", 32, 8, 0x0000_7123_4567_89AB)]
#[case::rdma_gen_offset_of_free_dim_bytes_is_40(Kind::RdmaGen, &[], "free_dim_bytes", 40, 4, 0x4433_2211)]
#[case::rdma_gen_offset_of_dma_engine_mask_is_44(Kind::RdmaGen, &[], "dma_engine_mask", 44, 2, 0xF00F)]
#[case::rdma_gen_offset_of_partition_start_is_46(Kind::RdmaGen, &[("partition_count", "1")], "partition_start", 46, 1, 0x7F)]
#[case::rdma_gen_offset_of_partition_count_is_47(Kind::RdmaGen, &[], "partition_count", 47, 1, 0x41)]
// RDMA_DESC_START (shares 12..23 with GEN; the rest project-defined).
#[case::rdma_start_offset_of_queue_id_is_13(Kind::RdmaStart, &[], "queue_id", 13, 1, 0x0E)]
#[case::rdma_start_offset_of_local_sem_is_14(Kind::RdmaStart, &[], "local_sem", 14, 1, 0x0C)]
#[case::rdma_start_offset_of_remote_sem_is_15(Kind::RdmaStart, &[], "remote_sem", 15, 1, 0x14)]
#[case::rdma_start_offset_of_remote_core_id_is_16(Kind::RdmaStart, &[], "remote_core_id", 16, 4, 0x4433_2211)]
#[case::rdma_start_offset_of_remote_routing_id_is_20(Kind::RdmaStart, &[], "remote_routing_id", 20, 4, 0x8877_6655)]
#[case::rdma_start_offset_of_role_is_24(Kind::RdmaStart, &[], "role", 24, 1, 0x01)]
#[case::rdma_start_offset_of_go_sem_is_25(Kind::RdmaStart, &[], "go_sem", 25, 1, 0xA7)]
#[case::rdma_start_offset_of_dma_engine_mask_is_26(Kind::RdmaStart, &[], "dma_engine_mask", 26, 2, 0xF00F)]
#[case::rdma_start_offset_of_num_descriptors_is_28(Kind::RdmaStart, &[], "num_descriptors", 28, 4, 0x00AB_CDEF)]
fn field_offset(
    #[case] kind: Kind,
    #[case] base: &[(&str, &str)],
    #[case] name: &str,
    #[case] offset: usize,
    #[case] size: usize,
    #[case] pattern: u64,
) {
    let before = word(kind, base);
    let mut after = before;
    after.set_field(name, &format!("{pattern:#x}")).unwrap();
    let f = find(after.layout(), name);
    assert_eq!(
        (f.offset, f.size),
        (offset, size),
        "layout table entry of {name}"
    );
    let (a, b) = (before.encode(), after.encode());
    let expect = pattern.to_le_bytes();
    assert_eq!(&b[offset..offset + size], &expect[..size], "{name} bytes");
    for i in (0..WORD_BYTES).filter(|i| !(offset..offset + size).contains(i)) {
        assert_eq!(a[i], b[i], "setting {name} changed byte {i}");
    }
    // The word still decodes to itself.
    assert_eq!(isa::decode(&b, Arch::Cayman), Ok(after));
}

/// Reserved ranges: the layout entry matches the seed, and a non-zero first or
/// last byte is reported at exactly that offset.
#[rstest]
#[case::sendrecv_offset_of_reserved0_is_25_size_23(Kind::SendRecv, &[], "reserved0", 25, 23)]
#[case::cur_rank_offset_of_reserved0_is_19(Kind::CurRank, &[], "reserved0", 19, 1)]
#[case::cur_rank_offset_of_reserved1_is_22_size_42(Kind::CurRank, &[], "reserved1", 22, 42)]
#[case::gid_load_offset_of_reserved0_is_13_size_3(Kind::GidLoad, &[], "reserved0", 13, 3)]
#[case::gid_load_offset_of_dst_reg_padded_reserved_is_16_size_7(Kind::GidLoad, &[], "dst.reg_padded.reserved", 16, 7)]
#[case::gid_load_offset_of_reserved1_is_24_size_40(Kind::GidLoad, &[], "reserved1", 24, 40)]
#[case::gid_load_addr_offset_of_reserved_is_22(Kind::GidLoad, &[("marker", "0x80")], "dst.addr.reserved", 22, 1)]
#[case::rdma_gen_offset_of_reserved0_is_48_size_16(Kind::RdmaGen, &[], "reserved0", 48, 16)]
#[case::rdma_start_offset_of_reserved0_is_32_size_32(Kind::RdmaStart, &[], "reserved0", 32, 32)]
fn reserved_offset(
    #[case] kind: Kind,
    #[case] base: &[(&str, &str)],
    #[case] name: &str,
    #[case] offset: usize,
    #[case] size: usize,
) {
    let w = word(kind, base);
    let f = find(w.layout(), name);
    assert!(f.reserved);
    assert_eq!((f.offset, f.size), (offset, size));
    for at in [offset, offset + size - 1] {
        let mut b = w.encode();
        assert_eq!(b[at], 0);
        b[at] = 0x5A;
        assert_eq!(
            isa::decode(&b, Arch::Cayman),
            Err(IsaError::ReservedNotZero {
                field: f.name,
                offset: at,
                value: 0x5A
            })
        );
    }
}

#[rstest]
#[case::sendrecv_opcode_at_0_is_0xcb(Kind::SendRecv, 0xCB)]
#[case::cur_rank_opcode_at_0_is_0xdb(Kind::CurRank, 0xDB)]
#[case::gid_load_opcode_at_0_is_0xdc(Kind::GidLoad, 0xDC)]
#[case::rdma_gen_opcode_at_0_is_extended(Kind::RdmaGen, isa::OPCODE_EXTENDED)]
#[case::rdma_start_opcode_at_0_is_extended(Kind::RdmaStart, isa::OPCODE_EXTENDED)]
fn opcode_offset(#[case] kind: Kind, #[case] opcode: u8) {
    let w = Word::new(kind);
    assert_eq!(find(w.layout(), "opcode"), FieldDesc::new("opcode", 0, 1));
    assert_eq!(w.encode()[0], opcode);
    assert_eq!(kind.opcode(), opcode);
}

#[rstest]
#[case::rdma_gen_sub_op_at_12_is_8(Kind::RdmaGen, 8)]
#[case::rdma_start_sub_op_at_12_is_9(Kind::RdmaStart, 9)]
fn extended_sub_op_offset(#[case] kind: Kind, #[case] op: u8) {
    let w = Word::new(kind);
    assert_eq!(find(w.layout(), "ext_op"), FieldDesc::new("ext_op", 12, 1));
    assert_eq!(w.encode()[12], op);
}

/// dst_target @12: the only byte (besides the dst bytes) that differs between
/// a register-form and an address-form word.
#[test]
fn gid_load_offset_of_dst_target_is_12() {
    let reg = word(Kind::GidLoad, &[("dst_target", "REGISTER")]);
    let addr = word(Kind::GidLoad, &[("dst_target", "ADDRESS")]);
    assert_eq!(
        find(reg.layout(), "dst_target"),
        FieldDesc::new("dst_target", 12, 1)
    );
    let (a, b) = (reg.encode(), addr.encode());
    assert_eq!((a[12], b[12]), (0, 1));
    let differing: Vec<usize> = (0..WORD_BYTES).filter(|i| a[*i] != b[*i]).collect();
    assert_eq!(
        differing,
        vec![12, 23],
        "dst_target and the dst marker byte"
    );
}

#[test]
fn gid_load_offset_of_dst_union_is_16_size_8_and_regnum_lands_at_16_plus_7() {
    let dst = find(GidLoad::LAYOUT, "dst");
    assert_eq!((dst.offset, dst.size), (16, 8));
    let regnum = find(GidLoad::LAYOUT_REGISTER, "dst.reg_padded.regnum");
    assert_eq!(regnum.offset, dst.offset + 7);
}

fn all_layouts() -> Vec<(&'static str, &'static [FieldDesc])> {
    vec![
        ("SENDRECV", isa::SendRecv::LAYOUT),
        ("CUR_PROCESSING_RANK_ID", isa::CurProcessingRankId::LAYOUT),
        ("GID_LOAD", GidLoad::LAYOUT),
        ("GID_LOAD register", GidLoad::LAYOUT_REGISTER),
        ("GID_LOAD addr_reg", GidLoad::LAYOUT_ADDR_REG),
        ("GID_LOAD addr_var", GidLoad::LAYOUT_ADDR_VAR),
        ("RDMA_DESC_GEN", isa::RdmaDescGen::LAYOUT),
        ("RDMA_DESC_START", isa::RdmaDescStart::LAYOUT),
    ]
}

/// sizeof == 64 for every struct, no implicit padding (seed 000 §2 -Wpadded,
/// seed 002 §1/§7): each layout tiles bytes 0..64 without gap or overlap.
#[test]
fn sizeof_each_word_is_64_and_layouts_tile_without_padding() {
    for (name, layout) in all_layouts() {
        let mut next = 0;
        for f in layout {
            assert_eq!(f.offset, next, "{name}: gap or overlap at {}", f.name);
            next += f.size;
        }
        assert_eq!(next, 64, "{name}: sizeof");
    }
    for k in Kind::ALL {
        assert_eq!(Word::new(k).encode().len(), 64);
    }
}

/// sizeof(HEADER) == 4 and sizeof(EVENTS) == 8, at 0 and 4, in every word.
#[test]
fn header_is_4_bytes_at_0_and_events_8_bytes_at_4_in_every_word() {
    for (name, layout) in all_layouts() {
        let h: usize = layout.iter().filter(|f| f.offset < 4).map(|f| f.size).sum();
        let e: usize = layout
            .iter()
            .filter(|f| (4..12).contains(&f.offset))
            .map(|f| f.size)
            .sum();
        assert_eq!((h, e), (4, 8), "{name}");
        assert_eq!(&layout[..9], &isa::header::PREFIX[..], "{name}");
    }
}
