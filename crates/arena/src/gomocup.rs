//! Gomoku and renju matches between two Gomocup-protocol engines (`qiju
//! match --game gomoku`), on the same pool, tally and statistics as the
//! Xiangqi runner. Each opening is played twice with colours swapped, which
//! cancels the first move's advantage (large in freestyle gomoku). The rules
//! crate referees every stone: five (or overline where it wins), black's
//! forbidden points under renju, the full board. Time is a fixed time a move
//! (Gomocup's `timeout_turn`): an engine that takes longer than that and the
//! margin, hangs, crashes, or plays on a taken point or garbage loses.

use crate::adapter::{EngineSpec, PlayerFailure};
use crate::pbrain::{GameInfo, GomocupPlayer};
use crate::pool::{run_pool, Contest};
use crate::runner::{MatchError, SprtOutcome};
use crate::stats::{Sprt, Tally};
use renju::{Color, Point, Position, Rules};
use std::time::Duration;

/// Everything a gomoku match needs.
#[derive(Clone, Debug)]
pub struct GomocupConfig {
    /// The first engine is the one the score and Elo are reported for.
    pub engines: [EngineSpec; 2],
    pub games: u32,
    /// The rule set the referee applies; its opening switches (centre first,
    /// white's first stone) are not used: the openings place the first
    /// stones.
    pub rules: Rules,
    /// The time for one move.
    pub move_time: Duration,
    /// Tolerance beyond `move_time` before an engine loses on time.
    pub margin: Duration,
    /// Each opening is the game's first stones, black first.
    pub openings: Vec<Vec<Point>>,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
}

/// A finished gomoku game.
#[derive(Clone, Debug)]
pub struct GomocupGame {
    /// 1-based.
    pub round: u32,
    pub black: String,
    pub white: String,
    /// The game's stones in order, the opening's first.
    pub stones: Vec<Point>,
    /// How many of `stones` the opening placed.
    pub book: usize,
    /// `None`: a draw.
    pub winner: Option<Color>,
    pub reason: String,
    pub first_is_black: bool,
    /// The first engine's score in half points (2 win, 1 draw, 0 loss).
    pub first_half_points: u32,
    /// Each engine's thinking time and number of moves in this game.
    pub thinking: [(Duration, u32); 2],
}

/// The end of a gomoku match.
#[derive(Clone, Debug)]
pub struct GomocupReport {
    pub names: [String; 2],
    pub tally: Tally,
    pub sprt: Option<SprtOutcome>,
    pub games: Vec<GomocupGame>,
}

/// The 26 canonical renju openings (RIF): black h8, white on a direct
/// (h9) or diagonal (i9) neighbour, the third stone, black's, anywhere in
/// the 5×5 square around h8 — up to the reflection that keeps the first two
/// stones in place: 13 direct and 13 indirect. Played in order, direct
/// first.
#[must_use]
pub fn canonical_openings() -> Vec<Vec<Point>> {
    /// An offset from h8: (columns, rows).
    type Offset = (isize, isize);
    /// A reflection of the board about h8.
    type Mirror = fn(Offset) -> Offset;
    let centre = Point::CENTRE;
    let mut out = Vec::new();
    // White's offset, and the reflection that keeps it in place.
    let families: [(Offset, Mirror); 2] = [((0, 1), |(dc, dr)| (-dc, dr)), ((1, 1), |(dc, dr)| (dr, dc))];
    for (white, mirror) in families {
        let w = centre.offset(white.0, white.1).expect("near the centre");
        for dr in (-2..=2).rev() {
            for dc in -2..=2 {
                if (dc, dr) == (0, 0) || (dc, dr) == white {
                    continue;
                }
                let m = mirror((dc, dr));
                // One of each mirrored pair: the first in this order.
                let first = m == (dc, dr) || (-m.1, m.0) > (-dr, dc);
                if first {
                    out.push(vec![centre, w, centre.offset(dc, dr).expect("near the centre")]);
                }
            }
        }
    }
    out
}

/// Reads an openings file: one opening a line, its stones in our notation
/// (`h8 h9 j10`), black first; `#` starts a comment.
///
/// # Errors
/// A point that is not one, or a stone that cannot be played (taken, or the
/// game would be over), with its line number.
pub fn parse_openings(text: &str, rules: Rules) -> Result<Vec<Vec<Point>>, OpeningError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut stones = Vec::new();
        let mut pos = Position::new(free(rules));
        for word in line.split_whitespace() {
            let p: Point = word.parse().map_err(|_| OpeningError {
                line: i + 1,
                why: format!("{word:?} is not a point (a1 … o15)"),
            })?;
            match pos.play(p) {
                Ok(None) => stones.push(p),
                Ok(Some(_)) => {
                    return Err(OpeningError {
                        line: i + 1,
                        why: format!("the game is over after {word}"),
                    })
                }
                Err(e) => {
                    return Err(OpeningError {
                        line: i + 1,
                        why: e.to_string(),
                    })
                }
            }
        }
        out.push(stones);
    }
    Ok(out)
}

/// An openings file line that cannot be played.
#[derive(Debug, thiserror::Error)]
#[error("openings line {line}: {why}")]
pub struct OpeningError {
    pub line: usize,
    pub why: String,
}

/// The rule set without its opening restrictions (the openings place the
/// first stones wherever they say) and with a forbidden stone losing at once:
/// engines cannot point fouls out, as the office rule would ask (seed 001).
fn free(rules: Rules) -> Rules {
    Rules {
        centre_first: false,
        white_first_own_side: false,
        opening: renju::Opening::Centre,
        fouls: renju::FoulPolicy::Lose,
        ..rules
    }
}

struct Gomoku(GomocupConfig);

impl Contest for Gomoku {
    type Player = GomocupPlayer;
    type Report = GomocupGame;

    async fn start(&self, index: usize) -> Result<GomocupPlayer, MatchError> {
        GomocupPlayer::start(self.0.engines[index].clone())
            .await
            .map_err(|source| MatchError::Engine {
                index: index + 1,
                source,
            })
    }

    fn name(player: &GomocupPlayer) -> String {
        player.name().to_string()
    }

    fn play<'a>(
        &'a self,
        pair: &'a mut [GomocupPlayer; 2],
        names: &'a [String; 2],
        g: u32,
    ) -> impl std::future::Future<Output = GomocupGame> + Send + 'a {
        play_game(&self.0, pair, names, g)
    }

    fn half_points(report: &GomocupGame) -> u32 {
        report.first_half_points
    }

    async fn quit(player: GomocupPlayer) {
        player.quit().await;
    }
}

/// Plays the match; `on_game` sees each finished game with the running
/// tally.
///
/// # Errors
/// An engine cannot be started, or there are no openings or workers.
pub async fn run_gomocup_match(
    cfg: GomocupConfig,
    on_game: impl FnMut(&GomocupGame, &Tally, &[String; 2]),
) -> Result<GomocupReport, MatchError> {
    if cfg.openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    let (games, concurrency, sprt) = (cfg.games, cfg.concurrency, cfg.sprt);
    let out = run_pool(Gomoku(cfg), games, concurrency, sprt, on_game).await?;
    Ok(GomocupReport {
        names: out.names,
        tally: out.tally,
        sprt: out.sprt,
        games: out.games,
    })
}

/// Plays game number `g` (0-based): opening `g / 2`, the first engine black
/// in even games.
async fn play_game(
    cfg: &GomocupConfig,
    pair: &mut [GomocupPlayer; 2],
    names: &[String; 2],
    g: u32,
) -> GomocupGame {
    let opening = &cfg.openings[(g as usize / 2) % cfg.openings.len()];
    let first_is_black = g.is_multiple_of(2);
    // Index into `pair` of the engine playing each colour.
    let engine_of = |c: Color| usize::from((c == Color::Black) != first_is_black);
    let mut pos = Position::new(free(cfg.rules));
    let mut stones = Vec::new();
    for &p in opening {
        pos.play(p).expect("openings are checked when read");
        stones.push(p);
    }
    let info = GameInfo {
        rule: GameInfo::rule_of(cfg.rules.set),
        turn_time: cfg.move_time,
        match_time: Duration::ZERO,
    };
    let mut thinking = [(Duration::ZERO, 0u32); 2];
    let mut outcome: Option<(Option<Color>, String)> = None;
    for color in [Color::Black, Color::White] {
        let e = engine_of(color);
        if let Err(err) = pair[e].new_game(info).await {
            outcome = Some((
                Some(color.other()),
                format!("{} could not start a game: {err}", names[e]),
            ));
            break;
        }
    }
    // An engine thinking past this is hung rather than slow.
    let hard = cfg.move_time + cfg.margin + Duration::from_secs(1);
    while outcome.is_none() {
        if let Some(end) = pos.end() {
            outcome = Some((end.winner, end.reason.code().to_string()));
            break;
        }
        let side = pos.turn();
        let e = engine_of(side);
        match pair[e].best_move(&stones, hard).await {
            Err(PlayerFailure::Timeout { name, .. }) => {
                outcome = Some((
                    Some(side.other()),
                    format!("time forfeit ({name} did not answer)"),
                ));
            }
            Err(f @ PlayerFailure::Failed { .. }) => {
                outcome = Some((Some(side.other()), f.to_string()));
            }
            Ok((p, elapsed)) => {
                thinking[e].0 += elapsed;
                thinking[e].1 += 1;
                if elapsed > cfg.move_time + cfg.margin {
                    outcome = Some((
                        Some(side.other()),
                        format!("time forfeit ({} used {} ms)", names[e], elapsed.as_millis()),
                    ));
                } else if let Err(err) = pos.play(p) {
                    outcome = Some((
                        Some(side.other()),
                        format!("illegal move {p} by {}: {err}", names[e]),
                    ));
                } else {
                    stones.push(p);
                }
            }
        }
    }
    let (winner, reason) = outcome.expect("the loop ends with an outcome");
    let first_color = if first_is_black {
        Color::Black
    } else {
        Color::White
    };
    let first_half_points = match winner {
        None => 1,
        Some(c) if c == first_color => 2,
        Some(_) => 0,
    };
    let (black, white) = if first_is_black {
        (names[0].clone(), names[1].clone())
    } else {
        (names[1].clone(), names[0].clone())
    };
    GomocupGame {
        round: g + 1,
        black,
        white,
        stones,
        book: opening.len(),
        winner,
        reason,
        first_is_black,
        first_half_points,
        thinking,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_26_canonical_openings() {
        let all = canonical_openings();
        assert_eq!(all.len(), 26);
        let names: Vec<String> = all.iter().map(|o| o[2].to_string()).collect();
        // Direct (white h9): the third stone on the h column or to its left.
        assert_eq!(&names[..3], ["f10", "g10", "h10"]);
        assert!(names[..13].iter().all(|n| n.as_bytes()[0] <= b'h'), "{names:?}");
        // No two openings are mirror images, and none repeats a stone.
        let set: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(set.len(), 26);
        for o in &all {
            assert_eq!(o[0], Point::CENTRE);
            assert!(!o[..2].contains(&o[2]));
        }
        assert_eq!(all[13][1].to_string(), "i9");
    }

    #[test]
    fn openings_files_are_checked() {
        let ok = parse_openings("# two\nh8 h9 h10\n\nh8 i9 j10 # comment\n", Rules::FREESTYLE).unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(ok[1].len(), 3);
        let e = parse_openings("h8 h9\nh8 h8\n", Rules::FREESTYLE).unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_openings("h8 z9\n", Rules::FREESTYLE).unwrap_err();
        assert!(e.why.contains("z9"), "{e}");
    }
}
