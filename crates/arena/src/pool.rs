//! The part of a match that does not depend on the game: `concurrency`
//! workers, each owning one process of either engine, take the next game
//! number from a shared counter; results come back on a channel in
//! completion order and are tallied (with the SPRT, if one runs) for the
//! first engine. The Xiangqi runner (`runner`) and the gomoku runner
//! (`gomocup`) are each a [`Contest`]: how to start a player and how to
//! play game number `g`.

use crate::runner::{MatchError, SprtOutcome};
use crate::stats::{Sprt, SprtState, Tally};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

/// One kind of match: its players and how a game between them is played.
pub(crate) trait Contest: Send + Sync + 'static {
    type Player: Send + 'static;
    type Report: Send + 'static;

    /// Starts engine `index` (0 or 1).
    fn start(&self, index: usize) -> impl Future<Output = Result<Self::Player, MatchError>> + Send;

    /// The name results are reported under.
    fn name(player: &Self::Player) -> String;

    /// Plays game number `g` (0-based); `pair[0]` is the first engine.
    fn play<'a>(
        &'a self,
        pair: &'a mut [Self::Player; 2],
        names: &'a [String; 2],
        g: u32,
    ) -> impl Future<Output = Self::Report> + Send + 'a;

    /// The first engine's score in half points (2 win, 1 draw, 0 loss).
    fn half_points(report: &Self::Report) -> u32;

    /// Shuts a player down.
    fn quit(player: Self::Player) -> impl Future<Output = ()> + Send;
}

/// What a pool of games ends with.
pub(crate) struct PoolOutcome<R> {
    pub names: [String; 2],
    pub tally: Tally,
    pub sprt: Option<SprtOutcome>,
    pub games: Vec<R>,
}

/// Plays `games` games of `contest` on `concurrency` workers, stopping
/// early once `sprt` decides; `on_game` sees each finished game with the
/// running tally.
pub(crate) async fn run_pool<C: Contest>(
    contest: C,
    games: u32,
    concurrency: usize,
    sprt: Option<Sprt>,
    mut on_game: impl FnMut(&C::Report, &Tally, &[String; 2]),
) -> Result<PoolOutcome<C::Report>, MatchError> {
    if concurrency == 0 {
        return Err(MatchError::NoWorkers);
    }
    let contest = Arc::new(contest);
    // Start the first pair now so a bad command fails before any game.
    let mut first_pairs = Vec::new();
    for _ in 0..concurrency.min(games.max(1) as usize) {
        let a = contest.start(0).await?;
        let b = contest.start(1).await?;
        first_pairs.push([a, b]);
    }
    let names = [C::name(&first_pairs[0][0]), C::name(&first_pairs[0][1])];
    let next = Arc::new(AtomicU32::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut workers = Vec::new();
    for mut pair in first_pairs {
        let (contest, next, stop, tx, names) = (
            contest.clone(),
            next.clone(),
            stop.clone(),
            tx.clone(),
            names.clone(),
        );
        workers.push(tokio::spawn(async move {
            loop {
                let g = next.fetch_add(1, Ordering::SeqCst);
                if g >= games || stop.load(Ordering::SeqCst) {
                    break;
                }
                let report = contest.play(&mut pair, &names, g).await;
                if tx.send(report).is_err() {
                    break;
                }
            }
            let [a, b] = pair;
            C::quit(a).await;
            C::quit(b).await;
        }));
    }
    drop(tx);
    let mut tally = Tally::default();
    let mut reports = Vec::new();
    let mut sprt_state = None;
    while let Some(r) = rx.recv().await {
        match C::half_points(&r) {
            2 => tally.wins += 1,
            1 => tally.draws += 1,
            _ => tally.losses += 1,
        }
        on_game(&r, &tally, &names);
        reports.push(r);
        if let Some(s) = &sprt {
            let o = SprtOutcome::after_game(sprt_state, s, tally);
            if o.state != SprtState::Continue {
                stop.store(true, Ordering::SeqCst);
            }
            sprt_state = Some(o);
        }
    }
    for w in workers {
        let _ = w.await;
    }
    Ok(PoolOutcome {
        names,
        tally,
        sprt: sprt_state,
        games: reports,
    })
}
