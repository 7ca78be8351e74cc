// Gomoku and renju move notation for the move list: the point (`h8`), as
// renju records write it and as it travels on the wire, or the Gomocup
// protocol's `x,y` (from 0, y from the top); the opening's steps in words
// (`choose:black` → "takes black"). A typed move is a point, or an
// opening step as written.

import { t } from '../i18n.js';
import { colOf, parsePoint, rowOf, SIZE } from '../rules/renju.js';

export const STYLES = ['point', 'gomocup'];
/** Typed moves to show as a hint. */
export const EXAMPLES = ['h8', 'choose:black'];
const KEY = 'qiju.notation.renju';

export function getStyle() {
  try {
    const s = localStorage.getItem(KEY);
    return STYLES.includes(s) ? s : 'point';
  } catch {
    return 'point';
  }
}

export function setStyle(style) {
  if (!STYLES.includes(style)) return;
  try {
    localStorage.setItem(KEY, style);
  } catch {
    /* private mode: not remembered */
  }
}

function pointText(name, style) {
  const p = parsePoint(name);
  if (p === null) return name;
  return style === 'gomocup' ? `${colOf(p)},${SIZE - 1 - rowOf(p)}` : name;
}

/** A step of an opening rule in words: `choose:black`, `more`, `declare:3`, `offer:h10`, `select:h10`, `foul`. */
export function choiceText(move) {
  const [word, arg] = String(move).split(':');
  const key = `renju.move.${word}${word === 'choose' ? `.${arg}` : ''}`;
  const text = t(key, { n: arg, point: arg });
  return text === key ? move : text;
}

/** The text of a recorded move in `style`. */
export function moveText(m, _before, style) {
  const move = m.move;
  if (parsePoint(move) !== null) return pointText(move, style);
  const [word, arg] = String(move).split(':');
  if ((word === 'offer' || word === 'select') && arg) {
    return t(`renju.move.${word}`, { point: pointText(arg, style) });
  }
  return choiceText(move);
}

/** The move of `legal` that a typed text names (`h8`, `H8`, `choose:black`), or null. */
export function findMove(text, _pos, legal) {
  const typed = String(text).trim().toLowerCase().replace(/\s+/g, '');
  if (legal.includes(typed)) return typed;
  // A point where the opening asks for an offer or a pick.
  for (const word of ['offer', 'select']) {
    if (legal.includes(`${word}:${typed}`)) return `${word}:${typed}`;
  }
  return null;
}

export function openingName() {
  return null;
}
