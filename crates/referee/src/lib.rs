//! The Xiangqi referee: says whether a game is over and why.
//!
//! Pure and synchronous, like the rules core it builds on: the server, the
//! CLI and the tests share it. Beside checkmate and stalemate it rules
//! repetitions by the 棋例 of the chosen rule set ([`RuleSet`]): each move of
//! a cycle is classified ([`classify`]), each side's moves are summed up
//! into a pattern, and the patterns give the result with its article.
//!
//! - [`judge`] rules on a start position and a list of moves;
//! - [`XiangqiGame`] is the [`game::Game`] the server plays, refereed move by
//!   move.

pub mod axf;
pub mod classify;
pub mod ending;
pub mod exchange;
mod game_impl;
pub mod repetition;
pub mod rules;
pub mod wxf;

pub use classify::{classify, IdleKind, MoveClass, MoveReport};
pub use exchange::ChaseKind;
pub use game_impl::XiangqiGame;
pub use repetition::{CycleRuling, Decision, History, Pattern, SideRuling};
pub use rules::{Config, RuleSet, UnknownRuleSet};

use xiangqi::{Move, Position};

/// A ruling on a game: its result, why, and for a repetition the classified
/// moves of the cycle and each side's part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub decision: Decision,
    /// Machine-readable reason (`checkmate`, `perpetual_chase`, …); empty
    /// while the game goes on.
    pub reason: String,
    pub detail: String,
    /// Rule-book article, e.g. `26.4`.
    pub article: Option<String>,
    /// The moves of the cycle, classified (empty when there is none).
    pub moves: Vec<MoveReport>,
    /// Red's and black's part of the cycle, when a repetition was ruled.
    pub sides: Option<[SideRuling; 2]>,
}

/// Why a game could not be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    #[error("bad position")]
    Fen(#[from] xiangqi::FenError),
    #[error("move {ply} {text:?} is not a coordinate move like h2e2")]
    BadMove { ply: usize, text: String },
    #[error("move {ply} {mv} is illegal: {reason}")]
    IllegalMove {
        ply: usize,
        mv: Move,
        reason: xiangqi::IllegalMove,
    },
    #[error("move {ply} {mv} comes after the game ended ({reason})")]
    AfterEnd { ply: usize, mv: Move, reason: String },
}

/// Reads an ICCS move such as `h2e2`.
#[must_use]
pub fn parse_iccs(text: &str) -> Option<Move> {
    text.parse().ok()
}

/// Rules on the game that starts at `start` and continues with `moves`.
///
/// The position after the last move decides: checkmate or stalemate, a
/// repetition that the rule set rules on, too little material to win, or
/// nothing (the game goes on).
///
/// # Errors
/// A move is illegal, or comes after the game had already ended.
pub fn judge(start: &Position, moves: &[Move], config: &Config) -> Result<Judgement, JudgeError> {
    let mut history = History::new(start.clone(), config.rules);
    for (i, &m) in moves.iter().enumerate() {
        if let Some(end) = ending::no_moves(history.position()) {
            return Err(JudgeError::AfterEnd {
                ply: i + 1,
                mv: m,
                reason: end.reason,
            });
        }
        history.play(m).map_err(|reason| JudgeError::IllegalMove {
            ply: i + 1,
            mv: m,
            reason,
        })?;
        // Rulings along the way matter: a side told to change that repeats
        // the cycle once more loses (26.4).
        if i + 1 < moves.len() {
            history.rule(config);
        }
    }
    Ok(judge_history(&mut history, config))
}

/// Like [`judge`], from a FEN (or `startpos`) and ICCS moves.
///
/// # Errors
/// A bad FEN, an unreadable or illegal move.
pub fn judge_iccs<S: AsRef<str>>(fen: &str, moves: &[S], config: &Config) -> Result<Judgement, JudgeError> {
    let start = Position::from_fen(fen)?;
    let mut parsed = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        parsed.push(parse_iccs(m.as_ref()).ok_or_else(|| JudgeError::BadMove {
            ply: i + 1,
            text: m.as_ref().to_string(),
        })?);
    }
    judge(&start, &parsed, config)
}

/// Rules on the current state of a history.
pub fn judge_history(history: &mut History, config: &Config) -> Judgement {
    let plain = |decision, end: game::Ending| Judgement {
        decision,
        reason: end.reason,
        detail: end.detail,
        article: end.article,
        moves: Vec::new(),
        sides: None,
    };
    if let Some(end) = ending::no_moves(history.position()) {
        let winner = history.position().turn().other();
        return plain(Decision::win_for(winner), end);
    }
    if let Some(r) = history.rule(config) {
        return Judgement {
            decision: r.decision,
            reason: r.reason,
            detail: r.detail,
            article: r.article,
            moves: r.moves,
            sides: Some(r.sides),
        };
    }
    if let Some(end) = ending::insufficient_material(history.position()) {
        return plain(Decision::Draw, end);
    }
    Judgement {
        decision: Decision::Ongoing,
        reason: String::new(),
        detail: String::new(),
        article: None,
        moves: Vec::new(),
        sides: None,
    }
}
