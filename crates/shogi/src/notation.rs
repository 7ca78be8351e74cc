//! How players read moves: Japanese notation (▲７六歩 △３四歩, 同　歩,
//! 成/不成, 打, and 右/左/上/引/寄/直 where two pieces of a kind can reach the
//! square) and western notation (Hodges: `P-7f`, `Bx2b+`, `P*5e`, `S-2c=`,
//! `G6i-5h`).
//!
//! Japanese notation is rsshogi's KI2 writer, which follows the JSA's
//! 棋譜の表記方法 (the disambiguation order: 上/引/寄 by direction first,
//! then 右/左, then 直). Western notation is ours.

use crate::sfen::file_rank;
use crate::usi::legal_moves;
use rsshogi::board::Position;
use rsshogi::types::{Color, Ki2Notation, Move32, PieceType, Square};

/// The move in Japanese notation, as the position before it sees it
/// (▲７六歩, △同　角成, ▲５五角打). The previous move on the position's
/// stack decides 同.
///
/// # Panics
/// When `m` is not legal in `pos` (callers pass legal moves).
#[must_use]
pub fn japanese(pos: &Position, m: Move32) -> String {
    m.to_ki2(pos).expect("a legal move has a Japanese notation")
}

/// Reads a move in Japanese notation (`▲７六歩`, `△同　銀`, `▲５八金右`,
/// `☗２二角成`) on the position, as KI2 records write moves. The JSA's exact form is read first (rsshogi's reader); then,
/// as people write them, a redundant 打 or a form that leaves out what no
/// other legal move needs (`▲２二角` when only the promotion is legal) — as
/// long as it names one legal move. Two or more are named back.
///
/// # Errors
/// A message saying the text is unreadable, is the other side's move,
/// names no legal move, or is ambiguous (with the candidates).
pub fn parse_japanese(pos: &Position, text: &str) -> Result<rsshogi::types::Move32, String> {
    let squeeze = |t: &str| {
        t.trim()
            .replace('☗', "▲")
            .replace('☖', "△")
            .replace('竜', "龍")
            .replace('王', "玉")
            .replace([' ', '　'], "")
    };
    let text = squeeze(text);
    let side_ok = match text.chars().next() {
        Some('▲') => pos.turn() == Color::BLACK,
        Some('△') => pos.turn() == Color::WHITE,
        _ => return Err(format!("{text:?} does not start with ▲ or △")),
    };
    if !side_ok {
        return Err(format!("{text:?} is not the move of the side to move"));
    }
    let mut exact = vec![text.clone()];
    if let Some(stripped) = text.strip_suffix('打') {
        exact.push(stripped.to_string());
    }
    for c in &exact {
        if let Ok(Ok(m)) = c.parse::<Ki2Notation>().map(|n| n.to_move32(pos)) {
            return Ok(m);
        }
    }
    let named: Vec<(rsshogi::types::Move32, String)> = legal_moves(pos)
        .into_iter()
        .map(|m| (m, japanese(pos, m)))
        .filter(|(_, j)| exact.iter().any(|c| squeeze(j).starts_with(c.as_str())))
        .collect();
    match &named[..] {
        [(m, _)] => Ok(*m),
        [] => Err(format!("{text:?} names no legal move")),
        many => Err(format!(
            "{text:?} is ambiguous: {}",
            many.iter()
                .map(|(_, j)| j.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// A piece letter as Hodges writes it (`P`, `+R` for a dragon).
#[must_use]
pub fn western_piece(pt: PieceType) -> String {
    let base = match pt.demote() {
        PieceType::PAWN => 'P',
        PieceType::LANCE => 'L',
        PieceType::KNIGHT => 'N',
        PieceType::SILVER => 'S',
        PieceType::GOLD => 'G',
        PieceType::BISHOP => 'B',
        PieceType::ROOK => 'R',
        _ => 'K',
    };
    if pt.is_promoted() {
        format!("+{base}")
    } else {
        base.to_string()
    }
}

/// A square as western notation writes it (`7f`).
#[must_use]
pub fn western_square(sq: Square) -> String {
    let (file, rank) = file_rank(sq);
    format!("{file}{}", (b'a' + rank - 1) as char)
}

/// The move in western notation: piece, origin when another piece of the
/// kind could go there too, `-` (a move), `x` (a capture) or `*` (a drop),
/// the square, then `+` for a promotion and `=` for one declined.
#[must_use]
pub fn western(pos: &Position, m: Move32) -> String {
    let to = m.to_sq();
    if let Some(pt) = m.dropped_piece() {
        return format!("{}*{}", western_piece(pt), western_square(to));
    }
    let from = m.from_sq();
    let pt = pos.piece_on(from).piece_type();
    let legal = legal_moves(pos);
    let ambiguous = legal.iter().any(|o| {
        !o.is_drop() && o.to_sq() == to && o.from_sq() != from && pos.piece_on(o.from_sq()).piece_type() == pt
    });
    let mut out = western_piece(pt);
    if ambiguous {
        out.push_str(&western_square(from));
    }
    out.push(if pos.piece_on(to).is_empty() { '-' } else { 'x' });
    out.push_str(&western_square(to));
    if m.is_promotion() {
        out.push('+');
    } else if legal
        .iter()
        .any(|o| o.is_promotion() && !o.is_drop() && o.from_sq() == from && o.to_sq() == to)
    {
        out.push('=');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::parse_sfen;
    use crate::usi::parse_usi;

    fn both(sfen: &str, usi: &str) -> (String, String) {
        let (pos, _) = parse_sfen(sfen).unwrap();
        let m = parse_usi(&pos, usi).unwrap_or_else(|e| panic!("{usi}: {e}"));
        (japanese(&pos, m), western(&pos, m))
    }

    #[test]
    fn opening_moves() {
        assert_eq!(both("startpos", "7g7f"), ("▲７六歩".into(), "P-7f".into()));
        let (mut pos, _) = parse_sfen("startpos").unwrap();
        for u in ["7g7f", "3c3d"] {
            let m = parse_usi(&pos, u).unwrap();
            pos.apply_move32(m);
        }
        let m = parse_usi(&pos, "8h2b+").unwrap();
        assert_eq!(japanese(&pos, m), "▲２二角成");
        assert_eq!(western(&pos, m), "Bx2b+");
        let m = parse_usi(&pos, "8h2b").unwrap();
        assert_eq!(japanese(&pos, m), "▲２二角不成");
        assert_eq!(western(&pos, m), "Bx2b=");
        pos.apply_move32(parse_usi(&pos, "8h2b+").unwrap());
        // Recapture on the same square: 同.
        let m = parse_usi(&pos, "3a2b").unwrap();
        assert_eq!(japanese(&pos, m), "△同　銀");
        assert_eq!(western(&pos, m), "Sx2b");
        pos.apply_move32(m);
        // A drop: 打 only when a board piece could also go there.
        let m = parse_usi(&pos, "B*4e").unwrap();
        assert_eq!(japanese(&pos, m), "▲４五角");
        assert_eq!(western(&pos, m), "B*4e");
    }

    #[test]
    fn disambiguation() {
        // Golds on 6i and 4i can both reach 5h: 右 / 左 (from sente's side,
        // the gold on 4i is on the right), western gives the origin.
        let start = "startpos";
        assert_eq!(both(start, "6i5h"), ("▲５八金左".into(), "G6i-5h".into()));
        assert_eq!(both(start, "4i5h"), ("▲５八金右".into(), "G4i-5h".into()));
        // Only one gold can reach 7h: no suffix.
        assert_eq!(both(start, "6i7h"), ("▲７八金".into(), "G-7h".into()));
        // 打 when a piece of the kind on the board could also move there:
        // a sente gold on 5i can step to 5h, so G*5h is written 打.
        let s = "4k4/9/9/9/9/9/9/9/3GK4 b G 1";
        assert_eq!(both(s, "G*5h"), ("▲５八金打".into(), "G*5h".into()));
        assert_eq!(both(s, "6i5h"), ("▲５八金".into(), "G-5h".into()));
        // 直: of two golds, the one straight behind the square moves up.
        let s = "4k4/9/9/9/9/9/9/9/3GGK3 b - 1";
        assert_eq!(both(s, "5i5h").0, "▲５八金直");
        assert_eq!(both(s, "6i5h").0, "▲５八金左");
        // 上 / 引 / 寄 by direction.
        let s = "4k4/9/9/9/9/5S3/9/3S5/5K3 b - 1";
        // Silvers on 4f and 6h; both reach 5g: 4f moves down-left (引),
        // 6h moves up-right (上).
        assert_eq!(both(s, "4f5g"), ("▲５七銀引".into(), "S4f-5g".into()));
        assert_eq!(both(s, "6h5g").0, "▲５七銀上");
        let s = "4k4/9/9/9/9/9/3G1G3/9/5K3 b - 1";
        // Golds on 6g and 4g both step sideways to 5g: 右 / 左 (寄 alone is
        // not enough).
        assert_eq!(both(s, "4g5g").0, "▲５七金右");
        assert_eq!(both(s, "6g5g").0, "▲５七金左");
    }

    #[test]
    fn dragons_and_horses_take_no_straight() {
        // JSA: with two dragons (or horses) 直 is not used; 左/右 tell them
        // apart. Dragons on 5i and 4i both step up to 5h.
        let s = "8k/9/9/9/9/9/9/9/K3+R+R3 b - 1";
        assert_eq!(both(s, "5i5h").0, "▲５八龍左");
        assert_eq!(both(s, "4i5h").0, "▲５八龍右");
        // One moves along the rank, the other up: 寄 and 上 suffice.
        let s = "8k/9/9/9/9/9/9/+R8/K4+R3 b - 1";
        assert_eq!(both(s, "9h5h").0, "▲５八龍寄");
        assert_eq!(both(s, "4i5h").0, "▲５八龍上");
    }

    #[test]
    fn promoted_pieces_and_gote() {
        let s = "4k4/9/9/9/9/9/9/4+r4/K8 w - 1";
        // Gote's dragon on 5h takes nothing; it moves to 5i, giving check?
        let (j, w) = both(s, "5h5i");
        assert_eq!(j, "△５九龍");
        assert_eq!(w, "+R-5i");
    }
}
