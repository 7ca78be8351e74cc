//! A tournament as data, the way a TRF file describes it (FIDE TRF-2016 and
//! TRF-2026, with the TRF(x) `XXR`/`XXC` extensions): the players, what each
//! did in each round, the points system and the few facts the pairing rules
//! need (rounds in total, the initial colour, forbidden pairs, byes asked for
//! the next round). Pairing systems, standings and tie-breaks all read this
//! one model; none of them owns it.
//!
//! Colours are `White`/`Black` as TRF writes them (`w`/`b`); they are the
//! first and second side (in Xiangqi white is red).

use std::fmt;

/// A pairing number (TRF "starting rank", 1-based). Kept as the number the
/// arbiter sees; `0` never names a player (TRF writes `0000` for "nobody").
pub type PlayerId = u32;

/// Points as integer tenths, so that ½ and 3/1/0 systems add exactly
/// (TRF writes points with one decimal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub i32);

impl Points {
    pub const ZERO: Points = Points(0);

    /// Points from tenths (`Points::tenths(5)` is ½).
    pub const fn tenths(t: i32) -> Points {
        Points(t)
    }

    /// Whole points (`Points::whole(3)` is 3.0).
    pub const fn whole(p: i32) -> Points {
        Points(p * 10)
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0.saturating_add(o.0))
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        *self = *self + o;
    }
}

impl std::ops::Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        Points(self.0.saturating_sub(o.0))
    }
}

impl fmt::Display for Points {
    /// One decimal, as TRF writes points (`1.5`, `-0.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        let s = format!("{sign}{}.{}", a / 10, a % 10);
        f.pad(&s)
    }
}

/// The side a player had: first (white, in Xiangqi red) or second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// What happened to a player in one round: the TRF result codes
/// (TRF-2016 field "result"; `U` is TRF-2026's pairing-allocated bye).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1`: won a played game.
    Win,
    /// `=`: drew a played game.
    Draw,
    /// `0`: lost a played game.
    Loss,
    /// `+`: won by forfeit (the game was not played).
    ForfeitWin,
    /// `-`: lost by forfeit (the game was not played).
    ForfeitLoss,
    /// `W`: won a game that is not rated (e.g. fewer than one move).
    UnratedWin,
    /// `D`: drew a game that is not rated.
    UnratedDraw,
    /// `L`: lost a game that is not rated.
    UnratedLoss,
    /// `H`: half-point bye (asked for by the player, C.04.1 article 1.5).
    HalfBye,
    /// `F`: full-point bye (asked for, or awarded by the organiser).
    FullBye,
    /// `U`: the pairing-allocated bye (C.04.1 article 1.3, C.04.3 A.5/C.2).
    PairingBye,
    /// `Z`: zero-point bye (asked for, or absent with notice).
    ZeroBye,
    /// Blank: not paired and not present (a withdrawn player, a late entry
    /// before arrival).
    Absent,
}

impl Outcome {
    /// The TRF character for this outcome.
    pub fn code(self) -> char {
        match self {
            Outcome::Win => '1',
            Outcome::Draw => '=',
            Outcome::Loss => '0',
            Outcome::ForfeitWin => '+',
            Outcome::ForfeitLoss => '-',
            Outcome::UnratedWin => 'W',
            Outcome::UnratedDraw => 'D',
            Outcome::UnratedLoss => 'L',
            Outcome::HalfBye => 'H',
            Outcome::FullBye => 'F',
            Outcome::PairingBye => 'U',
            Outcome::ZeroBye => 'Z',
            Outcome::Absent => ' ',
        }
    }

    /// The outcome a TRF character names (TRF-2016 also allows `0`/`1`
    /// as lower or upper case letters; we take `w d l h f u z` too).
    pub fn from_code(c: char) -> Option<Outcome> {
        Some(match c.to_ascii_uppercase() {
            '1' => Outcome::Win,
            '=' => Outcome::Draw,
            '0' => Outcome::Loss,
            '+' => Outcome::ForfeitWin,
            '-' => Outcome::ForfeitLoss,
            'W' => Outcome::UnratedWin,
            'D' => Outcome::UnratedDraw,
            'L' => Outcome::UnratedLoss,
            'H' => Outcome::HalfBye,
            'F' => Outcome::FullBye,
            'U' => Outcome::PairingBye,
            'Z' => Outcome::ZeroBye,
            ' ' => Outcome::Absent,
            _ => return None,
        })
    }

    /// Whether a game was really played over the board. Forfeits and byes
    /// are not played: C.04.1 article 1.6 — they do not count for colour
    /// history, and a forfeited pair may meet again (C.04.3 C.1 applies to
    /// games played; bbpPairings also lets them meet again).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            Outcome::Win
                | Outcome::Draw
                | Outcome::Loss
                | Outcome::UnratedWin
                | Outcome::UnratedDraw
                | Outcome::UnratedLoss
        )
    }

    /// Whether this outcome needs an opponent (played games and forfeits).
    pub fn needs_opponent(self) -> bool {
        self.is_played() || matches!(self, Outcome::ForfeitWin | Outcome::ForfeitLoss)
    }

    /// The outcome the opponent must have had (for consistency checks).
    pub fn mirrored(self) -> Option<Outcome> {
        Some(match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::ForfeitWin => Outcome::ForfeitLoss,
            Outcome::ForfeitLoss => Outcome::ForfeitWin,
            Outcome::UnratedWin => Outcome::UnratedLoss,
            Outcome::UnratedLoss => Outcome::UnratedWin,
            Outcome::UnratedDraw => Outcome::UnratedDraw,
            _ => return None,
        })
    }
}

/// One cell of a player's TRF line: opponent, colour, outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundEntry {
    /// `None` for byes and absences (TRF `0000`).
    pub opponent: Option<PlayerId>,
    /// `None` for byes and absences (TRF `-`); a forfeit keeps the colour
    /// it was paired with.
    pub colour: Option<Colour>,
    pub outcome: Outcome,
}

impl RoundEntry {
    /// An absence: not paired, no points.
    pub const ABSENT: RoundEntry = RoundEntry {
        opponent: None,
        colour: None,
        outcome: Outcome::Absent,
    };

    /// A bye of the given kind (no opponent, no colour).
    pub fn bye(outcome: Outcome) -> RoundEntry {
        RoundEntry {
            opponent: None,
            colour: None,
            outcome,
        }
    }

    /// Whether the player sat at a board in this round against a real
    /// opponent (played or forfeited). For the pairing rules only played
    /// games count as having met (C.04.1 article 1.6 and C.04.3 C.1).
    pub fn was_paired(&self) -> bool {
        self.opponent.is_some()
    }

    /// The opponent of a game actually played (not a forfeit).
    pub fn played_opponent(&self) -> Option<PlayerId> {
        if self.outcome.is_played() {
            self.opponent
        } else {
            None
        }
    }

    /// The colour of a game actually played: forfeited games do not count
    /// in colour history (C.04.3 A.6: "games not played … are not
    /// considered").
    pub fn played_colour(&self) -> Option<Colour> {
        if self.outcome.is_played() {
            self.colour
        } else {
            None
        }
    }
}

/// What each outcome is worth. bbpPairings' TRF(bx) codes (`BBW`, `BBD`,
/// `BBL`, `BBZ`, `BBF`, `BBU`) and TRF-2026's `162` line set these; the
/// defaults are FIDE's 1/½/0 with the pairing-allocated bye worth a win
/// (C.04.1 article 1.3). JaVaFo's TRF(x) `XXS` keys may make a played
/// game's points depend on the colour (`WW`/`BW`, `WD`/`BD`, `WL`/`BL`):
/// `win`, `draw` and `loss` are then White's, and `black` says Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PointSystem {
    pub win: Points,
    pub draw: Points,
    pub loss: Points,
    /// Black's points for a played win, draw and loss, where they differ
    /// from White's (`None`: the colour does not matter).
    pub black: Option<[Points; 3]>,
    /// A forfeit win; FIDE counts it as a win.
    pub forfeit_win: Points,
    pub forfeit_loss: Points,
    pub zero_bye: Points,
    pub half_bye: Points,
    pub full_bye: Points,
    pub pairing_bye: Points,
    /// Points of an absence (TRF blank result).
    pub absent: Points,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem::with(Points::whole(1), Points::tenths(5), Points::ZERO)
    }
}

impl PointSystem {
    /// A system from win/draw/loss values: forfeit wins, full and
    /// pairing-allocated byes are worth a win, half-point byes a draw,
    /// forfeit losses, zero-point byes and absences nothing.
    pub fn with(win: Points, draw: Points, loss: Points) -> PointSystem {
        PointSystem {
            win,
            draw,
            loss,
            black: None,
            forfeit_win: win,
            forfeit_loss: Points::ZERO,
            zero_bye: Points::ZERO,
            half_bye: draw,
            full_bye: win,
            pairing_bye: win,
            absent: Points::ZERO,
        }
    }

    /// 3 points a win, 1 a draw (the CXA office event of seed 001 and many
    /// open events).
    pub fn three_one_zero() -> PointSystem {
        PointSystem::with(Points::whole(3), Points::whole(1), Points::ZERO)
    }

    /// What one round's entry earned: its outcome's worth, for a played
    /// game by the colour the player had.
    pub fn earned(&self, e: &RoundEntry) -> Points {
        match (self.black, e.played_colour()) {
            (Some([w, d, l]), Some(Colour::Black)) => match e.outcome {
                Outcome::Win | Outcome::UnratedWin => w,
                Outcome::Draw | Outcome::UnratedDraw => d,
                _ => l,
            },
            _ => self.points(e.outcome),
        }
    }

    /// What one outcome is worth (with White's points for a played game
    /// where the colour matters: see [`PointSystem::earned`]).
    pub fn points(&self, o: Outcome) -> Points {
        match o {
            Outcome::Win | Outcome::UnratedWin => self.win,
            Outcome::Draw | Outcome::UnratedDraw => self.draw,
            Outcome::Loss | Outcome::UnratedLoss => self.loss,
            Outcome::ForfeitWin => self.forfeit_win,
            Outcome::ForfeitLoss => self.forfeit_loss,
            Outcome::HalfBye => self.half_bye,
            Outcome::FullBye => self.full_bye,
            Outcome::PairingBye => self.pairing_bye,
            Outcome::ZeroBye => self.zero_bye,
            Outcome::Absent => self.absent,
        }
    }
}

/// One registered player: the TRF `001` line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Player {
    /// Pairing number (TRF "starting rank").
    pub id: PlayerId,
    /// Kept verbatim for round trips (TRF column 10).
    pub sex: String,
    /// Kept verbatim (TRF columns 11–13: GM, IM, …).
    pub title: String,
    pub name: String,
    /// 0 when unrated (TRF leaves it blank).
    pub rating: u32,
    pub federation: String,
    pub fide_id: String,
    pub birth: String,
    /// The points the file declares (TRF columns 81–84); the model
    /// computes scores from the results, this is kept to check and to
    /// write back.
    pub declared_points: Option<Points>,
    /// The rank the file declares (TRF columns 86–89).
    pub rank: Option<u32>,
    /// One entry per round, from round 1. Rounds past the end are absent.
    pub rounds: Vec<RoundEntry>,
}

impl Player {
    /// A player with a pairing number and name, nothing played yet.
    pub fn new(id: PlayerId, name: &str, rating: u32) -> Player {
        Player {
            id,
            name: name.to_string(),
            rating,
            ..Player::default()
        }
    }

    /// The entry for round `r` (1-based); absent when not written.
    pub fn round(&self, r: u32) -> RoundEntry {
        if r == 0 {
            return RoundEntry::ABSENT;
        }
        self.rounds
            .get(r as usize - 1)
            .copied()
            .unwrap_or(RoundEntry::ABSENT)
    }

    /// Colours of games actually played in rounds 1..=r, in order; forfeits
    /// and byes are left out (C.04.3 A.6).
    pub fn colour_history(&self, r: u32) -> Vec<Colour> {
        self.rounds
            .iter()
            .take(r as usize)
            .filter_map(|e| e.played_colour())
            .collect()
    }

    /// Number of games actually played in rounds 1..=r.
    pub fn games_played(&self, r: u32) -> u32 {
        self.rounds
            .iter()
            .take(r as usize)
            .filter(|e| e.outcome.is_played())
            .count() as u32
    }
}

/// A tournament as TRF describes it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tournament {
    /// The `012` line.
    pub name: String,
    /// Players in file order; pairing numbers need not be contiguous.
    pub players: Vec<Player>,
    /// Total number of rounds (`XXR`, TRF-2026 `142`). The Dutch rules
    /// treat the last round specially (C.04.3 C.8, C.12 "top scorers").
    pub total_rounds: Option<u32>,
    /// Colour of the first player in round 1 (`XXC white1/black1`, TRF-2026
    /// `152 W/B`); C.04.3 E.5 takes it as drawn by lot.
    pub initial_colour: Option<Colour>,
    pub points: PointSystem,
    /// Groups of players none of whom may meet another (`XXP`/`260`).
    pub forbidden: Vec<Vec<PlayerId>>,
    /// Lines the model does not interpret (`022` city, `042` dates, …),
    /// kept verbatim so that an arbiter's file survives a round trip.
    pub other_lines: Vec<String>,
}

impl Tournament {
    /// The player with this pairing number.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// The number of rounds with at least one result or pairing written
    /// (requested byes for the next round included).
    pub fn rounds_written(&self) -> u32 {
        self.players
            .iter()
            .map(|p| {
                p.rounds
                    .iter()
                    .rposition(|e| *e != RoundEntry::ABSENT)
                    .map_or(0, |i| i as u32 + 1)
            })
            .max()
            .unwrap_or(0)
    }

    /// The number of rounds already paired: the last round in which some
    /// player met an opponent or got the pairing-allocated bye. A later
    /// column holding only byes and absences is a request for the next
    /// round (TRF(x) convention, also bbpPairings').
    pub fn rounds_paired(&self) -> u32 {
        self.players
            .iter()
            .map(|p| {
                p.rounds
                    .iter()
                    .rposition(|e| e.was_paired() || e.outcome == Outcome::PairingBye)
                    .map_or(0, |i| i as u32 + 1)
            })
            .max()
            .unwrap_or(0)
    }

    /// The score of player `id` after rounds 1..=r.
    pub fn score_after(&self, id: PlayerId, r: u32) -> Points {
        self.player(id).map_or(Points::ZERO, |p| self.score_of(p, r))
    }

    /// The score of a player after rounds 1..=r.
    pub fn score_of(&self, p: &Player, r: u32) -> Points {
        p.rounds
            .iter()
            .take(r as usize)
            .map(|e| self.points.earned(e))
            .fold(Points::ZERO, |a, b| a + b)
    }

    /// Players who asked not to be paired in round `r` (a bye or absence
    /// written in that column before the round is paired): C.04.1 article
    /// 1.5 byes, withdrawals (article 1.7) and late entries not yet there.
    pub fn unavailable_in(&self, r: u32) -> Vec<PlayerId> {
        self.players
            .iter()
            .filter(|p| {
                let e = p.round(r);
                r as usize <= p.rounds.len() && !e.was_paired() && e.outcome != Outcome::PairingBye
            })
            .map(|p| p.id)
            .collect()
    }

    /// The tournament as it stood before round `r` was paired: results of
    /// rounds 1..r-1, plus the byes and absences already declared for
    /// round `r` (but not its pairing-allocated bye, which the pairing
    /// gives). Declared points are recomputed. This is what an arbiter
    /// hands to the pairing program.
    pub fn before_round(&self, r: u32) -> Tournament {
        let mut t = self.clone();
        let keep = r.saturating_sub(1) as usize;
        for p in &mut t.players {
            let next = p.round(r);
            let declared = r >= 1
                && p.rounds.len() >= r as usize
                && !next.was_paired()
                && next.outcome != Outcome::PairingBye;
            p.rounds.truncate(keep);
            if declared {
                while p.rounds.len() < keep {
                    p.rounds.push(RoundEntry::ABSENT);
                }
                p.rounds.push(next);
            }
            p.rank = None;
        }
        let pts = t.points;
        for p in &mut t.players {
            let s = p
                .rounds
                .iter()
                .map(|e| pts.earned(e))
                .fold(Points::ZERO, |a, b| a + b);
            p.declared_points = Some(s);
        }
        t
    }

    /// Whether `a` and `b` may not meet (a forbidden group holds both).
    pub fn is_forbidden(&self, a: PlayerId, b: PlayerId) -> bool {
        self.forbidden.iter().any(|g| g.contains(&a) && g.contains(&b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_display_one_decimal() {
        assert_eq!(Points::tenths(15).to_string(), "1.5");
        assert_eq!(Points::whole(3).to_string(), "3.0");
        assert_eq!(Points::tenths(-5).to_string(), "-0.5");
        assert_eq!(format!("{:>4}", Points::tenths(5)), " 0.5");
    }

    #[test]
    fn forfeits_do_not_count_as_played() {
        let mut p = Player::new(1, "A", 2000);
        p.rounds = vec![
            RoundEntry {
                opponent: Some(2),
                colour: Some(Colour::White),
                outcome: Outcome::ForfeitWin,
            },
            RoundEntry {
                opponent: Some(3),
                colour: Some(Colour::Black),
                outcome: Outcome::Draw,
            },
            RoundEntry::bye(Outcome::PairingBye),
        ];
        assert_eq!(p.games_played(3), 1);
        assert_eq!(p.colour_history(3), vec![Colour::Black]);
        let t = Tournament {
            players: vec![p],
            points: PointSystem::three_one_zero(),
            ..Tournament::default()
        };
        assert_eq!(t.score_after(1, 1), Points::whole(3));
        assert_eq!(t.score_after(1, 3), Points::whole(7));
        assert_eq!(t.rounds_paired(), 3);
    }
}
