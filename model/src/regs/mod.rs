//! Register descriptions: every register and field of a block, written once as data.
//!
//! A block's description (`evt_sem::regs::DESC`, `udma::regs::DESC`) lists its
//! registers ([`Reg`]: name, offset, array base/stride/count, access, layout,
//! source, description) and the bit layouts they use ([`Layout`]: fields with
//! LSB, width, reset value, named values, description, source). From it:
//!
//! - the Rust models and the stimulus read and write fields through the typed
//!   [`Field`] accessors (`Q_PTR_RING_ID.get(v)`, `Q_PTR_OFFSET.put(v, off)`);
//! - [`render_sv`] emits, into `rtl/sb2sb_pkg.sv`, one packed struct per layout
//!   (the register-to-logic boundary, in the spirit of OpenTitan's
//!   `reg2hw`/`hw2reg`) and one `logic` typedef per multi-bit field, so the RTL
//!   declares `udma_q_ptr_offset_t rl_q` instead of `logic [23:0] rl_q`;
//! - [`render_md`] emits the register tables of `docs/<block>.md` (between
//!   `<!-- regs:<block>:begin -->` / `end` markers, kept current by a test);
//! - [`csr`] derives the generic CSR test plan (reset values, read/write,
//!   bit-bash, W1C/RO/WO, aliasing) that runs against the golden model and the
//!   RTL in lockstep.
//!
//! Why a Rust table and not an hjson/TOML file: the model crate already owns
//! the constants exported to SystemVerilog (`svpkg`), a `const` table is
//! type-checked by the compiler (a field outside its register, a reset value
//! wider than its field and a duplicate offset are compile- or test-time
//! errors), and the models use the same items directly with no parser or
//! build step (docs/decisions.md, "Register description").

pub mod axil;
pub mod csr;

/// Software access of a register (OpenTitan `swaccess`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// Read/write: reads return what was written (masked to the fields).
    Rw,
    /// Read-only: writes answer SLVERR (and set the block's CSR error bit).
    Ro,
    /// Write-only: reads answer OKAY with data 0.
    Wo,
    /// Read, write 1 to clear.
    W1c,
}

impl Access {
    /// Table spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Access::Rw => "RW",
            Access::Ro => "RO",
            Access::Wo => "WO",
            Access::W1c => "W1C",
        }
    }
}

/// Where a register, field or value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A seed document (`"001 §4"`).
    Seed(&'static str),
    /// The public driver / HAL sources (PUBLIC-FACTS; `"driver v4"`, `"Alpine HAL"`).
    Public(&'static str),
    /// Project-defined (listed in docs/decisions.md).
    Project,
}

impl Source {
    /// Table spelling.
    pub fn text(self) -> String {
        match self {
            Source::Seed(s) => format!("seed {s}"),
            Source::Public(s) => format!("public ({s})"),
            Source::Project => "project-defined".to_string(),
        }
    }
}

/// A named value of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Value {
    pub name: &'static str,
    pub value: u32,
}

/// One field of a register layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Upper-case name (`RING_ID`).
    pub name: &'static str,
    pub lsb: u32,
    pub width: u32,
    /// Reset value (in field units, not shifted).
    pub reset: u32,
    /// Named values (enumerations); empty when the field is a number.
    pub values: &'static [Value],
    pub desc: &'static str,
    pub source: Source,
}

impl Field {
    /// A field with reset value 0, no named values.
    pub const fn new(
        name: &'static str,
        lsb: u32,
        width: u32,
        desc: &'static str,
        source: Source,
    ) -> Self {
        Self {
            name,
            lsb,
            width,
            reset: 0,
            values: &[],
            desc,
            source,
        }
    }
    /// The same field with another reset value.
    pub const fn reset(self, reset: u32) -> Self {
        Self { reset, ..self }
    }
    /// The same field with named values.
    pub const fn values(self, values: &'static [Value]) -> Self {
        Self { values, ..self }
    }
    /// Field mask in field units (`(1 << width) - 1`).
    #[inline(always)]
    pub const fn max(self) -> u32 {
        if self.width >= 32 {
            u32::MAX
        } else {
            (1 << self.width) - 1
        }
    }
    /// Field mask in register position.
    #[inline(always)]
    pub const fn mask(self) -> u32 {
        self.max() << self.lsb
    }
    /// Most significant bit.
    pub const fn msb(self) -> u32 {
        self.lsb + self.width - 1
    }
    /// The field's value in register `v`.
    #[inline(always)]
    pub const fn get(self, v: u32) -> u32 {
        (v >> self.lsb) & self.max()
    }
    /// A one-bit field as a bool.
    #[inline(always)]
    pub const fn is_set(self, v: u32) -> bool {
        self.get(v) != 0
    }
    /// `x` placed at the field's position (extra bits dropped).
    #[inline(always)]
    pub const fn val(self, x: u32) -> u32 {
        (x & self.max()) << self.lsb
    }
    /// Register `v` with the field replaced by `x`.
    #[inline(always)]
    pub const fn put(self, v: u32, x: u32) -> u32 {
        (v & !self.mask()) | self.val(x)
    }
    /// `x + n` wrapped to the field width (ring ids, counters).
    #[inline(always)]
    pub const fn wrapping_add(self, x: u32, n: u32) -> u32 {
        x.wrapping_add(n) & self.max()
    }
}

/// The bit layout of one or more registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Lower-case SystemVerilog stem: the struct is `<name>_t`, fields `<name>_<field>_t`.
    pub name: &'static str,
    /// Fields, any order (rendered MSB first); bits outside every field read 0.
    pub fields: &'static [Field],
}

impl Layout {
    /// Reset value of a register with this layout.
    pub const fn reset(&self) -> u32 {
        let mut v = 0;
        let mut k = 0;
        while k < self.fields.len() {
            let f = self.fields[k];
            v |= f.val(f.reset);
            k += 1;
        }
        v
    }
    /// Bits held by the fields.
    pub const fn mask(&self) -> u32 {
        let mut v = 0;
        let mut k = 0;
        while k < self.fields.len() {
            v |= self.fields[k].mask();
            k += 1;
        }
        v
    }
    /// Fields from MSB to LSB.
    pub fn fields_msb_first(&self) -> Vec<Field> {
        let mut f = self.fields.to_vec();
        f.sort_by_key(|f| std::cmp::Reverse(f.lsb));
        f
    }
}

/// Which UDMA side(s) implement a register (EVT_SEM: always `Both`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sides {
    Both,
    /// M2S only (TX).
    M2s,
    /// S2M only (RX).
    S2m,
}

/// A register array: `count` copies `stride` bytes apart from the register's offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Array {
    pub count: u32,
    pub stride: u32,
}

/// One register (or register array).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reg {
    /// Name as in the public sources (`rtp_inc`) or upper-case when project-defined.
    pub name: &'static str,
    /// Byte offset of element 0 inside its group (block window, side, or queue bundle).
    pub offset: u32,
    pub array: Option<Array>,
    pub access: Access,
    pub layout: &'static Layout,
    pub sides: Sides,
    /// What a write does beyond storing (doorbell, W1C, re-arm, ...); empty when plain.
    pub effect: &'static str,
    /// Hardware also changes the value (status, sticky errors): only its reset value
    /// is checked by the generic CSR tests.
    pub volatile: bool,
    /// Reads the storage of this other register of the group (aliases by design).
    pub storage: Option<&'static str>,
    pub desc: &'static str,
    pub source: Source,
}

impl Reg {
    /// Reset value.
    pub const fn reset(&self) -> u32 {
        self.layout.reset()
    }
    /// Number of elements (1 when not an array).
    pub const fn count(&self) -> u32 {
        match self.array {
            Some(a) => a.count,
            None => 1,
        }
    }
    /// Offset of element `k`.
    pub const fn at(&self, k: u32) -> u32 {
        match self.array {
            Some(a) => self.offset + k * a.stride,
            None => self.offset,
        }
    }
}

/// A group of registers sharing a base (EVT_SEM window; UDMA side registers; UDMA queue bundle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    pub title: &'static str,
    /// Lower-case SystemVerilog stem of the group's generated decode function
    /// (`udma_eng` -> `udma_eng_access`), see [`render_sv_decode`].
    pub sv: &'static str,
    /// Base of the group inside the block's address space, and its repetition.
    pub base: u32,
    pub array: Option<Array>,
    pub regs: &'static [Reg],
}

/// A block's register description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Lower-case block name (`evt_sem`, `udma`); the docs marker uses it.
    pub name: &'static str,
    pub groups: &'static [Group],
    /// Layouts exported to SystemVerilog (also the ones only the stimulus uses).
    pub layouts: &'static [&'static Layout],
}

fn hex(v: u32) -> String {
    format!("0x{v:X}")
}

/// SystemVerilog keywords a field name may collide with (suffixed `_f` in the package).
const SV_KEYWORDS: &[&str] = &[
    "abort", "queue", "first", "last", "disable", "state", "type",
];

/// The SystemVerilog member name of a field.
pub fn sv_field(f: &Field) -> String {
    let n = f.name.to_lowercase();
    if SV_KEYWORDS.contains(&n.as_str()) {
        format!("{n}_f")
    } else {
        n
    }
}

fn rsvd(lsb: u32, width: u32) -> String {
    if width == 1 {
        format!("    logic rsvd{lsb};\n")
    } else {
        format!("    logic [{}:0] rsvd{lsb};\n", width - 1)
    }
}

/// SystemVerilog typedefs of a block: one packed struct per layout (MSB first,
/// gaps as `rsvd<lsb>`), and one `logic [W-1:0]` typedef per field wider than a bit.
pub fn render_sv(b: &Block) -> String {
    let mut s = String::new();
    for l in b.layouts {
        let mut next = 32u32; // next bit above the current field
        let mut body = String::new();
        for f in l.fields_msb_first() {
            if f.msb() + 1 < next {
                let lo = f.msb() + 1;
                body.push_str(&rsvd(lo, next - lo));
            }
            let ty = if f.width == 1 {
                "logic".to_string()
            } else {
                format!("{}_{}_t", l.name, f.name.to_lowercase())
            };
            body.push_str(&format!("    {ty} {};\n", sv_field(&f)));
            next = f.lsb;
        }
        if next > 0 {
            body.push_str(&rsvd(0, next));
        }
        for f in l.fields_msb_first() {
            if f.width > 1 {
                s.push_str(&format!(
                    "  typedef logic [{}:0] {}_{}_t;\n",
                    f.width - 1,
                    l.name,
                    f.name.to_lowercase()
                ));
            }
        }
        s.push_str(&format!(
            "  // {} (reset {})\n  typedef struct packed {{\n{body}  }} {}_t;\n",
            l.fields
                .iter()
                .map(|f| format!("{} [{}:{}]", f.name, f.msb(), f.lsb))
                .collect::<Vec<_>>()
                .join(", "),
            hex(l.reset()),
            l.name
        ));
        if l.reset() != 0 {
            s.push_str(&format!(
                "  localparam logic [31:0] {}_RESET = 32'h{:X};\n",
                l.name.to_uppercase(),
                l.reset()
            ));
        }
    }
    s
}

fn fields_text(l: &Layout) -> String {
    let mut parts = Vec::new();
    for f in l.fields_msb_first() {
        let bits = if f.width == 1 {
            format!("{}", f.lsb)
        } else {
            format!("{}:{}", f.msb(), f.lsb)
        };
        let mut t = format!("[{bits}] {}", f.name);
        if f.reset != 0 {
            t.push_str(&format!(" (reset {})", f.reset));
        }
        if !f.values.is_empty() {
            let v: Vec<String> = f
                .values
                .iter()
                .map(|v| format!("{} {}", v.value, v.name))
                .collect();
            t.push_str(&format!(": {}", v.join(", ")));
        }
        if !f.desc.is_empty() {
            t.push_str(&format!(" — {}", f.desc));
        }
        parts.push(t);
    }
    parts.join("; ")
}

/// Markdown register tables of a block (one per group).
pub fn render_md(b: &Block) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "<!-- regs:{}:begin (generated by regs::render_md from the register description; do not edit) -->\n",
        b.name
    ));
    for g in b.groups {
        let rep = match g.array {
            Some(a) => format!(", {} copies every {} bytes", a.count, hex(a.stride)),
            None => String::new(),
        };
        s.push_str(&format!(
            "\n**{}** (base {}{rep})\n\n",
            g.title,
            hex(g.base)
        ));
        s.push_str(
            "| offset | name | sides | access | reset | fields | effect / content | source |\n",
        );
        s.push_str("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for r in g.regs {
            let off = match r.array {
                Some(a) => format!("{} + i·{} (i < {})", hex(r.offset), hex(a.stride), a.count),
                None => hex(r.offset),
            };
            let sides = match r.sides {
                Sides::Both => "both",
                Sides::M2s => "M2S",
                Sides::S2m => "S2M",
            };
            let mut content = r.desc.to_string();
            if !r.effect.is_empty() {
                if !content.is_empty() {
                    content.push_str("; ");
                }
                content.push_str(&format!("write: {}", r.effect));
            }
            s.push_str(&format!(
                "| {off} | {} | {sides} | {} | {} | {} | {content} | {} |\n",
                r.name,
                r.access.name(),
                hex(r.reset()),
                fields_text(r.layout),
                r.source.text()
            ));
        }
    }
    s.push_str(&format!("\n<!-- regs:{}:end -->\n", b.name));
    s
}

/// Replace the generated table of `b` in `doc` (between its markers).
pub fn splice_md(doc: &str, b: &Block) -> Option<String> {
    let begin = format!("<!-- regs:{}:begin", b.name);
    let end = format!("<!-- regs:{}:end -->\n", b.name);
    let i = doc.find(&begin)?;
    let j = doc[i..].find(&end)? + i + end.len();
    Some(format!("{}{}{}", &doc[..i], render_md(b), &doc[j..]))
}

/// Register access of offset `off` (byte offset inside the group, word aligned)
/// on `side` of a group's register list: `None` when nothing is mapped there.
/// `side` is `Sides::Both` for blocks without sides. A `const fn`, so the golden
/// models build their decode tables from the description at compile time.
pub const fn access_in(regs: &[Reg], side: Sides, off: u32) -> Option<Access> {
    let mut k = 0;
    while k < regs.len() {
        let r = &regs[k];
        let on = matches!(
            (r.sides, side),
            (Sides::Both, _)
                | (_, Sides::Both)
                | (Sides::M2s, Sides::M2s)
                | (Sides::S2m, Sides::S2m)
        );
        if on {
            match r.array {
                Some(a) => {
                    if off >= r.offset
                        && off < r.offset + a.count * a.stride
                        && (off - r.offset).is_multiple_of(a.stride)
                    {
                        return Some(r.access);
                    }
                }
                None => {
                    if off == r.offset {
                        return Some(r.access);
                    }
                }
            }
        }
        k += 1;
    }
    None
}

/// Word-indexed decode table of a group: entry `w` is [`access_in`] at byte offset `4 * w`.
pub const fn access_table<const WORDS: usize>(
    regs: &[Reg],
    side: Sides,
) -> [Option<Access>; WORDS] {
    let mut t = [None; WORDS];
    let mut w = 0;
    while w < WORDS {
        t[w] = access_in(regs, side, (w as u32) * 4);
        w += 1;
    }
    t
}

/// The SystemVerilog name of a register offset: the exported constant of
/// `consts` whose value is `r.offset` and whose name ends with the register's
/// name (`rtp_inc` -> `UDMA_Q_RTP_INC`; an array's `<NAME>_BASE`), cast to 32 bits,
/// else a 32-bit literal.
fn sv_offset(r: &Reg, consts: &[crate::svpkg::SvConst]) -> String {
    let suffix = if r.array.is_some() {
        format!("_{}_BASE", r.name.to_uppercase())
    } else {
        format!("_{}", r.name.to_uppercase())
    };
    consts
        .iter()
        .find(|c| c.value == r.offset as u64 && c.name.ends_with(&suffix))
        .map(|c| {
            if c.width == 32 {
                c.name.to_string()
            } else {
                format!("32'({})", c.name)
            }
        })
        .unwrap_or_else(|| format!("32'h{:X}", r.offset))
}

fn sv_access(a: Access) -> &'static str {
    match a {
        Access::Rw => "RegAccRw",
        Access::Ro => "RegAccRo",
        Access::Wo => "RegAccWo",
        Access::W1c => "RegAccW1c",
    }
}

/// The access-kind enum every generated decode function returns (emitted once).
pub const SV_ACCESS_ENUM: &str =
    "  // Register access kind returned by the generated decode functions (regs::render_sv_decode).
  typedef enum logic [2:0] {
    RegAccRw,
    RegAccRo,
    RegAccWo,
    RegAccW1c,
    RegAccBad
  } reg_access_e;
";

/// SystemVerilog decode functions of a block, one per group with an `sv` stem:
/// `function automatic reg_access_e <sv>_access([logic m2s,] logic [31:0] off)`
/// returns the access kind of the register at byte offset `off` inside the group
/// (word aligned; the caller rejects misaligned addresses), `RegAccBad` when none
/// is mapped. Blocks with sides take `m2s` (1 = the M2S side). Offsets are the
/// exported constants where one names the register (`consts`).
pub fn render_sv_decode(b: &Block, consts: &[crate::svpkg::SvConst]) -> String {
    let sided = b
        .groups
        .iter()
        .any(|g| g.regs.iter().any(|r| r.sides != Sides::Both));
    let mut s = String::new();
    for g in b.groups.iter().filter(|g| !g.sv.is_empty()) {
        // (label, expression) per scalar offset, in description order; equal expressions merge.
        let mut items: Vec<(Vec<String>, String)> = Vec::new();
        let mut offs: Vec<u32> = Vec::new();
        for r in g.regs.iter().filter(|r| r.array.is_none()) {
            if offs.contains(&r.offset) {
                continue;
            }
            offs.push(r.offset);
            let acc = |side| access_in(g.regs, side, r.offset).map_or("RegAccBad", sv_access);
            let expr = if sided {
                let (m, s2) = (acc(Sides::M2s), acc(Sides::S2m));
                if m == s2 {
                    m.to_string()
                } else {
                    format!("m2s ? {m} : {s2}")
                }
            } else {
                acc(Sides::Both).to_string()
            };
            let label = sv_offset(r, consts);
            match items.iter_mut().find(|(_, e)| *e == expr) {
                Some((labels, _)) => labels.push(label),
                None => items.push((vec![label], expr)),
            }
        }
        let arrays: Vec<&Reg> = g.regs.iter().filter(|r| r.array.is_some()).collect();
        let args = if sided {
            "logic m2s, logic [31:0] off"
        } else {
            "logic [31:0] off"
        };
        s.push_str(&format!(
            "  // Access kind at byte offset `off` of \"{}\" (generated from {}::regs::DESC).\n",
            g.title, b.name
        ));
        s.push_str(&format!(
            "  function automatic reg_access_e {}_access({args});\n    reg_access_e acc;\n",
            g.sv
        ));
        if !arrays.is_empty() {
            s.push_str("    acc = RegAccBad;\n");
            for (k, r) in arrays.iter().enumerate() {
                let a = r.array.expect("array");
                let base = sv_offset(r, consts);
                // No `off >= 0` term for an array at offset 0 (Verilator UNSIGNED).
                let cond = if r.offset == 0 {
                    format!(
                        "off < 32'd{} && (off % 32'd{}) == '0",
                        a.count * a.stride,
                        a.stride
                    )
                } else {
                    format!(
                        "off >= {base} && off < {base} + 32'd{} && ((off - {base}) % 32'd{}) == '0",
                        a.count * a.stride,
                        a.stride
                    )
                };
                s.push_str(&format!(
                    "    {}if ({cond}) begin\n      acc = {};\n",
                    if k == 0 { "" } else { "end else " },
                    sv_access(r.access)
                ));
            }
            s.push_str("    end else begin\n");
        }
        let ind = if arrays.is_empty() { "    " } else { "      " };
        s.push_str(&format!("{ind}unique case (off)\n"));
        for (labels, expr) in &items {
            s.push_str(&format!("{ind}  {}: acc = {expr};\n", labels.join(", ")));
        }
        s.push_str(&format!("{ind}  default: acc = RegAccBad;\n{ind}endcase\n"));
        if !arrays.is_empty() {
            s.push_str("    end\n");
        }
        s.push_str("    return acc;\n  endfunction\n");
    }
    s
}

/// Markdown table of error-cause bits shared by several sides (`sides`: column
/// title and the cause layout of that side), one row per bit, between
/// `<!-- regs:<marker>:begin/end -->` markers.
pub fn render_causes_md(marker: &str, sides: &[(&str, &Layout)]) -> String {
    let mut bits: Vec<u32> = sides
        .iter()
        .flat_map(|(_, l)| l.fields.iter().map(|f| f.lsb))
        .collect();
    bits.sort_unstable();
    bits.dedup();
    let mut s = format!(
        "<!-- regs:{marker}:begin (generated by regs::render_causes_md from the register description; do not edit) -->\n"
    );
    let heads: Vec<&str> = sides.iter().map(|(n, _)| *n).collect();
    s.push_str(&format!("| bit | {} | source |\n", heads.join(" | ")));
    s.push_str(&format!("| --- |{} --- |\n", " --- |".repeat(sides.len())));
    for b in bits {
        let at: Vec<Option<&Field>> = sides
            .iter()
            .map(|(_, l)| l.fields.iter().find(|f| f.lsb == b))
            .collect();
        let names: Vec<String> = at
            .iter()
            .map(|f| match f {
                Some(f) if f.desc.is_empty() => f.name.to_string(),
                Some(f) => format!("{} ({})", f.name, f.desc),
                None => "—".to_string(),
            })
            .collect();
        let srcs: Vec<(usize, String)> = at
            .iter()
            .enumerate()
            .filter_map(|(k, f)| f.map(|f| (k, f.source.text())))
            .collect();
        let source = if srcs.iter().all(|(_, t)| *t == srcs[0].1) {
            srcs[0].1.clone()
        } else {
            srcs.iter()
                .map(|(k, t)| format!("{}: {t}", heads[*k]))
                .collect::<Vec<_>>()
                .join("; ")
        };
        s.push_str(&format!("| {b} | {} | {source} |\n", names.join(" | ")));
    }
    s.push_str(&format!("<!-- regs:{marker}:end -->\n"));
    s
}

/// Replace the text between `<!-- regs:<marker>:begin` and `<!-- regs:<marker>:end -->\n` with `body`.
pub fn splice_marked(doc: &str, marker: &str, body: &str) -> Option<String> {
    let begin = format!("<!-- regs:{marker}:begin");
    let end = format!("<!-- regs:{marker}:end -->\n");
    let i = doc.find(&begin)?;
    let j = doc[i..].find(&end)? + i + end.len();
    Some(format!("{}{body}{}", &doc[..i], &doc[j..]))
}

/// Every described block.
pub fn blocks() -> [&'static Block; 2] {
    [&crate::evt_sem::regs::DESC, &crate::udma::regs::DESC]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_fit_32_bits_do_not_overlap_and_resets_fit() {
        for b in blocks() {
            for l in b.layouts {
                let mut used = 0u32;
                for f in l.fields {
                    assert!(f.width >= 1 && f.msb() < 32, "{}.{}", l.name, f.name);
                    assert!(f.reset <= f.max(), "{}.{} reset", l.name, f.name);
                    assert_eq!(used & f.mask(), 0, "{}.{} overlaps", l.name, f.name);
                    used |= f.mask();
                    for v in f.values {
                        assert!(v.value <= f.max(), "{}.{}={}", l.name, f.name, v.name);
                    }
                }
            }
            for g in b.groups {
                for r in g.regs {
                    assert!(
                        b.layouts.iter().any(|l| std::ptr::eq(*l, r.layout)),
                        "{}: layout {} not exported",
                        r.name,
                        r.layout.name
                    );
                }
            }
        }
    }

    #[test]
    fn no_two_registers_of_a_group_share_an_offset_on_one_side() {
        for b in blocks() {
            for g in b.groups {
                let mut seen: Vec<(u32, Sides, &str)> = Vec::new();
                for r in g.regs {
                    for k in 0..r.count() {
                        let off = r.at(k);
                        for (o, s, n) in &seen {
                            let clash = *o == off
                                && (*s == Sides::Both || r.sides == Sides::Both || *s == r.sides);
                            assert!(!clash, "{} and {} at {off:#x}", r.name, n);
                        }
                        seen.push((off, r.sides, r.name));
                    }
                }
            }
        }
    }

    /// A register field's mask, insert, extract, wrap-around add and maximum, on
    /// hand-computed values of a 2-bit field at bit 30 and a whole-word field.
    #[test]
    fn field_accessors_round_trip() {
        let f = Field::new("X", 30, 2, "", Source::Project);
        assert_eq!(f.mask(), 0xC000_0000);
        assert_eq!(f.put(0x1234, 3), 0xC000_1234);
        assert_eq!(f.get(0x8000_0000), 2);
        assert_eq!(f.wrapping_add(3, 1), 0);
        let w = Field::new("W", 0, 32, "", Source::Project);
        assert_eq!(w.max(), u32::MAX);
        assert_eq!(w.put(5, 0xdead_beef), 0xdead_beef);
    }

    #[test]
    fn committed_docs_tables_are_current() {
        let update = std::env::var_os("SB2SB_UPDATE_PKG").is_some();
        for (b, page) in [
            (&crate::evt_sem::regs::DESC, "evt_sem.md"),
            (&crate::udma::regs::DESC, "udma.md"),
        ] {
            let path = format!("{}/../docs/{page}", env!("CARGO_MANIFEST_DIR"));
            let doc = std::fs::read_to_string(&path).expect("read docs page");
            let fresh = splice_md(&doc, b)
                .unwrap_or_else(|| panic!("docs/{page} has no regs:{} markers", b.name));
            if update {
                std::fs::write(&path, &fresh).expect("write docs page");
            } else {
                assert!(
                    fresh == doc,
                    "docs/{page}: register table is stale: run `make gen`"
                );
            }
        }
        // The named core configurations (docs/core.md).
        let path = format!("{}/../docs/core.md", env!("CARGO_MANIFEST_DIR"));
        let doc = std::fs::read_to_string(&path).expect("read docs page");
        let fresh = splice_marked(
            &doc,
            "core_configs",
            &crate::pair::configs::render_configs_md(),
        )
        .expect("docs/core.md has no regs:core_configs markers");
        if update {
            std::fs::write(&path, &fresh).expect("write docs page");
        } else {
            assert!(
                fresh == doc,
                "docs/core.md: core configuration table is stale: run `make gen`"
            );
        }
        // The UDMA error-cause table (docs/udma.md §3).
        let path = format!("{}/../docs/udma.md", env!("CARGO_MANIFEST_DIR"));
        let doc = std::fs::read_to_string(&path).expect("read docs page");
        let fresh = splice_marked(&doc, "udma_err", &crate::udma::regs::render_cause_table())
            .expect("docs/udma.md has no regs:udma_err markers");
        if update {
            std::fs::write(&path, &fresh).expect("write docs page");
        } else {
            assert!(
                fresh == doc,
                "docs/udma.md: error-cause table is stale: run `make gen`"
            );
        }
    }
}

/// RTL files whose widths and offsets come from the register descriptions.
pub const RTL_FILES: &[&str] = &[
    "evt_sem.sv",
    "udma_regs.sv",
    "udma_engine.sv",
    "udma_desc_pf.sv",
    "udma_desc_fetch.sv",
    "udma_m2s.sv",
    "udma_s2m.sv",
];

/// Literals in `src` (SystemVerilog, comments stripped) that duplicate a
/// generated width or offset: [`width_literals`] and [`offset_literals`] of
/// `block`. Returns (line, literal) pairs.
pub fn literal_duplicates(src: &str, block: &Block) -> Vec<(usize, String)> {
    let mut hits = width_literals(src);
    hits.extend(offset_literals(src, block));
    hits.sort();
    hits
}

/// `[W-1:0]` / `W'` literals for every field width W in 5..=31 of the
/// described layouts (of every block), in `src` with comments stripped.
pub fn width_literals(src: &str) -> Vec<(usize, String)> {
    let mut widths: Vec<u32> = Vec::new();
    for b in blocks() {
        for l in b.layouts {
            for f in l.fields {
                if (5..32).contains(&f.width) && !widths.contains(&f.width) {
                    widths.push(f.width);
                }
            }
        }
    }
    let mut hits = Vec::new();
    for (n, line) in src.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("").to_lowercase();
        for w in &widths {
            for pat in [
                format!("[{}:0]", w - 1),
                format!("{w}'d"),
                format!("{w}'h"),
                format!("{w}'b"),
                format!("{w}'("),
            ] {
                if code.contains(&pat) {
                    hits.push((n + 1, pat));
                }
            }
        }
    }
    hits
}

/// Sized hex literals (`<digits>'h<hex>`) in `src` (comments stripped) equal
/// to a register offset >= 0x20 of `block`.
pub fn offset_literals(src: &str, block: &Block) -> Vec<(usize, String)> {
    let mut offsets: Vec<u32> = Vec::new();
    for g in block.groups {
        for r in g.regs {
            if r.offset >= 0x20 {
                offsets.push(r.offset);
            }
        }
    }
    let mut hits = Vec::new();
    for (n, line) in src.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("").to_lowercase();
        let bytes: Vec<char> = code.chars().collect();
        let mut k = 0;
        while k + 1 < bytes.len() {
            if bytes[k] == '\'' && bytes[k + 1] == 'h' && k > 0 && bytes[k - 1].is_ascii_digit() {
                let hexs: String = bytes[k + 2..]
                    .iter()
                    .take_while(|c| c.is_ascii_hexdigit() || **c == '_')
                    .filter(|c| **c != '_')
                    .collect();
                if let Ok(v) = u32::from_str_radix(&hexs, 16) {
                    if offsets.contains(&v) {
                        hits.push((n + 1, format!("'h{hexs}")));
                    }
                }
            }
            k += 1;
        }
    }
    hits
}

#[cfg(test)]
mod rtl_literal_tests {
    use super::*;

    /// Every `rtl/*.sv` but the generated package, with its text.
    fn rtl_sources() -> Vec<(String, String)> {
        let dir = format!("{}/../rtl", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
            .expect("read rtl/")
            .map(|e| {
                e.expect("rtl/ entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|f| f.ends_with(".sv") && f != "sb2sb_pkg.sv")
            .map(|f| {
                let src = std::fs::read_to_string(format!("{dir}/{f}")).expect("read rtl file");
                (f, src)
            })
            .collect();
        files.sort();
        files
    }

    #[test]
    fn rtl_has_no_literal_that_duplicates_a_generated_width_or_offset() {
        let mut bad = Vec::new();
        let files = rtl_sources();
        for f in RTL_FILES {
            assert!(files.iter().any(|(n, _)| n == f), "RTL_FILES names rtl/{f}");
        }
        assert!(
            files.len() > RTL_FILES.len(),
            "rtl/ holds more than the register blocks"
        );
        // The register blocks (RTL_FILES): field widths and their own offsets.
        // Every other file (link, crossbar, Q7 port, core, pair, ...) works on
        // registers only through the package: no register offset of either
        // block may appear there as a literal (its own 16-bit timestamps and
        // debug ports are not register fields, so widths are not checked).
        for (f, src) in &files {
            let hits = if RTL_FILES.contains(&f.as_str()) {
                let block = if f.starts_with("evt_sem") {
                    &crate::evt_sem::regs::DESC
                } else {
                    &crate::udma::regs::DESC
                };
                literal_duplicates(src, block)
            } else {
                let mut h = offset_literals(src, &crate::evt_sem::regs::DESC);
                h.extend(offset_literals(src, &crate::udma::regs::DESC));
                h
            };
            for (line, lit) in hits {
                bad.push(format!("rtl/{f}:{line}: {lit}"));
            }
        }
        assert!(
            bad.is_empty(),
            "literals duplicating generated constants (use the sb2sb_pkg typedefs/constants):\n{}",
            bad.join("\n")
        );
    }

    #[test]
    fn the_literal_check_catches_the_old_spellings() {
        // The forms issue 14 listed, as they were written before the generated types.
        let old =
            "rl_d = d[23:0];\n  qi = off[16:12] - 5'd1;\n  x = 17'h10000;\n  case (o) 12'h038: ;";
        let hits = literal_duplicates(old, &crate::udma::regs::DESC);
        let lits: Vec<&str> = hits.iter().map(|(_, l)| l.as_str()).collect();
        assert!(lits.contains(&"[23:0]"), "{lits:?}");
        assert!(lits.contains(&"17'h"), "{lits:?}");
        assert!(lits.contains(&"'h038"), "{lits:?}");
        // Comments are not code.
        assert!(literal_duplicates("// [23:0] 24'd0", &crate::udma::regs::DESC).is_empty());
        // Outside the register blocks only offsets are checked.
        let udma = &crate::udma::regs::DESC;
        assert_eq!(
            offset_literals("case (o) 12'h038: ;", udma),
            [(1, "'h038".to_string())]
        );
        assert!(offset_literals("logic [15:0] now_q; x = 16'h0;", udma).is_empty());
        assert!(!width_literals("logic [23:0] x;").is_empty());
    }
}
