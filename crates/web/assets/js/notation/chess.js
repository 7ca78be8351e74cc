// Chess move notation for the move list: SAN (Nf3, exd5, O-O, e8=Q+),
// the server's `display`, or UCI (g1f3, e7e8q), the coordinate notation
// that travels on the wire; switchable and remembered. A typed move is
// read in either and matched against the server's legal moves.

import { parseSquare, roleOf } from '../rules/chess.js';

export const STYLES = ['san', 'uci'];
/** Typed moves to show as a hint. */
export const EXAMPLES = ['e2e4', 'Nf3', 'O-O'];
const KEY = 'qiju.notation.chess';

export function getStyle() {
  try {
    const s = localStorage.getItem(KEY);
    return STYLES.includes(s) ? s : 'san';
  } catch {
    return 'san';
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

/** The text of a recorded move in `style`: the server's SAN, or UCI. */
export function moveText(m, _before, style) {
  if (style === 'uci') return m.move;
  return m.display || m.move;
}

const SAN = /^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQ]))?$/;

/**
 * The move of `legal` (UCI) that a typed text names, in UCI or SAN
 * (`Nf3`, `exd5`, `e8=N`, `O-O`, `0-0-0`), in position `pos`; or null.
 */
export function findMove(text, pos, legal) {
  const typed = String(text).trim().replace(/[+#!?]+$/, '');
  if (legal.includes(typed.toLowerCase())) return typed.toLowerCase();
  const castle = typed.toUpperCase().replace(/0/g, 'O');
  if (castle === 'O-O' || castle === 'O-O-O') {
    return legal.find((m) => {
      const from = parseSquare(m.slice(0, 2));
      const to = parseSquare(m.slice(2, 4));
      const piece = pos.board[from];
      if (!piece || roleOf(piece) !== 'k') return false;
      const target = pos.board[to];
      const castling = (target && roleOf(target) === 'r' && (target === target.toUpperCase()) === (piece === piece.toUpperCase()))
        || (m[1] === m[3] && Math.abs(m.charCodeAt(2) - m.charCodeAt(0)) === 2);
      return castling && (castle === 'O-O' ? m[2] > m[0] : m[2] < m[0]);
    }) || null;
  }
  const san = typed.match(SAN);
  if (!san) return null;
  const [, pieceLetter, file, rank, dest, promo] = san;
  const role = (pieceLetter || 'P').toLowerCase();
  const found = legal.filter((m) => {
    const piece = pos.board[parseSquare(m.slice(0, 2))];
    return piece && roleOf(piece) === role && m.slice(2, 4) === dest
      && (!file || m[0] === file) && (!rank || m[1] === rank)
      && (m[4] || '') === (promo || '').toLowerCase();
  });
  return found.length === 1 ? found[0] : null;
}

/** Chess openings are shown by their moves alone (no name table here). */
export function openingName() {
  return null;
}
