//! `sb2sb nccom` (placeholder until implemented).

#[derive(clap::Args, Debug)]
pub struct NccomArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_a: NccomArgs) -> anyhow::Result<i32> {
    anyhow::bail!("`sb2sb nccom` is not implemented yet")
}
