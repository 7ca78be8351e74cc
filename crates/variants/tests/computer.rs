//! The generic computer player (`variants::computer`): it beats a random
//! mover on every shipped variant, finds mates, keeps to its time, and
//! derives its piece values from the pieces' movements.

use std::sync::Arc;
use std::time::{Duration, Instant};

use game::{Outcome, Side};
use variants::computer::{analyse, choose, Level, Score, Weights};
use variants::{Position, Variant, SHIPPED};

fn rng(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn variant(name: &str) -> Arc<Variant> {
    if name == "xiangqi+revival" {
        // Xiangqi with drops and a turn of two moves (还魂卒 and 杀惊遁马).
        let text = variants::XIANGQI_TOML.replace(
            "house_rules = []",
            "house_rules = [\"reviving_pawn\", \"fleeing_horse\"]",
        );
        return Arc::new(Variant::from_toml(&text).unwrap());
    }
    if name == "xiangqi+eight" {
        // The eight house rules that go together (龙战士, not 王者士).
        let rules = [
            "fleeing_horse",
            "palace_cannon",
            "river_breaking_elephant",
            "mission_pawn",
            "dragon_warrior",
            "palace_strategy",
            "reviving_pawn",
            "check_flag",
        ];
        return Arc::new(Variant::with_house_rules(variants::XIANGQI_TOML, "eight", &rules).unwrap());
    }
    if name == "xiangqi+house" {
        // Xiangqi with two house rules on (龙战士 and 任务兵).
        let text = variants::XIANGQI_TOML.replace(
            "house_rules = []",
            "house_rules = [\"dragon_warrior\", \"mission_pawn\"]",
        );
        return Arc::new(Variant::from_toml(&text).unwrap());
    }
    let text = SHIPPED.iter().find(|(n, _)| *n == name).unwrap().1;
    Arc::new(Variant::from_toml(text).unwrap())
}

/// One game: the computer at `level` plays `computer`'s side, a random
/// mover the other. The outcome (`None` if not over after `max_plies`)
/// and the plies played.
fn play(
    v: &Arc<Variant>,
    computer: Side,
    level: Level,
    seed: &mut u64,
    max_plies: usize,
) -> (Option<Outcome>, usize) {
    let mut pos = Position::start(v.clone());
    let mut earlier = Vec::new();
    for ply in 0..max_plies {
        if let Some((_, outcome)) = pos.end() {
            return (Some(outcome), ply);
        }
        let m = if pos.turn() == computer {
            choose(&pos, &earlier, level, Duration::from_secs(5))
                .unwrap()
                .best
        } else {
            let moves = pos.legal_moves();
            moves[(rng(seed) % moves.len() as u64) as usize]
        };
        earlier.push(pos.key());
        pos.play(m).unwrap();
    }
    (pos.end().map(|e| e.1), max_plies)
}

/// Issue 27, item 7: the computer beats a random mover 100–0. 100 games
/// at the weakest level (1), the computer Red in half and Black in the
/// other half: 30 of Xiangqi as data, 10 of Xiangqi with two house rules
/// on (龙战士 and 任务兵), 15 each of minixiangqi, manchu, janggi and
/// 升级象棋. A game not won in 400 plies counts as not won.
/// The levels' searches are capped by nodes, not time, so the games are
/// the same on any machine.
#[test]
fn beats_a_random_mover_100_to_0() {
    let mut seed = 1;
    let mut won = 0;
    let mut lost = Vec::new();
    for (name, games) in [
        ("xiangqi", 30),
        ("xiangqi+house", 10),
        ("minixiangqi", 15),
        ("manchu", 15),
        ("janggi", 15),
        ("shengji", 15),
    ] {
        let v = variant(name);
        let t = Instant::now();
        let mut plies = 0;
        for g in 0..games {
            let side = if g % 2 == 0 { Side::First } else { Side::Second };
            let (outcome, n) = play(&v, side, Level::MIN, &mut seed, 400);
            plies += n;
            if outcome == Some(Outcome::Win { winner: side }) {
                won += 1;
            } else {
                lost.push(format!("{name} game {g} ({side:?}): {outcome:?} after {n} plies"));
            }
        }
        println!("{name}: {games} games, {plies} plies, {:?}", t.elapsed());
    }
    assert!(lost.is_empty(), "{lost:#?}");
    assert_eq!(won, 100);
}

/// A mate in one is found and scored as one, at every level: on Xiangqi
/// as data (the rook closes the d file or the eighth rank; the kings face
/// on e, so the king has no move: 将死 or 困毙, both lost) and on Janggi
/// (the rook mates on the back rank, the soldier guarding the palace).
#[test]
fn finds_a_mate_in_one() {
    for (name, fen) in [
        ("xiangqi", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"),
        ("janggi", "3k5/R8/4P4/9/9/9/9/9/9/4K4 w - - 0 1"),
    ] {
        let pos = Position::from_fen(variant(name), fen).unwrap();
        let wins = |m: variants::Move| {
            let mut after = pos.clone();
            after.play(m).unwrap();
            after.end().map(|e| e.1) == Some(Outcome::Win { winner: Side::First })
        };
        let c = analyse(&pos, &[], 3, Duration::from_secs(10)).unwrap();
        assert!(wins(c.best), "{name}: {c:?}");
        assert_eq!(c.score, Score::Mate(1), "{name}: {c:?}");
        for level in 1..=5 {
            let c = choose(&pos, &[], Level::new(level).unwrap(), Duration::from_secs(10)).unwrap();
            assert!(wins(c.best), "{name} level {level}: {c:?}");
        }
    }
}

/// The house rules that add moves — drops (还魂卒), turns of two moves
/// (杀惊遁马), flags' steps (解将旗) — and the eight that go together:
/// 20 games at level 1 against a random mover, all won within 400 plies,
/// the computer Red in half. A random mover of its own, so that the 100
/// games above stay as they were.
#[test]
fn beats_a_random_mover_with_the_house_rules_20_to_0() {
    let mut seed = 27;
    let mut lost = Vec::new();
    for (name, games) in [("xiangqi+revival", 10), ("xiangqi+eight", 10)] {
        let v = variant(name);
        for g in 0..games {
            let side = if g % 2 == 0 { Side::First } else { Side::Second };
            let (outcome, n) = play(&v, side, Level::MIN, &mut seed, 400);
            if outcome != Some(Outcome::Win { winner: side }) {
                lost.push(format!("{name} game {g} ({side:?}): {outcome:?} after {n} plies"));
            }
        }
    }
    assert!(lost.is_empty(), "{lost:#?}");
}

/// 杀惊遁马: after the opening cannon takes a horse, the computer answers
/// with its turn of two moves — the horse away, then the rook takes the
/// cannon — where one move (the rook at once) would only trade; it
/// revives a pawn (还魂卒) when it may; and it takes the other flag
/// (解将旗) when it can.
#[test]
fn uses_its_double_move_and_its_revival() {
    let v = variant("xiangqi+revival");
    let mut pos = Position::start(v.clone());
    pos.play_iccs("h2h9").unwrap();
    let first = choose(&pos, &[], Level::new(3).unwrap(), Duration::from_secs(10)).unwrap();
    assert!(
        ["b9a7", "b9c7"].contains(&first.best.to_string().as_str()),
        "{first:?}"
    );
    pos.play(first.best).unwrap();
    assert_eq!(pos.turn(), Side::Second);
    let second = choose(&pos, &[], Level::new(3).unwrap(), Duration::from_secs(10)).unwrap();
    assert_eq!(second.best.to_string(), "i9h9", "{second:?}");

    // Red just captured and may revive: a pawn back on the board is
    // worth more than any king's step.
    let fen = "3k5/9/9/9/9/9/9/9/9/4K4[P] w V - 0 1";
    let pos = Position::from_fen(v, fen).unwrap();
    let c = choose(&pos, &[], Level::new(3).unwrap(), Duration::from_secs(10)).unwrap();
    assert!(c.best.is_drop(), "{c:?}");

    // 解将旗: in check with its flag right behind the other, it steps the
    // flag onto it and wins.
    let eight = variant("xiangqi+eight");
    let fen = "3r1k3/9/9/9/9/9/9/9/9/3K5{20,21} w - - 0 1";
    let pos = Position::from_fen(eight, fen).unwrap();
    let c = choose(&pos, &[], Level::new(1).unwrap(), Duration::from_secs(10)).unwrap();
    assert_eq!(c.best.to_string(), "~", "{c:?}");
}

/// A search of the full strength stops when its time is up, whatever the
/// depth it could reach: within the budget and a margin for the last
/// node and a loaded machine.
#[test]
fn keeps_to_its_time() {
    for name in ["xiangqi", "janggi", "shengji"] {
        let pos = Position::start(variant(name));
        for ms in [20, 150] {
            let budget = Duration::from_millis(ms);
            let t = Instant::now();
            let c = choose(&pos, &[], Level::MAX, budget).unwrap();
            let spent = t.elapsed();
            assert!(
                spent < budget + Duration::from_millis(100),
                "{name}: {spent:?} for {budget:?}"
            );
            assert!(pos.legal_moves().contains(&c.best));
            assert!(c.depth >= 1 && c.nodes > 0);
        }
    }
    // The game is over: no move to choose.
    let mated = Position::from_fen(variant("xiangqi"), "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1").unwrap();
    assert!(choose(&mated, &[], Level::MIN, Duration::from_secs(1)).is_none());
}

/// A position seen before in the game scores as a draw: a rook up, Red
/// wins (a mate in two: 车九平六, 将4平5, 车六进八 leaves the king no move, 困毙),
/// but with every position two plies ahead marked as seen earlier in the
/// game, every line is a repetition and scores 0.
#[test]
fn a_position_that_comes_back_scores_as_a_draw() {
    let v = variant("xiangqi");
    // Red is a rook up, with no win in one; no capture for 100 plies,
    // so the earlier positions may come back.
    let pos = Position::from_fen(v.clone(), "3k5/9/9/9/9/9/9/9/9/R4K3 w - - 100 80").unwrap();
    let c = analyse(&pos, &[], 2, Duration::from_secs(5)).unwrap();
    assert!(
        matches!(c.score, Score::Cp(cp) if cp > 500) || matches!(c.score, Score::Mate(n) if n > 1),
        "{c:?}"
    );
    // Every position after Red's best move was seen: all draws now.
    let mut earlier = Vec::new();
    for m in pos.legal_moves() {
        let mut after = pos.clone();
        after.play(m).unwrap();
        for reply in after.legal_moves() {
            let mut back = after.clone();
            back.play(reply).unwrap();
            earlier.push(back.key());
        }
    }
    let c = analyse(&pos, &earlier, 2, Duration::from_secs(5)).unwrap();
    assert_eq!(c.score, Score::Cp(0), "{c:?}");
}

/// The derived values put Xiangqi's pieces in the order players know
/// (rook, then cannon and horse, then elephant, advisor and the soldier
/// at home), promoted pieces above their base; a file's `value` wins.
#[test]
fn values_come_from_the_pieces_movements() {
    let v = variant("xiangqi");
    let w = Weights::of(&v);
    let value = |name: &str| w.value[v.pieces().iter().position(|p| p.name == name).unwrap()];
    assert!(value("rook") > value("cannon") && value("rook") > value("horse"));
    assert!(value("horse") > value("elephant") && value("horse") > value("advisor"));
    assert!(value("advisor") > 100 / 2 && value("pawn") > 0);
    let pawn = v.pieces().iter().position(|p| p.name == "pawn").unwrap();
    let home = variants::Square::new(4, 3);
    let across = variants::Square::new(4, 5);
    assert!(
        w.at(pawn, Side::First, across) > w.at(pawn, Side::First, home),
        "a pawn across the river can go sideways"
    );
    assert_eq!(
        w.at(pawn, Side::Second, variants::Square::new(4, 6)),
        w.at(pawn, Side::First, home),
        "the second side's table is the first's mirrored"
    );

    let s = variant("shengji");
    let ws = Weights::of(&s);
    for p in s.pieces().iter().filter(|p| p.promotes_to.is_some()) {
        let base = s.pieces().iter().position(|q| q.name == p.name).unwrap();
        let promoted = p.promotes_to.unwrap();
        assert!(ws.value[promoted] > ws.value[base], "{} promoted", p.name);
    }

    let declared = variants::XIANGQI_TOML.replace("name = \"horse\"\n", "name = \"horse\"\nvalue = 555\n");
    let d = Arc::new(Variant::from_toml(&declared).unwrap());
    let horse = d.pieces().iter().position(|p| p.name == "horse").unwrap();
    assert_eq!(Weights::of(&d).value[horse], 555);
}

/// How deep and how fast the full strength searches from each start
/// position in one second (docs/PERFORMANCE.md). A timing, not a check.
#[test]
#[ignore = "timing, not a check"]
fn search_speed() {
    for (name, _) in SHIPPED {
        let pos = Position::start(variant(name));
        let t = Instant::now();
        let c = choose(&pos, &[], Level::MAX, Duration::from_secs(1)).unwrap();
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name}: depth {}, {} nodes in {s:.2} s ({:.0} knodes/s), best {}",
            c.depth,
            c.nodes,
            c.nodes as f64 / s / 1000.0,
            c.best
        );
    }
}
