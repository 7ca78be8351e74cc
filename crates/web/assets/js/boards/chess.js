// The chess board, drawn in SVG: 8 × 8 squares with the coordinates a–h
// and 1–8 on the edge squares, and Colin M.L. Burnett's piece drawings
// (img/chess/cburnett/, GPLv2+; see the README there). It scales with its
// container and takes moves by click-click, drag or keyboard.
//
// The board knows no rules: the page hands it the legal destinations
// (`setInteractive`, from the server's `legal`) and the squares to mark
// (`highlight`). What it does know is the geometry of a move: a pawn that
// reaches the last rank asks which piece it becomes (the promotion dialog)
// and hands that letter to `onMove` as its third argument. Castling is
// whatever the legal list says: the king's two-square step (`e1g1`), or in
// Chess960 the king onto its own rook (`b1a1`), so a click on the king and
// then on the rook castles there.

import { Board, registerGame } from './board.js';
import * as rules from '../rules/chess.js';
import * as notation from '../notation/chess.js';

const NS = 'http://www.w3.org/2000/svg';
const CELL = 100;
const SIZE = 8 * CELL;
const PIECES = '/img/chess/cburnett';
/** How far (in board units) a pointer must travel before a press is a drag. */
const DRAG_START = 12;
const PROMOTIONS = ['q', 'r', 'b', 'n'];

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** The image file of a piece letter: `N` → wN.svg, `q` → bQ.svg. */
export function pieceImage(p) {
  return `${PIECES}/${rules.isWhite(p) ? 'w' : 'b'}${p.toUpperCase()}.svg`;
}

export class ChessBoard extends Board {
  constructor(container, opts = {}) {
    super(container, { sides: ['white', 'black'], ...opts });
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
    this.promotion = null; // { from, to, layer } while the dialog is open

    const svg = el('svg', {
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      class: 'ch-board',
      role: 'img',
      'aria-roledescription': this.t('board.chess.roledesc'),
    });
    this.svg = svg;
    this.title = el('title', {}, svg);
    this.squares = el('g', { class: 'ch-squares' }, svg);
    this.marks = el('g', { class: 'ch-marks' }, svg);
    this.pieces = el('g', { class: 'ch-pieces' }, svg);
    this.coords = el('g', { class: 'ch-coords', 'aria-hidden': 'true' }, svg);
    this.dots = el('g', { class: 'ch-dots' }, svg);
    this.hits = el('g', { class: 'ch-hits' }, svg);
    const defs = el('defs', {}, svg);
    const grad = el('radialGradient', { id: 'ch-check-glow' }, defs);
    el('stop', { offset: '0%', 'stop-color': 'rgb(255, 0, 0)', 'stop-opacity': '1' }, grad);
    el('stop', { offset: '25%', 'stop-color': 'rgb(231, 0, 0)', 'stop-opacity': '1' }, grad);
    el('stop', { offset: '89%', 'stop-color': 'rgb(169, 0, 0)', 'stop-opacity': '0' }, grad);
    el('stop', { offset: '100%', 'stop-color': 'rgb(158, 0, 0)', 'stop-opacity': '0' }, grad);
    // Keyboard play: arrows move a cursor, Enter/Space picks up and puts
    // down, Escape lets go; each step is read out through `live`.
    this.live = document.createElement('div');
    this.live.className = 'visually-hidden';
    this.live.setAttribute('aria-live', 'polite');
    this.wrap = document.createElement('div');
    this.wrap.className = 'ch-wrap';
    this.wrap.append(svg);
    container.replaceChildren(this.wrap, this.live);
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

  get whiteBottom() {
    return this.orientation !== 'black';
  }

  /** Screen column and row (0–7, from the top left) of a square. */
  cell(sq) {
    const f = rules.fileOf(sq);
    const r = rules.rankOf(sq);
    return this.whiteBottom ? [f, 7 - r] : [7 - f, r];
  }

  /** Top-left corner of a square in board units. */
  xy(sq) {
    const [c, r] = this.cell(sq);
    return [c * CELL, r * CELL];
  }

  /** The square under a point in board units, or null off the board. */
  squareAt(x, y) {
    const c = Math.floor(x / CELL);
    const r = Math.floor(y / CELL);
    if (c < 0 || c > 7 || r < 0 || r > 7) return null;
    return this.whiteBottom ? (7 - r) * 8 + c : r * 8 + (7 - c);
  }

  point(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  // --- drawing ------------------------------------------------------------

  drawGrid() {
    this.squares.replaceChildren();
    this.coords.replaceChildren();
    this.hits.replaceChildren();
    for (let sq = 0; sq < 64; sq++) {
      const [x, y] = this.xy(sq);
      const light = (rules.fileOf(sq) + rules.rankOf(sq)) % 2 === 1;
      el('rect', { x, y, width: CELL, height: CELL, class: light ? 'ch-light' : 'ch-dark' }, this.squares);
      const [c, r] = this.cell(sq);
      // Files along the bottom edge, ranks along the left edge, each in the
      // colour of the other kind of square.
      const ink = light ? 'ch-coord ch-on-light' : 'ch-coord ch-on-dark';
      if (r === 7) {
        const f = el('text', { x: x + CELL - 7, y: y + CELL - 8, class: ink, 'text-anchor': 'end' }, this.coords);
        f.textContent = 'abcdefgh'[rules.fileOf(sq)];
      }
      if (c === 0) {
        const k = el('text', { x: x + 6, y: y + 24, class: ink }, this.coords);
        k.textContent = String(rules.rankOf(sq) + 1);
      }
      // Invisible targets, one per square, so tests and assistive tools
      // can name a square; pointer handling itself works from coordinates.
      el('rect', {
        x, y, width: CELL, height: CELL, class: 'ch-hit', 'data-square': rules.squareName(sq),
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
      el('rect', { x, y, width: CELL, height: CELL, class: cls }, this.marks);
    };
    if (this.lastMove) {
      mark(this.lastMove.from, 'ch-last');
      mark(this.lastMove.to, 'ch-last');
    }
    if (this.premove) {
      mark(this.premove.from, 'ch-premove');
      mark(this.premove.to, 'ch-premove');
    }
    if (this.selected !== null) mark(rules.squareName(this.selected), 'ch-selected');
    if (this.cursor !== null && document.activeElement === this.svg) mark(rules.squareName(this.cursor), 'ch-cursor');
    if (this.check) {
      const sq = rules.parseSquare(this.check);
      if (sq !== null) {
        const [x, y] = this.xy(sq);
        el('rect', { x, y, width: CELL, height: CELL, class: 'ch-check', fill: 'url(#ch-check-glow)' }, this.marks);
      }
    }
    if (!this.position) return;
    const names = [];
    this.position.board.forEach((p, sq) => {
      if (!p) return;
      const [x, y] = this.xy(sq);
      const name = rules.squareName(sq);
      const label = `${this.t(`chess.piece.${rules.colorOf(p)}.${rules.roleOf(p)}`)} ${name}`;
      names.push(label);
      const pg = el('g', {
        class: `ch-piece ${rules.colorOf(p)}`,
        transform: `translate(${x} ${y})`,
        'data-square': name,
        'data-piece': p,
        role: 'img',
        'aria-label': label,
      }, g);
      el('image', { href: pieceImage(p), width: CELL, height: CELL }, pg);
    });
    const turn = this.t(`side.${this.position.turn}`);
    this.svg.setAttribute('aria-label', `${this.t('board.chess.label')}: ${this.t('board.toMove', { side: turn })}`);
    this.title.textContent = `${this.t('board.chess.label')} — ${names.join(', ')}`;
  }

  drawDots() {
    const g = this.dots;
    g.replaceChildren();
    if (this.selected === null || !this.dests) return;
    const from = rules.squareName(this.selected);
    for (const to of this.dests[from] || []) {
      const sq = rules.parseSquare(to);
      if (sq === null) continue;
      const [x, y] = this.xy(sq);
      const capture = this.position && this.position.board[sq];
      if (capture) {
        el('circle', {
          cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 5, class: 'ch-dest ch-dest-capture', 'data-dest': to,
        }, g);
      } else {
        el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 15, class: 'ch-dest', 'data-dest': to }, g);
      }
    }
  }

  setInteractive(legalMovesBySquare, onMove) {
    this.dests = legalMovesBySquare || null;
    this.onMove = onMove || null;
    if (this.selected !== null && !(this.dests && this.dests[rules.squareName(this.selected)])) {
      this.selected = null;
    }
    if (!this.dests) this.closePromotion();
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
    this.closePromotion();
    this.drawGrid();
    this.drawPieces();
    this.drawDots();
  }

  destroy() {
    this.closePromotion();
    super.destroy();
  }

  // --- the promotion dialog ---------------------------------------------------

  /**
   * Asks which piece a pawn becomes: four buttons in the file of the
   * promotion square, from the board's edge inwards (queen first), over
   * a veil that cancels when clicked. Escape cancels too.
   */
  openPromotion(from, to) {
    this.closePromotion();
    const piece = this.position && this.position.board[from];
    const white = piece ? rules.isWhite(piece) : true;
    const [col, row] = this.cell(to);
    const down = row === 0; // the square is at the top: the column grows downwards
    const layer = document.createElement('div');
    layer.className = 'ch-promotion';
    layer.id = 'promotion';
    layer.setAttribute('role', 'dialog');
    layer.setAttribute('aria-modal', 'true');
    layer.setAttribute('aria-label', this.t('chess.promote', { square: rules.squareName(to) }));
    const veil = document.createElement('button');
    veil.type = 'button';
    veil.className = 'ch-promotion-veil';
    veil.setAttribute('aria-label', this.t('chess.promote.cancel'));
    veil.addEventListener('click', () => this.cancelPromotion());
    layer.append(veil);
    PROMOTIONS.forEach((role, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'ch-promotion-choice';
      b.dataset.role = role;
      b.setAttribute('aria-label', this.t(`chess.promote.${role}`));
      b.style.left = `${col * 12.5}%`;
      b.style.top = `${(down ? row + i : row - i) * 12.5}%`;
      const img = document.createElement('img');
      img.src = pieceImage(white ? role.toUpperCase() : role);
      img.alt = '';
      img.draggable = false;
      b.append(img);
      b.addEventListener('click', () => this.choosePromotion(role));
      layer.append(b);
    });
    layer.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.cancelPromotion();
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const choices = [...layer.querySelectorAll('.ch-promotion-choice')];
        const i = choices.indexOf(document.activeElement);
        const step = (e.key === 'ArrowDown') === down ? 1 : -1;
        choices[(i + step + choices.length) % choices.length].focus();
      }
    });
    this.wrap.append(layer);
    this.promotion = { from, to, layer };
    layer.querySelector('.ch-promotion-choice').focus();
  }

  choosePromotion(role) {
    const p = this.promotion;
    if (!p) return;
    this.closePromotion();
    if (this.onMove) this.onMove(rules.squareName(p.from), rules.squareName(p.to), role);
  }

  cancelPromotion() {
    this.closePromotion();
    this.drawPieces();
    this.svg.focus({ preventScroll: true });
  }

  closePromotion() {
    if (this.promotion) {
      this.promotion.layer.remove();
      this.promotion = null;
    }
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

  /** Makes the move if it is one of the destinations; a promotion asks first. */
  tryMove(from, to) {
    const f = rules.squareName(from);
    const t = rules.squareName(to);
    if (!(this.dests && (this.dests[f] || []).includes(t) && this.onMove)) return false;
    this.selected = null;
    this.drawDots();
    if (this.position && rules.isPromotion(this.position.board, from, to)) {
      // Shown on its new square while the player chooses.
      const node = this.pieces.querySelector(`[data-square="${f}"]`);
      if (node) {
        const [x, y] = this.xy(to);
        node.setAttribute('transform', `translate(${x} ${y})`);
      }
      this.openPromotion(from, to);
    } else {
      this.onMove(f, t);
    }
    return true;
  }

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    if (!this.dests || this.promotion) return;
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
      d.node = this.pieces.querySelector(`[data-square="${rules.squareName(d.from)}"]`);
      if (d.node) {
        d.node.classList.add('dragging');
        this.pieces.appendChild(d.node); // on top of the others
      }
    }
    if (d.node) d.node.setAttribute('transform', `translate(${x - CELL * 0.55} ${y - CELL * 0.55}) scale(1.1)`);
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
    return p ? `${name} ${this.t(`chess.piece.${rules.colorOf(p)}.${rules.roleOf(p)}`)}` : name;
  }

  keyDown(e) {
    if (!this.dests || this.promotion) return;
    if (this.cursor === null) {
      // Start on the king of the side at the bottom.
      const k = this.position ? rules.kingSquare(this.position.board, this.whiteBottom ? 'white' : 'black') : -1;
      this.cursor = k >= 0 ? k : this.whiteBottom ? 4 : 60;
    }
    const file = rules.fileOf(this.cursor);
    const rank = rules.rankOf(this.cursor);
    const up = this.whiteBottom ? 1 : -1; // screen up in ranks
    let next = null;
    switch (e.key) {
      case 'ArrowUp': next = [file, rank + up]; break;
      case 'ArrowDown': next = [file, rank - up]; break;
      case 'ArrowLeft': next = [file - up, rank]; break;
      case 'ArrowRight': next = [file + up, rank]; break;
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
    if (f < 0 || f > 7 || r < 0 || r > 7) return;
    this.cursor = r * 8 + f;
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

/** The square of the side to move's king when the last move gave check. */
function checkSquare(pos, last) {
  if (!last || !(last.check || /[+#]$/.test(last.display || ''))) return null;
  const k = rules.kingSquare(pos.board, pos.turn);
  return k >= 0 ? rules.squareName(k) : null;
}

/** Premove destinations of `color`'s pieces, by movement alone. */
function premoves(pos, color) {
  const dests = {};
  pos.board.forEach((p, sq) => {
    if (p && rules.colorOf(p) === color) {
      const targets = rules.premoveTargets(pos.board, sq).map(rules.squareName);
      if (targets.length) dests[rules.squareName(sq)] = targets;
    }
  });
  return dests;
}

registerGame('chess', {
  sides: ['white', 'black'],
  rules,
  notation,
  checkSquare,
  premoves,
  isCapture: rules.isCapture,
  board: (container, opts) => new ChessBoard(container, opts),
});
