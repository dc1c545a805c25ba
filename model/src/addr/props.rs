//! Property tests of the codec: lossless symmetric GET/SET, decode never
//! panics, fold/decode inverse, window translation.

use super::fields::*;
use super::fold::*;
use super::route::*;
use super::window::*;
use proptest::prelude::*;

const ALL_FIELDS: [Field; 12] = [
    LOCAL,
    DIE,
    CAYMAN_ID,
    CAYMAN_ID_VALID,
    EXIT_SENG,
    EXIT_DIE,
    NEIGHBOR_ROUTE,
    PEB,
    ID_VALID,
    RSVD_NBR,
    RSVD_MID,
    RSVD_HI,
];

fn any_field() -> impl Strategy<Value = Field> {
    (0..ALL_FIELDS.len()).prop_map(|i| ALL_FIELDS[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn get_of_set_returns_the_value_and_leaves_other_bits(a in any::<u64>(), f in any_field(), v in any::<u64>()) {
        let v = v & f.mask();
        let b = f.set(a, v).unwrap();
        prop_assert_eq!(f.get(b), v);
        prop_assert_eq!(b & !f.mask_in_place(), a & !f.mask_in_place());
        // SET of the current value is the identity (symmetric, lossless).
        prop_assert_eq!(f.set(a, f.get(a)).unwrap(), a);
    }

    #[test]
    fn set_out_of_range_is_an_error_never_a_truncation(a in any::<u64>(), f in any_field(), v in any::<u64>()) {
        prop_assume!(v > f.mask());
        prop_assert!(f.set(a, v).is_err());
    }

    #[test]
    fn decode_never_panics_and_views_rebuild_the_address(a in any::<u64>(), die in 0u8..2, chip in 0u8..64) {
        let d = decode(a);
        let me = SelfId { die, chip_id: chip };
        let _ = d.route(View::ChipId, me);
        let _ = d.route(View::Neighbor, me);
        let _ = decode_strict(a, View::ChipId);
        let _ = decode_strict(a, View::Neighbor);
        let rsvd_both = RSVD_MID.mask_in_place() | RSVD_HI.mask_in_place();
        prop_assert_eq!(d.local_view.to_addr().unwrap(), a & !rsvd_both);
        prop_assert_eq!(d.neighbor_view.to_addr().unwrap(), a & !rsvd_both & !RSVD_NBR.mask_in_place());
    }

    #[test]
    fn fold_chip_id_and_decode_are_inverse(local in 0u64..(1 << 47), die in 0u64..2, chip in 0u64..64) {
        let a = fold_chip_id(local, die, chip).unwrap();
        let d = decode_strict(a, View::ChipId).unwrap();
        prop_assert_eq!(d.local_view, LocalView { local, die: die as u8, cayman_id: chip as u8, cayman_id_valid: 1 });
        prop_assert_eq!(d.local_view.to_addr().unwrap(), a);
    }

    #[test]
    fn fold_neighbor_and_decode_are_inverse(local in 0u64..(1 << 47), die in 0u64..2, seng in 0u64..2) {
        let a = fold_neighbor(local, die, seng).unwrap();
        let d = decode_strict(a, View::Neighbor).unwrap();
        prop_assert_eq!(d.neighbor_view, NeighborView {
            local, die: die as u8, exit_seng: seng as u8, exit_die: 1, neighbor_route: 1, peb: 0, id_valid: 1,
        });
        prop_assert_eq!(d.neighbor_view.to_addr().unwrap(), a);
        prop_assert_eq!(classify(a, View::Neighbor, SelfId::default()), Route::OtherDie);
    }

    #[test]
    fn window_translation_passes_low_bits_and_replaces_high_bits(
        k in 0u32..32, base in any::<u32>(), soc in 0u64..(1 << 57), off in any::<u32>(), num in 0usize..16,
    ) {
        let l_mask = ((1u64 << k) - 1) as u32;
        let xt = base & !l_mask;
        let soc = soc & !u64::from(l_mask);
        let mut r = WindowRemapper::new();
        r.program_window(num, xt, soc, l_mask).unwrap();
        let a = xt | (off & l_mask);
        prop_assert_eq!(r.translate(a).unwrap(), (num, soc | u64::from(off & l_mask)));
        let miss = a ^ !l_mask;
        if l_mask != u32::MAX {
            prop_assert!(r.translate(miss).is_err());
        }
    }
}
