//! Named address fields with lossless GET/SET (the shipped
//! `cayman_addr_decode{,_neighbor}.h` macros, seed 001 §2.1/§2.2).
//!
//! `SET_F(a, v) = (a & !(m << s)) | ((v & m) << s)` — clear-then-insert. The
//! masking form is [`Field::insert`]; [`Field::set`] refuses a value wider
//! than the field instead of truncating it.

use super::*;

/// One bit field of a SoC address: name, least-significant bit, width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Name as in the shipped macros (`CAYMAN_ADDR_DECODE_GET_<name>`).
    pub name: &'static str,
    /// Least-significant bit.
    pub lsb: u32,
    /// Width in bits (1..=64).
    pub width: u32,
}

impl Field {
    /// A field of `width` bits at `lsb`.
    pub const fn new(name: &'static str, lsb: u32, width: u32) -> Self {
        Self { name, lsb, width }
    }
    /// Most-significant bit.
    pub const fn msb(&self) -> u32 {
        self.lsb + self.width - 1
    }
    /// Value mask (`m` of the macros), right-aligned.
    pub const fn mask(&self) -> u64 {
        if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }
    /// Mask of the field in place (`m << s`).
    pub const fn mask_in_place(&self) -> u64 {
        self.mask() << self.lsb
    }
    /// GET: the field's value.
    #[inline(always)]
    pub const fn get(&self, a: u64) -> u64 {
        (a >> self.lsb) & self.mask()
    }
    /// SET with the macro's masking (clear-then-insert, `v & m`): what the
    /// hardware does with a port of the field's width.
    #[inline(always)]
    pub const fn insert(&self, a: u64, v: u64) -> u64 {
        (a & !self.mask_in_place()) | ((v & self.mask()) << self.lsb)
    }
    /// Checked SET: clear-then-insert, error if `v` does not fit the field.
    pub fn set(&self, a: u64, v: u64) -> Result<u64, AddrError> {
        self.check(v)?;
        Ok(self.insert(a, v))
    }
    /// Error unless `v` fits the field.
    pub fn check(&self, v: u64) -> Result<(), AddrError> {
        if v & !self.mask() != 0 {
            return Err(AddrError::FieldRange {
                field: self.name,
                msb: self.msb(),
                lsb: self.lsb,
                width: self.width,
                value: v,
                max: self.mask(),
            });
        }
        Ok(())
    }
}

/// LOCAL `[46:0]` (both views).
pub const LOCAL: Field = Field::new("LOCAL", ADDR_LOCAL_LSB, ADDR_LOCAL_W);
/// DIE `[47]` (both views).
pub const DIE: Field = Field::new("DIE", ADDR_DIE_BIT, 1);
/// CAYMAN_ID `[53:48]` (chip-id view).
pub const CAYMAN_ID: Field = Field::new("CAYMAN_ID", ADDR_CAYMAN_ID_LSB, ADDR_CAYMAN_ID_W);
/// CAYMAN_ID_VALID `[54]` (chip-id view).
pub const CAYMAN_ID_VALID: Field = Field::new("CAYMAN_ID_VALID", ADDR_ID_VALID_BIT, 1);
/// EXIT_SENG `[50]` (neighbor view).
pub const EXIT_SENG: Field = Field::new("EXIT_SENG", ADDR_EXIT_SENG_BIT, 1);
/// EXIT_DIE `[51]` (neighbor view).
pub const EXIT_DIE: Field = Field::new("EXIT_DIE", ADDR_EXIT_DIE_BIT, 1);
/// NEIGHBOR_ROUTE `[52]` (neighbor view).
pub const NEIGHBOR_ROUTE: Field = Field::new("NEIGHBOR_ROUTE", ADDR_NEIGHBOR_ROUTE_BIT, 1);
/// PEB `[53]` (neighbor view).
pub const PEB: Field = Field::new("PEB", ADDR_PEB_BIT, 1);
/// ID_VALID `[54]` (neighbor view; the same bit as CAYMAN_ID_VALID).
pub const ID_VALID: Field = Field::new("ID_VALID", ADDR_ID_VALID_BIT, 1);
/// Reserved `[49:48]` of the neighbor view.
pub const RSVD_NBR: Field = Field::new("RSVD[49:48]", ADDR_RSVD_NBR_LSB, ADDR_RSVD_NBR_W);
/// Reserved `[56:55]` of both views.
pub const RSVD_MID: Field = Field::new("RSVD[56:55]", ADDR_RSVD_MID_LSB, ADDR_RSVD_MID_W);
/// Reserved `[63:57]` of both views.
pub const RSVD_HI: Field = Field::new("RSVD[63:57]", ADDR_RSVD_HI_LSB, ADDR_RSVD_HI_W);

/// Fields of the chip-id view (`cayman_addr_decode.h`).
pub const LOCAL_VIEW_FIELDS: [Field; 4] = [LOCAL, DIE, CAYMAN_ID, CAYMAN_ID_VALID];
/// Fields of the neighbor view (`cayman_addr_decode_neighbor.h`).
pub const NEIGHBOR_VIEW_FIELDS: [Field; 7] = [
    LOCAL,
    DIE,
    EXIT_SENG,
    EXIT_DIE,
    NEIGHBOR_ROUTE,
    PEB,
    ID_VALID,
];

/// An address read through the chip-id view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct LocalView {
    pub local: u64,
    pub die: u8,
    pub cayman_id: u8,
    pub cayman_id_valid: u8,
}

impl LocalView {
    /// GET every field of the chip-id view.
    pub const fn from_addr(a: u64) -> Self {
        Self {
            local: LOCAL.get(a),
            die: DIE.get(a) as u8,
            cayman_id: CAYMAN_ID.get(a) as u8,
            cayman_id_valid: CAYMAN_ID_VALID.get(a) as u8,
        }
    }
    /// SET every field (checked) into a zero address.
    pub fn to_addr(&self) -> Result<u64, AddrError> {
        let a = LOCAL.set(0, self.local)?;
        let a = DIE.set(a, self.die.into())?;
        let a = CAYMAN_ID.set(a, self.cayman_id.into())?;
        CAYMAN_ID_VALID.set(a, self.cayman_id_valid.into())
    }
}

/// An address read through the neighbor view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct NeighborView {
    pub local: u64,
    pub die: u8,
    pub exit_seng: u8,
    pub exit_die: u8,
    pub neighbor_route: u8,
    pub peb: u8,
    pub id_valid: u8,
}

impl NeighborView {
    /// GET every field of the neighbor view.
    pub const fn from_addr(a: u64) -> Self {
        Self {
            local: LOCAL.get(a),
            die: DIE.get(a) as u8,
            exit_seng: EXIT_SENG.get(a) as u8,
            exit_die: EXIT_DIE.get(a) as u8,
            neighbor_route: NEIGHBOR_ROUTE.get(a) as u8,
            peb: PEB.get(a) as u8,
            id_valid: ID_VALID.get(a) as u8,
        }
    }
    /// SET every field (checked) into a zero address.
    pub fn to_addr(&self) -> Result<u64, AddrError> {
        let a = LOCAL.set(0, self.local)?;
        let a = DIE.set(a, self.die.into())?;
        let a = EXIT_SENG.set(a, self.exit_seng.into())?;
        let a = EXIT_DIE.set(a, self.exit_die.into())?;
        let a = NEIGHBOR_ROUTE.set(a, self.neighbor_route.into())?;
        let a = PEB.set(a, self.peb.into())?;
        ID_VALID.set(a, self.id_valid.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 001 §2.1 / ARCHITECTURE §2: each field's position and width.
    #[test]
    fn seed001_s2_field_positions_local_view() {
        assert_eq!((LOCAL.lsb, LOCAL.msb()), (0, 46));
        assert_eq!((DIE.lsb, DIE.msb()), (47, 47));
        assert_eq!((CAYMAN_ID.lsb, CAYMAN_ID.msb()), (48, 53));
        assert_eq!((CAYMAN_ID_VALID.lsb, CAYMAN_ID_VALID.msb()), (54, 54));
    }

    #[test]
    fn seed001_s2_field_positions_neighbor_view() {
        assert_eq!(EXIT_SENG.lsb, 50);
        assert_eq!(EXIT_DIE.lsb, 51);
        assert_eq!(NEIGHBOR_ROUTE.lsb, 52);
        assert_eq!(PEB.lsb, 53);
        assert_eq!(ID_VALID.lsb, 54);
        for f in [EXIT_SENG, EXIT_DIE, NEIGHBOR_ROUTE, PEB, ID_VALID] {
            assert_eq!(f.width, 1, "{}", f.name);
        }
    }

    /// Seed 001 §2.2 GOTCHA: CAYMAN_ID_VALID and ID_VALID are the same bit 54.
    #[test]
    fn seed001_s2_2_bit54_shared_by_both_views() {
        assert_eq!(CAYMAN_ID_VALID.mask_in_place(), ID_VALID.mask_in_place());
        assert_eq!(ID_VALID.mask_in_place(), 1u64 << 54);
    }

    #[test]
    fn reserved_fields_cover_exactly_the_unnamed_bits() {
        let named_local: u64 = LOCAL_VIEW_FIELDS
            .iter()
            .map(|f| f.mask_in_place())
            .fold(0, |a, m| a | m);
        let named_nbr: u64 = NEIGHBOR_VIEW_FIELDS
            .iter()
            .map(|f| f.mask_in_place())
            .fold(0, |a, m| a | m);
        let rsvd_both = RSVD_MID.mask_in_place() | RSVD_HI.mask_in_place();
        assert_eq!(named_local | rsvd_both, u64::MAX);
        assert_eq!(named_local & rsvd_both, 0);
        assert_eq!(named_nbr | rsvd_both | RSVD_NBR.mask_in_place(), u64::MAX);
        assert_eq!(named_nbr & (rsvd_both | RSVD_NBR.mask_in_place()), 0);
        // No overlap inside a view.
        let sum: u32 = NEIGHBOR_VIEW_FIELDS.iter().map(|f| f.width).sum();
        assert_eq!(sum, named_nbr.count_ones());
    }

    #[test]
    fn set_is_clear_then_insert_like_the_set_f_macro() {
        let a = u64::MAX;
        assert_eq!(CAYMAN_ID.insert(a, 0), !(0x3Fu64 << 48));
        assert_eq!(CAYMAN_ID.insert(0, 0xFF), 0x3Fu64 << 48, "v & m");
        assert_eq!(DIE.set(0, 1).unwrap(), 1u64 << 47);
    }

    #[test]
    fn set_rejects_out_of_range_values_naming_field_and_rule() {
        let e = DIE.set(0, 2).unwrap_err();
        assert_eq!(
            e,
            AddrError::FieldRange {
                field: "DIE",
                msb: 47,
                lsb: 47,
                width: 1,
                value: 2,
                max: 1
            }
        );
        assert!(e.to_string().contains("DIE [47:47]"), "{e}");
        let e = CAYMAN_ID.set(0, 64).unwrap_err();
        assert!(
            e.to_string().contains("CAYMAN_ID [53:48]") && e.to_string().contains("6 bit"),
            "{e}"
        );
        assert!(LOCAL.set(0, 1u64 << 47).is_err());
        assert!(LOCAL.set(0, (1u64 << 47) - 1).is_ok());
    }
}
