//! Round robin (循环制, CXA 11.2 and 13.1): who meets whom in which round and
//! with which colour, by the FIDE Berger tables (Handbook C.05 Annex 1), and
//! seeded groups followed by a final (分组循环 then 决赛, CXA 11.3).
//!
//! Pairing numbers are 1-based, as on the published tables. The first-listed
//! player of a board has white / red (CXA 13.1: 表上每轮号码列前者执红棋).
//! With an odd number of players the table for one more is used and the
//! highest number is the phantom: whoever meets it sits the round out.

use thiserror::Error;

/// What an impossible round-robin request was.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RoundRobinError {
    #[error("a round robin needs at least 2 players, not {players}")]
    TooFewPlayers { players: u32 },
    #[error("round {round} does not exist: the table for {players} players has rounds 1 to {rounds}")]
    NoSuchRound { players: u32, round: u32, rounds: u32 },
    #[error("{players} players cannot be split into {groups} groups of at least 2")]
    BadGroups { players: u32, groups: u32 },
    #[error("group {group} has {size} players; cannot take the top {take}")]
    NotEnoughInGroup { group: usize, size: usize, take: usize },
}

/// One board of a round: a game (first-listed = white/red) or a bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Board {
    Game {
        white: u32,
        black: u32,
    },
    /// The player sits out (paired against the phantom of an odd field).
    Bye {
        player: u32,
    },
}

impl Board {
    /// The board with colours reversed (the second cycle of a double round
    /// robin); a bye stays a bye.
    pub fn reversed(self) -> Board {
        match self {
            Board::Game { white, black } => Board::Game {
                white: black,
                black: white,
            },
            bye => bye,
        }
    }
}

/// Single or double round robin (一循环 / 双循环, CXA 11.2: 一局制 or 两局制).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cycles {
    Single,
    /// Each pair meets twice. The first cycle is the Berger table with its
    /// last two rounds swapped, as C.05 Annex 1 recommends ("to avoid three
    /// consecutive games with the same colour"); the second cycle is the
    /// table again, in its published order, with every colour reversed.
    Double,
}

/// The size of the table an event of `players` uses: one more when odd.
fn table_size(players: u32) -> u32 {
    players + players % 2
}

/// Rounds in one cycle for `players` players.
pub fn rounds_per_cycle(players: u32) -> u32 {
    table_size(players) - 1
}

/// One round of the FIDE Berger table for `players` players (round 1-based,
/// within one cycle), boards in the published order.
///
/// The published tables follow one rule, which this computes: in round r the
/// players 1..N-1 are laid on a circle starting at `(r-1)·N/2 mod (N-1) + 1`;
/// the first of them meets N (white in odd rounds, N white in even rounds),
/// and the k-th meets the (N-1-k)-th with the k-th white. The test
/// `berger_tables_match_fide` compares this with the typed tables, 3–16.
pub fn berger_round(players: u32, round: u32) -> Result<Vec<Board>, RoundRobinError> {
    if players < 2 {
        return Err(RoundRobinError::TooFewPlayers { players });
    }
    let n = table_size(players);
    let rounds = n - 1;
    if round == 0 || round > rounds {
        return Err(RoundRobinError::NoSuchRound {
            players,
            round,
            rounds,
        });
    }
    let start = (round - 1) * (n / 2) % (n - 1);
    let at = |i: u32| (start + i) % (n - 1) + 1;
    let mut boards = Vec::with_capacity(n as usize / 2);
    let first = at(0);
    let (white, black) = if !round.is_multiple_of(2) {
        (first, n)
    } else {
        (n, first)
    };
    boards.push(board(players, white, black));
    for k in 1..n / 2 {
        boards.push(board(players, at(k), at(n - 1 - k)));
    }
    Ok(boards)
}

/// A game, or a bye when one side is the phantom of an odd field.
fn board(players: u32, white: u32, black: u32) -> Board {
    if white > players {
        Board::Bye { player: black }
    } else if black > players {
        Board::Bye { player: white }
    } else {
        Board::Game { white, black }
    }
}

/// Every round of the event in playing order.
pub fn berger_table(players: u32, cycles: Cycles) -> Result<Vec<Vec<Board>>, RoundRobinError> {
    let per = rounds_per_cycle(players.max(2));
    let first: Vec<Vec<Board>> = (1..=per)
        .map(|r| berger_round(players, r))
        .collect::<Result<_, _>>()?;
    match cycles {
        Cycles::Single => Ok(first),
        Cycles::Double => {
            let mut rounds = first.clone();
            if rounds.len() >= 2 {
                let last = rounds.len() - 1;
                rounds.swap(last - 1, last);
            }
            rounds.extend(
                first
                    .iter()
                    .map(|round| round.iter().map(|b| b.reversed()).collect()),
            );
            Ok(rounds)
        }
    }
}

/// Seeded groups (分组循环, CXA 11.3: 根据等级分或比赛成绩排定"种子"分成若干组):
/// players given in seeding order (best first) are dealt to `groups` groups
/// in a snake — seeds 1..g into groups 1..g, the next g back from g to 1, and
/// so on — so every group gets one player from each seeding band and the
/// group strengths stay even. Each inner list is in seeding order, which is
/// the order of pairing numbers within the group.
pub fn snake_groups<T: Clone>(seeded: &[T], groups: u32) -> Result<Vec<Vec<T>>, RoundRobinError> {
    let players = seeded.len() as u32;
    if groups == 0 || players < 2 * groups {
        return Err(RoundRobinError::BadGroups { players, groups });
    }
    let g = groups as usize;
    let mut out = vec![Vec::new(); g];
    for (i, p) in seeded.iter().enumerate() {
        let band = i / g;
        let pos = i % g;
        let group = if band.is_multiple_of(2) { pos } else { g - 1 - pos };
        out[group].push(p.clone());
    }
    Ok(out)
}

/// The final (决赛) field from the groups' final standings: the top `take`
/// of each group, ordered group winners first (group 1, 2, …), then the
/// runners-up, and so on — the order that gives them their seeds in the
/// final.
pub fn finalists<T: Clone>(standings: &[Vec<T>], take: usize) -> Result<Vec<T>, RoundRobinError> {
    for (i, g) in standings.iter().enumerate() {
        if g.len() < take {
            return Err(RoundRobinError::NotEnoughInGroup {
                group: i + 1,
                size: g.len(),
                take,
            });
        }
    }
    Ok((0..take)
        .flat_map(|place| standings.iter().map(move |g| g[place].clone()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_meets_once_and_every_round_is_complete() {
        for n in 2..=24 {
            let table = berger_table(n, Cycles::Single).unwrap();
            let mut met = std::collections::HashSet::new();
            for round in &table {
                let mut seen = std::collections::HashSet::new();
                for b in round {
                    match *b {
                        Board::Game { white, black } => {
                            assert!(seen.insert(white) && seen.insert(black));
                            assert!(met.insert((white.min(black), white.max(black))));
                        }
                        Board::Bye { player } => assert!(seen.insert(player)),
                    }
                }
                assert_eq!(seen.len() as u32, n);
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
        }
    }

    #[test]
    fn double_round_robin_never_gives_three_same_colours_in_a_row() {
        for n in 3..=16 {
            let table = berger_table(n, Cycles::Double).unwrap();
            for p in 1..=n {
                let colours: Vec<Option<bool>> = table
                    .iter()
                    .map(|round| {
                        round.iter().find_map(|b| match *b {
                            Board::Game { white, .. } if white == p => Some(Some(true)),
                            Board::Game { black, .. } if black == p => Some(Some(false)),
                            Board::Bye { player } if player == p => Some(None),
                            _ => None,
                        })
                    })
                    .map(|c| c.unwrap())
                    .collect();
                // Only an even field is free of byes; the rule is about
                // consecutive games, so byes break a run.
                for w in colours.windows(3) {
                    if let [Some(a), Some(b), Some(c)] = w {
                        assert!(!(a == b && b == c), "player {p} of {n}: {colours:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn impossible_requests_are_errors() {
        assert_eq!(
            berger_round(1, 1),
            Err(RoundRobinError::TooFewPlayers { players: 1 })
        );
        assert_eq!(
            berger_round(7, 8),
            Err(RoundRobinError::NoSuchRound {
                players: 7,
                round: 8,
                rounds: 7
            })
        );
        assert!(snake_groups(&[1, 2, 3], 2).is_err());
    }

    #[test]
    fn snake_seeding_and_finalists() {
        let seeds: Vec<u32> = (1..=12).collect();
        let groups = snake_groups(&seeds, 3).unwrap();
        assert_eq!(
            groups,
            vec![vec![1, 6, 7, 12], vec![2, 5, 8, 11], vec![3, 4, 9, 10]]
        );
        let standings = vec![vec![6, 1, 7, 12], vec![2, 8, 5, 11], vec![9, 3, 4, 10]];
        assert_eq!(finalists(&standings, 2).unwrap(), vec![6, 2, 9, 1, 8, 3]);
    }
}
