use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// Position as FEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
    #[arg(long)]
    depth: u32,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let mut pos = super::position(&a.fen)?;
    anyhow::ensure!(a.depth <= 12, "depth {} is too deep (at most 12)", a.depth);
    if a.divide && a.depth > 0 {
        let mut rows = xiangqi::perft::divide(&mut pos, a.depth);
        rows.sort_by_key(|(m, _)| m.iccs());
        let mut total = 0;
        for (m, n) in rows {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        println!("{total}");
    } else {
        println!("{}", xiangqi::perft::perft(&mut pos, a.depth));
    }
    Ok(())
}
