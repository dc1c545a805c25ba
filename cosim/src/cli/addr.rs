//! `sb2sb addr` (placeholder until implemented).

#[derive(clap::Args, Debug)]
pub struct AddrArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_a: AddrArgs) -> anyhow::Result<i32> {
    anyhow::bail!("`sb2sb addr` is not implemented yet")
}
