//! Knockout (淘汰制, CXA 11.1): matches between two players fed game by game,
//! brackets with seeds and byes (single elimination), the loss-count double
//! elimination, seed 000's event redrawn by cards every round, and seed
//! 001's office event (knockout into a final round robin of four).
//!
//! A match is a state machine: it is told each game's result and answers what
//! comes next — the next game with its colours, a colour choice, a lot, or
//! the winner. Colours: game 1 by lot (猜先, CXA 13.4), then they alternate
//! game by game (13.5: 第二局互换先后走), through the rapid play-off games too
//! (seed 001: 和棋加赛不再抽签，依次换先直至比赛结束). The deciding game is an
//! armageddon "draw = black wins" (和棋黑胜) whose colour is chosen by the
//! player who had no choice at the first lot (seed 001:
//! 应由第一次抽签中没机会选择先后手的一方选择先后手).

use thiserror::Error;

use crate::roundrobin::{berger_table, Board, Cycles};

/// The two players of a match: the first-listed (higher seed / upper line of
/// the bracket) and the second-listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// A game's result as the scoresheet says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

/// Which part of a match a game belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The match proper (one game, two games, best of three …).
    Regular,
    /// Play-off games after a tied match (加赛, usually rapid).
    Playoff,
    /// The last game: a draw counts as a win for black (和棋黑胜).
    Armageddon,
}

/// How a match is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchFormat {
    /// Games of the match proper: 1 (一局制), 2 (两局制, colours swap) or 3
    /// (三局两胜). Scored 1/½/0; the match stops as soon as the leader cannot
    /// be caught.
    pub games: u32,
    /// Play-off games after a tie, scored the same way as one block.
    pub playoff_games: u32,
    /// Whether a tie after the play-off goes to an armageddon game; if not,
    /// it is decided by lot (抽签, as seed 001's office event allows).
    pub armageddon: bool,
    /// 0: the match is `games` games. N > 0: a race — the match goes on
    /// until a player has won N games, draws counting for no one, colours
    /// alternating from the lot's; no play-off, no armageddon (seed 001's
    /// women's gomoku: 以后每盘棋交替执黑，先赢满3盘的选手胜出).
    pub first_to: u32,
}

impl MatchFormat {
    /// Seed 001's national event (男子甲组): one game; a draw is followed by
    /// one rapid game, then an armageddon game.
    pub const NATIONAL: MatchFormat = MatchFormat {
        games: 1,
        playoff_games: 1,
        armageddon: true,
        first_to: 0,
    };
    /// One game; a tie gets one more game, then a lot (seed 001's office
    /// event: 若出现平局现象双方选择加赛一局或以抽签方式分出胜负).
    pub const ONE_GAME: MatchFormat = MatchFormat {
        games: 1,
        playoff_games: 1,
        armageddon: false,
        first_to: 0,
    };
    /// Best of three (三局两胜), then one more game, then a lot.
    pub const BEST_OF_THREE: MatchFormat = MatchFormat {
        games: 3,
        playoff_games: 1,
        armageddon: false,
        first_to: 0,
    };
    /// First to 3 wins, colours alternating (seed 001's women's gomoku:
    /// 先赢满3盘的选手胜出; the first black by lot, 猜子).
    pub const FIRST_TO_THREE: MatchFormat = MatchFormat {
        games: 1,
        playoff_games: 0,
        armageddon: false,
        first_to: 3,
    };
    /// Two games with colours swapped (CXA 13.5), rapid pair, armageddon.
    pub const TWO_GAMES: MatchFormat = MatchFormat {
        games: 2,
        playoff_games: 2,
        armageddon: true,
        first_to: 0,
    };
}

/// What a match needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Play game `number` (1-based over the whole match) with `white`
    /// (red) for the given player.
    Game {
        number: u32,
        phase: Phase,
        white: Player,
    },
    /// Before the armageddon game, `chooser` picks a colour.
    ChooseColour {
        chooser: Player,
    },
    /// The tie stands and no more games are planned: decide by lot.
    DrawLots,
    Winner(Player),
}

/// A request the match cannot take in its current state.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KnockoutError {
    #[error("match {match_no}: no game is due (the match needs {next:?})")]
    NoGameDue { match_no: u32, next: Next },
    #[error("match {match_no}: no colour choice is due (the match needs {next:?})")]
    NoChoiceDue { match_no: u32, next: Next },
    #[error("match {match_no}: {by:?} may not choose the colour; {chooser:?} chooses")]
    WrongChooser {
        match_no: u32,
        by: Player,
        chooser: Player,
    },
    #[error("match {match_no}: no lot is due (the match needs {next:?})")]
    NoLotDue { match_no: u32, next: Next },
    #[error("a match needs at least one game")]
    NoGames,
    #[error("a knockout needs at least 2 players, not {players}")]
    TooFewPlayers { players: usize },
    #[error("round {round}: player {player} has no match in this round")]
    NoMatch { round: u32, player: u32 },
    #[error("round {round}: match {player} v {opponent} is already decided")]
    AlreadyDecided { round: u32, player: u32, opponent: u32 },
    #[error("round {round} is not finished: {open} match(es) have no winner")]
    RoundOpen { round: u32, open: usize },
    #[error("the knockout is over; no round {round}")]
    Finished { round: u32 },
    #[error("{players} players drew {cards} cards")]
    CardCount { players: usize, cards: usize },
    #[error("card {card} was drawn but is not in the deck for {players} players (or was drawn twice)")]
    BadCard { card: String, players: usize },
}

/// One game as played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayedGame {
    pub phase: Phase,
    pub white: Player,
    pub result: GameResult,
}

/// A knockout match between two players, fed game by game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// A number for error messages (the board or bracket line).
    pub number: u32,
    format: MatchFormat,
    first_white: Player,
    lot_chooser: Player,
    games: Vec<PlayedGame>,
    armageddon_white: Option<Player>,
    lot_winner: Option<Player>,
}

impl Match {
    /// A match whose first game has `first_white` with white (red), the
    /// colours drawn by lot; `lot_chooser` is the player who had the choice
    /// at that lot (the other chooses the armageddon colour).
    pub fn new(
        number: u32,
        format: MatchFormat,
        first_white: Player,
        lot_chooser: Player,
    ) -> Result<Match, KnockoutError> {
        if format.games == 0 {
            return Err(KnockoutError::NoGames);
        }
        Ok(Match {
            number,
            format,
            first_white,
            lot_chooser,
            games: Vec::new(),
            armageddon_white: None,
            lot_winner: None,
        })
    }

    pub fn games(&self) -> &[PlayedGame] {
        &self.games
    }

    /// Points in half-points (first, second) over the games of `phase`.
    fn halves(&self, phase: Phase) -> (u32, u32) {
        let mut s = (0, 0);
        for g in self.games.iter().filter(|g| g.phase == phase) {
            let (w, b) = match (g.result, g.phase) {
                (GameResult::WhiteWins, _) => (2, 0),
                (GameResult::BlackWins, _) | (GameResult::Draw, Phase::Armageddon) => (0, 2),
                (GameResult::Draw, _) => (1, 1),
            };
            if g.white == Player::First {
                s = (s.0 + w, s.1 + b);
            } else {
                s = (s.0 + b, s.1 + w);
            }
        }
        s
    }

    /// The score of the match proper, in points ×2 (first, second).
    pub fn score_halves(&self) -> (u32, u32) {
        self.halves(Phase::Regular)
    }

    /// The outcome of a block of `planned` games: a winner once the leader
    /// cannot be caught, a tie after all of them, or more play needed.
    fn block(&self, phase: Phase, planned: u32) -> Option<Option<Player>> {
        let played = self.games.iter().filter(|g| g.phase == phase).count() as u32;
        let (a, b) = self.halves(phase);
        let left = 2 * (planned - played);
        if a > b + left {
            Some(Some(Player::First))
        } else if b > a + left {
            Some(Some(Player::Second))
        } else if played == planned {
            Some(None)
        } else {
            None
        }
    }

    /// White in the next game when colours simply alternate.
    fn alternating_white(&self) -> Player {
        if self.games.len().is_multiple_of(2) {
            self.first_white
        } else {
            self.first_white.other()
        }
    }

    /// Games won (first, second), draws counting for no one.
    pub fn wins(&self) -> (u32, u32) {
        let mut w = (0, 0);
        for g in &self.games {
            let winner = match g.result {
                GameResult::WhiteWins => g.white,
                GameResult::BlackWins => g.white.other(),
                GameResult::Draw => continue,
            };
            if winner == Player::First {
                w.0 += 1;
            } else {
                w.1 += 1;
            }
        }
        w
    }

    /// What the match needs now.
    pub fn next(&self) -> Next {
        let number = self.games.len() as u32 + 1;
        if self.format.first_to > 0 {
            let (a, b) = self.wins();
            return if a >= self.format.first_to {
                Next::Winner(Player::First)
            } else if b >= self.format.first_to {
                Next::Winner(Player::Second)
            } else {
                Next::Game {
                    number,
                    phase: Phase::Regular,
                    white: self.alternating_white(),
                }
            };
        }
        match self.block(Phase::Regular, self.format.games) {
            None => {
                return Next::Game {
                    number,
                    phase: Phase::Regular,
                    white: self.alternating_white(),
                }
            }
            Some(Some(p)) => return Next::Winner(p),
            Some(None) => {}
        }
        if self.format.playoff_games > 0 {
            match self.block(Phase::Playoff, self.format.playoff_games) {
                None => {
                    return Next::Game {
                        number,
                        phase: Phase::Playoff,
                        white: self.alternating_white(),
                    }
                }
                Some(Some(p)) => return Next::Winner(p),
                Some(None) => {}
            }
        }
        if self.format.armageddon {
            if let Some(g) = self.games.iter().find(|g| g.phase == Phase::Armageddon) {
                let winner = match g.result {
                    GameResult::WhiteWins => g.white,
                    GameResult::Draw | GameResult::BlackWins => g.white.other(),
                };
                return Next::Winner(winner);
            }
            return match self.armageddon_white {
                None => Next::ChooseColour {
                    chooser: self.lot_chooser.other(),
                },
                Some(white) => Next::Game {
                    number,
                    phase: Phase::Armageddon,
                    white,
                },
            };
        }
        match self.lot_winner {
            Some(p) => Next::Winner(p),
            None => Next::DrawLots,
        }
    }

    /// Record the result of the game that is due.
    pub fn record(&mut self, result: GameResult) -> Result<Next, KnockoutError> {
        match self.next() {
            Next::Game { phase, white, .. } => {
                self.games.push(PlayedGame { phase, white, result });
                Ok(self.next())
            }
            next => Err(KnockoutError::NoGameDue {
                match_no: self.number,
                next,
            }),
        }
    }

    /// The armageddon colour choice: `by` takes white (`true`) or black.
    pub fn choose_colour(&mut self, by: Player, white: bool) -> Result<Next, KnockoutError> {
        match self.next() {
            Next::ChooseColour { chooser } if chooser == by => {
                self.armageddon_white = Some(if white { by } else { by.other() });
                Ok(self.next())
            }
            Next::ChooseColour { chooser } => Err(KnockoutError::WrongChooser {
                match_no: self.number,
                by,
                chooser,
            }),
            next => Err(KnockoutError::NoChoiceDue {
                match_no: self.number,
                next,
            }),
        }
    }

    /// The lot's winner when the match needs a lot.
    pub fn decide_by_lot(&mut self, winner: Player) -> Result<Next, KnockoutError> {
        match self.next() {
            Next::DrawLots => {
                self.lot_winner = Some(winner);
                Ok(self.next())
            }
            next => Err(KnockoutError::NoLotDue {
                match_no: self.number,
                next,
            }),
        }
    }

    pub fn winner(&self) -> Option<Player> {
        match self.next() {
            Next::Winner(p) => Some(p),
            _ => None,
        }
    }
}

/// The bracket lines of a single elimination for `players` seeds: the
/// smallest power of two that holds them, seeds placed so that 1 and 2 can
/// meet only in the final, 1–4 only in the semi-finals, and so on (the usual
/// seeding: line pairs are (1, 2^k), (2^k/2+1, 2^k/2) …), and byes (`None`)
/// given to the best seeds.
pub fn seeded_bracket(players: u32) -> Result<Vec<Line>, KnockoutError> {
    if players < 2 {
        return Err(KnockoutError::TooFewPlayers {
            players: players as usize,
        });
    }
    let size = players.next_power_of_two();
    let mut order = vec![1u32];
    while (order.len() as u32) < size {
        let n = order.len() as u32 * 2;
        order = order.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    Ok(order
        .chunks(2)
        .map(|pair| {
            let (a, b) = (pair[0], pair[1]);
            let seed = |s: u32| (s <= players).then_some(s);
            // The better seed always exists; the other may be a bye.
            (a.min(b), seed(a.max(b)))
        })
        .collect())
}

/// A bracket line: the player, the opponent (`None`: a bye).
pub type Line = (u32, Option<u32>);

/// One round of a double elimination: its games and its byes.
pub type DoubleRound = (Vec<(u32, u32)>, Vec<u32>);

/// One round dealt by cards: games (red, black) and the bye.
pub type Dealt<T> = (Vec<(T, T)>, Option<T>);

/// A single-elimination event on bracket lines: each round pairs the
/// winners of neighbouring matches of the round before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SingleElimination {
    /// Each round: its matches (player, opponent-or-bye) and their winners.
    rounds: Vec<Vec<(Line, Option<u32>)>>,
}

impl SingleElimination {
    /// Players numbered by seed 1..=players.
    pub fn seeded(players: u32) -> Result<SingleElimination, KnockoutError> {
        let first = seeded_bracket(players)?
            .into_iter()
            .map(|(a, b)| ((a, b), if b.is_none() { Some(a) } else { None }))
            .collect();
        Ok(SingleElimination { rounds: vec![first] })
    }

    pub fn round(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// The current round's matches (byes included as `(p, None)`).
    pub fn pairings(&self) -> Vec<Line> {
        self.rounds.last().unwrap().iter().map(|(m, _)| *m).collect()
    }

    /// The winner of `player`'s match in the current round. A bye's
    /// player is through already; reporting them again changes nothing
    /// (an event replaying its stored rounds reports every board, the
    /// byes too).
    pub fn report(&mut self, winner: u32) -> Result<(), KnockoutError> {
        let round = self.round();
        let m = self
            .rounds
            .last_mut()
            .unwrap()
            .iter_mut()
            .find(|((a, b), _)| *a == winner || *b == Some(winner))
            .ok_or(KnockoutError::NoMatch {
                round,
                player: winner,
            })?;
        if (m.0).1.is_none() && m.1 == Some(winner) {
            return Ok(());
        }
        if m.1.is_some() {
            return Err(KnockoutError::AlreadyDecided {
                round,
                player: (m.0).0,
                opponent: (m.0).1.unwrap_or(0),
            });
        }
        m.1 = Some(winner);
        Ok(())
    }

    /// Close the round and pair the next; `Ok(Some(champion))` after the final.
    pub fn advance(&mut self) -> Result<Option<u32>, KnockoutError> {
        let round = self.round();
        let current = self.rounds.last().unwrap();
        let open = current.iter().filter(|(_, w)| w.is_none()).count();
        if open > 0 {
            return Err(KnockoutError::RoundOpen { round, open });
        }
        let winners: Vec<u32> = current.iter().map(|(_, w)| w.unwrap()).collect();
        if winners.len() == 1 {
            return Ok(Some(winners[0]));
        }
        let next = winners.chunks(2).map(|p| ((p[0], Some(p[1])), None)).collect();
        self.rounds.push(next);
        Ok(None)
    }
}

/// Double elimination (双败淘汰) by loss count: a player is out after a
/// second lost match. Each round pairs the unbeaten among themselves and the
/// once-beaten among themselves, best seed against the worst it has not met
/// yet in each group (against the worst, if it has met them all), the
/// lowest-placed player of an odd group among those with the fewest byes
/// getting a bye (one per group); when one unbeaten and one once-beaten
/// player remain they meet in the grand final, replayed once if the
/// unbeaten player loses it (both then have one loss).
///
/// The bye goes round: a bye is a round won without play, and always
/// giving it to the group's lowest seed let a 5-player event's 5th seed
/// sit out rounds 1 and 2 and reach round 3 unbeaten without a game (as
/// FIDE C.04.1 c keeps a Swiss's bye from going to anyone twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoubleElimination {
    losses: Vec<u8>,
    byes: Vec<u8>,
    round: u32,
    open: Vec<(u32, u32)>,
    met: std::collections::BTreeSet<(u32, u32)>,
}

impl DoubleElimination {
    pub fn seeded(players: u32) -> Result<DoubleElimination, KnockoutError> {
        if players < 2 {
            return Err(KnockoutError::TooFewPlayers {
                players: players as usize,
            });
        }
        Ok(DoubleElimination {
            losses: vec![0; players as usize],
            byes: vec![0; players as usize],
            round: 0,
            open: Vec::new(),
            met: std::collections::BTreeSet::new(),
        })
    }

    /// Matches lost by `player` (`None`: no such player).
    pub fn losses(&self, player: u32) -> Option<u8> {
        self.losses.get((player as usize).checked_sub(1)?).copied()
    }

    /// The champion, once only one player has fewer than two losses.
    pub fn champion(&self) -> Option<u32> {
        let alive: Vec<u32> = (1..=self.losses.len() as u32)
            .filter(|&p| self.losses(p) < Some(2))
            .collect();
        (alive.len() == 1).then(|| alive[0])
    }

    /// The rounds paired so far.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Pair the next round: games and byes.
    pub fn pair_round(&mut self) -> Result<DoubleRound, KnockoutError> {
        if !self.open.is_empty() {
            return Err(KnockoutError::RoundOpen {
                round: self.round,
                open: self.open.len(),
            });
        }
        if self.champion().is_some() {
            return Err(KnockoutError::Finished {
                round: self.round + 1,
            });
        }
        self.round += 1;
        let group = |l: u8| -> Vec<u32> {
            (1..=self.losses.len() as u32)
                .filter(|&p| self.losses(p) == Some(l))
                .collect()
        };
        let (unbeaten, once) = (group(0), group(1));
        let mut games = Vec::new();
        let mut byes = Vec::new();
        if unbeaten.len() == 1 && once.len() == 1 {
            games.push((unbeaten[0], once[0]));
        } else {
            for mut g in [unbeaten, once] {
                if g.len() % 2 == 1 {
                    // The lowest-placed of those with the fewest byes.
                    let fewest = g.iter().map(|&p| self.byes[p as usize - 1]).min().unwrap_or(0);
                    let i = g
                        .iter()
                        .rposition(|&p| self.byes[p as usize - 1] == fewest)
                        .unwrap_or(g.len() - 1);
                    let bye = g.remove(i);
                    self.byes[bye as usize - 1] += 1;
                    byes.push(bye);
                }
                while !g.is_empty() {
                    let a = g.remove(0);
                    let j = (0..g.len())
                        .rev()
                        .find(|&j| !self.met.contains(&(a.min(g[j]), a.max(g[j]))))
                        .unwrap_or(g.len() - 1);
                    games.push((a, g.remove(j)));
                }
            }
        }
        self.open = games.clone();
        Ok((games, byes))
    }

    /// The winner of one of this round's games.
    pub fn report(&mut self, winner: u32) -> Result<(), KnockoutError> {
        let i = self
            .open
            .iter()
            .position(|&(a, b)| a == winner || b == winner)
            .ok_or(KnockoutError::NoMatch {
                round: self.round,
                player: winner,
            })?;
        let (a, b) = self.open.remove(i);
        self.met.insert((a.min(b), a.max(b)));
        let loser = if a == winner { b } else { a };
        self.losses[loser as usize - 1] += 1;
        Ok(())
    }
}

/// A playing card of seed 000's draw: a number card (red or black suit) or
/// the king that gives a bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Card {
    Number { number: u32, red: bool },
    King,
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Card::Number { number, red: true } => write!(f, "red {number}"),
            Card::Number { number, red: false } => write!(f, "black {number}"),
            Card::King => write!(f, "K"),
        }
    }
}

/// The deck for `players` players in seed 000's event: two sets of numbers
/// 1..players/2 (one red, one black) and, for an odd field, one king.
pub fn deck(players: usize) -> Vec<Card> {
    let mut d = Vec::with_capacity(players);
    for number in 1..=(players / 2) as u32 {
        d.push(Card::Number { number, red: true });
        d.push(Card::Number { number, red: false });
    }
    if players % 2 == 1 {
        d.push(Card::King);
    }
    d
}

/// One round of seed 000's knockout redrawn by cards: the players holding
/// the same number play each other, the red card's holder with red moving
/// first (抽到红色数字扑克牌者执红棋先走); the king's holder has the bye
/// (轮空) and goes through. `cards[i]` is the card `players[i]` drew; the
/// games come out in number order as (red, black).
pub fn deal<T: Clone>(players: &[T], cards: &[Card]) -> Result<Dealt<T>, KnockoutError> {
    if players.len() != cards.len() {
        return Err(KnockoutError::CardCount {
            players: players.len(),
            cards: cards.len(),
        });
    }
    let mut left = deck(players.len());
    for c in cards {
        let i = left.iter().position(|d| d == c).ok_or(KnockoutError::BadCard {
            card: c.to_string(),
            players: players.len(),
        })?;
        left.swap_remove(i);
    }
    let holder = |card: Card| players[cards.iter().position(|&c| c == card).unwrap()].clone();
    let games = (1..=(players.len() / 2) as u32)
        .map(|number| {
            (
                holder(Card::Number { number, red: true }),
                holder(Card::Number { number, red: false }),
            )
        })
        .collect();
    let bye = (players.len() % 2 == 1).then(|| holder(Card::King));
    Ok((games, bye))
}

/// Seed 001's office event (棋牌比赛活动方案) as a template: knockout rounds
/// down to four players — the first round one game, later rounds best of
/// three (第一轮淘汰赛采用一局一胜制；第二轮淘汰赛起采用三局两胜制), byes in
/// the first round to bring the field to 4·2^k — then the final four (四强赛)
/// play a round robin scored 3/1/0 (胜者记3分，和者记1分，负者记0分).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfficeEvent {
    /// Match format of each knockout round, first round first.
    pub knockout_rounds: Vec<MatchFormat>,
    /// Byes in the first knockout round.
    pub byes: u32,
    /// The final round robin of four (Berger table).
    pub final_table: Vec<Vec<Board>>,
    /// Points for a win, a draw and a loss in the final, in tenths.
    pub final_points: (u32, u32, u32),
}

impl OfficeEvent {
    pub fn plan(players: u32) -> Result<OfficeEvent, KnockoutError> {
        if players < 4 {
            return Err(KnockoutError::TooFewPlayers {
                players: players as usize,
            });
        }
        let mut knockout_rounds = Vec::new();
        let mut byes = 0;
        if players > 4 {
            // The field after round 1 is the largest 4·2^k below `players`.
            let mut after = 4;
            while after * 2 < players {
                after *= 2;
            }
            let games = players - after;
            byes = players - 2 * games;
            knockout_rounds.push(MatchFormat::ONE_GAME);
            while after > 4 {
                knockout_rounds.push(MatchFormat::BEST_OF_THREE);
                after /= 2;
            }
        }
        Ok(OfficeEvent {
            knockout_rounds,
            byes,
            final_table: berger_table(4, Cycles::Single).expect("four players"),
            final_points: (30, 10, 0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::*;
    use Player::*;

    #[test]
    fn first_to_three_wins_alternating_colours_draws_not_counting() {
        // Second won the lot (猜子) and took the first black: in gomoku the
        // first side is black, so Second is `white` (the first side) first.
        let mut m = Match::new(1, MatchFormat::FIRST_TO_THREE, Second, Second).unwrap();
        let mut firsts = Vec::new();
        // First wins 2, a draw, Second wins 3: the match is Second's after
        // game 6, colours alternating through the draw.
        for (i, winner) in [
            Some(First),
            Some(First),
            None,
            Some(Second),
            Some(Second),
            Some(Second),
        ]
        .into_iter()
        .enumerate()
        {
            let Next::Game { number, phase, white } = m.next() else {
                panic!("game {} is due: {:?}", i + 1, m.next())
            };
            assert_eq!((number, phase), (i as u32 + 1, Phase::Regular));
            firsts.push(white);
            let result = match winner {
                None => Draw,
                Some(w) if w == white => WhiteWins,
                Some(_) => BlackWins,
            };
            m.record(result).unwrap();
        }
        assert_eq!(firsts, vec![Second, First, Second, First, Second, First]);
        assert_eq!(m.wins(), (2, 3));
        assert_eq!(m.next(), Next::Winner(Second));
        assert!(m.record(WhiteWins).is_err(), "nothing is due after the winner");
        // Three straight wins end it at once.
        let mut m = Match::new(2, MatchFormat::FIRST_TO_THREE, First, First).unwrap();
        for _ in 0..2 {
            let Next::Game { white, .. } = m.next() else {
                panic!()
            };
            m.record(if white == First { WhiteWins } else { BlackWins })
                .unwrap();
        }
        assert_eq!(
            m.next(),
            Next::Game {
                number: 3,
                phase: Phase::Regular,
                white: First
            }
        );
        assert_eq!(m.record(WhiteWins).unwrap(), Next::Winner(First));
    }

    #[test]
    fn national_event_draw_rapid_draw_then_armageddon_chosen_by_the_other() {
        // Second won the lot and chose black: First has white in game 1.
        let mut m = Match::new(1, MatchFormat::NATIONAL, First, Second).unwrap();
        assert_eq!(
            m.next(),
            Next::Game {
                number: 1,
                phase: Phase::Regular,
                white: First
            }
        );
        // Colours alternate into the rapid game without a new lot.
        assert_eq!(
            m.record(Draw).unwrap(),
            Next::Game {
                number: 2,
                phase: Phase::Playoff,
                white: Second
            }
        );
        assert_eq!(m.record(Draw).unwrap(), Next::ChooseColour { chooser: First });
        assert!(matches!(
            m.choose_colour(Second, true),
            Err(KnockoutError::WrongChooser { .. })
        ));
        // First takes black: a draw wins for black.
        assert_eq!(
            m.choose_colour(First, false).unwrap(),
            Next::Game {
                number: 3,
                phase: Phase::Armageddon,
                white: Second
            }
        );
        assert_eq!(m.record(Draw).unwrap(), Next::Winner(First));
        assert!(matches!(m.record(Draw), Err(KnockoutError::NoGameDue { .. })));
    }

    #[test]
    fn best_of_three_stops_when_decided_and_two_games_swap_colours() {
        let mut m = Match::new(2, MatchFormat::BEST_OF_THREE, Second, First).unwrap();
        m.record(BlackWins).unwrap(); // First (black) wins
        assert_eq!(m.record(WhiteWins).unwrap(), Next::Winner(First)); // First white
        let mut m = Match::new(3, MatchFormat::BEST_OF_THREE, First, First).unwrap();
        m.record(WhiteWins).unwrap();
        m.record(Draw).unwrap();
        // 1.5–0.5 with one game left: Second can still level.
        assert!(matches!(m.next(), Next::Game { number: 3, .. }));
        m.record(Draw).unwrap();
        assert_eq!(m.winner(), Some(First));
        let mut m = Match::new(4, MatchFormat::TWO_GAMES, First, First).unwrap();
        m.record(WhiteWins).unwrap();
        assert_eq!(
            m.next(),
            Next::Game {
                number: 2,
                phase: Phase::Regular,
                white: Second
            }
        );
        m.record(WhiteWins).unwrap();
        assert!(matches!(
            m.next(),
            Next::Game {
                phase: Phase::Playoff,
                ..
            }
        ));
    }

    #[test]
    fn a_tie_without_armageddon_goes_to_a_lot() {
        let mut m = Match::new(5, MatchFormat::ONE_GAME, First, First).unwrap();
        m.record(Draw).unwrap();
        assert_eq!(m.record(Draw).unwrap(), Next::DrawLots);
        assert_eq!(m.decide_by_lot(Second).unwrap(), Next::Winner(Second));
    }

    /// The replay of a stored round reports the bye too (an event of
    /// three could not pair its final before: "match 1 v 0 is already
    /// decided").
    #[test]
    fn reporting_a_bye_again_changes_nothing() {
        let mut ko = SingleElimination::seeded(3).unwrap();
        assert_eq!(ko.pairings(), vec![(1, None), (2, Some(3))]);
        ko.report(1).unwrap();
        ko.report(3).unwrap();
        assert!(matches!(ko.report(2), Err(KnockoutError::AlreadyDecided { .. })));
        assert_eq!(ko.advance().unwrap(), None);
        assert_eq!(ko.pairings(), vec![(1, Some(3))]);
    }

    #[test]
    fn brackets_place_seeds_and_give_byes_to_the_best() {
        assert_eq!(
            seeded_bracket(8).unwrap(),
            vec![(1, Some(8)), (4, Some(5)), (2, Some(7)), (3, Some(6))]
        );
        assert_eq!(
            seeded_bracket(6).unwrap(),
            vec![(1, None), (4, Some(5)), (2, None), (3, Some(6))]
        );
        let mut ko = SingleElimination::seeded(6).unwrap();
        assert!(matches!(
            ko.advance(),
            Err(KnockoutError::RoundOpen { open: 2, .. })
        ));
        ko.report(5).unwrap();
        ko.report(3).unwrap();
        assert!(matches!(ko.report(6), Err(KnockoutError::AlreadyDecided { .. })));
        assert_eq!(ko.advance().unwrap(), None);
        assert_eq!(ko.pairings(), vec![(1, Some(5)), (2, Some(3))]);
        ko.report(1).unwrap();
        ko.report(3).unwrap();
        ko.advance().unwrap();
        assert_eq!(ko.pairings(), vec![(1, Some(3))]);
        ko.report(3).unwrap();
        assert_eq!(ko.advance().unwrap(), Some(3));
    }

    #[test]
    fn double_elimination_needs_two_losses() {
        let mut de = DoubleElimination::seeded(4).unwrap();
        let (games, byes) = de.pair_round().unwrap();
        assert_eq!((games, byes), (vec![(1, 4), (2, 3)], vec![]));
        de.report(1).unwrap();
        de.report(3).unwrap();
        let (games, _) = de.pair_round().unwrap();
        assert_eq!(games, vec![(1, 3), (2, 4)]);
        de.report(3).unwrap();
        de.report(2).unwrap(); // 4 is out
        let (games, byes) = de.pair_round().unwrap();
        assert_eq!((games.clone(), byes), (vec![(1, 2)], vec![3]));
        de.report(1).unwrap(); // 2 is out
        let (games, _) = de.pair_round().unwrap();
        assert_eq!(games, vec![(3, 1)]); // grand final
        de.report(1).unwrap(); // 3 had no loss yet: both on one loss
        let (games, _) = de.pair_round().unwrap();
        assert_eq!(games, vec![(1, 3)]);
        de.report(1).unwrap();
        assert_eq!(de.champion(), Some(1));
        assert_eq!(
            (de.losses(1), de.losses(3), de.losses(0), de.losses(5)),
            (Some(1), Some(2), None, None)
        );
        assert!(matches!(de.pair_round(), Err(KnockoutError::Finished { .. })));
    }

    #[test]
    fn double_elimination_avoids_rematches_where_it_can() {
        let mut de = DoubleElimination::seeded(8).unwrap();
        let (games, _) = de.pair_round().unwrap();
        assert_eq!(games, vec![(1, 8), (2, 7), (3, 6), (4, 5)]);
        for w in [1, 2, 3, 4] {
            de.report(w).unwrap();
        }
        let (games, _) = de.pair_round().unwrap();
        assert_eq!(games, vec![(1, 4), (2, 3), (5, 8), (6, 7)]);
        for w in [1, 2, 5, 6] {
            de.report(w).unwrap();
        }
        // Once beaten: 3, 4, 5, 6. Best against worst would repeat 3–6 and
        // 4–5 of round 1.
        let (games, _) = de.pair_round().unwrap();
        assert_eq!(games, vec![(1, 2), (3, 5), (4, 6)]);
    }

    /// Five players: the 5th seed has the round 1 bye and is unbeaten in
    /// round 2, where the unbeaten are odd again; the bye goes to the
    /// lowest seed who has not had one (it went to 5 again before).
    #[test]
    fn double_elimination_gives_nobody_a_second_bye_while_others_have_none() {
        let mut de = DoubleElimination::seeded(5).unwrap();
        let (games, byes) = de.pair_round().unwrap();
        assert_eq!((games, byes), (vec![(1, 4), (2, 3)], vec![5]));
        de.report(1).unwrap();
        de.report(2).unwrap();
        let (games, byes) = de.pair_round().unwrap();
        // Unbeaten 1, 2, 5: 5 had the bye, so 2 sits out; the once
        // beaten 3 and 4 play.
        assert_eq!((games, byes), (vec![(1, 5), (3, 4)], vec![2]));
        de.report(5).unwrap();
        de.report(3).unwrap(); // 4 is out
        let (games, byes) = de.pair_round().unwrap();
        // Unbeaten 2, 5; once beaten 1, 3.
        assert_eq!((games, byes), (vec![(2, 5), (1, 3)], vec![]));
        assert_eq!(de.round(), 3);
    }

    #[test]
    fn office_event_plan() {
        let plan = OfficeEvent::plan(16).unwrap();
        assert_eq!(
            plan.knockout_rounds,
            vec![MatchFormat::ONE_GAME, MatchFormat::BEST_OF_THREE]
        );
        assert_eq!(plan.byes, 0);
        let plan = OfficeEvent::plan(11).unwrap();
        // 11 → 8 needs 3 games (6 players) and 5 byes; then 8 → 4.
        assert_eq!(plan.byes, 5);
        assert_eq!(plan.knockout_rounds.len(), 2);
        assert_eq!(plan.final_table.len(), 3);
        assert_eq!(plan.final_points, (30, 10, 0));
    }
}
