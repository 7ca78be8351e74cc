//! The house rules of seed 004 (象棋降和偏方) as switches on Xiangqi's file
//! (`data/xiangqi.toml`): each fires where the seed says and not
//! elsewhere, is absent unless switched on, and 龙战士 refuses 王者士.
//! docs/variants.md quotes the seed next to each reading.

use std::sync::Arc;

use variants::{Position, Variant, VariantError, XIANGQI_TOML};

/// Xiangqi with the house rules `on` switched on.
fn xiangqi_with(on: &[&str]) -> Arc<Variant> {
    let list: Vec<String> = on.iter().map(|r| format!("\"{r}\"")).collect();
    let text = XIANGQI_TOML.replace(
        "house_rules = []",
        &format!("house_rules = [{}]", list.join(", ")),
    );
    Arc::new(Variant::from_toml(&text).unwrap())
}

fn legal(v: &Arc<Variant>, fen: &str, mv: &str) -> bool {
    let pos = Position::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    pos.legal_moves().iter().any(|m| m.to_string() == mv)
}

fn in_check(v: &Arc<Variant>, fen: &str) -> bool {
    Position::from_fen(v.clone(), fen).unwrap().is_check()
}

/// 龙战士: once its side has no cannon, an advisor steps one point
/// diagonally anywhere on the board, moving and capturing.
#[test]
fn dragon_warrior_fires_only_without_cannons() {
    let on = xiangqi_with(&["dragon_warrior"]);
    let off = xiangqi_with(&[]);
    // Red's advisor on d2, the palace's corner: c3 is outside the palace.
    let no_cannon = "4k4/9/9/9/9/9/9/3A5/9/3K5 w - - 0 1";
    let cannon = "4k4/9/9/9/9/9/9/3A5/9/C2K5 w - - 0 1";
    assert!(legal(&on, no_cannon, "d2c3"), "fires: no red cannon");
    assert!(!legal(&on, cannon, "d2c3"), "not while red has a cannon");
    assert!(!legal(&off, no_cannon, "d2c3"), "not when switched off");
    // Still one point, and diagonally only.
    assert!(!legal(&on, no_cannon, "d2d3") && !legal(&on, no_cannon, "d2b4"));
    // Black's cannon does not count for red's advisor.
    assert!(legal(&on, "4k4/9/9/9/9/9/9/3A5/9/c2K5 w - - 0 1", "d2c3"));

    // It captures, so it gives check: red's dragon warrior on d8 beside
    // black's king on e9.
    assert!(in_check(&on, "4k4/3A5/9/9/9/9/9/9/9/3K5 b - - 0 1"));
    assert!(!in_check(&on, "4k4/3A5/9/9/9/9/9/9/9/C2K5 b - - 0 1"));
    assert!(!in_check(&off, "4k4/3A5/9/9/9/9/9/9/9/3K5 b - - 0 1"));
    // Taking red's last cannon would make the advisor on d8 a dragon
    // warrior attacking black's king: black may not (its king would stand
    // in check); without the house rule it may.
    let fen = "4k4/3A5/9/9/9/9/9/9/r8/C2K5 b - - 0 1";
    assert!(!legal(&on, fen, "a1a0"));
    assert!(legal(&off, fen, "a1a0"));
}

/// 任务兵: once its side has no rook, a pawn inside the enemy's palace may
/// step back, staying inside it.
#[test]
fn mission_pawn_fires_only_without_rooks_inside_the_palace() {
    let on = xiangqi_with(&["mission_pawn"]);
    let off = xiangqi_with(&[]);
    let no_rook = "5k3/4P4/9/9/9/9/9/9/9/3K5 w - - 0 1";
    assert!(legal(&on, no_rook, "e8e7"), "fires: back inside the palace");
    assert!(
        !legal(&on, "5k3/4P4/9/9/9/9/9/9/9/R2K5 w - - 0 1", "e8e7"),
        "not while red has a rook"
    );
    assert!(!legal(&off, no_rook, "e8e7"), "not when switched off");
    // Never back out of the palace, nor back outside it.
    assert!(!legal(&on, "5k3/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1", "e7e6"));
    assert!(!legal(&on, "5k3/9/9/P8/9/9/9/9/9/3K5 w - - 0 1", "a6a5"));
    // Black's mission pawn, mirrored: inside red's palace at e1, back to e2.
    assert!(legal(&on, "3k5/9/9/9/9/9/9/9/4p4/5K3 b - - 0 1", "e1e2"));
}

/// Switched off, a house rule's movements do not exist: the start
/// position's perft is Xiangqi's; switched on they change nothing at the
/// start (every side has its cannons and rooks).
#[test]
fn switched_off_or_idle_house_rules_change_nothing() {
    for on in [
        &[][..],
        &["dragon_warrior", "mission_pawn"][..],
        &["royal_advisor", "mission_pawn"][..],
        // No pawn is taken in two plies, so no revival by the third.
        &["reviving_pawn", "dragon_warrior"][..],
        &["palace_cannon", "river_breaking_elephant", "royal_advisor"][..],
        &["palace_strategy", "reviving_pawn", "mission_pawn"][..],
    ] {
        let mut pos = Position::start(xiangqi_with(on));
        assert_eq!(variants::perft(&mut pos, 3), 79_666, "{on:?}");
    }
    // 解将旗 adds one move (the flag's step) exactly where the side to move
    // is in check: perft(3) is Xiangqi's and one more per checked position
    // two plies from the start.
    let mut plain = Position::start(xiangqi_with(&[]));
    let mut checked = 0;
    for a in plain.legal_moves() {
        let ua = plain.play_unchecked(a);
        for b in plain.legal_moves() {
            let ub = plain.play_unchecked(b);
            checked += u64::from(plain.is_check());
            plain.undo(b, ub);
        }
        plain.undo(a, ua);
    }
    assert!(checked > 0);
    let mut flags = Position::start(xiangqi_with(&["check_flag"]));
    assert_eq!(variants::perft(&mut flags, 3), 79_666 + checked);
    assert_eq!(
        xiangqi_with(&["dragon_warrior", "mission_pawn"]).house_rules(),
        ["dragon_warrior", "mission_pawn"]
    );
}

#[test]
fn house_rules_are_refused_where_the_seed_refuses_them() {
    // 龙战士 “不能与王者士同用”.
    let both = XIANGQI_TOML.replace(
        "house_rules = []",
        "house_rules = [\"dragon_warrior\", \"royal_advisor\"]",
    );
    let err = Variant::from_toml(&both).unwrap_err();
    assert!(
        matches!(&err, VariantError::Invalid { reason, .. } if reason.contains("may not be switched on together")),
        "{err}"
    );
    // A house rule no movement belongs to.
    let unknown = XIANGQI_TOML.replace("house_rules = []", "house_rules = [\"dargon_warrior\"]");
    let err = Variant::from_toml(&unknown).unwrap_err();
    assert!(err.to_string().contains("belongs to it"), "{err}");
}

/// 王者士: once its side has no cannon, an advisor leaves its palace from
/// a corner point and steps one point in any direction outside it; it
/// comes back in only onto a corner point, and inside keeps to the lines.
#[test]
fn royal_advisor_fires_only_without_cannons() {
    let on = xiangqi_with(&["royal_advisor"]);
    let off = xiangqi_with(&[]);
    // Red's advisor on the corner d2: out to c2, c3 and d3.
    let corner = "4k4/9/9/9/9/9/9/3A5/9/3K5 w - - 0 1";
    for out in ["d2c2", "d2c3", "d2d3", "d2c1"] {
        assert!(legal(&on, corner, out), "{out}");
        assert!(!legal(&off, corner, out), "{out} switched off");
        assert!(
            !legal(&on, "4k4/9/9/9/9/9/9/3A5/9/C2K5 w - - 0 1", out),
            "{out} with a cannon"
        );
    }
    // Inside the palace only along its lines: d2 to e1, not to e2 or d1.
    assert!(legal(&on, corner, "d2e1"));
    assert!(!legal(&on, corner, "d2e2") && !legal(&on, corner, "d2d1"));
    // Outside, any of the eight neighbours; back in only on a corner
    // point: from c1 to d0 or d2 (corners), not to d1.
    let outside = "4k4/9/9/9/9/9/9/9/2A6/3K5 w - - 0 1";
    for mv in ["c1d2", "c1b1", "c1b0", "c1c2"] {
        assert!(legal(&on, outside, mv), "{mv}");
    }
    assert!(!legal(&on, outside, "c1d1"));
    // In the enemy's palace too (it is outside its own): on e8, beside
    // black's king on e9, it gives check.
    assert!(in_check(&on, "4k4/4A4/9/9/9/9/9/9/9/3K5 b - - 0 1"));
    assert!(!in_check(&off, "4k4/4A4/9/9/9/9/9/9/9/3K5 b - - 0 1"));
}

/// Plays `moves` from `fen`, each of which must be legal.
fn after(v: &Arc<Variant>, fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(v.clone(), fen).unwrap();
    for m in moves {
        pos.play_iccs(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", pos.to_fen()));
    }
    pos
}

fn has(pos: &Position, mv: &str) -> bool {
    pos.legal_moves().iter().any(|m| m.to_string() == mv)
}

/// 还魂卒: a captured pawn goes to its owner's reserve; right after a
/// capture of its own (and only then: “（仅限）下一步”) a side may put one
/// back on an empty start point of its pawns, as its move.
#[test]
fn reviving_pawn_fires_only_right_after_a_capture() {
    let on = xiangqi_with(&["reviving_pawn"]);
    let off = xiangqi_with(&[]);
    // Red has a pawn in its reserve; its rook on a1 may take the black
    // pawn on a5; Red's own pawn stands on c3.
    let fen = "3k5/9/9/9/p8/9/2P6/9/R8/4K4[P] w - - 0 1";
    let captured = after(&on, fen, &["a1a5", "d9d8"]);
    assert!(captured.to_fen().contains(" w V - "), "{}", captured.to_fen());
    for drop in ["P@a3", "P@e3", "P@g3", "P@i3"] {
        assert!(has(&captured, drop), "{drop} fires");
    }
    assert!(!has(&captured, "P@c3"), "not onto an occupied start point");
    assert!(
        !has(&captured, "P@e4") && !has(&captured, "P@b3"),
        "only onto start points"
    );
    // The drop is the move: Black to move, Red's reserve empty (Black's
    // pawn taken on a5 is in Black's), the right spent.
    let mut revived = captured.clone();
    revived.play_iccs("P@e3").unwrap();
    assert_eq!(revived.to_fen(), "9/3k5/9/9/R8/9/2P1P4/9/9/4K4[p] b - - 2 2");
    // Not without a capture just before …
    assert!(!has(&after(&on, fen, &["a1b1", "d9d8"]), "P@e3"), "no capture");
    // … nor a move later: the right lapses whether used or not.
    let lapsed = after(&on, fen, &["a1a5", "d9d8", "a5a6", "d8d9"]);
    assert!(!has(&lapsed, "P@e3"), "lapsed");
    // Nor with an empty reserve.
    let none = after(&on, "3k5/9/9/9/p8/9/2P6/9/R8/4K4[] w - - 0 1", &["a1a5", "d9d8"]);
    assert!(!none.legal_moves().iter().any(|m| m.is_drop()));
    // A captured pawn goes to its owner's reserve (Black's `p`), and
    // Black's capture gives Black the right.
    let taken = after(&on, "3k5/9/9/9/9/9/9/r1P6/9/4K4[] b - - 0 1", &["a2c2"]);
    assert_eq!(taken.to_fen(), "3k5/9/9/9/9/9/9/2r6/9/4K4[P] w v - 0 2");
    let black = after(
        &on,
        "3k5/9/9/9/9/9/9/9/p8/R3K4[p] w - - 0 1",
        &["a0a1", "d9d8", "e0f0"],
    );
    assert!(!has(&black, "P@e6"), "Black has no right: Red captured");
    let black = after(
        &on,
        "3k5/9/9/9/9/9/9/1r7/1P7/R3K4[p] b - - 0 1",
        &["b2b1", "a0a1"],
    );
    assert!(black.to_fen().contains("[Pp] b v"), "{}", black.to_fen());
    assert!(
        has(&black, "P@e6") && has(&black, "P@a6") && !has(&black, "P@e3"),
        "Black's own start points"
    );
    // Switched off: no reserve, and a FEN giving one is refused.
    assert!(Position::from_fen(off.clone(), fen).is_err());
    let plain = after(&off, "3k5/9/9/9/p8/9/2P6/9/R8/4K4 w - - 0 1", &["a1a5", "d9d8"]);
    assert!(!plain.legal_moves().iter().any(|m| m.is_drop()));
    assert!(plain.to_fen().contains(" w - - "));
}

/// 杀惊遁马: Red's first move a cannon taking a horse (杀惊) earns Black a
/// turn of two moves, a horse first (遁马), then another piece; another
/// first move earns nothing, and Black may answer with one move.
#[test]
fn fleeing_horse_fires_only_after_the_opening_cannon_takes_a_horse() {
    let on = xiangqi_with(&["fleeing_horse"]);
    let off = xiangqi_with(&[]);
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let shot = after(&on, start, &["h2h9"]);
    assert!(shot.to_fen().ends_with(" b d - 0 1"), "{}", shot.to_fen());
    // 遁马: the horse moves and Black moves again …
    let fled = after(&on, start, &["h2h9", "b9c7"]);
    assert_eq!(fled.turn(), variants::Side::Second);
    assert!(fled.to_fen().ends_with(" b s - 1 1"), "{}", fled.to_fen());
    // … with another piece: the horse stays, the rook takes the cannon.
    assert!(!fled.legal_moves().iter().any(|m| m.from.to_string() == "c7"));
    let answered = after(&on, start, &["h2h9", "b9c7", "i9h9"]);
    assert_eq!(answered.turn(), variants::Side::First);
    assert!(answered.to_fen().ends_with(" w - - 0 2"), "{}", answered.to_fen());
    // Black may answer with one move of another piece: the turn passes.
    let once = after(&on, start, &["h2h9", "i9h9"]);
    assert_eq!(once.turn(), variants::Side::First);
    // Not fired: another first move, or a cannon taking a horse later.
    let quiet = after(&on, start, &["h2e2", "h9g7"]);
    assert_eq!(quiet.turn(), variants::Side::First);
    let later = after(&on, &start.replace(" 0 1", " 0 3"), &["h2h9", "b9c7"]);
    assert_eq!(later.turn(), variants::Side::First, "only the game's first move");
    // A horse move that checks ends the turn (a check must be answered).
    let fen = "3k5/9/9/9/9/9/1n7/9/9/4K4 b d - 0 5";
    assert_eq!(after(&on, fen, &["b3c1"]).turn(), variants::Side::First);
    assert_eq!(after(&on, fen, &["b3a5"]).turn(), variants::Side::Second);
    // Switched off: one move each, and a FEN owing two is refused.
    assert_eq!(
        after(&off, start, &["h2h9", "b9c7"]).turn(),
        variants::Side::First
    );
    assert!(Position::from_fen(off, fen).is_err());
}

/// Drops and turns of two moves are undone exactly: on random games with
/// the house rules that add moves (还魂卒, 杀惊遁马, 解将旗) and two
/// conditional powers, a move taken back restores
/// the FEN and the hash, the FEN reads back, and the hash kept move by
/// move is the one read from the FEN. Half the games open with 杀惊.
#[test]
fn revivals_and_double_moves_play_and_undo_exactly() {
    let v = xiangqi_with(&[
        "fleeing_horse",
        "reviving_pawn",
        "dragon_warrior",
        "mission_pawn",
        "check_flag",
    ]);
    let mut seed = 11u64;
    let mut next = || {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^ (z >> 31)
    };
    let (mut drops, mut doubles, mut flags) = (0, 0, 0);
    for game in 0..60 {
        let mut pos = Position::start(v.clone());
        // 杀惊 in half the games, 遁马 in half of those.
        let opening: &[&str] = match game % 4 {
            0 => &["h2h9", "b9c7"],
            1 => &["h2h9"],
            _ => &[],
        };
        for ply in 0..200 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Captures and drops first, so that reserves fill and empty.
            let pick = legal
                .iter()
                .copied()
                .filter(|m| m.is_drop() || pos.piece_at(m.to).is_some())
                .collect::<Vec<_>>();
            let pool = if !pick.is_empty() && next() % 3 == 0 {
                &pick
            } else {
                &legal
            };
            let m = match opening.get(ply) {
                Some(m) => variants::Move::parse(m).unwrap(),
                None => pool[(next() % pool.len() as u64) as usize],
            };
            assert!(legal.contains(&m), "{m}");
            let fen = pos.to_fen();
            assert_eq!(Position::from_fen(v.clone(), &fen).unwrap().to_fen(), fen);
            let key = pos.key();
            let undo = pos.play_unchecked(m);
            pos.undo(m, undo);
            assert_eq!((pos.to_fen(), pos.key()), (fen.clone(), key), "{m}");
            let mover = pos.turn();
            pos.play_unchecked(m);
            drops += usize::from(m.is_drop());
            flags += usize::from(m.flag > 0);
            doubles += usize::from(pos.turn() == mover);
            let again = Position::from_fen(v.clone(), &pos.to_fen()).unwrap();
            assert_eq!(again.key(), pos.key(), "{}", pos.to_fen());
            assert_eq!(again.legal_moves(), pos.legal_moves(), "{}", pos.to_fen());
        }
    }
    assert!(
        drops > 20 && doubles >= 15 && flags > 20,
        "{drops} drops, {doubles} turns of two moves, {flags} flags' moves"
    );
}

/// 宫廷炮: a cannon behind its own king strikes the other king over it,
/// the kings facing (“己方将(帅)可以主动飞将对方将”); that check is not
/// answered by moving the king (so a lone cannon mates a lone king), and a
/// side that takes the cannon leaves the other to break the facing.
#[test]
fn palace_cannon_fires_only_with_a_cannon_behind_the_king() {
    let on = xiangqi_with(&["palace_cannon"]);
    let off = xiangqi_with(&[]);
    // Red's king on d1 steps to e1, in front of its cannon on e0.
    let fen = "9/4k4/9/9/9/9/9/9/3K5/4C4 w - - 0 1";
    assert!(legal(&on, fen, "d1e1"), "fires");
    assert!(!legal(&off, fen, "d1e1"), "switched off the kings may not face");
    assert!(
        !legal(&on, "9/4k4/9/9/9/9/9/9/3K5/9 w - - 0 1", "d1e1"),
        "no cannon behind"
    );
    // The lone black king may not step aside: mated.
    let mated = after(&on, fen, &["d1e1"]);
    assert!(mated.is_check());
    assert_eq!(
        mated.end(),
        Some((
            variants::End::Checkmate,
            game::Outcome::Win {
                winner: variants::Side::First
            }
        ))
    );
    // With a rook that can take the cannon, that is Black's only answer
    // (the king stays); then Red must break the facing.
    let rook = after(&on, "9/4k4/9/9/9/9/9/9/3K5/r3C4 w - - 0 1", &["d1e1"]);
    let answers: Vec<String> = rook.legal_moves().iter().map(ToString::to_string).collect();
    assert_eq!(answers, ["a0e0"]);
    let taken = after(&on, "9/4k4/9/9/9/9/9/9/3K5/r3C4 w - - 0 1", &["d1e1", "a0e0"]);
    assert!(taken.is_check(), "the kings face with Red to move");
    let mut breaks: Vec<String> = taken.legal_moves().iter().map(ToString::to_string).collect();
    breaks.sort();
    assert_eq!(breaks, ["e1d1", "e1f1"]);
    // A black piece put between the kings answers it too.
    let block = after(&on, "9/4k4/9/9/r8/9/9/9/3K5/4C4 w - - 0 1", &["d1e1"]);
    let answers: Vec<String> = block.legal_moves().iter().map(ToString::to_string).collect();
    assert_eq!(answers, ["a5e5"]);
}

/// 破河象: once its side has no horse, an elephant on its third line or
/// river bank crosses the river by the far corner of a “用” (two points
/// one way, three the other), blocked one point diagonally towards it;
/// across, it moves only so, and comes home only onto an elephant's point.
#[test]
fn river_breaking_elephant_fires_only_without_horses() {
    let on = xiangqi_with(&["river_breaking_elephant"]);
    let off = xiangqi_with(&[]);
    let home = "3k5/9/9/9/9/9/9/4B4/9/4K4 w - - 0 1";
    for m in ["e2c5", "e2g5"] {
        assert!(legal(&on, home, m), "{m} fires");
        assert!(!legal(&off, home, m), "{m} switched off");
        assert!(
            !legal(&on, "3k5/9/9/9/9/9/9/4B4/9/N3K4 w - - 0 1", m),
            "{m} with a horse"
        );
    }
    assert!(!legal(&on, home, "e2h4"), "at home only to cross");
    // Blocked one point diagonally towards the destination (f3), not by
    // the straight leg (e3).
    let leg = "3k5/9/9/9/9/9/5P3/4B4/9/4K4 w - - 0 1";
    assert!(!legal(&on, leg, "e2g5") && legal(&on, leg, "e2c5"));
    assert!(legal(&on, "3k5/9/9/9/9/9/4P4/4B4/9/4K4 w - - 0 1", "e2g5"));
    // Not from the elephant's back points.
    let back = Position::from_fen(on.clone(), "3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1").unwrap();
    assert!(back.legal_moves().iter().all(|m| m.to.rank() <= 4));
    // Across the river: only “用” moves, home only onto an elephant point.
    let across = "3k5/9/9/9/6B2/9/9/9/9/4K4 w - - 0 1";
    for m in ["g5e2", "g5i2", "g5i8", "g5e8", "g5d7"] {
        assert!(legal(&on, across, m), "{m}");
    }
    for m in ["g5d3", "g5i3", "g5e3", "g5e7"] {
        assert!(!legal(&on, across, m), "{m}");
    }
    // It captures, so it checks: from c6 the king on e9.
    assert!(in_check(&on, "4k4/9/9/2B6/9/9/9/9/9/3K5 b - - 0 1"));
    assert!(!in_check(&off, "4k4/9/9/2B6/9/9/9/9/9/3K5 b - - 0 1"));
}

/// 宫策略: each power holds while the king stands on its point of the
/// palace (the file's reading of the missing figure: d2 全线车, e2 全线炮,
/// f2 畅马, d1 象不堵, f1 士阔步, d0 斜河兵, f0 河清卒, e1 可飞将), and not on
/// another point, nor with the rule off.
#[test]
fn palace_strategy_fires_only_with_the_king_on_its_point() {
    let on = xiangqi_with(&["palace_strategy"]);
    let off = xiangqi_with(&[]);
    // (power, FEN with the king on its point, the move, FEN with the king elsewhere)
    let cases = [
        // 全线车: the rook along the palace's diagonal.
        (
            "rook",
            "4k4/9/9/9/9/9/9/3K5/9/5R3 w - - 0 1",
            "f0e1",
            "4k4/9/9/9/9/9/9/9/3K5/5R3 w - - 0 1",
        ),
        // 全线炮: the cannon moves along it …
        (
            "cannon",
            "3k5/9/9/9/9/9/9/4K4/9/3C5 w - - 0 1",
            "d0e1",
            "3k5/9/9/9/9/9/9/9/9/3CK4 w - - 0 1",
        ),
        // … and captures over a screen on it.
        (
            "cannon",
            "3k5/9/9/9/9/9/9/4Kn3/4P4/3C5 w - - 0 1",
            "d0f2",
            "3k5/9/9/9/9/9/9/5n3/4P4/3C1K3 w - - 0 1",
        ),
        // 畅马: the horse over its leg.
        (
            "horse",
            "3k5/9/9/9/9/9/9/5K3/1P7/1N7 w - - 0 1",
            "b0c2",
            "3k5/9/9/9/9/9/9/9/1P3K3/1N7 w - - 0 1",
        ),
        // 象不堵: the elephant over its eye (here the king itself).
        (
            "elephant",
            "4k4/9/9/9/9/9/9/9/3K5/2B6 w - - 0 1",
            "c0e2",
            "3k5/9/9/9/9/9/9/9/3P1K3/2B6 w - - 0 1",
        ),
        // 士阔步: the advisor two points along the line.
        (
            "advisor",
            "3k5/9/9/9/9/9/9/9/5K3/3A5 w - - 0 1",
            "d0f2",
            "3k5/9/9/9/9/9/9/9/9/3A1K3 w - - 0 1",
        ),
        // 斜河兵: the pawn across the river diagonally.
        (
            "crossing pawn",
            "4k4/9/9/9/9/2P6/9/9/9/3K5 w - - 0 1",
            "c4d5",
            "4k4/9/9/9/9/2P6/9/9/9/5K3 w - - 0 1",
        ),
        // 河清卒: the pawn along the enemy's river bank.
        (
            "bank pawn",
            "3k5/9/9/9/2P6/9/9/9/9/5K3 w - - 0 1",
            "c5g5",
            "3k5/9/9/9/2P6/9/9/9/9/4K4 w - - 0 1",
        ),
    ];
    for (power, fen, mv, elsewhere) in cases {
        assert!(legal(&on, fen, mv), "{power}: {mv} fires");
        assert!(!legal(&off, fen, mv), "{power}: {mv} switched off");
        assert!(
            !legal(&on, elsewhere, mv),
            "{power}: {mv} with the king elsewhere"
        );
    }
    // 斜河兵 does not capture diagonally.
    assert!(!legal(&on, "4k4/9/9/9/3p5/2P6/9/9/9/3K5 w - - 0 1", "c4d5"));
    // 可飞将: from the centre the king may face the other king up the
    // open file, which is then in check and must step off the file (not
    // onto its own centre, which the king does not strike: facing there
    // is forbidden as ever).
    let fen = "4k4/9/9/9/9/9/9/9/3K5/9 w - - 0 1";
    assert!(legal(&on, fen, "d1e1") && !legal(&off, fen, "d1e1"));
    let faced = after(&on, fen, &["d1e1"]);
    assert!(faced.is_check());
    let mut replies: Vec<String> = faced.legal_moves().iter().map(ToString::to_string).collect();
    replies.sort();
    assert_eq!(replies, ["e9d9", "e9f9"]);
    assert!(
        !legal(&on, "9/4k4/9/9/9/9/9/9/3K5/9 w - - 0 1", "d1e1"),
        "not against the other centre"
    );
    // With 破河象 on too, 象不堵 frees its “用” leap: blocked on f3 but for
    // the king on d1.
    let both = xiangqi_with(&["palace_strategy", "river_breaking_elephant"]);
    assert!(legal(&both, "4k4/9/9/9/9/9/5P3/4B4/3K5/9 w - - 0 1", "e2g5"));
    assert!(!legal(&both, "4k4/9/9/9/9/9/5P3/4B4/5K3/9 w - - 0 1", "e2g5"));
}

/// 解将旗: a side in check may first step its flag one point round the
/// ring (`~`) and then answer the check; a flag landing on the other
/// takes it and wins; a side not in check with the other flag right
/// behind its own may run two points as its move (`~~`).
#[test]
fn check_flag_fires_only_in_check_or_when_chased() {
    let on = xiangqi_with(&["check_flag"]);
    let off = xiangqi_with(&[]);
    // The start: the flags behind the kings, at 0 and 21 of 42.
    let start = Position::start(on.clone());
    assert!(start
        .to_fen()
        .starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR{0,21} w"));
    assert!(
        !start.legal_moves().iter().any(|m| m.flag > 0),
        "not in check, not chased"
    );
    // Red's king on d0 in check from the rook on d9.
    let fen = "3r1k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let checked = Position::from_fen(on.clone(), fen).unwrap();
    assert!(checked.is_check() && has(&checked, "~"), "fires in check");
    let stepped = after(&on, fen, &["~"]);
    assert_eq!(
        stepped.turn(),
        variants::Side::First,
        "the answer is still to come"
    );
    assert!(
        stepped
            .to_fen()
            .starts_with("3r1k3/9/9/9/9/9/9/9/9/3K5{1,21} w F "),
        "{}",
        stepped.to_fen()
    );
    assert!(stepped.is_check() && !has(&stepped, "~"), "one step a turn");
    let answered = after(&on, fen, &["~", "d0e0"]);
    assert_eq!(answered.turn(), variants::Side::Second);
    assert!(answered.to_fen().contains("{1,21} b - "), "{}", answered.to_fen());
    // Optional: the answer alone leaves the flag.
    assert!(after(&on, fen, &["d0e0"]).to_fen().contains("{0,21} b"));
    // Taking the other flag wins at once.
    let take = "3r1k3/9/9/9/9/9/9/9/9/3K5{20,21} w - - 0 1";
    let won = after(&on, take, &["~"]);
    assert_eq!(
        won.end(),
        Some((
            variants::End::FlagTaken,
            game::Outcome::Win {
                winner: variants::Side::First
            }
        ))
    );
    assert!(won.legal_moves().is_empty());
    // Chased: Black, not in check, its flag with Red's right behind, runs two.
    let chased = "4k4/9/9/9/9/9/9/9/9/3K5{20,21} b - - 0 1";
    let ran = after(&on, chased, &["~~"]);
    assert!(ran.to_fen().contains("{20,23} w"), "{}", ran.to_fen());
    assert!(!has(
        &Position::from_fen(on.clone(), "4k4/9/9/9/9/9/9/9/9/3K5{19,21} b - - 0 1").unwrap(),
        "~~"
    ));
    assert!(
        !has(
            &Position::from_fen(on.clone(), "3k5/9/9/9/9/9/9/9/9/3RK4{20,21} b - - 0 1").unwrap(),
            "~~"
        ),
        "in check"
    );
    // A side mated is mated: no step without an answer (the rooks on d9
    // and e9 leave the king on d0 nowhere to go).
    let mated = Position::from_fen(on.clone(), "3rr1k2/9/9/9/9/9/9/9/9/3K5{20,21} w - - 0 1").unwrap();
    assert!(mated.legal_moves().is_empty(), "{:?}", mated.legal_moves());
    assert_eq!(mated.end().map(|e| e.0), Some(variants::End::Checkmate));
    // The ring closes: 41 goes on to 0.
    assert!(after(&on, "3r1k3/9/9/9/9/9/9/9/9/3K5{41,21} w - - 0 1", &["~"])
        .to_fen()
        .contains("{0,21}"));
    // Switched off: no flags, and a FEN giving them is refused.
    assert!(!Position::from_fen(off.clone(), fen)
        .unwrap()
        .legal_moves()
        .iter()
        .any(|m| m.flag > 0));
    assert!(Position::from_fen(off, take).is_err());
    assert!(Position::from_fen(on, "4k4/9/9/9/9/9/9/9/9/3K5{21,21} b - - 0 1").is_err());
}

/// 解将旗 against perpetual check (“可以解除象棋禁止‘长将…’规则的规则”): the
/// checked side steps its flag with each answer, so the position never
/// comes back, and its flag catches the checker's — here three checks
/// from behind: Black wins by the flag, before any repetition.
#[test]
fn check_flag_ends_a_perpetual_check_by_the_flag() {
    use game::{Game, Outcome, Status};
    let on = xiangqi_with(&["check_flag"]);
    let mut g = variants::VariantGame::from_fen(on, "3k5/9/9/9/9/9/9/9/9/R4K3{0,39} w - - 0 1").unwrap();
    for m in ["a0d0", "~", "d9e9", "d0e0", "~", "e9d9", "e0d0"] {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(g.status(), Status::Ongoing, "after {m}");
    }
    g.play("~").unwrap();
    let Status::Over(end) = g.status() else {
        panic!("not over: {}", g.fen())
    };
    assert_eq!(end.reason, "flag_taken");
    assert_eq!(
        end.outcome,
        Outcome::Win {
            winner: variants::Side::Second
        }
    );
    // The flag's steps gave no check: the checker is Red alone.
    assert!(g.history().iter().filter(|m| m.coord == "~").all(|m| !m.check));
}

/// 解将旗 and the repetition rule (seed 004, 3: with the flag “红方被迫长将也不犯规”):
/// a side checked forever that never steps its flag lets the position come
/// back a third time — a draw, not the checker's loss; the same line
/// without the flag is the simple rule set's perpetual check, lost by the
/// checker; and with the flag a repetition without checks is drawn as ever.
#[test]
fn check_flag_draws_a_perpetual_check_the_flag_never_answers() {
    use game::{Game, Outcome, Status};
    let line = [
        "a0d0", "d9e9", "d0e0", "e9d9", "e0d0", "d9e9", "d0e0", "e9d9", "e0d0",
    ];
    let play = |v: Arc<Variant>, fen: &str| {
        let mut g = variants::VariantGame::from_fen(v, fen).unwrap();
        for (i, m) in line.iter().enumerate() {
            assert_eq!(g.status(), Status::Ongoing, "before {m}");
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            if i + 1 < line.len() {
                assert_eq!(g.status(), Status::Ongoing, "after {m}");
            }
        }
        let Status::Over(end) = g.status() else {
            panic!("not over: {}", g.fen())
        };
        end
    };
    let on = play(
        xiangqi_with(&["check_flag"]),
        "3k5/9/9/9/9/9/9/9/9/R4K3{0,39} w - - 0 1",
    );
    assert_eq!(
        (on.outcome, on.reason.as_str()),
        (Outcome::Draw, "threefold_repetition")
    );
    assert!(on.detail.contains("长将不犯规"), "{}", on.detail);
    let off = play(xiangqi_with(&[]), "3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1");
    assert_eq!(off.reason, "perpetual_check");
    assert_eq!(
        off.outcome,
        Outcome::Win {
            winner: variants::Side::Second
        }
    );
    // No checks: a plain repetition, drawn with the flag as without it.
    let mut g = variants::VariantGame::new(xiangqi_with(&["check_flag"]));
    for m in ["b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0", "c7b9"] {
        g.play(m).unwrap();
    }
    let Status::Over(end) = g.status() else {
        panic!("not over")
    };
    assert_eq!(
        (end.outcome, end.reason.as_str()),
        (Outcome::Draw, "threefold_repetition")
    );
    assert!(end.detail.contains("3 times"), "{}", end.detail);
}

/// A piece in a reserve and a piece on a point hash apart: the reserves'
/// counts were once hashed as "squares" 256 and up beside a code shifted
/// by only 8 bits, so Black's pawn in hand (code 4 here) hashed as Red's
/// rook (code 5) on a0.
#[test]
fn a_reserve_and_the_board_hash_apart() {
    let text = r#"
name = "hands"
start = "4k4/9/9/9/4K4[] w"
[board]
files = 9
ranks = 5
[regions]
back = { ranks = "0" }
[[rules.revivals]]
pieces = ["pawn"]
to = "back"
[[pieces]]
name = "king"
letter = "k"
royal = true
moves = [{ kind = "step", dirs = ["orthogonal"] }]
[[pieces]]
name = "pawn"
letter = "p"
moves = [{ kind = "step", dirs = ["forward"] }]
[[pieces]]
name = "rook"
letter = "r"
moves = [{ kind = "slide", dirs = ["orthogonal"] }]
"#;
    let v = Arc::new(Variant::from_toml(text).unwrap());
    let hand = Position::from_fen(v.clone(), "4k4/9/9/9/4K4[p] w - - 0 1").unwrap();
    let board = Position::from_fen(v, "4k4/9/9/9/R3K4[] w - - 0 1").unwrap();
    assert_ne!(hand.key(), board.key());
}
