//! Tie-breaks and standings on worked examples: ChessKid's published
//! Sonneborn–Berger example, the FIDE 2009 virtual-opponent examples, a
//! hand-worked C.07 article 16 case, and the CXA 15.1 order with 18.4 and
//! 15.6.

use tournament::model::{Colour, Outcome, Player, PlayerId, Points, RoundEntry, Tournament};
use tournament::roundrobin::{berger_table, Board, Cycles};
use tournament::tiebreak::standings::{standings, Penalty, Rules};
use tournament::tiebreak::{System, Table, Tiebreak, Unplayed};

fn event(players: u32, rounds: u32) -> Tournament {
    Tournament {
        players: (1..=players)
            .map(|i| {
                let mut p = Player::new(i, &format!("P{i}"), 0);
                p.rounds = vec![RoundEntry::ABSENT; rounds as usize];
                p
            })
            .collect(),
        total_rounds: Some(rounds),
        ..Tournament::default()
    }
}

fn put(t: &mut Tournament, id: PlayerId, round: u32, e: RoundEntry) {
    let p = t.players.iter_mut().find(|p| p.id == id).unwrap();
    p.rounds[round as usize - 1] = e;
}

/// A game (or forfeit) with `white`'s outcome.
fn game(t: &mut Tournament, round: u32, white: PlayerId, black: PlayerId, o: Outcome) {
    let e = |opponent, colour, outcome| RoundEntry {
        opponent: Some(opponent),
        colour: Some(colour),
        outcome,
    };
    put(t, white, round, e(black, Colour::White, o));
    put(t, black, round, e(white, Colour::Black, o.mirrored().unwrap()));
}

fn value(t: &Tournament, p: PlayerId, tb: Tiebreak) -> f64 {
    Table::new(t).unwrap().value(p, tb).unwrap().as_f64()
}

/// support.chesskid.com, "What is a tie-break": a double round robin of
/// three — Bob 3 (SB 4.5), Mary 1.5 (SB 3.75), John 1.5 (SB 2.25).
#[test]
fn chesskid_sonneborn_berger_example() {
    let (bob, mary, john) = (1, 2, 3);
    let mut t = event(3, 6);
    let table = berger_table(3, Cycles::Double).unwrap();
    // Results by meeting: Bob–Mary 0 then 1; Bob–John 1, 1; Mary–John 0, ½.
    let mut met = std::collections::HashMap::new();
    for (r, round) in table.iter().enumerate() {
        for b in round {
            if let Board::Game { white, black } = *b {
                let key = (white.min(black), white.max(black));
                let n = met.entry(key).or_insert(0);
                *n += 1;
                let first_outcome = match (key, *n) {
                    ((1, 2), 1) => Outcome::Loss,
                    ((1, 2), 2) => Outcome::Win,
                    ((1, 3), _) => Outcome::Win,
                    ((2, 3), 1) => Outcome::Loss,
                    _ => Outcome::Draw,
                };
                let o = if white == key.0 {
                    first_outcome
                } else {
                    first_outcome.mirrored().unwrap()
                };
                game(&mut t, r as u32 + 1, white, black, o);
            }
        }
    }
    let rr = Table::with_rule(&t, Unplayed::Dummy, System::RoundRobin).unwrap();
    for tb in [Tiebreak::SonnebornBerger, Tiebreak::CxaSonnebornBerger] {
        let v = |p| rr.value(p, tb).unwrap().as_f64();
        assert_eq!((v(bob), v(mary), v(john)), (4.5, 3.75, 2.25), "{tb}");
    }
    let s = standings(
        &t,
        &Rules::new(System::RoundRobin, Tiebreak::CXA_ROUND_ROBIN.to_vec()),
    )
    .unwrap();
    let order: Vec<(u32, PlayerId)> = s.rows.iter().map(|r| (r.rank, r.id)).collect();
    assert_eq!(order, vec![(1, bob), (2, mary), (3, john)]);
}

/// Adds a filler player who meets `p` in `round` only.
fn filler(t: &mut Tournament, round: u32, p: PlayerId, p_outcome: Outcome, rating: u32) -> PlayerId {
    let id = t.players.iter().map(|p| p.id).max().unwrap() + 1;
    let rounds = t.total_rounds.unwrap();
    let mut f = Player::new(id, &format!("F{id}"), rating);
    f.rounds = vec![RoundEntry::ABSENT; rounds as usize];
    t.players.push(f);
    game(t, round, p, id, p_outcome);
    id
}

/// FIDE 80th Congress (Kallithea 2009), Swiss Pairings Programs
/// Committee, item 7, examples 1 and 2 (as quoted in the Vega manual,
/// appendix I): in a 9-round Swiss, A has 6 points with a default win in
/// round 3 after 2 points in rounds 1–2: A's own round-3 contribution is
/// 2 + 0 + 6 × 0.5 = 5, A counts 5.5 for the opponents. B was absent in
/// round 7 after 4 points in rounds 1–6 and ends on 6: the contribution is
/// 4 + 1 + 2 × 0.5 = 6, B counts 6.5 for the opponents.
#[test]
fn fide_2009_virtual_opponent_examples() {
    use Outcome::*;
    let mut t = event(3, 9);
    let (a, b, z) = (1, 2, 3);
    for (r, o) in [Win, Win, ForfeitWin, Win, Win, Win, Loss, Loss, Loss]
        .into_iter()
        .enumerate()
    {
        let r = r as u32 + 1;
        if o == ForfeitWin {
            game(&mut t, r, a, z, ForfeitWin);
        } else {
            filler(&mut t, r, a, o, 0);
        }
    }
    for (r, o) in [Win, Win, Win, Win, Loss, Loss, Absent, Win, Win]
        .into_iter()
        .enumerate()
    {
        if o != Absent {
            filler(&mut t, r as u32 + 1, b, o, 0);
        }
    }
    let table = Table::with_rule(&t, Unplayed::VirtualOpponent, System::Swiss).unwrap();
    assert_eq!(table.score(a), Some(Points(60)));
    assert_eq!(table.buchholz_parts(a)[2].0, 500);
    assert_eq!(table.adjusted_score(a), Some(Points(55)));
    assert_eq!(table.score(b), Some(Points(60)));
    assert_eq!(table.buchholz_parts(b)[6].0, 600);
    assert_eq!(table.adjusted_score(b), Some(Points(65)));
    assert_eq!(table.score(99), None);
    assert_eq!(table.value(99, Tiebreak::Buchholz), None);
}

/// C.07 article 16 worked by hand on a 4-round Swiss fragment. X: round 1
/// beats Y, round 2 wins by forfeit against Z, round 3 half-point bye,
/// round 4 loses to W; X has 2.5. Y loses every game it plays (rounds 1–3)
/// and takes a zero-point bye in round 4: 0 points, but 0.5 for its
/// opponents (16.3: a final requested bye counts as a draw). W wins all
/// four: 4. X's Buchholz: 0.5 (Y) + 2.5 (dummy for the forfeit, 16.4) +
/// 2.5 (dummy for the bye) + 4 (W) = 9.5; Cut-1 takes off a voluntarily
/// unplayed round (the bye, 2.5) before the lowest (Y's 0.5), 16.5.1: 7.0.
/// SB: 0.5·1 + 2.5·1 + 2.5·½ + 4·0 = 4.25. PS: 1 + 2 + 2.5 + 2.5 = 8.
/// WIN 2 (the forfeit counts, C.07 7.1), WON 1 (7.2).
#[test]
fn c07_article_16_by_hand() {
    use Outcome::*;
    let mut t = event(4, 4);
    let (x, y, z, w) = (1, 2, 3, 4);
    t.players[0].rating = 2000;
    game(&mut t, 1, x, y, Win);
    game(&mut t, 2, z, x, ForfeitLoss);
    put(&mut t, x, 3, RoundEntry::bye(HalfBye));
    game(&mut t, 4, w, x, Win);
    filler(&mut t, 2, y, Loss, 0);
    filler(&mut t, 3, y, Loss, 0);
    put(&mut t, y, 4, RoundEntry::bye(ZeroBye));
    let f3 = filler(&mut t, 1, w, Win, 1500);
    let f4 = filler(&mut t, 2, w, Win, 1601);
    let f5 = filler(&mut t, 3, w, Win, 1701);
    assert_eq!(value(&t, x, Tiebreak::Buchholz), 9.5);
    assert_eq!(value(&t, x, Tiebreak::BuchholzCut1), 7.0);
    assert_eq!(value(&t, x, Tiebreak::SonnebornBerger), 4.25);
    assert_eq!(value(&t, x, Tiebreak::Progressive), 8.0);
    assert_eq!(value(&t, x, Tiebreak::Wins), 2.0);
    assert_eq!(value(&t, x, Tiebreak::GamesWon), 1.0);
    // W's opponents over the board: 1500, 1601, 1701, 2000; Cut-1 drops
    // 1500: 5302 / 3 = 1767.3 → 1767.
    assert_eq!(value(&t, w, Tiebreak::AverageRatingCut1), 1767.0);
    // The CXA sums take the actual scores: Y 0, Z 0 (forfeited), W 4.
    assert_eq!(value(&t, x, Tiebreak::CxaOpponentScores), 4.0);
    // W's: the fillers lost everything (0) and X has 2.5.
    assert_eq!(value(&t, w, Tiebreak::CxaOpponentScores), 2.5);
    let _ = (f3, f4, f5);
}

/// Four players on 1.5 each: 1 beat 2, 2 beat 3, 3 beat 1, all drew with 4.
fn cycle_of_four() -> Tournament {
    use Outcome::*;
    let mut t = event(4, 3);
    game(&mut t, 1, 1, 2, Win);
    game(&mut t, 1, 3, 4, Draw);
    game(&mut t, 2, 2, 3, Win);
    game(&mut t, 2, 4, 1, Draw);
    game(&mut t, 3, 3, 1, Win);
    game(&mut t, 3, 2, 4, Draw);
    t
}

/// CXA 15.1: 小分 ties (2.25 each), 胜局 puts 4 (no win) last, 直胜 leaves
/// 1–2–3 tied (one point each), 犯规 puts 2 (one foul) third; 1 and 3 share
/// first (名次并列), or go to a play-off when first place may not be shared
/// (15.6).
#[test]
fn cxa_round_robin_order_shared_places_and_playoffs() {
    let t = cycle_of_four();
    let mut rules = Rules::new(System::RoundRobin, Tiebreak::CXA_ROUND_ROBIN.to_vec());
    rules.fouls.insert(2, 1);
    let s = standings(&t, &rules).unwrap();
    let order: Vec<(u32, bool, PlayerId)> = s.rows.iter().map(|r| (r.rank, r.shared, r.id)).collect();
    assert_eq!(
        order,
        vec![(1, true, 1), (1, true, 3), (3, false, 2), (4, false, 4)]
    );
    assert!(s.playoffs.is_empty());
    assert_eq!(s.rows[0].values[0].unwrap().to_string(), "2.25");
    assert_eq!(s.rows[0].values[2].unwrap().to_string(), "1.00");
    rules.playoff_places = 1;
    assert_eq!(standings(&t, &rules).unwrap().playoffs, vec![vec![1, 3]]);
}

/// CXA 18.4: a penalised player goes last among equal scores, heavier
/// penalties further down; direct encounter then orders 2 above 3.
#[test]
fn penalties_put_a_player_last_among_equals() {
    let t = cycle_of_four();
    let mut rules = Rules::new(System::RoundRobin, Tiebreak::CXA_ROUND_ROBIN.to_vec());
    rules.penalties.insert(
        1,
        Penalty {
            disqualifications: 0,
            warnings: 1,
        },
    );
    rules.penalties.insert(
        3,
        Penalty {
            disqualifications: 1,
            warnings: 0,
        },
    );
    let s = standings(&t, &rules).unwrap();
    let ids: Vec<PlayerId> = s.rows.iter().map(|r| r.id).collect();
    assert_eq!(ids, vec![2, 4, 1, 3]);
    let ranks: Vec<u32> = s.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, vec![1, 2, 3, 4]);
}

/// C.07 6.2: direct encounter among tied players separates some, then is
/// applied again to those still tied. 1–4 all finish on 3: among them 1
/// beat 2, 3 beat 1, 2 beat 3, 1 beat 4, 2 and 3 drew with 4 — mini-table
/// 1: 2, 2: 1.5, 3: 1.5, 4: 1; the tie 2–3 is looked at again: 2 beat 3.
#[test]
fn direct_encounter_is_reapplied_to_a_smaller_tie() {
    use Outcome::*;
    let mut t = event(6, 7);
    game(&mut t, 1, 1, 2, Win);
    game(&mut t, 1, 3, 4, Draw);
    game(&mut t, 2, 3, 1, Win);
    game(&mut t, 2, 2, 4, Draw);
    game(&mut t, 3, 2, 3, Win);
    game(&mut t, 3, 1, 4, Win);
    game(&mut t, 4, 1, 5, Win);
    game(&mut t, 4, 2, 6, Draw);
    game(&mut t, 5, 6, 1, Win);
    game(&mut t, 5, 5, 2, Loss);
    game(&mut t, 6, 3, 5, Draw);
    game(&mut t, 6, 4, 6, Win);
    game(&mut t, 7, 6, 3, Loss);
    game(&mut t, 7, 4, 5, Win);
    let s = standings(&t, &Rules::new(System::Swiss, vec![Tiebreak::DirectEncounter])).unwrap();
    let rows: Vec<(u32, PlayerId, String)> = s
        .rows
        .iter()
        .map(|r| (r.rank, r.id, r.points.to_string()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (1, 1, "3.0".into()),
            (2, 2, "3.0".into()),
            (3, 3, "3.0".into()),
            (4, 4, "3.0".into()),
            (5, 6, "1.5".into()),
            (6, 5, "0.5".into()),
        ]
    );
    assert_eq!(s.rows[0].values[0].unwrap().to_string(), "2.00");
}

/// A crosstable naming a player who is not there is an error, not a panic.
#[test]
fn unknown_opponent_is_an_error() {
    let mut t = event(2, 1);
    put(
        &mut t,
        1,
        1,
        RoundEntry {
            opponent: Some(9),
            colour: Some(Colour::White),
            outcome: Outcome::Win,
        },
    );
    let e = standings(&t, &Rules::new(System::Swiss, vec![Tiebreak::Buchholz])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "round 1: player 1 names opponent 9, who is not in the tournament"
    );
}

/// A file written mid-event — XXR announcing more rounds, a half-point bye
/// already requested for the next round — is ranked on the rounds played.
#[test]
fn a_file_written_mid_event_is_ranked_on_the_rounds_played() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiebreak/cc_05.trf");
    let t = tournament::trf::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let played = t.rounds_paired();
    let mut later = t.clone();
    later.total_rounds = Some(played + 4);
    later.players[0].rounds.truncate(played as usize);
    later.players[0].rounds.push(RoundEntry::bye(Outcome::HalfBye));
    let rules = Rules::new(System::Swiss, Tiebreak::ALL.to_vec());
    let (a, b) = (standings(&t, &rules).unwrap(), standings(&later, &rules).unwrap());
    assert_eq!(a, b);
}

/// C.07 6.3: not all the tied players met. 1, 2 and 3 finish on 2; 1 beat
/// both, 2 and 3 never met. 1's 2 points against them beat what 2 or 3
/// could have at most (0 plus a win in the missing game): 1 is first; 2
/// and 3 cannot be told apart and share second place.
#[test]
fn direct_encounter_when_not_all_met() {
    use Outcome::*;
    let mut t = event(3, 3);
    game(&mut t, 1, 1, 2, Win);
    game(&mut t, 2, 1, 3, Win);
    filler(&mut t, 1, 3, Win, 0);
    filler(&mut t, 2, 2, Win, 0);
    filler(&mut t, 3, 2, Win, 0);
    filler(&mut t, 3, 3, Win, 0);
    let s = standings(&t, &Rules::new(System::Swiss, vec![Tiebreak::DirectEncounter])).unwrap();
    let top: Vec<(u32, bool, PlayerId)> = s.rows[..3].iter().map(|r| (r.rank, r.shared, r.id)).collect();
    assert_eq!(top, vec![(1, false, 1), (2, true, 2), (2, true, 3)]);
    assert_eq!(s.rows[0].values[0].unwrap().to_string(), "2.00");
}
