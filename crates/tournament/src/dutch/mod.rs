//! The FIDE Dutch system (Handbook C.04.3, the 2025 rules in force from
//! 2026) on top of the C.04.1 basic rules: pair the next round of a
//! tournament, pairing for pairing as bbpPairings v6 does (the replay test
//! holds us to that).
//!
//! How: brackets are paired from the top scoregroup down (C.04.3 1.9.2).
//! For each bracket one maximum-weight matching over every player not yet
//! paired finds the best candidate: each edge weight holds the criteria as
//! bit fields, highest priority highest — completion \[C4\] and the bye
//! \[C2, C5\] over all, then the bracket's own quality criteria \[C6\]–\[C21\].
//! Among the candidates that are equally good, the rules take the one
//! generated first (C.04.3 3.8.1, Article 4). That order is in the weights
//! too, below the criteria — which MDPs are paired and with whom (4.4,
//! 4.2), the resident exchange (4.3.1–4.3.4) — except the transposition of
//! a large remainder, which we fix one S1 player at a time, keeping a
//! choice only when the optimum survives it. Colours follow Article 5.
//!
//! Readings of the text that bbpPairings confirms: forfeited games are not
//! games played (no colour, may meet again: C.04.1 article 2, C.04.2 3.4);
//! \[C9\] only counts when the bracket floats exactly one player; MDPs never
//! meet each other inside a bracket (S1 holds MDPs, S2 residents).
//!
//! Speed: the quality criteria only look at the bracket and the next
//! scoregroup, so we first pair on those alone and accept the result when
//! the players below can still absorb the rest as well as they could at
//! best (\[C4\], \[C5\]); otherwise the whole graph decides. Each bracket
//! is matched twice: on the criteria alone, with weights narrowed past the
//! (still empty) generation-order fields, then — on the edges that the
//! first matching's duals leave tight, the only ones an optimum can use —
//! at full width for the exchange and transposition; a remainder that
//! pairs whole is matched on its own graph (docs/PERFORMANCE.md: round 2
//! of a 1,000-player Swiss, 43–50 s → 1.8 s).

pub mod blossom;
mod player;
pub mod wide;

use crate::model::{Colour, PlayerId, Tournament};
use player::{Pref, State};
use wide::{Weight, Wide};

/// Call `f::<N>` with `N` the fewest 64-bit limbs that hold `bits`-bit
/// weights (with room for the sign and the doubling), or fail with
/// [`DutchError::TooLarge`].
macro_rules! by_width {
    ($bits:expr, |$n:ident| $call:expr) => {{
        let bits: u32 = $bits;
        match bits {
            0..=62 => {
                const $n: usize = 1;
                $call
            }
            63..=126 => {
                const $n: usize = 2;
                $call
            }
            127..=254 => {
                const $n: usize = 4;
                $call
            }
            255..=510 => {
                const $n: usize = 8;
                $call
            }
            511..=1022 => {
                const $n: usize = 16;
                $call
            }
            1023..=2046 => {
                const $n: usize = 32;
                $call
            }
            2047..=4094 => {
                const $n: usize = 64;
                $call
            }
            4095..=8190 => {
                const $n: usize = 128;
                $call
            }
            _ => Err(DutchError::TooLarge { bits }),
        }
    }};
}

/// One round's pairing: boards in order (white first), and the player
/// who gets the pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub boards: Vec<(PlayerId, PlayerId)>,
    pub bye: Option<PlayerId>,
}

impl Pairing {
    /// bbpPairings' `-p` output: the number of pairs, then `WHITE BLACK`
    /// per board and `P 0` for the bye.
    pub fn to_bbp_text(&self) -> String {
        let n = self.boards.len() + usize::from(self.bye.is_some());
        let mut s = format!("{n}\n");
        for (w, b) in &self.boards {
            s.push_str(&format!("{w} {b}\n"));
        }
        if let Some(p) = self.bye {
            s.push_str(&format!("{p} 0\n"));
        }
        s
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DutchError {
    /// No pairing satisfies the absolute criteria C1–C3 (C.04.3 1.9.3:
    /// the chief arbiter decides).
    #[error("no pairing of round {round} satisfies the absolute criteria (C1–C3)")]
    NoPairing { round: u32 },
    /// A bracket too large for our weights (over 8,000 bits: some
    /// thousands of players in one scoregroup).
    #[error("a scoregroup too large to pair ({bits}-bit weights)")]
    TooLarge { bits: u32 },
    /// The tournament has no round left to pair.
    #[error("all {total} rounds are already paired")]
    Finished { total: u32 },
}

/// Pair the next round of `t` (the first round with no pairing written).
pub fn pair_next_round(t: &Tournament) -> Result<Pairing, DutchError> {
    let round = t.rounds_paired() + 1;
    if let Some(total) = t.total_rounds {
        if round > total {
            return Err(DutchError::Finished { total });
        }
    }
    let players = player::states(t, round);
    let mut p = Pairer::new(t, round, players);
    p.pair()
}

/// A round's pairs (indices into the players in pairing order) and the
/// player left for the bye.
type Paired = (Vec<(usize, usize)>, Option<usize>);

/// Everything one round's pairing needs.
struct Pairer {
    round: u32,
    /// Players to pair, in pairing order (score, then TPN; C.04.3 1.2).
    ps: Vec<State>,
    initial: Colour,
}

/// Which part of the graph a vertex is in, for the current bracket.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// A moved-down player of the current bracket.
    Mdp,
    /// A resident of the current bracket.
    Resident,
    /// A resident of the next scoregroup (for \[C8\]).
    Next,
    /// Lower still.
    Lower,
    /// The pairing-allocated bye, as a vertex.
    Bye,
}

/// Bit positions of the criteria in an edge weight, lowest first.
struct Layout {
    bits: u32,
    /// Width of one digit of the MDP-partner field.
    digit: u32,
    /// Whether the hint field holds the transposition order exactly: one
    /// digit per remainder player (its partner), the first most
    /// significant.
    exact_hint: bool,
    levels: Vec<i32>,
    next_levels: Vec<i32>,
    diffs: Vec<i32>,
    pos: Vec<u32>,
}

const F_HINT: usize = 0;
const F_C434: usize = 1;
const F_C433: usize = 2;
const F_TIE_SUM: usize = 3;
const F_TIE_COUNT: usize = 4;
const F_MDP_PARTNERS: usize = 5;
const F_MDP_SET: usize = 6;
const F_C21: usize = 7;
const F_C20: usize = 8;
const F_C19: usize = 9;
const F_C18: usize = 10;
const F_C17: usize = 11;
const F_C16: usize = 12;
const F_C15: usize = 13;
const F_C14: usize = 14;
const F_C13: usize = 15;
const F_C12: usize = 16;
const F_C11: usize = 17;
const F_C10: usize = 18;
const F_C9: usize = 19;
const F_C8_SCORES: usize = 20;
const F_C8_PAIRS: usize = 21;
const F_C7: usize = 22;
const F_C6: usize = 23;
const F_C5: usize = 24;
const F_CARD: usize = 25;
const FIELDS: usize = 26;

impl Layout {
    /// Field widths: counts need `bits`; the per-level fields need one
    /// count per level.
    fn new(
        n: usize,
        (n_mdp, n_res): (usize, usize),
        levels: Vec<i32>,
        next_levels: Vec<i32>,
        diffs: Vec<i32>,
        score_span: u32,
    ) -> Layout {
        let bits = usize::BITS - (2 * n + 2).leading_zeros() + 1;
        let (n_mdp, n_res) = (n_mdp as u32, n_res as u32);
        let digit = bits_for(u64::from(n_res) + 1);
        // The transposition order fits in the weights of small brackets.
        let exact_hint = n_res * digit <= 200;
        let mut pos = vec![0u32; FIELDS + 1];
        let mut at = 0u32;
        for (f, p) in pos.iter_mut().enumerate().take(FIELDS) {
            *p = at;
            let width = match f {
                // Generation order (Article 4), lowest of all.
                F_HINT if exact_hint => n_res * digit,
                F_HINT => 3 * bits + 2,
                F_C434 => n_res + 2,
                F_C433 => n_res / 2 + bits + 2,
                F_TIE_SUM => 2 * bits + 2,
                F_MDP_PARTNERS => n_mdp * digit,
                F_MDP_SET => n_mdp + 1,
                F_C18 | F_C19 | F_C20 | F_C21 => bits * (diffs.len() as u32 + 1),
                F_C7 => bits * levels.len() as u32,
                F_C8_SCORES => bits * next_levels.len() as u32,
                F_C5 => score_span + 1,
                F_C9 => bits + 8,
                _ => bits,
            };
            at += width;
        }
        pos[FIELDS] = at;
        Layout {
            bits,
            digit,
            exact_hint,
            levels,
            next_levels,
            diffs,
            pos,
        }
    }

    fn total_bits(&self) -> u32 {
        self.pos[FIELDS]
    }
}

/// An edge weight under construction, as (shift, value) terms.
#[derive(Default, Clone)]
struct Terms(Vec<(u32, u64)>);

impl Terms {
    fn add(&mut self, shift: u32, v: u64) {
        if v != 0 {
            self.0.push((shift, v));
        }
    }
    /// The weight with every term moved `down` bits (none may sit lower).
    fn to<const N: usize>(&self, down: u32) -> Wide<N> {
        let mut w = Wide::<N>::ZERO;
        for &(s, v) in &self.0 {
            debug_assert!(s >= down, "a term at bit {s} below {down}");
            w = w + Wide::shifted(v, s - down);
        }
        w
    }
}

impl Pairer {
    fn new(t: &Tournament, round: u32, ps: Vec<State>) -> Pairer {
        let initial = t
            .initial_colour
            .unwrap_or_else(|| player::infer_initial_colour(t));
        Pairer { round, ps, initial }
    }

    fn pair(&mut self) -> Result<Pairing, DutchError> {
        self.pair_with(true)
    }

    /// A round no one has a history in: one scoregroup, no game, colour,
    /// float, bye or forbidden partner anywhere — a first round, whatever
    /// its number. The bracket is homogeneous and every pair compatible,
    /// so the first candidate Article 4 generates satisfies every
    /// criterion: S1 against S2 in order (4.2.2, C.04.3 round 1), with an
    /// odd bracket's last player left over for the bye ([C2], [C5]: the
    /// lowest). Taken without the matching, which grows as the fifth power
    /// of one scoregroup's size (a 1,000-player first round took minutes;
    /// `a_first_round_pairs_s1_against_s2` holds it to the matching).
    fn untouched(&self) -> Option<Paired> {
        let first = self.ps.first()?;
        let fresh = self.ps.iter().all(|p| {
            p.score == first.score
                && p.history.is_empty()
                && p.met.is_empty()
                && p.pref == Pref::None
                && p.float_down == [false; 2]
                && p.float_up == [false; 2]
                && p.bye_eligible
                && p.unplayed == 0
        });
        if !fresh {
            return None;
        }
        let n = self.ps.len();
        let half = n / 2;
        let pairs = (0..half).map(|i| (i, i + half)).collect();
        Some((pairs, (n % 2 == 1).then_some(n - 1)))
    }

    fn pair_with(&mut self, shortcut: bool) -> Result<Pairing, DutchError> {
        let n = self.ps.len();
        let (pairs, bye) = match self.untouched().filter(|_| shortcut) {
            Some(found) => found,
            None => self.pair_brackets()?,
        };
        if n == 0 {
            return Ok(Pairing {
                boards: vec![],
                bye: None,
            });
        }
        // Colours (Article 5) and board order.
        let mut boards: Vec<(usize, usize)> = pairs
            .into_iter()
            .map(|(a, b)| {
                let (hi, lo) = if a < b { (a, b) } else { (b, a) };
                if self.white_for_higher(hi, lo) {
                    (hi, lo)
                } else {
                    (lo, hi)
                }
            })
            .collect();
        boards.sort_by_key(|&(a, b)| {
            let hi = a.min(b);
            let lo = a.max(b);
            (
                std::cmp::Reverse(self.ps[hi].score),
                std::cmp::Reverse(self.ps[hi].score + self.ps[lo].score),
                hi,
            )
        });
        Ok(Pairing {
            boards: boards
                .into_iter()
                .map(|(a, b)| (self.ps[a].id, self.ps[b].id))
                .collect(),
            bye: bye.map(|i| self.ps[i].id),
        })
    }

    /// Every bracket from the top scoregroup down: the pairs and the bye.
    fn pair_brackets(&self) -> Result<Paired, DutchError> {
        let n = self.ps.len();
        // Scoregroups, highest first.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            match groups.last_mut() {
                Some(g) if self.ps[g[0]].score == self.ps[i].score => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut bye = None;
        let mut mdps: Vec<usize> = Vec::new();
        for g in 0..groups.len() {
            let next: Vec<usize> = groups.get(g + 1).cloned().unwrap_or_default();
            let lower: Vec<usize> = groups[g + 1..].iter().flatten().copied().collect();
            let (bp, floaters, b) = self.pair_bracket(&mdps, &groups[g], &next, &lower)?;
            pairs.extend(bp);
            if g + 1 == groups.len() {
                if floaters.len() > 1 {
                    return Err(DutchError::NoPairing { round: self.round });
                }
                bye = floaters.first().copied().or(b);
            }
            mdps = floaters;
        }
        Ok((pairs, bye))
    }

    /// Article 5.2: does the higher-ranked player `hi` get white against `lo`?
    fn white_for_higher(&self, hi: usize, lo: usize) -> bool {
        player::allocate(&self.ps[hi], &self.ps[lo], self.initial) == Colour::White
    }

    /// Whether `a` and `b` may meet at all: \[C1\] no rematch (forbidden
    /// pairs too), \[C3\] non-topscorers with the same absolute preference.
    fn compatible(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (&self.ps[a], &self.ps[b]);
        if pa.met.contains(&pb.id) || pb.met.contains(&pa.id) {
            return false;
        }
        if let (Pref::Absolute(x), Pref::Absolute(y)) = (pa.pref, pb.pref) {
            if x == y && !pa.topscorer && !pb.topscorer {
                return false;
            }
        }
        true
    }

    /// Pair one bracket: MDPs `mdps` and residents `res`; `next` is the
    /// next scoregroup and `lower` everybody below. Returns the pairs made
    /// in the bracket, the players who float down, and (last bracket
    /// only) the bye.
    #[allow(clippy::type_complexity)]
    fn pair_bracket(
        &self,
        mdps: &[usize],
        res: &[usize],
        next: &[usize],
        lower: &[usize],
    ) -> Result<(Vec<(usize, usize)>, Vec<usize>, Option<usize>), DutchError> {
        let mut verts: Vec<usize> = mdps.to_vec();
        verts.extend(res.iter().copied());
        verts.extend(lower.iter().copied());
        let mut role: Vec<Role> = Vec::with_capacity(verts.len() + 1);
        role.extend(mdps.iter().map(|_| Role::Mdp));
        role.extend(res.iter().map(|_| Role::Resident));
        role.extend(lower.iter().map(|&i| {
            if next.contains(&i) {
                Role::Next
            } else {
                Role::Lower
            }
        }));
        let with_bye = verts.len() % 2 == 1;
        let nv = verts.len() + usize::from(with_bye);
        if with_bye {
            role.push(Role::Bye);
        }
        let bye_v = if with_bye { Some(verts.len()) } else { None };

        // Score levels of the bracket (C7), of bracket + next (C8), and
        // score differences MDP − resident (C18–C21).
        let mut levels: Vec<i32> = mdps.iter().chain(res).map(|&i| self.ps[i].score).collect();
        levels.sort_unstable_by(|a, b| b.cmp(a));
        levels.dedup();
        let mut next_levels: Vec<i32> = levels.clone();
        next_levels.extend(next.iter().map(|&i| self.ps[i].score));
        next_levels.sort_unstable_by(|a, b| b.cmp(a));
        next_levels.dedup();
        let res_score = res.first().map(|&i| self.ps[i].score).unwrap_or(0);
        let mut diffs: Vec<i32> = mdps.iter().map(|&i| self.ps[i].score - res_score).collect();
        diffs.sort_unstable_by(|a, b| b.cmp(a));
        diffs.dedup();
        let min_score = verts.iter().map(|&i| self.ps[i].score).min().unwrap_or(0);
        let max_score = verts.iter().map(|&i| self.ps[i].score).max().unwrap_or(0);
        let mut all_levels: Vec<i32> = verts.iter().map(|&i| self.ps[i].score).collect();
        all_levels.sort_unstable();
        all_levels.dedup();
        let _ = (min_score, max_score);
        let layout = Layout::new(
            nv,
            (mdps.len(), res.len()),
            levels,
            next_levels,
            diffs,
            bits_for(all_levels.len() as u64 + 1),
        );

        // The edges with their criteria terms.
        let mut edges: Vec<(usize, usize, Terms)> = Vec::new();
        let mut c9: Vec<(usize, u64)> = Vec::new();
        // [C4] and [C5] alone, for the completion check of a bracket
        // paired on its own (see `pair_locally`).
        let mut comp: Vec<i64> = Vec::new();
        for a in 0..verts.len() {
            for b in a + 1..verts.len() {
                let (i, j) = (verts[a], verts[b]);
                if !self.compatible(i, j) {
                    continue;
                }
                let mut t = self.terms(&layout, i, j, role[a], role[b]);
                // Article 4.4 and 4.2 for the MDP-pairing: the set of
                // paired MDPs with the smallest differing BSN, then each
                // MDP in order with the lowest resident it can get.
                if role[a] == Role::Mdp && role[b] == Role::Resident {
                    let (m, r) = (a, b - mdps.len());
                    let top = mdps.len() - 1 - m;
                    t.add(layout.pos[F_MDP_SET] + top as u32, 1);
                    t.add(
                        layout.pos[F_MDP_PARTNERS] + layout.digit * top as u32,
                        (res.len() - r) as u64,
                    );
                }
                edges.push((a, b, t));
                comp.push(COMP_PAIR);
            }
            if let Some(bv) = bye_v {
                let i = verts[a];
                if self.ps[i].bye_eligible {
                    let mut t = Terms::default();
                    t.add(layout.pos[F_CARD], 1);
                    let up = all_levels
                        .iter()
                        .position(|&s| s == self.ps[i].score)
                        .unwrap_or(0);
                    // [C5]: the lower the assignee's score, the better.
                    t.add(layout.pos[F_C5], (all_levels.len() - up) as u64);
                    comp.push(COMP_PAIR + (all_levels.len() - up) as i64);
                    // [C9]: fewest unplayed games, when the assignee
                    // floats down from this bracket (applied later, and
                    // only if the bracket floats exactly one player).
                    if matches!(role[a], Role::Mdp | Role::Resident) {
                        c9.push((edges.len(), 255 - u64::from(self.ps[i].unplayed.min(255))));
                    }
                    edges.push((a, bv, t));
                }
            }
        }
        let total = layout.total_bits() + 2;
        let ctx = Ctx {
            nv,
            c9: &c9,
            verts: &verts,
            role: &role,
            layout: &layout,
            complete: true,
        };
        let local = if lower.len() > next.len() {
            self.pair_locally(&ctx, &edges, &comp, total)?
        } else {
            None
        };
        let mate = match local {
            Some(m) => m,
            None => self.dispatch(&ctx, edges, total)?,
        };
        let in_bracket = mdps.len() + res.len();
        let mut pairs = Vec::new();
        let mut floaters = Vec::new();
        let mut bye = None;
        for a in 0..in_bracket {
            match mate[a] {
                Some(b) if b < in_bracket && paired_in_bracket(role[a], role[b]) => {
                    if a < b {
                        pairs.push((verts[a], verts[b]));
                    }
                }
                Some(b) if Some(b) == bye_v && lower.is_empty() => bye = Some(verts[a]),
                _ => floaters.push(verts[a]),
            }
        }
        Ok((pairs, floaters, bye))
    }

    /// Run the bracket procedure: first what the criteria alone decide,
    /// on weights without the (still empty) generation-order fields below
    /// them, then the generation order on weights wide enough for `total`
    /// bits. Narrow limbs make the first matching several times cheaper:
    /// in a large bracket the exchange fields (4.3.3, 4.3.4: one bit per
    /// remainder player) are most of the width.
    fn dispatch(
        &self,
        ctx: &Ctx<'_>,
        edges: Vec<(usize, usize, Terms)>,
        total: u32,
    ) -> Result<Vec<Option<usize>>, DutchError> {
        let down = ctx.layout.pos[F_MDP_PARTNERS];
        let fixed = by_width!(total - down, |N| self.fix_criteria::<N>(ctx, &edges, down))?;
        by_width!(total, |N| self.solve_bracket::<N>(ctx, &edges, fixed))
    }

    /// The same procedure on the bracket and the next scoregroup alone,
    /// which is all the quality criteria look at; the players further down
    /// only have to absorb the rest (\[C4\], \[C5\]). When the result,
    /// completed over everybody, reaches the best completion there is, it
    /// is also what the whole graph would give (every decision on the
    /// small graph kept or lost the same optimum), and we take it; when
    /// not, `None`, and the caller pairs on the whole graph.
    fn pair_locally(
        &self,
        ctx: &Ctx<'_>,
        edges: &[(usize, usize, Terms)],
        comp: &[i64],
        total: u32,
    ) -> Result<Option<Vec<Option<usize>>>, DutchError> {
        let l = ctx.layout;
        let nv = ctx.nv;
        let comp_edges: Vec<(usize, usize, i64)> =
            edges.iter().zip(comp).map(|(e, &w)| (e.0, e.1, w)).collect();
        let global: i64 = total_weight(&comp_edges, &blossom::max_weight_matching(nv, &comp_edges));
        let keep = |v: usize| matches!(ctx.role.get(v), Some(Role::Mdp | Role::Resident | Role::Next));
        let sel: Vec<usize> = (0..ctx.verts.len()).filter(|&v| keep(v)).collect();
        let mut at = vec![usize::MAX; nv];
        for (k, &v) in sel.iter().enumerate() {
            at[v] = k;
        }
        let card = l.pos[F_CARD];
        let local_edges: Vec<(usize, usize, Terms)> = edges
            .iter()
            .filter(|e| at[e.0] != usize::MAX && at[e.1] != usize::MAX)
            .map(|(a, b, t)| {
                let t = Terms(t.0.iter().copied().filter(|&(s, _)| s != card).collect());
                (at[*a], at[*b], t)
            })
            .collect();
        let verts: Vec<usize> = sel.iter().map(|&v| ctx.verts[v]).collect();
        let role: Vec<Role> = sel.iter().map(|&v| ctx.role[v]).collect();
        let small = Ctx {
            nv: sel.len(),
            c9: &[],
            verts: &verts,
            role: &role,
            layout: l,
            complete: false,
        };
        let m = self.dispatch(&small, local_edges, total)?;
        // Map back, then complete over everybody else.
        let mut mate = vec![None; nv];
        let mut fixed = vec![false; nv];
        let mut pairs = 0i64;
        for (k, &v) in sel.iter().enumerate() {
            if let Some(x) = m[k] {
                mate[v] = Some(sel[x]);
                fixed[v] = true;
                if k < x {
                    pairs += 1;
                }
            }
        }
        let rest: Vec<(usize, usize, i64)> = comp_edges
            .iter()
            .copied()
            .filter(|e| !fixed[e.0] && !fixed[e.1])
            .collect();
        let done = total_weight(&rest, &blossom::max_weight_matching(nv, &rest)) + pairs * COMP_PAIR;
        Ok((done == global).then_some(mate))
    }

    /// The criteria terms of the edge between players `i` and `j`.
    fn terms(&self, l: &Layout, i: usize, j: usize, ri: Role, rj: Role) -> Terms {
        let mut t = Terms::default();
        t.add(l.pos[F_CARD], 1);
        let (pi, pj) = (&self.ps[i], &self.ps[j]);
        let in_b = |r: Role| matches!(r, Role::Mdp | Role::Resident);
        if in_b(ri) && in_b(rj) && paired_in_bracket(ri, rj) {
            // [C6] one more pair in the bracket.
            t.add(l.pos[F_C6], 1);
            // [C7] the scores of those paired, highest level highest.
            for p in [pi, pj] {
                let k = l.levels.iter().position(|&s| s == p.score).unwrap_or(0);
                let shift = l.pos[F_C7] + l.bits * (l.levels.len() - 1 - k) as u32;
                t.add(shift, 1);
            }
            // Colours as Article 5 would give them.
            let (hi, lo) = if i < j { (pi, pj) } else { (pj, pi) };
            let hi_white = player::allocate(hi, lo, self.initial) == Colour::White;
            let (ch, cl) = if hi_white {
                (Colour::White, Colour::Black)
            } else {
                (Colour::Black, Colour::White)
            };
            let top = hi.topscorer || lo.topscorer;
            let mut c10 = 0;
            let mut c11 = 0;
            let mut c12 = 0;
            let mut c13 = 0;
            for (p, c) in [(hi, ch), (lo, cl)] {
                if top {
                    let cd = p.cd + if c == Colour::White { 1 } else { -1 };
                    if cd.abs() > 2 {
                        c10 += 1;
                    }
                    if p.last_two_same() == Some(c) {
                        c11 += 1;
                    }
                }
                if let Some(want) = p.pref.colour() {
                    if want != c {
                        c12 += 1;
                        if matches!(p.pref, Pref::Strong(_) | Pref::Absolute(_)) {
                            c13 += 1;
                        }
                    }
                }
            }
            t.add(l.pos[F_C10], 2 - c10);
            t.add(l.pos[F_C11], 2 - c11);
            t.add(l.pos[F_C12], 2 - c12);
            t.add(l.pos[F_C13], 2 - c13);
            // [C14]/[C16]: residents who would otherwise float down again.
            for (p, r) in [(pi, ri), (pj, rj)] {
                if r == Role::Resident {
                    t.add(l.pos[F_C14], u64::from(p.float_down[0]));
                    t.add(l.pos[F_C16], u64::from(p.float_down[1]));
                }
            }
            // [C15]/[C17]: the lower player of a pair of unequal scores
            // floats up.
            let (up, down) = if pi.score < pj.score { (pi, pj) } else { (pj, pi) };
            let diff = down.score - up.score;
            let floats = diff > 0;
            t.add(l.pos[F_C15], 1 - u64::from(floats && up.float_up[0]));
            t.add(l.pos[F_C17], 1 - u64::from(floats && up.float_up[1]));
            // [C18]–[C21]: score differences, largest first.
            let thresholds = |field: usize, counted: bool, t: &mut Terms| {
                if !counted {
                    return;
                }
                // Level 0 is "unpaired" (infinite), then each difference.
                for (k, &d) in std::iter::once(&i32::MAX).chain(l.diffs.iter()).enumerate() {
                    if diff < d {
                        let shift = l.pos[field] + l.bits * (l.diffs.len() - k) as u32;
                        t.add(shift, 1);
                    }
                }
            };
            if floats {
                thresholds(F_C18, down.float_down[0] && in_b(ri) && in_b(rj), &mut t);
                thresholds(F_C19, up.float_up[0], &mut t);
                thresholds(F_C20, down.float_down[1], &mut t);
                thresholds(F_C21, up.float_up[1], &mut t);
            }
        } else {
            // [C8]: pairs (and their scores) in the next bracket: a
            // bracket player who floats into the next scoregroup, or two
            // players of the next scoregroup.
            let next_pair = matches!((ri, rj), (Role::Next, Role::Next))
                || (in_b(ri) && rj == Role::Next)
                || (in_b(rj) && ri == Role::Next);
            if next_pair {
                t.add(l.pos[F_C8_PAIRS], 1);
                for p in [pi, pj] {
                    let k = l.next_levels.iter().position(|&s| s == p.score).unwrap_or(0);
                    let shift = l.pos[F_C8_SCORES] + l.bits * (l.next_levels.len() - 1 - k) as u32;
                    t.add(shift, 1);
                }
            }
        }
        t
    }
}

/// Give `u` the lowest partner it can have in an optimal matching among
/// those `open` allows (vertex order is BSN order): ask for any partner
/// lower than the present one until none is possible. One new matching per
/// improvement, and one to learn there is none.
fn lowest_partner<W: Weight>(g: &mut Graph<W>, u: usize, open: impl Fn(usize) -> bool) {
    while let Some(cur) = g.mate[u] {
        let lower: Vec<usize> = (0..cur).filter(|&v| open(v)).collect();
        if lower.is_empty() {
            return;
        }
        let kept = g.try_constraint(|a, b| {
            let other = if a == u {
                b
            } else if b == u {
                a
            } else {
                return false;
            };
            lower.binary_search(&other).is_err()
        });
        if !kept {
            return;
        }
    }
}

/// Completion weight of one pair; \[C5\] values sit below it.
const COMP_PAIR: i64 = 1 << 24;

fn total_weight(edges: &[(usize, usize, i64)], mate: &[Option<usize>]) -> i64 {
    edges.iter().filter(|e| mate[e.0] == Some(e.1)).map(|e| e.2).sum()
}

fn bits_for(v: u64) -> u32 {
    u64::BITS - v.leading_zeros()
}

/// MDPs meet residents, residents meet residents; two MDPs never meet in
/// the bracket (S1 holds MDPs, S2 residents: C.04.3 3.2.2).
fn paired_in_bracket(a: Role, b: Role) -> bool {
    matches!(
        (a, b),
        (Role::Mdp, Role::Resident) | (Role::Resident, Role::Mdp) | (Role::Resident, Role::Resident)
    )
}

struct Ctx<'a> {
    nv: usize,
    /// Bye edges of bracket players with their \[C9\] value.
    c9: &'a [(usize, u64)],
    verts: &'a [usize],
    role: &'a [Role],
    layout: &'a Layout,
    /// Whether the graph holds everybody still to pair, so that a
    /// matching short of perfect means no pairing exists (\[C4\]).
    complete: bool,
}

/// A set of edges, some deleted, to re-solve under extra constraints,
/// with the best matching found so far (and the solver that found it, to
/// re-optimise from after deleting edges).
struct Graph<W: Weight> {
    nv: usize,
    edges: Vec<(usize, usize, W)>,
    alive: Vec<bool>,
    solver: Option<blossom::Solver<W>>,
    mate: Vec<Option<usize>>,
    best: W,
    /// Bits below this are a hint, not a criterion: a constraint that
    /// only lowers them keeps the optimum.
    ignore_below: u32,
}

impl<W: Weight> Graph<W> {
    fn new(nv: usize, edges: Vec<(usize, usize, W)>) -> Graph<W> {
        let alive = vec![true; edges.len()];
        Graph::with_alive(nv, edges, alive)
    }

    /// Solved over the edges `alive` keeps (the others stay deleted).
    fn with_alive(nv: usize, edges: Vec<(usize, usize, W)>, alive: Vec<bool>) -> Graph<W> {
        let mut g = Graph {
            nv,
            edges,
            alive,
            solver: None,
            mate: Vec::new(),
            best: W::zero(),
            ignore_below: 0,
        };
        g.resolve();
        g
    }

    /// Solve from scratch; the result becomes the best.
    fn resolve(&mut self) {
        let solver = blossom::Solver::new(self.nv, &self.edges, &self.alive);
        self.mate = solver.mate();
        self.best = self.weight(&self.mate);
        self.solver = Some(solver);
    }

    /// The weight of `mate` over the live edges.
    fn weight(&self, mate: &[Option<usize>]) -> W {
        let mut w = W::zero();
        for (&(u, v, x), &a) in self.edges.iter().zip(&self.alive) {
            if a && mate[u] == Some(v) {
                w = w + x;
            }
        }
        w
    }

    /// Delete the edges `drop` names and keep the deletion if the optimum
    /// survives it. When the best matching uses none of them it survives
    /// without solving again.
    fn try_constraint(&mut self, drop: impl Fn(usize, usize) -> bool) -> bool {
        let doomed: Vec<usize> = (0..self.edges.len())
            .filter(|&k| self.alive[k] && drop(self.edges[k].0, self.edges[k].1))
            .collect();
        if doomed.is_empty() {
            return true;
        }
        let used = doomed
            .iter()
            .any(|&k| self.mate[self.edges[k].0] == Some(self.edges[k].1));
        for &k in &doomed {
            self.alive[k] = false;
        }
        if !used {
            // The solver still has them: it must forget them too.
            if let Some(s) = self.solver.as_mut() {
                s.delete_unused(&doomed);
            }
            return true;
        }
        let mut solver = self.solver.clone().expect("solved at construction");
        solver.delete(&doomed);
        let mate = solver.mate();
        let w = self.weight(&mate);
        if W::high_eq(w, self.best, self.ignore_below) {
            self.mate = mate;
            self.best = w;
            self.solver = Some(solver);
            true
        } else {
            for &k in &doomed {
                self.alive[k] = true;
            }
            false
        }
    }
}

impl Pairer {
    /// Stage one, on weights moved `down` past the generation-order
    /// fields (all zero so far, so the matchings are those of the full
    /// weights, scaled): \[C4\], \[C9\], and the MDP-pairing.
    fn fix_criteria<const M: usize>(
        &self,
        c: &Ctx<'_>,
        edges: &[(usize, usize, Terms)],
        down: u32,
    ) -> Result<Fixed, DutchError> {
        let l = c.layout;
        let mut g: Graph<Wide<M>> = Graph::new(
            c.nv,
            edges.iter().map(|(a, b, t)| (*a, *b, t.to::<M>(down))).collect(),
        );
        // [C4]: everybody paired but at most one bye.
        let matched = g.mate.iter().filter(|m| m.is_some()).count();
        if c.complete && matched < c.nv - (c.nv % 2) {
            return Err(DutchError::NoPairing { round: self.round });
        }
        // [C9] counts only when the bracket floats exactly one player
        // (C.04.3 2.4.4 note); [C6] fixed how many float.
        let in_b = c
            .role
            .iter()
            .filter(|r| matches!(r, Role::Mdp | Role::Resident))
            .count() as u64;
        let pairs_in_b = g.best.field(l.pos[F_C6] - down, l.bits);
        let c9 = in_b == 2 * pairs_in_b + 1 && !c.c9.is_empty();
        if c9 {
            for &(k, v) in c.c9 {
                g.edges[k].2 = g.edges[k].2 + Wide::shifted(v, l.pos[F_C9] - down);
            }
            g.resolve();
        }
        // Stages A and B are in the weights (Article 4.4, then 4.2 over
        // S2 = residents): the best matching has the MDP-pairing of the
        // first candidate. Fix it.
        let is_res = |v: usize| c.role.get(v) == Some(&Role::Resident);
        let s1: Vec<usize> = (0..c.verts.len())
            .filter(|&u| c.role[u] == Role::Mdp && g.mate[u].is_some_and(is_res))
            .collect();
        let mut taken = vec![false; c.nv];
        for &u in &s1 {
            if let Some(v) = g.mate[u] {
                taken[v] = true;
                g.try_constraint(keep_only(u, v));
            }
        }
        // From here on only the generation order (4.2, 4.3) is chosen,
        // on weights below every criterion: the matchings left to choose
        // from are the criteria's optima, which use only the edges tight
        // under the optimal duals. The others go, so that the matchings
        // at full width solve a much smaller graph.
        if let Some(solver) = &g.solver {
            for (a, t) in g.alive.iter_mut().zip(solver.tight()) {
                *a &= t;
            }
        }
        Ok(Fixed {
            alive: g.alive,
            mate: g.mate,
            taken,
            c9,
        })
    }

    /// Stage two, on the full weights: the remainder's exchange (4.3)
    /// and transposition (4.2).
    fn solve_bracket<const N: usize>(
        &self,
        c: &Ctx<'_>,
        edges: &[(usize, usize, Terms)],
        f: Fixed,
    ) -> Result<Vec<Option<usize>>, DutchError> {
        let l = c.layout;
        let Fixed {
            alive,
            mate,
            taken,
            c9,
        } = f;
        // The remainder: residents not paired with MDPs, with fresh BSNs.
        let rem: Vec<usize> = (0..c.verts.len())
            .filter(|&v| c.role[v] == Role::Resident && !taken[v])
            .collect();
        let mut bsn_of = vec![None; c.nv];
        for (k, &v) in rem.iter().enumerate() {
            bsn_of[v] = Some(k);
        }
        let bsn = |v: usize| bsn_of[v];
        let pr = rem
            .iter()
            .filter(|&&v| mate[v].is_some_and(|u| bsn(u).is_some()))
            .count()
            / 2;
        if pr == 0 {
            return Ok(mate);
        }
        let exists: std::collections::HashSet<(usize, usize)> =
            edges.iter().map(|e| (e.0.min(e.1), e.0.max(e.1))).collect();
        let mut full: Vec<(usize, usize, Wide<N>)> =
            edges.iter().map(|(a, b, t)| (*a, *b, t.to::<N>(0))).collect();
        if c9 {
            for &(k, v) in c.c9 {
                full[k].2 = full[k].2 + Wide::shifted(v, l.pos[F_C9]);
            }
        }
        // Resident exchanges (4.3), as weights on the remainder's edges:
        // S1' is the set of pair minima. 4.3.1 fewest exchanged, 4.3.2 the
        // smallest sum of S1', 4.3.3 the largest differing BSN moved from
        // S1 to S2 (the smallest Σ 2^a over S1' ∩ S1), 4.3.4 the smallest
        // differing BSN moved from S2 to S1 (the largest Σ 2^-a over
        // S1' ∩ S2).
        let nr = rem.len();
        for e in full.iter_mut() {
            if let (Some(x), Some(y)) = (bsn(e.0), bsn(e.1)) {
                let m = x.min(y);
                let mut t = Terms::default();
                t.add(l.pos[F_TIE_COUNT], u64::from(m < pr));
                t.add(l.pos[F_TIE_SUM], (nr - m) as u64);
                let big = x.max(y);
                if l.exact_hint {
                    t.add(l.pos[F_HINT] + l.digit * (nr - 1 - m) as u32, (nr - big) as u64);
                } else {
                    t.add(l.pos[F_HINT], ((nr - m) * (nr - big)) as u64);
                }
                if m < pr {
                    t.add(l.pos[F_C433] + pr as u32, 1);
                } else {
                    t.add(l.pos[F_C434] + (nr - 1 - m) as u32, 1);
                }
                e.2 = e.2 + t.to::<N>(0);
                if m < pr {
                    e.2 = e.2 - Wide::shifted(1, l.pos[F_C433] + m as u32);
                }
            }
        }
        // Transposition (4.2): S1' in order, each with the smallest
        // partner it can have. (A low weight field, the largest
        // Σ (n − a)(n − b) over pairs, already leans that way, so most of
        // these checks need no new matching.)
        if 2 * pr == nr {
            // Nobody in the remainder floats, and no candidate can make
            // one float ([C6] fixed the pairs): only the remainder's own
            // pairs change, and the exchange weights touch nothing else,
            // so the choice is made on their small graph alone (vertex k
            // is BSN k) — the whole graph is never solved again.
            let sub_edges: Vec<(usize, usize, Wide<N>)> = full
                .iter()
                .zip(&alive)
                .filter_map(|(e, &a)| match (a, bsn(e.0), bsn(e.1)) {
                    (true, Some(x), Some(y)) => Some((x, y, e.2)),
                    _ => None,
                })
                .collect();
            let mut sub = Graph::new(nr, sub_edges);
            sub.ignore_below = l.pos[F_C434];
            let s1r: Vec<usize> = (0..nr).filter(|&k| sub.mate[k].is_some_and(|x| x > k)).collect();
            let mut in_s1r = vec![false; nr];
            for &k in &s1r {
                in_s1r[k] = true;
            }
            let mut used = vec![false; nr];
            for &ku in &s1r {
                let u = rem[ku];
                let open = |kv: usize| {
                    let v = rem[kv];
                    kv > ku && !used[kv] && !in_s1r[kv] && exists.contains(&(u.min(v), u.max(v)))
                };
                lowest_partner(&mut sub, ku, open);
                if let Some(kv) = sub.mate[ku] {
                    used[kv] = true;
                    sub.try_constraint(keep_only(ku, kv));
                }
            }
            let mut mate = mate;
            for (k, &v) in rem.iter().enumerate() {
                mate[v] = sub.mate[k].map(|x| rem[x]);
            }
            return Ok(mate);
        }
        let mut g = Graph::with_alive(c.nv, full, alive);
        g.ignore_below = l.pos[F_C434];
        let s1r: Vec<usize> = rem
            .iter()
            .copied()
            .filter(|&v| g.mate[v].is_some_and(|u| bsn(u).is_some_and(|y| Some(y) > bsn(v))))
            .collect();
        let mut in_s1r = vec![false; c.nv];
        for &v in &s1r {
            in_s1r[v] = true;
        }
        let mut taken = taken;
        for &u in &s1r {
            let bu = bsn(u);
            let open =
                |v: usize| bsn(v) > bu && !taken[v] && !in_s1r[v] && exists.contains(&(u.min(v), u.max(v)));
            lowest_partner(&mut g, u, open);
            if let Some(v) = g.mate[u] {
                taken[v] = true;
                g.try_constraint(keep_only(u, v));
            }
        }
        Ok(g.mate)
    }
}

/// What stage one of a bracket fixed: the edges still allowed, the best
/// matching under them, the residents paired with MDPs, and whether
/// \[C9\] is in the weights.
struct Fixed {
    alive: Vec<bool>,
    mate: Vec<Option<usize>>,
    taken: Vec<bool>,
    c9: bool,
}

/// A constraint for [`Graph::try_constraint`]: of the edges at `u` or
/// `v`, keep only `(u, v)`.
fn keep_only(u: usize, v: usize) -> impl Fn(usize, usize) -> bool {
    move |a: usize, b: usize| {
        let tu = a == u || b == u;
        let tv = a == v || b == v;
        (tu || tv) && !(tu && tv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Outcome, Player, RoundEntry, Tournament};

    fn first_round(n: u32, initial: Colour, total: u32) -> Tournament {
        Tournament {
            players: (1..=n)
                .map(|i| Player::new(i, &format!("P{i}"), 2400 - 7 * i))
                .collect(),
            total_rounds: Some(total),
            initial_colour: Some(initial),
            ..Tournament::default()
        }
    }

    /// The shortcut of an untouched round gives what the matching gives,
    /// colours and board order included, for every size up to 41, either
    /// initial colour, and a one-round event (everyone a top scorer).
    #[test]
    fn a_first_round_pairs_s1_against_s2() {
        for n in 1..=41 {
            for initial in [Colour::White, Colour::Black] {
                for total in [1, 9] {
                    let t = first_round(n, initial, total);
                    let mut p = Pairer::new(&t, 1, player::states(&t, 1));
                    assert!(p.untouched().is_some(), "{n} players");
                    let fast = p.pair_with(true).unwrap();
                    let full = p.pair_with(false).unwrap();
                    assert_eq!(fast, full, "{n} players, {initial:?}, {total} rounds");
                    assert_eq!(fast.boards.len() as u32, n / 2);
                }
            }
        }
    }

    /// Any history at all and the matching decides.
    #[test]
    fn a_round_with_history_is_not_untouched() {
        let mut t = first_round(6, Colour::White, 5);
        let text = crate::trf::write(&t);
        t = crate::trf::parse(&text).unwrap();
        let p = pair_next_round(&t).unwrap();
        for (i, (w, b)) in p.boards.iter().enumerate() {
            let outcome = if i == 0 { Outcome::Win } else { Outcome::Draw };
            t.players[*w as usize - 1].rounds.push(RoundEntry {
                opponent: Some(*b),
                colour: Some(Colour::White),
                outcome,
            });
            t.players[*b as usize - 1].rounds.push(RoundEntry {
                opponent: Some(*w),
                colour: Some(Colour::Black),
                outcome: outcome.mirrored().unwrap(),
            });
        }
        let p2 = Pairer::new(&t, 2, player::states(&t, 2));
        assert!(p2.untouched().is_none());
    }
}
