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
//! `chess/chess960`, `shogi/standard`, `shogi/lance`, `gomoku/swap2`, `renju/rif`,
//! `variants/janggi`. Sides are
//! `first` (moves first) and `second` everywhere in data; "red", "white",
//! "sente" are the names this registry gives them.
//!
//! The table is built once, at the first question or by [`install`]: the
//! built-in games, the variants the `variants` crate ships as data
//! (minixiangqi, manchu, janggi, shengji, and Xiangqi with each set of house
//! rules) and those an operator loads from TOML at
//! start (`qiju serve --variants FILE`). A data variant is an entry like any
//! other ([`data_entries`]); standard Xiangqi stays on `crates/xiangqi`.

mod chess_entries;
mod data_entries;
mod renju_entries;
mod shogi_entries;
mod xiangqi_entries;

use game::{Game, GameError, Side};
/// The PGN `Date` of a moment, for every record format's header.
pub use record::pgn_date;
use serde::Serialize;
use session::{SessionConfig, SessionRules};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The variant a seek or challenge gets when it names none.
pub const DEFAULT_VARIANT: &str = "xiangqi/cxa";

/// How a game of a variant is built: by its rules crate, or by the
/// data-driven engine from a variant file (`crates/variants`).
#[derive(Clone, Debug)]
pub enum Build {
    Native(fn(&str) -> Result<Box<dyn Game>, GameError>),
    Data(Arc<variants::Variant>),
}

/// Why [`install`] refused the variants it was given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// The table was already built (asked before `install`, or installed twice).
    #[error("the registry was already built; variants are installed once, at start, before any use")]
    AlreadyBuilt,
    /// A variant's name is already an id, alias or rating pool of another.
    #[error("variant `{name}` is already a game or variant of this server")]
    Duplicate { name: String },
    /// A variant's name cannot be part of an id (`variants/NAME`).
    #[error("variant name `{name}` must be ASCII letters, digits, `-` or `_`")]
    BadName { name: String },
}

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
    /// The UI's board module (`xiangqi`, `chess`, `variants`).
    pub renderer: &'static str,
    pub files: u8,
    pub ranks: u8,
    /// A data-defined variant's pieces and lines, which its file decides
    /// and the `variants` renderer draws; the built-in games' renderers
    /// know their own.
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub data: Option<&'static DataBoard>,
}

/// What the `variants` board renderer needs of a data-defined variant
/// beyond its size (sent in `/api/info` with the variant's `board`).
#[derive(Clone, Debug, Serialize)]
pub struct DataBoard {
    /// Every piece type of the file.
    pub pieces: Vec<BoardPiece>,
    /// The first side's palace (九宫), the squares of the file's region
    /// named `palace` (`d0` …); the second side's is its mirror. The
    /// renderer draws the diagonals of its outline. Empty without one.
    pub palace: Vec<String>,
    /// The river (楚河汉界) runs between this rank and the next: the top
    /// of the file's region `own_half`, where it spans whole ranks from
    /// the first side's edge. `None` without one.
    pub river: Option<u8>,
    /// The codes of the pieces a revival takes back to their owner's
    /// reserve when captured (还魂卒: `p`); the FEN then carries the
    /// reserves (`[Pp]`) and a drop is written `P@e3`. Empty without.
    pub revived: Vec<String>,
    /// 解将旗: the points of the ring the flags go round (42), where the
    /// file has one; the FEN then carries the flags' points (`{0,21}`),
    /// and a flag's step is `~` (in check, before the answer) or `~~`.
    pub flag_ring: Option<u8>,
}

/// A piece type as the board shows it.
#[derive(Clone, Debug, Serialize)]
pub struct BoardPiece {
    /// As FEN writes it, lower-case: the letter, or `+` and its base's
    /// letter for a promoted form (`+p`, 升级象棋's 上等兵).
    pub code: String,
    /// The file's name for it (`senior pawn`).
    pub name: String,
    /// The characters shown on the first side's piece and the second's;
    /// the FEN letter in its case where the file gives none.
    pub glyphs: [String; 2],
    pub royal: bool,
    /// A promoted form (drawn with a ring of its own).
    pub promoted: bool,
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
    /// Gomoku's and renju's rows 15 to 1 of `x`, `o` and counts of empty
    /// points, then `b` or `w` (docs/renju.md).
    Renju,
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
    /// A step of a rule that is not a move of a piece: a colour chosen, a
    /// count declared, a point offered or picked (gomoku's swap2, renju's
    /// Soosõrv-8), written as the game's notation writes it (`choose:black`,
    /// `more`, `declare:3`, `offer:h10`, `select:h10`) and checked by its
    /// rules like any move. A turn may hold several moves by one side.
    Choice,
}

/// The notations of a game's moves: the one that travels on the wire and
/// into the database, and those players read.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Notations {
    /// `iccs` (`h2e2`), `uci` (`e2e4`, `e7e8q`), `usi` (`7g7f`, `8h2b+`,
    /// `P*5e`) or `point` (`h8`, gomoku and renju).
    pub coord: &'static str,
    /// What players read: `chinese` (`炮二平五`), `san` (`Nf3`) or
    /// `japanese` (`▲７六歩`).
    pub display: &'static str,
    /// A second notation: `wxf` (`C2=5`), `uci`, `western` (`P-7f`) or
    /// `gomocup` (`7,7`).
    pub alt: &'static str,
}

/// How finished games are written down.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RecordFormat {
    /// `pgn`, `kif` (shogi's, as Japanese sites write it) or `psq`
    /// (Piskvork's, gomoku and renju).
    pub format: &'static str,
    /// The file name's extension of a download (`pgn`; `kifu`, KIF in
    /// UTF-8).
    pub extension: &'static str,
    /// The download's media type.
    pub media_type: &'static str,
    /// The PGN `[Game]` tag, when the format has one (`Chinese Chess`).
    pub game_tag: Option<&'static str>,
    /// The PGN `[Variant]` tag, when not the family's main game.
    pub variant_tag: Option<&'static str>,
    /// The move notations a record may be written in, the usual one first.
    /// Xiangqi's second is `chinese` (`炮二平五 马８进７`, as 象棋桥 XQBase
    /// and 东萍 DPXQ write their archives), offered as a second download
    /// because Chinese readers and their programs expect it.
    pub notations: &'static [&'static str],
}

/// A game to write down, as the server knows any game.
#[derive(Clone, Debug)]
pub struct GameRecord<'a> {
    pub initial_fen: &'a str,
    /// The moves, with their times where the game was timed.
    pub moves: Vec<RecordMove<'a>>,
    /// Tags in order (Event, Site, Date, Round, the players, …); the writer
    /// adds the variant's own (Variant, Rules, FEN).
    pub tags: Vec<(String, String)>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// Words on the last move: how the game ended.
    pub final_comment: Option<&'a str>,
}

/// A move of a [`GameRecord`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordMove<'a> {
    /// Coordinate notation.
    pub coord: &'a str,
    /// The mover's main time left after it (PGN `[%clk]`), ms.
    pub clock_ms: Option<u64>,
    /// The clock time it took (PGN `[%emt]`, KIF 消費時間), ms.
    pub spent_ms: Option<u64>,
}

impl<'a> RecordMove<'a> {
    /// A move without times.
    #[must_use]
    pub fn bare(coord: &'a str) -> Self {
        RecordMove {
            coord,
            ..RecordMove::default()
        }
    }
}

/// Whose tool the session rules are. The rule books are written for an
/// arbiter at the board, who rules a false claim or a repeated draw offer a
/// foul (犯规) and may add time; online there is no arbiter to explain it,
/// and a player who clicks 申请判和 in a 3-minute game would lose on the
/// spot. So online the server refuses what would be a foul, with the
/// reason, and the UI does not offer it; over the board (an event, a
/// tournament with arbiters) the book's fouls and penalties apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    #[default]
    Online,
    Arbiter,
}

impl Profile {
    /// The word stored with a game.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Online => "online",
            Profile::Arbiter => "arbiter",
        }
    }
}

impl std::str::FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Profile, String> {
        match s {
            "online" => Ok(Profile::Online),
            "arbiter" => Ok(Profile::Arbiter),
            other => Err(format!("rules profile is online or arbiter, not {other:?}")),
        }
    }
}

/// What the computer needs to choose a move.
#[derive(Clone, Debug)]
pub struct ComputerRequest<'a> {
    /// The variant played: a data-defined variant's one search needs its
    /// file (`data_entries`); the others know theirs.
    pub variant: &'a Variant,
    /// 1 (beginner) to the variant's `levels`.
    pub level: u8,
    /// The start position and the moves since, in coordinate notation.
    pub fen: &'a str,
    pub moves: &'a [String],
    /// How long it may think.
    pub movetime: Duration,
}

/// What the analyser needs to judge a position.
#[derive(Clone, Debug)]
pub struct AnalysisRequest<'a> {
    /// The variant, as for [`ComputerRequest::variant`].
    pub variant: &'a Variant,
    /// The start position and the moves since, in coordinate notation
    /// (the history matters: Xiangqi's repetition rules read it).
    pub fen: &'a str,
    pub moves: &'a [String],
    pub depth: u32,
    /// A cap on the time, whatever the depth.
    pub movetime: Duration,
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// Centipawns of the analysing engine (see [`Analysis::win_chance_k`]).
    Cp(i32),
    /// Mate in this many moves; negative when the side to move is mated.
    Mate(i32),
}

impl Score {
    /// The side to move's winning chances in −1 ..= 1, by the logistic
    /// curve lichess fits to its games (`2 / (1 + e^(−k·cp)) − 1`), `k`
    /// the variant's [`Analysis::win_chance_k`]. A mate is ±1.
    #[must_use]
    pub fn win_chances(self, k: f64) -> f64 {
        match self {
            Score::Cp(cp) => 2.0 / (1.0 + (-k * f64::from(cp)).exp()) - 1.0,
            Score::Mate(n) if n > 0 => 1.0,
            Score::Mate(_) => -1.0,
        }
    }

    /// The same score from the other side's view.
    #[must_use]
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

/// The analyser's verdict on a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    pub score: Score,
    /// The best move and the line it starts, in coordinate notation.
    pub best: Option<String>,
    pub pv: Vec<String>,
    pub depth: u32,
    pub nodes: u64,
}

/// How a variant's positions are analysed — a finished game's review and
/// the analysis board. The analyser is the variant's computer player at
/// full strength: the built-in engine's `analyse`, or the UCI program with
/// its `analysis_options`; a variant without one has no analysis.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Analysis {
    /// The search depth of a review: deep enough to find what a player
    /// missed, shallow enough that a 40-move game takes seconds (measured
    /// in docs/PERFORMANCE.md).
    pub depth: u32,
    /// The slope of the winning-chances curve for this engine's
    /// centipawns: lichess's 0.00368208 for Stockfish's, where a pawn is
    /// 100; half of it for qiju's Xiangqi engine, whose rook is 1,000 (a
    /// chess rook is about 500), so that a rook up reads alike in both.
    pub win_chance_k: f64,
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
        #[serde(skip)]
        analyse: fn(&AnalysisRequest<'_>) -> Result<Evaluation, String>,
    },
    /// An external program found on the `PATH` when the server starts,
    /// speaking UCI (or its shogi dialect USI); without it the variant has
    /// no computer player.
    Uci {
        program: &'static str,
        protocol: EngineProtocol,
        levels: u8,
        /// The `setoption` pairs that make the program play at a level.
        #[serde(skip)]
        options: fn(u8) -> Vec<(String, String)>,
        /// The `setoption` pairs for analysis (full strength).
        #[serde(skip)]
        analysis_options: fn() -> Vec<(String, String)>,
    },
    /// No computer player.
    None,
}

/// The protocol an external computer player is spoken to in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineProtocol {
    /// UCI: FEN positions, moves in the game's coordinate notation.
    Uci,
    /// USI, shogi's UCI: SFEN positions and USI moves (`7g7f`, `P*5e`).
    Usi,
}

impl EngineProtocol {
    /// The word `arena`'s engine descriptions use (`proto=usi`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            EngineProtocol::Uci => "uci",
            EngineProtocol::Usi => "usi",
        }
    }
}

/// One game or variant.
#[derive(Clone, Debug, Serialize)]
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
    pub analysis: Analysis,
    /// Whether the platform announces what a move made
    /// (`Game::announcements`) with the move's event, as the rules ask a
    /// player to: renju's office rule (seed 001) has a player announce an
    /// open three or a four.
    pub announcements: bool,
    /// The lobby's quick-pairing grid (as lichess's "Quick pairing"): the
    /// time controls people of this game commonly sit down to, in the
    /// `clock` crate's grammar, shortest first. Data, so that each game
    /// offers its own (byo-yomi for shogi, long increments for renju) and
    /// the UI names none.
    pub quick_pairings: &'static [&'static str],
    #[serde(skip)]
    build: Build,
    #[serde(skip)]
    session_rules: fn(Profile) -> SessionRules,
    #[serde(skip)]
    write_record: fn(&Variant, &GameRecord<'_>, &str) -> Result<String, String>,
    #[serde(skip)]
    read_record: fn(&Variant, &str) -> Result<ImportedGame, String>,
}

/// A game read from a pasted record: where it starts and its moves in
/// coordinate notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ImportedGame {
    pub initial_fen: String,
    pub moves: Vec<String>,
}

impl Variant {
    /// A new game from `fen`, or from the start position when `None` (for a
    /// numbered family, the one `pick` names, modulo the count).
    ///
    /// # Errors
    /// [`GameError::BadPosition`] for a position the rules refuse.
    pub fn new_game(&self, fen: Option<&str>, pick: u32) -> Result<Box<dyn Game>, GameError> {
        let fen = fen.map_or_else(|| self.start_fen(pick), str::to_owned);
        match &self.build {
            Build::Native(build) => build(&fen),
            Build::Data(v) => Ok(Box::new(variants::VariantGame::from_fen(v.clone(), &fen)?)),
        }
    }

    /// The data-defined variant behind this entry, if it is one.
    #[must_use]
    pub fn data(&self) -> Option<&Arc<variants::Variant>> {
        match &self.build {
            Build::Native(_) => None,
            Build::Data(v) => Some(v),
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

    /// How an online game of this variant is refereed with time control
    /// `tc` (the [`Profile::Online`] rules).
    #[must_use]
    pub fn session_config(&self, time_control: clock::TimeControl) -> SessionConfig {
        self.session_config_for(time_control, Profile::Online)
    }

    /// How a session of this variant is refereed under `profile`.
    #[must_use]
    pub fn session_config_for(&self, time_control: clock::TimeControl, profile: Profile) -> SessionConfig {
        SessionConfig {
            time_control,
            rules: (self.session_rules)(profile),
        }
    }

    /// The game in the variant's record format (PGN, KIF).
    ///
    /// # Errors
    /// A move that does not replay from the start position (a damaged
    /// stored game).
    pub fn write_record(&self, record: &GameRecord<'_>) -> Result<String, String> {
        (self.write_record)(self, record, self.record.notations[0])
    }

    /// The game in the variant's record format with its moves in
    /// `notation`, one of [`RecordFormat::notations`].
    ///
    /// # Errors
    /// A notation the format is not written in, naming those it is; or as
    /// [`Variant::write_record`].
    pub fn write_record_in(&self, record: &GameRecord<'_>, notation: &str) -> Result<String, String> {
        let notation = self.record_notation(Some(notation))?;
        (self.write_record)(self, record, notation)
    }

    /// The record notation `asked` names, one of
    /// [`RecordFormat::notations`]; without one, the usual one.
    ///
    /// # Errors
    /// A notation the format is not written in, naming those it is.
    pub fn record_notation(&self, asked: Option<&str>) -> Result<&'static str, String> {
        let notations = self.record.notations;
        match asked {
            None => Ok(notations[0]),
            Some(n) => notations.iter().copied().find(|k| *k == n).ok_or_else(|| {
                format!(
                    "{} records are written in {}, not {n:?}",
                    self.id,
                    notations.join(" or ")
                )
            }),
        }
    }

    /// Reads one game from a pasted record (PGN, or a bare position) as
    /// the variant's record format writes it. Comments, NAGs and
    /// variations are skipped.
    ///
    /// # Errors
    /// Why the text is not one game of this variant, for people.
    pub fn read_record(&self, text: &str) -> Result<ImportedGame, String> {
        if text.trim().is_empty() {
            return Err("there is nothing to read".into());
        }
        (self.read_record)(self, text)
    }

    /// The data word for a side (`red`, `white`).
    #[must_use]
    pub fn side_key(&self, side: Side) -> &'static str {
        self.sides[side.index()].key
    }

    /// The data word for what `side` plays as now in `game`: the game's
    /// own word where its moves decide it (a colour chosen under renju's
    /// opening rules), else the variant's.
    #[must_use]
    pub fn side_key_in(&self, game: &dyn Game, side: Side) -> &'static str {
        game.side_key(side).unwrap_or_else(|| self.side_key(side))
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

/// The games built into the binary, each by its rules crate.
static BUILT_IN: [Variant; 24] = [
    xiangqi_entries::CXA,
    xiangqi_entries::WXF,
    xiangqi_entries::ASIAN,
    xiangqi_entries::SIMPLE,
    chess_entries::STANDARD,
    chess_entries::CHESS960,
    shogi_entries::STANDARD,
    shogi_entries::DECLARATION,
    shogi_entries::LANCE,
    shogi_entries::BISHOP,
    shogi_entries::ROOK,
    shogi_entries::ROOK_LANCE,
    shogi_entries::TWO_PIECES,
    shogi_entries::FOUR_PIECES,
    shogi_entries::SIX_PIECES,
    shogi_entries::EIGHT_PIECES,
    shogi_entries::TEN_PIECES,
    renju_entries::FREESTYLE,
    renju_entries::STANDARD,
    renju_entries::SWAP2,
    renju_entries::STANDARD_SWAP2,
    renju_entries::RIF,
    renju_entries::SOOSORV8,
    renju_entries::OFFICE,
];

static TABLE: OnceLock<Vec<Variant>> = OnceLock::new();

/// Xiangqi with seed 004's house rules (降和偏方) switched on: each set a
/// player may choose is an entry of its own, rated in its own pool, made
/// from `crates/variants/data/xiangqi.toml` (docs/variants.md). 龙战士
/// (`dragon_warrior`) excludes 王者士 (`royal_advisor`); 杀惊遁马
/// (`fleeing_horse`), 宫廷炮 (`palace_cannon`), 破河象
/// (`river_breaking_elephant`), 宫策略 (`palace_strategy`), 还魂卒
/// (`reviving_pawn`) and 解将旗 (`check_flag`) go with any;
/// `xiangqi-house` has the eight that go
/// together, 龙战士 in place of 王者士 as the seed advises
/// (“应当是替代‘王者士’的”).
const HOUSE_RULE_SETS: [(&str, &[&str]); 13] = [
    ("xiangqi-dragon", &["dragon_warrior"]),
    ("xiangqi-mission", &["mission_pawn"]),
    ("xiangqi-royal", &["royal_advisor"]),
    ("xiangqi-dragon-mission", &["dragon_warrior", "mission_pawn"]),
    ("xiangqi-royal-mission", &["royal_advisor", "mission_pawn"]),
    ("xiangqi-horse", &["fleeing_horse"]),
    ("xiangqi-revival", &["reviving_pawn"]),
    ("xiangqi-horse-revival", &["fleeing_horse", "reviving_pawn"]),
    ("xiangqi-cannon", &["palace_cannon"]),
    ("xiangqi-elephant", &["river_breaking_elephant"]),
    ("xiangqi-strategy", &["palace_strategy"]),
    ("xiangqi-flag", &["check_flag"]),
    (
        "xiangqi-house",
        &[
            "fleeing_horse",
            "palace_cannon",
            "river_breaking_elephant",
            "mission_pawn",
            "dragon_warrior",
            "palace_strategy",
            "reviving_pawn",
            "check_flag",
        ],
    ),
];

/// The variant files shipped in the binary (`crates/variants/data`), beside
/// the built-in games: Fairy-Stockfish's minixiangqi, manchu and janggi,
/// seed 000's 升级象棋 (`shengji`), and Xiangqi's file with each set of
/// house rules (`HOUSE_RULE_SETS`).
/// (The crate's `xiangqi.toml` without house rules is its proof, not a
/// game here: standard Xiangqi is played by `crates/xiangqi`.)
fn shipped() -> Vec<variants::Variant> {
    let files = [
        variants::MINIXIANGQI_TOML,
        variants::MANCHU_TOML,
        variants::JANGGI_TOML,
        variants::SHENGJI_TOML,
    ]
    .iter()
    .map(|text| variants::Variant::from_toml(text).expect("a shipped variant file loads"));
    let house = HOUSE_RULE_SETS.iter().map(|(name, rules)| {
        variants::Variant::with_house_rules(variants::XIANGQI_TOML, name, rules)
            .expect("a shipped house-rule set loads")
    });
    files.chain(house).collect()
}

/// The table: the built-in games, then the shipped variants, then `extra`.
fn build_table(extra: Vec<variants::Variant>) -> Result<Vec<Variant>, RegistryError> {
    let mut table: Vec<Variant> = BUILT_IN.to_vec();
    for v in shipped().into_iter().chain(extra) {
        let name = v.name().trim().to_ascii_lowercase();
        if !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(RegistryError::BadName { name });
        }
        let taken = table.iter().any(|e| {
            e.id.split('/').nth(1) == Some(name.as_str()) && e.family == data_entries::FAMILY
                || e.id == name
                || e.aliases.contains(&name.as_str())
                || e.rating_pool == name
        });
        if taken {
            return Err(RegistryError::Duplicate { name });
        }
        table.push(data_entries::entry(Arc::new(v)));
    }
    Ok(table)
}

/// Puts the variants an operator loaded (`qiju serve --variants`) beside
/// the built-in ones. Called once at start, before anything asks the
/// registry; without it the table holds the built-in games and the shipped
/// variants.
///
/// # Errors
/// [`RegistryError::AlreadyBuilt`] after the table was built;
/// [`RegistryError::Duplicate`] for a name already taken.
pub fn install(extra: Vec<variants::Variant>) -> Result<(), RegistryError> {
    let table = build_table(extra)?;
    TABLE.set(table).map_err(|_| RegistryError::AlreadyBuilt)
}

fn table() -> &'static [Variant] {
    TABLE.get_or_init(|| build_table(Vec::new()).expect("the shipped variants have distinct names"))
}

/// Every variant, the default first.
#[must_use]
pub fn all() -> &'static [Variant] {
    table()
}

/// The variant `name` names: its id or an alias, in any case, with
/// surrounding blanks ignored; `None` gives the default.
///
/// # Errors
/// [`GameError::UnknownVariant`] for a name no variant has.
pub fn get(name: Option<&str>) -> Result<&'static Variant, GameError> {
    let wanted = name.unwrap_or(DEFAULT_VARIANT).trim().to_ascii_lowercase();
    table()
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
    fn every_quick_pairing_is_a_clock_the_lobby_can_seek() {
        for v in all() {
            assert!(!v.quick_pairings.is_empty(), "{} offers no quick pairing", v.id);
            for text in v.quick_pairings {
                let tc: clock::TimeControl = text.parse().unwrap_or_else(|e| panic!("{}: {text}: {e}", v.id));
                assert!(!tc.is_unlimited(), "{}: {text} has no clock", v.id);
                // The lobby offers at most 180 minutes (lobby::seeks).
                assert!(tc.stages[0].time_ms <= 180 * 60_000, "{}: {text}", v.id);
            }
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

    #[test]
    fn winning_chances_are_odd_monotone_and_saturate_at_mate() {
        let k = 0.003_682_08;
        assert!(Score::Cp(0).win_chances(k).abs() < 1e-12);
        let mut last = -1.0;
        for cp in (-2000..=2000).step_by(50) {
            let w = Score::Cp(cp).win_chances(k);
            assert!(w > last, "not increasing at {cp}");
            assert!((w + Score::Cp(-cp).win_chances(k)).abs() < 1e-12);
            last = w;
        }
        // A rook up (500 cp for Stockfish) is a large but not certain edge.
        let rook = Score::Cp(500).win_chances(k);
        assert!((0.7..0.8).contains(&rook), "{rook}");
        assert_eq!(Score::Mate(3).win_chances(k), 1.0);
        assert_eq!(Score::Mate(-1).win_chances(k), -1.0);
        assert_eq!(Score::Mate(-2).flip(), Score::Mate(2));
    }

    /// The built-in engine, as the analyser sees it, finds the mate in one
    /// of a position where the red rook mates along the d file, the kings facing on the e file.
    #[test]
    fn xiangqi_analysis_finds_a_mate_in_one() {
        let v = get(Some("xiangqi")).unwrap();
        let Computer::BuiltIn { analyse, .. } = v.computer else {
            panic!("Xiangqi's analyser is built in");
        };
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let e = analyse(&AnalysisRequest {
            variant: v,
            fen,
            moves: &[],
            depth: v.analysis.depth,
            movetime: Duration::from_secs(5),
        })
        .unwrap();
        assert_eq!(e.score, Score::Mate(1), "{e:?}");
        assert_eq!(e.best.as_deref(), Some("a0d0"));
        assert_eq!(e.pv.first(), e.best.as_ref());
    }

    #[test]
    fn pasted_records_are_read_by_each_variant() {
        let xq = get(Some("xiangqi")).unwrap();
        let g = xq
            .read_record("[Game \"Chinese Chess\"]\n1. 炮二平五 马8进7 2. 马二进三 车9平8")
            .unwrap();
        assert_eq!(g.initial_fen, xiangqi::STARTPOS);
        assert_eq!(g.moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        assert_eq!(xq.read_record(fen).unwrap().moves.len(), 0);
        assert!(xq.read_record("1. 车一进五").is_err());
        assert!(xq.read_record("").is_err());

        let chess = get(Some("chess")).unwrap();
        let g = chess
            .read_record("[Event \"x\"]\n\n1. e4 {[%clk 0:03:00]} e5 (1... c5) 2. Nf3 $1 Nc6 3. Bb5 a6 *")
            .unwrap();
        assert_eq!(g.moves, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
        assert_eq!(chess.read_record(fen).unwrap().initial_fen, fen);
        assert!(chess.read_record("1. e5").is_err());
        assert!(chess.read_record("8/8/8 w - - 0 1").is_err());
    }
}
