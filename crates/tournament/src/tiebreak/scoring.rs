//! Entering results and withdrawals on the tournament model.
//!
//! Points systems are the model's [`PointSystem`]:
//! 1/½/0 (CXA 14.1, the default), 2/1/0 and 3/1/0 (seed 001's office event).
//! A forfeit (21.4: `+` a win without play, `-` a loss without play) is
//! worth a win for an individual; a team's forfeit match is worth 2 match
//! points (see [`team`](crate::team)).
//!
//! A player expelled (除名, CXA 18.3) is handled as one who withdrew
//! (对除名者按退出处理): [`withdraw_round_robin`] or [`withdraw_swiss`].

use thiserror::Error;

use crate::model::{Colour, Outcome, PlayerId, PointSystem, Points, RoundEntry, Tournament};
use crate::roundrobin::Board;

/// A result or withdrawal the crosstable cannot take.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScoringError {
    #[error("there is no player {player}")]
    NoSuchPlayer { player: PlayerId },
    #[error("round {round}: player {player} has no game (not paired against anyone)")]
    NoSuchGame { player: PlayerId, round: u32 },
    #[error("round {round}: player {player} does not play {opponent}")]
    WrongOpponent {
        player: PlayerId,
        opponent: PlayerId,
        round: u32,
    },
    #[error("round {round}: {outcome:?} is not the result of a game (player {player})")]
    NotAGameResult {
        player: PlayerId,
        round: u32,
        outcome: Outcome,
    },
    #[error("round 0 does not exist")]
    RoundZero,
}

/// The 2/1/0 system some events use.
pub fn two_one_zero() -> PointSystem {
    PointSystem::with(Points::whole(2), Points::whole(1), Points::ZERO)
}

/// Record the result of the game `player` v `opponent` in `round` as
/// `player` scored it (win, draw, loss, or a forfeit `+`/`-`); the
/// opponent gets the mirrored result. The game must be on the pairing.
pub fn set_result(
    t: &mut Tournament,
    round: u32,
    player: PlayerId,
    opponent: PlayerId,
    outcome: Outcome,
) -> Result<(), ScoringError> {
    if round == 0 {
        return Err(ScoringError::RoundZero);
    }
    let mirrored = outcome.mirrored().ok_or(ScoringError::NotAGameResult {
        player,
        round,
        outcome,
    })?;
    for (a, b) in [(player, opponent), (opponent, player)] {
        let p = t.player(a).ok_or(ScoringError::NoSuchPlayer { player: a })?;
        match p.round(round).opponent {
            None => return Err(ScoringError::NoSuchGame { player: a, round }),
            Some(o) if o != b => {
                return Err(ScoringError::WrongOpponent {
                    player: a,
                    opponent: b,
                    round,
                })
            }
            Some(_) => {}
        }
    }
    for (a, o) in [(player, outcome), (opponent, mirrored)] {
        let p = t.players.iter_mut().find(|p| p.id == a).unwrap();
        p.rounds[round as usize - 1].outcome = o;
    }
    Ok(())
}

fn player_mut(t: &mut Tournament, id: PlayerId) -> Result<&mut crate::model::Player, ScoringError> {
    t.players
        .iter_mut()
        .find(|p| p.id == id)
        .ok_or(ScoringError::NoSuchPlayer { player: id })
}

fn set(t: &mut Tournament, id: PlayerId, round: u32, e: RoundEntry) {
    if let Some(p) = t.players.iter_mut().find(|p| p.id == id) {
        while p.rounds.len() < round as usize {
            p.rounds.push(RoundEntry::ABSENT);
        }
        p.rounds[round as usize - 1] = e;
    }
}

/// What a round-robin withdrawal did (CXA 20.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Withdrawal {
    /// Fewer than half of the player's games were played: every result of
    /// the player is annulled, for the opponents too (所有已赛结果一概注销).
    Annulled,
    /// Half or more were played: the results stand and the games left are
    /// forfeits won by the opponents (其余未赛对局均作弃权对方获胜).
    Forfeited,
}

/// CXA 20.3's first case (所有已赛结果一概注销): every result of `player`
/// is struck out — each round of theirs blank, and each opponent's game
/// against them too (no points, no game). A player of a team whose
/// results 20.3 annuls is struck out so as well.
pub fn annul(t: &mut Tournament, player: PlayerId) -> Result<(), ScoringError> {
    let p = t
        .player(player)
        .ok_or(ScoringError::NoSuchPlayer { player })?
        .clone();
    for (i, e) in p.rounds.iter().enumerate() {
        let r = i as u32 + 1;
        if let Some(opp) = e.opponent {
            if t.player(opp).is_some_and(|o| o.round(r).opponent == Some(player)) {
                set(t, opp, r, RoundEntry::ABSENT);
            }
        }
    }
    player_mut(t, player)?
        .rounds
        .iter_mut()
        .for_each(|e| *e = RoundEntry::ABSENT);
    Ok(())
}

/// A player leaves a round robin after the rounds played so far; the rest
/// of the event follows `schedule` (the Berger table the event uses, in
/// playing order). CXA 20.3: with fewer than half of their scheduled games
/// played over the board (forfeits are not games played),
/// all their results are annulled (each opponent's game against them is
/// struck out: no points, no game); otherwise their results stand and each
/// game left is a forfeit (`-` for them, `+` for the opponent, colours as
/// scheduled).
pub fn withdraw_round_robin(
    t: &mut Tournament,
    player: PlayerId,
    schedule: &[Vec<Board>],
) -> Result<Withdrawal, ScoringError> {
    let p = t
        .player(player)
        .ok_or(ScoringError::NoSuchPlayer { player })?
        .clone();
    let scheduled: Vec<(u32, PlayerId, Colour)> = schedule
        .iter()
        .enumerate()
        .filter_map(|(r, round)| {
            round.iter().find_map(|b| match *b {
                Board::Game { white, black } if white == player => Some((r as u32 + 1, black, Colour::White)),
                Board::Game { white, black } if black == player => Some((r as u32 + 1, white, Colour::Black)),
                _ => None,
            })
        })
        .collect();
    // 已赛对手: games played over the board; a forfeit is no game played.
    let played = scheduled
        .iter()
        .filter(|(r, _, _)| p.round(*r).outcome.is_played())
        .count();
    if played * 2 < scheduled.len() {
        annul(t, player)?;
        return Ok(Withdrawal::Annulled);
    }
    for &(r, opp, colour) in &scheduled {
        if p.round(r).outcome.needs_opponent() {
            continue;
        }
        set(
            t,
            player,
            r,
            RoundEntry {
                opponent: Some(opp),
                colour: Some(colour),
                outcome: Outcome::ForfeitLoss,
            },
        );
        set(
            t,
            opp,
            r,
            RoundEntry {
                opponent: Some(player),
                colour: Some(colour.opposite()),
                outcome: Outcome::ForfeitWin,
            },
        );
    }
    Ok(Withdrawal::Forfeited)
}

/// A player leaves a Swiss event from round `from` on (CXA 20.4): every
/// result so far stands; a game already paired in a round from `from` on
/// and not played is a forfeit won by the opponent; later rounds the player
/// is not paired (absent, no points).
pub fn withdraw_swiss(t: &mut Tournament, player: PlayerId, from: u32) -> Result<(), ScoringError> {
    if from == 0 {
        return Err(ScoringError::RoundZero);
    }
    let p = t
        .player(player)
        .ok_or(ScoringError::NoSuchPlayer { player })?
        .clone();
    let last = t.rounds_written().max(from);
    for r in from..=last {
        let e = p.round(r);
        match e.opponent {
            Some(opp) if !e.outcome.is_played() => {
                set(
                    t,
                    player,
                    r,
                    RoundEntry {
                        outcome: Outcome::ForfeitLoss,
                        ..e
                    },
                );
                set(
                    t,
                    opp,
                    r,
                    RoundEntry {
                        opponent: Some(player),
                        colour: e.colour.map(Colour::opposite),
                        outcome: Outcome::ForfeitWin,
                    },
                );
            }
            Some(_) => {}
            None if r as usize <= p.rounds.len() => set(t, player, r, RoundEntry::ABSENT),
            None => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Player;
    use crate::roundrobin::{berger_table, Cycles};

    /// A round robin of `n` players with rounds 1..=played filled from the
    /// Berger table, white winning every game.
    fn round_robin(n: u32, played: u32) -> (Tournament, Vec<Vec<Board>>) {
        let schedule = berger_table(n, Cycles::Single).unwrap();
        let mut t = Tournament {
            players: (1..=n).map(|i| Player::new(i, &format!("P{i}"), 0)).collect(),
            total_rounds: Some(schedule.len() as u32),
            ..Tournament::default()
        };
        for (r, round) in schedule.iter().enumerate().take(played as usize) {
            for b in round {
                match *b {
                    Board::Game { white, black } => {
                        set(
                            &mut t,
                            white,
                            r as u32 + 1,
                            RoundEntry {
                                opponent: Some(black),
                                colour: Some(Colour::White),
                                outcome: Outcome::Win,
                            },
                        );
                        set(
                            &mut t,
                            black,
                            r as u32 + 1,
                            RoundEntry {
                                opponent: Some(white),
                                colour: Some(Colour::Black),
                                outcome: Outcome::Loss,
                            },
                        );
                    }
                    Board::Bye { player } => set(&mut t, player, r as u32 + 1, RoundEntry::ABSENT),
                }
            }
        }
        (t, schedule)
    }

    #[test]
    fn points_systems() {
        let (mut t, _) = round_robin(4, 3);
        // White wins every game. Round 1: 1-4, 2-3; round 2: 4-3, 1-2;
        // round 3: 2-4, 3-1 — player 1 wins twice and loses to 3.
        assert_eq!(t.score_after(1, 3), Points::whole(2));
        t.points = two_one_zero();
        assert_eq!(t.score_after(1, 3), Points::whole(4));
        t.points = PointSystem::three_one_zero();
        assert_eq!(t.score_after(1, 3), Points::whole(6));
        set_result(&mut t, 3, 1, 3, Outcome::Draw).unwrap();
        assert_eq!(t.score_after(1, 3), Points::whole(7));
        // 21.4: a forfeit `+` is worth a win to a player.
        set_result(&mut t, 3, 1, 3, Outcome::ForfeitWin).unwrap();
        assert_eq!(t.score_after(1, 3), Points::whole(9));
        // 3 lost rounds 1 and 2 and now the forfeit: nothing.
        assert_eq!(t.score_after(3, 3), Points::ZERO);
    }

    #[test]
    fn results_only_for_games_on_the_pairing() {
        let (mut t, _) = round_robin(4, 1);
        // Round 1: 1-4, 2-3.
        set_result(&mut t, 1, 4, 1, Outcome::Draw).unwrap();
        assert_eq!(t.player(1).unwrap().round(1).outcome, Outcome::Draw);
        assert_eq!(
            set_result(&mut t, 1, 1, 2, Outcome::Win),
            Err(ScoringError::WrongOpponent {
                player: 1,
                opponent: 2,
                round: 1
            })
        );
        assert_eq!(
            set_result(&mut t, 2, 1, 2, Outcome::Win),
            Err(ScoringError::NoSuchGame { player: 1, round: 2 })
        );
        assert_eq!(
            set_result(&mut t, 1, 9, 2, Outcome::Win),
            Err(ScoringError::NoSuchPlayer { player: 9 })
        );
        assert!(matches!(
            set_result(&mut t, 1, 1, 4, Outcome::HalfBye),
            Err(ScoringError::NotAGameResult { .. })
        ));
    }

    #[test]
    fn round_robin_withdrawal_under_half_annuls_everything() {
        // 6 players, 5 games each; player 1 leaves after 2 rounds (2 < 2.5).
        let (mut t, schedule) = round_robin(6, 2);
        assert_eq!(
            withdraw_round_robin(&mut t, 1, &schedule).unwrap(),
            Withdrawal::Annulled
        );
        // Round 1 was 1-6: player 6's loss is struck out.
        assert_eq!(t.player(6).unwrap().round(1), RoundEntry::ABSENT);
        assert!(t
            .player(1)
            .unwrap()
            .rounds
            .iter()
            .all(|e| *e == RoundEntry::ABSENT));
        assert_eq!(t.score_after(1, 5), Points::ZERO);
        // Round 2: 6-4 stands.
        assert_eq!(t.player(6).unwrap().round(2).outcome, Outcome::Win);
    }

    #[test]
    fn a_forfeit_is_not_a_game_played_for_20_3() {
        // Player 1 played rounds 1–2 and lost round 3 (3-1) by forfeit:
        // two games played of five, so everything is annulled.
        let (mut t, schedule) = round_robin(6, 3);
        set_result(&mut t, 3, 1, 3, Outcome::ForfeitLoss).unwrap();
        assert_eq!(
            withdraw_round_robin(&mut t, 1, &schedule).unwrap(),
            Withdrawal::Annulled
        );
        assert_eq!(t.player(3).unwrap().round(3), RoundEntry::ABSENT);
    }

    #[test]
    fn round_robin_withdrawal_at_half_leaves_forfeits() {
        let (mut t, schedule) = round_robin(6, 3);
        assert_eq!(
            withdraw_round_robin(&mut t, 1, &schedule).unwrap(),
            Withdrawal::Forfeited
        );
        // Round 4 was 6-5, 1-4, 2-3: player 4 wins by forfeit, with black.
        let e = t.player(4).unwrap().round(4);
        assert_eq!(
            (e.opponent, e.colour, e.outcome),
            (Some(1), Some(Colour::Black), Outcome::ForfeitWin)
        );
        assert_eq!(t.player(1).unwrap().round(5).outcome, Outcome::ForfeitLoss);
        // The results played stand: 1 won round 1 (white) and round 3 (3-1?)
        assert_eq!(t.player(1).unwrap().round(1).outcome, Outcome::Win);
    }

    #[test]
    fn swiss_withdrawal_keeps_results_and_forfeits_the_paired_game() {
        let (mut t, _) = round_robin(4, 2);
        // Round 2 (4-3, 1-2) paired but player 1 does not come.
        set(
            &mut t,
            1,
            2,
            RoundEntry {
                opponent: Some(2),
                colour: Some(Colour::White),
                outcome: Outcome::Absent,
            },
        );
        withdraw_swiss(&mut t, 1, 2).unwrap();
        assert_eq!(t.player(1).unwrap().round(1).outcome, Outcome::Win);
        assert_eq!(t.player(1).unwrap().round(2).outcome, Outcome::ForfeitLoss);
        assert_eq!(t.player(2).unwrap().round(2).outcome, Outcome::ForfeitWin);
        assert_eq!(
            withdraw_swiss(&mut t, 7, 2),
            Err(ScoringError::NoSuchPlayer { player: 7 })
        );
    }
}
