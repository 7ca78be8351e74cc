//! `qiju kifu`: shogi game records (棋譜) in KIF or CSA — check that a
//! record replays, and convert between the two (or to USI moves).
//!
//! The format comes from `--from`, else from the file's extension (`.csa`
//! is CSA; `.kif`, `.kifu`, `.ki2` are KIF), else from its content. Files
//! may be UTF-8 or Shift_JIS, as 81Dojo, Shogi Wars and Kakinoki write them.

use anyhow::Context;
use clap::{Args as ClapArgs, Subcommand, ValueEnum};
use game::Game;
use shogi::record::{decode, RecordError, ShogiRecord};
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(ClapArgs)]
pub struct Args {
    /// The file's format; without it the extension or the content decides.
    #[arg(long, value_enum, global = true)]
    from: Option<Format>,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Replay the record and report the first malformed or illegal line
    /// with its number (exit 1), or a one-line summary (exit 0).
    Check {
        /// KIF or CSA file; `-` for stdin.
        file: PathBuf,
    },
    /// Write the record to stdout as KIF, CSA, or the USI `position`
    /// command an engine reads.
    Convert {
        #[arg(long, value_enum)]
        to: Target,
        /// KIF or CSA file; `-` for stdin.
        file: PathBuf,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Kif,
    Csa,
}

#[derive(Clone, Copy, ValueEnum)]
enum Target {
    Kif,
    Csa,
    Usi,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let file = match &a.cmd {
        Cmd::Check { file } | Cmd::Convert { file, .. } => file,
    };
    let text = read_text(file)?;
    let format = a.from.unwrap_or_else(|| detect(file, &text));
    let read = match format {
        Format::Kif => shogi::kif::read_kif(&text),
        Format::Csa => shogi::csa::read_csa(&text),
    };
    let record = match read {
        Ok(r) => r,
        Err(RecordError { line, message }) => {
            eprintln!("{}:{line}: {message}", file.display());
            std::process::exit(1);
        }
    };
    match a.cmd {
        Cmd::Check { .. } => {
            println!("{}: {}", file.display(), summary(&record, format));
        }
        Cmd::Convert { to, .. } => {
            let out = match to {
                Target::Kif => shogi::kif::write_kif(&record),
                Target::Csa => shogi::csa::write_csa(&record),
                Target::Usi => {
                    let moves = record.usi_moves().join(" ");
                    let sfen = &record.initial_sfen;
                    if moves.is_empty() {
                        format!("position sfen {sfen}\n")
                    } else {
                        format!("position sfen {sfen} moves {moves}\n")
                    }
                }
            };
            print!("{out}");
        }
    }
    Ok(())
}

fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = if path.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b).context("reading stdin")?;
        b
    } else {
        std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?
    };
    Ok(decode(&bytes))
}

/// CSA by extension or by a first statement only CSA has.
fn detect(path: &Path, text: &str) -> Format {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("csa") => return Format::Csa,
        Some(e) if ["kif", "kifu", "ki2"].iter().any(|k| e.eq_ignore_ascii_case(k)) => return Format::Kif,
        _ => {}
    }
    let csa_like = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('\'') && !l.starts_with('#'))
        .is_some_and(|l| {
            l.starts_with("V2")
                || l.starts_with("N+")
                || l.starts_with("PI")
                || l.starts_with("P1")
                || l.starts_with('$')
        });
    if csa_like {
        Format::Csa
    } else {
        Format::Kif
    }
}

/// `KIF, 平手, 95 moves, 投了: gote wins` and the like.
fn summary(record: &ShogiRecord, format: Format) -> String {
    let start = if shogi::is_even_start(&record.initial_sfen) {
        "even game (平手)".to_string()
    } else if let Some(h) = shogi::Handicap::of_start(&record.initial_sfen) {
        format!("handicap {} ({})", h.id(), h.japanese())
    } else {
        format!("from {}", record.initial_sfen)
    };
    let mut g =
        shogi::ShogiGame::new(&record.initial_sfen, shogi::ImpasseRule::Points24).expect("a checked start");
    for m in record.usi_moves() {
        if g.play(&m).is_err() {
            break; // the board ended the game (千日手); the record goes on
        }
    }
    let status = match g.status() {
        game::Status::Over(e) => format!(", {}", e.detail),
        _ => String::new(),
    };
    let end = match &record.end {
        None => String::new(),
        Some(e) => {
            use shogi::record::RecordEnd as E;
            let word = match e {
                E::Resign => "resignation (投了)",
                E::Abort => "abandoned (中断)",
                E::Repetition => "repetition (千日手)",
                E::Impasse => "impasse (持将棋)",
                E::Declaration => "declaration (入玉宣言)",
                E::Checkmate => "checkmate (詰み)",
                E::Timeout => "time (切れ負け)",
                E::IllegalMove => "a foul (反則)",
                E::Other(w) => w.as_str(),
            };
            format!(", ended by {word}")
        }
    };
    format!(
        "{}, {start}, {} moves{end}{status}",
        if format == Format::Csa { "CSA" } else { "KIF" },
        record.moves.len()
    )
}
