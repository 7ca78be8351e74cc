//! Parsing of the commands a GUI sends, in both dialects.
//!
//! UCI (as Pikafish and Fairy-Stockfish speak it for Xiangqi) and UCCI
//! (ElephantEye's protocol) share most words; where they differ — `setoption
//! name X value Y` against `setoption X Y`, `go wtime …` against `go time …
//! increment …` — both forms are accepted and the session decides what they
//! mean. Parsing never fails: a line that cannot be read becomes
//! [`Command::Invalid`] with the reason, which the session reports.

/// One parsed line.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Uci,
    Ucci,
    IsReady,
    NewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `position startpos|fen F [moves …]`; `fen: None` is the start position.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    /// UCCI `banmoves m1 m2 …`: moves the next search must not play.
    BanMoves(Vec<String>),
    Go(Go),
    Stop,
    PonderHit,
    /// UCCI `probe`: what the hash table knows about the position.
    Probe,
    Quit,
    /// `d`: show the position (as Stockfish does).
    Display,
    /// `eval`: the static evaluation.
    Eval,
    /// A blank line.
    Empty,
    /// A line that is not a command we know.
    Unknown(String),
    /// A known command with bad arguments.
    Invalid {
        line: String,
        reason: String,
    },
}

/// The arguments of `go`. Times are as sent: milliseconds for UCI words,
/// the UCCI words in the unit set by `usemillisec` (seconds by default).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    pub wtime: Option<f64>,
    pub btime: Option<f64>,
    pub winc: Option<f64>,
    pub binc: Option<f64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<f64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// UCCI `time`: own remaining time.
    pub time: Option<f64>,
    /// UCCI `increment`.
    pub increment: Option<f64>,
    /// UCCI `draw`: the opponent offers a draw (noted, not acted on).
    pub draw: bool,
}

fn num<T: std::str::FromStr>(it: &mut std::slice::Iter<'_, &str>, word: &str) -> Result<T, String> {
    let v = it.next().ok_or_else(|| format!("{word} needs a value"))?;
    v.parse::<T>()
        .map_err(|_| format!("{word}: {v:?} is not a valid number"))
}

fn parse_go(tokens: &[&str]) -> Result<Go, String> {
    let mut g = Go::default();
    let mut it = tokens.iter();
    while let Some(&w) = it.next() {
        match w {
            "wtime" => g.wtime = Some(num::<f64>(&mut it, w)?),
            "btime" => g.btime = Some(num::<f64>(&mut it, w)?),
            "winc" => g.winc = Some(num::<f64>(&mut it, w)?),
            "binc" => g.binc = Some(num::<f64>(&mut it, w)?),
            "movestogo" => g.movestogo = Some(num(&mut it, w)?),
            "movetime" => g.movetime = Some(num::<f64>(&mut it, w)?),
            "depth" => g.depth = Some(num(&mut it, w)?),
            "nodes" => g.nodes = Some(num(&mut it, w)?),
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "draw" => g.draw = true,
            "time" => g.time = Some(num::<f64>(&mut it, w)?),
            "increment" => g.increment = Some(num::<f64>(&mut it, w)?),
            // The opponent's clock is not used by the time manager.
            "opptime" | "oppincrement" => {
                num::<f64>(&mut it, w)?;
            }
            "oppmovestogo" => {
                num::<u32>(&mut it, w)?;
            }
            "mate" => {
                // Searched as a depth: a mate in n needs 2n-1 plies.
                let n: u32 = num(&mut it, w)?;
                g.depth = Some(n.saturating_mul(2).max(1));
            }
            "searchmoves" => {
                g.searchmoves = it.by_ref().map(|s| (*s).to_string()).collect();
            }
            other => return Err(format!("unknown go parameter {other:?}")),
        }
        for t in [g.wtime, g.btime, g.winc, g.binc, g.movetime, g.time, g.increment]
            .into_iter()
            .flatten()
        {
            if !t.is_finite() {
                return Err(format!("go: time {t} is not finite"));
            }
        }
    }
    Ok(g)
}

fn parse_position(tokens: &[&str]) -> Result<Command, String> {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (tokens, &[][..]),
    };
    let fen = match head.first() {
        Some(&"startpos") if head.len() == 1 => None,
        Some(&"fen") if head.len() > 1 => Some(head[1..].join(" ")),
        Some(&"fen") => return Err("position fen needs a FEN".into()),
        Some(other) => return Err(format!("position: expected startpos or fen, found {other:?}")),
        None => return Err("position needs startpos or fen".into()),
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|s| (*s).to_string()).collect(),
    })
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, String> {
    if tokens.first() == Some(&"name") {
        // UCI: setoption name <words> [value <words>]
        let v = tokens.iter().position(|&t| t == "value");
        let (name, value) = match v {
            Some(i) => (tokens[1..i].join(" "), Some(tokens[i + 1..].join(" "))),
            None => (tokens[1..].join(" "), None),
        };
        if name.is_empty() {
            return Err("setoption name needs an option name".into());
        }
        Ok(Command::SetOption { name, value })
    } else {
        // UCCI: setoption <name> [<value>]
        let name = tokens.first().ok_or("setoption needs an option name")?;
        let value = (tokens.len() > 1).then(|| tokens[1..].join(" "));
        Ok(Command::SetOption {
            name: (*name).to_string(),
            value,
        })
    }
}

/// Parses one line.
#[must_use]
pub fn parse(line: &str) -> Command {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Command::Empty;
    };
    let invalid = |reason: String| Command::Invalid {
        line: line.trim().to_string(),
        reason,
    };
    match head {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "setoption" => parse_setoption(rest).unwrap_or_else(invalid),
        "position" => parse_position(rest).unwrap_or_else(invalid),
        "banmoves" => Command::BanMoves(rest.iter().map(|s| (*s).to_string()).collect()),
        "go" => parse_go(rest).map(Command::Go).unwrap_or_else(invalid),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "probe" => Command::Probe,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        _ => Command::Unknown(line.trim().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves h2e2 h9g7"),
            Command::Position {
                fen: None,
                moves: vec!["h2e2".into(), "h9g7".into()]
            }
        );
        assert_eq!(
            parse("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            Command::Position {
                fen: Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert!(matches!(parse("position"), Command::Invalid { .. }));
        assert!(matches!(parse("position sideways"), Command::Invalid { .. }));
        assert!(matches!(
            parse("position fen moves a0a1"),
            Command::Invalid { .. }
        ));
    }

    #[test]
    fn go_both_dialects() {
        let Command::Go(g) = parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5") else {
            panic!()
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc, g.movestogo),
            (Some(1000.0), Some(2000.0), Some(10.0), Some(20.0), Some(5))
        );
        let Command::Go(g) = parse("go time 300 increment 2 opptime 300 oppincrement 2") else {
            panic!()
        };
        assert_eq!((g.time, g.increment), (Some(300.0), Some(2.0)));
        let Command::Go(g) = parse("go ponder infinite searchmoves h2e2 b2e2") else {
            panic!()
        };
        assert!(g.ponder && g.infinite);
        assert_eq!(g.searchmoves, vec!["h2e2".to_string(), "b2e2".to_string()]);
        assert!(matches!(parse("go depth"), Command::Invalid { .. }));
        assert!(matches!(parse("go depth x"), Command::Invalid { .. }));
        assert!(matches!(parse("go sideways 3"), Command::Invalid { .. }));
        assert!(matches!(parse("go movetime inf"), Command::Invalid { .. }));
    }

    #[test]
    fn options_both_dialects() {
        assert_eq!(
            parse("setoption name Skill Level value 3"),
            Command::SetOption {
                name: "Skill Level".into(),
                value: Some("3".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption hashsize 64"),
            Command::SetOption {
                name: "hashsize".into(),
                value: Some("64".into())
            }
        );
        assert!(matches!(parse("setoption"), Command::Invalid { .. }));
        assert!(matches!(parse("setoption name"), Command::Invalid { .. }));
    }

    #[test]
    fn odd_lines() {
        assert_eq!(parse("   "), Command::Empty);
        assert_eq!(parse("xyzzy 1 2"), Command::Unknown("xyzzy 1 2".into()));
        assert_eq!(parse("banmoves h2e2"), Command::BanMoves(vec!["h2e2".into()]));
        assert_eq!(parse("ucci"), Command::Ucci);
    }
}
