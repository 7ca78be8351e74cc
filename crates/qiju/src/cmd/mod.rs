//! One module per subcommand.

pub mod admin;
pub mod bench;
pub mod engine;
pub mod forbidden;
pub mod gomocup;
pub mod judge;
pub mod kifu;
pub mod match_;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod serve;
pub mod tournament;

use anyhow::Context;

/// Reads a FEN argument (`startpos` allowed) into a position.
pub fn position(fen: &str) -> anyhow::Result<xiangqi::Position> {
    xiangqi::Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))
}

/// Reads a FEN argument (`startpos` allowed) into a chess position.
pub fn chess_position(fen: &str, variant: chess::Variant) -> anyhow::Result<chess::shakmaty::Chess> {
    chess::parse_fen(fen, variant).with_context(|| format!("bad FEN {fen:?}"))
}

/// Reads an SFEN argument (`startpos` allowed) into a shogi position.
pub fn shogi_position(sfen: &str) -> anyhow::Result<shogi::rsshogi::board::Position> {
    shogi::parse_sfen(sfen)
        .map(|(pos, _)| pos)
        .with_context(|| format!("bad SFEN {sfen:?}"))
}

/// Reads a position of the data-defined variant `id` (`startpos` allowed).
pub fn variant_position(id: &str, fen: &str) -> anyhow::Result<variants::Position> {
    let v = registry::get(Some(id))?
        .data()
        .with_context(|| format!("{id} is not a data-defined variant"))?
        .clone();
    if fen == "startpos" {
        return Ok(variants::Position::start(v));
    }
    variants::Position::from_fen(v, fen).with_context(|| format!("bad FEN {fen:?}"))
}

/// The rules `--game` names, after the variant files `--variants` names
/// are put beside the built-in games (the registry is built once, so the
/// name is resolved only then).
pub fn game_rules(game: &str, files: &[std::path::PathBuf]) -> anyhow::Result<Rules> {
    let loaded = load_variant_files(files)?;
    if !loaded.is_empty() {
        registry::install(loaded).context("--variants")?;
    }
    game.parse().map_err(anyhow::Error::msg)
}

/// Reads the variant files `--variants` names — files, or directories whose
/// `*.toml` files are read in name order — refusing the first bad one with
/// its path, line and reason.
pub fn load_variant_files(paths: &[std::path::PathBuf]) -> anyhow::Result<Vec<variants::Variant>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<std::path::PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("--variants {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).with_context(|| format!("--variants {}", f.display()))?;
            variants::Variant::from_toml(&text).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))
        })
        .collect()
}

/// Reads a position argument for gomoku or renju (`startpos`: the empty
/// board, black to move).
pub fn renju_position(fen: &str, rules: renju::Rules) -> anyhow::Result<renju::Position> {
    if fen == "startpos" {
        return Ok(renju::Position::new(rules));
    }
    renju::Position::from_fen(fen, rules).with_context(|| format!("bad position {fen:?}"))
}

/// The rules a `--game` flag names, as the registry resolves the name (ids
/// and aliases: `xiangqi`, `xiangqi/wxf`, `chess`, `chess960`, `shogi`,
/// `shogi/declaration`, `gomoku`, `renju`, `renju/office` …). The tools here
/// (perft, move lists, records) differ only by game family, not by rule set
/// — except gomoku and renju, whose rule set decides which points are
/// forbidden, so the variant's id picks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    Xiangqi,
    /// A data-defined variant (`crates/variants`), by registry id
    /// (`variants/janggi`): FEN as Fairy-Stockfish writes it for its three,
    /// moves in ICCS coordinates.
    Variants(&'static str),
    Chess(chess::Variant),
    Shogi,
    Renju(renju::Rules),
}

impl std::str::FromStr for Rules {
    type Err = String;

    fn from_str(name: &str) -> Result<Rules, String> {
        let known = || {
            registry::all()
                .iter()
                .flat_map(|v| v.aliases.iter().copied().chain([v.id]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let v = registry::get(Some(name)).map_err(|_| format!("no game {name:?}; qiju knows {}", known()))?;
        match v.family {
            "xiangqi" => Ok(Rules::Xiangqi),
            "shogi" => Ok(Rules::Shogi),
            "chess" => chess::Variant::from_id(v.id)
                .map(Rules::Chess)
                .map_err(|e| e.to_string()),
            _ if v.data().is_some() => Ok(Rules::Variants(v.id)),
            "gomoku" | "renju" => renju::Rules::from_id(v.id)
                .map(Rules::Renju)
                .map_err(|e| e.to_string()),
            _ => Err(format!("the command line has no tools for {} yet", v.name.en)),
        }
    }
}
