//! Runs an external UCI, UCCI or USI engine as a player.
//!
//! The engine is a child process spoken to over its stdin/stdout. Every wait
//! has a deadline: an engine that hangs, dies or answers garbage produces an
//! [`AdapterError`] instead of blocking the caller, and [`EnginePlayer`]
//! restarts it, so a game is never lost through a fault on our side — the
//! caller (the match runner, or the game server) learns exactly what the
//! engine did and rules on it.
//!
//! Dialects: UCI engines for Xiangqi write ICCS-like coordinates, but
//! Fairy-Stockfish numbers ranks 1–10 where Pikafish and ICCS use 0–9;
//! the adapter converts (detected from the `UCI_Variant` option, or set in
//! the [`EngineSpec`]). UCCI engines (ElephantEye) get times in
//! milliseconds (`usemillisec`). USI engines (shogi's UCI: Fairy-Stockfish
//! greeted with `usi`, gpsusi, YaneuraOu) get SFEN positions and USI moves
//! as the game writes them, and `byoyomi` for a fixed time a move.

use crate::process::EngineProcess;
use std::time::{Duration, Instant};
use xiangqi::{Move, Square};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Ucci,
    /// Shogi's dialect of UCI: `usi`/`usiok`, `usinewgame`, `position sfen`.
    Usi,
}

/// How an engine numbers ranks in its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranks {
    /// Decide at the handshake: 1–10 for an engine with a `UCI_Variant`
    /// option (Fairy-Stockfish), else 0–9.
    Auto,
    /// ICCS, Pikafish, ElephantEye: `h2e2`.
    Zero,
    /// Fairy-Stockfish: `h3e3`.
    One,
}

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Shown in results and PGN; the engine's `id name` when empty.
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    pub protocol: Protocol,
    pub ranks: Ranks,
    /// Options set after the handshake (`setoption`).
    pub options: Vec<(String, String)>,
}

/// Why an engine could not be used.
#[derive(Debug, thiserror::Error)]
pub enum AdapterError {
    #[error("cannot start {program:?}: {source}")]
    Spawn { program: String, source: std::io::Error },
    #[error("{what}: no answer within {waited:?}")]
    Timeout { what: String, waited: Duration },
    #[error("the engine exited or closed its output ({what})")]
    Crashed { what: String },
    #[error("the engine answered garbage: {line:?}")]
    Garbage { line: String },
    /// `bestmove` with no move: `(none)` (nothing legal), `resign`, or USI's
    /// `win` — the engine declares an entering-king win (入玉宣言), which
    /// the game, not the adapter, rules on.
    #[error("the engine played no move: {word:?}")]
    NoMove { word: String },
    #[error("cannot write to the engine: {0}")]
    Io(#[from] std::io::Error),
}

impl AdapterError {
    /// A timeout (as opposed to a crash or garbage).
    #[must_use]
    pub fn is_timeout(&self) -> bool {
        matches!(self, AdapterError::Timeout { .. })
    }
}

/// The clock information sent with `go`, from red's and black's sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    Clock {
        red: Duration,
        black: Duration,
        red_inc: Duration,
        black_inc: Duration,
        moves_to_go: Option<u32>,
    },
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

/// An engine's answer, its moves as `M`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineAnswer<M> {
    pub mv: M,
    pub ponder: Option<M>,
    /// The last score it reported, from its side (centipawns; mates as
    /// ±(30000 − plies)).
    pub score: Option<i32>,
    pub depth: Option<u32>,
    /// The time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// An answer in coordinate text, as the game writes it (ICCS, UCI): the
/// dialect's rank numbering already undone.
pub type EngineReply = EngineAnswer<String>;

/// An answer in Xiangqi moves.
pub type EngineMove = EngineAnswer<Move>;

impl EngineReply {
    /// The answer as Xiangqi moves.
    ///
    /// # Errors
    /// A best move that is not one.
    fn xiangqi(self) -> Result<EngineMove, AdapterError> {
        let mv = parse_move_text(&self.mv, false).ok_or(AdapterError::Garbage { line: self.mv })?;
        Ok(EngineAnswer {
            mv,
            ponder: self.ponder.as_deref().and_then(|p| parse_move_text(p, false)),
            score: self.score,
            depth: self.depth,
            elapsed: self.elapsed,
        })
    }
}

/// How long the handshake may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// A running engine process.
pub struct ExternalEngine {
    spec: EngineSpec,
    process: EngineProcess,
    one_based: bool,
    /// From `id name`, or the spec's name.
    pub name: String,
}

/// Writes a square with the engine's rank numbering.
fn square_text(sq: Square, one_based: bool) -> String {
    let file = (b'a' + sq.file()) as char;
    let rank = u32::from(sq.rank()) + u32::from(one_based);
    format!("{file}{rank}")
}

/// Writes a move with the engine's rank numbering.
#[must_use]
pub fn move_text(m: Move, one_based: bool) -> String {
    format!(
        "{}{}",
        square_text(m.from(), one_based),
        square_text(m.to(), one_based)
    )
}

/// Reads a move with the engine's rank numbering (`h2e2`, or `a10a9` for
/// 1–10 ranks); `None` for anything else.
#[must_use]
pub fn parse_move_text(s: &str, one_based: bool) -> Option<Move> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut sq = || -> Option<Square> {
        let file = b.get(i)?.to_ascii_lowercase().checked_sub(b'a')?;
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let rank: u32 = std::str::from_utf8(&b[start..i]).ok()?.parse().ok()?;
        let rank = rank.checked_sub(u32::from(one_based))?;
        Square::try_new(i32::from(file), i32::try_from(rank).ok()?)
    };
    let from = sq()?;
    let to = sq()?;
    (i == b.len() && from != to).then(|| Move::new(from, to))
}

/// Shifts every rank number of a coordinate move by `by` (`h2e2` → `h3e3`
/// for +1): Fairy-Stockfish's 1–10 ranks against ICCS's 0–9. `None` for a
/// text that is not squares (letter, digits).
fn shift_ranks(text: &str, by: i32) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 2);
    let mut chars = text.chars().peekable();
    let mut squares = 0;
    while let Some(c) = chars.next() {
        if !c.is_ascii_lowercase() {
            return None;
        }
        out.push(c);
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let rank = digits.parse::<i32>().ok()? + by;
        if rank < 0 {
            return None;
        }
        out.push_str(&rank.to_string());
        squares += 1;
    }
    (squares == 2).then_some(out)
}

impl ExternalEngine {
    /// Starts the engine and completes the handshake.
    ///
    /// # Errors
    /// The program cannot be started, or does not complete the handshake in
    /// time.
    pub async fn start(spec: &EngineSpec) -> Result<ExternalEngine, AdapterError> {
        let process = EngineProcess::spawn(&spec.program, &spec.args)?;
        let mut e = ExternalEngine {
            spec: spec.clone(),
            process,
            one_based: spec.ranks == Ranks::One,
            name: spec.name.clone(),
        };
        e.handshake().await?;
        Ok(e)
    }

    async fn send(&mut self, line: &str) -> Result<(), AdapterError> {
        self.process.send(line).await
    }

    /// Next line before `deadline`.
    async fn line(&mut self, deadline: Instant, what: &str) -> Result<String, AdapterError> {
        self.process.line(deadline, what).await
    }

    async fn expect(&mut self, word: &str, timeout: Duration) -> Result<Vec<String>, AdapterError> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let l = self.line(deadline, &format!("waiting for {word}")).await?;
            if l == word {
                return Ok(seen);
            }
            seen.push(l);
        }
    }

    async fn handshake(&mut self) -> Result<(), AdapterError> {
        let (hello, ok) = match self.spec.protocol {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Usi => ("usi", "usiok"),
        };
        self.send(hello).await?;
        let lines = self.expect(ok, HANDSHAKE_TIMEOUT).await?;
        let mut has_variant = false;
        for l in &lines {
            if let Some(n) = l.strip_prefix("id name ") {
                if self.name.is_empty() {
                    self.name = n.trim().to_string();
                }
            }
            if l.starts_with("option name UCI_Variant ") {
                has_variant = true;
            }
        }
        if self.name.is_empty() {
            self.name.clone_from(&self.spec.program);
        }
        // Fairy-Stockfish announces `UCI_Variant` whatever it is greeted
        // with; under USI it plays shogi by default and writes USI.
        let has_variant = has_variant && self.spec.protocol != Protocol::Usi;
        if self.spec.ranks == Ranks::Auto {
            self.one_based = has_variant;
        }
        if has_variant {
            self.send("setoption name UCI_Variant value xiangqi").await?;
        }
        if self.spec.protocol == Protocol::Ucci {
            self.send("setoption usemillisec true").await?;
        }
        for (k, v) in self.spec.options.clone() {
            let line = match self.spec.protocol {
                Protocol::Uci | Protocol::Usi => format!("setoption name {k} value {v}"),
                Protocol::Ucci => format!("setoption {k} {v}"),
            };
            self.send(&line).await?;
        }
        self.ready().await
    }

    /// `isready` … `readyok`.
    ///
    /// # Errors
    /// The engine does not answer in time or died.
    pub async fn ready(&mut self) -> Result<(), AdapterError> {
        self.send("isready").await?;
        self.expect("readyok", HANDSHAKE_TIMEOUT).await.map(|_| ())
    }

    /// Tells the engine a new game starts.
    ///
    /// # Errors
    /// As [`ExternalEngine::ready`].
    pub async fn new_game(&mut self) -> Result<(), AdapterError> {
        match self.spec.protocol {
            Protocol::Uci => self.send("ucinewgame").await?,
            Protocol::Ucci => self.send("setoption newgame").await?,
            Protocol::Usi => self.send("usinewgame").await?,
        }
        self.ready().await
    }

    /// Sets engine options (`setoption`), e.g. a strength level, before
    /// the next search.
    ///
    /// # Errors
    /// The engine's input is closed.
    pub async fn set_options(&mut self, options: &[(String, String)]) -> Result<(), AdapterError> {
        for (k, v) in options {
            let line = match self.spec.protocol {
                Protocol::Uci | Protocol::Usi => format!("setoption name {k} value {v}"),
                Protocol::Ucci => format!("setoption {k} {v}"),
            };
            self.send(&line).await?;
        }
        Ok(())
    }

    /// Asks for a move in the position reached from `fen` by `moves`, with
    /// an overall deadline of `timeout` for the answer.
    ///
    /// # Errors
    /// Timeout, crash, or a `bestmove` that is not a move.
    pub async fn go(
        &mut self,
        fen: &str,
        moves: &[Move],
        limit: GoLimit,
        timeout: Duration,
    ) -> Result<EngineMove, AdapterError> {
        let texts: Vec<String> = moves.iter().map(|m| m.iccs()).collect();
        self.go_text(fen, &texts, limit, timeout).await?.xiangqi()
    }

    /// [`ExternalEngine::go`] for any game: moves in its coordinate text
    /// (ICCS, UCI), translated to the engine's dialect and back.
    ///
    /// # Errors
    /// Timeout, crash, or a `bestmove` that is not a move.
    pub async fn go_text(
        &mut self,
        fen: &str,
        moves: &[String],
        limit: GoLimit,
        timeout: Duration,
    ) -> Result<EngineReply, AdapterError> {
        // Drop anything left from an earlier search (late info lines).
        self.process.drain();
        let shift = i32::from(self.one_based);
        let mut pos = match self.spec.protocol {
            Protocol::Usi if fen == "startpos" => "position startpos".to_string(),
            Protocol::Usi => format!("position sfen {fen}"),
            Protocol::Uci | Protocol::Ucci => format!("position fen {fen}"),
        };
        if !moves.is_empty() {
            pos.push_str(" moves");
            for m in moves {
                pos.push(' ');
                let text = if shift == 0 {
                    Some(m.clone())
                } else {
                    shift_ranks(m, shift)
                };
                pos.push_str(&text.ok_or_else(|| AdapterError::Garbage { line: m.clone() })?);
            }
        }
        self.send(&pos).await?;
        let ms = |d: Duration| d.as_millis();
        let go = match (limit, self.spec.protocol) {
            (
                GoLimit::Clock {
                    red,
                    black,
                    red_inc,
                    black_inc,
                    moves_to_go,
                },
                Protocol::Uci,
            ) => {
                let mut g = format!(
                    "go wtime {} btime {} winc {} binc {}",
                    ms(red),
                    ms(black),
                    ms(red_inc),
                    ms(black_inc)
                );
                if let Some(n) = moves_to_go {
                    g += &format!(" movestogo {n}");
                }
                g
            }
            (
                GoLimit::Clock {
                    red,
                    black,
                    red_inc,
                    black_inc,
                    moves_to_go,
                },
                Protocol::Ucci,
            ) => {
                let red_to_move =
                    fen.split_whitespace().nth(1).is_none_or(|t| t != "b") == moves.len().is_multiple_of(2);
                let (t, i, ot, oi) = if red_to_move {
                    (red, red_inc, black, black_inc)
                } else {
                    (black, black_inc, red, red_inc)
                };
                let mut g = format!(
                    "go time {} increment {} opptime {} oppincrement {}",
                    ms(t),
                    ms(i),
                    ms(ot),
                    ms(oi)
                );
                if let Some(n) = moves_to_go {
                    g += &format!(" movestogo {n}");
                }
                g
            }
            (GoLimit::MoveTime(t), Protocol::Uci) => format!("go movetime {}", ms(t)),
            // USI's fixed time a move is byo-yomi with no main time.
            (GoLimit::MoveTime(t), Protocol::Usi) => format!("go btime 0 wtime 0 byoyomi {}", ms(t)),
            // USI's black is sente, the side that moves first in an even game.
            (
                GoLimit::Clock {
                    red,
                    black,
                    red_inc,
                    black_inc,
                    ..
                },
                Protocol::Usi,
            ) => format!(
                "go btime {} wtime {} binc {} winc {}",
                ms(red),
                ms(black),
                ms(red_inc),
                ms(black_inc)
            ),
            (GoLimit::MoveTime(t), Protocol::Ucci) => format!("go time {} movestogo 1", ms(t)),
            (GoLimit::Depth(d), _) => format!("go depth {d}"),
            (GoLimit::Nodes(n), _) => format!("go nodes {n}"),
        };
        let started = Instant::now();
        self.send(&go).await?;
        let deadline = started + timeout;
        let (mut score, mut depth) = (None, None);
        loop {
            let l = self.line(deadline, "waiting for bestmove").await?;
            let mut t = l.split_whitespace();
            match t.next() {
                Some("info") => {
                    let words: Vec<&str> = t.collect();
                    for w in words.windows(3) {
                        match (w[0], w[1]) {
                            ("score", "cp") => score = w[2].parse().ok().or(score),
                            ("score", "mate") => {
                                if let Ok(n) = w[2].parse::<i32>() {
                                    score = Some(if n > 0 {
                                        30_000 - (2 * n - 1)
                                    } else {
                                        -30_000 - 2 * n
                                    });
                                }
                            }
                            ("depth", d) => depth = d.parse().ok().or(depth),
                            _ => {}
                        }
                    }
                    // UCCI: `info depth 5 score 20 pv …` (no cp).
                    for w in words.windows(2) {
                        if w[0] == "score" {
                            if let Ok(v) = w[1].parse() {
                                score = Some(v);
                            }
                        }
                    }
                }
                Some("bestmove") => {
                    let ours = |text: &str| {
                        // USI's move is case-sensitive (`P*5e`); USI's
                        // `resign` and `win` (a declaration) are no move.
                        let text = if self.spec.protocol == Protocol::Usi {
                            text.to_string()
                        } else {
                            text.to_ascii_lowercase()
                        };
                        if shift == 0 {
                            (!text.is_empty() && !matches!(text.as_str(), "(none)" | "resign" | "win"))
                                .then_some(text)
                        } else {
                            shift_ranks(&text, -shift)
                        }
                    };
                    let first = t.next().unwrap_or("");
                    if matches!(first, "(none)" | "resign" | "win") {
                        return Err(AdapterError::NoMove {
                            word: first.to_string(),
                        });
                    }
                    let mv = ours(first).ok_or_else(|| AdapterError::Garbage { line: l.clone() })?;
                    let ponder = match (t.next(), t.next()) {
                        (Some("ponder"), Some(p)) => ours(p),
                        _ => None,
                    };
                    return Ok(EngineAnswer {
                        mv,
                        ponder,
                        score,
                        depth,
                        elapsed: started.elapsed(),
                    });
                }
                Some("nobestmove") => return Err(AdapterError::Garbage { line: l }),
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, and kills it if it does not within a second.
    pub async fn quit(self) {
        self.process.quit("quit").await;
    }

    /// Kills the process at once.
    pub async fn kill(self) {
        self.process.kill().await;
    }

    /// Whether moves are written with ranks 1–10.
    #[must_use]
    pub fn one_based(&self) -> bool {
        self.one_based
    }
}

/// What went wrong when a player was asked for a move, after recovery was
/// tried; the engine, not our side, is at fault.
#[derive(Debug, thiserror::Error)]
pub enum PlayerFailure {
    #[error("{name} ran out of time ({source})")]
    Timeout { name: String, source: AdapterError },
    #[error("{name} failed: {source}")]
    Failed { name: String, source: AdapterError },
}

/// An external engine that restarts itself: the unit the match runner and
/// the server use.
pub struct EnginePlayer {
    spec: EngineSpec,
    engine: Option<ExternalEngine>,
    /// How many times the process was restarted.
    pub restarts: u32,
    name: String,
}

impl EnginePlayer {
    /// Starts the engine once (so that a broken command fails early).
    ///
    /// # Errors
    /// The engine cannot be started or does not complete the handshake.
    pub async fn start(spec: EngineSpec) -> Result<EnginePlayer, AdapterError> {
        let e = ExternalEngine::start(&spec).await?;
        let name = e.name.clone();
        Ok(EnginePlayer {
            spec,
            engine: Some(e),
            restarts: 0,
            name,
        })
    }

    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    async fn engine(&mut self) -> Result<&mut ExternalEngine, AdapterError> {
        if self.engine.is_none() {
            self.restarts += 1;
            self.engine = Some(ExternalEngine::start(&self.spec).await?);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Throws the process away; the next request starts a fresh one.
    pub async fn reset(&mut self) {
        if let Some(e) = self.engine.take() {
            e.kill().await;
        }
    }

    /// Prepares for a new game (restarting a dead engine).
    ///
    /// # Errors
    /// The engine cannot be (re)started.
    pub async fn new_game(&mut self) -> Result<(), AdapterError> {
        let r = self.engine().await?.new_game().await;
        if r.is_err() {
            self.reset().await;
            self.engine().await?.new_game().await?;
        }
        Ok(())
    }

    /// Asks for a move; a hung, crashed or garbling engine is killed so that
    /// the next request starts a fresh process, and the caller is told.
    ///
    /// # Errors
    /// The engine timed out, died or answered garbage.
    pub async fn best_move(
        &mut self,
        fen: &str,
        moves: &[Move],
        limit: GoLimit,
        timeout: Duration,
    ) -> Result<EngineMove, PlayerFailure> {
        let texts: Vec<String> = moves.iter().map(|m| m.iccs()).collect();
        let reply = self.best_move_text(fen, &texts, &[], limit, timeout).await?;
        match reply.xiangqi() {
            Ok(m) => Ok(m),
            Err(source) => Err(self.failed(source).await),
        }
    }

    /// Throws away an engine that failed, and says how it failed.
    async fn failed(&mut self, source: AdapterError) -> PlayerFailure {
        let name = self.name.clone();
        // An engine that answered "no move" is well: it is kept.
        if !matches!(source, AdapterError::NoMove { .. }) {
            self.reset().await;
        }
        if source.is_timeout() {
            PlayerFailure::Timeout { name, source }
        } else {
            PlayerFailure::Failed { name, source }
        }
    }

    /// [`EnginePlayer::best_move`] for any game, in its coordinate text,
    /// after setting `options` (e.g. a strength level): what the game
    /// server's computer players use.
    ///
    /// # Errors
    /// The engine timed out, died or answered garbage.
    pub async fn best_move_text(
        &mut self,
        fen: &str,
        moves: &[String],
        options: &[(String, String)],
        limit: GoLimit,
        timeout: Duration,
    ) -> Result<EngineReply, PlayerFailure> {
        let name = self.name.clone();
        let e = match self.engine().await {
            Ok(e) => e,
            Err(source) => return Err(PlayerFailure::Failed { name, source }),
        };
        let r = match e.set_options(options).await {
            Ok(()) => e.go_text(fen, moves, limit, timeout).await,
            Err(err) => Err(err),
        };
        match r {
            Ok(m) => Ok(m),
            Err(source) => Err(self.failed(source).await),
        }
    }

    /// Shuts the engine down.
    pub async fn quit(mut self) {
        if let Some(e) = self.engine.take() {
            e.quit().await;
        }
    }
}

/// Splits on whitespace, keeping double-quoted stretches together
/// (`"option.Skill Level=3"`).
fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err("unbalanced double quote".into());
    }
    if any {
        words.push(cur);
    }
    Ok(words)
}

/// Reads an engine description: either a plain command line
/// (`"/usr/bin/pikafish"`, `"qiju engine"`), or key=value words in the
/// style of fastchess: `cmd=PATH arg=ARG name=NAME proto=uci|ucci|usi
/// ranks=0|1|auto option.Hash=64`; double quotes group words
/// (`"option.Skill Level=3"`).
///
/// # Errors
/// A word that is not understood, or no command.
pub fn parse_engine_spec(text: &str) -> Result<EngineSpec, String> {
    let owned = split_words(text)?;
    let words: Vec<&str> = owned.iter().map(String::as_str).collect();
    let mut spec = EngineSpec {
        name: String::new(),
        program: String::new(),
        args: Vec::new(),
        protocol: Protocol::Uci,
        ranks: Ranks::Auto,
        options: Vec::new(),
    };
    if !words.first().is_some_and(|w| w.starts_with("cmd=")) {
        let (p, rest) = words.split_first().ok_or("empty engine command")?;
        spec.program = (*p).to_string();
        spec.args = rest.iter().map(|s| (*s).to_string()).collect();
        return Ok(spec);
    }
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, found {w:?}"))?;
        match k {
            "cmd" => spec.program = v.to_string(),
            "arg" => spec.args.push(v.to_string()),
            "name" => spec.name = v.to_string(),
            "proto" | "protocol" => {
                spec.protocol = match v {
                    "uci" => Protocol::Uci,
                    "ucci" => Protocol::Ucci,
                    "usi" => Protocol::Usi,
                    _ => return Err(format!("proto must be uci, ucci or usi, not {v:?}")),
                }
            }
            "ranks" => {
                spec.ranks = match v {
                    "0" => Ranks::Zero,
                    "1" => Ranks::One,
                    "auto" => Ranks::Auto,
                    _ => return Err(format!("ranks must be 0, 1 or auto, not {v:?}")),
                }
            }
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.is_empty() => spec.options.push((name.to_string(), v.to_string())),
                _ => return Err(format!("unknown engine setting {k:?}")),
            },
        }
    }
    if spec.program.is_empty() {
        return Err("engine description has no cmd=".into());
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_shift_both_ways_and_refuse_what_is_not_squares() {
        assert_eq!(super::shift_ranks("h2e2", 1).as_deref(), Some("h3e3"));
        assert_eq!(super::shift_ranks("a10a9", -1).as_deref(), Some("a9a8"));
        assert_eq!(super::shift_ranks("a0a1", -1), None);
        for bad in ["", "h2", "h2e2e2", "H2e2", "h2-e2", "e7e8q"] {
            assert_eq!(super::shift_ranks(bad, 1), None, "{bad}");
        }
    }

    #[test]
    fn move_text_in_both_numberings() {
        let m = Move::new(Square::from_iccs("a9").unwrap(), Square::from_iccs("a8").unwrap());
        assert_eq!(move_text(m, false), "a9a8");
        assert_eq!(move_text(m, true), "a10a9");
        assert_eq!(parse_move_text("a10a9", true), Some(m));
        assert_eq!(parse_move_text("a9a8", false), Some(m));
        assert_eq!(parse_move_text("a10a9", false), None);
        assert_eq!(parse_move_text("a0a1", true), None);
        assert_eq!(parse_move_text("(none)", false), None);
        assert_eq!(parse_move_text("h2e2x", false), None);
        assert_eq!(parse_move_text("", false), None);
        assert_eq!(parse_move_text("h2h2", false), None);
    }

    #[test]
    fn engine_specs() {
        let s = parse_engine_spec("qiju engine").unwrap();
        assert_eq!(
            (s.program.as_str(), s.args.clone()),
            ("qiju", vec!["engine".to_string()])
        );
        let s = parse_engine_spec("cmd=/x/fsf name=fsf proto=uci ranks=1 option.Hash=64 arg=--v").unwrap();
        assert_eq!(s.program, "/x/fsf");
        assert_eq!(s.ranks, Ranks::One);
        assert_eq!(s.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(s.args, vec!["--v".to_string()]);
        assert!(parse_engine_spec("").is_err());
        assert!(parse_engine_spec("cmd=x proto=xboard").is_err());
        assert!(parse_engine_spec("cmd=x bogus=1").is_err());
        let s = parse_engine_spec("cmd=x \"option.Skill Level=3\"").unwrap();
        assert_eq!(s.options, vec![("Skill Level".to_string(), "3".to_string())]);
        assert!(parse_engine_spec("cmd=x \"option.A=1").is_err());
    }
}
