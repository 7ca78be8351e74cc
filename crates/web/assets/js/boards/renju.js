// The gomoku and renju board (五子棋 / 连珠), drawn in SVG: 15 × 15 lines on
// wood with the five star points (天元 h8 and d4, l4, d12, l12), a–o along
// the bottom and 1–15 up the left, black and white stones, the last stone
// marked, move numbers on the stones (a switch under the board), black's
// forbidden points marked with a red × when black is to move (renju only;
// a switch too), and the 5th moves offered under Soosõrv-8 as numbered
// shadows. A stone is placed by clicking or tapping a point, or with the
// arrow keys and Enter.
//
// The steps of an opening rule that are not points — swap2's choice, a
// colour to choose, the number of 5th moves to declare — and the office
// rules' pointing out of black's forbidden stone (`foul`) come to the board
// as the legal moves with no point (`setChoices`), and it asks them in a
// dialog right under the board (the stones stay in view); an offer or a pick of a 5th move is a point with
// its word (`offer:h10`), clicked like a stone.
//
// The board knows no rules beyond what it marks: the page hands it the
// legal moves by "origin" (`''` for a stone, `offer:` and `select:` for the
// Soosõrv steps) as `setInteractive` does for every board, and it reports
// (origin, point), which the page joins into the move.

import { Board, registerGame } from './board.js';
import { el } from './grid.js';
import * as rules from '../rules/renju.js';
import * as notation from '../notation/renju.js';

const CELL = 40;
const MARGIN = 44;
const SPAN = CELL * (rules.SIZE - 1);
const WIDTH = SPAN + 2 * MARGIN;
const STARS = ['h8', 'd4', 'l4', 'd12', 'l12'];
const NUMBERS_KEY = 'qiju.renju.numbers';
const FORBIDDEN_KEY = 'qiju.renju.forbidden';

function setting(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === 'on';
  } catch {
    return fallback;
  }
}

function remember(key, on) {
  try {
    localStorage.setItem(key, on ? 'on' : 'off');
  } catch {
    /* not remembered */
  }
}

/** Screen x, y of a point (a1 at the bottom left). */
function xy(p) {
  return [MARGIN + rules.colOf(p) * CELL, MARGIN + (rules.SIZE - 1 - rules.rowOf(p)) * CELL];
}

export class RenjuBoard extends Board {
  /**
   * @param {object} opts as for `Board`, and `forbidden`: whether black has
   *   forbidden points (renju, not gomoku)
   */
  constructor(container, opts = {}) {
    super(container, { sides: ['black', 'white'], ...opts });
    this.t = opts.t || ((k) => k);
    this.hasForbidden = !!opts.forbidden;
    this.position = null;
    this.dests = null;
    this.onMove = null;
    this.last = null;
    this.premove = null;
    this.cursor = null;
    this.showNumbers = setting(NUMBERS_KEY, false);
    this.showForbidden = setting(FORBIDDEN_KEY, true);

    this.svg = el('svg', {
      viewBox: `0 0 ${WIDTH} ${WIDTH}`, class: 'rj-board', role: 'img', tabindex: '0',
      'aria-roledescription': this.t('board.renju.roledesc'),
    });
    this.title = el('title', {}, this.svg);
    this.drawGrid();
    this.marks = el('g', { class: 'rj-marks' }, this.svg);
    this.stones = el('g', { class: 'rj-stones' }, this.svg);
    this.over = el('g', { class: 'rj-over' }, this.svg);
    this.live = document.createElement('div');
    this.live.className = 'visually-hidden';
    this.live.setAttribute('aria-live', 'polite');

    const toggle = (id, label, on, change) => {
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = id;
      box.checked = on;
      box.addEventListener('change', () => change(box.checked));
      const l = document.createElement('label');
      l.className = 'row';
      l.htmlFor = id;
      l.append(box, this.t(label));
      return l;
    };
    this.controls = document.createElement('div');
    this.controls.className = 'rj-controls row';
    this.controls.append(toggle('rj-numbers', 'renju.numbers', this.showNumbers, (on) => {
      this.showNumbers = on;
      remember(NUMBERS_KEY, on);
      this.draw();
    }));
    if (this.hasForbidden) {
      this.controls.append(toggle('rj-forbidden', 'renju.forbiddenMarks', this.showForbidden, (on) => {
        this.showForbidden = on;
        remember(FORBIDDEN_KEY, on);
        this.draw();
      }));
    }
    this.dialog = document.createElement('div');
    this.dialog.className = 'rj-dialog';
    this.dialog.id = 'renju-choice';
    this.dialog.setAttribute('role', 'dialog');
    this.dialog.hidden = true;

    const box = document.createElement('div');
    box.className = 'rj-wrap';
    box.append(this.svg);
    // The dialog stands under the board, never over the stones it asks about.
    container.replaceChildren(box, this.dialog, this.controls, this.live);
    this.svg.addEventListener('click', (e) => this.click(e));
    this.svg.addEventListener('pointermove', (e) => this.hover(e));
    this.svg.addEventListener('pointerleave', () => this.hover(null));
    this.svg.addEventListener('keydown', (e) => this.keyDown(e));
  }

  drawGrid() {
    const g = el('g', { class: 'rj-grid' }, this.svg);
    el('rect', { x: 0, y: 0, width: WIDTH, height: WIDTH, class: 'rj-wood', rx: 6 }, g);
    for (let i = 0; i < rules.SIZE; i += 1) {
      const at = MARGIN + i * CELL;
      el('line', { x1: MARGIN, y1: at, x2: MARGIN + SPAN, y2: at, class: 'rj-line' }, g);
      el('line', { x1: at, y1: MARGIN, x2: at, y2: MARGIN + SPAN, class: 'rj-line' }, g);
      const letter = el('text', { x: at, y: WIDTH - 12, class: 'rj-coord', 'text-anchor': 'middle' }, g);
      letter.textContent = 'abcdefghijklmno'[i];
      const number = el('text', {
        x: 18, y: MARGIN + (rules.SIZE - 1 - i) * CELL, class: 'rj-coord', 'text-anchor': 'middle', 'dominant-baseline': 'central',
      }, g);
      number.textContent = String(i + 1);
    }
    el('rect', { x: MARGIN, y: MARGIN, width: SPAN, height: SPAN, class: 'rj-frame' }, g);
    for (const s of STARS) {
      const [x, y] = xy(rules.parsePoint(s));
      el('circle', { cx: x, cy: y, r: 5, class: 'rj-star' }, g);
    }
  }

  render(position) {
    this.position = position;
    this.draw();
  }

  /** The last stone: the position's own order, else the page's mark. */
  lastStone() {
    const order = this.position && this.position.order;
    if (order && order.length) return order[order.length - 1];
    return this.last;
  }

  draw() {
    const pos = this.position;
    if (!pos) return;
    this.stones.replaceChildren();
    this.marks.replaceChildren();
    const numbers = new Map();
    if (pos.order) pos.order.forEach((p, i) => numbers.set(p, i + 1));
    const last = this.lastStone();
    let blacks = 0;
    let whites = 0;
    pos.board.forEach((s, p) => {
      if (!s) return;
      if (s === 'x') blacks += 1;
      else whites += 1;
      const [x, y] = xy(p);
      const color = s === 'x' ? 'black' : 'white';
      const g = el('g', {
        class: `rj-stone rj-${color}`, 'data-point': rules.pointName(p), 'data-color': color,
      }, this.stones);
      el('circle', { cx: x, cy: y, r: CELL * 0.46, class: 'rj-disc' }, g);
      if (this.showNumbers && numbers.has(p)) {
        const n = el('text', {
          x, y, class: 'rj-number', 'text-anchor': 'middle', 'dominant-baseline': 'central',
        }, g);
        n.textContent = String(numbers.get(p));
      }
      if (p === last) {
        el('circle', { cx: x, cy: y, r: this.showNumbers ? CELL * 0.42 : 6, class: `rj-last${this.showNumbers ? ' ring' : ''}` }, g);
        g.classList.add('last');
      }
    });
    (pos.offers || []).forEach((p, i) => {
      const [x, y] = xy(p);
      const g = el('g', { class: 'rj-offer', 'data-point': rules.pointName(p) }, this.marks);
      el('circle', { cx: x, cy: y, r: CELL * 0.44, class: 'rj-offer-disc' }, g);
      const n = el('text', {
        x, y, class: 'rj-offer-text', 'text-anchor': 'middle', 'dominant-baseline': 'central',
      }, g);
      n.textContent = String(i + 1);
    });
    if (this.hasForbidden && this.showForbidden && pos.turn === 'black' && !(pos.offers || []).length) {
      for (const [p, kind] of rules.forbiddenPoints(pos.board)) {
        const [x, y] = xy(p);
        const g = el('g', { class: 'rj-forbidden', 'data-point': rules.pointName(p), 'data-kind': kind }, this.marks);
        const d = CELL * 0.22;
        el('path', { d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}`, class: 'rj-cross' }, g);
        const tip = el('title', {}, g);
        tip.textContent = this.t(`renju.forbidden.${kind}`);
      }
    }
    if (this.premove) {
      const p = rules.parsePoint(this.premove.to);
      if (p !== null) {
        const [x, y] = xy(p);
        el('circle', { cx: x, cy: y, r: CELL * 0.3, class: 'rj-premove' }, this.marks);
      }
    }
    if (this.cursor !== null && document.activeElement === this.svg) {
      const [x, y] = xy(this.cursor);
      el('rect', {
        x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: 'rj-cursor',
      }, this.marks);
    }
    this.title.textContent = this.t('board.renju.label', { black: blacks, white: whites });
    this.svg.setAttribute('aria-label', this.title.textContent);
  }

  setInteractive(dests, onMove) {
    this.dests = dests && Object.keys(dests).length ? dests : null;
    this.onMove = onMove;
    this.svg.classList.toggle('interactive', !!this.dests);
    this.hover(null);
    // Soosõrv's offers and pick are points with a word: say what a click
    // does now, in the dialog's place (no buttons).
    const step = this.dests && ['offer', 'select'].find((w) => this.dests[`${w}:`]);
    if (step) {
      const title = document.createElement('h2');
      title.id = 'renju-choice-title';
      title.textContent = this.t(`renju.prompt.${step}.title`);
      const help = document.createElement('p');
      help.textContent = this.t(`renju.prompt.${step}.help`);
      this.dialog.setAttribute('aria-labelledby', title.id);
      this.dialog.dataset.kind = 'prompt';
      this.dialog.replaceChildren(title, help);
      this.dialog.hidden = false;
    } else if (this.dialog.dataset.kind === 'prompt') {
      this.dialog.hidden = true;
      this.dialog.replaceChildren();
      delete this.dialog.dataset.kind;
    }
  }

  highlight(lastMove) {
    this.last = lastMove && lastMove.to ? rules.parsePoint(lastMove.to) : null;
    this.draw();
  }

  /** Stones have no orientation: a flip changes nothing. */
  flip(orientation) {
    super.flip(orientation);
  }

  setPremove(move) {
    this.premove = move;
    this.draw();
  }

  /** The origin (`''`, `offer:`, `select:`) under which `point` may be played now, or null. */
  originOf(name) {
    if (!this.dests) return null;
    for (const [origin, list] of Object.entries(this.dests)) {
      if (list.includes(name)) return origin;
    }
    return null;
  }

  pointAt(e) {
    const r = this.svg.getBoundingClientRect();
    const scale = WIDTH / r.width;
    const x = (e.clientX - r.left) * scale;
    const y = (e.clientY - r.top) * scale;
    const col = Math.round((x - MARGIN) / CELL);
    const row = rules.SIZE - 1 - Math.round((y - MARGIN) / CELL);
    return rules.pointAt(col, row);
  }

  play(p) {
    if (p === null || !this.onMove) return false;
    const name = rules.pointName(p);
    const origin = this.originOf(name);
    if (origin === null) return false;
    this.hover(null);
    this.live.textContent = this.t('renju.placed', { point: name });
    this.onMove(origin, name);
    return true;
  }

  click(e) {
    this.play(this.pointAt(e));
  }

  /** A shadow of the stone the player would place. */
  hover(e) {
    this.over.replaceChildren();
    if (!e || !this.dests || !this.position) return;
    const p = this.pointAt(e);
    if (p === null || this.originOf(rules.pointName(p)) === null) return;
    const [x, y] = xy(p);
    const color = this.position.turn;
    el('circle', { cx: x, cy: y, r: CELL * 0.46, class: `rj-ghost rj-${color}` }, this.over);
  }

  keyDown(e) {
    const moves = {
      ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1],
    };
    if (this.cursor === null) this.cursor = rules.CENTRE;
    if (moves[e.key]) {
      const [dc, dr] = moves[e.key];
      const next = rules.pointAt(rules.colOf(this.cursor) + dc, rules.rowOf(this.cursor) + dr);
      if (next !== null) this.cursor = next;
      this.live.textContent = rules.pointName(this.cursor);
      e.preventDefault();
      this.draw();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.play(this.cursor);
    }
  }

  /**
   * Asks the steps of an opening rule that are no point (`choose:black`,
   * `more`, `declare:3`) in a dialog under the board; none hides it.
   */
  setChoices(choices, onChoose) {
    const list = choices || [];
    if (!list.length || !onChoose) {
      this.dialog.hidden = true;
      this.dialog.replaceChildren();
      return true;
    }
    let kind = 'colour';
    if (list.includes('more')) kind = 'swap2';
    else if (list[0].startsWith('declare:')) kind = 'declare';
    else if (list.includes('foul')) kind = 'foul';
    const title = document.createElement('h2');
    title.id = 'renju-choice-title';
    title.textContent = this.t(`renju.choice.${kind}.title`);
    const help = document.createElement('p');
    help.textContent = this.t(`renju.choice.${kind}.help`);
    const buttons = document.createElement('div');
    buttons.className = kind === 'declare' ? 'rj-counts' : 'rj-options';
    for (const m of list) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.move = m;
      b.textContent = kind === 'declare' ? m.split(':')[1] : this.t(`renju.choice.${m.replace(':', '.')}`);
      if (kind === 'declare') b.setAttribute('aria-label', notation.choiceText(m));
      b.addEventListener('click', () => {
        this.dialog.hidden = true;
        onChoose(m);
      });
      buttons.append(b);
    }
    this.dialog.setAttribute('aria-labelledby', title.id);
    this.dialog.dataset.kind = kind;
    this.dialog.replaceChildren(title, help, buttons);
    this.dialog.hidden = false;
    return true;
  }

  destroy() {
    this.container.replaceChildren();
  }
}

for (const [family, forbidden] of [['gomoku', false], ['renju', true]]) {
  registerGame(family, {
    sides: ['black', 'white'],
    rules,
    notation,
    checkSquare: () => null,
    premoves: rules.premoves,
    isCapture: rules.isCapture,
    annotate: (pos, moves, initialFen) => rules.annotate(pos, moves, initialFen),
    // The colour to move is the position's; which side plays it is the
    // view's (`sides`), so a swap needs nothing here.
    turnWord: (turn) => turn,
    board: (container, opts) => new RenjuBoard(container, { ...opts, forbidden }),
  });
}
