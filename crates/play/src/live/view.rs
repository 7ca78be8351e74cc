//! What a player or a spectator sees of a game (the `JsonView` of lila's
//! round module): the view of a live game from its table, and of a stored
//! one rebuilt from the database.

use super::{rebuild, variant_of};
use crate::protocol::{ClockView, GameView, MoveView, PlayerView};
use crate::table::Table;
use crate::Play;
use game::Side;
use store::GameRow;

/// Builds the view of a game from its row and table.
pub(super) fn view_of(
    v: &registry::Variant,
    row: &GameRow,
    table: &Table,
    version: u64,
    now_ms: i64,
) -> GameView {
    let end = table.end();
    let end = end.as_ref();
    let (state, result, winner) = match end {
        None => ("live".to_string(), None, None),
        Some(e) => match e.outcome {
            None => ("aborted".to_string(), None, None),
            Some(o) => ("over".to_string(), Some(e.result().to_string()), o.winner()),
        },
    };
    let game = table.game();
    GameView {
        id: row.id.clone(),
        variant: row.variant.clone(),
        rated: row.rated,
        time_control: row.time_control.clone(),
        initial_ms: row.initial_ms,
        increment_ms: row.increment_ms,
        sides: Side::BOTH.map(|s| v.side_key_in(game, s).to_string()),
        first: PlayerView {
            id: row.first_id.clone(),
            name: row.first_name.clone(),
            rating: row.first_rating.map(f64::round),
            computer: row.computer.clone().filter(|_| row.first_id.is_none()),
        },
        second: PlayerView {
            id: row.second_id.clone(),
            name: row.second_name.clone(),
            rating: row.second_rating.map(f64::round),
            computer: row.computer.clone().filter(|_| row.second_id.is_none()),
        },
        initial_fen: row.initial_fen.clone(),
        fen: game.fen(),
        turn: game.side_to_move(),
        ply: table.ply(),
        moves: table
            .moves()
            .map(|m| MoveView {
                ply: m.ply,
                side: m.times.side,
                coord: m.played.coord.clone(),
                display: m.played.display.clone(),
                alt: m.played.alt.clone(),
                first_ms: i64::try_from(m.times.clocks_ms[0]).unwrap_or(i64::MAX),
                second_ms: i64::try_from(m.times.clocks_ms[1]).unwrap_or(i64::MAX),
                spent_ms: i64::try_from(m.times.spent_ms).unwrap_or(i64::MAX),
            })
            .collect(),
        clocks: table.clock_view(now_ms),
        legal: legal_moves(table),
        premoves: premoves(table),
        state,
        result,
        winner,
        reason: end.map(|e| e.reason.clone()),
        detail: end.map(|e| e.detail.clone()),
        article: end.and_then(|e| e.article.clone()),
        draw_offer: table.draw_offer(),
        must_change: table.must_change().map(|m| m.side),
        offer_refused: table.offer_refused(),
        takebacks: takebacks_allowed(row),
        takeback_offer: table.session().takeback_offer(),
        claimable: table.claim_holds(),
        claim: table.claim_reason(),
        rules_profile: table.rules_profile().to_string(),
        created_ms: row.created_ms,
        v: version,
        away: None,
        first_move: None,
    }
}

/// Whether a game allows takebacks at all: casual games played online.
/// The competition rules have none, so a rated game or an event's (an
/// arbiter's rules) never does.
pub(super) fn takebacks_allowed(row: &GameRow) -> bool {
    !row.rated && row.rules_profile != "arbiter"
}

/// What the side to move may play (nothing once the game is over).
pub(super) fn legal_moves(table: &Table) -> Vec<String> {
    if table.is_over() {
        Vec::new()
    } else {
        table.game().legal_moves()
    }
}

/// What the side not to move may premove, where the browser needs the
/// server to say (`Game::premoves`; nothing once the game is over).
pub(super) fn premoves(table: &Table) -> Vec<String> {
    if table.is_over() {
        Vec::new()
    } else {
        table.game().premoves()
    }
}

/// A side as stored (`first`/`second`).
fn stored_side(text: &str) -> Option<Side> {
    Side::BOTH.into_iter().find(|s| s.to_string() == text)
}

/// The view of a game that no task owns (finished, or another node's),
/// rebuilt from the database.
pub async fn stored_view(state: &Play, id: &str) -> Result<Option<GameView>, common::Error> {
    let damaged =
        |why: String| common::Error::Damaged(format!("game {id}'s stored record is damaged: {why}"));
    if state.store().game_state(id).await?.as_deref() == Some("damaged") {
        let why = state.store().game_detail(id).await?.unwrap_or_default();
        return Err(damaged(why));
    }
    let Some((row, _)) = state.store().game(id).await.map_err(|e| damaged(e.to_string()))? else {
        return Ok(None);
    };
    let log = state
        .store()
        .commands(id)
        .await
        .map_err(|e| damaged(e.to_string()))?;
    let now = common::now_ms();
    let v = variant_of(&row).map_err(damaged)?;
    let (table, _) = rebuild(&row, &log, now, now).map_err(damaged)?;
    let mut view = view_of(v, &row, &table, 0, now);
    if row.state != "live" {
        view.state.clone_from(&row.state);
        view.result.clone_from(&row.result);
        view.winner = row.winner.as_deref().and_then(stored_side);
        view.legal.clear();
        view.reason.clone_from(&row.reason);
        view.detail.clone_from(&row.detail);
        view.article.clone_from(&row.article);
        view.clocks = ClockView::main(row.first_ms, row.second_ms, false);
        view.draw_offer = None;
        view.takeback_offer = None;
    }
    Ok(Some(view))
}
