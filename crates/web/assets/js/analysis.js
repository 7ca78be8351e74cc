// What the review of a game and the analysis board share: scores as
// players read them, the marks of moves (?!, ?, ??), and the evaluation
// graph. Scores come from the server from the first side's view.

import { el } from './boards/grid.js';
import { h } from './dom.js';

/** The glyph of a mark, as annotators write it. */
export const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** `+1.25`, `−0.40`, `#3` (the first side mates), `#−2`; `–` when unknown. */
export function scoreText(ply) {
  if (!ply) return '–';
  if (ply.ending) return ply.chances > 0 ? '1-0' : ply.chances < 0 ? '0-1' : '½-½';
  const s = ply.score;
  if (!s) return '–';
  if (s.mate !== undefined) return `#${s.mate < 0 ? '−' : ''}${Math.abs(s.mate)}`;
  const v = s.cp / 100;
  return `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(2)}`;
}

/** The mark of each ply: `{ 7: { kind, loss } }`. */
export function marksByPly(review) {
  const by = {};
  for (const m of (review && review.marks) || []) by[m.ply] = m;
  return by;
}

/** The mark glyph after a move in a move list (or null). */
export function markBadge(mark, t) {
  if (!mark) return null;
  return h('span', { class: `mark ${mark.kind}`, title: t(`analysis.${mark.kind}`), 'aria-label': t(`analysis.${mark.kind}`) }, GLYPHS[mark.kind]);
}

const W = 600;
const H = 150;

/**
 * The evaluation graph of a review: the first side's winning chances
 * across the game (above the middle: the first side is better), its
 * marked moves as dots, the shown ply as a line. A click or tap picks the
 * nearest ply. Returns `{ el, setPly }`.
 */
export function evalGraph(review, total, { label, onPick }) {
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', role: 'img', 'aria-label': label, id: 'eval-graph' });
  const last = Math.max(1, total - 1);
  const x = (ply) => (ply / last) * W;
  const y = (c) => H / 2 - (c * H) / 2;
  el('rect', { x: 0, y: 0, width: W, height: H, class: 'bg-second' }, svg);
  const plies = review.plies || [];
  if (plies.length) {
    const pts = plies.map((p) => `${x(p.ply).toFixed(1)},${y(p.chances).toFixed(1)}`);
    const end = x(plies[plies.length - 1].ply).toFixed(1);
    el('path', { d: `M0,${H} L${pts.join(' L')} L${end},${H} Z`, class: 'area' }, svg);
    el('polyline', { points: pts.join(' '), class: 'curve' }, svg);
  }
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' }, svg);
  const byPly = new Map(plies.map((p) => [p.ply, p]));
  for (const m of review.marks || []) {
    const p = byPly.get(m.ply);
    if (p) el('circle', { cx: x(m.ply), cy: y(p.chances), r: 5, class: `mark ${m.kind}`, 'data-ply': m.ply }, svg);
  }
  const now = el('line', { x1: 0, y1: 0, x2: 0, y2: H, class: 'now' }, svg);
  const setPly = (ply) => {
    now.setAttribute('x1', x(ply));
    now.setAttribute('x2', x(ply));
  };
  svg.addEventListener('click', (e) => {
    const m = svg.getScreenCTM();
    if (!m) return;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    onPick(Math.max(0, Math.min(total - 1, Math.round((p.x / W) * last))));
  });
  return { el: svg, setPly };
}
