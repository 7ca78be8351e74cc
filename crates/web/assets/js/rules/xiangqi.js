// Xiangqi rules for the browser: FEN, legal moves, check, playing a move.
//
// The server is the referee; this module only lets the page answer at
// once what a player may click (legal destinations, the king in check)
// and replay a finished game without asking the server for every
// position. It is checked against the published perft counts in
// data/perft.json (tests/e2e/rules.test.mjs).
//
// Squares are rank * 9 + file, file a–i from red's left, rank 0 = red's
// back rank (ICCS), as in the Rust crate `xiangqi`. Pieces are FEN
// letters: upper case red, lower case black; K 帅/将, A 仕/士, B 相/象
// (E read too), N 马 (H read too), R 车, C 炮, P 兵/卒.

export const FILES = 9;
export const RANKS = 10;
export const STARTPOS = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

/** A FEN that cannot be read. */
export class FenError extends Error {}

const NORMAL = { e: 'b', h: 'n' };

export const isRed = (p) => p === p.toUpperCase();
export const colorOf = (p) => (isRed(p) ? 'red' : 'black');
export const roleOf = (p) => p.toLowerCase();

export function squareName(sq) {
  return String.fromCharCode(97 + (sq % FILES)) + Math.floor(sq / FILES);
}

export function parseSquare(name) {
  if (typeof name !== 'string' || !/^[a-i][0-9]$/.test(name)) return null;
  return (name.charCodeAt(1) - 48) * FILES + (name.charCodeAt(0) - 97);
}

/** `h2e2` → [from, to], or null. */
export function parseMove(iccs) {
  if (typeof iccs !== 'string' || iccs.length !== 4) return null;
  const from = parseSquare(iccs.slice(0, 2));
  const to = parseSquare(iccs.slice(2, 4));
  return from === null || to === null ? null : [from, to];
}

/** Reads the board and side to move of a FEN (`startpos` allowed). */
export function parseFen(fen) {
  const text = fen === 'startpos' ? STARTPOS : String(fen || '').trim();
  const [placement, turn = 'w'] = text.split(/\s+/);
  const rows = placement.split('/');
  if (rows.length !== RANKS) throw new FenError(`FEN has ${rows.length} ranks, not 10`);
  const board = new Array(FILES * RANKS).fill(null);
  rows.forEach((row, i) => {
    const rank = RANKS - 1 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) {
        file += Number(ch);
      } else {
        const lower = ch.toLowerCase();
        const role = NORMAL[lower] || lower;
        if (!'kabnrcp'.includes(role)) throw new FenError(`FEN rank ${rank} has an unknown piece ${ch}`);
        if (file >= FILES) throw new FenError(`FEN rank ${rank} has more than 9 files`);
        board[rank * FILES + file] = ch === lower ? role : role.toUpperCase();
        file += 1;
      }
    }
    if (file !== FILES) throw new FenError(`FEN rank ${rank} has ${file} files`);
  });
  if (turn !== 'w' && turn !== 'b' && turn !== 'r') throw new FenError(`FEN side to move ${turn} is not w or b`);
  return { board, turn: turn === 'b' ? 'black' : 'red' };
}

/** The placement and side-to-move fields of a position's FEN. */
export function boardFen(pos) {
  const rows = [];
  for (let rank = RANKS - 1; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < FILES; file++) {
      const p = pos.board[rank * FILES + file];
      if (p) {
        if (empty) row += empty;
        empty = 0;
        row += p;
      } else {
        empty += 1;
      }
    }
    rows.push(row + (empty || ''));
  }
  return `${rows.join('/')} ${pos.turn === 'red' ? 'w' : 'b'}`;
}

const inBoard = (f, r) => f >= 0 && f < FILES && r >= 0 && r < RANKS;
const inPalace = (f, r, red) => f >= 3 && f <= 5 && (red ? r >= 0 && r <= 2 : r >= 7 && r <= 9);
const ownHalf = (r, red) => (red ? r <= 4 : r >= 5);

/** Destinations of the piece on `sq` by its movement rules alone
 *  (blocking and own pieces respected; checks ignored). */
export function pseudoTargets(board, sq) {
  const p = board[sq];
  if (!p) return [];
  const red = isRed(p);
  const f = sq % FILES;
  const r = Math.floor(sq / FILES);
  const out = [];
  const own = (t) => board[t] && isRed(board[t]) === red;
  const add = (tf, tr) => {
    const t = tr * FILES + tf;
    if (!own(t)) out.push(t);
  };
  switch (roleOf(p)) {
    case 'k':
      for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        if (inPalace(f + df, r + dr, red)) add(f + df, r + dr);
      }
      break;
    case 'a':
      for (const [df, dr] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
        if (inPalace(f + df, r + dr, red)) add(f + df, r + dr);
      }
      break;
    case 'b': // two diagonal steps, not across the river, blocked on the eye (塞象眼)
      for (const [df, dr] of [[2, 2], [2, -2], [-2, 2], [-2, -2]]) {
        const tf = f + df;
        const tr = r + dr;
        if (inBoard(tf, tr) && ownHalf(tr, red) && !board[(r + dr / 2) * FILES + f + df / 2]) add(tf, tr);
      }
      break;
    case 'n': // one straight then one diagonal, blocked at the leg (蹩马腿)
      for (const [df, dr, lf, lr] of [
        [1, 2, 0, 1], [-1, 2, 0, 1], [1, -2, 0, -1], [-1, -2, 0, -1],
        [2, 1, 1, 0], [2, -1, 1, 0], [-2, 1, -1, 0], [-2, -1, -1, 0],
      ]) {
        const tf = f + df;
        const tr = r + dr;
        if (inBoard(tf, tr) && !board[(r + lr) * FILES + f + lf]) add(tf, tr);
      }
      break;
    case 'r':
    case 'c': {
      const cannon = roleOf(p) === 'c';
      for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        let tf = f + df;
        let tr = r + dr;
        let screen = false;
        while (inBoard(tf, tr)) {
          const t = tr * FILES + tf;
          if (!screen) {
            if (!board[t]) {
              out.push(t);
            } else if (cannon) {
              screen = true; // 炮打隔子: jump exactly one screen to capture
            } else {
              if (!own(t)) out.push(t);
              break;
            }
          } else if (board[t]) {
            if (!own(t)) out.push(t);
            break;
          }
          tf += df;
          tr += dr;
        }
      }
      break;
    }
    case 'p': {
      const fwd = red ? 1 : -1;
      if (inBoard(f, r + fwd)) add(f, r + fwd);
      if (!ownHalf(r, red)) {
        if (f > 0) add(f - 1, r);
        if (f < FILES - 1) add(f + 1, r);
      }
      break;
    }
    default:
      break;
  }
  return out;
}

export function kingSquare(board, color) {
  const k = color === 'red' ? 'K' : 'k';
  return board.indexOf(k);
}

/** Whether `color`'s king is attacked, or faces the other king on an
 *  open file (飞将: a position with facing kings is never legal). */
export function inCheck(board, color) {
  const ks = kingSquare(board, color);
  if (ks < 0) return false;
  const other = color === 'red' ? 'black' : 'red';
  const oks = kingSquare(board, other);
  if (oks >= 0 && oks % FILES === ks % FILES) {
    const [lo, hi] = ks < oks ? [ks, oks] : [oks, ks];
    let open = true;
    for (let t = lo + FILES; t < hi; t += FILES) {
      if (board[t]) {
        open = false;
        break;
      }
    }
    if (open) return true;
  }
  for (let sq = 0; sq < board.length; sq++) {
    const p = board[sq];
    if (!p || colorOf(p) === color) continue;
    const role = roleOf(p);
    if (role === 'k' || role === 'a' || role === 'b') continue; // never reach the other palace
    if (pseudoTargets(board, sq).includes(ks)) return true;
  }
  return false;
}

/** The legal moves of the side to move, in ICCS, sorted. A side with
 *  none has lost (checkmate 将死 and stalemate 困毙 alike). */
export function legalMoves(pos) {
  const { board, turn } = pos;
  const out = [];
  for (let sq = 0; sq < board.length; sq++) {
    const p = board[sq];
    if (!p || colorOf(p) !== turn) continue;
    for (const t of pseudoTargets(board, sq)) {
      const captured = board[t];
      board[t] = p;
      board[sq] = null;
      if (!inCheck(board, turn)) out.push(squareName(sq) + squareName(t));
      board[sq] = p;
      board[t] = captured;
    }
  }
  return out.sort();
}

/** Legal moves grouped by origin square name: `{ h2: ['e2', …] }`. */
export function destsBySquare(moves) {
  const dests = {};
  for (const m of moves) {
    const from = m.slice(0, 2);
    (dests[from] ||= []).push(m.slice(2, 4));
  }
  return dests;
}

/** The position after a move (no legality check: the server referees). */
export function play(pos, iccs) {
  const mv = parseMove(iccs);
  if (!mv) throw new Error(`not an ICCS move: ${iccs}`);
  const board = pos.board.slice();
  board[mv[1]] = board[mv[0]];
  board[mv[0]] = null;
  return { board, turn: pos.turn === 'red' ? 'black' : 'red' };
}

/** Leaf count of the legal-move tree (perft), for testing this module. */
export function perft(pos, depth) {
  if (depth === 0) return 1;
  const moves = legalMoves(pos);
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) n += perft(play(pos, m), depth - 1);
  return n;
}
