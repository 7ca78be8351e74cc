//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm
//! with dual variables (the O(n³) primal–dual form described by Galil,
//! "Efficient algorithms for finding maximum matching in graphs", 1986).
//!
//! The Dutch pairing is a matching in a non-bipartite graph (anyone may
//! meet anyone), and its criteria are a lexicographic order that we write
//! into wide integer weights; so this works on any [`Weight`]. Weights are
//! doubled internally so that every dual stays an integer.
//!
//! Vertices are `0..n`; an edge is `(u, v, weight)`. Edges of weight ≤ 0
//! never help a maximum-weight matching and are ignored.
//!
//! A [`Solver`] keeps its duals, blossoms and matching, so that deleting a
//! few edges re-optimises from there instead of from scratch. For that a
//! stage grows trees only from the free vertices whose dual is still
//! positive, and a vertex of those trees whose dual reaches zero takes over
//! its tree's freedom (the path to the root is flipped): at the end every
//! free vertex has dual zero, every matched edge is tight and every
//! blossom with a positive dual is full, which is optimality.

use std::rc::Rc;

use super::wide::Weight;

const NONE: usize = usize::MAX;

/// `mate[v]`: the vertex matched to `v`, or `None`.
pub fn max_weight_matching<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    Solver::new(n, edges, &vec![true; edges.len()]).mate()
}

/// A maximum-weight matching that can be re-optimised after deleting edges.
#[derive(Clone)]
pub struct Solver<W: Weight> {
    m: Matcher<W>,
    /// The matcher's edge for each input edge (`NONE`: ignored).
    inner: Vec<usize>,
    /// Matcher edges deleted while unmatched, still to take out.
    pending: Vec<usize>,
}

impl<W: Weight> Solver<W> {
    /// Solve over the input edges `alive` keeps.
    pub fn new(n: usize, edges: &[(usize, usize, W)], alive: &[bool]) -> Solver<W> {
        let mut inner = vec![NONE; edges.len()];
        let mut kept = Vec::new();
        for (k, &(u, v, w)) in edges.iter().enumerate() {
            if alive[k] && w > W::zero() && u != v && u < n && v < n {
                inner[k] = kept.len();
                kept.push((u, v, w + w));
            }
        }
        let mut m = Matcher::new(n, kept);
        m.warm_start();
        m.solve();
        Solver {
            m,
            inner,
            pending: Vec::new(),
        }
    }

    /// `mate[v]`: the vertex matched to `v`, or `None`.
    pub fn mate(&self) -> Vec<Option<usize>> {
        (0..self.m.n)
            .map(|v| {
                let p = self.m.mate[v];
                if p == NONE {
                    None
                } else {
                    Some(self.m.endpoint[p])
                }
            })
            .collect()
    }

    /// For each input edge, whether a maximum-weight matching may use it:
    /// its slack under the present duals, with those of the blossoms
    /// around both its ends, is zero. By complementary slackness every
    /// maximum-weight matching uses only such edges, so deleting the
    /// others loses none of them.
    pub fn tight(&self) -> Vec<bool> {
        let m = &self.m;
        let mut mark = vec![NONE; 2 * m.n];
        self.inner
            .iter()
            .enumerate()
            .map(|(at, &k)| {
                if k == NONE {
                    return false;
                }
                let (i, j) = m.edges[k];
                let mut s = m.slack(k);
                let mut b = m.blossomparent[i];
                while b != NONE {
                    mark[b] = at;
                    b = m.blossomparent[b];
                }
                let mut b = m.blossomparent[j];
                while b != NONE {
                    if mark[b] == at {
                        s = s + m.dualvar[b] + m.dualvar[b];
                    }
                    b = m.blossomparent[b];
                }
                s == W::zero()
            })
            .collect()
    }

    /// Delete the input edges `ks`, none of them matched: the matching
    /// stays optimal, and they are taken out at the next [`Self::delete`].
    pub fn delete_unused(&mut self, ks: &[usize]) {
        for &k in ks {
            let k = std::mem::replace(&mut self.inner[k], NONE);
            if k != NONE {
                debug_assert!(
                    self.m.mate[self.m.edges[k].0] == NONE || self.m.mate[self.m.edges[k].0] / 2 != k
                );
                self.pending.push(k);
            }
        }
    }

    /// Delete the input edges `ks` and re-optimise from the present duals
    /// and matching. A blossom held together by a deleted edge is
    /// dissolved first (with the blossoms around it).
    pub fn delete(&mut self, ks: &[usize]) {
        let mut ks: Vec<usize> = ks
            .iter()
            .map(|&k| std::mem::replace(&mut self.inner[k], NONE))
            .filter(|&k| k != NONE)
            .collect();
        ks.append(&mut self.pending);
        if ks.is_empty() {
            return;
        }
        let m = &mut self.m;
        let mut cycle_of = vec![NONE; m.edges.len()];
        for b in m.n..2 * m.n {
            if m.blossombase[b] != NONE {
                for &p in &m.blossomendps[b] {
                    cycle_of[p / 2] = b;
                }
            }
        }
        for &k in &ks {
            let b = cycle_of[k];
            if b == NONE {
                continue;
            }
            // Dissolve from the top down to `b`.
            while m.blossombase[b] != NONE {
                let mut top = b;
                while m.blossomparent[top] != NONE {
                    top = m.blossomparent[top];
                }
                m.dissolve(top);
            }
        }
        for &k in &ks {
            m.dead[k] = true;
            let (i, j) = m.edges[k];
            if m.mate[i] != NONE && m.mate[i] / 2 == k {
                m.mate[i] = NONE;
                m.mate[j] = NONE;
            }
        }
        for v in 0..m.n {
            let dead = &m.dead;
            m.neighbend[v].retain(|&p| !dead[p / 2]);
        }
        m.solve();
    }
}

#[derive(Clone)]
struct Matcher<W: Weight> {
    n: usize,
    /// Twice each edge's weight (slack = y_u + y_v − 2w); shared by
    /// clones, as are the edges.
    twice: Rc<[W]>,
    edges: Rc<[(usize, usize)]>,
    endpoint: Rc<[usize]>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    /// `(epoch, k, slack of k)`: the slack of a best edge as last
    /// computed, good while the duals are those of `epoch` (the scan
    /// compares against it for every edge it meets; at hundreds of bits
    /// a slack is not cheap).
    bestslack: Vec<(u64, usize, W)>,
    /// Bumped whenever the duals change.
    epoch: u64,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
    /// Deleted edges (out of `neighbend`).
    dead: Vec<bool>,
}

impl<W: Weight> Matcher<W> {
    fn new(n: usize, edges: Vec<(usize, usize, W)>) -> Self {
        let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(W::zero());
        let ne = edges.len();
        let mut endpoint = Vec::with_capacity(2 * ne);
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(W::zero(), n));
        let mut blossombase: Vec<usize> = (0..n).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        let twice = edges.iter().map(|e| e.2 + e.2).collect();
        Matcher {
            n,
            twice,
            edges: edges.iter().map(|e| (e.0, e.1)).collect(),
            endpoint: endpoint.into(),
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            bestslack: vec![(0, NONE, W::zero()); 2 * n],
            epoch: 1,
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; ne],
            queue: Vec::new(),
            dead: vec![false; ne],
        }
    }

    /// A cheaper start than every dual at the largest weight: each
    /// vertex's dual at its own heaviest edge (still feasible: each edge
    /// is covered by either end), and the edges that are then tight
    /// between two free vertices matched greedily. The free vertices left
    /// with a positive dual are what `solve` grows trees from, so it
    /// augments far fewer times than from an empty matching, and scans
    /// far fewer edges (every stage scans the edges of every free vertex).
    fn warm_start(&mut self) {
        let n = self.n;
        for v in 0..n {
            self.dualvar[v] = W::zero();
        }
        for (k, &(i, j)) in self.edges.iter().enumerate() {
            let w = self.twice[k].half();
            if w > self.dualvar[i] {
                self.dualvar[i] = w;
            }
            if w > self.dualvar[j] {
                self.dualvar[j] = w;
            }
        }
        for v in 0..n {
            if self.mate[v] != NONE {
                continue;
            }
            for idx in 0..self.neighbend[v].len() {
                let p = self.neighbend[v][idx];
                let w = self.endpoint[p];
                if self.mate[w] == NONE && self.slack(p / 2) == W::zero() {
                    self.mate[v] = p;
                    self.mate[w] = p ^ 1;
                    break;
                }
            }
        }
    }

    /// Dissolve the top-level blossom `b` and keep the duals feasible:
    /// its dual moves onto its vertices (the edges inside keep their
    /// slack, those leaving it gain), and its base gives up the matched
    /// edge leaving it, which is no longer tight. Its children become
    /// top-level blossoms.
    fn dissolve(&mut self, b: usize) {
        let z = self.dualvar[b];
        for v in self.leaves_of(b) {
            self.dualvar[v] = self.dualvar[v] + z;
        }
        let base = self.blossombase[b];
        if self.mate[base] != NONE {
            let x = self.endpoint[self.mate[base]];
            self.mate[x] = NONE;
            self.mate[base] = NONE;
        }
        for c in std::mem::take(&mut self.blossomchilds[b]) {
            self.blossomparent[c] = NONE;
            for v in self.leaves_of(c) {
                self.inblossom[v] = c;
            }
        }
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.dualvar[b] = W::zero();
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.bestedge[b] = NONE;
        self.blossombestedges[b] = None;
        self.unusedblossoms.push(b);
    }

    /// The slack of `x`'s best edge, from the cache while the duals hold.
    fn best_slack(&mut self, x: usize) -> W {
        let k = self.bestedge[x];
        let (e, kk, s) = self.bestslack[x];
        if e == self.epoch && kk == k {
            return s;
        }
        let s = self.slack(k);
        self.bestslack[x] = (self.epoch, k, s);
        s
    }

    /// Make `k`, of slack `s` under the present duals, `x`'s best edge.
    fn set_best(&mut self, x: usize, k: usize, s: W) {
        self.bestedge[x] = k;
        self.bestslack[x] = (self.epoch, k, s);
    }

    #[inline]
    fn slack(&self, k: usize) -> W {
        let (i, j) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - self.twice[k]
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let l = self.leaves_of(b);
            self.queue.extend(l);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("blossom slots: at most n");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        for leaf in self.leaves_of_list(&path) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
                Some(l) => vec![l],
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        let mut best = NONE;
        for &k in &list {
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
        self.blossomchilds[b] = path;
        self.blossomendps[b] = endps;
    }

    fn leaves_of_list(&self, path: &[usize]) -> Vec<usize> {
        let mut v = Vec::new();
        for &b in path {
            self.leaves(b, &mut v);
        }
        v
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let len = childs.len() as isize;
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, isize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let at = |v: &Vec<usize>, i: isize| -> usize { v[i.rem_euclid(len) as usize] };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                let a = self.endpoint[p ^ 1];
                self.label[a] = 0;
                let q = at(&endps, j - endptrick) ^ (endptrick as usize) ^ 1;
                let c = self.endpoint[q];
                self.label[c] = 0;
                self.assign_label(a, 2, p);
                self.allowedge[at(&endps, j - endptrick) / 2] = true;
                j += jstep;
                p = at(&endps, j - endptrick) ^ (endptrick as usize);
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = at(&childs, j);
            let a = self.endpoint[p ^ 1];
            self.label[a] = 2;
            self.label[bv] = 2;
            self.labelend[a] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(&childs, j) != entrychild {
                let bv = at(&childs, j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for v in self.leaves_of(bv) {
                    if self.label[v] != 0 {
                        found = v;
                        break;
                    }
                }
                if found != NONE {
                    let v = found;
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    let e = self.endpoint[mb];
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let i = self.blossomchilds[b].iter().position(|&c| c == t).unwrap_or(0);
        let mut j = i as isize;
        let (jstep, endptrick): (isize, isize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][j.rem_euclid(len) as usize];
            let p = self.blossomendps[b][(j - endptrick).rem_euclid(len) as usize] ^ (endptrick as usize);
            if t >= self.n {
                let e = self.endpoint[p];
                self.augment_blossom(t, e);
            }
            j += jstep;
            let t = self.blossomchilds[b][j.rem_euclid(len) as usize];
            if t >= self.n {
                let e = self.endpoint[p ^ 1];
                self.augment_blossom(t, e);
            }
            let (e0, e1) = (self.endpoint[p], self.endpoint[p ^ 1]);
            self.mate[e0] = p ^ 1;
            self.mate[e1] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.edges[k];
        for (s, p) in [(v, 2 * k + 1), (w, 2 * k)] {
            self.flip_path(s, p);
        }
    }

    /// Flip the alternating path from the S-vertex `s` to its root: the
    /// root is matched and `s` left free.
    fn flip_to_free(&mut self, s: usize) {
        self.flip_path(s, NONE);
    }

    /// Flips the alternating path from `s` to its root, matching `s` to
    /// the endpoint `p` (`NONE`: leaving it free).
    fn flip_path(&mut self, s: usize, p: usize) {
        let (mut s, mut p) = (s, p);
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.endpoint[self.labelend[bs]];
            let bt = self.inblossom[t];
            s = self.endpoint[self.labelend[bt]];
            let j = self.endpoint[self.labelend[bt] ^ 1];
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    /// Give every free vertex with a positive dual the same parity, which
    /// keeps the slack between two S-vertices even (so its half, a dual
    /// step, exact). A fresh start has it; re-optimising may not. Raising
    /// a free vertex's dual keeps the duals feasible; in a blossom, the
    /// whole blossom is raised and its own dual lowered to match (or, at
    /// zero, it is dissolved).
    fn even_roots(&mut self) {
        let one = W::one();
        let odd = |x: W| x.half() + x.half() != x;
        let mut parity = None;
        for r in 0..self.n {
            if self.mate[r] != NONE || self.dualvar[r] <= W::zero() {
                continue;
            }
            let p = odd(self.dualvar[r]);
            if *parity.get_or_insert(p) == p {
                continue;
            }
            loop {
                let b = self.inblossom[r];
                if b < self.n {
                    self.dualvar[r] = self.dualvar[r] + one;
                    break;
                }
                if self.dualvar[b] == W::zero() {
                    self.dissolve(b);
                    continue;
                }
                for v in self.leaves_of(b) {
                    self.dualvar[v] = self.dualvar[v] + one;
                }
                self.dualvar[b] = self.dualvar[b] - one;
                break;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        self.even_roots();
        self.epoch += 1;
        loop {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.labelend.iter_mut().for_each(|l| *l = NONE);
            self.bestedge.iter_mut().for_each(|l| *l = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|l| *l = false);
            self.queue.clear();
            // Roots: the free vertices whose dual is not yet zero.
            let mut roots = false;
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 && self.dualvar[v] > W::zero() {
                    self.assign_label(v, 1, NONE);
                    roots = true;
                }
            }
            if !roots {
                break;
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= W::zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0
                                && self.mate[self.blossombase[self.inblossom[w]]] == NONE
                            {
                                // A free vertex outside the trees (dual
                                // zero): an augmenting path.
                                self.augment_matching(k);
                                augmented = true;
                                break;
                            } else if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.best_slack(b) {
                                self.set_best(b, k, kslack);
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.best_slack(w))
                        {
                            self.set_best(w, k, kslack);
                        }
                    }
                }
                if augmented {
                    break;
                }
                // Dual adjustment.
                // Type 1: an S-vertex's dual reaches zero.
                let mut deltatype = 1;
                let mut deltavertex = NONE;
                let mut delta = W::zero();
                // (A free one first: then nothing changes.)
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 1
                        && (deltavertex == NONE
                            || self.dualvar[v] < delta
                            || (self.dualvar[v] == delta
                                && self.mate[v] == NONE
                                && self.mate[deltavertex] != NONE))
                    {
                        delta = self.dualvar[v];
                        deltavertex = v;
                    }
                }
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                        let d = self.slack(self.bestedge[b]).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                self.epoch += 1;
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v] - delta,
                        2 => self.dualvar[v] = self.dualvar[v] + delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b] + delta,
                            2 => self.dualvar[b] = self.dualvar[b] - delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => {
                        // That vertex takes over its root's freedom.
                        self.flip_to_free(deltavertex);
                        break;
                    }
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, mut j) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            std::mem::swap(&mut i, &mut j);
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(edges: &[(usize, usize, i64)], mate: &[Option<usize>]) -> i64 {
        edges
            .iter()
            .filter(|&&(u, v, _)| mate[u] == Some(v))
            .map(|e| e.2)
            .sum()
    }

    /// Exhaustive maximum over all matchings, for small graphs.
    fn brute(n: usize, edges: &[(usize, usize, i64)]) -> i64 {
        fn go(i: usize, used: &mut Vec<bool>, n: usize, w: &Vec<Vec<i64>>) -> i64 {
            if i == n {
                return 0;
            }
            if used[i] {
                return go(i + 1, used, n, w);
            }
            used[i] = true;
            let mut best = go(i + 1, used, n, w);
            for j in i + 1..n {
                if !used[j] && w[i][j] > 0 {
                    used[j] = true;
                    best = best.max(w[i][j] + go(i + 1, used, n, w));
                    used[j] = false;
                }
            }
            used[i] = false;
            best
        }
        let mut w = vec![vec![0i64; n]; n];
        for &(u, v, x) in edges {
            w[u][v] = w[u][v].max(x);
            w[v][u] = w[u][v];
        }
        go(0, &mut vec![false; n], n, &w)
    }

    #[test]
    fn small_known_cases() {
        let e = [(0, 1, 5), (1, 2, 11), (2, 3, 5)];
        let m = max_weight_matching(4, &e);
        assert_eq!(total(&e, &m), 11);
        // A blossom: triangle plus pendant edges.
        let e = [(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)];
        let m = max_weight_matching(4, &e);
        assert_eq!(total(&e, &m), 15);
    }

    #[test]
    fn deleting_edges_reoptimises() {
        let mut s = 987654u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        for _ in 0..300 {
            let n = 2 + (next() % 10) as usize;
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if next() % 4 != 0 {
                        edges.push((u, v, 1 + (next() % 30) as i64));
                    }
                }
            }
            let mut alive = vec![true; edges.len()];
            let mut solver = Solver::new(n, &edges, &alive);
            for _ in 0..6 {
                let mate = solver.mate();
                // Delete a matched edge and a few others.
                let mut ks: Vec<usize> = (0..edges.len())
                    .filter(|&k| alive[k] && mate[edges[k].0] == Some(edges[k].1))
                    .take(1)
                    .collect();
                ks.extend((0..edges.len()).filter(|&k| alive[k] && next() % 7 == 0));
                for &k in &ks {
                    alive[k] = false;
                }
                solver.delete(&ks);
                let live: Vec<(usize, usize, i64)> = edges
                    .iter()
                    .zip(&alive)
                    .filter(|(_, &a)| a)
                    .map(|(e, _)| *e)
                    .collect();
                let mate = solver.mate();
                for v in 0..n {
                    if let Some(u) = mate[v] {
                        assert_eq!(mate[u], Some(v));
                        assert!(live.iter().any(|e| (e.0, e.1) == (u.min(v), u.max(v))));
                    }
                }
                assert_eq!(total(&live, &mate), brute(n, &live), "{live:?}");
            }
        }
    }

    /// The edges `tight` keeps hold every maximum-weight matching: the
    /// best over them alone is the best over all, and the matching found
    /// uses only them — also after deletions re-optimised.
    #[test]
    fn tight_edges_keep_every_optimum() {
        let mut s = 424242u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        let mut pruned = 0;
        for round in 0..300 {
            let n = 2 + (next() % 9) as usize;
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if next() % 4 != 0 {
                        // Few distinct weights: many optima, many blossoms.
                        edges.push((u, v, 1 + (next() % 4) as i64));
                    }
                }
            }
            let mut alive = vec![true; edges.len()];
            let mut solver = Solver::new(n, &edges, &alive);
            if round % 2 == 1 {
                let ks: Vec<usize> = (0..edges.len()).filter(|_| next() % 5 == 0).collect();
                for &k in &ks {
                    alive[k] = false;
                }
                solver.delete(&ks);
            }
            let live: Vec<(usize, usize, i64)> = edges
                .iter()
                .zip(&alive)
                .filter(|(_, &a)| a)
                .map(|(e, _)| *e)
                .collect();
            let tight = solver.tight();
            let kept: Vec<(usize, usize, i64)> = edges
                .iter()
                .zip(&tight)
                .filter(|(_, &t)| t)
                .map(|(e, _)| *e)
                .collect();
            assert!(
                tight.iter().zip(&alive).all(|(&t, &a)| a || !t),
                "a deleted edge is never tight"
            );
            pruned += live.len() - kept.len();
            let mate = solver.mate();
            assert!(
                (0..n)
                    .all(|v| mate[v].is_none_or(|u| kept.iter().any(|e| (e.0, e.1) == (u.min(v), u.max(v))))),
                "the matching uses tight edges only"
            );
            assert_eq!(brute(n, &kept), brute(n, &live), "{live:?}");
        }
        assert!(pruned > 100, "the test prunes: {pruned} edges");
    }

    #[test]
    fn random_graphs_match_brute_force() {
        let mut s = 12345u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        for _ in 0..400 {
            let n = 2 + (next() % 9) as usize;
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if next() % 3 != 0 {
                        edges.push((u, v, 1 + (next() % 20) as i64));
                    }
                }
            }
            let m = max_weight_matching(n, &edges);
            for v in 0..n {
                if let Some(u) = m[v] {
                    assert_eq!(m[u], Some(v));
                }
            }
            assert_eq!(total(&edges, &m), brute(n, &edges), "{edges:?}");
        }
    }
}
