//! Scores, standings and tie-breaks on the tournament [`model`](crate::model):
//! the CXA orders of 15.1–15.5 (小分, 胜局, 直胜, 犯规, 对手分) and the FIDE
//! tie-break regulations (Handbook C.07, the 2023 edition as amended in
//! 2024: Buchholz, Buchholz Cut-1, Sonneborn–Berger, progressive score,
//! direct encounter, wins, AROC, with article 16 for unplayed rounds).
//!
//! - [`scoring`]: entering results (a result for a game that does not exist
//!   is an error) and withdrawals (20.3 round robin, 20.4 Swiss).
//! - this file: the value of each tie-break for each player.
//! - [`standings`]: ranking — points, penalties last among equals (18.4),
//!   the chosen tie-breaks in order, shared places (名次并列) or play-offs
//!   (15.6).
//!
//! Unplayed rounds count by C.07 article 16 (a dummy opponent) unless the
//! event chooses FIDE's earlier virtual-opponent rule ([`Unplayed`]); a
//! round robin needs neither, its opponents being fixed by the table.
//! BH, BH-C1, SB, PS, WIN, WON, AROC and whole rankings with DE are
//! cross-checked against tiebreak-core (`tests/tiebreak_crosscheck.rs`).
//!
//! Values are exact integers: point-like tie-breaks in hundredths of a
//! point (scores are tenths; Sonneborn–Berger multiplies two of them),
//! counts as counts, ratings as whole rating points.

pub mod scoring;
pub mod standings;

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;

use crate::model::{Outcome, PlayerId, Points, Tournament};

/// One tie-break, by the name the CLI and the event rules use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// `BH` Buchholz (C.07 8.1): the sum of the opponents' scores, with
    /// C.07 article 16 for unplayed rounds — an own unplayed round counts
    /// as a game against a dummy opponent with the participant's own final
    /// score (16.4); an opponent's final rounds of requested byes or
    /// absence not followed by play count as draws (16.3).
    Buchholz,
    /// `BH-C1` Buchholz Cut-1 (C.07 14.1): Buchholz less the least
    /// contribution — or, where the participant has voluntarily unplayed
    /// rounds (half/zero-point byes, forfeit losses, absences), less the
    /// least of those (16.5.1).
    BuchholzCut1,
    /// `SB` Sonneborn–Berger (C.07 9.1): the sum of each opponent's score
    /// times the points scored against them; article 16 as for Buchholz.
    SonnebornBerger,
    /// `PS` progressive score (C.07 7.5): the sum of the running score after
    /// each round.
    Progressive,
    /// `DE` direct encounter (C.07 6; CXA 直胜): among the tied players who
    /// have all met, the points they scored against each other; reapplied
    /// to a still-tied subgroup (C.07 6.2). Computed per tied group by the
    /// standings; it has no value of its own.
    DirectEncounter,
    /// `WIN` (C.07 7.1): rounds in which the player got the points of a
    /// win, with or without playing (forfeit wins and full-point byes too).
    Wins,
    /// `WON` (C.07 7.2; CXA 胜局): games won over the board.
    GamesWon,
    /// `AROC` average rating of opponents Cut-1 (C.07 10.1 and 14.1): the
    /// average rating of the opponents played over the board, the lowest
    /// left out, rounded to the nearest whole number, 0.5 up. Unrated
    /// opponents (rating 0) are left out.
    AverageRatingCut1,
    /// `SB-CXA` 小分 (CXA 15.1): Sonneborn–Berger on the crosstable as it
    /// stands — each opponent met or forfeited, with their actual final
    /// score, times the points scored against them; byes give nothing.
    CxaSonnebornBerger,
    /// `OPP` 对手分 (CXA 15.2): the sum of the actual final scores of the
    /// opponents met or forfeited; byes give nothing.
    CxaOpponentScores,
    /// `FOUL` 犯规 (CXA 15.1–15.4): fewer fouls rank higher. Fouls are not
    /// in TRF; the event supplies them.
    Fouls,
}

/// A tie-break name the CLI does not know.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown tie-break {0:?}: use BH, BH-C1, SB, PS, DE, WIN, WON, AROC, SB-CXA, OPP or FOUL, or cxa-rr / cxa-swiss")]
pub struct UnknownTiebreak(pub String);

impl Tiebreak {
    pub const ALL: [Tiebreak; 11] = [
        Tiebreak::Buchholz,
        Tiebreak::BuchholzCut1,
        Tiebreak::SonnebornBerger,
        Tiebreak::Progressive,
        Tiebreak::DirectEncounter,
        Tiebreak::Wins,
        Tiebreak::GamesWon,
        Tiebreak::AverageRatingCut1,
        Tiebreak::CxaSonnebornBerger,
        Tiebreak::CxaOpponentScores,
        Tiebreak::Fouls,
    ];

    /// CXA 15.1, individual round robin: 小分, 胜局, 直胜, 犯规.
    pub const CXA_ROUND_ROBIN: [Tiebreak; 4] = [
        Tiebreak::CxaSonnebornBerger,
        Tiebreak::GamesWon,
        Tiebreak::DirectEncounter,
        Tiebreak::Fouls,
    ];

    /// CXA 15.2, individual Swiss: 对手分, 胜局, 犯规.
    pub const CXA_SWISS: [Tiebreak; 3] = [Tiebreak::CxaOpponentScores, Tiebreak::GamesWon, Tiebreak::Fouls];

    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::Buchholz => "BH",
            Tiebreak::BuchholzCut1 => "BH-C1",
            Tiebreak::SonnebornBerger => "SB",
            Tiebreak::Progressive => "PS",
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::Wins => "WIN",
            Tiebreak::GamesWon => "WON",
            Tiebreak::AverageRatingCut1 => "AROC",
            Tiebreak::CxaSonnebornBerger => "SB-CXA",
            Tiebreak::CxaOpponentScores => "OPP",
            Tiebreak::Fouls => "FOUL",
        }
    }

    /// A comma-separated list: names, or the presets `cxa-rr` (15.1) and
    /// `cxa-swiss` (15.2). Case does not matter.
    pub fn parse_list(list: &str) -> Result<Vec<Tiebreak>, UnknownTiebreak> {
        let mut out = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let upper = item.to_ascii_uppercase();
            match upper.as_str() {
                "CXA-RR" => out.extend(Tiebreak::CXA_ROUND_ROBIN),
                "CXA-SWISS" => out.extend(Tiebreak::CXA_SWISS),
                _ => out.push(
                    Tiebreak::ALL
                        .into_iter()
                        .find(|t| t.name() == upper)
                        .ok_or_else(|| UnknownTiebreak(item.to_string()))?,
                ),
            }
        }
        Ok(out)
    }

    /// Whether a smaller value ranks higher (fouls).
    pub fn lower_is_better(self) -> bool {
        self == Tiebreak::Fouls
    }

    fn unit(self) -> Unit {
        match self {
            Tiebreak::Buchholz
            | Tiebreak::BuchholzCut1
            | Tiebreak::SonnebornBerger
            | Tiebreak::Progressive
            | Tiebreak::DirectEncounter
            | Tiebreak::CxaSonnebornBerger
            | Tiebreak::CxaOpponentScores => Unit::Hundredths,
            Tiebreak::Wins | Tiebreak::GamesWon | Tiebreak::Fouls => Unit::Count,
            Tiebreak::AverageRatingCut1 => Unit::Rating,
        }
    }
}

impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Hundredths,
    Count,
    Rating,
}

/// One tie-break value of one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Value {
    pub tiebreak: Tiebreak,
    /// Hundredths of a point, a count or a rating, by the tie-break.
    pub raw: i64,
}

impl Value {
    /// The value in points (or as a count), for tests and printing.
    pub fn as_f64(self) -> f64 {
        match self.tiebreak.unit() {
            Unit::Hundredths => self.raw as f64 / 100.0,
            _ => self.raw as f64,
        }
    }
}

impl fmt::Display for Value {
    /// Points with two decimals (`12.50`), counts and ratings whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.tiebreak.unit() {
            Unit::Hundredths => {
                let sign = if self.raw < 0 { "-" } else { "" };
                let a = self.raw.unsigned_abs();
                format!("{sign}{}.{:02}", a / 100, a % 100)
            }
            _ => self.raw.to_string(),
        };
        f.pad(&s)
    }
}

/// How an event is played, which decides how unplayed games count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// 循环制: forfeits count against the scheduled opponent (C.07 15.2
    /// keeps forfeits in direct encounter for round robins).
    RoundRobin,
    /// 积分编排制.
    Swiss,
}

/// How a player's unplayed rounds (forfeits, byes, absences) count in
/// Buchholz and Sonneborn–Berger.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Unplayed {
    /// C.07 (2023/2024) article 16: an own unplayed round is a game against
    /// a dummy opponent with the participant's own final score, the result
    /// as awarded (16.4); for the opponents, a participant's requested byes
    /// and absences after the last round they took part in count as draws
    /// (16.3); cuts remove a voluntarily unplayed round first (16.5).
    #[default]
    Dummy,
    /// The earlier FIDE rule (80th Congress, Kallithea 2009, Swiss Pairings
    /// Programs Committee, item 7): an own unplayed round is a game against
    /// a virtual opponent who had the participant's score before the round,
    /// gets the opposite result, and draws every later round; for the
    /// opponents every result by default counts as a draw.
    VirtualOpponent,
}

/// A tie-break computation on an inconsistent crosstable.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TiebreakError {
    #[error("round {round}: player {player} names opponent {opponent}, who is not in the tournament")]
    UnknownOpponent {
        player: PlayerId,
        opponent: PlayerId,
        round: u32,
    },
}

/// What the tie-breaks need about one round of one player.
#[derive(Debug, Clone, Copy)]
struct Cell {
    opponent: Option<PlayerId>,
    outcome: Outcome,
    points: Points,
}

/// The crosstable prepared for tie-breaks: every player's rounds 1..=R,
/// R the last round paired (absent past the end of their line), their
/// scores, and the C.07 16.3 adjusted scores.
pub struct Table<'a> {
    t: &'a Tournament,
    rounds: u32,
    cells: BTreeMap<PlayerId, Vec<Cell>>,
    score: BTreeMap<PlayerId, Points>,
    adjusted: BTreeMap<PlayerId, Points>,
    unplayed: Unplayed,
    system: System,
    pub fouls: BTreeMap<PlayerId, u32>,
}

/// Voluntarily unplayed rounds (C.07 16.1.2): requested half- and
/// zero-point byes, forfeit losses and absences.
fn is_vur(o: Outcome) -> bool {
    matches!(
        o,
        Outcome::HalfBye | Outcome::ZeroBye | Outcome::ForfeitLoss | Outcome::Absent
    )
}

/// Rounds that show the player took part (C.07 16.2.3: a requested bye
/// followed by one of these is not a final-round absence).
fn participated(o: Outcome) -> bool {
    o.is_played() || matches!(o, Outcome::PairingBye | Outcome::ForfeitWin)
}

impl<'a> Table<'a> {
    /// Prepare `t` over the rounds paired so far, with C.07 article 16 for
    /// unplayed rounds.
    pub fn new(t: &'a Tournament) -> Result<Table<'a>, TiebreakError> {
        Table::with_rule(t, Unplayed::Dummy, System::Swiss)
    }

    /// Prepare `t` with the given rule for unplayed rounds. In a round
    /// robin the opponents are fixed by the table, so unplayed-round rules
    /// do not apply: a forfeit counts against the scheduled opponent, a
    /// round without an opponent (the phantom's bye, an annulled game,
    /// 20.3) counts for nothing, and scores are the actual ones.
    pub fn with_rule(
        t: &'a Tournament,
        unplayed: Unplayed,
        system: System,
    ) -> Result<Table<'a>, TiebreakError> {
        // Rounds paired so far: a file written mid-event (XXR says more, or
        // byes are already requested for the next round) is ranked on the
        // rounds played, as the standings after that round.
        let rounds = t.rounds_paired();
        let mut cells = BTreeMap::new();
        let mut score = BTreeMap::new();
        let mut adjusted = BTreeMap::new();
        for p in &t.players {
            let row: Vec<Cell> = (1..=rounds)
                .map(|r| {
                    let e = p.round(r);
                    Cell {
                        opponent: e.opponent,
                        outcome: e.outcome,
                        points: t.points.earned(&e),
                    }
                })
                .collect();
            for (i, c) in row.iter().enumerate() {
                if let Some(o) = c.opponent {
                    if t.player(o).is_none() {
                        return Err(TiebreakError::UnknownOpponent {
                            player: p.id,
                            opponent: o,
                            round: i as u32 + 1,
                        });
                    }
                }
            }
            let total = row.iter().fold(Points::ZERO, |a, c| a + c.points);
            // 16.3: requested byes and absences after the last round the
            // player took part in count as draws for the opponents.
            let last = row.iter().rposition(|c| participated(c.outcome));
            let adj = row.iter().enumerate().fold(Points::ZERO, |a, (i, c)| {
                let as_draw = match (system, unplayed) {
                    // A round robin's opponents are fixed: actual scores.
                    (System::RoundRobin, _) => false,
                    (System::Swiss, Unplayed::Dummy) => {
                        last.is_none_or(|l| i > l)
                            && matches!(c.outcome, Outcome::HalfBye | Outcome::ZeroBye | Outcome::Absent)
                    }
                    (System::Swiss, Unplayed::VirtualOpponent) => !c.outcome.is_played(),
                };
                a + if as_draw { t.points.draw } else { c.points }
            });
            score.insert(p.id, total);
            adjusted.insert(p.id, adj);
            cells.insert(p.id, row);
        }
        Ok(Table {
            t,
            rounds,
            cells,
            score,
            adjusted,
            unplayed,
            system,
            fouls: BTreeMap::new(),
        })
    }

    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// The score of `p` (`None`: no such player).
    pub fn score(&self, p: PlayerId) -> Option<Points> {
        self.score.get(&p).copied()
    }

    /// The score, in tenths, standing in for the opponent of `p`'s unplayed
    /// round `i` (0-based): the dummy's (own final score) or the virtual
    /// opponent's (own score before the round, the opposite result, a draw
    /// in every later round).
    fn stand_in(&self, p: PlayerId, i: usize) -> i64 {
        match self.unplayed {
            Unplayed::Dummy => self.score[&p].0 as i64,
            Unplayed::VirtualOpponent => {
                let cells = &self.cells[&p];
                let pts = self.t.points;
                let before: i64 = cells[..i].iter().map(|c| c.points.0 as i64).sum();
                let got = cells[i].points;
                let opposite = if got == pts.win {
                    pts.loss
                } else if got == pts.draw {
                    pts.draw
                } else {
                    pts.win
                };
                let later = (cells.len() - i - 1) as i64 * pts.draw.0 as i64;
                before + opposite.0 as i64 + later
            }
        }
    }

    /// The contributions to Buchholz (C.07 8.1 with article 16, or the
    /// virtual opponent), in hundredths, each with whether it comes from a
    /// voluntarily unplayed round.
    pub fn buchholz_parts(&self, p: PlayerId) -> Vec<(i64, bool)> {
        let Some(cells) = self.cells.get(&p) else {
            return Vec::new();
        };
        cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match self.opponent_in(c) {
                Some(o) => Some((self.adjusted[&o].0 as i64 * 10, false)),
                None if self.system == System::RoundRobin => None,
                None => Some((self.stand_in(p, i) * 10, is_vur(c.outcome))),
            })
            .collect()
    }

    /// The opponent whose score a round brings in: the one played, or in a
    /// round robin also the one forfeited against.
    fn opponent_in(&self, c: &Cell) -> Option<PlayerId> {
        match self.system {
            System::Swiss if c.outcome.is_played() => c.opponent,
            System::Swiss => None,
            System::RoundRobin => c.opponent,
        }
    }

    /// The score of `p` as the opponents' tie-breaks see it (C.07 16.3,
    /// or every default as a draw under the virtual-opponent rule).
    pub fn adjusted_score(&self, p: PlayerId) -> Option<Points> {
        self.adjusted.get(&p).copied()
    }

    /// The value of one (player-level) tie-break; `None` for direct
    /// encounter, which the standings compute per tied group, and for a
    /// player who is not in the tournament.
    pub fn value(&self, p: PlayerId, tb: Tiebreak) -> Option<Value> {
        let cells = self.cells.get(&p)?;
        let win = self.t.points.win;
        let raw = match tb {
            Tiebreak::Buchholz => self.buchholz_parts(p).iter().map(|x| x.0).sum(),
            Tiebreak::BuchholzCut1 => {
                let parts = self.buchholz_parts(p);
                let total: i64 = parts.iter().map(|x| x.0).sum();
                let vur = parts.iter().filter(|x| x.1).map(|x| x.0).min();
                let cut = vur.or_else(|| parts.iter().map(|x| x.0).min());
                if parts.len() < 2 {
                    total
                } else {
                    total - cut.unwrap_or(0)
                }
            }
            Tiebreak::SonnebornBerger => cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let opp = match self.opponent_in(c) {
                        Some(o) => self.adjusted[&o].0 as i64,
                        None if self.system == System::RoundRobin => 0,
                        None => self.stand_in(p, i),
                    };
                    opp * c.points.0 as i64
                })
                .sum(),
            Tiebreak::Progressive => {
                let mut run = 0i64;
                cells
                    .iter()
                    .map(|c| {
                        run += c.points.0 as i64 * 10;
                        run
                    })
                    .sum()
            }
            Tiebreak::DirectEncounter => return None,
            Tiebreak::Wins => cells
                .iter()
                .filter(|c| c.points == win && win > Points::ZERO)
                .count() as i64,
            Tiebreak::GamesWon => cells
                .iter()
                .filter(|c| matches!(c.outcome, Outcome::Win | Outcome::UnratedWin))
                .count() as i64,
            Tiebreak::AverageRatingCut1 => {
                let mut ratings: Vec<i64> = cells
                    .iter()
                    .filter(|c| c.outcome.is_played())
                    .filter_map(|c| self.t.player(c.opponent?))
                    .map(|o| o.rating as i64)
                    .filter(|&r| r > 0)
                    .collect();
                ratings.sort_unstable();
                if ratings.len() > 1 {
                    ratings.remove(0);
                }
                if ratings.is_empty() {
                    0
                } else {
                    let n = ratings.len() as i64;
                    (2 * ratings.iter().sum::<i64>() + n) / (2 * n)
                }
            }
            Tiebreak::CxaSonnebornBerger => cells
                .iter()
                .filter_map(|c| Some(self.score[&c.opponent?].0 as i64 * c.points.0 as i64))
                .sum(),
            Tiebreak::CxaOpponentScores => cells
                .iter()
                .filter_map(|c| Some(self.score[&c.opponent?].0 as i64 * 10))
                .sum(),
            Tiebreak::Fouls => self.fouls.get(&p).copied().unwrap_or(0) as i64,
        };
        Some(Value { tiebreak: tb, raw })
    }

    /// The mini-table of `group` (C.07 6.1): for each player the points
    /// scored against the others of the group — played games, and in a
    /// round robin forfeits too (6.1.1 leaves forfeits out in a Swiss) —
    /// a pair that met more than once counting the average (6.1.2); and
    /// for each player how many of the others they have not met.
    pub fn encounter(&self, group: &[PlayerId], system: System) -> Encounter {
        let counts = |c: &Cell| {
            c.outcome.is_played()
                || (system == System::RoundRobin
                    && matches!(c.outcome, Outcome::ForfeitWin | Outcome::ForfeitLoss))
        };
        let mut points = Vec::with_capacity(group.len());
        let mut missing = Vec::with_capacity(group.len());
        for &a in group {
            let (mut total, mut unmet) = (0i64, 0u32);
            for &b in group.iter().filter(|&&b| b != a) {
                let games: Vec<&Cell> = self
                    .cells
                    .get(&a)
                    .map_or(&[][..], |v| v)
                    .iter()
                    .filter(|c| c.opponent == Some(b) && counts(c))
                    .collect();
                if games.is_empty() {
                    unmet += 1;
                } else {
                    let sum: i64 = games.iter().map(|c| c.points.0 as i64).sum();
                    total += sum * Encounter::SCALE / games.len() as i64;
                }
            }
            points.push(total);
            missing.push(unmet);
        }
        Encounter { points, missing }
    }

    /// The points of a win, the most an encounter not played could give.
    pub fn win_points(&self) -> Points {
        self.t.points.win
    }
}

/// A tied group's mini-table (direct encounter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encounter {
    /// Points against the others, in tenths × [`Encounter::SCALE`] (exact
    /// averages over up to ten meetings).
    pub points: Vec<i64>,
    /// How many of the others each has not met.
    pub missing: Vec<u32>,
}

impl Encounter {
    pub const SCALE: i64 = 2520;

    pub fn all_met(&self) -> bool {
        self.missing.iter().all(|&m| m == 0)
    }

    /// A mini-table value in hundredths of a point, for printing.
    pub fn hundredths(points: i64) -> i64 {
        points * 10 / Encounter::SCALE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_presets_expand() {
        for tb in Tiebreak::ALL {
            assert_eq!(Tiebreak::parse_list(tb.name()).unwrap(), vec![tb]);
        }
        assert_eq!(
            Tiebreak::parse_list("cxa-rr").unwrap(),
            Tiebreak::CXA_ROUND_ROBIN.to_vec()
        );
        assert_eq!(
            Tiebreak::parse_list("bh, bh-c1,SB").unwrap(),
            vec![
                Tiebreak::Buchholz,
                Tiebreak::BuchholzCut1,
                Tiebreak::SonnebornBerger
            ]
        );
        assert_eq!(Tiebreak::parse_list("BH,XYZ"), Err(UnknownTiebreak("XYZ".into())));
    }

    #[test]
    fn values_print_with_two_decimals() {
        let v = Value {
            tiebreak: Tiebreak::SonnebornBerger,
            raw: 1275,
        };
        assert_eq!(v.to_string(), "12.75");
        assert_eq!(v.as_f64(), 12.75);
    }
}
