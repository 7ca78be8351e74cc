//! Xiangqi variants and house rules as data (issue 27).
//!
//! A [`Variant`] is read from a TOML file (docs/variants.md): the board's size,
//! named regions (palace 九宫, own half, across the river 过河), piece types
//! described by movement descriptors (steps, leaps, lame leaps, slides,
//! hoppers), the start position and the values of the endings. A
//! [`Position`] of that variant reads and writes Xiangqi-style FEN, lists its
//! legal moves in ICCS-style coordinates (`h2e2`), plays them and counts
//! perft.
//!
//! Nothing here names a piece: Xiangqi itself is `data/xiangqi.toml`, and its
//! perft equals `crates/xiangqi`'s on every published count
//! (`tests/perft.rs`). The engine is generic and so slower than the core's
//! bitboards (docs/PERFORMANCE.md); the core stays the referee of Xiangqi.
//!
//! ```
//! use std::sync::Arc;
//! use variants::{perft, Position, Variant, XIANGQI_TOML};
//!
//! let xiangqi = Arc::new(Variant::from_toml(XIANGQI_TOML).unwrap());
//! let mut pos = Position::start(xiangqi);
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(perft(&mut pos, 2), 1920);
//! pos.play_iccs("h2e2").unwrap(); // 炮二平五
//! assert!(pos.to_fen().starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"));
//! ```

pub mod computer;
mod error;
mod perft;
mod position;
mod spec;
mod square;
mod variant;
mod variant_game;

pub use ::game::Side;
pub use error::{FenError, IllegalMove, VariantError};
pub use perft::{divide, perft};
pub use position::{End, Position, Undo};
pub use square::{Move, Square};
pub use variant::{
    Counting, DoubleMove, EndValue, FlagRing, Kind, Mode, Movement, PieceType, Repetition, Revival, Royals,
    TypeSet, Variant, Who,
};
pub use variant_game::VariantGame;

/// The Xiangqi definition shipped with the crate (`data/xiangqi.toml`).
pub const XIANGQI_TOML: &str = include_str!("../data/xiangqi.toml");

/// Fairy-Stockfish's minixiangqi (7×7) shipped with the crate
/// (`data/minixiangqi.toml`).
pub const MINIXIANGQI_TOML: &str = include_str!("../data/minixiangqi.toml");

/// Fairy-Stockfish's manchu (满洲棋) shipped with the crate (`data/manchu.toml`).
pub const MANCHU_TOML: &str = include_str!("../data/manchu.toml");

/// Fairy-Stockfish's janggi (장기) shipped with the crate (`data/janggi.toml`).
pub const JANGGI_TOML: &str = include_str!("../data/janggi.toml");

/// 升级象棋 (seed 000), pieces promoted by their first capture, shipped
/// with the crate (`data/shengji.toml`).
pub const SHENGJI_TOML: &str = include_str!("../data/shengji.toml");

/// Every variant file shipped with the crate, by name, Xiangqi first.
pub const SHIPPED: [(&str, &str); 5] = [
    ("xiangqi", XIANGQI_TOML),
    ("minixiangqi", MINIXIANGQI_TOML),
    ("manchu", MANCHU_TOML),
    ("janggi", JANGGI_TOML),
    ("shengji", SHENGJI_TOML),
];
