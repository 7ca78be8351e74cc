//! Impasse (持将棋, jishōgi) when the kings have entered the enemy camps
//! (入玉): these rules are qiju's, not rsshogi's.
//!
//! Two rule sets, one chosen per game ([`ImpasseRule`]):
//!
//! - **24 points** (the JSA's rule for its games): once both kings stand in
//!   the enemy camp and neither side can make progress, the pieces are
//!   counted — rook and bishop (promoted or not) 5 points, every other piece
//!   but the king 1, on the board and in hand. A side with fewer than 24
//!   loses; otherwise the game is 持将棋, a draw. Over the board the players
//!   agree (or the arbiter rules) that there is no progress to be made;
//!   online the side to move claims it, which it may do once both kings
//!   have entered and it is not in check.
//! - **27-point declaration** (入玉宣言法, the CSA's rule, used online): the
//!   side to move declares and wins when (1) its king is in the enemy camp,
//!   (2) it has at least ten other pieces there, (3) its pieces there and in
//!   hand are worth at least 28 points for sente, 27 for gote, (4) it is not
//!   in check (and (5) it has time left, which the clock sees to). A
//!   declaration that does not hold is refused rather than lost.
//!   In a handicap game the giver (上手, gote) needs 27 less the points it
//!   gave (qiju's adjustment; the CSA rule is written for even games).

use crate::sfen::{color_name, relative_rank};
use crate::Handicap;
use rsshogi::board::Position;
use rsshogi::types::{Color, HandPiece, PieceType};

/// Which impasse rule a game plays by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ImpasseRule {
    /// The JSA's 24-point count once both kings have entered.
    #[default]
    Points24,
    /// The CSA's 27-point declaration (宣言法).
    Declaration27,
}

impl ImpasseRule {
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            ImpasseRule::Points24 => "24",
            ImpasseRule::Declaration27 => "27",
        }
    }
}

/// A ruling by count: `winner` is `None` for 持将棋 (a draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImpasseRuling {
    pub winner: Option<Color>,
    pub reason: &'static str,
    pub detail: String,
    pub article: &'static str,
}

/// Impasse points of a piece type (king 0, rook and bishop 5, others 1).
#[must_use]
pub fn piece_points(pt: PieceType) -> u32 {
    match pt.demote() {
        PieceType::KING => 0,
        PieceType::ROOK | PieceType::BISHOP => 5,
        _ => 1,
    }
}

fn hand_points(pos: &Position, c: Color) -> u32 {
    HandPiece::iter()
        .map(|hp| pos.hand(c).count(hp) * piece_points(hp.to_piece_type()))
        .sum()
}

/// Points of all of `c`'s pieces, on the board and in hand.
#[must_use]
pub fn total_points(pos: &Position, c: Color) -> u32 {
    let board: u32 = pos
        .board_array()
        .iter()
        .filter(|(_, p)| !p.is_empty() && p.color() == c)
        .map(|(_, p)| piece_points(p.piece_type()))
        .sum();
    board + hand_points(pos, c)
}

/// Whether `c`'s king stands in the enemy camp (the three far ranks).
#[must_use]
pub fn king_entered(pos: &Position, c: Color) -> bool {
    relative_rank(c, pos.king_square(c)) <= 3
}

/// `c`'s pieces other than the king in the enemy camp: how many, and their
/// points with the hand's added (the declaration's count).
#[must_use]
pub fn camp_count(pos: &Position, c: Color) -> (u32, u32) {
    let mut pieces = 0;
    let mut points = hand_points(pos, c);
    for (sq, p) in pos.board_array().iter() {
        if p.is_empty() || p.color() != c || p.piece_type() == PieceType::KING {
            continue;
        }
        if relative_rank(c, sq) <= 3 {
            pieces += 1;
            points += piece_points(p.piece_type());
        }
    }
    (pieces, points)
}

/// What the side to move may claim under `rule`, if anything.
#[must_use]
pub fn claim(pos: &Position, rule: ImpasseRule, handicap: Option<Handicap>) -> Option<ImpasseRuling> {
    match rule {
        ImpasseRule::Points24 => count_24(pos),
        ImpasseRule::Declaration27 => declaration_27(pos, handicap),
    }
}

/// The JSA's 24-point count, when both kings have entered and the side to
/// move is not in check.
fn count_24(pos: &Position) -> Option<ImpasseRuling> {
    if pos.is_in_check() || !king_entered(pos, Color::BLACK) || !king_entered(pos, Color::WHITE) {
        return None;
    }
    let b = total_points(pos, Color::BLACK);
    let w = total_points(pos, Color::WHITE);
    let tally = format!("sente has {b} points, gote {w}");
    let short = |c: Color, p: u32| p < 24 && total_points(pos, c.flip()) >= 24;
    let winner = if short(Color::BLACK, b) {
        Some(Color::WHITE)
    } else if short(Color::WHITE, w) {
        Some(Color::BLACK)
    } else {
        None
    };
    Some(match winner {
        Some(winner) => ImpasseRuling {
            winner: Some(winner),
            reason: "impasse_points",
            detail: format!(
                "both kings have entered (入玉) and the pieces are counted: {tally}; {} has fewer than 24 and loses (JSA rules, 持将棋)",
                color_name(winner.flip())
            ),
            article: "持将棋",
        },
        None => ImpasseRuling {
            winner: None,
            reason: "impasse",
            detail: format!(
                "both kings have entered (入玉) and the pieces are counted: {tally}; neither has fewer than 24: 持将棋, a draw (JSA rules)"
            ),
            article: "持将棋",
        },
    })
}

/// The declaration's threshold for `c`.
#[must_use]
pub fn declaration_threshold(c: Color, handicap: Option<Handicap>) -> u32 {
    if c == Color::BLACK {
        28
    } else {
        27 - handicap.map_or(0, Handicap::points_removed)
    }
}

/// The CSA's 27-point declaration by the side to move, when it holds.
fn declaration_27(pos: &Position, handicap: Option<Handicap>) -> Option<ImpasseRuling> {
    let us = pos.turn();
    if pos.is_in_check() || !king_entered(pos, us) {
        return None;
    }
    let (pieces, points) = camp_count(pos, us);
    let needed = declaration_threshold(us, handicap);
    if pieces < 10 || points < needed {
        return None;
    }
    Some(ImpasseRuling {
        winner: Some(us),
        reason: "impasse_declaration",
        detail: format!(
            "{} declares (入玉宣言): its king has entered, {pieces} pieces stand in the enemy camp and with the hand they make {points} points (at least {needed} needed): {} wins (CSA 27-point rule)",
            color_name(us),
            color_name(us)
        ),
        article: "入玉宣言法",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;

    fn pos(s: &str) -> Position {
        parse_sfen(s).unwrap_or_else(|e| panic!("{s}: {e}")).0
    }

    #[test]
    fn points_of_the_start() {
        let p = pos("startpos");
        assert_eq!(total_points(&p, Color::BLACK), 27);
        assert_eq!(total_points(&p, Color::WHITE), 27);
        assert!(!king_entered(&p, Color::BLACK));
        assert_eq!(claim(&p, ImpasseRule::Points24, None), None);
        assert_eq!(claim(&p, ImpasseRule::Declaration27, None), None);
    }

    #[test]
    fn twenty_four_points() {
        // Both kings have entered: sente's on 5b, gote's on 5h. Sente holds
        // both rooks and bishops and 14 pawns (34 points), gote the other 20
        // small pieces (20): gote has fewer than 24 and loses.
        let p = pos("9/4K4/9/9/9/9/9/4k4/9 b 2R2B14P4g4s4n4l4p 1");
        assert_eq!(
            (total_points(&p, Color::BLACK), total_points(&p, Color::WHITE)),
            (34, 20)
        );
        let r = claim(&p, ImpasseRule::Points24, None).unwrap();
        assert_eq!((r.winner, r.reason), (Some(Color::BLACK), "impasse_points"));
        assert!(r.detail.contains("sente has 34 points, gote 20"), "{}", r.detail);
        // 24 against 30: 持将棋, a draw.
        let p = pos("9/4K4/9/9/9/9/9/4k4/9 b 2R2B4P4g4s4n4l14p 1");
        let r = claim(&p, ImpasseRule::Points24, None).unwrap();
        assert_eq!((r.winner, r.reason), (None, "impasse"));
        // 23 against 31: sente loses, whoever claims.
        let p = pos("9/4K4/9/9/9/9/9/4k4/9 w 2R2B3P4g4s4n4l15p 1");
        let r = claim(&p, ImpasseRule::Points24, None).unwrap();
        assert_eq!(r.winner, Some(Color::WHITE));
        // Gote's king still on 5e: no count.
        let p = pos("9/4K4/9/9/4k4/9/9/9/9 b 2R2B14P4g4s4n4l4p 1");
        assert_eq!(claim(&p, ImpasseRule::Points24, None), None);
        // Not while in check: gote's lance on 5a gives check.
        let p = pos("4l4/4K4/9/9/9/9/9/4k4/9 b 2R2B14P4g4s4n3l4p 1");
        assert!(p.is_in_check());
        assert_eq!(claim(&p, ImpasseRule::Points24, None), None);
        // The 24-point rule allows no declaration.
        assert_eq!(claim(&p, ImpasseRule::Declaration27, None), None);
    }

    const DECLARES: &str = "+P+P+P+P5/+P+P+P6/+P+P+P1K4/9/8k/9/9/9/9 b 2R2B4g4s4n4l8p 1";

    #[test]
    fn twenty_seven_point_declaration() {
        // Ten tokins in the camp and both rooks and bishops in hand: 30.
        let p = pos(DECLARES);
        assert_eq!(camp_count(&p, Color::BLACK), (10, 30));
        let r = claim(&p, ImpasseRule::Declaration27, None).unwrap();
        assert_eq!((r.winner, r.reason), (Some(Color::BLACK), "impasse_declaration"));
        // Gote's king has not entered, so there is no 24-point count.
        assert_eq!(claim(&p, ImpasseRule::Points24, None), None);
        // Nine pieces in the camp: no declaration.
        let p = pos("+P+P+P+P5/+P+P+P6/1+P+P1K4/9/8k/9/9/9/9 b 2R2B4g4s4n4l9p 1");
        assert_eq!(camp_count(&p, Color::BLACK).0, 9);
        assert_eq!(claim(&p, ImpasseRule::Declaration27, None), None);
        // 25 points (a bishop fewer): no declaration.
        let p = pos("+P+P+P+P5/+P+P+P6/+P+P+P1K4/9/8k/9/9/9/9 b 2RB4g4s4n4l8pb 1");
        assert_eq!(camp_count(&p, Color::BLACK), (10, 25));
        assert_eq!(claim(&p, ImpasseRule::Declaration27, None), None);
        // The king outside the camp: no declaration.
        let p = pos("+P+P+P+P5/+P+P+P6/+P+P+P6/4K4/8k/9/9/9/9 b 2R2B4g4s4n4l8p 1");
        assert_eq!(claim(&p, ImpasseRule::Declaration27, None), None);
        // Not on gote's turn (the declarer must be to move).
        let p = pos("+P+P+P+P5/+P+P+P6/+P+P+P1K4/9/8k/9/9/9/9 w 2R2B4g4s4n4l8p 1");
        assert_eq!(claim(&p, ImpasseRule::Declaration27, None), None);
        // Gote needs 27: ten tokins, and a rook, a bishop and seven small
        // pieces in hand make exactly 27.
        let p = pos("K8/9/9/9/9/9/4k1+p+p+p/5+p+p+p+p/6+p+p+p w RBS4N4L8Prb4g3s 1");
        assert_eq!(camp_count(&p, Color::WHITE), (10, 27));
        let r = claim(&p, ImpasseRule::Declaration27, None).unwrap();
        assert_eq!(r.winner, Some(Color::WHITE));
        // 26 is short — unless gote gave a lance's handicap (27 − 1).
        let p = pos("K8/9/9/9/9/9/4k1+p+p+p/5+p+p+p+p/6+p+p+p w RB2S4N4L8Prb4g2s 1");
        assert_eq!(camp_count(&p, Color::WHITE), (10, 26));
        assert_eq!(claim(&p, ImpasseRule::Declaration27, None), None);
        assert_eq!(declaration_threshold(Color::WHITE, Some(Handicap::Lance)), 26);
        let r = claim(&p, ImpasseRule::Declaration27, Some(Handicap::Lance)).unwrap();
        assert_eq!(r.winner, Some(Color::WHITE));
    }
}
