//! `sb2sb isa` (placeholder until implemented).

#[derive(clap::Args, Debug)]
pub struct IsaArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_a: IsaArgs) -> anyhow::Result<i32> {
    anyhow::bail!("`sb2sb isa` is not implemented yet")
}
