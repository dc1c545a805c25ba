//! `sb2sb cosim` (placeholder until implemented).

#[derive(clap::Args, Debug)]
pub struct CosimArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_a: CosimArgs) -> anyhow::Result<i32> {
    anyhow::bail!("`sb2sb cosim` is not implemented yet")
}
