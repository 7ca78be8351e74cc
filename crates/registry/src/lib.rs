//! Every game and variant qiju hosts, each described once as data.
//!
//! The server, the lobby, the archive, the ratings and the UI ask this crate
//! what a game is — its sides and their names, its start positions and
//! position format, the kinds of move a player makes, its notations, how a
//! session is refereed, its record format, its rating pool and its computer
//! players — and never name a game crate themselves. Adding a game is a rules
//! crate, an entry here and a board renderer (as pychess-variants keeps one
//! record per variant in `server/variants.py`).
//!
//! A variant's id is `family/name`: `xiangqi/cxa`, `chess/standard`,
//! `chess/chess960`, and next `shogi/…`, `renju/…`, `gomoku/…`. Sides are
//! `first` (moves first) and `second` everywhere in data; "red", "white",
//! "sente" are the names this registry gives them.

mod chess_entries;
mod xiangqi_entries;

use game::{Game, GameError, Side};
/// The PGN `Date` of a moment, for every record format's header.
pub use record::pgn_date;
use serde::Serialize;
use session::{SessionConfig, SessionRules};
use std::time::Duration;

/// The variant a seek or challenge gets when it names none.
pub const DEFAULT_VARIANT: &str = "xiangqi/cxa";

/// A text in the languages of the UI.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Text {
    pub en: &'static str,
    pub zh: &'static str,
}

/// One side of a game: the word used in data about it (`red`, `white`) and
/// what players call it.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SideInfo {
    pub key: &'static str,
    pub name: Text,
}

/// How the board is drawn: which renderer, and its size.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BoardInfo {
    /// The UI's board module (`xiangqi`, `chess`).
    pub renderer: &'static str,
    pub files: u8,
    pub ranks: u8,
}

/// How a position is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionFormat {
    /// Forsyth–Edwards notation (Xiangqi's as WXF/ICCS write it, chess's
    /// with X-FEN/Shredder castling for Chess960).
    Fen,
    /// Shogi's SFEN.
    Sfen,
}

/// Where games start.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Start {
    /// One start position.
    Fixed { fen: &'static str },
    /// A numbered family of start positions, drawn at random for each game
    /// (Chess960's 960).
    Numbered {
        count: u32,
        #[serde(skip)]
        fen_of: fn(u32) -> String,
    },
}

/// What a player does on a turn. A game lists the kinds it has so that the
/// UI knows which controls to offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MoveKind {
    /// A piece goes from one square to another (captures included).
    Move,
    /// A move that ends with a choice of piece: the roles the player may
    /// pick, as the coordinate notation writes them (`q`, `r`, `b`, `n`).
    Promotion { choices: &'static [&'static str] },
    /// A piece in hand is put on the board (shogi).
    Drop,
    /// A stone is placed (gomoku, renju).
    Placement,
    /// A side passes or chooses its colour where a rule has one (renju's
    /// opening rules, an armageddon colour choice).
    Choice,
}

/// The notations of a game's moves: the one that travels on the wire and
/// into the database, and those players read.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Notations {
    /// `iccs` (`h2e2`) or `uci` (`e2e4`, `e7e8q`).
    pub coord: &'static str,
    /// What players read: `chinese` (`炮二平五`) or `san` (`Nf3`).
    pub display: &'static str,
    /// A second notation: `wxf` (`C2=5`) or `uci`.
    pub alt: &'static str,
}

/// How finished games are written down.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RecordFormat {
    /// `pgn`.
    pub format: &'static str,
    /// The PGN `[Game]` tag, when the format has one (`Chinese Chess`).
    pub game_tag: Option<&'static str>,
    /// The PGN `[Variant]` tag, when not the family's main game.
    pub variant_tag: Option<&'static str>,
}

/// A game to write down, as the server knows any game.
#[derive(Clone, Debug)]
pub struct GameRecord<'a> {
    pub initial_fen: &'a str,
    /// The moves in coordinate notation, each with the mover's main time
    /// left after it (ms), when timed.
    pub moves: Vec<(&'a str, Option<u64>)>,
    /// Tags in order (Event, Site, Date, Round, the players, …); the writer
    /// adds the variant's own (Variant, Rules, FEN).
    pub tags: Vec<(String, String)>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// Words on the last move: how the game ended.
    pub final_comment: Option<&'a str>,
}

/// What the computer needs to choose a move.
#[derive(Clone, Debug)]
pub struct ComputerRequest<'a> {
    /// 1 (beginner) to the variant's `levels`.
    pub level: u8,
    /// The start position and the moves since, in coordinate notation.
    pub fen: &'a str,
    pub moves: &'a [String],
    /// How long it may think.
    pub movetime: Duration,
}

/// Who plays when a person plays the computer.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Computer {
    /// qiju's own engine, in process.
    BuiltIn {
        levels: u8,
        #[serde(skip)]
        choose: fn(&ComputerRequest<'_>) -> Result<String, String>,
    },
    /// An external UCI program found on the `PATH` when the server starts;
    /// without it the variant has no computer player.
    Uci {
        program: &'static str,
        levels: u8,
        /// The `setoption` pairs that make the program play at a level.
        #[serde(skip)]
        options: fn(u8) -> Vec<(String, String)>,
    },
    /// No computer player.
    None,
}

/// One game or variant.
#[derive(Debug, Serialize)]
pub struct Variant {
    /// `family/name`, e.g. `chess/chess960`.
    pub id: &'static str,
    /// Other names it is asked for by (`xiangqi` for `xiangqi/cxa`).
    pub aliases: &'static [&'static str],
    pub family: &'static str,
    pub name: Text,
    /// A line on the rule book the variant follows.
    pub rules: Text,
    /// The first side (moving first), then the second.
    pub sides: [SideInfo; 2],
    pub board: BoardInfo,
    pub position_format: PositionFormat,
    pub start: Start,
    pub move_kinds: &'static [MoveKind],
    pub notations: Notations,
    pub record: RecordFormat,
    /// Ratings are kept per player per pool; variants that play alike
    /// share one (the four Xiangqi rule sets are one pool).
    pub rating_pool: &'static str,
    /// Whether the pool's ratings earn the titles of seed 003 (Xiangqi's
    /// 棋士 … 大师 ranks).
    pub titles: bool,
    pub computer: Computer,
    #[serde(skip)]
    build: fn(&str) -> Result<Box<dyn Game>, GameError>,
    #[serde(skip)]
    session_rules: fn() -> SessionRules,
    #[serde(skip)]
    write_record: fn(&Variant, &GameRecord<'_>) -> Result<String, String>,
}

impl Variant {
    /// A new game from `fen`, or from the start position when `None` (for a
    /// numbered family, the one `pick` names, modulo the count).
    ///
    /// # Errors
    /// [`GameError::BadPosition`] for a position the rules refuse.
    pub fn new_game(&self, fen: Option<&str>, pick: u32) -> Result<Box<dyn Game>, GameError> {
        match fen {
            Some(fen) => (self.build)(fen),
            None => (self.build)(&self.start_fen(pick)),
        }
    }

    /// The start position; for a numbered family, number `pick` modulo the
    /// count.
    #[must_use]
    pub fn start_fen(&self, pick: u32) -> String {
        match self.start {
            Start::Fixed { fen } => fen.to_string(),
            Start::Numbered { count, fen_of } => fen_of(pick % count),
        }
    }

    /// How a session of this variant is refereed with time control `tc`.
    #[must_use]
    pub fn session_config(&self, time_control: clock::TimeControl) -> SessionConfig {
        SessionConfig {
            time_control,
            rules: (self.session_rules)(),
        }
    }

    /// The game in the variant's record format (PGN).
    ///
    /// # Errors
    /// A move that does not replay from the start position (a damaged
    /// stored game).
    pub fn write_record(&self, record: &GameRecord<'_>) -> Result<String, String> {
        (self.write_record)(self, record)
    }

    /// The data word for a side (`red`, `white`).
    #[must_use]
    pub fn side_key(&self, side: Side) -> &'static str {
        self.sides[side.index()].key
    }

    /// The data words of both sides, the first side's first.
    #[must_use]
    pub fn side_keys(&self) -> [&'static str; 2] {
        self.sides.map(|s| s.key)
    }

    /// The side a data word names (`red` → first), if it is one of ours.
    #[must_use]
    pub fn side_of(&self, key: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| self.side_key(*s) == key)
    }

    /// How many computer levels there are (0 without a computer player).
    #[must_use]
    pub fn computer_levels(&self) -> u8 {
        match self.computer {
            Computer::BuiltIn { levels, .. } | Computer::Uci { levels, .. } => levels,
            Computer::None => 0,
        }
    }
}

static VARIANTS: [Variant; 6] = [
    xiangqi_entries::CXA,
    xiangqi_entries::WXF,
    xiangqi_entries::ASIAN,
    xiangqi_entries::SIMPLE,
    chess_entries::STANDARD,
    chess_entries::CHESS960,
];

/// Every variant, the default first.
#[must_use]
pub fn all() -> &'static [Variant] {
    &VARIANTS
}

/// The variant `name` names: its id or an alias, in any case, with
/// surrounding blanks ignored; `None` gives the default.
///
/// # Errors
/// [`GameError::UnknownVariant`] for a name no variant has.
pub fn get(name: Option<&str>) -> Result<&'static Variant, GameError> {
    let wanted = name.unwrap_or(DEFAULT_VARIANT).trim().to_ascii_lowercase();
    VARIANTS
        .iter()
        .find(|v| v.id == wanted || v.aliases.contains(&wanted.as_str()))
        .ok_or(GameError::UnknownVariant(wanted))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_one_variant_each() {
        assert_eq!(get(None).unwrap().id, "xiangqi/cxa");
        assert_eq!(get(Some("xiangqi")).unwrap().id, "xiangqi/cxa");
        assert_eq!(get(Some(" Xiangqi/WXF ")).unwrap().id, "xiangqi/wxf");
        assert_eq!(get(Some("chess")).unwrap().id, "chess/standard");
        assert_eq!(get(Some("chess960")).unwrap().id, "chess/chess960");
        for bad in ["xiangqi/nonsense", "go", "", "chess/cxa"] {
            assert!(
                matches!(get(Some(bad)), Err(GameError::UnknownVariant(_))),
                "{bad}"
            );
        }
        let mut seen = std::collections::HashSet::new();
        for v in all() {
            assert!(seen.insert(v.id), "{} twice", v.id);
            for a in v.aliases {
                assert!(seen.insert(a), "alias {a} twice");
            }
            assert!(v.id.starts_with(&format!("{}/", v.family)));
        }
    }

    #[test]
    fn every_variant_starts_a_game_that_matches_its_description() {
        for v in all() {
            let g = v.new_game(None, 7).unwrap();
            assert_eq!(g.variant(), v.id);
            assert_eq!(g.family(), v.family);
            assert_eq!(g.side_to_move(), Side::First, "{}", v.id);
            assert!(!g.legal_moves().is_empty());
            for s in Side::BOTH {
                assert_eq!(g.side_name(s), v.sides[s.index()].name.en, "{}", v.id);
                assert_eq!(v.side_of(v.side_key(s)), Some(s));
            }
            let again = v.new_game(Some(&g.fen()), 0).unwrap();
            assert_eq!(again.fen(), g.fen());
            assert!(v.new_game(Some("not a position"), 0).is_err());
            let json = serde_json::to_value(v).unwrap();
            assert_eq!(json["id"], v.id);
        }
    }

    #[test]
    fn chess960_draws_from_its_960_positions() {
        let v = get(Some("chess/chess960")).unwrap();
        let fens: std::collections::HashSet<String> = (0..960).map(|n| v.start_fen(n)).collect();
        assert_eq!(fens.len(), 960);
        assert_eq!(v.start_fen(960), v.start_fen(0));
    }
}
