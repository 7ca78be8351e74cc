// The chess board, drawn in SVG: 8 × 8 squares with the coordinates a–h
// and 1–8 on the edge squares, and Colin M.L. Burnett's piece drawings
// (img/chess/cburnett/, GPLv2+; see the README there). It scales with its
// container and takes moves by click-click, drag or keyboard (./grid.js).
//
// The board knows no rules: the page hands it the legal destinations
// (`setInteractive`, from the server's `legal`) and the squares to mark
// (`highlight`). What it does know is the geometry of a move: a pawn that
// reaches the last rank asks which piece it becomes (the promotion dialog)
// and hands that letter to `onMove` as its third argument. Castling is
// whatever the legal list says: the king's two-square step (`e1g1`), or in
// Chess960 the king onto its own rook (`b1a1`), so a click on the king and
// then on the rook castles there.

import { registerGame } from './board.js';
import { GridBoard, el, premovesBy } from './grid.js';
import * as rules from '../rules/chess.js';
import * as notation from '../notation/chess.js';

const CELL = 100;
const SIZE = 8 * CELL;
const PIECES = '/img/chess/cburnett';
const PROMOTIONS = ['q', 'r', 'b', 'n'];

/** The image file of a piece letter: `N` → wN.svg, `q` → bQ.svg. */
export function pieceImage(p) {
  return `${PIECES}/${rules.isWhite(p) ? 'w' : 'b'}${p.toUpperCase()}.svg`;
}

export class ChessBoard extends GridBoard {
  constructor(container, opts = {}) {
    super(container, { sides: ['white', 'black'], ...opts }, {
      files: 8,
      ranks: 8,
      width: SIZE,
      height: SIZE,
      rules,
      prefix: 'ch',
      board: 'board.chess',
      piece: 'chess.piece',
      marks: {
        lastFrom: 'ch-last',
        lastTo: 'ch-last',
        premove: 'ch-premove',
        selected: 'ch-selected',
        cursor: 'ch-cursor',
      },
    });
    this.promotion = null; // { from, to, layer } while the dialog is open

    const svg = this.svg;
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
    this.wrap = document.createElement('div');
    this.wrap.className = 'ch-wrap';
    this.wrap.append(svg);
    this.mount(this.wrap);
  }

  // --- geometry -----------------------------------------------------------

  /** Top-left corner of a square in board units. */
  xy(sq) {
    const [c, r] = this.cell(sq);
    return [c * CELL, r * CELL];
  }

  centre(sq) {
    const [x, y] = this.xy(sq);
    return [x + CELL / 2, y + CELL / 2];
  }

  /** The square under a point in board units, or null off the board. */
  squareAt(x, y) {
    return this.squareOfCell(Math.floor(x / CELL), Math.floor(y / CELL));
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

  drawMark(sq, cls) {
    const [x, y] = this.xy(sq);
    el('rect', { x, y, width: CELL, height: CELL, class: cls }, this.marks);
  }

  drawCheck(sq) {
    const [x, y] = this.xy(sq);
    el('rect', { x, y, width: CELL, height: CELL, class: 'ch-check', fill: 'url(#ch-check-glow)' }, this.marks);
  }

  drawPieceFace(pg, p) {
    el('image', { href: pieceImage(p), width: CELL, height: CELL }, pg);
    // The letter set: a disc with the piece's letter, shown instead of the
    // drawing by the stylesheet when the player chose it (settings.js).
    const color = rules.isWhite(p) ? 'white' : 'black';
    const letter = el('g', { class: 'ch-letter' }, pg);
    el('circle', { cx: CELL / 2, cy: CELL / 2, r: CELL * 0.4, class: `ch-letter-disc ${color}` }, letter);
    const text = el('text', {
      x: CELL / 2, y: CELL / 2 + 2, class: `ch-letter-text ${color}`, 'text-anchor': 'middle', 'dominant-baseline': 'central',
    }, letter);
    text.textContent = p.toUpperCase();
  }

  drawDot(sq, to, capture) {
    const [x, y] = this.xy(sq);
    if (capture) {
      el('circle', {
        cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 5, class: 'ch-dest ch-dest-capture', 'data-dest': to,
      }, this.dots);
    } else {
      el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 15, class: 'ch-dest', 'data-dest': to }, this.dots);
    }
  }

  /** A dragged piece, a little larger, its centre near the pointer. */
  dragTransform(x, y) {
    return `translate(${x - CELL * 0.55} ${y - CELL * 0.55}) scale(1.1)`;
  }

  setInteractive(legalMovesBySquare, onMove) {
    if (!legalMovesBySquare) this.closePromotion();
    super.setInteractive(legalMovesBySquare, onMove);
  }

  flip(orientation) {
    this.closePromotion();
    super.flip(orientation);
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

  /** Input waits while the promotion dialog is open. */
  waiting() {
    return !!this.promotion;
  }

  /** Makes a legal move; a promotion asks first which piece the pawn becomes. */
  play(from, to) {
    if (this.position && rules.isPromotion(this.position.board, from, to)) {
      // Shown on its new square while the player chooses.
      const node = this.pieces.querySelector(`[data-square="${rules.squareName(from)}"]`);
      if (node) {
        const [x, y] = this.xy(to);
        node.setAttribute('transform', `translate(${x} ${y})`);
      }
      this.openPromotion(from, to);
    } else {
      super.play(from, to);
    }
  }

  /** The cursor starts on the king of the side at the bottom. */
  startCursor() {
    const k = this.position ? rules.kingSquare(this.position.board, this.firstBottom ? 'white' : 'black') : -1;
    return k >= 0 ? k : super.startCursor();
  }
}

/** The square of the side to move's king when the last move gave check. */
function checkSquare(pos, last) {
  if (!last || !(last.check || /[+#]$/.test(last.display || ''))) return null;
  const k = rules.kingSquare(pos.board, pos.turn);
  return k >= 0 ? rules.squareName(k) : null;
}

registerGame('chess', {
  sides: ['white', 'black'],
  rules,
  notation,
  checkSquare,
  premoves: premovesBy(rules, rules.premoveTargets),
  isCapture: rules.isCapture,
  board: (container, opts) => new ChessBoard(container, opts),
});
