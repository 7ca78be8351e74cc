//! Winning material (得子) as the CXA book counts it, for the chase (捉,
//! 28.3 and 29.1–29.4).
//!
//! 29.1 names three ways to win a piece: capture it outright, win it "by a
//! run of checks" (连续照将), or "through a complete exchange" (完整的交换过程).
//! All three are one small search here: the side to move (the mover) starts
//! with a capture — or, where checks are allowed, a check — and then both
//! sides capture, check (a limited number of times) or stop; a side in check
//! must answer it with any legal move. The balance is kept in pieces and in
//! crossed pawns apart, because 25.3 lets the pawn's value float: "一兵换取
//! 数子或一子换取数兵均不算得子" — a pawn given for pieces, or a piece for
//! pawns, is neither a gain nor a loss.
//!
//! Two readings of the same search serve 29.2 ("the chase arises from the
//! move just made and did not exist before"):
//! - after the move (the mover to move again, as if the opponent passed),
//!   the opponent may answer only with captures the mover's play made
//!   possible: a threat it already had stays out of it, even against a piece
//!   the capturer used to protect (图22) — each side's threats are judged
//!   on their own. That holds for its old wins through checks too (参考图34),
//!   but not where the piece taken has a root: then the exchange is weighed
//!   whole, every capture counting (参考图31); and a capture elsewhere that
//!   the line opened is no root where it only evens the trade (参考图27);
//! - before the move, every answer counts: the chase is new when the piece
//!   could not really have been won before (图12: taking the pawn would have
//!   left the cannon to the rook).
//!
//! 29.4: a gain after which the mover is mated by checks is no gain.

use crate::classify::{guards, mates_by_checks, may_check, see, value, SEE_DEPTH};
use xiangqi::{Bitboard, Color, Move, MoveList, Piece, Position, Role, Square};

/// Material in the book's units (25.3), pieces and crossed pawns apart:
/// rook 4, horse and cannon 2, advisor and elephant 1; a crossed pawn is one
/// pawn; the king and an uncrossed pawn are no material.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Balance {
    pub pieces: i32,
    pub pawns: i32,
}

impl Balance {
    #[must_use]
    pub fn of(piece: Piece, sq: Square) -> Balance {
        match piece.role {
            Role::Rook => Balance { pieces: 4, pawns: 0 },
            Role::Horse | Role::Cannon => Balance { pieces: 2, pawns: 0 },
            Role::Advisor | Role::Elephant => Balance { pieces: 1, pawns: 0 },
            Role::Pawn if !sq.on_own_half(piece.color) => Balance { pieces: 0, pawns: 1 },
            Role::Pawn | Role::King => Balance::default(),
        }
    }

    fn add(self, o: Balance) -> Balance {
        Balance {
            pieces: self.pieces + o.pieces,
            pawns: self.pawns + o.pawns,
        }
    }

    fn sub(self, o: Balance) -> Balance {
        Balance {
            pieces: self.pieces - o.pieces,
            pawns: self.pawns - o.pawns,
        }
    }

    /// One number to compare by. 25.3 lets the crossed pawn's value float
    /// between a weak piece's and a strong piece's ("一兵换取数子或一子换取
    /// 数兵均不算得子"), so a gain must hold at either end: pawns won count
    /// as weak pieces (1), pawns given as strong ones (2). A pawn given for
    /// a horse is no gain (图24: 送兵换马, 闲); a pawn given for a rook is
    /// (图24: 弃兵得车, 捉); an even trade plus a pawn is (图4).
    #[must_use]
    ///
    /// The other half of the sentence, "一子换取数兵…不算得子": pawns won
    /// never make up for a piece given — an advisor for two crossed pawns
    /// is no gain either.
    pub fn score(self) -> i32 {
        if self.pawns > 0 {
            if self.pieces < 0 {
                (self.pieces + self.pawns).min(0)
            } else {
                self.pieces + self.pawns
            }
        } else {
            self.pieces + 2 * self.pawns
        }
    }
}

/// Far beyond any material balance: a side is mated.
const MATE: i32 = 1_000;
/// Plies the exchange search looks ahead, and how many nodes it may visit
/// for one root move (a bound on the referee's cost per move).
const DEPTH: u32 = 10;
const NODE_BUDGET: u32 = 4_000;
/// Checks each side may give inside an exchange (a check that also
/// captures is counted as a capture). Both sides get the same: 图3 needs
/// the defender's checks as much as the chaser's (black's rook wins the
/// red rook by a run of checks, and its checks are also what roots the
/// horse the red rook attacks).
const MOVER_CHECKS: u32 = 3;
const OPPONENT_CHECKS: u32 = 2;
/// Depth of the mate search of 29.4.
const MATE_AFTER_GAIN: u32 = 3;

/// How a chased piece is won, for the rulings between two perpetual
/// attackers: the book forbids chasing a rook or an unprotected piece
/// more heavily than chasing a protected piece by several pieces together
/// (联合捉: 图10, 图11, 图25–图28).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChaseKind {
    /// 联合捉 / 少根子: a protected piece (not a rook) won through an
    /// exchange in which the mover has more attackers than it has roots.
    Joint,
    /// 捉无根子: an unprotected piece, or one whose roots are false (假根).
    Unprotected,
    /// 捉车: a rook, protected or not.
    Rook,
}

/// A piece the mover can win, with how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Win {
    /// The piece the line takes first (for a run of checks: the richest).
    pub target: Square,
    pub gain: i32,
    /// The richest piece the line takes.
    pub prize: Square,
    /// How the richest piece of the line is won (see [`kind_of`]; left
    /// [`ChaseKind::Unprotected`] by [`wins`]).
    pub kind: ChaseKind,
    /// Won through a run of checks (the line starts with a check that takes
    /// nothing of value) rather than by a capture and exchange.
    pub by_checks: bool,
    /// The piece on the `moved` square moves in the line.
    pub uses_moved: bool,
}

/// Whose answers count (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// After the move: only answers the mover's play made possible.
    After,
    /// Before the move: every answer but taking a piece that was lost
    /// anyway (en prise and not defended enough).
    Before,
    /// Every answer.
    Strict,
}

/// The opponent pieces the side to move in `pos` can win, best gain per
/// piece (only gains > 0 are returned). `checks` lets the mover start with
/// a check (29.1's run of checks).
#[must_use]
/// `moved` is the square of a piece whose part in the lines is reported
/// ([`Win::uses_moved`]).
/// The kind of each win is left as [`ChaseKind::Unprotected`]: naming it
/// ([`kind_of`]) costs a search per piece, asked only of the chases kept.
pub fn wins(pos: &Position, reading: Reading, checks: bool, moved: Option<Square>) -> Vec<Win> {
    wins_frozen(pos, reading, checks, moved, None, false)
}

/// [`wins`] with the mover's piece on `frozen` kept where it stands: it
/// still blocks, screens and pins, but never moves (see [`kind_of`]).
fn wins_frozen(
    pos: &Position,
    reading: Reading,
    checks: bool,
    moved: Option<Square>,
    frozen: Option<Square>,
    checks_only: bool,
) -> Vec<Win> {
    let mover = pos.turn();
    let mut p = pos.clone();
    // Every capture the opponent has as things stand: the After reading's
    // old threats, and what the `elsewhere` rule of the search measures
    // against in every reading.
    let standing = opponent_captures(&p);
    let base = match reading {
        Reading::After => standing.clone(),
        Reading::Before => opponent_winning_captures(&p),
        Reading::Strict => MoveList::new(),
    };
    // 29.2, each side's threats judged on their own, for the opponent's
    // runs of checks as for its captures: a piece of the mover's that the
    // opponent already wins through checks as things stand (29.1 连续照将)
    // is lost to a threat of its own, not an answer to the mover's win. The
    // checks stay open as answers — they may drive off or pin what the win
    // needs — but the capture they end with does not undo the win
    // (参考图34: 车二退六 attacks the unguarded cannon; 车4进3 check, the king
    // steps aside and the rook takes the red cannon — a threat black had
    // before the move, so still 捉).
    // Found only when a line asks (a capture elsewhere that is not an old
    // one): the search from the opponent's side is the dearer one.
    let old_by_checks = std::cell::OnceCell::new();
    let old_by_checks = (reading == Reading::After).then_some(&old_by_checks);
    // Pieces the mover wins outright anyway are chased (or not) in their
    // own right: taking them later in a line does not make the line's first
    // capture a chase.
    let own = winning_captures(&p);
    let their_king = p.king(mover.other());
    if trace_on() {
        eprintln!(
            "base {reading:?}: {:?}",
            base.iter().map(|m| m.iccs()).collect::<Vec<_>>()
        );
    }
    // (target, richest prize, by checks, gain, uses the moved piece)
    let mut best: Vec<(Square, Square, bool, i32, bool)> = Vec::new();
    let mut note = |sq: Square, prize: Square, by_checks: bool, v: i32, used: bool| {
        if let Some(e) = best.iter_mut().find(|e| e.0 == sq && e.2 == by_checks) {
            if v > e.3 {
                *e = (sq, prize, by_checks, v, used);
            }
        } else {
            best.push((sq, prize, by_checks, v, used));
        }
    };
    for m in p.legal_moves() {
        if frozen == Some(m.from()) || (checks_only && p.piece_at(m.to()).is_some()) {
            continue;
        }
        let role = p.piece_at(m.from()).expect("legal").role;
        // The line starts by taking a piece of material value (the king and
        // an uncrossed pawn are none), or by a check.
        let victim = p
            .piece_at(m.to())
            .filter(|&v| Balance::of(v, m.to()) != Balance::default());
        let gives_check = checks && may_check(m, their_king) && p.gives_check(m);
        // 27.1 / 27.2: the king or a pawn taking by itself is not a chase.
        // A pawn's check is another matter: 27.2 exempts the pawn's own
        // captures "(不含将、杀)", and a run of checks that starts with the
        // pawn and wins with another piece is the other piece's capture
        // through checks (28.3 "通过连续照将", 29.1) — as a piece that wins
        // with the king's help chases (27.1 "借帅之力捉吃按捉"). The king
        // and the pawn still may not take at the root.
        if matches!(role, Role::King | Role::Pawn) && (p.piece_at(m.to()).is_some() || !gives_check) {
            continue;
        }
        if victim.is_none() && !gives_check {
            continue;
        }
        let mut s = Search {
            base: &base,
            old_by_checks,
            root: pos,
            standing: &standing,
            after_first: false,
            own: &own,
            nodes: 0,
            trace: trace_on(),
            ply: 1,
            taken: 0,
            frozen,
        };
        let gained = victim.map_or(Balance::default(), |v| Balance::of(v, m.to()));
        let checks_left = if victim.is_none() {
            MOVER_CHECKS - 1
        } else {
            MOVER_CHECKS
        };
        if victim.is_some() {
            s.taken = 1u128 << m.to().index();
        }
        let root_used = moved == Some(m.from());
        let still = if root_used { Some(m.to()) } else { moved };
        let u = p.play_unchecked(m);
        // 29.1 names two ways apart: taking a piece outright (直接吃子) and
        // winning material through a complete exchange (通过完整的交换过程
        // 得子). Where the piece taken has a root — the opponent can take
        // back on the square — the exchange is weighed whole, every capture
        // of either side counting, the opponent's old ones too: 参考图31,
        // the cannon takes the pawn the horse guards, and red answers first
        // with 炮五进四打象, an old capture, before the horse takes the
        // cannon — pawn for elephant, even (25.3), 闲. An unguarded piece
        // taken outright is won whatever else the opponent then takes
        // (shared 图22: the rook takes the pawn though the horse it guarded
        // falls, 捉).
        let whole =
            reading == Reading::After && victim.is_some() && p.legal_moves().iter().any(|r| r.to() == m.to());
        let every = MoveList::new();
        if whole {
            s.base = &every;
            s.old_by_checks = None;
        }
        s.after_first = victim.is_some();
        let (v, prize, used) = s.opponent(&mut p, gained, m.to(), checks_left, DEPTH - 1, still);
        let used = used || root_used;
        p.undo(m, u);
        if s.trace {
            eprintln!(
                "root {m} -> {v} prize {:?} ({reading:?}) nodes {}",
                prize.map(|f| f.0.iccs()),
                s.nodes
            );
        }
        // The chased piece: the one taken at once, or the richest one the
        // line wins. Where the first capture is only an exchange — the line
        // gains no more than a piece it takes later (rook for rook, then the
        // piece the recapturing rook guarded) — the piece chased is that
        // later one, won through the exchange (29.1 完整的交换过程; 图4:
        // "以炮换马多得一卒"). This is what 27.4 weighs when a move offers an
        // exchange and chases through it (兑兼捉): the offer is of the first
        // piece, the chase of the second.
        let root_prize = victim.map(|v| (m.to(), Balance::of(v, m.to()).score()));
        let traded = matches!((root_prize, prize), (Some(r), Some(l)) if v < r.1 && v <= l.1 && l.0 != r.0);
        let richest = if traded { prize } else { richer(root_prize, prize) }.map(|p| p.0);
        let target = if traded {
            richest
        } else if victim.is_some() {
            Some(m.to())
        } else {
            richest
        };
        if let (Some(t), Some(r)) = (target, richest) {
            if victim.is_some() || v > 0 {
                note(t, r, victim.is_none(), v, used);
            }
        }
    }
    best.into_iter()
        .filter(|&(_, _, _, v, _)| v > 0)
        .map(|(t, prize, by_checks, gain, uses_moved)| Win {
            target: t,
            gain,
            prize,
            kind: ChaseKind::Unprotected,
            by_checks,
            uses_moved,
        })
        .collect()
}

/// The most the side to move can win by captures, exchanges and checks
/// (0 if nothing): how an exchange it is offered would end for it.
#[must_use]
pub fn best_gain(pos: &Position) -> i32 {
    let none = MoveList::new();
    let mut p = pos.clone();
    let mut s = Search {
        base: &none,
        old_by_checks: None,
        root: pos,
        standing: &none,
        after_first: false,
        own: &none,
        nodes: 0,
        trace: false,
        ply: 1,
        taken: 0,
        frozen: None,
    };
    let last = Square::new(0, 0);
    s.mover(
        &mut p,
        Balance::default(),
        last,
        MOVER_CHECKS,
        OPPONENT_CHECKS,
        DEPTH,
        0,
        MATE + 1,
        None,
    )
    .0
    .max(0)
}

/// How a piece is won (for the rulings between two perpetual chasers,
/// 图10, 图11, 图25–图28). A chase is joint (联合捉) when the piece has a
/// root and falls only to several of the mover's pieces acting together:
/// two attackers against one root (少根子, 图26), an attacker and a piece
/// that pins the root (图11: the cannon pins the elephant that guards), a
/// cannon and the rook that is its screen, a rook and a cannon behind it
/// on a protected rook. A piece won by one piece alone is chased singly:
/// a rook (捉车) or an unprotected piece (捉无根子) — also where a second
/// attacker is there but not needed (图11: black's rook and the cannon
/// behind it on the unprotected cannon, "长捉无根子"). A root that is only
/// the king is none (27.1: the king itself protects nothing that is
/// protected; a piece rooted only by its king and won counts as
/// unprotected).
///
/// "Needed" is tested by lifting: a mover's piece is needed when, taken
/// off the board, the piece is no longer won. A needed piece counts toward
/// a joint chase only when it acts on the chased piece or its roots
/// (28.16's "several pieces attacking together"): it must move in the
/// lines that win (kept in place it no longer wins), or it bears on the
/// target or a root, screens a cannon that does, or pins a root to its
/// king ([`acts_on`]). A piece that only blocks a defence on another line
/// — a pawn that keeps a rook from checking and so freeing a pinned root —
/// leaves the chase single.
#[must_use]
pub fn kind_of(
    pos: &Position,
    target: Square,
    mover: Color,
    reading: Reading,
    moved: Option<Square>,
) -> ChaseKind {
    let Some(victim) = pos.piece_at(target) else {
        return ChaseKind::Joint;
    };
    let single = if victim.role == Role::Rook {
        ChaseKind::Rook
    } else {
        ChaseKind::Unprotected
    };
    let mut roots = guards(pos, target, mover.other());
    roots.clear(pos.king(mover.other()));
    // 假根 (28.16: "形式上是根，实际上起不到充分保护作用… 按无根子处理"): a
    // root counts only where it still bears on the square once one of the
    // mover's pieces has taken there — a cannon whose screen is the very
    // piece that takes protects nothing (参考图47: 炮五平三 cuts the rear
    // cannon's file and the rook takes the horse g7, which the cannon g5
    // guards only over the rook — "长捉无根子"). A pinned root still bears
    // (图11).
    if victim.color != mover {
        let mut p = pos.clone();
        let mut kept = Bitboard::default();
        let mut any = false;
        for c in pos.legal_moves() {
            if c.to() != target {
                continue;
            }
            any = true;
            let u = p.play_unchecked(c);
            kept.0 |= guards(&p, target, mover.other()).0;
            p.undo(c, u);
        }
        if any {
            roots.0 &= kept.0;
        }
    }
    let rooted = roots.any();
    // An unprotected piece other than a rook is chased singly (捉无根子),
    // however many pieces take part; a rook without roots is chased jointly
    // when it falls only to several pieces acting together (参考图14:
    // 车炮联合捉车, the rook's check and the cannon's captures; 参考图38:
    // the cannon over the rook that attacks the red rook too).
    if !rooted && victim.role != Role::Rook {
        return single;
    }
    // Pieces that can take part: on a line with the target or a root, or
    // within a horse's or elephant's reach of one.
    let mut spots: Vec<Square> = roots.collect();
    spots.push(target);
    let near = |sq: Square| {
        spots.iter().any(|&s| {
            let df = (i32::from(sq.file()) - i32::from(s.file())).abs();
            let dr = (i32::from(sq.rank()) - i32::from(s.rank())).abs();
            df == 0 || dr == 0 || (df <= 2 && dr <= 2)
        })
    };
    // Pieces a move away from such a square are tried too (a rook that
    // checks first and then takes) — where the target is the opponent's
    // piece standing there; where the mover's own piece stands on the
    // square (the piece won comes there in the line), only the near ones.
    let reach = victim.color != mover;
    let mut needed = 0;
    // Without roots: whether one of the needed pieces acts where it stands.
    let mut standing = false;
    for (sq, piece) in pos.pieces_iter() {
        if piece.color != mover
            || piece.role == Role::King
            || !(near(sq) || (reach && Iterator::any(&mut pos.pseudo_targets(sq, piece), near)))
        {
            continue;
        }
        // A rook without roots: the piece just moved, where it keeps the
        // rook from taking a screen of the line, acts with the others,
        // though the win stands without it (参考图39, 车马炮联合捉车: the red
        // rook steps to guard the horse the cannon takes over; see
        // [`guards_line`]). A guard that was there all along does not join
        // the chase the move makes (参考图47: 炮5平7 steps in as the screen
        // of the cannon g1 on the red rook, the elephant e7 guarding it —
        // "一捉车", single).
        if !rooted && moved == Some(sq) && piece.role != Role::Pawn && guards_line(pos, sq, target, reading) {
            standing = true;
            needed += 1;
            if needed >= 2 {
                return ChaseKind::Joint;
            }
            continue;
        }
        let still = match crate::classify::lifted(pos, sq) {
            Some(without) if without.is_check() => continue,
            Some(without) => wins(&without, reading, true, None)
                .iter()
                .any(|w| w.target == target),
            // The piece screens the opponent's king from one of the
            // mover's: lifted, the position is no position. It is one half
            // of a battery on the king — needed as the screen of the check
            // that the line may uncover; it still counts only where it acts
            // (参考图38: the rook that screens the cannon from the king and
            // attacks the red rook with it).
            None => false,
        };
        if still {
            continue;
        }
        let acts = if rooted {
            acts_on(pos, sq, target, &spots[..spots.len() - 1], mover, true)
        } else {
            // 27.2: a pawn's own attack is no chase; it backs another's.
            let stands = piece.role != Role::Pawn
                && (acts_on(pos, sq, target, &[], mover, false) || aims_at_king(pos, sq, mover));
            standing |= stands;
            stands
        };
        if acts || moves_in_line(pos, sq, target, reading) {
            needed += 1;
            if needed >= 2 && (rooted || standing) {
                return ChaseKind::Joint;
            }
        }
    }
    single
}

/// Whether the mover's piece on `sq` guards the line against the chased
/// piece on `target` (the mover to move in `pos`): the chased piece attacks
/// a piece of the mover's that the win needs but that does not move in it
/// — the screen a cannon takes over — and could take it at a profit,
/// breaking the attack, were the piece on `sq` not there to take back.
/// Such a piece acts on the chased piece with the others (28.16 联合捉):
/// 参考图39, the red
/// cannon takes the rook f8 over the horse g8, which the rook f8 attacks and
/// the red rook on the g-file guards — "车马炮联合捉车", the rook, the horse
/// and the cannon together. A piece that only stands by (参考图21: the rook
/// 车4退1 steps out of reach, the horse g2 the rook g3 attacks attacks
/// nothing) guards no line.
pub(crate) fn guards_line(pos: &Position, sq: Square, target: Square, reading: Reading) -> bool {
    let mover = pos.turn();
    if pos.piece_at(target).is_none_or(|p| p.color == mover) || pos.is_check() {
        return false;
    }
    let Some(without) = crate::classify::lifted(pos, sq) else {
        return false;
    };
    let mut them = pos.clone();
    them.play_null();
    let mut them_without = without.clone();
    them_without.play_null();
    // What the chased piece gains by taking on `x` (the mover then takes
    // back as best it can).
    let takes = |p: &mut Position, x: Square| -> Option<i32> {
        let m = Move::new(target, x);
        if !p.is_legal(m) {
            return None;
        }
        let v = value(p.piece_at(x)?, x);
        let u = p.play_unchecked(m);
        let r = v - see(p, x, SEE_DEPTH);
        p.undo(m, u);
        Some(r)
    };
    let attackers = guards(pos, target, mover);
    for x in pos.by_color(mover) {
        let Some(piece) = pos.piece_at(x) else {
            continue;
        };
        if x == sq || piece.role == Role::King || !guards(pos, x, mover.other()).contains(target) {
            continue;
        }
        let guarded = takes(&mut them, x).is_some_and(|g| g <= 0);
        let open = takes(&mut them_without, x).is_some_and(|g| g > 0);
        if !(guarded && open) {
            continue;
        }
        // Needed (lifted, the win is gone) but neither attacking the chased
        // piece nor moving in the line: a screen, not an attacker — an
        // attacker guarded against the piece it attacks is only a protected
        // attacker (shared 图25: the rook h5 faces the red rook, its horse
        // behind it, and screens a cannon besides: 长捉车).
        if attackers.contains(x) {
            continue;
        }
        // (A piece that shields its own king is needed for that alone.)
        let needed = crate::classify::lifted(pos, x).is_some_and(|p| {
            !p.is_check() && !wins(&p, reading, true, None).iter().any(|w| w.target == target)
        });
        if needed && !moves_in_line(pos, x, target, reading) {
            return true;
        }
    }
    false
}

/// Whether the mover's piece on `sq` takes part in winning `target`: it
/// moves in the winning lines, or acts on the target or one of its roots
/// (see [`acts_on`]).
pub(crate) fn takes_part(pos: &Position, sq: Square, target: Square, reading: Reading) -> bool {
    let mover = pos.turn();
    let Some(victim) = pos.piece_at(target) else {
        return false;
    };
    let mut roots = guards(pos, target, victim.color);
    roots.clear(pos.king(victim.color));
    let roots: Vec<Square> = roots.collect();
    acts_on(pos, sq, target, &roots, mover, true) || moves_in_line(pos, sq, target, reading)
}

/// Whether the mover's piece on `sq` acts on the chased piece or on one of
/// its roots (28.16: 联合捉 is several pieces acting on the chased piece
/// together): it captures in the exchange on the target or on a root (it
/// attacks the square, or would once the pieces in front of it on the line
/// had captured), it is the screen of a cannon that does, or it pins a root
/// to its king (lifting the root, the piece — or a cannon it screens —
/// attacks the king). A piece that only interposes on some other line —
/// keeping a defender from checking, say — does not act on them, however
/// needed: it leaves the chase single.
///
/// Without `screens`, being only the screen of a cannon that bears does not
/// count (see [`kind_of`] for a piece without roots).
fn acts_on(
    pos: &Position,
    sq: Square,
    target: Square,
    roots: &[Square],
    mover: Color,
    screens: bool,
) -> bool {
    let all = pos.occupied().0;
    let me = 1u128 << sq.index();
    let king = pos.king(mover.other());
    // The mover's pieces (kings aside) attacking `at` with the occupancy
    // `occ`, and whether `sq` is one of them or the screen of a cannon that is.
    let bears = |at: Square, occ: u128| -> (u128, bool) {
        let a = pos.attackers_with(at, mover, occ, transpose(occ)).0 & !(1u128 << pos.king(mover).index());
        if a & me != 0 {
            return (a, true);
        }
        if screens && occ & me != 0 {
            let without = pos.attackers_with(at, mover, occ & !me, transpose(occ & !me)).0;
            let lost = a & !without & pos.pieces(mover, Role::Cannon).0;
            if lost != 0 {
                return (a, true);
            }
        }
        (a, false)
    };
    let mut spots = roots.to_vec();
    spots.push(target);
    for &at in &spots {
        // The exchange on `at`: pieces of both sides come off as they
        // capture, opening the lines behind them (a rook behind a rook).
        let mut removed = 0u128;
        for _ in 0..8 {
            let occ = all & !removed;
            let (a, hit) = bears(at, occ);
            if hit {
                return true;
            }
            let theirs = guards(pos, at, mover.other()).0 & occ;
            let more = (a | theirs) & !removed & !(1u128 << at.index());
            if more == 0 {
                break;
            }
            removed |= more;
        }
    }
    // A pin of a root to its king.
    roots.iter().any(|&r| bears(king, all & !(1u128 << r.index())).1)
}

/// Whether the mover's piece on `sq` is a check waiting to happen: a rook
/// or horse that one piece (its blocker or leg) keeps from the opponent's
/// king, or a cannon on the king's line with no screen (one stepping in
/// checks) or with two pieces between (one leaving checks). Such a piece
/// acts in a win through checks (29.1 连续照将) though it never moves
/// (参考图14: the rook behind the cannon that takes with check).
fn aims_at_king(pos: &Position, sq: Square, mover: Color) -> bool {
    let Some(piece) = pos.piece_at(sq) else {
        return false;
    };
    let king = pos.king(mover.other());
    let all = pos.occupied().0;
    match piece.role {
        Role::Rook | Role::Cannon => {
            if sq.file() != king.file() && sq.rank() != king.rank() {
                return false;
            }
            let inside = xiangqi::between(sq, king).0 & all;
            let own = inside & pos.by_color(mover).0 != 0;
            match (piece.role, inside.count_ones()) {
                (Role::Rook, 1) => own,
                (Role::Cannon, 0) => true,
                (Role::Cannon, 2) => own,
                _ => false,
            }
        }
        Role::Horse => {
            let mut others = xiangqi::Bitboard(pos.by_color(mover).0 & !(1u128 << sq.index()));
            Iterator::any(&mut others, |b: Square| {
                let occ = all & !(1u128 << b.index());
                pos.attackers_with(king, mover, occ, transpose(occ)).0 & (1u128 << sq.index()) != 0
            })
        }
        _ => false,
    }
}

/// Whether the mover's piece on `sq` must move (capture, or check in a
/// run of checks) somewhere in the lines that win `target`: kept in place
/// (still blocking, screening, pinning), it no longer wins the piece.
pub(crate) fn moves_in_line(pos: &Position, sq: Square, target: Square, reading: Reading) -> bool {
    !wins_frozen(pos, reading, true, None, Some(sq), false)
        .iter()
        .any(|w| w.target == target)
}

/// Whether the move `from`→`to` (played; `pos` after it, the mover to
/// move) uncovered an attack on `target`: one of the mover's pieces bears on
/// it now, and did not with the `from` square still blocked (the line of a
/// rook, the screen count of a cannon, a horse's leg).
pub(crate) fn uncovers(pos: &Position, from: Square, to: Square, target: Square) -> bool {
    let mover = pos.turn();
    let occ = pos.occupied().0;
    let blocked = occ | 1u128 << from.index();
    let now = pos.attackers_with(target, mover, occ, transpose(occ)).0;
    let then = pos.attackers_with(target, mover, blocked, transpose(blocked)).0;
    now & !then & !(1u128 << to.index()) & !(1u128 << pos.king(mover).index()) != 0
}

/// The occupancy with files and ranks swapped, as `attackers_with` wants it.
fn transpose(occ: u128) -> u128 {
    let mut t = 0u128;
    for s in xiangqi::Bitboard(occ) {
        t |= 1u128 << (usize::from(s.file()) * 10 + usize::from(s.rank()));
    }
    t
}

/// The captures the opponent could make if it were its turn.
#[must_use]
pub fn opponent_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    if pos.is_check() {
        return list;
    }
    let mut p = pos.clone();
    p.play_null();
    for m in p.legal_moves() {
        if p.is_capture(m) {
            list.push(m);
        }
    }
    list
}

thread_local! {
    /// What [`lost_to_checks`] found, by position, within one move's
    /// classification.
    static SEEN: std::cell::RefCell<std::collections::HashMap<u64, u128>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Empties the memory of [`lost_to_checks`]: called as each move's
/// classification begins, so that one costs what it costs on its own.
pub(crate) fn forget_old_checks() {
    SEEN.with(|s| s.borrow_mut().clear());
}

/// The squares of the mover's (side to move in `pos`) pieces that the
/// opponent, were it its turn, wins through a run of checks as things stand
/// (29.1 连续照将), every answer counted.
fn lost_to_checks(pos: &Position) -> u128 {
    if pos.is_check() {
        return 0;
    }
    // The same positions come back within one move's classification (the
    // searches of the move, of `kind_of` and of the lifted positions ask
    // about the same few): the answer depends on the position alone, so it
    // is kept for the classification (see [`forget_old_checks`]).
    let key = pos.key();
    if let Some(v) = SEEN.with(|s| s.borrow().get(&key).copied()) {
        return v;
    }
    let v = lost_to_checks_searched(pos);
    SEEN.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() >= 4096 {
            s.clear();
        }
        s.insert(key, v);
    });
    v
}

/// [`lost_to_checks`], searched: only lines that start with a check.
fn lost_to_checks_searched(pos: &Position) -> u128 {
    let mut p = pos.clone();
    p.play_null();
    wins_frozen(&p, Reading::Strict, true, None, None, true)
        .iter()
        .filter(|w| w.by_checks)
        .fold(0, |acc, w| acc | 1u128 << w.prize.index())
}

/// The opponent's captures that win a piece of the mover's (side to move in
/// `pos`) outright as things stand, were it the opponent's turn, with the
/// piece's value.
pub(crate) fn hanging(pos: &Position) -> Vec<(Move, i32)> {
    opponent_winning_captures(pos)
        .iter()
        .filter_map(|&m| pos.piece_at(m.to()).map(|v| (m, Balance::of(v, m.to()).score())))
        .collect()
}

/// The opponent's captures that win material as things stand: pieces of
/// the mover that were lost anyway, whatever its capture.
fn opponent_winning_captures(pos: &Position) -> MoveList {
    if pos.is_check() {
        return MoveList::new();
    }
    let mut p = pos.clone();
    p.play_null();
    winning_captures(&p)
}

/// The captures of the side to move that win material outright (by the
/// static exchange on the square).
fn winning_captures(pos: &Position) -> MoveList {
    let mut p = pos.clone();
    let mut out = MoveList::new();
    for c in pos.legal_moves() {
        let Some(victim) = p.piece_at(c.to()) else {
            continue;
        };
        let u = p.play_unchecked(c);
        let net = value(victim, c.to()) - see(&mut p, c.to(), SEE_DEPTH);
        p.undo(c, u);
        if net > 0 {
            out.push(c);
        }
    }
    out
}

struct Search<'a> {
    /// Opponent captures that were there anyway (only for [`Reading::After`]).
    base: &'a MoveList,
    /// Squares of the mover's pieces the opponent won anyway through a run
    /// of checks (only for [`Reading::After`]; see [`lost_to_checks`]).
    /// (`None` where they do not count: every capture is an answer.)
    old_by_checks: Option<&'a std::cell::OnceCell<u128>>,
    /// The position the line starts from, for [`lost_to_checks`].
    root: &'a Position,
    /// Every capture the opponent had before the line: the others are
    /// ones the line opened.
    standing: &'a MoveList,
    /// The opponent is to answer the mover's first capture of the line.
    after_first: bool,
    /// Squares the mover has captured on in the line so far (27.1: its
    /// king may not be the one that finally wins there).
    taken: u128,
    /// The mover's captures that won outright at the root.
    own: &'a MoveList,
    nodes: u32,
    trace: bool,
    ply: usize,
    /// A mover's piece that may not move (see [`kind_of`]); `None` once
    /// the opponent has taken it.
    frozen: Option<Square>,
}

fn trace_on() -> bool {
    std::env::var_os("REFEREE_TRACE").is_some()
}

/// The most valuable piece the mover takes on a line, with its value.
type Prize = Option<(Square, i32)>;

fn richer(a: Prize, b: Prize) -> Prize {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.1 > x.1 { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

impl Search<'_> {
    /// The mover's pieces the opponent already wins through checks (see
    /// [`lost_to_checks`]), found once per search and only when asked.
    fn lost_to_old_checks(&self) -> u128 {
        self.old_by_checks
            .map_or(0, |c| *c.get_or_init(|| lost_to_checks(self.root)))
    }

    /// The mover to move, `bal` won so far: the best score within
    /// (`alpha`, `beta`) and the richest prize of that line.
    #[allow(clippy::too_many_arguments)]
    fn mover(
        &mut self,
        pos: &mut Position,
        bal: Balance,
        last: Square,
        checks: u32,
        opp_checks: u32,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        moved: Option<Square>,
    ) -> (i32, Prize, bool) {
        self.nodes += 1;
        let in_check = pos.is_check();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return (-MATE, None, false);
        }
        let stand = bal.score();
        if depth == 0 || self.nodes > NODE_BUDGET {
            return (stand, None, false);
        }
        let mut best = (i32::MIN, None, false);
        if !in_check {
            best = (stand, None, false);
            if stand >= beta {
                return best;
            }
            alpha = alpha.max(stand);
        }
        for m in ordered(pos, &moves) {
            let victim = pos.piece_at(m.to());
            let check = victim.is_none()
                && !in_check
                && checks > 0
                && may_check(m, pos.king(pos.turn().other()))
                && pos.gives_check(m);
            if (!in_check && victim.is_none() && !check) || self.frozen == Some(m.from()) {
                continue;
            }
            if !in_check && victim.is_some() && m.to() != last && self.own.contains(&m) {
                continue;
            }
            // 27.1 / 27.2: what the king or a pawn takes by itself is
            // idle ("帅（将）本身步步叫吃", "兵（卒）本身捉吃"). Inside a line
            // that is its capture
            // - before the mover has taken anything: a check drove a root
            //   away and the pawn takes what it guarded (参考图7: 车二退三,
            //   闲);
            // - of the last piece on a square where the mover has captured:
            //   rook takes rook, the horse takes back, the king takes the
            //   horse;
            // - anywhere once the line has exchanged evenly (the mover has
            //   captured and is not ahead: 参考图32, the king; 参考图33, horse
            //   takes cannon, advisor takes horse, the pawn takes the other
            //   advisor — 闲).
            // Taking back what the opponent has just taken is part of the
            // exchange (参考图10: rook takes elephant, the black rook takes a
            // pawn, the pawn takes the rook — 车四平五 is 捉). The king still
            // counts by its line (a pinned root, 借帅之力) and as a root of
            // the defender. The capture is still played (it may be the only
            // answer to a check); it just counts nothing.
            let first = self.taken == 0 && bal == Balance::default();
            let retaken = self.taken & (1u128 << m.to().index()) != 0;
            let kings_share = victim.is_some()
                && pos.piece_at(m.from()).is_some_and(|p| match p.role {
                    Role::King | Role::Pawn => {
                        first || retaken || (self.taken != 0 && bal.score() <= 0 && m.to() != last)
                    }
                    _ => false,
                });
            let victim = victim.filter(|_| !kings_share);
            let prize = victim.map(|v| (m.to(), Balance::of(v, m.to()).score()));
            let gained = victim.map_or(bal, |v| bal.add(Balance::of(v, m.to())));
            let saved = self.taken;
            if victim.is_some() {
                self.taken |= 1u128 << m.to().index();
            }
            let u = pos.play_unchecked(m);
            self.after_first = victim.is_some() && saved == 0;
            let next_checks = if check { checks - 1 } else { checks };
            let this_used = moved == Some(m.from());
            let still = if this_used { Some(m.to()) } else { moved };
            self.ply += 1;
            let (v, child, used) = self.opponent_inner(
                pos,
                gained,
                m.to(),
                next_checks,
                opp_checks,
                depth - 1,
                alpha,
                beta,
                still,
            );
            self.ply -= 1;
            self.taken = saved;
            pos.undo(m, u);
            if self.trace {
                eprintln!("{:w$}M {m} -> {v}", "", w = 2 * self.ply);
            }
            if v > best.0 {
                best = (v, richer(prize, child), used || this_used);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        if best.0 == i32::MIN {
            best.0 = stand;
        }
        best
    }

    /// The opponent to move after the mover's root move.
    fn opponent(
        &mut self,
        pos: &mut Position,
        bal: Balance,
        last: Square,
        checks: u32,
        depth: u32,
        moved: Option<Square>,
    ) -> (i32, Prize, bool) {
        let found = self.opponent_inner(pos, bal, last, checks, OPPONENT_CHECKS, depth, 0, MATE + 1, moved);
        // 29.4: no gain counts after which the mover is mated by checks. (A
        // capture that checks is answered first; the search sees what
        // follows.) Asked only of a line that wins: the mate search is the
        // dearer one.
        if found.0 > 0
            && bal.score() > 0
            && !pos.is_check()
            && mates_by_checks(&mut pos.clone(), MATE_AFTER_GAIN)
        {
            return (-MATE, None, false);
        }
        found
    }

    #[allow(clippy::too_many_arguments)]
    fn opponent_inner(
        &mut self,
        pos: &mut Position,
        bal: Balance,
        last: Square,
        checks: u32,
        opp_checks: u32,
        depth: u32,
        alpha: i32,
        mut beta: i32,
        moved: Option<Square>,
    ) -> (i32, Prize, bool) {
        let after_first = std::mem::take(&mut self.after_first);
        self.nodes += 1;
        let in_check = pos.is_check();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return (MATE, None, false);
        }
        let stand = bal.score();
        if depth == 0 || self.nodes > NODE_BUDGET {
            return (stand, None, false);
        }
        let mut best = (i32::MAX, None, false);
        if !in_check {
            best = (stand, None, false);
            if stand <= alpha {
                return best;
            }
            beta = beta.min(stand);
        }
        for m in ordered(pos, &moves) {
            let victim = pos.piece_at(m.to());
            if !in_check {
                if victim.is_some() {
                    if m.to() != last
                        && (self.base.contains(&m)
                            || self.lost_to_old_checks() & (1u128 << m.to().index()) != 0)
                    {
                        continue;
                    }
                } else if opp_checks == 0
                    || !may_check(m, pos.king(pos.turn().other()))
                    || !pos.gives_check(m)
                {
                    continue;
                }
            }
            let check = victim.is_none() && !in_check;
            // 28.16: a root protects the piece on its square. A capture
            // elsewhere in answer to the line's first capture, one the
            // opponent did not have before the line (the capture or the
            // checks before it opened it), is no root: it undoes the chase
            // only where the line then costs the mover more than it gained
            // (参考图23: 被牵子捉子, "交换结果得不偿失"), not where it only
            // evens the trade. 参考图27: 炮六平七 aims at the rook c1, which
            // nothing guards; taking it opens the rooks' rank and black
            // takes the red rook — rook for rook, still 捉. 参考图30: 车三平四
            // "伏平兵将军抽吃马": the pawn's discovered check, the king steps
            // aside, the rook takes the horse, and the pawn left on e8 or g8
            // falls after — still 捉.
            let elsewhere = after_first && victim.is_some() && m.to() != last && !self.standing.contains(&m);
            let lost = victim.map_or(bal, |v| bal.sub(Balance::of(v, m.to())));
            let u = pos.play_unchecked(m);
            let next = if check { opp_checks - 1 } else { opp_checks };
            let still = moved.filter(|&s| s != m.to());
            let frozen = self.frozen;
            self.frozen = frozen.filter(|&s| s != m.to());
            self.ply += 1;
            let low = if elsewhere { alpha.min(-1) } else { alpha };
            let (v, child, used) = self.mover(pos, lost, m.to(), checks, next, depth - 1, low, beta, still);
            self.ply -= 1;
            self.frozen = frozen;
            pos.undo(m, u);
            if self.trace {
                eprintln!("{:w$}O {m} -> {v}", "", w = 2 * self.ply);
            }
            if elsewhere && v >= 0 {
                continue;
            }
            // Between equal answers, taking back is preferred to standing
            // still: the line then shows what backs the mover's capture.
            if v < best.0 || (v == best.0 && victim.is_some()) {
                best = (v, child, used);
            }
            if v < beta {
                beta = v;
            }
            if alpha >= beta {
                break;
            }
        }
        if best.0 == i32::MAX {
            best.0 = stand;
        }
        best
    }
}

/// Captures first, the most valuable victims first; then the rest, in the
/// order given. (Only the captures are sorted: most nodes look at nothing
/// else.)
fn ordered(pos: &Position, moves: &MoveList) -> MoveList {
    let mut out = MoveList::new();
    let mut rest = MoveList::new();
    for &m in moves {
        if pos.piece_at(m.to()).is_some() {
            out.push(m);
        } else {
            rest.push(m);
        }
    }
    out.sort_by_key(|m| {
        std::cmp::Reverse(
            pos.piece_at(m.to())
                .map_or(-1, |p| Balance::of(p, m.to()).score()),
        )
    });
    out.extend(rest);
    out
}
