//! Register offsets and field positions, defined once in Rust and rendered as
//! the SystemVerilog package `sb2sb_pkg` (`rtl/sb2sb_pkg.sv`).
//!
//! Each block declares its constants with [`sv_consts!`](crate::sv_consts!);
//! [`render`] emits them as `localparam`s. `build.rs` verilates the freshly
//! rendered package, and the test `committed_package_is_current` keeps the
//! committed copy (used by `make lint`) identical to the rendering — so nothing
//! is typed twice.
//! The register layouts of [`crate::regs`] follow the constants as packed
//! structs (`udma_q_ptr_t`) and field typedefs (`udma_q_ptr_offset_t`).

/// One exported constant.
#[derive(Debug, Clone, Copy)]
pub struct SvConst {
    pub name: &'static str,
    pub width: u32,
    pub value: u64,
    pub doc: &'static str,
}

/// Declare `pub const NAME: TYPE = VALUE;` items and an exported list
/// `pub const SV_CONSTS: &[SvConst]` holding the same values.
#[macro_export]
macro_rules! sv_consts {
    ( $( $(#[doc = $doc:literal])* $name:ident : $ty:ident [$w:literal] = $val:expr ; )* ) => {
        $( $(#[doc = $doc])* pub const $name: $ty = $val; )*
        /// Constants exported to the SystemVerilog package.
        pub const SV_CONSTS: &[$crate::svpkg::SvConst] = &[
            $( $crate::svpkg::SvConst {
                name: stringify!($name), width: $w, value: $name as u64,
                doc: concat!($($doc),*),
            }, )*
        ];
    };
}

/// All constant groups, in package order.
pub fn groups() -> Vec<(&'static str, &'static [SvConst])> {
    vec![
        ("CAYMAN address codec", crate::addr::SV_CONSTS),
        (
            "One core clock: the engines' data width",
            crate::clock::SV_CONSTS,
        ),
        ("EVT_SEM window", crate::evt_sem::regs::SV_CONSTS),
        ("UDMA engine", crate::udma::regs::SV_CONSTS),
        (
            "SB2SB core top: broadcast doorbell",
            crate::pair::regs::SV_CONSTS,
        ),
        (
            "SB2SB core address map (model/src/system/map.rs)",
            crate::system::map::SV_CONSTS,
        ),
    ]
}

/// Functions of the package: the UDMA queue-register address, the formula
/// of [`crate::udma::regs::q_addr`] (its test checks this text against it).
pub const SV_FUNCTIONS: &str = "
  // ---- UDMA queue-register address (udma::regs::q_addr) ----
  // Engine-space address of per-queue register `off` of queue `q` on the
  // S2M (`s2m`) or M2S side.
  function automatic logic [31:0] udma_q_addr(input logic s2m, input logic [3:0] q,
                                              input logic [31:0] off);
    return (s2m ? UDMA_S2M_BASE : UDMA_M2S_BASE) + UDMA_Q_ARRAY_BASE + 32'(q) * UDMA_Q_STRIDE + off;
  endfunction
";

/// Render the SystemVerilog package.
pub fn render() -> String {
    let mut s = String::new();
    s.push_str("// Generated from the Rust definitions in model/src (svpkg::render).\n");
    s.push_str("// Do not edit: run `make gen` after changing the Rust constants.\n\n");
    s.push_str("package sb2sb_pkg;\n");
    s.push_str(
        "\n  // Only constants the RTL uses are exported (Verilator -Wall checks UNUSEDPARAM);\n  \
         // register layouts are exported as packed structs and field typedefs.\n",
    );
    for (title, consts) in groups() {
        s.push_str(&format!("\n  // ---- {title} ----\n"));
        for c in consts {
            let doc = c.doc.trim();
            if !doc.is_empty() {
                s.push_str(&format!("  // {doc}\n"));
            }
            s.push_str(&format!(
                "  localparam logic [{}:0] {} = {}'h{:X};\n",
                c.width - 1,
                c.name,
                c.width,
                c.value
            ));
        }
    }
    for b in crate::regs::blocks() {
        s.push_str(&format!(
            "\n  // ---- {} register layouts (model/src/regs) ----\n",
            b.name
        ));
        s.push_str(&crate::regs::render_sv(b));
    }
    s.push_str(SV_FUNCTIONS);
    s.push_str(&crate::system::cycle::sv_link_latency());
    s.push_str("\n  // ---- register decode (model/src/regs, from the descriptions) ----\n");
    s.push_str(crate::regs::SV_ACCESS_ENUM);
    for b in crate::regs::blocks() {
        let consts: Vec<SvConst> = groups()
            .iter()
            .flat_map(|(_, c)| c.iter().copied())
            .collect();
        s.push_str(&crate::regs::render_sv_decode(b, &consts));
    }
    s.push_str("\nendpackage : sb2sb_pkg\n");
    s
}

#[cfg(test)]
mod tests {
    /// The committed `rtl/sb2sb_pkg.sv` is the package rendered from the Rust
    /// constants (the RTL and the model share one definition of every constant).
    #[test]
    fn committed_package_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rtl/sb2sb_pkg.sv");
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        let rendered = super::render();
        if std::env::var_os("SB2SB_UPDATE_PKG").is_some() {
            std::fs::write(path, &rendered).expect("write rtl/sb2sb_pkg.sv");
            return;
        }
        assert!(
            committed == rendered,
            "rtl/sb2sb_pkg.sv is stale: run `make gen` (SB2SB_UPDATE_PKG=1 cargo test -p sb2sb-model svpkg)"
        );
    }

    /// The package's `udma_q_addr` is `udma::regs::q_addr`: evaluate the
    /// rendered expression with the package constants for every side, queue
    /// and a few registers.
    #[test]
    fn the_queue_address_function_is_q_addr() {
        use crate::udma::regs::{
            q_addr, Side, UDMA_M2S_BASE, UDMA_Q_ARRAY_BASE, UDMA_Q_STRIDE, UDMA_S2M_BASE,
        };
        let f = super::SV_FUNCTIONS;
        assert!(f.contains(
            "return (s2m ? UDMA_S2M_BASE : UDMA_M2S_BASE) + UDMA_Q_ARRAY_BASE + 32'(q) * UDMA_Q_STRIDE + off;"
        ));
        for (s2m, side) in [(false, Side::M2s), (true, Side::S2m)] {
            for q in 0..16u32 {
                for off in [0x20, 0x38, 0x4c] {
                    let sv = if s2m { UDMA_S2M_BASE } else { UDMA_M2S_BASE }
                        + UDMA_Q_ARRAY_BASE
                        + q * UDMA_Q_STRIDE
                        + off;
                    assert_eq!(sv, q_addr(side, q, off));
                }
            }
        }
        // PUBLIC-FACTS §1 layout by hand: S2M queue 15 RTP_INC = 0x2_0000 + 0x1000 + 0xF000 + 0x38.
        assert_eq!(q_addr(Side::S2m, 15, 0x38), 0x3_0038);
    }

    /// The link-latency rule by hand (8-cycle io_d2d: 2 on the die, 8 to the
    /// other die, 32 to another package), and the package's function is
    /// rendered from the same table, one arm per class.
    #[test]
    fn the_link_latency_rule_is_rendered_from_one_table() {
        use crate::system::cycle::{link_latency_at, sv_link_latency, LINK_LATENCY_RULE};
        use crate::system::link::LinkClass;
        assert_eq!(link_latency_at(LinkClass::OnDie, 8), 2);
        assert_eq!(link_latency_at(LinkClass::D2d, 8), 8);
        assert_eq!(link_latency_at(LinkClass::C2c, 8), 32);
        assert_eq!(link_latency_at(LinkClass::OnDie, 12), 3);
        let sv = sv_link_latency();
        assert!(super::render().contains(&sv));
        for r in LINK_LATENCY_RULE {
            assert!(sv.contains(&format!(
                "LINK_CLASS_{}: r = d2d * {} / {};",
                r.sv_name, r.mul, r.div
            )));
        }
        assert!(sv.contains("localparam logic [1:0] LINK_CLASS_ON_DIE = 2'h0;"));
        assert!(sv.contains("localparam logic [1:0] LINK_CLASS_C2C = 2'h2;"));
    }

    #[test]
    fn every_constant_fits_its_declared_width() {
        for (_, consts) in super::groups() {
            for c in consts {
                assert!(c.width >= 1 && c.width <= 64, "{}", c.name);
                if c.width < 64 {
                    assert!(
                        c.value < (1u64 << c.width),
                        "{} = {:#x} exceeds {} bits",
                        c.name,
                        c.value,
                        c.width
                    );
                }
            }
        }
    }
}
