//! Repetitions (循环重复) and their ruling (棋例, articles 24–26).
//!
//! A cycle is found on the Zobrist keys of the history: the position after
//! the last move has stood on the board before, with the same side to move,
//! and no capture came in between. Once it has stood there as often as the
//! rule set asks (three times by default), each side's moves over the cycle
//! are classified (see [`crate::classify`]) and summed up into a pattern —
//! perpetual check 长将, perpetual mate threat 长杀, perpetual chase 长捉,
//! their mixtures, or an allowed sequence — and the rule set turns the two
//! patterns into a result.

use crate::classify::{classify, MoveClass, MoveReport};
use crate::{Config, RuleSet};
use serde::{Deserialize, Serialize};
use xiangqi::{Color, Move, Position, Square};

/// What a side did over a cycle, summed up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// At least one idle move, or attacks that do not keep on one target:
    /// allowed (允许着法, 25.2: 闲着, 数将一闲, 数捉一闲 …).
    Allowed,
    /// 长将: every move checks.
    PerpetualCheck,
    /// 长杀: every move threatens mate.
    PerpetualMateThreat,
    /// 长捉: every move chases, one piece throughout.
    PerpetualChase,
    /// 一将一杀: checks and mate threats.
    CheckAndMateThreat,
    /// 一将一捉: checks and chases of one piece.
    CheckAndChase,
    /// 一杀一捉 (with or without checks): mate threats and chases.
    MateThreatAndChase,
}

impl Pattern {
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Pattern::Allowed => "allowed",
            Pattern::PerpetualCheck => "perpetual_check",
            Pattern::PerpetualMateThreat => "perpetual_mate_threat",
            Pattern::PerpetualChase => "perpetual_chase",
            Pattern::CheckAndMateThreat => "check_and_mate_threat",
            Pattern::CheckAndChase => "check_and_chase",
            Pattern::MateThreatAndChase => "mate_threat_and_chase",
        }
    }

    #[must_use]
    pub const fn chinese(self) -> &'static str {
        match self {
            Pattern::Allowed => "允许着法",
            Pattern::PerpetualCheck => "长将",
            Pattern::PerpetualMateThreat => "长杀",
            Pattern::PerpetualChase => "长捉",
            Pattern::CheckAndMateThreat => "一将一杀",
            Pattern::CheckAndChase => "一将一捉",
            Pattern::MateThreatAndChase => "一杀一捉",
        }
    }

    /// Whether the rule set forbids the pattern (禁止着法).
    #[must_use]
    pub fn forbidden(self, rules: RuleSet) -> bool {
        match rules {
            RuleSet::Cxa => self != Pattern::Allowed,
            // WXF and AXF forbid perpetual check and perpetual chase; mate
            // threats and mixtures with checks are allowed.
            RuleSet::Wxf | RuleSet::Asian => {
                matches!(self, Pattern::PerpetualCheck | Pattern::PerpetualChase)
            }
            RuleSet::Simple => self == Pattern::PerpetualCheck,
        }
    }
}

/// One side's part of a cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideRuling {
    pub side: Color,
    pub pattern: Pattern,
    pub forbidden: bool,
    /// The piece(s) chased on every chasing move, where they stand at the
    /// end of the cycle.
    pub chased: Vec<Square>,
    /// CXA: some chase of the cycle wins a protected piece by several
    /// attackers together (联合捉) rather than a rook or an unprotected
    /// piece; between two perpetual attackers the other side must change.
    pub joint: bool,
}

/// The result of a ruled cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Ongoing,
    RedWins,
    BlackWins,
    Draw,
    /// `side` plays a forbidden sequence and must vary (变着), or lose (26.4).
    MustChange {
        side: Color,
    },
}

impl Decision {
    /// The side that loses, for a win.
    #[must_use]
    pub fn loser(self) -> Option<Color> {
        match self {
            Decision::RedWins => Some(Color::Black),
            Decision::BlackWins => Some(Color::Red),
            _ => None,
        }
    }

    #[must_use]
    pub fn win_for(winner: Color) -> Decision {
        match winner {
            Color::Red => Decision::RedWins,
            Color::Black => Decision::BlackWins,
        }
    }

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Decision::Ongoing => "ongoing",
            Decision::RedWins => "red_wins",
            Decision::BlackWins => "black_wins",
            Decision::Draw => "draw",
            Decision::MustChange { .. } => "must_change",
        }
    }
}

/// A ruled cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleRuling {
    pub decision: Decision,
    /// Machine-readable reason, e.g. `perpetual_chase`.
    pub reason: String,
    pub detail: String,
    pub article: Option<String>,
    /// The moves of the last cycle, classified.
    pub moves: Vec<MoveReport>,
    /// Red's and black's part, in that order.
    pub sides: [SideRuling; 2],
    /// How often the current position has now occurred.
    pub occurrences: u32,
}

/// A game's positions and moves with the classifications worked out so far,
/// so that a long cycle is classified once, not on every move.
#[derive(Clone, Debug)]
pub struct History {
    positions: Vec<Position>,
    moves: Vec<Move>,
    captures: Vec<bool>,
    reports: Vec<Option<MoveReport>>,
    rules: RuleSet,
    /// The side told to change (变着) and when, until it varies.
    told: Option<Told>,
}

/// A ruling that a side must change its moves, in force until it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Told {
    side: Color,
    /// Moves played when the ruling was made.
    ply: usize,
}

impl History {
    #[must_use]
    pub fn new(start: Position, rules: RuleSet) -> History {
        History {
            positions: vec![start],
            moves: Vec::new(),
            captures: Vec::new(),
            reports: Vec::new(),
            rules,
            told: None,
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions.last().expect("never empty")
    }

    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before ply `i` (0-based).
    #[must_use]
    pub fn position_before(&self, i: usize) -> &Position {
        &self.positions[i]
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// The move is illegal; nothing changes.
    pub fn play(&mut self, m: Move) -> Result<(), xiangqi::IllegalMove> {
        let mut next = self.position().clone();
        let mover = next.turn();
        let undo = next.play(m)?;
        let capture = undo.captured().is_some();
        self.captures.push(capture);
        self.positions.push(next);
        self.moves.push(m);
        self.reports.push(None);
        // The side told to change has changed: a capture, or a move of its
        // to a position not seen before, ends the cycle.
        if self
            .told
            .is_some_and(|t| capture || (t.side == mover && self.occurrences().len() == 1))
        {
            self.told = None;
        }
        Ok(())
    }

    /// The side told to change its moves (变着) and not yet done so.
    #[must_use]
    pub fn told_to_change(&self) -> Option<Color> {
        self.told.map(|t| t.side)
    }

    /// The ply indices (into positions) where the current position stood,
    /// oldest first, the current one included; no capture lies between.
    #[must_use]
    pub fn occurrences(&self) -> Vec<usize> {
        let n = self.moves.len();
        let key = self.position().key();
        let mut out = vec![n];
        let mut i = n;
        while i >= 2 && !self.captures[i - 1] && !self.captures[i - 2] {
            i -= 2;
            if self.positions[i].key() == key {
                out.push(i);
            }
        }
        out.reverse();
        out
    }

    /// Classifies ply `i`, remembering the answer.
    pub fn report(&mut self, i: usize) -> &MoveReport {
        if self.reports[i].is_none() {
            self.reports[i] = Some(classify(&self.positions[i], self.moves[i], self.rules));
        }
        self.reports[i].as_ref().expect("just filled")
    }

    /// The AXF sides as Fairy-Stockfish sums them up: the side that moved
    /// last answers for its moves from the one that made the cycle's first
    /// position on (when the record has it), the other side for its moves
    /// within the cycle.
    fn axf_sides(&mut self, span_start: usize) -> [SideRuling; 2] {
        let n = self.moves.len();
        let last_mover = self.positions[n - 1].turn();
        [Color::Red, Color::Black].map(|c| {
            let from = if c == last_mover {
                span_start.saturating_sub(1)
            } else {
                span_start
            };
            for i in from..n {
                self.report(i);
            }
            let reports: Vec<MoveReport> = (from..n)
                .map(|i| self.reports[i].clone().expect("classified"))
                .collect();
            summarize(
                c,
                &self.positions[from],
                &self.moves[from..n],
                &reports,
                RuleSet::Asian,
            )
        })
    }

    /// Rules on the repetition the last move made, if the current position
    /// has now occurred `config.repetitions` times or more.
    pub fn rule(&mut self, config: &Config) -> Option<CycleRuling> {
        let occ = self.occurrences();
        let needed = config.repetitions.max(2) as usize;
        if occ.len() < needed {
            return None;
        }
        let span_start = occ[occ.len() - needed];
        let last_cycle = occ[occ.len() - 2];
        let n = self.moves.len();
        for i in span_start..n {
            self.report(i);
        }
        let mut reports: Vec<MoveReport> = (span_start..n)
            .map(|i| self.reports[i].clone().expect("classified"))
            .collect();
        if config.rules == RuleSet::Wxf {
            // WXF: a chase is judged with the reply (see [`crate::wxf`]).
            // The reply to the last move is the one its position had a
            // cycle ago.
            for (k, i) in (span_start..n).enumerate() {
                let reply = if i + 1 < n {
                    self.moves[i + 1]
                } else {
                    self.moves[last_cycle]
                };
                wxf_judge(&mut reports[k], &self.positions[i + 1], reply);
            }
        }
        let sides = if config.rules == RuleSet::Asian {
            self.axf_sides(span_start)
        } else {
            [Color::Red, Color::Black].map(|c| {
                summarize(
                    c,
                    &self.positions[span_start],
                    &self.moves[span_start..n],
                    &reports,
                    config.rules,
                )
            })
        };
        let (mut decision, reason, mut detail, article) = decide(&sides, config.rules);
        if let Decision::MustChange { side } = decision {
            // 26.4 (24.3 of the 2011 book): told to change, the side that
            // repeats the cycle once more loses.
            let repeated = self.told.is_some_and(|t| t.side == side && t.ply < n)
                && self.positions[n - 1].turn() == side;
            if repeated {
                decision = Decision::win_for(side.other());
                detail = format!(
                    "{} was told to change (变着) and repeated the cycle: it loses",
                    side.name()
                );
            } else if self.told.is_none_or(|t| t.side != side) {
                self.told = Some(Told { side, ply: n });
            }
        }
        Some(CycleRuling {
            decision,
            reason,
            detail,
            article,
            moves: reports[last_cycle - span_start..].to_vec(),
            sides,
            occurrences: occ.len() as u32,
        })
    }
}

/// Re-reads one move of a cycle under the WXF rules: a check stays a check
/// (and chases nothing); any other move chases the pieces its reply had to
/// save, or is idle.
fn wxf_judge(report: &mut MoveReport, after: &Position, reply: Move) {
    if report.class == MoveClass::Check {
        report.chased.clear();
        return;
    }
    let chased = crate::wxf::chased(after, report.mv.to(), reply);
    if chased.is_empty() {
        if report.class == MoveClass::Chase {
            report.class = MoveClass::Idle(crate::IdleKind::Plain);
        }
        report.targets.clear();
    } else {
        report.class = MoveClass::Chase;
        report.targets.clone_from(&chased);
    }
    report.chased = chased;
}

/// Sums up one side's moves over the cycle into a pattern. Chases must keep
/// to one piece: the pieces are followed through the cycle by identity, so
/// a chased horse that steps aside and is chased again is still the same.
fn summarize(
    side: Color,
    start: &Position,
    moves: &[Move],
    reports: &[MoveReport],
    rules: RuleSet,
) -> SideRuling {
    // ident[sq] = the square the piece now on sq stood on at the start.
    let mut ident: [u8; 90] = [u8::MAX; 90];
    for (sq, _) in start.pieces_iter() {
        ident[sq.index()] = sq.index() as u8;
    }
    let (mut checks, mut threats, mut chases, mut idle) = (0, 0, 0, 0);
    let mut joint = false;
    let mut chasing_moves = 0;
    let mut common: Option<Vec<u8>> = None;
    for (m, r) in moves.iter().zip(reports) {
        // Targets are named where they stand after the move.
        ident[m.to().index()] = ident[m.from().index()];
        ident[m.from().index()] = u8::MAX;
        if r.side != side {
            continue;
        }
        match r.class {
            MoveClass::Check => checks += 1,
            MoveClass::MateThreat => threats += 1,
            MoveClass::Chase => {
                chases += 1;
                joint |= r.kind == Some(crate::ChaseKind::Joint);
            }
            MoveClass::Idle(_) => idle += 1,
        }
        if !r.chased.is_empty() {
            chasing_moves += 1;
            let ids: Vec<u8> = r.chased.iter().map(|t| ident[t.index()]).collect();
            common = Some(match common {
                None => ids,
                Some(prev) => prev.into_iter().filter(|i| ids.contains(i)).collect(),
            });
        }
    }
    let chased_ids = common.unwrap_or_default();
    let chase_kept = !chased_ids.is_empty();
    let total = checks + threats + chases + idle;
    let pattern = if total == 0 {
        Pattern::Allowed
    } else if checks == total {
        Pattern::PerpetualCheck
    } else if rules != RuleSet::Cxa {
        // WXF / AXF: a perpetual chase is every move chasing one piece
        // (a check that also chases it counts); anything else is allowed.
        if chasing_moves == total && chase_kept {
            Pattern::PerpetualChase
        } else {
            Pattern::Allowed
        }
    } else if idle > 0 {
        // 25.2: an idle move among the attacks (数将一闲 …) is allowed.
        // Chases need not keep to one piece: 长捉 is "连续追捉一子或数子"
        // (28.x), chasing one piece or several (图4).
        Pattern::Allowed
    } else if chases > 0 && threats > 0 {
        Pattern::MateThreatAndChase
    } else if chases > 0 && checks > 0 {
        Pattern::CheckAndChase
    } else if chases > 0 {
        Pattern::PerpetualChase
    } else if checks > 0 {
        Pattern::CheckAndMateThreat
    } else {
        Pattern::PerpetualMateThreat
    };
    let chased = (0..90)
        .filter(|&sq| ident[sq] != u8::MAX && chased_ids.contains(&ident[sq]))
        .map(Square::from_index)
        .collect();
    SideRuling {
        side,
        pattern,
        forbidden: pattern.forbidden(rules),
        chased,
        joint: joint && pattern != Pattern::Allowed,
    }
}

/// Articles 24 and 26: turns the two sides' patterns into a result. A
/// forbidden side under the CXA rules is first told to change (变着); the
/// loss that follows if it does not is [`History`]'s to rule.
fn decide(sides: &[SideRuling; 2], rules: RuleSet) -> (Decision, String, String, Option<String>) {
    let [red, black] = sides;
    let cxa = rules == RuleSet::Cxa;
    let art = |a: &str| cxa.then(|| a.to_string());
    let pc = |s: &SideRuling| s.pattern == Pattern::PerpetualCheck;
    // 26.1: a one-sided perpetual check is never allowed, and loses at once.
    if pc(red) != pc(black) {
        let loser = if pc(red) { red } else { black };
        return (
            Decision::win_for(loser.side.other()),
            Pattern::PerpetualCheck.as_str().to_string(),
            format!("{} checks perpetually (长将) and loses", loser.side.name()),
            art("26.1"),
        );
    }
    let forbidden = |bad: &SideRuling, against: &str| {
        let name = bad.pattern.as_str().replace('_', " ");
        if cxa {
            (
                Decision::MustChange { side: bad.side },
                bad.pattern.as_str().to_string(),
                format!(
                    "{} plays a forbidden {name} ({}) against {against} and must change (变着), or loses",
                    bad.side.name(),
                    bad.pattern.chinese()
                ),
                art("26.4"),
            )
        } else {
            (
                Decision::win_for(bad.side.other()),
                bad.pattern.as_str().to_string(),
                format!(
                    "{} keeps to a forbidden {name} ({}) and loses",
                    bad.side.name(),
                    bad.pattern.chinese()
                ),
                None,
            )
        }
    };
    match (red.forbidden, black.forbidden) {
        (false, false) => (
            Decision::Draw,
            if rules == RuleSet::Simple {
                "threefold_repetition"
            } else {
                "repetition_both_allowed"
            }
            .to_string(),
            "both sides play allowed moves: drawn (双方不变作和)".to_string(),
            art("26.2"),
        ),
        // Both attack without pause, but one side only by joint chases of
        // protected pieces (联合捉): the side that chases a rook or an
        // unprotected piece (or checks and threatens mate) must change (图10,
        // 图11, 图25–图28: "凡单方长捉车，对方联合捉车，前者变着").
        (true, true) if cxa && red.joint != black.joint => {
            forbidden(if red.joint { black } else { red }, "joint chases (联合捉)")
        }
        (true, true) => (
            Decision::Draw,
            "repetition_both_forbidden".to_string(),
            format!(
                "Red plays {} and Black {}, both forbidden: drawn (双方不变作和)",
                red.pattern.chinese(),
                black.pattern.chinese()
            ),
            art("26.3"),
        ),
        (r, _) => forbidden(if r { red } else { black }, "allowed moves"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(fen: &str, moves: &[&str]) -> History {
        let mut h = History::new(Position::from_fen(fen).unwrap(), RuleSet::Cxa);
        for m in moves {
            h.play(crate::parse_iccs(m).unwrap()).unwrap();
        }
        h
    }

    /// 图22: the red rook chases the pawn, black's pawn steps to and fro.
    const CHASE: &str = "2b1kr3/1r2a4/4ba3/1N1R5/9/4p4/9/4B4/4A4/3AK1B2 w";
    const CYCLE: [&str; 4] = ["d6e6", "e4d4", "e6d6", "d4e4"];

    fn twice() -> Vec<&'static str> {
        CYCLE.iter().chain(CYCLE.iter()).copied().collect()
    }

    #[test]
    fn told_to_change_then_repeating_loses() {
        let config = Config::new(RuleSet::Cxa);
        let mut h = history(CHASE, &twice());
        let r = h.rule(&config).expect("threefold");
        assert_eq!(r.decision, Decision::MustChange { side: Color::Red });
        assert_eq!(h.told_to_change(), Some(Color::Red));
        // Asked again at the same ply: still the same ruling.
        assert_eq!(
            h.rule(&config).unwrap().decision,
            Decision::MustChange { side: Color::Red }
        );
        // Red repeats its chase once more: it loses at once, although the
        // position after its move has stood only three times.
        h.play(crate::parse_iccs("d6e6").unwrap()).unwrap();
        let r = h.rule(&config).expect("repetition");
        assert_eq!(r.decision, Decision::BlackWins, "{}", r.detail);
    }

    #[test]
    fn changing_clears_the_order() {
        let config = Config::new(RuleSet::Cxa);
        let mut h = history(CHASE, &twice());
        assert_eq!(
            h.rule(&config).map(|r| r.decision),
            Some(Decision::MustChange { side: Color::Red })
        );
        assert_eq!(h.told_to_change(), Some(Color::Red));
        // Red varies: the order is spent, and the game goes on.
        h.play(crate::parse_iccs("d6d7").unwrap()).unwrap();
        assert_eq!(h.told_to_change(), None);
        assert!(h.rule(&config).is_none());
    }

    #[test]
    fn the_other_side_repeating_first_is_no_loss() {
        // Ruled after red's move; black's next move repeats its part of the
        // cycle (allowed moves): red, told to change, has not yet had its
        // turn. Only red's own repetition loses.
        let config = Config::new(RuleSet::Cxa);
        let mut h = History::new(Position::from_fen(CHASE).unwrap(), RuleSet::Cxa);
        let line = [
            "d6e6", "e4d4", "e6d6", "d4e4", "d6e6", "e4d4", "e6d6", "d4e4", "d6e6",
        ];
        let mut rulings = Vec::new();
        for m in line.iter().chain(["e4d4", "e6d6"].iter()) {
            h.play(crate::parse_iccs(m).unwrap()).unwrap();
            rulings.push(h.rule(&config).map(|r| r.decision));
        }
        // Ply 8 (black's move) already makes the start position threefold.
        assert_eq!(rulings[7], Some(Decision::MustChange { side: Color::Red }));
        // Red's chase once more (ply 9): lost.
        assert_eq!(rulings[8], Some(Decision::BlackWins));
        // Without the ruling at ply 8 (say, judged only from ply 9 on), the
        // order comes after red's move, and black's reply does not lose red
        // the game.
        let mut h = History::new(Position::from_fen(CHASE).unwrap(), RuleSet::Cxa);
        for m in line {
            h.play(crate::parse_iccs(m).unwrap()).unwrap();
        }
        assert_eq!(
            h.rule(&config).unwrap().decision,
            Decision::MustChange { side: Color::Red }
        );
        h.play(crate::parse_iccs("e4d4").unwrap()).unwrap();
        assert_eq!(
            h.rule(&config).unwrap().decision,
            Decision::MustChange { side: Color::Red }
        );
        h.play(crate::parse_iccs("e6d6").unwrap()).unwrap();
        assert_eq!(h.rule(&config).unwrap().decision, Decision::BlackWins);
    }
}
