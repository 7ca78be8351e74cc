//! Variants defined as data (`crates/variants`, docs/variants.md): the
//! shipped minixiangqi, manchu, janggi and shengji (升级象棋), Xiangqi with
//! each set of house rules (`xiangqi-dragon` …), and any file an operator
//! loads at start. One entry per file, built at run time from what the file says;
//! everything else is the same for all of them.
//!
//! - id `variants/NAME`, alias `NAME` (the name players know: `janggi`);
//! - sides Red and Black (`red`/`black`), as `VariantGame` names them;
//! - moves and records in ICCS coordinates (files from `a`, ranks from `0`),
//!   the pass as the royal square twice (`e1e1`); PGN with `[Variant]` and
//!   `[FEN]`;
//! - rated, in a pool of its own named after the variant (ratings are kept
//!   per pool name; no titles);
//! - the computer player and the analyser are the variant engine's one
//!   generic search (`variants::computer`: alpha-beta on values derived
//!   from the file's pieces), five levels, built in;
//! - board renderer `variants` (`web/assets/js/boards/variants.js`),
//!   which draws any size up to 16×16 from what [`drawing`] sends: the
//!   pieces with their glyphs (promoted forms ringed), the palace and the
//!   river where the file has them.
//!
//! The strings an entry needs for the whole run (`&'static str`, as the
//! built-in entries' are) are leaked once per variant when the table is
//! built at start: a few hundred bytes per variant, never freed, never
//! repeated.

use std::sync::Arc;

use game::{Game, GameError};
use session::{Articles, ClaimPenalty, SessionRules};

use crate::{
    Analysis, AnalysisRequest, BoardInfo, BoardPiece, Build, Computer, ComputerRequest, DataBoard,
    Evaluation, GameRecord, ImportedGame, MoveKind, Notations, PositionFormat, RecordFormat, Score, SideInfo,
    Start, Text, Variant,
};

/// The family (the first part of the id) of every data-defined variant.
pub(crate) const FAMILY: &str = "variants";

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

const NOTATIONS: Notations = Notations {
    coord: "iccs",
    display: "iccs",
    alt: "iccs",
};

/// Xiangqi's grid: these are Xiangqi's relatives.
const QUICK_PAIRINGS: &[&str] = &["1+0", "3+2", "5+3", "10+0", "10+5", "15+10", "30+0", "30+20"];

/// A review searches each position to depth 4 (a few milliseconds to a
/// few tenths of a second a position with the generic engine). Its values
/// are on the scale of `crates/engine`'s — a soldier at home about 100, a
/// rook about 1,000 — so the slope is Xiangqi's: half of lichess's.
const ANALYSIS: Analysis = Analysis {
    depth: 4,
    win_chance_k: 0.003_682_08 / 2.0,
};

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The entry of a data-defined variant.
pub(crate) fn entry(v: Arc<variants::Variant>) -> Variant {
    let name = leak(v.name().trim().to_ascii_lowercase());
    let (files, ranks) = v.size();
    let description = leak(v.description().to_owned());
    Variant {
        id: leak(format!("{FAMILY}/{name}")),
        aliases: Box::leak(Box::new([name])),
        family: FAMILY,
        name: Text { en: name, zh: name },
        rules: Text {
            en: description,
            zh: description,
        },
        sides: SIDES,
        board: BoardInfo {
            renderer: FAMILY,
            files,
            ranks,
            data: Some(Box::leak(Box::new(drawing(&v)))),
        },
        position_format: PositionFormat::Fen,
        start: Start::Fixed {
            fen: leak(v.start_fen().to_owned()),
        },
        // A variant with revivals puts pieces back from a reserve (`P@e3`);
        // one with flags (解将旗) has their steps (`~`, `~~`), moves of no
        // piece, which may leave the turn with the mover.
        move_kinds: match (v.revivals().is_empty(), v.flags().is_none()) {
            (true, true) => &[MoveKind::Move],
            (false, true) => &[MoveKind::Move, MoveKind::Drop],
            (true, false) => &[MoveKind::Move, MoveKind::Choice],
            (false, false) => &[MoveKind::Move, MoveKind::Drop, MoveKind::Choice],
        },
        notations: NOTATIONS,
        record: RecordFormat {
            format: "pgn",
            extension: "pgn",
            media_type: "application/x-chess-pgn; charset=utf-8",
            game_tag: None,
            variant_tag: Some(name),
            notations: &["iccs"],
        },
        rating_pool: name,
        titles: false,
        computer: Computer::BuiltIn {
            levels: variants::computer::Level::MAX.number(),
            choose: choose_move,
            analyse,
        },
        analysis: ANALYSIS,
        announcements: false,
        quick_pairings: QUICK_PAIRINGS,
        build: Build::Data(v),
        session_rules,
        write_record: write_pgn,
        read_record,
    }
}

/// What the board renderer draws: each piece type's code, name and
/// glyphs, the palace (the region `palace`) and the river (above the
/// region `own_half`, where it is whole ranks from the first side's edge).
fn drawing(v: &variants::Variant) -> DataBoard {
    let pieces = v
        .pieces()
        .iter()
        .map(|p| {
            let (code, promoted) = match p.promoted_from {
                Some(_) => (format!("+{}", p.letter), true),
                None => (p.letter.to_string(), false),
            };
            let glyphs = p
                .glyph
                .clone()
                .unwrap_or_else(|| [p.letter.to_ascii_uppercase().to_string(), p.letter.to_string()]);
            BoardPiece {
                code,
                name: p.name.clone(),
                glyphs,
                royal: p.royal,
                promoted,
            }
        })
        .collect();
    let palace = v
        .region("palace")
        .unwrap_or_default()
        .iter()
        .map(ToString::to_string)
        .collect();
    let (files, ranks) = v.size();
    let river = v.region("own_half").and_then(|half| {
        let top = half.iter().map(|s| s.rank()).max()?;
        let whole = usize::from(files) * (usize::from(top) + 1) == half.len();
        (whole && top + 1 < ranks).then_some(top)
    });
    let revived = v
        .pieces()
        .iter()
        .enumerate()
        .filter(|(i, _)| v.revivals().iter().any(|r| r.pieces.contains(*i)))
        .map(|(_, p)| p.letter.to_string())
        .collect();
    DataBoard {
        pieces,
        palace,
        river,
        revived,
        flag_ring: v.flags().map(|r| r.points),
    }
}

/// Online rules without a rule book's articles: no fouls, a false claim
/// and a repeated draw offer refused (as for chess online).
fn session_rules(_: crate::Profile) -> SessionRules {
    SessionRules {
        foul_limit: 0,
        false_claim_penalty_ms: 0,
        claim_penalty: ClaimPenalty::CreditOpponent,
        repeated_offer_is_foul: false,
        false_claim_is_refused: true,
        articles: Articles::default(),
    }
}

fn data(v: &Variant) -> Result<&Arc<variants::Variant>, String> {
    v.data()
        .ok_or_else(|| format!("{} is not a data-defined variant", v.id))
}

/// The position after `moves` from `fen`, and the keys of the positions
/// before it (the search scores a position that comes back as a draw).
fn replay(v: &Variant, fen: &str, moves: &[String]) -> Result<(variants::Position, Vec<u64>), String> {
    let mut pos = variants::Position::from_fen(data(v)?.clone(), fen).map_err(|e| e.to_string())?;
    let mut earlier = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        earlier.push(pos.key());
        pos.play_iccs(m).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok((pos, earlier))
}

/// The generic search at `req.level`, for at most `req.movetime`.
fn choose_move(req: &ComputerRequest<'_>) -> Result<String, String> {
    let level = variants::computer::Level::new(req.level)
        .ok_or_else(|| format!("no computer level {}", req.level))?;
    let (pos, earlier) = replay(req.variant, req.fen, req.moves)?;
    variants::computer::choose(&pos, &earlier, level, req.movetime)
        .map(|c| c.best.to_string())
        .ok_or_else(|| "the game is over".to_owned())
}

/// The generic search at full strength, to `req.depth` or for at most
/// `req.movetime`.
fn analyse(req: &AnalysisRequest<'_>) -> Result<Evaluation, String> {
    let (pos, earlier) = replay(req.variant, req.fen, req.moves)?;
    let c = variants::computer::analyse(&pos, &earlier, req.depth, req.movetime)
        .ok_or_else(|| "the game is over".to_owned())?;
    Ok(Evaluation {
        score: match c.score {
            variants::computer::Score::Cp(cp) => Score::Cp(cp),
            variants::computer::Score::Mate(n) => Score::Mate(n),
        },
        best: Some(c.best.to_string()),
        pv: c.pv.iter().map(ToString::to_string).collect(),
        depth: c.depth,
        nodes: c.nodes,
    })
}

/// PGN: the game's tags, `[Variant]`, `[FEN]`, then the moves in ICCS
/// coordinates, replayed to check them, with the ending's words.
fn write_pgn(v: &Variant, g: &GameRecord<'_>, _notation: &str) -> Result<String, String> {
    let mut game =
        variants::VariantGame::from_fen(data(v)?.clone(), g.initial_fen).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for (name, value) in &g.tags {
        out.push_str(&format!("[{name} \"{}\"]\n", value.replace('"', "'")));
    }
    out.push_str(&format!(
        "[Variant \"{}\"]\n",
        v.record.variant_tag.unwrap_or(v.id)
    ));
    out.push_str(&format!("[FEN \"{}\"]\n", g.initial_fen));
    out.push_str(&format!("[Result \"{}\"]\n\n", g.result));
    // Numbered by the position's own move number, before each turn: a
    // turn of two moves (杀惊遁马) or a flag's step and its answer (解将旗)
    // are one side's moves in a row under one number.
    let mut words = Vec::new();
    let mut last = None;
    for (i, m) in g.moves.iter().enumerate() {
        let side = game.side_to_move();
        if last != Some(side) {
            let fen = game.fen();
            let n = fen.rsplit(' ').next().unwrap_or("1");
            match side {
                game::Side::First => words.push(format!("{n}.")),
                game::Side::Second if i == 0 => words.push(format!("{n}...")),
                game::Side::Second => {}
            }
        }
        last = Some(side);
        game.play(m.coord).map_err(|e| format!("move {}: {e}", i + 1))?;
        words.push(m.coord.to_owned());
    }
    if let Some(c) = g.final_comment {
        words.push(format!("{{{}}}", c.replace('}', ")")));
    }
    words.push(g.result.to_owned());
    out.push_str(&words.join(" "));
    out.push('\n');
    Ok(out)
}

/// A bare FEN, or one game of PGN as `write_pgn` writes it (its `[FEN]`
/// tag, moves in ICCS; numbers, comments and the result skipped).
fn read_record(v: &Variant, text: &str) -> Result<ImportedGame, String> {
    let variant = data(v)?;
    let text = text.trim();
    if !text.starts_with('[') {
        if let Ok(g) = variants::VariantGame::from_fen(variant.clone(), text) {
            return Ok(ImportedGame {
                initial_fen: g.fen(),
                moves: Vec::new(),
            });
        }
    }
    let mut fen = variant.start_fen().to_owned();
    let mut body = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[') {
            if let Some(value) = tag.strip_prefix("FEN \"").and_then(|t| t.strip_suffix("\"]")) {
                fen = value.to_owned();
            }
        } else {
            body.push_str(line);
            body.push(' ');
        }
    }
    let mut game =
        variants::VariantGame::from_fen(variant.clone(), &fen).map_err(|e: GameError| e.to_string())?;
    let mut moves = Vec::new();
    let mut in_comment = false;
    for word in body.split_whitespace() {
        if in_comment || word.starts_with('{') {
            in_comment = !word.ends_with('}');
            continue;
        }
        if word.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
            continue;
        }
        game.play(word)
            .map_err(|e| format!("move {}: {e}", moves.len() + 1))?;
        moves.push(word.to_owned());
    }
    Ok(ImportedGame {
        initial_fen: game.initial_fen(),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use crate::{get, install, Computer, GameRecord, MoveKind, RecordMove, RegistryError};
    use game::Side;

    #[test]
    fn shipped_variants_are_entries_with_their_names() {
        for (name, files) in [("minixiangqi", 7), ("manchu", 9), ("janggi", 9), ("shengji", 9)] {
            let v = get(Some(name)).unwrap();
            assert_eq!(v.id, format!("variants/{name}"));
            assert_eq!(v.board.files, files);
            assert_eq!(v.rating_pool, name);
            let g = v.new_game(None, 0).unwrap();
            assert_eq!(g.variant(), v.id);
            assert_eq!(g.side_to_move(), Side::First);
        }
        // Janggi's pass is a move like any other.
        let g = get(Some("janggi")).unwrap().new_game(None, 0).unwrap();
        assert!(g.legal_moves().contains(&"e1e1".to_owned()));
        // Standard Xiangqi stays on its own crate.
        assert!(get(Some("xiangqi")).unwrap().data().is_none());
        // The table is built: a late install is refused.
        assert_eq!(install(Vec::new()), Err(RegistryError::AlreadyBuilt));
    }

    /// Every data variant has the built-in computer: it answers a legal
    /// move at each level within its time, and the analyser finds a mate.
    #[test]
    fn every_data_variant_has_the_generic_computer() {
        let data: Vec<_> = crate::all().iter().filter(|v| v.data().is_some()).collect();
        assert!(data.len() >= 4);
        for v in data {
            let crate::Computer::BuiltIn {
                choose,
                analyse,
                levels,
            } = v.computer
            else {
                panic!("{} has no built-in computer", v.id)
            };
            assert_eq!(levels, 5, "{}", v.id);
            let start = v.start_fen(0);
            let mut game = v.new_game(None, 0).unwrap();
            let mut moves = Vec::new();
            for level in 1..=levels {
                let started = std::time::Instant::now();
                let m = choose(&crate::ComputerRequest {
                    variant: v,
                    level,
                    fen: &start,
                    moves: &moves,
                    movetime: std::time::Duration::from_millis(100),
                })
                .unwrap();
                assert!(
                    started.elapsed() < std::time::Duration::from_millis(400),
                    "{}",
                    v.id
                );
                game.play(&m).unwrap_or_else(|e| panic!("{}: {m}: {e}", v.id));
                moves.push(m);
            }
            assert!(choose(&crate::ComputerRequest {
                variant: v,
                level: levels + 1,
                fen: &start,
                moves: &[],
                movetime: std::time::Duration::from_millis(100),
            })
            .is_err());
            let e = analyse(&crate::AnalysisRequest {
                variant: v,
                fen: &start,
                moves: &moves,
                depth: 2,
                movetime: std::time::Duration::from_secs(2),
            })
            .unwrap();
            assert!(
                e.best.is_some() && e.depth >= 1 && e.pv.first() == e.best.as_ref(),
                "{e:?}"
            );
        }
        // The analyser sees 升级象棋's mate: the rook closes the d file.
        let shengji = get(Some("shengji")).unwrap();
        let Computer::BuiltIn { analyse, .. } = shengji.computer else {
            unreachable!()
        };
        let e = analyse(&crate::AnalysisRequest {
            variant: shengji,
            fen: "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            moves: &[],
            depth: 3,
            movetime: std::time::Duration::from_secs(5),
        })
        .unwrap();
        assert_eq!(e.score, crate::Score::Mate(1), "{e:?}");
    }

    /// The renderer's data: 升级象棋's promoted forms with their own
    /// glyphs, the palace and the river; Janggi's palace and no river;
    /// minixiangqi's letters where the file gives no glyph … (all give
    /// them: a file without is made here).
    #[test]
    fn the_board_is_described_for_the_renderer() {
        let shengji = get(Some("shengji")).unwrap();
        let json = serde_json::to_value(shengji).unwrap();
        let board = &json["board"];
        assert_eq!(board["renderer"], "variants");
        assert_eq!(board["river"], 4);
        assert_eq!(
            board["palace"],
            serde_json::json!(["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"])
        );
        let pieces = board["pieces"].as_array().unwrap();
        let senior = pieces.iter().find(|p| p["code"] == "+p").unwrap();
        assert_eq!(senior["glyphs"], serde_json::json!(["上", "上"]));
        assert_eq!(senior["promoted"], true);
        let pawn = pieces.iter().find(|p| p["code"] == "p").unwrap();
        assert_eq!(pawn["glyphs"], serde_json::json!(["兵", "卒"]));
        assert_eq!(pawn["promoted"], false);
        assert!(pieces.iter().any(|p| p["royal"] == true && p["code"] == "k"));

        let janggi = serde_json::to_value(get(Some("janggi")).unwrap()).unwrap();
        assert!(janggi["board"]["river"].is_null());
        assert_eq!(janggi["board"]["palace"].as_array().unwrap().len(), 9);

        // No glyphs in the file: the FEN letters, upper-case for the first side.
        let bare = variants::MINIXIANGQI_TOML
            .lines()
            .filter(|l| !l.starts_with("glyph"))
            .collect::<Vec<_>>()
            .join("\n");
        let v = variants::Variant::from_toml(&bare).unwrap();
        let d = super::drawing(&v);
        let rook = d.pieces.iter().find(|p| p.code == "r").unwrap();
        assert_eq!(rook.glyphs, ["R".to_owned(), "r".to_owned()]);
        assert_eq!(d.river, None);
        // The built-in games send nothing of the kind.
        let xq = serde_json::to_value(get(Some("xiangqi")).unwrap()).unwrap();
        assert!(xq["board"].get("pieces").is_none());
    }

    /// Xiangqi with house rules: an entry per set, its rules on (龙战士 and
    /// 任务兵 fire without cannons and rooks), off in the others.
    #[test]
    fn house_rule_sets_are_entries_with_their_rules() {
        let fen = "4k4/9/9/9/9/9/9/3A5/9/3K5 w - - 0 1";
        for (name, dragon) in [("xiangqi-dragon-mission", true), ("xiangqi-mission", false)] {
            let v = get(Some(name)).unwrap();
            assert_eq!(v.rating_pool, name);
            assert!(v.computer_levels() > 0);
            assert_eq!(
                v.data()
                    .unwrap()
                    .house_rules()
                    .contains(&"dragon_warrior".to_owned()),
                dragon
            );
            let g = v.new_game(Some(fen), 0).unwrap();
            assert_eq!(g.legal_moves().contains(&"d2c3".to_owned()), dragon, "{name}");
        }
        let v = get(Some("xiangqi-royal")).unwrap();
        assert!(v.rules.en.contains("royal_advisor"), "{}", v.rules.en);
        // 杀惊遁马: Black moves twice after the opening cannon takes a
        // horse, where it is on; 还魂卒's entries say they drop.
        for (name, twice, drops) in [
            ("xiangqi-horse-revival", true, true),
            ("xiangqi-horse", true, false),
            ("xiangqi-revival", false, true),
        ] {
            let v = get(Some(name)).unwrap();
            let mut g = v.new_game(None, 0).unwrap();
            g.play("h2h9").unwrap();
            g.play("b9c7").unwrap();
            assert_eq!(g.side_to_move() == Side::Second, twice, "{name}");
            assert_eq!(
                v.move_kinds.iter().any(|k| matches!(k, MoveKind::Drop)),
                drops,
                "{name}"
            );
        }
        // 宫廷炮, 破河象, 宫策略 and 解将旗 alone, and the eight that go
        // together: 宫廷炮's king may face the other over its cannon.
        let fen = "9/4k4/9/9/9/9/9/9/3K5/4C4 w - - 0 1";
        for (name, rules, palace_cannon, flags) in [
            ("xiangqi-cannon", 1, true, false),
            ("xiangqi-elephant", 1, false, false),
            ("xiangqi-strategy", 1, false, false),
            ("xiangqi-flag", 1, false, true),
            ("xiangqi-house", 8, true, true),
        ] {
            let v = get(Some(name)).unwrap();
            assert_eq!(v.data().unwrap().house_rules().len(), rules, "{name}");
            assert_eq!(v.new_game(None, 0).unwrap().legal_moves().len(), 44, "{name}");
            let g = v.new_game(Some(fen), 0).unwrap();
            assert_eq!(
                g.legal_moves().contains(&"d1e1".to_owned()),
                palace_cannon,
                "{name}"
            );
            let choice = v.move_kinds.iter().any(|k| matches!(k, MoveKind::Choice));
            assert_eq!(choice, flags, "{name}");
            let board = serde_json::to_value(v).unwrap()["board"]["flag_ring"].clone();
            assert_eq!(board.as_u64().is_some(), flags, "{name}: {board}");
        }
    }

    /// A record of 杀惊遁马's two black moves and of 解将旗's step: one
    /// number a turn, and it reads back.
    #[test]
    fn a_record_of_house_rules_numbers_turns_and_round_trips() {
        let v = get(Some("xiangqi-house")).unwrap();
        let moves = ["h2h9", "b9c7", "i9h9", "b0c2"];
        let record = GameRecord {
            initial_fen: &v.start_fen(0),
            moves: moves.iter().map(|m| RecordMove::bare(m)).collect(),
            tags: Vec::new(),
            result: "*",
            final_comment: None,
        };
        let pgn = v.write_record(&record).unwrap();
        assert!(pgn.contains("1. h2h9 b9c7 i9h9 2. b0c2 *"), "{pgn}");
        let back = v.read_record(&pgn).unwrap();
        assert_eq!(back.moves, moves);
    }

    #[test]
    fn a_janggi_record_round_trips() {
        let v = get(Some("janggi")).unwrap();
        let moves = ["e1e1", "e8e8"];
        let record = GameRecord {
            initial_fen: &v.start_fen(0),
            moves: moves.iter().map(|m| RecordMove::bare(m)).collect(),
            tags: vec![("Event".into(), "test".into())],
            result: "0-1",
            final_comment: Some("both sides passed"),
        };
        let pgn = v.write_record(&record).unwrap();
        assert!(
            pgn.contains("[Variant \"janggi\"]") && pgn.contains("1. e1e1 e8e8"),
            "{pgn}"
        );
        let back = v.read_record(&pgn).unwrap();
        assert_eq!(back.moves, moves);
        assert!(v.read_record("1. e1e5").is_err());
    }

    #[test]
    fn duplicate_and_bad_names_are_refused() {
        let janggi = variants::Variant::from_toml(variants::JANGGI_TOML).unwrap();
        assert_eq!(
            crate::build_table(vec![janggi]).map(|_| ()),
            Err(RegistryError::Duplicate {
                name: "janggi".into()
            })
        );
        let xiangqi = variants::Variant::from_toml(variants::XIANGQI_TOML).unwrap();
        assert_eq!(
            crate::build_table(vec![xiangqi]).map(|_| ()),
            Err(RegistryError::Duplicate {
                name: "xiangqi".into()
            })
        );
        let spaced = variants::Variant::from_toml(
            &variants::MINIXIANGQI_TOML.replace("name = \"minixiangqi\"", "name = \"mini xiangqi\""),
        )
        .unwrap();
        assert_eq!(
            crate::build_table(vec![spaced]).map(|_| ()),
            Err(RegistryError::BadName {
                name: "mini xiangqi".into()
            })
        );
    }
}
