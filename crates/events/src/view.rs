//! What the API shows of an event: its terms and entries, the pairings of
//! each round, the standings with tie-breaks, the crosstable, the log, and
//! the downloads (TRF-2026 through the tournament crate's writer, the PGN
//! of every game).

use crate::{Events, Loaded};
use common::Error;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tournament::model::Outcome;
use tournament::tiebreak::standings::{standings, Rules};
use utoipa::ToSchema;

/// An event in a list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EventSummary {
    pub id: String,
    pub name: String,
    pub organiser: String,
    pub variant: String,
    pub time_control: String,
    pub rated: bool,
    pub system: String,
    pub rounds: u32,
    /// `open` (taking entries), `running` or `finished`.
    pub state: String,
    pub current_round: u32,
    pub players: usize,
    /// The next round's scheduled start, if it has one (an arena's start).
    pub next_start_ms: Option<i64>,
    pub created_ms: i64,
    /// An arena's end, once it started.
    pub ends_ms: Option<i64>,
    /// The arbiter paused the event.
    pub paused: bool,
}

/// One entry.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EntryView {
    /// Pairing number (TRF starting rank); the joining order until round 1
    /// is paired, then the initial ranking.
    pub number: u32,
    pub name: String,
    pub rating: i64,
    pub withdrawn: bool,
    pub withdrawn_from: Option<u32>,
    pub late: bool,
    pub first_round: u32,
}

/// A player on a board.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct BoardPlayer {
    pub number: u32,
    pub name: String,
}

/// One board of a round.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PairingView {
    pub board: u32,
    /// The first side (white, red).
    pub white: BoardPlayer,
    /// `None`: white has the bye.
    pub black: Option<BoardPlayer>,
    pub game: Option<String>,
    /// `None` while playing; `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`, `bye`.
    pub result: Option<String>,
    /// Scored without play (seed 000 21.4).
    pub forfeit: bool,
    /// A knockout match's games, in order (empty in other systems): `white`
    /// and `black` above are the bracket's first- and second-listed
    /// players, the result says who went through.
    pub games: Vec<MatchGameView>,
    /// A knockout match's armageddon colour once its wait opened: who
    /// chooses, until when, and what was chosen (`None` before, and in
    /// other systems).
    pub armageddon_choice: Option<ArmageddonChoiceView>,
}

/// A knockout match's armageddon colour (seed 001: chosen by the player
/// who had no choice at the lot; black, a draw's winner, when they let
/// the wait run out).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ArmageddonChoiceView {
    /// Who chooses.
    pub chooser: BoardPlayer,
    /// The wait's end (ms since the epoch): then the server chooses black
    /// for them.
    pub until_ms: i64,
    /// `first` or `second`: the side the chooser took; `None` while the
    /// match waits.
    pub side: Option<String>,
    /// The wait ran out and the server chose.
    pub by_server: bool,
}

/// Your own match waiting for your armageddon colour:
/// `POST /api/events/{id}/armageddon` before `until_ms`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MyArmageddonChoice {
    pub round: u32,
    pub board: u32,
    pub until_ms: i64,
}

/// One game of a knockout match.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MatchGameView {
    pub number: u32,
    /// `regular`, `playoff` or `armageddon` (a draw is black's win).
    pub phase: String,
    /// The pairing number with the first side (white, red) in this game.
    pub white: u32,
    pub game: String,
    /// `1-0`, `0-1`, `1/2-1/2` as the game went, `forfeit`, or `None`.
    pub result: Option<String>,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RoundView {
    pub round: u32,
    pub complete: bool,
    /// The round's boards, shown or not.
    pub board_count: usize,
    /// Its boards; empty for a round the reader did not ask for
    /// ([`Boards`]).
    pub boards: Vec<PairingView>,
}

/// Which rounds' boards an event's view carries. Every round is listed
/// (number, complete, how many boards) either way; a page that shows one
/// round asks for its boards only — a 1,000-player Swiss's page read
/// every round's 500 boards every 5 s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Boards {
    #[default]
    All,
    Round(u32),
    /// The last round paired.
    Latest,
}

impl Boards {
    /// `latest` or a round's number.
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(s: &str) -> Result<Boards, Error> {
        if s == "latest" {
            return Ok(Boards::Latest);
        }
        s.parse().map(Boards::Round).map_err(|_| {
            Error::bad(
                "bad_round",
                format!("round {s:?} is not a round's number or latest"),
            )
        })
    }
}

/// An event whole.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EventView {
    #[serde(flatten)]
    pub summary: EventSummary,
    pub scoring: String,
    pub tiebreaks: String,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// Whether joining needs an invitation code (the code is the arbiter's).
    pub invitation_required: bool,
    /// Each round's start as scheduled (ms since the epoch; 0: a round
    /// the arbiter paired with no start of its own). A scheduled event's
    /// later starts appear as the rounds before them end.
    pub round_starts: Vec<i64>,
    /// Rounds after those with a start are paired this many seconds after
    /// the round before ended (`null`: by the arbiter).
    pub round_interval_s: Option<i64>,
    /// A knockout's match format: games of the match proper, play-off
    /// games after a tie, whether an armageddon game follows, and the
    /// play-off games' clock.
    pub match_games: u32,
    pub playoff_games: u32,
    pub armageddon: bool,
    pub playoff_time_control: String,
    /// A knockout race: a match is won by the first to win this many
    /// games (0: the match is `match_games` games).
    pub first_to: u32,
    /// Entry only with at least this many rated games in the pool.
    pub min_rated_games: u32,
    /// Seconds for each game's first move before it is forfeited (21.1);
    /// `null`: the server's window.
    pub forfeit_after_s: Option<i64>,
    pub entries: Vec<EntryView>,
    pub rounds_paired: Vec<RoundView>,
    /// Whether you are this event's arbiter (its organiser, or named).
    pub arbiter: bool,
    /// The arbiters the organiser named besides themself.
    pub arbiters: Vec<String>,
    /// Whether you are entered (and not withdrawn or paused).
    pub entered: bool,
    /// Your game being played in this event, if any.
    pub my_game: Option<String>,
    /// Your match waiting for you to choose its armageddon colour, if any.
    pub my_armageddon_choice: Option<MyArmageddonChoice>,
    /// A knockout match's wait for its armageddon colour, in seconds.
    pub armageddon_choice_s: i64,
    /// When the arbiter published the final results.
    pub published_ms: Option<i64>,
    /// An arena's length, berserk rule and games (`None` in other systems).
    pub arena: Option<ArenaView>,
    /// Groups → knockout → final: the plan and where it stands (`None`
    /// in other systems).
    pub stages: Option<StagesView>,
}

/// A staged event (seed 001's office event): its plan, each round's
/// stage, the groups and their standings, each knockout round's field and
/// the final's.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StagesView {
    pub groups: u32,
    pub group_size: u32,
    pub advance: u32,
    pub final_size: u32,
    /// How the groups were made: `seeded` or `lot`.
    pub group_draw: String,
    /// Each round of the event in order: `groups`, `knockout` or `final`.
    pub round_stages: Vec<String>,
    /// Each group's pairing numbers in seeding order.
    pub group_members: Vec<Vec<u32>>,
    /// Each group's pairing numbers in standings order (points, the
    /// event's round-robin tie-breaks, then number), over the group rounds
    /// played so far.
    pub group_standings: Vec<Vec<u32>>,
    /// The field of each knockout round known so far, in seed order.
    pub knockout_fields: Vec<Vec<u32>>,
    /// The final round robin's players in seed order, once known.
    pub finalists: Vec<u32>,
    /// Every player in final order, once the final is over.
    pub final_order: Vec<u32>,
    /// The tie-breaks of the groups' and the final's tables.
    pub tiebreaks: Vec<String>,
    /// Each group's table (points and tie-breaks over its rounds), in
    /// standings order.
    pub group_tables: Vec<Vec<StandingRow>>,
    /// The final round robin's table, once its players are known.
    pub final_table: Vec<StandingRow>,
}

/// An arena: its terms and every game paired, in order.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ArenaView {
    pub duration_ms: i64,
    pub berserk: bool,
    /// Every game in the order paired; for a reader who asked for one
    /// round's boards ([`Boards`]: the page), the games being played and
    /// the last [`RECENT_ARENA_GAMES`] finished — a 500-player arena pairs
    /// thousands of games an hour.
    pub games: Vec<ArenaGameView>,
    /// The games paired in all, shown or not.
    pub games_total: usize,
}

/// Finished games an arena's page is sent (it shows the last 40).
pub const RECENT_ARENA_GAMES: usize = 40;

/// One game of an arena.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ArenaGameView {
    pub seq: u32,
    pub white: BoardPlayer,
    pub black: BoardPlayer,
    pub game: String,
    pub paired_ms: i64,
    /// `None` while playing; `1-0`, `0-1`, `1/2-1/2`, or `*` (called off,
    /// counts for no one).
    pub result: Option<String>,
    pub plies: u32,
    pub white_berserk: bool,
    pub black_berserk: bool,
    pub ended_ms: Option<i64>,
    /// The players' arena points now, first side then second: the live
    /// boards show the leaders' games first, as lichess's arena does its
    /// top games.
    pub points_now: [u32; 2],
}

/// An arena player's line: the sheet behind the points.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ArenaLine {
    /// Each finished game's points in order (`4` doubled on a streak, `3`
    /// a berserk win …).
    pub scores: Vec<ArenaScoreView>,
    /// On a streak: the next game scores double (the flame).
    pub fire: bool,
    pub games: u32,
    pub wins: u32,
    /// Berserk wins that earned their point.
    pub berserk_points: u32,
    /// Paused: not paired until they join again.
    pub paused: bool,
    /// The game they are playing now.
    pub playing: Option<String>,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ArenaScoreView {
    pub points: u32,
    /// `win`, `draw` or `loss`.
    pub result: String,
    pub double: bool,
    pub berserk: bool,
    pub short_draw: bool,
    /// A draw right after a draw: nothing scored (lila's draw streak).
    pub draw_streak: bool,
}

/// One line of the standings.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StandingRow {
    pub rank: u32,
    pub shared: bool,
    pub number: u32,
    pub name: String,
    /// Points with one decimal (`2.5`).
    pub points: String,
    /// One per tie-break, in order (`null` where not applied).
    pub tiebreaks: Vec<Option<String>>,
    /// An arena's sheet (`None` in other systems).
    pub arena: Option<ArenaLine>,
    /// A double elimination's losses and the round of the second
    /// (`None` in other systems).
    pub elimination: Option<EliminationLine>,
    /// The player's penalties (seed 000 18.1 warnings, 18.2
    /// disqualifications from a game): 18.4 ranks the penalised last
    /// among equal scores, so the table says why they are there.
    pub warnings: u32,
    pub disqualifications: u32,
}

/// A player of a double elimination: matches lost, and the round they
/// went out in (`None`: still in, or the champion).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EliminationLine {
    pub losses: u32,
    pub wins: u32,
    pub out_in_round: Option<u32>,
    pub champion: bool,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StandingsView {
    /// The tie-breaks' names, in order (`BH-C1`, `SB`, …).
    pub tiebreaks: Vec<String>,
    pub rows: Vec<StandingRow>,
    /// Rounds whose results all count.
    pub rounds_complete: u32,
}

/// One line of the crosstable.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CrosstableRow {
    pub number: u32,
    pub name: String,
    pub rating: i64,
    pub points: String,
    /// Per round, as TRF writes a cell: opponent, colour, result
    /// (`5 w 1`, `0000 - U`), empty when not paired.
    pub rounds: Vec<String>,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CrosstableView {
    pub rows: Vec<CrosstableRow>,
}

/// One line of the arbiter's log.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LogView {
    pub seq: i64,
    pub at_ms: i64,
    /// Who did it (`server` for what the server did by itself).
    pub by: String,
    pub action: String,
    pub detail: String,
}

impl Events {
    fn summary(&self, l: &Loaded, organiser: String) -> EventSummary {
        let starts: Vec<i64> = serde_json::from_str(&l.event.starts).unwrap_or_default();
        EventSummary {
            id: l.event.id.clone(),
            name: l.event.name.clone(),
            organiser,
            variant: l.event.variant.clone(),
            time_control: l.event.time_control.clone(),
            rated: l.event.rated,
            system: l.event.system.clone(),
            rounds: l.event.rounds,
            state: l.event.state.clone(),
            current_round: l.event.current_round,
            players: l.entries.iter().filter(|e| !e.withdrawn).count(),
            next_start_ms: starts.get(l.event.current_round as usize).copied(),
            created_ms: l.event.created_ms,
            ends_ms: l.event.ends_ms,
            paused: l.event.paused,
        }
    }

    async fn organiser_name(&self, l: &Loaded) -> Result<String, Error> {
        Ok(self
            .store()
            .user_by_id(&l.event.organiser_id)
            .await?
            .map_or_else(String::new, |u| u.name))
    }

    /// Events in a state (`upcoming` = open, `running`, `finished`), the
    /// newest first.
    ///
    /// # Errors
    /// An unknown state, or the database.
    pub async fn list(&self, state: &str) -> Result<Vec<EventSummary>, Error> {
        let stored = match state {
            "upcoming" | "open" => "open",
            "running" => "running",
            "finished" => "finished",
            _ => {
                return Err(Error::bad(
                    "bad_state",
                    format!("{state:?} is not upcoming, running or finished"),
                ))
            }
        };
        let mut out = Vec::new();
        for e in self.store().events_in(stored, 100).await? {
            let l = self.load_seen(&e.id).await?;
            let name = self.organiser_name(&l).await?;
            out.push(self.summary(&l, name));
        }
        Ok(out)
    }

    /// An event with its entries and every round's pairings, as `viewer`
    /// sees it.
    ///
    /// # Errors
    /// No such event, or the database.
    pub async fn get(&self, id: &str, viewer: Option<&store::User>) -> Result<EventView, Error> {
        self.get_boards(id, viewer, Boards::All).await
    }

    /// As [`Events::get`], with only `boards`' boards.
    ///
    /// # Errors
    /// No such event, or the database.
    pub async fn get_boards(
        &self,
        id: &str,
        viewer: Option<&store::User>,
        boards: Boards,
    ) -> Result<EventView, Error> {
        let l = self.load_seen(id).await?;
        self.view_of(&l, viewer, boards).await
    }

    pub(crate) async fn view_of(
        &self,
        l: &Loaded,
        viewer: Option<&store::User>,
        shown: Boards,
    ) -> Result<EventView, Error> {
        let name_of = |n: u32| BoardPlayer {
            number: n,
            name: l.entry_number(n).map_or_else(String::new, |e| e.name.clone()),
        };
        let shown = match shown {
            Boards::All => None,
            Boards::Round(r) => Some(r),
            Boards::Latest => Some(l.event.current_round),
        };
        let rounds_paired = (1..=l.event.current_round)
            .map(|r| {
                let rows: Vec<&store::PairingRow> = l.pairings.iter().filter(|p| p.round == r).collect();
                let complete = rows.iter().all(|p| p.result.is_some());
                let board_count = rows.len();
                let rows = if shown.is_none_or(|s| s == r) {
                    rows
                } else {
                    Vec::new()
                };
                let boards: Vec<PairingView> = rows
                    .into_iter()
                    .map(|p| PairingView {
                        board: p.board,
                        white: name_of(p.white),
                        black: p.black.map(name_of),
                        game: p.game_id.clone(),
                        result: p.result.clone(),
                        forfeit: p.forfeit,
                        games: l
                            .match_games
                            .iter()
                            .filter(|g| g.round == p.round && g.board == p.board)
                            .map(|g| MatchGameView {
                                number: g.game_no,
                                phase: g.phase.clone(),
                                white: g.white,
                                game: g.game_id.clone(),
                                result: g.result.clone(),
                            })
                            .collect(),
                        armageddon_choice: crate::armageddon::choice_of(l, p).map(|c| ArmageddonChoiceView {
                            chooser: name_of(c.chooser),
                            until_ms: c.due_ms,
                            side: c.side.clone(),
                            by_server: c.by_server,
                        }),
                    })
                    .collect();
                RoundView {
                    round: r,
                    complete,
                    board_count,
                    boards,
                }
            })
            .collect();
        let organiser = self.organiser_name(l).await?;
        let named = self.store().event_arbiters(&l.event.id).await?;
        let arbiter = viewer.is_some_and(|u| crate::arbiter_among(l, &named, &u.id));
        let mut arbiters = Vec::with_capacity(named.len());
        for id in &named {
            if let Some(u) = self.store().user_by_id(id).await? {
                arbiters.push(u.name);
            }
        }
        let stages = match crate::staged::stages(l) {
            Some(s) => {
                let p = crate::staged::progress(l)?;
                let g = s.group_rounds();
                let group_tables = p
                    .groups
                    .iter()
                    .map(|members| crate::staged::round_robin_table(l, members, 1, g).map(|t| table_rows(&t)))
                    .collect::<Result<_, _>>()?;
                let final_table = if p.finalists.is_empty() {
                    Vec::new()
                } else {
                    let first = s.total_rounds() + 1 - s.final_rounds();
                    table_rows(&crate::staged::round_robin_table(
                        l,
                        &p.finalists,
                        first,
                        s.total_rounds(),
                    )?)
                };
                Some(StagesView {
                    tiebreaks: crate::staged::tiebreak_names(l),
                    group_tables,
                    final_table,
                    groups: s.groups,
                    group_size: s.group_size,
                    advance: s.advance,
                    final_size: s.final_size,
                    group_draw: if s.lot.is_some() { "lot" } else { "seeded" }.to_string(),
                    round_stages: (1..=s.total_rounds())
                        .map(|r| {
                            match s.stage_of(r) {
                                Ok(tournament::staged::Stage::Groups(_)) => "groups",
                                Ok(tournament::staged::Stage::Knockout(_)) => "knockout",
                                _ => "final",
                            }
                            .to_string()
                        })
                        .collect(),
                    group_members: p.groups,
                    group_standings: p.group_standings,
                    knockout_fields: p.knockout_fields,
                    finalists: p.finalists,
                    final_order: p.final_order,
                })
            }
            None => None,
        };
        Ok(EventView {
            stages,
            summary: self.summary(l, organiser),
            scoring: l.event.scoring.clone(),
            tiebreaks: l.event.tiebreaks.clone(),
            min_rating: l.event.min_rating,
            max_rating: l.event.max_rating,
            invitation_required: l.event.invitation.is_some(),
            round_starts: serde_json::from_str(&l.event.starts).unwrap_or_default(),
            round_interval_s: l.event.round_interval_ms.map(|ms| ms / 1000),
            match_games: l.event.match_games,
            playoff_games: l.event.playoff_games,
            armageddon: l.event.armageddon,
            playoff_time_control: l.event.playoff_time_control.clone(),
            first_to: l.event.first_to,
            min_rated_games: l.event.min_rated_games,
            forfeit_after_s: (l.event.forfeit_after_ms > 0).then_some(l.event.forfeit_after_ms / 1000),
            entries: l
                .entries
                .iter()
                .map(|e| EntryView {
                    number: e.number,
                    name: e.name.clone(),
                    rating: e.rating,
                    withdrawn: e.withdrawn,
                    withdrawn_from: e.withdrawn_from,
                    late: e.late,
                    first_round: e.first_round,
                })
                .collect(),
            rounds_paired,
            arbiter,
            arbiters,
            entered: viewer.is_some_and(|u| l.entry_of(&u.id).is_some_and(|e| !e.withdrawn)),
            my_game: viewer.and_then(|u| my_game(l, &u.id)),
            my_armageddon_choice: viewer.and_then(|u| {
                let me = l.entry_of(&u.id)?.number;
                crate::armageddon::pending(l)
                    .into_iter()
                    .find(|(_, c)| c.chooser == me)
                    .map(|(p, c)| MyArmageddonChoice {
                        round: p.round,
                        board: p.board,
                        until_ms: c.due_ms,
                    })
            }),
            armageddon_choice_s: l.event.armageddon_choice_ms / 1000,
            published_ms: l.event.published_ms,
            arena: (l.system == crate::System::Arena).then(|| {
                let sheets = crate::arena::sheets(&l.arena_games);
                let points = |n: u32| sheets.get(&n).map_or(0, |s| s.points);
                ArenaView {
                    duration_ms: l.event.duration_ms,
                    berserk: l.event.berserk,
                    games_total: l.arena_games.len(),
                    games: l
                        .arena_games
                        .iter()
                        .filter({
                            let finished = l.arena_games.iter().filter(|g| g.result.is_some()).count();
                            let mut skip = if shown.is_some() {
                                finished.saturating_sub(RECENT_ARENA_GAMES)
                            } else {
                                0
                            };
                            move |g| {
                                if g.result.is_none() || skip == 0 {
                                    return true;
                                }
                                skip -= 1;
                                false
                            }
                        })
                        .map(|g| ArenaGameView {
                            seq: g.seq,
                            white: name_of(g.white),
                            black: name_of(g.black),
                            game: g.game_id.clone(),
                            paired_ms: g.paired_ms,
                            result: g.result.clone(),
                            plies: g.plies,
                            white_berserk: g.white_berserk,
                            black_berserk: g.black_berserk,
                            ended_ms: g.ended_ms,
                            points_now: [points(g.white), points(g.black)],
                        })
                        .collect(),
                }
            }),
        })
    }

    /// The standings: points, then the event's tie-breaks (FIDE C.07 or
    /// CXA 15.1/15.2), players still tied sharing the place.
    ///
    /// # Errors
    /// No such event, or an inconsistent crosstable.
    pub async fn standings(&self, id: &str) -> Result<StandingsView, Error> {
        let l = self.load_seen(id).await?;
        if let Some(s) = self.0.seen.standings(id, &l) {
            return Ok(s);
        }
        let s = standings_of(&l)?;
        self.0.seen.keep_standings(id, &l, &s);
        Ok(s)
    }

    /// The crosstable, one TRF-like cell per round.
    ///
    /// # Errors
    /// No such event.
    pub async fn crosstable(&self, id: &str) -> Result<CrosstableView, Error> {
        let l = self.load_seen(id).await?;
        let t = l.model();
        let rows = t
            .players
            .iter()
            .map(|p| CrosstableRow {
                number: p.id,
                name: p.name.clone(),
                rating: i64::from(p.rating),
                points: t.score_of(p, u32::MAX).to_string(),
                rounds: p
                    .rounds
                    .iter()
                    .map(|e| match (e.opponent, e.colour, e.outcome) {
                        (None, _, Outcome::Absent) => String::new(),
                        (opp, colour, outcome) => format!(
                            "{} {} {}",
                            opp.map_or_else(|| "0000".to_string(), |o| o.to_string()),
                            match colour {
                                Some(tournament::model::Colour::White) => 'w',
                                Some(tournament::model::Colour::Black) => 'b',
                                None => '-',
                            },
                            outcome.code()
                        )
                        .trim_end()
                        .to_string(),
                    })
                    .collect(),
            })
            .collect();
        Ok(CrosstableView { rows })
    }

    /// The event as a TRF file (TRF-2016 player lines with the TRF(x) and
    /// bbpPairings codes the tournament crate writes): what `qiju
    /// tournament pair` reads to pair a round as this room paired it.
    ///
    /// # Errors
    /// No such event.
    pub async fn trf(&self, id: &str) -> Result<String, Error> {
        let l = self.load(id).await?;
        let mut t = l.model();
        t.other_lines.push(format!("092 {}", tournament_kind(&l)));
        Ok(tournament::trf::write(&t))
    }

    /// Every game of the event as one PGN file, by round and board.
    ///
    /// # Errors
    /// No such event, or a game's record cannot be written.
    pub async fn pgn(&self, id: &str) -> Result<String, Error> {
        let l = self.load(id).await?;
        let mut out = String::new();
        // A knockout board's games are its match's (its `game_id` the
        // latest of them); another board's, one (a staged event has both).
        let is_match = |p: &store::PairingRow| {
            l.match_games
                .iter()
                .any(|g| g.round == p.round && g.board == p.board)
        };
        let mut games: Vec<(u32, u32, u32, &String)> = l
            .pairings
            .iter()
            .filter(|p| !is_match(p))
            .filter_map(|p| p.game_id.as_ref().map(|g| (p.round, p.board, 0, g)))
            .chain(
                l.match_games
                    .iter()
                    .map(|g| (g.round, g.board, g.game_no, &g.game_id)),
            )
            .collect();
        games.sort_unstable();
        let games = games.into_iter().map(|(r, b, _, g)| (r, b, g));
        for (round, board, game) in games {
            let Some(v) = play::live::view(self.play(), game).await? else {
                continue;
            };
            let text = play::pgn::write(&v, None).map_err(Error::Internal)?;
            let event_tags = format!(
                "[Event \"{}\"]\n[Round \"{}.{}\"]\n",
                l.event.name.replace(['"', '\\'], ""),
                round,
                board
            );
            // The event's own tags first; the game's own Event/Round tags
            // (an online game's) are replaced.
            let body: String = text
                .lines()
                .filter(|line| !line.starts_with("[Event ") && !line.starts_with("[Round "))
                .map(|line| format!("{line}\n"))
                .collect();
            out.push_str(&event_tags);
            out.push_str(&body);
            out.push('\n');
        }
        Ok(out)
    }

    /// The arbiter's log, oldest first (public, as a noticeboard); only
    /// its `last` lines if asked (the page shows 30, and a 1,000-player
    /// event's log has thousands).
    ///
    /// # Errors
    /// No such event.
    pub async fn log_of(&self, id: &str, last: Option<u32>) -> Result<Vec<LogView>, Error> {
        if self.store().event(id).await?.is_none() {
            return Err(Error::NotFound(format!("event {id}")));
        }
        Ok(self
            .store()
            .event_log(id, last)
            .await?
            .into_iter()
            .map(|r| LogView {
                seq: r.seq,
                at_ms: r.at_ms,
                by: r.actor,
                action: r.action,
                detail: r.detail,
            })
            .collect())
    }
}

/// TRF-2016's `092` line: the type of tournament.
fn tournament_kind(l: &Loaded) -> &'static str {
    match l.system {
        crate::System::Swiss => "Swiss (FIDE Dutch)",
        crate::System::RoundRobin => "Round robin",
        crate::System::DoubleRoundRobin => "Double round robin",
        crate::System::Knockout => "Knockout",
        crate::System::Arena => "Arena",
        crate::System::TeamRoundRobin => "Team round robin",
        crate::System::GroupsKnockout => "Groups, knockout, final round robin",
        crate::System::TeamSwiss => "Team Swiss (FIDE Dutch)",
        crate::System::DoubleElimination => "Double elimination",
    }
}

/// The game `user_id` is playing in this event now, if any.
fn my_game(l: &Loaded, user_id: &str) -> Option<String> {
    let n = l.entry_of(user_id)?.number;
    let arena = l
        .arena_games
        .iter()
        .rev()
        .find(|g| g.result.is_none() && (g.white == n || g.black == n))
        .map(|g| g.game_id.clone());
    arena.or_else(|| {
        l.pairings
            .iter()
            .rev()
            .find(|p| p.result.is_none() && (p.white == n || p.black == Some(n)))
            .and_then(|p| p.game_id.clone())
    })
}

/// The standings of a loaded event (see [`Events::standings`]).
fn standings_of(l: &Loaded) -> Result<StandingsView, Error> {
    if l.system == crate::System::Arena {
        return Ok(arena_standings(l));
    }
    if l.system == crate::System::GroupsKnockout {
        return staged_standings(l);
    }
    if l.system == crate::System::DoubleElimination {
        return double_elimination_standings(l);
    }
    let s = player_standings(l)?;
    let complete = l.rounds_complete();
    let mut rows = table_rows(&s.rows);
    let penalties = l.penalties_by_number();
    for r in &mut rows {
        if let Some(p) = penalties.get(&r.number) {
            (r.warnings, r.disqualifications) = (p.warnings, p.disqualifications);
        }
    }
    Ok(StandingsView {
        tiebreaks: s.tiebreaks.iter().map(|t| t.name().to_string()).collect(),
        rows,
        rounds_complete: complete,
    })
}

/// An arena's standings: points from each player's sheet (streaks,
/// berserk, short draws: `arena::rules`), then the performance
/// (`arena::rules::performance`); equal points and performance share the
/// place.
fn arena_standings(l: &Loaded) -> StandingsView {
    use crate::arena::rules::Res;
    let sheets = crate::arena::sheets(&l.arena_games);
    let empty = crate::arena::rules::Sheet::default();
    let mut rows: Vec<(&store::EntryRow, &crate::arena::rules::Sheet)> = l
        .entries
        .iter()
        .map(|e| (e, sheets.get(&e.number).unwrap_or(&empty)))
        .collect();
    let ratings: HashMap<u32, i64> = l.entries.iter().map(|e| (e.number, e.rating)).collect();
    let performances = crate::arena::performances(&l.arena_games, &ratings);
    // lila's order: points, then the performance (a player with no game
    // yet: their rating). Only both equal share a place.
    let key = |e: &store::EntryRow, s: &crate::arena::rules::Sheet| {
        (s.points, performances.get(&e.number).copied().unwrap_or(e.rating))
    };
    rows.sort_by(|a, b| {
        key(b.0, b.1)
            .cmp(&key(a.0, a.1))
            .then(a.0.number.cmp(&b.0.number))
    });
    let keys: Vec<(u32, i64)> = rows.iter().map(|(e, s)| key(e, s)).collect();
    let mut out = Vec::with_capacity(rows.len());
    for (i, (e, s)) in rows.iter().enumerate() {
        let rank = keys.iter().position(|k| *k == keys[i]).map_or(i, |p| p) as u32 + 1;
        let shared = keys.iter().filter(|k| **k == keys[i]).count() > 1;
        let performance = performances.get(&e.number).copied();
        out.push(StandingRow {
            rank,
            shared,
            number: e.number,
            name: e.name.clone(),
            points: s.points.to_string(),
            tiebreaks: vec![performance.map(|p| p.to_string())],
            arena: Some(ArenaLine {
                scores: s
                    .scores
                    .iter()
                    .map(|x| ArenaScoreView {
                        points: x.points,
                        result: match x.res {
                            Res::Win => "win",
                            Res::Draw => "draw",
                            Res::Loss => "loss",
                        }
                        .to_string(),
                        double: x.double,
                        berserk: x.berserk_point,
                        short_draw: x.short_draw,
                        draw_streak: x.draw_streak,
                    })
                    .collect(),
                fire: s.fire,
                games: s.scores.len() as u32,
                wins: s.wins() as u32,
                berserk_points: s.scores.iter().filter(|x| x.berserk_point).count() as u32,
                paused: e.withdrawn,
                playing: l
                    .arena_games
                    .iter()
                    .find(|g| g.result.is_none() && (g.white == e.number || g.black == e.number))
                    .map(|g| g.game_id.clone()),
            }),
            elimination: None,
            warnings: 0,
            disqualifications: 0,
        });
    }
    StandingsView {
        tiebreaks: vec![ARENA_PERFORMANCE.to_string()],
        rows: out,
        rounds_complete: 0,
    }
}

/// The arena's one tie-break, as the standings name it.
const ARENA_PERFORMANCE: &str = "PERF";

/// A staged event's standings (seed 001's office event): the final round
/// robin's order, then the knockout's losers by the round they reached,
/// then the rest by group place; before the end, the event's points so
/// far in the crosstable's order. Places are not shared: the stages
/// decide them.
fn staged_standings(l: &Loaded) -> Result<StandingsView, Error> {
    let t = l.model();
    let p = crate::staged::progress(l)?;
    let order: Vec<u32> = if p.final_order.is_empty() {
        let mut by_points: Vec<&tournament::model::Player> = t.players.iter().collect();
        by_points.sort_by(|a, b| {
            t.score_of(b, u32::MAX)
                .cmp(&t.score_of(a, u32::MAX))
                .then(a.id.cmp(&b.id))
        });
        by_points.iter().map(|p| p.id).collect()
    } else {
        p.final_order
    };
    let complete = l.rounds_complete();
    Ok(StandingsView {
        tiebreaks: Vec::new(),
        rows: order
            .iter()
            .enumerate()
            .filter_map(|(i, &n)| {
                let player = t.players.iter().find(|p| p.id == n)?;
                Some(StandingRow {
                    rank: i as u32 + 1,
                    shared: false,
                    number: n,
                    name: player.name.clone(),
                    points: t.score_of(player, u32::MAX).to_string(),
                    tiebreaks: Vec::new(),
                    arena: None,
                    elimination: None,
                    warnings: 0,
                    disqualifications: 0,
                })
            })
            .collect(),
        rounds_complete: complete,
    })
}

/// A double elimination's standings: the champion, then by the round
/// each player went out (`double_elimination::order`), with their losses;
/// the points are matches won, a bye counting as one (as a knockout's).
fn double_elimination_standings(l: &Loaded) -> Result<StandingsView, Error> {
    let t = l.model();
    let (lines, champion) = crate::double_elimination::progress(l)?;
    Ok(StandingsView {
        tiebreaks: Vec::new(),
        rows: crate::double_elimination::order(&lines, champion)
            .into_iter()
            .filter_map(|(rank, shared, x)| {
                let player = t.players.iter().find(|p| p.id == x.number)?;
                Some(StandingRow {
                    rank,
                    shared,
                    number: x.number,
                    name: player.name.clone(),
                    points: t.score_of(player, u32::MAX).to_string(),
                    tiebreaks: Vec::new(),
                    arena: None,
                    elimination: Some(EliminationLine {
                        losses: x.losses,
                        wins: x.wins,
                        out_in_round: x.out_in,
                        champion: champion == Some(x.number),
                    }),
                    warnings: 0,
                    disqualifications: 0,
                })
            })
            .collect(),
        rounds_complete: l.rounds_complete(),
    })
}

/// The players' standings of a Swiss, a round robin or a team event:
/// points, the penalised last among equal scores (18.4), then the event's
/// tie-breaks (the fouls recorded in CXA's).
pub(crate) fn player_standings(l: &Loaded) -> Result<tournament::tiebreak::standings::Standings, Error> {
    let t = l.model();
    let mut rules = Rules::new(l.system.tiebreak_system(), l.tiebreaks.tiebreaks(l.system));
    rules.fouls = l.fouls_by_number();
    rules.penalties = l.penalties_by_number();
    standings(&t, &rules).map_err(|e| Error::Internal(e.to_string()))
}

/// Standings rows as the API shows them.
fn table_rows(rows: &[tournament::tiebreak::standings::Row]) -> Vec<StandingRow> {
    rows.iter()
        .map(|r| StandingRow {
            rank: r.rank,
            shared: r.shared,
            number: r.id,
            name: r.name.clone(),
            points: r.points.to_string(),
            tiebreaks: r.values.iter().map(|v| v.map(|v| v.to_string())).collect(),
            arena: None,
            elimination: None,
            warnings: 0,
            disqualifications: 0,
        })
        .collect()
}
