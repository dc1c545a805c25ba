//! Topology: packages × 2 dies × cores per die, core identities, chip ids and
//! the route (and address-fold mode) between two cores.
//!
//! Public anchors: 2 dies per device, 4 NeuronCores per die, 16 DMA engines ×
//! 16 queues per core (PUBLIC-FACTS §3); SBUF 128 partitions × 192 KiB (v2) or
//! 224 KiB (v3/trn2) (PUBLIC-FACTS §4); the 6-bit CAYMAN_ID (seed 001 §3.3).

use crate::addr::{self, Route};
use crate::isa::Arch;

use super::link::LinkClass;
use super::SystemError;

/// Dies per package (PUBLIC-FACTS §3; seed 001 §8 "a 2-die Cayman package").
pub const DIES_PER_PACKAGE: u8 = 2;
/// Largest system: 64 dies (the 6-bit CAYMAN_ID space, seed 001 §3.3).
pub const MAX_DIES: u32 = 64;
/// SBUF partitions per core (PUBLIC-FACTS §4).
pub const SBUF_PARTITIONS: u16 = 128;
/// Bytes per partition of a trn2-like (NeuronCore-v3) core: 224 KiB.
pub const SBUF_BYTES_V3: u32 = 224 * 1024;
/// Bytes per partition of a trn1/inf2-like (NeuronCore-v2) core: 192 KiB.
pub const SBUF_BYTES_V2: u32 = 192 * 1024;
/// DMA engines per core (PUBLIC-FACTS §3).
pub const DMA_ENGINES: u8 = 16;
/// Queues per DMA engine and direction (PUBLIC-FACTS §3, seed 001 §4).
pub const DMA_QUEUES: u8 = 16;
/// The routing id of the seed 001 §8 worked example (`remote_routing_id=0x12`,
/// logged "after remote_routing_id=$18").
pub const SEED_S8_ROUTING_ID: u32 = 0x12;

/// A core's global index: `(package * 2 + die) * cores_per_die + core`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct CoreId(pub u16);

impl core::fmt::Display for CoreId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "core {}", self.0)
    }
}

/// Where a core sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct CoreLoc {
    /// Package (device) index.
    pub package: u8,
    /// Die inside the package (0 or 1): the DIE bit `[47]`.
    pub die: u8,
    /// Core inside the die.
    pub core: u8,
}

/// How `rdma_desc_gen` folds a destination for a given (source, destination)
/// pair (seed 001 §2.3; the choice is host-topology-decided, MED there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum FoldMode {
    /// Same die: the LOCAL address unchanged (ID_VALID = 0, DIE = own die).
    Local,
    /// Other die of the same package: `fold_neighbor` (EXIT_DIE, NEIGHBOR_ROUTE).
    Neighbor,
    /// Another package: `fold_chip_id` with the peer package's CAYMAN_ID.
    ChipId,
}

impl FoldMode {
    /// The fold of seed 001 §2.3, the one definition every caller uses (the
    /// system's [`Topology::fold`], the pair environment's routes): the
    /// die-local address `local` of a core on die `die`, folded in this mode
    /// — local keeps LOCAL and DIE; neighbor sets EXIT_DIE, NEIGHBOR_ROUTE,
    /// ID_VALID; chip-id writes `routing_id` into CAYMAN_ID `[53:48]` and sets
    /// CAYMAN_ID_VALID. Errors name the field out of range.
    pub fn fold(self, local: u64, die: u8, routing_id: u32) -> Result<u64, addr::AddrError> {
        match self {
            FoldMode::Local => {
                addr::fields::DIE.set(addr::fields::LOCAL.set(0, local)?, die.into())
            }
            FoldMode::Neighbor => addr::fold_neighbor(local, die.into(), 0),
            FoldMode::ChipId => addr::fold_chip_id(local, die.into(), routing_id.into()),
        }
    }
}

/// Configuration of a system.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Topology {
    /// Packages (devices); each has [`DIES_PER_PACKAGE`] dies.
    pub packages: u8,
    /// NeuronCores per die (default 4, PUBLIC-FACTS §3).
    pub cores_per_die: u8,
    /// SBUF bytes per partition (default [`SBUF_BYTES_V3`]).
    pub sbuf_bytes_per_partition: u32,
    /// Architecture (engine register-file size, seed 002).
    pub arch: Arch,
    /// CAYMAN_ID of each package (`chip_ids[p]`), see [`Topology::default_chip_id`].
    pub chip_ids: Vec<u8>,
    /// The host's routing-id map, one entry per core (seed 001 §1, §2.3: the
    /// routing id of a core, distinct from its physical id). Empty = the
    /// project-defined default: every core carries its package's CAYMAN_ID
    /// ([`Topology::routing_id_of`]).
    pub routing_ids: Vec<u32>,
}

impl Default for Topology {
    /// One trn2-like package: 2 dies × 4 cores, 224 KiB partitions, CAYMAN.
    fn default() -> Self {
        Self::trn2(1)
    }
}

impl Topology {
    /// `packages` trn2-like packages (2 dies × 4 cores, 224 KiB partitions, v3).
    pub fn trn2(packages: u8) -> Self {
        Self {
            packages,
            cores_per_die: 4,
            sbuf_bytes_per_partition: SBUF_BYTES_V3,
            arch: Arch::Cayman,
            chip_ids: (0..packages).map(Self::default_chip_id).collect(),
            routing_ids: Vec::new(),
        }
    }

    /// `packages` v2-like packages (192 KiB partitions, SUNDA register file).
    pub fn v2(packages: u8) -> Self {
        Self {
            sbuf_bytes_per_partition: SBUF_BYTES_V2,
            arch: Arch::Sunda,
            ..Self::trn2(packages)
        }
    }

    /// Default CAYMAN_ID of package `p` (project-defined): `p`, skipping the
    /// ids whose bits `[53:48]` read as a neighbor route (NEIGHBOR_ROUTE `[52]` and
    /// EXIT_DIE `[51]` both set: 0x18–0x1F, 0x38–0x3F), so that the system's
    /// fabric can tell the two views apart (see [`super::map`]).
    pub const fn default_chip_id(p: u8) -> u8 {
        if p < 0x18 {
            p
        } else {
            p + 8
        }
    }

    /// Whether a CAYMAN_ID would be read as a neighbor route by the fabric.
    pub const fn chip_id_is_neighbor_pattern(id: u8) -> bool {
        id & 0x18 == 0x18
    }

    /// Check the configuration.
    pub fn validate(&self) -> Result<(), SystemError> {
        let bad = |field: &'static str, value: u64, rule: &'static str| {
            Err(SystemError::Topology { field, value, rule })
        };
        let dies = u32::from(self.packages) * u32::from(DIES_PER_PACKAGE);
        if self.packages == 0 || dies > MAX_DIES {
            return bad(
                "packages",
                self.packages.into(),
                "1..=32 packages (at most 64 dies, the 6-bit CAYMAN_ID space)",
            );
        }
        if self.cores_per_die == 0 || self.cores_per_die > super::map::MAX_CORES_PER_DIE {
            return bad(
                "cores_per_die",
                self.cores_per_die.into(),
                "1..=8 cores per die",
            );
        }
        let bpp = u64::from(self.sbuf_bytes_per_partition);
        if bpp == 0 || bpp > super::map::SBUF_PARTITION_STRIDE || !bpp.is_multiple_of(64) {
            return bad(
                "sbuf_bytes_per_partition",
                bpp,
                "a multiple of 64 bytes in 64..=2 MiB (the partition stride of the SBUF aperture)",
            );
        }
        if self.chip_ids.len() != usize::from(self.packages) {
            return bad(
                "chip_ids",
                self.chip_ids.len() as u64,
                "one CAYMAN_ID per package",
            );
        }
        for (i, &id) in self.chip_ids.iter().enumerate() {
            if id >= 64 {
                return bad("chip_ids", id.into(), "a CAYMAN_ID is 6 bits (< 64)");
            }
            if Self::chip_id_is_neighbor_pattern(id) {
                return bad("chip_ids", id.into(), "a CAYMAN_ID must not have bits 4 and 3 both set (reads as EXIT_DIE+NEIGHBOR_ROUTE)");
            }
            if self.chip_ids[..i].contains(&id) {
                return bad("chip_ids", id.into(), "CAYMAN_IDs must be unique");
            }
        }
        if !self.routing_ids.is_empty() && self.routing_ids.len() != self.num_cores() {
            return bad(
                "routing_ids",
                self.routing_ids.len() as u64,
                "one routing id per core (or none: each core carries its package's CAYMAN_ID)",
            );
        }
        for (i, &rid) in self.routing_ids.iter().enumerate() {
            if rid >= 64 {
                return bad(
                    "routing_ids",
                    rid.into(),
                    "a routing id folds into CAYMAN_ID [53:48]: 6 bits (< 64)",
                );
            }
            if Self::chip_id_is_neighbor_pattern(rid as u8) {
                return bad("routing_ids", rid.into(), "a routing id must not have bits 4 and 3 both set (reads as EXIT_DIE+NEIGHBOR_ROUTE once folded)");
            }
            let pkg = i / (usize::from(DIES_PER_PACKAGE) * usize::from(self.cores_per_die));
            if let Some(other) = self.package_of_routing_id_scan(rid) {
                if usize::from(other) != pkg {
                    return bad(
                        "routing_ids",
                        rid.into(),
                        "a routing id names one package (the chip-id view routes by it)",
                    );
                }
            }
        }
        Ok(())
    }

    /// Total number of cores.
    pub fn num_cores(&self) -> usize {
        usize::from(self.packages) * usize::from(DIES_PER_PACKAGE) * usize::from(self.cores_per_die)
    }

    /// Total number of dies.
    pub fn num_dies(&self) -> usize {
        usize::from(self.packages) * usize::from(DIES_PER_PACKAGE)
    }

    /// SBUF bytes of one core.
    pub fn sbuf_bytes(&self) -> u64 {
        u64::from(self.sbuf_bytes_per_partition) * u64::from(SBUF_PARTITIONS)
    }

    /// Location of `c`, or an error if it does not exist.
    pub fn loc(&self, c: CoreId) -> Result<CoreLoc, SystemError> {
        if usize::from(c.0) >= self.num_cores() {
            return Err(SystemError::NoSuchCore {
                core: c.0,
                cores: self.num_cores(),
            });
        }
        let cpd = u16::from(self.cores_per_die);
        let die_global = c.0 / cpd;
        Ok(CoreLoc {
            package: (die_global / u16::from(DIES_PER_PACKAGE)) as u8,
            die: (die_global % u16::from(DIES_PER_PACKAGE)) as u8,
            core: (c.0 % cpd) as u8,
        })
    }

    /// Core at `loc`, if it exists.
    pub fn core_at(&self, loc: CoreLoc) -> Option<CoreId> {
        if loc.package >= self.packages
            || loc.die >= DIES_PER_PACKAGE
            || loc.core >= self.cores_per_die
        {
            return None;
        }
        let die_global = u16::from(loc.package) * u16::from(DIES_PER_PACKAGE) + u16::from(loc.die);
        Some(CoreId(
            die_global * u16::from(self.cores_per_die) + u16::from(loc.core),
        ))
    }

    /// Package whose CAYMAN_ID is `id`.
    pub fn package_of_chip_id(&self, id: u8) -> Option<u8> {
        self.chip_ids.iter().position(|&c| c == id).map(|p| p as u8)
    }

    /// First package holding a core whose routing id is `rid` (validation helper).
    fn package_of_routing_id_scan(&self, rid: u32) -> Option<u8> {
        let per_pkg = usize::from(DIES_PER_PACKAGE) * usize::from(self.cores_per_die);
        self.routing_ids
            .iter()
            .position(|&r| r == rid)
            .map(|i| (i / per_pkg) as u8)
    }

    /// The package the chip-id view routes to when CAYMAN_ID `[53:48]` = `id`:
    /// the package whose cores carry routing id `id` (the fold writes the peer
    /// core's routing id there, seed 001 §2.3), or, for a package none of whose
    /// cores carries an explicit routing id, the package whose CAYMAN_ID is `id`.
    pub fn package_of_routing_id(&self, id: u8) -> Option<u8> {
        if let Some(p) = self.package_of_routing_id_scan(u32::from(id)) {
            return Some(p);
        }
        if self.routing_ids.is_empty() {
            return self.package_of_chip_id(id);
        }
        None
    }

    /// The routing id of core `c` in the host's map (seed 001 §1: "the routing
    /// id of the peer core", given by the host; §7.2: "each rank's routing_id
    /// is the value the host passes down"). Project-defined default (empty
    /// [`Topology::routing_ids`]): the core's package CAYMAN_ID.
    pub fn routing_id_of(&self, c: CoreId) -> Result<u32, SystemError> {
        let l = self.loc(c)?;
        Ok(match self.routing_ids.get(usize::from(c.0)) {
            Some(&r) => r,
            None => u32::from(self.chip_ids[usize::from(l.package)]),
        })
    }

    /// The routing id `rdma_desc_gen` on `from` receives for its peer `to`
    /// (`remote_routing_id`, op 8 byte 20): the peer core's routing id.
    pub fn routing_id(&self, from: CoreId, to: CoreId) -> Result<u32, SystemError> {
        self.loc(from)?;
        self.routing_id_of(to)
    }

    /// The seed 001 §8 host map on the default topology: the peer core 7 (die 1)
    /// carries routing id 0x12, every other core its package's CAYMAN_ID (0).
    pub fn seed_001_s8() -> Self {
        let mut t = Self::trn2(1);
        let mut r = vec![0u32; t.num_cores()];
        r[7] = SEED_S8_ROUTING_ID;
        t.routing_ids = r;
        t
    }

    /// How a destination on `to` is folded when seen from `from`.
    pub fn fold_mode(&self, from: CoreId, to: CoreId) -> Result<FoldMode, SystemError> {
        let (a, b) = (self.loc(from)?, self.loc(to)?);
        Ok(if a.package != b.package {
            FoldMode::ChipId
        } else if a.die != b.die {
            FoldMode::Neighbor
        } else {
            FoldMode::Local
        })
    }

    /// The route class between two cores (seen from `from`).
    pub fn route(&self, from: CoreId, to: CoreId) -> Result<Route, SystemError> {
        Ok(match self.fold_mode(from, to)? {
            FoldMode::Local => Route::SameDie,
            FoldMode::Neighbor => Route::OtherDie,
            FoldMode::ChipId => Route::OtherChip,
        })
    }

    /// The link class a transfer from `from` to `to` crosses.
    pub fn link_class(&self, from: CoreId, to: CoreId) -> Result<LinkClass, SystemError> {
        Ok(LinkClass::of(self.route(from, to)?))
    }

    /// Fold the die-local address `local` of core `to` into the SoC address an
    /// engine of core `from` uses to reach it (seed 001 §2.3).
    pub fn fold(&self, from: CoreId, to: CoreId, local: u64) -> Result<u64, SystemError> {
        let mode = self.fold_mode(from, to)?;
        self.fold_in_mode(mode, to, local, self.routing_id_of(to)?)
    }

    /// The chip-id fold of seed 001 §2.3 with an explicit routing id
    /// (`CAYMAN_ID [53:48] <- routing_id`), other modes as [`Topology::fold`].
    /// `rdma_desc_gen` folds with the routing id its word carries.
    pub fn fold_with_routing_id(
        &self,
        from: CoreId,
        to: CoreId,
        local: u64,
        routing_id: u32,
    ) -> Result<u64, SystemError> {
        self.fold_in_mode(self.fold_mode(from, to)?, to, local, routing_id)
    }

    /// Fold `local` of core `to` in `mode` ([`FoldMode::fold`] on `to`'s die).
    pub fn fold_in_mode(
        &self,
        mode: FoldMode,
        to: CoreId,
        local: u64,
        routing_id: u32,
    ) -> Result<u64, SystemError> {
        Ok(mode.fold(local, self.loc(to)?.die, routing_id)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_facts_s3_default_topology_is_2_dies_of_4_cores() {
        let t = Topology::default();
        t.validate().unwrap();
        assert_eq!(t.num_cores(), 8);
        assert_eq!(t.num_dies(), 2);
        assert_eq!(
            t.loc(CoreId(5)).unwrap(),
            CoreLoc {
                package: 0,
                die: 1,
                core: 1
            }
        );
        assert_eq!(
            t.core_at(CoreLoc {
                package: 0,
                die: 1,
                core: 3
            }),
            Some(CoreId(7))
        );
    }

    #[test]
    fn public_facts_s4_sbuf_sizes_are_28_and_24_mib() {
        assert_eq!(Topology::trn2(1).sbuf_bytes(), 28 << 20);
        assert_eq!(Topology::v2(1).sbuf_bytes(), 24 << 20);
    }

    #[test]
    fn loc_and_core_at_round_trip_for_64_dies() {
        let t = Topology::trn2(32);
        t.validate().unwrap();
        assert_eq!(t.num_dies(), 64);
        for c in 0..t.num_cores() as u16 {
            assert_eq!(t.core_at(t.loc(CoreId(c)).unwrap()), Some(CoreId(c)));
        }
        assert!(t.loc(CoreId(t.num_cores() as u16)).is_err());
        assert!(Topology::trn2(33).validate().is_err());
    }

    #[test]
    fn default_chip_ids_avoid_the_neighbor_pattern_and_are_unique() {
        let t = Topology::trn2(32);
        for (p, &id) in t.chip_ids.iter().enumerate() {
            assert!(
                !Topology::chip_id_is_neighbor_pattern(id),
                "package {p} id {id:#x}"
            );
            assert_eq!(t.package_of_chip_id(id), Some(p as u8));
        }
        let mut bad = Topology::trn2(2);
        bad.chip_ids[1] = 0x18;
        assert!(matches!(
            bad.validate(),
            Err(SystemError::Topology {
                field: "chip_ids",
                ..
            })
        ));
    }

    #[test]
    fn seed001_s8_cross_die_peer_folds_to_0x58800000100000() {
        // Seed 001 §8: peer on the other die of the same package → neighbor fold.
        let t = Topology::default();
        let (a, b) = (CoreId(1), CoreId(5));
        assert_eq!(t.fold_mode(a, b).unwrap(), FoldMode::Neighbor);
        assert_eq!(t.fold(a, b, 0x10_0000).unwrap(), 0x58800000100000);
        assert_eq!(t.fold_mode(a, CoreId(2)).unwrap(), FoldMode::Local);
        let t2 = Topology {
            chip_ids: vec![0, 0x12],
            ..Topology::trn2(2)
        };
        t2.validate().unwrap();
        let far = t2
            .core_at(CoreLoc {
                package: 1,
                die: 1,
                core: 0,
            })
            .unwrap();
        assert_eq!(t2.fold_mode(a, far).unwrap(), FoldMode::ChipId);
        assert_eq!(t2.fold(a, far, 0x10_0000).unwrap(), 0x0052_8000_0010_0000);
        assert_eq!(t2.routing_id(a, far).unwrap(), 0x12);
    }
}
