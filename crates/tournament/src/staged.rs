//! A staged event (seed 001's office event, 象棋比赛细则): seeded groups
//! playing a round robin, the best of each group going on to a knockout,
//! and, when only `final_size` players are left, a final round robin
//! among them — one event, its stages following each other by
//! themselves. Seed 001: 48 players in 12 groups of 4 (分十二组，每组四人),
//! each group a round robin (小组循环), the group winners (每组取第一名) a
//! knockout with group 1's winner against group 7's and so on (第一组出现
//! 选手对阵七组出现选手；依次类推), the six left drawing lots for the next
//! knockout round (先抽签然后进入第三轮), and the last three a final round
//! robin (最后一轮进行循环赛).
//!
//! The plan is data ([`Stages`]); every round's pairing follows from the
//! plan, the results of the rounds before and a lot seed, so an event
//! keeps nothing but its results and pairs the same again after a crash.
//! Numbers are the event's pairing numbers 1..=players (the initial
//! ranking), dealt to the groups in a snake (CXA 11.3,
//! [`roundrobin::snake_groups`](crate::roundrobin::snake_groups)).
//!
//! The groups need not be full: `group_size` is the largest group, and
//! any number of players from groups × max(2, advance) to groups ×
//! group_size is dealt so that the groups' sizes differ by one at most
//! ([`Stages::with_players`]). Each group plays its own Berger table (an
//! odd group has a bye a round); the group stage lasts as many rounds as
//! the largest group's table, and a group whose table is shorter sits the
//! last rounds out (a bye worth nothing).

use thiserror::Error;

use crate::roundrobin::{berger_round, finalists, rounds_per_cycle, snake_groups, Board};

/// Why a staged plan cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StagesError {
    #[error("a staged event needs at least 1 group, not {groups}")]
    NoGroups { groups: u32 },
    #[error("a group plays a round robin: it needs 2 to {max} players, not {size}")]
    BadGroupSize { size: u32, max: u32 },
    #[error("{advance} players cannot go on from groups of {size}: advance is 1 to {size}")]
    BadAdvance { advance: u32, size: u32 },
    #[error("the final round robin needs 2 to {field} players (the {field} who go on from the groups), not {final_size}")]
    BadFinalSize { final_size: u32, field: u32 },
    #[error("{groups} groups take {min} to {max} players (at least 2 in a group, and as many as go on from it), not {players}")]
    WrongPlayers {
        groups: u32,
        min: u32,
        max: u32,
        players: u32,
    },
    #[error("round {round} does not exist: the event has {rounds} rounds")]
    NoSuchRound { round: u32, rounds: u32 },
    #[error("{stage} round {round} is paired from {expected} players, not {got}")]
    WrongField {
        stage: &'static str,
        round: u32,
        expected: u32,
        got: u32,
    },
}

/// The plan of a staged event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stages {
    pub groups: u32,
    /// The largest group's size: the plan's, or with fewer players
    /// ([`Stages::with_players`]) the largest dealt.
    pub group_size: u32,
    /// How many of each group go on (每组取第一名: 1).
    pub advance: u32,
    /// When this many are left, the knockout stops and they play a final
    /// round robin (seed 001: 3).
    pub final_size: u32,
    /// The seed of the groups' drawing of lots (seed 001: 选手进场后进行
    /// 抽签分组); `None`: the groups are seeded in a snake (CXA 11.3).
    pub lot: Option<u64>,
    /// The players dealt to the groups: groups × group_size unless
    /// [`Stages::with_players`] says fewer.
    players: u32,
}

/// Which stage a round of the event belongs to, and its number within it
/// (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Groups(u32),
    Knockout(u32),
    Final(u32),
}

/// Most players in one group (a round robin the events room takes).
pub const MAX_GROUP_SIZE: u32 = 30;

impl Stages {
    /// A plan, checked: every stage can be played.
    pub fn new(groups: u32, group_size: u32, advance: u32, final_size: u32) -> Result<Stages, StagesError> {
        if groups == 0 {
            return Err(StagesError::NoGroups { groups });
        }
        if !(2..=MAX_GROUP_SIZE).contains(&group_size) {
            return Err(StagesError::BadGroupSize {
                size: group_size,
                max: MAX_GROUP_SIZE,
            });
        }
        if advance == 0 || advance > group_size {
            return Err(StagesError::BadAdvance {
                advance,
                size: group_size,
            });
        }
        let field = groups * advance;
        if final_size < 2 || final_size > field {
            return Err(StagesError::BadFinalSize { final_size, field });
        }
        Ok(Stages {
            groups,
            group_size,
            advance,
            final_size,
            lot: None,
            players: groups * group_size,
        })
    }

    /// The plan for `players` entries, from groups × max(2, advance) — a
    /// round robin needs two, and every group must have the `advance`
    /// who go on — up to groups × group_size. The groups' sizes differ by
    /// one at most; `group_size` becomes the largest's.
    ///
    /// # Errors
    /// [`StagesError::WrongPlayers`] outside that range.
    pub fn with_players(self, players: u32) -> Result<Stages, StagesError> {
        let (min, max) = (self.min_players(), self.max_players());
        if !(min..=max).contains(&players) {
            return Err(StagesError::WrongPlayers {
                groups: self.groups,
                min,
                max,
                players,
            });
        }
        Ok(Stages {
            group_size: players.div_ceil(self.groups),
            players,
            ..self
        })
    }

    /// The fewest players the groups take: two a group, and never fewer
    /// than go on from it.
    pub fn min_players(&self) -> u32 {
        self.groups * self.advance.max(2)
    }

    /// The most players the groups take: every group full.
    pub fn max_players(&self) -> u32 {
        self.groups * self.group_size
    }

    /// The same plan with its groups drawn by lot from `seed` (seed 001:
    /// each player draws a group and a number within it).
    #[must_use]
    pub fn drawn_by_lot(self, seed: u64) -> Stages {
        Stages {
            lot: Some(seed),
            ..self
        }
    }

    /// The players dealt to the groups.
    pub fn players(&self) -> u32 {
        self.players
    }

    /// Whether the groups take `players` entries ([`Stages::with_players`]).
    pub fn check_players(&self, players: u32) -> Result<(), StagesError> {
        self.with_players(players).map(|_| ())
    }

    /// Each group's pairing numbers, in the group's own order (its Berger
    /// numbers 1, 2, …): seeded in a snake (a last band short of a full
    /// one makes the groups it reaches one larger), or as the lot dealt
    /// them — the first drawn make group 1, in the order drawn, and so on,
    /// the first groups one larger when the players do not divide evenly.
    pub fn groups(&self) -> Vec<Vec<u32>> {
        let seeded: Vec<u32> = (1..=self.players).collect();
        match self.lot {
            None => snake_groups(&seeded, self.groups).expect("checked by Stages::new"),
            Some(seed) => {
                let drawn = draw_lots(&seeded, seed);
                let (q, r) = (self.players / self.groups, self.players % self.groups);
                let mut rest = drawn.as_slice();
                (0..self.groups)
                    .map(|g| {
                        let (group, after) = rest.split_at((q + u32::from(g < r)) as usize);
                        rest = after;
                        group.to_vec()
                    })
                    .collect()
            }
        }
    }

    /// The group stage's rounds: the largest group's Berger table.
    pub fn group_rounds(&self) -> u32 {
        rounds_per_cycle(self.group_size)
    }

    /// The size of the field at the start of each knockout round. Each
    /// round plays only as many matches as bring the field down to
    /// `final_size` (half the field at most); the best seeds sit out the
    /// rest (byes). 12 → 6 → 3 for seed 001.
    pub fn knockout_fields(&self) -> Vec<u32> {
        let mut n = self.groups * self.advance;
        let mut out = Vec::new();
        while n > self.final_size {
            out.push(n);
            n -= matches_in(n, self.final_size);
        }
        out
    }

    pub fn final_rounds(&self) -> u32 {
        rounds_per_cycle(self.final_size)
    }

    pub fn total_rounds(&self) -> u32 {
        self.group_rounds() + self.knockout_fields().len() as u32 + self.final_rounds()
    }

    /// The stage of event round `round`.
    pub fn stage_of(&self, round: u32) -> Result<Stage, StagesError> {
        let g = self.group_rounds();
        let k = self.knockout_fields().len() as u32;
        match round {
            0 => Err(self.no_round(round)),
            r if r <= g => Ok(Stage::Groups(r)),
            r if r <= g + k => Ok(Stage::Knockout(r - g)),
            r if r <= self.total_rounds() => Ok(Stage::Final(r - g - k)),
            r => Err(self.no_round(r)),
        }
    }

    fn no_round(&self, round: u32) -> StagesError {
        StagesError::NoSuchRound {
            round,
            rounds: self.total_rounds(),
        }
    }

    /// Group round `round`: every group's Berger round together, each group
    /// on its own table of its own size (its k-th seed is its number k),
    /// group 1's boards first. `(white, None)` is a bye: an odd group's, or
    /// every player's of a group whose table is over — a group one
    /// smaller than the largest, even where the largest is odd, has two
    /// rounds fewer, and sits the last two out.
    pub fn group_round(&self, round: u32) -> Result<Vec<(u32, Option<u32>)>, StagesError> {
        if round == 0 || round > self.group_rounds() {
            return Err(self.no_round(round));
        }
        let mut out = Vec::new();
        for group in self.groups() {
            let size = group.len() as u32;
            if round > rounds_per_cycle(size) {
                out.extend(group.iter().map(|&p| (p, None)));
                continue;
            }
            let table = berger_round(size, round).map_err(|_| self.no_round(round))?;
            out.extend(table.into_iter().map(|b| lines(b, &group)));
        }
        Ok(out)
    }

    /// Knockout round `round` from its field in seed order (best first):
    /// the best seeds sit out if fewer matches than half the field are
    /// needed; the rest are paired — the first knockout round in a slide,
    /// the k-th of them against the (m+k)-th (seed 001: group 1's winner
    /// against group 7's), later rounds in the order of a drawing of lots
    /// (`drawn`: the field as the lot dealt it, neighbours meeting; seed
    /// 001: 先抽签然后进入第三轮，两两对阵). Returns the boards, byes as
    /// `(player, None)`, first-listed the better seed (or the earlier lot).
    pub fn knockout_round(
        &self,
        round: u32,
        field: &[u32],
        lot_seed: u64,
    ) -> Result<Vec<(u32, Option<u32>)>, StagesError> {
        let fields = self.knockout_fields();
        let expected = *fields
            .get(round as usize - 1)
            .ok_or_else(|| self.no_round(round))?;
        if field.len() as u32 != expected {
            return Err(StagesError::WrongField {
                stage: "knockout",
                round,
                expected,
                got: field.len() as u32,
            });
        }
        let m = matches_in(expected, self.final_size) as usize;
        let byes = field.len() - 2 * m;
        let mut out: Vec<(u32, Option<u32>)> = field[..byes].iter().map(|&p| (p, None)).collect();
        let rest = &field[byes..];
        if round == 1 {
            out.extend((0..m).map(|k| (rest[k], Some(rest[k + m]))));
        } else {
            let drawn = draw_lots(rest, lot_seed);
            out.extend(drawn.chunks(2).map(|p| (p[0], Some(p[1]))));
        }
        Ok(out)
    }

    /// Final round `round` among the finalists in seed order (their Berger
    /// numbers 1..=final_size).
    pub fn final_round(&self, round: u32, field: &[u32]) -> Result<Vec<(u32, Option<u32>)>, StagesError> {
        if field.len() as u32 != self.final_size {
            return Err(StagesError::WrongField {
                stage: "final",
                round,
                expected: self.final_size,
                got: field.len() as u32,
            });
        }
        let table = berger_round(self.final_size, round).map_err(|_| self.no_round(round))?;
        Ok(table.into_iter().map(|b| lines(b, field)).collect())
    }

    /// The knockout's field from the groups' standings (each group's
    /// numbers in finishing order): the top `advance` of each group,
    /// group winners first, then the runners-up …, and within a place by
    /// pairing number — the initial ranking, i.e. rating (CXA 11.3's
    /// seeds).
    pub fn field_from_groups(&self, standings: &[Vec<u32>]) -> Result<Vec<u32>, StagesError> {
        let mut field = finalists(standings, self.advance as usize).map_err(|_| StagesError::WrongField {
            stage: "groups",
            round: 0,
            expected: self.group_size,
            got: standings.iter().map(|g| g.len() as u32).min().unwrap_or(0),
        })?;
        for place in field.chunks_mut(standings.len()) {
            place.sort_unstable();
        }
        Ok(field)
    }
}

/// Matches in a knockout round of `n` toward a final of `final_size`.
fn matches_in(n: u32, final_size: u32) -> u32 {
    (n / 2).min(n - final_size)
}

/// A Berger board of a table whose numbers stand for `players` (1-based).
fn lines(b: Board, players: &[u32]) -> (u32, Option<u32>) {
    let at = |n: u32| players[n as usize - 1];
    match b {
        Board::Game { white, black } => (at(white), Some(at(black))),
        Board::Bye { player } => (at(player), None),
    }
}

/// The seed of an event round's lot: FNV-1a of the event's id and the
/// round, so the same event draws the same lot every time it is asked
/// (after a restart too) and anyone can draw it again from the log.
pub fn lot_seed(event: &str, round: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in event.bytes().chain(round.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A drawing of lots (抽签): `players` shuffled by Fisher–Yates with
/// splitmix64 from `seed` — reproducible, so the lot is part of the plan.
pub fn draw_lots(players: &[u32], seed: u64) -> Vec<u32> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut out = players.to_vec();
    for i in (1..out.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

/// The final order of a staged event: the final round robin's order, then
/// the knockout's losers by the round they reached (the later, the
/// better; seed 001: 第三轮败北的三人获得三等奖), then the rest by their
/// group place; within one knockout round or one group place, by the
/// order given (the knockout's seeds, or pairing numbers).
pub fn final_order(
    final_standings: &[u32],
    knockout_losers: &[Vec<u32>],
    group_places: &[Vec<u32>],
) -> Vec<u32> {
    let mut out: Vec<u32> = final_standings.to_vec();
    for losers in knockout_losers.iter().rev() {
        out.extend(
            losers
                .iter()
                .filter(|p| !out.contains(p))
                .copied()
                .collect::<Vec<_>>(),
        );
    }
    for place in group_places {
        out.extend(
            place
                .iter()
                .filter(|p| !out.contains(p))
                .copied()
                .collect::<Vec<_>>(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 001's office event: 12 groups of 4, the winners on, a final
    /// of three.
    #[test]
    fn seed_001s_office_event() {
        let s = Stages::new(12, 4, 1, 3).unwrap();
        assert_eq!(s.players(), 48);
        assert_eq!(s.group_rounds(), 3);
        assert_eq!(s.knockout_fields(), vec![12, 6]);
        assert_eq!(s.final_rounds(), 3);
        assert_eq!(s.total_rounds(), 8);
        assert_eq!(s.stage_of(3), Ok(Stage::Groups(3)));
        assert_eq!(s.stage_of(4), Ok(Stage::Knockout(1)));
        assert_eq!(s.stage_of(5), Ok(Stage::Knockout(2)));
        assert_eq!(s.stage_of(6), Ok(Stage::Final(1)));
        assert_eq!(s.stage_of(8), Ok(Stage::Final(3)));
        assert!(s.stage_of(9).is_err());
        // Every player plays 3 group games, one a round, within the group.
        let groups = s.groups();
        for r in 1..=3 {
            let boards = s.group_round(r).unwrap();
            assert_eq!(boards.len(), 24);
            for (w, b) in &boards {
                let g = groups.iter().find(|g| g.contains(w)).unwrap();
                assert!(g.contains(&b.unwrap()), "round {r}: {w} and {b:?} in one group");
            }
        }
        // Group winners: group g's first seed (g) wins it, except group 1,
        // won by its second seed 24.
        let mut standings = groups.clone();
        standings[0].swap(0, 1);
        let field = s.field_from_groups(&standings).unwrap();
        assert_eq!(field, vec![2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 24]);
        // Group 1's winner against group 7's, and so on (slide).
        let ko1 = s.knockout_round(1, &field, 0).unwrap();
        assert_eq!(ko1[0], (2, Some(8)));
        assert_eq!(ko1[5], (7, Some(24)));
        // The six winners draw lots: the same lot from the same seed.
        let six = [2, 3, 4, 5, 6, 7];
        let seed = lot_seed("ev1", 5);
        let ko2 = s.knockout_round(2, &six, seed).unwrap();
        assert_eq!(ko2, s.knockout_round(2, &six, seed).unwrap());
        assert_eq!(ko2.len(), 3);
        let mut drawn: Vec<u32> = ko2.iter().flat_map(|&(a, b)| [a, b.unwrap()]).collect();
        drawn.sort_unstable();
        assert_eq!(drawn, six);
        assert_ne!(
            (1..50)
                .map(|r| s.knockout_round(2, &six, lot_seed("ev1", r)).unwrap())
                .collect::<std::collections::HashSet<_>>()
                .len(),
            1,
            "the lot depends on its seed"
        );
        // Final order: the final's, then the losers of the last knockout
        // round (third prizes, 三等奖), then the first round's, then the
        // groups' places.
        let losers = vec![vec![8, 9, 10, 11, 12, 24], vec![3, 4, 6]];
        let places: Vec<Vec<u32>> = (0..4)
            .map(|i| {
                let mut p: Vec<u32> = standings.iter().map(|g| g[i]).collect();
                p.sort_unstable();
                p
            })
            .collect();
        let order = final_order(&[5, 2, 7], &losers, &places);
        assert_eq!(order.len(), 48);
        assert_eq!(order[..12], [5, 2, 7, 3, 4, 6, 8, 9, 10, 11, 12, 24]);
        assert_eq!(order[12], 1, "group 1's runner-up, the best seed among them");
        // The final: three players, three rounds, a bye each.
        let fin: Vec<_> = (1..=3).map(|r| s.final_round(r, &[2, 5, 7]).unwrap()).collect();
        assert!(fin
            .iter()
            .all(|r| r.len() == 2 && r.iter().any(|b| b.1.is_none())));
    }

    /// The server test's shape: 2 groups of 4, two go on, a final of three
    /// — one knockout match, the two best seeds sitting it out.
    #[test]
    fn two_groups_of_four_to_a_final_of_three() {
        let s = Stages::new(2, 4, 2, 3).unwrap();
        assert_eq!(s.groups(), vec![vec![1, 4, 5, 8], vec![2, 3, 6, 7]]);
        assert_eq!(s.knockout_fields(), vec![4]);
        assert_eq!(s.total_rounds(), 3 + 1 + 3);
        let field = s
            .field_from_groups(&[vec![5, 1, 4, 8], vec![2, 7, 3, 6]])
            .unwrap();
        assert_eq!(field, vec![2, 5, 1, 7]);
        assert_eq!(
            s.knockout_round(1, &field, 0).unwrap(),
            vec![(2, None), (5, None), (1, Some(7))]
        );
        assert!(s.knockout_round(1, &field[..3], 0).is_err());
        // 7 beat 1; 7 and 1 were out in the knockout and in the groups.
        let order = final_order(
            &[5, 7, 2],
            &[vec![1]],
            &[vec![5, 2], vec![1, 7], vec![4, 3], vec![8, 6]],
        );
        assert_eq!(order, vec![5, 7, 2, 1, 4, 3, 8, 6]);
    }

    #[test]
    fn groups_straight_to_the_final() {
        let s = Stages::new(2, 3, 1, 2).unwrap();
        assert!(s.knockout_fields().is_empty());
        assert_eq!(s.group_rounds(), 3);
        assert_eq!(s.stage_of(4), Ok(Stage::Final(1)));
        assert_eq!(s.total_rounds(), 4);
    }

    /// Groups drawn by lot: every player in exactly one group of the
    /// plan's size, the same groups from the same seed, other groups from
    /// another (and not the snake).
    #[test]
    fn groups_drawn_by_lot() {
        let s = Stages::new(12, 4, 1, 3).unwrap();
        let drawn = s.drawn_by_lot(lot_seed("ev1", 0));
        let groups = drawn.groups();
        assert_eq!(groups.len(), 12);
        assert!(groups.iter().all(|g| g.len() == 4));
        let mut all: Vec<u32> = groups.iter().flatten().copied().collect();
        all.sort_unstable();
        assert_eq!(all, (1..=48).collect::<Vec<_>>());
        assert_eq!(groups, s.drawn_by_lot(lot_seed("ev1", 0)).groups());
        assert_ne!(groups, s.drawn_by_lot(lot_seed("ev2", 0)).groups());
        assert_ne!(groups, s.groups());
        assert_eq!(
            groups[0],
            draw_lots(&(1..=48).collect::<Vec<_>>(), lot_seed("ev1", 0))[..4]
        );
    }

    #[test]
    fn impossible_plans_are_errors() {
        assert_eq!(Stages::new(0, 4, 1, 2), Err(StagesError::NoGroups { groups: 0 }));
        assert!(matches!(
            Stages::new(2, 1, 1, 2),
            Err(StagesError::BadGroupSize { .. })
        ));
        assert_eq!(
            Stages::new(2, 4, 5, 2),
            Err(StagesError::BadAdvance { advance: 5, size: 4 })
        );
        assert_eq!(
            Stages::new(2, 4, 1, 3),
            Err(StagesError::BadFinalSize {
                final_size: 3,
                field: 2
            })
        );
        assert!(Stages::new(2, 4, 1, 1).is_err());
        let s = Stages::new(2, 4, 2, 3).unwrap();
        assert_eq!(
            s.check_players(9),
            Err(StagesError::WrongPlayers {
                groups: 2,
                min: 4,
                max: 8,
                players: 9
            })
        );
        // Two go on from each group: a group needs two at least.
        assert!(s.check_players(3).is_err());
        assert!(s.check_players(4).is_ok());
        // Three go on: groups of three at least.
        let three = Stages::new(2, 4, 3, 3).unwrap();
        assert_eq!(three.min_players(), 6);
        assert!(three.with_players(5).is_err());
    }

    /// Groups of unequal size: 11 players in 3 groups of at most 4 are
    /// groups of 4, 4 and 3 — by the snake, the last band (10, 11) goes
    /// to the groups it reaches; by lot, to the first groups. Each group
    /// plays its own table: the group of 3 has a bye every round, and the
    /// stage lasts the groups of 4's three rounds.
    #[test]
    fn groups_of_unequal_size() {
        let s = Stages::new(3, 4, 1, 3).unwrap().with_players(11).unwrap();
        assert_eq!((s.players(), s.group_size), (11, 4));
        let groups = s.groups();
        // Snake: 1 2 3 | 6 5 4 | 7 8 9 | (12) 11 10.
        assert_eq!(groups, vec![vec![1, 6, 7], vec![2, 5, 8, 11], vec![3, 4, 9, 10]]);
        assert_eq!(s.group_rounds(), 3);
        // No knockout: the three winners are the final's three.
        assert_eq!(s.total_rounds(), 3 + 3);
        for r in 1..=3 {
            let boards = s.group_round(r).unwrap();
            // Group 1 (3 players): one game, one bye; groups 2, 3: two games.
            assert_eq!(boards.len(), 2 + 2 + 2, "round {r}: {boards:?}");
            let byes: Vec<u32> = boards.iter().filter(|b| b.1.is_none()).map(|b| b.0).collect();
            assert_eq!(byes.len(), 1, "round {r}");
            assert!(groups[0].contains(&byes[0]));
            for (w, b) in boards.iter().filter_map(|&(w, b)| Some((w, b?))) {
                assert!(groups.iter().any(|g| g.contains(&w) && g.contains(&b)));
            }
        }
        // Group 1's own table of three: 1 v 3 with 2's bye, then 3 v 2 and 1's bye … (Berger 3).
        let first = |r| -> Vec<(u32, Option<u32>)> { s.group_round(r).unwrap()[..2].to_vec() };
        assert_eq!(first(1), vec![(1, None), (6, Some(7))]);
        assert!(s.group_round(4).is_err());
        // By lot: the first two groups one larger.
        let lot = s.drawn_by_lot(lot_seed("ev1", 0));
        let sizes: Vec<usize> = lot.groups().iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![4, 4, 3]);
        let mut all: Vec<u32> = lot.groups().concat();
        all.sort_unstable();
        assert_eq!(all, (1..=11).collect::<Vec<_>>());
        // Knockout and final unchanged: the three group winners to a final.
        assert!(s.knockout_fields().is_empty());
        let field = s.field_from_groups(&groups).unwrap();
        assert_eq!(field, vec![1, 2, 3]);
        // Full groups: the plan as before.
        let full = Stages::new(3, 4, 1, 3).unwrap();
        assert_eq!(full.with_players(12).unwrap(), full);
    }

    /// A group two rounds short: 9 players in 2 groups of at most 5 are
    /// groups of 5 and 4. The group of 5 plays five rounds with a bye each;
    /// the group of 4 plays its three and sits rounds 4 and 5 out.
    #[test]
    fn a_smaller_group_sits_out_the_rounds_its_table_has_not() {
        let s = Stages::new(2, 5, 2, 2).unwrap().with_players(9).unwrap();
        let groups = s.groups();
        assert_eq!(groups, vec![vec![1, 4, 5, 8, 9], vec![2, 3, 6, 7]]);
        assert_eq!(s.group_rounds(), 5);
        for r in 1..=5u32 {
            let boards = s.group_round(r).unwrap();
            let byes: Vec<u32> = boards.iter().filter(|b| b.1.is_none()).map(|b| b.0).collect();
            let want = if r <= 3 { 1 } else { 1 + 4 };
            assert_eq!(byes.len(), want, "round {r}: {boards:?}");
        }
        // Every pair of each group meets exactly once.
        let mut met = std::collections::HashSet::new();
        for r in 1..=5 {
            for (w, b) in s
                .group_round(r)
                .unwrap()
                .into_iter()
                .filter_map(|(w, b)| Some((w, b?)))
            {
                assert!(met.insert((w.min(b), w.max(b))));
            }
        }
        assert_eq!(met.len(), 10 + 6);
    }
}
