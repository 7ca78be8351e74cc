// Gomoku and renju (五子棋 / 连珠) for the browser: read a position text,
// play a recorded move, and find black's forbidden points (RIF: overline,
// double-four, double-three with the recursive three) to mark them.
//
// There is no referee here: the server sends the legal moves with every
// position and rules on every move (crates/renju). This module draws what
// the server described. Its forbidden points follow the definitions
// straight, as `crates/renju/src/reference.rs` does — the renju crate's
// second implementation, which its tests hold the fast one against — so
// the marks are the server's (tests/e2e/rules.test.mjs checks cases).
//
// Points are numbered as the renju crate numbers them: column * 15 + row,
// column 0 = a at the left, row 0 = row 1 at the bottom; named `a1` … `o15`.
// A position is `{ board, turn, offers, order }`: `board` 225 entries of
// `x` (black), `o` (white) or null; `turn` `black` or `white` (the colour
// of the next stone); `offers` the 5th moves offered under Soosõrv-8;
// `order` the stones in the order they were played (when the moves are
// known), for move numbers and the last-move mark.

export const SIZE = 15;
export const POINTS = SIZE * SIZE;
export const CENTRE = 7 * SIZE + 7;
export const EMPTY_FEN = '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b';
const LETTERS = 'abcdefghijklmno';

export const colOf = (p) => Math.floor(p / SIZE);
export const rowOf = (p) => p % SIZE;
export const pointAt = (col, row) => (col >= 0 && col < SIZE && row >= 0 && row < SIZE ? col * SIZE + row : null);
export const pointName = (p) => `${LETTERS[colOf(p)]}${rowOf(p) + 1}`;

/** `h8` → its number, or null. */
export function parsePoint(name) {
  const m = /^([a-o])(\d{1,2})$/.exec(String(name).trim().toLowerCase());
  if (!m) return null;
  const row = Number(m[2]) - 1;
  return row >= 0 && row < SIZE ? pointAt(LETTERS.indexOf(m[1]), row) : null;
}

/** A position text that cannot be read. */
export class FenError extends Error {}

/** Reads `rows/… b` (and the offered 5th moves after it: `b h10,j7`). */
export function parseFen(fen) {
  const [rows, turn, offers] = String(fen).trim().split(/\s+/);
  const lines = (rows || '').split('/');
  if (lines.length !== SIZE) throw new FenError(`a position has 15 rows, not ${lines.length}`);
  const board = new Array(POINTS).fill(null);
  lines.forEach((line, i) => {
    const row = SIZE - 1 - i;
    let col = 0;
    for (const m of line.matchAll(/(\d+)|([xXoO])/g)) {
      if (m[1]) col += Number(m[1]);
      else {
        board[pointAt(col, row)] = m[2].toLowerCase();
        col += 1;
      }
    }
    if (col !== SIZE) throw new FenError(`row ${row + 1} has ${col} columns`);
  });
  return {
    board,
    turn: turn === 'w' ? 'white' : 'black',
    offers: offers ? offers.split(',').map(parsePoint).filter((p) => p !== null) : [],
    order: null,
  };
}

/** The position after a recorded move (a stone, or an opening step). */
export function play(pos, move) {
  const next = {
    board: pos.board.slice(), turn: pos.turn, offers: pos.offers.slice(), order: pos.order ? pos.order.slice() : null,
  };
  const [word, rest] = String(move).includes(':') ? String(move).split(':') : [null, move];
  const stone = (p) => {
    if (p === null || next.board[p]) return;
    next.board[p] = next.turn === 'black' ? 'x' : 'o';
    next.turn = next.turn === 'black' ? 'white' : 'black';
    if (next.order) next.order.push(p);
    next.offers = [];
  };
  if (word === null) {
    if (move === 'foul') {
      // The office rules: black's forbidden stone is taken back.
      const last = next.order ? next.order.pop() : null;
      if (last !== null && last !== undefined) next.board[last] = null;
      next.turn = 'black';
    } else {
      stone(parsePoint(move));
    }
  } else if (word === 'offer') {
    const p = parsePoint(rest);
    if (p !== null) next.offers.push(p);
  } else if (word === 'select') {
    stone(parsePoint(rest));
  }
  return next;
}

/** The position of `fen` with the order of its stones from `moves` (the server's). */
export function annotate(pos, moves, initialFen) {
  let p = parseFen(initialFen || EMPTY_FEN);
  p.order = [];
  for (const m of moves || []) p = play(p, m.move || m);
  return { ...pos, order: p.order };
}

// --- black's forbidden points (RIF article 3 and the rules after it) --------

const DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];

function step(p, dc, dr) {
  return pointAt(colOf(p) + dc, rowOf(p) + dr);
}

/** The black stones of the unbroken row through `p` along a direction. */
function rowThrough(board, p, [dc, dr]) {
  const row = [p];
  for (const s of [-1, 1]) {
    let q = step(p, s * dc, s * dr);
    while (q !== null && board[q] === 'x') {
      row.push(q);
      q = step(q, s * dc, s * dr);
    }
  }
  return row.sort((a, b) => a - b);
}

function emptyOnLine(board, p, [dc, dr]) {
  const out = [];
  for (const s of [-1, 1]) {
    for (let q = step(p, s * dc, s * dr); q !== null; q = step(q, s * dc, s * dr)) {
      if (!board[q]) out.push(q);
    }
  }
  return out;
}

function fiveWith(board, p, q, dir) {
  board[q] = 'x';
  const row = rowThrough(board, p, dir);
  board[q] = null;
  return row.length === 5 && row.includes(q) ? row : null;
}

function fourCount(board, p, dir) {
  const found = new Set();
  for (const q of emptyOnLine(board, p, dir)) {
    const row = fiveWith(board, p, q, dir);
    if (row) found.add(row.filter((s) => s !== q).join(','));
  }
  return found.size;
}

/** The threes through `p` along a direction: each set of three stones → its straight-four points. */
function threes(board, p, dir) {
  const [dc, dr] = dir;
  const found = new Map();
  for (const q of emptyOnLine(board, p, dir)) {
    board[q] = 'x';
    const row = rowThrough(board, p, dir);
    let straight = false;
    if (row.length === 4 && row.includes(q)) {
      const ends = [step(row[0], -dc, -dr), step(row[3], dc, dr)];
      straight = ends.every((e) => e !== null && !board[e] && fiveWith(board, p, e, dir));
    }
    board[q] = null;
    if (straight) {
      const key = row.filter((s) => s !== q).join(',');
      if (!found.has(key)) found.set(key, []);
      found.get(key).push(q);
    }
  }
  return [...found.values()];
}

/** What a black stone on the empty point `p` is: `five`, `free`, `overline`, `double-four` or `double-three`. */
export function verdict(board, p) {
  board[p] = 'x';
  try {
    const lens = DIRECTIONS.map((d) => rowThrough(board, p, d).length);
    if (lens.includes(5)) return 'five';
    if (lens.some((n) => n >= 6)) return 'overline';
    const fours = DIRECTIONS.reduce((n, d) => n + fourCount(board, p, d), 0);
    if (fours >= 2) return 'double-four';
    let real = 0;
    for (const d of DIRECTIONS) {
      for (const qs of threes(board, p, d)) {
        if (qs.some((q) => verdict(board, q) === 'free')) real += 1;
      }
    }
    return real >= 2 ? 'double-three' : 'free';
  } finally {
    board[p] = null;
  }
}

/** Whether at least two black stones lie within four of `p` along one line (else nothing can be forbidden there). */
function nearBlack(board, p) {
  return DIRECTIONS.some(([dc, dr]) => {
    let n = 0;
    for (const s of [-1, 1]) {
      for (let k = 1; k <= 4; k += 1) {
        const q = step(p, s * k * dc, s * k * dr);
        if (q !== null && board[q] === 'x') n += 1;
      }
    }
    return n >= 2;
  });
}

/** Black's forbidden points of a board: `Map(point → kind)`. */
export function forbiddenPoints(board) {
  const b = board.slice();
  const out = new Map();
  for (let p = 0; p < POINTS; p += 1) {
    if (b[p] || !nearBlack(b, p)) continue;
    const v = verdict(b, p);
    if (v !== 'five' && v !== 'free') out.set(p, v);
  }
  return out;
}

/** Premoves: any empty point (a stone goes anywhere the opponent leaves free). */
export function premoves(pos) {
  const free = [];
  pos.board.forEach((s, p) => {
    if (!s) free.push(pointName(p));
  });
  return { '': free };
}

export const isCapture = () => false;
