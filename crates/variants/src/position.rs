//! A position of a variant: the board, the side to move, FEN, legal moves,
//! playing and taking back, and the endings.
//!
//! Legality is the rule book's: a move is legal when afterwards the mover's
//! royal piece is not attacked and, where the variant has the flying-general
//! rule, the two royals do not face each other on an open file (帅和将不准在同一
//! 直线上直接对面). Moves are generated pseudo-legally from the movement
//! descriptors, played, tested with the attack probes, and taken back.

use std::fmt::Write as _;
use std::sync::Arc;

use game::{Outcome, Side};

use crate::error::{FenError, IllegalMove};
use crate::square::{Move, Square, STRIDE};
use crate::variant::{lame_legs, EndValue, Kind, Probe, Royals, SquareSet, TypeSet, Variant};

/// How a game ended: the side to move has no legal move and is in check
/// (将死) or is not (困毙, stalemate); or, in Janggi, a side passed while
/// the kings faced each other (빅장) or both sides passed in a row — the
/// last two scored by the variant's counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Checkmate,
    Stalemate,
    Bikjang,
    Passes,
    /// A side's flag was taken (解将旗: “‘解将’是可以吃掉对方‘解将’的，并且也为胜”).
    FlagTaken,
}

/// What [`Position::play_unchecked`] changed, for [`Position::undo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    key: u64,
    captured: u8,
    /// The mover as it stood before (it may have been promoted).
    moved: u8,
    halfmoves: u32,
    history: History,
    rights: Rights,
    /// The side that moved and the move number before: a turn of two
    /// moves (杀惊遁马) keeps the side to move.
    turn: Side,
    fullmoves: u32,
    /// The flags before (解将旗).
    flags: [Option<u8>; 2],
}

/// The rights a FEN's third field carries (`-` where none), upper-case
/// for the first side: `V` the side may revive from its reserve (it
/// captured with its last move: 还魂卒); `D` the side to move is owed a
/// turn of two moves (the answer to 杀惊); `S` it is on the second move
/// of that turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Rights {
    revive: [bool; 2],
    double: Double,
    /// 解将旗: the side to move has stepped its flag this turn (`F`/`f`).
    flag_stepped: bool,
}

/// Where the side to move stands in a turn of two moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Double {
    #[default]
    None,
    Owed,
    Second,
}

impl Rights {
    /// Hashed into [`Position::key`]: the same pieces with other rights
    /// are another position.
    fn key(self) -> u64 {
        let mut k = 0;
        for (i, &r) in self.revive.iter().enumerate() {
            if r {
                k ^= zobrist(255, 300 + i);
            }
        }
        if self.flag_stepped {
            k ^= zobrist(255, 312);
        }
        k ^ match self.double {
            Double::None => 0,
            Double::Owed => zobrist(255, 310),
            Double::Second => zobrist(255, 311),
        }
    }
}

/// What the last two plies were, as far as Janggi's game ends need: whether
/// this position was reached by a pass, whether the one before it was, and
/// whether the kings faced each other there. A FEN does not carry them, as
/// Fairy-Stockfish's does not: a position read from FEN has no past.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct History {
    passed: bool,
    prev_passed: bool,
    prev_facing: bool,
}

/// A position of a variant. It shares its [`Variant`] by `Arc`, so a clone
/// is a board copy; moves are tested for legality by playing them and
/// taking them back (Stockfish's make/unmake, with [`Undo`] as its state).
#[derive(Clone, Debug)]
pub struct Position {
    variant: Arc<Variant>,
    board: [u8; 256],
    turn: Side,
    /// Each side's royal square, where the variant has a royal piece.
    royal: [Option<u8>; 2],
    /// Plies since the last capture.
    halfmoves: u32,
    fullmoves: u32,
    history: History,
    /// The pieces and the side to move hashed (Zobrist's way, each piece
    /// on each point a pseudo-random number), kept by `play_unchecked` and
    /// `undo`: what tells a search that a position came back.
    key: u64,
    /// Each side's pieces by type (`[side][type]`), kept where the variant
    /// has conditional movements ("while the side has no cannon").
    counts: [[u8; 100]; 2],
    /// Each side's reserve by type (`[side][type]`): its captured pieces
    /// that a revival (还魂卒) may put back. Written in FEN as
    /// Fairy-Stockfish writes holdings, `[PPp]` after the placement.
    hand: [[u8; 100]; 2],
    rights: Rights,
    /// 解将旗: each side's flag's point on the ring (`None`: taken).
    /// Written in FEN after the placement (and reserves): `{0,21}`, `-`
    /// for a taken flag.
    flags: [Option<u8>; 2],
}

/// A flag on a ring point, for [`Position::key`].
#[inline]
fn flag_key(side: Side, point: Option<u8>) -> u64 {
    point.map_or(0, |p| zobrist(254 - side.index() as u8, 400 + usize::from(p)))
}

/// A piece of board code `code` that is the `n`th of its type in a
/// reserve, for [`Position::key`].
#[inline]
fn hand_key(code: u8, n: u8) -> u64 {
    zobrist(code, 256 + usize::from(n))
}

/// A piece on a point, for [`Position::key`]: 64 bits mixed from its board
/// code and square (splitmix64's finaliser), so no table is needed. The
/// reserves, rights and flags use "squares" past the board's 256 (and
/// codes past the pieces'), so the code sits above 16 bits of square.
#[inline]
fn zobrist(code: u8, sq: usize) -> u64 {
    debug_assert!(sq < 1 << 16);
    let mut z = (u64::from(code) << 16 | sq as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hashed in when the second side is to move.
const SECOND_TO_MOVE: u64 = 0x2D35_8DCC_AA6C_78A5;

impl Position {
    /// The variant's start position.
    #[must_use]
    pub fn start(variant: Arc<Variant>) -> Position {
        let fen = variant.start_fen.clone();
        Position::from_fen(variant, &fen).expect("the loader checked the start FEN")
    }

    /// Reads a Xiangqi-style FEN: ranks from the second side's edge down,
    /// the first side's pieces upper-case, `w` (or `r`) / `b` to move, then
    /// optionally `- - halfmoves fullmoves`.
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let (placement, flag_field) = match placement.split_once('{') {
            Some((rest, f)) => (
                rest,
                Some(
                    f.strip_suffix('}')
                        .ok_or_else(|| FenError::BadFlags(f.to_owned()))?,
                ),
            ),
            None => (placement, None),
        };
        let flags = Position::read_flags(&variant, flag_field)?;
        let (placement, holdings) = match placement.split_once('[') {
            Some((board, rest)) => (
                board,
                rest.strip_suffix(']')
                    .ok_or_else(|| FenError::BadHoldings(rest.to_owned()))?,
            ),
            None => (placement, ""),
        };
        let mut hand = [[0u8; 100]; 2];
        for c in holdings.chars() {
            let t = variant
                .piece_by_letter(c)
                .filter(|&t| c.is_ascii_alphabetic() && variant.revival_of(t).is_some())
                .ok_or_else(|| FenError::BadHoldings(holdings.to_owned()))?;
            let side = if c.is_ascii_uppercase() { 0 } else { 1 };
            hand[side][t] = hand[side][t].saturating_add(1);
        }
        let rows: Vec<&str> = placement.split('/').collect();
        let ranks = usize::from(variant.ranks);
        let files = usize::from(variant.files);
        if rows.len() != ranks {
            return Err(FenError::RankCount {
                found: rows.len(),
                expected: ranks,
            });
        }
        let mut board = [0u8; 256];
        let mut royals = [Vec::new(), Vec::new()];
        for (i, row) in rows.iter().enumerate() {
            let rank = ranks - 1 - i;
            let mut file = 0usize;
            let mut digits = 0usize;
            let bad = |found| FenError::FileCount {
                rank,
                found,
                expected: files,
            };
            let mut promoted = false;
            for c in row.chars() {
                if c == '+' && !promoted {
                    // The FEN extension of promoted pieces (升级象棋): `+P`.
                    file += digits;
                    digits = 0;
                    promoted = true;
                    continue;
                }
                if let Some(d) = c.to_digit(10).filter(|_| !promoted) {
                    // Boards wider than 9 need two-digit runs ("10", "12").
                    digits = digits * 10 + d as usize;
                    if file + digits > files {
                        return Err(bad(file + digits));
                    }
                    continue;
                }
                file += digits;
                digits = 0;
                let mut piece = variant
                    .piece_by_letter(c)
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or(FenError::UnknownPiece { rank, letter: c })?;
                if std::mem::take(&mut promoted) {
                    piece = variant.pieces[piece]
                        .promotes_to
                        .ok_or(FenError::NotPromotable { rank, letter: c })?;
                }
                if file >= files {
                    return Err(bad(file + 1));
                }
                let side = if c.is_ascii_uppercase() {
                    Side::First
                } else {
                    Side::Second
                };
                let sq = Square::new(file as u8, rank as u8);
                board[usize::from(sq.0)] = Variant::code(piece, side);
                if variant.pieces[piece].royal {
                    royals[side.index()].push(sq.0);
                }
                file += 1;
            }
            if promoted {
                return Err(FenError::UnknownPiece { rank, letter: '+' });
            }
            file += digits;
            if file != files {
                return Err(bad(file));
            }
        }
        let turn = match fields.next() {
            None | Some("w" | "r") => Side::First,
            Some("b") => Side::Second,
            Some(other) => return Err(FenError::BadTurn(other.to_owned())),
        };
        let rights = Position::read_rights(&variant, fields.next(), turn)?;
        let _en_passant = fields.next();
        let counter = |s: Option<&str>, default: u32| -> Result<u32, FenError> {
            s.map_or(Ok(default), |s| {
                s.parse().map_err(|_| FenError::BadCounter(s.to_owned()))
            })
        };
        let halfmoves = counter(fields.next(), 0)?;
        let fullmoves = counter(fields.next(), 1)?.max(1);

        // One royal a side is kept in `royal`; several (`royals = "any"` or
        // `"all"`) are found on the board when needed.
        let mut royal = [None, None];
        if variant.pieces.iter().any(|p| p.royal) {
            let one = variant.royals == Royals::One;
            for side in Side::BOTH {
                let found = &royals[side.index()];
                if found.is_empty() || (one && found.len() != 1) {
                    return Err(FenError::RoyalCount {
                        side: if side == Side::First { "first" } else { "second" },
                        count: found.len(),
                        needs: if one { "exactly one" } else { "at least one" },
                    });
                }
                if one {
                    royal[side.index()] = Some(found[0]);
                }
            }
        }
        let mut key = if turn == Side::Second { SECOND_TO_MOVE } else { 0 };
        for (sq, &code) in board.iter().enumerate() {
            if code != 0 {
                key ^= zobrist(code, sq);
            }
        }
        let mut counts = [[0u8; 100]; 2];
        for &code in board.iter().filter(|&&c| c != 0) {
            let (piece, side) = decode(code);
            counts[side.index()][piece] = counts[side.index()][piece].saturating_add(1);
        }
        for side in Side::BOTH {
            for (t, &n) in hand[side.index()].iter().enumerate() {
                for i in 0..n {
                    key ^= hand_key(Variant::code(t, side), i);
                }
            }
        }
        key ^= rights.key();
        for side in Side::BOTH {
            key ^= flag_key(side, flags[side.index()]);
        }
        let pos = Position {
            variant,
            board,
            turn,
            royal,
            halfmoves,
            fullmoves,
            history: History::default(),
            key,
            counts,
            hand,
            rights,
            flags,
        };
        if pos.royal_in_danger(turn.other()) {
            return Err(FenError::OppositeCheck);
        }
        Ok(pos)
    }

    /// An empty board with `turn` to move and no royal piece to keep safe:
    /// the computer's trial boards (`computer::Weights`), where pieces are
    /// placed freely with [`Position::put`] and only move generation is
    /// asked.
    pub(crate) fn trial(variant: Arc<Variant>, turn: Side) -> Position {
        Position {
            variant,
            board: [0; 256],
            turn,
            royal: [None, None],
            halfmoves: 0,
            fullmoves: 1,
            history: History::default(),
            key: 0,
            counts: [[0; 100]; 2],
            hand: [[0; 100]; 2],
            rights: Rights::default(),
            flags: [None, None],
        }
    }

    /// Reads the flags' points (`0,21`; `-` for a taken flag), where the
    /// variant has a ring; without the field, the starts.
    fn read_flags(variant: &Variant, field: Option<&str>) -> Result<[Option<u8>; 2], FenError> {
        let Some(ring) = &variant.flags else {
            return match field {
                None => Ok([None, None]),
                Some(f) => Err(FenError::BadFlags(f.to_owned())),
            };
        };
        let Some(field) = field else {
            return Ok([Some(ring.start[0]), Some(ring.start[1])]);
        };
        let bad = || FenError::BadFlags(field.to_owned());
        let (a, b) = field.split_once(',').ok_or_else(bad)?;
        let point = |t: &str| -> Result<Option<u8>, FenError> {
            if t == "-" {
                return Ok(None);
            }
            let p: u8 = t.parse().map_err(|_| bad())?;
            if p < ring.points {
                Ok(Some(p))
            } else {
                Err(bad())
            }
        };
        let flags = [point(a)?, point(b)?];
        if (flags[0].is_some() && flags[0] == flags[1]) || flags.iter().all(Option::is_none) {
            return Err(bad());
        }
        Ok(flags)
    }

    /// Each side's flag's point on its ring (解将旗), first side first;
    /// `None` for a taken flag or a variant without flags.
    #[must_use]
    pub fn flag_points(&self) -> [Option<u8>; 2] {
        self.flags
    }

    /// Reads the FEN's third field (`-`, or the letters of [`Rights`]);
    /// a right the variant has no rule for is refused.
    fn read_rights(variant: &Variant, field: Option<&str>, turn: Side) -> Result<Rights, FenError> {
        let mut rights = Rights::default();
        let field = field.unwrap_or("-");
        if field == "-" {
            return Ok(rights);
        }
        let bad = || FenError::BadRights(field.to_owned());
        let revives = variant.revivals.iter().any(|r| r.after_capture);
        for c in field.chars() {
            let side = if c.is_ascii_uppercase() {
                Side::First
            } else {
                Side::Second
            };
            match c.to_ascii_lowercase() {
                'v' if revives => rights.revive[side.index()] = true,
                'f' if variant.flags.is_some() && side == turn => rights.flag_stepped = true,
                'd' | 's'
                    if variant.double_move.is_some() && side == turn && rights.double == Double::None =>
                {
                    rights.double = if c.eq_ignore_ascii_case(&'d') {
                        Double::Owed
                    } else {
                        Double::Second
                    };
                }
                _ => return Err(bad()),
            }
        }
        Ok(rights)
    }

    /// The FEN's third field: `-`, or the letters of [`Rights`].
    fn write_rights(&self, out: &mut String) {
        let start = out.len();
        for side in Side::BOTH {
            if self.rights.revive[side.index()] {
                out.push(if side == Side::First { 'V' } else { 'v' });
            }
        }
        let double = match self.rights.double {
            Double::None => None,
            Double::Owed => Some('d'),
            Double::Second => Some('s'),
        };
        if let Some(c) = double {
            out.push(if self.turn == Side::First {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
        if self.rights.flag_stepped {
            out.push(if self.turn == Side::First { 'F' } else { 'f' });
        }
        if out.len() == start {
            out.push('-');
        }
    }

    /// How many pieces of type `piece` `side` has in its reserve.
    #[must_use]
    pub fn in_hand(&self, side: Side, piece: usize) -> u8 {
        self.hand[side.index()].get(piece).copied().unwrap_or(0)
    }

    /// Puts a piece (or nothing) on `sq` of a trial board.
    pub(crate) fn put(&mut self, sq: Square, piece: Option<(usize, Side)>) {
        let i = usize::from(sq.0);
        if self.board[i] != 0 {
            self.key ^= zobrist(self.board[i], i);
            self.count(self.board[i], -1);
        }
        self.board[i] = piece.map_or(0, |(t, side)| Variant::code(t, side));
        if self.board[i] != 0 {
            self.key ^= zobrist(self.board[i], i);
            self.count(self.board[i], 1);
        }
    }

    /// Counts a piece of board code `code` in or out.
    #[inline]
    fn count(&mut self, code: u8, by: i8) {
        let (piece, side) = decode(code);
        let n = &mut self.counts[side.index()][piece];
        *n = n.wrapping_add_signed(by);
    }

    /// Whether `side` has no piece of any type in `types` (a conditional
    /// movement's `while_lacking`).
    #[inline]
    pub(crate) fn lacks(&self, side: Side, types: TypeSet) -> bool {
        let mut bits = types.0;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            if self.counts[side.index()][t] != 0 {
                return false;
            }
            bits &= bits - 1;
        }
        true
    }

    /// The position's hash: equal for equal pieces on equal points with
    /// the same side to move (the move counters and Janggi's pass history
    /// aside), whatever moves led there.
    #[must_use]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// `side`'s royal square, where the variant has a royal piece.
    #[must_use]
    pub fn royal_square(&self, side: Side) -> Option<Square> {
        self.royal[side.index()].map(Square)
    }

    /// Plies since the last capture.
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The FEN of this position (`rnbakabnr/9/… w - - 0 1`).
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.variant.ranks).rev() {
            let mut empty = 0;
            for file in 0..self.variant.files {
                let code = self.board[usize::from(Square::new(file, rank).0)];
                if code == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    let _ = write!(out, "{empty}");
                    empty = 0;
                }
                let (piece, side) = decode(code);
                let letter = self.variant.pieces[piece].letter;
                if self.variant.pieces[piece].promoted_from.is_some() {
                    out.push('+');
                }
                out.push(if side == Side::First {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if !self.variant.revivals.is_empty() {
            out.push('[');
            for side in Side::BOTH {
                for (t, &n) in self.hand[side.index()].iter().enumerate() {
                    let letter = self.variant.pieces.get(t).map_or('?', |p| p.letter);
                    for _ in 0..n {
                        out.push(if side == Side::First {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        });
                    }
                }
            }
            out.push(']');
        }
        if self.variant.flags.is_some() {
            let point = |p: Option<u8>| p.map_or_else(|| "-".to_owned(), |p| p.to_string());
            let _ = write!(out, "{{{},{}}}", point(self.flags[0]), point(self.flags[1]));
        }
        let turn = if self.turn == Side::First { 'w' } else { 'b' };
        let _ = write!(out, " {turn} ");
        self.write_rights(&mut out);
        let _ = write!(out, " - {} {}", self.halfmoves, self.fullmoves);
        out
    }

    #[must_use]
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    #[must_use]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The piece on `sq`: its type's index in [`Variant::pieces`] and its side.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<(usize, Side)> {
        let code = *self.board.get(usize::from(sq.0))?;
        (code != 0).then(|| decode(code))
    }

    /// Whether the side to move is in check (its royal piece attacked, or
    /// facing the other royal where the flying-general rule holds).
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.royal_in_danger(self.turn)
    }

    /// Every legal move, in board order, then the pass where the variant
    /// has one. None once the game has ended by bikjang or passes.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        if self.immediate_end().is_some() || self.flag_taken().is_some() {
            return moves;
        }
        self.pseudo_moves(&mut moves);
        let mut scratch = self.clone();
        let facing = scratch.must_break_facing();
        let safe = if facing { None } else { scratch.safe_squares() };
        moves.retain(|&m| scratch.is_legal_pseudo(m, safe, facing));
        if let Some(pass) = self.legal_pass(facing) {
            moves.push(pass);
        }
        moves.extend(self.flag_move().filter(|f| f.flag == 2 || !moves.is_empty()));
        moves
    }

    /// The number of legal moves (perft's last ply).
    #[must_use]
    pub fn count_legal_moves(&mut self) -> u64 {
        if self.immediate_end().is_some() || self.flag_taken().is_some() {
            return 0;
        }
        let mut moves = Vec::with_capacity(64);
        self.pseudo_moves(&mut moves);
        let facing = self.must_break_facing();
        let safe = if facing { None } else { self.safe_squares() };
        let n = moves
            .iter()
            .filter(|&&m| self.is_legal_pseudo(m, safe, facing))
            .count() as u64;
        let n = n + u64::from(self.legal_pass(facing).is_some());
        n + u64::from(self.flag_move().is_some_and(|f| f.flag == 2 || n > 0))
    }

    /// The flag's move of the side to move (解将旗), if it has one: in
    /// check, one point forward before its answer (`~`, once a turn; only
    /// where there is an answer — a side mated is mated, flag or not);
    /// not in check, with the other flag right behind it, two points as
    /// its whole move (`~~`: “当甲方[解将]走到乙方[解将]后面与其紧邻状态下,乙方可以在不被
    /// ‘将军’的情况下，单独一着走两格[解将]棋”).
    fn flag_move(&self) -> Option<Move> {
        let ring = self.variant.flags.as_ref()?;
        let (me, other) = (
            self.flags[self.turn.index()]?,
            self.flags[self.turn.other().index()]?,
        );
        if self.is_check() {
            (!self.rights.flag_stepped).then(|| Move::flag(1))
        } else {
            ((other + 1) % ring.points == me).then(|| Move::flag(2))
        }
    }

    /// The side whose flag was taken (解将旗), if one was.
    #[must_use]
    pub fn flag_taken(&self) -> Option<Side> {
        self.variant.flags.as_ref()?;
        Side::BOTH.into_iter().find(|s| self.flags[s.index()].is_none())
    }

    /// The moves of the side *not* to move by its pieces' movement alone
    /// (blockers, legs, screens, regions and conditional powers as they
    /// stand; check, drops and passes left out), in board order: the
    /// premoves a player may queue while the other side thinks. The server
    /// checks a premove against the legal moves when its turn comes.
    #[must_use]
    pub fn premoves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        let waiting = self.turn.other();
        for rank in 0..self.variant.ranks {
            for file in 0..self.variant.files {
                let from = Square::new(file, rank);
                if self.piece_at(from).is_some_and(|(_, side)| side == waiting) {
                    self.moves_from(from, &mut out);
                }
            }
        }
        out
    }

    /// The pass, where the variant has one and it is legal: never in check,
    /// except in bikjang, where passing is always allowed (and ends the
    /// game), as in Fairy-Stockfish's `Position::legal`.
    fn legal_pass(&self, facing: bool) -> Option<Move> {
        if !self.variant.pass {
            return None;
        }
        let royal = Square(self.royal[self.turn.index()]?);
        (facing || !self.is_check()).then_some(Move::new(royal, royal))
    }

    /// Whether the kings face each other under the bikjang rule, so that a
    /// move must break it (or be a pass).
    fn must_break_facing(&self) -> bool {
        self.variant.bikjang && self.royals_face()
    }

    /// Janggi's ends that do not wait for a lack of moves: a pass while the
    /// kings faced (the position before and this one both bikjang), or two
    /// passes in a row (Fairy-Stockfish's `is_immediate_game_end`).
    fn immediate_end(&self) -> Option<End> {
        let v = &*self.variant;
        if v.bikjang && self.history.prev_facing && self.royals_face() {
            return Some(End::Bikjang);
        }
        if v.pass && self.history.passed && self.history.prev_passed {
            return Some(End::Passes);
        }
        None
    }

    /// Whether `m` is a pass: the royal square twice (`e1e1`).
    #[must_use]
    pub fn is_pass(m: Move) -> bool {
        m.from == m.to && m.drop.is_none() && m.flag == 0
    }

    /// Reads an ICCS-style move and plays it if it is legal.
    pub fn play_iccs(&mut self, s: &str) -> Result<Undo, IllegalMove> {
        let m = Move::parse(s).ok_or_else(|| IllegalMove::Unreadable(s.to_owned()))?;
        self.play(m)
    }

    /// Plays `m` if it is legal.
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        if !self.legal_moves().contains(&m) {
            return Err(IllegalMove::Illegal(m.to_string()));
        }
        Ok(self.play_unchecked(m))
    }

    /// Plays a move known to be legal (perft, search).
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let mover = self.turn;
        let (from, to) = (usize::from(m.from.0), usize::from(m.to.0));
        let pass = Position::is_pass(m);
        let undo = Undo {
            key: self.key,
            captured: if pass || m.is_drop() { 0 } else { self.board[to] },
            moved: if m.is_drop() { 0 } else { self.board[from] },
            halfmoves: self.halfmoves,
            history: self.history,
            rights: self.rights,
            turn: mover,
            fullmoves: self.fullmoves,
            flags: self.flags,
        };
        if self.variant.bikjang || self.variant.pass {
            self.history = History {
                passed: pass,
                prev_passed: self.history.passed,
                prev_facing: self.variant.bikjang && self.royals_face(),
            };
        }
        if m.flag > 0 {
            // 解将旗: the flag goes round; landing on the other's takes it.
            let points = self.variant.flags.as_ref().map_or(1, |r| r.points);
            let (me, other) = (mover.index(), mover.other().index());
            let from = self.flags[me].expect("a legal flag move has a flag");
            let to = (from + m.flag) % points;
            self.key ^= flag_key(mover, Some(from)) ^ flag_key(mover, Some(to));
            self.flags[me] = Some(to);
            if self.flags[other] == Some(to) {
                self.key ^= flag_key(mover.other(), Some(to));
                self.flags[other] = None;
            }
        } else if let Some(letter) = m.drop {
            // 还魂: the piece leaves the reserve for an empty point.
            let t = self
                .variant
                .piece_by_letter(char::from(letter))
                .expect("a legal drop names a piece of the variant");
            let code = Variant::code(t, mover);
            let n = &mut self.hand[mover.index()][t];
            *n -= 1;
            self.key ^= hand_key(code, *n) ^ zobrist(code, to);
            self.board[to] = code;
            if self.variant.conditional {
                self.count(code, 1);
            }
        } else if !pass {
            let mut code = self.board[from];
            if undo.captured != 0 {
                // 升级象棋: a piece is promoted by its first capture.
                let (piece, side) = decode(code);
                if let Some(p) = self.variant.pieces[piece].promotes_to {
                    code = Variant::code(p, side);
                }
            }
            self.board[to] = code;
            self.board[from] = 0;
            self.key ^= zobrist(undo.moved, from) ^ zobrist(code, to);
            if undo.captured != 0 {
                self.key ^= zobrist(undo.captured, to);
                self.reserve_captured(undo.captured, 1);
            }
            if self.variant.conditional {
                if code != undo.moved {
                    self.count(undo.moved, -1);
                    self.count(code, 1);
                }
                if undo.captured != 0 {
                    self.count(undo.captured, -1);
                }
            }
        }
        if !m.is_drop() && self.royal[mover.index()] == Some(m.from.0) {
            self.royal[mover.index()] = Some(m.to.0);
        }
        if m.flag != 1 {
            self.halfmoves = if undo.captured != 0 { 0 } else { self.halfmoves + 1 };
        }
        let (rights, hand_over) = self.rights_after(m, &undo);
        if rights != self.rights {
            self.key ^= self.rights.key() ^ rights.key();
            self.rights = rights;
        }
        if hand_over {
            self.key ^= SECOND_TO_MOVE;
            if mover == Side::Second {
                self.fullmoves += 1;
            }
            self.turn = mover.other();
        }
        undo
    }

    /// A captured piece of code `captured` going to (`by` 1) or coming
    /// back from (`by` -1) its owner's reserve, where a revival takes it.
    fn reserve_captured(&mut self, captured: u8, by: i8) {
        let (piece, owner) = decode(captured);
        let Some((base, _)) = self.variant.revival_of(piece) else {
            return;
        };
        let code = Variant::code(base, owner);
        let n = &mut self.hand[owner.index()][base];
        if by < 0 {
            *n -= 1;
        }
        self.key ^= hand_key(code, *n);
        if by > 0 {
            *n += 1;
        }
    }

    /// The rights after the mover's move `m` (board already changed), and
    /// whether the turn passes to the other side. A revival's right holds
    /// for the mover's next move only after a capture (还魂卒's “仅限下一步”);
    /// a turn of two moves (杀惊遁马) is owed after its trigger and keeps
    /// the turn after a first move by a `first` piece that gives no check.
    fn rights_after(&self, m: Move, undo: &Undo) -> (Rights, bool) {
        let v = &*self.variant;
        let mover = undo.turn;
        let mut rights = undo.rights;
        if m.flag == 1 {
            // The flag's step before the answer to a check: the turn goes on.
            rights.flag_stepped = true;
            return (rights, false);
        }
        rights.flag_stepped = false;
        if v.revivals.iter().any(|r| r.after_capture) {
            rights.revive[mover.index()] = undo.captured != 0;
        }
        let Some(d) = &v.double_move else {
            return (rights, true);
        };
        let piece_move = !m.is_drop() && !Position::is_pass(m);
        let mut hand_over = true;
        match rights.double {
            Double::Owed => {
                rights.double = Double::None;
                if piece_move
                    && d.first.contains(decode(undo.moved).0)
                    && !self.royal_in_danger(mover.other())
                {
                    rights.double = Double::Second;
                    hand_over = false;
                }
            }
            Double::Second => rights.double = Double::None,
            Double::None => {
                let first = undo.fullmoves == 1 && mover == Side::First;
                if piece_move
                    && undo.captured != 0
                    && decode(undo.moved).0 == d.mover
                    && d.captures.contains(decode(undo.captured).0)
                    && (first || !d.first_move)
                {
                    rights.double = Double::Owed;
                }
            }
        }
        (rights, hand_over)
    }

    /// Takes back `m`, which `play_unchecked` returned `undo` for.
    pub fn undo(&mut self, m: Move, undo: Undo) {
        self.turn = undo.turn;
        self.fullmoves = undo.fullmoves;
        self.rights = undo.rights;
        self.flags = undo.flags;
        let (from, to) = (usize::from(m.from.0), usize::from(m.to.0));
        if m.flag > 0 {
            // The flags are restored above.
        } else if m.is_drop() {
            let code = self.board[to];
            if self.variant.conditional {
                self.count(code, -1);
            }
            let (t, side) = decode(code);
            self.hand[side.index()][t] += 1;
            self.board[to] = 0;
        } else if from != to {
            if self.variant.conditional {
                let now = self.board[to];
                if now != undo.moved {
                    self.count(now, -1);
                    self.count(undo.moved, 1);
                }
                if undo.captured != 0 {
                    self.count(undo.captured, 1);
                }
            }
            if undo.captured != 0 {
                self.reserve_captured(undo.captured, -1);
            }
            self.board[from] = undo.moved;
            self.board[to] = undo.captured;
            if self.royal[self.turn.index()] == Some(m.to.0) {
                self.royal[self.turn.index()] = Some(m.from.0);
            }
        }
        self.halfmoves = undo.halfmoves;
        self.history = undo.history;
        self.key = undo.key;
    }

    /// The ending, if the side to move has no legal move, with the result
    /// the variant's rules give it (checkmate and 困毙 both lose in Xiangqi);
    /// a Janggi game ended by bikjang or passes is scored by counting.
    #[must_use]
    pub fn end(&self) -> Option<(End, Outcome)> {
        if let Some(loser) = self.flag_taken() {
            return Some((
                End::FlagTaken,
                Outcome::Win {
                    winner: loser.other(),
                },
            ));
        }
        if let Some(end) = self.immediate_end() {
            return Some((end, self.counting_outcome()));
        }
        if !self.legal_moves().is_empty() {
            return None;
        }
        let (end, value) = if self.is_check() {
            (End::Checkmate, self.variant.checkmate)
        } else {
            (End::Stalemate, self.variant.stalemate)
        };
        let outcome = match value {
            EndValue::Loss => Outcome::Win {
                winner: self.turn.other(),
            },
            EndValue::Win => Outcome::Win { winner: self.turn },
            EndValue::Draw => Outcome::Draw,
        };
        Some((end, outcome))
    }

    /// The result by the variant's counting: each side's pieces' points,
    /// the second side's bonus added; without counting, a draw.
    #[must_use]
    pub fn counting_outcome(&self) -> Outcome {
        let Some(c) = &self.variant.counting else {
            return Outcome::Draw;
        };
        let mut score = [0.0f64, c.second_bonus];
        for &code in &self.board {
            if code != 0 {
                let (piece, side) = decode(code);
                score[side.index()] += c.values[piece];
            }
        }
        if score[0] > score[1] {
            Outcome::Win { winner: Side::First }
        } else if score[1] > score[0] {
            Outcome::Win { winner: Side::Second }
        } else {
            Outcome::Draw
        }
    }

    /// Where the side to move is not in check, the squares whose contents
    /// matter to its royal piece's safety (`Variant::zones`): a move of
    /// another piece that neither leaves nor enters one of them is legal
    /// without being played. `None` where every move must be tried.
    fn safe_squares(&self) -> Option<(u8, SquareSet)> {
        let royal = self.royal[self.turn.index()]?;
        if self.royal_in_danger(self.turn) {
            return None;
        }
        Some((royal, self.variant.zones[self.turn.index()][usize::from(royal)]))
    }

    /// Whether pseudo-legal `m` keeps the mover's royal piece safe; with
    /// `break_facing` (bikjang) it must also leave the kings not facing.
    fn is_legal_pseudo(&mut self, m: Move, safe: Option<(u8, SquareSet)>, break_facing: bool) -> bool {
        let several = self.variant.royals != Royals::One;
        if several {
            // Several royals: play it and look (no danger-zone shortcut).
            let mover = self.turn;
            let undo = self.play_unchecked(m);
            let legal = !self.royal_in_danger(mover);
            self.undo(m, undo);
            return legal;
        }
        if self.royal[self.turn.index()].is_none() {
            return true;
        }
        // A capture may take a side's last cannon and so give the other
        // side a conditional power (龙战士): no shortcut then.
        let conditional_capture = self.variant.conditional && self.board[usize::from(m.to.0)] != 0;
        if let Some((royal, zone)) = safe.filter(|_| !conditional_capture) {
            if m.from.0 != royal {
                let touched = |z: &SquareSet| z.contains(m.from.0) || z.contains(m.to.0);
                if !touched(&zone) {
                    return true;
                }
                // Not in check before: only the probes whose squares the
                // move leaves or enters can have changed.
                let v = &*self.variant;
                let (me, by) = (self.turn.index(), self.turn.other());
                let k = usize::from(royal);
                let leaps = touched(&v.leap_zones[me][k]);
                let nrays = v.rays[by.index()].len();
                // Rays a move touches, as a bit mask (a variant has few rays).
                let rays: u64 = (0..nrays.min(64))
                    .filter(|&i| touched(&v.ray_zones[me][k * nrays + i]))
                    .fold(0, |mask, i| mask | 1 << i);
                let flying = v.flying_general;
                let undo = self.play_unchecked(m);
                let danger = (leaps && self.attacked_by_leaps(royal, by))
                    || (0..nrays.min(64)).any(|i| rays >> i & 1 != 0 && self.attacked_along(royal, by, i))
                    || (nrays > 64 && (64..nrays).any(|i| self.attacked_along(royal, by, i)))
                    || (flying && self.facing_danger(by.other(), false));
                self.undo(m, undo);
                return !danger;
            }
        }
        let mover = self.turn;
        // 宫廷炮: a side in its check may leave the kings facing (by taking
        // the cannon); the other side must then break it.
        let answering = self.royal_screened(mover.other());
        let undo = self.play_unchecked(m);
        let legal = !(self.royal[mover.index()].is_some_and(|r| self.attacked(r, mover.other()))
            || (self.variant.flying_general && self.facing_danger(mover, answering))
            || (break_facing && self.royals_face()));
        self.undo(m, undo);
        legal
    }

    /// Whether `side`'s royal piece is attacked or faces the other's; with
    /// several royals, whether any (`royals = "any"`) or all (`"all"`) of
    /// them are attacked.
    fn royal_in_danger(&self, side: Side) -> bool {
        let v = &*self.variant;
        if v.royals != Royals::One {
            let mut royals = (0..self.board.len())
                .filter(|&sq| {
                    let code = self.board[sq];
                    code != 0 && {
                        let (piece, owner) = decode(code);
                        owner == side && v.pieces[piece].royal
                    }
                })
                .map(|sq| self.attacked(sq as u8, side.other()))
                .peekable();
            return match v.royals {
                Royals::Any => royals.any(|a| a),
                _ => royals.peek().is_some() && royals.all(|a| a),
            };
        }
        let Some(sq) = self.royal[side.index()] else {
            return false;
        };
        self.attacked(sq, side.other()) || (self.variant.flying_general && self.facing_danger(side, false))
    }

    /// Whether the royals face each other to `side`'s harm: always, unless
    /// `side`'s own hopper strikes the other royal over `side`'s royal
    /// (宫廷炮: “己方将(帅)可以主动飞将对方将（帅），形成[炮]隔将（帅）打击对方将（帅）的局面”),
    /// or `side` is `answering` that strike (“吃对方宫廷炮后炮方要立刻解除将帅照面”).
    fn facing_danger(&self, side: Side, answering: bool) -> bool {
        self.royals_face() && !answering && !self.royal_screened(side) && !self.royal_strikes(side)
    }

    /// Whether `side`'s royal stands in `region` (a movement's
    /// `while_royal_on`; no region: always).
    #[inline]
    fn royal_stands(&self, side: Side, region: Option<SquareSet>) -> bool {
        region.is_none_or(|r| self.royal[side.index()].is_some_and(|k| r.contains(k)))
    }

    /// 宫策略's 可飞将: whether `side`'s royal itself may capture the other
    /// royal (“这里的将（帅）可主动‘飞将’对方中线上不在中心点的将（帅）”).
    fn royal_strikes(&self, side: Side) -> bool {
        if !self.variant.royal_flies {
            return false;
        }
        let (Some(me), Some(him)) = (self.royal[side.index()], self.royal[side.other().index()]) else {
            return false;
        };
        let mut out = Vec::new();
        self.moves_from(Square(me), &mut out);
        out.iter().any(|m| m.to.0 == him)
    }

    /// 宫廷炮: whether a hopper of `side` of the file's `royal_screens`
    /// types attacks the other royal with `side`'s own royal as its
    /// screen, the royals facing each other. Such a check may not be
    /// answered by moving the royal (“这时对方不可以闪[将（帅）]解将”).
    pub(crate) fn royal_screened(&self, side: Side) -> bool {
        let v = &*self.variant;
        if v.royal_screen.is_empty() {
            return false;
        }
        let (Some(me), Some(him)) = (self.royal[side.index()], self.royal[side.other().index()]) else {
            return false;
        };
        if !self.royals_face() {
            return false;
        }
        // Beyond `side`'s royal, away from the other: the first piece.
        let dir: (i8, i8) = if me > him { (0, 1) } else { (0, -1) };
        let royal_type = decode(self.board[usize::from(me)]).0;
        let mut dist = (me / STRIDE).abs_diff(him / STRIDE);
        let mut cur = me;
        loop {
            let Some(next) = v.offset(cur, dir) else {
                return false;
            };
            cur = next;
            dist += 1;
            let code = self.board[usize::from(cur)];
            if code == 0 {
                continue;
            }
            let (piece, owner) = decode(code);
            return owner == side
                && v.royal_screen.contains(piece)
                && v.rays[side.index()].iter().any(|ray| {
                    ray.back == dir
                        && ray.hops.iter().any(|p| {
                            p.code == code
                                && dist <= p.range
                                && p.from.is_none_or(|r| r.contains(cur))
                                && p.to.is_none_or(|r| r.contains(him))
                                && p.screen.counts(side, side)
                                && !p.not_over.contains(royal_type)
                                && (p.lacking.is_empty() || self.lacks(side, p.lacking))
                                && self.royal_stands(side, p.royal_on)
                        })
                });
        }
    }

    /// Whether the two royal pieces stand on one file with nothing between.
    fn royals_face(&self) -> bool {
        let (Some(a), Some(b)) = (self.royal[0], self.royal[1]) else {
            return false;
        };
        if a % STRIDE != b % STRIDE {
            return false;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        (lo + STRIDE..hi)
            .step_by(usize::from(STRIDE))
            .all(|s| self.board[usize::from(s)] == 0)
    }

    /// Whether a piece of `by` could capture on `sq` (ignoring whether the
    /// capture would be legal, as the rule book's check does).
    pub(crate) fn attacked(&self, sq: u8, by: Side) -> bool {
        self.attacked_by_leaps(sq, by)
            || (0..self.variant.rays[by.index()].len()).any(|i| self.attacked_along(sq, by, i))
    }

    /// Whether a leaping piece of `by` attacks `sq`.
    fn attacked_by_leaps(&self, sq: u8, by: Side) -> bool {
        let v = &*self.variant;
        for p in &v.leaps[by.index()] {
            if p.to.is_some_and(|r| !r.contains(sq)) {
                continue;
            }
            let Some(a) = v.offset(sq, p.back) else { continue };
            if self.board[usize::from(a)] != p.code || p.from.is_some_and(|r| !r.contains(a)) {
                continue;
            }
            if !p.lacking.is_empty() && !self.lacks(by, p.lacking) {
                continue;
            }
            if !self.royal_stands(by, p.royal_on) {
                continue;
            }
            if p.not_capture.contains(decode_type(self.board[usize::from(sq)])) {
                continue;
            }
            let blocked = p.legs.iter().any(|&leg| {
                let l = v
                    .offset(a, leg)
                    .expect("a leg lies between two squares of the board");
                let c = self.board[usize::from(l)];
                c != 0 && p.blocked_by.counts(decode(c).1, by)
            });
            if !blocked {
                return true;
            }
        }
        false
    }

    /// Whether a slider or hopper of `by` attacks `sq` along ray `i` of
    /// `Variant::rays`.
    fn attacked_along(&self, sq: u8, by: Side, i: usize) -> bool {
        let v = &*self.variant;
        let ray = &v.rays[by.index()][i];
        // The first and second pieces along the ray, with their distances:
        // a slider stands first, a hopper second (the first is its screen).
        let wanted = if ray.hops.is_empty() { 1 } else { 2 };
        let mut found = [(0u8, 0u8); 2];
        let mut n = 0;
        let mut cur = sq;
        for dist in 1..=ray.range {
            let Some(next) = v.offset(cur, ray.back) else {
                break;
            };
            cur = next;
            if self.board[usize::from(cur)] != 0 {
                found[n] = (cur, dist);
                n += 1;
                if n == wanted {
                    break;
                }
            }
        }
        let target = decode_type(self.board[usize::from(sq)]);
        let hit = |p: &Probe, (a, dist): (u8, u8)| {
            self.board[usize::from(a)] == p.code
                && dist <= p.range
                && p.from.is_none_or(|r| r.contains(a))
                && p.to.is_none_or(|r| r.contains(sq))
                && !p.not_capture.contains(target)
                && (p.lacking.is_empty() || self.lacks(by, p.lacking))
                && self.royal_stands(by, p.royal_on)
        };
        let screen = || decode(self.board[usize::from(found[0].0)]);
        (n >= 1 && ray.slides.iter().any(|p| hit(p, found[0])))
            || (n == 2
                && ray.hops.iter().any(|p| {
                    hit(p, found[1]) && {
                        let (kind, owner) = screen();
                        !p.not_over.contains(kind) && p.screen.counts(owner, by)
                    }
                }))
    }

    /// Pseudo-legal moves of the side to move, from the movement
    /// descriptors, then its drops. On the second move of a turn of two
    /// (杀惊遁马's “接着再走一着其它棋”) a piece of the first move's types
    /// stays put.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let v = &*self.variant;
        let resting = match (&v.double_move, self.rights.double) {
            (Some(d), Double::Second) => d.first,
            _ => TypeSet::default(),
        };
        // 宫廷炮's check: the royal may not step aside (闪将).
        let pinned_royal = self
            .royal_screened(self.turn.other())
            .then(|| self.royal[self.turn.index()])
            .flatten();
        for rank in 0..v.ranks {
            for file in 0..v.files {
                let from = Square::new(file, rank);
                let code = self.board[usize::from(from.0)];
                if code != 0
                    && decode(code).1 == self.turn
                    && !resting.contains(decode(code).0)
                    && pinned_royal != Some(from.0)
                {
                    self.moves_from(from, out);
                }
            }
        }
        if !v.revivals.is_empty() {
            self.drops(out);
        }
    }

    /// The side to move's drops: each type in its reserve onto each empty
    /// point of its revival's region, where the revival is open to it (a
    /// revival `after_capture` only right after its own capture).
    fn drops(&self, out: &mut Vec<Move>) {
        let v = &*self.variant;
        let side = self.turn;
        for r in &v.revivals {
            if r.after_capture && !self.rights.revive[side.index()] {
                continue;
            }
            for (t, piece) in v.pieces.iter().enumerate() {
                if !r.pieces.contains(t) || self.hand[side.index()][t] == 0 {
                    continue;
                }
                for rank in 0..v.ranks {
                    for file in 0..v.files {
                        let sq = Square::new(file, rank);
                        if r.to[side.index()].contains(sq.0) && self.board[usize::from(sq.0)] == 0 {
                            out.push(Move::drop(piece.letter, sq));
                        }
                    }
                }
            }
        }
    }

    /// Pseudo-legal moves of the piece on `from`, whichever side it is
    /// (none from an empty square).
    pub(crate) fn moves_from(&self, from: Square, out: &mut Vec<Move>) {
        let v = &*self.variant;
        let code = self.board[usize::from(from.0)];
        if code == 0 {
            return;
        }
        let from = from.0;
        let side = decode(code).1;
        let piece = &v.pieces[decode(code).0];
        let first = out.len();
        for (k, m) in piece.movements.iter().enumerate() {
            if m.from.is_some_and(|r| !r[side.index()].contains(from)) {
                continue;
            }
            if !m.lacking.is_empty() && !self.lacks(side, m.lacking) {
                continue;
            }
            if !self.royal_stands(side, m.royal_on.map(|r| r[side.index()])) {
                continue;
            }
            let to_ok = |t: u8| m.to.is_none_or(|r| r[side.index()].contains(t));
            // Two movements of one piece may reach one square; a move
            // is one move however many descriptors allow it.
            let push = |out: &mut Vec<Move>, t: u8| {
                let mv = Move::new(Square(from), Square(t));
                if k == 0 || !out[first..].contains(&mv) {
                    out.push(mv);
                }
            };
            for &o in &m.sided[side.index()] {
                match m.kind {
                    Kind::Leap { .. } => {
                        let Some(t) = v.offset(from, o) else { continue };
                        let blocked = lame_legs(m.kind, o).any(|leg| {
                            let l = v
                                .offset(from, leg)
                                .expect("a leg lies between two squares of the board");
                            let c = self.board[usize::from(l)];
                            c != 0 && m.blocked_by.counts(decode(c).1, side)
                        });
                        if blocked || !to_ok(t) {
                            continue;
                        }
                        let target = self.board[usize::from(t)];
                        if (target == 0 && m.mode.moves())
                            || (target != 0
                                && decode(target).1 != side
                                && m.mode.captures()
                                && !m.not_capture.contains(decode(target).0))
                        {
                            push(out, t);
                        }
                    }
                    Kind::Slide | Kind::Hop => {
                        let mut screens = if m.kind == Kind::Hop { 1 } else { 0 };
                        let mut cur = from;
                        for _ in 0..m.range {
                            let Some(t) = v.offset(cur, o) else { break };
                            cur = t;
                            let target = self.board[usize::from(t)];
                            if target == 0 {
                                if screens == 0 && m.mode.moves() && to_ok(t) {
                                    push(out, t);
                                }
                                continue;
                            }
                            if screens > 0 {
                                let (kind, owner) = decode(target);
                                if m.not_over.contains(kind) || !m.screen.counts(owner, side) {
                                    break;
                                }
                                screens -= 1;
                                continue;
                            }
                            let (piece, owner) = decode(target);
                            if owner != side
                                && m.mode.captures()
                                && to_ok(t)
                                && !m.not_capture.contains(piece)
                            {
                                push(out, t);
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
}

/// Piece type index of a board code; past every type for an empty square,
/// so that no type set contains it.
#[inline]
fn decode_type(code: u8) -> usize {
    if code == 0 {
        127
    } else {
        usize::from(code - 1) / 2
    }
}

/// Piece type index and side of a non-empty board code.
#[inline]
fn decode(code: u8) -> (usize, Side) {
    let c = usize::from(code - 1);
    (c / 2, if c % 2 == 0 { Side::First } else { Side::Second })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of descriptor at once, with asymmetric offsets, ranges and
    /// regions, so that the probes (attacks seen backwards) and the danger
    /// zones are checked against plain move generation where Xiangqi's
    /// symmetric pieces would hide a mistake.
    const KITCHEN_SINK: &str = r#"
name = "kitchen-sink"
start = "r1c1k1h2l/1p2w3p1/10/3s6/10/10/3S6/10/1P2W3P1/R1C1K1H2L w"
[board]
files = 10
ranks = 10
[regions]
home = { files = "c-h", ranks = "0-2" }
far = { ranks = "5-9" }
near = { ranks = "0-4" }
[rules]
flying_general = true
stalemate = "draw"
[[pieces]]
name = "king"
letter = "k"
royal = true
moves = [{ kind = "step", dirs = ["orthogonal", "diagonal"], to = "home" }]
[[pieces]]
name = "ranged rook"
letter = "r"
moves = [{ kind = "slide", dirs = ["orthogonal"], range = 3 }]
[[pieces]]
name = "janggi-ish cannon"
letter = "c"
moves = [{ kind = "hop", dirs = ["orthogonal", "diagonal"], not_over = ["pawn"], not_capture = ["wazir", "janggi-ish cannon"] }]
[[pieces]]
name = "lame camel"
letter = "h"
moves = [
  { kind = "leap", dirs = [[1, 3]], symmetry = "all", lame = true },
  { kind = "leap", dirs = [[2, 3]], symmetry = "all", lame = true, mode = "capture", blocked_by = "enemy" },
]
[[pieces]]
name = "lopsided"
letter = "l"
moves = [
  { kind = "leap", dirs = [[2, 1]], symmetry = "left_right", lame = true, mode = "capture" },
  { kind = "step", dirs = ["backward"], mode = "move" },
]
[[pieces]]
name = "pawn"
letter = "p"
promotes_to = "senior pawn"
moves = [
  { kind = "step", dirs = ["forward"] },
  { kind = "step", dirs = ["forward_diagonal"], mode = "capture", from = "far" },
  { kind = "slide", dirs = ["sideways"], range = 2, from = "far", mode = "move" },
]
[[pieces]]
name = "senior pawn"
moves = [
  { kind = "step", dirs = ["orthogonal"] },
  { kind = "leap", dirs = [[1, 2]], symmetry = "all", lame = true, blocked_by = "own" },
  { kind = "hop", dirs = ["orthogonal"], mode = "move", screen = "own" },
]
[[pieces]]
name = "wazir"
letter = "w"
moves = [
  { kind = "step", dirs = ["orthogonal"], to = "near" },
  { kind = "step", dirs = ["diagonal"], while_lacking = ["ranged rook"] },
]
[[pieces]]
name = "snake"
letter = "s"
moves = [{ kind = "hop", dirs = ["forward", "sideways"], range = 4, mode = "capture", screen = "own" }, { kind = "slide", dirs = ["backward"], mode = "move" }, { kind = "hop", dirs = ["diagonal"], range = 2, mode = "capture", screen = "enemy" }]
"#;

    fn rng(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^ (z >> 31)
    }

    /// The danger-zone shortcut keeps exactly the moves a full test keeps
    /// with the house rules that touch legality on (宫廷炮's facing, 宫策略's
    /// flying king and its powers by the king's point, 破河象's diagonal
    /// leg, revivals and turns of two moves), on random games that favour
    /// captures so that the conditional powers wake.
    #[test]
    fn the_shortcut_agrees_with_the_full_test_under_house_rules() {
        let rules = [
            "palace_cannon",
            "palace_strategy",
            "river_breaking_elephant",
            "royal_advisor",
            "mission_pawn",
            "reviving_pawn",
            "fleeing_horse",
            "check_flag",
        ];
        let variant = Arc::new(Variant::with_house_rules(crate::XIANGQI_TOML, "all", &rules).unwrap());
        let mut seed = 3;
        let mut positions = 0;
        for game in 0..40 {
            let mut pos = Position::start(variant.clone());
            if game % 3 == 0 {
                pos.play_iccs("h2h9").unwrap();
            }
            for _ in 0..150 {
                let mut pseudo = Vec::new();
                pos.pseudo_moves(&mut pseudo);
                let answering = pos.royal_screened(pos.turn.other());
                let mut scratch = pos.clone();
                let full: Vec<Move> = pseudo
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mover = scratch.turn;
                        let undo = scratch.play_unchecked(m);
                        let attacked =
                            scratch.royal[mover.index()].is_some_and(|r| scratch.attacked(r, mover.other()));
                        let ok = !(attacked || scratch.facing_danger(mover, answering));
                        scratch.undo(m, undo);
                        ok
                    })
                    .collect();
                let full: Vec<Move> = full
                    .iter()
                    .copied()
                    .chain(pos.flag_move().filter(|f| f.flag == 2 || !full.is_empty()))
                    .collect();
                let legal = pos.legal_moves();
                assert_eq!(legal, full, "{}", pos.to_fen());
                positions += 1;
                if legal.is_empty() {
                    break;
                }
                let captures: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| pos.piece_at(m.to).is_some() && !m.is_drop())
                    .collect();
                let pool = if !captures.is_empty() && rng(&mut seed).is_multiple_of(2) {
                    &captures
                } else {
                    &legal
                };
                let m = pool[(rng(&mut seed) % pool.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
        assert!(positions > 3_000, "{positions}");
    }

    #[test]
    fn probes_and_zones_agree_with_move_generation() {
        let variant = Arc::new(Variant::from_toml(KITCHEN_SINK).unwrap());
        let mut seed = 7;
        let mut checked = 0;
        let mut promoted = 0;
        for _ in 0..30 {
            let mut pos = Position::start(variant.clone());
            for _ in 0..120 {
                // Attacks: a square of the side to move is attacked exactly
                // when the opponent has a pseudo-legal capture on it.
                let mut flipped = pos.clone();
                flipped.turn = pos.turn.other();
                let mut theirs = Vec::new();
                flipped.pseudo_moves(&mut theirs);
                for rank in 0..variant.ranks {
                    for file in 0..variant.files {
                        let sq = Square::new(file, rank);
                        if pos.piece_at(sq).is_some_and(|(_, s)| s == pos.turn) {
                            let captured = theirs.iter().any(|m| m.to == sq);
                            assert_eq!(
                                pos.attacked(sq.0, pos.turn.other()),
                                captured,
                                "{sq} in {}",
                                pos.to_fen()
                            );
                            checked += 1;
                        }
                    }
                }
                // Zones: the shortcut keeps exactly the moves a full test keeps.
                let mut pseudo = Vec::new();
                pos.pseudo_moves(&mut pseudo);
                let mut scratch = pos.clone();
                let full: Vec<Move> = pseudo
                    .iter()
                    .copied()
                    .filter(|&m| scratch.is_legal_pseudo(m, None, false))
                    .collect();
                let legal = pos.legal_moves();
                assert_eq!(legal, full, "{}", pos.to_fen());
                if legal.is_empty() {
                    break;
                }
                let m = legal[(rng(&mut seed) % legal.len() as u64) as usize];
                // FEN (with promoted pieces, `+P`) reads back, and a move
                // taken back restores the mover as it was.
                let fen = pos.to_fen();
                assert_eq!(Position::from_fen(variant.clone(), &fen).unwrap().to_fen(), fen);
                promoted += usize::from(fen.contains('+'));
                let key = pos.key();
                let undo = pos.play_unchecked(m);
                pos.undo(m, undo);
                assert_eq!(pos.to_fen(), fen);
                assert_eq!(pos.key(), key);
                pos.play_unchecked(m);
                // The hash kept move by move is the one read from the board.
                let again = Position::from_fen(variant.clone(), &pos.to_fen()).unwrap();
                assert_eq!(again.key(), pos.key(), "{}", pos.to_fen());
            }
        }
        assert!(checked > 10_000, "{checked}");
        assert!(promoted > 100, "{promoted} positions with a promoted piece");
    }
}
