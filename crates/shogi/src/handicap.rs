//! Handicap games (駒落ち): the giver (上手, uwate) plays without some of
//! its pieces and moves first. In SFEN, KIF and CSA the giver is gote (`w`,
//! the upper side), so a handicap start has gote to move; in qiju's words
//! the giver is the `first` side, the side that moves first.

use crate::sfen::STARTPOS;

/// The handicaps the JSA's tables name, from the lightest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 香落ち: the giver's left lance (1a).
    Lance,
    /// 角落ち: the bishop.
    Bishop,
    /// 飛車落ち: the rook.
    Rook,
    /// 飛香落ち: the rook and the left lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 四枚落ち: rook, bishop and both lances.
    FourPieces,
    /// 六枚落ち: rook, bishop, lances and knights.
    SixPieces,
    /// 八枚落ち: rook, bishop, lances, knights and silvers.
    EightPieces,
    /// 十枚落ち: everything but the king and the golds — the king and pawns stay.
    TenPieces,
}

impl Handicap {
    pub const ALL: [Handicap; 9] = [
        Handicap::Lance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::FourPieces,
        Handicap::SixPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    /// A short ASCII id (`lance`, `two-pieces`, …) for URLs and the CLI.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Handicap::Lance => "lance",
            Handicap::Bishop => "bishop",
            Handicap::Rook => "rook",
            Handicap::RookLance => "rook-lance",
            Handicap::TwoPieces => "two-pieces",
            Handicap::FourPieces => "four-pieces",
            Handicap::SixPieces => "six-pieces",
            Handicap::EightPieces => "eight-pieces",
            Handicap::TenPieces => "ten-pieces",
        }
    }

    /// The name KIF's `手合割` line and players use.
    #[must_use]
    pub fn japanese(self) -> &'static str {
        match self {
            Handicap::Lance => "香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPieces => "二枚落ち",
            Handicap::FourPieces => "四枚落ち",
            Handicap::SixPieces => "六枚落ち",
            Handicap::EightPieces => "八枚落ち",
            Handicap::TenPieces => "十枚落ち",
        }
    }

    /// The start position: the giver's pieces removed, gote (the giver) to move.
    #[must_use]
    pub fn sfen(self) -> &'static str {
        match self {
            Handicap::Lance => "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Bishop => "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::Rook => "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::RookLance => "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::TwoPieces => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::FourPieces => "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::SixPieces => "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::EightPieces => "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            Handicap::TenPieces => "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        }
    }

    /// The impasse points (rook and bishop 5, the rest 1) the giver starts
    /// without.
    #[must_use]
    pub fn points_removed(self) -> u32 {
        match self {
            Handicap::Lance => 1,
            Handicap::Bishop | Handicap::Rook => 5,
            Handicap::RookLance => 6,
            Handicap::TwoPieces => 10,
            Handicap::FourPieces => 12,
            Handicap::SixPieces => 14,
            Handicap::EightPieces => 16,
            Handicap::TenPieces => 18,
        }
    }

    /// The handicap by its id, its Japanese name, or `None` for an unknown one.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Handicap> {
        Handicap::ALL
            .into_iter()
            .find(|h| h.id() == name || h.japanese() == name)
    }

    /// The handicap whose start position `sfen` is (move number aside).
    #[must_use]
    pub fn of_start(sfen: &str) -> Option<Handicap> {
        let head = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        let sfen = head(sfen);
        Handicap::ALL.into_iter().find(|h| head(h.sfen()) == sfen)
    }
}

impl std::fmt::Display for Handicap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// Whether `sfen` is the even-game start (move number aside).
#[must_use]
pub fn is_even_start(sfen: &str) -> bool {
    let head = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    head(sfen) == head(STARTPOS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfen::{parse_sfen, write_sfen};

    #[test]
    fn every_handicap_is_a_legal_start_with_the_giver_to_move() {
        let (even, _) = parse_sfen(STARTPOS).unwrap();
        let points = |pos: &rsshogi::board::Position, c| crate::impasse::total_points(pos, c);
        for h in Handicap::ALL {
            let (pos, n) = parse_sfen(h.sfen()).unwrap_or_else(|e| panic!("{h}: {e}"));
            assert_eq!(write_sfen(&pos, n), h.sfen());
            assert_eq!(
                pos.turn(),
                rsshogi::types::Color::WHITE,
                "{h}: the giver moves first"
            );
            assert_eq!(
                points(&even, rsshogi::types::Color::WHITE) - points(&pos, rsshogi::types::Color::WHITE),
                h.points_removed(),
                "{h}"
            );
            assert_eq!(Handicap::from_name(h.japanese()), Some(h));
            assert_eq!(Handicap::from_name(h.id()), Some(h));
            assert_eq!(Handicap::of_start(h.sfen()), Some(h));
        }
        assert!(is_even_start(STARTPOS));
        assert_eq!(Handicap::of_start(STARTPOS), None);
    }
}
