//! What one black stone makes along one line: the shape table.
//!
//! A point's neighbourhood in one direction is the eleven points centred on
//! it (a five, a four and a three through the centre all lie within ±5). Each
//! of the ten outer points is empty, black, or blocked (white or off the
//! board): 3^10 = 59,049 neighbourhoods. For each, with a black stone put on
//! the centre, the table says — straight from the definitions of RIF article
//! 3 — whether the centre makes five in a row, an overline, how many fours,
//! and which points would turn a three through the centre into a straight
//! four. The forbidden-point search (`forbidden.rs`) then reads four table
//! entries per point and recurses only for the points of a three.
//!
//! A second table answers the same questions where six or more in a row
//! wins too (freestyle gomoku, white in renju); the computer player reads
//! both, with the points that would win and a measure of room to grow.

use crate::board::Window;
use std::sync::LazyLock;

/// The entry of the shape table for one line through a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct LineShape(u32);

const FIVE: u32 = 1;
const OVERLINE: u32 = 2;
const FOURS_SHIFT: u32 = 2;
const THREE_SHIFT: u32 = 4;
const WIN_POINTS_SHIFT: u32 = 11;
const ROOM_SHIFT: u32 = 20;

impl LineShape {
    /// The centre makes an unbroken row of exactly five (RIF 3, "five in a row").
    #[must_use]
    pub const fn five(self) -> bool {
        self.0 & FIVE != 0
    }

    /// The centre makes an unbroken row of six or more (RIF 3, "overline").
    #[must_use]
    pub const fn overline(self) -> bool {
        self.0 & OVERLINE != 0
    }

    /// The number of fours through the centre along this line: rows of four
    /// stones that one more stone makes exactly five (RIF 3, "four"). A
    /// straight four is one four; `x.xxx.x` with the centre among the middle
    /// three is two.
    #[must_use]
    pub const fn fours(self) -> u32 {
        (self.0 >> FOURS_SHIFT) & 3
    }

    /// The points that would make the three through the centre a straight
    /// four, as a mask over offsets −3 … +3 (bit `offset + 3`); empty when
    /// the line has no three. Whether it is a real three depends on those
    /// points not being forbidden and not making five (RIF 3, "three"),
    /// which the table cannot know.
    #[must_use]
    pub const fn three_points(self) -> u8 {
        (self.0 >> THREE_SHIFT) as u8 & 0x7f
    }

    /// The points where one more stone would then win along this line, as a
    /// mask over offsets −4 … +4 (bit `offset + 4`).
    #[must_use]
    pub const fn win_points(self) -> u16 {
        ((self.0 >> WIN_POINTS_SHIFT) & 0x1ff) as u16
    }

    /// Room to grow: the most own stones (besides the centre) in a window of
    /// five points through the centre with nothing blocked in it, 0 … 4;
    /// 0 also when no such window exists.
    #[must_use]
    pub const fn room(self) -> u32 {
        (self.0 >> ROOM_SHIFT) & 7
    }

    /// Nothing on this line can make the centre forbidden or winning.
    #[must_use]
    pub const fn is_quiet(self) -> bool {
        self.0 & ((1 << WIN_POINTS_SHIFT) - 1) == 0
    }
}

/// Cell states in a neighbourhood.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const BLOCKED: u8 = 2;

/// The run of own stones through index 5: (first, last).
fn run(cells: &[u8; 11]) -> (usize, usize) {
    let mut s = 5;
    while s > 0 && cells[s - 1] == OWN {
        s -= 1;
    }
    let mut e = 5;
    while e < 10 && cells[e + 1] == OWN {
        e += 1;
    }
    (s, e)
}

fn mask(s: usize, e: usize) -> u16 {
    ((1u32 << (e + 1)) - (1u32 << s)) as u16
}

/// Whether a row of `len` wins: exactly five, or five or more.
const fn wins(len: usize, exact: bool) -> bool {
    if exact {
        len == 5
    } else {
        len >= 5
    }
}

/// Putting one more stone on `a` makes a winning row through the centre.
fn five_with(cells: &mut [u8; 11], a: usize, exact: bool) -> bool {
    cells[a] = OWN;
    let (s, e) = run(cells);
    cells[a] = EMPTY;
    wins(e - s + 1, exact) && (s..=e).contains(&a)
}

/// The shape of one neighbourhood (centre own), from the definitions; with
/// `exact`, only exactly five wins (black in renju, standard gomoku),
/// otherwise five or more. Also returns the number of distinct threes,
/// which must be at most one.
pub(crate) fn classify_as(cells: &[u8; 11], exact: bool) -> (LineShape, usize) {
    let mut cells = *cells;
    cells[5] = OWN;
    let (s, e) = run(&cells);
    let len = e - s + 1;
    let mut bits = 0u32;
    if wins(len, exact) {
        bits |= FIVE;
    }
    if len >= 6 {
        bits |= OVERLINE;
    }
    // Fours: every empty point that completes a winning row through the
    // centre; the four is that row less the point (its first five, for a
    // longer row). Distinct fours count.
    let mut fours: Vec<u16> = Vec::new();
    for q in 1..=9 {
        if q != 5 && cells[q] == EMPTY {
            cells[q] = OWN;
            let (s, e) = run(&cells);
            cells[q] = EMPTY;
            if wins(e - s + 1, exact) && (s..=e).contains(&q) {
                let four = mask(s, e) & !(1 << q);
                if !fours.contains(&four) {
                    fours.push(four);
                }
                bits |= 1 << (WIN_POINTS_SHIFT + (q as u32 + 4 - 5));
            }
        }
    }
    bits |= (fours.len().min(3) as u32) << FOURS_SHIFT;
    // Threes: an empty point q that makes an unbroken four through the
    // centre, open at both ends, each end completing exactly five (a
    // straight four). The three is that four less q.
    let mut threes: Vec<u16> = Vec::new();
    for q in 2..=8 {
        if q != 5 && cells[q] == EMPTY {
            cells[q] = OWN;
            let (s, e) = run(&cells);
            let straight = e - s + 1 == 4
                && (s..=e).contains(&q)
                && cells[s - 1] == EMPTY
                && cells[e + 1] == EMPTY
                && five_with(&mut cells, s - 1, exact)
                && five_with(&mut cells, e + 1, exact);
            cells[q] = EMPTY;
            if straight {
                let three = mask(s, e) & !(1 << q);
                if !threes.contains(&three) {
                    threes.push(three);
                }
                bits |= 1 << (THREE_SHIFT + (q as u32 + 3 - 5));
            }
        }
    }
    // Room: the fullest unblocked window of five through the centre.
    let room = (1..=5)
        .filter(|&a| (a..a + 5).all(|i| cells[i] != BLOCKED))
        .map(|a| (a..a + 5).filter(|&i| i != 5 && cells[i] == OWN).count())
        .max()
        .unwrap_or(0);
    bits |= (room as u32) << ROOM_SHIFT;
    (LineShape(bits), threes.len())
}

/// The shape for black under the RIF rules (exactly five wins).
#[cfg(test)]
fn classify(cells: &[u8; 11]) -> (LineShape, usize) {
    classify_as(cells, true)
}

/// Base-3 value of a 5-bit mask read as digits 0/1.
const fn base3_table() -> [u16; 32] {
    let mut t = [0u16; 32];
    let mut m = 0;
    while m < 32 {
        let mut v = 0u16;
        let mut pow = 1u16;
        let mut i = 0;
        while i < 5 {
            if m >> i & 1 == 1 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
}

const BASE3: [u16; 32] = base3_table();
/// 3^10 neighbourhoods.
const ENTRIES: usize = 59_049;

/// The table index of a window (its centre bit is ignored).
#[inline]
#[must_use]
pub fn index(w: Window) -> usize {
    let lo = BASE3[(w.own & 0x1f) as usize] + 2 * BASE3[(w.blocked & 0x1f) as usize];
    let hi = BASE3[(w.own >> 6 & 0x1f) as usize] + 2 * BASE3[(w.blocked >> 6 & 0x1f) as usize];
    lo as usize + 243 * hi as usize
}

/// The neighbourhood a table index stands for.
fn cells_of(mut index: usize) -> [u8; 11] {
    let mut cells = [EMPTY; 11];
    for (i, c) in cells.iter_mut().enumerate() {
        if i == 5 {
            continue;
        }
        *c = match index % 3 {
            0 => EMPTY,
            1 => OWN,
            _ => BLOCKED,
        };
        index /= 3;
    }
    cells
}

static TABLE: LazyLock<Box<[LineShape]>> =
    LazyLock::new(|| (0..ENTRIES).map(|i| classify_as(&cells_of(i), true).0).collect());
static TABLE_FREE: LazyLock<Box<[LineShape]>> =
    LazyLock::new(|| (0..ENTRIES).map(|i| classify_as(&cells_of(i), false).0).collect());

/// The shape of the line through `w`'s centre if its colour puts a stone
/// there, where exactly five wins (black in renju, standard gomoku).
#[inline]
#[must_use]
pub fn lookup(w: Window) -> LineShape {
    TABLE[index(w)]
}

/// The same where five or more wins (freestyle; white in renju).
#[inline]
#[must_use]
pub fn lookup_free(w: Window) -> LineShape {
    TABLE_FREE[index(w)]
}

/// Builds the tables now rather than on the first lookup (for benchmarks).
pub fn warm_up() {
    LazyLock::force(&TABLE);
    LazyLock::force(&TABLE_FREE);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a neighbourhood written as 11 characters: `x` black, `o` or `|`
    /// blocked, `.` empty; the centre (index 5) is put black.
    fn shape(s: &str) -> LineShape {
        let cells: Vec<u8> = s
            .chars()
            .map(|c| match c {
                'x' | 'X' => OWN,
                '.' => EMPTY,
                _ => BLOCKED,
            })
            .collect();
        let cells: [u8; 11] = cells.try_into().unwrap();
        let (shape, _) = classify(&cells);
        // The table agrees with the classification of the same cells.
        let own = (0..11).filter(|&i| cells[i] == OWN).fold(0, |m, i| m | 1 << i);
        let blocked = (0..11)
            .filter(|&i| cells[i] == BLOCKED)
            .fold(0, |m, i| m | 1 << i);
        assert_eq!(lookup(Window { own, blocked }), shape, "{s}");
        shape
    }

    #[test]
    fn fives_and_overlines() {
        assert!(shape("...xxXxx...").five());
        assert!(shape("ooooxXxxxoo").five());
        assert!(shape("..xxxXxx...").overline());
        assert!(!shape("..xxxXxx...").five());
        assert!(shape("xxxxxX.....").overline());
        assert!(!shape(".xxx.X.....").five());
    }

    /// The straight-four points of a line's three, as offsets from the centre.
    fn offsets(s: LineShape) -> Vec<isize> {
        (0..7)
            .filter(|b| s.three_points() >> b & 1 == 1)
            .map(|b| b - 3)
            .collect()
    }

    #[test]
    fn fours() {
        assert_eq!(shape("...xxX.x...").fours(), 1);
        assert_eq!(shape("...xxXx....").fours(), 1, "straight four: one four");
        assert_eq!(shape("..x.xXx.x..").fours(), 2, "x.xxx.x: two fours in one line");
        assert_eq!(shape(".xx.xX.xx..").fours(), 2, "xx.xx.xx: two");
        assert!(shape("...xx.xx...").five());
        assert_eq!(shape("...xx.xx...").fours(), 0, "a five has no four");
        assert_eq!(shape("xxx.xX.xxx.").fours(), 0, "the completions make overlines");
        assert_eq!(shape("xx.xxX.....").fours(), 0, "xx.xxx: filling makes six");
        assert_eq!(shape("oxxxxX.....").fours(), 0, "already five");
        assert_eq!(shape("....xXxx...").fours(), 1);
        assert_eq!(shape("...oxXxx...").fours(), 1, "closed four");
        assert_eq!(shape("...oxXxxo..").fours(), 0, "dead four");
    }

    #[test]
    fn threes() {
        assert_eq!(offsets(shape("...xxX.....")), [-3, 1]);
        assert_eq!(offsets(shape("....xXx....")), [-2, 2]);
        assert_eq!(offsets(shape("..o.xXx....")), [2], "o.xxx..: only the right end");
        assert_eq!(
            offsets(shape("..x.xXx....")),
            Vec::<isize>::new(),
            "x.xxx..: a four, not a three"
        );
        assert_eq!(shape("..x.xXx....").fours(), 1);
        assert_eq!(offsets(shape("...x.Xx....")), [-1], "x.xx: the gap");
        assert_eq!(offsets(shape("....xX.x...")), [1], "xx.x: the gap");
        assert_eq!(
            offsets(shape(".x..xXx.o..")),
            Vec::<isize>::new(),
            "x..xxx.o: left makes six"
        );
        assert_eq!(offsets(shape("...oxXx.o..")), Vec::<isize>::new(), "no room");
        assert_eq!(offsets(shape("..o.xXx.o..")), Vec::<isize>::new(), "o.xxx.o");
        assert_eq!(offsets(shape("|||..Xxx...")), [-1, 3], "by the edge");
        assert_eq!(offsets(shape("||||.Xxx...")), [3], "on the edge's second line");
    }

    #[test]
    fn where_six_wins_too() {
        let free = |s: &str| {
            let cells: Vec<u8> = s
                .chars()
                .map(|c| match c {
                    'x' | 'X' => OWN,
                    '.' => EMPTY,
                    _ => BLOCKED,
                })
                .collect();
            classify_as(&cells.try_into().unwrap(), false).0
        };
        assert!(free("..xxxXxx...").five(), "six wins");
        assert_eq!(free("xx.xxX.....").fours(), 1, "xx.xxx: filling wins");
        assert_eq!(
            offsets(free(".x..xXx.o..")),
            [-2],
            "x..xxx.: left end makes six, which wins"
        );
        assert_eq!(shape("...xxX.x...").win_points(), 1 << 5);
        assert_eq!(shape("...xxXx....").win_points(), 1 << 1 | 1 << 6);
        assert_eq!(shape("...xxXx....").room(), 3);
        assert_eq!(shape("....oX.o...").room(), 0, "no five fits");
        assert_eq!(shape("...x.X..o..").room(), 1);
    }

    #[test]
    fn at_most_one_three_per_line() {
        // The forbidden-point search counts a line's three once, trying its
        // straight-four points in turn: that is right only if no line holds
        // two distinct threes through one stone. Check every neighbourhood.
        let mut with_three = 0;
        for i in 0..ENTRIES {
            let (s, threes) = classify(&cells_of(i));
            assert!(threes <= 1, "{:?}", cells_of(i));
            assert!(s.fours() <= 2, "{:?}", cells_of(i));
            with_three += usize::from(threes == 1);
        }
        assert!(with_three > 1000);
    }
}
