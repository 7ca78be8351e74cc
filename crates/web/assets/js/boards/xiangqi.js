// The Xiangqi board, drawn in SVG: 9 × 10 lines, the river with 楚河 汉界,
// the palaces with their diagonals, the position marks of the cannons and
// pawns, and round pieces with the traditional glyphs (帅仕相车马炮兵 in
// red, 将士象车马炮卒 in black). It scales with its container (phone or
// desktop) and takes moves by click-click, drag or keyboard (./grid.js).
// Its lines are drawn from a layout (`XIANGQI_LAYOUT`), so that the board
// of a variant defined as data (./variants.js) is this board with its own.
//
// The board knows no rules: the page hands it the legal destinations
// (`setInteractive`) and the squares to mark (`highlight`).

import { registerGame } from './board.js';
import { GridBoard, el, premovesBy } from './grid.js';
import * as rules from '../rules/xiangqi.js';
import * as notation from '../notation/xiangqi.js';

const CELL = 100;
const MARGIN = 90;
const RADIUS = 44;

/**
 * What a board of points draws, in board coordinates (file from the first
 * side's left, rank from its edge), so that a turned board draws the same
 * lines: `files` × `ranks`; `river`: the rank the river runs above (the
 * inner files break there), or null; `palaces`: `[file0, rank0, file1,
 * rank1]` rectangles whose diagonals are drawn; `marks`: `[file, rank]`
 * points with the little corners of the cannons' and pawns' places;
 * `riverWords`: the two words written in the river; `coords(file,
 * firstBottom)`: the file labels `[bottom, top]`; `rankLabels`: whether
 * ranks are numbered at the side (a board whose moves name ranks).
 */
export const XIANGQI_LAYOUT = {
  files: 9,
  ranks: 10,
  river: 4,
  palaces: [[3, 0, 5, 2], [3, 7, 5, 9]],
  marks: [[1, 2], [7, 2], [1, 7], [7, 7], ...[0, 2, 4, 6, 8].flatMap((c) => [[c, 3], [c, 6]])],
  riverWords: ['楚 河', '汉 界'],
  // Each side counts from its own right, red in Chinese numerals, black
  // in digits (as records are written).
  // Red's file c is 九…一 from its left, black's is c + 1.
  coords: (c, red) => (red
    ? ['九八七六五四三二一'[c], String(c + 1)]
    : [String(c + 1), '九八七六五四三二一'[c]]),
  rankLabels: false,
  rules,
  board: 'board',
};

export class XiangqiBoard extends GridBoard {
  constructor(container, opts = {}, layout = XIANGQI_LAYOUT) {
    super(container, { sides: ['red', 'black'], ...opts }, {
      files: layout.files,
      ranks: layout.ranks,
      width: (layout.files - 1) * CELL + 2 * MARGIN,
      height: (layout.ranks - 1) * CELL + 2 * MARGIN,
      rules: layout.rules,
      prefix: 'xq',
      board: layout.board,
      piece: 'piece',
      marks: {
        lastFrom: 'xq-last xq-last-from',
        lastTo: 'xq-last xq-last-to',
        premove: 'xq-premove',
        selected: 'xq-selected',
        cursor: 'xq-cursor',
      },
    });
    this.layout = layout;
    const svg = this.svg;
    this.grid = el('g', { class: 'xq-grid' }, svg);
    this.marks = el('g', { class: 'xq-marks' }, svg);
    this.pieces = el('g', { class: 'xq-pieces' }, svg);
    this.dots = el('g', { class: 'xq-dots' }, svg);
    this.hits = el('g', { class: 'xq-hits' }, svg);
    this.mount();
  }

  // --- geometry -----------------------------------------------------------

  /** Centre of a square in board units, as oriented now. */
  xy(sq) {
    const [col, row] = this.cell(sq);
    return [MARGIN + col * CELL, MARGIN + row * CELL];
  }

  /** The square nearest a point in board units, or null off the board. */
  squareAt(x, y) {
    return this.squareOfCell(Math.round((x - MARGIN) / CELL), Math.round((y - MARGIN) / CELL));
  }

  /** Where a point (file, rank; halves allowed) is drawn, as oriented now. */
  at(file, rank) {
    const { files, ranks } = this.layout;
    return this.firstBottom
      ? [MARGIN + file * CELL, MARGIN + (ranks - 1 - rank) * CELL]
      : [MARGIN + (files - 1 - file) * CELL, MARGIN + rank * CELL];
  }

  // --- drawing ------------------------------------------------------------

  drawGrid() {
    const { files, ranks, river, palaces, marks, riverWords, coords, rankLabels } = this.layout;
    const { width, height } = this.game;
    const g = this.grid;
    g.replaceChildren();
    el('rect', { x: 0, y: 0, width, height, rx: 18, class: 'xq-wood' }, g);
    el('rect', {
      x: MARGIN - 12, y: MARGIN - 12, width: (files - 1) * CELL + 24, height: (ranks - 1) * CELL + 24, class: 'xq-frame',
    }, g);
    const line = (f1, r1, f2, r2) => {
      const [x1, y1] = this.at(f1, r1);
      const [x2, y2] = this.at(f2, r2);
      el('line', { x1, y1, x2, y2, class: 'xq-line' }, g);
    };
    for (let r = 0; r < ranks; r++) line(0, r, files - 1, r);
    for (let c = 0; c < files; c++) {
      if (river === null || c === 0 || c === files - 1) {
        line(c, 0, c, ranks - 1);
      } else {
        line(c, 0, c, river); // the river cuts the inner files
        line(c, river + 1, c, ranks - 1);
      }
    }
    // Palaces (九宫) with their diagonals.
    for (const [f0, r0, f1, r1] of palaces) {
      line(f0, r0, f1, r1);
      line(f1, r0, f0, r1);
    }
    // Position marks (炮位 and 兵位): little corners around the points.
    const d = 8;
    const len = 18;
    for (const [c, r] of marks) {
      const [x, y] = this.at(c, r);
      for (const sx of [-1, 1]) {
        if ((c === 0 && sx < 0) || (c === files - 1 && sx > 0)) continue;
        for (const sy of [-1, 1]) {
          el('polyline', {
            points: `${x + sx * (d + len)},${y + sy * d} ${x + sx * d},${y + sy * d} ${x + sx * d},${y + sy * (d + len)}`,
            class: 'xq-mark',
          }, g);
        }
      }
    }
    // The river (楚河 汉界), read from the first side's view whichever way
    // the board is turned.
    if (river !== null) {
      const ry = (this.at(0, river)[1] + this.at(0, river + 1)[1]) / 2;
      riverWords.forEach((text, i) => {
        const x = MARGIN + ((files - 1) * CELL * (i === 0 ? 1 : 3)) / 4;
        const t = el('text', { x, y: ry, class: 'xq-river', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
        t.textContent = text;
      });
    }
    const first = this.firstBottom;
    for (let c = 0; c < files; c++) {
      const [x] = this.at(c, 0);
      const [bottomText, topText] = coords(c, first);
      const bottom = el('text', { x, y: height - 20, class: 'xq-coord', 'text-anchor': 'middle' }, g);
      bottom.textContent = bottomText;
      if (topText !== null) {
        const top = el('text', { x, y: 44, class: 'xq-coord', 'text-anchor': 'middle' }, g);
        top.textContent = topText;
      }
    }
    if (rankLabels) {
      for (let r = 0; r < ranks; r++) {
        const [, y] = this.at(0, r);
        const label = el('text', { x: 34, y, class: 'xq-coord', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, g);
        label.textContent = String(r);
      }
    }
    // Invisible targets, one per point, so tests and assistive tools can
    // name a square; pointer handling itself works from coordinates.
    this.hits.replaceChildren();
    for (let sq = 0; sq < files * ranks; sq++) {
      const [x, y] = this.xy(sq);
      el('rect', {
        x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
        class: 'xq-hit', 'data-square': this.rules.squareName(sq),
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

  /** What a piece shows: its glyph, its traditional glyph and its letter. */
  faces(p) {
    return { glyph: notation.glyph(p), trad: notation.traditionalGlyph(p), letter: notation.letter(p) };
  }

  drawPieceFace(pg, p) {
    const { glyph, trad, letter } = this.faces(p);
    el('circle', { r: RADIUS, class: 'xq-disc' }, pg);
    el('circle', { r: RADIUS - 7, class: 'xq-ring' }, pg);
    const text = el('text', { class: 'xq-glyph', 'text-anchor': 'middle', 'dominant-baseline': 'central', y: 2 }, pg);
    text.textContent = glyph;
    // The traditional characters and the letter set (WXF's letters),
    // shown instead by the stylesheet when the player chose them
    // (settings.js).
    const tradText = el('text', { class: 'xq-glyph xq-trad', 'text-anchor': 'middle', 'dominant-baseline': 'central', y: 2 }, pg);
    tradText.textContent = trad;
    const letterText = el('text', { class: 'xq-letter', 'text-anchor': 'middle', 'dominant-baseline': 'central', y: 2 }, pg);
    letterText.textContent = letter;
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
