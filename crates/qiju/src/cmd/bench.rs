//! `qiju bench`: perft speed on the published positions, optionally against
//! an anchor engine measured in the same run (the machine is noisy, so only
//! ratios from one run mean anything).

use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

#[derive(ClapArgs)]
pub struct Args {
    /// Deepest start-position perft to run (5 takes about a second, 6 about a minute).
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// A UCI engine that understands `go perft N` (Pikafish, Fairy-Stockfish),
    /// timed on the start position at the same depth, right after us.
    #[arg(long)]
    anchor: Option<String>,
    /// Options sent to the anchor before it runs, as `Name=Value` (e.g.
    /// `UCI_Variant=xiangqi` for Fairy-Stockfish).
    #[arg(long = "anchor-option")]
    anchor_options: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    anyhow::ensure!((1..=8).contains(&a.depth), "depth must be 1..=8");
    let cases: [(&str, u32); 3] = [
        (xiangqi::STARTPOS, a.depth),
        (
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            4,
        ),
        ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 4),
    ];
    let mut start_nps = 0.0;
    for (fen, max_depth) in cases {
        let mut pos = super::position(fen)?;
        for depth in (max_depth.saturating_sub(1)).max(1)..=max_depth {
            let t = Instant::now();
            let n = xiangqi::perft::perft(&mut pos, depth);
            let s = t.elapsed().as_secs_f64();
            let nps = n as f64 / s;
            if fen == xiangqi::STARTPOS && depth == a.depth {
                start_nps = nps;
            }
            println!(
                "qiju     perft({depth}) {n:>12} nodes {s:>9.3} s {:>8.1} Mnodes/s  {fen}",
                nps / 1e6
            );
        }
    }
    if let Some(cmd) = &a.anchor {
        let (n, s) = anchor_perft(cmd, &a.anchor_options, a.depth)?;
        let nps = n as f64 / s;
        println!(
            "anchor   perft({}) {n:>12} nodes {s:>9.3} s {:>8.1} Mnodes/s  ({cmd})",
            a.depth,
            nps / 1e6
        );
        println!("ratio qiju/anchor at perft({}): {:.2}", a.depth, start_nps / nps);
    }
    Ok(())
}

/// Runs `go perft depth` on the start position in a UCI engine; returns the
/// node count it printed and the wall time from `go` to its answer.
fn anchor_perft(cmd: &str, options: &[String], depth: u32) -> anyhow::Result<(u64, f64)> {
    let mut parts = cmd.split_whitespace();
    let program = parts.next().context("empty anchor command")?;
    let mut child = Command::new(program)
        .args(parts)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start anchor {cmd:?}"))?;
    let mut stdin = child.stdin.take().context("anchor stdin")?;
    let mut lines = BufReader::new(child.stdout.take().context("anchor stdout")?).lines();
    for opt in options {
        let (name, value) = opt.split_once('=').context("anchor option must be Name=Value")?;
        writeln!(stdin, "setoption name {name} value {value}")?;
    }
    writeln!(stdin, "isready")?;
    stdin.flush()?;
    for line in lines.by_ref() {
        if line?.trim() == "readyok" {
            break;
        }
    }
    writeln!(stdin, "position startpos")?;
    let t = Instant::now();
    writeln!(stdin, "go perft {depth}")?;
    stdin.flush()?;
    let mut nodes = None;
    for line in lines.by_ref() {
        let line = line?;
        if let Some(rest) = line.trim().strip_prefix("Nodes searched:") {
            nodes = Some(rest.trim().parse::<u64>().context("anchor node count")?);
            break;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let _ = writeln!(stdin, "quit");
    let _ = child.wait();
    match nodes {
        Some(n) => Ok((n, secs)),
        None => bail!("anchor {cmd:?} printed no `Nodes searched:` line"),
    }
}
