//! `qiju bench`: perft speed on the published positions.

use clap::Args as ClapArgs;
use std::time::Instant;

#[derive(ClapArgs)]
pub struct Args {
    /// Deepest start-position perft to run (5 takes about a second, 6 about a minute).
    #[arg(long, default_value_t = 6)]
    depth: u32,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let cases: [(&str, u32); 3] = [
        (xiangqi::STARTPOS, a.depth),
        (
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            4,
        ),
        ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 4),
    ];
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for (fen, max_depth) in cases {
        let mut pos = super::position(fen)?;
        for depth in (max_depth.saturating_sub(1)).max(1)..=max_depth {
            let t = Instant::now();
            let n = xiangqi::perft::perft(&mut pos, depth);
            let s = t.elapsed().as_secs_f64();
            total_nodes += n;
            total_secs += s;
            println!(
                "perft({depth}) {n:>12} nodes {s:>9.3} s {:>8.1} Mnodes/s  {fen}",
                n as f64 / s / 1e6
            );
        }
    }
    println!(
        "total {total_nodes} nodes {total_secs:.3} s {:.1} Mnodes/s",
        total_nodes as f64 / total_secs / 1e6
    );
    Ok(())
}
