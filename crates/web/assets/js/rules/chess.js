// Chess for the browser: read a FEN, play a UCI move, find a king, and
// the squares a piece could reach by its movement alone (premoves).
//
// There is no move generation here: the server sends the side to move's
// legal moves (`legal`) with every position, and it is the referee. This
// module only draws positions the server described and plays the moves it
// recorded (replay, a move shown before the server confirms it).
//
// Squares are rank * 8 + file, file a–h, rank 0 = rank 1 (White's back
// rank). Pieces are FEN letters: upper case White, lower case Black.

export const FILES = 8;
export const RANKS = 8;
export const STARTPOS = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A FEN that cannot be read. */
export class FenError extends Error {}

export const isWhite = (p) => p === p.toUpperCase();
export const colorOf = (p) => (isWhite(p) ? 'white' : 'black');
export const roleOf = (p) => p.toLowerCase();
export const fileOf = (sq) => sq % FILES;
export const rankOf = (sq) => Math.floor(sq / FILES);

export function squareName(sq) {
  return String.fromCharCode(97 + fileOf(sq)) + String(rankOf(sq) + 1);
}

export function parseSquare(name) {
  if (typeof name !== 'string' || !/^[a-h][1-8]$/.test(name)) return null;
  return (name.charCodeAt(1) - 49) * FILES + (name.charCodeAt(0) - 97);
}

/** `e7e8q` → { from, to, promotion } (squares as numbers), or null. */
export function parseMove(uci) {
  if (typeof uci !== 'string' || !/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(uci)) return null;
  return { from: parseSquare(uci.slice(0, 2)), to: parseSquare(uci.slice(2, 4)), promotion: uci[4] || null };
}

/** Reads a FEN (`startpos` allowed): board, side to move, castling, en passant. */
export function parseFen(fen) {
  const text = fen === 'startpos' ? STARTPOS : String(fen || '').trim();
  const [placement = '', turn = 'w', castling = '-', ep = '-'] = text.split(/\s+/);
  const rows = placement.split('/');
  if (rows.length !== RANKS) throw new FenError(`FEN has ${rows.length} ranks, not 8`);
  const board = new Array(FILES * RANKS).fill(null);
  rows.forEach((row, i) => {
    const rank = RANKS - 1 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) {
        file += Number(ch);
      } else {
        if (!'kqrbnp'.includes(ch.toLowerCase())) throw new FenError(`FEN rank ${rank + 1} has an unknown piece ${ch}`);
        if (file >= FILES) throw new FenError(`FEN rank ${rank + 1} has more than 8 files`);
        board[rank * FILES + file] = ch;
        file += 1;
      }
    }
    if (file !== FILES) throw new FenError(`FEN rank ${rank + 1} has ${file} files`);
  });
  if (turn !== 'w' && turn !== 'b') throw new FenError(`FEN side to move ${turn} is not w or b`);
  return { board, turn: turn === 'b' ? 'black' : 'white', castling, ep: parseSquare(ep) };
}

/** The square of `color`'s king, or -1. */
export function kingSquare(board, color) {
  const k = color === 'white' ? 'K' : 'k';
  return board.indexOf(k);
}

/**
 * The position after a UCI move, as the server plays it: castling either
 * as the king's two-square step (`e1g1`) or as king takes own rook
 * (Chess960, `e1h1`), en passant, promotion. No legality check.
 */
export function play(pos, uci) {
  const mv = parseMove(uci);
  if (!mv) return pos;
  const board = pos.board.slice();
  const piece = board[mv.from];
  if (!piece) return pos;
  const target = board[mv.to];
  const role = roleOf(piece);
  let ep = null;
  const castle = role === 'k' && ((target && roleOf(target) === 'r' && colorOf(target) === colorOf(piece))
    || (rankOf(mv.from) === rankOf(mv.to) && Math.abs(fileOf(mv.to) - fileOf(mv.from)) === 2));
  if (castle) {
    const rank = rankOf(mv.from);
    const kingSide = fileOf(mv.to) > fileOf(mv.from);
    let rookSq = mv.to;
    if (!target) {
      // The two-square step: the rook is the outermost one on that side.
      rookSq = -1;
      for (let f = kingSide ? FILES - 1 : 0; kingSide ? f > fileOf(mv.from) : f < fileOf(mv.from); f += kingSide ? -1 : 1) {
        const p = board[rank * FILES + f];
        if (p && roleOf(p) === 'r' && colorOf(p) === colorOf(piece)) {
          rookSq = rank * FILES + f;
          break;
        }
      }
    }
    const rook = rookSq >= 0 ? board[rookSq] : null;
    board[mv.from] = null;
    if (rookSq >= 0) board[rookSq] = null;
    board[rank * FILES + (kingSide ? 6 : 2)] = piece;
    if (rook) board[rank * FILES + (kingSide ? 5 : 3)] = rook;
  } else {
    if (role === 'p' && fileOf(mv.from) !== fileOf(mv.to) && !target) {
      board[rankOf(mv.from) * FILES + fileOf(mv.to)] = null; // en passant
    }
    if (role === 'p' && Math.abs(rankOf(mv.to) - rankOf(mv.from)) === 2) {
      ep = (mv.from + mv.to) / 2;
    }
    board[mv.from] = null;
    board[mv.to] = mv.promotion ? (isWhite(piece) ? mv.promotion.toUpperCase() : mv.promotion) : piece;
  }
  return { board, turn: pos.turn === 'white' ? 'black' : 'white', castling: pos.castling, ep };
}

/** Whether a move takes something (en passant included). */
export function isCapture(pos, uci) {
  const mv = parseMove(uci);
  if (!mv) return false;
  const piece = pos.board[mv.from];
  const target = pos.board[mv.to];
  if (!piece) return false;
  if (target) return colorOf(target) !== colorOf(piece);
  return roleOf(piece) === 'p' && fileOf(mv.from) !== fileOf(mv.to);
}

/** Whether a pawn's move from `from` to `to` reaches the last rank. */
export function isPromotion(board, from, to) {
  const p = board[from];
  return !!p && roleOf(p) === 'p' && rankOf(to) === (isWhite(p) ? RANKS - 1 : 0);
}

const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK = [[1, 0], [0, 1], [-1, 0], [0, -1]];
const BISHOP = [[1, 1], [-1, 1], [-1, -1], [1, -1]];

/**
 * Where the piece on `sq` could go by its movement alone, through other
 * pieces: the premove destinations (the server refuses one that turns
 * out illegal). The king may also step two files, or onto its own rook
 * on the back rank (castling either way).
 */
export function premoveTargets(board, sq) {
  const p = board[sq];
  if (!p) return [];
  const f0 = fileOf(sq);
  const r0 = rankOf(sq);
  const out = new Set();
  const add = (f, r) => {
    if (f >= 0 && f < FILES && r >= 0 && r < RANKS) out.add(r * FILES + f);
  };
  const slide = (dirs) => {
    for (const [df, dr] of dirs) for (let k = 1; k < 8; k++) add(f0 + df * k, r0 + dr * k);
  };
  switch (roleOf(p)) {
    case 'n': for (const [df, dr] of KNIGHT) add(f0 + df, r0 + dr); break;
    case 'b': slide(BISHOP); break;
    case 'r': slide(ROOK); break;
    case 'q': slide(ROOK); slide(BISHOP); break;
    case 'k': {
      for (const [df, dr] of KING) add(f0 + df, r0 + dr);
      const back = isWhite(p) ? 0 : RANKS - 1;
      if (r0 === back) {
        add(f0 + 2, r0);
        add(f0 - 2, r0);
        for (let f = 0; f < FILES; f++) {
          const q = board[back * FILES + f];
          if (q && roleOf(q) === 'r' && colorOf(q) === colorOf(p)) add(f, back);
        }
      }
      break;
    }
    case 'p': {
      const dir = isWhite(p) ? 1 : -1;
      add(f0, r0 + dir);
      if (r0 === (isWhite(p) ? 1 : RANKS - 2)) add(f0, r0 + 2 * dir);
      add(f0 - 1, r0 + dir);
      add(f0 + 1, r0 + dir);
      break;
    }
    default: break;
  }
  out.delete(sq);
  return [...out];
}
