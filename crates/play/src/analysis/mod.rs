//! Computer analysis: the review of a finished game, and the analysis board.
//!
//! A review evaluates every position of a game with the variant's analyser
//! (the registry's computer at full strength, to the variant's review
//! depth), then marks each move by how much it threw away of the mover's
//! winning chances, as lichess does (`Advice` in lila): 0.1 of the −1 … 1
//! scale an inaccuracy, 0.2 a mistake, 0.3 a blunder. Reviews wait in one
//! bounded queue and are worked by a few tasks (`PlayConfig::review_workers`,
//! by default half the cores, at least one), each search taking its turn in the same fair queues as the
//! computer's moves (`computer::FairQueue`), so reviews never starve play.
//! A player may have [`MAX_PENDING_PER_USER`] reviews waiting and ask for
//! [`MAX_PER_DAY`] a day; a finished review is stored with the game and
//! shown to everyone.
//!
//! The analysis board asks the server for what the rules say of any line
//! (`/api/analysis/position`: legal moves, notation, the ending), reads a
//! pasted FEN or PGN (`/api/analysis/import`) and evaluates a position on
//! demand (`/api/analysis/eval`, one at a time per player). Everything is
//! per game through the registry: a variant whose analyser is missing (no
//! Stockfish for chess) says so, and the UI hides the buttons.

mod board;

pub use board::{eval, import, position, ImportRequest, LineRequest, PositionView};

use crate::computer::EvalRequest;
use crate::Play;
use common::{now_ms, Error};
use game::{Game, Side, Status};
use registry::{Score, Variant};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;
use std::time::Duration;
use store::User;
use tokio::sync::Notify;

/// Reviews waiting, in all: more are refused with 503 until some finish.
pub const MAX_QUEUED: usize = 16;
/// Reviews one player may have waiting or running.
pub const MAX_PENDING_PER_USER: usize = 2;
/// Reviews one player may ask for in 24 hours.
pub const MAX_PER_DAY: i64 = 30;
/// The longest one position of a review may take, whatever the depth.
const REVIEW_CAP: Duration = Duration::from_secs(3);
/// The longest an analysis-board evaluation may take.
pub(crate) const LIVE_CAP: Duration = Duration::from_secs(2);
/// The most moves of a line the analysis board sends.
pub const MAX_LINE: usize = 1000;

/// Winning chances a move must throw away to be marked (lila's `Advice`).
const MARKS: [(f64, MarkKind); 3] = [
    (0.3, MarkKind::Blunder),
    (0.2, MarkKind::Mistake),
    (0.1, MarkKind::Inaccuracy),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// One position of a review.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, Deserialize)]
pub struct PlyEval {
    /// 0 for the start position, n after the n-th move.
    pub ply: u32,
    /// From the first side's view; absent where the game is over on the
    /// board (see `ending`).
    #[schema(value_type = Option<Object>)]
    pub score: Option<Score>,
    /// The first side's winning chances, −1 … 1.
    pub chances: f64,
    /// The best move here, in coordinate notation and as players read it.
    pub best: Option<String>,
    pub best_display: Option<String>,
    /// The line the best move starts, as players read it.
    pub pv_display: Vec<String>,
    pub depth: u32,
    /// How the game stands over on the board here (`checkmate`, …).
    pub ending: Option<String>,
}

/// A move that threw winning chances away.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, Deserialize)]
pub struct Mark {
    /// The move's ply (1 = the first move).
    pub ply: u32,
    pub kind: MarkKind,
    /// The mover's winning chances lost, 0 … 2.
    pub loss: f64,
}

/// A side's marks, counted.
#[derive(Clone, Copy, Debug, Default, Serialize, utoipa::ToSchema, Deserialize)]
pub struct SideSummary {
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// A game's review, complete or as far as it got.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema, Deserialize)]
pub struct Review {
    pub depth: u32,
    pub plies: Vec<PlyEval>,
    pub marks: Vec<Mark>,
    /// The first side's, then the second's.
    pub summary: [SideSummary; 2],
}

impl Review {
    /// The marks of the moves between consecutive evaluated positions,
    /// `moves[i]` being ply i+1 and `movers[i]` the side that made it. The
    /// mover is the game's, not the ply's parity: during an opening whose
    /// turns hold several moves (swap2's three stones, Soosõrv-8's offers,
    /// a colour choice) one side makes several moves in a row. A move that
    /// is the best move found is never marked, whatever the numbers say
    /// (the depth moved on).
    #[must_use]
    pub fn new(depth: u32, plies: Vec<PlyEval>, moves: &[String], movers: &[Side]) -> Review {
        let mut marks = Vec::new();
        let mut summary = [SideSummary::default(); 2];
        for pair in plies.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let ply = after.ply;
            let (Some(played), Some(&mover)) = (moves.get(ply as usize - 1), movers.get(ply as usize - 1))
            else {
                continue;
            };
            if before.best.as_deref() == Some(played.as_str()) {
                continue;
            }
            let first_moved = mover == Side::First;
            let Some((kind, loss)) = judge(before, after, first_moved) else {
                continue;
            };
            let s = &mut summary[usize::from(!first_moved)];
            match kind {
                MarkKind::Inaccuracy => s.inaccuracies += 1,
                MarkKind::Mistake => s.mistakes += 1,
                MarkKind::Blunder => s.blunders += 1,
            }
            marks.push(Mark { ply, kind, loss });
        }
        Review {
            depth,
            plies,
            marks,
            summary,
        }
    }
}

/// lichess's slope for Stockfish's centipawns: its thresholds below are
/// centipawns on that scale, turned into winning chances so that they hold
/// for every variant's engine (its own `win_chance_k`).
const LILA_K: f64 = 0.003_682_08;

/// Winning chances of `cp` Stockfish centipawns.
fn lila_chances(cp: f64) -> f64 {
    2.0 / (1.0 + (-LILA_K * cp).exp()) - 1.0
}

/// How lichess judges a move (lila's `Advice`: `CpAdvice`, else
/// `MateAdvice`), from the positions before and after it and whether the
/// first side made it: its kind and the winning chances it threw away.
///
/// - Between two scores, the loss of winning chances with each score
///   ceiled at ±1000 centipawns (lila's `ceiled`): in a position won by
///   more than that, a move that keeps it won loses nothing.
/// - A forced mate thrown away ("lost forced checkmate sequence") is an
///   inaccuracy if the position stays above +999, a mistake above +700,
///   else a blunder; walking into a forced mate ("checkmate is now
///   unavoidable") is an inaccuracy from below −999, a mistake from below
///   −700, else a blunder. A slower mate is no mistake.
fn judge(before: &PlyEval, after: &PlyEval, first_moved: bool) -> Option<(MarkKind, f64)> {
    let sign = if first_moved { 1.0 } else { -1.0 };
    // The mover's view: a mate in n (positive: the mover mates) or chances.
    let mate = |p: &PlyEval| match p.score {
        Some(Score::Mate(n)) => Some(f64::from(n) * sign),
        _ => None,
    };
    let ceiling = lila_chances(1000.0);
    let chances = |p: &PlyEval| match p.score {
        Some(Score::Mate(n)) => f64::from(n.signum()) * sign,
        // A finished game's result counts whole; a score is ceiled.
        _ if p.ending.is_some() => p.chances * sign,
        _ => (p.chances * sign).clamp(-ceiling, ceiling),
    };
    let loss = (chances(before) - chances(after)).max(0.0);
    let kind = match (mate(before), mate(after)) {
        (Some(p), Some(n)) if p > 0.0 && n < 0.0 => MarkKind::Blunder,
        (Some(p), None) if p > 0.0 => {
            // Mated at once is the mate carried out, not lost.
            if after.ending.is_some() && chances(after) >= 1.0 {
                return None;
            }
            let next = chances(after);
            if after.ending.is_none() && next >= ceiling {
                MarkKind::Inaccuracy
            } else if after.ending.is_none() && next > lila_chances(700.0) {
                MarkKind::Mistake
            } else {
                MarkKind::Blunder
            }
        }
        (None, Some(n)) if n < 0.0 => {
            let prev = chances(before);
            if prev <= -ceiling {
                MarkKind::Inaccuracy
            } else if prev < -lila_chances(700.0) {
                MarkKind::Mistake
            } else {
                MarkKind::Blunder
            }
        }
        (Some(_), _) | (_, Some(_)) => return None,
        (None, None) => MARKS.iter().find(|(at, _)| loss >= *at)?.1,
    };
    Some((kind, loss))
}

/// Where a game's review stands.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct AnalysisView {
    /// `none`, `queued`, `running`, `done` or `failed`.
    pub state: &'static str,
    /// Whether this server can analyse the game's variant at all.
    pub available: bool,
    /// In the queue: how many reviews are ahead, plus one.
    pub position: Option<usize>,
    /// Positions evaluated so far, of `total`.
    pub done: usize,
    pub total: usize,
    /// The review, partial while it runs.
    pub review: Option<Review>,
}

struct Job {
    game_id: String,
    owner: String,
}

struct Running {
    owner: String,
    total: usize,
    review: Review,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Job>,
    running: HashMap<String, Running>,
    /// Requests past the per-player check and not yet queued, by player:
    /// counted with the rest, so that requests arriving together cannot all
    /// pass the check before any is queued (three at once were all taken).
    reserved: HashMap<String, usize>,
}

/// A place in a player's share of reviews, held from the check until the
/// review is queued or the request gives up.
struct Reservation<'a> {
    reviews: &'a Reviews,
    owner: String,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut q = self.reviews.lock();
        if let Some(n) = q.reserved.get_mut(&self.owner) {
            *n -= 1;
            if *n == 0 {
                q.reserved.remove(&self.owner);
            }
        }
    }
}

/// The reviews waiting and running, and who has a board evaluation on.
#[derive(Default)]
pub struct Reviews {
    queue: Mutex<Queue>,
    wake: Notify,
    live: Mutex<HashSet<String>>,
}

impl std::fmt::Debug for Reviews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reviews").finish_non_exhaustive()
    }
}

impl Reviews {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn push(&self, game_id: String, owner: String) {
        self.lock().waiting.push_back(Job { game_id, owner });
        self.wake.notify_one();
    }

    /// A place among `owner`'s [`MAX_PENDING_PER_USER`] reviews waiting,
    /// running or being asked for, if one is free; checked and taken in
    /// one step.
    fn reserve(&self, owner: &str) -> Option<Reservation<'_>> {
        let mut q = self.lock();
        let pending = q.waiting.iter().filter(|j| j.owner == owner).count()
            + q.running.values().filter(|r| r.owner == owner).count()
            + q.reserved.get(owner).copied().unwrap_or(0);
        if pending >= MAX_PENDING_PER_USER {
            return None;
        }
        *q.reserved.entry(owner.to_string()).or_insert(0) += 1;
        Some(Reservation {
            reviews: self,
            owner: owner.to_string(),
        })
    }

    /// The view of a review in memory (waiting or running), if it is.
    fn view_of(&self, game_id: &str) -> Option<AnalysisView> {
        let q = self.lock();
        if let Some(r) = q.running.get(game_id) {
            return Some(AnalysisView {
                state: "running",
                available: true,
                position: None,
                done: r.review.plies.len(),
                total: r.total,
                review: Some(r.review.clone()),
            });
        }
        let at = q.waiting.iter().position(|j| j.game_id == game_id)?;
        Some(AnalysisView {
            state: "queued",
            available: true,
            position: Some(at + 1),
            done: 0,
            total: 0,
            review: None,
        })
    }

    /// The next review to work, taken from the waiting and counted as
    /// running in the same step: between the two a request of its owner
    /// would find it in neither and pass the per-player check.
    async fn next(&self) -> Job {
        loop {
            let notified = self.wake.notified();
            {
                let mut q = self.lock();
                if let Some(job) = q.waiting.pop_front() {
                    q.running.insert(
                        job.game_id.clone(),
                        Running {
                            owner: job.owner.clone(),
                            total: 0,
                            review: Review::new(0, Vec::new(), &[], &[]),
                        },
                    );
                    return job;
                }
            }
            notified.await;
        }
    }
}

/// Starts the review workers, and queues again the reviews that were
/// waiting when the server stopped.
pub async fn start(state: &Play) -> Result<(), store::StoreError> {
    for (game_id, owner) in state.store().queued_analyses().await? {
        state.reviews().push(game_id, owner);
    }
    for _ in 0..state.config().review_workers {
        let state = state.clone();
        tokio::spawn(async move {
            let mut stop = state.shutdown_signal();
            loop {
                let job = tokio::select! {
                    job = state.reviews().next() => job,
                    _ = stop.changed() => break,
                };
                let id = job.game_id.clone();
                let result = tokio::select! {
                    r = review(&state, &job) => r,
                    // Left `queued` in the database: done after a restart.
                    _ = stop.changed() => break,
                };
                state.reviews().lock().running.remove(&id);
                let json = match result {
                    Ok(review) => serde_json::to_string(&review).ok(),
                    Err(e) => {
                        tracing::warn!(game = %id, error = %e, "review failed");
                        None
                    }
                };
                if let Err(e) = state
                    .store()
                    .finish_analysis(&id, json.as_deref(), now_ms())
                    .await
                {
                    tracing::warn!(game = %id, error = %e, "review not saved");
                }
            }
        });
    }
    Ok(())
}

/// The ending a position is in on the board, if over, with the first
/// side's winning chances there.
fn ending_of(game: &dyn Game) -> Option<(String, f64)> {
    match game.status() {
        Status::Over(e) => {
            let chances = match e.outcome.winner() {
                Some(Side::First) => 1.0,
                Some(Side::Second) => -1.0,
                None => 0.0,
            };
            Some((e.reason, chances))
        }
        _ => None,
    }
}

/// The display notation of a line played from `game`, as far as it is legal.
fn displays(game: &dyn Game, line: &[String]) -> Vec<String> {
    let mut g = game.boxed_clone();
    line.iter()
        .map_while(|m| g.play(m).ok().map(|p| p.display))
        .collect()
}

/// Evaluates the position `game` is in (reached from `fen` by `moves`),
/// from the first side's view.
pub(crate) async fn evaluate(
    state: &Play,
    variant: &'static Variant,
    asker: crate::computer::Asker,
    game: Box<dyn Game>,
    moves: &[String],
    cap: Duration,
) -> Result<PlyEval, String> {
    let ply = u32::try_from(moves.len()).unwrap_or(u32::MAX);
    if let Some((reason, chances)) = ending_of(game.as_ref()) {
        return Ok(PlyEval {
            ply,
            score: None,
            chances,
            best: None,
            best_display: None,
            pv_display: Vec::new(),
            depth: 0,
            ending: Some(reason),
        });
    }
    let e = state
        .computers()
        .evaluate(EvalRequest {
            variant,
            asker,
            fen: game.initial_fen(),
            moves: moves.to_vec(),
            depth: variant.analysis.depth,
            movetime: cap,
        })
        .await?;
    let score = if game.side_to_move() == Side::First {
        e.score
    } else {
        e.score.flip()
    };
    let pv_display = displays(game.as_ref(), &e.pv);
    Ok(PlyEval {
        ply,
        score: Some(score),
        chances: score.win_chances(variant.analysis.win_chance_k),
        best_display: pv_display.first().cloned(),
        best: e.best,
        pv_display,
        depth: e.depth,
        ending: None,
    })
}

/// Reviews one game, position by position, keeping the partial review
/// where `GET …/analysis` reads it.
async fn review(state: &Play, job: &Job) -> Result<Review, String> {
    let (row, moves) = state
        .store()
        .game(&job.game_id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("the game is gone")?;
    let variant = registry::get(Some(&row.variant)).map_err(|e| e.to_string())?;
    let coords: Vec<String> = moves.into_iter().map(|m| m.coord).collect();
    let mut game = variant
        .new_game(Some(&row.initial_fen), 0)
        .map_err(|e| e.to_string())?;
    let movers = movers(game.as_ref(), &coords)?;
    let depth = variant.analysis.depth;
    state.reviews().lock().running.insert(
        job.game_id.clone(),
        Running {
            owner: job.owner.clone(),
            total: coords.len() + 1,
            review: Review::new(depth, Vec::new(), &coords, &movers),
        },
    );
    let mut plies = Vec::with_capacity(coords.len() + 1);
    for ply in 0..=coords.len() {
        let eval = evaluate(
            state,
            variant,
            crate::computer::Asker {
                account: job.owner.clone(),
                address: None,
            },
            game.boxed_clone(),
            &coords[..ply],
            REVIEW_CAP,
        )
        .await?;
        plies.push(eval);
        if let Some(r) = state.reviews().lock().running.get_mut(&job.game_id) {
            r.review = Review::new(depth, plies.clone(), &coords, &movers);
        }
        if let Some(m) = coords.get(ply) {
            game.play(m)
                .map_err(|e| format!("stored move {} does not replay: {e}", ply + 1))?;
        }
    }
    Ok(Review::new(depth, plies, &coords, &movers))
}

/// The side that made each of `coords` from `game`'s position: the side
/// to move before it, as the game says (several moves in a row during an
/// opening's multi-move turns).
fn movers(game: &dyn Game, coords: &[String]) -> Result<Vec<Side>, String> {
    let mut game = game.boxed_clone();
    let mut movers = Vec::with_capacity(coords.len());
    for (i, m) in coords.iter().enumerate() {
        movers.push(game.side_to_move());
        game.play(m)
            .map_err(|e| format!("stored move {} does not replay: {e}", i + 1))?;
    }
    Ok(movers)
}

/// The stored or running review of a game.
async fn view(state: &Play, game_id: &str, variant: &Variant) -> Result<AnalysisView, Error> {
    if let Some(v) = state.reviews().view_of(game_id) {
        return Ok(v);
    }
    let available = state.computers().can_analyse(variant);
    let (state_word, review) = match state.store().analysis(game_id).await? {
        // Stored by this server, so it reads back.
        Some((s, Some(json))) if s == "done" => ("done", serde_json::from_str::<Review>(&json).ok()),
        Some((s, _)) if s == "failed" => ("failed", None),
        // Queued in the database but not in memory: a worker is about to
        // pick it up after a restart.
        Some(_) => ("queued", None),
        None => ("none", None),
    };
    let done = review.as_ref().map_or(0, |r| r.plies.len());
    Ok(AnalysisView {
        state: state_word,
        available,
        position: None,
        done,
        total: done,
        review,
    })
}

async fn game_variant(state: &Play, id: &str) -> Result<(store::GameRow, &'static Variant), Error> {
    let (row, _) = state
        .store()
        .game(id)
        .await?
        .ok_or_else(|| Error::NotFound(format!("game {id}")))?;
    let variant = registry::get(Some(&row.variant)).map_err(|e| Error::Internal(e.to_string()))?;
    Ok((row, variant))
}

/// A game's computer review: where it stands, and the review.
///
/// # Errors
/// `not_found`, or storage.
pub async fn review_of(state: &Play, id: &str) -> Result<AnalysisView, Error> {
    let (_, variant) = game_variant(state, id).await?;
    view(state, id, variant).await
}

/// Asks for a finished game's computer review: `(true, view)` when it was
/// queued now; asking again while it is queued, running or done answers
/// where it stands (`false`).
///
/// # Errors
/// The game is live, damaged or unknown; no analyser; too many reviews
/// waiting or asked for; or storage.
pub async fn request(state: &Play, user: &User, id: &str) -> Result<(bool, AnalysisView), Error> {
    let (row, variant) = game_variant(state, id).await?;
    if row.state == "live" {
        return Err(Error::conflict(
            "game_not_over",
            "a game is analysed once it is over",
        ));
    }
    if row.state == "damaged" {
        return Err(Error::Damaged(format!("game {id} cannot be read")));
    }
    if !state.computers().can_analyse(variant) {
        return Err(Error::conflict(
            "analysis_unavailable",
            format!("this server has no analyser for {}", variant.id),
        ));
    }
    let current = view(state, id, variant).await?;
    if matches!(current.state, "queued" | "running" | "done") {
        return Ok((false, current));
    }
    let reviews = state.reviews();
    let Some(_place) = reviews.reserve(&user.id) else {
        return Err(Error::conflict(
            "analysis_pending",
            format!("you have {MAX_PENDING_PER_USER} reviews waiting; let one finish first"),
        ));
    };
    let now = now_ms();
    if state
        .store()
        .analyses_requested_since(&user.id, now - 24 * 3_600_000)
        .await?
        >= MAX_PER_DAY
    {
        return Err(Error::TooManyRequests { retry_after_s: 3600 });
    }
    if reviews.lock().waiting.len() >= MAX_QUEUED {
        return Err(Error::Unavailable);
    }
    if state.store().request_analysis(id, &user.id, now).await? {
        reviews.push(id.to_string(), user.id.clone());
    }
    Ok((true, view(state, id, variant).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(ply: u32, chances: f64, best: &str) -> PlyEval {
        PlyEval {
            ply,
            score: None,
            chances,
            best: Some(best.into()),
            best_display: None,
            pv_display: Vec::new(),
            depth: 1,
            ending: None,
        }
    }

    /// Chances from the first side's view: the first side's move 1 loses
    /// 0.35 (a blunder), the second side's move 2 gives back 0.15 (an
    /// inaccuracy, by its own view), move 3 is the best move and loses
    /// 0.25 on paper (not marked), move 4 loses 0.05 (not marked).
    #[test]
    fn marks_are_by_the_movers_lost_chances() {
        let moves: Vec<String> = ["a", "b", "c", "d"].iter().map(|s| (*s).to_string()).collect();
        let plies = vec![
            ply(0, 0.1, "x"),
            ply(1, -0.25, "y"),
            ply(2, -0.1, "c"),
            ply(3, -0.35, "z"),
            ply(4, -0.3, "w"),
        ];
        let alternate = [Side::First, Side::Second, Side::First, Side::Second];
        let r = Review::new(10, plies, &moves, &alternate);
        let got: Vec<(u32, MarkKind)> = r.marks.iter().map(|m| (m.ply, m.kind)).collect();
        assert_eq!(got, [(1, MarkKind::Blunder), (2, MarkKind::Inaccuracy)]);
        assert_eq!(r.summary[0].blunders, 1);
        assert_eq!(r.summary[1].inaccuracies, 1);
        assert_eq!(r.summary[0].mistakes + r.summary[1].mistakes, 0);
        // The same chances when the second side moved first: every move
        // then gained for its mover, or is the best move.
        let swapped = alternate.map(Side::other);
        let r = Review::new(10, r.plies, &moves, &swapped);
        assert!(r.marks.is_empty(), "{:?}", r.marks);
    }

    /// A position as Stockfish scores it (first side's view), with the
    /// chances the review computes from it at lichess's slope.
    fn scored(ply: u32, score: Score) -> PlyEval {
        PlyEval {
            score: Some(score),
            chances: score.win_chances(LILA_K),
            ..super::tests::ply(ply, 0.0, "best")
        }
    }

    fn judged(before: Score, after: Score, first_moved: bool) -> Option<MarkKind> {
        judge(&scored(0, before), &scored(1, after), first_moved).map(|(k, _)| k)
    }

    /// lila's `Advice`, case by case (modules/analyse/src/main/Advice.scala).
    #[test]
    fn moves_are_judged_as_lichess_judges_them() {
        use MarkKind::{Blunder, Inaccuracy, Mistake};
        use Score::{Cp, Mate};
        // Scores are ceiled at ±1000: +13 to +7.5 loses 0.07 of the
        // ceiled chances (0.10 of the raw ones, which marked it).
        assert_eq!(judged(Cp(1300), Cp(750), true), None);
        assert_eq!(judged(Cp(1000), Cp(650), true), Some(Inaccuracy));
        assert_eq!(judged(Cp(300), Cp(-100), true), Some(Blunder));
        // The second side's view is the other way round.
        assert_eq!(judged(Cp(-300), Cp(100), false), Some(Blunder));
        assert_eq!(judged(Cp(-300), Cp(-320), false), None);
        // A forced mate thrown away: by what is left.
        assert_eq!(judged(Mate(3), Cp(1200), true), Some(Inaccuracy));
        assert_eq!(judged(Mate(3), Cp(800), true), Some(Mistake));
        assert_eq!(judged(Mate(3), Cp(300), true), Some(Blunder));
        assert_eq!(judged(Mate(-3), Cp(-300), false), Some(Blunder));
        assert_eq!(judged(Mate(2), Mate(-4), true), Some(Blunder));
        // Walking into a forced mate: by how lost it was already.
        assert_eq!(judged(Cp(-1500), Mate(-4), true), Some(Inaccuracy));
        assert_eq!(judged(Cp(-750), Mate(-4), true), Some(Mistake));
        assert_eq!(judged(Cp(0), Mate(-4), true), Some(Blunder));
        // A slower mate, a mate found, a lost game staying lost: nothing.
        assert_eq!(judged(Mate(3), Mate(5), true), None);
        assert_eq!(judged(Cp(200), Mate(6), true), None);
        assert_eq!(judged(Mate(-2), Mate(-1), true), None);
        // The mate carried out, and a stalemate instead of it.
        let mated = PlyEval {
            chances: 1.0,
            ending: Some("checkmate".into()),
            ..ply(1, 0.0, "x")
        };
        assert_eq!(judge(&scored(0, Mate(1)), &mated, true), None);
        let stalemate = PlyEval {
            chances: 0.0,
            ending: Some("stalemate".into()),
            ..ply(1, 0.0, "x")
        };
        assert_eq!(
            judge(&scored(0, Mate(2)), &stalemate, true).map(|j| j.0),
            Some(Blunder)
        );
    }

    /// Swap2 (gomoku/swap2): the first player places three stones in one
    /// turn, the second chooses white and plays. The first player's second
    /// stone, ply 2, throws away 0.35: it is the first player's blunder,
    /// which the ply's parity gave to the second player as a gain.
    #[test]
    fn marks_go_to_the_side_that_moved_in_a_multi_move_turn() {
        let variant = registry::get(Some("gomoku/swap2")).unwrap();
        let game = variant.new_game(None, 0).unwrap();
        let moves: Vec<String> = ["h8", "h9", "i9", "choose:white", "j10", "g7"]
            .iter()
            .map(|s| (*s).to_string())
            .collect();
        let sides = movers(game.as_ref(), &moves).unwrap();
        use Side::{First, Second};
        assert_eq!(sides, [First, First, First, Second, Second, First]);
        let plies = vec![
            ply(0, 0.0, "h8"),
            ply(1, 0.0, "x"),
            ply(2, -0.35, "i9"),
            ply(3, -0.35, "choose:white"),
            ply(4, -0.35, "j10"),
            ply(5, -0.35, "y"),
            ply(6, -0.35, "z"),
        ];
        let r = Review::new(10, plies, &moves, &sides);
        let got: Vec<(u32, MarkKind)> = r.marks.iter().map(|m| (m.ply, m.kind)).collect();
        assert_eq!(got, [(2, MarkKind::Blunder)]);
        assert_eq!(r.summary[0].blunders, 1);
        assert_eq!(r.summary[1].blunders, 0);
        // A move that does not replay is an error, not a wrong mover.
        let bad = ["h8".to_string(), "h8".to_string()];
        assert!(movers(game.as_ref(), &bad).unwrap_err().contains("stored move 2"));
    }
}
