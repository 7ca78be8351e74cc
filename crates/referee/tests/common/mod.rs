//! What the referee's data-driven tests share.

#![allow(dead_code)] // each test binary uses its part

use referee::{parse_iccs, Decision};
use serde_json::Value;
use xiangqi::{Color, Move};

/// A JSON list of cases, from a path under the crate.
pub fn load(path: &str) -> Vec<Value> {
    let file = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("read {file}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {file}: {e}"))
}

/// A JSON list of ICCS moves.
pub fn moves_of(v: &Value) -> Vec<Move> {
    v.as_array()
        .expect("moves array")
        .iter()
        .map(|m| parse_iccs(m.as_str().expect("move text")).expect("ICCS move"))
        .collect()
}

/// The ruling as the test data writes it: who must change (and so loses if
/// he does not), who lost, or a draw.
pub fn verdict(d: Decision) -> &'static str {
    match d {
        Decision::RedWins | Decision::MustChange { side: Color::Black } => "black loses",
        Decision::BlackWins | Decision::MustChange { side: Color::Red } => "red loses",
        Decision::Draw => "draw",
        Decision::Ongoing => "ongoing",
    }
}
