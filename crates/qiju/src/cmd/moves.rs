use super::Rules;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// The game: `xiangqi`, `chess`, `chess960` or `shogi` (or any registry id).
    #[arg(long, default_value = "xiangqi")]
    game: Rules,
    /// Position as FEN (SFEN for shogi), or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
}

/// Prints the legal moves in the game's coordinate notation (ICCS, UCI,
/// USI), one a line, sorted.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut moves: Vec<String> = match a.game {
        Rules::Xiangqi => super::position(&a.fen)?
            .legal_moves()
            .iter()
            .map(|m| m.iccs())
            .collect(),
        Rules::Chess(variant) => chess::legal_uci_moves(&super::chess_position(&a.fen, variant)?, variant),
        Rules::Shogi => shogi::legal_usi_moves(&super::shogi_position(&a.fen)?),
    };
    moves.sort();
    for m in moves {
        println!("{m}");
    }
    Ok(())
}
