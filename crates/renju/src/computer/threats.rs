//! Threat-space search: wins by continuous fours (VCF) and by continuous
//! fours and open threes (VCT).
//!
//! In a VCF every attacking move makes a four, so the answer is forced: the
//! point that would complete it. A four with two completion points (a
//! straight four, or two fours at once where that is allowed) wins, and so
//! does a four whose only blocking point black may not play (forbidden in
//! renju). In a VCT the attacker may also make an open three; then every
//! answer that could stop it is tried — the empty points of the three's
//! line within four of the new stone, and the defender's own fours — and
//! the threat wins only if the attack goes on to win against each. Either
//! search gives up where the defender has a five to make: the attacker
//! would have to block instead.

use super::search::Node;
use crate::board::DIRECTIONS;
use crate::point::{Color, Point};

impl Node {
    /// The opponent of `c` has a five to make somewhere.
    fn threatened(&self, c: Color, cands: &[Point]) -> bool {
        cands.iter().any(|&p| self.wins_at(p, c.other()))
    }

    /// Points where `c` makes at least one four (and may play), most
    /// promising first.
    fn four_moves(&mut self, c: Color, cands: &[Point]) -> Vec<Point> {
        let mut v: Vec<(i32, Point)> = Vec::new();
        for &p in cands {
            let lines = self.lines(p, c);
            if lines.iter().any(|s| s.fours() > 0) && self.legal_for(p, c) {
                v.push((self.point_score(p, c), p));
            }
        }
        v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        v.into_iter().map(|(_, p)| p).collect()
    }

    /// `c` has just played `p` making a four: the answer it forces, or
    /// `None` when nothing can stop the five (two completion points, or the
    /// only one forbidden for black).
    fn forced_answer(
        &mut self,
        p: Point,
        c: Color,
        lines: &[crate::shape::LineShape; 4],
    ) -> Option<Option<Point>> {
        let points = Node::win_points_from(p, lines);
        match points.as_slice() {
            [] => None, // not a four after all
            [q] => {
                if self.legal_for(*q, c.other()) {
                    Some(Some(*q))
                } else {
                    Some(None)
                }
            }
            _ => Some(None),
        }
    }

    /// A first move of a win for `c` by continuous fours within `depth`
    /// of `c`'s moves, if the search finds one.
    pub(super) fn vcf(&mut self, c: Color, depth: u32) -> Option<Point> {
        if !self.tick() {
            return None;
        }
        let cands = self.candidates();
        if let Some(&p) = cands.iter().find(|&&p| self.wins_at(p, c)) {
            return Some(p);
        }
        if depth == 0 || self.threatened(c, &cands) {
            return None;
        }
        for p in self.four_moves(c, &cands) {
            let lines = self.lines(p, c);
            self.place(p, c);
            let won = match self.forced_answer(p, c, &lines) {
                None => false,
                Some(None) => true,
                Some(Some(q)) => {
                    self.place(q, c.other());
                    let w = self.vcf(c, depth - 1).is_some();
                    self.remove(q, c.other());
                    w
                }
            };
            self.remove(p, c);
            if won {
                return Some(p);
            }
            if self.out_of_nodes() {
                return None;
            }
        }
        None
    }

    /// A first move of a win for `c` by continuous fours and threes within
    /// `depth` of `c`'s moves (each VCF inside limited to `vcf_depth`).
    pub(super) fn vct(&mut self, c: Color, depth: u32, vcf_depth: u32) -> Option<Point> {
        if let Some(p) = self.vcf(c, vcf_depth) {
            return Some(p);
        }
        let cands = self.candidates();
        if depth == 0 || self.threatened(c, &cands) || self.out_of_nodes() {
            return None;
        }
        let opp = c.other();
        // Threats: fours and open threes, best first.
        let mut threats: Vec<(i32, Point)> = Vec::new();
        for &p in &cands {
            let lines = self.lines(p, c);
            let threat = lines.iter().any(|s| s.fours() > 0 || s.three_points() != 0);
            if threat && self.legal_for(p, c) {
                threats.push((self.point_score(p, c), p));
            }
        }
        threats.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, p) in threats {
            if !self.tick() {
                return None;
            }
            let lines = self.lines(p, c);
            self.place(p, c);
            let won = if lines.iter().any(|s| s.fours() > 0) {
                match self.forced_answer(p, c, &lines) {
                    None => false,
                    Some(None) => true,
                    Some(Some(q)) => {
                        self.place(q, opp);
                        let w = self.vct(c, depth - 1, vcf_depth).is_some();
                        self.remove(q, opp);
                        w
                    }
                }
            } else {
                // An open three: every answer that might stop it.
                let mut answers: Vec<Point> = Vec::new();
                for (d, s) in lines.iter().enumerate() {
                    if s.three_points() == 0 {
                        continue;
                    }
                    let (dc, dr) = DIRECTIONS[d];
                    for k in -4..=4isize {
                        if let Some(q) = p.offset(k * dc, k * dr) {
                            if self.board.is_empty_at(q) && !answers.contains(&q) {
                                answers.push(q);
                            }
                        }
                    }
                }
                let now = self.candidates();
                for q in self.four_moves(opp, &now) {
                    if !answers.contains(&q) {
                        answers.push(q);
                    }
                }
                let mut all_lose = true;
                for q in answers {
                    if !self.legal_for(q, opp) {
                        continue;
                    }
                    self.place(q, opp);
                    let w = self.vct(c, depth - 1, vcf_depth).is_some();
                    self.remove(q, opp);
                    if !w {
                        all_lose = false;
                        break;
                    }
                }
                all_lose
            };
            self.remove(p, c);
            if won {
                return Some(p);
            }
            if self.out_of_nodes() {
                return None;
            }
        }
        None
    }
}
