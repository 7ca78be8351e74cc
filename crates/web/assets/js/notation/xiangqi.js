// Xiangqi move notation for the move list: Chinese (炮二平五, CXA 7.5), WXF (C2=5)
// and ICCS (h2e2), switchable and remembered.
//
// The server records each move in ICCS (`move`) and in Chinese
// (`display`, from the Rust notation module, the authority). Where the
// server sends no Chinese or WXF text for a move (older records, or a
// field it does not send yet) the text is worked out here from the
// position before the move, following the same conventions as the Rust
// module (crates/xiangqi/src/notation): files counted from the mover's
// right, red in Chinese numerals, black in full-width digits, 前/中/后
// for like pieces on one file, FSF-style tandem markers in WXF.

import { FILES, colorOf, isRed, parseMove, roleOf } from '../rules/xiangqi.js';
import { getLang } from '../i18n.js';

export const STYLES = ['chinese', 'wxf', 'iccs'];
/** Typed moves to show as a hint. */
export const EXAMPLES = ['h2e2', 'C2=5', '炮二平五'];
const KEY = 'qiju.notation';

/** Typed moves to show as a hint when moves are written in `style`. */
export function examplesFor(style) {
  return { chinese: ['炮二平五', 'h2e2'], wxf: ['C2=5', 'h2e2'], iccs: ['h2e2', 'C2=5'] }[style] || EXAMPLES;
}

/** Until the reader chooses, the notation of their language: Chinese for
 *  Chinese readers, WXF (the international one) for everyone else. */
function defaultStyle() {
  return getLang() === 'zh' ? 'chinese' : 'wxf';
}

export function getStyle() {
  try {
    const s = localStorage.getItem(KEY);
    return STYLES.includes(s) ? s : defaultStyle();
  } catch {
    return defaultStyle();
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

const NAMES = {
  red: { k: '帅', a: '仕', b: '相', n: '马', r: '车', c: '炮', p: '兵' },
  black: { k: '将', a: '士', b: '象', n: '马', r: '车', c: '炮', p: '卒' },
};
const WXF_LETTER = { k: 'K', a: 'A', b: 'E', n: 'H', r: 'R', c: 'C', p: 'P' };
const CN = '一二三四五六七八九';
const FW = '１２３４５６７８９';

/** A piece's WXF letter (K A E H R C P), for readers of the letter set. */
export function letter(piece) {
  return WXF_LETTER[roleOf(piece)];
}

/** The glyph of a piece letter (帅 for K, 卒 for p …). */
export function glyph(piece) {
  return NAMES[colorOf(piece)][roleOf(piece)];
}

/** The traditional characters, as Hong Kong, Taiwan and old books write
 *  the pieces: red's rook and horse 俥 傌 apart from black's 車 馬, black's
 *  cannon 砲 apart from red's 炮. */
const TRADITIONAL = {
  red: { k: '帥', a: '仕', b: '相', n: '傌', r: '俥', c: '炮', p: '兵' },
  black: { k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' },
};

/** The traditional glyph of a piece letter (帥 for K, 砲 for c …). */
export function traditionalGlyph(piece) {
  return TRADITIONAL[colorOf(piece)][roleOf(piece)];
}

const fileOf = (sq) => sq % FILES;
const rankOf = (sq) => Math.floor(sq / FILES);
/** File number counted from the mover's right, 1–9. */
const fileNumber = (sq, red) => (red ? 9 - fileOf(sq) : fileOf(sq) + 1);
const numeral = (n, red) => (red ? CN : FW)[n - 1];

/** Squares on `file` holding `piece`, front (nearest the enemy) first. */
function fileStack(board, piece, file) {
  const out = [];
  for (let r = 0; r < 10; r++) {
    const sq = r * FILES + file;
    if (board[sq] === piece) out.push(sq);
  }
  return isRed(piece) ? out.reverse() : out;
}

/** Files holding two or more of `piece`. */
function tandemFiles(board, piece) {
  let n = 0;
  for (let f = 0; f < FILES; f++) if (fileStack(board, piece, f).length >= 2) n += 1;
  return n;
}

function verb(from, to, red) {
  const dr = rankOf(to) - rankOf(from);
  if (dr === 0) return 0;
  return (dr > 0) === red ? 1 : -1;
}

/** The number after the direction: the to-file after 平 and for the
 *  diagonal movers (马相仕), else the number of steps. */
function target(piece, from, to, red) {
  const v = verb(from, to, red);
  if (v === 0 || 'nba'.includes(roleOf(piece))) return fileNumber(to, red);
  return Math.abs(rankOf(to) - rankOf(from));
}

function region(piece, sq) {
  const f = fileOf(sq);
  const r = rankOf(sq);
  const red = isRed(piece);
  switch (roleOf(piece)) {
    case 'k':
    case 'a':
      return f >= 3 && f <= 5 && (red ? r <= 2 : r >= 7);
    case 'b':
      return red ? r <= 4 : r >= 5;
    default:
      return true;
  }
}

function chinese(board, piece, from, to) {
  const red = isRed(piece);
  const stack = fileStack(board, piece, fileOf(from));
  const index = stack.indexOf(from);
  const role = roleOf(piece);
  const name = glyph(piece);
  let head;
  if (stack.length >= 2 && !'ab'.includes(role)) {
    const slot = stack.length <= 3 ? (index === 0 ? '前' : stack.length === 3 && index === 1 ? '中' : '后') : CN[index];
    head = role === 'p' && tandemFiles(board, piece) >= 2 ? slot + numeral(fileNumber(from, red), red) : slot + name;
  } else {
    head = name + numeral(fileNumber(from, red), red);
  }
  const v = verb(from, to, red);
  return head + (v > 0 ? '进' : v < 0 ? '退' : '平') + numeral(target(piece, from, to, red), red);
}

function wxf(board, piece, from, to) {
  const red = isRed(piece);
  const stack = fileStack(board, piece, fileOf(from));
  const index = stack.indexOf(from);
  const multi = tandemFiles(board, piece) >= 2;
  let s;
  if (stack.length >= 3 || (stack.length === 2 && multi)) s = String(index + 1);
  else s = WXF_LETTER[roleOf(piece)];
  let byRank = false;
  if (stack.length === 2 && !multi) {
    const other = stack[1 - index];
    const f = fileOf(other) + fileOf(to) - fileOf(from);
    const r = rankOf(other) + rankOf(to) - rankOf(from);
    if (f >= 0 && f < FILES && r >= 0 && r < 10 && region(piece, r * FILES + f)) {
      byRank = true;
      s += index === 0 ? '+' : '-';
    }
  }
  if (!byRank) s += fileNumber(from, red);
  const v = verb(from, to, red);
  return s + (v > 0 ? '+' : v < 0 ? '-' : '=') + target(piece, from, to, red);
}

/** A move in `style`, worked out from the position before it. */
export function formatMove(pos, iccs, style) {
  if (style === 'iccs') return iccs;
  const mv = parseMove(iccs);
  const piece = mv && pos.board[mv[0]];
  if (!piece) return iccs;
  return style === 'wxf' ? wxf(pos.board, piece, mv[0], mv[1]) : chinese(pos.board, piece, mv[0], mv[1]);
}

const HAS_CJK = /[\u4e00-\u9fff]/;

/** The text of a recorded move in `style`: the server's own text when it
 *  sent one, else worked out from `before` (the position before it). */
export function moveText(m, before, style) {
  if (style === 'iccs') return m.move;
  if (style === 'chinese' && m.display && HAS_CJK.test(m.display)) return m.display;
  const w = m.wxf || m.alt;
  if (style === 'wxf' && w && w !== m.move) return w;
  return before ? formatMove(before, m.move, style) : m.move;
}

/** Digits of any kind (一, １, 1) as ASCII, for comparing typed moves. */
function normalizeTyped(text) {
  const map = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
  return String(text).trim().toLowerCase()
    .replace(/[１-９]/g, (c) => String(c.charCodeAt(0) - 0xff10))
    .replace(/[一二三四五六七八九]/g, (c) => String(map[c]))
    .replace(/[．.]/g, '=')
    .replace(/[車俥]/g, '车').replace(/[馬傌]/g, '马').replace(/[砲包]/g, '炮')
    .replace(/進/g, '进').replace(/後/g, '后')
    .replace(/\s+/g, '');
}

/** The move of `legal` that a typed text names (ICCS, WXF or Chinese), or null. */
export function findMove(text, pos, legal) {
  const want = normalizeTyped(text);
  return legal.find((m) => m === want
    || normalizeTyped(formatMove(pos, m, 'chinese')) === want
    || normalizeTyped(formatMove(pos, m, 'wxf')) === want) || null;
}

/**
 * The opening family a game's first move names, as Xiangqi books name
 * them (an i18n key under `opening.`), or null: 中炮 (the central cannon),
 * 仙人指路 (the third or seventh pawn), 飞相局, 起马局, 过宫炮, 士角炮, 上仕局.
 */
export function openingName(coords) {
  const first = coords[0];
  const names = {
    h2e2: 'central_cannon', b2e2: 'central_cannon',
    c3c4: 'pawn', g3g4: 'pawn',
    c0e2: 'elephant', g0e2: 'elephant',
    b0c2: 'horse', h0g2: 'horse',
    h2d2: 'palace_cannon', b2f2: 'palace_cannon',
    h2f2: 'advisor_cannon', b2d2: 'advisor_cannon',
    d0e1: 'advisor', f0e1: 'advisor',
  };
  return (first && names[first]) || null;
}
