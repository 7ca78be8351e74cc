//! What the referee's data-driven tests share.

use referee::Decision;
use xiangqi::Color;

/// The ruling as the test data writes it: who must change (and so loses if
/// he does not), who lost, or a draw.
pub fn verdict(d: Decision) -> &'static str {
    match d {
        Decision::RedWins | Decision::MustChange { side: Color::Black } => "black loses",
        Decision::BlackWins | Decision::MustChange { side: Color::Red } => "red loses",
        Decision::Draw => "draw",
        Decision::Ongoing => "ongoing",
    }
}
