//! Game endings other than repetitions: what the board decides (checkmate,
//! stalemate, too little material) and what players or the arbiter decide
//! (agreement, resignation, fouls, the natural move limit).

use crate::Config;
use game::{Ending, Outcome};
use xiangqi::{Color, Position, Role};

fn ending(outcome: Outcome, reason: &str, detail: String, article: &str) -> Ending {
    Ending {
        outcome,
        reason: reason.to_string(),
        detail,
        article: Some(article.to_string()),
    }
}

fn win(winner: Color) -> Outcome {
    Outcome::Win {
        winner: winner.into(),
    }
}

/// Checkmate (将死) or stalemate (困毙): the side to move has no legal
/// move, and loses either way (3.x, 4.1).
#[must_use]
pub fn no_moves(pos: &Position) -> Option<Ending> {
    if pos.has_legal_move() {
        return None;
    }
    let loser = pos.turn();
    Some(if pos.is_check() {
        ending(
            win(loser.other()),
            "checkmate",
            format!("{} is checkmated (将死)", loser.name()),
            "4.1",
        )
    } else {
        ending(
            win(loser.other()),
            "stalemate",
            format!("{} has no legal move (困毙) and loses", loser.name()),
            "4.1",
        )
    })
}

/// Whether `color` still has a piece that can cross the river: a rook,
/// horse, cannon or pawn. Advisors and elephants never leave their half.
#[must_use]
pub fn has_attacking_material(pos: &Position, color: Color) -> bool {
    [Role::Rook, Role::Horse, Role::Cannon, Role::Pawn]
        .iter()
        .any(|&r| pos.pieces(color, r).any())
}

/// Neither side can ever attack the other king: a draw (4.2, 简明和棋).
#[must_use]
pub fn insufficient_material(pos: &Position) -> Option<Ending> {
    if Color::ALL.iter().any(|&c| has_attacking_material(pos, c)) {
        return None;
    }
    Some(ending(
        Outcome::Draw,
        "insufficient_material",
        "neither side has a piece that can cross the river: drawn".to_string(),
        "4.2",
    ))
}

/// The natural move limit (自然限着, 4.2 and 23.3): `plies` is the number of
/// plies since the last capture, `claimant_checks` the checking moves the
/// claimant made among them. At most `config.max_counted_checks` of those
/// count, so a claimant cannot run the count up by checking.
#[must_use]
pub fn natural_limit(plies: u32, claimant_checks: u32, config: &Config) -> Option<Ending> {
    if config.natural_limit_rounds == 0 {
        return None;
    }
    let uncounted = claimant_checks.saturating_sub(config.max_counted_checks);
    let counted = plies.saturating_sub(uncounted);
    (counted >= 2 * config.natural_limit_rounds).then(|| {
        ending(
            Outcome::Draw,
            "natural_limit",
            format!(
                "{} rounds without a capture (自然限着)",
                config.natural_limit_rounds
            ),
            "4.2",
        )
    })
}

/// A draw both players agreed to (4.2, 23.1).
#[must_use]
pub fn agreed_draw() -> Ending {
    ending(
        Outcome::Draw,
        "agreement",
        "drawn by agreement (提和)".to_string(),
        "4.2",
    )
}

/// `loser` resigned (4.1).
#[must_use]
pub fn resignation(loser: Color) -> Ending {
    ending(
        win(loser.other()),
        "resignation",
        format!("{} resigned (认输)", loser.name()),
        "4.1",
    )
}

/// `side` has committed `fouls` fouls (犯规); it loses once they reach the
/// configured number (4.1: three in one game).
#[must_use]
pub fn fouls(side: Color, fouls: u32, config: &Config) -> Option<Ending> {
    (config.fouls_to_lose > 0 && fouls >= config.fouls_to_lose).then(|| {
        ending(
            win(side.other()),
            "fouls",
            format!("{} committed {fouls} fouls (犯规) and loses", side.name()),
            "4.1",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleSet;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn checkmate_loses() {
        // Two rooks mate on the back rank; the red king holds the d-file.
        let p = pos("R3k4/8R/9/9/9/9/9/9/9/3K5 b");
        let e = no_moves(&p).expect("mate");
        assert_eq!(e.reason, "checkmate");
        assert_eq!(e.outcome.winner(), Some(game::Side::First));
    }

    #[test]
    fn stalemate_loses_too() {
        // Black's king on e9 cannot move (rook on rank 8, red king on the
        // d-file, rook on the f-file) and is not in check: 困毙 loses.
        let p = pos("4k4/8R/9/9/9/9/9/9/9/3K1R3 b");
        assert!(!p.is_check());
        let e = no_moves(&p).expect("stalemate");
        assert_eq!(e.reason, "stalemate");
        assert_eq!(e.outcome.winner(), Some(game::Side::First));
        assert!(no_moves(&Position::startpos()).is_none());
    }

    /// The ruling itself: outcome, reason, the article and the sentence.
    fn assert_ending(e: Option<Ending>, outcome: Outcome, reason: &str, detail: &str) {
        let e = e.unwrap_or_else(|| panic!("expected a {reason} ending, got none"));
        assert_eq!(e.outcome, outcome, "{reason}");
        assert_eq!(e.reason, reason);
        assert_eq!(e.detail, detail);
        assert_eq!(e.article.as_deref(), Some("4.2"), "{reason}");
    }

    #[test]
    fn insufficient_material_draws() {
        assert_ending(
            insufficient_material(&pos("3aka3/9/4b4/9/9/9/9/4B4/4A4/4K4 w")),
            Outcome::Draw,
            "insufficient_material",
            "neither side has a piece that can cross the river: drawn",
        );
        // A single pawn can still cross (or has crossed): play on.
        assert!(insufficient_material(&pos("3aka3/9/4b4/9/9/9/4P4/4B4/4A4/4K4 w")).is_none());
        assert!(insufficient_material(&Position::startpos()).is_none());
    }

    #[test]
    fn natural_limit_counts_at_most_ten_checks() {
        let c = Config::new(RuleSet::Cxa);
        let drawn = |e: Option<Ending>, rounds: u32| {
            assert_ending(
                e,
                Outcome::Draw,
                "natural_limit",
                &format!("{rounds} rounds without a capture (自然限着)"),
            );
        };
        assert_eq!(c.natural_limit_rounds, 60);
        assert!(natural_limit(119, 0, &c).is_none());
        drawn(natural_limit(120, 10, &c), 60);
        // Twelve checks by the claimant: two of them do not count.
        assert!(natural_limit(121, 12, &c).is_none());
        drawn(natural_limit(122, 12, &c), 60);
        let lowered = Config {
            natural_limit_rounds: 40,
            ..c
        };
        assert!(natural_limit(79, 0, &lowered).is_none());
        drawn(natural_limit(80, 0, &lowered), 40);
        let off = Config {
            natural_limit_rounds: 0,
            ..c
        };
        assert!(natural_limit(1000, 0, &off).is_none());
    }

    #[test]
    fn player_endings() {
        assert_eq!(agreed_draw().outcome, Outcome::Draw);
        assert_eq!(resignation(Color::Red).outcome.winner(), Some(game::Side::Second));
        let c = Config::new(RuleSet::Cxa);
        assert!(fouls(Color::Black, 2, &c).is_none());
        let e = fouls(Color::Black, 3, &c).expect("three fouls lose");
        assert_eq!(e.outcome.winner(), Some(game::Side::First));
    }
}
