//! The Berger tables against FIDE's published ones (C.05 Annex 1), typed by
//! hand into `tests/data/roundrobin/fide_berger_tables.txt`.

use tournament::roundrobin::{berger_round, berger_table, Board, Cycles};

/// One table: its size and its rounds of (white, black) pairs.
type Table = (u32, Vec<Vec<(u32, u32)>>);

/// Tables by size (4, 6, …, 16).
fn fide_tables() -> Vec<Table> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/roundrobin/fide_berger_tables.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut tables: Vec<Table> = Vec::new();
    for line in text.lines() {
        if let Some(head) = line.strip_suffix(" players:") {
            let size = head.split(" or ").nth(1).unwrap().parse().unwrap();
            tables.push((size, Vec::new()));
        } else if let Some(rest) = line.strip_prefix("Rd ") {
            let (_, games) = rest.split_once(": ").unwrap();
            let round = games
                .trim_end_matches('.')
                .split(", ")
                .map(|g| {
                    let (w, b) = g.split_once('-').unwrap();
                    (w.parse().unwrap(), b.parse().unwrap())
                })
                .collect();
            tables.last_mut().unwrap().1.push(round);
        }
    }
    tables
}

#[test]
fn berger_tables_match_fide_for_3_to_16_players() {
    let tables = fide_tables();
    assert_eq!(tables.len(), 7);
    for players in 3..=16u32 {
        let size = players + players % 2;
        let (_, fide) = tables.iter().find(|(s, _)| *s == size).unwrap();
        assert_eq!(fide.len() as u32, size - 1);
        for (r, fide_round) in fide.iter().enumerate() {
            let ours = berger_round(players, r as u32 + 1).unwrap();
            let expected: Vec<Board> = fide_round
                .iter()
                .map(|&(white, black)| {
                    if white > players {
                        Board::Bye { player: black }
                    } else if black > players {
                        Board::Bye { player: white }
                    } else {
                        Board::Game { white, black }
                    }
                })
                .collect();
            assert_eq!(ours, expected, "{players} players, round {}", r + 1);
        }
    }
}

#[test]
fn double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle() {
    let tables = fide_tables();
    let (_, fide6) = tables.iter().find(|(s, _)| *s == 6).unwrap();
    let double = berger_table(6, Cycles::Double).unwrap();
    assert_eq!(double.len(), 10);
    let game = |&(white, black): &(u32, u32)| Board::Game { white, black };
    let fide: Vec<Vec<Board>> = fide6.iter().map(|r| r.iter().map(game).collect()).collect();
    assert_eq!(double[..3], fide[..3]);
    assert_eq!(double[3], fide[4]);
    assert_eq!(double[4], fide[3]);
    for r in 0..5 {
        let reversed: Vec<Board> = fide[r].iter().map(|b| b.reversed()).collect();
        assert_eq!(double[5 + r], reversed);
    }
}
