//! `qiju pgn`: convert Xiangqi PGN files between move notations and check
//! that every game replays.

use anyhow::{bail, Context};
use clap::{Args as ClapArgs, Subcommand, ValueEnum};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use xiangqi::notation::Notation;

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write every game of FILE to stdout with its moves in another notation.
    /// Games that do not replay are reported on stderr and left out (exit 1).
    Convert {
        #[arg(long, value_enum)]
        to: Style,
        /// PGN or WXF file (UTF-8); `-` for stdin.
        file: PathBuf,
    },
    /// Replay every game of FILE and report each unreadable or illegal move
    /// with its game and move number. Exit 0 when clean, 1 when problems
    /// were found, 2 when the file cannot be read.
    Check {
        /// PGN or WXF file (UTF-8); `-` for stdin.
        file: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Style {
    Chinese,
    Wxf,
    Iccs,
}

impl From<Style> for Notation {
    fn from(s: Style) -> Notation {
        match s {
            Style::Chinese => Notation::Chinese,
            Style::Wxf => Notation::Wxf,
            Style::Iccs => Notation::Iccs,
        }
    }
}

fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = if path.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b).context("reading stdin")?;
        b
    } else {
        std::fs::read(path).with_context(|| format!("reading {}", path.display()))?
    };
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{} is not UTF-8 (byte {}); GBK archives must be converted first, e.g. `iconv -f GBK -t UTF-8`",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// A reader that closed the pipe (`qiju pgn convert … | head`) is not an
/// error: stop quietly.
fn quiet_on_broken_pipe(r: std::io::Result<()>) -> anyhow::Result<()> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        r => Ok(r?),
    }
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let (file, convert_to) = match &a.cmd {
        Cmd::Convert { to, file } => (file, Some(Notation::from(*to))),
        Cmd::Check { file } => (file, None),
    };
    let text = read_text(file)?;
    let games = record::read_pgn(&text);
    if games.is_empty() {
        bail!("{}: no games found", file.display());
    }
    let mut bad = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut written = 0;
    for g in &games {
        match (&g.record, convert_to) {
            (Ok(r), Some(n)) => {
                let pgn = record::write_pgn(r, n).with_context(|| format!("game {}", g.index))?;
                if written > 0 {
                    quiet_on_broken_pipe(writeln!(out))?;
                }
                quiet_on_broken_pipe(out.write_all(pgn.as_bytes()))?;
                written += 1;
            }
            (Ok(_), None) => {}
            (Err(e), _) => {
                bad += 1;
                if convert_to.is_some() {
                    eprintln!("qiju: {e} (left out)");
                } else {
                    quiet_on_broken_pipe(writeln!(out, "{e}"))?;
                }
            }
        }
    }
    if convert_to.is_none() {
        quiet_on_broken_pipe(writeln!(
            out,
            "{}: {} games, {} replay cleanly, {} with problems",
            file.display(),
            games.len(),
            games.len() - bad,
            bad
        ))?;
    }
    quiet_on_broken_pipe(out.flush())?;
    if bad > 0 {
        std::process::exit(1);
    }
    Ok(())
}
