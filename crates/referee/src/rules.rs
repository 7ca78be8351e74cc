//! Rule sets and their settings.
//!
//! A game is refereed under one rule set, chosen when it is created. They
//! agree on checkmate and stalemate and differ in the repetition rules (棋例):
//! what counts as a chase, who may chase, and what follows a forbidden cycle.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which rule book rules the repetitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleSet {
    /// 中国象棋协会《象棋竞赛规则》 (chapter 6, articles 24–29): perpetual
    /// check, mate threat, chase and their mixtures are forbidden; a
    /// forbidden side is first told to change (变着), and loses if it repeats.
    Cxa,
    /// World Xiangqi Federation rules: perpetual check and perpetual chase
    /// of the same piece lose; mate threats are allowed.
    Wxf,
    /// Asian Xiangqi Federation rules, as Fairy-Stockfish implements them.
    Asian,
    /// Online play's simple rule: a threefold repetition draws, a one-sided
    /// perpetual check loses.
    Simple,
}

impl RuleSet {
    pub const ALL: [RuleSet; 4] = [RuleSet::Cxa, RuleSet::Wxf, RuleSet::Asian, RuleSet::Simple];

    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleSet::Cxa => "cxa",
            RuleSet::Wxf => "wxf",
            RuleSet::Asian => "asian",
            RuleSet::Simple => "simple",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule-set name we do not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set {0:?} (expected cxa, wxf, asian or simple)")]
pub struct UnknownRuleSet(pub String);

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cxa" | "china" | "chinese" => Ok(RuleSet::Cxa),
            "wxf" => Ok(RuleSet::Wxf),
            "asian" | "axf" => Ok(RuleSet::Asian),
            "simple" => Ok(RuleSet::Simple),
            _ => Err(UnknownRuleSet(s.to_string())),
        }
    }
}

/// A rule set with the numbers an organiser may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Config {
    pub rules: RuleSet,
    /// Natural move limit (自然限着, 4.2): this many rounds (move pairs)
    /// without a capture may be claimed as a draw. 60 by the book; the
    /// organiser may lower it. 0 turns the limit off.
    pub natural_limit_rounds: u32,
    /// When a natural-limit claim is checked, at most this many checking
    /// moves of the claimant count (23.3).
    pub max_counted_checks: u32,
    /// Fouls (犯规) that lose the game (4.1: three in one game).
    pub fouls_to_lose: u32,
    /// How many times a position must occur before a repetition is ruled
    /// (the book asks for a cycle repeated three times, 24).
    pub repetitions: u32,
}

impl Config {
    #[must_use]
    pub const fn new(rules: RuleSet) -> Config {
        Config {
            rules,
            natural_limit_rounds: 60,
            max_counted_checks: 10,
            fouls_to_lose: 3,
            repetitions: 3,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::new(RuleSet::Cxa)
    }
}

impl From<RuleSet> for Config {
    fn from(rules: RuleSet) -> Self {
        Config::new(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in RuleSet::ALL {
            assert_eq!(r.as_str().parse::<RuleSet>(), Ok(r));
        }
        assert!("fide".parse::<RuleSet>().is_err());
        assert_eq!(Config::new(RuleSet::Wxf).natural_limit_rounds, 60);
    }
}
