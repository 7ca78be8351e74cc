//! The analysis board: what the rules say of any line (legal moves,
//! notation, the ending), a pasted FEN or PGN read into a line, and a
//! position evaluated on demand (one at a time per player).

use super::{evaluate, PlyEval, LIVE_CAP, MAX_LINE};
use crate::computer::Asker;
use crate::Play;
use common::Error;
use game::{Game, PlayedMove, Side, Status};
use registry::Variant;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Mutex;
use store::User;

/// A line on the analysis board: a variant, where it starts, the moves.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    pub variant: Option<String>,
    /// The start position; the variant's start when absent.
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

/// The rules' view of a line's last position.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PositionView {
    pub variant: &'static str,
    pub initial_fen: String,
    pub fen: String,
    /// The side to move, as the variant names it (`red`, `white`).
    pub turn: &'static str,
    /// Legal moves in coordinate notation.
    pub legal: Vec<String>,
    /// The line's moves as the rules recorded them (notations, check).
    #[schema(value_type = Vec<Object>)]
    pub moves: Vec<PlayedMove>,
    /// Who made each of `moves` (`first`/`second`): sides need not
    /// alternate (杀惊遁马's turn of two moves, renju's opening rules), so
    /// the board says who is to move from these, not from the ply count.
    #[schema(value_type = Vec<String>)]
    pub movers: Vec<Side>,
    #[schema(value_type = Object)]
    pub status: Status,
    /// Whether the server can evaluate positions of this variant.
    pub analysis: bool,
}

/// A replayed line: its variant, the game at its end, who made each move.
type Replayed = (&'static Variant, Box<dyn Game>, Vec<Side>);

/// Replays a line, or says which move of it is wrong; with who made each move.
fn replay(req: &LineRequest) -> Result<Replayed, Error> {
    let variant =
        registry::get(req.variant.as_deref()).map_err(|e| Error::bad("unknown_variant", e.to_string()))?;
    if req.moves.len() > MAX_LINE {
        return Err(Error::bad(
            "line_too_long",
            format!("a line has at most {MAX_LINE} moves"),
        ));
    }
    let fen = req.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
    if fen.is_some_and(|f| f.len() > 200) {
        return Err(Error::bad("bad_fen", "a position has at most 200 characters"));
    }
    let mut game = variant
        .new_game(fen, 0)
        .map_err(|e| Error::bad("bad_fen", e.to_string()))?;
    let mut movers = Vec::with_capacity(req.moves.len());
    for (i, m) in req.moves.iter().enumerate() {
        movers.push(game.side_to_move());
        game.play(m)
            .map_err(|e| Error::bad("illegal_move", format!("move {} ({m}): {e}", i + 1)))?;
    }
    Ok((variant, game, movers))
}

/// What the rules say of a line: its moves' notation, the legal moves
/// after it, whether the game would be over.
///
/// # Errors
/// An unknown variant, a bad position, an illegal move (named), or a line
/// too long.
pub fn position(state: &Play, req: &LineRequest) -> Result<PositionView, Error> {
    let (variant, game, movers) = replay(req)?;
    let status = game.status();
    Ok(PositionView {
        variant: variant.id,
        initial_fen: game.initial_fen(),
        fen: game.fen(),
        turn: variant.side_key_in(&*game, game.side_to_move()),
        legal: if matches!(status, Status::Over(_)) {
            Vec::new()
        } else {
            game.legal_moves()
        },
        moves: game.history().to_vec(),
        movers,
        status,
        analysis: state.computers().can_analyse(variant),
    })
}

/// The engine's view of a line's last position (one at a time per player);
/// `client` is the address asked from, which the search's turn is shared
/// by (see `computer::FairQueue`).
///
/// # Errors
/// As [`position`]; no analyser; an evaluation of theirs already running.
pub async fn eval(
    state: &Play,
    user: &User,
    client: Option<IpAddr>,
    req: &LineRequest,
) -> Result<PlyEval, Error> {
    let (variant, game, _) = replay(req)?;
    if !state.computers().can_analyse(variant) {
        return Err(Error::conflict(
            "analysis_unavailable",
            format!("this server has no analyser for {}", variant.id),
        ));
    }
    let Some(_running) = EvalMark::mark(&state.reviews().live, &user.id) else {
        return Err(Error::TooManyRequests { retry_after_s: 1 });
    };
    let asker = Asker {
        account: user.id.clone(),
        address: client,
    };
    evaluate(state, variant, asker, game, &req.moves, LIVE_CAP)
        .await
        .map_err(Error::Internal)
}

/// A player's "one evaluation at a time" mark, taken for as long as it
/// lives. Dropping clears it — when the evaluation ends, and also when
/// the request is dropped mid-await because its client hung up (clearing
/// it after the await left the player refused until a restart).
struct EvalMark<'a> {
    live: &'a Mutex<HashSet<String>>,
    user: String,
}

impl<'a> EvalMark<'a> {
    /// The mark, or `None` when the player already has one.
    fn mark(live: &'a Mutex<HashSet<String>>, user: &str) -> Option<EvalMark<'a>> {
        lock(live).insert(user.to_string()).then(|| EvalMark {
            live,
            user: user.to_string(),
        })
    }
}

impl Drop for EvalMark<'_> {
    fn drop(&mut self) {
        lock(self.live).remove(&self.user);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A pasted record to open on the analysis board.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    pub variant: Option<String>,
    /// A FEN, or one game of PGN.
    pub text: String,
}

/// Reads a pasted FEN or PGN into a line for the analysis board.
///
/// # Errors
/// An unknown variant, a record that does not read, or as [`position`].
pub fn import(state: &Play, req: &ImportRequest) -> Result<PositionView, Error> {
    let variant =
        registry::get(req.variant.as_deref()).map_err(|e| Error::bad("unknown_variant", e.to_string()))?;
    let g = variant
        .read_record(&req.text)
        .map_err(|e| Error::bad("bad_record", e))?;
    position(
        state,
        &LineRequest {
            variant: Some(variant.id.to_string()),
            fen: Some(g.initial_fen),
            moves: g.moves,
        },
    )
}
