// Shogi for the browser: read an SFEN, play a USI move (`7g7f`, `8h2b+`,
// `P*5e`), find a king, say where a move may or must promote, and the
// squares a piece could reach by its movement alone (premoves).
//
// There is no move generation here: the server sends the side to move's
// legal moves (`legal`) with every position, and it is the referee (二歩,
// 打ち歩詰め and the rest are its business). This module only draws the
// positions the server described and plays the moves it recorded.
//
// Squares are rank * 9 + file from sente's side: file 0 is the 9 file (on
// sente's left), rank 0 is rank i (sente's back rank), so square 0 is 9i
// and square 80 is 1a. Pieces are SFEN letters, `+` before a promoted
// one: upper case sente (先手, black in SFEN), lower case gote (後手). In
// a handicap game the giver (上手) plays gote's pieces and the receiver
// (下手) sente's: `colorOfSide` maps the variant's side words onto them.

export const FILES = 9;
export const RANKS = 9;
export const STARTPOS = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
/** The pieces a hand may hold, in SFEN's order. */
export const HAND_ORDER = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];
const RANK_LETTERS = 'abcdefghi';

/** An SFEN that cannot be read. */
export class SfenError extends Error {}

const base = (p) => p.replace('+', '');
export const isSente = (p) => base(p) === base(p).toUpperCase();
export const colorOf = (p) => (isSente(p) ? 'sente' : 'gote');
export const isPromoted = (p) => p.startsWith('+');
export const fileOf = (sq) => sq % FILES;
export const rankOf = (sq) => Math.floor(sq / FILES);

const ROLE = {
  k: 'king', r: 'rook', b: 'bishop', g: 'gold', s: 'silver', n: 'knight', l: 'lance', p: 'pawn',
};
const PROMOTED_ROLE = {
  r: 'dragon', b: 'horse', s: 'psilver', n: 'pknight', l: 'plance', p: 'tokin',
};

/** A piece's role name: `pawn` … `king`, `tokin`, `horse`, `dragon` … */
export function roleOf(p) {
  const b = base(p).toLowerCase();
  return isPromoted(p) ? PROMOTED_ROLE[b] : ROLE[b];
}

/** The colour (`sente`/`gote`) whose pieces a side word plays: the
 *  receiver (下手, shitate) has sente's, the giver (上手, uwate) gote's. */
export function colorOfSide(word) {
  return word === 'gote' || word === 'uwate' ? 'gote' : 'sente';
}

/** `7g` → its square number, or null. */
export function parseSquare(name) {
  if (typeof name !== 'string' || !/^[1-9][a-i]$/.test(name)) return null;
  const file = 9 - Number(name[0]);
  const rank = 8 - RANK_LETTERS.indexOf(name[1]);
  return rank * FILES + file;
}

export function squareName(sq) {
  return `${9 - fileOf(sq)}${RANK_LETTERS[8 - rankOf(sq)]}`;
}

/**
 * `7g7f+` → { from, to, promote }, `P*5e` → { drop: 'P', to }; squares as
 * numbers; null for anything else.
 */
export function parseMove(usi) {
  const text = String(usi || '');
  let m = /^([RBGSNLP])\*([1-9][a-i])$/.exec(text);
  if (m) return { drop: m[1], from: null, to: parseSquare(m[2]), promote: false };
  m = /^([1-9][a-i])([1-9][a-i])(\+?)$/.exec(text);
  if (!m) return null;
  return { drop: null, from: parseSquare(m[1]), to: parseSquare(m[2]), promote: m[3] === '+' };
}

function emptyHands() {
  const hand = () => Object.fromEntries(HAND_ORDER.map((k) => [k, 0]));
  return { sente: hand(), gote: hand() };
}

/** Reads an SFEN (`startpos` allowed): board, side to move, hands. */
export function parseFen(sfen) {
  const text = sfen === 'startpos' ? STARTPOS : String(sfen || '').trim();
  const [placement = '', turn = 'b', hand = '-', moveNumber = '1'] = text.split(/\s+/);
  const rows = placement.split('/');
  if (rows.length !== RANKS) throw new SfenError(`SFEN has ${rows.length} ranks, not 9`);
  const board = new Array(FILES * RANKS).fill(null);
  rows.forEach((row, i) => {
    const rank = RANKS - 1 - i;
    let file = 0;
    let plus = false;
    for (const ch of row) {
      if (ch === '+') {
        plus = true;
      } else if (/[1-9]/.test(ch)) {
        file += Number(ch);
      } else {
        if (!'kgsnlbrp'.includes(ch.toLowerCase())) throw new SfenError(`SFEN rank ${RANK_LETTERS[i]} has an unknown piece ${ch}`);
        if (file >= FILES) throw new SfenError(`SFEN rank ${RANK_LETTERS[i]} has more than 9 files`);
        board[rank * FILES + file] = plus ? `+${ch}` : ch;
        plus = false;
        file += 1;
      }
    }
    if (file !== FILES) throw new SfenError(`SFEN rank ${RANK_LETTERS[i]} has ${file} files`);
  });
  if (turn !== 'b' && turn !== 'w') throw new SfenError(`SFEN side to move ${turn} is not b or w`);
  const hands = emptyHands();
  if (hand !== '-') {
    let count = '';
    for (const ch of hand) {
      if (/\d/.test(ch)) {
        count += ch;
        continue;
      }
      const k = ch.toUpperCase();
      if (!HAND_ORDER.includes(k)) throw new SfenError(`SFEN hand has an unknown piece ${ch}`);
      hands[ch === k ? 'sente' : 'gote'][k] += count ? Number(count) : 1;
      count = '';
    }
  }
  return {
    board, turn: turn === 'b' ? 'sente' : 'gote', hands, moveNumber: Number(moveNumber) || 1, lastTo: null,
  };
}

/** The square of `color`'s king, or -1. */
export function kingSquare(board, color) {
  return board.indexOf(color === 'sente' ? 'K' : 'k');
}

/** The position after a USI move, as the server plays it. No legality check. */
export function play(pos, usi) {
  const mv = parseMove(usi);
  if (!mv) return pos;
  const board = pos.board.slice();
  const hands = { sente: { ...pos.hands.sente }, gote: { ...pos.hands.gote } };
  const color = pos.turn;
  if (mv.drop) {
    if (hands[color][mv.drop] > 0) hands[color][mv.drop] -= 1;
    board[mv.to] = color === 'sente' ? mv.drop : mv.drop.toLowerCase();
  } else {
    const piece = board[mv.from];
    if (!piece) return pos;
    const target = board[mv.to];
    if (target) {
      const k = base(target).toUpperCase();
      if (HAND_ORDER.includes(k)) hands[color][k] += 1;
    }
    board[mv.from] = null;
    board[mv.to] = mv.promote && !isPromoted(piece) ? `+${piece}` : piece;
  }
  return {
    board, hands, turn: color === 'sente' ? 'gote' : 'sente', moveNumber: pos.moveNumber + 1, lastTo: mv.to,
  };
}

/** Whether a move captures. */
export function isCapture(pos, usi) {
  const mv = parseMove(usi);
  return !!(mv && !mv.drop && pos.board[mv.to]);
}

/** Ranks (0 = sente's back rank) of `color`'s promotion zone. */
const inZone = (color, sq) => (color === 'sente' ? rankOf(sq) >= 6 : rankOf(sq) <= 2);

/** Whether moving `piece` from `from` to `to` may promote (成/不成). */
export function mayPromote(piece, from, to) {
  if (!piece || isPromoted(piece) || !'RBSNLP'.includes(base(piece).toUpperCase())) return false;
  const color = colorOf(piece);
  return inZone(color, from) || inZone(color, to);
}

/** Whether it must (a pawn or lance on the last rank, a knight on the last two). */
export function mustPromote(piece, to) {
  if (!piece || isPromoted(piece)) return false;
  const k = base(piece).toUpperCase();
  const ahead = colorOf(piece) === 'sente' ? 8 - rankOf(to) : rankOf(to); // ranks left in front
  return ((k === 'P' || k === 'L') && ahead === 0) || (k === 'N' && ahead <= 1);
}

const GOLD = [[-1, 1], [0, 1], [1, 1], [-1, 0], [1, 0], [0, -1]];
const STEPS = {
  k: [[-1, 1], [0, 1], [1, 1], [-1, 0], [1, 0], [-1, -1], [0, -1], [1, -1]],
  g: GOLD,
  s: [[-1, 1], [0, 1], [1, 1], [-1, -1], [1, -1]],
  n: [[-1, 2], [1, 2]],
  p: [[0, 1]],
  '+p': GOLD, '+l': GOLD, '+n': GOLD, '+s': GOLD,
  '+b': [[0, 1], [-1, 0], [1, 0], [0, -1]],
  '+r': [[-1, 1], [1, 1], [-1, -1], [1, -1]],
};
const SLIDES = {
  l: [[0, 1]],
  b: [[-1, 1], [1, 1], [-1, -1], [1, -1]],
  r: [[0, 1], [-1, 0], [1, 0], [0, -1]],
  '+b': [[-1, 1], [1, 1], [-1, -1], [1, -1]],
  '+r': [[0, 1], [-1, 0], [1, 0], [0, -1]],
};

/**
 * The squares the piece on `sq` could move to by its movement alone
 * (sliders stop at the first piece, whoever's): premoves, and western
 * notation's "which of two pieces" question.
 */
export function premoveTargets(board, sq) {
  const p = board[sq];
  if (!p) return [];
  const key = (isPromoted(p) ? '+' : '') + base(p).toLowerCase();
  const dir = isSente(p) ? 1 : -1; // sente's forward is up the ranks
  const out = [];
  const at = (f, r) => (f >= 0 && f < FILES && r >= 0 && r < RANKS ? r * FILES + f : null);
  for (const [dx, dy] of STEPS[key] || []) {
    const t = at(fileOf(sq) + dx * dir, rankOf(sq) + dy * dir);
    if (t !== null) out.push(t);
  }
  for (const [dx, dy] of SLIDES[key] || []) {
    let f = fileOf(sq);
    let r = rankOf(sq);
    for (;;) {
      f += dx * dir;
      r += dy * dir;
      const t = at(f, r);
      if (t === null) break;
      out.push(t);
      if (board[t]) break;
    }
  }
  return out;
}

/** Every empty square: where a piece in hand could be dropped by movement alone. */
export function emptySquares(board) {
  const out = [];
  board.forEach((p, sq) => {
    if (!p) out.push(sq);
  });
  return out;
}
