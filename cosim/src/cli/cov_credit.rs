//! What a `credit BLOCK:MODULE FROM REASON` entry of the waiver file may take
//! from block FROM's merged coverage data (`sb2sb coverage`).
//!
//! A point of BLOCK counts as covered when FROM covered the *same source
//! point of the same module at the same parameters*. Verilator names a
//! parameterized module after its parameter values (`udma_m2s__N10_M10_D100_MB4`),
//! so an equal name is an equal parameterization. When that name would be
//! longer than 30 characters Verilator hashes it instead (`udma_s2m__pi3`,
//! numbered in elaboration order, so the same parameterization is `__pi3`
//! in one build and `__pi7` in another). For such a module the name says
//! nothing; the point is then identified by its instance path below FROM's
//! top module: `u_s2m` below the leg's `u_udma` engine is `u_s2m` below the
//! `udma_engine` top of block `udma_w256`. That is the same parameterization
//! because the instance above it is: block FROM elaborates its top at the
//! parameters BLOCK instances it with (block `udma_w256` is the core's engine;
//! `udma_w256_block_has_the_parameters_of_the_cores_engine` checks them).

use std::collections::{BTreeMap, BTreeSet};

use super::coverage::{point_key, Kind, Point, PointKey};

/// A covered point of a module with a hashed name: kind, module (without its
/// parameter suffix), source file (base name), line, column, comment, and the
/// instance path below the anchor (FROM's top module).
pub type AnchoredKey = (Kind, String, String, u32, u32, String, String);

/// The covered points block FROM offers to `credit` entries.
#[derive(Debug, Clone, Default)]
pub struct CreditSource {
    /// FROM's top module (the anchor of hashed modules' paths).
    pub top: String,
    /// Covered points by Verilator's module name.
    pub covered: BTreeSet<PointKey>,
    /// Covered points of modules with a hashed name, by instance path below `top`.
    pub hashed: BTreeSet<AnchoredKey>,
}

impl CreditSource {
    /// The covered points of FROM's merged data; `top` is its top module,
    /// whose instance is the first component below `TOP` in every path.
    pub fn new(top: &str, points: &[Point]) -> Self {
        let covered = points.iter().filter(|p| p.count > 0);
        Self {
            top: top.to_string(),
            covered: covered.clone().map(point_key).collect(),
            hashed: covered
                .filter(|p| is_hashed(&p.module))
                .filter_map(|p| anchored_key(p, top))
                .collect(),
        }
    }

    /// Did FROM cover point `p` of a block in which FROM's top module is
    /// instanced as `anchors` (instance names)?
    pub fn covers(&self, p: &Point, anchors: &[String]) -> bool {
        self.covered.contains(&point_key(p))
            || (is_hashed(&p.module)
                && anchors
                    .iter()
                    .filter_map(|a| anchored_key(p, a))
                    .any(|k| self.hashed.contains(&k)))
    }
}

/// The module name without Verilator's parameter suffix.
pub fn base_module(module: &str) -> &str {
    module.split_once("__").map_or(module, |(b, _)| b)
}

/// Verilator hashed this parameterized module's name (`NAME__piN`).
pub fn is_hashed(module: &str) -> bool {
    module
        .rsplit_once("__pi")
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Instance names under which module `top` appears in `points` (the last
/// component of its points' paths): where FROM's top sits inside BLOCK.
pub fn instances_of(points: &[Point], top: &str) -> Vec<String> {
    let names: BTreeSet<&str> = points
        .iter()
        .filter(|p| base_module(&p.module) == top)
        .filter_map(|p| p.hier.rsplit('.').next())
        .collect();
    names.into_iter().map(String::from).collect()
}

/// The anchor instance names of every FROM block's top inside `points`.
pub fn anchors_in(
    points: &[Point],
    sources: &BTreeMap<String, CreditSource>,
) -> BTreeMap<String, Vec<String>> {
    sources
        .iter()
        .map(|(b, s)| (b.clone(), instances_of(points, &s.top)))
        .collect()
}

/// Point `p` keyed by its path below the last path component named `anchor`;
/// `None` when no component is.
fn anchored_key(p: &Point, anchor: &str) -> Option<AnchoredKey> {
    let parts: Vec<&str> = p.hier.split('.').collect();
    let at = parts.iter().rposition(|c| *c == anchor)?;
    Some((
        p.kind,
        base_module(&p.module).to_string(),
        p.file.rsplit('/').next().unwrap_or(&p.file).to_string(),
        p.line,
        p.column,
        p.comment.clone(),
        parts[at + 1..].join("."),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(module: &str, hier: &str, line: u32, count: u64) -> Point {
        Point {
            kind: Kind::Line,
            file: "/r/rtl/udma_s2m.sv".into(),
            line,
            column: 3,
            module: module.into(),
            comment: "if".into(),
            hier: hier.into(),
            count,
        }
    }

    #[test]
    fn hashed_names_are_told_from_parameter_suffixes() {
        assert!(is_hashed("udma_s2m__pi3"));
        assert!(is_hashed("udma_desc_fetch__pi12"));
        assert!(!is_hashed("udma_m2s__N10_M10_D100_MB4"));
        assert!(!is_hashed("udma_engine"));
        assert!(!is_hashed("x__pi"));
        assert_eq!(base_module("udma_s2m__pi3"), "udma_s2m");
        assert_eq!(base_module("evt_sem"), "evt_sem");
    }

    /// A hashed module is matched by its path below FROM's top, whatever its
    /// number in either build; the same source line at another path (the
    /// other parameterization) or below another anchor is not.
    #[test]
    fn a_hashed_module_is_matched_by_its_path_below_the_anchor() {
        let from = [
            pt("udma_engine", "TOP.udma_engine", 1, 1),
            pt("udma_s2m__pi7", "TOP.udma_engine.u_s2m", 12, 5),
            pt(
                "udma_desc_fetch__pi1",
                "TOP.udma_engine.u_m2s.u_fetch",
                40,
                2,
            ),
            pt(
                "udma_desc_fetch__pi2",
                "TOP.udma_engine.u_s2m.u_fetch",
                40,
                0,
            ),
        ];
        let src = CreditSource::new("udma_engine", &from);
        let leg = [
            pt("udma_engine__D100", "TOP.sb2sb_pair.u_core_*].u_udma", 1, 1),
            pt(
                "udma_s2m__pi3",
                "TOP.sb2sb_pair.u_core_*].u_udma.u_s2m",
                12,
                0,
            ),
            pt(
                "udma_desc_fetch__pi4",
                "TOP.sb2sb_pair.u_core_*].u_udma.u_m2s.u_fetch",
                40,
                0,
            ),
            pt(
                "udma_desc_fetch__pi5",
                "TOP.sb2sb_pair.u_core_*].u_udma.u_s2m.u_fetch",
                40,
                0,
            ),
        ];
        let anchors = instances_of(&leg, "udma_engine");
        assert_eq!(anchors, vec!["u_udma".to_string()]);
        assert!(src.covers(&leg[1], &anchors));
        assert!(src.covers(&leg[2], &anchors));
        // covered in FROM only by the M2S fetcher: not the S2M one
        assert!(!src.covers(&leg[3], &anchors));
        // another line of the same module is not covered
        assert!(!src.covers(&pt("udma_s2m__pi3", &leg[1].hier, 13, 0), &anchors));
        // no anchor instance in the block: nothing is matched by path
        assert!(!src.covers(&leg[1], &[]));
    }

    /// A module Verilator names by its parameters is matched by that name
    /// only: the same line at other parameters is not credited.
    #[test]
    fn a_named_parameterization_is_matched_by_name_only() {
        let from = [pt(
            "udma_m2s__N10_M10_D40_MB4",
            "TOP.udma_engine.u_m2s",
            9,
            4,
        )];
        let src = CreditSource::new("udma_engine", &from);
        let anchors = vec!["u_udma".to_string()];
        let at = "TOP.p.u_udma.u_m2s";
        assert!(!src.covers(&pt("udma_m2s__N10_M10_D100_MB4", at, 9, 0), &anchors));
        assert!(src.covers(&pt("udma_m2s__N10_M10_D40_MB4", at, 9, 0), &anchors));
    }
}
