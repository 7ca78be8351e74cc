//! The final ranking: points first; among equal points the players with
//! disciplinary penalties last (CXA 18.4); then the event's tie-breaks in
//! order; what is still tied shares the place (名次并列, 15.1–15.5), except
//! the places the event wants decided over the board (15.6: 冠军或不宜并列的
//! 名次应安排加赛), which are reported as play-offs.

use std::collections::BTreeMap;

use crate::model::{PlayerId, Points, Tournament};

use super::{Encounter, System, Table, Tiebreak, TiebreakError, Unplayed, Value};

/// Disciplinary penalties of a player (CXA 18.1 warning 警告, 18.2
/// disqualification from a game 取消当场比赛资格). 18.4 puts the penalised
/// last among equal scores, "by the weight and the number" of penalties:
/// disqualifications weigh more than warnings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Penalty {
    pub disqualifications: u32,
    pub warnings: u32,
}

/// How an event ranks its players.
#[derive(Debug, Clone)]
pub struct Rules {
    pub system: System,
    pub tiebreaks: Vec<Tiebreak>,
    /// Fouls (犯规) per player, for the `FOUL` tie-break.
    pub fouls: BTreeMap<PlayerId, u32>,
    pub penalties: BTreeMap<PlayerId, Penalty>,
    /// Places 1..=n that may not be shared (15.6); 0: every tie is shared.
    pub playoff_places: u32,
    /// How unplayed rounds count in Buchholz and Sonneborn–Berger.
    pub unplayed: Unplayed,
}

impl Rules {
    pub fn new(system: System, tiebreaks: Vec<Tiebreak>) -> Rules {
        Rules {
            system,
            tiebreaks,
            fouls: BTreeMap::new(),
            penalties: BTreeMap::new(),
            playoff_places: 0,
            unplayed: Unplayed::Dummy,
        }
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The place; players still tied share it.
    pub rank: u32,
    pub shared: bool,
    pub id: PlayerId,
    pub name: String,
    pub points: Points,
    /// One per tie-break of the rules, in order. Direct encounter has a
    /// value (points against the others of the tied group) only where it
    /// was applied.
    pub values: Vec<Option<Value>>,
}

/// The standings and the ties that need a play-off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings {
    pub tiebreaks: Vec<Tiebreak>,
    pub rows: Vec<Row>,
    /// Groups tied on a place the rules do not let them share (15.6).
    pub playoffs: Vec<Vec<PlayerId>>,
}

/// One step of the ordering after points.
#[derive(Clone, Copy)]
enum Step {
    Penalties,
    By(Tiebreak),
}

struct Ranker<'a> {
    table: Table<'a>,
    rules: &'a Rules,
    steps: Vec<Step>,
    /// Mini-table points (tenths × [`Encounter::SCALE`]) where direct
    /// encounter was applied.
    encounter: BTreeMap<PlayerId, i64>,
}

impl Ranker<'_> {
    /// The ordered subgroups `group` splits into from step `i` on.
    fn split(&mut self, group: Vec<PlayerId>, i: usize) -> Vec<Vec<PlayerId>> {
        if group.len() < 2 || i == self.steps.len() {
            return vec![group];
        }
        let parts = match self.steps[i] {
            Step::By(Tiebreak::DirectEncounter) => self.direct_encounter(group),
            Step::Penalties => {
                let key = |p: &PlayerId| self.rules.penalties.get(p).copied().unwrap_or_default();
                chunks(group, |p| key(p))
            }
            Step::By(tb) => {
                let v = |p: &PlayerId| {
                    let raw = self.table.value(*p, tb).map_or(0, |v| v.raw);
                    if tb.lower_is_better() {
                        raw
                    } else {
                        -raw
                    }
                };
                chunks(group, v)
            }
        };
        parts.into_iter().flat_map(|g| self.split(g, i + 1)).collect()
    }

    /// C.07 6 / CXA 直胜. When all the tied players have met (6.1), order
    /// them by the points they scored against each other, and look again
    /// at a subgroup still tied on its own games (6.2). When some have not
    /// met (6.3), rank first a player whose mini-table score beats every
    /// other's score plus a win for each encounter that other has not had,
    /// and repeat on the rest; whoever cannot be ranked that way stays tied.
    fn direct_encounter(&mut self, group: Vec<PlayerId>) -> Vec<Vec<PlayerId>> {
        let e = self.table.encounter(&group, self.rules.system);
        for (p, pts) in group.iter().zip(&e.points) {
            self.encounter.insert(*p, *pts);
        }
        let n = group.len();
        if e.all_met() {
            let by: BTreeMap<PlayerId, i64> = group.iter().copied().zip(e.points).collect();
            return chunks(group, |p| -by[p])
                .into_iter()
                .flat_map(|g| {
                    if g.len() > 1 && g.len() < n {
                        self.direct_encounter(g)
                    } else {
                        vec![g]
                    }
                })
                .collect();
        }
        let win = self.table.win_points().0 as i64 * Encounter::SCALE;
        let mut remaining = group;
        let mut tiers = Vec::new();
        while remaining.len() > 1 {
            let e = self.table.encounter(&remaining, self.rules.system);
            let best = (0..remaining.len()).find(|&i| {
                (0..remaining.len())
                    .filter(|&j| j != i)
                    .all(|j| e.points[i] > e.points[j] + e.missing[j] as i64 * win)
            });
            let Some(i) = best else { break };
            tiers.push(vec![remaining.remove(i)]);
        }
        tiers.push(remaining);
        tiers
    }
}

/// Stable split of `group` into runs of equal key, smallest key first.
fn chunks<K: Ord + Copy>(mut group: Vec<PlayerId>, key: impl Fn(&PlayerId) -> K) -> Vec<Vec<PlayerId>> {
    group.sort_by_key(|p| (key(p), *p));
    let mut out: Vec<Vec<PlayerId>> = Vec::new();
    for p in group {
        match out.last_mut() {
            Some(last) if key(&last[0]) == key(&p) => last.push(p),
            _ => out.push(vec![p]),
        }
    }
    out
}

/// The standings of `t` under `rules`.
pub fn standings(t: &Tournament, rules: &Rules) -> Result<Standings, TiebreakError> {
    let mut table = Table::with_rule(t, rules.unplayed, rules.system)?;
    table.fouls = rules.fouls.clone();
    let mut steps = Vec::new();
    if !rules.penalties.is_empty() {
        steps.push(Step::Penalties);
    }
    steps.extend(rules.tiebreaks.iter().copied().map(Step::By));
    let mut ranker = Ranker {
        table,
        rules,
        steps,
        encounter: BTreeMap::new(),
    };
    let ids: Vec<PlayerId> = t.players.iter().map(|p| p.id).collect();
    let by_points = chunks(ids, |p| -(ranker.table.score(*p).unwrap_or_default().0 as i64));
    let groups: Vec<Vec<PlayerId>> = by_points.into_iter().flat_map(|g| ranker.split(g, 0)).collect();
    let mut rows = Vec::new();
    let mut playoffs = Vec::new();
    let mut place = 1;
    for g in groups {
        if g.len() > 1 && place <= rules.playoff_places {
            playoffs.push(g.clone());
        }
        for &id in &g {
            let values = rules
                .tiebreaks
                .iter()
                .map(|&tb| match tb {
                    Tiebreak::DirectEncounter => ranker.encounter.get(&id).map(|&p| Value {
                        tiebreak: tb,
                        raw: Encounter::hundredths(p),
                    }),
                    _ => ranker.table.value(id, tb),
                })
                .collect();
            rows.push(Row {
                rank: place,
                shared: g.len() > 1,
                id,
                name: t.player(id).map(|p| p.name.clone()).unwrap_or_default(),
                points: ranker.table.score(id).unwrap_or_default(),
                values,
            });
        }
        place += g.len() as u32;
    }
    Ok(Standings {
        tiebreaks: rules.tiebreaks.clone(),
        rows,
        playoffs,
    })
}
