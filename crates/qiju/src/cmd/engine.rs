//! `qiju engine`: the engine over UCI/UCCI on stdin/stdout, and its tools —
//! `bench` (search speed), `selfplay` (labelled positions) and `tune`
//! (Texel tuning of the evaluation weights).

use anyhow::Context;
use clap::{Args as ClapArgs, Subcommand};
use std::io::{BufRead, Write};

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
}

#[derive(Subcommand)]
enum Action {
    /// Search speed: nodes per second and time to depth on fixed positions.
    Bench {
        #[arg(long, default_value_t = 12)]
        depth: u32,
        #[arg(long, default_value_t = 64)]
        hash: usize,
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Play fast games against itself and write quiet positions labelled
    /// with the result (`FEN;result`, result 1 / 0.5 / 0 for red).
    Selfplay {
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Node limit per move.
        #[arg(long, default_value_t = 3000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Evaluation weights to play with: tuned or hand.
        #[arg(long, default_value = "tuned")]
        weights: String,
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Fit the evaluation weights to labelled positions (Texel's method) and
    /// write them as Rust source for crates/engine/src/tuned.rs.
    Tune {
        /// Files written by `qiju engine selfplay`.
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<std::path::PathBuf>,
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// L2 pull towards the starting weights.
        #[arg(long, default_value_t = 1e-4)]
        l2: f64,
        /// Start from the hand weights instead of the current tuned ones.
        #[arg(long)]
        from_hand: bool,
        /// Held-out positions (same format, not tuned on): their error
        /// before and after shows whether the fit generalises.
        #[arg(long, num_args = 1..)]
        validate: Vec<std::path::PathBuf>,
        #[arg(long)]
        out: std::path::PathBuf,
    },
}

pub fn run(a: Args) -> anyhow::Result<()> {
    match a.action {
        None => uci::run_stdio().context("reading standard input"),
        Some(Action::Bench { depth, hash, threads }) => bench(depth, hash, threads),
        Some(Action::Selfplay {
            games,
            nodes,
            seed,
            weights,
            out,
        }) => selfplay(games, nodes, seed, &weights, &out),
        Some(Action::Tune {
            data,
            epochs,
            rate,
            l2,
            from_hand,
            validate,
            out,
        }) => tune(&data, &validate, epochs, rate, l2, from_hand, &out),
    }
}

fn bench(depth: u32, hash: usize, threads: usize) -> anyhow::Result<()> {
    anyhow::ensure!((1..=60).contains(&depth), "depth must be 1..=60");
    let lines = engine::bench::run(depth, hash, threads);
    let (mut nodes, mut secs) = (0u64, 0f64);
    for l in &lines {
        let t = l.time.as_secs_f64();
        nodes += l.nodes;
        secs += t;
        let ttd: Vec<String> = l
            .time_to_depth
            .iter()
            .enumerate()
            .filter(|(d, _)| (d + 1) % 2 == 0 || d + 1 == l.time_to_depth.len())
            .map(|(d, t)| format!("d{}={:.0}ms", d + 1, t.as_secs_f64() * 1000.0))
            .collect();
        println!(
            "depth {:>2} {:>10} nodes {:>7.3} s {:>9.0} nps  {}\n    {}",
            l.depth,
            l.nodes,
            t,
            l.nodes as f64 / t.max(1e-9),
            l.fen,
            ttd.join(" ")
        );
    }
    println!(
        "total {nodes} nodes {secs:.3} s {:.0} nps",
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn weights(name: &str) -> anyhow::Result<engine::eval::Params> {
    match name {
        "tuned" => Ok(engine::eval::Params::tuned()),
        "hand" => Ok(engine::eval::Params::hand()),
        other => anyhow::bail!("weights must be tuned or hand, not {other:?}"),
    }
}

fn selfplay(games: u64, nodes: u64, seed: u64, w: &str, out: &std::path::Path) -> anyhow::Result<()> {
    let mut e = engine::Engine::new(16);
    e.set_params(weights(w)?);
    let opts = engine::tune::SelfPlay {
        nodes,
        seed,
        ..engine::tune::SelfPlay::default()
    };
    let mut f = std::io::BufWriter::new(
        std::fs::File::create(out).with_context(|| format!("creating {}", out.display()))?,
    );
    let mut written = 0u64;
    for g in 0..games {
        let game = engine::tune::play_game(&mut e, &opts, g);
        let mut pos = game.start.clone();
        for (i, &m) in game.moves.iter().enumerate() {
            if i >= 10 && game.quiet[i] {
                writeln!(f, "{};{}", pos.fen(), game.result)?;
                written += 1;
            }
            pos.play_unchecked(m);
        }
        if (g + 1) % 50 == 0 {
            eprintln!("{} games, {written} positions", g + 1);
        }
    }
    f.flush()?;
    eprintln!("{games} games, {written} positions written to {}", out.display());
    Ok(())
}

/// Reads `FEN;result` lines into tuning samples.
fn read_samples(paths: &[std::path::PathBuf]) -> anyhow::Result<Vec<engine::tune::Sample>> {
    let mut samples = Vec::new();
    for path in paths {
        let f = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
        for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
            let line = line?;
            let (fen, result) = line
                .rsplit_once(';')
                .with_context(|| format!("{}:{}: expected FEN;result", path.display(), n + 1))?;
            let pos =
                xiangqi::Position::from_fen(fen).with_context(|| format!("{}:{}", path.display(), n + 1))?;
            let r: f64 = result
                .trim()
                .parse()
                .with_context(|| format!("{}:{}: bad result", path.display(), n + 1))?;
            samples.push(engine::tune::sample(&pos, r));
        }
    }
    Ok(samples)
}

fn tune(
    data: &[std::path::PathBuf],
    validate: &[std::path::PathBuf],
    epochs: usize,
    rate: f64,
    l2: f64,
    from_hand: bool,
    out: &std::path::Path,
) -> anyhow::Result<()> {
    let samples = read_samples(data)?;
    let held_out = read_samples(validate)?;
    anyhow::ensure!(!samples.is_empty(), "no positions in the data files");
    let start = if from_hand {
        engine::eval::Params::hand()
    } else {
        engine::eval::Params::tuned()
    };
    eprintln!("{} positions, {} weights", samples.len(), start.weights.len());
    let (params, report) = engine::tune::tune(&samples, &start, epochs, rate, l2);
    let mut note = format!(
        "Texel-tuned on {} self-play positions, {} epochs, rate {rate}, L2 {l2}: K = {:.3}, MSE {:.5} -> {:.5}.",
        samples.len(),
        report.epochs,
        report.k,
        report.error_before,
        report.error_after
    );
    eprintln!("{note}");
    if !held_out.is_empty() {
        let before = engine::tune::params_error(&held_out, &start, report.k);
        let after = engine::tune::params_error(&held_out, &params, report.k);
        let line = format!(
            "Held out: {} positions, MSE {before:.5} -> {after:.5}.",
            held_out.len()
        );
        eprintln!("{line}");
        note = format!("{note}\n{line}");
    }
    std::fs::write(out, engine::tune::to_rust(&params, &note))
        .with_context(|| format!("writing {}", out.display()))?;
    Ok(())
}
