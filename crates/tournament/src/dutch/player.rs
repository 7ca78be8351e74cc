//! What the Dutch rules need to know about each player before a round:
//! score, colour difference and preference (C.04.3 1.6, 1.7), floats of
//! the last two rounds (1.4), bye eligibility (C.04.1 article 4, \[C2\]),
//! whom they have met (\[C1\]) and whether they are topscorers (1.8).

use crate::model::{Colour, Outcome, PlayerId, Tournament};

/// A colour preference (C.04.3 1.7), strongest last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pref {
    /// No game played yet.
    None,
    /// Colour difference 0: alternate from the last game.
    Mild(Colour),
    /// Colour difference ±1.
    Strong(Colour),
    /// Colour difference beyond ±1, or the same colour twice running.
    Absolute(Colour),
}

impl Pref {
    pub fn colour(self) -> Option<Colour> {
        match self {
            Pref::None => None,
            Pref::Mild(c) | Pref::Strong(c) | Pref::Absolute(c) => Some(c),
        }
    }

    fn strength(self) -> u8 {
        match self {
            Pref::None => 0,
            Pref::Mild(_) => 1,
            Pref::Strong(_) => 2,
            Pref::Absolute(_) => 3,
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub id: PlayerId,
    /// Position among the players still in the tournament (1-based): the
    /// pairing number of 5.2.5 once late entries before their first round
    /// are left out.
    pub tpn: u32,
    /// Points in tenths after the rounds played.
    pub score: i32,
    /// Games with white minus games with black (1.6).
    pub cd: i32,
    /// Colours of the games actually played, oldest first (C.04.2 3.4:
    /// unplayed rounds do not count).
    pub history: Vec<Colour>,
    pub pref: Pref,
    /// Opponents of games actually played, and forbidden partners.
    pub met: Vec<PlayerId>,
    pub topscorer: bool,
    /// Downfloat in the previous round and the one before (1.4.2, 1.4.3).
    pub float_down: [bool; 2],
    /// Upfloat in the previous round and the one before.
    pub float_up: [bool; 2],
    /// \[C2\]: no pairing-allocated bye yet and never a win's points
    /// without playing.
    pub bye_eligible: bool,
    /// Rounds without a played game, for \[C9\].
    pub unplayed: u32,
}

impl State {
    /// The colour of the last two games when they were the same.
    pub fn last_two_same(&self) -> Option<Colour> {
        let n = self.history.len();
        if n >= 2 && self.history[n - 1] == self.history[n - 2] {
            Some(self.history[n - 1])
        } else {
            None
        }
    }
}

/// The players to pair in `round` (those with nothing written for it),
/// in pairing order: score, then pairing number (C.04.3 1.2).
pub fn states(t: &Tournament, round: u32) -> Vec<State> {
    let played = round - 1;
    let pts = &t.points;
    let score_before = |id: PlayerId, k: u32| t.score_after(id, k.saturating_sub(1));
    let mut out = Vec::new();
    let mut ids: Vec<PlayerId> = t
        .players
        .iter()
        .filter(|p| {
            p.rounds.len() < round as usize
                || p.rounds
                    .iter()
                    .any(|e| e.was_paired() || e.outcome == Outcome::PairingBye)
        })
        .map(|p| p.id)
        .collect();
    ids.sort_unstable();
    for p in &t.players {
        if p.rounds.len() >= round as usize {
            continue;
        }
        let history = p.colour_history(played);
        let whites = history.iter().filter(|&&c| c == Colour::White).count() as i32;
        let cd = 2 * whites - history.len() as i32;
        let last = history.last().copied();
        let n = history.len();
        let pref = if history.is_empty() {
            Pref::None
        } else if cd > 1 {
            Pref::Absolute(Colour::Black)
        } else if cd < -1 {
            Pref::Absolute(Colour::White)
        } else if n >= 2 && history[n - 1] == history[n - 2] {
            Pref::Absolute(history[n - 1].opposite())
        } else if cd == 1 {
            Pref::Strong(Colour::Black)
        } else if cd == -1 {
            Pref::Strong(Colour::White)
        } else {
            Pref::Mild(last.map_or(Colour::White, Colour::opposite))
        };
        let mut met: Vec<PlayerId> = (1..=played)
            .filter_map(|k| p.round(k).played_opponent())
            .collect();
        for g in &t.forbidden {
            if g.contains(&p.id) {
                met.extend(g.iter().copied().filter(|&q| q != p.id));
            }
        }
        let score = t.score_of(p, played).0;
        let mut float_down = [false; 2];
        let mut float_up = [false; 2];
        for (back, slot) in [1u32, 2].into_iter().enumerate() {
            if slot > played {
                continue;
            }
            let k = played + 1 - slot;
            let e = p.round(k);
            if e.outcome == Outcome::PairingBye {
                float_down[back] = true;
            } else if !e.outcome.is_played() {
                if pts.points(e.outcome) > pts.loss {
                    float_down[back] = true;
                }
            } else if let Some(o) = e.opponent {
                let (a, b) = (score_before(p.id, k), score_before(o, k));
                if a > b {
                    float_down[back] = true;
                } else if a < b {
                    float_up[back] = true;
                }
            }
        }
        let bye_eligible = (1..=played).all(|k| {
            let e = p.round(k);
            e.outcome.is_played() || (e.outcome != Outcome::PairingBye && pts.points(e.outcome) < pts.win)
        });
        let unplayed = played - p.games_played(played);
        let topscorer = t.total_rounds == Some(round) && 2 * score > played as i32 * pts.win.0;
        out.push(State {
            id: p.id,
            tpn: ids.iter().position(|&i| i == p.id).map_or(0, |i| i as u32 + 1),
            score,
            cd,
            history,
            pref,
            met,
            topscorer,
            float_down,
            float_up,
            bye_eligible,
            unplayed,
        });
    }
    out.sort_by_key(|s| (std::cmp::Reverse(s.score), s.id));
    out
}

/// Article 5.2: the colour of the higher-ranked player `hi` against `lo`.
pub fn allocate(hi: &State, lo: &State, initial: Colour) -> Colour {
    match (hi.pref.colour(), lo.pref.colour()) {
        (Some(a), None) => return a,
        (None, Some(b)) => return b.opposite(),
        // 5.2.1: both preferences can be granted.
        (Some(a), Some(b)) if a != b => return a,
        (Some(a), Some(_)) => {
            // 5.2.2: the stronger preference; of two absolute ones, the
            // wider colour difference.
            let (sh, sl) = (hi.pref.strength(), lo.pref.strength());
            if sh != sl {
                return if sh > sl { a } else { a.opposite() };
            }
            if sh == 3 && hi.cd.abs() != lo.cd.abs() {
                return if hi.cd.abs() > lo.cd.abs() {
                    a
                } else {
                    a.opposite()
                };
            }
            // 5.2.3: alternate from the latest round in which they had
            // different colours (histories aligned at their ends).
            let (h, l) = (&hi.history, &lo.history);
            for k in 1..=h.len().min(l.len()) {
                let (x, y) = (h[h.len() - k], l[l.len() - k]);
                if x != y {
                    return x.opposite();
                }
            }
            // 5.2.4: the higher-ranked player's preference.
            return a;
        }
        (None, None) => {}
    }
    // 5.2.5: odd pairing number takes the initial colour.
    if hi.tpn % 2 == 1 {
        initial
    } else {
        initial.opposite()
    }
}

/// bbpPairings' reading when the file names no initial colour: the colour
/// the top player had in the first round with colours (reversed for an
/// even pairing number).
pub fn infer_initial_colour(t: &Tournament) -> Colour {
    let rounds = t.rounds_written();
    for k in 1..=rounds {
        let mut ps: Vec<_> = t
            .players
            .iter()
            .filter_map(|p| p.round(k).colour.map(|c| (p.id, c)))
            .collect();
        ps.sort_by_key(|x| x.0);
        if let Some(&(id, c)) = ps.first() {
            return if id % 2 == 1 { c } else { c.opposite() };
        }
    }
    Colour::White
}
