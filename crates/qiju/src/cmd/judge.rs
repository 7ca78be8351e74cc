//! `qiju judge`: rules on a game under a rule set and prints the ruling as
//! one JSON object (result, reason, article, and the classified cycle).

use anyhow::Context;
use clap::Args as ClapArgs;
use referee::{Config, Decision, RuleSet};
use serde_json::json;

#[derive(ClapArgs)]
pub struct Args {
    /// Rule set: cxa, wxf, asian or simple.
    #[arg(long, default_value = "cxa")]
    rules: String,
    /// Start position as FEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// The moves played from the start position, in ICCS (h2e2 …).
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
    /// Natural move limit in rounds (自然限着); 0 turns it off.
    #[arg(long, default_value_t = 60)]
    natural_limit: u32,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let rules: RuleSet = a.rules.parse()?;
    let config = Config {
        natural_limit_rounds: a.natural_limit,
        ..Config::new(rules)
    };
    // Fairy-Stockfish writes an empty pocket `[]` after the board.
    let fen = a.fen.replace("[]", "");
    let j = referee::judge_iccs(&fen, &a.moves, &config).with_context(|| format!("cannot judge {fen:?}"))?;
    let result = match j.decision {
        Decision::MustChange { .. } => "must_change",
        d => d.as_str(),
    };
    let moves: Vec<_> = j
        .moves
        .iter()
        .map(|r| {
            json!({
                "move": r.mv.iccs(),
                "side": r.side.to_string(),
                "class": r.class.as_str(),
                "mark": r.class.chinese().to_string(),
                "targets": r.targets.iter().map(|s| s.iccs()).collect::<Vec<_>>(),
                // For a CXA chase: rook, unprotected piece, or joint chase.
                "chase_kind": r.kind,
            })
        })
        .collect();
    let mut out = json!({
        "result": result,
        "reason": if j.reason.is_empty() { serde_json::Value::Null } else { j.reason.clone().into() },
        "article": j.article,
        "detail": j.detail,
        "rules": rules.as_str(),
        "moves": moves,
    });
    if let Decision::MustChange { side } = j.decision {
        out["must_change"] = json!(side.to_string());
    }
    if let Some(sides) = &j.sides {
        out["sides"] = sides
            .iter()
            .map(|s| {
                json!({
                    "side": s.side.to_string(),
                    "pattern": s.pattern.as_str(),
                    "name": s.pattern.chinese(),
                    "verdict": if s.forbidden { "forbidden" } else { "allowed" },
                    "chased": s.chased.iter().map(|q| q.iccs()).collect::<Vec<_>>(),
                    "joint_chases": s.joint,
                })
            })
            .collect();
    }
    println!("{out}");
    Ok(())
}
