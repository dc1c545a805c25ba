//! `sb2sb addr`: the CAYMAN SoC address codec on the command line.
//!
//! - `sb2sb addr decode ADDR [--self-die D] [--self-chip-id ID] [--json]`:
//!   both views, the reserved fields and the route under each view.
//! - `sb2sb addr fold --local OFF --die D (--chip-id ID | --neighbor
//!   [--exit-seng S]) [--json]`: the folded address (seed 001 §2.3).
//!
//! Numbers are decimal, `0x` hex or `0b` binary; `_` separators are allowed.
//! Bad input is one line on stderr and exit code 2 (printed by `main`).

use anyhow::{bail, Context, Result};
use sb2sb_model::addr::fields::{
    Field, CAYMAN_ID, CAYMAN_ID_VALID, DIE, EXIT_DIE, EXIT_SENG, ID_VALID, LOCAL, NEIGHBOR_ROUTE,
    PEB, RSVD_HI, RSVD_MID, RSVD_NBR,
};
use sb2sb_model::addr::{decode, fold_chip_id, fold_neighbor, Route, SelfId, View};
use serde_json::{json, Value};

/// Arguments of `sb2sb addr`.
#[derive(clap::Args, Debug)]
pub struct AddrArgs {
    #[command(subcommand)]
    pub cmd: AddrCmd,
}

/// `sb2sb addr` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum AddrCmd {
    /// Decode a 64-bit SoC address through both views (chip-id and neighbor).
    Decode {
        /// The address (decimal, 0x hex or 0b binary).
        addr: String,
        /// This core's die, for the route classification.
        #[arg(long, default_value = "0")]
        self_die: String,
        /// This core's chip id (CAYMAN_ID), for the route classification.
        #[arg(long, default_value = "0")]
        self_chip_id: String,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Fold a peer's LOCAL offset into a routed SoC address.
    Fold {
        /// The peer's LOCAL offset `[46:0]`.
        #[arg(long)]
        local: Option<String>,
        /// The peer's die (0 or 1).
        #[arg(long)]
        die: Option<String>,
        /// Chip-id fold: the peer's chip id (0..=63).
        #[arg(long)]
        chip_id: Option<String>,
        /// Neighbor fold (EXIT_DIE, NEIGHBOR_ROUTE, ID_VALID set).
        #[arg(long)]
        neighbor: bool,
        /// Neighbor fold: EXIT_SENG (0 or 1, default 0).
        #[arg(long)]
        exit_seng: Option<String>,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Parse a number argument; the error names the argument.
pub fn parse_num(what: &str, s: &str) -> Result<u64> {
    let t: String = s.trim().chars().filter(|c| *c != '_').collect();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else {
        (t.as_str(), 10)
    };
    if digits.is_empty() {
        bail!("{what}: `{s}` is not a number (decimal, 0x hex or 0b binary)");
    }
    u64::from_str_radix(digits, radix).with_context(|| {
        format!("{what}: `{s}` is not a 64-bit number (decimal, 0x hex or 0b binary)")
    })
}

/// Run `sb2sb addr`; returns the exit code.
pub fn run(a: AddrArgs) -> Result<i32> {
    match a.cmd {
        AddrCmd::Decode {
            addr,
            self_die,
            self_chip_id,
            json,
        } => {
            let addr = parse_num("ADDR", &addr)?;
            let die = parse_num("--self-die", &self_die)?;
            let chip = parse_num("--self-chip-id", &self_chip_id)?;
            DIE.check(die).context("--self-die")?;
            CAYMAN_ID.check(chip).context("--self-chip-id")?;
            let me = SelfId {
                die: die as u8,
                chip_id: chip as u8,
            };
            emit(json, &decode_json(addr, me), &decode_table(addr, me));
            Ok(0)
        }
        AddrCmd::Fold {
            local,
            die,
            chip_id,
            neighbor,
            exit_seng,
            json,
        } => {
            let local = parse_num(
                "--local",
                local.as_deref().context("--local OFF is required")?,
            )?;
            let die = parse_num("--die", die.as_deref().context("--die D is required")?)?;
            let (mode, addr) = match (chip_id, neighbor) {
                (Some(_), true) => {
                    bail!("--chip-id and --neighbor exclude each other: choose one fold")
                }
                (None, false) => bail!("choose the fold: --chip-id ID or --neighbor"),
                (Some(c), false) => {
                    if exit_seng.is_some() {
                        bail!("--exit-seng applies only to --neighbor");
                    }
                    let chip = parse_num("--chip-id", &c)?;
                    (View::ChipId, fold_chip_id(local, die, chip)?)
                }
                (None, true) => {
                    let seng = match exit_seng {
                        Some(s) => parse_num("--exit-seng", &s)?,
                        None => 0,
                    };
                    (View::Neighbor, fold_neighbor(local, die, seng)?)
                }
            };
            emit(json, &fold_json(addr, mode), &fold_table(addr, mode));
            Ok(0)
        }
    }
}

fn emit(json: bool, j: &Value, table: &str) {
    if json {
        println!("{j}");
    } else {
        print!("{table}");
    }
}

fn bits_set(a: u64) -> Vec<u32> {
    (0..64).filter(|b| (a >> b) & 1 == 1).collect()
}

fn view_fields(view: View) -> &'static [Field] {
    match view {
        View::ChipId => &[LOCAL, DIE, CAYMAN_ID, CAYMAN_ID_VALID],
        View::Neighbor => &[
            LOCAL,
            DIE,
            EXIT_SENG,
            EXIT_DIE,
            NEIGHBOR_ROUTE,
            PEB,
            ID_VALID,
        ],
    }
}

fn view_name(view: View) -> &'static str {
    match view {
        View::ChipId => "chip_id_view",
        View::Neighbor => "neighbor_view",
    }
}

fn fields_json(a: u64, view: View) -> serde_json::Map<String, Value> {
    view_fields(view)
        .iter()
        .map(|f| (f.name.to_ascii_lowercase(), json!(f.get(a))))
        .collect()
}

fn reserved_json(a: u64) -> Value {
    json!({
        "nbr_49_48": RSVD_NBR.get(a),
        "mid_56_55": RSVD_MID.get(a),
        "hi_63_57": RSVD_HI.get(a),
    })
}

fn decode_json(a: u64, me: SelfId) -> Value {
    let d = decode(a);
    let mut j = json!({
        "addr": a,
        "addr_hex": format!("{a:#x}"),
        "bits_set": bits_set(a),
        "self": { "die": me.die, "chip_id": me.chip_id },
        "reserved": reserved_json(a),
    });
    for view in [View::ChipId, View::Neighbor] {
        let mut m = fields_json(a, view);
        m.insert("route".into(), json!(d.route(view, me).name()));
        m.insert(
            "reserved_clear".into(),
            json!(d.reserved.check(view).is_ok()),
        );
        j[view_name(view)] = Value::Object(m);
    }
    j
}

fn field_rows(s: &mut String, a: u64, view: View) {
    for f in view_fields(view) {
        let bits = if f.width == 1 {
            format!("[{}]", f.lsb)
        } else {
            format!("[{}:{}]", f.msb(), f.lsb)
        };
        s.push_str(&format!("  {:<16} {:<8} {:#x}\n", f.name, bits, f.get(a)));
    }
}

fn decode_table(a: u64, me: SelfId) -> String {
    let d = decode(a);
    let mut s = format!("address    {a:#018x}  (bits set: {:?})\n", bits_set(a));
    s.push_str(&format!(
        "self       die {}, chip id {}\n",
        me.die, me.chip_id
    ));
    for (view, title) in [
        (View::ChipId, "chip-id view"),
        (View::Neighbor, "neighbor view"),
    ] {
        let route: Route = d.route(view, me);
        let rsvd = match d.reserved.check(view) {
            Ok(()) => "reserved bits clear".to_string(),
            Err(e) => format!("{e}"),
        };
        s.push_str(&format!("{title}: route {} ({rsvd})\n", route.name()));
        field_rows(&mut s, a, view);
    }
    s.push_str(&format!(
        "reserved   [49:48]={:#x} (neighbor view)  [56:55]={:#x}  [63:57]={:#x}\n",
        RSVD_NBR.get(a),
        RSVD_MID.get(a),
        RSVD_HI.get(a)
    ));
    s
}

fn fold_json(a: u64, view: View) -> Value {
    json!({
        "addr": a,
        "addr_hex": format!("{a:#x}"),
        "fold": match view { View::ChipId => "chip_id", View::Neighbor => "neighbor" },
        "bits_set": bits_set(a),
        "fields": Value::Object(fields_json(a, view)),
    })
}

fn fold_table(a: u64, view: View) -> String {
    let mut s = format!("{a:#x}\n");
    s.push_str(&format!(
        "{} fold, bits set {:?}\n",
        match view {
            View::ChipId => "chip-id",
            View::Neighbor => "neighbor",
        },
        bits_set(a)
    ));
    field_rows(&mut s, a, view);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_in_three_bases_with_separators() {
        assert_eq!(parse_num("x", "0x10_0000").unwrap(), 0x10_0000);
        assert_eq!(parse_num("x", "1048576").unwrap(), 0x10_0000);
        assert_eq!(parse_num("x", "0b101").unwrap(), 5);
        assert!(parse_num("--local", "0xZZ")
            .unwrap_err()
            .to_string()
            .contains("--local"));
        assert!(parse_num("x", "0x").is_err());
        assert!(parse_num("x", "0x1_0000_0000_0000_0000").is_err());
    }
}
