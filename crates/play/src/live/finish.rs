//! How a game ends on the server (the `Finisher` of lila's round module):
//! the archive row with the result, the rating changes of a rated game in
//! the same transaction, and the `end` event.

use super::state::{broadcast, LiveGame};
use crate::protocol::{ClockView, RatingChange, ServerMsg};
use crate::table::End;
use crate::Play;
use game::{Outcome, Side};
use store::{GameEnd, GameRow, PoolRating, RatingUpdate, Store, User};

/// Whether the ended game is archived already.
pub(super) fn already_archived(g: &LiveGame) -> bool {
    g.row.state != "live"
}

/// Archives the ended game (with its rating changes) and broadcasts the end.
pub(super) async fn finish(state: &Play, g: &mut LiveGame) {
    let Some(end) = g.table.end() else {
        return;
    };
    if already_archived(g) {
        return;
    }
    let now = common::now_ms();
    let clocks = g.table.clocks_at(now);
    let stored = GameEnd {
        state: if end.outcome.is_some() { "over" } else { "aborted" },
        result: end.outcome.map(|_| end.result().to_string()),
        winner: end.outcome.and_then(Outcome::winner).map(|s| s.to_string()),
        reason: end.reason.clone(),
        detail: end.detail.clone(),
        article: end.article.clone(),
        ended_ms: now,
        first_ms: clocks[0],
        second_ms: clocks[1],
    };
    let updates = match rating_updates(
        state.store(),
        g.variant,
        &g.row,
        &end,
        state.config().rating_system,
    )
    .await
    {
        Ok(u) => u,
        Err(e) => {
            tracing::error!(game = %g.row.id, error = %e, "cannot read ratings");
            Vec::new()
        }
    };
    let system = match state.config().rating_system {
        rating::RatingSystem::Elo => "elo",
        rating::RatingSystem::Glicko2 => "glicko2",
    };
    let mut ratings = std::collections::BTreeMap::new();
    match state
        .store()
        .finish_game(&g.row.id, &stored, system, &updates, &g.table.record())
        .await
    {
        Ok(()) => {
            for u in &updates {
                let side = super::side_of(&g.row, &u.user_id).unwrap_or(Side::Second);
                ratings.insert(
                    side,
                    RatingChange {
                        before: u.before.rating.round(),
                        after: u.after.rating.round(),
                    },
                );
            }
        }
        Err(e) => tracing::error!(game = %g.row.id, error = %e, "cannot archive finished game"),
    }
    g.row.state = stored.state.to_string();
    g.row.result.clone_from(&stored.result);
    g.row.winner.clone_from(&stored.winner);
    g.row.reason = Some(stored.reason.clone());
    g.row.detail = Some(stored.detail.clone());
    g.row.article.clone_from(&stored.article);
    g.row.ended_ms = Some(now);
    let msg = ServerMsg::End {
        v: g.version + 1,
        state: stored.state.to_string(),
        result: stored.result,
        winner: end.outcome.and_then(Outcome::winner),
        reason: stored.reason,
        detail: stored.detail,
        article: stored.article,
        clocks: ClockView::main(clocks[0], clocks[1], false),
        ratings,
    };
    broadcast(g, &msg);
    // After the archive row: a room told of the end may read it.
    state.tell_ended(crate::GameEnded {
        game: g.row.id.clone(),
        outcome: end.outcome,
        reason: end.reason.clone(),
        plies: g.table.ply(),
    });
}

/// The rating changes a finished game causes: rated games between two
/// registered players only, in the variant's rating pool. A game against a
/// title holder counts toward a title only where the pool has titles
/// (Xiangqi's, seed 003).
async fn rating_updates(
    store: &Store,
    variant: &registry::Variant,
    row: &GameRow,
    end: &End,
    system: rating::RatingSystem,
) -> Result<Vec<RatingUpdate>, store::StoreError> {
    let (Some(outcome), true, Some(first_id), Some(second_id)) = (
        end.outcome,
        row.rated,
        row.first_id.as_ref(),
        row.second_id.as_ref(),
    ) else {
        return Ok(Vec::new());
    };
    let (Some(first), Some(second)) = (
        store.user_by_id(first_id).await?,
        store.user_by_id(second_id).await?,
    ) else {
        return Ok(Vec::new());
    };
    if first.guest || second.guest {
        return Ok(Vec::new());
    }
    let pool = variant.rating_pool;
    let (fr, sr) = (
        store.rating(&first.id, pool).await?,
        store.rating(&second.id, pool).await?,
    );
    let score = match outcome {
        Outcome::Win { winner: Side::First } => rating::Score::Win,
        Outcome::Win { winner: Side::Second } => rating::Score::Loss,
        Outcome::Draw => rating::Score::Draw,
    };
    let titled = |u: &User, r: &PoolRating| {
        let awarded = u.awarded_title.as_deref().and_then(|t| t.parse().ok());
        variant.titles && rating::title(r.rating.rating, r.titled_games, awarded).is_some()
    };
    let (f, s) = system.rate(&fr.rating, &sr.rating, score);
    Ok(vec![
        RatingUpdate {
            user_id: first.id.clone(),
            pool,
            before: fr.rating,
            after: f,
            against_titled: titled(&second, &sr),
        },
        RatingUpdate {
            user_id: second.id.clone(),
            pool,
            before: sr.rating,
            after: s,
            against_titled: titled(&first, &fr),
        },
    ])
}
