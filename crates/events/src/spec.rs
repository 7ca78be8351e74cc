//! An event's terms: what an organiser asks for, checked before anything is
//! stored, and the words they are stored as. Pure: no store, no clock.

use common::Error;
use serde::{Deserialize, Serialize};
use tournament::model::{PointSystem, Points};
use tournament::tiebreak::{self, Tiebreak};
use utoipa::ToSchema;

/// How the rounds are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    /// 积分编排制: FIDE Dutch (C.04.3), as `qiju tournament pair` pairs.
    Swiss,
    /// 单循环: the Berger tables (CXA 11.2, FIDE C.05 Annex 1).
    RoundRobin,
    /// 双循环: each pair meets twice, colours reversed.
    DoubleRoundRobin,
    /// 淘汰制 (CXA 11.1): a seeded single-elimination bracket of matches,
    /// a tied match going on to rapid play-off games and an armageddon
    /// game (seed 001).
    Knockout,
    /// lichess's Arena: a timed event pairing whoever is free, scored 2/1/0
    /// with streaks, berserk and no points for short draws (`arena`).
    Arena,
    /// 循环制团体赛: teams meet on the Berger table (CXA 11.2), each match
    /// on `boards` boards from the captains' line-ups (12.2–12.3), the
    /// first-listed team red on the odd boards (13.2), scored in match
    /// and board points (14.2) and ranked by 15.3 (`teams`).
    TeamRoundRobin,
    /// Seed 001's office event as one event (`staged`): seeded groups
    /// playing a round robin (CXA 11.3), the best `advance` of each group
    /// a knockout of matches as `Knockout` plays them, and the last
    /// `final_size` a final round robin (`tournament::staged`).
    GroupsKnockout,
    /// 积分编排制团体赛: the teams paired by the Dutch system on match
    /// points (13.3, `tournament::team::swiss_model`), the team due to
    /// move first red on the odd boards, a bye for an odd team worth a
    /// won match (21.4), ranked by 15.4 (`teams`).
    TeamSwiss,
    /// 双败淘汰: out after a second lost match (`double_elimination`,
    /// `tournament::knockout::DoubleElimination`): each round pairs the
    /// unbeaten among themselves and the once beaten among themselves,
    /// then the grand final; each board a match as `Knockout` plays it.
    DoubleElimination,
}

impl System {
    pub fn as_str(self) -> &'static str {
        match self {
            System::Swiss => "swiss",
            System::RoundRobin => "round-robin",
            System::DoubleRoundRobin => "double-round-robin",
            System::Knockout => "knockout",
            System::Arena => "arena",
            System::TeamRoundRobin => "team-round-robin",
            System::GroupsKnockout => "groups-knockout",
            System::TeamSwiss => "team-swiss",
            System::DoubleElimination => "double-elimination",
        }
    }

    pub fn parse(s: &str) -> Option<System> {
        [
            System::Swiss,
            System::RoundRobin,
            System::DoubleRoundRobin,
            System::Knockout,
            System::Arena,
            System::TeamRoundRobin,
            System::GroupsKnockout,
            System::TeamSwiss,
            System::DoubleElimination,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }

    /// Whether its knockout rounds are matches (`knockout`): a knockout,
    /// a double elimination, and the knockout stage of groups → knockout
    /// → final.
    pub fn plays_matches(self) -> bool {
        self.is_knockout() || self == System::GroupsKnockout
    }

    /// Whether every round is a knockout round of matches, its rounds
    /// following from the players and the results (no `rounds` term),
    /// its standings by how far each player went: a knockout or a double
    /// elimination.
    pub fn is_knockout(self) -> bool {
        matches!(self, System::Knockout | System::DoubleElimination)
    }

    /// Whether captains enter teams (articles 12–15) instead of players
    /// entering themselves.
    pub fn is_team(self) -> bool {
        matches!(self, System::TeamRoundRobin | System::TeamSwiss)
    }

    pub fn is_round_robin(self) -> bool {
        matches!(self, System::RoundRobin | System::DoubleRoundRobin)
    }

    /// How unplayed games count in the tie-breaks.
    pub fn tiebreak_system(self) -> tiebreak::System {
        match self {
            // A team event's players do not all meet: its individual
            // standings are read as a Swiss's.
            System::Swiss
            | System::Knockout
            | System::Arena
            | System::TeamRoundRobin
            | System::GroupsKnockout
            | System::TeamSwiss
            | System::DoubleElimination => tiebreak::System::Swiss,
            _ => tiebreak::System::RoundRobin,
        }
    }
}

/// Points for a win, a draw and a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum Scoring {
    /// 1/½/0 (CXA 14.1, FIDE).
    #[serde(rename = "1-0.5-0")]
    OneHalfZero,
    /// 2/1/0 (seed 000's 2-point counting).
    #[serde(rename = "2-1-0")]
    TwoOneZero,
    /// 3/1/0 (seed 001's office event).
    #[serde(rename = "3-1-0")]
    ThreeOneZero,
}

impl Scoring {
    pub fn as_str(self) -> &'static str {
        match self {
            Scoring::OneHalfZero => "1-0.5-0",
            Scoring::TwoOneZero => "2-1-0",
            Scoring::ThreeOneZero => "3-1-0",
        }
    }

    pub fn parse(s: &str) -> Option<Scoring> {
        [Scoring::OneHalfZero, Scoring::TwoOneZero, Scoring::ThreeOneZero]
            .into_iter()
            .find(|x| x.as_str() == s)
    }

    /// The tournament crate's point system: a forfeit win and the
    /// pairing-allocated bye are worth a win (seed 000 21.4, C.04.1 1.3).
    pub fn points(self) -> PointSystem {
        match self {
            Scoring::OneHalfZero => PointSystem::with(Points::whole(1), Points::tenths(5), Points::ZERO),
            Scoring::TwoOneZero => tiebreak::scoring::two_one_zero(),
            Scoring::ThreeOneZero => PointSystem::three_one_zero(),
        }
    }
}

/// Which tie-break order the standings use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TiebreakOrder {
    /// FIDE C.07: Swiss BH-C1, BH, SB, WIN; round robin DE, WIN, SB.
    Fide,
    /// CXA 15.1 (round robin: 小分, 胜局, 直胜, 犯规) and 15.2 (Swiss:
    /// 对手分, 胜局, 犯规).
    Cxa,
}

impl TiebreakOrder {
    pub fn as_str(self) -> &'static str {
        match self {
            TiebreakOrder::Fide => "fide",
            TiebreakOrder::Cxa => "cxa",
        }
    }

    pub fn parse(s: &str) -> Option<TiebreakOrder> {
        [TiebreakOrder::Fide, TiebreakOrder::Cxa]
            .into_iter()
            .find(|x| x.as_str() == s)
    }

    pub fn tiebreaks(self, system: System) -> Vec<Tiebreak> {
        if system.is_knockout() || system == System::Arena {
            // Matches won decide, the bracket says the rest; an arena's
            // points are its own (`arena::score`).
            return Vec::new();
        }
        match (self, system.is_round_robin()) {
            (TiebreakOrder::Fide, false) => vec![
                Tiebreak::BuchholzCut1,
                Tiebreak::Buchholz,
                Tiebreak::SonnebornBerger,
                Tiebreak::Wins,
            ],
            (TiebreakOrder::Fide, true) => {
                vec![
                    Tiebreak::DirectEncounter,
                    Tiebreak::Wins,
                    Tiebreak::SonnebornBerger,
                ]
            }
            (TiebreakOrder::Cxa, false) => Tiebreak::CXA_SWISS.to_vec(),
            (TiebreakOrder::Cxa, true) => Tiebreak::CXA_ROUND_ROBIN.to_vec(),
        }
    }
}

/// What an organiser asks for.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEvent {
    /// 1–80 characters.
    pub name: String,
    /// A registry id (`xiangqi/cxa`, `chess/standard` …); the default game
    /// when left out.
    pub variant: Option<String>,
    /// As the lobby writes it: `10+5`, `5|3` …
    pub time_control: String,
    #[serde(default)]
    pub rated: bool,
    pub system: System,
    /// Swiss: the number of rounds (1–30). Round robins: left out (the
    /// Berger table decides).
    pub rounds: Option<u32>,
    pub scoring: Option<Scoring>,
    pub tiebreaks: Option<TiebreakOrder>,
    /// Only players rated at least / at most this in the variant's pool.
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// Players must give this code to join.
    pub invitation_code: Option<String>,
    /// Only players with at least this many rated games in the variant's
    /// rating pool (0–1000): a rating that means something.
    pub min_rated_games: Option<u32>,
    /// The forfeit time (seed 000 21.1): seconds each player has for the
    /// first move of an event game before losing it, 10–3600. Left out:
    /// the server's window (`qiju serve --abort-after`).
    pub forfeit_after_s: Option<u32>,
    /// Each round's start (ms since the epoch), in order: the round is
    /// paired then by itself. Empty: the arbiter pairs each round.
    #[serde(default)]
    pub round_starts: Vec<i64>,
    /// A scheduled event (lichess's Swiss "interval between rounds"): each
    /// round after those in `round_starts` is paired this many seconds
    /// after the round before ended (0 to 7 days; 0: at once). Not an
    /// arena's (it has no rounds) nor a staged event's (its stages follow
    /// at once).
    pub round_interval_s: Option<u32>,
    /// Knockout: games of a match proper, 1 (the default), 2 or 3.
    pub match_games: Option<u32>,
    /// Knockout: rapid play-off games after a tied match (0–4, default 1).
    pub playoff_games: Option<u32>,
    /// Knockout: then an armageddon game, a draw black's win (default
    /// true); without it a tie is decided by lot.
    pub armageddon: Option<bool>,
    /// Knockout: the play-off and armageddon games' clock (default `5+3`).
    pub playoff_time_control: Option<String>,
    /// Knockout: how long the player who had no choice at the lot has to
    /// choose the armageddon colour, in seconds (5–600, default 60); then
    /// the server chooses black for them (a draw is black's win).
    pub armageddon_choice_s: Option<u32>,
    /// Arena: how long it pairs, in seconds (30 s to 12 h). Its start is
    /// `round_starts[0]`, or the arbiter's button.
    pub duration_s: Option<u32>,
    /// Arena: whether players may go berserk (default true).
    pub berserk: Option<bool>,
    /// Knockout: a race — the match goes on until a player has won this
    /// many games (1–5), draws counting for no one, colours alternating
    /// from the lot's (seed 001's gomoku: first to 3). Instead of
    /// `match_games`, `playoff_games` and `armageddon`.
    pub first_to: Option<u32>,
    /// Team round robin: boards per match (2–8, default 4).
    pub boards: Option<u32>,
    /// Team round robin: how many substitutes a roster may add after its
    /// boards (0–4, default 2: seed 000 12.2's example).
    pub substitutes: Option<u32>,
    /// Groups → knockout → final (seed 001): the number of groups (分十二组
    /// : 12), each a round robin of at most `group_size` players (每组四人:
    /// 4); the event takes groups × max(2, advance) to groups × group_size
    /// entries, dealt so that the groups' sizes differ by one at most.
    pub groups: Option<u32>,
    pub group_size: Option<u32>,
    /// Groups → knockout → final: how many of each group go on to the
    /// knockout (每组取第一名: 1).
    pub advance: Option<u32>,
    /// Groups → knockout → final: when this many are left the knockout
    /// stops and they play a final round robin (seed 001: 3).
    pub final_size: Option<u32>,
    /// Groups → knockout → final: how the groups are made — `seeded`
    /// (the default: a snake by initial ranking, CXA 11.3) or `lot` (seed
    /// 001: 选手进场后进行抽签分组, drawn from the event's id, so the same
    /// groups after a restart, and logged).
    pub group_draw: Option<GroupDraw>,
    /// A team event's line-ups: `roster-order` (12.2, the default) or
    /// `any-order` (12.3 临时定台制).
    pub lineups: Option<LineupOrder>,
    /// A team round robin's matches: `boards` (the default: board i
    /// against board i, 12.1–12.3) or `all-play-all` (12.4 全队轮赛制:
    /// every player of a team meets every player of the other, one part
    /// of the match a round; the rosters have no substitutes and no
    /// line-ups).
    pub team_match: Option<TeamMatchKind>,
    /// A team event's team standings: `match-points` (the default: 15.3 /
    /// 15.4) or `places` (15.5 队员总分制: the sum of the players'
    /// individual places, fewer first).
    pub team_ranking: Option<TeamRanking>,
}

/// How the two teams of a match meet (seed 000 12.1–12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TeamMatchKind {
    /// Board against board (分台定人制, 12.1–12.3).
    Boards,
    /// 12.4 全队轮赛制: every player against every player.
    AllPlayAll,
}

/// How a team event ranks its teams (seed 000 15.3–15.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TeamRanking {
    /// 场分: match points, then 15.3's or 15.4's tie-breaks.
    MatchPoints,
    /// 15.5 队员总分制: the sum of the players' individual places.
    Places,
}

/// How a staged event's groups are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum GroupDraw {
    /// In a snake by initial ranking (CXA 11.3 种子分组).
    Seeded,
    /// By drawing lots (seed 001: 抽签分组).
    Lot,
}

/// How a captain may order a team's line-up (seed 000 12.2–12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LineupOrder {
    /// 12.2: the roster's order, never inverted (台次顺序不能前后颠倒).
    RosterOrder,
    /// 12.3 临时定台制: any order, fixed before each match.
    AnyOrder,
}

/// Most rounds a Swiss may have, and most players a round robin.
pub const MAX_SWISS_ROUNDS: u32 = 30;
pub const MAX_NAME_CHARS: usize = 80;
/// Most unfinished events one account organises at once (a limit on what
/// one account may make the server hold and tick).
pub const MAX_OPEN_EVENTS: i64 = 5;
/// Most entries an event takes: a Swiss, and a round robin (whose table
/// grows with the square).
pub const MAX_SWISS_ENTRIES: usize = 1000;
pub const MAX_ROUND_ROBIN_ENTRIES: usize = 30;
pub const MAX_KNOCKOUT_ENTRIES: usize = 256;
pub const MAX_CODE_CHARS: usize = 40;
/// The longest wait between a round's end and the next one's pairing
/// (`round_interval_s`): a week, as a weekly club event is paced.
pub const MAX_ROUND_INTERVAL_S: u32 = 7 * 86_400;
/// The wait for a knockout match's armageddon colour (`armageddon_choice_s`):
/// seed 001 gives the choice to the player who had none at the lot (和棋
/// 黑胜) and is silent on how long they may think. 60 s by default, the
/// node's forfeit window for a game's first move (the time a player has
/// to come to a game); at least 5 s (a test's, and a click), at most 10
/// minutes — the match stands still meanwhile.
pub const ARMAGEDDON_CHOICE_SECONDS: std::ops::RangeInclusive<u32> = 5..=600;
pub const DEFAULT_ARMAGEDDON_CHOICE_S: u32 = 60;
/// An arena's length: at least 30 s (a test's), at most 12 hours.
pub const ARENA_SECONDS: std::ops::RangeInclusive<u32> = 30..=43_200;
/// Most players an arena takes (lila's arenas have thousands; a node's
/// live games are the limit, 500 games at once here).
pub const MAX_ARENA_ENTRIES: usize = 1000;
/// Most teams a team round robin takes (15 rounds), and its boards and
/// substitutes per team.
pub const MAX_TEAMS: usize = 16;
pub const TEAM_BOARDS: std::ops::RangeInclusive<u32> = 2..=8;
pub const MAX_SUBSTITUTES: u32 = 4;

/// The checked terms.
#[derive(Clone, Debug)]
pub struct Terms {
    pub name: String,
    pub variant: &'static registry::Variant,
    pub time_control: clock::TimeControl,
    pub rated: bool,
    pub system: System,
    /// 0 for a round robin until the first round is paired.
    pub rounds: u32,
    pub scoring: Scoring,
    pub tiebreaks: TiebreakOrder,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    pub invitation: Option<String>,
    pub min_rated_games: u32,
    /// 0: the server's window.
    pub forfeit_after_ms: i64,
    /// See [`EventSpec::round_interval_s`].
    pub round_interval_ms: Option<i64>,
    pub starts: Vec<i64>,
    pub match_format: tournament::knockout::MatchFormat,
    pub playoff_time_control: clock::TimeControl,
    /// The wait for a match's armageddon colour
    /// ([`ARMAGEDDON_CHOICE_SECONDS`]).
    pub armageddon_choice_ms: i64,
    /// An arena's length (0 otherwise) and whether berserk is allowed.
    pub duration_ms: i64,
    pub berserk: bool,
    /// A team event's boards per match and substitutes per roster (0, 0
    /// otherwise).
    pub boards: u32,
    pub substitutes: u32,
    /// A staged event's plan (`None` otherwise).
    pub stages: Option<tournament::staged::Stages>,
    /// Whether a staged event's groups are drawn by lot.
    pub groups_by_lot: bool,
    pub lineups_any_order: bool,
    /// 12.4 全队轮赛制 matches (a team round robin only).
    pub team_all_play_all: bool,
    /// 15.5 队员总分制 team standings (a team event only).
    pub team_ranking_places: bool,
}

impl NewEvent {
    /// Checks the request; a clear error naming what is wrong.
    pub fn check(self) -> Result<Terms, Error> {
        let name = self.name.trim().to_string();
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
            return Err(Error::bad(
                "bad_event_name",
                format!(
                    "an event's name has 1 to {MAX_NAME_CHARS} characters, none of them control characters"
                ),
            ));
        }
        let variant =
            registry::get(self.variant.as_deref()).map_err(|e| Error::bad("bad_variant", e.to_string()))?;
        let time_control = play::table::parse_time_control(&self.time_control)
            .map_err(|e| Error::bad("bad_time_control", e))?;
        if time_control.is_unlimited() || time_control.correspondence_days().is_some() {
            return Err(Error::bad(
                "bad_time_control",
                "an event's games need a clock: untimed and correspondence games are not paired in rounds",
            ));
        }
        let rounds = match (self.system, self.rounds) {
            (System::Swiss | System::TeamSwiss, Some(r)) if (1..=MAX_SWISS_ROUNDS).contains(&r) => r,
            (System::Swiss | System::TeamSwiss, _) => {
                return Err(Error::bad(
                    "bad_rounds",
                    format!("a Swiss needs its number of rounds, 1 to {MAX_SWISS_ROUNDS}"),
                ))
            }
            (System::Knockout | System::DoubleElimination | System::Arena | System::GroupsKnockout, None) => 0,
            (System::Arena, Some(_)) => {
                return Err(Error::bad(
                    "bad_rounds",
                    "an arena has no rounds: it pairs whoever is free until its time is up (duration_s)",
                ))
            }
            (System::Knockout | System::GroupsKnockout, Some(_)) => {
                return Err(Error::bad(
                    "bad_rounds",
                    "a knockout's rounds follow from its players (the bracket): leave rounds out",
                ))
            }
            (System::DoubleElimination, Some(_)) => {
                return Err(Error::bad(
                    "bad_rounds",
                    "a double elimination's rounds follow from its players and results (it ends when one player is left with fewer than two losses): leave rounds out",
                ))
            }
            (_, None) => 0,
            (_, Some(_)) => {
                return Err(Error::bad(
                    "bad_rounds",
                    "a round robin's rounds follow from its players (the Berger table): leave rounds out",
                ))
            }
        };
        if let (Some(lo), Some(hi)) = (self.min_rating, self.max_rating) {
            if lo > hi {
                return Err(Error::bad(
                    "bad_rating_range",
                    format!("the rating range {lo}–{hi} is empty"),
                ));
            }
        }
        for r in [self.min_rating, self.max_rating].into_iter().flatten() {
            if !(0..=4000).contains(&r) {
                return Err(Error::bad(
                    "bad_rating_range",
                    format!("rating {r} is not from 0 to 4000"),
                ));
            }
        }
        let invitation = match self.invitation_code.map(|c| c.trim().to_string()) {
            Some(c)
                if c.is_empty() || c.chars().count() > MAX_CODE_CHARS || c.chars().any(char::is_control) =>
            {
                return Err(Error::bad(
                    "bad_invitation_code",
                    format!("an invitation code has 1 to {MAX_CODE_CHARS} characters"),
                ))
            }
            c => c,
        };
        if self.round_starts.windows(2).any(|w| w[0] >= w[1]) || self.round_starts.iter().any(|&s| s <= 0) {
            return Err(Error::bad(
                "bad_round_starts",
                "round starts are times in ms since the epoch, each later than the one before",
            ));
        }
        if rounds > 0 && self.round_starts.len() > rounds as usize {
            return Err(Error::bad(
                "bad_round_starts",
                format!("{} round starts for {rounds} rounds", self.round_starts.len()),
            ));
        }
        let round_interval_ms = match self.round_interval_s {
            None => None,
            Some(_) if matches!(self.system, System::Arena | System::GroupsKnockout) => {
                return Err(Error::bad(
                    "bad_round_interval",
                    "round_interval_s paces rounds paired one after another: an arena has none, and a staged event's follow at once",
                ))
            }
            Some(s) if s <= MAX_ROUND_INTERVAL_S => Some(i64::from(s) * 1000),
            Some(_) => {
                return Err(Error::bad(
                    "bad_round_interval",
                    format!("round_interval_s is 0 to {MAX_ROUND_INTERVAL_S} seconds"),
                ))
            }
        };
        let duration_ms = match (self.system, self.duration_s) {
            (System::Arena, Some(d)) if ARENA_SECONDS.contains(&d) => i64::from(d) * 1000,
            (System::Arena, _) => {
                return Err(Error::bad(
                    "bad_duration",
                    format!(
                        "an arena needs its length, duration_s from {} to {} seconds",
                        ARENA_SECONDS.start(),
                        ARENA_SECONDS.end()
                    ),
                ))
            }
            (_, None) if self.berserk.is_none() => 0,
            (_, _) => {
                return Err(Error::bad(
                    "bad_duration",
                    "duration_s and berserk are an arena's terms",
                ))
            }
        };
        if self.system == System::Arena {
            if self.round_starts.len() > 1 {
                return Err(Error::bad(
                    "bad_round_starts",
                    "an arena has one start (round_starts: [start]) and runs for duration_s",
                ));
            }
            if self.scoring.is_some_and(|s| s != Scoring::TwoOneZero) {
                return Err(Error::bad(
                    "bad_scoring",
                    "an arena scores 2 for a win and 1 for a draw, doubled on a streak (2-1-0)",
                ));
            }
            if time_control.stages.first().is_none_or(|s| s.time_ms == 0) {
                return Err(Error::bad(
                    "bad_time_control",
                    "an arena's games need main time on the clock (berserk halves it)",
                ));
            }
        }
        if let Some(n) = self.first_to {
            if !self.system.plays_matches() || !(1..=5).contains(&n) {
                return Err(Error::bad(
                    "bad_match_format",
                    "first_to (1 to 5 wins) is a knockout's match format",
                ));
            }
            if self.match_games.is_some() || self.playoff_games.is_some() || self.armageddon.is_some() {
                return Err(Error::bad(
                    "bad_match_format",
                    "a race to first_to wins has no set number of games, play-off or armageddon",
                ));
            }
        }
        let match_format = match self.first_to {
            Some(n) => tournament::knockout::MatchFormat {
                games: 1,
                playoff_games: 0,
                armageddon: false,
                first_to: n,
            },
            None => tournament::knockout::MatchFormat {
                games: self.match_games.unwrap_or(1),
                playoff_games: self.playoff_games.unwrap_or(1),
                armageddon: self.armageddon.unwrap_or(true),
                first_to: 0,
            },
        };
        let armageddon_choice_ms = match self.armageddon_choice_s {
            None => i64::from(DEFAULT_ARMAGEDDON_CHOICE_S) * 1000,
            Some(_) if !self.system.plays_matches() || !match_format.armageddon => {
                return Err(Error::bad(
                    "bad_match_format",
                    "armageddon_choice_s is the wait for a knockout match's armageddon colour: this event plays no armageddon game",
                ))
            }
            Some(s) if ARMAGEDDON_CHOICE_SECONDS.contains(&s) => i64::from(s) * 1000,
            Some(_) => {
                return Err(Error::bad(
                    "bad_match_format",
                    format!(
                        "armageddon_choice_s is {} to {} seconds",
                        ARMAGEDDON_CHOICE_SECONDS.start(),
                        ARMAGEDDON_CHOICE_SECONDS.end()
                    ),
                ))
            }
        };
        if !(1..=3).contains(&match_format.games) || match_format.playoff_games > 4 {
            return Err(Error::bad(
                "bad_match_format",
                "a knockout match has 1 to 3 games and 0 to 4 play-off games",
            ));
        }
        let min_rated_games = self.min_rated_games.unwrap_or(0);
        if min_rated_games > 1000 {
            return Err(Error::bad(
                "bad_min_rated_games",
                "min_rated_games is 0 to 1000 rated games",
            ));
        }
        let forfeit_after_ms = match self.forfeit_after_s {
            None => 0,
            Some(s) if (10..=3600).contains(&s) => i64::from(s) * 1000,
            Some(_) => {
                return Err(Error::bad(
                    "bad_forfeit_time",
                    "forfeit_after_s is 10 to 3600 seconds",
                ))
            }
        };
        let all_play_all = self.team_match == Some(TeamMatchKind::AllPlayAll);
        if (self.team_match.is_some() || self.team_ranking.is_some()) && !self.system.is_team() {
            return Err(Error::bad(
                "bad_team_terms",
                "team_match and team_ranking are a team event's terms (system team-round-robin or team-swiss)",
            ));
        }
        if all_play_all {
            if self.system != System::TeamRoundRobin {
                return Err(Error::bad(
                    "bad_team_match",
                    "all-play-all matches (12.4) are played on the team round robin's table, a part of each match a round: a team Swiss plays board against board",
                ));
            }
            if self.substitutes.is_some_and(|s| s > 0) || self.lineups.is_some() {
                return Err(Error::bad(
                    "bad_team_match",
                    "in an all-play-all match (12.4) every player of a team meets every player of the other: a roster is its boards' players, with no substitutes and no line-ups",
                ));
            }
        }
        let (boards, substitutes) = match (self.system, self.boards, self.substitutes) {
            (System::TeamRoundRobin | System::TeamSwiss, b, sub) => {
                let b = b.unwrap_or(4);
                let sub = sub.unwrap_or(if all_play_all { 0 } else { 2 });
                if !TEAM_BOARDS.contains(&b) || sub > MAX_SUBSTITUTES {
                    return Err(Error::bad(
                        "bad_boards",
                        format!(
                            "a team match is played on {} to {} boards, with at most {MAX_SUBSTITUTES} substitutes a team",
                            TEAM_BOARDS.start(),
                            TEAM_BOARDS.end()
                        ),
                    ));
                }
                (b, sub)
            }
            (_, None, None) => (0, 0),
            _ => {
                return Err(Error::bad(
                    "bad_boards",
                    "boards and substitutes are a team event's terms (system team-round-robin or team-swiss)",
                ))
            }
        };
        let stages = match (
            self.system,
            self.groups,
            self.group_size,
            self.advance,
            self.final_size,
        ) {
            (System::GroupsKnockout, Some(g), Some(size), advance, final_size) => Some(
                tournament::staged::Stages::new(g, size, advance.unwrap_or(1), final_size.unwrap_or(2))
                    .map_err(|e| Error::bad("bad_stages", e.to_string()))?,
            ),
            (System::GroupsKnockout, ..) => {
                return Err(Error::bad(
                    "bad_stages",
                    "groups → knockout → final needs its groups and group_size (and advance, final_size)",
                ))
            }
            (_, None, None, None, None) => None,
            _ => {
                return Err(Error::bad(
                    "bad_stages",
                    "groups, group_size, advance and final_size are the terms of system groups-knockout",
                ))
            }
        };
        if self.group_draw.is_some() && stages.is_none() {
            return Err(Error::bad(
                "bad_stages",
                "group_draw (seeded or lot) is a term of system groups-knockout",
            ));
        }
        if stages.is_some_and(|s| s.max_players() as usize > MAX_KNOCKOUT_ENTRIES) {
            return Err(Error::bad(
                "bad_stages",
                format!("groups × group_size is at most {MAX_KNOCKOUT_ENTRIES} players"),
            ));
        }
        if self.lineups.is_some() && !self.system.is_team() {
            return Err(Error::bad(
                "bad_lineups",
                "lineups (roster-order or any-order) is a team event's term",
            ));
        }
        let playoff_time_control =
            play::table::parse_time_control(self.playoff_time_control.as_deref().unwrap_or("5+3"))
                .map_err(|e| Error::bad("bad_time_control", format!("play-off games: {e}")))?;
        if playoff_time_control.is_unlimited() || playoff_time_control.correspondence_days().is_some() {
            return Err(Error::bad("bad_time_control", "play-off games need a clock"));
        }
        Ok(Terms {
            stages,
            groups_by_lot: self.group_draw == Some(GroupDraw::Lot),
            boards,
            substitutes,
            lineups_any_order: self.lineups == Some(LineupOrder::AnyOrder),
            team_all_play_all: all_play_all,
            team_ranking_places: self.team_ranking == Some(TeamRanking::Places),
            match_format,
            playoff_time_control,
            armageddon_choice_ms,
            name,
            variant,
            time_control,
            rated: self.rated,
            system: self.system,
            rounds,
            scoring: self.scoring.unwrap_or(if self.system == System::Arena {
                Scoring::TwoOneZero
            } else {
                Scoring::OneHalfZero
            }),
            duration_ms,
            berserk: self.system == System::Arena && self.berserk.unwrap_or(true),
            tiebreaks: self.tiebreaks.unwrap_or(TiebreakOrder::Fide),
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            invitation,
            min_rated_games,
            forfeit_after_ms,
            round_interval_ms,
            starts: self.round_starts,
        })
    }
}

/// A board's result as stored and as the API takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum BoardResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// Black lost by forfeit (seed 000 21.4: `+` for white, `-` for black).
    #[serde(rename = "+-")]
    WhiteForfeitWin,
    #[serde(rename = "-+")]
    BlackForfeitWin,
    /// Both forfeit (21.3: both over the time limit).
    #[serde(rename = "--")]
    DoubleForfeit,
}

impl BoardResult {
    pub fn as_str(self) -> &'static str {
        match self {
            BoardResult::WhiteWins => "1-0",
            BoardResult::BlackWins => "0-1",
            BoardResult::Draw => "1/2-1/2",
            BoardResult::WhiteForfeitWin => "+-",
            BoardResult::BlackForfeitWin => "-+",
            BoardResult::DoubleForfeit => "--",
        }
    }

    pub fn parse(s: &str) -> Option<BoardResult> {
        [
            BoardResult::WhiteWins,
            BoardResult::BlackWins,
            BoardResult::Draw,
            BoardResult::WhiteForfeitWin,
            BoardResult::BlackForfeitWin,
            BoardResult::DoubleForfeit,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }

    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            BoardResult::WhiteForfeitWin | BoardResult::BlackForfeitWin | BoardResult::DoubleForfeit
        )
    }

    /// The TRF outcomes of white and black.
    pub fn outcomes(self) -> (tournament::model::Outcome, tournament::model::Outcome) {
        use tournament::model::Outcome as O;
        match self {
            BoardResult::WhiteWins => (O::Win, O::Loss),
            BoardResult::BlackWins => (O::Loss, O::Win),
            BoardResult::Draw => (O::Draw, O::Draw),
            BoardResult::WhiteForfeitWin => (O::ForfeitWin, O::ForfeitLoss),
            BoardResult::BlackForfeitWin => (O::ForfeitLoss, O::ForfeitWin),
            BoardResult::DoubleForfeit => (O::ForfeitLoss, O::ForfeitLoss),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swiss() -> NewEvent {
        NewEvent {
            name: "Open".into(),
            variant: None,
            time_control: "5+3".into(),
            rated: false,
            system: System::Swiss,
            rounds: Some(5),
            scoring: None,
            tiebreaks: None,
            min_rating: None,
            max_rating: None,
            invitation_code: None,
            min_rated_games: None,
            forfeit_after_s: None,
            round_interval_s: None,
            round_starts: vec![],
            match_games: None,
            playoff_games: None,
            armageddon: None,
            playoff_time_control: None,
            armageddon_choice_s: None,
            duration_s: None,
            berserk: None,
            boards: None,
            substitutes: None,
            groups: None,
            group_size: None,
            advance: None,
            final_size: None,
            group_draw: None,
            lineups: None,
            team_match: None,
            team_ranking: None,
            first_to: None,
        }
    }

    #[test]
    fn terms_are_checked() {
        assert!(swiss().check().is_ok());
        let code = |e: NewEvent| match e.check() {
            Err(Error::BadRequest { code, .. }) => code,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            code(NewEvent {
                rounds: None,
                ..swiss()
            }),
            "bad_rounds"
        );
        assert_eq!(
            code(NewEvent {
                system: System::RoundRobin,
                ..swiss()
            }),
            "bad_rounds"
        );
        assert_eq!(
            code(NewEvent {
                name: " ".into(),
                ..swiss()
            }),
            "bad_event_name"
        );
        assert_eq!(
            code(NewEvent {
                time_control: "banana".into(),
                ..swiss()
            }),
            "bad_time_control"
        );
        assert_eq!(
            code(NewEvent {
                min_rating: Some(2000),
                max_rating: Some(1500),
                ..swiss()
            }),
            "bad_rating_range"
        );
        assert_eq!(
            code(NewEvent {
                round_starts: vec![5, 4],
                ..swiss()
            }),
            "bad_round_starts"
        );
        assert_eq!(
            code(NewEvent {
                round_interval_s: Some(MAX_ROUND_INTERVAL_S + 1),
                ..swiss()
            }),
            "bad_round_interval"
        );
        assert_eq!(
            code(NewEvent {
                system: System::Arena,
                rounds: None,
                duration_s: Some(60),
                round_interval_s: Some(60),
                ..swiss()
            }),
            "bad_round_interval"
        );
    }

    #[test]
    fn an_arena_needs_its_length_and_no_rounds() {
        let arena = || NewEvent {
            system: System::Arena,
            rounds: None,
            duration_s: Some(90),
            ..swiss()
        };
        let t = arena().check().unwrap();
        assert_eq!(
            (t.duration_ms, t.berserk, t.scoring),
            (90_000, true, Scoring::TwoOneZero)
        );
        let code = |e: NewEvent| match e.check() {
            Err(Error::BadRequest { code, .. }) => code,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            code(NewEvent {
                duration_s: None,
                ..arena()
            }),
            "bad_duration"
        );
        assert_eq!(
            code(NewEvent {
                duration_s: Some(10),
                ..arena()
            }),
            "bad_duration"
        );
        assert_eq!(
            code(NewEvent {
                rounds: Some(3),
                ..arena()
            }),
            "bad_rounds"
        );
        assert_eq!(
            code(NewEvent {
                scoring: Some(Scoring::OneHalfZero),
                ..arena()
            }),
            "bad_scoring"
        );
        assert_eq!(
            code(NewEvent {
                round_starts: vec![1, 2],
                ..arena()
            }),
            "bad_round_starts"
        );
        assert_eq!(
            code(NewEvent {
                duration_s: Some(60),
                ..swiss()
            }),
            "bad_duration"
        );
    }

    #[test]
    fn a_team_event_takes_boards_and_substitutes() {
        let team = || NewEvent {
            system: System::TeamRoundRobin,
            rounds: None,
            ..swiss()
        };
        let t = team().check().unwrap();
        assert_eq!((t.boards, t.substitutes, t.rounds), (4, 2, 0));
        let code = |e: NewEvent| match e.check() {
            Err(Error::BadRequest { code, .. }) => code,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            code(NewEvent {
                boards: Some(1),
                ..team()
            }),
            "bad_boards"
        );
        assert_eq!(
            code(NewEvent {
                substitutes: Some(5),
                ..team()
            }),
            "bad_boards"
        );
        assert_eq!(
            code(NewEvent {
                boards: Some(4),
                ..swiss()
            }),
            "bad_boards"
        );
        assert_eq!(
            code(NewEvent {
                rounds: Some(3),
                ..team()
            }),
            "bad_rounds"
        );
        assert_eq!(System::parse("team-round-robin"), Some(System::TeamRoundRobin));
        // A team Swiss has its rounds like a Swiss, and the team terms.
        let team_swiss = || NewEvent {
            system: System::TeamSwiss,
            rounds: Some(3),
            boards: Some(2),
            ..swiss()
        };
        let t = team_swiss().check().unwrap();
        assert_eq!((t.boards, t.substitutes, t.rounds), (2, 2, 3));
        assert_eq!(
            code(NewEvent {
                rounds: None,
                ..team_swiss()
            }),
            "bad_rounds"
        );
        assert_eq!(System::parse("team-swiss"), Some(System::TeamSwiss));
        let any = NewEvent {
            lineups: Some(LineupOrder::AnyOrder),
            ..team_swiss()
        };
        assert!(any.check().unwrap().lineups_any_order);
        assert!(!team_swiss().check().unwrap().lineups_any_order);
        assert_eq!(
            code(NewEvent {
                lineups: Some(LineupOrder::AnyOrder),
                ..swiss()
            }),
            "bad_lineups"
        );
        assert!(System::TeamSwiss.is_team() && !System::Swiss.is_team());
    }

    #[test]
    fn all_play_all_matches_and_the_sum_of_places_are_team_terms() {
        let code = |e: NewEvent| match e.check() {
            Err(Error::BadRequest { code, .. }) => code,
            other => panic!("{other:?}"),
        };
        let trr = || NewEvent {
            system: System::TeamRoundRobin,
            rounds: None,
            boards: Some(2),
            ..swiss()
        };
        let t = NewEvent {
            team_match: Some(TeamMatchKind::AllPlayAll),
            team_ranking: Some(TeamRanking::Places),
            ..trr()
        }
        .check()
        .unwrap();
        // 12.4: a roster is its boards' players.
        assert!(t.team_all_play_all && t.team_ranking_places);
        assert_eq!((t.boards, t.substitutes), (2, 0));
        let plain = trr().check().unwrap();
        assert!(!plain.team_all_play_all && !plain.team_ranking_places);
        for bad in [
            NewEvent {
                team_match: Some(TeamMatchKind::AllPlayAll),
                substitutes: Some(1),
                ..trr()
            },
            NewEvent {
                team_match: Some(TeamMatchKind::AllPlayAll),
                lineups: Some(LineupOrder::AnyOrder),
                ..trr()
            },
            NewEvent {
                team_match: Some(TeamMatchKind::AllPlayAll),
                system: System::TeamSwiss,
                rounds: Some(3),
                ..trr()
            },
        ] {
            assert_eq!(code(bad), "bad_team_match");
        }
        assert_eq!(
            code(NewEvent {
                team_ranking: Some(TeamRanking::Places),
                ..swiss()
            }),
            "bad_team_terms"
        );
        // 15.5 on a team Swiss too.
        assert!(
            NewEvent {
                system: System::TeamSwiss,
                rounds: Some(3),
                boards: Some(2),
                team_ranking: Some(TeamRanking::Places),
                ..swiss()
            }
            .check()
            .unwrap()
            .team_ranking_places
        );
    }

    #[test]
    fn a_double_elimination_takes_a_knockouts_match_terms_and_no_rounds() {
        let de = || NewEvent {
            system: System::DoubleElimination,
            rounds: None,
            match_games: Some(2),
            playoff_games: Some(2),
            armageddon: Some(false),
            playoff_time_control: Some("3+2".into()),
            ..swiss()
        };
        let t = de().check().unwrap();
        assert_eq!(t.rounds, 0, "the rounds follow from the results");
        assert_eq!(
            t.match_format,
            tournament::knockout::MatchFormat {
                games: 2,
                playoff_games: 2,
                armageddon: false,
                first_to: 0
            }
        );
        assert!(t.system.plays_matches() && t.system.is_knockout());
        assert!(TiebreakOrder::Fide.tiebreaks(t.system).is_empty());
        assert_eq!(
            System::parse("double-elimination"),
            Some(System::DoubleElimination)
        );
        let code = |e: NewEvent| match e.check() {
            Err(Error::BadRequest { code, .. }) => code,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            code(NewEvent {
                rounds: Some(5),
                ..de()
            }),
            "bad_rounds"
        );
        assert_eq!(
            code(NewEvent {
                groups: Some(2),
                group_size: Some(4),
                ..de()
            }),
            "bad_stages"
        );
        // A race to two wins is a double elimination's match too.
        let race = NewEvent {
            first_to: Some(2),
            match_games: None,
            playoff_games: None,
            armageddon: None,
            ..de()
        };
        assert_eq!(race.check().unwrap().match_format.first_to, 2);
    }

    #[test]
    fn a_knockout_may_race_to_a_number_of_wins() {
        let ko = || NewEvent {
            system: System::Knockout,
            rounds: None,
            first_to: Some(3),
            ..swiss()
        };
        let t = ko().check().unwrap();
        assert_eq!((t.match_format.first_to, t.match_format.playoff_games), (3, 0));
        let code = |e: NewEvent| match e.check() {
            Err(Error::BadRequest { code, .. }) => code,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            code(NewEvent {
                first_to: Some(0),
                ..ko()
            }),
            "bad_match_format"
        );
        assert_eq!(
            code(NewEvent {
                match_games: Some(3),
                ..ko()
            }),
            "bad_match_format"
        );
        assert_eq!(
            code(NewEvent {
                first_to: Some(3),
                ..swiss()
            }),
            "bad_match_format"
        );
    }

    /// The wait for the armageddon colour (seed 001: the player without a
    /// choice at the lot chooses) is a knockout match's term, bounded.
    #[test]
    fn the_armageddon_choice_wait_is_a_match_term_within_bounds() {
        let ko = |wait: Option<u32>| NewEvent {
            system: System::Knockout,
            rounds: None,
            armageddon_choice_s: wait,
            ..swiss()
        };
        assert_eq!(ko(None).check().unwrap().armageddon_choice_ms, 60_000);
        assert_eq!(ko(Some(5)).check().unwrap().armageddon_choice_ms, 5_000);
        assert_eq!(ko(Some(600)).check().unwrap().armageddon_choice_ms, 600_000);
        let code = |e: NewEvent| match e.check() {
            Err(Error::BadRequest { code, .. }) => code,
            other => panic!("{other:?}"),
        };
        for bad in [
            ko(Some(4)),
            ko(Some(601)),
            NewEvent {
                armageddon_choice_s: Some(30),
                ..swiss()
            },
            NewEvent {
                armageddon: Some(false),
                ..ko(Some(30))
            },
            NewEvent {
                first_to: Some(2),
                ..ko(Some(30))
            },
        ] {
            assert_eq!(code(bad), "bad_match_format");
        }
    }

    #[test]
    fn groups_knockout_final_terms_are_checked() {
        let staged = |groups, size, advance, final_size| NewEvent {
            system: System::GroupsKnockout,
            rounds: None,
            groups,
            group_size: size,
            advance,
            final_size,
            ..swiss()
        };
        let s = staged(Some(12), Some(4), Some(1), Some(3)).check().unwrap();
        assert_eq!(s.stages.map(|s| s.players()), Some(48));
        for (bad, why) in [
            (staged(None, Some(4), Some(1), Some(3)), "no groups"),
            (staged(Some(2), Some(4), Some(5), Some(3)), "advance > group size"),
            (
                staged(Some(2), Some(4), Some(1), Some(3)),
                "final larger than the field",
            ),
            (staged(Some(2), Some(1), Some(1), Some(2)), "groups of one"),
            (staged(Some(100), Some(4), Some(1), Some(3)), "too many players"),
        ] {
            match bad.check() {
                Err(Error::BadRequest { code, .. }) => assert_eq!(code, "bad_stages", "{why}"),
                other => panic!("{why}: {other:?}"),
            }
        }
        match (NewEvent {
            groups: Some(2),
            ..swiss()
        })
        .check()
        {
            Err(Error::BadRequest { code, .. }) => assert_eq!(code, "bad_stages"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn results_round_trip_and_score() {
        for r in ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"] {
            assert_eq!(BoardResult::parse(r).unwrap().as_str(), r);
        }
        assert!(BoardResult::parse("2-0").is_none());
        let p = Scoring::ThreeOneZero.points();
        let (w, b) = BoardResult::WhiteForfeitWin.outcomes();
        assert_eq!((p.points(w), p.points(b)), (Points::whole(3), Points::ZERO));
    }
}
