//! Groups → knockout → final as one event (seed 001's office event; the
//! plan and its pairings are `tournament::staged`'s). This module reads
//! where a staged event stands from its stored rows alone — the group
//! standings after the group rounds, each knockout round's field, who went
//! out where, the final's field and order — so pairing the next stage
//! after a restart gives the same boards, and a lot is drawn again from
//! its seed (the event's id and the round), as the log says.
//!
//! Group standings use the event's round-robin tie-breaks (FIDE C.07 or
//! CXA 15.1); players still level keep their initial ranking. The
//! knockout's matches are `knockout`'s (play-off, armageddon).

use crate::crosstable;
use crate::knockout::winner_of;
use crate::spec::System;
use crate::Loaded;
use common::Error;
use store::{EntryRow, PairingRow};
use tournament::knockout::Line;
use tournament::staged::{lot_seed, Stage, Stages};
use tournament::tiebreak::standings::{standings, Row, Rules};

/// A staged event's plan; `None` for the other systems. Its groups are
/// dealt from the players entered (`Stages::with_players`: from groups ×
/// max(2, advance) to groups × group_size, the groups' sizes differing by
/// one at most): once started, every entry (the initial ranking numbers
/// them 1..=n, and nobody enters later); before, the entries not
/// withdrawn — the full plan while they are too few or too many, which
/// round 1 refuses (`rounds::seed`).
pub(crate) fn stages(l: &Loaded) -> Option<Stages> {
    if l.system != System::GroupsKnockout {
        return None;
    }
    let e = &l.event;
    let full = Stages::new(e.group_count, e.group_size, e.advance_per_group, e.final_size).ok()?;
    let players = if e.state == "open" {
        l.entries.iter().filter(|x| !x.withdrawn).count()
    } else {
        l.entries.len()
    };
    let s = u32::try_from(players)
        .ok()
        .and_then(|n| full.with_players(n).ok())
        .unwrap_or(full);
    // The groups' lot is round 0's: drawn from the event's id, so it is
    // the same after a restart (seed 001: 抽签分组).
    Some(if e.groups_by_lot {
        s.drawn_by_lot(lot_seed(&e.id, 0))
    } else {
        s
    })
}

fn plan(l: &Loaded) -> Result<Stages, Error> {
    stages(l).ok_or_else(|| Error::Internal(format!("event {} has a bad staged plan", l.event.id)))
}

/// In a staged event's crosstable, a bye of a group round or of the final
/// is a round robin's free round against the phantom, worth nothing
/// (`Z`); a knockout round's bye goes through (`U`, as in a knockout).
pub(crate) fn round_robin_byes(t: &mut tournament::model::Tournament, l: &Loaded) {
    use tournament::model::Outcome;
    let Some(s) = stages(l) else { return };
    for p in &mut t.players {
        for (i, cell) in p.rounds.iter_mut().enumerate() {
            let knockout = matches!(s.stage_of(i as u32 + 1), Ok(Stage::Knockout(_)));
            if cell.outcome == Outcome::PairingBye && !knockout {
                cell.outcome = Outcome::ZeroBye;
            }
        }
    }
}

/// Whether round `round` of a staged event is a knockout round.
pub(crate) fn is_knockout_round(l: &Loaded, round: u32) -> bool {
    stages(l).is_some_and(|s| matches!(s.stage_of(round), Ok(Stage::Knockout(_))))
}

/// `players` ordered by the event's round-robin standings over the rounds
/// `from..=to`: points, then the tie-breaks, then pairing number.
fn round_robin_order(l: &Loaded, players: &[u32], from: u32, to: u32) -> Result<Vec<u32>, Error> {
    Ok(round_robin_table(l, players, from, to)?
        .iter()
        .map(|r| r.id)
        .collect())
}

/// The standings of `players` over the rounds `from..=to` as a round robin
/// of their own (a group, or the final), in order: points, the event's
/// round-robin tie-breaks, then pairing number.
pub(crate) fn round_robin_table(l: &Loaded, players: &[u32], from: u32, to: u32) -> Result<Vec<Row>, Error> {
    let entries: Vec<EntryRow> = l
        .entries
        .iter()
        .filter(|e| players.contains(&e.number))
        .cloned()
        .collect();
    // The stage's rounds numbered from 1, as a round robin of its own.
    let pairings: Vec<PairingRow> = l
        .pairings
        .iter()
        .filter(|p| (from..=to).contains(&p.round) && players.contains(&p.white))
        .map(|p| PairingRow {
            round: p.round + 1 - from,
            ..p.clone()
        })
        .collect();
    let rounds = to + 1 - from;
    let t = crosstable::model(
        &l.event.name,
        rounds,
        System::RoundRobin,
        l.scoring.points(),
        &entries,
        &pairings,
        rounds,
    );
    let rules = Rules::new(
        System::RoundRobin.tiebreak_system(),
        l.tiebreaks.tiebreaks(System::RoundRobin),
    );
    let s = standings(&t, &rules).map_err(|e| Error::Internal(e.to_string()))?;
    let mut rows = s.rows;
    rows.sort_by_key(|r| (r.rank, r.id));
    Ok(rows)
}

/// The names of the tie-breaks of the groups' and the final's tables.
pub(crate) fn tiebreak_names(l: &Loaded) -> Vec<String> {
    l.tiebreaks
        .tiebreaks(System::RoundRobin)
        .iter()
        .map(|t| t.name().to_string())
        .collect()
}

/// Where a staged event stands, read from its rows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Progress {
    /// Each group's numbers in seeding order.
    pub groups: Vec<Vec<u32>>,
    /// Each group's numbers in standings order (over the group rounds
    /// played so far).
    pub group_standings: Vec<Vec<u32>>,
    /// The field of each knockout round known so far, in seed order.
    pub knockout_fields: Vec<Vec<u32>>,
    /// Who went out in each knockout round decided so far.
    pub knockout_losers: Vec<Vec<u32>>,
    /// The final's players in seed order, once the knockout is over.
    pub finalists: Vec<u32>,
    /// The final order of every player, once the final is over.
    pub final_order: Vec<u32>,
}

/// Reads the stages from the stored rounds.
pub(crate) fn progress(l: &Loaded) -> Result<Progress, Error> {
    let s = plan(l)?;
    let mut out = Progress {
        groups: s.groups(),
        ..Progress::default()
    };
    let g = s.group_rounds();
    out.group_standings = out
        .groups
        .iter()
        .map(|members| round_robin_order(l, members, 1, g))
        .collect::<Result<_, _>>()?;
    let done = |round: u32| {
        let boards: Vec<&PairingRow> = l.pairings.iter().filter(|p| p.round == round).collect();
        !boards.is_empty() && boards.iter().all(|p| p.result.is_some())
    };
    if !done(g) {
        return Ok(out);
    }
    let mut field = s
        .field_from_groups(&out.group_standings)
        .map_err(|e| Error::Internal(e.to_string()))?;
    let ko = s.knockout_fields().len() as u32;
    for k in 1..=ko {
        out.knockout_fields.push(field.clone());
        let round = g + k;
        if !done(round) {
            return Ok(out);
        }
        let mut losers = Vec::new();
        for p in l.pairings.iter().filter(|p| p.round == round) {
            let Some(black) = p.black else { continue };
            match winner_of(p) {
                Some(w) => losers.push(if w == p.white { black } else { p.white }),
                // Both forfeited (`--`): both are out.
                None => losers.extend([p.white, black]),
            }
        }
        field.retain(|p| !losers.contains(p));
        out.knockout_losers.push(losers);
    }
    out.finalists = field;
    let last = s.total_rounds();
    if done(last) {
        let fin = round_robin_order(l, &out.finalists, g + ko + 1, last)?;
        let mut places: Vec<Vec<u32>> = (0..s.group_size as usize)
            .map(|i| {
                let mut place: Vec<u32> = out
                    .group_standings
                    .iter()
                    .filter_map(|g| g.get(i).copied())
                    .collect();
                place.sort_unstable();
                place
            })
            .collect();
        places.retain(|p| !p.is_empty());
        // Knockout losers in seed order within their round.
        let losers: Vec<Vec<u32>> = out
            .knockout_losers
            .iter()
            .zip(&out.knockout_fields)
            .map(|(lost, field)| field.iter().filter(|p| lost.contains(p)).copied().collect())
            .collect();
        out.final_order = tournament::staged::final_order(&fin, &losers, &places);
    }
    Ok(out)
}

/// Round `round`'s boards, and a line for the log when a stage begins or
/// a lot is drawn.
pub(crate) fn boards(l: &Loaded, round: u32) -> Result<(Vec<Line>, Option<String>), Error> {
    let s = plan(l)?;
    let stage = s
        .stage_of(round)
        .map_err(|e| Error::conflict("all_rounds_paired", e.to_string()))?;
    let no_pairing = |e: tournament::staged::StagesError| Error::conflict("no_pairing", e.to_string());
    match stage {
        Stage::Groups(r) => {
            let note = (r == 1).then(|| {
                format!(
                    "groups stage{}: {}",
                    s.lot.map_or(String::new(), |seed| format!(
                        " (drawn by lot: seed {seed:#018x}, from the event id and round 0)"
                    )),
                    s.groups()
                        .iter()
                        .enumerate()
                        .map(|(i, g)| format!("group {} {:?}", i + 1, g))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
            Ok((s.group_round(r).map_err(no_pairing)?, note))
        }
        Stage::Knockout(k) => {
            let p = progress(l)?;
            let field = p.knockout_fields.get(k as usize - 1).ok_or_else(|| {
                Error::conflict(
                    "no_pairing",
                    format!("knockout round {k}: the stage before is not over"),
                )
            })?;
            let seed = lot_seed(&l.event.id, round);
            let boards = s.knockout_round(k, field, seed).map_err(no_pairing)?;
            let note = if k == 1 {
                format!("knockout stage: the field in seed order (group place, then number) {field:?}")
            } else {
                format!(
                    "knockout round {k}: lots drawn (seed {seed:#018x}, from the event id and round {round}) for {field:?}: {:?}",
                    boards
                )
            };
            Ok((boards, Some(note)))
        }
        Stage::Final(r) => {
            let p = progress(l)?;
            if p.finalists.len() as u32 != s.final_size {
                return Err(Error::conflict(
                    "no_pairing",
                    "the final round robin is paired when the knockout is over",
                ));
            }
            let note = (r == 1).then(|| format!("final round robin: {:?}", p.finalists));
            Ok((s.final_round(r, &p.finalists).map_err(no_pairing)?, note))
        }
    }
}
