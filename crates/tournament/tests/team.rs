//! Team events: the 15 line-ups of CXA 12.2, line-up checks, team standings
//! by 15.3 / 15.4 and the team-total ranking of 15.5.

use std::collections::BTreeMap;

use tournament::model::{Outcome, Points};
use tournament::team::{
    check_lineup, permitted_lineups, team_standings, team_total_ranking, Lineup, LineupRule, MatchResult,
    TeamError, TeamMatch, TeamTiebreak,
};
use tournament::tiebreak::standings::Penalty;

/// 12.2: "比赛分四台进行，另有两名替补队员，则出场顺序可以是1-2-3-4，也可以是
/// 1-2-3-5，直至3-4-5-6共十五种顺序".
#[test]
fn four_boards_two_substitutes_give_the_fifteen_lineups_of_12_2() {
    let all = permitted_lineups(6, 4).unwrap();
    let written: Vec<String> = all
        .iter()
        .map(|l| l.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("-"))
        .collect();
    assert_eq!(
        written,
        vec![
            "1-2-3-4", "1-2-3-5", "1-2-3-6", "1-2-4-5", "1-2-4-6", "1-2-5-6", "1-3-4-5", "1-3-4-6",
            "1-3-5-6", "1-4-5-6", "2-3-4-5", "2-3-4-6", "2-3-5-6", "2-4-5-6", "3-4-5-6",
        ]
    );
    // Every ordered choice of four of the six is allowed exactly when it is
    // one of the fifteen.
    let mut allowed = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                for d in 1..=6 {
                    let l = [a, b, c, d];
                    let ok = check_lineup(7, 6, 4, &l).is_ok();
                    assert_eq!(ok, all.iter().any(|x| x[..] == l[..]), "{l:?}");
                    allowed += usize::from(ok);
                }
            }
        }
    }
    assert_eq!(allowed, 15);
}

#[test]
fn lineup_errors_name_the_team_and_board() {
    assert_eq!(
        check_lineup(3, 6, 4, &[1, 3, 2, 4]),
        Err(TeamError::OutOfOrder { team: 3, board: 3 })
    );
    assert_eq!(
        check_lineup(3, 6, 4, &[1, 2, 3]),
        Err(TeamError::LineupLength {
            team: 3,
            boards: 4,
            got: 3
        })
    );
    assert_eq!(
        check_lineup(3, 6, 4, &[1, 2, 3, 7]),
        Err(TeamError::NotOnRoster { team: 3, player: 7 })
    );
    // 12.3: a line-up fixed before the match may take any order.
    let l = Lineup::new(3, LineupRule::PerMatch, 6, 4, vec![5, 1, 6, 2]).unwrap();
    assert_eq!(l.players(), &[5, 1, 6, 2]);
    assert!(Lineup::new(3, LineupRule::FixedOrder, 6, 4, vec![5, 1, 6, 2]).is_err());
    assert_eq!(
        Lineup::new(3, LineupRule::PerMatch, 6, 4, vec![5, 1, 5, 2]),
        Err(TeamError::Duplicate { team: 3, player: 5 })
    );
    assert_eq!(
        permitted_lineups(3, 4),
        Err(TeamError::RosterTooShort { boards: 4, roster: 3 })
    );
}

fn m(round: u32, first: u32, second: u32, boards: &str) -> TeamMatch {
    let outcomes = boards.chars().map(|c| Outcome::from_code(c).unwrap()).collect();
    TeamMatch {
        round,
        first,
        second,
        result: MatchResult::Boards(outcomes),
    }
}

/// A team round robin of four teams on four boards (15.3): 1 has 4 match
/// points; 2 and 3 have 3 each and 2 has more board points (6 to 4.5).
#[test]
fn team_round_robin_by_15_3() {
    let matches = vec![
        m(1, 1, 4, "11=0"), // 1: 2.5–1.5
        m(1, 2, 3, "1100"), // 2–2
        m(2, 1, 2, "0010"), // 2 wins 3–1
        m(2, 3, 4, "1=10"), // 3: 2.5–1.5
        m(3, 1, 3, "1111"), // 1: 4–0
        m(3, 2, 4, "0001"), // 4: 3–1 … 2 loses
    ];
    // Match points: 1: 2+0+2 = 4; 2: 1+2+0 = 3; 3: 1+2+0 = 3; 4: 0+0+2 = 2.
    let rows = team_standings(
        &[1, 2, 3, 4],
        &matches,
        &[],
        4,
        &TeamTiebreak::ROUND_ROBIN,
        &BTreeMap::new(),
        &BTreeMap::new(),
    )
    .unwrap();
    let got: Vec<(u32, u32, u32, Points)> = rows
        .iter()
        .map(|r| (r.rank, r.team, r.match_points, r.board_points))
        .collect();
    // Board points: 2: 2 + 3 + 1 = 6; 3: 2 + 2.5 + 0 = 4.5.
    assert_eq!(
        got,
        vec![
            (1, 1, 4, Points(75)),
            (2, 2, 3, Points(60)),
            (3, 3, 3, Points(45)),
            (4, 4, 2, Points(60)),
        ]
    );
}

/// 15.3's later criteria. All four teams end on 3 match points and 6 board
/// points; 3 and 4 won 5 boards, 1 and 2 four; 3–4 and 1–2 drew their
/// matches (直胜 leaves them tied), so the ties are shared — until fouls
/// (全队犯规) count against team 1.
#[test]
fn team_direct_encounter_and_shared_places() {
    let matches = vec![
        m(1, 1, 2, "1=0="), // 2–2 … draw
        m(1, 3, 4, "1100"),
        m(2, 1, 3, "110="), // 1 wins 2.5–1.5
        m(2, 2, 4, "110="), // 2 wins 2.5–1.5
        m(3, 1, 4, "00=1"), // 1 loses 1.5–2.5
        m(3, 2, 3, "00=1"), // 2 loses 1.5–2.5
    ];
    let rows = team_standings(
        &[1, 2, 3, 4],
        &matches,
        &[],
        4,
        &TeamTiebreak::ROUND_ROBIN,
        &BTreeMap::new(),
        &BTreeMap::new(),
    )
    .unwrap();
    let got: Vec<(u32, bool, u32)> = rows.iter().map(|r| (r.rank, r.shared, r.team)).collect();
    assert_eq!(got, vec![(1, true, 3), (1, true, 4), (3, true, 1), (3, true, 2)]);
    let fouls = BTreeMap::from([(1, 2)]);
    let rows = team_standings(
        &[1, 2, 3, 4],
        &matches,
        &[],
        4,
        &TeamTiebreak::ROUND_ROBIN,
        &fouls,
        &BTreeMap::new(),
    )
    .unwrap();
    let got: Vec<(u32, bool, u32)> = rows.iter().map(|r| (r.rank, r.shared, r.team)).collect();
    assert_eq!(&got[2..], &[(3, false, 2), (4, false, 1)]);
}

/// 15.4, team Swiss: equal match points split by the opponents' match points.
#[test]
fn team_swiss_by_opponents_match_points() {
    let matches = vec![
        m(1, 1, 2, "11=="),
        m(1, 3, 4, "11=="),
        m(2, 1, 3, "===="),
        m(2, 2, 4, "1111"),
    ];
    // 1: 2+1 = 3 (opponents 2: 2, 3: 3 → 5); 3: 2+1 = 3 (opponents 4: 0, 1: 3 → 3).
    let rows = team_standings(
        &[1, 2, 3, 4],
        &matches,
        &[],
        4,
        &TeamTiebreak::SWISS,
        &BTreeMap::new(),
        &BTreeMap::new(),
    )
    .unwrap();
    let order: Vec<u32> = rows.iter().map(|r| r.team).collect();
    assert_eq!(order, vec![1, 3, 2, 4]);
}

/// 15.5: the sum of individual places, fewer first; ties by the best
/// place, then the next; then fouls; then shared.
#[test]
fn team_total_by_sum_of_places() {
    let places = vec![
        vec![1, 8, 9],  // 18, best 1
        vec![2, 6, 10], // 18, best 2
        vec![3, 4, 5],  // 12
        vec![7, 11, 12],
        vec![13, 14, 15],
        vec![13, 14, 15],
    ];
    let r = team_total_ranking(&places, &[0, 0, 0, 0, 1, 0], &[]);
    assert_eq!(
        r,
        vec![
            (2, 1, false),
            (0, 2, false),
            (1, 3, false),
            (3, 4, false),
            (5, 5, false),
            (4, 6, false)
        ]
    );
    let r = team_total_ranking(&places, &[], &[]);
    assert_eq!(&r[4..], &[(4, 5, true), (5, 5, true)]);
}

/// 15.3's 直胜 separating two teams equal on match points, board points and
/// board wins: 1 and 2 both have 4, 3.5 and 2 on two boards; 1 beat 2.
#[test]
fn team_direct_encounter_separates() {
    let matches = vec![
        m(1, 1, 2, "1="),
        m(1, 3, 4, "=="),
        m(2, 1, 3, "0="),
        m(2, 2, 4, "1="),
        m(3, 1, 4, "1="),
        m(3, 2, 3, "1="),
    ];
    let rows = team_standings(
        &[1, 2, 3, 4],
        &matches,
        &[],
        2,
        &TeamTiebreak::ROUND_ROBIN,
        &BTreeMap::new(),
        &BTreeMap::new(),
    )
    .unwrap();
    let got: Vec<(u32, bool, u32, u32, Points)> = rows
        .iter()
        .map(|r| (r.rank, r.shared, r.team, r.match_points, r.board_points))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, false, 1, 4, Points(35)),
            (2, false, 2, 4, Points(35)),
            (3, false, 3, 3, Points(30)),
            (4, false, 4, 1, Points(20)),
        ]
    );
    // Without 直胜 they would share first place.
    let rows = team_standings(
        &[1, 2, 3, 4],
        &matches,
        &[],
        2,
        &[TeamTiebreak::BoardPoints, TeamTiebreak::BoardWins],
        &BTreeMap::new(),
        &BTreeMap::new(),
    )
    .unwrap();
    assert_eq!((rows[1].rank, rows[1].shared), (1, true));
}

/// 18.4 applied to a team (在积分相同时，把受到18.1和18.2款处分的人(队)按其
/// 轻重程度和次数，依次排列在最后几个位置上): among teams equal on match
/// points the penalised last — before every 15.3 tie-break, so a team
/// ahead on board points falls behind — by weight (a disqualification
/// over any number of warnings), then number; teams on other match
/// points do not move.
#[test]
fn a_penalised_team_is_last_among_equal_match_points() {
    // As `team_round_robin_by_15_3`: 1: 4 MP; 2 and 3: 3 MP, 6 and 4.5
    // BP; 4: 2 MP.
    let matches = vec![
        m(1, 1, 4, "11=0"),
        m(1, 2, 3, "1100"),
        m(2, 1, 2, "0010"),
        m(2, 3, 4, "1=10"),
        m(3, 1, 3, "1111"),
        m(3, 2, 4, "0001"),
    ];
    let order = |penalties: &BTreeMap<u32, Penalty>| -> Vec<(u32, u32, bool, u32)> {
        team_standings(
            &[1, 2, 3, 4],
            &matches,
            &[],
            4,
            &TeamTiebreak::ROUND_ROBIN,
            &BTreeMap::new(),
            penalties,
        )
        .unwrap()
        .iter()
        .map(|r| (r.rank, r.team, r.shared, r.match_points))
        .collect()
    };
    let plain = order(&BTreeMap::new());
    assert_eq!(
        plain.iter().map(|r| r.1).collect::<Vec<_>>(),
        vec![1, 2, 3, 4],
        "{plain:?}"
    );
    let warned = |n| Penalty {
        disqualifications: 0,
        warnings: n,
    };
    let disqualified = Penalty {
        disqualifications: 1,
        warnings: 0,
    };
    // A warning to team 2: behind team 3 despite more board points.
    let got = order(&BTreeMap::from([(2, warned(1))]));
    assert_eq!(
        got,
        vec![
            (1, 1, false, 4),
            (2, 3, false, 3),
            (3, 2, false, 3),
            (4, 4, false, 2)
        ]
    );
    // The leader and the last alone on their match points do not move.
    let got = order(&BTreeMap::from([(1, warned(3)), (4, disqualified)]));
    assert_eq!(got, order(&BTreeMap::new()));
    // Both penalised: two warnings weigh less than a disqualification.
    let got = order(&BTreeMap::from([(2, disqualified), (3, warned(2))]));
    assert_eq!(got[1..3], [(2, 3, false, 3), (3, 2, false, 3)]);
    // The same penalties: the tie-breaks decide again.
    let got = order(&BTreeMap::from([(2, warned(1)), (3, warned(1))]));
    assert_eq!(got, order(&BTreeMap::new()));
}

/// 18.4 in 15.5's ranking: the sum of places is the score; a penalised
/// team is last among equal sums, before the best place decides.
#[test]
fn a_penalised_team_is_last_among_equal_sums_of_places() {
    let places = vec![vec![1, 8, 9], vec![2, 6, 10], vec![3, 4, 5]];
    let warned = Penalty {
        disqualifications: 0,
        warnings: 1,
    };
    assert_eq!(
        team_total_ranking(&places, &[], &[]),
        vec![(2, 1, false), (0, 2, false), (1, 3, false)]
    );
    assert_eq!(
        team_total_ranking(&places, &[], &[warned, Penalty::default(), Penalty::default()]),
        vec![(2, 1, false), (1, 2, false), (0, 3, false)]
    );
    // Team 2 (index 2) is alone on 12: a penalty does not move it.
    assert_eq!(
        team_total_ranking(&places, &[], &[Penalty::default(), Penalty::default(), warned]),
        vec![(2, 1, false), (0, 2, false), (1, 3, false)]
    );
}
