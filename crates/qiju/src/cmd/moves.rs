use super::Rules;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// The game: any registry id or alias (`xiangqi`, `chess`, `chess960`,
    /// `shogi`, `gomoku`, `gomoku/standard`, `renju`, `renju/office`,
    /// `minixiangqi`, `manchu`, `janggi` …).
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Variant files (TOML, docs/variants.md) or directories of them to
    /// know beside the built-in games, as `qiju serve --variants`.
    #[arg(long = "variants", value_name = "FILE|DIR")]
    variants: Vec<std::path::PathBuf>,
    /// Position as FEN (SFEN for shogi), or `startpos`. Gomoku and renju:
    /// rows 15 down to 1, `x` black, `o` white, digits for empty runs, then
    /// `b` or `w`.
    #[arg(long, default_value = "startpos")]
    fen: String,
}

/// Prints the legal moves in the game's coordinate notation (ICCS, UCI,
/// USI; ICCS for the data-defined variants, Janggi's pass as `e1e1`), one a
/// line, sorted; for gomoku and renju the legal points (a forbidden
/// point among them: black may play it, and loses) in point order, column
/// by column from a, bottom to top within a column (a1 a2 … a15 b1 …).
pub fn run(a: Args) -> anyhow::Result<()> {
    let game = super::game_rules(&a.game, &a.variants)?;
    if let Rules::Renju(rules) = game {
        let points = super::renju_position(&a.fen, rules)?.legal_moves();
        print!("{}", points.iter().map(|p| format!("{p}\n")).collect::<String>());
        return Ok(());
    }
    let mut moves: Vec<String> = match game {
        Rules::Xiangqi => super::position(&a.fen)?
            .legal_moves()
            .iter()
            .map(|m| m.iccs())
            .collect(),
        Rules::Chess(variant) => chess::legal_uci_moves(&super::chess_position(&a.fen, variant)?, variant),
        Rules::Shogi => shogi::legal_usi_moves(&super::shogi_position(&a.fen)?),
        Rules::Variants(id) => super::variant_position(id, &a.fen)?
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect(),
        Rules::Renju(_) => unreachable!("handled above"),
    };
    moves.sort();
    for m in moves {
        println!("{m}");
    }
    Ok(())
}
