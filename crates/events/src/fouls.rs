//! The arbiter's rulings that are not a board's result: fouls (犯规)
//! recorded against a player, and a whole team's forfeit of a match.
//!
//! - **Fouls** (seed 000 9.1–9.2: 凡判处犯规裁判员应当当场明确宣布并及时
//!   记录): the arbiter records each foul with its round and reason. They
//!   count where the tie-breaks name them: a player's 犯规 in the CXA
//!   order (15.1, 15.2: fewer fouls first) and a team's 全队犯规, its
//!   players' fouls together (15.3–15.5).
//! - **A team's forfeit** (21.4: 缺席者是队 … `+` 等于 2 分): a team that
//!   does not come loses every board of its match by forfeit in one
//!   ruling; the match is scored as the team's forfeit (2 match points to
//!   the other team) and a team Swiss counts it unplayed.
//! - **A team withdrawn** (20.1: 参赛队 … 退出比赛; 20.3–20.4): every
//!   player of the team withdrawn from the next round on, in one ruling.
//!   A Swiss pairs the team no more, its results standing (20.4); a round
//!   robin stores its later boards as its forfeits when their rounds are
//!   paired, and annuls all its results if it played fewer than half of
//!   its matches (20.3, `teams::standings`).
//! - **A team re-admitted** (20.1: the organisers' consent works both
//!   ways): every player of a withdrawn team paired again from the next
//!   round on, in one ruling, as a re-admitted player is. What it missed
//!   stays as it was stored: a round robin's matches forfeited while it
//!   was out stay its forfeits, a Swiss's rounds it was not paired stay
//!   blank; no longer withdrawn, its results are not annulled (20.3
//!   concerns a team that left).

use crate::spec::BoardResult;
use crate::{Events, Loaded};
use common::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use store::{FoulRow, User};
use tournament::tiebreak::standings::Penalty;
use utoipa::ToSchema;

/// Most characters in a ruling's reason (as a result's).
const MAX_REASON_CHARS: usize = 200;

/// What the arbiter rules against a player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ruling {
    /// A foul (犯规, 9.1): counted where a tie-break names it (`FOUL`,
    /// 全队犯规).
    #[default]
    Foul,
    /// A warning (警告, 18.1, the game's arbiter's penalty).
    Warning,
    /// A disqualification from the game (取消当场比赛资格, 18.2, the chief
    /// arbiter's): the player's game of that round is lost.
    Disqualification,
}

impl Ruling {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Ruling::Foul => "foul",
            Ruling::Warning => "warning",
            Ruling::Disqualification => "disqualification",
        }
    }

    fn parse(s: &str) -> Ruling {
        match s {
            "warning" => Ruling::Warning,
            "disqualification" => Ruling::Disqualification,
            _ => Ruling::Foul,
        }
    }
}

/// The arbiter records a foul or a penalty against a player.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FoulRequest {
    /// A round paired already.
    pub round: u32,
    /// The player's account name.
    pub player: String,
    /// A foul (the default), or a penalty: a warning or a disqualification
    /// from the round's game (18.1–18.2).
    #[serde(default)]
    pub kind: Ruling,
    /// What the foul was (9.1's kind, the move), or why the penalty: kept
    /// with it.
    #[serde(default)]
    pub reason: String,
}

/// A whole team forfeits its match of a round (21.4).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamForfeitRequest {
    pub round: u32,
    /// The number of the team that did not come.
    pub team: u32,
    #[serde(default)]
    pub reason: String,
}

/// The arbiter withdraws a whole team (20.x).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamWithdrawRequest {
    /// The team's number.
    pub team: u32,
    /// Why (20.1: the team's reason the organisers accepted).
    #[serde(default)]
    pub reason: String,
}

/// The arbiter re-admits a withdrawn team whole (20.x).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamReadmitRequest {
    /// The team's number.
    pub team: u32,
    /// Why: kept in the log.
    #[serde(default)]
    pub reason: String,
}

/// A recorded foul or penalty.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct FoulView {
    pub round: u32,
    pub kind: Ruling,
    /// The player's entry number and name.
    pub number: u32,
    pub player: String,
    pub reason: String,
    pub recorded_ms: i64,
}

impl Loaded {
    /// Fouls per entry number: the `FOUL` tie-break's counts (penalties
    /// are not fouls).
    pub(crate) fn fouls_by_number(&self) -> BTreeMap<u32, u32> {
        let mut out = BTreeMap::new();
        for f in self
            .fouls
            .iter()
            .filter(|f| Ruling::parse(&f.kind) == Ruling::Foul)
        {
            if let Some(e) = self.entry_of(&f.user_id) {
                *out.entry(e.number).or_default() += 1;
            }
        }
        out
    }

    /// Penalties per entry number, for 18.4: the penalised last among
    /// equal scores, by weight, then number.
    pub(crate) fn penalties_by_number(&self) -> BTreeMap<u32, Penalty> {
        let mut out = BTreeMap::<u32, Penalty>::new();
        for f in &self.fouls {
            let Some(e) = self.entry_of(&f.user_id) else {
                continue;
            };
            match Ruling::parse(&f.kind) {
                Ruling::Foul => {}
                Ruling::Warning => out.entry(e.number).or_default().warnings += 1,
                Ruling::Disqualification => out.entry(e.number).or_default().disqualifications += 1,
            }
        }
        out
    }

    pub(crate) fn foul_views(&self) -> Vec<FoulView> {
        self.fouls
            .iter()
            .filter_map(|f| {
                let e = self.entry_of(&f.user_id)?;
                Some(FoulView {
                    round: f.round,
                    kind: Ruling::parse(&f.kind),
                    number: e.number,
                    player: e.name.clone(),
                    reason: f.reason.clone(),
                    recorded_ms: f.recorded_ms,
                })
            })
            .collect()
    }
}

fn check_reason(reason: &str) -> Result<String, Error> {
    if reason.chars().count() > MAX_REASON_CHARS {
        return Err(Error::bad(
            "bad_reason",
            format!("a reason has at most {MAX_REASON_CHARS} characters"),
        ));
    }
    Ok(reason.trim().to_string())
}

/// A round that is paired already: rulings are about games that were.
fn paired_round(l: &Loaded, round: u32) -> Result<(), Error> {
    if round == 0 || round > l.event.current_round {
        return Err(Error::bad(
            "bad_round",
            format!(
                "round {round} is not paired: rounds 1 to {} are",
                l.event.current_round
            ),
        ));
    }
    Ok(())
}

impl Events {
    /// The arbiter records a foul (犯规, 9.2), a warning (18.1) or a
    /// disqualification from the game (18.2) against an entered player in
    /// a paired round; it is logged and counts at once: a foul in the
    /// tie-breaks that name it, a penalty by 18.4 (the penalised last
    /// among equal scores). A disqualification also sets the player's game
    /// of the round lost, as the arbiter's result.
    ///
    /// # Errors
    /// Not the arbiter; the round not paired; the player not entered; a
    /// reason too long.
    pub async fn record_foul(&self, id: &str, by: &User, req: FoulRequest) -> Result<FoulView, Error> {
        if let Some(done) = self
            .forwarded(id, || crate::remote::Call::Foul {
                id: id.into(),
                by: by.clone(),
                req: req.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        let reason = check_reason(&req.reason)?;
        let (_one, l) = self
            .as_arbiter(id, by, "only the event's arbiter records fouls")
            .await?;
        paired_round(&l, req.round)?;
        let entry = l
            .entries
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(req.player.trim()))
            .ok_or_else(|| {
                Error::bad(
                    "bad_player",
                    format!("{} is not entered in this event", req.player),
                )
            })?;
        // A disqualification loses the player's game of the round: their
        // board (a bye has no game to lose).
        let lost = if req.kind == Ruling::Disqualification {
            let board = l
                .pairings
                .iter()
                .find(|p| {
                    p.round == req.round
                        && p.black.is_some()
                        && (p.white == entry.number || p.black == Some(entry.number))
                })
                .ok_or_else(|| {
                    Error::conflict(
                        "no_game",
                        format!(
                            "{} has no game in round {} to be disqualified from",
                            entry.name, req.round
                        ),
                    )
                })?;
            let result = if board.white == entry.number {
                BoardResult::BlackWins
            } else {
                BoardResult::WhiteWins
            };
            Some((board, result))
        } else {
            None
        };
        let row = FoulRow {
            round: req.round,
            kind: req.kind.as_str().to_string(),
            user_id: entry.user_id.clone(),
            reason: reason.clone(),
            by_id: by.id.clone(),
            recorded_ms: common::now_ms(),
        };
        self.store().add_foul(id, &row).await?;
        let what = match req.kind {
            Ruling::Foul => "a foul by",
            Ruling::Warning => "a warning (18.1) to",
            Ruling::Disqualification => "disqualified from the game (18.2):",
        };
        let why = if reason.is_empty() {
            String::new()
        } else {
            format!(" ({reason})")
        };
        self.log(
            id,
            Some(by),
            req.kind.as_str(),
            &format!(
                "round {}: {what} {} (number {}){why}",
                req.round, entry.name, entry.number,
            ),
        )
        .await?;
        if let Some((p, result)) = lost {
            // As the arbiter's result: it stands when the game ends.
            self.store()
                .set_pairing_result(id, p.round, p.board, result.as_str(), false, false)
                .await?;
            self.log(
                id,
                Some(by),
                "result",
                &format!(
                    "round {} board {}: {} → {} ({} disqualified from the game, 18.2)",
                    p.round,
                    p.board,
                    p.result.as_deref().unwrap_or("no result"),
                    result.as_str(),
                    entry.name
                ),
            )
            .await?;
            self.after_result_locked(id).await?;
        }
        Ok(FoulView {
            round: req.round,
            kind: req.kind,
            number: entry.number,
            player: entry.name.clone(),
            reason,
            recorded_ms: row.recorded_ms,
        })
    }

    /// The arbiter rules that team `req.team` forfeits its match of
    /// `req.round` (21.4): every board of the match `+` for the other
    /// team's player, set together (a ruling on a game still being played
    /// stands when it ends, as a board's does).
    ///
    /// # Errors
    /// Not the arbiter; not a team event; the round not paired; no such
    /// team; the team has the bye or sits out that round.
    pub async fn team_forfeit(&self, id: &str, by: &User, req: TeamForfeitRequest) -> Result<(), Error> {
        if let Some(done) = self
            .forwarded(id, || crate::remote::Call::TeamForfeit {
                id: id.into(),
                by: by.clone(),
                req: req.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        let reason = check_reason(&req.reason)?;
        let (_one, l) = self
            .as_arbiter(id, by, "only the event's arbiter may rule a forfeit")
            .await?;
        crate::teams::not_team_event(&l)?;
        paired_round(&l, req.round)?;
        let team = l
            .teams
            .iter()
            .find(|t| t.number == req.team)
            .ok_or_else(|| Error::NotFound(format!("team {}", req.team)))?;
        let boards = crate::teams::match_boards(&l, req.round, req.team).ok_or_else(|| {
            Error::conflict(
                "bye",
                format!("{} plays no match in round {}", team.name, req.round),
            )
        })?;
        let results: Vec<(u32, u32, &str, bool)> = boards
            .iter()
            .map(|p| {
                let white_absent = l
                    .entry_number(p.white)
                    .is_some_and(|e| team.members.contains(&e.user_id));
                let r = if white_absent {
                    BoardResult::BlackForfeitWin
                } else {
                    BoardResult::WhiteForfeitWin
                };
                (p.round, p.board, r.as_str(), true)
            })
            .collect();
        self.store().set_pairing_results(id, &results).await?;
        self.log(
            id,
            Some(by),
            "team_forfeit",
            &format!(
                "round {}: {} forfeits its match, boards {}{}",
                req.round,
                team.name,
                results
                    .iter()
                    .map(|r| format!("{} {}", r.1, r.2))
                    .collect::<Vec<_>>()
                    .join(", "),
                if reason.is_empty() {
                    String::new()
                } else {
                    format!(" ({reason})")
                }
            ),
        )
        .await?;
        self.after_result_locked(id).await
    }

    /// The arbiter withdraws team `req.team` from the event (20.x).
    ///
    /// Before round 1 (20.2: 在比赛开始前退出…应重新制签) the team leaves
    /// the draw, as a player's entry leaves before the start: its players'
    /// entries, roster and line-ups go, the teams after it move up one
    /// number, and round 1 pairs the teams left — a round robin on the
    /// Berger table of their number. Its captain may do it too then, as a
    /// player may leave before the start; once the event has started a
    /// withdrawal is the organisers' ruling (20.1: 须向竞赛组织机构申明
    /// 正当理由并取得同意), the arbiter's alone.
    ///
    /// After the start its players are not paired from the next round on
    /// — a match being played is played out (the team's forfeit rules it
    /// otherwise). A Swiss pairs the team no more and its results stand
    /// (20.4); in a round robin its later matches are its forfeits as
    /// their rounds are paired, and with fewer than half of its matches
    /// played all its results are annulled (20.3). One line of the log.
    ///
    /// # Errors
    /// Not the arbiter (nor, before the start, the team's captain); not a
    /// team event; after the end; no such team; the team withdrawn
    /// already.
    pub async fn withdraw_team(&self, id: &str, by: &User, req: TeamWithdrawRequest) -> Result<(), Error> {
        if let Some(done) = self
            .forwarded(id, || crate::remote::Call::TeamWithdraw {
                id: id.into(),
                by: by.clone(),
                req: req.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        let reason = check_reason(&req.reason)?;
        let _one = self.lock(id).await;
        let l = self.load(id).await?;
        crate::teams::not_team_event(&l)?;
        let team = l.teams.iter().find(|t| t.number == req.team);
        let open = l.event.state == "open";
        let captain = open && team.is_some_and(|t| t.captain_id == by.id);
        if !captain && !self.is_arbiter(&l, &by.id).await? {
            return Err(Error::Forbidden(if open {
                "only the event's arbiter or the team's captain may withdraw a team".into()
            } else {
                "the event has started: only its arbiter may withdraw a team (20.1)".into()
            }));
        }
        if l.event.state == "finished" {
            return Err(Error::conflict("event_finished", "the event is over"));
        }
        let team = team.ok_or_else(|| Error::NotFound(format!("team {}", req.team)))?;
        let why = if reason.is_empty() {
            String::new()
        } else {
            format!(" ({reason})")
        };
        if open {
            self.store().remove_team(id, team.number).await?;
            let names: Vec<&str> = team
                .members
                .iter()
                .filter_map(|u| l.entry_of(u))
                .map(|e| e.name.as_str())
                .collect();
            let moved = if l.teams.iter().any(|t| t.number > team.number) {
                ", the teams after it one number up"
            } else {
                ""
            };
            return self
                .log(
                    id,
                    Some(by),
                    "team_withdraw",
                    &format!(
                        "{} (team {}) withdrawn before the start: its entries ({}) removed, a new draw of the {} teams left (20.2){moved}{why}",
                        team.name,
                        team.number,
                        names.join(", "),
                        l.teams.len() - 1,
                    ),
                )
                .await;
        }
        let entries: Vec<&store::EntryRow> = team.members.iter().filter_map(|u| l.entry_of(u)).collect();
        if entries.iter().all(|e| e.withdrawn) {
            return Err(Error::conflict(
                "already_withdrawn",
                format!("{} is withdrawn already", team.name),
            ));
        }
        let from = l.event.current_round + 1;
        let users: Vec<String> = entries.iter().map(|e| e.user_id.clone()).collect();
        self.store().withdraw_entries(id, &users, from).await?;
        let rule = if l.system == crate::System::TeamSwiss {
            "not paired again, its results stand (20.4)"
        } else {
            "its later matches forfeited to its opponents, its results annulled if it played fewer than half of its matches (20.3)"
        };
        self.log(
            id,
            Some(by),
            "team_withdraw",
            &format!(
                "{} (team {}) withdrawn from round {from} on: {}; {rule}{why}",
                team.name,
                team.number,
                entries
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        )
        .await
    }

    /// The arbiter re-admits team `req.team`, withdrawn whole: every
    /// player of its roster is paired again from the next round on, in
    /// one transaction, as `players` `readmit` re-admits one player (the
    /// organisers' consent of 20.1 brings a team back as it let it go).
    ///
    /// The rounds it missed stay as they were stored: in a round robin
    /// the matches paired while it was out stay its forfeits (20.3: 弃权
    /// 对方获胜 — its opponents keep those wins), in a Swiss the rounds it
    /// was not paired stay blank, no points and no bye (20.4's results
    /// stand). No longer withdrawn, its results are not annulled (20.3's
    /// 注销 is for a team that left). One `team_readmit` line of the log.
    ///
    /// # Errors
    /// Not the arbiter (a captain may not bring the team back: 20.1 is
    /// the organisers'); not a team event; after the end; no such team;
    /// the team not withdrawn whole (`not_withdrawn`: a player withdrawn
    /// alone comes back by `players` `readmit`).
    pub async fn readmit_team(&self, id: &str, by: &User, req: TeamReadmitRequest) -> Result<(), Error> {
        if let Some(done) = self
            .forwarded(id, || crate::remote::Call::TeamReadmit {
                id: id.into(),
                by: by.clone(),
                req: req.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        let reason = check_reason(&req.reason)?;
        let (_one, l) = self
            .as_arbiter(id, by, "only the event's arbiter may re-admit a team (20.1)")
            .await?;
        crate::teams::not_team_event(&l)?;
        if l.event.state == "finished" {
            return Err(Error::conflict("event_finished", "the event is over"));
        }
        let team = l
            .teams
            .iter()
            .find(|t| t.number == req.team)
            .ok_or_else(|| Error::NotFound(format!("team {}", req.team)))?;
        if !crate::teams::withdrawn_by(&l, u32::MAX).contains(&team.number) {
            return Err(Error::conflict(
                "not_withdrawn",
                format!("{} is not withdrawn", team.name),
            ));
        }
        let entries: Vec<&store::EntryRow> = team.members.iter().filter_map(|u| l.entry_of(u)).collect();
        let users: Vec<String> = entries.iter().map(|e| e.user_id.clone()).collect();
        self.store().readmit_entries(id, &users).await?;
        let from = l.event.current_round + 1;
        let missed = if l.system == crate::System::TeamSwiss {
            "the rounds it missed stay unpaired (20.4)"
        } else {
            "the matches it missed stay its forfeits, its results not annulled (20.3)"
        };
        let why = if reason.is_empty() {
            String::new()
        } else {
            format!(" ({reason})")
        };
        self.log(
            id,
            Some(by),
            "team_readmit",
            &format!(
                "{} (team {}) re-admitted: {} paired from round {from} on; {missed}{why}",
                team.name,
                team.number,
                entries
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        )
        .await
    }
}
