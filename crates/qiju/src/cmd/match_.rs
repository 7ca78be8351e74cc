//! `qiju match`: engine-vs-engine matches (like cutechess-cli / fastchess
//! for Xiangqi; with `--game gomoku` or `--game renju`, between two
//! Gomocup-protocol engines). The logic lives in the `arena` crate.

use anyhow::Context;
use clap::Args as ClapArgs;
use std::io::Write;
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    /// `xiangqi` (UCI/UCCI engines), or a gomoku or renju rule set
    /// (`gomoku`, `gomoku/standard`, `renju`): Gomocup-protocol engines
    /// (`self` is `qiju gomocup`), a fixed time a move (--move-time), the 26
    /// canonical openings by default.
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Gomoku and renju: seconds a move (Gomocup's timeout_turn).
    #[arg(long, default_value_t = 1.0)]
    move_time: f64,
    /// An engine: a command line (`"target/release/qiju engine"`; `self` is
    /// this program's engine), or fastchess-style words `cmd=PATH name=NAME
    /// proto=uci|ucci ranks=0|1|auto option.Hash=64 arg=ARG`. Give it twice;
    /// the score is the first engine's.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Time control `[moves/]seconds[+increment]`, e.g. 10+0.1 or 40/60.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Openings file (FEN or ICCS move lines; for gomoku and renju one
    /// opening a line as points, `h8 h9 j10`); the shipped set by default.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write the games here as PGN.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// Repetition rules of the referee: asian (as Fairy-Stockfish and
    /// Pikafish play), cxa, wxf or simple.
    #[arg(long, default_value = "asian")]
    rules: String,
    /// SPRT: H0 Elo (enables the test together with --elo1).
    #[arg(long, requires = "elo1")]
    elo0: Option<f64>,
    /// SPRT: H1 Elo.
    #[arg(long, requires = "elo0")]
    elo1: Option<f64>,
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Clock tolerance in milliseconds before a flag falls.
    #[arg(long, default_value_t = 100)]
    margin_ms: u64,
    /// Draw after this many plies.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Adjudicate a win when both engines agree on a score of at least this
    /// many centipawns for --resign-moves moves each.
    #[arg(long)]
    resign_score: Option<i32>,
    #[arg(long, default_value_t = 3)]
    resign_moves: u32,
    #[arg(long, default_value = "qiju match")]
    event: String,
}

/// An engine description; `self` is this program with `self_command`
/// (`engine`, `gomocup`).
fn spec(text: &str, self_command: &str) -> anyhow::Result<arena::EngineSpec> {
    let mut s = arena::parse_engine_spec(text).map_err(|e| anyhow::anyhow!("--engine {text:?}: {e}"))?;
    if s.program == "self" {
        s.program = std::env::current_exe()
            .context("locating this program")?
            .to_string_lossy()
            .into_owned();
        if s.args.is_empty() {
            s.args.push(self_command.into());
        }
    }
    Ok(s)
}

/// The SPRT the arguments ask for, if any.
fn sprt(a: &Args) -> anyhow::Result<Option<arena::Sprt>> {
    Ok(match (a.elo0, a.elo1) {
        (Some(elo0), Some(elo1)) => {
            anyhow::ensure!(elo0 < elo1, "--elo0 must be below --elo1");
            anyhow::ensure!(
                a.alpha > 0.0 && a.alpha < 1.0 && a.beta > 0.0 && a.beta < 1.0,
                "alpha and beta must lie in (0, 1)"
            );
            Some(arena::Sprt {
                elo0,
                elo1,
                alpha: a.alpha,
                beta: a.beta,
            })
        }
        _ => None,
    })
}

/// The running score after a game, as cutechess-cli prints it.
fn print_tally(names: &[String; 2], t: &arena::Tally, total: u32, sprt: Option<arena::Sprt>) {
    println!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}/{}",
        names[0],
        names[1],
        t.wins,
        t.losses,
        t.draws,
        t.score(),
        t.games(),
        total
    );
    let (elo, err) = t.elo();
    println!(
        "Elo difference: {elo:.1} +/- {err:.1}, LOS: {:.1} %",
        t.los() * 100.0
    );
    if let Some(s) = sprt {
        let (lo, hi) = s.bounds();
        println!(
            "SPRT ({:.1}, {:.1}): LLR {:.2} ({lo:.2}, {hi:.2})",
            s.elo0,
            s.elo1,
            s.llr(t)
        );
    }
}

/// The final lines: the result, and where the SPRT stopped.
fn print_result(
    names: &[String; 2],
    t: arena::Tally,
    outcome: Option<arena::SprtOutcome>,
    sprt: Option<arena::Sprt>,
) {
    let (elo, err) = t.elo();
    println!(
        "Result: {} vs {}: +{} -{} ={} in {} games, score {:.1} %, Elo {elo:.1} +/- {err:.1}",
        names[0],
        names[1],
        t.wins,
        t.losses,
        t.draws,
        t.games(),
        t.score() * 100.0
    );
    if let (Some(o), Some(s)) = (outcome, sprt) {
        if o.at == t {
            println!("SPRT: {:?} (LLR {:.2})", o.state, s.llr(&t));
        } else {
            // Games that were in flight when the test decided finished
            // after it; they count in the score above, not in the test.
            println!(
                "SPRT: {:?} (LLR {:.2} after {} games: +{} -{} ={}; LLR {:.2} with all {})",
                o.state,
                s.llr(&o.at),
                o.at.games(),
                o.at.wins,
                o.at.losses,
                o.at.draws,
                s.llr(&t),
                t.games()
            );
        }
    }
}

/// A gomoku or renju match between Gomocup-protocol engines.
fn run_gomocup(a: &Args, rules: renju::Rules) -> anyhow::Result<()> {
    anyhow::ensure!(a.engines.len() == 2, "give --engine exactly twice");
    anyhow::ensure!(a.concurrency >= 1, "--concurrency must be at least 1");
    anyhow::ensure!(
        a.pgn.is_none(),
        "--pgn is for Xiangqi: gomoku and renju games are printed as move lists"
    );
    anyhow::ensure!(
        a.move_time.is_finite() && a.move_time > 0.0,
        "--move-time must be a positive number of seconds"
    );
    let engines = [spec(&a.engines[0], "gomocup")?, spec(&a.engines[1], "gomocup")?];
    let openings = match &a.openings {
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            arena::parse_openings(&text, rules).with_context(|| p.display().to_string())?
        }
        None => arena::canonical_openings(),
    };
    anyhow::ensure!(!openings.is_empty(), "the openings file has no openings");
    let sprt = sprt(a)?;
    let cfg = arena::GomocupConfig {
        engines,
        games: a.games,
        rules,
        move_time: Duration::from_secs_f64(a.move_time),
        margin: Duration::from_millis(a.margin_ms),
        openings,
        concurrency: a.concurrency,
        sprt,
    };
    let total = a.games;
    let rt = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let report = rt.block_on(arena::run_gomocup_match(cfg, |g, t, names| {
        let result = match g.winner {
            Some(renju::Color::Black) => "1-0",
            Some(renju::Color::White) => "0-1",
            None => "1/2-1/2",
        };
        let stones: Vec<String> = g.stones.iter().map(ToString::to_string).collect();
        println!(
            "Finished game {} ({} vs {}): {result} {{{}}} {}",
            g.round,
            g.black,
            g.white,
            g.reason,
            stones.join(" ")
        );
        print_tally(names, t, total, sprt);
    }))?;
    // Mean thinking time a move, per engine: what the fixed time meant.
    for (i, name) in report.names.iter().enumerate() {
        let (time, moves) = report.games.iter().fold((Duration::ZERO, 0), |(t, n), g| {
            (t + g.thinking[i].0, n + g.thinking[i].1)
        });
        if moves > 0 {
            println!(
                "{name}: {moves} moves, {:.0} ms a move on average",
                time.as_secs_f64() * 1000.0 / f64::from(moves)
            );
        }
    }
    print_result(&report.names, report.tally, report.sprt, sprt);
    Ok(())
}

fn today() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    record::pgn_date(ms)
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if !a.game.eq_ignore_ascii_case("xiangqi") {
        let rules = renju::Rules::from_id(&a.game)
            .map_err(|e| anyhow::anyhow!("--game: xiangqi, or a gomoku or renju rule set: {e}"))?;
        return run_gomocup(&a, rules);
    }
    anyhow::ensure!(a.engines.len() == 2, "give --engine exactly twice");
    let engines = [spec(&a.engines[0], "engine")?, spec(&a.engines[1], "engine")?];
    let tc: arena::TimeControl = a.tc.parse()?;
    let openings = match &a.openings {
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            arena::openings::parse(&text).with_context(|| p.display().to_string())?
        }
        None => arena::openings::parse(arena::openings::BASIC)?,
    };
    anyhow::ensure!(!openings.is_empty(), "the openings file has no openings");
    let rules: referee::RuleSet = a.rules.parse()?;
    anyhow::ensure!(a.concurrency >= 1, "--concurrency must be at least 1");
    let sprt = sprt(&a)?;
    let mut pgn = match &a.pgn {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
        )),
        None => None,
    };
    let cfg = arena::MatchConfig {
        engines,
        games: a.games,
        tc,
        openings,
        concurrency: a.concurrency,
        rules,
        sprt,
        max_plies: a.max_plies,
        margin: Duration::from_millis(a.margin_ms),
        resign_score: a.resign_score,
        resign_moves: a.resign_moves.max(1),
    };
    let date = today();
    let tc_text = tc.to_string();
    let event = a.event.clone();
    let total = a.games;
    let rt = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let mut pgn_error = None;
    let report = rt.block_on(arena::run_match(cfg, |g, t, names| {
        let r = &g.record;
        println!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            r.round,
            r.red,
            r.black,
            r.result.pgn(),
            r.reason
        );
        print_tally(names, t, total, sprt);
        if let Some(w) = pgn.as_mut() {
            let text = arena::pgn::write_game(r, &event, &date, &tc_text);
            if let Err(e) = w.write_all(text.as_bytes()).and_then(|()| w.flush()) {
                pgn_error.get_or_insert(e);
            }
        }
    }))?;
    if let Some(e) = pgn_error {
        return Err(e).context("writing the PGN");
    }
    print_result(&report.names, report.tally, report.sprt, sprt);
    Ok(())
}
