//! Team events (团体赛, seed 000 articles 12–15): a team round robin or a
//! team Swiss. Captains register rosters, hand in a line-up per match,
//! and the boards of each match are ordinary event boards between the
//! players' entry numbers — paired, started and scored as every event's
//! boards are (`rounds`). What is a team's own is here:
//!
//! - **Rosters** (12.1–12.2): the captain names the players in board
//!   order, the first `boards` the regular boards, then at most
//!   `substitutes` substitutes. Every member is an entry of the event.
//! - **Line-ups** (12.2–12.3): before each round is paired the captain may
//!   hand in that round's line-up: `boards` players of the roster in
//!   roster order (or in any order, 12.3, where the event's `lineups` is
//!   `any-order`) — 12.2 lets substitutes play but never inverts the order
//!   (4 boards and 2 substitutes: the 15 line-ups 1-2-3-4 … 3-4-5-6). The
//!   deadline is the round's pairing (its scheduled start, or the
//!   arbiter's button): 12.3 fixes a line-up 每一场比赛开始前. A team that
//!   hands in none plays its roster's first `boards` players in order,
//!   the board order 12.1 fixes at registration (分台定人).
//! - **Colours** (13.2): in each round the team listed first on the Berger
//!   table has red (the first side) on the odd boards and black on the
//!   even boards, the other team the opposite; as the table alternates
//!   which team is listed first, a board's colours alternate for a team.
//! - **Scores** (14.1–14.2): board points 1/½/0 (a forfeit `+` a win,
//!   21.4); match points 2/1/0 for more, equal or fewer board points.
//! - **Standings** (15.3; a team Swiss 15.4): match points, then
//!   全队总局分 (board points), 全队胜局 (boards won), 直胜 (direct
//!   encounter), 全队犯规 (fouls the arbiter recorded, `fouls`), else
//!   shared; a Swiss: 团体对手分 (opponents' match points), 全队总局分,
//!   全队胜场 (matches won), 全队犯规. Among equal match points (or
//!   equal sums of places, 15.5) a team whose players were warned or
//!   disqualified from a game is placed last (18.4, 人(队): the team's
//!   players' penalties together, by weight, then number).
//! - **Team Swiss** (13.3, `system: "team-swiss"`): the teams are paired
//!   by the Dutch system on their match points, from the boards stored
//!   (`tournament::team::swiss_model`); the team the pairing gives white
//!   is due to move first: red on the odd boards. An odd team out has the
//!   bye, worth a match won by forfeit (21.4): its line-up's boards are
//!   stored without an opponent. Its initial ranking — the teams'
//!   pairing numbers — is the rosters' strength: the average rating of
//!   each team's regular boards, then the registration order
//!   (`tournament::team::initial_ranking`), read at every pairing from
//!   the ratings the entries keep, so a strong team registered late is
//!   seeded high from round 1.
//! - **All-play-all matches** (12.4 全队轮赛制, `team_match:
//!   "all-play-all"`, a team round robin): every player of a team meets
//!   every player of the other. A match is `boards` parts, one a round
//!   (the table's round r is the event's rounds (r−1)·B+1 … r·B); part s
//!   pairs the first-listed team's i-th player with the other's
//!   (i+s)-th (`tournament::team::all_play_all`), colours alternating
//!   part by part. The match is scored whole (14.2): the board points of
//!   its B×B games, match points once its last part is over.
//! - **队员总分制** (15.5, `team_ranking: "places"`): the teams ranked by
//!   the sum of their players' individual places (the players'
//!   standings), each team's `boards` best places counted; then the best
//!   place, the next best …, then 全队犯规 (`team_total_ranking`).
//! - **A team withdrawn** (20.3–20.4, the arbiter's `teams/withdraw`):
//!   its players are withdrawn from the next round on. A Swiss pairs it
//!   no more, its results standing (20.4); in a round robin its later
//!   matches are its forfeits, board by board, when their rounds are
//!   paired, and with fewer than half of its matches played all its
//!   results are annulled (20.3), the team listed last — in the players'
//!   own standings too (`annul_withdrawn_players`). Re-admitted whole
//!   (`fouls::readmit_team`) it is paired again; what it missed stays.

use crate::view::BoardPlayer;
use crate::{Events, Loaded};
use common::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use store::{LineupRow, User};
use tournament::model::{Colour, Points};
use tournament::roundrobin::Board;
use tournament::team::{self, LineupRule, MatchResult, TeamError, TeamMatch, TeamTiebreak};
use tournament::tiebreak::standings::Penalty;
use utoipa::ToSchema;

/// Most characters in a team's name.
pub const MAX_TEAM_NAME_CHARS: usize = 40;

/// A captain registers a team: its name and its players in board order,
/// substitutes last (12.1–12.2).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamRequest {
    pub name: String,
    /// Account names, board 1 first; after the boards, the substitutes.
    pub players: Vec<String>,
    /// The event's invitation code, where it has one.
    pub code: Option<String>,
}

/// A captain's line-up for one round's match (12.3): account names of
/// the roster, board 1 first, in roster order (12.2).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineupRequest {
    pub round: u32,
    pub players: Vec<String>,
}

/// One roster place.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct RosterView {
    /// 1-based: board order, then the substitutes.
    pub position: u32,
    /// The player's entry (pairing) number.
    pub number: u32,
    pub name: String,
    pub rating: i64,
    pub substitute: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TeamView {
    pub number: u32,
    pub name: String,
    pub captain: String,
    pub roster: Vec<RosterView>,
    /// A team Swiss's initial ranking (its pairing number): by the
    /// average rating of the regular boards, then registration order.
    /// `None` in a round robin (the registration order is the table's).
    #[serde(default)]
    pub seed: Option<u32>,
    /// Withdrawn whole (20.x): not paired from the round its players
    /// were withdrawn.
    #[serde(default)]
    pub withdrawn: bool,
}

/// One board of a team match.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TeamBoardView {
    /// The board within the match (1 first).
    pub board: u32,
    /// The board's number in the round (`/result` takes it).
    pub event_board: u32,
    pub first_player: BoardPlayer,
    pub second_player: BoardPlayer,
    /// The first-listed team's player's side: `first` (red) on odd
    /// boards, `second` on even ones (13.2).
    pub first_team_side: String,
    pub game: Option<String>,
    /// As the round's board has it (`1-0`: the first side won).
    pub result: Option<String>,
}

/// One match of a round: the first-listed team against the second.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TeamMatchView {
    pub first: u32,
    pub second: u32,
    pub first_name: String,
    pub second_name: String,
    pub boards: Vec<TeamBoardView>,
    /// Board points so far (14.1).
    pub first_board_points: String,
    pub second_board_points: String,
    /// Match points (14.2), once every board has its result.
    pub first_match_points: Option<u32>,
    pub second_match_points: Option<u32>,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TeamRoundView {
    pub round: u32,
    /// The table's (or the Swiss's) round the matches belong to: the
    /// event's round, except with all-play-all matches (12.4), whose
    /// every match takes `boards` rounds.
    pub team_round: u32,
    /// All-play-all (12.4): which part of the matches this round is
    /// (1 first); the board points shown are the match's so far, its
    /// match points once the last part is over.
    pub part: Option<u32>,
    pub matches: Vec<TeamMatchView>,
    /// The team without an opponent this round (an odd number of teams).
    pub sits_out: Option<u32>,
}

/// A line of the team standings (15.3 / 15.4; 15.5).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TeamStandingRow {
    pub rank: u32,
    pub shared: bool,
    pub team: u32,
    pub name: String,
    pub match_points: u32,
    pub board_points: String,
    pub board_wins: u32,
    pub matches_won: u32,
    /// 团体对手分: the match points of the teams met (15.4).
    pub opponent_match_points: u32,
    pub played: u32,
    /// 全队犯规: the fouls of the team's players.
    pub fouls: u32,
    /// 18.4: its players' warnings (18.1) and disqualifications from a
    /// game (18.2) together; a penalised team is last among teams equal
    /// on match points (or on the sum of places).
    pub warnings: u32,
    pub disqualifications: u32,
    /// 15.5 队员总分制 (`ranking: "places"`): the sum of the counted
    /// places, and the team's `boards` best individual places, best
    /// first. `None` and empty when ranked by match points.
    pub place_sum: Option<u32>,
    pub places: Vec<u32>,
    /// The team was withdrawn (20.x).
    pub withdrawn: bool,
    /// Its results annulled (20.3: withdrawn from a round robin with
    /// fewer than half its matches played): listed last, no points.
    pub annulled: bool,
}

/// `GET /api/events/{id}/teams`: the teams, every paired round's matches
/// and the standings.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TeamsView {
    pub boards: u32,
    pub substitutes: u32,
    /// `roster-order` (12.2) or `any-order` (12.3).
    pub lineups: String,
    /// `boards` (board against board) or `all-play-all` (12.4).
    pub team_match: String,
    /// `match-points` (15.3 / 15.4) or `places` (15.5 队员总分制).
    pub ranking: String,
    pub teams: Vec<TeamView>,
    pub rounds: Vec<TeamRoundView>,
    /// The tie-breaks after match points, in order (15.3 or 15.4); with
    /// `ranking: "places"`, after the sum of places: `PLACES` (the best
    /// place, then the next best …) and `FOUL` (15.5).
    pub tiebreaks: Vec<String>,
    pub standings: Vec<TeamStandingRow>,
    /// The fouls the arbiter recorded, in order.
    pub fouls: Vec<crate::FoulView>,
}

/// Which line-ups a team handed in, as its captain sees them.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct LineupView {
    pub round: u32,
    pub team: u32,
    /// Account names, board 1 first.
    pub players: Vec<String>,
    pub submitted_ms: i64,
}

pub(crate) fn not_team_event(l: &Loaded) -> Result<(), Error> {
    if !l.system.is_team() {
        return Err(Error::conflict(
            "not_a_team_event",
            "this event is not a team event (system team-round-robin or team-swiss)",
        ));
    }
    Ok(())
}

/// The Berger table of the teams (CXA 11.2), team numbers 1..=n.
fn table(teams: u32) -> Vec<Vec<Board>> {
    crate::crosstable::schedule(crate::System::RoundRobin, teams)
}

/// The parts of a match: 12.4's all-play-all match is `boards` parts,
/// one a round; a match board against board is one.
pub(crate) fn parts(l: &Loaded) -> u32 {
    if l.event.team_all_play_all {
        l.event.boards.max(1)
    } else {
        1
    }
}

/// The games of a whole match: its boards, times its parts (12.4: B×B).
fn match_size(l: &Loaded) -> usize {
    l.event.boards as usize * parts(l) as usize
}

/// An event round as (the team round — the table's or the Swiss's —,
/// the part of its matches, 0 first).
fn team_round(l: &Loaded, round: u32) -> (u32, u32) {
    let p = parts(l);
    ((round.max(1) - 1) / p + 1, (round.max(1) - 1) % p)
}

/// The first-listed team's colour on each board of a match in `round`:
/// red on the odd boards (13.2/13.3), or in part s of an all-play-all
/// match the schedule's (12.4, `tournament::team::all_play_all`: each
/// player's colours alternate part by part).
fn first_colours(l: &Loaded, round: u32) -> Vec<Colour> {
    let per = l.event.boards as usize;
    if !l.event.team_all_play_all {
        return team::board_colours(per);
    }
    let (_, part) = team_round(l, round);
    team::all_play_all(per)
        .get(part as usize)
        .map_or_else(|| team::board_colours(per), |r| r.iter().map(|b| b.2).collect())
}

/// The teams withdrawn whole by round `round` (every player withdrawn
/// from that round or before; 20.x): not paired.
pub(crate) fn withdrawn_by(l: &Loaded, round: u32) -> Vec<u32> {
    l.teams
        .iter()
        .filter(|t| {
            !t.members.is_empty()
                && t.members.iter().all(|u| {
                    l.entry_of(u)
                        .is_some_and(|e| e.withdrawn && e.withdrawn_from.is_some_and(|f| f <= round))
                })
        })
        .map(|t| t.number)
        .collect()
}

/// A team Swiss's initial ranking (the teams' pairing numbers, C.04.3
/// applied to teams): the average rating of each team's regular boards,
/// highest first, then registration order
/// (`tournament::team::initial_ranking`). The ratings are those the
/// entries keep from registration, so every pairing reads the same.
fn seeds(l: &Loaded) -> Vec<u32> {
    let per = l.event.boards as usize;
    let teams: Vec<(u32, Vec<u32>)> = l
        .teams
        .iter()
        .map(|t| {
            let ratings = t
                .members
                .iter()
                .take(per)
                .filter_map(|u| l.entry_of(u))
                .map(|e| u32::try_from(e.rating.max(0)).unwrap_or(u32::MAX))
                .collect();
            (t.number, ratings)
        })
        .collect();
    team::initial_ranking(&teams)
}

/// How the event's line-ups may be ordered: roster order (12.2) or any
/// order (12.3 临时定台制, `lineups: "any-order"`).
fn lineup_rule(l: &Loaded) -> LineupRule {
    if l.event.lineups_any_order {
        LineupRule::PerMatch
    } else {
        LineupRule::FixedOrder
    }
}

/// The roster positions a team plays in `round`: its line-up, or the
/// roster's first `boards` in order (12.1: the board order fixed at
/// registration stands when no line-up comes, 分台定人).
fn lineup_of(l: &Loaded, round: u32, team: u32) -> Vec<usize> {
    l.lineups
        .iter()
        .find(|x| x.round == round && x.team == team)
        .map_or_else(
            || (1..=l.event.boards as usize).collect(),
            |x| x.positions.iter().map(|&p| p as usize).collect(),
        )
}

/// A team member's entry number.
fn member_number(l: &Loaded, team: u32, position: usize) -> Result<u32, Error> {
    let t = l
        .teams
        .iter()
        .find(|t| t.number == team)
        .ok_or_else(|| Error::Internal(format!("event {}: no team {team}", l.event.id)))?;
    let user = t
        .members
        .get(position - 1)
        .ok_or_else(|| Error::Internal(format!("team {team} has no roster position {position}")))?;
    l.entry_of(user)
        .map(|e| e.number)
        .ok_or_else(|| Error::Internal(format!("team {team}'s player {user} is not entered")))
}

/// Round `round`'s matches, (first-listed team, second team), and the
/// team with the bye: the Berger table's round (CXA 11.2), or the Dutch
/// system's pairing of the teams on their match points (13.3,
/// `tournament::team::swiss_model`) from the rounds stored before it.
fn round_matches(l: &Loaded, round: u32) -> Result<tournament::dutch::Pairing, Error> {
    if l.system == crate::System::TeamSwiss {
        let (matches, byes) = finished(l);
        return team::pair_team_round(
            &seeds(l),
            &matches,
            &byes,
            l.event.boards as usize,
            round,
            l.event.rounds,
            &withdrawn_by(l, round),
        )
        .map_err(|e| match e {
            TeamError::NoPairing(why) => Error::conflict("no_pairing", why),
            e => Error::Internal(format!("event {}: {e}", l.event.id)),
        });
    }
    let tab = table(l.teams.len() as u32);
    let r = tab.get(team_round(l, round).0 as usize - 1).ok_or_else(|| {
        Error::conflict(
            "all_rounds_paired",
            "the teams' round-robin table has no more rounds",
        )
    })?;
    let mut p = tournament::dutch::Pairing {
        boards: Vec::new(),
        bye: None,
    };
    for b in r {
        match *b {
            Board::Game { white, black } => p.boards.push((white, black)),
            Board::Bye { player } => p.bye = Some(player),
        }
    }
    Ok(p)
}

/// Round `round`'s boards, (first side, second side) entry numbers: the
/// round's matches in order, each on `boards` consecutive boards pairing
/// the line-ups board by board, the first-listed team red on the odd
/// boards (13.2/13.3, `tournament::team::pair_boards`). A team Swiss's
/// bye follows: its line-up's boards without an opponent (each player's
/// pairing-allocated bye, together the team's `+`, 21.4); a round robin's
/// team that sits out has no boards.
pub(crate) fn round_boards(l: &Loaded, round: u32) -> Result<Vec<(u32, Option<u32>)>, Error> {
    let tournament::dutch::Pairing { boards: matches, bye } = round_matches(l, round)?;
    let boards = l.event.boards as usize;
    let roster = |t: u32| {
        l.teams
            .iter()
            .find(|x| x.number == t)
            .map_or(0, |x| x.members.len())
    };
    let lineup = |t: u32| {
        team::Lineup::new(t, lineup_rule(l), roster(t), boards, lineup_of(l, round, t))
            .map_err(|e| Error::Internal(format!("event {}: a stored line-up: {e}", l.event.id)))
    };
    let mut out = Vec::new();
    for (first, second) in matches {
        let pairs = if l.event.team_all_play_all {
            // 12.4: part s of the match, the whole roster against the
            // whole roster, no line-ups.
            team::all_play_all(boards)
                .get(team_round(l, round).1 as usize)
                .cloned()
                .unwrap_or_default()
        } else {
            team::pair_boards(&lineup(first)?, &lineup(second)?)
                .map_err(|e| Error::Internal(e.to_string()))?
        };
        for (a, b, colour) in pairs {
            let (a, b) = (member_number(l, first, a)?, member_number(l, second, b)?);
            out.push(if colour == Colour::White {
                (a, Some(b))
            } else {
                (b, Some(a))
            });
        }
    }
    if let Some(t) = bye.filter(|_| l.system == crate::System::TeamSwiss) {
        for &p in lineup(t)?.players() {
            out.push((member_number(l, t, p)?, None));
        }
    }
    Ok(out)
}

/// The number of rounds of a team round robin of `teams` teams whose
/// matches are `parts` parts (12.4: `boards`; else 1).
pub(crate) fn rounds_for(teams: usize, parts: u32) -> u32 {
    table(teams as u32).len() as u32 * parts
}

/// One match as paired: the round, the teams, and its boards' rows in
/// board order.
struct PairedMatch<'a> {
    round: u32,
    first: u32,
    second: u32,
    boards: Vec<&'a store::PairingRow>,
    /// The first team's colour on each board (`first_colours`).
    colours: Vec<Colour>,
}

/// The team an entry number plays for.
fn team_of(l: &Loaded, number: u32) -> Option<u32> {
    let user = &l.entry_number(number)?.user_id;
    l.teams
        .iter()
        .find(|t| t.members.contains(user))
        .map(|t| t.number)
}

/// Every paired round's matches, rebuilt from the stored boards: match m
/// of a round is on boards (m-1)·B+1 … m·B, its first-listed team the one
/// whose player has red on its first board (13.2/13.3); a team Swiss's
/// bye is the boards without an opponent, a round robin's team that sits
/// out the Berger table's.
fn paired_matches(l: &Loaded) -> Vec<(u32, Vec<PairedMatch<'_>>, Option<u32>)> {
    let tab = table(l.teams.len() as u32);
    let per = l.event.boards as usize;
    (1..=l.event.current_round)
        .map(|round| {
            let mut rows: Vec<&store::PairingRow> = l.pairings.iter().filter(|p| p.round == round).collect();
            rows.sort_by_key(|p| p.board);
            let mut matches = Vec::new();
            let mut sits_out = None;
            let colours = first_colours(l, round);
            for boards in rows.chunks(per) {
                let white = boards[0].white;
                match boards[0].black {
                    Some(b) => {
                        let (f, s) = if colours.first() == Some(&Colour::Black) {
                            (b, white)
                        } else {
                            (white, b)
                        };
                        matches.push(PairedMatch {
                            round,
                            first: team_of(l, f).unwrap_or(0),
                            second: team_of(l, s).unwrap_or(0),
                            boards: boards.to_vec(),
                            colours: colours.clone(),
                        });
                    }
                    None => sits_out = team_of(l, white),
                }
            }
            if l.system == crate::System::TeamRoundRobin {
                sits_out = tab
                    .get(team_round(l, round).0 as usize - 1)
                    .into_iter()
                    .flatten()
                    .find_map(|b| match *b {
                        Board::Bye { player } => Some(player),
                        Board::Game { .. } => None,
                    });
            }
            (round, matches, sits_out)
        })
        .collect()
}

/// The boards of team `team`'s match in `round`, if it plays one.
pub(crate) fn match_boards(l: &Loaded, round: u32, team: u32) -> Option<Vec<&store::PairingRow>> {
    paired_matches(l)
        .into_iter()
        .find(|(r, _, _)| *r == round)?
        .1
        .into_iter()
        .find(|m| m.first == team || m.second == team)
        .map(|m| m.boards)
}

/// 全队犯规: a team's players' fouls together (15.3–15.5).
fn team_fouls(l: &Loaded) -> BTreeMap<u32, u32> {
    let by_number = l.fouls_by_number();
    l.teams
        .iter()
        .map(|t| {
            let n = t
                .members
                .iter()
                .filter_map(|u| l.entry_of(u))
                .map(|e| by_number.get(&e.number).copied().unwrap_or(0))
                .sum();
            (t.number, n)
        })
        .collect()
}

/// 18.4 applied to a team (把受到18.1和18.2款处分的人(队)…排列在最后):
/// its players' penalties together, substitutes' included.
fn team_penalties(l: &Loaded) -> BTreeMap<u32, Penalty> {
    let by_number = l.penalties_by_number();
    l.teams
        .iter()
        .map(|t| {
            let mut sum = Penalty::default();
            for e in t.members.iter().filter_map(|u| l.entry_of(u)) {
                let p = by_number.get(&e.number).copied().unwrap_or_default();
                sum.warnings += p.warnings;
                sum.disqualifications += p.disqualifications;
            }
            (t.number, sum)
        })
        .collect()
}

/// Each board's (first team, second team) outcome; `None` while a board
/// has no result.
fn outcomes(
    m: &PairedMatch<'_>,
    per: usize,
) -> Option<Vec<(tournament::model::Outcome, tournament::model::Outcome)>> {
    if m.boards.len() != per {
        return None;
    }
    m.boards
        .iter()
        .zip(m.colours.iter().copied())
        .map(|(p, c)| {
            let r = crate::BoardResult::parse(p.result.as_deref()?)?;
            let (w, b) = r.outcomes();
            Some(if c == Colour::White { (w, b) } else { (b, w) })
        })
        .collect()
}

/// The board points of one side so far (results in, games going on).
fn board_points(m: &PairedMatch<'_>) -> (Points, Points) {
    let pts = tournament::model::PointSystem::default();
    let mut a = Points::ZERO;
    let mut b = Points::ZERO;
    for (p, &c) in m.boards.iter().zip(&m.colours) {
        let Some(r) = p.result.as_deref().and_then(crate::BoardResult::parse) else {
            continue;
        };
        let (w, bl) = r.outcomes();
        let (x, y) = if c == Colour::White { (w, bl) } else { (bl, w) };
        a += pts.points(x);
        b += pts.points(y);
    }
    (a, b)
}

/// The finished matches, as the tournament crate scores them — a match
/// whose every board one team forfeited is that team's forfeit of the
/// match (21.4), which a Swiss counts unplayed — and a team Swiss's byes.
///
/// An all-play-all match (12.4) is finished when its last part is: its
/// parts' boards together are the match, under the table's round.
fn finished(l: &Loaded) -> (Vec<TeamMatch>, Vec<team::TeamBye>) {
    use tournament::model::Outcome;
    type Part = Option<Vec<(Outcome, Outcome)>>;
    let per = l.event.boards as usize;
    let mut matches = Vec::new();
    let mut byes = Vec::new();
    // (team round, first, second) → each part's outcomes, in order.
    let mut whole: Vec<((u32, u32, u32), Vec<Part>)> = Vec::new();
    for (round, ms, sits_out) in paired_matches(l) {
        if l.system == crate::System::TeamSwiss {
            byes.extend(sits_out.map(|team| team::TeamBye { round, team }));
        }
        let tr = team_round(l, round).0;
        for m in ms {
            let key = (tr, m.first, m.second);
            let o = outcomes(&m, per);
            match whole.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => v.push(o),
                None => whole.push((key, vec![o])),
            }
        }
    }
    for ((round, first, second), ps) in whole {
        if ps.len() != parts(l) as usize {
            continue;
        }
        let Some(o) = ps.into_iter().collect::<Option<Vec<_>>>().map(|v| v.concat()) else {
            continue;
        };
        let result = if o
            .iter()
            .all(|&x| x == (Outcome::ForfeitWin, Outcome::ForfeitLoss))
        {
            MatchResult::Forfeit { absent: second }
        } else if o
            .iter()
            .all(|&x| x == (Outcome::ForfeitLoss, Outcome::ForfeitWin))
        {
            MatchResult::Forfeit { absent: first }
        } else {
            MatchResult::Pairs(o)
        };
        matches.push(TeamMatch {
            round,
            first,
            second,
            result,
        });
    }
    (matches, byes)
}

/// The tie-breaks after match points: 15.3 for a round robin, 15.4 for a
/// Swiss.
fn tiebreaks(l: &Loaded) -> &'static [TeamTiebreak] {
    if l.system == crate::System::TeamSwiss {
        &TeamTiebreak::SWISS
    } else {
        &TeamTiebreak::ROUND_ROBIN
    }
}

fn tiebreak_name(t: TeamTiebreak) -> &'static str {
    match t {
        TeamTiebreak::BoardPoints => "BP",
        TeamTiebreak::BoardWins => "WINS",
        TeamTiebreak::DirectEncounter => "DE",
        TeamTiebreak::OpponentMatchPoints => "OMP",
        TeamTiebreak::MatchesWon => "MW",
        TeamTiebreak::Fouls => "FOUL",
    }
}

/// The teams' view of a loaded event.
pub(crate) fn view(l: &Loaded, captains: &BTreeMap<String, String>) -> Result<TeamsView, Error> {
    let per = l.event.boards as usize;
    let name_of = |t: u32| {
        l.teams
            .iter()
            .find(|x| x.number == t)
            .map_or_else(String::new, |x| x.name.clone())
    };
    let player = |n: u32| BoardPlayer {
        number: n,
        name: l.entry_number(n).map_or_else(String::new, |e| e.name.clone()),
    };
    let seeds = (l.system == crate::System::TeamSwiss).then(|| seeds(l));
    let gone = withdrawn_by(l, u32::MAX);
    let teams = l
        .teams
        .iter()
        .map(|t| TeamView {
            number: t.number,
            name: t.name.clone(),
            captain: captains.get(&t.captain_id).cloned().unwrap_or_default(),
            seed: seeds
                .as_ref()
                .and_then(|s| s.iter().position(|&x| x == t.number))
                .map(|i| i as u32 + 1),
            withdrawn: gone.contains(&t.number),
            roster: t
                .members
                .iter()
                .enumerate()
                .filter_map(|(i, u)| {
                    let e = l.entry_of(u)?;
                    Some(RosterView {
                        position: i as u32 + 1,
                        number: e.number,
                        name: e.name.clone(),
                        rating: e.rating,
                        substitute: i >= per,
                    })
                })
                .collect(),
        })
        .collect();
    let paired = paired_matches(l);
    // An all-play-all match so far (12.4): its parts up to `round`; the
    // board points together, the match points once every part is over.
    let so_far = |m: &PairedMatch<'_>| {
        let tr = team_round(l, m.round).0;
        let mut a = Points::ZERO;
        let mut b = Points::ZERO;
        let mut done = 0;
        for (_, ms, _) in paired
            .iter()
            .filter(|(r, _, _)| *r <= m.round && team_round(l, *r).0 == tr)
        {
            for p in ms.iter().filter(|p| (p.first, p.second) == (m.first, m.second)) {
                let (x, y) = board_points(p);
                a += x;
                b += y;
                done += u32::from(outcomes(p, per).is_some());
            }
        }
        (a, b, done == parts(l))
    };
    let rounds = paired
        .iter()
        .map(|(round, ms, sits_out)| TeamRoundView {
            round: *round,
            team_round: team_round(l, *round).0,
            part: l.event.team_all_play_all.then(|| team_round(l, *round).1 + 1),
            sits_out: *sits_out,
            matches: ms
                .iter()
                .map(|m| {
                    let (a, b, whole) = so_far(m);
                    let mp = whole.then(|| team::match_points(a, b));
                    TeamMatchView {
                        first: m.first,
                        second: m.second,
                        first_name: name_of(m.first),
                        second_name: name_of(m.second),
                        boards: m
                            .boards
                            .iter()
                            .zip(&m.colours)
                            .enumerate()
                            .map(|(i, (p, &c))| {
                                let black = p.black.unwrap_or(0);
                                let (f, s) = if c == Colour::White {
                                    (p.white, black)
                                } else {
                                    (black, p.white)
                                };
                                TeamBoardView {
                                    board: i as u32 + 1,
                                    event_board: p.board,
                                    first_player: player(f),
                                    second_player: player(s),
                                    first_team_side: if c == Colour::White { "first" } else { "second" }
                                        .into(),
                                    game: p.game_id.clone(),
                                    result: p.result.clone(),
                                }
                            })
                            .collect(),
                        first_board_points: a.to_string(),
                        second_board_points: b.to_string(),
                        first_match_points: mp.map(|x| x.0),
                        second_match_points: mp.map(|x| x.1),
                    }
                })
                .collect(),
        })
        .collect();
    Ok(TeamsView {
        boards: l.event.boards,
        substitutes: l.event.substitutes,
        lineups: if l.event.lineups_any_order {
            "any-order"
        } else {
            "roster-order"
        }
        .into(),
        team_match: if l.event.team_all_play_all {
            "all-play-all"
        } else {
            "boards"
        }
        .into(),
        ranking: if l.event.team_ranking_places {
            "places"
        } else {
            "match-points"
        }
        .into(),
        teams,
        rounds,
        tiebreaks: if l.event.team_ranking_places {
            vec!["PLACES".to_string(), "FOUL".to_string()]
        } else {
            tiebreaks(l)
                .iter()
                .map(|&t| tiebreak_name(t).to_string())
                .collect()
        },
        standings: standings(l)?,
        fouls: l.foul_views(),
    })
}

/// 20.3 in a team round robin (凡已赛对手不足半数者，则所有已赛结果一概
/// 注销): the withdrawn teams that played fewer than half of their
/// matches, their matches taken out of `matches`
/// (`tournament::team::withdraw_from_round_robin`). A team Swiss annuls
/// nothing (20.4).
fn annul_withdrawn(l: &Loaded, matches: &mut Vec<TeamMatch>) -> Vec<u32> {
    if l.system != crate::System::TeamRoundRobin {
        return Vec::new();
    }
    let scheduled = l.teams.len().saturating_sub(1);
    withdrawn_by(l, u32::MAX)
        .into_iter()
        .filter(|&t| team::withdraw_from_round_robin(matches, t, scheduled))
        .collect()
}

/// 20.3 in a team round robin's players' standings, as in its team
/// standings: the players of a team whose results are annulled have
/// theirs struck out, and their opponents' games against them too
/// (`tournament::tiebreak::scoring::annul`). Where the team's results
/// stand, its players' forfeits stand too (其余未赛对局均作弃权对方获胜),
/// as they were stored.
pub(crate) fn annul_withdrawn_players(t: &mut tournament::model::Tournament, l: &Loaded) {
    // Only a team round robin annuls; any other event has no matches to
    // read (and no team withdrawn), so nothing is read.
    if l.system != crate::System::TeamRoundRobin || withdrawn_by(l, u32::MAX).is_empty() {
        return;
    }
    let (mut matches, _) = finished(l);
    for team in annul_withdrawn(l, &mut matches) {
        let Some(team) = l.teams.iter().find(|x| x.number == team) else {
            continue;
        };
        for e in team.members.iter().filter_map(|u| l.entry_of(u)) {
            let _ = tournament::tiebreak::scoring::annul(t, e.number);
        }
    }
}

/// The team standings (15.3 / 15.4) from the finished matches and byes;
/// a round robin's team withdrawn before half its matches has them
/// annulled and is listed last (20.3); ranked by the players' places
/// instead with `team_ranking: "places"` (15.5).
pub(crate) fn standings(l: &Loaded) -> Result<Vec<TeamStandingRow>, Error> {
    let size = match_size(l);
    let (mut matches, byes) = finished(l);
    let fouls = team_fouls(l);
    let penalties = team_penalties(l);
    let gone = withdrawn_by(l, u32::MAX);
    let annulled = annul_withdrawn(l, &mut matches);
    let numbers: Vec<u32> = l
        .teams
        .iter()
        .map(|t| t.number)
        .filter(|t| !annulled.contains(t))
        .collect();
    let rows = team::team_standings(&numbers, &matches, &byes, size, tiebreaks(l), &fouls, &penalties)
        .map_err(|e| Error::Internal(format!("event {}: {e}", l.event.id)))?;
    let mut wins: BTreeMap<u32, u32> = BTreeMap::new();
    let mut won: BTreeMap<u32, u32> = BTreeMap::new();
    let mut played: BTreeMap<u32, u32> = BTreeMap::new();
    for m in &matches {
        let (a, b) = m
            .score(size)
            .map_err(|e| Error::Internal(format!("event {}: {e}", l.event.id)))?;
        for (t, s) in [(m.first, a), (m.second, b)] {
            *wins.entry(t).or_default() += s.board_wins;
            *won.entry(t).or_default() += u32::from(s.match_points == 2);
            *played.entry(t).or_default() += 1;
        }
    }
    for b in &byes {
        *won.entry(b.team).or_default() += 1;
    }
    let name = |team: u32| {
        l.teams
            .iter()
            .find(|t| t.number == team)
            .map_or_else(String::new, |t| t.name.clone())
    };
    let mut out: Vec<TeamStandingRow> = rows
        .into_iter()
        .map(|r| TeamStandingRow {
            rank: r.rank,
            shared: r.shared,
            team: r.team,
            name: name(r.team),
            match_points: r.match_points,
            board_points: r.board_points.to_string(),
            board_wins: wins.get(&r.team).copied().unwrap_or(0),
            matches_won: won.get(&r.team).copied().unwrap_or(0),
            opponent_match_points: r.opponent_match_points,
            played: played.get(&r.team).copied().unwrap_or(0),
            fouls: fouls.get(&r.team).copied().unwrap_or(0),
            warnings: penalties.get(&r.team).map_or(0, |p| p.warnings),
            disqualifications: penalties.get(&r.team).map_or(0, |p| p.disqualifications),
            place_sum: None,
            places: Vec::new(),
            withdrawn: gone.contains(&r.team),
            annulled: false,
        })
        .collect();
    if l.event.team_ranking_places {
        out = by_places(l, out)?;
    }
    // 20.3: annulled, after everyone else.
    let last = out.len() as u32 + 1;
    for &t in &annulled {
        out.push(TeamStandingRow {
            rank: last,
            shared: annulled.len() > 1,
            team: t,
            name: name(t),
            match_points: 0,
            board_points: Points::ZERO.to_string(),
            board_wins: 0,
            matches_won: 0,
            opponent_match_points: 0,
            played: 0,
            fouls: fouls.get(&t).copied().unwrap_or(0),
            warnings: penalties.get(&t).map_or(0, |p| p.warnings),
            disqualifications: penalties.get(&t).map_or(0, |p| p.disqualifications),
            place_sum: None,
            places: Vec::new(),
            withdrawn: true,
            annulled: true,
        });
    }
    Ok(out)
}

/// 15.5 队员总分制: the rows again in the order of the sum of each team's
/// players' individual places (the players' standings, a shared place
/// counting as that place), fewer first; then the best place, the next
/// best …, then 全队犯规 (`tournament::team::team_total_ranking`); among
/// equal sums the penalised teams last (18.4). A
/// team counts its `boards` best places: its substitutes may have played
/// in its regular players' stead, and each team counts as many.
fn by_places(l: &Loaded, rows: Vec<TeamStandingRow>) -> Result<Vec<TeamStandingRow>, Error> {
    let individual = crate::view::player_standings(l)?;
    let place_of: BTreeMap<u32, u32> = individual.rows.iter().map(|r| (r.id, r.rank)).collect();
    let unplaced = individual.rows.len() as u32 + 1;
    let per = l.event.boards as usize;
    let places: Vec<Vec<u32>> = rows
        .iter()
        .map(|r| {
            let mut p: Vec<u32> = l
                .teams
                .iter()
                .find(|t| t.number == r.team)
                .map(|t| {
                    t.members
                        .iter()
                        .filter_map(|u| l.entry_of(u))
                        .map(|e| place_of.get(&e.number).copied().unwrap_or(unplaced))
                        .collect()
                })
                .unwrap_or_default();
            p.sort_unstable();
            p.truncate(per);
            p
        })
        .collect();
    let fouls: Vec<u32> = rows.iter().map(|r| r.fouls).collect();
    let penalties: Vec<Penalty> = rows
        .iter()
        .map(|r| Penalty {
            disqualifications: r.disqualifications,
            warnings: r.warnings,
        })
        .collect();
    Ok(team::team_total_ranking(&places, &fouls, &penalties)
        .into_iter()
        .map(|(i, rank, shared)| TeamStandingRow {
            rank,
            shared,
            place_sum: Some(places[i].iter().sum()),
            places: places[i].clone(),
            ..rows[i].clone()
        })
        .collect())
}

impl Events {
    /// `by` registers a team as its captain, with its roster in board
    /// order (12.1–12.2); every player is entered. The captain need not
    /// play. Before round 1 only.
    ///
    /// # Errors
    /// A guest captain or player; not a team event; a wrong invitation
    /// code; the event started;
    /// the captain has a team here already; a bad name; too few or too
    /// many players; a player named twice or entered already; a rating
    /// outside the event's range; the event full.
    pub async fn register_team(
        &self,
        id: &str,
        by: &User,
        name: &str,
        code: Option<&str>,
        players: &[User],
    ) -> Result<TeamView, Error> {
        if let Some(done) = self
            .forwarded(id, || crate::remote::Call::RegisterTeam {
                id: id.into(),
                by: by.clone(),
                name: name.into(),
                code: code.map(Into::into),
                players: players.to_vec(),
            })
            .await?
        {
            return Ok(done);
        }
        if by.guest {
            return Err(Error::Forbidden(
                "guests cannot captain teams: register an account".into(),
            ));
        }
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_TEAM_NAME_CHARS || name.chars().any(char::is_control)
        {
            return Err(Error::bad(
                "bad_team_name",
                format!("a team's name has 1 to {MAX_TEAM_NAME_CHARS} characters, none of them control characters"),
            ));
        }
        let _one = self.lock(id).await;
        let l = self.load(id).await?;
        not_team_event(&l)?;
        if l.event.state != "open" {
            return Err(Error::conflict(
                "event_started",
                "the event has started: teams register before round 1 is paired",
            ));
        }
        if let Some(want) = &l.event.invitation {
            if code.map(str::trim) != Some(want.as_str()) {
                return Err(Error::Forbidden("this event needs its invitation code".into()));
            }
        }
        let boards = l.event.boards as usize;
        let most = boards + l.event.substitutes as usize;
        if players.len() < boards || players.len() > most {
            return Err(Error::bad(
                "bad_roster",
                format!(
                    "a roster names {boards} players for the boards and at most {} substitutes: {} named",
                    l.event.substitutes,
                    players.len()
                ),
            ));
        }
        if l.teams.iter().any(|t| t.captain_id == by.id) {
            return Err(Error::conflict(
                "already_captain",
                format!("{} captains a team in this event already", by.name),
            ));
        }
        if l.teams.iter().any(|t| t.name == name) {
            return Err(Error::conflict(
                "team_name_taken",
                format!("a team called {name} is registered already"),
            ));
        }
        if l.teams.len() >= crate::spec::MAX_TEAMS {
            return Err(Error::conflict(
                "event_full",
                format!("the event is full ({} teams)", crate::spec::MAX_TEAMS),
            ));
        }
        let mut entries = Vec::with_capacity(players.len());
        for (i, p) in players.iter().enumerate() {
            if p.guest {
                return Err(Error::bad(
                    "bad_roster",
                    format!("{} is a guest: guests cannot play in events", p.name),
                ));
            }
            if players[..i].iter().any(|q| q.id == p.id) {
                return Err(Error::bad("bad_roster", format!("{} is named twice", p.name)));
            }
            if l.entry_of(&p.id).is_some() {
                return Err(Error::conflict(
                    "already_entered",
                    format!("{} plays for another team in this event", p.name),
                ));
            }
            entries.push(self.entry_for(&l.event, p, false, 1).await?);
        }
        let number = self
            .store()
            .add_team(id, name, &by.id, common::now_ms(), &entries)
            .await?;
        let roster: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        self.log(
            id,
            Some(by),
            "team",
            &format!("team {number} {name} registered: {}", roster.join(", ")),
        )
        .await?;
        let l = self.load(id).await?;
        let captains = BTreeMap::from([(by.id.clone(), by.name.clone())]);
        view(&l, &captains)?
            .teams
            .into_iter()
            .find(|t| t.number == number)
            .ok_or_else(|| Error::Internal(format!("team {number} vanished")))
    }

    /// The captain `by` hands in the line-up of their team for `round`
    /// (12.3), replacing one handed in before; the players in roster
    /// order (12.2). The deadline is the round's pairing: its scheduled
    /// start, or the arbiter's button before it.
    ///
    /// # Errors
    /// Not a team event; `by` captains no team in it; the round paired
    /// already, past its start or beyond the last; a player not on the
    /// roster, named twice, out of roster order, or the wrong count.
    pub async fn submit_lineup(
        &self,
        id: &str,
        by: &User,
        round: u32,
        players: &[String],
    ) -> Result<LineupView, Error> {
        if let Some(done) = self
            .forwarded(id, || crate::remote::Call::Lineup {
                id: id.into(),
                by: by.clone(),
                round,
                players: players.to_vec(),
            })
            .await?
        {
            return Ok(done);
        }
        let _one = self.lock(id).await;
        let l = self.load(id).await?;
        not_team_event(&l)?;
        let t = l
            .teams
            .iter()
            .find(|t| t.captain_id == by.id)
            .ok_or_else(|| Error::Forbidden(format!("{} captains no team in this event", by.name)))?;
        if l.event.state == "finished" {
            return Err(Error::conflict("event_finished", "the event is over"));
        }
        if l.event.team_all_play_all {
            return Err(Error::conflict(
                "no_lineups",
                "the event's matches are all-play-all (12.4): every player of the team meets every player of the other, so there is no line-up",
            ));
        }
        let last = if l.event.rounds > 0 {
            l.event.rounds
        } else {
            rounds_for(l.teams.len(), parts(&l)).max(1)
        };
        if round == 0 || round > last {
            return Err(Error::bad(
                "bad_round",
                format!("the event has rounds 1 to {last}"),
            ));
        }
        let starts: Vec<i64> = serde_json::from_str(&l.event.starts).unwrap_or_default();
        let now = common::now_ms();
        if round <= l.event.current_round || starts.get(round as usize - 1).is_some_and(|&s| s <= now) {
            return Err(Error::conflict(
                "lineup_deadline",
                format!("round {round} is paired or due: a line-up is handed in before its round is paired (12.3)"),
            ));
        }
        let mut positions = Vec::with_capacity(players.len());
        for name in players {
            let p = t
                .members
                .iter()
                .position(|u| {
                    l.entry_of(u)
                        .is_some_and(|e| e.name.eq_ignore_ascii_case(name.trim()))
                })
                .ok_or_else(|| Error::bad("bad_lineup", format!("{name} is not on {}'s roster", t.name)))?;
            positions.push(p + 1);
        }
        team::Lineup::new(
            t.number,
            lineup_rule(&l),
            t.members.len(),
            l.event.boards as usize,
            positions.clone(),
        )
        .map_err(|e| Error::bad("bad_lineup", e.to_string()))?;
        let row = LineupRow {
            round,
            team: t.number,
            positions: positions.iter().map(|&p| p as u32).collect(),
            submitted_ms: now,
        };
        self.store().set_lineup(id, &row).await?;
        self.log(
            id,
            Some(by),
            "lineup",
            &format!("{} handed in its line-up for round {round}", t.name),
        )
        .await?;
        Ok(LineupView {
            round,
            team: t.number,
            players: players.iter().map(|p| p.trim().to_string()).collect(),
            submitted_ms: now,
        })
    }

    /// The teams, matches and team standings of a team event.
    ///
    /// # Errors
    /// No such event, or not a team event.
    pub async fn teams(&self, id: &str) -> Result<TeamsView, Error> {
        let l = self.load(id).await?;
        not_team_event(&l)?;
        let mut captains = BTreeMap::new();
        for t in &l.teams {
            if let Some(u) = self.store().user_by_id(&t.captain_id).await? {
                captains.insert(u.id, u.name);
            }
        }
        view(&l, &captains)
    }
}
