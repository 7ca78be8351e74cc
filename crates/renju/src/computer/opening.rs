//! The computer's side of the opening rules (swap2, Soosõrv-8): which
//! stones to open with, which colour to take, how many 5th moves to ask
//! for, which to offer and which to pick. Every decision that weighs a
//! position asks the search what it thinks of it, from the colour to move.

use super::search::Node;
use super::{choose, Level};
use crate::game::RenjuGame;
use crate::opening::{Action, Phase};
use crate::point::{Color, Point};
use crate::position::Position;

/// Opening stones the computer plays as the first player: swap2's three
/// anywhere, and Soosõrv's one of the 26 openings (h8, then the 3×3, then
/// the 5×5). Both are chosen to leave the position near balance, so that
/// the other player's choice matters little; which one is played depends
/// on the level only (the computer is deterministic).
const SWAP2_OPENINGS: [[&str; 3]; 3] = [["h8", "j9", "g11"], ["h8", "k8", "h11"], ["g7", "j10", "k7"]];
const SOOSORV_OPENINGS: [[&str; 3]; 3] = [["h8", "h9", "h11"], ["h8", "i9", "j6"], ["h8", "i9", "f10"]];

/// A level that weighs positions quickly.
fn judge_level(level: Level) -> Level {
    Level::new(level.number().min(3)).unwrap_or(Level::MIN)
}

/// What the search makes of `pos` for the colour to move (evaluation
/// units; wins near ±1,000,000).
fn worth(pos: &Position, level: Level) -> i32 {
    choose(pos, judge_level(level)).map_or(0, |c| c.score)
}

/// The position's board with `color` to move, the opening over (for
/// weighing only).
fn as_play(game: &RenjuGame, color: Color) -> Option<Position> {
    let setup = crate::fen::Setup {
        board: game.position().board().clone(),
        turn: color,
    };
    Position::from_setup(setup, game.rules().without_opening()).ok()
}

/// The colour the player to move takes when it may choose: black unless
/// white, to move next with `white_to_move`, is judged better.
fn better_colour(game: &RenjuGame, level: Level, next: Color) -> Color {
    let Some(pos) = as_play(game, next) else {
        return Color::Black;
    };
    let s = worth(&pos, level);
    // `s` is the next stone's colour's view.
    let next_good = s >= 0;
    if next_good {
        next
    } else {
        next.other()
    }
}

/// The computer's move in the opening, or `None` once the opening is over
/// (the ordinary search plays then).
#[must_use]
pub fn choose_opening(game: &RenjuGame, level: Level) -> Option<Action> {
    let legal = game.legal_actions();
    let pick = usize::from(level.number()) % 3;
    match game.phase() {
        Phase::Play => None,
        Phase::Opening => {
            let list = if matches!(game.rules().opening, crate::rules::Opening::Soosorv { .. }) {
                SOOSORV_OPENINGS[pick]
            } else {
                SWAP2_OPENINGS[pick]
            };
            let n = game.position().board().stones();
            let p: Point = list[n.min(2)].parse().ok()?;
            let a = Action::Stone(p);
            Some(if legal.contains(&a) { a } else { *legal.first()? })
        }
        Phase::Swap2Choice | Phase::Swap2Final | Phase::FirstSwap => {
            // The next stone is white's in all three.
            Some(Action::Choose(better_colour(game, level, Color::White)))
        }
        Phase::SecondSwap { .. } => Some(Action::Choose(better_colour(game, level, Color::Black))),
        Phase::Swap2More | Phase::Fourth => {
            let c = choose(game.position(), level)?;
            match c.decision {
                super::Decision::Play(p) if legal.contains(&Action::Stone(p)) => Some(Action::Stone(p)),
                _ => legal.first().copied(),
            }
        }
        Phase::Declare => {
            // Many offers help white (it picks the worst for black) but
            // invite black's player to swap: ask for more the better black
            // stands.
            let pos = as_play(game, Color::Black)?;
            let s = worth(&pos, level);
            let n = (2 + s / 400).clamp(1, 8) as u8;
            let a = Action::Declare(n);
            Some(if legal.contains(&a) { a } else { *legal.first()? })
        }
        Phase::Offering { .. } => {
            // Black's best points first: white will pick the weakest, so
            // each offer should be as good as can be.
            let pos = as_play(game, Color::Black)?;
            let mut node = Node::new(pos.board().clone(), pos.rules(), 10_000);
            let cands = node.candidates();
            let ordered = node.ordered(Color::Black, &cands, 40);
            ordered
                .into_iter()
                .map(Action::Offer)
                .find(|a| legal.contains(a))
                .or_else(|| legal.first().copied())
        }
        Phase::Selecting { offered } => {
            // The offer after which white stands best.
            let mut best: Option<(i32, Point)> = None;
            for &p in offered {
                let mut pos = as_play(game, Color::Black)?;
                if pos.play(p).is_err() {
                    continue;
                }
                let s = worth(&pos, level);
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, p));
                }
            }
            best.map(|(_, p)| Action::Select(p))
                .or_else(|| legal.first().copied())
        }
    }
}
