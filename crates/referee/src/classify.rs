//! What one move does, in the terms of the repetition rules (棋例, 28.x):
//! check 将, mate threat 杀, chase 捉, or an idle move 闲 (with its kinds
//! 兑 exchange offer, 献 sacrifice, 拦 block, 跟 follow).
//!
//! [`classify`] looks at the position before the move and the move itself,
//! so it can be asked of any move of any game. The rule sets read a move
//! differently:
//! - CXA (the 中国象棋协会 book, articles 24–29): a chase is a piece the
//!   mover could now win and could not before — outright, through a complete
//!   exchange, or after a run of checks (see [`crate::exchange`]); a mate
//!   threat is a mate by checks the opponent can no longer escape by
//!   trading the threatening piece; an attack the chased piece can answer
//!   by trading itself is only an offer (兑); 27.1–27.3 exempt the king,
//!   the pawn and the key defensive move.
//! - WXF: what the move threatens is listed here, but whether it chased
//!   anything depends on the reply (see [`crate::wxf`]); the cycle's
//!   ruling reads it with the reply.
//! - AXF (Asian rules): chases as Fairy-Stockfish reads them (see
//!   [`crate::axf`]); mate threats are allowed there.
//! - Simple: only checks matter.
//!
//! Protection is judged by playing the capture and letting the opponent
//! answer with legal moves only, so hidden roots (暗根), false roots (假根:
//! the protector is pinned, or recapturing would expose its king) and
//! insufficient roots (少根: a rook "protected" against a horse) come out of
//! the searches rather than out of special cases.

use crate::exchange::{self, ChaseKind, Reading};
use crate::RuleSet;
use serde::{Deserialize, Serialize};
use xiangqi::{Bitboard, Color, Move, MoveList, Piece, Position, Role, Square};

/// The kinds of idle move (闲着) that the book names (25.2). All of them are
/// allowed moves; the kind is reported for the record only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IdleKind {
    /// 闲: nothing of the below.
    Plain,
    /// 兑: offers to exchange the moved piece for an equal one (28.5).
    Exchange,
    /// 献: puts the moved piece where it can be taken for nothing.
    Sacrifice,
    /// 拦: blocks an attack of the opponent on one of the own pieces.
    Block,
    /// 跟: follows (pins or watches) an opponent piece without a real
    /// threat — here the key defensive move of 27.3, whose incidental
    /// chase of an advisor or elephant counts as idle.
    Follow,
}

/// A move's class. Where a move does several things it is named by the
/// heaviest (27.4): check before mate threat before chase before idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveClass {
    /// 将 (28.1): the move attacks the opponent's king.
    Check,
    /// 杀 (28.2): the move threatens mate by a check or a run of checks.
    MateThreat,
    /// 捉 (28.3): the move threatens to win an unprotected piece.
    Chase,
    /// 闲 and its kinds (25.2).
    Idle(IdleKind),
}

impl MoveClass {
    /// Machine name, as the CLI prints it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            MoveClass::Check => "check",
            MoveClass::MateThreat => "mate_threat",
            MoveClass::Chase => "chase",
            MoveClass::Idle(IdleKind::Plain) => "idle",
            MoveClass::Idle(IdleKind::Exchange) => "exchange",
            MoveClass::Idle(IdleKind::Sacrifice) => "sacrifice",
            MoveClass::Idle(IdleKind::Block) => "block",
            MoveClass::Idle(IdleKind::Follow) => "follow",
        }
    }

    /// The rule book's mark: 将, 杀, 捉, 闲, 兑, 献, 拦.
    #[must_use]
    pub const fn chinese(self) -> char {
        match self {
            MoveClass::Check => '将',
            MoveClass::MateThreat => '杀',
            MoveClass::Chase => '捉',
            MoveClass::Idle(IdleKind::Plain) => '闲',
            MoveClass::Idle(IdleKind::Exchange) => '兑',
            MoveClass::Idle(IdleKind::Sacrifice) => '献',
            MoveClass::Idle(IdleKind::Block) => '拦',
            MoveClass::Idle(IdleKind::Follow) => '跟',
        }
    }

    /// Whether the move is an attack (打, 28.4): check, mate threat or chase.
    #[must_use]
    pub const fn is_attack(self) -> bool {
        !matches!(self, MoveClass::Idle(_))
    }
}

/// One move of a cycle with its class and, for a chase, the chased pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    pub mv: Move,
    pub side: Color,
    pub class: MoveClass,
    /// The chased pieces (where they stand after the move); the king's
    /// square for a check; empty otherwise.
    pub targets: Vec<Square>,
    /// The pieces the move chases, even where a heavier effect names it:
    /// the AXF and WXF rules count a check that also chases one piece
    /// toward a perpetual chase of it. Equal to `targets` for a chase.
    pub chased: Vec<Square>,
    /// For a CXA chase: the heaviest way a target is won (rook, unprotected
    /// piece, or joint chase of a protected one).
    pub kind: Option<ChaseKind>,
}

/// How deep the searches behind the classification go. The book's
/// examples need at most three checks for a mate threat and two for a chase
/// through checks; deeper runs are rare and cost much more.
const MATE_CHECKS: u32 = 4;
const CHASE_CHECKS: u32 = 2;
pub(crate) const SEE_DEPTH: u32 = 6;
const NONE: u8 = u8::MAX;

/// Material value (子力价值, 25.3) in half-horses: rook = two horses = two
/// cannons; horse = cannon; advisor = elephant; a crossed pawn counts as a
/// weak piece; the king and an uncrossed pawn are not material.
#[must_use]
pub fn value(piece: Piece, sq: Square) -> i32 {
    match piece.role {
        Role::Rook => 4,
        Role::Horse | Role::Cannon => 2,
        Role::Advisor | Role::Elephant => 1,
        Role::Pawn if !sq.on_own_half(piece.color) => 1,
        Role::Pawn | Role::King => 0,
    }
}

/// Classifies `mv` (legal in `before`) under `rules`.
#[must_use]
pub fn classify(before: &Position, mv: Move, rules: RuleSet) -> MoveReport {
    let side = before.turn();
    let mover = before.piece_at(mv.from()).expect("a legal move has a piece");
    let mut after = before.clone();
    after.play_unchecked(mv);
    let report = |class, targets: Vec<Square>, chased: Vec<Square>, kind| MoveReport {
        mv,
        side,
        class,
        targets,
        chased,
        kind,
    };
    if after.is_check() {
        let chased = match rules {
            RuleSet::Asian => crate::axf::chased(before, mv, &after),
            RuleSet::Wxf => chase_targets(before, &after, rules),
            _ => Vec::new(),
        };
        return report(MoveClass::Check, vec![after.king(side.other())], chased, None);
    }
    if rules == RuleSet::Simple {
        return report(MoveClass::Idle(IdleKind::Plain), Vec::new(), Vec::new(), None);
    }
    if rules == RuleSet::Cxa {
        let (class, targets, kind) = classify_cxa(before, &after, mv);
        return report(class, targets.clone(), targets, kind);
    }
    if rules == RuleSet::Asian {
        // Mate threats are allowed under the AXF rules; only chases matter.
        let targets = crate::axf::chased(before, mv, &after);
        if !targets.is_empty() {
            return report(MoveClass::Chase, targets.clone(), targets, None);
        }
        return report(
            MoveClass::Idle(idle_kind(before, &after, mv)),
            Vec::new(),
            Vec::new(),
            None,
        );
    }
    // The king stepping out of check does whatever it does by necessity:
    // what it uncovers counts as idle (book diagram 17's note on 27.1).
    let king_answering_check = mover.role == Role::King && before.is_check();
    if !king_answering_check {
        let mut threat_after = after.clone();
        threat_after.play_null();
        if mates_by_checks(&mut threat_after, MATE_CHECKS) {
            let mut b = before.clone();
            if !mates_by_checks(&mut b, MATE_CHECKS) {
                return report(MoveClass::MateThreat, Vec::new(), Vec::new(), None);
            }
        }
        let targets = chase_targets(before, &after, rules);
        if !targets.is_empty() {
            return report(MoveClass::Chase, targets.clone(), targets, None);
        }
    }
    report(
        MoveClass::Idle(idle_kind(before, &after, mv)),
        Vec::new(),
        Vec::new(),
        None,
    )
}

/// The CXA book's reading of a move that does not check (28.2–28.5, 27.x,
/// 29.x): its class, the chased pieces and how they are won.
fn classify_cxa(
    before: &Position,
    after: &Position,
    mv: Move,
) -> (MoveClass, Vec<Square>, Option<ChaseKind>) {
    let mover = after.piece_at(mv.to()).expect("moved piece");
    exchange::forget_old_checks();
    let idle = |kind| (MoveClass::Idle(kind), Vec::new(), None);
    // 27.1 (and the note of 图17): the king answering a check does so by
    // necessity; whatever it uncovers is idle. So does a king stepping out
    // of a threatened mate (参考图30: 将5平6 parries 杀 and is 闲, though it
    // frees an elephant to take).
    if mover.role == Role::King && (before.is_check() || mate_threatened(before)) {
        return idle(idle_kind(before, after, mv));
    }
    let mut threat = after.clone();
    threat.play_null();
    // An attack the opponent can meet by exchanging the attacked piece for
    // an equal one is only an offer to exchange (兑, 28.5: 图2, 图9, 图21,
    // 图29, 图30).
    let mut offered = false;
    // 28.2 杀: the move threatens mate by a check or a run of checks, where
    // none was threatened before.
    let mating = mating_moves(&mut threat, MATE_CHECKS);
    if !mating.is_empty() && !mates_by_checks(&mut before.clone(), MATE_CHECKS) {
        // The moved piece can be exchanged for an equal one, after which
        // no mate is left: the book calls that an offer (图29: 车一平二,
        // 兑); where taking the piece loses to a mate, the threat stands
        // (图29 variation: 车五平二, 杀).
        if exchange_offered(after, mv.to()) {
            offered = true;
        } else {
            return (MoveClass::MateThreat, Vec::new(), None);
        }
    }
    // 28.3 / 29.x 捉: a piece the mover can now win and could not before.
    let won = exchange::wins(&threat, Reading::After, true, Some(mv.to()));
    if !won.is_empty() {
        // New: not to be had before (each kind of win — by capture and
        // exchange, or through checks — on its own: 图30, where a run of
        // checks could already have won the horse the rook now joins in
        // attacking). Before the move, pieces that were lost anyway are left
        // out of the answers (the horse escaping on 图9 does not make the
        // old attack on the cannon new), but not the moved piece when the
        // win needs it (图27: the cannon steps out of the horse's reach and
        // joins the rook against the horse; 图11: the cannon steps out of
        // the rook's reach and still pins the elephant that guards).
        let before_won = exchange::wins(before, Reading::Before, true, None);
        // A line that wins its richest piece in full (the gain covers it)
        // was not had before where the same line only traded that piece
        // (参考图14: 车9平8 — the cannon takes the advisor with the rook's
        // discovered check, then the red rook; before the move the same
        // capture won the advisor, but the red horse took the black rook
        // for the red rook: 车炮联合捉车 is new).
        let worth = |sq: Square| {
            threat
                .piece_at(sq)
                .map_or(0, |p| exchange::Balance::of(p, sq).score())
        };
        let had = |list: &[exchange::Win], w: &exchange::Win| {
            list.iter()
                .any(|b| b.target == w.target && b.by_checks == w.by_checks)
        };
        let had_before = |w: &exchange::Win| {
            let prize = worth(w.prize);
            before_won.iter().any(|b| {
                b.target == w.target && b.by_checks == w.by_checks && (w.gain < prize || b.gain >= prize)
            })
        };
        // The moved piece takes part in a win when, lifted off the board,
        // the win is gone: it captures in the line, or pins the root (图11),
        // or backs the capturer (图27).
        // A win that was not there before only because the opponent's
        // answers were counted before and not after is no new chase when
        // the move took away none of those answers and plays no part in
        // the win: it changed nothing (an advisor step while the horse's
        // capture of a pawn was already on, answered before as after by a
        // pawn taking an elephant elsewhere — 29.2).
        let opp_before = exchange::opponent_captures(before);
        let opp_after = exchange::opponent_captures(&threat);
        let answers_kept = opp_before.iter().all(|m| opp_after.contains(m));
        let same_reading = if answers_kept && won.iter().any(|w| !had_before(w)) {
            exchange::wins(before, Reading::After, true, None)
        } else {
            Vec::new()
        };
        let (strict, without) = if won.iter().any(|w| had_before(w) || had(&same_reading, w)) {
            let without = lifted(&threat, mv.to()).map(|p| exchange::wins(&p, Reading::After, true, None));
            (exchange::wins(before, Reading::Strict, true, None), without)
        } else {
            (Vec::new(), None)
        };
        let takes_part = |w: &exchange::Win| without.as_ref().is_none_or(|list| !had(list, w));
        let stale = |w: &exchange::Win| had(&same_reading, w) && !takes_part(w);
        // A win that was there before only as a trade — counted in full,
        // the opponent's answers took back as much (Strict) — is new when
        // the moved piece now acts on the chased piece, even where another
        // piece could win it without it: it attacks the piece itself (参考图45:
        // 炮一平三 leaves the rook's reach and aims at the elephant the horse
        // already attacked, "捉无根象"), or ties it to its square — the
        // piece cannot leave without its king being taken or mated
        // (参考图49/图50: 马八进七 and 马七退八 leave the rook's and the
        // horse's reach and each time "使黑方四路炮不能离线", a chase of the
        // cannon the red cannon attacks). A piece that only steps out of
        // reach and plays no part leaves the old attack as it was (参考图21:
        // 车4退1 escapes the horse; the rook's old attack on the horse g2 is
        // 闲).
        let acts = |w: &exchange::Win| {
            takes_part(w)
                || exchange::takes_part(&threat, mv.to(), w.target, Reading::After)
                || ties(&threat, mv.to(), w.target)
                || exchange::guards_line(&threat, mv.to(), w.target, Reading::After)
        };
        let mut fresh: Vec<exchange::Win> = won
            .into_iter()
            .filter(|w| (!had_before(w) && !stale(w)) || (!had(&strict, w) && acts(w)))
            .collect();
        // 29.2: the chase must come from the move just made. A move that
        // answers a check does not make what the check's answer leaves
        // open its own: the chase counts only where the moved piece takes
        // part (参考图22: 车五平四 checks and leaves the red cannon without
        // its root; 炮2平6 blocks the check, and the rook that then attacks
        // the cannon attacked it before — 自己造成的被捉状态, 闲).
        // The move makes the chase too where it uncovers the attack: the
        // piece leaves the line of the piece that now takes (参考图47:
        // 炮三平五 blocks the check and opens the rook's file to the cannon
        // g1 — "长捉无根子").
        if before.is_check() {
            fresh.retain(|w| {
                exchange::takes_part(&threat, mv.to(), w.target, Reading::After)
                    || exchange::uncovers(&threat, mv.from(), mv.to(), w.target)
            });
        }
        // 得不偿失: a win is no chase while a piece of the mover's worth more
        // than the win hangs — the opponent, were it its turn, wins it
        // outright as things stand — and stays hanging through the winning
        // line (the piece does not move in it). The mover has one move: it
        // may take, and then loses more (参考图28: 车四平二 would win the
        // advisor by a check, "得不偿失，判闲", the horse c8 hanging to the
        // rook; 参考图26: the black rook on the unguarded elephant while
        // the cannon i7 hangs to the red rook, 闲). A piece that moves in the
        // line takes itself out of danger (a rook the horse attacks that
        // takes an unguarded cannon loses nothing), as does one whose
        // attacker is the piece won, and a hanging piece worth no
        // more than the win leaves the chase standing (参考图12: the pawn e7
        // hangs, the advisor won is a chase).
        let hanging = if fresh.is_empty() {
            Vec::new()
        } else {
            exchange::hanging(&threat)
        };
        if !hanging.is_empty() {
            fresh.retain(|w| {
                !hanging.iter().any(|&(m, v)| {
                    v > w.gain
                        && m.from() != w.target
                        && m.from() != w.prize
                        && !exchange::moves_in_line(&threat, m.to(), w.target, Reading::After)
                })
            });
        }
        fresh.retain(|w| {
            let offer = exchanges_itself(after, w.target);
            offered |= offer;
            !offer
        });
        if !fresh.is_empty() {
            // 27.3: occupying a key defensive point (the move parries a
            // mate the opponent threatened) with an incidental chase of an
            // advisor or elephant is idle.
            let weak_only = fresh.iter().all(|w| {
                after
                    .piece_at(w.target)
                    .is_some_and(|p| matches!(p.role, Role::Advisor | Role::Elephant))
            });
            if weak_only && parries_mate(before, after) {
                return idle(IdleKind::Follow);
            }
            // The move is named by its richest prize (参考图38: 车7平8
            // chases the red rook jointly, 联合捉车, and a horse singly
            // beside it); between prizes of one value, the heavier kind.
            // A prize the mover already won through a run of checks before
            // the move is the prize of its old chase, not of this one: the
            // line that ends there chases the piece it starts with (参考图34:
            // 炮9退2 attacks the elephant e2 its elephant g0 guards; the line
            // ends 车4进3 check and the rook takes the cannon c1, a win black
            // had before the move — "一联合捉子", the cannon and the rook on
            // the elephant).
            let named = |w: &exchange::Win| {
                if w.prize != w.target && before_won.iter().any(|b| b.by_checks && b.prize == w.prize) {
                    w.target
                } else {
                    w.prize
                }
            };
            let kind = fresh
                .iter()
                .map(|w| {
                    let prize = named(w);
                    let kind =
                        exchange::kind_of(&threat, prize, before.turn(), Reading::After, Some(mv.to()));
                    (worth(prize), kind)
                })
                .max()
                .map(|(_, kind)| kind);
            let mut targets: Vec<Square> = fresh.iter().map(|w| w.target).collect();
            targets.sort();
            return (MoveClass::Chase, targets, kind);
        }
    }
    if offered {
        return idle(IdleKind::Exchange);
    }
    idle(idle_kind(before, after, mv))
}

/// The position with the piece on `sq` taken off the board, if that is
/// still a position (it is not where the piece shielded the king of the
/// side not to move).
pub(crate) fn lifted(pos: &Position, sq: Square) -> Option<Position> {
    let mut setup = xiangqi::Setup {
        board: [None; 90],
        turn: pos.turn(),
        halfmove_clock: 0,
        fullmoves: 1,
    };
    for (s, p) in pos.pieces_iter() {
        if s != sq {
            setup.board[s.index()] = Some(p);
        }
    }
    Position::from_setup(&setup).ok()
}

/// Whether the mover's piece on `sq` ties the opponent's piece on
/// `target` to its square (the mover to move in `pos`): lifting the target,
/// the mover would take the king (a pin) or mate it by checks, and lifting
/// the piece on `sq` as well, it would not (参考图49/图50: the horse on c8
/// pins the cannon d8 through the horse's leg; from b6, the cannon's
/// leaving lets the horse mate on d7 — "四路炮不能离线").
fn ties(pos: &Position, sq: Square, target: Square) -> bool {
    let tied = |p: &Position| match lifted(p, target) {
        None => true,
        Some(mut q) => mates_by_checks(&mut q, MATE_CHECKS),
    };
    tied(pos) && lifted(pos, sq).is_some_and(|p| !tied(&p))
}

/// Whether the opponent threatened mate before the move (had it been its
/// turn) and no longer does.
fn parries_mate(before: &Position, after: &Position) -> bool {
    mate_threatened(before) && !mates_by_checks(&mut after.clone(), MATE_CHECKS)
}

/// Whether the opponent (to move in `after`) can take the piece on `sq`
/// with a piece of the same value without losing on the exchange and
/// without then being mated by checks.
fn exchange_offered(after: &Position, sq: Square) -> bool {
    let Some(piece) = after.piece_at(sq) else {
        return false;
    };
    let worth = value(piece, sq);
    let mut p = after.clone();
    for m in p.legal_moves() {
        if m.to() != sq {
            continue;
        }
        let Some(taker) = p.piece_at(m.from()) else {
            continue;
        };
        if taker.role == Role::King || value(taker, m.from()) != worth {
            continue;
        }
        let u = p.play_unchecked(m);
        let ok = exchange::Balance::of(piece, sq).score() >= exchange::best_gain(&p)
            && !mates_by_checks(&mut p.clone(), MATE_CHECKS);
        p.undo(m, u);
        if ok {
            return true;
        }
    }
    false
}

/// Whether an attack on the opponent piece on `target` (opponent to move
/// in `after`) is only an offer to exchange (兑, 28.5): the piece can trade
/// itself for one of at least its value without losing on the exchange and
/// without being mated for it. A protected piece that can do so is offered
/// an exchange (图21, 图30; 图13: the central cannon, rooted by the
/// elephant, faces the red cannon over the rook). An unprotected piece is
/// only offered one by a single attacker it can take (图2, 图9: rook facing
/// rook); several attackers chase it though it could trade with one of
/// them (图11, 图25: a rook with a cannon behind it).
fn exchanges_itself(after: &Position, target: Square) -> bool {
    let Some(piece) = after.piece_at(target) else {
        return false;
    };
    if piece.color != after.turn() || piece.role == Role::King {
        return false;
    }
    let mut threat = after.clone();
    threat.play_null();
    let attackers: Vec<Square> = threat
        .legal_moves()
        .iter()
        .filter(|m| m.to() == target)
        .map(|m| m.from())
        .collect();
    let protected = guards(after, target, piece.color).any();
    if !protected && attackers.len() != 1 {
        return false;
    }
    let worth = value(piece, target);
    let mut p = after.clone();
    for m in p.legal_moves() {
        if m.from() != target || (!protected && m.to() != attackers[0]) {
            continue;
        }
        let Some(victim) = p.piece_at(m.to()) else {
            continue;
        };
        if value(victim, m.to()) < worth {
            continue;
        }
        let u = p.play_unchecked(m);
        // The exchange must not cost it more than it took (图17: taking the
        // rook would lose both rooks), nor a mate.
        let ok = exchange::Balance::of(victim, m.to()).score() >= exchange::best_gain(&p)
            && !mates_by_checks(&mut p.clone(), MATE_CHECKS);
        p.undo(m, u);
        if ok {
            return true;
        }
    }
    false
}

/// The opponent pieces that the move just made (leading to `after`) newly
/// threatens to win (28.3). A piece won outright must not have been
/// winnable outright before the move; one won only through checks must not
/// have been winnable in any way before.
fn chase_targets(before: &Position, after: &Position, rules: RuleSet) -> Vec<Square> {
    let mut q = after.clone();
    q.play_null();
    let (direct_after, any_after) = winnable(&mut q, rules);
    if any_after == 0 {
        return Vec::new();
    }
    let mut b = before.clone();
    let (direct_before, any_before) = winnable(&mut b, rules);
    let mut fresh = (direct_after & !direct_before) | (any_after & !direct_after & !any_before);
    if matches!(rules, RuleSet::Asian | RuleSet::Wxf) {
        fresh &= !mutual_same_kind(after, fresh);
    }
    Bitboard(fresh).collect()
}

/// Targets that the mover attacks only with pieces of their own kind that
/// attack them back (rook facing rook): the opponent may take first, so the
/// AXF and WXF rules do not call that a chase. Another attacker, or a
/// target that cannot legally take back (it is pinned), keeps the chase.
fn mutual_same_kind(after: &Position, targets: u128) -> u128 {
    let us = after.turn().other();
    let mut out = 0u128;
    for t in Bitboard(targets) {
        let Some(victim) = after.piece_at(t) else {
            continue;
        };
        let mut only_mutual = true;
        for a in guards(after, t, us) {
            let Some(att) = after.piece_at(a) else {
                continue;
            };
            let mutual = att.role == victim.role
                && guards(after, a, us.other()).contains(t)
                && after.is_legal(Move::new(t, a));
            if !mutual && att.role != Role::King && att.role != Role::Pawn {
                only_mutual = false;
            }
        }
        if only_mutual {
            out |= 1u128 << t.index();
        }
    }
    out
}

/// Squares of opponent pieces the side to move can win now (gain > 0):
/// outright, and in any way including runs of checks (28.3; the CXA book
/// counts wins through checks, the WXF and AXF rules only direct attacks).
fn winnable(pos: &mut Position, rules: RuleSet) -> (u128, u128) {
    let them = pos.turn().other();
    let mut ids = [NONE; 90];
    let mut squares = [Square::new(0, 0); 16];
    let mut n = 0;
    for sq in pos.by_color(them) {
        let p = pos.piece_at(sq).expect("occupied");
        if value(p, sq) > 0 && n < 16 {
            ids[sq.index()] = n as u8;
            squares[n] = sq;
            n += 1;
        }
    }
    let to_set = |best: &[i32; 16]| {
        let mut out = 0u128;
        for i in 0..n {
            if best[i] > 0 {
                out |= 1u128 << squares[i].index();
            }
        }
        out
    };
    let mut best = [i32::MIN; 16];
    wins(pos, &mut ids, 0, 0, true, rules, &mut best);
    let direct = to_set(&best);
    let checks = if rules == RuleSet::Cxa { CHASE_CHECKS } else { 0 };
    if checks == 0 {
        return (direct, direct);
    }
    let mut best = [i32::MIN; 16];
    wins(pos, &mut ids, 0, checks, true, rules, &mut best);
    (direct, direct | to_set(&best))
}

/// Fills `out[id]` with the best material balance the side to move reaches
/// by finally capturing the opponent piece `id`: directly, or (while
/// `checks` remain) after a check and any reply. `acc` is the balance so far.
fn wins(
    pos: &mut Position,
    ids: &mut [u8; 90],
    acc: i32,
    checks: u32,
    root: bool,
    rules: RuleSet,
    out: &mut [i32; 16],
) {
    let moves = pos.legal_moves();
    let base = opponent_captures(pos);
    for &m in &moves {
        let id = ids[m.to().index()];
        if id == NONE {
            continue;
        }
        let role = pos.piece_at(m.from()).expect("legal").role;
        // 27.1 / 27.2: the king or a pawn taking by itself is not a chase.
        if root && matches!(role, Role::King | Role::Pawn) {
            continue;
        }
        // WXF / AXF: a piece pinned to its own king (even by a horse whose
        // leg it blocks) does not chase, though it may take the pinner.
        if root && rules == RuleSet::Asian && pinned(pos, m.from()) {
            continue;
        }
        if let Some(g) = capture_gain(pos, m, &base) {
            let slot = &mut out[id as usize];
            *slot = (*slot).max(acc + g);
        }
    }
    if checks == 0 {
        return;
    }
    for &m in &moves {
        if ids[m.to().index()] != NONE {
            continue; // a capture of a target: counted above
        }
        let captured = pos.piece_at(m.to()).map_or(0, |p| value(p, m.to()));
        let u = pos.play_unchecked(m);
        if !pos.is_check() {
            pos.undo(m, u);
            continue;
        }
        let replies = pos.legal_moves();
        if replies.is_empty() {
            pos.undo(m, u);
            continue; // mate: that is a mate threat, not a chase
        }
        let mut worst = [i32::MAX; 16];
        for &r in &replies {
            let lost = pos.piece_at(r.to()).map_or(0, |p| value(p, r.to()));
            let moved = ids[r.from().index()];
            ids[r.to().index()] = moved;
            ids[r.from().index()] = NONE;
            let ur = pos.play_unchecked(r);
            let mut child = [i32::MIN; 16];
            wins(
                pos,
                ids,
                acc + captured - lost,
                checks - 1,
                false,
                rules,
                &mut child,
            );
            pos.undo(r, ur);
            ids[r.from().index()] = moved;
            ids[r.to().index()] = NONE;
            for (w, c) in worst.iter_mut().zip(child) {
                *w = (*w).min(c);
            }
        }
        pos.undo(m, u);
        for (o, w) in out.iter_mut().zip(worst) {
            if w != i32::MIN && w != i32::MAX {
                *o = (*o).max(w);
            }
        }
    }
}

/// The captures the opponent could make if it were its turn: threats that
/// exist whatever the side to move does, which a capture of ours neither
/// creates nor answers.
fn opponent_captures(pos: &Position) -> MoveList {
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

/// Material the side to move gains by the capture `m` once the opponent has
/// answered: the victim's value minus the opponent's best related capture —
/// a recapture on the square, or a capture the move made possible (the
/// capturer was a screen, a blocker, or pinned: 被牵子捉子, 图23). Threats
/// the opponent already had stay out of it, even against a piece the
/// capturer used to protect (图22). `None` when the opponent then mates at
/// once: such a piece cannot really be taken (28.3).
fn capture_gain(pos: &mut Position, m: Move, base: &MoveList) -> Option<i32> {
    let victim = pos.piece_at(m.to())?;
    let gained = value(victim, m.to());
    let u = pos.play_unchecked(m);
    if mates_at_once(pos) {
        pos.undo(m, u);
        return None;
    }
    let mut reply = 0;
    for c in pos.legal_moves() {
        if !pos.is_capture(c) || (c.to() != m.to() && base.contains(&c)) {
            continue;
        }
        let v = value(pos.piece_at(c.to()).expect("capture"), c.to());
        let uc = pos.play_unchecked(c);
        let r = v - see(pos, c.to(), SEE_DEPTH);
        pos.undo(c, uc);
        reply = reply.max(r);
    }
    pos.undo(m, u);
    Some(gained - reply)
}

/// Whether the side to move can mate at once (or stalemate, which loses
/// just the same in Xiangqi).
fn mates_at_once(pos: &mut Position) -> bool {
    for m in pos.legal_moves() {
        let u = pos.play_unchecked(m);
        let mate = !pos.has_legal_move();
        pos.undo(m, u);
        if mate {
            return true;
        }
    }
    false
}

/// Static exchange on one square with legal moves only: the most the side
/// to move gains by capturing there and trading on, or 0 by not starting.
pub(crate) fn see(pos: &mut Position, sq: Square, depth: u32) -> i32 {
    if depth == 0 {
        return 0;
    }
    let Some(victim) = pos.piece_at(sq) else {
        return 0;
    };
    let v = value(victim, sq);
    let mut best = 0;
    for from in guards(pos, sq, pos.turn()) {
        let m = Move::new(from, sq);
        if !pos.is_legal(m) {
            continue;
        }
        let u = pos.play_unchecked(m);
        let r = v - see(pos, sq, depth - 1);
        pos.undo(m, u);
        best = best.max(r);
    }
    best
}

/// Pieces of `by` that attack or defend `sq` (whoever stands there),
/// ignoring whether the capture would be legal.
#[must_use]
pub fn guards(pos: &Position, sq: Square, by: Color) -> Bitboard {
    let mut g = pos.attackers(sq, by);
    // Kings are counted along whole files by `attackers` (flying general);
    // as a guard of a square other than the enemy king's only an adjacent
    // step inside the palace counts.
    let k = pos.king(by);
    if g.contains(k) && !adjacent(k, sq) {
        let enemy_king = pos.king(by.other()) == sq;
        if !enemy_king {
            g.clear(k);
        }
    }
    if adjacent(k, sq) && sq.in_palace(by) {
        g.set(k);
    }
    for role in [Role::Advisor, Role::Elephant] {
        for from in pos.pieces(by, role) {
            let (df, dr) = (
                i32::from(sq.file()) - i32::from(from.file()),
                i32::from(sq.rank()) - i32::from(from.rank()),
            );
            let ok = match role {
                Role::Advisor => df.abs() == 1 && dr.abs() == 1 && sq.in_palace(by),
                _ => {
                    df.abs() == 2
                        && dr.abs() == 2
                        && sq.on_own_half(by)
                        && Square::try_new(i32::from(from.file()) + df / 2, i32::from(from.rank()) + dr / 2)
                            .is_some_and(|eye| pos.piece_at(eye).is_none())
                }
            };
            if ok {
                g.set(from);
            }
        }
    }
    g
}

/// Whether the piece on `sq` shields its own king: lifted off the board,
/// the king would stand attacked.
pub(crate) fn pinned(pos: &Position, sq: Square) -> bool {
    let Some(p) = pos.piece_at(sq) else {
        return false;
    };
    if p.role == Role::King {
        return false;
    }
    let mut occ = pos.occupied().0;
    let mut occ_t = 0u128;
    occ &= !(1u128 << sq.index());
    for s in Bitboard(occ) {
        occ_t |= 1u128 << (usize::from(s.file()) * 10 + usize::from(s.rank()));
    }
    pos.attackers_with(pos.king(p.color), p.color.other(), occ, occ_t)
        .any()
}

fn adjacent(a: Square, b: Square) -> bool {
    let df = (i32::from(a.file()) - i32::from(b.file())).abs();
    let dr = (i32::from(a.rank()) - i32::from(b.rank())).abs();
    df + dr == 1
}

/// A cheap test that passes every move that could check the king on
/// `king` (and some that do not): a check comes from the moved piece on the
/// king's file or rank (rook, cannon), a horse's step or a pawn's step from
/// the king, or from what its leaving uncovers: a line to the king, or a
/// horse's leg (a square diagonally next to the king).
#[must_use]
pub(crate) fn may_check(m: Move, king: Square) -> bool {
    let d = |s: Square| {
        (
            (i32::from(s.file()) - i32::from(king.file())).abs(),
            (i32::from(s.rank()) - i32::from(king.rank())).abs(),
        )
    };
    let aligned = |s: Square| s.file() == king.file() || s.rank() == king.rank();
    let (tf, tr) = d(m.to());
    let (ff, fr) = d(m.from());
    aligned(m.to())
        || aligned(m.from())
        || (tf, tr) == (1, 2)
        || (tf, tr) == (2, 1)
        || tf + tr == 1
        || (ff == 1 && fr == 1)
}

/// The first moves of the side to move that mate by a check or a run of
/// checks of at most `checks` moves, whatever the defender replies.
pub fn mating_moves(pos: &mut Position, checks: u32) -> MoveList {
    let mut out = MoveList::new();
    if checks == 0 {
        return out;
    }
    let king = pos.king(pos.turn().other());
    for m in pos.legal_moves() {
        if !may_check(m, king) {
            continue;
        }
        let u = pos.play_unchecked(m);
        let mated = pos.is_check() && {
            let replies = pos.legal_moves();
            replies.is_empty()
                || (checks > 1
                    && replies.iter().all(|&r| {
                        let ur = pos.play_unchecked(r);
                        let ok = mates_by_checks(pos, checks - 1);
                        pos.undo(r, ur);
                        ok
                    }))
        };
        pos.undo(m, u);
        if mated {
            out.push(m);
        }
    }
    out
}

/// Whether the side to move mates by a check, or a run of checks of at
/// most `checks` moves, whatever the defender replies (杀, 28.2). A quiet
/// move that leaves the defender without moves does not count: the book
/// names only mates by checks.
pub fn mates_by_checks(pos: &mut Position, checks: u32) -> bool {
    if checks == 0 {
        return false;
    }
    let king = pos.king(pos.turn().other());
    for m in pos.legal_moves() {
        if !may_check(m, king) {
            continue;
        }
        let u = pos.play_unchecked(m);
        let mut mated = false;
        if pos.is_check() {
            let replies = pos.legal_moves();
            mated = replies.is_empty()
                || (checks > 1
                    && replies.iter().all(|&r| {
                        let ur = pos.play_unchecked(r);
                        let ok = mates_by_checks(pos, checks - 1);
                        pos.undo(r, ur);
                        ok
                    }));
        }
        pos.undo(m, u);
        if mated {
            return true;
        }
    }
    false
}

/// Names an idle move: an exchange offer, a block, a sacrifice, or plain.
fn idle_kind(before: &Position, after: &Position, mv: Move) -> IdleKind {
    let us = before.turn();
    let to = mv.to();
    let mover = after.piece_at(to).expect("moved piece");
    // 兑: the moved piece and an enemy piece of equal value attack each other.
    for t in guards(after, to, us.other()) {
        let Some(p) = after.piece_at(t) else { continue };
        if p.role != Role::King && value(p, t) == value(mover, to) && guards(after, t, us).contains(to) {
            return IdleKind::Exchange;
        }
    }
    // 拦: an own piece the opponent could win before is safe now, and the
    // move stands in the line of the attack.
    let mut b = before.clone();
    b.play_null();
    let threatened_before = winnable(&mut b, RuleSet::Wxf).0;
    let mut a = after.clone();
    let threatened_after = winnable(&mut a, RuleSet::Wxf).0;
    if threatened_before & !threatened_after != 0 {
        return IdleKind::Block;
    }
    // 献: the moved piece can be taken at a profit.
    let mut a = after.clone();
    if see(&mut a, to, SEE_DEPTH) > 0 {
        return IdleKind::Sacrifice;
    }
    IdleKind::Plain
}

/// Whether the opponent of the side to move in `pos` threatens mate: were
/// the side to move to pass, a mate by checks would follow.
fn mate_threatened(pos: &Position) -> bool {
    let mut passed = pos.clone();
    passed.play_null();
    mates_by_checks(&mut passed, MATE_CHECKS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(fen: &str, mv: &str, rules: RuleSet) -> MoveReport {
        let pos = Position::from_fen(fen).unwrap();
        let m = mv.parse::<Move>().unwrap();
        assert!(pos.is_legal(m), "{mv} illegal in {fen}");
        classify(&pos, m, rules)
    }

    #[test]
    fn check_is_check() {
        // 28.1: a rook move onto the king's file.
        let r = class("3k5/9/9/9/9/9/9/9/9/R3K4 w", "a0a9", RuleSet::Cxa);
        assert_eq!(r.class, MoveClass::Check);
    }

    #[test]
    fn rook_chasing_unprotected_horse() {
        // 28.3: the rook steps onto the horse's rank; nothing protects it.
        let r = class("3k5/9/9/9/6n2/9/9/9/R8/4K4 w", "a1a5", RuleSet::Cxa);
        assert_eq!(r.class, MoveClass::Chase);
        assert_eq!(r.targets, vec![Square::from_iccs("g5").unwrap()]);
    }

    #[test]
    fn rook_attacking_protected_horse_is_idle() {
        // The horse on g5 is protected by the rook on g9: no chase.
        let r = class("3k2r2/9/9/9/6n2/9/9/9/R8/4K4 w", "a1a5", RuleSet::Cxa);
        assert!(matches!(r.class, MoveClass::Idle(_)), "{:?}", r.class);
    }

    #[test]
    fn horse_attacking_protected_rook_is_chase() {
        // 少根: a protected rook attacked by a horse still loses material.
        let r = class("3k2r2/9/9/9/6r2/9/9/3N5/9/4K4 w", "d2f3", RuleSet::Cxa);
        assert_eq!(r.class, MoveClass::Chase, "{r:?}");
        assert_eq!(r.targets, vec![Square::from_iccs("g5").unwrap()]);
    }

    #[test]
    fn pinned_protector_is_a_false_root() {
        // 假根: the black rook on e5 guards the horse on g5 but is pinned
        // on the e-file against its king, so the horse is chased. (The
        // advisor guards the rook e1: without it the rook would hang —
        // the king cannot take back on the open file — and the chase
        // would be 得不偿失.)
        let r = class("4k4/9/9/9/4r1n2/9/9/9/4R3R/3AK4 w", "i1i5", RuleSet::Cxa);
        assert_eq!(r.class, MoveClass::Chase, "{r:?}");
        assert_eq!(r.targets, vec![Square::from_iccs("g5").unwrap()]);
    }

    #[test]
    fn king_and_pawn_chasing_by_themselves_are_idle() {
        // 27.2: a crossed pawn steps next to an unprotected horse.
        let r = class("3k5/9/9/3n5/2P6/9/9/9/9/4K4 w", "c5c6", RuleSet::Cxa);
        assert!(matches!(r.class, MoveClass::Idle(_)), "{r:?}");
    }

    #[test]
    fn mate_threat() {
        // 28.2: the rook swings to the open a-file and threatens Ra9 mate
        // (the rook on i8 holds rank 8, the red king the d-file).
        let r = class("4k4/8R/9/9/1P7/9/9/9/9/1R1K5 w", "b0a0", RuleSet::Cxa);
        assert_eq!(r.class, MoveClass::MateThreat, "{r:?}");
    }

    /// Plays `line` from `fen` and classifies the move after it.
    fn after(fen: &str, line: &[&str], mv: &str, rules: RuleSet) -> MoveReport {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in line {
            pos.play(crate::parse_iccs(m).unwrap()).unwrap();
        }
        let m = crate::parse_iccs(mv).unwrap();
        assert!(pos.is_legal(m), "{mv} illegal after {line:?}");
        classify(&pos, m, rules)
    }

    #[test]
    fn chase_through_an_exchange_that_wins_a_pawn() {
        // 图4: the horse steps back and opens the cannon on the horse at c5:
        // cannon for horse, the elephant takes back, and the horse then
        // takes the pawn e4 its horse had guarded (29.1: 完整的交换过程).
        // The chased piece is the pawn won through the exchange ("以炮换马
        // 多得一卒"); the horse is only traded.
        let r = after(
            "4k4/4a4/4ba2b/5N3/2n5C/4p2p1/P4n3/4BA3/4A4/2B1K4 w",
            &["f6d5", "i7g5"],
            "d5f6",
            RuleSet::Cxa,
        );
        assert_eq!(r.class, MoveClass::Chase, "{r:?}");
        assert_eq!(r.targets, vec![Square::from_iccs("e4").unwrap()]);
    }

    #[test]
    fn mate_threat_by_a_longer_run_of_checks() {
        // 图7: the cannon threatens mate in a run of checks (the rook on
        // rank 8 and the horse finish it).
        let r = class(
            "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w",
            "i0h0",
            RuleSet::Cxa,
        );
        assert_eq!(r.class, MoveClass::MateThreat, "{r:?}");
    }

    #[test]
    fn rook_facing_rook_is_an_offer() {
        // 图9: the horse steps away and the rooks face each other on the
        // h-file; black's rook could take first: 兑, not 捉.
        let r = after(
            "r1b1kab2/4a4/2n6/p3p2Rp/2p1P4/6N2/P1P5P/2N1C4/3RA4/1cBAK1c1r w",
            &["g4h2", "i0h0"],
            "h2g4",
            RuleSet::Cxa,
        );
        assert_eq!(r.class, MoveClass::Idle(IdleKind::Exchange), "{r:?}");
    }

    #[test]
    fn several_attackers_chase_an_unprotected_piece() {
        // 图11: the rook steps next to the cannon, with the other cannon
        // behind it; the cannon could trade itself for that cannon, but two
        // pieces attack it: 捉.
        let r = after(
            "1Cbak4/1r2a4/c3b4/p8/2p1R4/6P1P/2P6/4B4/4A4/2BAK4 w",
            &["b9a9"],
            "b8a8",
            RuleSet::Cxa,
        );
        assert_eq!(r.class, MoveClass::Chase, "{r:?}");
        assert_eq!(r.kind, Some(ChaseKind::Unprotected));
    }

    #[test]
    fn key_defensive_point_with_a_chase_of_an_elephant_is_idle() {
        // 图18 (27.3): the rook returns to the centre, where it stops black's
        // mate, and attacks the elephant by the way: idle (跟).
        let r = after(
            "3k1a3/4a4/b3b4/9/9/4R4/4n4/3Ar4/3KA4/9 w",
            &["e4d4", "d9e9"],
            "d4e4",
            RuleSet::Cxa,
        );
        assert_eq!(r.class, MoveClass::Idle(IdleKind::Follow), "{r:?}");
    }

    #[test]
    fn a_pawn_given_for_a_horse_is_no_gain_but_for_a_rook_it_is() {
        // 图24 (25.3, the floating pawn): the rook could sacrifice the pawn
        // to win the horse — idle; from i5 it takes a pawn with check and
        // gives the other pawn to win the rook — a chase.
        let fen = "2P1kn3/4r4/9/9/p3p3R/9/4P4/4B4/9/2BAKA3 w";
        let r = class(fen, "i5i9", RuleSet::Cxa);
        assert!(matches!(r.class, MoveClass::Idle(_)), "{r:?}");
        let r = after(fen, &["i5i9", "e8f8"], "i9i5", RuleSet::Cxa);
        assert_eq!(r.class, MoveClass::Chase, "{r:?}");
    }

    #[test]
    fn mate_threat_that_offers_an_exchange_is_an_offer() {
        // 图29: 车一平二 threatens Rxh9 mate, but black can trade rooks: 兑.
        // 车五平二 (the other rook) threatens the same, and black taking it
        // is mated by the rook left on the i-file: 杀.
        let fen = "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w";
        assert_eq!(
            class(fen, "i3h3", RuleSet::Cxa).class,
            MoveClass::Idle(IdleKind::Exchange)
        );
        assert_eq!(class(fen, "e3h3", RuleSet::Cxa).class, MoveClass::MateThreat);
    }

    #[test]
    fn joint_chase_of_a_protected_piece() {
        // 图27: the cannon steps out of the horse's reach; rook and cannon
        // together win the protected horse on a0 (联合捉).
        let r = after(
            "c4k3/4a4/b4a3/1Np5p/6p2/9/6P2/4B4/r3A4/N2RKA3 w",
            &["b6c8"],
            "a9a8",
            RuleSet::Cxa,
        );
        assert_eq!(r.class, MoveClass::Chase, "{r:?}");
        assert_eq!(r.kind, Some(ChaseKind::Joint));
    }

    #[test]
    fn the_check_prefilter_misses_no_check() {
        // Random playouts: every checking move passes the cheap test.
        let mut state = 12345u64;
        for game in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..(40 + game) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let king = pos.king(pos.turn().other());
                for &m in &moves {
                    if pos.gives_check(m) {
                        assert!(may_check(m, king), "{m} checks in {}", pos.fen());
                    }
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.play_unchecked(moves[(state >> 33) as usize % moves.len()]);
            }
        }
    }
}
