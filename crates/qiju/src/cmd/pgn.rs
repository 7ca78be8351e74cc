//! `qiju pgn`: check that every game of a PGN file replays, and convert
//! files — Xiangqi between move notations, chess to normalised PGN.
//!
//! Which game a file holds comes from `--game`, or else from its games'
//! tags (`[Game "Chinese Chess"]` and `[Variant "xiangqi"]` say Xiangqi,
//! `[Variant "Chess960"]` or `White`/`Black` players say chess); files
//! that say nothing are Xiangqi, as before chess came.

use super::Rules;
use anyhow::{bail, Context};
use clap::{Args as ClapArgs, Subcommand, ValueEnum};
use game::Game;
use std::fmt::Display;
use std::io::{Read, StdoutLock, Write};
use std::path::{Path, PathBuf};
use xiangqi::notation::Notation;

#[derive(ClapArgs)]
pub struct Args {
    /// The game of the file: `xiangqi`, `chess` or `chess960`. Without it the
    /// games' tags decide. Within chess, each game's `Variant` tag says
    /// whether it is standard or Chess960.
    #[arg(long, global = true)]
    game: Option<Rules>,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write every game of FILE to stdout: Xiangqi with its moves in another
    /// notation, chess as normalised PGN (SAN, the Seven Tag Roster first).
    /// Games that do not replay are reported on stderr and left out (exit 1).
    Convert {
        /// Xiangqi: `chinese`, `wxf` or `iccs` (needed). Chess: `san`, the
        /// only notation chess PGN has, and the default.
        #[arg(long, value_enum)]
        to: Option<Style>,
        /// PGN file (or WXF, for Xiangqi), UTF-8; `-` for stdin.
        file: PathBuf,
    },
    /// Replay every game of FILE and report each unreadable or illegal move
    /// with its game and move number (ply, for chess). Exit 0 when clean, 1
    /// when problems were found, 2 when the file cannot be read.
    Check {
        /// PGN file (or WXF, for Xiangqi), UTF-8; `-` for stdin.
        file: PathBuf,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Style {
    Chinese,
    Wxf,
    Iccs,
    San,
}

/// The notation a Xiangqi file is converted to.
fn xiangqi_notation(to: Option<Style>) -> anyhow::Result<Notation> {
    match to {
        Some(Style::Chinese) => Ok(Notation::Chinese),
        Some(Style::Wxf) => Ok(Notation::Wxf),
        Some(Style::Iccs) => Ok(Notation::Iccs),
        Some(Style::San) => {
            bail!("--to san is chess notation; Xiangqi games are written with --to chinese, wxf or iccs")
        }
        None => bail!("converting Xiangqi games needs --to chinese, wxf or iccs"),
    }
}

/// Chess PGN has one notation, SAN; the Xiangqi ones make no sense for it.
fn check_chess_notation(to: Option<Style>) -> anyhow::Result<()> {
    let name = match to {
        None | Some(Style::San) => return Ok(()),
        Some(Style::Chinese) => "chinese",
        Some(Style::Wxf) => "wxf",
        Some(Style::Iccs) => "iccs",
    };
    bail!("--to {name} is a Xiangqi notation; chess PGN is written in SAN (leave out --to, or give --to san)")
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

/// The game families `qiju pgn` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Xiangqi,
    Chess,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let (file, convert_to) = match &a.cmd {
        Cmd::Convert { to, file } => (file, Some(*to)),
        Cmd::Check { file } => (file, None),
    };
    let text = read_text(file)?;
    let family = match a.game {
        Some(Rules::Xiangqi) => Family::Xiangqi,
        Some(Rules::Chess(_)) => Family::Chess,
        Some(Rules::Shogi) => bail!("shogi records are KIF or CSA: use `qiju kifu check|convert`"),
        Some(Rules::Variants(id)) => {
            bail!("the PGN tools read Xiangqi and chess; {id} records are read by the server")
        }
        Some(Rules::Renju(r)) => anyhow::bail!(
            "PGN is for Xiangqi and chess; {} records are move lists or .psq",
            r.id()
        ),
        None => family_by_tags(&text, file)?,
    };
    let mut output = Output {
        out: std::io::stdout().lock(),
        converting: convert_to.is_some(),
        games: 0,
        bad: 0,
    };
    match family {
        Family::Xiangqi => {
            let notation = convert_to.map(xiangqi_notation).transpose()?;
            let games = record::read_pgn(&text);
            if games.is_empty() {
                bail!("{}: no games found", file.display());
            }
            for g in &games {
                match (&g.record, notation) {
                    (Ok(r), Some(n)) => {
                        let pgn = record::write_pgn(r, n).with_context(|| format!("game {}", g.index))?;
                        output.game(&pgn)?;
                    }
                    (Ok(_), None) => output.clean(),
                    (Err(e), _) => output.problem(e)?,
                }
            }
        }
        Family::Chess => {
            if let Some(to) = convert_to {
                check_chess_notation(to)?;
            }
            let games = chess::pgn::read_pgn(&text);
            if games.is_empty() {
                bail!("{}: no games found", file.display());
            }
            for (index, g) in games.into_iter().enumerate() {
                match g
                    .map_err(|e| e.to_string())
                    .and_then(|r| replay_chess(&r, index).map(|()| r))
                {
                    Ok(r) if output.converting => output.game(&chess::pgn::write_pgn(&r))?,
                    Ok(_) => output.clean(),
                    Err(e) => output.problem(e)?,
                }
            }
        }
    }
    output.finish(file)
}

/// Replays a chess record under the referee. The reader has played every
/// move already, but only the referee ends a game at a fivefold repetition
/// or after 75 moves without a capture or pawn move (FIDE Laws 9.6), after
/// which no move may follow.
fn replay_chess(record: &chess::pgn::ChessRecord, index: usize) -> Result<(), String> {
    let mut game = chess::ChessGame::new(&record.start_fen, record.variant)
        .map_err(|e| format!("game {}: {e}", index + 1))?;
    for (ply, m) in record.moves.iter().enumerate() {
        game.play(&m.uci)
            .map_err(|e| format!("game {}, ply {} ({:?}): {e}", index + 1, ply + 1, m.san))?;
    }
    Ok(())
}

/// Where the games and the problems go: a converted file's games to
/// stdout and its problems to stderr; a checked file's problems to stdout,
/// then a summary.
struct Output<'a> {
    out: StdoutLock<'a>,
    converting: bool,
    games: usize,
    bad: usize,
}

impl Output<'_> {
    /// A game that replays, converted to `pgn`.
    fn game(&mut self, pgn: &str) -> anyhow::Result<()> {
        if self.games > self.bad {
            quiet_on_broken_pipe(writeln!(self.out))?;
        }
        self.clean();
        quiet_on_broken_pipe(self.out.write_all(pgn.as_bytes()))
    }

    /// A game that replays, when checking.
    fn clean(&mut self) {
        self.games += 1;
    }

    fn problem(&mut self, e: impl Display) -> anyhow::Result<()> {
        self.games += 1;
        self.bad += 1;
        if self.converting {
            eprintln!("qiju: {e} (left out)");
            Ok(())
        } else {
            quiet_on_broken_pipe(writeln!(self.out, "{e}"))
        }
    }

    /// The summary of a check; exit 1 when any game had a problem.
    fn finish(mut self, file: &Path) -> anyhow::Result<()> {
        if !self.converting {
            quiet_on_broken_pipe(writeln!(
                self.out,
                "{}: {} games, {} replay cleanly, {} with problems",
                file.display(),
                self.games,
                self.games - self.bad,
                self.bad
            ))?;
        }
        quiet_on_broken_pipe(self.out.flush())?;
        if self.bad > 0 {
            std::process::exit(1);
        }
        Ok(())
    }
}

/// The family a file's games are by their tags; Xiangqi when none says.
fn family_by_tags(text: &str, file: &Path) -> anyhow::Result<Family> {
    let (mut chess, mut xiangqi) = (None, None);
    for (i, tags) in tag_sections(text).iter().enumerate() {
        match family_of_tags(tags) {
            Some(Family::Chess) => chess = chess.or(Some(i + 1)),
            Some(Family::Xiangqi) => xiangqi = xiangqi.or(Some(i + 1)),
            None => {}
        }
    }
    match (chess, xiangqi) {
        (Some(c), Some(x)) => bail!(
            "{} holds both chess (game {c}) and Xiangqi (game {x}) by their tags; split it, or give --game to read every game as one",
            file.display()
        ),
        (Some(_), None) => Ok(Family::Chess),
        _ => Ok(Family::Xiangqi),
    }
}

/// What a game's tags say it is: a `Game` or `Variant` tag naming Xiangqi
/// or chess first; else a `Red` player (红方) says Xiangqi and a `White`
/// one chess. `None` when they say nothing.
fn family_of_tags(tags: &[(String, String)]) -> Option<Family> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_lowercase())
    };
    if let Some(game) = tag("Game") {
        if game.contains("chinese") || game.contains("xiangqi") || game.contains("象棋") {
            return Some(Family::Xiangqi);
        }
        if game == "chess" {
            return Some(Family::Chess);
        }
    }
    if let Some(variant) = tag("Variant") {
        match variant.as_str() {
            "xiangqi" | "chinese chess" | "chinese" | "象棋" | "中国象棋" => {
                return Some(Family::Xiangqi)
            }
            "standard" | "chess" | "normal" | "from position" | "fromposition" | "chess960" | "960"
            | "fischerandom" | "fischerrandom" | "frc" => return Some(Family::Chess),
            _ => {}
        }
    }
    if ["Red", "红方", "紅方"].iter().any(|n| tag(n).is_some()) {
        Some(Family::Xiangqi)
    } else if tag("White").is_some() {
        Some(Family::Chess)
    } else {
        None
    }
}

/// The tag pairs of each game of a PGN text, in order; a tag line after
/// move text starts the next game. Only enough reading to tell the family:
/// the game readers do the real work.
fn tag_sections(text: &str) -> Vec<Vec<(String, String)>> {
    let mut games: Vec<Vec<(String, String)>> = Vec::new();
    let mut after_moves = true;
    for line in text.lines() {
        let line = line.trim_start_matches('\u{feff}').trim();
        match tag_pair(line) {
            Some(pair) => {
                if after_moves {
                    games.push(Vec::new());
                    after_moves = false;
                }
                if let Some(tags) = games.last_mut() {
                    tags.push(pair);
                }
            }
            None if !line.is_empty() => after_moves = true,
            None => {}
        }
    }
    games
}

/// `[Name "value"]`; not a clock comment such as `[%clk 0:03:00]`.
fn tag_pair(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    let is_name = name.chars().all(|c| c.is_alphanumeric() || c == '_');
    is_name.then(|| (name.to_string(), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_tell_the_family() {
        let text =
            "[Event \"x\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 { [%clk 0:03:00] }\n[%clk 0:02:59]\n*\n\n\
                    [Game \"Chinese Chess\"]\n[Red \"A\"]\n\n1. h2e2 *\n";
        let sections = tag_sections(text);
        assert_eq!(sections.len(), 2);
        assert_eq!(family_of_tags(&sections[0]), Some(Family::Chess));
        assert_eq!(family_of_tags(&sections[1]), Some(Family::Xiangqi));
        let one = |t: &str| family_of_tags(&tag_sections(t)[0]);
        assert_eq!(one("[Variant \"Chess960\"]\n[Red \"A\"]"), Some(Family::Chess));
        assert_eq!(one("[Variant \"xiangqi\"]\n[White \"A\"]"), Some(Family::Xiangqi));
        assert_eq!(one("[红方 \"胡荣华\"]\n[黑方 \"杨官璘\"]"), Some(Family::Xiangqi));
        assert_eq!(one("[Event \"?\"]\n[Black \"B\"]"), None);
        assert!(family_by_tags(text, Path::new("f")).is_err());
        assert_eq!(
            family_by_tags("1. h2e2 *", Path::new("f")).unwrap(),
            Family::Xiangqi
        );
    }
}
