//! Knockout events (淘汰制, CXA 11.1): a seeded single-elimination bracket
//! (`tournament::knockout`), each board a match that goes on by itself,
//! game after game, as its games end: the match proper, then after a tie
//! the rapid play-off games and the armageddon game, in which a draw is
//! black's win (seed 001: 和棋黑胜). Colours: the first game by lot (猜先,
//! CXA 13.4), then alternating through the play-off (seed 001); the
//! armageddon colour is chosen by the player who had no choice at the lot
//! (`armageddon`: the match waits for them a while, then the server
//! chooses for them the side a draw favours, black). A tie with no
//! armageddon game is decided by lot. A game's no-show loses the match by
//! forfeit.
//!
//! The match is not stored as a state: it is rebuilt from its stored games
//! (`store::MatchGameRow`) each time, so a restart finds it where it was.

use crate::spec::BoardResult;
use crate::{Events, Loaded};
use common::Error;
use play::GameEnded;
use store::{MatchGameRow, PairingRow};
use tournament::knockout::{GameResult, Match, MatchFormat, Next, Phase, Player, SingleElimination};

/// Round `round`'s boards: the seeded bracket, then the winners of the
/// round before paired as the bracket lines run.
pub(crate) fn boards(l: &Loaded, round: u32) -> Result<Vec<(u32, Option<u32>)>, Error> {
    let players = l.entries.len() as u32;
    let mut bracket =
        SingleElimination::seeded(players).map_err(|e| Error::conflict("too_few_players", e.to_string()))?;
    for r in 1..round {
        for p in l.pairings.iter().filter(|p| p.round == r) {
            bracket
                .report(match_winner(p)?)
                .map_err(|e| Error::conflict("no_pairing", e.to_string()))?;
        }
        bracket
            .advance()
            .map_err(|e| Error::conflict("no_pairing", e.to_string()))?;
    }
    Ok(bracket.pairings())
}

/// Who went through on a board, to pair the next round from: refused
/// while the match has none (a double forfeit, a draw the arbiter has
/// not decided).
pub(crate) fn match_winner(p: &PairingRow) -> Result<u32, Error> {
    winner_of(p).ok_or_else(|| {
        Error::conflict(
            "no_winner",
            format!(
                "round {} board {}: the match has no winner; the arbiter sets one",
                p.round, p.board
            ),
        )
    })
}

/// Who went through on a board: the first-listed player on `1-0`, `+-`
/// or a bye, the second on `0-1` or `-+`.
pub(crate) fn winner_of(p: &PairingRow) -> Option<u32> {
    match p.result.as_deref()? {
        "bye" => Some(p.white),
        r => match BoardResult::parse(r)? {
            BoardResult::WhiteWins | BoardResult::WhiteForfeitWin => Some(p.white),
            BoardResult::BlackWins | BoardResult::BlackForfeitWin => p.black,
            BoardResult::Draw | BoardResult::DoubleForfeit => None,
        },
    }
}

/// The event's match format.
pub(crate) fn format_of(l: &Loaded) -> MatchFormat {
    MatchFormat {
        games: l.event.match_games,
        playoff_games: l.event.playoff_games,
        armageddon: l.event.armageddon,
        first_to: l.event.first_to,
    }
}

/// The games of the match on board `p`, in order.
pub(crate) fn match_games_of<'a>(l: &'a Loaded, p: &PairingRow) -> Vec<&'a MatchGameRow> {
    l.match_games
        .iter()
        .filter(|g| g.round == p.round && g.board == p.board)
        .collect()
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Regular => "regular",
        Phase::Playoff => "playoff",
        Phase::Armageddon => "armageddon",
    }
}

fn game_result(r: &str) -> Option<GameResult> {
    match r {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// The match as its finished games left it; `None` before its first game.
/// The armageddon colour is read from the armageddon game itself.
pub(crate) fn rebuild(
    format: MatchFormat,
    p: &PairingRow,
    games: &[&MatchGameRow],
) -> Result<Option<Match>, Error> {
    let Some(first) = games.first() else {
        return Ok(None);
    };
    // The lot's winner chose white for the first game; the other player
    // chooses the armageddon colour.
    let first_white = if first.white == p.white {
        Player::First
    } else {
        Player::Second
    };
    let mut m =
        Match::new(p.board, format, first_white, first_white).map_err(|e| Error::Internal(e.to_string()))?;
    for g in games {
        let Some(result) = g.result.as_deref().and_then(game_result) else {
            break;
        };
        if let Next::ChooseColour { chooser } = m.next() {
            // `g` is the armageddon game: the colour chosen is the one its
            // chooser has in it.
            let chooser_no = if chooser == Player::First {
                p.white
            } else {
                p.black.unwrap_or_default()
            };
            m.choose_colour(chooser, g.white == chooser_no)
                .map_err(|e| Error::Internal(e.to_string()))?;
        }
        m.record(result).map_err(|e| Error::Internal(e.to_string()))?;
    }
    Ok(Some(m))
}

impl Events {
    /// A knockout game ended: record it and let the match go on; a no-show
    /// loses the match by forfeit (seed 000 21.1, 21.4).
    pub(crate) async fn score_match_game(
        &self,
        event: &str,
        p: &PairingRow,
        e: &GameEnded,
    ) -> Result<(), Error> {
        let l = self.load(event).await?;
        let Some(g) = l.match_games.iter().find(|g| g.game_id == e.game) else {
            return Ok(());
        };
        let Some(black) = p.black else { return Ok(()) };
        let game_black = if g.white == p.white { black } else { p.white };
        let result = match e.outcome {
            Some(game::Outcome::Win {
                winner: game::Side::First,
            }) => "1-0",
            Some(game::Outcome::Win {
                winner: game::Side::Second,
            }) => "0-1",
            Some(game::Outcome::Draw) => "1/2-1/2",
            None => {
                // The side to move never came: that player loses the match.
                let absent = if e.plies.is_multiple_of(2) {
                    g.white
                } else {
                    game_black
                };
                self.store().set_match_game_result(&e.game, "forfeit").await?;
                let r = if absent == p.white {
                    BoardResult::BlackForfeitWin
                } else {
                    BoardResult::WhiteForfeitWin
                };
                if self
                    .store()
                    .set_pairing_result(event, p.round, p.board, r.as_str(), true, true)
                    .await?
                {
                    self.log(
                        event,
                        None,
                        "forfeit",
                        &format!(
                            "round {} board {} game {}: the game was called off ({}) with number {absent} to move: the match is {}",
                            p.round, p.board, g.game_no, e.reason, r.as_str()
                        ),
                    )
                    .await?;
                }
                return Ok(());
            }
        };
        self.store().set_match_game_result(&e.game, result).await?;
        let l = self.load(event).await?;
        self.advance_match(&l, p).await
    }

    /// What the match on board `p` needs next, done: its next game started
    /// (unless it is already), the armageddon colour waited for or chosen,
    /// a lot drawn, or the winner recorded.
    pub(crate) async fn advance_match(&self, l: &Loaded, p: &PairingRow) -> Result<(), Error> {
        let Some(black) = p.black else { return Ok(()) };
        let games = match_games_of(l, p);
        if games.last().is_some_and(|g| g.result.is_none()) {
            return Ok(()); // a game is being played
        }
        let number_of = |pl: Player| if pl == Player::First { p.white } else { black };
        let next = match rebuild(format_of(l), p, &games)? {
            None => {
                // The first game: colours by lot (CXA 13.4).
                let white = if common::random_bit()? { p.white } else { black };
                return self.start_match_game(l, p, 1, Phase::Regular, white).await;
            }
            Some(mut m) => {
                if let Next::ChooseColour { chooser } = m.next() {
                    // The chooser's choice, or black once the wait ran out;
                    // until then the match waits.
                    let Some(white) = self.armageddon_colour(l, p, number_of(chooser)).await? else {
                        return Ok(());
                    };
                    m.choose_colour(chooser, white)
                        .map_err(|e| Error::Internal(e.to_string()))?;
                }
                m.next()
            }
        };
        match next {
            Next::Game { number, phase, white } => {
                self.start_match_game(l, p, number, phase, number_of(white)).await
            }
            // Chosen above; a second choice is never due.
            Next::ChooseColour { .. } => Ok(()),
            Next::DrawLots => {
                let winner = if common::random_bit()? {
                    Player::First
                } else {
                    Player::Second
                };
                self.match_won(l, p, winner, "by lot (the tie stands after the play-off)")
                    .await
            }
            Next::Winner(winner) => self.match_won(l, p, winner, "").await,
        }
    }

    async fn start_match_game(
        &self,
        l: &Loaded,
        p: &PairingRow,
        number: u32,
        phase: Phase,
        white: u32,
    ) -> Result<(), Error> {
        let Some(black) = p.black else { return Ok(()) };
        let game_black = if white == p.white { black } else { p.white };
        let tc = if phase == Phase::Regular {
            &l.event.time_control
        } else {
            &l.event.playoff_time_control
        };
        let tc = play::table::parse_time_control(tc)
            .map_err(|e| Error::Internal(format!("event {}: {e}", l.event.id)))?;
        let link = async |game: &str| {
            let row = MatchGameRow {
                round: p.round,
                board: p.board,
                game_no: number,
                phase: phase_name(phase).to_string(),
                white,
                game_id: game.to_string(),
                result: None,
            };
            Ok(self.store().insert_match_game(&l.event.id, &row).await?)
        };
        if self
            .create_board_game(l, white, game_black, &tc, link)
            .await?
            .is_none()
        {
            return Ok(());
        }
        if number > 1 {
            self.log(
                &l.event.id,
                None,
                "match_game",
                &format!(
                    "round {} board {}: game {number} ({}), number {white} has the first side",
                    p.round,
                    p.board,
                    phase_name(phase)
                ),
            )
            .await?;
        }
        Ok(())
    }

    async fn match_won(&self, l: &Loaded, p: &PairingRow, winner: Player, how: &str) -> Result<(), Error> {
        let r = if winner == Player::First {
            BoardResult::WhiteWins
        } else {
            BoardResult::BlackWins
        };
        if self
            .store()
            .set_pairing_result(&l.event.id, p.round, p.board, r.as_str(), false, true)
            .await?
        {
            let n = if winner == Player::First {
                p.white
            } else {
                p.black.unwrap_or_default()
            };
            let name = l.entry_number(n).map_or_else(String::new, |e| e.name.clone());
            self.log(
                &l.event.id,
                None,
                "match_won",
                &format!(
                    "round {} board {}: {name} (number {n}) goes through{}",
                    p.round,
                    p.board,
                    if how.is_empty() {
                        String::new()
                    } else {
                        format!(", {how}")
                    }
                ),
            )
            .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(result: Option<&str>) -> PairingRow {
        PairingRow {
            round: 1,
            board: 1,
            white: 4,
            black: Some(5),
            game_id: None,
            result: result.map(str::to_string),
            forfeit: false,
        }
    }

    fn game(no: u32, phase: &str, white: u32, result: Option<&str>) -> MatchGameRow {
        MatchGameRow {
            round: 1,
            board: 1,
            game_no: no,
            phase: phase.into(),
            white,
            game_id: format!("g{no}"),
            result: result.map(str::to_string),
        }
    }

    #[test]
    fn a_drawn_match_goes_to_the_playoff_then_armageddon_and_black_wins_the_draw() {
        let p = board(None);
        // Number 5 won the lot and took white.
        let g1 = game(1, "regular", 5, Some("1/2-1/2"));
        let m = rebuild(MatchFormat::NATIONAL, &p, &[&g1]).unwrap().unwrap();
        assert_eq!(
            m.next(),
            Next::Game {
                number: 2,
                phase: Phase::Playoff,
                white: Player::First
            },
            "colours alternate into the play-off: number 4 (first-listed) has white"
        );
        let g2 = game(2, "playoff", 4, Some("1/2-1/2"));
        let mut m = rebuild(MatchFormat::NATIONAL, &p, &[&g1, &g2]).unwrap().unwrap();
        // Number 4 had no choice at the lot: they choose, and take black.
        assert_eq!(
            m.next(),
            Next::ChooseColour {
                chooser: Player::First
            }
        );
        m.choose_colour(Player::First, false).unwrap();
        assert_eq!(
            m.next(),
            Next::Game {
                number: 3,
                phase: Phase::Armageddon,
                white: Player::Second
            }
        );
        let g3 = game(3, "armageddon", 5, Some("1/2-1/2"));
        let m = rebuild(MatchFormat::NATIONAL, &p, &[&g1, &g2, &g3])
            .unwrap()
            .unwrap();
        assert_eq!(m.winner(), Some(Player::First), "a draw is black's win");
        // A game still being played stops the replay.
        let open = game(3, "armageddon", 5, None);
        let m = rebuild(MatchFormat::NATIONAL, &p, &[&g1, &g2, &open])
            .unwrap()
            .unwrap();
        assert_eq!(m.winner(), None);
    }

    /// The armageddon colour is replayed from the armageddon game: number
    /// 4 (no choice at the lot) chose red, so 5 has black and goes through
    /// on the draw. Read as "black chosen", the replay would name 4.
    #[test]
    fn the_armageddon_colour_chosen_is_read_from_its_game() {
        let p = board(None);
        let g1 = game(1, "regular", 5, Some("1/2-1/2"));
        let g2 = game(2, "playoff", 4, Some("1/2-1/2"));
        let g3 = game(3, "armageddon", 4, Some("1/2-1/2"));
        let m = rebuild(MatchFormat::NATIONAL, &p, &[&g1, &g2, &g3])
            .unwrap()
            .unwrap();
        assert_eq!(
            m.winner(),
            Some(Player::Second),
            "4 took red; black (5) wins the draw"
        );
    }

    #[test]
    fn the_winner_of_a_board() {
        assert_eq!(winner_of(&board(Some("1-0"))), Some(4));
        assert_eq!(winner_of(&board(Some("-+"))), Some(5));
        assert_eq!(winner_of(&board(Some("bye"))), Some(4));
        assert_eq!(winner_of(&board(Some("--"))), None);
        assert_eq!(winner_of(&board(None)), None);
    }
}
