use super::Rules;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// The game: `xiangqi`, `chess`, `chess960`, `shogi`, `minixiangqi`,
    /// `manchu`, `janggi` (or any registry id).
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Variant files (TOML, docs/variants.md) or directories of them to
    /// know beside the built-in games, as `qiju serve --variants`.
    #[arg(long = "variants", value_name = "FILE|DIR")]
    variants: Vec<std::path::PathBuf>,
    /// Position as FEN (SFEN for shogi), or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
    #[arg(long)]
    depth: u32,
    /// Print the count below each legal move first.
    #[arg(long)]
    divide: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    match super::game_rules(&a.game, &a.variants)? {
        Rules::Xiangqi => xiangqi_perft(&a),
        Rules::Chess(variant) => chess_perft(&a, variant),
        Rules::Shogi => shogi_perft(&a),
        Rules::Variants(id) => variant_perft(&a, id),
        Rules::Renju(rules) => anyhow::bail!(
            "perft counts Xiangqi and chess move trees; {} has none worth counting (every empty point is a move)",
            rules.id()
        ),
    }
}

/// A data-defined variant on the generic engine (`crates/variants`).
fn variant_perft(a: &Args, id: &str) -> anyhow::Result<()> {
    let mut pos = super::variant_position(id, &a.fen)?;
    anyhow::ensure!(a.depth <= 10, "depth {} is too deep (at most 10)", a.depth);
    if a.divide && a.depth > 0 {
        let mut rows = variants::divide(&mut pos, a.depth);
        rows.sort_by_key(|(m, _)| m.to_string());
        print_divide(rows.into_iter().map(|(m, n)| (m.to_string(), n)));
    } else {
        println!("{}", variants::perft(&mut pos, a.depth));
    }
    Ok(())
}

fn shogi_perft(a: &Args) -> anyhow::Result<()> {
    let mut pos = super::shogi_position(&a.fen)?;
    anyhow::ensure!(a.depth <= 10, "depth {} is too deep (at most 10)", a.depth);
    if a.divide && a.depth > 0 {
        print_divide(shogi::perft_divide(&a.fen, a.depth)?);
    } else {
        println!("{}", shogi::perft_position(&mut pos, a.depth));
    }
    Ok(())
}

fn xiangqi_perft(a: &Args) -> anyhow::Result<()> {
    let mut pos = super::position(&a.fen)?;
    anyhow::ensure!(a.depth <= 12, "depth {} is too deep (at most 12)", a.depth);
    if a.divide && a.depth > 0 {
        let mut rows = xiangqi::perft::divide(&mut pos, a.depth);
        rows.sort_by_key(|(m, _)| m.iccs());
        print_divide(rows.into_iter().map(|(m, n)| (m.to_string(), n)));
    } else {
        println!("{}", xiangqi::perft::perft(&mut pos, a.depth));
    }
    Ok(())
}

fn chess_perft(a: &Args, variant: chess::Variant) -> anyhow::Result<()> {
    // Read the FEN first so a bad one is reported as such whatever the depth.
    super::chess_position(&a.fen, variant)?;
    anyhow::ensure!(a.depth <= 12, "depth {} is too deep (at most 12)", a.depth);
    if a.divide && a.depth > 0 {
        print_divide(chess::perft_divide(&a.fen, variant, a.depth)?);
    } else {
        println!("{}", chess::perft(&a.fen, variant, a.depth)?);
    }
    Ok(())
}

/// `move: count` lines in the order given, an empty line, then the total.
fn print_divide(rows: impl IntoIterator<Item = (String, u64)>) {
    let mut total = 0;
    for (m, n) in rows {
        println!("{m}: {n}");
        total += n;
    }
    println!();
    println!("{total}");
}
