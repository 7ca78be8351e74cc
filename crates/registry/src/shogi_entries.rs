//! Shogi (将棋) by the Japan Shogi Association's rules: the even game
//! under the JSA's 24-point impasse count, the same game under the CSA's
//! 27-point declaration (as played online), and the nine handicaps.
//!
//! Handicaps are variants, not start positions of one variant: a handicap
//! game names its sides differently (上手/下手, uwate/shitate, against
//! 先手/後手), its first side is the giver (gote in SFEN), and a player
//! chooses one as a game — none is drawn at random as Chess960's start
//! positions are, and a handicap result says nothing about an even game's
//! strength — so each is one entry with its own sides, its own fixed start
//! and the handicap rating pool, and the lobby, the seek form and the
//! archive list them as they list every variant.
//!
//! Online there are no fouls: a claim that does not hold (a declaration
//! short of its points, a count before both kings have entered) is
//! refused, not punished; a claim that holds may end the game either way —
//! a draw (持将棋), a win by declaration (入玉宣言) or a loss for the side
//! short of 24 points — as [`game::Game::claimable_draw`] rules it.

use crate::{
    Analysis, BoardInfo, Build, Computer, EngineProtocol, GameRecord, ImportedGame, MoveKind, Notations,
    PositionFormat, RecordFormat, SideInfo, Start, Text, Variant,
};
use game::{Game, GameError};
use session::{Articles, ClaimPenalty, SessionRules};
use shogi::record::ShogiRecord;
#[cfg(test)]
use shogi::Handicap;
use shogi::{ImpasseRule, ShogiGame};
use std::fmt::Write as _;

/// Sente (先手) and gote (後手) of an even game.
const EVEN_SIDES: [SideInfo; 2] = [
    SideInfo {
        key: "sente",
        name: Text {
            en: "Sente",
            zh: "先手",
        },
    },
    SideInfo {
        key: "gote",
        name: Text {
            en: "Gote",
            zh: "后手",
        },
    },
];

/// The handicap giver (上手), who moves first, and the receiver (下手).
const HANDICAP_SIDES: [SideInfo; 2] = [
    SideInfo {
        key: "uwate",
        name: Text {
            en: "Uwate",
            zh: "上手",
        },
    },
    SideInfo {
        key: "shitate",
        name: Text {
            en: "Shitate",
            zh: "下手",
        },
    },
];

const BOARD: BoardInfo = BoardInfo {
    renderer: "shogi",
    files: 9,
    ranks: 9,
    data: None,
};

const MOVE_KINDS: &[MoveKind] = &[
    MoveKind::Move,
    // USI marks a promotion with `+` (`8h2b+`); declining is the bare move.
    MoveKind::Promotion { choices: &["+"] },
    MoveKind::Drop,
];

const NOTATIONS: Notations = Notations {
    coord: "usi",
    display: "japanese",
    alt: "western",
};

const RECORD: RecordFormat = RecordFormat {
    format: "kif",
    // KIF in UTF-8 is `.kifu` (Kakinoki's convention; `.kif` is Shift_JIS).
    extension: "kifu",
    media_type: "text/plain; charset=utf-8",
    game_tag: None,
    variant_tag: None,
    notations: &["japanese"],
};

/// The JSA's session rules, online: no fouls, a claim that does not hold
/// refused. 千日手, perpetual check and 詰み are the board's (the game's
/// status); the impasse is a claim.
fn jsa_session(_profile: crate::Profile) -> SessionRules {
    let a = |s: &str| Some(s.to_string());
    SessionRules {
        foul_limit: 0,
        false_claim_penalty_ms: 0,
        claim_penalty: ClaimPenalty::ChargeClaimant,
        repeated_offer_is_foul: false,
        // A false declaration loses under the CSA's tournament rules; qiju
        // refuses it under either profile (docs/shogi.md): a mistaken click
        // should not lose a game the board has not decided.
        false_claim_is_refused: true,
        articles: Articles {
            resignation: a("投了"),
            agreement: None,
            time_forfeit: a("時間切れ"),
            time_forfeit_draw: None,
            fouls: None,
            repeated_offer: None,
            false_claim: a("持将棋"),
            overstep: None,
        },
    }
}

/// Fairy-Stockfish's `Skill Level` (−20 … 20) for our levels 1–8.
fn skill(level: u8) -> i8 {
    const SKILL: [i8; 8] = [-10, -5, 0, 4, 8, 12, 16, 20];
    SKILL[usize::from(level.clamp(1, 8) - 1)]
}

fn fsf_options(level: u8) -> Vec<(String, String)> {
    vec![
        ("UCI_Variant".into(), "shogi".into()),
        ("Skill Level".into(), skill(level).to_string()),
    ]
}

fn analysis_options() -> Vec<(String, String)> {
    fsf_options(8)
}

/// Fairy-Stockfish speaks USI (SFEN positions, `7g7f` and `P*5e`) when it
/// is greeted with `usi`, so the moves and positions travel as qiju
/// stores them.
/// Byo-yomi (秒読み) as Japanese sites offer it: 10 s or 30 s a move from
/// the start, then main time with 30 s or 60 s periods.
const QUICK_PAIRINGS: &[&str] = &["0|10s", "0|30s", "3|30s", "10|30s", "15|60s", "30|60s"];

const COMPUTER: Computer = Computer::Uci {
    program: "fairy-stockfish",
    protocol: EngineProtocol::Usi,
    levels: 8,
    options: fsf_options,
    analysis_options,
};

/// Depth 10 takes Fairy-Stockfish 53 ms a position on average (worst
/// 105 ms) over the first 20 plies of a Yokofudori game on the development
/// machine, depth 12 173 ms and depth 14 521 ms (docs/shogi.md): a
/// 120-ply game is reviewed in about 6 s at depth 10. A rook up is about
/// 740 of its centipawns (sente with gote's rook in hand, two rooks'
/// difference, reads +1,484), so
/// the slope is lichess's scaled by 500/740, and a rook up reads as a
/// chess rook up does (0.72).
const ANALYSIS: Analysis = Analysis {
    depth: 10,
    win_chance_k: 0.003_682_08 * 500.0 / 740.0,
};

fn build_24(fen: &str) -> Result<Box<dyn Game>, GameError> {
    Ok(Box::new(ShogiGame::new(fen, ImpasseRule::Points24)?))
}

fn build_27(fen: &str) -> Result<Box<dyn Game>, GameError> {
    Ok(Box::new(ShogiGame::new(fen, ImpasseRule::Declaration27)?))
}

/// A pasted game: a KIF, KI2 or CSA record, a bare SFEN, or USI's
/// `position` command (`sfen … moves …`, `startpos moves …`).
fn read_record(text: &str) -> Result<ImportedGame, String> {
    let text = text.trim();
    let words: Vec<&str> = text.split_whitespace().collect();
    let words = match words.first() {
        Some(&"position") => &words[1..],
        _ => &words[..],
    };
    let usi_like = matches!(words.first(), Some(&"sfen" | &"startpos"))
        || (words.len() >= 3 && words[0].contains('/') && !text.contains('\n') && !text.contains('：'));
    if usi_like {
        let (start, rest) = match words.first() {
            Some(&"startpos") => ("startpos".to_string(), &words[1..]),
            Some(&"sfen") if words.len() >= 4 => (words[1..4].join(" "), &words[4..]),
            _ => {
                let n = words
                    .iter()
                    .position(|w| *w == "moves")
                    .unwrap_or(words.len())
                    .min(4);
                (words[..n].join(" "), &words[n..])
            }
        };
        let start = if rest.first().is_some_and(|w| w.parse::<u32>().is_ok()) {
            format!("{start} {}", rest[0])
        } else {
            start
        };
        let rest = rest.iter().skip_while(|w| **w != "moves").skip(1);
        let mut game = ShogiGame::new(&start, ImpasseRule::Points24).map_err(|e| e.to_string())?;
        let mut moves = Vec::new();
        for (i, m) in rest.enumerate() {
            game.play(m).map_err(|e| format!("move {}: {e}", i + 1))?;
            moves.push((*m).to_string());
        }
        return Ok(ImportedGame {
            initial_fen: game.initial_fen(),
            moves,
        });
    }
    let csa = text.lines().any(|l| {
        let l = l.trim();
        l == "PI" || l.starts_with("V2") || l.starts_with("P1") || l == "+" || l == "-"
    });
    let record = if csa {
        shogi::csa::read_csa(text)
    } else {
        shogi::kif::read_kif(text)
    }
    .map_err(|e| e.to_string())?;
    Ok(ImportedGame {
        moves: record.usi_moves(),
        initial_fen: record.initial_sfen,
    })
}

/// The word KIF closes a game with, from the ruling's reason.
fn closing_word(reason: &str, result: &str) -> &'static str {
    match reason {
        "resignation" => "投了",
        "checkmate" | "no_legal_move" => "詰み",
        "time_forfeit" => "切れ負け",
        "repetition" => "千日手",
        // The checker moved last: the side to move wins by its foul.
        "perpetual_check" => "反則勝ち",
        "impasse" | "impasse_points" => "持将棋",
        "impasse_declaration" => "入玉宣言",
        "aborted" | "no_show" | "double_no_show" => "中断",
        _ if result == "1/2-1/2" => "引き分け",
        _ => "終局",
    }
}

/// KIF as Japanese sites write it: headers (棋戦, 場所, 開始日時, 持ち時間),
/// 手合割 or the players under 先手/後手 (下手/上手 in a handicap game),
/// the moves, and the closing word with its summary line.
fn write_kif(v: &Variant, g: &GameRecord<'_>) -> Result<String, String> {
    let mut game = ShogiGame::new(g.initial_fen, ImpasseRule::Points24).map_err(|e| e.to_string())?;
    for (i, m) in g.moves.iter().enumerate() {
        game.play(m.coord).map_err(|e| format!("ply {}: {e}", i + 1))?;
    }
    let tag = |key: &str| g.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    // qiju's first side is sente (black in SFEN) in an even game and the
    // giver (gote, white) in a handicap game.
    let first = tag(v.sides[0].name.en);
    let second = tag(v.sides[1].name.en);
    let first_is_black = game.color_of(game::Side::First) == shogi::rsshogi::types::Color::BLACK;
    let (black, white) = if first_is_black {
        (first, second)
    } else {
        (second, first)
    };
    let mut headers = Vec::new();
    for (from, to) in [
        ("Event", "棋戦"),
        ("Site", "場所"),
        ("Date", "開始日時"),
        ("TimeControl", "持ち時間"),
    ] {
        if let Some(x) = tag(from) {
            headers.push((to.to_string(), x));
        }
    }
    let mut kif = shogi::kif::write_kif(&ShogiRecord {
        black,
        white,
        headers,
        initial_sfen: g.initial_fen.to_string(),
        moves: g
            .moves
            .iter()
            .map(|m| shogi::record::RecordedMove {
                usi: m.coord.to_string(),
                // KIF counts whole seconds, rounded down as the sites do.
                seconds: m.spent_ms.map(|ms| u32::try_from(ms / 1000).unwrap_or(u32::MAX)),
            })
            .collect(),
        end: None,
    });
    // The closing line and the summary, written here rather than by
    // `write_kif`, which credits the side to move with what happened (a
    // player may resign on the opponent's turn online).
    if let (Some(reason), false) = (tag("Termination"), g.result == "*") {
        let n = g.moves.len();
        let _ = writeln!(kif, "{:>4} {}", n + 1, closing_word(&reason, g.result));
        let names = if game.handicap().is_some() {
            ["上手", "下手"]
        } else {
            ["先手", "後手"]
        };
        let summary = match g.result {
            "1-0" => format!("まで{n}手で{}の勝ち", names[0]),
            "0-1" => format!("まで{n}手で{}の勝ち", names[1]),
            _ if reason == "repetition" => format!("まで{n}手で千日手"),
            _ if reason.starts_with("impasse") => format!("まで{n}手で持将棋"),
            _ if matches!(reason.as_str(), "aborted" | "no_show" | "double_no_show") => {
                format!("まで{n}手で中断")
            }
            _ => format!("まで{n}手で引き分け"),
        };
        let _ = writeln!(kif, "{summary}");
    }
    if let Some(words) = g.final_comment {
        let _ = writeln!(kif, "*{words}");
    }
    Ok(kif)
}

const fn even(id: &'static str, aliases: &'static [&'static str], rule: ImpasseRule) -> Variant {
    let declaration = matches!(rule, ImpasseRule::Declaration27);
    Variant {
        id,
        aliases,
        family: "shogi",
        name: if declaration {
            Text {
                en: "Shogi (27-point declaration)",
                zh: "将棋（27点宣言法）",
            }
        } else {
            Text {
                en: "Shogi",
                zh: "将棋",
            }
        },
        rules: if declaration {
            Text {
                en: "JSA rules; impasse by the CSA's 27-point declaration (入玉宣言法), online",
                zh: "日本将棋联盟规则；入玉按电脑将棋协会27点宣言法（网络对局）",
            }
        } else {
            Text {
                en: "JSA rules (日本将棋連盟): 千日手, perpetual check loses, impasse by the 24-point count",
                zh: "日本将棋联盟规则：千日手、连续王手判负、持将棋24点法",
            }
        },
        sides: EVEN_SIDES,
        board: BOARD,
        position_format: PositionFormat::Sfen,
        start: Start::Fixed { fen: shogi::STARTPOS },
        move_kinds: MOVE_KINDS,
        notations: NOTATIONS,
        record: RECORD,
        rating_pool: "shogi",
        titles: false,
        computer: COMPUTER,
        analysis: ANALYSIS,
        announcements: false,
        quick_pairings: QUICK_PAIRINGS,
        build: Build::Native(if declaration { build_27 } else { build_24 }),
        session_rules: jsa_session,
        write_record: |v, g, _| write_kif(v, g),
        read_record: |_, t| read_record(t),
    }
}

pub(crate) const STANDARD: Variant = even(
    "shogi/standard",
    &["shogi", "shogi/jsa", "将棋"],
    ImpasseRule::Points24,
);
pub(crate) const DECLARATION: Variant = even("shogi/declaration", &["shogi/27"], ImpasseRule::Declaration27);

/// A handicap game: the giver (上手) moves first from the handicap's start.
const fn handicap(
    id: &'static str,
    aliases: &'static [&'static str],
    name: Text,
    sfen: &'static str,
) -> Variant {
    Variant {
        id,
        aliases,
        family: "shogi",
        name,
        rules: Text {
            en: "JSA rules, handicap game (駒落ち): the giver (上手) moves first",
            zh: "日本将棋联盟规则，让子棋（驹落）：上手先走",
        },
        sides: HANDICAP_SIDES,
        board: BOARD,
        position_format: PositionFormat::Sfen,
        start: Start::Fixed { fen: sfen },
        move_kinds: MOVE_KINDS,
        notations: NOTATIONS,
        record: RECORD,
        // A handicap game's result is not an even game's: its own pool.
        rating_pool: "shogi-handicap",
        titles: false,
        computer: COMPUTER,
        analysis: ANALYSIS,
        announcements: false,
        quick_pairings: QUICK_PAIRINGS,
        build: Build::Native(build_24),
        session_rules: jsa_session,
        write_record: |v, g, _| write_kif(v, g),
        read_record: |_, t| read_record(t),
    }
}

macro_rules! handicaps {
    ($($name:ident: $h:ident, $id:literal, $ja:literal, $en:literal, $zh:literal, $sfen:literal;)*) => {
        $(pub(crate) const $name: Variant = handicap(
            $id,
            &[$ja],
            Text { en: $en, zh: $zh },
            $sfen,
        );)*
        /// Every handicap entry with the handicap it plays (checked by a test).
        #[cfg(test)]
        pub(crate) const HANDICAPS: &[(&str, Handicap)] = &[$(($id, Handicap::$h)),*];
    };
}

// The start positions are `shogi::Handicap::sfen`'s (a test checks them);
// they are spelt out here because a registry entry is a constant.
handicaps! {
    LANCE: Lance, "shogi/lance", "香落ち", "Shogi, lance handicap (香落ち)", "将棋·香落", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    BISHOP: Bishop, "shogi/bishop", "角落ち", "Shogi, bishop handicap (角落ち)", "将棋·角落", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    ROOK: Rook, "shogi/rook", "飛車落ち", "Shogi, rook handicap (飛車落ち)", "将棋·飞车落", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    ROOK_LANCE: RookLance, "shogi/rook-lance", "飛香落ち", "Shogi, rook and lance handicap (飛香落ち)", "将棋·飞香落", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    TWO_PIECES: TwoPieces, "shogi/two-pieces", "二枚落ち", "Shogi, two-piece handicap (二枚落ち)", "将棋·二枚落", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    FOUR_PIECES: FourPieces, "shogi/four-pieces", "四枚落ち", "Shogi, four-piece handicap (四枚落ち)", "将棋·四枚落", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    SIX_PIECES: SixPieces, "shogi/six-pieces", "六枚落ち", "Shogi, six-piece handicap (六枚落ち)", "将棋·六枚落", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    EIGHT_PIECES: EightPieces, "shogi/eight-pieces", "八枚落ち", "Shogi, eight-piece handicap (八枚落ち)", "将棋·八枚落", "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    TEN_PIECES: TenPieces, "shogi/ten-pieces", "十枚落ち", "Shogi, ten-piece handicap (十枚落ち)", "将棋·十枚落", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RecordMove;

    #[test]
    fn handicap_entries_start_from_the_rules_crates_positions_with_the_giver_first() {
        for (id, h) in HANDICAPS {
            let v = crate::get(Some(id)).unwrap();
            assert_eq!(v.start_fen(0), h.sfen(), "{id}");
            assert_eq!(crate::get(Some(h.japanese())).unwrap().id, *id);
            let g = v.new_game(None, 0).unwrap();
            assert_eq!(g.variant(), *id);
            assert_eq!(v.side_key(g.side_to_move()), "uwate");
            assert_eq!(v.rating_pool, "shogi-handicap");
        }
        assert_eq!(HANDICAPS.len(), Handicap::ALL.len());
    }

    #[test]
    fn a_rook_up_reads_as_a_rook_up_in_chess() {
        let shogi = crate::Score::Cp(740).win_chances(ANALYSIS.win_chance_k);
        let chess = crate::Score::Cp(500).win_chances(0.003_682_08);
        assert!((shogi - chess).abs() < 1e-9, "{shogi} {chess}");
    }

    #[test]
    fn levels_map_onto_fairy_stockfish_skill_in_order() {
        let skills: Vec<i8> = (1..=8).map(skill).collect();
        assert!(skills.windows(2).all(|w| w[0] < w[1]), "{skills:?}");
        assert_eq!(skills[7], 20);
        assert!(fsf_options(1).contains(&("UCI_Variant".into(), "shogi".into())));
    }

    #[test]
    fn records_are_kif_with_the_players_on_their_sides() {
        let v = crate::get(Some("shogi")).unwrap();
        let tags = vec![
            ("Event".to_string(), "qiju casual game".to_string()),
            ("Date".to_string(), "2025.01.02".to_string()),
            ("Sente".to_string(), "alice".to_string()),
            ("Gote".to_string(), "bob".to_string()),
            ("TimeControl".to_string(), "10|30s".to_string()),
            ("Termination".to_string(), "resignation".to_string()),
        ];
        let kif = v
            .write_record(&GameRecord {
                initial_fen: shogi::STARTPOS,
                moves: [
                    ("7g7f", 0),
                    ("3c3d", 5_400),
                    ("8h2b+", 12_000),
                    ("3a2b", 999),
                    ("B*4e", 61_500),
                ]
                .into_iter()
                .map(|(coord, spent)| RecordMove {
                    coord,
                    clock_ms: None,
                    spent_ms: Some(spent),
                })
                .collect(),
                tags,
                result: "1-0",
                final_comment: Some("Gote resigned"),
            })
            .unwrap();
        for line in [
            "棋戦：qiju casual game",
            "先手：alice",
            "後手：bob",
            "持ち時間：10|30s",
            "手合割：平手",
        ] {
            assert!(kif.contains(line), "{line} in\n{kif}");
        }
        assert!(kif.contains("２二角成(88)"), "{kif}");
        // Each move's own time and the mover's running total (消費時間).
        for (ply, played, time) in [
            (2, "３四歩(33)", "( 0:05/00:00:05)"),
            (3, "２二角成(88)", "( 0:12/00:00:12)"),
            (4, "同　銀(31)", "( 0:00/00:00:05)"),
            (5, "４五角打", "( 1:01/00:01:13)"),
        ] {
            let line = kif
                .lines()
                .find(|l| l.starts_with(&format!("{ply:>4} ")))
                .unwrap_or_else(|| panic!("ply {ply} in\n{kif}"));
            assert!(
                line.contains(played) && line.trim_end().ends_with(time),
                "ply {ply}: {line:?}"
            );
        }
        assert!(kif.contains("４五角打"), "{kif}");
        assert!(kif.contains("投了"), "{kif}");
        // Read back: the same moves.
        let back = v.read_record(&kif).unwrap();
        assert_eq!(back.moves, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);

        // A handicap game: the giver (first) is 上手, gote.
        let v = crate::get(Some("shogi/two-pieces")).unwrap();
        let kif = v
            .write_record(&GameRecord {
                initial_fen: v.start_fen(0).as_str(),
                moves: vec![RecordMove::bare("6a5b"), RecordMove::bare("7g7f")],
                tags: vec![
                    ("Uwate".to_string(), "teacher".to_string()),
                    ("Shitate".to_string(), "pupil".to_string()),
                ],
                result: "*",
                final_comment: None,
            })
            .unwrap();
        assert!(kif.contains("手合割：二枚落ち"), "{kif}");
        assert!(
            kif.contains("上手：teacher") && kif.contains("下手：pupil"),
            "{kif}"
        );
        let back = v.read_record(&kif).unwrap();
        assert_eq!(back.initial_fen, v.start_fen(0));
        assert_eq!(back.moves, ["6a5b", "7g7f"]);
    }

    #[test]
    fn pasted_positions_and_usi_lines_are_read() {
        let v = crate::get(Some("shogi")).unwrap();
        let g = v.read_record("position startpos moves 7g7f 3c3d").unwrap();
        assert_eq!(g.initial_fen, shogi::STARTPOS);
        assert_eq!(g.moves, ["7g7f", "3c3d"]);
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
        assert_eq!(v.read_record(sfen).unwrap().initial_fen, sfen);
        let g = v.read_record(&format!("sfen {sfen} moves 3c3d")).unwrap();
        assert_eq!(g.moves, ["3c3d"]);
        assert!(v.read_record("position startpos moves 7g7e").is_err());
        let csa = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
        assert_eq!(v.read_record(csa).unwrap().moves, ["7g7f", "3c3d"]);
        let err = v
            .read_record("手合割：平手\n手数----指手---------消費時間--\n   1 ７五歩(77)\n")
            .unwrap_err();
        assert!(err.starts_with("line 3"), "{err}");
    }
}
