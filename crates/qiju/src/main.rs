//! `qiju`: the one binary. Each subcommand lives in `cmd/` and only wires
//! library crates together.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;

#[derive(Parser)]
#[command(
    name = "qiju",
    version,
    about = "qiju (棋局): Xiangqi platform, referee, engine and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal-move tree (`--game chess`, `--game shogi`).
    Perft(cmd::perft::Args),
    /// List the legal moves of a position, one per line, sorted: ICCS for
    /// Xiangqi, UCI for chess (`--game chess`), USI for shogi (`--game shogi`),
    /// points for gomoku and renju.
    Moves(cmd::moves::Args),
    /// Black's forbidden points in a renju position, one a line as
    /// `<point> <kind>` (overline, double-four, double-three), in point order.
    Forbidden(cmd::forbidden::Args),
    /// Write a move in ICCS, WXF or Chinese notation (the move may be given in any).
    Notation(cmd::notation::Args),
    /// Benchmark move generation (perft speed), optionally against an anchor engine.
    Bench(cmd::bench::Args),
    /// Rule on a game (mate, repetition 棋例, …) and print the ruling as JSON.
    Judge(cmd::judge::Args),
    /// The engine over UCI/UCCI on stdin/stdout; also `engine bench|selfplay|tune`.
    Engine(cmd::engine::Args),
    /// The gomoku and renju computer player over the Gomocup (pbrain) protocol.
    Gomocup(cmd::gomocup::Args),
    /// Engine-vs-engine match: Elo with error bars, SPRT, PGN.
    Match(cmd::match_::Args),
    /// Run the game server (HTTP API, WebSockets, browser UI).
    Serve(cmd::serve::Args),
    /// PGN files, Xiangqi or chess: `pgn check FILE`, `pgn convert --to chinese|wxf|iccs FILE`.
    Pgn(cmd::pgn::Args),
    /// Shogi records (棋譜), KIF or CSA: `kifu check FILE`, `kifu convert --to kif|csa|usi FILE`.
    Kifu(cmd::kifu::Args),
    /// Operator actions on the server's database: `admin title USER --awarded 特级大师`.
    Admin(cmd::admin::Args),
    /// Tournaments for arbiters: `tournament pair FILE.trf`, `tournament
    /// berger --players N`, `tournament standings FILE.trf --tiebreaks LIST`.
    Tournament(cmd::tournament::Args),
}

/// The server allocates small, short-lived buffers from many threads (a
/// JSON event per move, frames, channel nodes); glibc's malloc spent ~6 %
/// of the server's CPU on them under load (docs/PERFORMANCE.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Bad input (a malformed FEN, an illegal move) is reported on stderr with
/// exit code 2; clap uses 2 for bad arguments too.
fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Moves(a) => cmd::moves::run(a),
        Command::Forbidden(a) => cmd::forbidden::run(a),
        Command::Notation(a) => cmd::notation::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Judge(a) => cmd::judge::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Engine(a) => cmd::engine::run(a),
        Command::Gomocup(a) => cmd::gomocup::run(a),
        Command::Match(a) => cmd::match_::run(a),
        Command::Pgn(a) => cmd::pgn::run(a),
        Command::Kifu(a) => cmd::kifu::run(a),
        Command::Admin(a) => cmd::admin::run(a),
        Command::Tournament(a) => return cmd::tournament::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("qiju: {e:#}");
            ExitCode::from(2)
        }
    }
}
