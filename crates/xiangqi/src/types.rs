//! Colours, roles and pieces: small `Copy` types, never strings.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The two sides. Red (红) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The side's name at the start of a sentence shown to players
    /// ("Red resigned"); `Display` gives the lower-case word used in data.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }

    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move: `w` for red (as Pikafish and
    /// Fairy-Stockfish write it), `b` for black.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }

    /// 红 / 黑.
    #[must_use]
    pub const fn chinese(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Black => "黑",
        }
    }
}

impl From<Color> for game::Side {
    fn from(c: Color) -> game::Side {
        match c {
            Color::Red => game::Side::First,
            Color::Black => game::Side::Second,
        }
    }
}

impl From<game::Side> for Color {
    fn from(s: game::Side) -> Color {
        match s {
            game::Side::First => Color::Red,
            game::Side::Second => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// 帅 / 将
    King = 0,
    /// 仕 / 士
    Advisor = 1,
    /// 相 / 象
    Elephant = 2,
    /// 马
    Horse = 3,
    /// 车
    Rook = 4,
    /// 炮 / 砲
    Cannon = 5,
    /// 兵 / 卒
    Pawn = 6,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];

    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case FEN letter (`rnbakcp` family).
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::King => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Rook => 'r',
            Role::Cannon => 'c',
            Role::Pawn => 'p',
        }
    }

    /// Reads a FEN letter of either family: `rnbakcp` or `rheakcp`.
    #[must_use]
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'k' => Role::King,
            'a' => Role::Advisor,
            'b' | 'e' => Role::Elephant,
            'n' | 'h' => Role::Horse,
            'r' => Role::Rook,
            'c' => Role::Cannon,
            'p' => Role::Pawn,
            _ => return None,
        })
    }

    /// WXF letters: K A E H R C P.
    #[must_use]
    pub const fn wxf_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'E',
            Role::Horse => 'H',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// How many of this piece each side starts with: the most it can ever have.
    #[must_use]
    pub const fn initial_count(self) -> u32 {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }

    /// English name, for messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Rook => "rook",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    #[must_use]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// Dense index 0..14 (red roles, then black roles), for tables.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.role.index()
    }

    #[must_use]
    pub const fn from_index(i: usize) -> Piece {
        let color = if i < 7 { Color::Red } else { Color::Black };
        let role = match i % 7 {
            0 => Role::King,
            1 => Role::Advisor,
            2 => Role::Elephant,
            3 => Role::Horse,
            4 => Role::Rook,
            5 => Role::Cannon,
            _ => Role::Pawn,
        };
        Piece { color, role }
    }

    /// FEN letter: upper case for red.
    #[must_use]
    pub fn fen_char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::Red => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The traditional glyph: 帅仕相马车炮兵 for red, 将士象马车炮卒 for black.
    #[must_use]
    pub const fn chinese(self) -> char {
        match (self.color, self.role) {
            (Color::Red, Role::King) => '帅',
            (Color::Red, Role::Advisor) => '仕',
            (Color::Red, Role::Elephant) => '相',
            (Color::Red, Role::Pawn) => '兵',
            (Color::Black, Role::King) => '将',
            (Color::Black, Role::Advisor) => '士',
            (Color::Black, Role::Elephant) => '象',
            (Color::Black, Role::Pawn) => '卒',
            (_, Role::Horse) => '马',
            (_, Role::Rook) => '车',
            (_, Role::Cannon) => '炮',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role.name())
    }
}
