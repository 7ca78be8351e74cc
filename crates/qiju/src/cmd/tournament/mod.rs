//! `qiju tournament`: pairings, round-robin tables and standings for
//! arbiters, on TRF files (the format Swiss-Manager, JaVaFo and bbpPairings
//! read and write).

mod berger;
mod pair;
mod standings;

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Pair the next round of the tournament in a TRF file; prints what
    /// bbpPairings' `-p` prints. Exit 1: no pairing exists; 2: bad input.
    Pair(pair::Args),
    /// Print every round of the FIDE Berger table for N players.
    Berger(berger::Args),
    /// Print the standings of a TRF file with the tie-breaks asked for.
    Standings(standings::Args),
}

/// Each action chooses its own exit code: `pair` tells "no pairing" (1)
/// from bad input (2), as bbpPairings does.
pub fn run(a: Args) -> ExitCode {
    match a.action {
        Action::Pair(a) => pair::run(a),
        Action::Berger(a) => report(berger::run(a)),
        Action::Standings(a) => report(standings::run(a)),
    }
}

/// Bad input is reported on stderr with exit code 2.
pub fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("qiju: {e:#}");
            ExitCode::from(2)
        }
    }
}
