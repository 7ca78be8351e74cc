//! Several royal pieces a side (`[rules] royals`, issue 27): `any` — check
//! when any royal is attacked, every one kept safe — and `all` —
//! Fairy-Stockfish's `dupleCheck`, check only when all are attacked, so a
//! royal may be left en prise and lost, but never the last. Each case shows
//! the rule firing and the other reading not firing on the same position.

use std::sync::Arc;

use variants::{perft, End, FenError, Position, Royals, Variant};

/// A 9×5 board with kings that step anywhere and rooks, `royals` as given
/// (its start: two red kings, one black).
fn two_kings(royals: &str) -> Arc<Variant> {
    Arc::new(Variant::from_toml(&file(royals)).unwrap_or_else(|e| panic!("{royals}: {e}")))
}

fn file(royals: &str) -> String {
    format!(
        r#"name = "two-kings"
start = "4k4/9/9/9/K7K w"
[board]
files = 9
ranks = 5
[rules]
royals = "{royals}"
[[pieces]]
name = "king"
letter = "k"
royal = true
moves = [{{ kind = "step", dirs = ["orthogonal"] }}]
[[pieces]]
name = "rook"
letter = "r"
moves = [{{ kind = "slide", dirs = ["orthogonal"] }}]
"#
    )
}

fn moves(pos: &Position) -> Vec<String> {
    let mut list: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    list.sort();
    list
}

/// The black rook on a4 attacks the red king on a0; the king on i0 is safe.
const ONE_ATTACKED: &str = "r3k4/9/9/9/K7K w";

#[test]
fn any_keeps_every_royal_safe() {
    let v = two_kings("any");
    assert_eq!(v.royals(), Royals::Any);
    let pos = Position::from_fen(v, ONE_ATTACKED).unwrap();
    assert!(pos.is_check(), "one of two kings attacked is check");
    // Only the attacked king's step out of the file; the other king may
    // not move, since that would leave a0 attacked.
    assert_eq!(moves(&pos), ["a0b0"]);
}

#[test]
fn all_is_check_only_when_every_royal_is_attacked() {
    let v = two_kings("all");
    let mut pos = Position::from_fen(v.clone(), ONE_ATTACKED).unwrap();
    assert!(!pos.is_check(), "i0 is safe: no check under duple check");
    // a0a1 stays on the rook's file and i0 may move: a king may be left en prise.
    assert_eq!(moves(&pos), ["a0a1", "a0b0", "i0h0", "i0i1"]);
    // … and taken; the last king must then be kept safe.
    pos.play_iccs("i0i1").unwrap();
    pos.play_iccs("a4a0").unwrap();
    assert!(!pos.is_check());
    assert_eq!(moves(&pos), ["i1h1", "i1i2"], "i1i0 walks into the rook on a0");
    assert!(pos.play_iccs("i1i0").is_err());
    // Both kings attacked with no way out: checkmate.
    let mate = Position::from_fen(v, "r1rrk4/1r7/9/9/K1K6 w").unwrap();
    assert!(mate.is_check());
    assert!(mate.legal_moves().is_empty());
    assert_eq!(mate.end().map(|(e, _)| e), Some(End::Checkmate));
}

#[test]
fn a_side_needs_its_royals() {
    // Several kings: at least one a side; the default `one`: exactly one.
    let err = Position::from_fen(two_kings("any"), "9/9/9/9/K7K w").unwrap_err();
    assert!(matches!(err, FenError::RoyalCount { count: 0, .. }), "{err}");
    assert!(err.to_string().contains("at least one"), "{err}");
    let err = Variant::from_toml(&file("one")).unwrap_err();
    assert!(
        err.to_string().contains(
            "line 2: start position: FEN gives the first side 2 royal pieces, the variant needs exactly one"
        ),
        "{err}"
    );
    let one = file("one").replace("K7K w", "K8 w");
    let pos = Position::from_fen(Arc::new(Variant::from_toml(&one).unwrap()), "r3k4/9/9/9/K8 w").unwrap();
    assert!(pos.is_check());
}

/// What has no meaning with several royals, or no royal at all, is
/// refused with its line.
#[test]
fn several_royals_refuse_the_one_royals_rules() {
    let one_king = |rules: &str| {
        format!(
            r#"name = "x"
start = "4k4/9/9/9/4K4 w"
[board]
files = 9
ranks = 5
[rules]
{rules}
[[pieces]]
name = "king"
letter = "k"
royal = true
moves = [{{ kind = "step", dirs = ["orthogonal"] }}]
"#
        )
    };
    for (rules, reason) in [
        (
            "royals = \"any\"\nflying_general = true",
            "do not go with flying_general",
        ),
        ("royals = \"all\"\npass = true", "do not go with pass"),
        ("royals = \"some\"", "unknown variant `some`"),
    ] {
        let err = Variant::from_toml(&one_king(rules)).expect_err(rules);
        assert!(err.to_string().contains(reason), "{rules}: {err}");
        assert!(err.to_string().starts_with("line 7"), "{rules}: {err}");
    }
    let no_royal = one_king("royals = \"any\"").replace("royal = true", "royal = false");
    let err = Variant::from_toml(&no_royal).unwrap_err();
    assert!(err.to_string().contains("need a royal piece type"), "{err}");
}

/// With one royal a side the three readings are one rule: Xiangqi without
/// the flying general (which several royals refuse), read as `one`, `any`
/// and `all`, agrees on check, the legal moves and perft(2) in 300
/// positions of seeded random playouts — so the slow path of several
/// royals (every move played and looked at) agrees with the danger-zone
/// shortcut of the one royal.
#[test]
fn one_royal_a_side_is_the_same_under_every_reading() {
    let text = variants::XIANGQI_TOML.replace("flying_general = true", "flying_general = false");
    assert_ne!(text, variants::XIANGQI_TOML);
    let with = |royals: &str| {
        let t = text.replacen("[rules]\n", &format!("[rules]\nroyals = \"{royals}\"\n"), 1);
        Arc::new(Variant::from_toml(&t).unwrap_or_else(|e| panic!("{royals}: {e}")))
    };
    let readings = [with("one"), with("any"), with("all")];
    assert_eq!(readings[2].royals(), Royals::All);
    let mut seed: u64 = 0x5EED_0027;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    };
    let mut checked = 0;
    let mut checks = 0;
    while checked < 300 {
        let mut pos = Position::start(readings[0].clone());
        for _ in 0..60 {
            let fen = pos.to_fen();
            let mut others: Vec<Position> = readings[1..]
                .iter()
                .map(|v| Position::from_fen(v.clone(), &fen).unwrap())
                .collect();
            checks += usize::from(pos.is_check());
            for other in &mut others {
                assert_eq!(other.is_check(), pos.is_check(), "{fen}");
                assert_eq!(moves(other), moves(&pos), "{fen}");
                assert_eq!(perft(other, 2), perft(&mut pos.clone(), 2), "{fen}");
            }
            checked += 1;
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.play(legal[next(legal.len())]).unwrap();
        }
    }
    assert!(checks > 5, "the playouts reach checks ({checks})");
}
