//! `sb2sb isa`: decode and encode the 64-byte instruction words
//! (`sb2sb_model::isa`). Hex text is byte 0 first, two digits per byte.

use std::io::Read as _;

use anyhow::{bail, Context as _};
use sb2sb_model::isa::{self, Arch, Kind, RawWord, Word, WORD_BYTES};

/// `sb2sb isa` arguments.
#[derive(clap::Args, Debug)]
pub struct IsaArgs {
    #[command(subcommand)]
    pub cmd: IsaCmd,
}

/// `sb2sb isa` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum IsaCmd {
    /// Decode a word: 128 hex digits, byte 0 first (spaces allowed), or `-` to read stdin.
    Decode(DecodeArgs),
    /// Encode a word of KIND (sendrecv|cur-rank|gid-load|rdma-gen|rdma-start) from
    /// `--FIELD VALUE` pairs named as in the seeds, e.g. `--peer_id 3 --is_send 1`.
    Encode(EncodeArgs),
}

/// `sb2sb isa decode` arguments.
#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    /// The word as hex (may be split over several arguments), or `-` for stdin.
    #[arg(required = true, num_args = 1.., value_name = "HEX")]
    pub hex: Vec<String>,
    /// Target architecture: sunda|v2, cayman|v3, mariana|v4, maverick|v5.
    #[arg(long, default_value = "cayman")]
    pub arch: Arch,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `sb2sb isa encode` arguments.
#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    /// Word kind: sendrecv, cur-rank, gid-load, rdma-gen or rdma-start.
    pub kind: String,
    /// Target architecture (for the validator): sunda|v2, cayman|v3, mariana|v4, maverick|v5.
    #[arg(long, default_value = "cayman")]
    pub arch: Arch,
    /// Print one JSON object instead of the hex word and a table.
    #[arg(long)]
    pub json: bool,
    /// Field settings: `--NAME VALUE` or `--NAME=VALUE` (numbers: decimal, 0x…, 0b…; enums also by name).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "--FIELD VALUE"
    )]
    pub fields: Vec<String>,
}

/// Run `sb2sb isa`; returns the exit code.
pub fn run(a: IsaArgs) -> anyhow::Result<i32> {
    match a.cmd {
        IsaCmd::Decode(d) => decode(d),
        IsaCmd::Encode(e) => encode(e),
    }
}

fn decode(a: DecodeArgs) -> anyhow::Result<i32> {
    let text = if a.hex.len() == 1 && a.hex[0] == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read the word from stdin")?;
        s
    } else {
        a.hex.join(" ")
    };
    let raw = parse_hex_word(&text)?;
    let w = isa::decode(&raw, a.arch).context("invalid instruction word")?;
    print_word(&w, a.arch, a.json)?;
    Ok(0)
}

fn encode(a: EncodeArgs) -> anyhow::Result<i32> {
    let kind: Kind = a.kind.parse()?;
    let mut arch = a.arch;
    let mut json = a.json;
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut it = a.fields.iter();
    while let Some(arg) = it.next() {
        let Some(flag) = arg.strip_prefix("--") else {
            bail!("expected `--FIELD VALUE`, found {arg:?}");
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        if name == "json" && inline.is_none() {
            json = true;
            continue;
        }
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .cloned()
                .with_context(|| format!("`--{name}` needs a value"))?,
        };
        if name == "arch" {
            arch = value.parse()?;
        } else {
            pairs.push((name.to_string(), value));
        }
    }
    let w = Word::from_fields(
        kind,
        pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())),
        arch,
    )?;
    // What is printed must be what decodes: check the round trip.
    let raw = w.encode();
    let back = isa::decode(&raw, arch)?;
    if back != w {
        bail!("internal error: encoded {kind} word does not decode to itself");
    }
    print_word(&w, arch, json)?;
    Ok(0)
}

/// Parse 128 hex digits (byte 0 first); whitespace, `_` and one leading `0x` are ignored.
pub fn parse_hex_word(text: &str) -> anyhow::Result<RawWord> {
    let t: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(&t);
    if let Some((i, c)) = t.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        bail!("not a hex digit: {c:?} at position {i} of the word");
    }
    if t.len() != 2 * WORD_BYTES {
        bail!(
            "expected {} hex digits (64 bytes), got {}",
            2 * WORD_BYTES,
            t.len()
        );
    }
    let mut w = [0u8; WORD_BYTES];
    for (i, b) in w.iter_mut().enumerate() {
        *b = u8::from_str_radix(&t[2 * i..2 * i + 2], 16)?;
    }
    Ok(w)
}

/// The word as 128 lowercase hex digits, byte 0 first.
pub fn hex_word(w: &RawWord) -> String {
    w.iter().map(|b| format!("{b:02x}")).collect()
}

/// Write `text` to stdout; a closed pipe (`| head -1`) is not an error.
fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

fn print_word(w: &Word, arch: Arch, json: bool) -> anyhow::Result<()> {
    emit(&render_word(w, arch, json)?)
}

/// The `--json` object or the hex line plus the field table.
pub fn render_word(w: &Word, arch: Arch, json: bool) -> anyhow::Result<String> {
    use std::fmt::Write as _;
    let raw = w.encode();
    let hex = hex_word(&raw);
    if json {
        let mut v = serde_json::to_value(w)?;
        let o = v.as_object_mut().context("word is not a JSON object")?;
        o.insert("arch".into(), arch.name().into());
        o.insert("hex".into(), hex.into());
        o.insert(
            "is_pseudo_op".into(),
            isa::is_pseudo_op(w.header().opcode).into(),
        );
        if let Some(op) = w.enc_op_type() {
            o.insert("enc_op_type".into(), op.name().into());
            o.insert("enc_op_type_code".into(), op.code().into());
        }
        return Ok(format!("{}\n", serde_json::to_string(&v)?));
    }
    let mut s = String::new();
    writeln!(s, "{hex}")?;
    writeln!(
        s,
        "{} (opcode 0x{:02x}{}) on {arch}",
        w.kind().seed_name(),
        w.header().opcode,
        if isa::is_pseudo_op(w.header().opcode) {
            ", pseudo-op"
        } else {
            ""
        }
    )?;
    writeln!(
        s,
        "{:>6} {:>4}  {:<24} {:<28} meaning",
        "offset", "size", "field", "value"
    )?;
    for f in w.layout() {
        let value = if f.reserved {
            "0 (all zero)".to_string()
        } else if f.size <= 8 {
            let v = f.read(&raw);
            if v < 10 {
                v.to_string()
            } else {
                format!("{v} (0x{v:x})")
            }
        } else {
            hex_word_slice(&raw[f.range()])
        };
        let meaning = w.describe(f.name).unwrap_or_default();
        writeln!(
            s,
            "{:>6} {:>4}  {:<24} {:<28} {meaning}",
            f.offset, f.size, f.name, value
        )?;
    }
    Ok(s)
}

fn hex_word_slice(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
