//! `qiju tournament pair --system dutch FILE.trf`: pair the next round of
//! the tournament in a TRF file and print what bbpPairings' `-p` prints —
//! the number of pairs, one `WHITE BLACK` line per board, `P 0` for the
//! pairing-allocated bye. Exit 1 when no pairing exists, 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use tournament::dutch::{self, DutchError};

/// The Swiss systems we pair.
#[derive(Clone, Copy, clap::ValueEnum)]
enum System {
    /// FIDE Dutch system, C.04.3 (2025 rules, in force from 2026).
    Dutch,
}

#[derive(clap::Args)]
pub struct Args {
    /// The pairing system.
    #[arg(long, value_enum)]
    system: System,
    /// The tournament so far, as TRF (TRF-2016 with XXR/XXC, or TRF-2026).
    file: PathBuf,
}

pub fn run(a: Args) -> ExitCode {
    let t = match read(&a) {
        Ok(t) => t,
        Err(e) => return super::report(Err(e)),
    };
    match a.system {
        System::Dutch => match dutch::pair_next_round(&t) {
            Ok(p) => {
                print!("{}", p.to_bbp_text());
                ExitCode::SUCCESS
            }
            Err(e @ DutchError::NoPairing { .. }) => {
                eprintln!("qiju: {e}");
                ExitCode::from(1)
            }
            Err(e) => super::report(Err(e.into())),
        },
    }
}

fn read(a: &Args) -> anyhow::Result<tournament::model::Tournament> {
    let text = std::fs::read_to_string(&a.file).with_context(|| format!("reading {}", a.file.display()))?;
    tournament::trf::parse(&text).with_context(|| a.file.display().to_string())
}
