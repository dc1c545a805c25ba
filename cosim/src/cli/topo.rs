//! `sb2sb topo`: the host's view of the topology.
//!
//! - `sb2sb topo peer --core C --dir D [--packages P] [--json]`: the peer-node
//!   helpers of seed 000 §4b / seed 001 §7.2 for core C —
//!   `cayman_get_p2p_pod_peer_node(C, D) = ((C >> 1) ^ D) + 8`,
//!   `sengine_get_d2d_peer_nums(seng) = seng ^ 2` — and the cores they name in
//!   the model's topology (docs/system.md, "Peer-node helpers"), with the fold
//!   and routing id a leg to them would use. `raw` shows both helpers applied
//!   to the number given, as the seed states them (5 ^ 2 = 7).
//!
//! Bad input is one line on stderr and exit code 2 (printed by `main`).

use anyhow::Result;
use sb2sb_model::system::{
    cayman_get_p2p_pod_peer_node, sengine_get_d2d_peer_nums, CoreId, Neigh, Topology,
};
use serde_json::json;

use super::cosim::parse_u64;

/// Arguments of `sb2sb topo`.
#[derive(clap::Args, Debug)]
pub struct TopoArgs {
    #[command(subcommand)]
    pub cmd: TopoCmd,
}

/// `sb2sb topo` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum TopoCmd {
    /// The peer-node helpers for one core and direction code.
    Peer {
        /// The core (global id: (package·2 + die)·4 + core in die).
        #[arg(long, value_parser = parse_u64)]
        core: u64,
        /// Direction code 0..=3 (0 same, 1 ^1, 2 ^2, 3 ^3).
        #[arg(long, value_parser = parse_u64)]
        dir: u64,
        /// Packages of the trn2-like topology (2 dies × 4 cores each).
        #[arg(long, default_value_t = 1)]
        packages: u8,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Entry point of `sb2sb topo`.
pub fn run(a: TopoArgs) -> Result<i32> {
    match a.cmd {
        TopoCmd::Peer {
            core,
            dir,
            packages,
            json,
        } => peer(core, dir, packages, json),
    }
}

fn peer(core: u64, dir: u64, packages: u8, as_json: bool) -> Result<i32> {
    let t = Topology::trn2(packages);
    t.validate()?;
    let c = CoreId(
        u16::try_from(core)
            .ok()
            .filter(|c| usize::from(*c) < t.num_cores())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "--core {core}: the topology has cores 0..{} ({packages} package(s))",
                    t.num_cores()
                )
            })?,
    );
    let d = u8::try_from(dir)
        .ok()
        .filter(|d| *d < 4)
        .ok_or_else(|| anyhow::anyhow!("--dir {dir}: a direction code is 0..=3"))?;
    let neigh = Neigh::from_code(d)?;
    let loc = t.loc(c)?;
    let node = u32::from(c.0) >> 1;
    let pod_node = cayman_get_p2p_pod_peer_node(c.0.into(), d)?;
    let seng = t.seng_of(c)?;
    let d2d_seng = sengine_get_d2d_peer_nums(seng);
    let pod_peer = t.pod_peer(c, d)?;
    let d2d_peer = t.d2d_peer(c)?;
    let ploc = t.loc(pod_peer)?;
    let fold = (pod_peer != c)
        .then(|| t.fold_mode(c, pod_peer))
        .transpose()?;
    let rid = t.routing_id(c, pod_peer)?;
    if as_json {
        let v = json!({
            "core": c.0, "loc": loc, "dir": d, "neigh": neigh,
            "cayman_get_p2p_pod_peer_node": {"node": node, "peer_node": pod_node,
                                             "pod_offset": 8, "core": pod_peer.0, "loc": ploc},
            "sengine_get_d2d_peer_nums": {"seng": seng, "peer_seng": d2d_seng, "core": d2d_peer.0},
            "fold": fold, "remote_routing_id": rid,
            // The two helpers on the given number as is (the seed's numbers:
            // core 5, direction 2 -> node 8; SENG 5 -> 7).
            "raw": {"cayman_get_p2p_pod_peer_node": pod_node,
                    "sengine_get_d2d_peer_nums": sengine_get_d2d_peer_nums(c.0.into())},
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "core {} (package {}, die {}, core {} of the die), direction {d} ({neigh:?})",
            c.0, loc.package, loc.die, loc.core
        );
        println!(
            "  cayman_get_p2p_pod_peer_node  node {node} ^ {d} + 8 = {pod_node}  -> core {} (package {}, die {}, core {})",
            pod_peer.0, ploc.package, ploc.die, ploc.core
        );
        println!(
            "  sengine_get_d2d_peer_nums     seng {seng} ^ 2 = {d2d_seng}  -> core {}",
            d2d_peer.0
        );
        println!(
            "  raw helpers on {}            pod_peer_node({}, {d}) = {pod_node}, d2d_peer_nums({}) = {}",
            c.0,
            c.0,
            c.0,
            sengine_get_d2d_peer_nums(c.0.into())
        );
        match fold {
            Some(f) => {
                println!("  leg to the pod peer           {f:?} fold, remote_routing_id {rid:#x}")
            }
            None => {
                println!("  leg to the pod peer           none (direction 0 is the core itself)")
            }
        }
    }
    Ok(0)
}
