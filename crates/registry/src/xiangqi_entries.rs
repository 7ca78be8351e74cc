//! Xiangqi under its four rule sets. They differ only in the repetition
//! rules (the referee's [`referee::RuleSet`]); the session is refereed by
//! the CXA competition rules in all four, and they share one rating pool.

use crate::{
    Analysis, AnalysisRequest, BoardInfo, Build, Computer, ComputerRequest, Evaluation, GameRecord,
    ImportedGame, MoveKind, Notations, PositionFormat, RecordFormat, Score, SideInfo, Start, Text, Variant,
};
use game::{Game, GameError};
use referee::{RuleSet, XiangqiGame};
use session::{Articles, ClaimPenalty, SessionRules};

const SIDES: [SideInfo; 2] = [
    SideInfo {
        key: "red",
        name: Text {
            en: "Red",
            zh: "红方",
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
    renderer: "xiangqi",
    files: 9,
    ranks: 10,
    data: None,
};

const NOTATIONS: Notations = Notations {
    coord: "iccs",
    display: "chinese",
    alt: "wxf",
};

const RECORD: RecordFormat = RecordFormat {
    format: "pgn",
    extension: "pgn",
    media_type: "application/x-chess-pgn; charset=utf-8",
    game_tag: Some("Chinese Chess"),
    variant_tag: Some("xiangqi"),
    notations: &["iccs", "chinese"],
};

const COMPUTER: Computer = Computer::BuiltIn {
    levels: 8,
    choose: choose_move,
    analyse,
};

/// Depth 10 takes about 70 ms in a middlegame on one core of the
/// development machine, so a 40-move game is reviewed in about 6 s.
const ANALYSIS: Analysis = Analysis {
    depth: 10,
    win_chance_k: 0.003_682_08 / 2.0,
};

/// The CXA session rules (《象棋竞赛规则》). For an arbiter: three fouls
/// lose (4.1.8), a false natural-limit claim is a foul and costs the
/// claimant 5 minutes (9.1.4, 23.3), offering a draw again after a refusal
/// is a foul (9.1.3). Online both are refused instead, with the reason
/// (offers still alternate, 23.1), and three fouls still lose where a rule
/// with fouls applies (seed 001's per-move time).
fn cxa_session(profile: crate::Profile) -> SessionRules {
    let a = |s: &str| Some(s.to_string());
    let arbiter = profile == crate::Profile::Arbiter;
    SessionRules {
        foul_limit: 3,
        false_claim_penalty_ms: 5 * 60_000,
        claim_penalty: ClaimPenalty::ChargeClaimant,
        repeated_offer_is_foul: arbiter,
        false_claim_is_refused: !arbiter,
        articles: Articles {
            resignation: a("4.1.9"),
            agreement: a("4.2.2"),
            time_forfeit: a("4.1.4"),
            time_forfeit_draw: None,
            fouls: a("4.1.8"),
            repeated_offer: a("9.1.3"),
            false_claim: a("9.1.4, 23.3"),
            overstep: a("seed 001"),
        },
    }
}

/// The built-in engine at `req.level`.
fn choose_move(req: &ComputerRequest<'_>) -> Result<String, String> {
    let level = engine::Level::new(req.level).ok_or_else(|| format!("no computer level {}", req.level))?;
    let start = xiangqi::Position::from_fen(req.fen).map_err(|e| e.to_string())?;
    let moves = parse_moves(req.moves)?;
    let limits = engine::Limits {
        level: Some(level),
        movetime: Some(req.movetime),
        ..engine::Limits::default()
    };
    // A small table: levels are capped in depth and nodes anyway.
    let mut e = engine::Engine::new(4);
    let r = e
        .search(&start, &moves, &limits, &engine::Control::default(), &mut |_| {})
        .map_err(|e| e.to_string())?;
    Ok(r.best.iccs())
}

fn parse_moves(moves: &[String]) -> Result<Vec<xiangqi::Move>, String> {
    moves
        .iter()
        .map(|m| m.parse::<xiangqi::Move>().map_err(|e| e.to_string()))
        .collect()
}

/// The built-in engine at full strength, to `req.depth` or for at most
/// `req.movetime`.
fn analyse(req: &AnalysisRequest<'_>) -> Result<Evaluation, String> {
    let start = xiangqi::Position::from_fen(req.fen).map_err(|e| e.to_string())?;
    let moves = parse_moves(req.moves)?;
    // The cap stops the search from outside: a time limit would also make
    // the engine manage its time, and a clock player answers a forced move
    // at once, at depth 1 — a review wants every position to the depth.
    let limits = engine::Limits {
        depth: Some(req.depth),
        ..engine::Limits::default()
    };
    let control = engine::Control::default();
    let stop = control.stop.clone();
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let cap = req.movetime;
    std::thread::spawn(move || {
        if finished.recv_timeout(cap) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    let mut e = engine::Engine::new(8);
    let r = e.search(&start, &moves, &limits, &control, &mut |_| {});
    drop(done);
    let r = r.map_err(|e| e.to_string())?;
    Ok(Evaluation {
        score: match r.score {
            engine::Score::Cp(cp) => Score::Cp(cp),
            engine::Score::Mate(n) => Score::Mate(n),
        },
        best: Some(r.best.iccs()),
        pv: r.pv.iter().map(|m| m.iccs()).collect(),
        depth: r.depth,
        nodes: r.nodes,
    })
}

/// A pasted game: a bare FEN, or one game of PGN (any notation the record
/// crate reads: ICCS, WXF, Chinese; the WXF file format too).
fn read_record(text: &str) -> Result<ImportedGame, String> {
    let text = text.trim();
    if let Ok(pos) = xiangqi::Position::from_fen(text) {
        return Ok(ImportedGame {
            initial_fen: pos.fen(),
            moves: Vec::new(),
        });
    }
    // A paste often stops at the last move, without the result the file
    // format ends a game with: read it as an unfinished game then.
    let r = record::read_one(text)
        .or_else(|e| record::read_one(&format!("{text}\n*")).map_err(|_| e))
        .map_err(|e| e.to_string())?;
    let start = r.start_position().map_err(|e| e.to_string())?;
    Ok(ImportedGame {
        initial_fen: start.fen(),
        moves: r.moves.iter().map(|m| m.mv.iccs()).collect(),
    })
}

/// PGN by the record crate (whose reader imports it again): the xqbase tag
/// roster, `[Variant "xiangqi"]`, the rule set in `[Rules]`, `[FEN]` when
/// the game did not start from the usual position, the moves in `notation`
/// (ICCS, or Chinese with `[Format "Chinese"]` as XQBase and DPXQ write
/// it) with each mover's clock as `[%clk]`, and the ending's words on the
/// last move.
fn write_pgn(v: &Variant, g: &GameRecord<'_>, notation: &str) -> Result<String, String> {
    let notation: xiangqi::notation::Notation = notation
        .parse()
        .map_err(|e: xiangqi::notation::NotationError| e.to_string())?;
    let moves = g.moves.iter().map(|m| (m.coord, m.clock_ms, m.spent_ms));
    let mut r = record::Record::from_iccs(g.initial_fen, moves).map_err(|e| e.to_string())?;
    for (name, value) in &g.tags {
        r.set_tag(name, value.clone());
    }
    r.set_tag("Variant", v.record.variant_tag.unwrap_or(v.family));
    if let Some((_, rules)) = v.id.split_once('/') {
        r.set_tag("Rules", rules);
    }
    r.result = record::PgnResult::from_token(g.result).unwrap_or(record::PgnResult::Unknown);
    if let (Some(last), Some(words)) = (r.moves.last_mut(), g.final_comment) {
        last.comment = Some(words.to_string());
    }
    record::write_pgn(&r, notation).map_err(|e| e.to_string())
}

fn build(fen: &str, rules: RuleSet) -> Result<Box<dyn Game>, GameError> {
    Ok(Box::new(XiangqiGame::new(fen, rules)?))
}

/// Blitz to the club's long game; 30+20 is close to the CXA's rapid
/// events.
const QUICK_PAIRINGS: &[&str] = &["1+0", "3+2", "5+3", "10+0", "10+5", "15+10", "30+0", "30+20"];

macro_rules! xiangqi_variant {
    ($id:literal, $aliases:expr, $rules:expr, $en:literal, $zh:literal) => {
        Variant {
            id: $id,
            aliases: $aliases,
            family: "xiangqi",
            name: Text {
                en: "Xiangqi",
                zh: "中国象棋",
            },
            rules: Text { en: $en, zh: $zh },
            sides: SIDES,
            board: BOARD,
            position_format: PositionFormat::Fen,
            start: Start::Fixed {
                fen: xiangqi::STARTPOS,
            },
            move_kinds: &[MoveKind::Move],
            notations: NOTATIONS,
            record: RECORD,
            rating_pool: "xiangqi",
            titles: true,
            computer: COMPUTER,
            analysis: ANALYSIS,
            announcements: false,
            quick_pairings: QUICK_PAIRINGS,
            build: Build::Native(|fen| build(fen, $rules)),
            session_rules: cxa_session,
            write_record: write_pgn,
            read_record: |_, t| read_record(t),
        }
    };
}

pub(crate) const CXA: Variant = xiangqi_variant!(
    "xiangqi/cxa",
    &["xiangqi", "xiangqi/china", "xiangqi/chinese"],
    RuleSet::Cxa,
    "Chinese Xiangqi Association competition rules, with the full repetition rules (棋例)",
    "中国象棋协会《象棋竞赛规则》，含完整棋例"
);

pub(crate) const WXF: Variant = xiangqi_variant!(
    "xiangqi/wxf",
    &[],
    RuleSet::Wxf,
    "World Xiangqi Federation rules: perpetual check and perpetual chase lose",
    "世界象棋联合会规则：长将、长捉判负"
);

pub(crate) const ASIAN: Variant = xiangqi_variant!(
    "xiangqi/asian",
    &["xiangqi/axf"],
    RuleSet::Asian,
    "Asian Xiangqi Federation rules",
    "亚洲象棋联合会规则"
);

pub(crate) const SIMPLE: Variant = xiangqi_variant!(
    "xiangqi/simple",
    &[],
    RuleSet::Simple,
    "Simple online rules: threefold repetition draws, perpetual check loses",
    "网络简易规则：三次重复作和，长将判负"
);

#[cfg(test)]
mod tests {
    #[test]
    fn the_levels_are_the_engines() {
        assert_eq!(super::CXA.computer_levels(), engine::Level::MAX.get());
        assert!(engine::Level::new(super::CXA.computer_levels() + 1).is_none());
    }

    /// The second download: the moves as XQBase and DPXQ write them —
    /// red's files in Chinese numerals, black's in full-width digits, and
    /// 前/后 where two of a side's pieces stand on one file — and it reads
    /// back to the same game.
    #[test]
    fn records_are_also_written_in_chinese() {
        let v = crate::get(Some("xiangqi")).unwrap();
        let moves = [
            "h2e2", "h7e7", "b2b4", "b7b5", "b4e4", "b5e5", "e2d2", "e5d5", "h0g2", "h9g7",
        ];
        let record = crate::GameRecord {
            initial_fen: xiangqi::STARTPOS,
            moves: moves
                .iter()
                .map(|m| crate::RecordMove {
                    coord: m,
                    clock_ms: Some(170_000),
                    spent_ms: None,
                })
                .collect(),
            tags: vec![("Red".into(), "alice".into()), ("Black".into(), "bob".into())],
            result: "*",
            final_comment: None,
        };
        let pgn = v.write_record_in(&record, "chinese").unwrap();
        assert!(pgn.contains("[Format \"Chinese\"]"), "{pgn}");
        assert!(pgn.contains("[Game \"Chinese Chess\"]"), "{pgn}");
        assert!(pgn.contains("[Red \"alice\"]"), "{pgn}");
        let text: Vec<&str> = pgn
            .lines()
            .skip_while(|l| !l.is_empty())
            .flat_map(|l| l.split_whitespace())
            .filter(|t| !t.ends_with('.') && !t.starts_with('{') && !t.ends_with('}') && *t != "*")
            .collect();
        assert_eq!(
            text,
            [
                "炮二平五",
                "炮８平５",
                "炮八进二",
                "炮２进２",
                "炮八平五",
                "炮２平５",
                "后炮平六",
                "前炮平４",
                "马二进三",
                "马８进７"
            ]
        );
        let back = v.read_record(&pgn).unwrap();
        assert_eq!(back.moves, moves);
        // The usual download is unchanged: ICCS.
        let iccs = v.write_record(&record).unwrap();
        assert!(
            iccs.contains("[Format \"ICCS\"]") && iccs.contains("h2e2"),
            "{iccs}"
        );
        let err = v.write_record_in(&record, "wxf").unwrap_err();
        assert_eq!(
            err,
            "xiangqi/cxa records are written in iccs or chinese, not \"wxf\""
        );
    }
}
