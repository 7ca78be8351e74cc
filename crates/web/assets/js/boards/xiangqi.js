// The Xiangqi board, drawn in SVG: 9 × 10 lines, the river with 楚河 汉界,
// the palaces with their diagonals, the position marks of the cannons and
// pawns, and round pieces with the traditional glyphs (帅仕相车马炮兵 in
// red, 将士象车马炮卒 in black). It scales with its container (phone or
// desktop) and takes moves by click-click or drag.
//
// The board knows no rules: the page hands it the legal destinations
// (`setInteractive`) and the squares to mark (`highlight`).

import { Board, registerGame } from './board.js';
import * as rules from '../rules/xiangqi.js';
import * as notation from '../notation/xiangqi.js';

const NS = 'http://www.w3.org/2000/svg';
const CELL = 100;
const MARGIN = 90;
const WIDTH = 8 * CELL + 2 * MARGIN;
const HEIGHT = 9 * CELL + 2 * MARGIN;
const RADIUS = 44;
/** How far (in board units) a pointer must travel before a press is a drag. */
const DRAG_START = 12;

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class XiangqiBoard extends Board {
  constructor(container, opts = {}) {
    super(container, { sides: ['red', 'black'], ...opts });
    this.t = opts.t || ((k) => k);
    this.position = null;
    this.dests = null;
    this.onMove = null;
    this.selected = null;
    this.lastMove = null;
    this.check = null;
    this.premove = null;
    this.drag = null;
    this.cursor = null; // keyboard cursor (a square), shown while focused

    const svg = el('svg', {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      class: 'xq-board',
      role: 'img',
      'aria-roledescription': this.t('board.roledesc'),
    });
    this.svg = svg;
    this.title = el('title', {}, svg);
    this.grid = el('g', { class: 'xq-grid' }, svg);
    this.marks = el('g', { class: 'xq-marks' }, svg);
    this.pieces = el('g', { class: 'xq-pieces' }, svg);
    this.dots = el('g', { class: 'xq-dots' }, svg);
    this.hits = el('g', { class: 'xq-hits' }, svg);
    // Keyboard play: arrows move a cursor, Enter/Space picks up and puts
    // down, Escape lets go; each step is read out through `live`.
    this.live = document.createElement('div');
    this.live.className = 'visually-hidden';
    this.live.setAttribute('aria-live', 'polite');
    container.replaceChildren(svg, this.live);
    svg.addEventListener('keydown', (e) => this.keyDown(e));
    svg.addEventListener('focus', () => this.drawPieces());
    svg.addEventListener('blur', () => this.drawPieces());

    svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    svg.addEventListener('pointercancel', () => this.cancelDrag());
    svg.addEventListener('contextmenu', (e) => {
      if (this.drag) e.preventDefault();
    });
    this.drawGrid();
  }

  // --- geometry -----------------------------------------------------------

  /** Centre of a square (0–89) in board units, as oriented now. */
  xy(sq) {
    const file = sq % 9;
    const rank = Math.floor(sq / 9);
    const red = this.orientation === 'red';
    return [MARGIN + (red ? file : 8 - file) * CELL, MARGIN + (red ? 9 - rank : rank) * CELL];
  }

  /** The square nearest a point in board units, or null off the board. */
  squareAt(x, y) {
    const col = Math.round((x - MARGIN) / CELL);
    const row = Math.round((y - MARGIN) / CELL);
    if (col < 0 || col > 8 || row < 0 || row > 9) return null;
    const red = this.orientation === 'red';
    const file = red ? col : 8 - col;
    const rank = red ? 9 - row : row;
    return rank * 9 + file;
  }

  /** A pointer event's position in board units. */
  point(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
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

  render(position) {
    this.position = position;
    this.drawPieces();
    this.drawDots();
  }

  drawPieces() {
    const g = this.pieces;
    g.replaceChildren();
    this.marks.replaceChildren();
    const mark = (name, cls) => {
      const sq = rules.parseSquare(name);
      if (sq === null) return;
      const [x, y] = this.xy(sq);
      el('rect', { x: x - 48, y: y - 48, width: 96, height: 96, rx: 10, class: cls }, this.marks);
    };
    if (this.lastMove) {
      mark(this.lastMove.from, 'xq-last xq-last-from');
      mark(this.lastMove.to, 'xq-last xq-last-to');
    }
    if (this.premove) {
      mark(this.premove.from, 'xq-premove');
      mark(this.premove.to, 'xq-premove');
    }
    if (this.selected !== null) mark(rules.squareName(this.selected), 'xq-selected');
    if (this.cursor !== null && document.activeElement === this.svg) mark(rules.squareName(this.cursor), 'xq-cursor');
    if (this.check) {
      const sq = rules.parseSquare(this.check);
      if (sq !== null) {
        const [x, y] = this.xy(sq);
        el('circle', { cx: x, cy: y, r: RADIUS + 10, class: 'xq-check' }, this.marks);
      }
    }
    if (!this.position) return;
    const names = [];
    this.position.board.forEach((p, sq) => {
      if (!p) return;
      const [x, y] = this.xy(sq);
      const color = rules.colorOf(p);
      const name = rules.squareName(sq);
      const label = `${this.t(`piece.${color}.${rules.roleOf(p)}`)} ${name}`;
      names.push(label);
      const pg = el('g', {
        class: `xq-piece ${color}`,
        transform: `translate(${x} ${y})`,
        'data-square': name,
        'data-piece': p,
        role: 'img',
        'aria-label': label,
      }, g);
      el('circle', { r: RADIUS, class: 'xq-disc' }, pg);
      el('circle', { r: RADIUS - 7, class: 'xq-ring' }, pg);
      const text = el('text', { class: 'xq-glyph', 'text-anchor': 'middle', 'dominant-baseline': 'central', y: 2 }, pg);
      text.textContent = notation.glyph(p);
    });
    const turn = this.t(`side.${this.position.turn}`);
    this.svg.setAttribute('aria-label', `${this.t('board.label')}: ${this.t('board.toMove', { side: turn })}`);
    this.title.textContent = `${this.t('board.label')} — ${names.join(', ')}`;
  }

  drawDots() {
    const g = this.dots;
    g.replaceChildren();
    if (this.selected === null || !this.dests) return;
    const from = rules.squareName(this.selected);
    for (const to of this.dests[from] || []) {
      const sq = rules.parseSquare(to);
      const [x, y] = this.xy(sq);
      const capture = this.position && this.position.board[sq];
      el('circle', {
        cx: x, cy: y, r: capture ? RADIUS + 4 : 14,
        class: capture ? 'xq-dest xq-dest-capture' : 'xq-dest',
        'data-dest': to,
      }, g);
    }
  }

  setInteractive(legalMovesBySquare, onMove) {
    this.dests = legalMovesBySquare || null;
    this.onMove = onMove || null;
    if (this.selected !== null && !(this.dests && this.dests[rules.squareName(this.selected)])) {
      this.selected = null;
    }
    this.svg.classList.toggle('interactive', !!this.dests);
    if (this.dests) this.svg.setAttribute('tabindex', '0');
    else this.svg.removeAttribute('tabindex');
    this.drawPieces();
    this.drawDots();
  }

  highlight(lastMove, check) {
    this.lastMove = lastMove || null;
    this.check = check || null;
    this.drawPieces();
  }

  setPremove(move) {
    this.premove = move || null;
    this.drawPieces();
  }

  flip(orientation) {
    super.flip(orientation);
    this.drawGrid();
    this.drawPieces();
    this.drawDots();
  }

  // --- input --------------------------------------------------------------

  movable(sq) {
    return sq !== null && !!this.dests && !!this.dests[rules.squareName(sq)];
  }

  select(sq) {
    this.selected = sq;
    this.drawPieces();
    this.drawDots();
  }

  tryMove(from, to) {
    const f = rules.squareName(from);
    const t = rules.squareName(to);
    if (this.dests && (this.dests[f] || []).includes(t) && this.onMove) {
      this.selected = null;
      this.drawDots();
      this.onMove(f, t);
      return true;
    }
    return false;
  }

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    if (!this.dests) return;
    const [x, y] = this.point(e);
    const sq = this.squareAt(x, y);
    if (sq === null) return;
    // A second click on a destination completes a click-click move.
    if (this.selected !== null && sq !== this.selected && this.tryMove(this.selected, sq)) {
      e.preventDefault();
      return;
    }
    if (this.movable(sq)) {
      e.preventDefault();
      this.svg.setPointerCapture?.(e.pointerId);
      const wasSelected = this.selected === sq;
      this.select(sq);
      this.drag = { from: sq, x0: x, y0: y, moved: false, wasSelected, node: null };
    } else if (this.selected !== null) {
      this.select(null);
    }
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    const [x, y] = this.point(e);
    if (!d.moved && Math.hypot(x - d.x0, y - d.y0) < DRAG_START) return;
    if (!d.moved) {
      d.moved = true;
      d.node = this.pieces.querySelector(`[data-square="${rules.squareName(d.from)}"]`);
      if (d.node) {
        d.node.classList.add('dragging');
        this.pieces.appendChild(d.node); // on top of the others
      }
    }
    if (d.node) d.node.setAttribute('transform', `translate(${x} ${y}) scale(1.08)`);
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    const [x, y] = this.point(e);
    const sq = this.squareAt(x, y);
    if (d.moved) {
      if (sq === null || sq === d.from || !this.tryMove(d.from, sq)) this.drawPieces();
    } else if (d.wasSelected) {
      this.select(null); // a click on the selected piece lets it go
    }
  }

  /** What is on a square, for the screen reader. */
  describe(sq) {
    const p = this.position && this.position.board[sq];
    const name = rules.squareName(sq);
    return p ? `${name} ${this.t(`piece.${rules.colorOf(p)}.${rules.roleOf(p)}`)}` : name;
  }

  keyDown(e) {
    if (!this.dests) return;
    if (this.cursor === null) {
      // Start on the own king's point of the side at the bottom.
      this.cursor = this.orientation === 'red' ? 4 : 85;
    }
    const file = this.cursor % 9;
    const rank = Math.floor(this.cursor / 9);
    const up = this.orientation === 'red' ? 1 : -1; // screen up in ranks
    const right = this.orientation === 'red' ? 1 : -1; // screen right in files
    let next = null;
    switch (e.key) {
      case 'ArrowUp': next = [file, rank + up]; break;
      case 'ArrowDown': next = [file, rank - up]; break;
      case 'ArrowLeft': next = [file - right, rank]; break;
      case 'ArrowRight': next = [file + right, rank]; break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        if (this.selected !== null && this.selected !== this.cursor && this.tryMove(this.selected, this.cursor)) return;
        if (this.movable(this.cursor)) {
          this.select(this.selected === this.cursor ? null : this.cursor);
          this.live.textContent = this.selected === null ? '' : `${this.describe(this.cursor)} ✓`;
        }
        return;
      case 'Escape':
        this.select(null);
        return;
      default:
        return;
    }
    e.preventDefault();
    const [f, r] = next;
    if (f < 0 || f > 8 || r < 0 || r > 9) return;
    this.cursor = r * 9 + f;
    this.drawPieces();
    this.live.textContent = this.describe(this.cursor);
  }

  cancelDrag() {
    if (this.drag) {
      this.drag = null;
      this.drawPieces();
    }
  }
}

/** The square of the side to move's king when it is in check (the
 *  rules module works it out; the last move is not needed). */
function checkSquare(pos) {
  if (!rules.inCheck(pos.board, pos.turn)) return null;
  const k = rules.kingSquare(pos.board, pos.turn);
  return k >= 0 ? rules.squareName(k) : null;
}

/** Premove destinations of `color`'s pieces, by their movement alone. */
function premoves(pos, color) {
  const dests = {};
  pos.board.forEach((p, sq) => {
    if (p && rules.colorOf(p) === color) {
      const targets = rules.pseudoTargets(pos.board, sq).map(rules.squareName);
      if (targets.length) dests[rules.squareName(sq)] = targets;
    }
  });
  return dests;
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
  premoves,
  isCapture,
  board: (container, opts) => new XiangqiBoard(container, opts),
});
