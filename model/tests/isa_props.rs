//! Property tests of the instruction-word decoder: it never panics, valid
//! words round-trip byte-exactly, and a single non-zero reserved byte is
//! reported at exactly its offset.

use proptest::prelude::*;
use sb2sb_model::isa::{
    self, Arch, CurProcessingRankId, Events, GidDst, GidLoad, GidTarget, Header, IsaError,
    RdmaDescGen, RdmaDescStart, Role, SendRecv, UpdateMode, WaitMode, Word,
};

fn arb_arch() -> impl Strategy<Value = Arch> {
    prop::sample::select(Arch::ALL.to_vec())
}

fn arb_header(opcode: u8) -> impl Strategy<Value = Header> {
    (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(move |(l, c, h)| Header {
        opcode,
        inst_word_len: l,
        debug_cmd: c,
        debug_hint: h,
    })
}

fn arb_events() -> impl Strategy<Value = Events> {
    (
        prop::sample::select(WaitMode::ALL.to_vec()),
        any::<u8>(),
        prop::sample::select(UpdateMode::ALL.to_vec()),
        any::<u8>(),
        any::<u32>(),
    )
        .prop_map(
            |(wait_mode, wait_idx, update_mode, update_idx, semaphore_value)| Events {
                wait_mode,
                wait_idx,
                update_mode,
                update_idx,
                semaphore_value,
            },
        )
}

fn arb_sendrecv() -> impl Strategy<Value = Word> {
    (
        arb_header(0xCB),
        arb_events(),
        any::<u32>(),
        any::<u64>(),
        any::<u8>(),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(
            |(header, events, tensor_id, peer_id, is_send, offset_bytes, size_bytes)| {
                Word::SendRecv(SendRecv {
                    header,
                    events,
                    tensor_id,
                    peer_id,
                    is_send,
                    offset_bytes,
                    size_bytes,
                })
            },
        )
}

fn arb_cur_rank() -> impl Strategy<Value = Word> {
    (
        arb_header(0xDB),
        arb_events(),
        any::<[u16; 4]>(),
        any::<u8>(),
    )
        .prop_map(|(header, events, v, dst_reg)| {
            Word::CurProcessingRankId(CurProcessingRankId {
                header,
                events,
                group_id: v[0],
                channel_id: v[1],
                iteration_id: v[2],
                dst_reg,
                stream_id: v[3],
            })
        })
}

/// Registers writable on every arch: 0..64, 130, 131.
fn arb_gid_dst() -> impl Strategy<Value = GidDst> {
    prop_oneof![
        prop_oneof![0u8..64, Just(130u8), Just(131u8)]
            .prop_map(|regnum| GidDst::Register { regnum }),
        (any::<u8>(), any::<u32>()).prop_map(|(reg_lo, offset)| GidDst::AddrReg { reg_lo, offset }),
        (any::<u32>(), any::<u16>())
            .prop_map(|(var_id, offset)| GidDst::AddrVar { var_id, offset }),
    ]
}

fn arb_gid_load() -> impl Strategy<Value = Word> {
    (arb_header(0xDC), arb_events(), arb_gid_dst()).prop_map(|(header, events, dst)| {
        Word::GidLoad(GidLoad {
            header,
            events,
            dst_target: dst.target(),
            dst,
        })
    })
}

fn arb_rdma_gen() -> impl Strategy<Value = Word> {
    let local = 0u64..(1u64 << 47);
    (
        (
            arb_header(isa::OPCODE_EXTENDED),
            arb_events(),
            0u8..16,
            any::<[u8; 2]>(),
            any::<[u32; 2]>(),
        ),
        (local.clone(), local, any::<u32>(), 1u16..=u16::MAX),
        (0u8..128).prop_flat_map(|start| (Just(start), 1u8..=(128 - start))),
    )
        .prop_map(
            |(
                (header, events, queue_id, sems, ids),
                (src_addr, dst_addr, free_dim_bytes, mask),
                (ps, pc),
            )| {
                Word::RdmaDescGen(RdmaDescGen {
                    header,
                    events,
                    queue_id,
                    local_sem: sems[0],
                    remote_sem: sems[1],
                    remote_core_id: ids[0],
                    remote_routing_id: ids[1],
                    src_addr,
                    dst_addr,
                    free_dim_bytes,
                    dma_engine_mask: mask,
                    partition_start: ps,
                    partition_count: pc,
                })
            },
        )
}

fn arb_rdma_start() -> impl Strategy<Value = Word> {
    (
        (
            arb_header(isa::OPCODE_EXTENDED),
            arb_events(),
            0u8..16,
            any::<[u8; 3]>(),
            any::<[u32; 2]>(),
        ),
        (
            prop::sample::select(Role::ALL.to_vec()),
            1u16..=u16::MAX,
            0u32..(1 << 24),
        ),
    )
        .prop_map(|((header, events, queue_id, b, ids), (role, mask, n))| {
            Word::RdmaDescStart(RdmaDescStart {
                header,
                events,
                queue_id,
                local_sem: b[0],
                remote_sem: b[1],
                remote_core_id: ids[0],
                remote_routing_id: ids[1],
                role,
                go_sem: b[2],
                dma_engine_mask: mask,
                num_descriptors: n,
            })
        })
}

fn arb_word() -> impl Strategy<Value = Word> {
    prop_oneof![
        arb_sendrecv(),
        arb_cur_rank(),
        arb_gid_load(),
        arb_rdma_gen(),
        arb_rdma_start()
    ]
}

/// Random bytes, steered towards the decoders: a known opcode, sometimes a
/// known sub-op and zeroed tail, so the deep checks run too.
fn arb_steered_bytes() -> impl Strategy<Value = [u8; 64]> {
    (
        any::<[u8; 64]>(),
        prop::sample::select(vec![0xCBu8, 0xDB, 0xDC, isa::OPCODE_EXTENDED]),
        prop::sample::select(vec![8u8, 9, 10]),
        any::<bool>(),
        0usize..64,
    )
        .prop_map(|(mut b, op, sub, zero_tail, from)| {
            b[0] = op;
            b[12] = sub;
            if zero_tail {
                b[from.max(13)..].fill(0);
            }
            b
        })
}

fn check_decode(b: &[u8; 64], arch: Arch) {
    match isa::decode(b, arch) {
        Ok(w) => {
            assert_eq!(&w.encode(), b, "decode → encode must give the same bytes");
            assert_eq!(w.validate(arch), Ok(()));
        }
        Err(e) => {
            let off = e.offset().expect("a decode error names a byte offset");
            assert!(off < 64);
            let msg = e.to_string();
            assert!(msg.contains(&format!("at byte {off}")), "{msg}");
            assert!(msg.contains(e.field()), "{msg}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn decode_never_panics_on_random_words(b in any::<[u8; 64]>(), arch in arb_arch()) {
        check_decode(&b, arch);
    }

    #[test]
    fn decode_never_panics_on_words_with_known_opcodes(b in arb_steered_bytes(), arch in arb_arch()) {
        check_decode(&b, arch);
    }

    #[test]
    fn decode_of_encode_is_identity_for_valid_words(w in arb_word(), arch in arb_arch()) {
        let b = w.encode();
        prop_assert_eq!(isa::decode(&b, arch), Ok(w));
        // and serde (the CLI's JSON) round-trips too
        let json = serde_json::to_string(&w).unwrap();
        prop_assert_eq!(serde_json::from_str::<Word>(&json).unwrap(), w);
    }

    #[test]
    fn any_single_reserved_byte_flipped_nonzero_is_named(
        w in arb_word(),
        pick in any::<prop::sample::Index>(),
        v in 1u8..=255,
    ) {
        let reserved: Vec<(usize, &'static str)> = w
            .layout()
            .iter()
            .filter(|f| f.reserved)
            .flat_map(|f| f.range().map(move |i| (i, f.name)))
            .collect();
        let (at, field) = reserved[pick.index(reserved.len())];
        let mut b = w.encode();
        b[at] = v;
        prop_assert_eq!(
            isa::decode(&b, Arch::Cayman),
            Err(IsaError::ReservedNotZero { field, offset: at, value: v })
        );
    }

    #[test]
    fn gid_load_register_validator_matches_independent_rule(regnum in any::<u8>(), arch in arb_arch()) {
        let w = Word::GidLoad(GidLoad::to_register(regnum));
        let limit: u16 = if arch == Arch::Maverick { 192 } else { 64 };
        let expect_ok = u16::from(regnum) < limit || regnum == 130 || regnum == 131;
        let got = isa::decode(&w.encode(), arch);
        prop_assert_eq!(got.is_ok(), expect_ok, "regnum {} on {}", regnum, arch);
        if !expect_ok {
            prop_assert_eq!(got.unwrap_err().offset(), Some(23));
        }
    }
}

#[test]
fn gid_target_matches_form_in_generated_words() {
    // guard for the generator above: dst_target always names the dst form
    let g = GidLoad {
        dst_target: GidTarget::Address,
        dst: GidDst::AddrVar {
            var_id: 1,
            offset: 2,
        },
        ..GidLoad::default()
    };
    assert_eq!(g.dst.target(), g.dst_target);
}
