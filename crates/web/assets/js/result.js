// How a game's end is told: the result (红胜 / Red wins), the reason, and
// for repetition rulings the side, its forbidden pattern and the article
// ("红方长捉，判负 — 第26.4条").

import { t } from './i18n.js';

const FORBIDDEN = new Set([
  'perpetual_check', 'perpetual_mate_threat', 'perpetual_chase',
  'check_and_mate_threat', 'check_and_chase', 'mate_threat_and_chase',
]);

const other = (side) => (side === 'red' ? 'black' : 'red');

/** "Red wins", "Draw", "Game aborted". */
export function resultText(view) {
  if (view.state === 'aborted') return t('result.aborted');
  return view.result ? t(`result.${view.result}`) : '';
}

/** The ruling line: the reason, with the article when there is one. */
export function reasonText(view) {
  const reason = view.reason || '';
  const article = view.article ? t('article.suffix', { n: view.article }) : '';
  if (FORBIDDEN.has(reason) && view.winner) {
    const loser = other(view.winner);
    return t('ruling.loses', { side: t(`side.${loser}`), pattern: t(`pattern.${reason}`) }) + article;
  }
  const key = `reason.${reason}`;
  const text = t(key);
  return (text === key ? reason.replace(/_/g, ' ') : text) + article;
}

/** The line for a must-change ruling in force (变着, CXA 26.4). */
export function mustChangeText(side, reason, article) {
  const suffix = article ? t('article.suffix', { n: article }) : '';
  if (reason && FORBIDDEN.has(reason)) {
    return t('ruling.mustChange', { side: t(`side.${side}`), pattern: t(`pattern.${reason}`) }) + suffix;
  }
  return t('game.mustChange', { side: t(`side.${side}`), article: suffix });
}

/** Pattern key found in a ruling's English detail text, if any. */
export function patternIn(detail) {
  const d = String(detail || '').replace(/ /g, '_');
  for (const p of FORBIDDEN) if (d.includes(p)) return p;
  return null;
}
