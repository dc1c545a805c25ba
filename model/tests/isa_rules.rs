//! Seed facts about the instruction words and the decoder's rules: each test
//! is named after the fact it checks (see docs/traceability.md).

use sb2sb_model::isa::{
    self, Arch, EncOpType, GidDst, GidLoad, GidTarget, IsaError, Kind, RdmaDescGen, SendRecv,
    UpdateMode, WaitMode, Word,
};

fn build(kind: Kind, fields: &[(&str, &str)]) -> Word {
    Word::from_fields(kind, fields.iter().copied(), Arch::Cayman).unwrap()
}

fn decode_err(b: &[u8; 64], arch: Arch) -> IsaError {
    isa::decode(b, arch).unwrap_err()
}

// ---- opcodes and the pseudo-op rule (seed 000 §1, seed 002 intro) ----

#[test]
fn pseudo_op_rule_is_upper_three_bits_0b110() {
    for op in 0..=255u8 {
        assert_eq!(isa::is_pseudo_op(op), op >> 5 == 0b110, "opcode {op:#04x}");
    }
    assert!(isa::is_pseudo_op(0xC0) && isa::is_pseudo_op(0xDF));
    assert!(!isa::is_pseudo_op(0xBF) && !isa::is_pseudo_op(0xE0));
}

#[test]
fn sendrecv_0xcb_cur_rank_0xdb_gid_load_0xdc_are_pseudo_ops() {
    assert_eq!(
        (
            isa::OPCODE_SENDRECV,
            isa::OPCODE_CUR_PROCESSING_RANK_ID,
            isa::OPCODE_GID_LOAD
        ),
        (0xCB, 0xDB, 0xDC)
    );
    for op in [0xCB, 0xDB, 0xDC] {
        assert!(isa::is_pseudo_op(op));
    }
}

#[test]
fn extended_opcode_is_not_a_pseudo_op() {
    assert!(!isa::is_pseudo_op(isa::OPCODE_EXTENDED));
    assert_eq!(
        (isa::EXT_OP_RDMA_DESC_GEN, isa::EXT_OP_RDMA_DESC_START),
        (8, 9)
    );
}

// ---- enc_op_type (seed 000 §3) ----

#[test]
fn enc_op_type_values_match_seed_000_s3() {
    let seed = [
        ("ENC_ALLGATHER", 0),
        ("ENC_ALLREDUCE", 1),
        ("ENC_BROADCAST", 2),
        ("ENC_REDUCE", 3),
        ("ENC_REDUCE_SCATTER", 4),
        ("ENC_SEND", 5),
        ("ENC_RECV", 6),
        ("ENC_ALLTOALL", 7),
        ("ENC_PERMUTE", 8),
        ("ENC_PERMUTE_REDUCE", 9),
        ("ENC_PERMUTE_IMPLICIT", 10),
        ("ENC_PERMUTE_REDUCE_IMPLICIT", 11),
        ("ENC_ALLTOALL_V", 12),
        ("ENC_OP_INVALID", 13),
    ];
    assert_eq!(EncOpType::ALL.len(), seed.len());
    for (op, (name, code)) in EncOpType::ALL.iter().zip(seed) {
        assert_eq!((op.name(), op.code()), (name, code));
        assert_eq!(EncOpType::from_code(code), Some(*op));
        assert_eq!(serde_json::to_string(op).unwrap(), format!("\"{name}\""));
    }
    assert_eq!(EncOpType::ENC_OP_N, EncOpType::OpInvalid.code());
    assert_eq!(EncOpType::from_code(14), None);
}

#[test]
fn is_send_1_maps_to_enc_send_5_and_is_send_0_to_enc_recv_6() {
    let send = SendRecv {
        is_send: 1,
        ..SendRecv::default()
    };
    let recv = SendRecv {
        is_send: 0,
        ..SendRecv::default()
    };
    assert_eq!(send.enc_op_type(), EncOpType::Send);
    assert_eq!(send.enc_op_type().code(), 5);
    assert_eq!(recv.enc_op_type(), EncOpType::Recv);
    assert_eq!(recv.enc_op_type().code(), 6);
    // `is_send != 0` ⇒ SEND: any non-zero byte is a send
    for b in 1..=255u8 {
        assert_eq!(EncOpType::from_is_send(b), EncOpType::Send);
    }
}

#[test]
fn p2p_guard_op_minus_5_le_1_accepts_only_send_and_recv() {
    for op in EncOpType::ALL {
        assert_eq!(
            op.is_p2p(),
            matches!(op, EncOpType::Send | EncOpType::Recv),
            "{op}"
        );
    }
}

// ---- EVENTS codes (seed 002 §3) ----

#[test]
fn wait_mode_codes_match_seed_002_s3() {
    let seed = [
        (WaitMode::None, 0x00),
        (WaitMode::SemEqImm, 0x01),
        (WaitMode::SemLtImm, 0x02),
        (WaitMode::SemLeImm, 0x03),
        (WaitMode::SemGtImm, 0x04),
        (WaitMode::SemGeImm, 0x05),
        (WaitMode::EvtSet, 0x06),
        (WaitMode::EvtSetThenClear, 0x07),
        (WaitMode::SemEqReg, 0x81),
        (WaitMode::SemLtReg, 0x82),
        (WaitMode::SemLeReg, 0x83),
        (WaitMode::SemGtReg, 0x84),
        (WaitMode::SemGeReg, 0x85),
    ];
    for (m, code) in seed {
        assert_eq!(m.code(), code);
        assert_eq!(WaitMode::from_code(code), Some(m));
    }
    let known: Vec<u8> = seed.iter().map(|s| s.1).collect();
    for c in 0..=255u8 {
        assert_eq!(
            WaitMode::from_code(c).is_some(),
            known.contains(&c),
            "code {c:#x}"
        );
    }
}

#[test]
fn unknown_wait_mode_is_named_at_byte_4_and_update_mode_at_byte_6() {
    let mut b = Word::new(Kind::SendRecv).encode();
    b[4] = 0x08;
    let e = decode_err(&b, Arch::Cayman);
    assert!(
        matches!(
            e,
            IsaError::UnknownCode {
                field: "wait_mode",
                offset: 4,
                value: 8,
                ..
            }
        ),
        "{e}"
    );
    let mut b = Word::new(Kind::SendRecv).encode();
    b[6] = 0x06;
    let e = decode_err(&b, Arch::Cayman);
    assert!(
        matches!(
            e,
            IsaError::UnknownCode {
                field: "update_mode",
                offset: 6,
                value: 6,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn update_mode_project_table_round_trips_by_name_and_code() {
    for m in UpdateMode::ALL {
        assert_eq!(m.name().parse::<UpdateMode>(), Ok(*m));
        assert_eq!(m.code().to_string().parse::<UpdateMode>(), Ok(*m));
    }
}

// ---- SENDRECV (seed 000 §2, §9) ----

#[test]
fn sendrecv_struct_is_identical_on_all_four_arches() {
    let w = build(
        Kind::SendRecv,
        &[("peer_id", "3"), ("is_send", "1"), ("size_bytes", "4096")],
    );
    for arch in Arch::ALL {
        assert_eq!(isa::decode(&w.encode(), arch), Ok(w));
    }
}

#[test]
fn sendrecv_has_no_dtype_or_reduce_field_only_seed_fields() {
    let json = serde_json::to_value(Word::new(Kind::SendRecv)).unwrap();
    let mut keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "events",
            "header",
            "is_send",
            "kind",
            "offset_bytes",
            "peer_id",
            "size_bytes",
            "tensor_id"
        ]
    );
}

// ---- 0xDB: no static validator (seed 002 §1 QUIRK, §2 GOTCHA) ----

#[test]
fn cur_rank_has_no_static_validator_any_dst_reg_decodes() {
    for arch in Arch::ALL {
        for dst_reg in [0u8, 63, 64, 191, 192, 255] {
            let w = build(
                Kind::CurRank,
                &[("dst_reg", &dst_reg.to_string()), ("iteration_id", "65535")],
            );
            assert_eq!(
                isa::decode(&w.encode(), arch),
                Ok(w),
                "dst_reg {dst_reg} on {arch}"
            );
        }
    }
}

// ---- GID_LOAD validator (seed 002 §7.2) ----

#[test]
fn num_registers_is_64_on_sunda_cayman_mariana_and_192_on_maverick() {
    assert_eq!(Arch::Sunda.num_registers(), 64);
    assert_eq!(Arch::Cayman.num_registers(), 64);
    assert_eq!(Arch::Mariana.num_registers(), 64);
    assert_eq!(Arch::Maverick.num_registers(), 192);
}

#[test]
fn gid_load_regnum_64_is_not_writable_on_cayman_but_63_is() {
    assert!(isa::decode(&GidLoad::to_register(63).encode(), Arch::Cayman).is_ok());
    let e = decode_err(&GidLoad::to_register(64).encode(), Arch::Cayman);
    assert_eq!(
        e,
        IsaError::RegisterNotWritable {
            field: "dst.reg_padded.regnum",
            offset: 23,
            regnum: 64,
            arch: Arch::Cayman,
            num_registers: 64
        }
    );
    assert!(e.to_string().contains("at byte 23"));
}

#[test]
fn gid_load_regnum_191_is_writable_on_maverick_and_192_is_not() {
    assert!(isa::decode(&GidLoad::to_register(191).encode(), Arch::Maverick).is_ok());
    assert!(matches!(
        decode_err(&GidLoad::to_register(192).encode(), Arch::Maverick),
        IsaError::RegisterNotWritable { regnum: 192, .. }
    ));
    // the same 191 is rejected on v2..v4: the limit keys off the arch, not the struct
    for arch in [Arch::Sunda, Arch::Cayman, Arch::Mariana] {
        assert!(isa::decode(&GidLoad::to_register(191).encode(), arch).is_err());
    }
}

#[test]
fn gid_load_dge_table_lo_130_and_hi_131_are_writable_on_every_arch() {
    for arch in Arch::ALL {
        for r in [130u8, 131] {
            assert!(
                isa::decode(&GidLoad::to_register(r).encode(), arch).is_ok(),
                "{r} on {arch}"
            );
        }
    }
    // PC_LO (128) / PC_HI (129) are engine registers but not writable on v2..v4
    for r in [128u8, 129, 132] {
        assert!(isa::decode(&GidLoad::to_register(r).encode(), Arch::Cayman).is_err());
    }
}

#[test]
fn gid_load_register_form_reserved_bytes_16_to_22_must_be_zero() {
    for at in 16..=22 {
        let mut b = GidLoad::to_register(5).encode();
        b[at] = 1;
        assert_eq!(
            decode_err(&b, Arch::Cayman),
            IsaError::ReservedNotZero {
                field: "dst.reg_padded.reserved",
                offset: at,
                value: 1
            }
        );
    }
}

#[test]
fn gid_load_addr_reg_marker_0x80_needs_reg_hi_zero() {
    let w = build(
        Kind::GidLoad,
        &[("marker", "0x80"), ("reg_lo", "7"), ("offset", "0x40")],
    );
    let mut b = w.encode();
    assert_eq!((b[12], b[23], b[16], b[17]), (1, 0x80, 7, 0));
    assert_eq!(isa::decode(&b, Arch::Cayman), Ok(w));
    b[17] = 1;
    let e = decode_err(&b, Arch::Cayman);
    assert!(
        matches!(
            e,
            IsaError::RuleBroken {
                field: "dst.addr.reg_hi",
                offset: 17,
                value: 1,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn gid_load_var_id_marker_is_accepted_and_other_markers_are_named_at_byte_23() {
    let w = build(Kind::GidLoad, &[("var_id", "0x1234"), ("offset", "8")]);
    let mut b = w.encode();
    assert_eq!(b[23], isa::gid_load::ADDR_MARKER_VAR);
    assert_eq!(isa::decode(&b, Arch::Cayman), Ok(w));
    for m in [0x00u8, 0x01, 0x81, 0xC0, 0xFF] {
        b[23] = m;
        let e = decode_err(&b, Arch::Cayman);
        assert!(
            matches!(
                e,
                IsaError::UnknownCode {
                    field: "dst.addr.marker",
                    offset: 23,
                    ..
                }
            ),
            "{m:#x}: {e}"
        );
    }
}

#[test]
fn gid_load_unknown_dst_target_is_named_at_byte_12() {
    let mut b = GidLoad::to_register(1).encode();
    b[12] = 2;
    assert!(matches!(
        decode_err(&b, Arch::Cayman),
        IsaError::UnknownCode {
            field: "dst_target",
            offset: 12,
            value: 2,
            ..
        }
    ));
}

#[test]
fn gid_load_validate_rejects_target_form_mismatch() {
    let g = GidLoad {
        dst_target: GidTarget::Address,
        dst: GidDst::Register { regnum: 1 },
        ..GidLoad::default()
    };
    assert!(matches!(
        g.validate(Arch::Cayman),
        Err(IsaError::RuleBroken {
            field: "dst_target",
            offset: 12,
            ..
        })
    ));
}

// ---- opcode errors ----

#[test]
fn unknown_opcode_is_named_at_byte_0() {
    let mut b = Word::new(Kind::SendRecv).encode();
    b[0] = 0xBF; // SB2SB collective: a real opcode, but not one of these words
    let e = decode_err(&b, Arch::Cayman);
    assert!(matches!(e, IsaError::UnknownOpcode { found: 0xBF, .. }));
    assert!(e.to_string().starts_with("field `opcode` at byte 0"));
}

#[test]
fn struct_decoder_names_the_wrong_opcode() {
    let b = Word::new(Kind::CurRank).encode();
    assert_eq!(
        SendRecv::decode(&b),
        Err(IsaError::WrongOpcode {
            kind: "SENDRECV",
            expected: 0xCB,
            found: 0xDB
        })
    );
}

#[test]
fn unknown_extended_sub_op_is_named_at_byte_12() {
    let mut b = Word::new(Kind::RdmaGen).encode();
    b[12] = 10;
    assert!(matches!(
        decode_err(&b, Arch::Cayman),
        IsaError::UnknownCode {
            field: "ext_op",
            offset: 12,
            value: 10,
            ..
        }
    ));
}

// ---- RDMA ops 8/9 (seed 001 §1, §4, §5, §8) ----

/// Seed 001 §8 step 1: {local_sem=12, remote_sem=20, remote_core_id=7,
/// remote_routing_id=0x12, dma_engine_mask=0x000F, src_addr=0x100000,
/// dst_addr=0x100000, free_dim_bytes=0x4000} — seed-known bytes checked by hand.
#[test]
fn rdma_desc_gen_worked_example_of_seed_001_s8_lands_at_seed_offsets() {
    let w = build(
        Kind::RdmaGen,
        &[
            ("local_sem", "12"),
            ("remote_sem", "20"),
            ("remote_core_id", "7"),
            ("remote_routing_id", "0x12"),
            ("dma_engine_mask", "0x000F"),
            ("src_addr", "0x100000"),
            ("dst_addr", "0x100000"),
            ("free_dim_bytes", "0x4000"),
        ],
    );
    let b = w.encode();
    assert_eq!(b[14], 12, "local_sem@14");
    assert_eq!(b[15], 20, "remote_sem@15");
    assert_eq!(&b[16..20], &[7, 0, 0, 0], "remote_core_id@16");
    assert_eq!(&b[20..24], &[0x12, 0, 0, 0], "remote_routing_id@20");
    assert_eq!(&b[32..40], &[0, 0, 0x10, 0, 0, 0, 0, 0], "dst_addr@32");
    let Word::RdmaDescGen(g) = isa::decode(&b, Arch::Cayman).unwrap() else {
        panic!("kind")
    };
    assert_eq!(g.dma_engine_mask.count_ones(), 4);
    assert_eq!(
        u64::from(g.free_dim_bytes) * u64::from(g.partition_count),
        128 * 16 * 1024
    );
}

#[test]
fn rdma_queue_id_must_be_below_16_queues() {
    for kind in [Kind::RdmaGen, Kind::RdmaStart] {
        assert!(Word::from_fields(kind, [("queue_id", "15")], Arch::Cayman).is_ok());
        let e = Word::from_fields(kind, [("queue_id", "16")], Arch::Cayman).unwrap_err();
        assert!(
            matches!(
                e,
                IsaError::RuleBroken {
                    field: "queue_id",
                    offset: 13,
                    value: 16,
                    ..
                }
            ),
            "{e}"
        );
    }
}

#[test]
fn rdma_desc_gen_partitions_stay_within_128() {
    assert!(Word::from_fields(
        Kind::RdmaGen,
        [("partition_start", "100"), ("partition_count", "28")],
        Arch::Cayman
    )
    .is_ok());
    let e = Word::from_fields(
        Kind::RdmaGen,
        [("partition_start", "100"), ("partition_count", "29")],
        Arch::Cayman,
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            IsaError::RuleBroken {
                field: "partition_count",
                offset: 47,
                ..
            }
        ),
        "{e}"
    );
    let e = Word::from_fields(Kind::RdmaGen, [("partition_count", "0")], Arch::Cayman).unwrap_err();
    assert!(
        matches!(
            e,
            IsaError::RuleBroken {
                field: "partition_count",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn rdma_desc_gen_addresses_are_local_47_bit_offsets() {
    let g = RdmaDescGen {
        dst_addr: 0x58800000100000,
        ..RdmaDescGen::default()
    }; // an already-folded address
    assert!(matches!(
        g.validate(Arch::Cayman),
        Err(IsaError::RuleBroken {
            field: "dst_addr",
            offset: 32,
            ..
        })
    ));
    let g = RdmaDescGen {
        src_addr: (1 << 47) - 1,
        dst_addr: (1 << 47) - 1,
        ..RdmaDescGen::default()
    };
    assert_eq!(g.validate(Arch::Cayman), Ok(()));
}

#[test]
fn rdma_dma_engine_mask_must_select_an_engine() {
    for kind in [Kind::RdmaGen, Kind::RdmaStart] {
        let e = Word::from_fields(kind, [("dma_engine_mask", "0")], Arch::Cayman).unwrap_err();
        assert!(
            matches!(
                e,
                IsaError::RuleBroken {
                    field: "dma_engine_mask",
                    ..
                }
            ),
            "{e}"
        );
    }
}

#[test]
fn rdma_desc_start_role_0_is_rx_1_is_tx_and_2_is_named_at_byte_24() {
    let rx = build(Kind::RdmaStart, &[("role", "RX")]);
    let tx = build(Kind::RdmaStart, &[("role", "1")]);
    assert_eq!((rx.encode()[24], tx.encode()[24]), (0, 1));
    let mut b = tx.encode();
    b[24] = 2;
    assert!(matches!(
        decode_err(&b, Arch::Cayman),
        IsaError::UnknownCode {
            field: "role",
            offset: 24,
            value: 2,
            ..
        }
    ));
}

#[test]
fn rdma_desc_start_num_descriptors_fits_the_24_bit_tail_increment() {
    assert!(Word::from_fields(
        Kind::RdmaStart,
        [("num_descriptors", "0xFFFFFF")],
        Arch::Cayman
    )
    .is_ok());
    let e = Word::from_fields(
        Kind::RdmaStart,
        [("num_descriptors", "0x1000000")],
        Arch::Cayman,
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            IsaError::RuleBroken {
                field: "num_descriptors",
                offset: 28,
                ..
            }
        ),
        "{e}"
    );
}

// ---- builders, names, arch parsing ----

#[test]
fn builder_rejects_unknown_fields_too_wide_values_and_the_opcode() {
    let e = Word::from_fields(Kind::SendRecv, [("peer", "1")], Arch::Cayman).unwrap_err();
    assert!(
        matches!(e, IsaError::UnknownField { .. }) && e.to_string().contains("peer_id"),
        "{e}"
    );
    let e = Word::from_fields(Kind::CurRank, [("group_id", "65536")], Arch::Cayman).unwrap_err();
    assert_eq!(
        e,
        IsaError::ValueTooWide {
            field: "group_id",
            offset: 12,
            bits: 16,
            value: 65536
        }
    );
    assert!(Word::from_fields(Kind::SendRecv, [("opcode", "0xDB")], Arch::Cayman).is_err());
    let e = Word::from_fields(Kind::SendRecv, [("peer_id", "zz")], Arch::Cayman).unwrap_err();
    assert!(matches!(
        e,
        IsaError::BadValue {
            field: "peer_id",
            ..
        }
    ));
}

#[test]
fn builder_accepts_enum_names_and_numbers() {
    let a = build(
        Kind::SendRecv,
        &[
            ("wait_mode", "SEM_GE_IMM"),
            ("update_mode", "sem_inc_on_complete"),
        ],
    );
    let b = build(
        Kind::SendRecv,
        &[("wait_mode", "5"), ("update_mode", "0x11")],
    );
    assert_eq!(a, b);
    assert_eq!(a.events().wait_mode, WaitMode::SemGeImm);
}

#[test]
fn arch_parses_code_names_and_versions() {
    for (s, a) in [
        ("sunda", Arch::Sunda),
        ("v2", Arch::Sunda),
        ("cayman", Arch::Cayman),
        ("V3", Arch::Cayman),
        ("NC-v3", Arch::Cayman),
        ("mariana", Arch::Mariana),
        ("v4", Arch::Mariana),
        ("maverick", Arch::Maverick),
        ("v5", Arch::Maverick),
    ] {
        assert_eq!(s.parse::<Arch>(), Ok(a), "{s}");
    }
    assert!("v6".parse::<Arch>().is_err());
}

#[test]
fn kind_parses_cli_and_seed_names() {
    assert_eq!("sendrecv".parse::<Kind>().unwrap(), Kind::SendRecv);
    assert_eq!("cur-rank".parse::<Kind>().unwrap(), Kind::CurRank);
    assert_eq!(
        "CUR_PROCESSING_RANK_ID".parse::<Kind>().unwrap(),
        Kind::CurRank
    );
    assert_eq!("gid_load".parse::<Kind>().unwrap(), Kind::GidLoad);
    assert_eq!("rdma-gen".parse::<Kind>().unwrap(), Kind::RdmaGen);
    assert_eq!("rdma_desc_start".parse::<Kind>().unwrap(), Kind::RdmaStart);
    assert!("send".parse::<Kind>().is_err());
}
