//! Gomoku and renju (五子棋 / 连珠) on the 15×15 board: the rule sets of the
//! `renju` crate, each one entry. Casual play starts with black on the
//! centre; serious play opens by swap2 (gomoku) or Soosõrv-8 (renju), whose
//! steps — a colour chosen, two more stones, the number of 5th moves, the
//! offers, white's pick — are moves of the game (`MoveKind::Choice`), so
//! that the session, the live game and the pages carry them as they carry
//! any move.
//!
//! **Sides and colours.** The sides are the players: `first` moves first.
//! Without an opening rule the first side plays black (黑, `black`) and the
//! second white (白, `white`). Under an opening rule the first side is the
//! tentative black (假先, `tentative_black`), who places the opening stones,
//! and the second the tentative white (假后); which colour each ends up
//! with is the game's state, read through `Game::side_key` (`black`,
//! `white` once chosen). A player never changes side, so its clock, its
//! result and its rating stay its own through a swap.
//!
//! Online there are no fouls to rule and no claims: five, overline, black's
//! forbidden points and the full board are the board's (the game's
//! status); the office rules' replay of a forbidden stone is white's move
//! `foul`.

use crate::{
    Analysis, AnalysisRequest, BoardInfo, Build, Computer, ComputerRequest, Evaluation, GameRecord,
    ImportedGame, MoveKind, Notations, PositionFormat, RecordFormat, Score, SideInfo, Start, Text, Variant,
};
use game::{Game, GameError};
use renju::computer::{choose, choose_in_game, Level};
use renju::{RenjuGame, Rules};
use session::{Articles, ClaimPenalty, SessionRules};

/// The empty board, black to move.
pub(crate) const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b";

const SIDES: [SideInfo; 2] = [
    SideInfo {
        key: "black",
        name: Text {
            en: "Black",
            zh: "黑方",
        },
    },
    SideInfo {
        key: "white",
        name: Text {
            en: "White",
            zh: "白方",
        },
    },
];

/// Before an opening rule settles the colours: the player who places the
/// opening stones (假先) and the other (假后).
const TENTATIVE_SIDES: [SideInfo; 2] = [
    SideInfo {
        key: "tentative_black",
        name: Text {
            en: "Tentative Black",
            zh: "假先",
        },
    },
    SideInfo {
        key: "tentative_white",
        name: Text {
            en: "Tentative White",
            zh: "假后",
        },
    },
];

const BOARD: BoardInfo = BoardInfo {
    renderer: "renju",
    files: 15,
    ranks: 15,
    data: None,
};

const CENTRE_KINDS: &[MoveKind] = &[MoveKind::Placement];
const OPENING_KINDS: &[MoveKind] = &[MoveKind::Placement, MoveKind::Choice];

/// Points (`h8`) on the wire, in storage and for players; the Gomocup
/// protocol's `x,y` as the second notation.
const NOTATIONS: Notations = Notations {
    coord: "point",
    display: "point",
    alt: "gomocup",
};

/// Piskvork's `.psq`, the Gomocup's record: the stones in order.
const RECORD: RecordFormat = RecordFormat {
    format: "psq",
    extension: "psq",
    media_type: "text/plain; charset=utf-8",
    game_tag: None,
    variant_tag: None,
    notations: &["point"],
};

/// The search at level 5 takes 0.6 s a move on the development machine
/// (docs/renju.md); the review uses level 4 (82 ms). The evaluation is in
/// the shape tables' units, where an open four is 20,000 and an open
/// three 700; the slope puts an open three up at about a 0.6 chance.
const ANALYSIS: Analysis = Analysis {
    depth: 4,
    win_chance_k: 0.002,
};

/// Online: nothing to rule beyond the board.
fn renju_session(_profile: crate::Profile) -> SessionRules {
    SessionRules {
        foul_limit: 0,
        false_claim_penalty_ms: 0,
        claim_penalty: ClaimPenalty::ChargeClaimant,
        repeated_offer_is_foul: false,
        false_claim_is_refused: true,
        articles: Articles::default(),
    }
}

fn game_of(fen: &str, moves: &[String], rules: Rules) -> Result<RenjuGame, String> {
    let mut g = RenjuGame::from_fen(fen, rules).map_err(|e| e.to_string())?;
    for (i, m) in moves.iter().enumerate() {
        g.play(m).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok(g)
}

fn choose_move(req: &ComputerRequest<'_>, rules: Rules) -> Result<String, String> {
    let level = Level::new(req.level).ok_or_else(|| format!("no computer level {}", req.level))?;
    let g = game_of(req.fen, req.moves, rules)?;
    choose_in_game(&g, level).ok_or_else(|| "the game is over".to_string())
}

fn analyse(req: &AnalysisRequest<'_>, rules: Rules) -> Result<Evaluation, String> {
    let g = game_of(req.fen, req.moves, rules)?;
    let level = Level::new(u8::try_from(req.depth).unwrap_or(5).clamp(1, 5)).unwrap_or(Level::MAX);
    if let Some(a) = renju::computer::choose_opening(&g, level) {
        // An opening step: no score to give.
        return Ok(Evaluation {
            score: Score::Cp(0),
            best: Some(a.to_string()),
            pv: vec![a.to_string()],
            depth: 0,
            nodes: 0,
        });
    }
    let c = choose(g.position(), level).ok_or_else(|| "the game is over".to_string())?;
    let score = if c.score >= 900_000 {
        Score::Mate(1)
    } else if c.score <= -900_000 {
        Score::Mate(-1)
    } else {
        Score::Cp(c.score)
    };
    let best = c.decision.coord();
    Ok(Evaluation {
        score,
        best: Some(best.clone()),
        pv: vec![best],
        depth: c.depth,
        nodes: c.nodes,
    })
}

fn build(fen: &str, rules: Rules) -> Result<Box<dyn Game>, GameError> {
    Ok(Box::new(RenjuGame::from_fen(fen, rules)?))
}

/// A pasted game: a position text, a `.psq` file, or a move list (`h8 i9
/// …`, numbered or not). Under an opening rule the stones are read as the
/// opening played without a swap and with one 5th move offered.
fn read_record(text: &str, rules: Rules) -> Result<ImportedGame, String> {
    let text = text.trim();
    if let Ok(g) = RenjuGame::from_fen(text, rules) {
        return Ok(ImportedGame {
            initial_fen: g.initial_fen(),
            moves: Vec::new(),
        });
    }
    let stones = if text.starts_with("Piskvork") {
        renju::record::read_psq(text)
    } else {
        renju::record::parse_moves(text)
    }
    .map_err(|e| e.to_string())?;
    let moves = RenjuGame::moves_of_stones(rules, &stones);
    game_of(EMPTY, &moves, rules)?;
    Ok(ImportedGame {
        initial_fen: EMPTY.to_string(),
        moves,
    })
}

/// `.psq`: the stones in the order they went on the board (the choices
/// of an opening rule and the offers not picked are not stones).
fn write_psq(_v: &Variant, g: &GameRecord<'_>, rules: Rules) -> Result<String, String> {
    let moves: Vec<String> = g.moves.iter().map(|m| m.coord.to_string()).collect();
    let game = game_of(g.initial_fen, &moves, rules)?;
    if game.initial_fen() != EMPTY {
        return Err("a .psq record starts from the empty board".into());
    }
    Ok(renju::record::write_psq(&game.stones()))
}

/// A stone a move needs little time; the opening rules' choices a little
/// more, hence the increments.
const QUICK_PAIRINGS: &[&str] = &["3+2", "5+3", "10+5", "15+10", "20+10"];

macro_rules! renju_variant {
    ($id:literal, $aliases:expr, $rules:expr, $family:literal, $name_en:literal, $name_zh:literal,
     $sides:expr, $kinds:expr, $en:literal, $zh:literal) => {
        Variant {
            id: $id,
            aliases: $aliases,
            family: $family,
            name: Text {
                en: $name_en,
                zh: $name_zh,
            },
            rules: Text { en: $en, zh: $zh },
            sides: $sides,
            board: BOARD,
            position_format: PositionFormat::Renju,
            start: Start::Fixed { fen: EMPTY },
            move_kinds: $kinds,
            notations: NOTATIONS,
            record: RECORD,
            rating_pool: $family,
            titles: false,
            computer: Computer::BuiltIn {
                levels: 5,
                choose: |r| choose_move(r, $rules),
                analyse: |r| analyse(r, $rules),
            },
            analysis: ANALYSIS,
            announcements: false,
            quick_pairings: QUICK_PAIRINGS,
            build: Build::Native(|fen| build(fen, $rules)),
            session_rules: renju_session,
            write_record: |v, g, _| write_psq(v, g, $rules),
            read_record: |_, t| read_record(t, $rules),
        }
    };
}

pub(crate) const FREESTYLE: Variant = renju_variant!(
    "gomoku/freestyle",
    &["gomoku", "五子棋"],
    Rules::FREESTYLE,
    "gomoku",
    "Gomoku",
    "五子棋",
    SIDES,
    CENTRE_KINDS,
    "Freestyle: five or more in a row wins; black starts on the centre",
    "无禁手：五连或长连皆胜，黑先下天元"
);

pub(crate) const STANDARD: Variant = renju_variant!(
    "gomoku/standard",
    &[],
    Rules::STANDARD,
    "gomoku",
    "Gomoku",
    "五子棋",
    SIDES,
    CENTRE_KINDS,
    "Standard: exactly five in a row wins; black starts on the centre",
    "标准：恰好五连才胜，黑先下天元"
);

pub(crate) const SWAP2: Variant = renju_variant!(
    "gomoku/swap2",
    &["swap2"],
    Rules::SWAP2,
    "gomoku",
    "Gomoku",
    "五子棋",
    TENTATIVE_SIDES,
    OPENING_KINDS,
    "Freestyle opened by swap2 (Gomocup): three stones, then a colour chosen or two more stones",
    "无禁手，swap2 开局（Gomocup）：先摆三子，对方选色或再摆两子"
);

pub(crate) const STANDARD_SWAP2: Variant = renju_variant!(
    "gomoku/standard-swap2",
    &[],
    Rules::STANDARD_SWAP2,
    "gomoku",
    "Gomoku",
    "五子棋",
    TENTATIVE_SIDES,
    OPENING_KINDS,
    "Standard (exactly five) opened by swap2, as at the Gomoku World Championships",
    "标准（恰好五连），swap2 开局（五子棋世界锦标赛）"
);

pub(crate) const RIF: Variant = renju_variant!(
    "renju/rif",
    &["renju", "连珠"],
    Rules::RIF,
    "renju",
    "Renju",
    "连珠",
    SIDES,
    CENTRE_KINDS,
    "RIF rules: black's double-three, double-four and overline lose; black starts on the centre",
    "国际连珠联盟规则：黑方三三、四四、长连禁手判负；黑先下天元"
);

pub(crate) const SOOSORV8: Variant = renju_variant!(
    "renju/soosorv8",
    &["renju/soosorv-8", "soosorv8"],
    Rules::SOOSORV8,
    "renju",
    "Renju",
    "连珠",
    TENTATIVE_SIDES,
    OPENING_KINDS,
    "RIF rules opened by Soosõrv-8 (Renju World Championship): swaps, up to eight 5th moves offered",
    "国际连珠联盟规则，索索夫-8 开局（世锦赛）：两次交换，黑方提供至多八个第五手"
);

/// The office event's rules ask a player to announce an open three or a
/// four (seed 001); online the platform does it for them.
pub(crate) const OFFICE: Variant = Variant {
    announcements: true,
    ..renju_variant!(
    "renju/office",
    &[],
    Rules::OFFICE,
    "renju",
    "Renju",
    "连珠",
    SIDES,
    CENTRE_KINDS,
    "Office event (seed 001): RIF forbidden points replayed when white points them out; white's first stone on its side",
    "办公室赛（种子001）：禁手经白方指出可重下；白棋第一手在己方一侧"
    )
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameRecord;

    #[test]
    fn psq_records_hold_the_stones_and_read_back() {
        let v = crate::get(Some("gomoku/swap2")).unwrap();
        let moves = ["h8", "h9", "i8", "choose:black", "i9", "j8"];
        let record = GameRecord {
            initial_fen: EMPTY,
            moves: moves.iter().map(|m| crate::RecordMove::bare(m)).collect(),
            tags: Vec::new(),
            result: "*",
            final_comment: None,
        };
        let psq = v.write_record(&record).unwrap();
        assert!(psq.starts_with("Piskvorky 15x15"));
        assert_eq!(psq.lines().count(), 7);
        let back = v.read_record(&psq).unwrap();
        assert_eq!(back.moves, ["h8", "h9", "i8", "choose:white", "i9", "j8"]);
        let s = crate::get(Some("renju/soosorv8")).unwrap();
        let g = s.read_record("h8 h9 h10 g9 j9 a1").unwrap();
        assert_eq!(
            g.moves,
            [
                "h8",
                "h9",
                "h10",
                "choose:white",
                "g9",
                "declare:1",
                "choose:black",
                "offer:j9",
                "select:j9",
                "a1"
            ]
        );
    }

    #[test]
    fn the_computer_answers_through_the_registry() {
        for v in crate::all().iter().filter(|v| v.board.renderer == "renju") {
            let Computer::BuiltIn {
                choose,
                analyse,
                levels,
            } = v.computer
            else {
                panic!("{} has its own computer", v.id)
            };
            assert_eq!(levels, 5);
            let m = choose(&ComputerRequest {
                variant: v,
                level: 2,
                fen: EMPTY,
                moves: &[],
                movetime: std::time::Duration::from_millis(100),
            })
            .unwrap();
            assert!(
                v.new_game(None, 0).unwrap().legal_moves().contains(&m),
                "{}: {m}",
                v.id
            );
            let e = analyse(&AnalysisRequest {
                variant: v,
                fen: EMPTY,
                moves: &[],
                depth: 3,
                movetime: std::time::Duration::from_secs(1),
            })
            .unwrap();
            assert!(e.best.is_some());
        }
    }
}
