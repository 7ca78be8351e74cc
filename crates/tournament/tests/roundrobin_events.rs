//! Whole events built from the pieces: seeded groups then a final
//! (分组循环 then 决赛), a round robin with a withdrawal (CXA 20.3), and seed
//! 001's office event (knockout rounds into a final round robin of four
//! scored 3/1/0).

use tournament::knockout::{GameResult, Match, MatchFormat, Next, OfficeEvent, Player as Side};
use tournament::model::{Colour, Outcome, Player, PlayerId, PointSystem, Points, RoundEntry, Tournament};
use tournament::roundrobin::{berger_table, finalists, snake_groups, Board, Cycles};
use tournament::tiebreak::scoring::{withdraw_round_robin, Withdrawal};
use tournament::tiebreak::standings::{standings, Rules};
use tournament::tiebreak::{System, Tiebreak};

/// Plays a round robin of `names` (pairing numbers 1..) from the Berger
/// table; `result(white, black)` is white's outcome, by name.
fn play<F: Fn(u32, u32) -> Outcome>(
    names: &[u32],
    rounds: usize,
    points: PointSystem,
    result: F,
) -> Tournament {
    let schedule = berger_table(names.len() as u32, Cycles::Single).unwrap();
    let mut t = Tournament {
        players: names
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let mut p = Player::new(i as u32 + 1, &n.to_string(), 0);
                p.rounds = vec![RoundEntry::ABSENT; schedule.len()];
                p
            })
            .collect(),
        total_rounds: Some(schedule.len() as u32),
        points,
        ..Tournament::default()
    };
    for (r, round) in schedule.iter().enumerate().take(rounds) {
        for b in round {
            if let Board::Game { white, black } = *b {
                let o = result(names[white as usize - 1], names[black as usize - 1]);
                t.players[white as usize - 1].rounds[r] = RoundEntry {
                    opponent: Some(black),
                    colour: Some(Colour::White),
                    outcome: o,
                };
                t.players[black as usize - 1].rounds[r] = RoundEntry {
                    opponent: Some(white),
                    colour: Some(Colour::Black),
                    outcome: o.mirrored().unwrap(),
                };
            }
        }
    }
    t
}

/// The better seed (smaller number) always wins.
fn seeds_win(white: u32, black: u32) -> Outcome {
    if white < black {
        Outcome::Win
    } else {
        Outcome::Loss
    }
}

/// Names in standing order.
fn order(t: &Tournament, rules: &Rules) -> Vec<u32> {
    standings(t, rules)
        .unwrap()
        .rows
        .iter()
        .map(|r| r.name.parse().unwrap())
        .collect()
}

#[test]
fn seeded_groups_then_final() {
    let seeds: Vec<u32> = (1..=12).collect();
    let groups = snake_groups(&seeds, 3).unwrap();
    let rules = Rules::new(System::RoundRobin, Tiebreak::CXA_ROUND_ROBIN.to_vec());
    let group_standings: Vec<Vec<u32>> = groups
        .iter()
        .map(|g| order(&play(g, usize::MAX, PointSystem::default(), seeds_win), &rules))
        .collect();
    assert_eq!(
        group_standings,
        vec![vec![1, 6, 7, 12], vec![2, 5, 8, 11], vec![3, 4, 9, 10]]
    );
    let fin = finalists(&group_standings, 2).unwrap();
    assert_eq!(fin, vec![1, 2, 3, 6, 5, 4]);
    let final_table = play(&fin, usize::MAX, PointSystem::default(), seeds_win);
    assert_eq!(order(&final_table, &rules), vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn withdrawal_under_half_is_struck_out_of_the_standings() {
    // Six players, the better seed wins; 6 leaves after two rounds.
    let names: Vec<u32> = (1..=6).collect();
    let mut t = play(&names, 2, PointSystem::default(), seeds_win);
    let schedule = berger_table(6, Cycles::Single).unwrap();
    assert_eq!(
        withdraw_round_robin(&mut t, 6, &schedule).unwrap(),
        Withdrawal::Annulled
    );
    // 6 lost to 1 (round 1) and to 4 (round 2): both wins are struck out.
    assert_eq!(t.score_after(1, 2), Points::whole(1));
    assert_eq!(t.score_after(4, 2), Points::ZERO);
    assert_eq!(t.score_after(6, 2), Points::ZERO);
}

#[test]
fn withdrawal_at_half_leaves_forfeits_that_count_in_the_standings() {
    let names: Vec<u32> = (1..=6).collect();
    // 6 beats everyone it plays in rounds 1–3, then leaves: its results
    // stand and its last two games are forfeits.
    let mut t = play(&names, 5, PointSystem::default(), |w, b| {
        if w == 6 {
            Outcome::Win
        } else if b == 6 {
            Outcome::Loss
        } else {
            seeds_win(w, b)
        }
    });
    let schedule = berger_table(6, Cycles::Single).unwrap();
    // Undo rounds 4 and 5 for player 6 as if not yet played.
    for r in 3..5 {
        let opp = t.players[5].rounds[r].opponent.unwrap();
        t.players[5].rounds[r] = RoundEntry::ABSENT;
        t.players[opp as usize - 1].rounds[r] = RoundEntry::ABSENT;
    }
    assert_eq!(
        withdraw_round_robin(&mut t, 6, &schedule).unwrap(),
        Withdrawal::Forfeited
    );
    assert_eq!(t.score_after(6, 5), Points::whole(3));
    let s = standings(
        &t,
        &Rules::new(System::RoundRobin, vec![Tiebreak::CxaSonnebornBerger]),
    )
    .unwrap();
    let row = |id: PlayerId| s.rows.iter().find(|r| r.id == id).unwrap().clone();
    // Round 4 was 6-5 and round 5 was 3-6: 5 and 3 won by forfeit.
    assert_eq!(t.player(5).unwrap().round(4).outcome, Outcome::ForfeitWin);
    assert_eq!(t.player(3).unwrap().round(5).outcome, Outcome::ForfeitWin);
    // 5 lost every game it played and won the forfeit: 1 point; its 小分
    // counts the forfeit against 6 (3 points) like a win.
    assert_eq!(row(5).points, Points::whole(1));
    assert_eq!(row(5).values[0].unwrap().to_string(), "3.00");
}

/// Plays a knockout match game by game: `games` are the results in order
/// (from white's side); a lot, when needed, goes to `lot`.
fn decide(format: MatchFormat, games: &[GameResult], lot: Side) -> Side {
    let mut m = Match::new(1, format, Side::First, Side::First).unwrap();
    let mut g = games.iter();
    loop {
        match m.next() {
            Next::Winner(w) => return w,
            Next::Game { .. } => {
                m.record(*g.next().expect("a game result")).unwrap();
            }
            Next::DrawLots => {
                m.decide_by_lot(lot).unwrap();
            }
            Next::ChooseColour { chooser } => {
                m.choose_colour(chooser, false).unwrap();
            }
        }
    }
}

#[test]
fn office_event_knockout_into_a_final_of_four_scored_3_1_0() {
    use GameResult::*;
    // Eleven players: round 1, three one-game matches and five byes.
    let plan = OfficeEvent::plan(11).unwrap();
    assert_eq!(plan.byes, 5);
    assert_eq!(
        plan.knockout_rounds,
        vec![MatchFormat::ONE_GAME, MatchFormat::BEST_OF_THREE]
    );
    // By the draw, 6 v 11, 7 v 10, 8 v 9 play; 1–5 have byes.
    let r1 = [
        (6, 11, decide(plan.knockout_rounds[0], &[WhiteWins], Side::First)),
        // Drawn, drawn again in the extra game: a lot decides (seed 001).
        (
            7,
            10,
            decide(plan.knockout_rounds[0], &[Draw, Draw], Side::Second),
        ),
        (8, 9, decide(plan.knockout_rounds[0], &[BlackWins], Side::First)),
    ];
    let winners: Vec<u32> = r1
        .iter()
        .map(|&(a, b, w)| if w == Side::First { a } else { b })
        .collect();
    assert_eq!(winners, vec![6, 10, 9]);
    // Round 2, best of three, eight players into four.
    let pairs = [(1, 10), (2, 9), (3, 6), (4, 5)];
    let r2 = [
        decide(plan.knockout_rounds[1], &[WhiteWins, BlackWins], Side::First), // 1 wins 2–0
        decide(plan.knockout_rounds[1], &[Draw, Draw, Draw, Draw], Side::First), // 1.5–1.5, extra game drawn, lot
        decide(plan.knockout_rounds[1], &[BlackWins, WhiteWins], Side::First),   // 6 wins 2–0
        decide(plan.knockout_rounds[1], &[WhiteWins, Draw, Draw], Side::First),  // 4 wins 2–1
    ];
    let four: Vec<u32> = pairs
        .iter()
        .zip(r2)
        .map(|(&(a, b), w)| if w == Side::First { a } else { b })
        .collect();
    // The second match was tied after three games and after the extra
    // game, and went to the lot (First: 2).
    assert_eq!(four, vec![1, 2, 6, 4]);
    // The final round robin of four, 3 points a win and 1 a draw: 1 beats
    // all, 2 and 6 draw, the rest by seed: 1 9, 2 3 + 1, 4 3, 6 1.
    assert_eq!(plan.final_table.len(), 3);
    let t = play(&four, usize::MAX, PointSystem::three_one_zero(), |w, b| {
        if (w, b) == (2, 6) || (w, b) == (6, 2) {
            Outcome::Draw
        } else {
            seeds_win(w, b)
        }
    });
    let s = standings(
        &t,
        &Rules::new(System::RoundRobin, Tiebreak::CXA_ROUND_ROBIN.to_vec()),
    )
    .unwrap();
    let table: Vec<(u32, String)> = s
        .rows
        .iter()
        .map(|r| (r.rank, format!("{} {}", r.name, r.points)))
        .collect();
    assert_eq!(
        table,
        vec![
            (1, "1 9.0".to_string()),
            (2, "2 4.0".to_string()),
            (3, "4 3.0".to_string()),
            (4, "6 1.0".to_string())
        ]
    );
}
