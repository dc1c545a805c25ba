//! The program_window remapper (seed 001 §2.5): the Q7 cores reach SBUF
//! through a 32-bit local window, so a remote 57-bit SoC address is first
//! programmed into one of 16 windows.
//!
//! A window matches a Q7-local `xt_addr` when `xt_addr & mask == match`; it
//! then replaces the masked (upper) bits with `replace` and passes the
//! unmasked (lower) bits: `soc = replace | (xt_addr & !mask)`. The lowest
//! matching valid window wins; a miss is [`AddrError::WindowMiss`]. The seed
//! gives the log fields (num, vld, xt_addr, soc_addr, u_mask, l_mask; mask,
//! match, replace) but not the CSR layout: the rule above is project-defined.

use super::AddrError;

/// Number of windows (the `xt_addrs[16]` table of seed 001 §2.5).
pub const NUM_WINDOWS: usize = 16;
/// Width of a SoC address produced by a window.
pub const SOC_ADDR_BITS: u32 = 57;

/// One programmed window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Window {
    /// Upper mask `u_mask`: the bits of `xt_addr` compared with `match` and
    /// replaced; its complement `l_mask` passes through. Contiguous from bit 31.
    pub mask: u32,
    /// Value the masked bits of `xt_addr` must equal (`match`).
    pub match_: u32,
    /// Upper SoC bits put in place of the masked bits (`replace`).
    pub replace: u64,
}

impl Window {
    /// Window mapping the `l_mask + 1`-byte region at `xt_addr` to `soc_addr`
    /// (the `program_window(num, vld, xt_addr, soc_addr, u_mask, l_mask)` form).
    pub fn map(num: usize, xt_addr: u32, soc_addr: u64, l_mask: u32) -> Result<Window, AddrError> {
        let w = Window {
            mask: !l_mask,
            match_: xt_addr,
            replace: soc_addr,
        };
        w.validate(num)?;
        Ok(w)
    }

    /// Lower mask (`l_mask`): the bits passed through.
    pub const fn l_mask(&self) -> u32 {
        !self.mask
    }

    /// Check the window's invariants; `num` is only used in the error.
    pub fn validate(&self, num: usize) -> Result<(), AddrError> {
        let err = |field, value: u64, rule| {
            Err(AddrError::WindowConfig {
                num,
                field,
                value,
                rule,
            })
        };
        let l = u64::from(self.l_mask());
        if l & (l + 1) != 0 {
            return err(
                "u_mask",
                self.mask.into(),
                "must be contiguous ones from bit 31 down (l_mask = 2^k - 1)",
            );
        }
        if u64::from(self.match_) & l != 0 {
            return err(
                "match",
                self.match_.into(),
                "must have no bits under l_mask (window base aligned)",
            );
        }
        if self.replace & l != 0 {
            return err(
                "replace",
                self.replace,
                "must have no bits under l_mask (SoC base aligned)",
            );
        }
        if self.replace >> SOC_ADDR_BITS != 0 {
            return err("replace", self.replace, "must fit the 57-bit SoC address");
        }
        Ok(())
    }

    /// Does `xt_addr` fall in this window?
    #[inline]
    pub const fn hits(&self, xt_addr: u32) -> bool {
        xt_addr & self.mask == self.match_
    }

    /// Translate an address known to hit.
    #[inline]
    pub const fn apply(&self, xt_addr: u32) -> u64 {
        self.replace | (xt_addr & !self.mask) as u64
    }
}

/// The 16-window remapper.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WindowRemapper {
    windows: [Option<Window>; NUM_WINDOWS],
}

impl WindowRemapper {
    /// All windows invalid.
    pub fn new() -> Self {
        Self::default()
    }

    /// Program window `num` (valid) after validating it (`program_window`;
    /// `update_window` is the same operation on a valid window).
    pub fn program(&mut self, num: usize, w: Window) -> Result<(), AddrError> {
        let slot = self
            .windows
            .get_mut(num)
            .ok_or(AddrError::WindowIndex { num })?;
        w.validate(num)?;
        *slot = Some(w);
        Ok(())
    }

    /// `program_window(num, xt_addr, soc_addr, l_mask)`: see [`Window::map`].
    pub fn program_window(
        &mut self,
        num: usize,
        xt_addr: u32,
        soc_addr: u64,
        l_mask: u32,
    ) -> Result<(), AddrError> {
        let w = Window::map(num, xt_addr, soc_addr, l_mask)?;
        self.program(num, w)
    }

    /// `update_window(num, xt_addr, soc_addr, u_mask, l_mask)` (seed 001 §2.5,
    /// the third remote_copy.cpp log): re-point a *valid* window; an invalid
    /// one is [`AddrError::WindowNotValid`] (project-defined rule).
    pub fn update_window(
        &mut self,
        num: usize,
        xt_addr: u32,
        soc_addr: u64,
        l_mask: u32,
    ) -> Result<(), AddrError> {
        if num >= NUM_WINDOWS {
            return Err(AddrError::WindowIndex { num });
        }
        if self.windows[num].is_none() {
            return Err(AddrError::WindowNotValid { num });
        }
        let w = Window::map(num, xt_addr, soc_addr, l_mask)?;
        self.program(num, w)
    }

    /// Invalidate window `num` (vld = 0).
    pub fn clear(&mut self, num: usize) -> Result<(), AddrError> {
        let slot = self
            .windows
            .get_mut(num)
            .ok_or(AddrError::WindowIndex { num })?;
        *slot = None;
        Ok(())
    }

    /// Window `num`, if valid.
    pub fn window(&self, num: usize) -> Option<Window> {
        self.windows.get(num).copied().flatten()
    }

    /// Translate a Q7-local address: (winning window, 57-bit SoC address).
    pub fn translate(&self, xt_addr: u32) -> Result<(usize, u64), AddrError> {
        self.windows
            .iter()
            .enumerate()
            .find_map(|(i, w)| w.filter(|w| w.hits(xt_addr)).map(|w| (i, w.apply(xt_addr))))
            .ok_or(AddrError::WindowMiss { xt_addr })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addr::fold::fold_neighbor;

    /// Seed 001 §2.5 + §8: map a Q7-local window onto the folded dst_soc.
    #[test]
    fn seed001_s2_5_program_window_maps_xt_addr_to_folded_soc_addr() {
        let dst_soc = fold_neighbor(0x10_0000, 1, 0).unwrap();
        let mut r = WindowRemapper::new();
        r.program_window(3, 0x8000_0000, dst_soc, 0x000F_FFFF)
            .unwrap();
        assert_eq!(r.translate(0x8000_0000).unwrap(), (3, 0x58800000100000));
        assert_eq!(r.translate(0x8000_4000).unwrap(), (3, 0x58800000104000));
        assert_eq!(r.translate(0x800F_FFFF).unwrap(), (3, 0x588000001FFFFF));
        assert_eq!(
            r.translate(0x8010_0000),
            Err(AddrError::WindowMiss {
                xt_addr: 0x8010_0000
            })
        );
    }

    /// Seed 001 §2.5: update_window re-points a valid window beside
    /// program_window; an invalid window cannot be updated.
    #[test]
    fn seed001_s2_5_update_window_re_points_a_valid_window_only() {
        let mut r = WindowRemapper::new();
        assert_eq!(
            r.update_window(2, 0x2000_0000, 0x58800000100000, 0x0FFF_FFFF),
            Err(AddrError::WindowNotValid { num: 2 })
        );
        r.program_window(2, 0x2000_0000, 0x58800000000000, 0x0FFF_FFFF)
            .unwrap();
        assert_eq!(r.translate(0x2000_0040).unwrap(), (2, 0x58800000000040));
        let far = crate::addr::fold_chip_id(0, 1, 0x12).unwrap();
        r.update_window(2, 0x2000_0000, far, 0x0FFF_FFFF).unwrap();
        assert_eq!(r.translate(0x2000_0040).unwrap(), (2, far | 0x40));
        assert_eq!(
            r.update_window(16, 0, 0, 0xFFF),
            Err(AddrError::WindowIndex { num: 16 })
        );
        assert!(
            r.update_window(2, 0x2000_0001, far, 0x0FFF_FFFF).is_err(),
            "alignment still checked"
        );
    }

    /// Where two windows match, the lower-numbered one translates (hand-computed
    /// addresses); clearing it lets the next one match.
    #[test]
    fn lowest_matching_window_wins() {
        let mut r = WindowRemapper::new();
        r.program_window(9, 0x1000_0000, 0x9_0000_0000, 0x0FFF_FFFF)
            .unwrap();
        r.program_window(4, 0x1000_0000, 0x4_0000_0000, 0x0000_FFFF)
            .unwrap();
        assert_eq!(r.translate(0x1000_0010).unwrap(), (4, 0x4_0000_0010));
        assert_eq!(r.translate(0x1001_0010).unwrap(), (9, 0x9_0001_0010));
        r.clear(4).unwrap();
        assert_eq!(r.translate(0x1000_0010).unwrap().0, 9);
    }

    /// A remapper with no window programmed answers every address with the typed
    /// `WindowMiss` error naming the address.
    #[test]
    fn empty_remapper_misses_everything() {
        let r = WindowRemapper::new();
        assert!(matches!(
            r.translate(0),
            Err(AddrError::WindowMiss { xt_addr: 0 })
        ));
    }

    #[test]
    fn bad_windows_are_typed_errors() {
        let mut r = WindowRemapper::new();
        assert_eq!(
            r.program_window(16, 0, 0, 0xFFF),
            Err(AddrError::WindowIndex { num: 16 })
        );
        let e = r.program_window(0, 0x1000_0800, 0, 0xFFF).unwrap_err();
        assert!(
            matches!(e, AddrError::WindowConfig { field: "match", .. }),
            "{e}"
        );
        let e = r.program_window(0, 0, 0x800, 0xFFF).unwrap_err();
        assert!(
            matches!(
                e,
                AddrError::WindowConfig {
                    field: "replace",
                    ..
                }
            ),
            "{e}"
        );
        let e = r.program_window(0, 0, 1u64 << 57, 0xFFF).unwrap_err();
        assert!(e.to_string().contains("57-bit"), "{e}");
        let e = r
            .program(
                0,
                Window {
                    mask: 0xF0F0_0000,
                    match_: 0,
                    replace: 0,
                },
            )
            .unwrap_err();
        assert!(
            matches!(
                e,
                AddrError::WindowConfig {
                    field: "u_mask",
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(r.window(0), None);
    }
}
