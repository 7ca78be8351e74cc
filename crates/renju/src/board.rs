//! The 15×15 board: which stone stands on each point, kept twice — point by
//! point, and as bit masks along every row, column and diagonal, so that the
//! eleven points around a point in one direction are two shifts away (what
//! the shape table in `shape.rs` is indexed by).

use crate::point::{Color, Point, POINTS, SIZE};

/// The four directions of a line: along a row, along a column, the
/// diagonal (up-right) and the anti-diagonal (down-right).
pub const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Lines per direction: 15 rows or columns, 29 diagonals.
const LINES: usize = 2 * SIZE - 1;
/// Bit `pos + PAD` of a line mask stands for the point at `pos` along it
/// (its column, or its row for a column line); five bits of padding on each
/// side, which count as blocked, let a window of ±5 points be cut anywhere.
const PAD: usize = 5;

/// Where a point lies on its line in each direction: (line, position).
const fn line_of(p: usize, dir: usize) -> (usize, usize) {
    let col = p / SIZE;
    let row = p % SIZE;
    match dir {
        0 => (row, col),
        1 => (col, row),
        2 => (col + SIZE - 1 - row, col),
        _ => (col + row, col),
    }
}

const fn line_table() -> [[(u8, u8); 4]; POINTS] {
    let mut t = [[(0u8, 0u8); 4]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut d = 0;
        while d < 4 {
            let (l, pos) = line_of(p, d);
            t[p][d] = (l as u8, pos as u8);
            d += 1;
        }
        p += 1;
    }
    t
}

/// The padding of every line: bits of positions that are off the board.
const fn padding_table() -> [[u32; LINES]; 4] {
    let mut pad = [[u32::MAX; LINES]; 4];
    let mut p = 0;
    while p < POINTS {
        let mut d = 0;
        while d < 4 {
            let (l, pos) = line_of(p, d);
            pad[d][l] &= !(1 << (pos + PAD));
            d += 1;
        }
        p += 1;
    }
    pad
}

const LINE_OF: [[(u8, u8); 4]; POINTS] = line_table();
const PADDING: [[u32; LINES]; 4] = padding_table();

/// The 11 points centred on a point in one direction, as seen by one colour:
/// bit `i` stands for offset `i - 5`. `own` has that colour's stones;
/// `blocked` has the other colour's stones and the points off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub own: u32,
    pub blocked: u32,
}

/// Stones on the 15×15 board.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    cells: [Option<Color>; POINTS],
    /// `lines[colour][direction][line]`: that colour's stones along the line.
    lines: [[[u32; LINES]; 4]; 2],
    count: [u16; 2],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            cells: [None; POINTS],
            lines: [[[0; LINES]; 4]; 2],
            count: [0; 2],
        }
    }

    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells[p.index()]
    }

    #[must_use]
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.cells[p.index()].is_none()
    }

    /// Puts a stone of `color` on `p`, replacing whatever stood there.
    pub fn set(&mut self, p: Point, color: Color) {
        self.clear(p);
        self.cells[p.index()] = Some(color);
        self.count[color.index()] += 1;
        for (d, &(l, pos)) in LINE_OF[p.index()].iter().enumerate() {
            self.lines[color.index()][d][l as usize] |= 1 << (pos as usize + PAD);
        }
    }

    /// Takes the stone on `p` off, if there is one.
    pub fn clear(&mut self, p: Point) {
        if let Some(color) = self.cells[p.index()].take() {
            self.count[color.index()] -= 1;
            for (d, &(l, pos)) in LINE_OF[p.index()].iter().enumerate() {
                self.lines[color.index()][d][l as usize] &= !(1 << (pos as usize + PAD));
            }
        }
    }

    /// Number of stones of `color` on the board.
    #[must_use]
    pub fn count(&self, color: Color) -> usize {
        self.count[color.index()] as usize
    }

    /// Number of stones on the board.
    #[must_use]
    pub fn stones(&self) -> usize {
        self.count(Color::Black) + self.count(Color::White)
    }

    #[must_use]
    pub fn is_full(&self) -> bool {
        self.stones() == POINTS
    }

    /// The empty points, in point order.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        Point::all().filter(|&p| self.is_empty_at(p))
    }

    /// The stones of `color`, in point order.
    pub fn points_of(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        Point::all().filter(move |&p| self.get(p) == Some(color))
    }

    /// The 11 points centred on `p` along direction `dir` (an index into
    /// [`DIRECTIONS`]), seen by `color`. The centre bit is whatever stands on
    /// `p`.
    #[must_use]
    #[inline]
    pub fn window(&self, p: Point, dir: usize, color: Color) -> Window {
        let (l, pos) = LINE_OF[p.index()][dir];
        let (l, pos) = (l as usize, pos as u32);
        let own = self.lines[color.index()][dir][l];
        let blocked = self.lines[color.other().index()][dir][l] | PADDING[dir][l];
        Window {
            own: (own >> pos) & 0x7ff,
            blocked: (blocked >> pos) & 0x7ff,
        }
    }

    /// Whether a stone of either colour stands within two points of `p`
    /// along one of the four lines.
    #[must_use]
    #[inline]
    pub fn has_neighbour(&self, p: Point) -> bool {
        // Offsets −2, −1, +1, +2 of an 11-point window.
        const NEAR: u32 = 0b000_1101_1000;
        LINE_OF[p.index()].iter().enumerate().any(|(d, &(l, pos))| {
            let both = self.lines[0][d][l as usize] | self.lines[1][d][l as usize];
            (both >> pos) & NEAR != 0
        })
    }

    /// Length of the unbroken row of `color` through `p` along `dir`, counting
    /// `p` itself as a stone of `color` whatever stands there; capped at 11.
    #[must_use]
    pub fn run_through(&self, p: Point, dir: usize, color: Color) -> usize {
        let w = self.window(p, dir, color);
        let own = w.own | 1 << 5;
        // Stones right of the centre (bits 6..) and left of it (bits ..4).
        let right = (!(own >> 6)).trailing_zeros().min(5) as usize;
        let left = (!(own << 27)).leading_zeros().min(5) as usize;
        let mut len = 1 + left + right;
        // A row longer than the window: walk on (rare; only to report it).
        if left == 5 || right == 5 {
            len = 1;
            let (dc, dr) = DIRECTIONS[dir];
            for sign in [-1, 1] {
                let mut q = p;
                while let Some(n) = q.offset(sign * dc, sign * dr) {
                    if self.get(n) != Some(color) {
                        break;
                    }
                    len += 1;
                    q = n;
                }
            }
        }
        len
    }
}

impl std::fmt::Debug for Board {
    /// The board as a diagram, row 15 at the top: `x` black, `o` white.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for row in (0..SIZE).rev() {
            write!(f, "{:>2} ", row + 1)?;
            for col in 0..SIZE {
                let p = Point::new(col, row).expect("on the board");
                let c = match self.get(p) {
                    Some(Color::Black) => 'x',
                    Some(Color::White) => 'o',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "    a b c d e f g h i j k l m n o")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn windows_see_neighbours_and_edges() {
        let mut b = Board::empty();
        b.set(pt("a1"), Color::Black);
        b.set(pt("b1"), Color::Black);
        b.set(pt("c1"), Color::White);
        // Along row 1 from a1: five points off the board on the left.
        let w = b.window(pt("a1"), 0, Color::Black);
        assert_eq!(w.own, 0b000_0110_0000);
        assert_eq!(w.blocked, 0b000_1001_1111);
        // Along the diagonal from b2: a1 is one step down-left.
        let w = b.window(pt("b2"), 2, Color::Black);
        assert_eq!(w.own & 0x7ff, 1 << 4);
        // Anti-diagonal (down-right) from a2: b1 is one step on.
        let w = b.window(pt("a2"), 3, Color::Black);
        assert_eq!(w.own, 1 << 6);
        assert_eq!(w.blocked & 0x1f, 0x1f, "left of column a is off the board");
    }

    #[test]
    fn set_and_clear_keep_lines_in_step() {
        let mut b = Board::empty();
        for p in Point::all().filter(|p| p.index() % 3 == 0) {
            b.set(
                p,
                if p.index() % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
            );
        }
        let copy = b.clone();
        b.set(pt("h8"), Color::White);
        b.clear(pt("h8"));
        let mut expect = copy.clone();
        expect.clear(pt("h8"));
        assert_eq!(b, expect);
        for p in Point::all() {
            for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
                let w = b.window(p, d, Color::Black);
                for i in 0..11isize {
                    let q = p.offset((i - 5) * dc, (i - 5) * dr);
                    let own = q.is_some_and(|q| b.get(q) == Some(Color::Black));
                    let blocked = q.is_none_or(|q| b.get(q) == Some(Color::White));
                    assert_eq!(w.own >> i & 1 == 1, own, "{p} dir {d} offset {}", i - 5);
                    assert_eq!(w.blocked >> i & 1 == 1, blocked, "{p} dir {d} offset {}", i - 5);
                }
            }
        }
    }

    #[test]
    fn runs_are_counted_past_the_window() {
        let mut b = Board::empty();
        for c in 0..15 {
            b.set(Point::new(c, 3).unwrap(), Color::White);
        }
        assert_eq!(b.run_through(Point::new(0, 3).unwrap(), 0, Color::White), 15);
        assert_eq!(b.run_through(Point::new(7, 3).unwrap(), 1, Color::White), 1);
        b.clear(Point::new(5, 3).unwrap());
        assert_eq!(b.run_through(Point::new(7, 3).unwrap(), 0, Color::White), 9);
        assert_eq!(b.run_through(Point::new(5, 3).unwrap(), 0, Color::White), 15);
    }
}
