//! Double elimination events (双败淘汰): a player is out after a second
//! lost match. The pairing is `tournament::knockout::DoubleElimination`'s
//! (the unbeaten among themselves, the once beaten among themselves, then
//! the grand final, replayed once if the unbeaten player loses it); each
//! board is a match as `knockout` plays it (play-off, armageddon, a
//! no-show's forfeit), and the board's result says who won the match.
//!
//! Nothing but the rounds' rows is kept: where the event stands (who has
//! lost how often, the next round's boards) is the pairing replayed over
//! the stored rounds, each match's winner reported, so a restart pairs the
//! same boards.

use crate::knockout::{match_winner, winner_of};
use crate::Loaded;
use common::Error;
use tournament::knockout::DoubleElimination;

/// The pairing after the rounds `1..=upto`, every match's winner reported.
fn replay(l: &Loaded, upto: u32) -> Result<DoubleElimination, Error> {
    let mut de = DoubleElimination::seeded(l.entries.len() as u32)
        .map_err(|e| Error::conflict("too_few_players", e.to_string()))?;
    for r in 1..=upto {
        let (games, byes) = de
            .pair_round()
            .map_err(|e| Error::Internal(format!("event {} round {r}: {e}", l.event.id)))?;
        let stored: Vec<&store::PairingRow> = l.pairings.iter().filter(|p| p.round == r).collect();
        // The stored round is the replay's: anything else is a row
        // changed by hand, and pairing on from it would mislead.
        let same = stored.len() == games.len() + byes.len()
            && stored.iter().all(|p| match p.black {
                Some(b) => games.contains(&(p.white, b)),
                None => byes.contains(&p.white),
            });
        if !same {
            return Err(Error::Internal(format!(
                "event {} round {r}: the stored boards are not the double elimination's",
                l.event.id
            )));
        }
        for p in stored.iter().filter(|p| p.black.is_some()) {
            de.report(match_winner(p)?)
                .map_err(|e| Error::conflict("no_pairing", e.to_string()))?;
        }
    }
    Ok(de)
}

/// Round `round`'s boards: the games, then the byes (`None`); a conflict
/// once a player is left alone with fewer than two losses.
pub(crate) fn boards(l: &Loaded, round: u32) -> Result<Vec<(u32, Option<u32>)>, Error> {
    let mut de = replay(l, round - 1)?;
    if let Some(champion) = de.champion() {
        return Err(Error::conflict(
            "all_rounds_paired",
            format!("number {champion} is the only player with fewer than two losses: the event is over"),
        ));
    }
    let (games, byes) = de
        .pair_round()
        .map_err(|e| Error::conflict("no_pairing", e.to_string()))?;
    Ok(games
        .into_iter()
        .map(|(a, b)| (a, Some(b)))
        .chain(byes.into_iter().map(|p| (p, None)))
        .collect())
}

/// Where one player stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub number: u32,
    /// Matches lost (0, 1 or 2).
    pub losses: u32,
    /// Matches won, byes not counted.
    pub wins: u32,
    /// The round of the second loss; `None` while still in.
    pub out_in: Option<u32>,
}

/// Every player's losses and the round they went out, over the complete
/// rounds, and the champion once there is one.
pub(crate) fn progress(l: &Loaded) -> Result<(Vec<Line>, Option<u32>), Error> {
    let complete = l.rounds_complete();
    let mut lines: Vec<Line> = (1..=l.entries.len() as u32)
        .map(|number| Line {
            number,
            losses: 0,
            wins: 0,
            out_in: None,
        })
        .collect();
    for p in l.pairings.iter().filter(|p| p.round <= complete) {
        let (Some(black), Some(winner)) = (p.black, winner_of(p)) else {
            continue;
        };
        let loser = if winner == p.white { black } else { p.white };
        if let Some(w) = lines.get_mut(winner as usize - 1) {
            w.wins += 1;
        }
        if let Some(x) = lines.get_mut(loser as usize - 1) {
            x.losses += 1;
            if x.losses == 2 {
                x.out_in = Some(p.round);
            }
        }
    }
    // As `DoubleElimination::champion` says: one player left with fewer
    // than two losses (read from the rows, so that a board the arbiter
    // left without a winner does not hide the standings).
    let alive: Vec<u32> = lines.iter().filter(|x| x.losses < 2).map(|x| x.number).collect();
    let champion = (complete > 0 && alive.len() == 1).then(|| alive[0]);
    Ok((lines, champion))
}

/// The final order (or the order so far): the champion, then those still
/// in, then the rest by the round they went out, the later the better;
/// within one of these, fewer losses, then more wins, then the initial
/// ranking. Places are shared by those out in the same round, as a
/// knockout's losers of one round share theirs (seed 001: 第三轮败北的三人
/// 获得三等奖); those still in share theirs by losses.
pub(crate) fn order(lines: &[Line], champion: Option<u32>) -> Vec<(u32, bool, Line)> {
    // (champion first, still in, the round out later, fewer losses)
    let class = |x: &Line| {
        (
            Some(x.number) != champion,
            x.out_in.is_some(),
            std::cmp::Reverse(x.out_in),
            x.losses,
        )
    };
    let mut sorted: Vec<Line> = lines.to_vec();
    sorted.sort_by(|a, b| {
        class(a)
            .cmp(&class(b))
            .then(b.wins.cmp(&a.wins))
            .then(a.number.cmp(&b.number))
    });
    sorted
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let first = sorted.iter().position(|y| class(y) == class(x)).unwrap_or(i);
            let shared = sorted.iter().filter(|y| class(y) == class(x)).count() > 1;
            (first as u32 + 1, shared, *x)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Scoring, System, TiebreakOrder};
    use store::PairingRow;

    /// A double elimination of `players` with these boards stored.
    fn event(players: u32, pairings: Vec<PairingRow>) -> Loaded {
        let current_round = pairings.iter().map(|p| p.round).max().unwrap_or(0);
        Loaded {
            event: store::EventRow {
                id: "de".into(),
                node: "n".into(),
                name: "Double".into(),
                organiser_id: "o".into(),
                variant: "xiangqi/cxa".into(),
                time_control: "10+5".into(),
                rated: false,
                system: "double-elimination".into(),
                rounds: current_round,
                scoring: "1-0.5-0".into(),
                tiebreaks: "fide".into(),
                min_rating: None,
                max_rating: None,
                invitation: None,
                starts: "[]".into(),
                match_games: 1,
                playoff_games: 1,
                armageddon: true,
                playoff_time_control: "5+3".into(),
                state: "running".into(),
                current_round,
                created_ms: 0,
                finished_ms: None,
                duration_ms: 0,
                berserk: false,
                ends_ms: None,
                paused: false,
                published_ms: None,
                boards: 0,
                substitutes: 0,
                first_to: 0,
                min_rated_games: 0,
                forfeit_after_ms: 0,
                round_interval_ms: None,
                armageddon_choice_ms: 60_000,
                group_count: 0,
                group_size: 0,
                advance_per_group: 0,
                final_size: 0,
                groups_by_lot: false,
                lineups_any_order: false,
                team_all_play_all: false,
                team_ranking_places: false,
            },
            system: System::DoubleElimination,
            scoring: Scoring::OneHalfZero,
            tiebreaks: TiebreakOrder::Fide,
            entries: (1..=players)
                .map(|n| store::EntryRow {
                    user_id: format!("u{n}"),
                    number: n,
                    name: format!("p{n}"),
                    rating: 1500,
                    withdrawn: false,
                    withdrawn_from: None,
                    late: false,
                    first_round: 1,
                    joined_ms: 0,
                })
                .collect(),
            pairings,
            match_games: Vec::new(),
            armageddon_choices: Vec::new(),
            arena_games: Vec::new(),
            teams: Vec::new(),
            lineups: Vec::new(),
            fouls: Vec::new(),
        }
    }

    fn row(round: u32, board: u32, white: u32, black: Option<u32>, result: &str) -> PairingRow {
        PairingRow {
            round,
            board,
            white,
            black,
            game_id: None,
            result: Some(result.into()),
            forfeit: matches!(result, "+-" | "-+" | "--"),
        }
    }

    /// Four players, round by round from the stored rows: the losers of
    /// round 1 meet, a forfeit loses like a game (`-+`: the second-listed
    /// won), and a player with one loss is still paired.
    #[test]
    fn each_round_is_the_pairing_replayed_over_the_stored_rounds() {
        let r1 = vec![row(1, 1, 1, Some(4), "0-1"), row(1, 2, 2, Some(3), "-+")];
        let l = event(4, r1.clone());
        // Unbeaten 3 and 4, once beaten 1 and 2.
        assert_eq!(boards(&l, 2).unwrap(), vec![(3, Some(4)), (1, Some(2))]);
        let mut rows = r1.clone();
        rows.extend([row(2, 1, 3, Some(4), "1-0"), row(2, 2, 1, Some(2), "1-0")]);
        let l = event(4, rows.clone());
        // 2 is out; unbeaten 3 sits out, once beaten 4 and 1 play.
        assert_eq!(boards(&l, 3).unwrap(), vec![(1, Some(4)), (3, None)]);
        let (lines, champion) = progress(&l).unwrap();
        assert_eq!(
            lines.iter().map(|x| (x.losses, x.out_in)).collect::<Vec<_>>(),
            vec![(1, None), (2, Some(2)), (0, None), (1, None)]
        );
        assert_eq!(champion, None);
        // A board without a winner stops the pairing until the arbiter
        // sets one.
        let mut open = r1.clone();
        open[0].result = Some("--".into());
        assert!(matches!(
            boards(&event(4, open), 2),
            Err(Error::Conflict {
                code: "no_winner",
                ..
            })
        ));
        // A stored round that is not the pairing's is not paired on from.
        let mut changed = r1;
        changed[0].black = Some(3);
        changed[1].black = Some(4);
        assert!(matches!(boards(&event(4, changed), 2), Err(Error::Internal(_))));
    }

    /// The grand final replayed, then the end: no round after it.
    #[test]
    fn the_event_ends_with_one_player_under_two_losses() {
        let rows = vec![
            row(1, 1, 1, Some(2), "1-0"),
            // 1 unbeaten, 2 once beaten: the grand final, 2 wins.
            row(2, 1, 1, Some(2), "0-1"),
            // Both once beaten: played again, 2 wins.
            row(3, 1, 1, Some(2), "0-1"),
        ];
        assert_eq!(
            boards(&event(2, rows[..1].to_vec()), 2).unwrap(),
            vec![(1, Some(2))]
        );
        assert_eq!(
            boards(&event(2, rows[..2].to_vec()), 3).unwrap(),
            vec![(1, Some(2))]
        );
        let l = event(2, rows);
        assert!(matches!(
            boards(&l, 4),
            Err(Error::Conflict {
                code: "all_rounds_paired",
                ..
            })
        ));
        let (lines, champion) = progress(&l).unwrap();
        assert_eq!(champion, Some(2));
        assert_eq!((lines[0].out_in, lines[1].losses), (Some(3), 1));
    }

    fn line(number: u32, losses: u32, wins: u32, out_in: Option<u32>) -> Line {
        Line {
            number,
            losses,
            wins,
            out_in,
        }
    }

    #[test]
    fn the_champion_first_then_by_the_round_out_later_better() {
        // Five players: 2 champion with one loss, 1 out in round 5 (the
        // grand final), 5 and 3 out in round 3, 4 out in round 2.
        let lines = [
            line(1, 2, 3, Some(5)),
            line(2, 1, 4, None),
            line(3, 2, 1, Some(3)),
            line(4, 2, 0, Some(2)),
            line(5, 2, 2, Some(3)),
        ];
        let o: Vec<(u32, bool, u32)> = order(&lines, Some(2))
            .into_iter()
            .map(|(rank, shared, l)| (rank, shared, l.number))
            .collect();
        assert_eq!(
            o,
            vec![
                (1, false, 2),
                (2, false, 1),
                (3, true, 5),
                (3, true, 3),
                (5, false, 4)
            ]
        );
    }

    #[test]
    fn before_the_end_those_still_in_lead_by_losses() {
        let lines = [
            line(1, 1, 1, None),
            line(2, 0, 2, None),
            line(3, 2, 0, Some(2)),
            line(4, 0, 1, None),
        ];
        let o: Vec<(u32, bool, u32)> = order(&lines, None)
            .into_iter()
            .map(|(rank, shared, l)| (rank, shared, l.number))
            .collect();
        assert_eq!(o, vec![(1, true, 2), (1, true, 4), (3, false, 1), (4, false, 3)]);
    }
}
