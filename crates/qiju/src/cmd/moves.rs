use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// Position as FEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let pos = super::position(&a.fen)?;
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.iccs()).collect();
    moves.sort();
    for m in moves {
        println!("{m}");
    }
    Ok(())
}
