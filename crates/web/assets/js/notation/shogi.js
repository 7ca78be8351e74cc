// Shogi move notation for the move list: Japanese (▲７六歩, △同　歩,
// ▲２二角成, ▲５二金右 — the server's `display`), western (P-7f, Bx2b+,
// S-2c=, P*5e — the server's `alt`) or USI (7g7f, 8h2b+, P*5e), the
// coordinate notation that travels on the wire; switchable and
// remembered. A typed move is read in any of the three (Japanese with
// half- or full-width digits, 同, 成/不成, 打 and 右/左/上/引/寄/直) and
// matched against the server's legal moves.

import {
  colorOf, isPromoted, parseMove, premoveTargets, squareName,
} from '../rules/shogi.js';

export const STYLES = ['japanese', 'western', 'usi'];
/** Typed moves to show as a hint. */
export const EXAMPLES = ['7g7f', '７六歩', 'P-7f', 'P*5e'];
const KEY = 'qiju.notation.shogi';

export function getStyle() {
  try {
    const s = localStorage.getItem(KEY);
    return STYLES.includes(s) ? s : 'japanese';
  } catch {
    return 'japanese';
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

const WESTERN = {
  king: 'K', rook: 'R', bishop: 'B', gold: 'G', silver: 'S', knight: 'N', lance: 'L', pawn: 'P',
  dragon: '+R', horse: '+B', psilver: '+S', pknight: '+N', plance: '+L', tokin: '+P',
};

/** Western notation worked out here (a move shown before the server's
 *  words arrive): the origin is added when another piece of the kind
 *  could move there by its movement alone. */
function western(usi, pos) {
  const mv = parseMove(usi);
  if (!mv || !pos) return usi;
  if (mv.drop) return `${mv.drop}*${squareName(mv.to)}`;
  const piece = pos.board[mv.from];
  if (!piece) return usi;
  const letter = WESTERN[roleName(piece)];
  const twins = pos.board.some((p, sq) => p === piece && sq !== mv.from
    && premoveTargets(pos.board, sq).includes(mv.to));
  const origin = twins ? squareName(mv.from) : '';
  const sep = pos.board[mv.to] ? 'x' : '-';
  let suffix = '';
  if (mv.promote) suffix = '+';
  else if (!isPromoted(piece) && 'RBSNLP'.includes(piece.toUpperCase()) && promotable(piece, mv)) suffix = '=';
  return `${letter}${origin}${sep}${squareName(mv.to)}${suffix}`;
}

function promotable(piece, mv) {
  const zone = (sq) => (colorOf(piece) === 'sente' ? Math.floor(sq / 9) >= 6 : Math.floor(sq / 9) <= 2);
  return zone(mv.from) || zone(mv.to);
}

function roleName(piece) {
  const b = piece.replace('+', '').toLowerCase();
  const promoted = piece.startsWith('+');
  return ({
    k: 'king', r: promoted ? 'dragon' : 'rook', b: promoted ? 'horse' : 'bishop', g: 'gold',
    s: promoted ? 'psilver' : 'silver', n: promoted ? 'pknight' : 'knight', l: promoted ? 'plance' : 'lance',
    p: promoted ? 'tokin' : 'pawn',
  })[b];
}

/** The text of a recorded move in `style`. */
export function moveText(m, before, style) {
  if (style === 'usi') return m.move;
  if (style === 'western') return m.alt || western(m.move, before);
  return m.display || m.move;
}

// --- typed moves -------------------------------------------------------------

const KANJI_DIGITS = '一二三四五六七八九';
const WIDE_DIGITS = '１２３４５６７８９';
/** Japanese piece names → (SFEN letter, promoted). */
const KANJI = [
  ['成香', 'L', true], ['成桂', 'N', true], ['成銀', 'S', true],
  ['歩', 'P', false], ['香', 'L', false], ['桂', 'N', false], ['銀', 'S', false], ['金', 'G', false],
  ['角', 'B', false], ['飛', 'R', false], ['玉', 'K', false], ['王', 'K', false],
  ['と', 'P', true], ['杏', 'L', true], ['圭', 'N', true], ['全', 'S', true], ['馬', 'B', true],
  ['龍', 'R', true], ['竜', 'R', true],
];

/** `７六` / `76` / `7六` → `7f`. */
function squareOfDigits(a, b) {
  const file = WIDE_DIGITS.includes(a) ? WIDE_DIGITS.indexOf(a) + 1 : Number(a);
  const rank = KANJI_DIGITS.includes(b) ? KANJI_DIGITS.indexOf(b) + 1
    : WIDE_DIGITS.includes(b) ? WIDE_DIGITS.indexOf(b) + 1 : Number(b);
  if (!(file >= 1 && file <= 9 && rank >= 1 && rank <= 9)) return null;
  return `${file}${'abcdefghi'[rank - 1]}`;
}

/** The piece letter (upper case) and promotion of the piece a move moves. */
function moverOf(pos, usi) {
  const mv = parseMove(usi);
  if (!mv) return null;
  if (mv.drop) return { letter: mv.drop, promoted: false, mv, usi };
  const p = pos.board[mv.from];
  return p ? {
    letter: p.replace('+', '').toUpperCase(), promoted: isPromoted(p), mv, usi,
  } : null;
}

/** Narrows moves of one kind of piece by 右/左/上/引/寄/直, from the mover's view. */
function byWords(cands, words, color) {
  const s = color === 'sente' ? 1 : -1;
  const file = (sq) => sq % 9; // 0 = the 9 file, on sente's left
  const rank = (sq) => Math.floor(sq / 9);
  let list = cands;
  for (const w of words) {
    if (w === '上') list = list.filter((c) => (rank(c.mv.to) - rank(c.mv.from)) * s > 0);
    if (w === '引') list = list.filter((c) => (rank(c.mv.to) - rank(c.mv.from)) * s < 0);
    if (w === '寄') list = list.filter((c) => rank(c.mv.to) === rank(c.mv.from));
    if (w === '直') list = list.filter((c) => file(c.mv.to) === file(c.mv.from) && (rank(c.mv.to) - rank(c.mv.from)) * s > 0);
    if (w === '右' || w === '左') {
      // Right from the mover's view: sente's right is the 1 file.
      const xs = list.map((c) => file(c.mv.from) * s);
      const want = w === '右' ? Math.max(...xs) : Math.min(...xs);
      list = list.filter((c) => file(c.mv.from) * s === want);
    }
  }
  return list;
}

function findJapanese(text, pos, legal) {
  const t = text.replace(/^[▲△☗☖]/, '').replace(/[\s　]/g, '');
  let rest = t;
  let to = null;
  if (rest.startsWith('同')) {
    if (pos.lastTo === null || pos.lastTo === undefined) return null;
    to = squareName(pos.lastTo);
    rest = rest.slice(1);
  } else {
    to = squareOfDigits(rest[0], rest[1]);
    rest = rest.slice(2);
  }
  if (!to) return null;
  const kind = KANJI.find(([k]) => rest.startsWith(k));
  if (!kind) return null;
  const [name, letter, promoted] = kind;
  rest = rest.slice(name.length);
  const words = [...rest.replace('不成', '不')];
  const drop = words.includes('打');
  const promote = words.includes('成');
  const decline = words.includes('不');
  let cands = legal.map((m) => moverOf(pos, m))
    .filter((c) => c && squareName(c.mv.to) === to && c.letter === letter && c.promoted === promoted);
  if (drop) cands = cands.filter((c) => c.mv.drop);
  else if (cands.some((c) => !c.mv.drop)) cands = cands.filter((c) => !c.mv.drop);
  if (promote) cands = cands.filter((c) => c.mv.promote);
  else if (decline || cands.some((c) => !c.mv.promote)) cands = cands.filter((c) => !c.mv.promote);
  cands = byWords(cands, words.filter((w) => '右左上引寄直'.includes(w)), pos.turn);
  return cands.length === 1 ? cands[0].usi : null;
}

const WESTERN_RE = /^(\+?)([PLNSGBRK])([1-9][a-i])?([-x*])([1-9][a-i])([+=]?)$/i;

function findWestern(text, pos, legal) {
  const m = WESTERN_RE.exec(text.replace(/\s/g, ''));
  if (!m) return null;
  const [, plus, letterRaw, origin, sep, dest, suffix] = m;
  const letter = letterRaw.toUpperCase();
  if (sep === '*') {
    const usi = `${letter}*${dest.toLowerCase()}`;
    return legal.includes(usi) ? usi : null;
  }
  const cands = legal.filter((u) => {
    const c = moverOf(pos, u);
    return c && !c.mv.drop && c.letter === letter && c.promoted === (plus === '+')
      && squareName(c.mv.to) === dest.toLowerCase()
      && (!origin || squareName(c.mv.from) === origin.toLowerCase())
      && (suffix === '+' ? c.mv.promote : suffix === '=' ? !c.mv.promote : true);
  });
  if (cands.length === 2 && !suffix) return null; // 成 or 不成? Say which.
  return cands.length === 1 ? cands[0] : null;
}

/**
 * The move of `legal` (USI) that a typed text names — USI (`7g7f`, `p*5e`),
 * western (`P-7f`, `Bx2b+`, `S-2c=`, `P*5e`) or Japanese (`７六歩`, `76歩`,
 * `同歩`, `22角成`, `45角打`, `52金右`) — in position `pos`; or null.
 */
export function findMove(text, pos, legal) {
  const typed = String(text).trim();
  if (legal.includes(typed)) return typed;
  const usi = typed.replace(/^([a-z])\*/, (_, l) => `${l.toUpperCase()}*`);
  if (legal.includes(usi)) return usi;
  if (/^[▲△☗☖]?[1-9１-９同]/.test(typed) && !/^[1-9][a-i]/.test(typed)) {
    return findJapanese(typed, pos, legal);
  }
  return findWestern(typed, pos, legal);
}

/** Shogi openings are shown by their moves alone (no name table here). */
export function openingName() {
  return null;
}
