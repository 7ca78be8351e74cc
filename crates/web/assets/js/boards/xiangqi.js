// The Xiangqi board, drawn in SVG: 9 × 10 lines, the river with 楚河 汉界,
// the palaces with their diagonals, the position marks of the cannons and
// pawns, and round pieces with the traditional glyphs (帅仕相车马炮兵 in
// red, 将士象车马炮卒 in black). It scales with its container (phone or
// desktop) and takes moves by click-click, drag or keyboard (./grid.js).
//
// The board knows no rules: the page hands it the legal destinations
// (`setInteractive`) and the squares to mark (`highlight`).

import { registerGame } from './board.js';
import { GridBoard, el, premovesBy } from './grid.js';
import * as rules from '../rules/xiangqi.js';
import * as notation from '../notation/xiangqi.js';

const CELL = 100;
const MARGIN = 90;
const WIDTH = 8 * CELL + 2 * MARGIN;
const HEIGHT = 9 * CELL + 2 * MARGIN;
const RADIUS = 44;

export class XiangqiBoard extends GridBoard {
  constructor(container, opts = {}) {
    super(container, { sides: ['red', 'black'], ...opts }, {
      files: 9,
      ranks: 10,
      width: WIDTH,
      height: HEIGHT,
      rules,
      prefix: 'xq',
      board: 'board',
      piece: 'piece',
      marks: {
        lastFrom: 'xq-last xq-last-from',
        lastTo: 'xq-last xq-last-to',
        premove: 'xq-premove',
        selected: 'xq-selected',
        cursor: 'xq-cursor',
      },
    });
    const svg = this.svg;
    this.grid = el('g', { class: 'xq-grid' }, svg);
    this.marks = el('g', { class: 'xq-marks' }, svg);
    this.pieces = el('g', { class: 'xq-pieces' }, svg);
    this.dots = el('g', { class: 'xq-dots' }, svg);
    this.hits = el('g', { class: 'xq-hits' }, svg);
    this.mount();
  }

  // --- geometry -----------------------------------------------------------

  /** Centre of a square (0–89) in board units, as oriented now. */
  xy(sq) {
    const [col, row] = this.cell(sq);
    return [MARGIN + col * CELL, MARGIN + row * CELL];
  }

  /** The square nearest a point in board units, or null off the board. */
  squareAt(x, y) {
    return this.squareOfCell(Math.round((x - MARGIN) / CELL), Math.round((y - MARGIN) / CELL));
  }

  // --- drawing ------------------------------------------------------------

  drawGrid() {
    const g = this.grid;
    g.replaceChildren();
    el('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 18, class: 'xq-wood' }, g);
    el('rect', {
      x: MARGIN - 12, y: MARGIN - 12, width: 8 * CELL + 24, height: 9 * CELL + 24, class: 'xq-frame',
    }, g);
    const line = (x1, y1, x2, y2, cls = 'xq-line') => el('line', { x1, y1, x2, y2, class: cls }, g);
    const X = (c) => MARGIN + c * CELL;
    const Y = (r) => MARGIN + r * CELL;
    for (let r = 0; r < 10; r++) line(X(0), Y(r), X(8), Y(r));
    for (let c = 0; c < 9; c++) {
      if (c === 0 || c === 8) {
        line(X(c), Y(0), X(c), Y(9));
      } else {
        line(X(c), Y(0), X(c), Y(4)); // the river cuts the inner files
        line(X(c), Y(5), X(c), Y(9));
      }
    }
    // Palaces (九宫) with their diagonals.
    for (const [a, b] of [[0, 2], [7, 9]]) {
      line(X(3), Y(a), X(5), Y(b));
      line(X(5), Y(a), X(3), Y(b));
    }
    // Position marks (炮位 and 兵位): little corners around the points.
    const marks = [[1, 2], [7, 2], [1, 7], [7, 7]];
    for (let c = 0; c <= 8; c += 2) marks.push([c, 3], [c, 6]);
    const d = 8;
    const len = 18;
    for (const [c, r] of marks) {
      const x = X(c);
      const y = Y(r);
      for (const sx of [-1, 1]) {
        if ((c === 0 && sx < 0) || (c === 8 && sx > 0)) continue;
        for (const sy of [-1, 1]) {
          el('polyline', {
            points: `${x + sx * (d + len)},${y + sy * d} ${x + sx * d},${y + sy * d} ${x + sx * d},${y + sy * (d + len)}`,
            class: 'xq-mark',
          }, g);
        }
      }
    }
    // The river (楚河 汉界), read from red's side whichever way the board
    // is turned.
    const ry = Y(4.5);
    const river = (x, text) => {
      const t = el('text', { x, y: ry, class: 'xq-river', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
      t.textContent = text;
    };
    river(X(2), '楚 河');
    river(X(6), '汉 界');
    // File numbers: each side counts from its own right, red in Chinese
    // numerals, black in digits (as records are written).
    const red = this.orientation === 'red';
    for (let c = 0; c < 9; c++) {
      const bottom = el('text', { x: X(c), y: HEIGHT - 20, class: 'xq-coord', 'text-anchor': 'middle' }, g);
      const top = el('text', { x: X(c), y: 44, class: 'xq-coord', 'text-anchor': 'middle' }, g);
      bottom.textContent = red ? '九八七六五四三二一'[c] : String(9 - c);
      top.textContent = red ? String(c + 1) : '一二三四五六七八九'[c];
    }
    // Invisible targets, one per point, so tests and assistive tools can
    // name a square; pointer handling itself works from coordinates.
    this.hits.replaceChildren();
    for (let sq = 0; sq < 90; sq++) {
      const [x, y] = this.xy(sq);
      el('rect', {
        x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
        class: 'xq-hit', 'data-square': rules.squareName(sq),
      }, this.hits);
    }
  }

  drawMark(sq, cls) {
    const [x, y] = this.xy(sq);
    el('rect', { x: x - 48, y: y - 48, width: 96, height: 96, rx: 10, class: cls }, this.marks);
  }

  drawCheck(sq) {
    const [x, y] = this.xy(sq);
    el('circle', { cx: x, cy: y, r: RADIUS + 10, class: 'xq-check' }, this.marks);
  }

  drawPieceFace(pg, p) {
    el('circle', { r: RADIUS, class: 'xq-disc' }, pg);
    el('circle', { r: RADIUS - 7, class: 'xq-ring' }, pg);
    const text = el('text', { class: 'xq-glyph', 'text-anchor': 'middle', 'dominant-baseline': 'central', y: 2 }, pg);
    text.textContent = notation.glyph(p);
    // The traditional characters and the letter set (WXF's letters),
    // shown instead by the stylesheet when the player chose them
    // (settings.js).
    const trad = el('text', { class: 'xq-glyph xq-trad', 'text-anchor': 'middle', 'dominant-baseline': 'central', y: 2 }, pg);
    trad.textContent = notation.traditionalGlyph(p);
    const letter = el('text', { class: 'xq-letter', 'text-anchor': 'middle', 'dominant-baseline': 'central', y: 2 }, pg);
    letter.textContent = notation.letter(p);
  }

  drawDot(sq, to, capture) {
    const [x, y] = this.xy(sq);
    el('circle', {
      cx: x, cy: y, r: capture ? RADIUS + 4 : 14,
      class: capture ? 'xq-dest xq-dest-capture' : 'xq-dest',
      'data-dest': to,
    }, this.dots);
  }

  /** A dragged piece, centred on the pointer. */
  dragTransform(x, y) {
    return `translate(${x} ${y}) scale(1.08)`;
  }
}

/** The square of the side to move's king when it is in check (the
 *  rules module works it out; the last move is not needed). */
function checkSquare(pos) {
  if (!rules.inCheck(pos.board, pos.turn)) return null;
  const k = rules.kingSquare(pos.board, pos.turn);
  return k >= 0 ? rules.squareName(k) : null;
}

function isCapture(pos, move) {
  const mv = rules.parseMove(move);
  return !!(mv && pos.board[mv[1]]);
}

registerGame('xiangqi', {
  sides: ['red', 'black'],
  rules,
  notation,
  checkSquare,
  premoves: premovesBy(rules, rules.pseudoTargets),
  isCapture,
  board: (container, opts) => new XiangqiBoard(container, opts),
});
