// The shogi board (将棋盤), drawn in SVG: 9 × 9 squares on wood with the
// four star points, the file numbers １–９ across the top and the rank
// numerals 一–九 down the right as Japanese boards print them, and
// wedge-shaped pieces with their kanji (玉 for sente's king, 王 for gote's;
// promoted pieces と 杏 圭 全 馬 龍 in red), each pointing at the opponent.
// Both hands (駒台) stand beside the board — the opponent's above on the
// left, one's own below on the right; on a narrow screen above and below
// it — with a count on each kind of piece. Moves by click-click, drag or
// keyboard (./grid.js); a drop by clicking a piece in hand and then a
// square, or by dragging it onto the board; a move that may promote asks
// 成 or 不成 (a forced promotion asks nothing).
//
// The board knows no rules: the page hands it the legal moves as
// destinations by square (`setInteractive`), where a drop's origin is its
// piece and an asterisk as USI writes it (`P*` → ['5e', …]); it reports
// a move as (from, to, promotion) — `('7g', '7f')`, `('8h', '2b', '+')`,
// `('P*', '5e')` — which the page joins into USI.

import { registerGame } from './board.js';
import { GridBoard, el } from './grid.js';
import * as rules from '../rules/shogi.js';
import * as notation from '../notation/shogi.js';

const CW = 100; // a square's width
const CH = 110; // and height: shogi squares are a little taller than wide
const LEFT = 16;
const TOP = 46;
const RIGHT = 48;
const BOTTOM = 16;
const WIDTH = LEFT + 9 * CW + RIGHT;
const HEIGHT = TOP + 9 * CH + BOTTOM;
const WIDE_DIGITS = '１２３４５６７８９';
const KANJI_DIGITS = '一二三四五六七八九';
const DRAG_START = 6; // screen pixels

const KANJI = {
  K: '玉', k: '王', R: '飛', B: '角', G: '金', S: '銀', N: '桂', L: '香', P: '歩',
  '+R': '龍', '+B': '馬', '+S': '全', '+N': '圭', '+L': '杏', '+P': 'と',
};
/** Relative sizes, as a set's pieces differ (the king largest, the pawn smallest). */
const SIZE = {
  K: 1, R: 0.97, B: 0.97, G: 0.94, S: 0.94, N: 0.9, L: 0.88, P: 0.85,
};

/** The kanji of an SFEN piece. */
export function kanji(p) {
  const promoted = p.startsWith('+');
  const b = p.replace('+', '');
  if (b === 'k' || b === 'K') return KANJI[b];
  return KANJI[(promoted ? '+' : '') + b.toUpperCase()];
}

/** Draws a piece's wedge and kanji into `g` (a square's box), pointing up or down. */
function drawPiece(g, p, up) {
  const b = p.replace('+', '').toUpperCase();
  const s = SIZE[b] || 0.9;
  const w = CW * 0.86 * s;
  const h = CH * 0.9 * s;
  const x0 = (CW - w) / 2;
  const y1 = CH - (CH - h) / 2; // the base
  const y0 = y1 - h;
  const shoulder = y0 + h * 0.2;
  const points = [
    [CW / 2, y0], [x0 + w * 0.84, shoulder], [x0 + w, y1], [x0, y1], [x0 + w * 0.16, shoulder],
  ].map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  const inner = el('g', up ? {} : { transform: `rotate(180 ${CW / 2} ${CH / 2})` }, g);
  el('polygon', { points, class: 'sg-wedge' }, inner);
  const glyph = el('text', {
    x: CW / 2,
    y: y0 + h * 0.6,
    class: `sg-glyph${p.startsWith('+') ? ' sg-promoted' : ''}`,
    'text-anchor': 'middle',
    'dominant-baseline': 'central',
    'font-size': (kanji(p).length > 1 ? 36 : 54) * s,
  }, inner);
  glyph.textContent = kanji(p);
}

/** A whole piece as a small standalone SVG (hands, dialog, drag). */
function pieceSvg(p, up = true) {
  const svg = el('svg', { viewBox: `0 0 ${CW} ${CH}`, class: 'sg-piece-svg', 'aria-hidden': 'true' });
  drawPiece(el('g', {}, svg), p, up);
  return svg;
}

/** The board's words for a side (`uwate` plays gote's pieces, `shitate` sente's). */
const colorOfSide = (word) => rules.colorOfSide(word);

export class ShogiBoard extends GridBoard {
  constructor(container, opts = {}) {
    const orientation = colorOfSide(opts.orientation || 'sente');
    super(container, { ...opts, sides: ['sente', 'gote'], orientation }, {
      files: 9,
      ranks: 9,
      width: WIDTH,
      height: HEIGHT,
      rules,
      prefix: 'sg',
      board: 'board.shogi',
      piece: 'shogi.piece',
      marks: {
        lastFrom: 'sg-last',
        lastTo: 'sg-last',
        premove: 'sg-premove',
        selected: 'sg-selected',
        cursor: 'sg-cursor',
      },
    });
    this.handSelected = null; // a piece letter in hand chosen to drop
    this.handDrag = null;
    this.promotion = null; // { from, to, layer } while 成/不成 is asked

    const svg = this.svg;
    this.squares = el('g', { class: 'sg-squares' }, svg);
    this.marks = el('g', { class: 'sg-marks' }, svg);
    this.pieces = el('g', { class: 'sg-pieces' }, svg);
    this.coords = el('g', { class: 'sg-coords', 'aria-hidden': 'true' }, svg);
    this.dots = el('g', { class: 'sg-dots' }, svg);
    this.hits = el('g', { class: 'sg-hits' }, svg);

    this.boardBox = document.createElement('div');
    this.boardBox.className = 'sg-board-box';
    this.boardBox.append(svg);
    this.hands = { top: this.makeHand('top'), bottom: this.makeHand('bottom') };
    this.wrap = document.createElement('div');
    this.wrap.className = 'sg-wrap';
    this.wrap.append(this.hands.top, this.boardBox, this.hands.bottom);
    this.onHandMove = (e) => this.handPointerMove(e);
    this.onHandUp = (e) => this.handPointerUp(e);
    this.mount(this.wrap);
  }

  makeHand(where) {
    const hand = document.createElement('div');
    hand.className = `sg-hand sg-hand-${where}`;
    hand.setAttribute('role', 'group');
    return hand;
  }

  /** The colour of the pieces at the bottom. */
  get bottomColor() {
    return this.firstBottom ? 'sente' : 'gote';
  }

  // --- geometry -----------------------------------------------------------

  /** Top-left corner of a square in board units. */
  xy(sq) {
    const [c, r] = this.cell(sq);
    return [LEFT + c * CW, TOP + r * CH];
  }

  centre(sq) {
    const [x, y] = this.xy(sq);
    return [x + CW / 2, y + CH / 2];
  }

  squareAt(x, y) {
    return this.squareOfCell(Math.floor((x - LEFT) / CW), Math.floor((y - TOP) / CH));
  }

  // --- drawing ------------------------------------------------------------

  drawGrid() {
    this.squares.replaceChildren();
    this.coords.replaceChildren();
    this.hits.replaceChildren();
    el('rect', {
      x: LEFT - 10, y: TOP - 10, width: 9 * CW + 20, height: 9 * CH + 20, rx: 6, class: 'sg-wood',
    }, this.squares);
    for (let i = 0; i <= 9; i++) {
      el('line', { x1: LEFT + i * CW, y1: TOP, x2: LEFT + i * CW, y2: TOP + 9 * CH, class: 'sg-line' }, this.squares);
      el('line', { x1: LEFT, y1: TOP + i * CH, x2: LEFT + 9 * CW, y2: TOP + i * CH, class: 'sg-line' }, this.squares);
    }
    el('rect', { x: LEFT, y: TOP, width: 9 * CW, height: 9 * CH, class: 'sg-frame' }, this.squares);
    for (const [c, r] of [[3, 3], [6, 3], [3, 6], [6, 6]]) {
      el('circle', { cx: LEFT + c * CW, cy: TOP + r * CH, r: 7, class: 'sg-star' }, this.squares);
    }
    // File numbers across the top, rank numerals down the right, as the
    // square under them names them (so they follow a flip).
    for (let c = 0; c < 9; c++) {
      const name = this.rules.squareName(this.squareOfCell(c, 0));
      const f = el('text', { x: LEFT + c * CW + CW / 2, y: TOP - 18, class: 'sg-coord', 'text-anchor': 'middle' }, this.coords);
      f.textContent = WIDE_DIGITS[Number(name[0]) - 1];
    }
    for (let r = 0; r < 9; r++) {
      const name = this.rules.squareName(this.squareOfCell(8, r));
      const k = el('text', {
        x: LEFT + 9 * CW + RIGHT / 2 + 2, y: TOP + r * CH + CH / 2, class: 'sg-coord', 'text-anchor': 'middle', 'dominant-baseline': 'central',
      }, this.coords);
      k.textContent = KANJI_DIGITS['abcdefghi'.indexOf(name[1])];
    }
    for (let sq = 0; sq < 81; sq++) {
      const [x, y] = this.xy(sq);
      el('rect', {
        x, y, width: CW, height: CH, class: 'sg-hit', 'data-square': this.rules.squareName(sq),
      }, this.hits);
    }
  }

  drawMark(sq, cls) {
    const [x, y] = this.xy(sq);
    el('rect', { x: x + 1, y: y + 1, width: CW - 2, height: CH - 2, class: cls }, this.marks);
  }

  drawCheck(sq) {
    const [x, y] = this.xy(sq);
    el('rect', { x: x + 1, y: y + 1, width: CW - 2, height: CH - 2, class: 'sg-check' }, this.marks);
  }

  drawPieceFace(pg, p) {
    drawPiece(pg, p, rules.colorOf(p) === this.bottomColor);
  }

  drawDot(sq, to, capture) {
    const [x, y] = this.xy(sq);
    if (capture) {
      el('rect', {
        x: x + 4, y: y + 4, width: CW - 8, height: CH - 8, class: 'sg-dest sg-dest-capture', 'data-dest': to,
      }, this.dots);
    } else {
      el('circle', { cx: x + CW / 2, cy: y + CH / 2, r: 14, class: 'sg-dest', 'data-dest': to }, this.dots);
    }
  }

  /** The destinations of the selected piece, on the board or in hand. */
  drawDots() {
    if (!this.handSelected) {
      super.drawDots();
      return;
    }
    this.dots.replaceChildren();
    for (const to of (this.dests && this.dests[`${this.handSelected}*`]) || []) {
      const sq = this.rules.parseSquare(to);
      if (sq !== null) this.drawDot(sq, to, false);
    }
  }

  dragTransform(x, y) {
    return `translate(${x - CW * 0.55} ${y - CH * 0.55}) scale(1.1)`;
  }

  render(position) {
    super.render(position);
    this.drawHands();
  }

  /** Both hands: each kind of piece once, with how many. */
  drawHands() {
    const pos = this.position;
    const colors = { bottom: this.bottomColor, top: this.bottomColor === 'sente' ? 'gote' : 'sente' };
    for (const where of ['top', 'bottom']) {
      const hand = this.hands[where];
      const color = colors[where];
      hand.dataset.color = color;
      hand.setAttribute('aria-label', this.t('shogi.hand', { side: this.t(`side.${color}`) }));
      const items = [];
      for (const letter of rules.HAND_ORDER) {
        const n = pos ? pos.hands[color][letter] : 0;
        if (!n) continue;
        const piece = color === 'sente' ? letter : letter.toLowerCase();
        const droppable = !!(this.dests && pos.turn === color && this.dests[`${letter}*`]);
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `sg-hand-piece${this.handSelected === letter && droppable ? ' selected' : ''}`;
        b.dataset.piece = letter;
        b.dataset.color = color;
        b.dataset.count = String(n);
        b.disabled = !droppable;
        b.setAttribute('aria-label', this.t('shogi.inHand', { piece: this.pieceName(piece), n }));
        b.setAttribute('aria-pressed', String(this.handSelected === letter && droppable));
        b.append(pieceSvg(piece, where === 'bottom'));
        if (n > 1) {
          const count = document.createElement('span');
          count.className = 'sg-count';
          count.textContent = String(n);
          b.append(count);
        }
        if (droppable) {
          b.addEventListener('pointerdown', (e) => this.handPointerDown(e, letter));
          b.addEventListener('click', (e) => {
            // Pointer presses are handled on pointerdown/up; this is the keyboard.
            if (e.detail === 0) this.selectHand(this.handSelected === letter ? null : letter);
          });
        }
        items.push(b);
      }
      if (!items.length) {
        const none = document.createElement('span');
        none.className = 'sg-hand-empty';
        none.textContent = this.t('shogi.handEmpty');
        items.push(none);
      }
      hand.replaceChildren(...items);
    }
  }

  setInteractive(legalMovesBySquare, onMove) {
    if (!legalMovesBySquare) this.closePromotion();
    if (this.handSelected && !(legalMovesBySquare && legalMovesBySquare[`${this.handSelected}*`])) {
      this.handSelected = null;
    }
    super.setInteractive(legalMovesBySquare, onMove);
    this.drawHands();
  }

  flip(orientation) {
    this.closePromotion();
    super.flip(orientation ? colorOfSide(orientation) : undefined);
    this.drawHands();
  }

  destroy() {
    this.closePromotion();
    this.endHandDrag();
    super.destroy();
  }

  // --- drops ------------------------------------------------------------------

  selectHand(letter) {
    this.handSelected = letter;
    if (letter) this.selected = null;
    this.drawPieces();
    this.drawDots();
    this.drawHands();
    if (letter) this.live.textContent = `${this.t('shogi.inHand', { piece: this.pieceName(letter), n: '' })} ✓`;
  }

  /** Drops the selected piece in hand on `sq` if that is legal. */
  tryDrop(sq) {
    const key = `${this.handSelected}*`;
    const to = this.rules.squareName(sq);
    if (!(this.dests && (this.dests[key] || []).includes(to) && this.onMove)) return false;
    this.handSelected = null;
    this.drawDots();
    this.drawHands();
    this.onMove(key, to);
    return true;
  }

  handPointerDown(e, letter) {
    if (e.button !== undefined && e.button !== 0) return;
    if (this.waiting()) return;
    e.preventDefault();
    const wasSelected = this.handSelected === letter;
    this.selectHand(letter);
    this.handDrag = {
      letter, x0: e.clientX, y0: e.clientY, moved: false, wasSelected, ghost: null,
    };
    document.addEventListener('pointermove', this.onHandMove);
    document.addEventListener('pointerup', this.onHandUp);
    document.addEventListener('pointercancel', this.onHandUp);
  }

  handPointerMove(e) {
    const d = this.handDrag;
    if (!d) return;
    if (!d.moved && Math.hypot(e.clientX - d.x0, e.clientY - d.y0) < DRAG_START) return;
    if (!d.moved) {
      d.moved = true;
      const rect = this.svg.getBoundingClientRect();
      const w = (rect.width * CW) / WIDTH;
      d.ghost = document.createElement('div');
      d.ghost.className = 'sg-ghost';
      d.ghost.style.width = `${w * 1.1}px`;
      d.ghost.style.height = `${((w * CH) / CW) * 1.1}px`;
      const piece = this.position.turn === 'sente' ? d.letter : d.letter.toLowerCase();
      d.ghost.append(pieceSvg(piece, this.position.turn === this.bottomColor));
      document.body.append(d.ghost);
    }
    d.ghost.style.left = `${e.clientX}px`;
    d.ghost.style.top = `${e.clientY}px`;
  }

  handPointerUp(e) {
    const d = this.handDrag;
    this.endHandDrag();
    if (!d || e.type === 'pointercancel') return;
    if (d.moved) {
      const [x, y] = this.point(e);
      const sq = this.squareAt(x, y);
      if (sq === null || !this.tryDrop(sq)) this.selectHand(null);
    } else if (d.wasSelected) {
      this.selectHand(null); // a second click lets it go
    }
  }

  endHandDrag() {
    document.removeEventListener('pointermove', this.onHandMove);
    document.removeEventListener('pointerup', this.onHandUp);
    document.removeEventListener('pointercancel', this.onHandUp);
    if (this.handDrag && this.handDrag.ghost) this.handDrag.ghost.remove();
    this.handDrag = null;
  }

  pointerDown(e) {
    if (this.handSelected && this.dests && !this.waiting() && (e.button === undefined || e.button === 0)) {
      const [x, y] = this.point(e);
      const sq = this.squareAt(x, y);
      if (sq !== null && this.tryDrop(sq)) {
        e.preventDefault();
        return;
      }
      this.selectHand(null);
    }
    super.pointerDown(e);
  }

  keyDown(e) {
    if (this.handSelected && (e.key === 'Enter' || e.key === ' ') && this.cursor !== null) {
      e.preventDefault();
      if (!this.tryDrop(this.cursor)) this.live.textContent = this.describe(this.cursor);
      return;
    }
    if (this.handSelected && e.key === 'Escape') {
      this.selectHand(null);
      return;
    }
    super.keyDown(e);
  }

  select(sq) {
    if (sq !== null && this.handSelected) {
      this.handSelected = null;
      this.drawHands();
    }
    super.select(sq);
  }

  // --- promotion: 成 or 不成 ------------------------------------------------------

  waiting() {
    return !!this.promotion;
  }

  play(from, to) {
    const piece = this.position && this.position.board[from];
    if (piece && rules.mustPromote(piece, to)) {
      this.onMove(this.rules.squareName(from), this.rules.squareName(to), '+');
    } else if (piece && rules.mayPromote(piece, from, to)) {
      const node = this.pieces.querySelector(`[data-square="${this.rules.squareName(from)}"]`);
      if (node) {
        const [x, y] = this.xy(to);
        node.setAttribute('transform', `translate(${x} ${y})`);
      }
      this.openPromotion(from, to, piece);
    } else {
      super.play(from, to);
    }
  }

  /** Two buttons over the destination, the promoted piece (成) towards the
   *  opponent, the piece as it is (不成) below it; a veil that cancels. */
  openPromotion(from, to, piece) {
    this.closePromotion();
    const [x, y] = this.xy(to);
    const [, row] = this.cell(to);
    const down = row < 4; // near the top: the buttons grow downwards
    const layer = document.createElement('div');
    layer.className = 'sg-promotion';
    layer.id = 'promotion';
    layer.setAttribute('role', 'dialog');
    layer.setAttribute('aria-modal', 'true');
    layer.setAttribute('aria-label', this.t('shogi.promote', { square: this.rules.squareName(to) }));
    const veil = document.createElement('button');
    veil.type = 'button';
    veil.className = 'sg-promotion-veil';
    veil.setAttribute('aria-label', this.t('shogi.promote.cancel'));
    veil.addEventListener('click', () => this.cancelPromotion());
    layer.append(veil);
    const up = rules.colorOf(piece) === this.bottomColor;
    [['+', `+${piece}`, 'shogi.promote.yes', '成'], ['', piece, 'shogi.promote.no', '不成']].forEach(([choice, face, label, word], i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'sg-promotion-choice';
      b.dataset.choice = choice ? 'promote' : 'keep';
      b.setAttribute('aria-label', this.t(label));
      b.style.left = `${(x / WIDTH) * 100}%`;
      b.style.top = `${((y + (down ? i : -i) * CH) / HEIGHT) * 100}%`;
      b.style.width = `${(CW / WIDTH) * 100}%`;
      b.style.height = `${(CH / HEIGHT) * 100}%`;
      b.append(pieceSvg(face, up));
      const w = document.createElement('span');
      w.className = 'sg-promotion-word';
      w.textContent = word;
      b.append(w);
      b.addEventListener('click', () => this.choosePromotion(choice));
      layer.append(b);
    });
    layer.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.cancelPromotion();
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const choices = [...layer.querySelectorAll('.sg-promotion-choice')];
        const i = choices.indexOf(document.activeElement);
        choices[(i + 1) % choices.length].focus();
      }
    });
    this.boardBox.append(layer);
    this.promotion = { from, to, layer };
    layer.querySelector('.sg-promotion-choice').focus();
  }

  choosePromotion(choice) {
    const p = this.promotion;
    if (!p) return;
    this.closePromotion();
    if (this.onMove) this.onMove(this.rules.squareName(p.from), this.rules.squareName(p.to), choice || undefined);
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

  /** The cursor starts on the king at the bottom. */
  startCursor() {
    const k = this.position ? rules.kingSquare(this.position.board, this.bottomColor) : -1;
    return k >= 0 ? k : super.startCursor();
  }
}

/** The square of the side to move's king when the last move gave check. */
function checkSquare(pos, last) {
  if (!last || !last.check) return null;
  const k = rules.kingSquare(pos.board, pos.turn);
  return k >= 0 ? rules.squareName(k) : null;
}

/** Premoves: each piece by its movement, and every piece in hand to every empty square. */
function premoves(pos, side) {
  const color = colorOfSide(side);
  const dests = {};
  pos.board.forEach((p, sq) => {
    if (p && rules.colorOf(p) === color) {
      const found = rules.premoveTargets(pos.board, sq).map(rules.squareName);
      if (found.length) dests[rules.squareName(sq)] = found;
    }
  });
  const empty = rules.emptySquares(pos.board).map(rules.squareName);
  for (const letter of rules.HAND_ORDER) {
    if (pos.hands[color][letter] > 0) dests[`${letter}*`] = empty;
  }
  return dests;
}

registerGame('shogi', {
  sides: ['sente', 'gote'],
  rules,
  notation,
  checkSquare,
  premoves,
  isCapture: rules.isCapture,
  /** The variant's word for the side to move (上手 plays gote's pieces). */
  turnWord: (turn, sides) => {
    if (!sides || sides.includes(turn)) return turn;
    return turn === 'gote' ? sides[0] : sides[1];
  },
  board: (container, opts) => new ShogiBoard(container, opts),
});
