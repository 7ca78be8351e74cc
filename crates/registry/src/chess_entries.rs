//! International chess by the FIDE Laws of Chess, and Chess960 (FIDE Laws,
//! Guidelines III). Online, as on lichess: no fouls; a draw offer follows
//! one's own move (9.1.2.1) and a second one after a refusal is refused, not
//! punished.

use crate::{
    Analysis, BoardInfo, Build, Computer, EngineProtocol, GameRecord, ImportedGame, MoveKind, Notations,
    PositionFormat, RecordFormat, SideInfo, Start, Text, Variant,
};
use game::{Game, GameError};
use session::{Articles, ClaimPenalty, SessionRules};

/// The standard start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const SIDES: [SideInfo; 2] = [
    SideInfo {
        key: "white",
        name: Text {
            en: "White",
            zh: "白方",
        },
    },
    SideInfo {
        key: "black",
        name: Text {
            en: "Black",
            zh: "黑方",
        },
    },
];

const BOARD: BoardInfo = BoardInfo {
    renderer: "chess",
    files: 8,
    ranks: 8,
    data: None,
};

const MOVE_KINDS: &[MoveKind] = &[
    MoveKind::Move,
    MoveKind::Promotion {
        choices: &["q", "r", "b", "n"],
    },
];

const NOTATIONS: Notations = Notations {
    coord: "uci",
    display: "san",
    alt: "uci",
};

/// FIDE Laws: a false claim gives the opponent two minutes (9.5.5); time
/// runs out → loss, or a draw when the opponent cannot mate (6.9).
fn fide_session(profile: crate::Profile) -> SessionRules {
    let a = |s: &str| Some(s.to_string());
    SessionRules {
        foul_limit: 0,
        false_claim_penalty_ms: 2 * 60_000,
        claim_penalty: ClaimPenalty::CreditOpponent,
        repeated_offer_is_foul: false,
        // FIDE 9.5.5 gives the opponent two minutes for an incorrect
        // claim, an arbiter's ruling; online (as lichess) it is refused.
        false_claim_is_refused: profile == crate::Profile::Online,
        articles: Articles {
            resignation: a("5.1.2"),
            agreement: a("5.2.3"),
            time_forfeit: a("6.9"),
            time_forfeit_draw: a("6.9"),
            fouls: None,
            repeated_offer: None,
            false_claim: a("9.5.5"),
            overstep: None,
        },
    }
}

/// Stockfish's `Skill Level` (0–20) for our levels 1–8.
fn skill(level: u8) -> u8 {
    const SKILL: [u8; 8] = [0, 3, 6, 9, 12, 15, 18, 20];
    SKILL[usize::from(level.clamp(1, 8) - 1)]
}

/// One Stockfish process serves both variants, so each request says which
/// castling notation it wants.
fn stockfish_options(level: u8) -> Vec<(String, String)> {
    vec![
        ("Skill Level".into(), skill(level).to_string()),
        ("UCI_Chess960".into(), "false".into()),
    ]
}

fn stockfish_960_options(level: u8) -> Vec<(String, String)> {
    vec![
        ("Skill Level".into(), skill(level).to_string()),
        ("UCI_Chess960".into(), "true".into()),
    ]
}

/// Stockfish at full strength; depth 16 takes it a few tens of
/// milliseconds a position.
const ANALYSIS: Analysis = Analysis {
    depth: 16,
    win_chance_k: 0.003_682_08,
};

fn analysis_options(chess960: bool) -> Vec<(String, String)> {
    vec![
        ("Skill Level".into(), "20".into()),
        ("UCI_Chess960".into(), chess960.to_string()),
    ]
}

/// A pasted game: a bare FEN, or the first game of a PGN text as chess
/// sites export it.
fn read_record(text: &str, variant: chess::Variant) -> Result<ImportedGame, String> {
    let text = text.trim();
    if !text.contains('[') && text.split_whitespace().count() >= 4 && text.contains('/') {
        let game = chess::ChessGame::new(text, variant).map_err(|e| e.to_string())?;
        return Ok(ImportedGame {
            initial_fen: game.fen(),
            moves: Vec::new(),
        });
    }
    let record = chess::pgn::read_pgn(text)
        .into_iter()
        .next()
        .ok_or_else(|| "no game in the text".to_string())?
        .map_err(|e| e.to_string())?;
    Ok(ImportedGame {
        initial_fen: record.start_fen,
        moves: record.moves.into_iter().map(|m| m.uci).collect(),
    })
}

fn build(fen: &str, variant: chess::Variant) -> Result<Box<dyn Game>, GameError> {
    let fen = if fen == "startpos" { STARTPOS } else { fen };
    Ok(Box::new(chess::ChessGame::new(fen, variant)?))
}

/// PGN as chess sites write it: SAN moves with `[%clk]` comments, the
/// Seven Tag Roster, `Variant`/`SetUp`/`FEN` where needed, the ending's
/// words on the last move.
fn write_pgn(v: &Variant, g: &GameRecord<'_>) -> Result<String, String> {
    let variant = if v.record.variant_tag.is_some() {
        chess::Variant::Chess960
    } else {
        chess::Variant::Standard
    };
    let mut game = chess::ChessGame::new(g.initial_fen, variant).map_err(|e| e.to_string())?;
    let mut moves = Vec::with_capacity(g.moves.len());
    for (i, m) in g.moves.iter().enumerate() {
        let played = game.play(m.coord).map_err(|e| format!("ply {}: {e}", i + 1))?;
        moves.push(chess::pgn::RecordedMove {
            uci: played.coord,
            san: played.display,
            clock: m.clock_ms.map(clock_text),
            comment: None,
        });
    }
    if let (Some(last), Some(words)) = (moves.last_mut(), g.final_comment) {
        last.comment = Some(words.to_string());
    }
    Ok(chess::pgn::write_pgn(&chess::pgn::ChessRecord {
        tags: g.tags.clone(),
        start_fen: g.initial_fen.to_string(),
        variant,
        moves,
        result: g.result.to_string(),
    }))
}

/// `H:MM:SS`, as `[%clk]` writes a clock.
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn chess960_start(n: u32) -> String {
    chess::chess960_start_fen(n).unwrap_or_else(|| STARTPOS.to_string())
}

/// lichess's quick-pairing grid.
const QUICK_PAIRINGS: &[&str] = &[
    "1+0", "2+1", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0", "30+20",
];

pub(crate) const STANDARD: Variant = Variant {
    id: "chess/standard",
    aliases: &["chess", "chess/fide"],
    family: "chess",
    name: Text {
        en: "Chess",
        zh: "国际象棋",
    },
    rules: Text {
        en: "FIDE Laws of Chess, online: no fouls",
        zh: "国际棋联规则（网络对局，无犯规）",
    },
    sides: SIDES,
    board: BOARD,
    position_format: PositionFormat::Fen,
    start: Start::Fixed { fen: STARTPOS },
    move_kinds: MOVE_KINDS,
    notations: NOTATIONS,
    record: RecordFormat {
        format: "pgn",
        extension: "pgn",
        media_type: "application/x-chess-pgn; charset=utf-8",
        game_tag: None,
        variant_tag: None,
        notations: &["san"],
    },
    rating_pool: "chess",
    titles: false,
    computer: Computer::Uci {
        program: "stockfish",
        protocol: EngineProtocol::Uci,
        levels: 8,
        options: stockfish_options,
        analysis_options: || analysis_options(false),
    },
    analysis: ANALYSIS,
    announcements: false,
    quick_pairings: QUICK_PAIRINGS,
    build: Build::Native(|fen| build(fen, chess::Variant::Standard)),
    session_rules: fide_session,
    write_record: |v, g, _| write_pgn(v, g),
    read_record: |_, text| read_record(text, chess::Variant::Standard),
};

pub(crate) const CHESS960: Variant = Variant {
    id: "chess/chess960",
    aliases: &["chess960", "fischerandom", "chess/fischerandom"],
    family: "chess",
    name: Text {
        en: "Chess960",
        zh: "菲舍尔任意制象棋",
    },
    rules: Text {
        en: "FIDE Laws of Chess with the Chess960 start and castling (Guidelines III)",
        zh: "国际棋联规则，960 种开局与易位",
    },
    sides: SIDES,
    board: BOARD,
    position_format: PositionFormat::Fen,
    start: Start::Numbered {
        count: 960,
        fen_of: chess960_start,
    },
    move_kinds: MOVE_KINDS,
    notations: Notations {
        coord: "uci",
        display: "san",
        alt: "uci",
    },
    record: RecordFormat {
        format: "pgn",
        extension: "pgn",
        media_type: "application/x-chess-pgn; charset=utf-8",
        game_tag: None,
        variant_tag: Some("Chess960"),
        notations: &["san"],
    },
    rating_pool: "chess960",
    titles: false,
    computer: Computer::Uci {
        program: "stockfish",
        protocol: EngineProtocol::Uci,
        levels: 8,
        options: stockfish_960_options,
        analysis_options: || analysis_options(true),
    },
    analysis: ANALYSIS,
    announcements: false,
    quick_pairings: QUICK_PAIRINGS,
    build: Build::Native(|fen| build(fen, chess::Variant::Chess960)),
    session_rules: fide_session,
    write_record: |v, g, _| write_pgn(v, g),
    read_record: |_, text| read_record(text, chess::Variant::Chess960),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_map_onto_stockfish_skill_in_order() {
        let skills: Vec<u8> = (1..=8).map(skill).collect();
        assert!(skills.windows(2).all(|w| w[0] < w[1]), "{skills:?}");
        assert_eq!((skills[0], skills[7]), (0, 20));
        assert!(stockfish_960_options(3).contains(&("UCI_Chess960".into(), "true".into())));
    }
}
