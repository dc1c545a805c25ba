//! Golden model of `rtl/sb2sb_fabric.sv`: the SoC fabric between the cores
//! of a system — the one definition that both the lockstep system top
//! ([`super::system::SysTop`]) and the system model's cycle mode
//! (`system::cycle`) clock.
//!
//! Per directed (source, destination) core pair one golden [`Link`] per lane
//! (created on first use; a link in reset state is an idle link), latency by
//! link class. One cycle, in the RTL's process order:
//!
//! 1. [`Fabric::route_lane`]: the destination core of each outgoing lane from
//!    the lane's destination address (`sb2sb_core` `lk_dest_o`,
//!    `Xbar::out_link_addrs`), decoded with `system::map::route_address`;
//! 2. [`Fabric::link_outputs`]: every link's Moore outputs;
//! 3. [`Fabric::grant`]: per (destination, lane) the held grant, else the
//!    next source after the last granted whose link offers an AW (in this
//!    cycle, so a lane with one source sees that link's AW in the cycle it is
//!    offered);
//! 4. [`Fabric::core_links`] / [`Fabric::collect`]: a core's link inputs
//!    (its outgoing lanes joined to the links of their routes, its in-lanes
//!    to the granted links) and, after the core's clock, its near-side and
//!    far-side outputs recorded for those links;
//! 5. [`Fabric::edges`]: the links' clock edges; a grant counts the AW
//!    handshakes over it and ends with the B of the last one.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap as HashMap;

use super::link::{Link, LinkFarIn, LinkNearIn, LinkOut};
use crate::system::topology::{CoreId, Topology};
use crate::system::{map, SystemError};

/// The SoC fabric: the links and the in-lane grants, and the wires of the
/// cycle being clocked.
#[derive(Debug, Clone, Default)]
pub struct Fabric {
    /// Per directed (source core, destination core) pair the links of its
    /// lanes, created on first use ([`Fabric::join`]).
    pub links: BTreeMap<(u16, u16), Vec<Link>>,
    /// Per (destination core, lane): the source whose link holds the grant.
    grant: HashMap<(u16, usize), u16>,
    /// Per (destination core, lane): bursts taken over the grant awaiting B.
    open: HashMap<(u16, usize), u32>,
    /// Per (destination core, lane): the last source granted (round robin).
    last: HashMap<(u16, usize), u16>,
    /// Bursts the fabric delivered per destination core (AW handshakes over
    /// the grants).
    pub delivered: HashMap<u16, u64>,
    /// This cycle's Moore outputs of every link ([`Fabric::link_outputs`]).
    louts: BTreeMap<(u16, u16), Vec<LinkOut>>,
    /// This cycle's near-side inputs of the links in use ([`Fabric::collect`]).
    nears: HashMap<(u16, u16, usize), LinkNearIn>,
    /// This cycle's far-side inputs of the granted links.
    fars: HashMap<(u16, u16, usize), LinkFarIn>,
}

impl Fabric {
    /// Whether no link holds a burst and no grant is open.
    pub fn idle(&self) -> bool {
        self.grant.is_empty() && self.links.values().flatten().all(Link::idle)
    }

    /// Whether an in-lane of core `d` holds a grant.
    pub fn granted_to(&self, d: u16) -> bool {
        self.grant.keys().any(|&(x, _)| x == d)
    }

    /// The source granted in-lane `l` of core `d` (for the debug port).
    pub fn grant_of(&self, d: u16, l: usize) -> Option<u16> {
        self.grant.get(&(d, l)).copied()
    }

    /// Bursts open over the grant of in-lane `l` of core `d`.
    pub fn open_of(&self, d: u16, l: usize) -> u32 {
        self.open.get(&(d, l)).copied().unwrap_or(0)
    }

    /// The destination core of the burst core `c` sends on a lane whose
    /// destination address is `addr` (`None`: the lane carries no burst).
    /// An address `route_address` refuses, or one that names `c` itself, is
    /// a route error (`sb2sb_fabric` `route_err_o`; the lane joins no link).
    pub fn route_lane(t: &Topology, c: u16, addr: Option<u64>) -> Result<Option<u16>, SystemError> {
        let Some(addr) = addr else {
            return Ok(None);
        };
        let (to, _) = map::route_address(t, CoreId(c), addr)?;
        if to.0 == c {
            return Err(SystemError::Route {
                from: c,
                addr,
                rule: "the core's interconnect sent a burst for itself out to the fabric",
            });
        }
        Ok(Some(to.0))
    }

    /// The links of `lanes` lanes from core `s` to core `d` exist (created
    /// in reset state with latency `lat()` on first use).
    pub fn join(&mut self, s: u16, d: u16, lanes: usize, lat: impl FnOnce() -> u16) {
        if let std::collections::btree_map::Entry::Vacant(v) = self.links.entry((s, d)) {
            let lat = lat();
            v.insert((0..lanes).map(|_| Link::new(lat)).collect());
        }
    }

    /// Stage 2: the Moore outputs of every link (`stall(s)`: the link
    /// backpressure of links out of core `s`).
    pub fn link_outputs(&mut self, rst: bool, stall: impl Fn(u16) -> bool) {
        let links = &self.links;
        // keys stay in step with `links` (links are only ever added)
        for (&k, ls) in links {
            let st = stall(k.0);
            let o = self.louts.entry(k).or_default();
            o.clear();
            o.extend(ls.iter().map(|l| l.outputs(rst, st)));
        }
        self.nears.clear();
        self.fars.clear();
    }

    /// Stage 3: the in-lane grants of this cycle; a destination for which
    /// `live(d)` is false is not granted yet (cycle mode grants it once the
    /// core is clocked; the RTL top clocks every core).
    pub fn grant(&mut self, rst: bool, live: impl Fn(u16) -> bool) {
        if rst {
            // the asynchronous reset clears the grants at once
            self.grant.clear();
            self.open.clear();
            self.last.clear();
            return;
        }
        let mut want: BTreeMap<(u16, usize), Vec<u16>> = BTreeMap::new();
        for (&(s, d), os) in &self.louts {
            for (l, o) in os.iter().enumerate() {
                if o.m_awvalid && !self.grant.contains_key(&(d, l)) {
                    want.entry((d, l)).or_default().push(s);
                }
            }
        }
        for ((d, l), srcs) in want {
            if !live(d) {
                continue;
            }
            let last = self.last.get(&(d, l)).copied();
            let s = srcs
                .iter()
                .copied()
                .find(|&s| last.is_none_or(|p| s > p))
                .unwrap_or(srcs[0]);
            self.grant.insert((d, l), s);
            self.last.insert((d, l), s);
        }
    }

    /// Stage 4a: the link inputs of core `c` whose outgoing lanes go to
    /// `routes` (one per lane): `out` (the routed links' outputs, idle for an
    /// unrouted lane) and `inc` (the granted links' outputs, idle without a
    /// grant).
    pub fn core_links(
        &self,
        c: u16,
        routes: &[Option<u16>],
        out: &mut Vec<LinkOut>,
        inc: &mut Vec<LinkOut>,
    ) {
        let idle = LinkOut::default();
        out.clear();
        out.extend(
            routes
                .iter()
                .enumerate()
                .map(|(l, r)| r.map_or(idle, |d| self.louts[&(c, d)][l])),
        );
        inc.clear();
        inc.extend((0..routes.len()).map(|l| {
            self.grant
                .get(&(c, l))
                .map_or(idle, |&s| self.louts[&(s, c)][l])
        }));
    }

    /// Stage 4b: core `c`'s near-side outputs of its routed lanes and
    /// far-side outputs of its granted in-lanes, for the links' edges.
    pub fn collect(
        &mut self,
        c: u16,
        routes: &[Option<u16>],
        near: &[LinkNearIn],
        far: &[LinkFarIn],
    ) {
        for (l, r) in routes.iter().enumerate() {
            if let Some(d) = *r {
                self.nears.insert((c, d, l), near[l]);
            }
            if let Some(&s) = self.grant.get(&(c, l)) {
                self.fars.insert((s, c, l), far[l]);
            }
        }
    }

    /// Stage 5: clock edges of the links and of the grants (a reset clears
    /// the grants and the round-robin pointers).
    pub fn edges(&mut self, rst: bool) {
        let (ni, fi) = (LinkNearIn::default(), LinkFarIn::default());
        for (&(s, d), ls) in self.links.iter_mut() {
            let louts = &self.louts[&(s, d)];
            for (l, link) in ls.iter_mut().enumerate() {
                let o = &louts[l];
                let f = self.fars.get(&(s, d, l)).unwrap_or(&fi);
                link.update(rst, self.nears.get(&(s, d, l)).unwrap_or(&ni), f, o);
                if !rst && self.grant.get(&(d, l)) == Some(&s) {
                    let aw = o.m_awvalid && f.awready;
                    *self.delivered.entry(d).or_default() += u64::from(aw);
                    let n = self.open.entry((d, l)).or_default();
                    *n += u32::from(aw);
                    if f.bvalid && o.m_bready {
                        *n -= 1;
                        if *n == 0 {
                            self.grant.remove(&(d, l));
                        }
                    }
                }
            }
        }
        if rst {
            self.grant.clear();
            self.open.clear();
            self.last.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two sources (cores 0 and 1) each send two single-beat bursts to lane
    /// 0 of core 2, whose in-lane always takes AW and W and answers B one
    /// cycle after the beat: the grants alternate from the lowest source
    /// (hand-computed order 0, 1, 0, 1), each held until its B, and every
    /// burst is delivered once.
    #[test]
    fn grants_alternate_from_the_lowest_source_and_hold_to_the_b() {
        let mut f = Fabric::default();
        for s in 0..2u16 {
            f.join(s, 2, 1, || 2);
        }
        let mut left = [2u32; 2];
        let mut aw_done = [false; 2];
        let mut w_done = [false; 2];
        let mut b_pending = 0u32;
        let mut order = Vec::new();
        let (mut lo, mut li) = (Vec::new(), Vec::new());
        for _ in 0..200 {
            f.link_outputs(false, |_| false);
            f.grant(false, |_| true);
            for s in 0..2u16 {
                let r = [Some(2)];
                f.core_links(s, &r, &mut lo, &mut li);
                let k = usize::from(s);
                let busy = left[k] > 0;
                let near = LinkNearIn {
                    awaddr: 0x20,
                    awvalid: busy && !aw_done[k],
                    wdata: [u64::from(s), 0, 0, 0],
                    wstrb: 0xFF,
                    wlast: true,
                    wvalid: busy && !w_done[k],
                    bready: true,
                    ..LinkNearIn::default()
                };
                aw_done[k] |= near.awvalid && lo[0].awready;
                w_done[k] |= near.wvalid && lo[0].wready;
                if lo[0].bvalid {
                    left[k] -= 1;
                    aw_done[k] = false;
                    w_done[k] = false;
                }
                f.collect(s, &r, &[near], &[LinkFarIn::default()]);
            }
            f.core_links(2, &[None], &mut lo, &mut li);
            let far = LinkFarIn {
                awready: true,
                wready: true,
                bresp: 0,
                bvalid: b_pending > 0,
            };
            if li[0].m_awvalid {
                order.push(f.grant_of(2, 0).expect("an AW only over a grant"));
            }
            if far.bvalid && li[0].m_bready {
                b_pending -= 1;
            }
            b_pending += u32::from(li[0].m_wvalid && li[0].m_wlast);
            f.collect(2, &[None], &[LinkNearIn::default()], &[far]);
            f.edges(false);
        }
        assert_eq!(order, [0, 1, 0, 1]);
        assert_eq!(left, [0, 0]);
        assert_eq!(f.delivered[&2], 4);
        assert!(f.idle());
    }
}
