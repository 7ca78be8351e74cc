// What every board drawn in SVG on a grid of squares (chess) or points
// (Xiangqi) shares: the state of a game in progress, moves by click-click,
// drag or keyboard (an arrow-key cursor, Enter/Space, Escape, each step
// read out through a live region), the marks of the last move, a premove,
// the selection, the cursor and a check, the pieces' accessible names and
// the destination dots.
//
// A board names what differs: the size of the grid, its rules module and
// its words and class names (the constructor's `game`), and draws what is
// its own: the grid (`drawGrid`), where a square is (`xy`, `squareAt`), a
// mark (`drawMark`, `drawCheck`), a piece (`drawPieceFace`), a dot
// (`drawDot`) and a piece under the pointer (`dragTransform`). A move that
// needs more input (chess's promotion) overrides `play` and `waiting`.
//
// Squares are numbered rank by rank from the first side's back rank:
// `rank * files + file`, as both rules modules number them.

import { Board } from './board.js';

const NS = 'http://www.w3.org/2000/svg';
/** How far (in board units) a pointer must travel before a press is a drag. */
const DRAG_START = 12;

/** A new SVG element with these attributes, appended to `parent` if given. */
export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/**
 * A registry `premoves(position, side)`: `{ from: [to, …] }` of the side's
 * pieces, by `targets(board, sq)` (their movement alone).
 */
export function premovesBy(rules, targets) {
  return (pos, color) => {
    const dests = {};
    pos.board.forEach((p, sq) => {
      if (p && rules.colorOf(p) === color) {
        const found = targets(pos.board, sq).map(rules.squareName);
        if (found.length) dests[rules.squareName(sq)] = found;
      }
    });
    return dests;
  };
}

export class GridBoard extends Board {
  /**
   * @param {HTMLElement} container
   * @param {object} opts  as for `Board` (with the game's `sides`)
   * @param {object} game  { files, ranks; rules: its `squareName`,
   *   `parseSquare`, `colorOf`, `roleOf`; prefix: of the class names
   *   (`xq` → `xq-board`, `xq-piece`); board: the i18n key of the
   *   board's words (`board` → `board.label`, `board.roledesc`); piece:
   *   of a piece's name (`piece` → `piece.red.rook`); marks: the class
   *   names of the marks { lastFrom, lastTo, premove, selected, cursor } }
   */
  constructor(container, opts, game) {
    super(container, opts);
    this.game = game;
    this.rules = game.rules;
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

    this.svg = el('svg', {
      viewBox: `0 0 ${game.width} ${game.height}`,
      class: `${game.prefix}-board`,
      role: 'img',
      'aria-roledescription': this.t(`${game.board}.roledesc`),
    });
    this.title = el('title', {}, this.svg);
    // Keyboard play: arrows move a cursor, Enter/Space picks up and puts
    // down, Escape lets go; each step is read out through `live`.
    this.live = document.createElement('div');
    this.live.className = 'visually-hidden';
    this.live.setAttribute('aria-live', 'polite');
  }

  /**
   * Puts the board into its container (`outer`: the svg, or an element
   * around it), next to the live region, listens to the svg and draws
   * the grid. A board calls it once its layers are there.
   */
  mount(outer = this.svg) {
    const svg = this.svg;
    this.container.replaceChildren(outer, this.live);
    svg.addEventListener('keydown', (e) => this.keyDown(e));
    svg.addEventListener('focus', () => this.drawPieces());
    svg.addEventListener('blur', () => this.drawPieces());
    svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    svg.addEventListener('pointercancel', () => this.cancelDrag());
    svg.addEventListener('contextmenu', (e) => {
      if (this.drag || this.opts.onArrows) e.preventDefault();
    });
    this.drawGrid();
  }

  // --- geometry -----------------------------------------------------------

  /** Whether the first side (red, white) is at the bottom. */
  get firstBottom() {
    return this.orientation !== this.sides[1];
  }

  /** Screen column and row (from the top left) of a square. */
  cell(sq) {
    const { files, ranks } = this.game;
    const f = sq % files;
    const r = Math.floor(sq / files);
    return this.firstBottom ? [f, ranks - 1 - r] : [files - 1 - f, r];
  }

  /** The square at a screen column and row, or null off the board. */
  squareOfCell(col, row) {
    const { files, ranks } = this.game;
    if (col < 0 || col > files - 1 || row < 0 || row > ranks - 1) return null;
    return this.firstBottom ? (ranks - 1 - row) * files + col : row * files + (files - 1 - col);
  }

  /** A pointer event's position in board units. */
  point(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  /** Centre of a square in board units (boards whose `xy` is a corner override it). */
  centre(sq) {
    return this.xy(sq);
  }

  // --- drawing ------------------------------------------------------------

  /**
   * Draws arrows (`[{ from, to, kind }]`, square names; kind `best` for
   * the engine's move, `user` for the player's own) above the pieces.
   */
  setArrows(list) {
    this.arrows = list || [];
    this.drawArrows();
  }

  drawArrows() {
    if (!this.arrowLayer) {
      this.arrowLayer = el('g', { class: 'arrows', 'aria-hidden': 'true' });
      this.svg.insertBefore(this.arrowLayer, this.dots);
    }
    this.arrowLayer.replaceChildren();
    for (const a of this.arrows || []) {
      const from = this.rules.parseSquare(a.from);
      const to = this.rules.parseSquare(a.to);
      if (from === null || to === null || from === to) continue;
      const [x1, y1] = this.centre(from);
      const [x2, y2] = this.centre(to);
      const len = Math.hypot(x2 - x1, y2 - y1);
      const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
      // The shaft stops where the head starts; the head ends short of the centre.
      const tipX = x2 - ux * 18;
      const tipY = y2 - uy * 18;
      const baseX = tipX - ux * 34;
      const baseY = tipY - uy * 34;
      const g = el('g', { class: `arrow arrow-${a.kind || 'user'}`, 'data-from': a.from, 'data-to': a.to }, this.arrowLayer);
      el('line', { x1, y1, x2: baseX, y2: baseY }, g);
      const w = 22;
      el('polygon', {
        points: `${tipX},${tipY} ${baseX - uy * w},${baseY + ux * w} ${baseX + uy * w},${baseY - ux * w}`,
      }, g);
    }
  }

  /** A right-button drag from one square to another toggles a user arrow. */
  arrowDown(e) {
    const [x, y] = this.point(e);
    this.arrowFrom = this.squareAt(x, y);
    e.preventDefault();
  }

  arrowUp(e) {
    const from = this.arrowFrom;
    this.arrowFrom = null;
    const [x, y] = this.point(e);
    const to = this.squareAt(x, y);
    if (from === null || to === null || from === undefined || from === to) return;
    const [f, t] = [this.rules.squareName(from), this.rules.squareName(to)];
    const user = (this.arrows || []).filter((a) => a.kind === 'user');
    const others = (this.arrows || []).filter((a) => a.kind !== 'user');
    const i = user.findIndex((a) => a.from === f && a.to === t);
    if (i >= 0) user.splice(i, 1);
    else user.push({ from: f, to: t, kind: 'user' });
    this.setArrows([...others, ...user]);
    this.opts.onArrows(user);
  }

  /** A left click clears the user's arrows (as on lichess). */
  clearUserArrows() {
    if (!(this.arrows || []).some((a) => a.kind === 'user')) return;
    this.setArrows(this.arrows.filter((a) => a.kind !== 'user'));
    this.opts.onArrows([]);
  }

  render(position) {
    this.position = position;
    this.drawPieces();
    this.drawDots();
  }

  /** A piece's name for the reader: 红车, White rook. */
  pieceName(p) {
    return this.t(`${this.game.piece}.${this.rules.colorOf(p)}.${this.rules.roleOf(p)}`);
  }

  /** The marks, the pieces and the board's accessible name and title. */
  drawPieces() {
    const { rules } = this;
    const { marks, prefix, board } = this.game;
    this.pieces.replaceChildren();
    this.marks.replaceChildren();
    const mark = (name, cls) => {
      const sq = rules.parseSquare(name);
      if (sq !== null) this.drawMark(sq, cls);
    };
    if (this.lastMove) {
      mark(this.lastMove.from, marks.lastFrom);
      mark(this.lastMove.to, marks.lastTo);
    }
    if (this.premove) {
      mark(this.premove.from, marks.premove);
      mark(this.premove.to, marks.premove);
    }
    if (this.selected !== null) mark(rules.squareName(this.selected), marks.selected);
    if (this.cursor !== null && document.activeElement === this.svg) mark(rules.squareName(this.cursor), marks.cursor);
    if (this.check) {
      const sq = rules.parseSquare(this.check);
      if (sq !== null) this.drawCheck(sq);
    }
    if (!this.position) return;
    const names = [];
    this.position.board.forEach((p, sq) => {
      if (!p) return;
      const [x, y] = this.xy(sq);
      const name = rules.squareName(sq);
      const label = `${this.pieceName(p)} ${name}`;
      names.push(label);
      const pg = el('g', {
        class: `${prefix}-piece ${rules.colorOf(p)}`,
        transform: `translate(${x} ${y})`,
        'data-square': name,
        'data-piece': p,
        role: 'img',
        'aria-label': label,
      }, this.pieces);
      this.drawPieceFace(pg, p);
    });
    const turn = this.t(`side.${this.position.turn}`);
    this.svg.setAttribute('aria-label', `${this.t(`${board}.label`)}: ${this.t('board.toMove', { side: turn })}`);
    this.title.textContent = `${this.t(`${board}.label`)} — ${names.join(', ')}`;
  }

  /** The destinations of the selected piece. */
  drawDots() {
    this.dots.replaceChildren();
    if (this.selected === null || !this.dests) return;
    const from = this.rules.squareName(this.selected);
    for (const to of this.dests[from] || []) {
      const sq = this.rules.parseSquare(to);
      if (sq === null) continue;
      this.drawDot(sq, to, !!(this.position && this.position.board[sq]));
    }
  }

  setInteractive(legalMovesBySquare, onMove) {
    this.dests = legalMovesBySquare || null;
    this.onMove = onMove || null;
    if (this.selected !== null && !(this.dests && this.dests[this.rules.squareName(this.selected)])) {
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
    if (this.arrowLayer) this.drawArrows();
  }

  // --- input --------------------------------------------------------------

  /** Whether a move waits for more input (a dialog); the board ignores input meanwhile. */
  waiting() {
    return false;
  }

  movable(sq) {
    return sq !== null && !!this.dests && !!this.dests[this.rules.squareName(sq)];
  }

  select(sq) {
    this.selected = sq;
    this.drawPieces();
    this.drawDots();
  }

  /** Makes the move if it is one of the destinations. */
  tryMove(from, to) {
    const f = this.rules.squareName(from);
    const t = this.rules.squareName(to);
    if (!(this.dests && (this.dests[f] || []).includes(t) && this.onMove)) return false;
    this.selected = null;
    this.drawDots();
    this.play(from, to);
    return true;
  }

  /** Hands a legal move to `onMove`; a board whose moves ask more overrides it. */
  play(from, to) {
    this.onMove(this.rules.squareName(from), this.rules.squareName(to));
  }

  pointerDown(e) {
    if (this.opts.onArrows && e.button === 2) {
      this.arrowDown(e);
      return;
    }
    if (e.button !== undefined && e.button !== 0) return;
    if (this.opts.onArrows) this.clearUserArrows();
    if (!this.dests || this.waiting()) return;
    const [x, y] = this.point(e);
    const sq = this.squareAt(x, y);
    if (sq === null) return;
    // A second click on a destination completes a click-click move (in
    // Chess960 the destination of castling is the own rook's square).
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
      d.node = this.pieces.querySelector(`[data-square="${this.rules.squareName(d.from)}"]`);
      if (d.node) {
        d.node.classList.add('dragging');
        this.pieces.appendChild(d.node); // on top of the others
      }
    }
    if (d.node) d.node.setAttribute('transform', this.dragTransform(x, y));
  }

  pointerUp(e) {
    if (this.opts.onArrows && e.button === 2) {
      this.arrowUp(e);
      return;
    }
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    const [x, y] = this.point(e);
    const sq = this.squareAt(x, y);
    if (d.moved) {
      if (sq === null || sq === d.from || !this.tryMove(d.from, sq)) this.drawPieces();
    } else if (d.wasSelected && !this.tryMove(d.from, d.from)) {
      // A click on the selected piece lets it go, unless a move from its
      // square to itself is legal (Janggi's pass, `e1e1`: its dot is on
      // the piece), which the second click plays.
      this.select(null);
    }
  }

  cancelDrag() {
    if (this.drag) {
      this.drag = null;
      this.drawPieces();
    }
  }

  /** What is on a square, for the screen reader. */
  describe(sq) {
    const p = this.position && this.position.board[sq];
    const name = this.rules.squareName(sq);
    return p ? `${name} ${this.pieceName(p)}` : name;
  }

  /** Where the keyboard cursor starts: the middle file of the bottom side's back rank. */
  startCursor() {
    const { files, ranks } = this.game;
    return (this.firstBottom ? 0 : ranks - 1) * files + Math.floor(files / 2);
  }

  keyDown(e) {
    if (!this.dests || this.waiting()) return;
    if (this.cursor === null) this.cursor = this.startCursor();
    const { files, ranks } = this.game;
    const file = this.cursor % files;
    const rank = Math.floor(this.cursor / files);
    const up = this.firstBottom ? 1 : -1; // screen up in ranks, screen right in files
    let next = null;
    switch (e.key) {
      case 'ArrowUp': next = [file, rank + up]; break;
      case 'ArrowDown': next = [file, rank - up]; break;
      case 'ArrowLeft': next = [file - up, rank]; break;
      case 'ArrowRight': next = [file + up, rank]; break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        // (Onto the selected piece itself only where that is a move: a pass.)
        if (this.selected !== null && this.tryMove(this.selected, this.cursor)) return;
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
    if (f < 0 || f > files - 1 || r < 0 || r > ranks - 1) return;
    this.cursor = r * files + f;
    this.drawPieces();
    this.live.textContent = this.describe(this.cursor);
  }
}
