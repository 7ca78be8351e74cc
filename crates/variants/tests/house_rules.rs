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
    let pos = Position::from_fen(v.clone(), fen).unwrap();
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
    ] {
        let mut pos = Position::start(xiangqi_with(on));
        assert_eq!(variants::perft(&mut pos, 3), 79_666, "{on:?}");
    }
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
    assert!(err.to_string().contains("no movement belongs to it"), "{err}");
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
