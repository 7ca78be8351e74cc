// How a game's end is told: the result (红胜 / White wins), the reason, and
// for repetition rulings the side, its forbidden pattern and the article
// ("红方长捉，判负 — 第26.4条").
//
// Sides are `first` and `second` in the server's data; what a reader sees
// is the variant's word for them (`view.sides`: red/black, white/black).

import { getLang, t } from './i18n.js';
import { formatClock, h } from './dom.js';
import { gameFor } from './boards/board.js';

const FORBIDDEN = new Set([
  'perpetual_check', 'perpetual_mate_threat', 'perpetual_chase',
  'check_and_mate_threat', 'check_and_chase', 'mate_threat_and_chase',
]);

export const otherSide = (side) => (side === 'first' ? 'second' : 'first');

/** The variant's words for a view's two sides, first mover first. */
export function sidesOf(view) {
  if (view && Array.isArray(view.sides) && view.sides.length === 2) return view.sides;
  const spec = view && gameFor(view.variant);
  return spec ? spec.sides : ['first', 'second'];
}

/** The word of one side (`first`/`second`) in a view: red, white, black. */
export function colorOf(view, side) {
  return sidesOf(view)[side === 'second' ? 1 : 0];
}

/** A side as the reader calls it: 红方, White. */
export function sideName(view, side) {
  return t(`side.${colorOf(view, side)}`);
}

/** The winning side: `winner`, or read from the result (`1-0`, `0-1`). */
function winnerOf(view) {
  if (view.winner === 'first' || view.winner === 'second') return view.winner;
  if (view.result === '1-0') return 'first';
  if (view.result === '0-1') return 'second';
  return null;
}

/** "Red wins", "White wins", "Draw", "Game aborted". */
export function resultText(view) {
  if (view.state === 'aborted') return t('result.aborted');
  const winner = winnerOf(view);
  if (winner) return t(`result.win.${colorOf(view, winner)}`);
  return view.result ? t(`result.${view.result}`) : '';
}

/** The result as the player `you` reads it — "You won", "You lost",
 *  "Draw" — or null for a spectator and an aborted game. */
export function personalResult(view, you) {
  if (!you || view.state === 'aborted') return null;
  const winner = winnerOf(view);
  if (winner) return t(winner === you ? 'end.youWon' : 'end.youLost');
  return view.result === '1/2-1/2' ? t('end.draw') : null;
}

/** The ruling line: the reason, with the article when there is one. */
export function reasonText(view) {
  let reason = view.reason || '';
  const article = view.article ? t('article.suffix', { n: view.article }) : '';
  const winner = winnerOf(view);
  if (FORBIDDEN.has(reason) && winner) {
    return t('ruling.loses', { side: sideName(view, otherSide(winner)), pattern: t(`pattern.${reason}`) }) + article;
  }
  // Stalemate loses in Xiangqi and draws in chess: the result tells which.
  if (reason === 'stalemate' && !winner && view.result) reason = 'stalemate_draw';
  const key = `reason.${reason}`;
  const text = t(key);
  return (text === key ? reason.replace(/_/g, ' ') : text) + article;
}

/** The line for a must-change ruling in force against `side` (变着, CXA 26.4). */
export function mustChangeText(view, side, reason, article) {
  const suffix = article ? t('article.suffix', { n: article }) : '';
  if (reason && FORBIDDEN.has(reason)) {
    return t('ruling.mustChange', { side: sideName(view, side), pattern: t(`pattern.${reason}`) }) + suffix;
  }
  return t('game.mustChange', { side: sideName(view, side), article: suffix });
}

/** Pattern key found in a ruling's English detail text, if any. */
export function patternIn(detail) {
  const d = String(detail || '').replace(/ /g, '_');
  for (const p of FORBIDDEN) if (d.includes(p)) return p;
  return null;
}

/** A time control as players write it: `10+0` (the server writes `10`), or "no clock". */
export function clockText(tc) {
  if (tc === '-') return t('game.untimed');
  const daily = /^(\d+)d$/.exec(tc);
  if (daily) return t('clock.correspondence', { n: Number(daily[1]) });
  if (/^\d+$/.test(tc)) return `${tc}+0`;
  // Overtime (crates/clock/src/parse.rs: `main|overtime`) in words: a
  // player reads "1 min + byo-yomi 10 s", not "1|10s".
  const bar = tc.indexOf('|');
  if (bar < 0) return tc;
  const main = tc.slice(0, bar).trim();
  const over = tc.slice(bar + 1).trim();
  const mainWords = /^\d+(\.\d+)?$/.test(main) ? t('clock.minutes', { n: main }) : main;
  const byo = /^(\d+(?:\.\d+)?[smh])(?:\s*x\s*(\d+))?$/.exec(over);
  const canadian = /^(\d+(?:\.\d+)?[smh])\s*\/\s*(\d+)$/.exec(over);
  let overWords = over;
  if (byo) {
    const n = Number(byo[2] || 1);
    overWords = n > 1 ? t('clock.byoyomiPeriods', { d: durationText(byo[1]), n }) : t('clock.byoyomi', { d: durationText(byo[1]) });
  } else if (canadian) {
    overWords = t('clock.canadian', { d: durationText(canadian[1]), n: canadian[2] });
  }
  return main === '0' ? overWords : `${mainWords} + ${overWords}`;
}

const DAY_MS = 86400000;

/** Time left as a list shows it: days and hours from a day up (a
 *  correspondence game's), else as a clock reads. */
export function timeLeftText(ms) {
  if (ms >= DAY_MS) {
    return t('clock.days', { d: Math.floor(ms / DAY_MS), h: Math.floor((ms % DAY_MS) / 3600000) });
  }
  return formatClock(ms);
}

/** `30s`, `5m`, `1h` in words. */
function durationText(d) {
  const m = /^(\d+(?:\.\d+)?)([smh])$/.exec(d);
  return m ? t(`clock.unit.${m[2]}`, { n: m[1] }) : d;
}

/**
 * The server's detail of a ruling is English prose; the reason above it is
 * already in the reader's language, so other languages do without it.
 */
export function detailLine(view) {
  return view.detail && getLang() === 'en' ? h('p', { class: 'muted' }, view.detail) : null;
}

/** A foul's words: the kind in the reader's language (the server's own
 *  English detail for English readers, which names the specifics). */
export function foulText(msg) {
  if (getLang() === 'en' && msg.detail) return msg.detail;
  const key = `foul.${msg.kind}`;
  const words = t(key);
  return words !== key ? words : msg.detail || msg.kind;
}
