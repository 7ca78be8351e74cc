use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> ExitCode {
    super::report(Err(anyhow::anyhow!("not built yet")))
}
