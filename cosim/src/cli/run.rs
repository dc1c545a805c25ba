//! `sb2sb run` (placeholder until implemented).

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_a: RunArgs) -> anyhow::Result<i32> {
    anyhow::bail!("`sb2sb run` is not implemented yet")
}
