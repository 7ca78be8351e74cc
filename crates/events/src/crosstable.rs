//! From the stored rows to the tournament crate's model (the crosstable TRF
//! describes), and from it to standings: the one place that reads an
//! event's results as the rules count them. Pure.

use crate::spec::{BoardResult, System};
use store::{EntryRow, PairingRow};
use tournament::model::{Colour, Outcome, Player, RoundEntry, Tournament};
use tournament::roundrobin::{berger_table, Board, Cycles};

/// What a board means for the model: a pending game counts as nothing yet.
fn entries_of(p: &PairingRow, system: System) -> Vec<(u32, RoundEntry)> {
    let Some(black) = p.black else {
        // The bye: the pairing-allocated bye of a Swiss (C.04.1 1.3, worth
        // a win) or a round robin's free round against the phantom (no
        // points).
        let outcome = if system.is_round_robin() {
            Outcome::ZeroBye
        } else {
            Outcome::PairingBye
        };
        return vec![(p.white, RoundEntry::bye(outcome))];
    };
    let result = p.result.as_deref().and_then(BoardResult::parse);
    let (w, b) = result.map_or((Outcome::Absent, Outcome::Absent), BoardResult::outcomes);
    vec![
        (
            p.white,
            RoundEntry {
                opponent: Some(black),
                colour: Some(Colour::White),
                outcome: w,
            },
        ),
        (
            p.black.unwrap_or_default(),
            RoundEntry {
                opponent: Some(p.white),
                colour: Some(Colour::Black),
                outcome: b,
            },
        ),
    ]
}

/// The event as the tournament crate sees it after rounds 1..=`rounds`:
/// every entry with one cell per round (blank where not paired: a
/// withdrawn player after withdrawing, a late entry before arriving, seed
/// 000 20.4). A game still being played has its opponent and colour and a
/// blank result.
pub fn model(
    name: &str,
    total_rounds: u32,
    system: System,
    points: tournament::model::PointSystem,
    entries: &[EntryRow],
    pairings: &[PairingRow],
    rounds: u32,
) -> Tournament {
    let mut players: Vec<Player> = entries
        .iter()
        .map(|e| {
            let mut p = Player::new(e.number, &e.name, u32::try_from(e.rating.max(0)).unwrap_or(0));
            p.rounds = vec![RoundEntry::ABSENT; rounds as usize];
            p
        })
        .collect();
    for pr in pairings.iter().filter(|p| p.round >= 1 && p.round <= rounds) {
        for (who, cell) in entries_of(pr, system) {
            if let Some(p) = players.iter_mut().find(|p| p.id == who) {
                p.rounds[pr.round as usize - 1] = cell;
            }
        }
    }
    Tournament {
        name: name.to_string(),
        players,
        total_rounds: (total_rounds > 0).then_some(total_rounds),
        initial_colour: Some(Colour::White),
        points,
        ..Tournament::default()
    }
}

/// The model to pair round `round` from: rounds before it, and a blank
/// cell in `round` for each entry that may not be paired in it (withdrawn,
/// or entered for a later round) — the pairing program's "not available"
/// (C.04.1 article 1.7; TRF(x)'s blank column).
pub fn for_pairing(mut t: Tournament, round: u32, entries: &[EntryRow]) -> Tournament {
    for p in &mut t.players {
        p.rounds.truncate(round as usize - 1);
        let Some(e) = entries.iter().find(|e| e.number == p.id) else {
            continue;
        };
        if !available(e, round) {
            p.rounds.push(RoundEntry::ABSENT);
        }
    }
    t
}

/// Whether an entry is paired in `round`.
pub fn available(e: &EntryRow, round: u32) -> bool {
    e.first_round <= round && !(e.withdrawn && e.withdrawn_from.is_some_and(|f| f <= round))
}

/// The round robin's schedule for `players` players (pairing numbers
/// 1..=players), in playing order.
pub fn schedule(system: System, players: u32) -> Vec<Vec<Board>> {
    let cycles = if system == System::DoubleRoundRobin {
        Cycles::Double
    } else {
        Cycles::Single
    };
    berger_table(players, cycles).unwrap_or_default()
}

/// Seed 000 20.3 for standings: each withdrawn round-robin player's
/// results are annulled (under half their games played) or stand with
/// the rest forfeited to the opponents.
pub fn apply_round_robin_withdrawals(t: &mut Tournament, system: System, entries: &[EntryRow]) {
    if !system.is_round_robin() {
        return;
    }
    let table = schedule(system, u32::try_from(entries.len()).unwrap_or(0));
    for e in entries.iter().filter(|e| e.withdrawn) {
        let _ = tournament::tiebreak::scoring::withdraw_round_robin(t, e.number, &table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u32, first_round: u32, withdrawn_from: Option<u32>) -> EntryRow {
        EntryRow {
            user_id: format!("u{n}"),
            number: n,
            name: format!("P{n}"),
            rating: 2000 - i64::from(n),
            withdrawn: withdrawn_from.is_some(),
            withdrawn_from,
            late: first_round > 1,
            first_round,
            joined_ms: 0,
        }
    }

    fn board(round: u32, board: u32, white: u32, black: Option<u32>, result: &str) -> PairingRow {
        PairingRow {
            round,
            board,
            white,
            black,
            game_id: None,
            result: Some(result.to_string()),
            forfeit: result.contains('+'),
        }
    }

    #[test]
    fn the_model_reads_results_byes_and_absences() {
        let entries = [
            entry(1, 1, None),
            entry(2, 1, Some(2)),
            entry(3, 1, None),
            entry(4, 2, None),
        ];
        let pairings = [
            board(1, 1, 1, Some(2), "1-0"),
            board(1, 2, 3, None, "bye"),
            board(2, 1, 3, Some(1), "-+"),
            board(2, 2, 4, None, "bye"),
        ];
        let t = model("x", 3, System::Swiss, Default::default(), &entries, &pairings, 2);
        assert_eq!(t.player(1).unwrap().round(2).outcome, Outcome::ForfeitWin);
        assert_eq!(t.player(3).unwrap().round(1).outcome, Outcome::PairingBye);
        assert_eq!(t.player(2).unwrap().round(2), RoundEntry::ABSENT);
        assert_eq!(t.player(4).unwrap().round(1), RoundEntry::ABSENT);
        assert_eq!(t.score_after(1, 2).0, 20);
        // Pairing round 3: the withdrawn player is declared absent.
        let p = for_pairing(t.clone(), 3, &entries);
        assert_eq!(p.unavailable_in(3), vec![2]);
        // Written as TRF and read back, it is the same crosstable.
        let text = tournament::trf::write(&t);
        assert_eq!(tournament::trf::parse(&text).unwrap().players, t.players);
    }
}
