//! The validated position: piece placement, side to move, Zobrist key, and
//! the incremental state that legal move generation and the referee need.
//!
//! The board is kept three ways at once, each for the question it answers
//! fastest: a mailbox (`what stands on this square?`), bitboards by colour and
//! role (`where are the black cannons?`), and rank-major plus file-major
//! occupancy (`what does a rook on e4 see?`, see [`crate::attacks`]).

use crate::attacks::{self, transposed_index};
use crate::zobrist;
use crate::{Bitboard, Color, Move, MoveList, Piece, Role, Square};

/// What [`Position::play_unchecked`] returns so that [`Position::undo`] can
/// restore the position exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: Option<Piece>,
    halfmove_clock: u32,
    key: u64,
}

impl Undo {
    /// The piece the move captured, if any.
    #[must_use]
    pub fn captured(&self) -> Option<Piece> {
        self.captured
    }
}

/// A legal Xiangqi position. Build one with [`Position::startpos`],
/// [`Position::from_fen`] or [`Position::from_setup`].
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// 0 = empty, otherwise `Piece::index() + 1`.
    board: [u8; 90],
    by_color: [u128; 2],
    by_role: [u128; 7],
    occ: u128,
    /// The occupancy again, file-major (bit `file * 10 + rank`).
    occ_t: u128,
    kings: [Square; 2],
    turn: Color,
    key: u64,
    /// Plies since the last capture.
    halfmove_clock: u32,
    fullmoves: u32,
}

/// A move that [`Position::play`] refused, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("no piece on {0}")]
    EmptySquare(Square),
    #[error("the piece on {square} belongs to {owner}, but {turn} is to move")]
    NotYourPiece {
        square: Square,
        owner: Color,
        turn: Color,
    },
    #[error("the {role} on {from} cannot move to {to}")]
    Unreachable {
        role: &'static str,
        from: Square,
        to: Square,
    },
    #[error("{0} would leave the own king in check or facing the other king")]
    SelfCheck(Move),
}

/// Receives generated moves: either collects them or just counts them.
trait Sink {
    /// All of `targets` from `from` are legal.
    fn add_all(&mut self, from: Square, targets: u128);
    fn add(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline]
    fn add_all(&mut self, from: Square, targets: u128) {
        for to in Bitboard(targets) {
            // SAFETY-free: capacity exceeds the most moves any position has.
            self.push(Move::new(from, to));
        }
    }

    #[inline]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

struct Counter(u64);

impl Sink for Counter {
    #[inline]
    fn add_all(&mut self, _from: Square, targets: u128) {
        self.0 += u64::from(targets.count_ones());
    }

    #[inline]
    fn add(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl Position {
    pub(crate) fn empty(turn: Color) -> Position {
        Position {
            board: [0; 90],
            by_color: [0; 2],
            by_role: [0; 7],
            occ: 0,
            occ_t: 0,
            kings: [Square::new(4, 0), Square::new(4, 9)],
            turn,
            key: if turn == Color::Black {
                zobrist::BLACK_TO_MOVE
            } else {
                0
            },
            halfmove_clock: 0,
            fullmoves: 1,
        }
    }

    /// Places a piece on an empty square (set-up only; keeps all views in step).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert_eq!(self.board[sq.index()], 0);
        let b = 1u128 << sq.index();
        self.board[sq.index()] = piece.index() as u8 + 1;
        self.by_color[piece.color.index()] |= b;
        self.by_role[piece.role.index()] |= b;
        self.occ |= b;
        self.occ_t |= 1u128 << transposed_index(sq);
        self.key ^= zobrist::piece_key(piece, sq);
        if piece.role == Role::King {
            self.kings[piece.color.index()] = sq;
        }
    }

    pub(crate) fn set_counters(&mut self, halfmove_clock: u32, fullmoves: u32) {
        self.halfmove_clock = halfmove_clock;
        self.fullmoves = fullmoves.max(1);
    }

    /// The standard opening position.
    #[must_use]
    pub fn startpos() -> Position {
        Position::from_fen(crate::fen::STARTPOS).expect("the start position is valid")
    }

    #[inline]
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.board[sq.index()] {
            0 => None,
            code => Some(Piece::from_index(code as usize - 1)),
        }
    }

    #[inline]
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Zobrist key of placement and side to move (counters excluded), the
    /// identity used for repetition.
    #[inline]
    #[must_use]
    pub fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occ)
    }

    #[inline]
    #[must_use]
    pub fn by_color(&self, color: Color) -> Bitboard {
        Bitboard(self.by_color[color.index()])
    }

    #[inline]
    #[must_use]
    pub fn by_role(&self, role: Role) -> Bitboard {
        Bitboard(self.by_role[role.index()])
    }

    #[inline]
    #[must_use]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        Bitboard(self.by_color[color.index()] & self.by_role[role.index()])
    }

    #[inline]
    #[must_use]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Plies since the last capture (the natural-limit counter).
    #[must_use]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Squares the piece on `from` could move to if it were that side's turn
    /// and checks did not matter (own pieces excluded).
    #[inline]
    #[must_use]
    pub fn pseudo_targets(&self, from: Square, piece: Piece) -> Bitboard {
        Bitboard(self.targets(from, piece.color, piece.role) & !self.by_color[piece.color.index()])
    }

    /// Squares the piece on `from` bears on: where it could capture an enemy
    /// piece, or recapture if an own piece standing there were taken — so a
    /// defended piece shows up in its defenders' sets. A cannon bears only
    /// on the first piece beyond a screen, not on the squares it moves to.
    #[inline]
    #[must_use]
    pub fn attacks_from(&self, from: Square, piece: Piece) -> Bitboard {
        Bitboard(match piece.role {
            Role::Cannon => attacks::cannon_captures(from, self.occ, self.occ_t),
            role => self.targets(from, piece.color, role),
        })
    }

    /// Squares from which a rook, horse or cannon would attack `sq` on this
    /// board (the squares a piece must reach to give check there). Other
    /// roles give no squares.
    #[must_use]
    pub fn attack_squares_to(&self, sq: Square, role: Role) -> Bitboard {
        Bitboard(match role {
            Role::Rook => attacks::rook_attacks(sq, self.occ, self.occ_t),
            Role::Horse => attacks::leaper_targets(attacks::horse_attacker_steps(sq), self.occ),
            Role::Cannon => {
                // Beyond the first piece in each direction, up to and
                // including the second.
                let mut s = 0;
                for dir in 0..4 {
                    if let Some(screen) = attacks::nearest(dir, attacks::ray(dir, sq) & self.occ) {
                        let beyond = attacks::ray(dir, screen);
                        s |= match attacks::nearest(dir, beyond & self.occ) {
                            Some(end) => beyond & !attacks::ray(dir, end),
                            None => beyond,
                        };
                    }
                }
                s
            }
            _ => 0,
        })
    }

    fn targets(&self, from: Square, color: Color, role: Role) -> u128 {
        match role {
            Role::Rook => attacks::rook_attacks(from, self.occ, self.occ_t),
            Role::Cannon => {
                let (slide, jump) = attacks::slide_and_jump(from, self.occ, self.occ_t);
                (slide & !self.occ) | (jump & self.by_color[color.other().index()])
            }
            Role::Horse => attacks::leaper_targets(attacks::horse_steps(from), self.occ),
            Role::Elephant => attacks::leaper_targets(attacks::elephant_steps(from), self.occ),
            Role::Advisor => attacks::advisor_moves(from),
            Role::King => attacks::king_moves(from),
            Role::Pawn => attacks::pawn_moves(color, from),
        }
    }

    /// Whether pieces of `by` (restricted to the set `their`) attack `sq`,
    /// given an occupancy that may differ from the board's (to test a move
    /// before making it). Kings count as attackers along a file: that is the
    /// flying-general rule (飞将).
    #[inline]
    fn attacked(&self, sq: Square, by: Color, their: u128, occ: u128, occ_t: u128) -> bool {
        let r = &self.by_role;
        if attacks::pawn_attackers(by, sq) & r[Role::Pawn.index()] & their != 0 {
            return true;
        }
        let horses = r[Role::Horse.index()] & their;
        if horses != 0 {
            for step in attacks::horse_attacker_steps(sq) {
                if step.targets & horses != 0 && (occ >> step.block) & 1 == 0 {
                    return true;
                }
            }
        }
        let (slide, jump) = attacks::slide_and_jump(sq, occ, occ_t);
        (slide & (r[Role::Rook.index()] | r[Role::King.index()]) | jump & r[Role::Cannon.index()]) & their
            != 0
    }

    /// Pieces of `by` that attack `sq` on the current board.
    #[must_use]
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        self.attackers_with(sq, by, self.occ, self.occ_t)
    }

    /// Pieces of `by` that would attack `sq` with the given occupancy (the
    /// pieces themselves are the board's). Used by the referee to look
    /// through pieces.
    #[must_use]
    pub fn attackers_with(&self, sq: Square, by: Color, occ: u128, occ_t: u128) -> Bitboard {
        let their = self.by_color[by.index()] & occ;
        let r = &self.by_role;
        let mut a = attacks::rook_attacks(sq, occ, occ_t) & (r[Role::Rook.index()] | r[Role::King.index()]);
        a |= attacks::cannon_captures(sq, occ, occ_t) & r[Role::Cannon.index()];
        a |= attacks::pawn_attackers(by, sq) & r[Role::Pawn.index()];
        a |= attacks::leaper_targets(attacks::horse_attacker_steps(sq), occ) & r[Role::Horse.index()];
        Bitboard(a & their)
    }

    /// Every piece of either side that could capture on `sq` if the pieces
    /// on `removed` were gone: the attacker sets of a static exchange
    /// evaluation, where each capture takes a piece off the board and may
    /// open a line, a horse's leg, an elephant's eye or a cannon's screen
    /// (or close one: a cannon that jumped over a removed piece no longer
    /// attacks). Pins are not considered, as in every exchange evaluator.
    #[must_use]
    pub fn exchange_attackers(&self, sq: Square, removed: Bitboard) -> Bitboard {
        let occ = self.occ & !removed.0;
        let mut occ_t = self.occ_t;
        for r in removed {
            occ_t &= !(1u128 << transposed_index(r));
        }
        let r = &self.by_role;
        let mut a = attacks::rook_attacks(sq, occ, occ_t) & r[Role::Rook.index()];
        a |= attacks::cannon_captures(sq, occ, occ_t) & r[Role::Cannon.index()];
        a |= attacks::king_moves(sq) & r[Role::King.index()];
        a |= attacks::advisor_moves(sq) & r[Role::Advisor.index()];
        a |= attacks::leaper_targets(attacks::elephant_steps(sq), occ) & r[Role::Elephant.index()];
        for color in Color::ALL {
            a |= attacks::pawn_attackers(color, sq) & r[Role::Pawn.index()] & self.by_color[color.index()];
        }
        a |= attacks::leaper_targets(attacks::horse_attacker_steps(sq), occ) & r[Role::Horse.index()];
        Bitboard(a & occ)
    }

    /// Whether the side to move is in check (incl. facing kings).
    #[inline]
    #[must_use]
    pub fn is_check(&self) -> bool {
        let them = self.turn.other();
        self.attacked(
            self.kings[self.turn.index()],
            them,
            self.by_color[them.index()],
            self.occ,
            self.occ_t,
        )
    }

    /// Pieces giving check to the side to move.
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        self.attackers(self.kings[self.turn.index()], self.turn.other())
    }

    /// Whether `color`'s king is attacked.
    #[must_use]
    pub fn is_attacked_king(&self, color: Color) -> bool {
        let them = color.other();
        self.attacked(
            self.kings[color.index()],
            them,
            self.by_color[them.index()],
            self.occ,
            self.occ_t,
        )
    }

    /// Whether the pseudo-legal move `from`→`to` of the side to move leaves
    /// its own king safe, tested on occupancy bits without making the move.
    #[inline]
    fn leaves_king_safe(&self, from: Square, to: Square) -> bool {
        let us = self.turn;
        let them = us.other();
        let (fb, tb) = (1u128 << from.index(), 1u128 << to.index());
        let occ = (self.occ & !fb) | tb;
        let occ_t = (self.occ_t & !(1u128 << transposed_index(from))) | (1u128 << transposed_index(to));
        let their = self.by_color[them.index()] & !tb;
        let king = if from == self.kings[us.index()] {
            to
        } else {
            self.kings[us.index()]
        };
        !self.attacked(king, them, their, occ, occ_t)
    }

    /// The own pieces whose moving might expose the king (pinned to a rook or
    /// the other king, one of two screens of a cannon, the leg blocking a
    /// horse), and the empty squares where any piece would become the screen
    /// of a cannon aimed at the king. Every other move of a non-king piece is
    /// legal when the side is not in check.
    fn danger(&self) -> (u128, u128) {
        let us = self.turn;
        let ksq = self.kings[us.index()];
        let own = self.by_color[us.index()];
        let enemy = self.by_color[us.other().index()];
        let cannons = self.by_role[Role::Cannon.index()] & enemy;
        let rooks = (self.by_role[Role::Rook.index()] | self.by_role[Role::King.index()]) & enemy;
        let (mut from, mut to) = (0u128, 0u128);
        for dir in 0..4 {
            let ray = attacks::ray(dir, ksq);
            if ray & (cannons | rooks) == 0 {
                continue;
            }
            let b = ray & self.occ;
            let Some(p1) = attacks::nearest(dir, b) else {
                continue;
            };
            let b1 = 1u128 << p1.index();
            if cannons & b1 != 0 {
                // A piece put between would be the cannon's screen. The
                // cannon may also be a screen itself, so look further.
                to |= ray & !attacks::ray(dir, p1) & !b1;
            }
            let b = b & !b1;
            let Some(p2) = attacks::nearest(dir, b) else {
                continue;
            };
            let b2 = 1u128 << p2.index();
            if rooks & b2 != 0 {
                from |= b1 & own;
                continue;
            }
            let Some(p3) = attacks::nearest(dir, b & !b2) else {
                continue;
            };
            if cannons & (1u128 << p3.index()) != 0 {
                from |= (b1 | b2) & own;
            }
        }
        let horses = self.by_role[Role::Horse.index()] & enemy;
        if horses != 0 {
            for step in attacks::horse_attacker_steps(ksq) {
                if step.targets & horses != 0 {
                    from |= own & (1u128 << step.block);
                }
            }
        }
        (from, to)
    }

    /// Hands `targets` of the piece on `from` to the sink: in bulk when the
    /// move cannot expose the king, one by one through the full test when it
    /// might.
    #[inline(always)]
    fn emit<S: Sink>(&self, sink: &mut S, from: Square, targets: u128, danger: (u128, u128)) {
        if danger.0 >> from.index() & 1 == 0 {
            sink.add_all(from, targets & !danger.1);
        } else {
            for to in Bitboard(targets) {
                if self.leaves_king_safe(from, to) {
                    sink.add(Move::new(from, to));
                }
            }
        }
    }

    fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = us.other();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let (occ, occ_t) = (self.occ, self.occ_t);
        let not_own = !own & Bitboard::FULL.0;
        let ksq = self.kings[us.index()];
        let danger = if self.attacked(ksq, them, enemy, occ, occ_t) {
            (u128::MAX, 0)
        } else {
            self.danger()
        };
        let mine = |role: Role| Bitboard(own & self.by_role[role.index()]);
        for from in mine(Role::Rook) {
            self.emit(
                sink,
                from,
                attacks::rook_attacks(from, occ, occ_t) & not_own,
                danger,
            );
        }
        for from in mine(Role::Cannon) {
            let (slide, jump) = attacks::slide_and_jump(from, occ, occ_t);
            self.emit(sink, from, (slide & !occ) | (jump & enemy), danger);
        }
        for from in mine(Role::Horse) {
            self.emit(
                sink,
                from,
                attacks::leaper_targets(attacks::horse_steps(from), occ) & not_own,
                danger,
            );
        }
        for from in mine(Role::Pawn) {
            self.emit(sink, from, attacks::pawn_moves(us, from) & not_own, danger);
        }
        for from in mine(Role::Advisor) {
            self.emit(sink, from, attacks::advisor_moves(from) & not_own, danger);
        }
        for from in mine(Role::Elephant) {
            self.emit(
                sink,
                from,
                attacks::leaper_targets(attacks::elephant_steps(from), occ) & not_own,
                danger,
            );
        }
        for to in Bitboard(attacks::king_moves(ksq) & not_own) {
            if self.leaves_king_safe(ksq, to) {
                sink.add(Move::new(ksq, to));
            }
        }
    }

    /// All legal moves.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The number of legal moves, counted without listing them (bulk
    /// counting for perft and mobility).
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether the side to move has any legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        // Cheap enough: counting is branch-light, and positions without moves are rare.
        self.count_legal_moves() > 0
    }

    /// Whether `m` is pseudo-legal and leaves the own king safe. Checks
    /// everything, so any `Move` value may be passed (e.g. from a hash table).
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Like [`Position::is_legal`], but says why a move is illegal.
    ///
    /// # Errors
    /// The reason the move is not legal here.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let (from, to) = (m.from(), m.to());
        let piece = self.piece_at(from).ok_or(IllegalMove::EmptySquare(from))?;
        if piece.color != self.turn {
            return Err(IllegalMove::NotYourPiece {
                square: from,
                owner: piece.color,
                turn: self.turn,
            });
        }
        if !self.pseudo_targets(from, piece).contains(to) {
            return Err(IllegalMove::Unreachable {
                role: piece.role.name(),
                from,
                to,
            });
        }
        if !self.leaves_king_safe(from, to) {
            return Err(IllegalMove::SelfCheck(m));
        }
        Ok(())
    }

    /// Plays a move after checking it.
    ///
    /// # Errors
    /// The move is not legal; the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<Undo, IllegalMove> {
        self.check_move(m)?;
        Ok(self.play_unchecked(m))
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]).
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let (from, to) = (m.from(), m.to());
        let us = self.turn;
        let them = us.other();
        let code = self.board[from.index()];
        debug_assert!(code != 0, "no piece on {from} for {m}");
        let piece = Piece::from_index(code as usize - 1);
        let captured_code = self.board[to.index()];
        let undo = Undo {
            captured: (captured_code != 0).then(|| Piece::from_index(captured_code as usize - 1)),
            halfmove_clock: self.halfmove_clock,
            key: self.key,
        };
        let (fb, tb) = (1u128 << from.index(), 1u128 << to.index());
        let ftb = 1u128 << transposed_index(from);
        if let Some(cap) = undo.captured {
            self.by_color[them.index()] ^= tb;
            self.by_role[cap.role.index()] ^= tb;
            self.key ^= zobrist::piece_key(cap, to);
            self.occ ^= fb;
            self.occ_t ^= ftb;
            self.halfmove_clock = 0;
        } else {
            self.occ ^= fb | tb;
            self.occ_t ^= ftb | (1u128 << transposed_index(to));
            self.halfmove_clock += 1;
        }
        self.by_color[us.index()] ^= fb | tb;
        self.by_role[piece.role.index()] ^= fb | tb;
        self.board[to.index()] = code;
        self.board[from.index()] = 0;
        self.key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to) ^ zobrist::BLACK_TO_MOVE;
        if piece.role == Role::King {
            self.kings[us.index()] = to;
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
        undo
    }

    /// Takes back `m`, which must be the last move played, with what
    /// [`Position::play_unchecked`] returned for it.
    #[inline]
    pub fn undo(&mut self, m: Move, undo: Undo) {
        let (from, to) = (m.from(), m.to());
        let them = self.turn;
        let us = them.other();
        let code = self.board[to.index()];
        let piece = Piece::from_index(code as usize - 1);
        let (fb, tb) = (1u128 << from.index(), 1u128 << to.index());
        let ftb = 1u128 << transposed_index(from);
        self.by_color[us.index()] ^= fb | tb;
        self.by_role[piece.role.index()] ^= fb | tb;
        self.board[from.index()] = code;
        if let Some(cap) = undo.captured {
            self.by_color[them.index()] ^= tb;
            self.by_role[cap.role.index()] ^= tb;
            self.occ ^= fb;
            self.occ_t ^= ftb;
            self.board[to.index()] = cap.index() as u8 + 1;
        } else {
            self.occ ^= fb | tb;
            self.occ_t ^= ftb | (1u128 << transposed_index(to));
            self.board[to.index()] = 0;
        }
        if piece.role == Role::King {
            self.kings[us.index()] = from;
        }
        if us == Color::Black {
            self.fullmoves -= 1;
        }
        self.turn = us;
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
    }

    /// Passes the turn (for null-move pruning in search; never a legal move).
    pub fn play_null(&mut self) -> Undo {
        let undo = Undo {
            captured: None,
            halfmove_clock: self.halfmove_clock,
            key: self.key,
        };
        self.key ^= zobrist::BLACK_TO_MOVE;
        self.turn = self.turn.other();
        undo
    }

    pub fn undo_null(&mut self, undo: Undo) {
        self.turn = self.turn.other();
        self.key = undo.key;
        self.halfmove_clock = undo.halfmove_clock;
    }

    /// Whether `m` (legal here) checks the opponent.
    #[must_use]
    pub fn gives_check(&self, m: Move) -> bool {
        let mut p = self.clone();
        p.play_unchecked(m);
        p.is_check()
    }

    /// Whether `m` captures.
    #[inline]
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()] != 0
    }

    /// The board's own verdict, if the side to move has no legal move: being
    /// checkmated (将死) and being stalemated (困毙) both lose in Xiangqi.
    #[must_use]
    pub fn outcome(&self) -> Option<game::Outcome> {
        if self.has_legal_move() {
            None
        } else {
            Some(game::Outcome::Win {
                winner: self.turn.other().into(),
            })
        }
    }

    /// Iterates over (square, piece) for every piece on the board.
    pub fn pieces_iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Bitboard(self.occ).map(move |sq| (sq, self.piece_at(sq).expect("occupied")))
    }

    /// Checks that all redundant views of the board agree (for tests).
    #[doc(hidden)]
    #[must_use]
    pub fn is_consistent(&self) -> bool {
        let mut copy = Position::empty(self.turn);
        for (sq, p) in self.pieces_iter() {
            copy.put(p, sq);
        }
        copy.halfmove_clock = self.halfmove_clock;
        copy.fullmoves = self.fullmoves;
        copy == *self
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}
