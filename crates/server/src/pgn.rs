//! Archived games as PGN, written by the record crate (the one PGN writer of
//! the platform, whose reader imports them again): the xqbase tag roster
//! with `Red`/`Black` for the players, `[Variant "xiangqi"]` and the rule
//! set in `[Rules]`, `[FEN]` when the game did not start from the usual
//! position, ICCS moves with each mover's clock after the move as `[%clk]`,
//! and the ruling's words as a comment on the last move.

use crate::live::GameView;
use record::{PgnResult, Record, RecordError};
use xiangqi::notation::Notation;
use xiangqi::{Color, Position};

/// The game as PGN text.
///
/// # Errors
/// A stored game that does not replay (a corrupt database row).
pub fn write(g: &GameView) -> Result<String, RecordError> {
    // Which clock is the mover's: sides alternate from the start position's
    // turn (a FEN that does not read fails in `from_iccs` just below).
    let first = Position::from_fen(&g.initial_fen).map_or(Color::Red, |p| p.turn());
    let moves: Vec<_> = g
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mover = if i % 2 == 0 { first } else { first.other() };
            let left = if mover == Color::Red { m.red_ms } else { m.black_ms };
            (m.coord.as_str(), u64::try_from(left).ok(), None)
        })
        .collect();
    let mut r = Record::from_iccs(&g.initial_fen, moves)?;
    let (family, rules) = g.variant.split_once('/').unwrap_or((&g.variant, ""));
    r.set_tag(
        "Event",
        if g.rated {
            "qiju rated game"
        } else {
            "qiju casual game"
        },
    );
    r.set_tag("Site", format!("qiju game {}", g.id));
    r.set_tag("Date", record::pgn_date(g.created_ms));
    r.set_tag("Round", "-");
    r.set_tag("Red", g.red.name.clone());
    r.set_tag("Black", g.black.name.clone());
    if let Some(x) = g.red.rating {
        r.set_tag("RedElo", format!("{x}"));
    }
    if let Some(x) = g.black.rating {
        r.set_tag("BlackElo", format!("{x}"));
    }
    r.set_tag("Variant", family);
    if !rules.is_empty() {
        r.set_tag("Rules", rules);
    }
    r.set_tag("TimeControl", g.time_control.clone());
    if let Some(reason) = &g.reason {
        r.set_tag("Termination", reason.clone());
    }
    r.result = g
        .result
        .as_deref()
        .and_then(PgnResult::from_token)
        .unwrap_or(PgnResult::Unknown);
    if let (Some(last), Some(detail)) = (r.moves.last_mut(), &g.detail) {
        last.comment = Some(detail.clone());
    }
    record::write_pgn(&r, Notation::Iccs)
}
