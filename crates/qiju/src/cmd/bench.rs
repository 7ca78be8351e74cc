//! `qiju bench`: perft speed on the published positions, optionally against
//! an anchor engine measured in the same run (the machine is noisy, so only
//! ratios from one run mean anything).

use super::Rules;
use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

#[derive(ClapArgs)]
pub struct Args {
    /// The game: `xiangqi`, `chess`, `chess960` or `shogi` (or any registry id).
    #[arg(long, default_value = "xiangqi")]
    game: Rules,
    /// Deepest perft to run: Xiangqi's start position (default 6; 5 takes
    /// about a second, 6 about a minute), chess's Kiwipete (default 5,
    /// about a second; 6 about a minute), shogi's start position (default 5).
    #[arg(long)]
    depth: Option<u32>,
    /// A UCI engine that understands `go perft N` (Pikafish, Fairy-Stockfish
    /// for Xiangqi; Stockfish for chess), timed on the same position at the
    /// same depth, right after us. For shogi, Fairy-Stockfish is found and
    /// used by itself when it is installed (Debian's `fairy-stockfish`).
    #[arg(long)]
    anchor: Option<String>,
    /// Options sent to the anchor before it runs, as `Name=Value` (e.g.
    /// `UCI_Variant=xiangqi` for Fairy-Stockfish).
    #[arg(long = "anchor-option")]
    anchor_options: Vec<String>,
    /// Measure analysis throughput instead: every position of an 80-ply
    /// Xiangqi game analysed as a game review does (the registry's
    /// analyser at the review depth, one search at a time).
    #[arg(long)]
    analysis: bool,
}

/// 80 plies of qiju's engine at depth 4 against itself, the game still
/// on after them (also the browser test's game to review).
const REVIEW_GAME: &str = "d0e1,b7e7,b2e2,b9c7,b0c2,a9a8,c3c4,a8d8,a0b0,h9i7,h0g2,i9i8,g3g4,i8f8,b0b5,c6c5,b5c5,f8f1,i3i4,d8d1,i4i5,d1c1,i5h5,c1c2,h2h7,c2c0,e1d0,c0c2,g2f4,f1f4,c5c7,e7e3,f0e1,c9e7,h7h6,c2c4,h6e6,d9e8,c7a7,c4c9,e6e5,f4g4,a7a6,g4e4,e5e3,e4e3,h5h6,i6i5,h6g6,e3g3,g6f6,i7h5,f6f7,h5f4,e2e4,g3e3,e4b4,f4d3,b4d4,e8f7,i0i5,e3e4,i5d5,f9e8,e0f0,c9c2,d4a4,e4e3,a4e4,e3f3,f0e0,e9f9,e4e2,f3g3,e2f2,d3f2,e1f2,g3g0,e0e1,g0g1";

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.analysis {
        return analysis_bench();
    }
    match a.game {
        Rules::Xiangqi => xiangqi_bench(&a, a.depth.unwrap_or(6)),
        Rules::Chess(variant) => chess_bench(&a, variant, a.depth.unwrap_or(5)),
        Rules::Shogi => shogi_bench(&a, a.depth.unwrap_or(5)),
        Rules::Variants(id) => bail!(
            "no benchmark for {id}: `cargo test --release -p variants --test perft perft_speed -- --ignored` times the engine"
        ),
        Rules::Renju(_) => {
            bail!("the renju benchmark (forbidden points of a whole board) is `cargo bench -p renju`")
        }
    }
}

/// Published shogi perft counts of the start position, depth 1 up.
const SHOGI_START_PERFT: [u64; 6] = [30, 900, 25_470, 719_731, 19_861_490, 547_581_517];

/// The "祭り" (matsuri) middlegame of YaneuraOu's and rsshogi's benches:
/// drops, promotions and checks everywhere; perft(3) is 4,809,015.
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

/// Perft of shogi's start position (checked against the published count)
/// and of the matsuri position; then Fairy-Stockfish on the start position
/// at the same depth, when it is installed or named by `--anchor`.
fn shogi_bench(a: &Args, depth: u32) -> anyhow::Result<()> {
    let max = SHOGI_START_PERFT.len() as u32;
    anyhow::ensure!((1..=max).contains(&depth), "depth must be 1..={max} for shogi");
    let mut start = (0, 0.0);
    for (sfen, d, published) in [
        (
            shogi::STARTPOS,
            depth,
            Some(SHOGI_START_PERFT[depth as usize - 1]),
        ),
        (MATSURI, 3, Some(4_809_015)),
    ] {
        let t = Instant::now();
        let n = shogi::perft(sfen, d)?;
        let s = t.elapsed().as_secs_f64();
        if let Some(p) = published {
            anyhow::ensure!(
                n == p,
                "perft({d}) of {sfen} counted {n} nodes, {p} published: the move generator is wrong"
            );
        }
        let nps = n as f64 / s;
        if sfen == shogi::STARTPOS {
            start = (n, nps);
        }
        println!(
            "qiju     perft({d}) {n:>12} nodes {s:>9.3} s {:>8.1} Mnodes/s  {sfen}",
            nps / 1e6
        );
    }
    let anchor = a.anchor.clone().or_else(find_fairy_stockfish);
    match anchor {
        Some(cmd) => {
            let mut options = vec!["UCI_Variant=shogi".to_string()];
            options.extend(a.anchor_options.iter().cloned());
            compare_with_anchor(&cmd, &options, "startpos", depth, start)?;
        }
        None => println!("anchor   none: Fairy-Stockfish is not installed (apt-get install fairy-stockfish)"),
    }
    Ok(())
}

/// Debian installs Fairy-Stockfish as /usr/games/fairy-stockfish, outside
/// most PATHs.
fn find_fairy_stockfish() -> Option<String> {
    let on_path = std::env::var_os("PATH").into_iter().flat_map(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("fairy-stockfish"))
            .collect::<Vec<_>>()
    });
    on_path
        .chain([std::path::PathBuf::from("/usr/games/fairy-stockfish")])
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
}

/// Positions a second a review worker gets through at the review depth.
fn analysis_bench() -> anyhow::Result<()> {
    let variant = registry::get(Some("xiangqi"))?;
    let registry::Computer::BuiltIn { analyse, .. } = variant.computer else {
        bail!("Xiangqi's analyser is not built in");
    };
    let moves: Vec<String> = REVIEW_GAME.split(',').map(str::to_string).collect();
    let depth = variant.analysis.depth;
    let started = Instant::now();
    let mut nodes = 0;
    for ply in 0..=moves.len() {
        let e = analyse(&registry::AnalysisRequest {
            variant,
            fen: xiangqi::STARTPOS,
            moves: &moves[..ply],
            depth,
            movetime: std::time::Duration::from_secs(30),
        })
        .map_err(anyhow::Error::msg)?;
        anyhow::ensure!(e.depth >= depth, "ply {ply} stopped at depth {}", e.depth);
        nodes += e.nodes;
    }
    let s = started.elapsed().as_secs_f64();
    let n = moves.len() + 1;
    println!(
        "analysis: {n} positions at depth {depth} in {s:.2} s: {:.1} positions/s, {:.0} ms a position, {:.2} Mnodes/s (one thread)",
        n as f64 / s,
        s * 1000.0 / n as f64,
        nodes as f64 / s / 1e6
    );
    Ok(())
}

fn xiangqi_bench(a: &Args, start_depth: u32) -> anyhow::Result<()> {
    anyhow::ensure!((1..=8).contains(&start_depth), "depth must be 1..=8");
    let cases: [(&str, u32); 3] = [
        (xiangqi::STARTPOS, start_depth),
        (
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            4,
        ),
        ("4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 4),
    ];
    let mut start = (0, 0.0);
    for (fen, max_depth) in cases {
        let mut pos = super::position(fen)?;
        for depth in (max_depth.saturating_sub(1)).max(1)..=max_depth {
            let t = Instant::now();
            let n = xiangqi::perft::perft(&mut pos, depth);
            let s = t.elapsed().as_secs_f64();
            let nps = n as f64 / s;
            if fen == xiangqi::STARTPOS && depth == start_depth {
                start = (n, nps);
            }
            println!(
                "qiju     perft({depth}) {n:>12} nodes {s:>9.3} s {:>8.1} Mnodes/s  {fen}",
                nps / 1e6
            );
        }
    }
    if let Some(cmd) = &a.anchor {
        compare_with_anchor(cmd, &a.anchor_options, "startpos", start_depth, start)?;
    }
    Ok(())
}

/// Kiwipete (Peter McKenzie's position 2 of the chessprogramming.org perft
/// tables): castling both ways, en passant, promotions and pins within a
/// few plies, so it exercises every part of a chess move generator.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Its published perft counts, depth 1 up.
const KIWIPETE_PERFT: [u64; 6] = [48, 2_039, 97_862, 4_085_603, 193_690_690, 8_031_647_685];

fn chess_bench(a: &Args, variant: chess::Variant, depth: u32) -> anyhow::Result<()> {
    let max = KIWIPETE_PERFT.len() as u32;
    anyhow::ensure!((1..=max).contains(&depth), "depth must be 1..={max} for chess");
    let t = Instant::now();
    let n = chess::perft(KIWIPETE, variant, depth)?;
    let s = t.elapsed().as_secs_f64();
    let published = KIWIPETE_PERFT[depth as usize - 1];
    anyhow::ensure!(
        n == published,
        "perft({depth}) of Kiwipete counted {n} nodes, {published} published: the move generator is wrong"
    );
    let nps = n as f64 / s;
    println!(
        "qiju     perft({depth}) {n:>12} nodes {s:>9.3} s {:>8.1} Mnodes/s  {KIWIPETE}",
        nps / 1e6
    );
    if let Some(cmd) = &a.anchor {
        // Chess960 castles king-takes-rook; the anchor must read and write it so.
        let mut options = a.anchor_options.clone();
        if variant == chess::Variant::Chess960 {
            options.insert(0, "UCI_Chess960=true".to_string());
        }
        compare_with_anchor(cmd, &options, &format!("fen {KIWIPETE}"), depth, (n, nps))?;
    }
    Ok(())
}

/// Times the anchor on `position` at `depth` and prints its speed and ours
/// over its; `ours` is our node count and nodes per second there. Counts
/// that differ make the timing meaningless, so they are an error.
fn compare_with_anchor(
    cmd: &str,
    options: &[String],
    position: &str,
    depth: u32,
    ours: (u64, f64),
) -> anyhow::Result<()> {
    let (n, s) = anchor_perft(cmd, options, position, depth)?;
    let nps = n as f64 / s;
    println!(
        "anchor   perft({depth}) {n:>12} nodes {s:>9.3} s {:>8.1} Mnodes/s  ({cmd})",
        nps / 1e6
    );
    println!("ratio qiju/anchor at perft({depth}): {:.2}", ours.1 / nps);
    if n != ours.0 {
        bail!(
            "the anchor counted {n} nodes and qiju {}: the two move generators disagree",
            ours.0
        );
    }
    Ok(())
}

/// Runs `go perft depth` in a UCI engine on `position` (what follows the
/// word `position`: `startpos`, `fen …`); returns the node count it printed
/// and the wall time from `go` to its answer.
fn anchor_perft(cmd: &str, options: &[String], position: &str, depth: u32) -> anyhow::Result<(u64, f64)> {
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
    writeln!(stdin, "position {position}")?;
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
