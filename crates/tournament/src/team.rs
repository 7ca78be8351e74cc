//! Team events (团体赛, CXA 12.x–15.x): board order and line-ups, colours,
//! match points from board points, and team standings.
//!
//! - 12.1–12.2 分台定人制: boards fixed by rating (unrated after rated);
//!   substitutes may play but the order may never be inverted — with 4
//!   boards and 2 substitutes exactly the 15 line-ups 1-2-3-4 … 3-4-5-6.
//! - 12.3 临时定台制: each team fixes its line-up before each match.
//! - 12.4 全队轮赛制: between two teams every player meets every player.
//! - 12.5 / 15.5 队员总分制: teams ranked by their players' individual places.
//! - 13.2/13.3: odd boards red for the first-listed team, even boards black.
//! - 14.2: match points 2/1/0 from the board points; 21.4: a team's `+`
//!   (a match won by forfeit) is worth 2.
//! - 11 / 13.3 积分编排制 for teams: the Dutch system (`dutch`) pairs the
//!   teams on their match points ([`swiss_model`], [`pair_team_round`]);
//!   the team due to move first has red on the odd boards. The initial
//!   ranking is the rosters' strength ([`initial_ranking`]).
//! - 18.4 applied to a team (人(队)): a team whose players were warned
//!   (18.1) or disqualified from a game (18.2) is placed last among the
//!   teams equal on match points (or on the sum of places, 15.5), by the
//!   weight and the number of its players' penalties together.
//! - 20.3–20.4 applied to a team: a team that withdraws from a round
//!   robin with fewer than half its matches played has them all annulled
//!   ([`withdraw_from_round_robin`]); a Swiss pairs it no more.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::model::{Colour, Outcome, Player, PointSystem, Points, RoundEntry, Tournament};
use crate::tiebreak::standings::Penalty;

/// A team's number in the event.
pub type TeamId = u32;

/// A line-up or match the rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TeamError {
    #[error("team {team}: the line-up has {got} players for {boards} boards")]
    LineupLength { team: TeamId, boards: usize, got: usize },
    #[error("team {team}: player {player} is not on the roster")]
    NotOnRoster { team: TeamId, player: usize },
    #[error("team {team}: board {board} inverts the roster order (12.2: 台次顺序不能前后颠倒)")]
    OutOfOrder { team: TeamId, board: usize },
    #[error("team {team}: player {player} is named twice")]
    Duplicate { team: TeamId, player: usize },
    #[error("round {round}: team {team} is not in the event")]
    UnknownTeam { team: TeamId, round: u32 },
    #[error("round {round}: teams {first} v {second} report {got} boards, the event plays {boards}")]
    BoardCount {
        round: u32,
        first: TeamId,
        second: TeamId,
        boards: usize,
        got: usize,
    },
    #[error("round {round}: board {board} of {first} v {second} has {outcome:?}, not a game result")]
    NotAGameResult {
        round: u32,
        first: TeamId,
        second: TeamId,
        board: usize,
        outcome: Outcome,
    },
    #[error("{boards} boards need at least {boards} players, the roster has {roster}")]
    RosterTooShort { boards: usize, roster: usize },
    /// The Dutch system found no pairing of the teams left.
    #[error("{0}")]
    NoPairing(String),
}

/// Board order (12.1): by rating, highest first; players without a rating
/// (`None`) after those with one; equal ratings keep the entry order.
/// Returns indices into `ratings`.
pub fn board_order(ratings: &[Option<u32>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by_key(|&i| (ratings[i].is_none(), std::cmp::Reverse(ratings[i].unwrap_or(0))));
    order
}

/// Every line-up 12.2 permits from a roster of `roster` players in board
/// order (regular players then substitutes) for `boards` boards: any
/// `boards` of them in roster order, as roster positions 1-based.
pub fn permitted_lineups(roster: usize, boards: usize) -> Result<Vec<Vec<usize>>, TeamError> {
    if roster < boards {
        return Err(TeamError::RosterTooShort { boards, roster });
    }
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (1..=boards).collect();
    loop {
        out.push(pick.clone());
        // Next combination in lexicographic order.
        let Some(i) = (0..boards).rev().find(|&i| pick[i] < roster - (boards - 1 - i)) else {
            return Ok(out);
        };
        pick[i] += 1;
        for j in i + 1..boards {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// Check a line-up against 12.2: `boards` players of the roster (1-based
/// roster positions), board 1 first, never inverting the roster order.
pub fn check_lineup(team: TeamId, roster: usize, boards: usize, lineup: &[usize]) -> Result<(), TeamError> {
    if lineup.len() != boards {
        return Err(TeamError::LineupLength {
            team,
            boards,
            got: lineup.len(),
        });
    }
    for (b, &p) in lineup.iter().enumerate() {
        if p == 0 || p > roster {
            return Err(TeamError::NotOnRoster { team, player: p });
        }
        if lineup[..b].contains(&p) {
            return Err(TeamError::Duplicate { team, player: p });
        }
        if b > 0 && lineup[b - 1] > p {
            return Err(TeamError::OutOfOrder { team, board: b + 1 });
        }
    }
    Ok(())
}

/// How a team's boards are filled for a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineupRule {
    /// 12.1–12.2: fixed order by rating, substitutes keep the order.
    FixedOrder,
    /// 12.3: each team fixes a line-up (any order) before each match.
    PerMatch,
}

/// A line-up handed in for one match: once built it cannot change (12.3:
/// 每场比赛开始前临时排定).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineup {
    team: TeamId,
    players: Vec<usize>,
}

impl Lineup {
    /// Validate and freeze a line-up under `rule`.
    pub fn new(
        team: TeamId,
        rule: LineupRule,
        roster: usize,
        boards: usize,
        players: Vec<usize>,
    ) -> Result<Lineup, TeamError> {
        match rule {
            LineupRule::FixedOrder => check_lineup(team, roster, boards, &players)?,
            LineupRule::PerMatch => {
                if players.len() != boards {
                    return Err(TeamError::LineupLength {
                        team,
                        boards,
                        got: players.len(),
                    });
                }
                for (b, &p) in players.iter().enumerate() {
                    if p == 0 || p > roster {
                        return Err(TeamError::NotOnRoster { team, player: p });
                    }
                    if players[..b].contains(&p) {
                        return Err(TeamError::Duplicate { team, player: p });
                    }
                }
            }
        }
        Ok(Lineup { team, players })
    }

    pub fn team(&self) -> TeamId {
        self.team
    }

    /// Roster positions, board 1 first.
    pub fn players(&self) -> &[usize] {
        &self.players
    }
}

/// Colours of the first-listed team, board 1 first (13.2 round robin: the
/// team listed first in the table; 13.3 Swiss: the team due to move first;
/// 13.4 knockout: the team that won the lot): odd boards red, even boards
/// black (单数台执红棋, 双数台执黑棋). The other team has the opposite.
pub fn board_colours(boards: usize) -> Vec<Colour> {
    (1..=boards)
        .map(|b| if b % 2 == 1 { Colour::White } else { Colour::Black })
        .collect()
}

/// Colours of the first-listed team in game `game` (1-based) of a match
/// of several games: 13.5 swaps the colours in the second game (两局制,
/// 第二局互换先后走), and they keep alternating.
pub fn board_colours_in_game(boards: usize, game: u32) -> Vec<Colour> {
    let first = board_colours(boards);
    if game % 2 == 1 {
        first
    } else {
        first.into_iter().map(Colour::opposite).collect()
    }
}

/// The boards of a match from the two line-ups handed in before it (12.3):
/// board i pairs the i-th player of each, the first-listed team red on the
/// odd boards (13.2/13.3). Returns (first-team player, second-team player,
/// first-team player's colour), roster positions.
pub fn pair_boards(first: &Lineup, second: &Lineup) -> Result<Vec<(usize, usize, Colour)>, TeamError> {
    if first.players.len() != second.players.len() {
        return Err(TeamError::LineupLength {
            team: second.team,
            boards: first.players.len(),
            got: second.players.len(),
        });
    }
    Ok(first
        .players
        .iter()
        .zip(&second.players)
        .zip(board_colours(first.players.len()))
        .map(|((&a, &b), c)| (a, b, c))
        .collect())
}

/// 12.4 全队轮赛制: every player of a team of `size` meets every player of
/// the other. Round r (0-based) pairs player i of the first team with
/// player (i + r) mod size of the second; the first team has red on the
/// odd boards of round 1 and colours alternate by round, so each player's
/// colours alternate. Returns per round (first-team player, second-team
/// player, first-team player's colour), players 1-based.
pub fn all_play_all(size: usize) -> Vec<Vec<(usize, usize, Colour)>> {
    (0..size)
        .map(|r| {
            (0..size)
                .map(|i| {
                    let red = (i + r) % 2 == 0;
                    let c = if red { Colour::White } else { Colour::Black };
                    (i + 1, (i + r) % size + 1, c)
                })
                .collect()
        })
        .collect()
}

/// One match between two teams: the first team's outcome on each board
/// (played or `+`/`-`), or a forfeit of a whole team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamMatch {
    pub round: u32,
    pub first: TeamId,
    pub second: TeamId,
    pub result: MatchResult,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchResult {
    /// The first team's outcome on each board, board 1 first.
    Boards(Vec<Outcome>),
    /// The whole match forfeited by the named team (21.4: `+` is worth 2
    /// match points to the other team; every board counts as a forfeit).
    Forfeit { absent: TeamId },
    /// Each board's outcome for (first team, second team), board 1 first:
    /// what a board can hold that one side's outcome cannot say — both
    /// players forfeit (21.3, `--`), neither team scoring the board.
    Pairs(Vec<(Outcome, Outcome)>),
}

/// Match points (14.2 场分): 2 for more board points, 1 each for equal,
/// 0 for fewer.
pub fn match_points(first: Points, second: Points) -> (u32, u32) {
    match first.cmp(&second) {
        std::cmp::Ordering::Greater => (2, 0),
        std::cmp::Ordering::Equal => (1, 1),
        std::cmp::Ordering::Less => (0, 2),
    }
}

/// What a match gave each side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MatchScore {
    pub board_points: Points,
    pub match_points: u32,
    pub board_wins: u32,
}

/// A team's pairing-allocated bye in a team Swiss (an odd number of
/// teams). Seed 000 says a team's `+` is worth 2 (21.4) and C.04.1 1.3
/// gives the bye a win's points: the bye is a match won by forfeit —
/// 2 match points, every board a forfeit win, none won over the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamBye {
    pub round: u32,
    pub team: TeamId,
}

impl TeamBye {
    pub fn score(&self, boards: usize) -> MatchScore {
        MatchScore {
            board_points: Points(PointSystem::default().forfeit_win.0 * boards as i32),
            match_points: 2,
            board_wins: 0,
        }
    }
}

impl TeamMatch {
    /// Whether the whole match was forfeited (21.4, a team's `+`): the
    /// Swiss counts it unplayed, so the teams may still meet (C.04.1).
    pub fn is_forfeit(&self) -> bool {
        matches!(self.result, MatchResult::Forfeit { .. })
    }

    /// Board points (14.1: 1/½/0 a board, a forfeit `+` worth a win, 21.4),
    /// match points and board wins of (first, second).
    pub fn score(&self, boards: usize) -> Result<(MatchScore, MatchScore), TeamError> {
        let pts = PointSystem::default();
        match &self.result {
            MatchResult::Forfeit { absent } => {
                let won = MatchScore {
                    board_points: Points(pts.forfeit_win.0 * boards as i32),
                    match_points: 2,
                    board_wins: 0,
                };
                let lost = MatchScore::default();
                if *absent == self.first {
                    Ok((lost, won))
                } else if *absent == self.second {
                    Ok((won, lost))
                } else {
                    Err(TeamError::UnknownTeam {
                        team: *absent,
                        round: self.round,
                    })
                }
            }
            MatchResult::Boards(outcomes) => {
                let mut pairs = Vec::with_capacity(outcomes.len());
                for (i, &o) in outcomes.iter().enumerate() {
                    let m = o.mirrored().ok_or(TeamError::NotAGameResult {
                        round: self.round,
                        first: self.first,
                        second: self.second,
                        board: i + 1,
                        outcome: o,
                    })?;
                    pairs.push((o, m));
                }
                TeamMatch {
                    result: MatchResult::Pairs(pairs),
                    ..self.clone()
                }
                .score(boards)
            }
            MatchResult::Pairs(outcomes) => {
                if outcomes.len() != boards {
                    return Err(TeamError::BoardCount {
                        round: self.round,
                        first: self.first,
                        second: self.second,
                        boards,
                        got: outcomes.len(),
                    });
                }
                let mut a = MatchScore::default();
                let mut b = MatchScore::default();
                for (i, &(o, m)) in outcomes.iter().enumerate() {
                    for x in [o, m] {
                        if x.mirrored().is_none() {
                            return Err(TeamError::NotAGameResult {
                                round: self.round,
                                first: self.first,
                                second: self.second,
                                board: i + 1,
                                outcome: x,
                            });
                        }
                    }
                    a.board_points += pts.points(o);
                    b.board_points += pts.points(m);
                    a.board_wins += u32::from(matches!(o, Outcome::Win | Outcome::UnratedWin));
                    b.board_wins += u32::from(matches!(m, Outcome::Win | Outcome::UnratedWin));
                }
                (a.match_points, b.match_points) = match_points(a.board_points, b.board_points);
                Ok((a, b))
            }
        }
    }
}

/// A team tie-break of CXA 15.3 / 15.4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamTiebreak {
    /// 全队总局分: board points.
    BoardPoints,
    /// 全队胜局: boards won over the board.
    BoardWins,
    /// 直胜: match points among the tied teams, when all of them have met.
    DirectEncounter,
    /// 团体对手分: the match points of the opponents met.
    OpponentMatchPoints,
    /// 全队胜场: matches won.
    MatchesWon,
    /// 全队犯规: fewer fouls rank higher.
    Fouls,
}

impl TeamTiebreak {
    /// 15.3, team round robin: 总局分, 胜局, 直胜, 犯规.
    pub const ROUND_ROBIN: [TeamTiebreak; 4] = [
        TeamTiebreak::BoardPoints,
        TeamTiebreak::BoardWins,
        TeamTiebreak::DirectEncounter,
        TeamTiebreak::Fouls,
    ];
    /// 15.4, team Swiss: 团体对手分, 总局分, 胜场, 犯规.
    pub const SWISS: [TeamTiebreak; 4] = [
        TeamTiebreak::OpponentMatchPoints,
        TeamTiebreak::BoardPoints,
        TeamTiebreak::MatchesWon,
        TeamTiebreak::Fouls,
    ];
}

/// One line of team standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRow {
    pub rank: u32,
    pub shared: bool,
    pub team: TeamId,
    pub match_points: u32,
    pub board_points: Points,
    /// 团体对手分: the match points of the opponents met (15.4).
    pub opponent_match_points: u32,
}

/// Team standings (15.3 / 15.4): match points; among equal match points
/// the penalised teams last (18.4: 在积分相同时，把受到18.1和18.2款处分的
/// 人(队)…依次排列在最后几个位置上 — `penalties`, its players' together,
/// a disqualification weighing more than any number of warnings); then
/// `tiebreaks` in order; what stays tied shares the place. A bye
/// ([`TeamBye`]) scores as a match won by forfeit and brings no opponent
/// to 团体对手分.
pub fn team_standings(
    teams: &[TeamId],
    matches: &[TeamMatch],
    byes: &[TeamBye],
    boards: usize,
    tiebreaks: &[TeamTiebreak],
    fouls: &BTreeMap<TeamId, u32>,
    penalties: &BTreeMap<TeamId, Penalty>,
) -> Result<Vec<TeamRow>, TeamError> {
    let mut total: BTreeMap<TeamId, MatchScore> = teams.iter().map(|&t| (t, MatchScore::default())).collect();
    let mut won: BTreeMap<TeamId, u32> = BTreeMap::new();
    let mut opponents: BTreeMap<TeamId, Vec<TeamId>> = BTreeMap::new();
    // (team, opponent) → match points the team took from that meeting.
    let mut met: BTreeMap<(TeamId, TeamId), u32> = BTreeMap::new();
    for m in matches {
        for t in [m.first, m.second] {
            if !total.contains_key(&t) {
                return Err(TeamError::UnknownTeam {
                    team: t,
                    round: m.round,
                });
            }
        }
        let (a, b) = m.score(boards)?;
        for (t, o, s) in [(m.first, m.second, a), (m.second, m.first, b)] {
            let e = total.get_mut(&t).unwrap();
            e.board_points += s.board_points;
            e.match_points += s.match_points;
            e.board_wins += s.board_wins;
            *won.entry(t).or_default() += u32::from(s.match_points == 2);
            opponents.entry(t).or_default().push(o);
            *met.entry((t, o)).or_default() += s.match_points;
        }
    }
    for b in byes {
        let e = total.get_mut(&b.team).ok_or(TeamError::UnknownTeam {
            team: b.team,
            round: b.round,
        })?;
        let s = b.score(boards);
        e.board_points += s.board_points;
        e.match_points += s.match_points;
        *won.entry(b.team).or_default() += 1;
    }
    let key = |t: TeamId, tb: TeamTiebreak| -> i64 {
        match tb {
            TeamTiebreak::BoardPoints => -(total[&t].board_points.0 as i64),
            TeamTiebreak::BoardWins => -(total[&t].board_wins as i64),
            TeamTiebreak::OpponentMatchPoints => -opponents
                .get(&t)
                .map_or(0, |os| os.iter().map(|o| total[o].match_points as i64).sum()),
            TeamTiebreak::MatchesWon => -(won.get(&t).copied().unwrap_or(0) as i64),
            TeamTiebreak::Fouls => fouls.get(&t).copied().unwrap_or(0) as i64,
            TeamTiebreak::DirectEncounter => 0,
        }
    };
    fn split_by<K: Ord>(group: Vec<TeamId>, key: impl Fn(TeamId) -> K) -> Vec<Vec<TeamId>> {
        let mut g = group;
        g.sort_by_key(|&t| (key(t), t));
        let mut out: Vec<Vec<TeamId>> = Vec::new();
        for t in g {
            match out.last_mut() {
                Some(l) if key(l[0]) == key(t) => l.push(t),
                _ => out.push(vec![t]),
            }
        }
        out
    }
    // 直胜: match points among the tied teams when all of them have met,
    // looked at again for a subgroup still tied (as C.07 6.2 does).
    fn direct(group: Vec<TeamId>, met: &BTreeMap<(TeamId, TeamId), u32>) -> Vec<Vec<TeamId>> {
        for (i, &a) in group.iter().enumerate() {
            if group[i + 1..].iter().any(|&b| !met.contains_key(&(a, b))) {
                return vec![group];
            }
        }
        let points: BTreeMap<TeamId, i64> = group
            .iter()
            .map(|&a| {
                let s: u32 = group.iter().filter_map(|&b| met.get(&(a, b))).sum();
                (a, -(s as i64))
            })
            .collect();
        let n = group.len();
        split_by(group, |t| points[&t])
            .into_iter()
            .flat_map(|g| {
                if g.len() > 1 && g.len() < n {
                    direct(g, met)
                } else {
                    vec![g]
                }
            })
            .collect()
    }
    let mut groups = split_by(teams.to_vec(), |t| -(total[&t].match_points as i64));
    // 18.4, before any tie-break: the unpenalised first, then by weight
    // and number (`Penalty`'s order).
    let weight = |t: TeamId| penalties.get(&t).copied().unwrap_or_default();
    groups = groups.into_iter().flat_map(|g| split_by(g, weight)).collect();
    for &tb in tiebreaks {
        groups = groups
            .into_iter()
            .flat_map(|g| {
                if g.len() < 2 {
                    vec![g]
                } else if tb == TeamTiebreak::DirectEncounter {
                    direct(g, &met)
                } else {
                    split_by(g, |t| key(t, tb))
                }
            })
            .collect();
    }
    let mut rows = Vec::new();
    let mut place = 1;
    for g in groups {
        for &t in &g {
            rows.push(TeamRow {
                rank: place,
                shared: g.len() > 1,
                team: t,
                match_points: total[&t].match_points,
                board_points: total[&t].board_points,
                opponent_match_points: -key(t, TeamTiebreak::OpponentMatchPoints) as u32,
            });
        }
        place += g.len() as u32;
    }
    Ok(rows)
}

/// The teams of a team Swiss as the Dutch engine reads players (C.04.3
/// applied to teams, as 13.3 applies 附录二's Swiss to them): team `t` is
/// player `t` (the pairing number is the registration order), its score
/// its match points (2/1/0, 14.2), its colour in a round the first-listed
/// team's (red on board 1, 13.3), its bye the pairing-allocated bye worth
/// a won match (21.4), a whole match forfeited an unplayed `+`/`-`. Rounds
/// 1..=`rounds` are read; every match in them must be finished.
pub fn swiss_model(
    teams: &[TeamId],
    matches: &[TeamMatch],
    byes: &[TeamBye],
    boards: usize,
    rounds: u32,
    total_rounds: u32,
) -> Result<Tournament, TeamError> {
    let mut players: Vec<Player> = teams
        .iter()
        .map(|&t| {
            let mut p = Player::new(t, &t.to_string(), 0);
            p.rounds = vec![RoundEntry::ABSENT; rounds as usize];
            p
        })
        .collect();
    let mut set = |team: TeamId, round: u32, cell: RoundEntry| -> Result<(), TeamError> {
        let p = players
            .iter_mut()
            .find(|p| p.id == team)
            .ok_or(TeamError::UnknownTeam { team, round })?;
        if let Some(c) = p.rounds.get_mut(round as usize - 1) {
            *c = cell;
        }
        Ok(())
    };
    for m in matches.iter().filter(|m| m.round >= 1 && m.round <= rounds) {
        let (a, b) = m.score(boards)?;
        let outcome = |s: MatchScore| match (m.is_forfeit(), s.match_points) {
            (true, 2) => Outcome::ForfeitWin,
            (true, _) => Outcome::ForfeitLoss,
            (false, 2) => Outcome::Win,
            (false, 1) => Outcome::Draw,
            (false, _) => Outcome::Loss,
        };
        for (t, o, colour, s) in [
            (m.first, m.second, Colour::White, a),
            (m.second, m.first, Colour::Black, b),
        ] {
            let cell = RoundEntry {
                opponent: Some(o),
                colour: (!m.is_forfeit()).then_some(colour),
                outcome: outcome(s),
            };
            set(t, m.round, cell)?;
        }
    }
    for b in byes.iter().filter(|b| b.round >= 1 && b.round <= rounds) {
        set(b.team, b.round, RoundEntry::bye(Outcome::PairingBye))?;
    }
    Ok(Tournament {
        name: "teams".into(),
        players,
        total_rounds: (total_rounds > 0).then_some(total_rounds),
        initial_colour: Some(Colour::White),
        points: PointSystem::with(Points::whole(2), Points::whole(1), Points::ZERO),
        ..Tournament::default()
    })
}

/// The initial ranking of a team Swiss (its teams' pairing numbers, C.04.3
/// 1.2 applied to teams): by the average rating of each team's regular
/// boards, highest first; equal averages in registration order (team
/// number). Seed 000 measures a player's strength by rating (12.1: 等级分
/// 高者台次应列前) and says nothing of a team's; the regular boards are
/// the players 12.1 ranks the team by. `teams`: each team with the
/// ratings of its regular boards' players.
pub fn initial_ranking(teams: &[(TeamId, Vec<u32>)]) -> Vec<TeamId> {
    let mut order: Vec<&(TeamId, Vec<u32>)> = teams.iter().collect();
    let sum = |r: &[u32]| r.iter().map(|&x| u64::from(x)).sum::<u64>();
    order.sort_by(|a, b| {
        // a's average above b's: sum_a / len_a > sum_b / len_b.
        let (la, lb) = (a.1.len().max(1) as u64, b.1.len().max(1) as u64);
        (sum(&b.1) * la).cmp(&(sum(&a.1) * lb)).then(a.0.cmp(&b.0))
    });
    order.into_iter().map(|t| t.0).collect()
}

/// Round `round` of a team Swiss, paired by the Dutch system on match
/// points ([`swiss_model`]) with `seeds` — every team, in initial-ranking
/// order ([`initial_ranking`]) — as the pairing numbers, and the teams in
/// `out` (withdrawn, 20.4) not paired. Returns the pairing in team
/// numbers: (white, black) — the team due to move first listed first —
/// and the bye.
///
/// # Errors
/// A match or bye naming a team not in `seeds`; a match not finished;
/// fewer than two teams left; no pairing the Dutch system allows
/// ([`TeamError::NoPairing`]).
pub fn pair_team_round(
    seeds: &[TeamId],
    matches: &[TeamMatch],
    byes: &[TeamBye],
    boards: usize,
    round: u32,
    total_rounds: u32,
    out: &[TeamId],
) -> Result<crate::dutch::Pairing, TeamError> {
    let number = |team: TeamId| -> Result<TeamId, TeamError> {
        seeds
            .iter()
            .position(|&s| s == team)
            .map(|i| i as TeamId + 1)
            .ok_or(TeamError::UnknownTeam { team, round })
    };
    let matches = matches
        .iter()
        .map(|m| {
            Ok(TeamMatch {
                round: m.round,
                first: number(m.first)?,
                second: number(m.second)?,
                result: match &m.result {
                    MatchResult::Forfeit { absent } => MatchResult::Forfeit {
                        absent: number(*absent)?,
                    },
                    r => r.clone(),
                },
            })
        })
        .collect::<Result<Vec<_>, TeamError>>()?;
    let byes = byes
        .iter()
        .map(|b| {
            Ok(TeamBye {
                round: b.round,
                team: number(b.team)?,
            })
        })
        .collect::<Result<Vec<_>, TeamError>>()?;
    let numbers: Vec<TeamId> = (1..=seeds.len() as TeamId).collect();
    let mut t = swiss_model(&numbers, &matches, &byes, boards, round - 1, total_rounds)?;
    for &team in out {
        let n = number(team)?;
        if let Some(p) = t.players.iter_mut().find(|p| p.id == n) {
            p.rounds.push(RoundEntry::ABSENT);
        }
    }
    if seeds.len() - t.unavailable_in(round).len() < 2 {
        return Err(TeamError::NoPairing("fewer than 2 teams are left to pair".into()));
    }
    let p = crate::dutch::pair_next_round(&t).map_err(|e| TeamError::NoPairing(e.to_string()))?;
    let team = |n: TeamId| seeds[n as usize - 1];
    Ok(crate::dutch::Pairing {
        boards: p.boards.iter().map(|&(w, b)| (team(w), team(b))).collect(),
        bye: p.bye.map(team),
    })
}

/// Seed 000 20.3 applied to a team that withdrew from a round robin
/// (凡已赛对手不足半数者，则所有已赛结果一概注销): with fewer than half of
/// its `scheduled` matches played — a match it forfeited whole is not
/// played — all its matches are taken out of `matches` and `true` comes
/// back; otherwise its results stand, and the matches it no longer plays
/// are its forfeits, `+` to the opponents (其余未赛对局均作弃权对方获胜).
pub fn withdraw_from_round_robin(matches: &mut Vec<TeamMatch>, team: TeamId, scheduled: usize) -> bool {
    let plays = |m: &TeamMatch| m.first == team || m.second == team;
    let played = matches.iter().filter(|m| plays(m) && !m.is_forfeit()).count();
    if 2 * played >= scheduled {
        return false;
    }
    matches.retain(|m| !plays(m));
    true
}

/// 15.5 队员总分制: teams ranked by the sum of their players' individual
/// places, fewer first; among equal sums the penalised teams last (18.4,
/// `penalties[i]`: the sum is this ranking's score, 积分); then by the
/// best individual place, the next best and so on (最高个人名次, 次高个人
/// 名次); then fewer fouls; then shared. `places[i]` are the individual
/// places of team `i`'s players. Returns (team index, rank, shared) best
/// first.
pub fn team_total_ranking(
    places: &[Vec<u32>],
    fouls: &[u32],
    penalties: &[Penalty],
) -> Vec<(usize, u32, bool)> {
    let key = |i: usize| {
        let mut p = places[i].clone();
        p.sort_unstable();
        (
            p.iter().sum::<u32>(),
            penalties.get(i).copied().unwrap_or_default(),
            p,
            fouls.get(i).copied().unwrap_or(0),
        )
    };
    let mut order: Vec<usize> = (0..places.len()).collect();
    order.sort_by_key(|&i| (key(i), i));
    let mut out = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let j = (i..order.len())
            .find(|&j| key(order[j]) != key(order[i]))
            .unwrap_or(order.len());
        for &t in &order[i..j] {
            out.push((t, i as u32 + 1, j - i > 1));
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_order_puts_unrated_last() {
        assert_eq!(
            board_order(&[Some(2100), None, Some(2300), Some(2100), None]),
            vec![2, 0, 3, 1, 4]
        );
    }

    #[test]
    fn odd_boards_red_for_the_first_team() {
        use Colour::*;
        assert_eq!(board_colours(5), vec![White, Black, White, Black, White]);
        assert_eq!(board_colours_in_game(4, 2), vec![Black, White, Black, White]);
        assert_eq!(board_colours_in_game(4, 3), board_colours(4));
    }

    #[test]
    fn boards_from_two_lineups() {
        use Colour::*;
        let a = Lineup::new(1, LineupRule::FixedOrder, 6, 4, vec![1, 2, 4, 6]).unwrap();
        let b = Lineup::new(2, LineupRule::PerMatch, 5, 4, vec![3, 1, 2, 5]).unwrap();
        assert_eq!(
            pair_boards(&a, &b).unwrap(),
            vec![(1, 3, White), (2, 1, Black), (4, 2, White), (6, 5, Black)]
        );
        let c = Lineup::new(3, LineupRule::PerMatch, 5, 3, vec![3, 1, 2]).unwrap();
        assert!(matches!(
            pair_boards(&a, &c),
            Err(TeamError::LineupLength { team: 3, .. })
        ));
    }

    #[test]
    fn all_play_all_meets_everyone_once_with_alternating_colours() {
        let rounds = all_play_all(4);
        let mut met = std::collections::HashSet::new();
        for round in &rounds {
            for &(a, b, _) in round {
                assert!(met.insert((a, b)));
            }
        }
        assert_eq!(met.len(), 16);
        for p in 1..=4 {
            let colours: Vec<Colour> = rounds.iter().map(|r| r[p - 1].2).collect();
            assert!(colours.windows(2).all(|w| w[0] != w[1]));
        }
    }

    #[test]
    fn match_points_from_board_points_and_forfeits() {
        use Outcome::*;
        let m = TeamMatch {
            round: 1,
            first: 1,
            second: 2,
            result: MatchResult::Boards(vec![Win, Draw, Loss, ForfeitWin]),
        };
        let (a, b) = m.score(4).unwrap();
        assert_eq!((a.board_points, b.board_points), (Points(25), Points(15)));
        assert_eq!((a.match_points, b.match_points), (2, 0));
        assert_eq!((a.board_wins, b.board_wins), (1, 1));
        let f = TeamMatch {
            round: 2,
            first: 1,
            second: 2,
            result: MatchResult::Forfeit { absent: 1 },
        };
        let (a, b) = f.score(4).unwrap();
        assert_eq!((a.match_points, b.match_points), (0, 2));
        assert_eq!(b.board_points, Points(40));
        let bad = TeamMatch {
            round: 3,
            first: 1,
            second: 2,
            result: MatchResult::Boards(vec![Win, HalfBye, Loss, Draw]),
        };
        assert!(matches!(
            bad.score(4),
            Err(TeamError::NotAGameResult { board: 2, .. })
        ));
        assert!(matches!(m.score(5), Err(TeamError::BoardCount { got: 4, .. })));
        // 21.3: both players of board 2 forfeit — neither team scores it.
        let double = TeamMatch {
            round: 4,
            first: 1,
            second: 2,
            result: MatchResult::Pairs(vec![
                (Win, Loss),
                (ForfeitLoss, ForfeitLoss),
                (Loss, Win),
                (Draw, Draw),
            ]),
        };
        let (a, b) = double.score(4).unwrap();
        assert_eq!((a.board_points, b.board_points), (Points(15), Points(15)));
        assert_eq!((a.match_points, b.match_points), (1, 1));
    }

    fn played(round: u32, first: TeamId, second: TeamId, boards: Vec<Outcome>) -> TeamMatch {
        TeamMatch {
            round,
            first,
            second,
            result: MatchResult::Boards(boards),
        }
    }

    #[test]
    fn a_team_swiss_pairs_teams_on_match_points_with_a_bye() {
        use crate::dutch::pair_next_round;
        use Outcome::*;
        let teams = [1, 2, 3, 4, 5];
        // Round 1 of 5 teams: the top half meets the bottom half, the
        // last team has the bye, the first team white (red on board 1).
        let t = swiss_model(&teams, &[], &[], 2, 0, 3).unwrap();
        let p = pair_next_round(&t).unwrap();
        assert_eq!(p.bye, Some(5));
        assert_eq!(p.boards, vec![(1, 3), (4, 2)]);
        // Round 1: 1 beats 3 (2-0), 4 and 2 draw (1-1); 5 has the bye.
        let r1 = [played(1, 1, 3, vec![Win, Win]), played(1, 4, 2, vec![Win, Loss])];
        let byes = [TeamBye { round: 1, team: 5 }];
        let t = swiss_model(&teams, &r1, &byes, 2, 1, 3).unwrap();
        // 2 match points: teams 1 and 5; the bye counts as a won match.
        assert_eq!(t.score_after(1, 1), Points::whole(2));
        assert_eq!(t.score_after(5, 1), Points::whole(2));
        assert_eq!(t.score_after(2, 1), Points::whole(1));
        let p = pair_next_round(&t).unwrap();
        // The bye goes to the lowest score, team 3 (0). 2 and 4 drew each
        // other and may not meet again, so each of the leaders 1 and 5
        // meets one of them; white (the odd boards' red, 13.3) to whoever
        // had black or nothing: 2 (black in round 1) and 5 (the bye)
        // against 4 (white in round 1).
        assert_eq!(p.bye, Some(3));
        assert_eq!(p.boards, vec![(2, 1), (5, 4)]);
    }

    #[test]
    fn a_whole_team_forfeit_is_unplayed_in_the_swiss_model() {
        let m = TeamMatch {
            round: 1,
            first: 1,
            second: 2,
            result: MatchResult::Forfeit { absent: 2 },
        };
        let t = swiss_model(&[1, 2], &[m], &[], 4, 1, 2).unwrap();
        let c = t.player(1).unwrap().round(1);
        assert_eq!((c.outcome, c.colour), (Outcome::ForfeitWin, None));
        assert_eq!(t.score_after(1, 1), Points::whole(2));
        // Unplayed: the teams may be paired again (C.04.1).
        let p = crate::dutch::pair_next_round(&t).unwrap();
        assert_eq!(p.boards.len(), 1);
    }

    #[test]
    fn team_swiss_standings_by_15_4_with_a_bye() {
        use Outcome::*;
        // Five teams on 2 boards, two rounds; team 4 has the bye in
        // round 1, team 5 in round 2.
        let matches = [
            played(1, 1, 2, vec![Win, Win]),
            played(1, 3, 5, vec![Win, Draw]),
            played(2, 1, 3, vec![Draw, Loss]),
            played(2, 4, 2, vec![Draw, Draw]),
        ];
        let byes = [TeamBye { round: 1, team: 4 }, TeamBye { round: 2, team: 5 }];
        let rows = team_standings(
            &[1, 2, 3, 4, 5],
            &matches,
            &byes,
            2,
            &TeamTiebreak::SWISS,
            &BTreeMap::from([(4, 1)]),
            &BTreeMap::new(),
        )
        .unwrap();
        // Match points: 1: 2+0=2; 3: 2+2=4; 4: 2(bye)+1=3; 2: 0+1=1; 5: 0+2(bye)=2.
        let order: Vec<(TeamId, u32, u32)> = rows.iter().map(|r| (r.team, r.rank, r.match_points)).collect();
        // Teams 1 and 5 tie on 2: 团体对手分 — 1 met 2 (1) and 3 (4) = 5;
        // 5 met 3 (4) only = 4. Team 1 ahead.
        assert_eq!(order, vec![(3, 1, 4), (4, 2, 3), (1, 3, 2), (5, 4, 2), (2, 5, 1)]);
        // The bye's board points: every board a forfeit win.
        assert_eq!(rows[1].board_points, Points(30));
        // 全队犯规 decides what the rest leaves tied: fewer fouls first.
        let rows = team_standings(
            &[1, 2],
            &[],
            &[],
            2,
            &TeamTiebreak::SWISS,
            &BTreeMap::from([(1, 2)]),
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!((rows[0].team, rows[0].shared), (2, false));
        let rows = team_standings(
            &[1, 2],
            &[],
            &[],
            2,
            &TeamTiebreak::SWISS,
            &BTreeMap::new(),
            &BTreeMap::new(),
        )
        .unwrap();
        assert!(rows[0].shared);
    }

    #[test]
    fn a_team_swiss_is_seeded_by_its_regular_boards_average_rating() {
        // Averages 1500, 1500, 1650, 1500: team 3 first, the rest in
        // registration order.
        let teams = [
            (1, vec![1500, 1500]),
            (2, vec![1600, 1400]),
            (3, vec![1700, 1600]),
            (4, vec![1550, 1450]),
        ];
        assert_eq!(initial_ranking(&teams), vec![3, 1, 2, 4]);
        // Round 1 pairs by those numbers: seeds 1 v 3 and 4 v 2 (C.04.3),
        // i.e. team 3 v team 2, team 4 v team 1.
        let p = pair_team_round(&[3, 1, 2, 4], &[], &[], 2, 1, 3, &[]).unwrap();
        assert_eq!((p.boards, p.bye), (vec![(3, 2), (4, 1)], None));
        // Registration order when nobody is rated apart.
        let even = [(1, vec![1500, 1500]), (2, vec![1500, 1500])];
        assert_eq!(initial_ranking(&even), vec![1, 2]);
    }

    #[test]
    fn a_withdrawn_team_is_not_paired_in_a_team_swiss() {
        use Outcome::*;
        let seeds = [1, 2, 3, 4];
        let r1 = [played(1, 1, 3, vec![Win, Win]), played(1, 4, 2, vec![Draw, Draw])];
        let all = pair_team_round(&seeds, &r1, &[], 2, 2, 3, &[]).unwrap();
        assert_eq!(all.bye, None);
        // Team 3 withdraws (20.4): of the three left, the bye goes to the
        // lowest on match points (2 and 4, 1 each), the lower-ranked: 4;
        // 2 (black in round 1) has white against 1 (white in round 1).
        let p = pair_team_round(&seeds, &r1, &[], 2, 2, 3, &[3]).unwrap();
        assert_eq!((p.boards, p.bye), (vec![(2, 1)], Some(4)));
        assert!(matches!(
            pair_team_round(&seeds, &r1, &[], 2, 2, 3, &[1, 2, 3]),
            Err(TeamError::NoPairing(_))
        ));
        assert!(matches!(
            pair_team_round(&[1, 2, 3], &r1, &[], 2, 2, 3, &[]),
            Err(TeamError::UnknownTeam { team: 4, .. })
        ));
    }

    #[test]
    fn a_team_withdrawn_from_a_round_robin_before_half_its_matches_is_annulled() {
        use Outcome::*;
        // Four teams, three matches each. Team 4 played one, then withdrew:
        // its later matches are forfeits, and all of them are annulled.
        let mut ms = vec![
            played(1, 1, 4, vec![Loss, Loss]),
            played(1, 2, 3, vec![Win, Draw]),
            TeamMatch {
                round: 2,
                first: 4,
                second: 3,
                result: MatchResult::Forfeit { absent: 4 },
            },
            played(2, 1, 2, vec![Draw, Draw]),
        ];
        let mut kept = ms.clone();
        assert!(withdraw_from_round_robin(&mut ms, 4, 3));
        assert_eq!(ms.len(), 2);
        assert!(ms.iter().all(|m| m.first != 4 && m.second != 4));
        // Two of three played: the results stand, the forfeit counts.
        kept[2] = played(2, 4, 3, vec![Win, Loss]);
        kept.push(TeamMatch {
            round: 3,
            first: 2,
            second: 4,
            result: MatchResult::Forfeit { absent: 4 },
        });
        let before = kept.clone();
        assert!(!withdraw_from_round_robin(&mut kept, 4, 3));
        assert_eq!(kept, before);
    }
}
