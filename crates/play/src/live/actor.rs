//! The game task itself: its state ([`LiveGame`]), its loop (commands,
//! the clock's deadlines, the abort and idle windows), and the one path of
//! an accepted command — stored first, then broadcast.

use super::finish::{already_archived, finish};
use super::state::{broadcast, tell, LiveGame};
use super::view::{legal_moves, premoves, takebacks_allowed, view_of};
use super::{rebuild, ActError, Cmd, GameHandle};
use crate::computer::ComputerPlay;
use crate::protocol::{ClockView, ServerMsg};
use crate::table::{Action, Applied, Table, TableError};
use crate::Play;
use game::Side;
use session::Event as SessionEvent;
use std::time::Duration;
use store::GameRow;
use tokio::sync::{broadcast, mpsc};

/// How long a player may be away before the opponent may claim the win: a
/// twentieth of the main time, between 15 s and 60 s (60 s untimed). Long
/// enough for a reload or a phone switching networks, short enough that
/// nobody waits out a 90-minute clock — lichess waits 10–30 s by time
/// control. `Config::claim_after_ms` sets it outright.
fn claim_wait_ms(state: &Play, row: &GameRow) -> i64 {
    if let Some(ms) = state.config().claim_after_ms {
        return ms;
    }
    if row.initial_ms <= 0 {
        return 60_000;
    }
    (row.initial_ms / 20).clamp(15_000, 60_000)
}

/// The days per move of a correspondence (daily) game; `None` for any
/// other. Such a game is decided by its clock alone: a player may be away
/// for days, so leaving starts no countdown and gives no claim, and the
/// first moves may take the days a move has.
fn daily(row: &GameRow) -> Option<u32> {
    crate::table::parse_time_control(&row.time_control)
        .ok()?
        .correspondence_days()
}

/// How long each side has for its first move before the game is aborted:
/// the game's own window (an event's forfeit time), else the operator's,
/// or a daily game's days.
fn abort_window(state: &Play, row: &GameRow) -> i64 {
    let window = if row.first_move_ms > 0 {
        row.first_move_ms
    } else {
        state.config().abort_after_ms
    };
    daily(row).map_or(window, |d| i64::from(d) * 86_400_000)
}

/// The first-move window now open, for a view.
fn first_move_view(state: &Play, g: &LiveGame) -> Option<crate::protocol::FirstMove> {
    (g.table.ply() < 2 && !g.table.is_over()).then(|| crate::protocol::FirstMove {
        since_ms: g.abort_from_ms,
        window_ms: abort_window(state, &g.row),
    })
}

/// Who is away now, for a view.
fn away_view(state: &Play, g: &LiveGame, now: i64) -> Option<crate::protocol::Away> {
    if daily(&g.row).is_some() {
        return None;
    }
    let wait = claim_wait_ms(state, &g.row);
    [Side::First, Side::Second].into_iter().find_map(|side| {
        g.away_since[side.index()].map(|t| crate::protocol::Away {
            side,
            claim_in_ms: (t + wait - now).max(0),
        })
    })
}

pub(super) fn bodies(a: &Applied) -> Vec<String> {
    a.commands
        .iter()
        .map(|c| serde_json::to_string(c).unwrap_or_default())
        .collect()
}

/// Where a game's stored log stands when its task starts: the next
/// command's number, and the lease this node writes it under.
pub(super) struct Log {
    pub(super) seq: u64,
    pub(super) fence: Option<store::Fence>,
}

/// Starts a game's task: a new game (`fresh`), whose players have not come
/// yet, or one resumed from its stored log.
#[allow(clippy::too_many_arguments)]
pub(super) fn spawn(
    state: &Play,
    variant: &'static registry::Variant,
    row: GameRow,
    table: Table,
    log: Log,
    now_ms: i64,
    client: Option<std::net::IpAddr>,
    fresh: bool,
) {
    let Log { seq, fence } = log;
    // A computer's seat has no account, and the computer is always there.
    let came = [
        !fresh || row.first_id.is_none(),
        !fresh || row.second_id.is_none(),
    ];
    let (tx, rx) = mpsc::channel(64);
    let (events, _) = broadcast::channel(256);
    let id = row.id.clone();
    state.games().insert(id.clone(), GameHandle { tx: tx.clone() });
    let live = LiveGame {
        variant,
        row,
        table,
        events,
        seq,
        abort_from_ms: now_ms,
        version: 0,
        computer_thinking: false,
        client,
        last_action_ms: now_ms,
        connections: [0; 2],
        away_since: [None; 2],
        left: [false; 2],
        came,
        fence,
        lost: false,
        bus: state.bus().cloned(),
        followed_elsewhere: false,
    };
    let st = state.clone();
    tokio::spawn(async move {
        run(st.clone(), live, rx, tx).await;
        st.games().remove(&id);
    });
}

/// The game task.
async fn run(state: Play, mut g: LiveGame, mut rx: mpsc::Receiver<Cmd>, me: mpsc::Sender<Cmd>) {
    let linger = state.config().finished_linger;
    // The first moves of a daily game may take the days a move has.
    let abort_after = abort_window(&state, &g.row);
    let untimed_idle = state.config().untimed_idle_ms;
    // A game resumed already over (e.g. its flag fell before the crash) is
    // archived now.
    if g.table.is_over() {
        finish(&state, &mut g).await;
    }
    maybe_computer(&state, &mut g, &me);
    let mut shutdown = state.shutdown_signal();
    // One timer and one wait for the shutdown for the task's life, moved or
    // kept rather than made and registered anew at each command: the
    // timer's wheel and the shutdown channel's waiter list are shared by
    // every game, under locks.
    let shutting_down = shutdown.changed();
    let timer = tokio::time::sleep(Duration::ZERO);
    tokio::pin!(shutting_down, timer);
    loop {
        let now = common::now_ms();
        let over = g.table.is_over();
        // The clock's next event (a flag), or the end of the abort window
        // while a side has not made its first move.
        let abort_at = (g.table.ply() < 2).then_some(g.abort_from_ms + abort_after);
        let idle_at = g
            .table
            .untimed()
            .then_some(g.last_action_ms.saturating_add(untimed_idle));
        let deadline = [g.table.deadline(), abort_at, idle_at]
            .into_iter()
            .flatten()
            .min();
        let sleep_for = match (over, deadline) {
            (true, _) => linger,
            (false, Some(d)) => Duration::from_millis(u64::try_from((d - now).max(0)).unwrap_or(0)),
            (false, None) => Duration::from_secs(3600),
        };
        timer.as_mut().reset(tokio::time::Instant::now() + sleep_for);
        tokio::select! {
            cmd = rx.recv() => {
                let Some(cmd) = cmd else { break };
                handle(&state, &mut g, cmd, &me).await;
                if g.lost {
                    break;
                }
            }
            () = &mut timer => {
                if over {
                    break; // lingered long enough after the end
                }
                let now = common::now_ms();
                let mut applied = g.table.tick(now);
                if !g.table.is_over() && g.table.ply() < 2 && now >= g.abort_from_ms + abort_after {
                    if let Ok(a) = g.table.abort_idle(now, g.came == [false; 2]) {
                        applied.commands.extend(a.commands);
                        applied.events.extend(a.events);
                    }
                }
                if !g.table.is_over() && g.table.untimed() && now >= g.last_action_ms.saturating_add(untimed_idle) {
                    if let Ok(a) = g.table.abandon_idle(now, untimed_idle) {
                        applied.commands.extend(a.commands);
                        applied.events.extend(a.events);
                    }
                }
                if !applied.commands.is_empty() {
                    if let Err(e) = store_and_broadcast(&state, &mut g, &applied).await {
                        tracing::error!(game = %g.row.id, error = %e, "cannot store timer event");
                    }
                    if g.lost {
                        break;
                    }
                }
            }
            _ = &mut shutting_down => break,
        }
    }
}

async fn handle(state: &Play, g: &mut LiveGame, cmd: Cmd, me: &mpsc::Sender<Cmd>) {
    match cmd {
        Cmd::Join { reply } => {
            let rx = g.events.subscribe();
            let now = common::now_ms();
            let mut v = view_of(g.variant, &g.row, &g.table, g.version, now);
            v.away = away_view(state, g, now);
            v.first_move = first_move_view(state, g);
            let _ = reply.send((v, rx));
        }
        Cmd::View { reply, follow } => {
            g.followed_elsewhere |= follow;
            let now = common::now_ms();
            let mut v = view_of(g.variant, &g.row, &g.table, g.version, now);
            v.away = away_view(state, g, now);
            v.first_move = first_move_view(state, g);
            let _ = reply.send(v);
        }
        Cmd::Chat(msg) => tell(g, &msg, None),
        Cmd::Presence { side, connected } => {
            let i = side.index();
            let human_opponent = match side {
                Side::First => g.row.second_id.is_some(),
                Side::Second => g.row.first_id.is_some(),
            };
            g.left[i] = !connected && g.connections[i] <= 1;
            let humans = [g.row.first_id.is_some(), g.row.second_id.is_some()];
            let deserted = humans.contains(&true) && (0..2).all(|k| !humans[k] || g.left[k]);
            state.games().set_deserted(&g.row.id, deserted);
            if connected {
                g.came[i] = true;
                g.connections[i] += 1;
                if g.away_since[i].take().is_some() && !g.table.is_over() {
                    broadcast(
                        g,
                        &ServerMsg::PlayerBack {
                            v: g.version + 1,
                            side,
                        },
                    );
                }
            } else {
                g.connections[i] = g.connections[i].saturating_sub(1);
                if g.connections[i] == 0 && !g.table.is_over() && human_opponent && daily(&g.row).is_none() {
                    let now = common::now_ms();
                    g.away_since[i] = Some(now);
                    let claim_in_ms = claim_wait_ms(state, &g.row);
                    broadcast(
                        g,
                        &ServerMsg::PlayerGone {
                            v: g.version + 1,
                            side,
                            claim_in_ms,
                        },
                    );
                }
            }
        }
        Cmd::Act {
            user_id,
            action,
            reply,
        } => {
            let side = super::side_of(&g.row, &user_id);
            let mut result = match side {
                None => Err(ActError::NotAPlayer),
                Some(side) => {
                    g.came[side.index()] = true;
                    act(state, g, side, action).await
                }
            };
            // A refusal comes from what this task holds, which is stale if
            // another node took the game over meanwhile: then the mover is
            // told `gone` and finds the game where it runs now.
            if matches!(&result, Err(e) if !matches!(e, ActError::Gone | ActError::Storage))
                && !still_owned(state, g).await
            {
                result = Err(ActError::Gone);
            }
            let _ = reply.send(result);
            maybe_computer(state, g, me);
        }
        Cmd::Release => {
            still_owned(state, g).await;
        }
        Cmd::Computer(cm) => {
            g.computer_thinking = false;
            let side = computer_side(&g.row);
            match side {
                Some(side) if cm.ply == g.table.ply() && !g.table.is_over() => match cm.play {
                    ComputerPlay::Move(coord) => {
                        let action = Action::Move {
                            coord,
                            ply: Some(cm.ply + 1),
                        };
                        if let Err(e) = act(state, g, side, action).await {
                            tracing::warn!(game = %g.row.id, error = %e, "computer move refused");
                        }
                    }
                    ComputerPlay::DeclareWin => {
                        // Ruled on as a player's claim; one that does not
                        // hold is refused, and then the computer, which
                        // offered no move, resigns.
                        if let Err(e) = act(state, g, side, Action::ClaimDraw).await {
                            tracing::warn!(game = %g.row.id, error = %e, "the computer's declaration refused");
                            let _ = act(state, g, side, Action::Resign).await;
                        }
                    }
                    ComputerPlay::Resign => {
                        let _ = act(state, g, side, Action::Resign).await;
                    }
                },
                _ => {}
            }
            maybe_computer(state, g, me);
        }
    }
}

/// Whether this node still holds the game's lease (always, on one node:
/// no fence); if not, the task lets the game go (`lost`), writing nothing.
/// A database that does not answer leaves the task as it is: the fence
/// still guards its writes.
async fn still_owned(state: &Play, g: &mut LiveGame) -> bool {
    let Some(fence) = g.fence.as_ref() else {
        return true;
    };
    match state.store().holds_lease(&g.row.id, fence).await {
        Ok(true) | Err(_) => true,
        Ok(false) => {
            tracing::warn!(game = %g.row.id, "another node took this game over; letting it go");
            g.lost = true;
            false
        }
    }
}

fn computer_side(row: &GameRow) -> Option<Side> {
    row.computer.as_ref()?;
    if row.first_id.is_none() {
        Some(Side::First)
    } else if row.second_id.is_none() {
        Some(Side::Second)
    } else {
        None
    }
}

fn maybe_computer(state: &Play, g: &mut LiveGame, me: &mpsc::Sender<Cmd>) {
    if g.computer_thinking || g.table.is_over() {
        return;
    }
    let (Some(side), Some(spec)) = (computer_side(&g.row), g.row.computer.clone()) else {
        return;
    };
    if g.table.side_to_move() != side {
        return;
    }
    g.computer_thinking = true;
    let now = common::now_ms();
    let clocks = g.table.clock_view(now);
    let (my_ms, mine) = match side {
        Side::First => (clocks.first_ms, clocks.first),
        Side::Second => (clocks.second_ms, clocks.second),
    };
    let owner = match side {
        Side::First => g.row.second_id.clone(),
        Side::Second => g.row.first_id.clone(),
    };
    let request = crate::computer::Request {
        variant: g.variant,
        asker: crate::computer::Asker {
            account: owner.unwrap_or_else(|| g.row.id.clone()),
            address: g.client,
        },
        spec,
        fen: g.row.initial_fen.clone(),
        moves: g.table.moves().map(|m| m.played.coord.clone()).collect(),
        ply: g.table.ply(),
        my_ms,
        increment_ms: g.row.increment_ms,
        period_ms: mine
            .and_then(|c| c.period_ms)
            .map_or(0, |ms| i64::try_from(ms).unwrap_or(i64::MAX)),
    };
    // The answer joins the game's mailbox like any player's move.
    let answer = state.computers().think(request);
    let me = me.clone();
    tokio::spawn(async move {
        if let Ok(m) = answer.await {
            let _ = me.send(Cmd::Computer(m)).await;
        }
    });
}

async fn act(state: &Play, g: &mut LiveGame, side: Side, action: Action) -> Result<u32, ActError> {
    // A resent move (after a reconnect) that is already stored is
    // acknowledged again instead of refused.
    if let Action::Move { coord, ply: Some(p) } = &action {
        if *p >= 1 && *p == g.table.ply() {
            if let Some(m) = g.table.moves().next_back() {
                if &m.played.coord == coord && m.times.side == side {
                    return Ok(*p);
                }
            }
        }
    }
    if matches!(
        action,
        Action::OfferTakeback | Action::AcceptTakeback | Action::DeclineTakeback
    ) {
        return takeback(state, g, side, action).await;
    }
    let now = common::now_ms();
    let applied = if matches!(action, Action::ClaimVictory) {
        if let Some(days) = daily(&g.row) {
            return Err(TableError::ClockDecides { days }.into());
        }
        let Some(left) = g.away_since[side.other().index()] else {
            return Err(TableError::OpponentPresent.into());
        };
        let wait = claim_wait_ms(state, &g.row);
        if now < left + wait {
            return Err(TableError::ClaimTooEarly {
                wait_ms: left + wait - now,
            }
            .into());
        }
        g.table.claim_victory(side, now, now - left)?
    } else {
        g.table.act(side, action, now)?
    };
    store_and_broadcast(state, g, &applied).await?;
    g.last_action_ms = common::now_ms();
    Ok(g.table.ply())
}

/// Whether a player turned takebacks off in their settings (the account
/// settings' `takebacks`, true unless they said otherwise).
async fn refuses_takebacks(state: &Play, user_id: Option<&str>) -> bool {
    let Some(id) = user_id else { return false };
    let Ok(Some(json)) = state.store().settings(id).await else {
        return false;
    };
    serde_json::from_str::<serde_json::Value>(&json)
        .ok()
        .and_then(|v| v.get("takebacks").and_then(serde_json::Value::as_bool))
        == Some(false)
}

/// A takeback request or its answer (悔棋). Only in casual games, never
/// against an opponent who turned them off; the computer grants every
/// request at once, but only on the player's own turn (a request while it
/// thinks would take back a position its answer is about).
async fn takeback(state: &Play, g: &mut LiveGame, side: Side, action: Action) -> Result<u32, ActError> {
    if !takebacks_allowed(&g.row) {
        return Err(TableError::TakebacksNotAllowed.into());
    }
    let computer = computer_side(&g.row);
    let now = common::now_ms();
    let applied = match action {
        Action::OfferTakeback if computer == Some(side.other()) => {
            if g.computer_thinking {
                return Err(TableError::ComputerThinking.into());
            }
            let mut a = g.table.act(side, Action::OfferTakeback, now)?;
            match g.table.act(side.other(), Action::AcceptTakeback, now) {
                Ok(b) => {
                    a.commands.extend(b.commands);
                    a.events.extend(b.events);
                    a.retract = b.retract;
                }
                Err(e) => {
                    // Nothing stored yet: put the table back as it was.
                    reload(state, g).await;
                    return Err(e.into());
                }
            }
            a
        }
        Action::OfferTakeback => {
            let opponent = match side {
                Side::First => g.row.second_id.clone(),
                Side::Second => g.row.first_id.clone(),
            };
            if refuses_takebacks(state, opponent.as_deref()).await {
                return Err(TableError::TakebacksRefused.into());
            }
            g.table.act(side, action, now)?
        }
        _ => g.table.act(side, action, now)?,
    };
    if applied.retract.is_some() {
        g.abort_from_ms = now;
    }
    store_and_broadcast(state, g, &applied).await?;
    g.last_action_ms = common::now_ms();
    Ok(g.table.ply())
}

/// Stores what an accepted command did, then tells everyone; archives the
/// game if it ended.
async fn store_and_broadcast(state: &Play, g: &mut LiveGame, applied: &Applied) -> Result<(), ActError> {
    let bodies = bodies(applied);
    if let Err(e) = state
        .store()
        .append_fenced(g.fence.as_ref(), &g.row.id, g.seq, &bodies)
        .await
    {
        if let store::StoreError::Fenced { .. } = e {
            // Another node took the game over while this one was away
            // (frozen past its lease): what it holds is stale, so it
            // writes nothing more and lets the game go.
            tracing::warn!(game = %g.row.id, "another node took this game over; letting it go");
            g.lost = true;
            return Err(ActError::Gone);
        }
        tracing::error!(game = %g.row.id, error = %e, "command not stored; reloading");
        reload(state, g).await;
        return Err(ActError::Storage);
    }
    g.seq += bodies.len() as u64;
    let now = common::now_ms();
    let clocks_now = |g: &LiveGame| g.table.clock_view(now);
    for e in &applied.events {
        let v = g.version + 1;
        let msg = match e {
            SessionEvent::Moved(m) => {
                if m.ply == 1 {
                    g.abort_from_ms = now;
                }
                let row = applied.moves.iter().find(|r| r.ply == m.ply);
                let (first_ms, second_ms) = row.map_or((0, 0), |r| (r.first_ms, r.second_ms));
                // The position after the last move: what follows this one
                // in the same batch is told by its own event.
                let last = applied.moves.last().is_some_and(|r| r.ply == m.ply);
                Some(ServerMsg::Move {
                    v,
                    ply: m.ply,
                    side: m.side,
                    sides: game_sides(g.table.game()),
                    coord: m.coord.clone(),
                    display: m.display.clone(),
                    alt: m.alt.clone(),
                    check: m.check,
                    capture: m.capture,
                    fen: g.table.game().fen(),
                    turn: g.table.side_to_move(),
                    clocks: ClockView {
                        first_ms,
                        second_ms,
                        ..g.table.clock_view(now)
                    },
                    legal: if last { legal_moves(&g.table) } else { Vec::new() },
                    premoves: if last { premoves(&g.table) } else { Vec::new() },
                    claimable: last && g.table.claim_holds(),
                    claim: if last { g.table.claim_reason() } else { None },
                    // What the move made, for a variant whose rules ask a
                    // player to announce it (the registry says which); the
                    // game knows its last move's, so only the batch's last
                    // move carries it.
                    announce: if last && g.variant.announcements {
                        g.table
                            .game()
                            .announcements()
                            .into_iter()
                            .map(str::to_string)
                            .collect()
                    } else {
                        Vec::new()
                    },
                })
            }
            SessionEvent::DrawOffered { side, .. } => Some(ServerMsg::DrawOffer { v, by: *side }),
            SessionEvent::DrawDeclined { side, by_move, .. } => (!by_move).then(|| ServerMsg::DrawDeclined {
                v,
                by: side.other(),
                offer_by: *side,
            }),
            SessionEvent::TakebackOffered { side, .. } => Some(ServerMsg::TakebackOffer { v, by: *side }),
            SessionEvent::TakebackDeclined { side, .. } => {
                Some(ServerMsg::TakebackDeclined { v, offer_by: *side })
            }
            SessionEvent::TakenBack { side, plies, ply, .. } => Some(ServerMsg::TakenBack {
                v,
                by: *side,
                plies: *plies,
                ply: *ply,
            }),
            SessionEvent::Foul { foul, count } => Some(ServerMsg::Foul {
                v,
                side: foul.side,
                kind: foul.kind,
                detail: foul.detail.clone(),
                article: foul.article.clone(),
                count: *count,
            }),
            SessionEvent::TimePenalty { side, ms, .. } => Some(ServerMsg::TimePenalty {
                v,
                side: *side,
                ms: *ms,
                clocks: clocks_now(g),
            }),
            SessionEvent::TimeGiven { side, ms, .. } => Some(ServerMsg::TimeGiven {
                v,
                side: *side,
                ms: *ms,
                clocks: clocks_now(g),
            }),
            SessionEvent::MustChange {
                side,
                detail,
                article,
            } => Some(ServerMsg::MustChange {
                v,
                side: *side,
                detail: detail.clone(),
                article: article.clone(),
            }),
            SessionEvent::ClockPaused { .. }
            | SessionEvent::ClockResumed { .. }
            | SessionEvent::Berserk { .. } => Some(ServerMsg::Clock {
                v,
                clocks: clocks_now(g),
            }),
            SessionEvent::Started { .. } | SessionEvent::Ended(_) | SessionEvent::CommandDropped { .. } => {
                None
            }
        };
        if let Some(msg) = msg {
            broadcast(g, &msg);
        }
    }
    // A correspondence player hears of the opponent's move wherever they
    // are (the lobby's notice): they may not look at the game for days.
    if !applied.moves.is_empty() && !g.table.is_over() && daily(&g.row).is_some() {
        let to_move = g.table.side_to_move();
        let (id, from) = match to_move {
            Side::First => (&g.row.first_id, &g.row.second_name),
            Side::Second => (&g.row.second_id, &g.row.first_name),
        };
        if let Some(id) = id {
            state.tell_your_turn(crate::YourTurn {
                game: g.row.id.clone(),
                user_id: id.clone(),
                from: from.clone(),
            });
        }
    }
    if g.table.is_over() && !already_archived(g) {
        finish(state, g).await;
    }
    Ok(())
}

/// The words for what each side plays as now, where the game's own moves
/// decide them (a colour chosen under an opening rule); `None` for a game
/// whose sides' words are the variant's for good.
fn game_sides(game: &dyn game::Game) -> Option<[String; 2]> {
    let first = game.side_key(Side::First)?;
    let second = game.side_key(Side::Second)?;
    Some([first.to_string(), second.to_string()])
}

/// Reloads the game from the database after a failed write.
async fn reload(state: &Play, g: &mut LiveGame) {
    let now = common::now_ms();
    let Ok(Some((row, _))) = state.store().game(&g.row.id).await else {
        return;
    };
    let Ok(log) = state.store().commands(&g.row.id).await else {
        return;
    };
    if let Ok((t, _)) = rebuild(&row, &log, now, now) {
        g.seq = log.len() as u64;
        g.table = t;
        g.row = row;
        // Not a game event (no version): each connection answers it with
        // its own `full`, so players stay players.
        let view = view_of(g.variant, &g.row, &g.table, g.version, now);
        tell(
            g,
            &ServerMsg::Full {
                game: Box::new(view),
                you: None,
            },
            None,
        );
    }
}
