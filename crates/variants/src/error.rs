//! Errors: a bad variant file (with its line), a bad FEN, an illegal move.

use thiserror::Error;

/// Why a variant file was refused. `line` is 1-based, as an editor shows it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    /// The file is not valid TOML, or a field has the wrong type or name.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// The file parses but describes no playable variant.
    #[error("line {line}: {reason}")]
    Invalid { line: usize, reason: String },
}

/// Why a FEN was refused; the messages say where ("FEN rank 3 has 10 files").
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("FEN is empty")]
    Empty,
    #[error("FEN has {found} ranks, the board has {expected}")]
    RankCount { found: usize, expected: usize },
    /// `rank` counts as the ICCS coordinates do: 0 is the first side's edge.
    #[error("FEN rank {rank} has {found} files, the board has {expected}")]
    FileCount {
        rank: usize,
        found: usize,
        expected: usize,
    },
    #[error("FEN rank {rank}: `{letter}` is no piece of this variant")]
    UnknownPiece { rank: usize, letter: char },
    /// `+` before a piece that has no promoted form.
    #[error("FEN rank {rank}: `+{letter}`: that piece has no promoted form")]
    NotPromotable { rank: usize, letter: char },
    #[error("FEN side to move `{0}` is neither `w` nor `b`")]
    BadTurn(String),
    #[error("FEN gives the {side} side {count} royal pieces, the variant needs {needs}")]
    RoyalCount {
        side: &'static str,
        count: usize,
        /// `exactly one`, or `at least one` where the variant has `royals = "any"` or `"all"`.
        needs: &'static str,
    },
    #[error("FEN: the side not to move is in check (or the kings face each other)")]
    OppositeCheck,
    /// The reserve (`[PPp]` after the placement) names a piece no
    /// revival takes back, or is not closed.
    #[error("FEN holdings `[{0}]`: only pieces a revival takes back, in brackets after the placement")]
    BadHoldings(String),
    /// The third field names a right the variant has no rule for (`V`
    /// revive, `D`/`S` a turn of two moves, for the side to move only).
    #[error("FEN rights `{0}`: `-`, or V/v (may revive), D/S (owed a turn of two moves / on its second move) in the case of the side to move, where the variant has such rules")]
    BadRights(String),
    /// The flags' points (`{0,21}` after the placement) are not two
    /// different points of the ring (or `-` for a taken flag), or the
    /// variant has no flags.
    #[error("FEN flags `{{{0}}}`: two different points of the ring (or `-` for a taken flag), where the variant has flags")]
    BadFlags(String),
    #[error("FEN move counter `{0}` is not a number")]
    BadCounter(String),
}

/// Why a move was refused by [`crate::Position::play`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("`{0}` is not a move in ICCS coordinates on this board")]
    Unreadable(String),
    #[error("{0} is not a legal move here")]
    Illegal(String),
}
