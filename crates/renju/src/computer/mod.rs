//! The computer player for gomoku and renju: pure, deterministic, no
//! threads.
//!
//! At each move it looks, in order, for: a five of its own; the opponent's
//! five to block; a win by continuous fours (VCF: every move a four, every
//! answer forced); a win by continuous threats (VCT: fours and open threes,
//! every answer that could stop the threat tried); and otherwise it
//! searches with alpha-beta (negamax, iterative deepening, a transposition
//! table) over the most promising points, scored by the shape tables of
//! `shape.rs`. Black never plays a forbidden point in renju unless nothing
//! else is left, and white drives black onto them: a four whose only
//! blocking point is forbidden for black wins. Under the office rules white
//! always points out a forbidden stone.
//!
//! Under an opening rule (swap2, Soosõrv-8) `choose_opening` makes the
//! opening's choices, weighing each position with the search.
//!
//! Levels 1–5 differ in search depth, in whether the threat searches run
//! and how deep, and (levels 1 and 2) in a little deterministic noise.

mod opening;
mod search;
mod threats;

pub use opening::choose_opening;

use crate::point::{Color, Point};
use crate::position::Position;
use search::Node;

/// The playing strength, 1 (weakest) to 5: one type for every built-in
/// computer (the data variants' too); what a level does here is [`limits`].
pub use game::Level;

/// What one level does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest alpha-beta iteration, in plies.
    pub depth: u32,
    /// Attacker moves a VCF may take; 0: no VCF search.
    pub vcf_depth: u32,
    /// Attacker moves a VCT may take; 0: no VCT search.
    pub vct_depth: u32,
    /// Points tried at each alpha-beta node.
    pub width: usize,
    /// Nodes for the whole move (threat searches and alpha-beta together).
    pub nodes: u64,
    /// Noise added to the root's scores, in evaluation units.
    pub noise: i32,
}

/// What `level` does: the depths of the alpha-beta and of the threat
/// searches, the width, the nodes and the noise.
#[must_use]
pub fn limits(level: Level) -> Limits {
    match level.number() {
        1 => Limits {
            depth: 1,
            vcf_depth: 0,
            vct_depth: 0,
            width: 12,
            nodes: 20_000,
            noise: 300,
        },
        2 => Limits {
            depth: 2,
            vcf_depth: 4,
            vct_depth: 0,
            width: 10,
            nodes: 50_000,
            noise: 60,
        },
        3 => Limits {
            depth: 3,
            vcf_depth: 10,
            vct_depth: 0,
            width: 10,
            nodes: 150_000,
            noise: 0,
        },
        4 => Limits {
            depth: 5,
            vcf_depth: 14,
            vct_depth: 2,
            width: 10,
            nodes: 400_000,
            noise: 0,
        },
        _ => Limits {
            depth: 7,
            vcf_depth: 20,
            vct_depth: 3,
            width: 10,
            nodes: 1_500_000,
            noise: 0,
        },
    }
}

/// What the computer does with its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Point),
    /// Office rules: point out black's forbidden stone (the `foul` move).
    ClaimFoul,
}

impl Decision {
    /// The move as the `Game` trait takes it: a point, or `foul`.
    #[must_use]
    pub fn coord(self) -> String {
        match self {
            Decision::Play(p) => p.to_string(),
            Decision::ClaimFoul => crate::game::CLAIM_FOUL.to_owned(),
        }
    }
}

/// Why the computer chose its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The opening stone on the centre, or the only point left.
    Forced,
    /// Its own five.
    Five,
    /// Blocking the opponent's five.
    Block,
    /// The first move of a win by continuous fours.
    Vcf,
    /// The first move of a win by continuous fours and threes.
    Vct,
    /// The alpha-beta search's best move.
    Search,
    /// Pointing out black's forbidden stone.
    Foul,
}

/// The computer's move with how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub decision: Decision,
    pub why: Why,
    /// The search's score from the mover's side (evaluation units; wins
    /// are near ±1,000,000), where there was a search.
    pub score: i32,
    /// Deepest completed alpha-beta iteration.
    pub depth: u32,
    pub nodes: u64,
}

/// Chooses a move for the side to move, or `None` when the game is over.
#[must_use]
pub fn choose(pos: &Position, level: Level) -> Option<Choice> {
    choose_within(pos, level, None)
}

/// [`choose`] under a clock: the search stops at `deadline` (the threat
/// searches at half the time left, alpha-beta at the deadline) and answers
/// with the last whole iteration's move, as a Gomocup engine must answer
/// within `timeout_turn`. Without a deadline it is [`choose`], and
/// deterministic.
#[must_use]
pub fn choose_within(pos: &Position, level: Level, deadline: Option<std::time::Instant>) -> Option<Choice> {
    if pos.end().is_some() {
        return None;
    }
    let limits = limits(level);
    let done = |decision, why| Choice {
        decision,
        why,
        score: 0,
        depth: 0,
        nodes: 0,
    };
    if pos.turn() == Color::White && pos.pending_foul().is_some() {
        return Some(done(Decision::ClaimFoul, Why::Foul));
    }
    let legal = pos.legal_moves();
    if legal.len() == 1 {
        return Some(done(Decision::Play(legal[0]), Why::Forced));
    }
    let mut node = Node::new(pos.board().clone(), pos.rules(), limits.nodes);
    node.deadline = deadline;
    let me = pos.turn();
    // Points the position allows (the opening rules) that are not
    // forbidden for black; with none, any point the position allows.
    let allowed: Vec<Point> = legal.iter().copied().filter(|&p| node.legal_for(p, me)).collect();
    let allowed = if allowed.is_empty() { legal } else { allowed };
    let (decision, why, score, depth) = node.root(me, &allowed, limits);
    Some(Choice {
        decision: Decision::Play(decision),
        why,
        score,
        depth,
        nodes: node.nodes(),
    })
}

/// The computer's move in a game, as the game's notation writes it: the
/// opening rule's steps while it runs (`choose_opening`), then
/// [`choose`]. `None` when the game is over.
#[must_use]
pub fn choose_in_game(game: &crate::game::RenjuGame, level: Level) -> Option<String> {
    if game.position().end().is_some() {
        return None;
    }
    if let Some(a) = choose_opening(game, level) {
        return Some(a.to_string());
    }
    choose(game.position(), level).map(|c| c.decision.coord())
}

#[cfg(test)]
mod tests;
