// The game page: play or watch one game over its WebSocket.
//
// The server's view is the truth. `full` (sent on every connection, so a
// reload or a reconnect resumes the game) replaces it; `move`, `end`,
// `draw_offer`, `draw_declined`, `must_change` and `error` update it. A
// move the player makes is shown at once (`pending`) and sent with its
// ply number; the server's `move` event confirms it, an `error` takes it
// back, and after a reconnect an unconfirmed move is sent again (the
// server ignores a ply it already has).

import { api } from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { Socket } from '../socket.js';
import { Clock, tickClocks } from '../clock.js';
import { createBoard, gameFor } from '../boards/board.js';
import * as notation from '../notation.js';
import { mustChangeText, patternIn, reasonText, resultText } from '../result.js';
import { setSound, soundOn, sounds } from '../sound.js';

const PREMOVE_KEY = 'qiju.premove';
const other = (side) => (side === 'red' ? 'black' : 'red');

function premoveOn() {
  try {
    return localStorage.getItem(PREMOVE_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Digits of any kind (一, １, 1) as ASCII, for comparing typed moves. */
function normalizeMove(text) {
  const map = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
  return String(text).trim().toLowerCase()
    .replace(/[１-９]/g, (c) => String(c.charCodeAt(0) - 0xff10))
    .replace(/[一二三四五六七八九]/g, (c) => String(map[c]))
    .replace(/[．.]/g, '=')
    .replace(/[車俥]/g, '车').replace(/[馬傌]/g, '马').replace(/[砲包]/g, '炮')
    .replace(/進/g, '进').replace(/後/g, '后')
    .replace(/\s+/g, '');
}

export function mount(main, params, ctx) {
  const id = params.id;
  let view = null; // the server's GameView
  let you = null; // 'red' | 'black' | null (spectator)
  let pending = null; // { move, ply } sent, not yet confirmed
  let premove = null; // { from, to } queued while the opponent thinks
  let orientation = 'red';
  let rules = gameFor('xiangqi').rules;
  let board = null;
  let confirmResign = false;
  let ended = false;

  // --- layout ---------------------------------------------------------------
  const boardWrap = h('div', { class: 'board-wrap', id: 'board' });
  const bar = (pos) => {
    const name = h('span', { class: 'player-name' });
    const clockEl = h('div', {
      class: 'clock', role: 'timer', 'aria-live': 'off', dataset: { pos },
    }, h('span', { class: 'clock-time' }, '–:––'), h('span', { class: 'clock-info' }));
    return { el: h('div', { class: `player-bar seat-${pos}` }, name, clockEl), name, clockEl };
  };
  const topBar = bar('top');
  const bottomBar = bar('bottom');
  const status = h('p', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' }, t('game.connecting'));
  const notice = h('div', { class: 'notice', id: 'notice', hidden: true, role: 'alert' });
  const movesBox = h('div', { class: 'moves', id: 'moves', tabindex: '0', 'aria-label': t('game.moves') });
  const actions = h('div', { class: 'actions', id: 'actions', role: 'group', 'aria-label': t('game.actions') });
  const resultBox = h('div', { class: 'card', id: 'result', hidden: true, 'aria-live': 'polite' });
  const styleButtons = notation.STYLES.map((s) => h('button', {
    type: 'button', 'aria-pressed': String(notation.getStyle() === s), dataset: { style: s },
    'aria-label': `${t('game.notation')}: ${t(`game.notation.${s}`)}`,
    onclick: () => {
      notation.setStyle(s);
      for (const b of styleButtons) b.setAttribute('aria-pressed', String(b.dataset.style === s));
      drawMoves();
    },
  }, t(`game.notation.${s}`)));
  const moveInput = h('input', {
    id: 'move-input', autocomplete: 'off', placeholder: t('game.moveInputHint'), 'aria-label': t('game.moveInput'),
  });
  const moveForm = h('form', {
    class: 'move-form', id: 'move-form', hidden: true,
    onsubmit: (e) => {
      e.preventDefault();
      typedMove(moveInput.value);
    },
  }, moveInput, h('button', { type: 'submit', 'aria-label': t('game.play') }, t('game.play')));
  const soundBox = h('input', {
    type: 'checkbox', id: 'sound', checked: soundOn(), onchange: (e) => setSound(e.target.checked),
  });
  const premoveBox = h('input', {
    type: 'checkbox', id: 'premove', checked: premoveOn(),
    onchange: (e) => {
      try {
        localStorage.setItem(PREMOVE_KEY, e.target.checked ? 'on' : 'off');
      } catch {
        /* not remembered */
      }
      if (!e.target.checked) setPremove(null);
      refresh();
    },
  });
  const dialog = h('dialog', { class: 'end', id: 'end-dialog', 'aria-labelledby': 'end-title' });

  main.append(
    h('h1', { class: 'visually-hidden' }, t('game.title', { id })),
    h('div', { class: 'game' },
      h('div', { class: 'board-col' }, topBar.el, boardWrap, bottomBar.el),
      h('aside', { class: 'side-panel', 'aria-label': t('game.moves') },
        h('div', { class: 'card' }, status, notice, resultBox),
        h('div', { class: 'card' },
          h('div', { class: 'row', style: 'justify-content:space-between' },
            h('h2', {}, t('game.moves')),
            h('div', { class: 'notation-switch', role: 'group', 'aria-label': t('game.notation') }, styleButtons)),
          movesBox),
        h('div', { class: 'card' }, actions, moveForm,
          h('div', { class: 'row' },
            h('label', { for: 'sound', class: 'row' }, soundBox, t('game.sound')),
            h('label', { for: 'premove', class: 'row' }, premoveBox, t('game.premove')))))),
    dialog);

  const initialMs = () => (view ? view.initial_ms : 0);
  const clocks = {
    red: new Clock(bottomBar.clockEl, { onLow: sounds.lowTime }),
    black: new Clock(topBar.clockEl, { onLow: sounds.lowTime }),
  };
  const stopTick = tickClocks(Object.values(clocks));

  // --- derived state ----------------------------------------------------------
  function positions() {
    const list = [rules.parseFen(view.initial_fen)];
    for (const m of view.moves) list.push(rules.play(list[list.length - 1], m.move));
    return list;
  }

  function shownPosition() {
    const pos = rules.parseFen(view.fen);
    return pending ? rules.play(pos, pending.move) : pos;
  }

  const isComputer = (side) => !!(view && view[side] && view[side].computer);
  const live = () => view && view.state === 'live';

  // --- drawing --------------------------------------------------------------
  function drawBars() {
    const bottom = orientation;
    const top = other(bottom);
    for (const [b, side] of [[bottomBar, bottom], [topBar, top]]) {
      const p = view[side];
      const rating = p.rating ? h('span', { class: 'rating' }, `(${Math.round(p.rating)})`) : null;
      const nameEl = p.id
        ? h('a', { href: `/@/${p.name}`, 'data-link': '' }, p.name)
        : h('span', {}, p.name);
      b.name.replaceChildren(h('span', { class: `dot ${side}`, 'aria-hidden': 'true' }), nameEl, rating);
      b.name.setAttribute('aria-label', `${t(`side.${side}`)}: ${p.name}`);
      b.clockEl.setAttribute('aria-label', t('game.clock', { side: t(`side.${side}`) }));
      b.el.dataset.side = side;
    }
    // The clock objects follow their side's bar.
    clocks[bottom].el = bottomBar.clockEl;
    clocks[bottom].time = bottomBar.clockEl.querySelector('.clock-time');
    clocks[bottom].info = bottomBar.clockEl.querySelector('.clock-info');
    clocks[top].el = topBar.clockEl;
    clocks[top].time = topBar.clockEl.querySelector('.clock-time');
    clocks[top].info = topBar.clockEl.querySelector('.clock-info');
  }

  function setClocks(c, turn) {
    for (const side of ['red', 'black']) {
      clocks[side].initialMs = initialMs();
      const extra = c[side] && typeof c[side] === 'object' ? c[side] : null;
      clocks[side].set(c[`${side}_ms`], !!c.running && turn === side && live(), extra);
    }
  }

  function drawMoves() {
    const style = notation.getStyle();
    const pos = positions();
    const moves = view.moves.slice();
    if (pending) moves.push({ ply: pending.ply, move: pending.move, pending: true });
    if (!moves.length) {
      movesBox.replaceChildren(h('p', { class: 'muted' }, t('game.noMoves')));
      return;
    }
    const items = [];
    const startBlack = rules.parseFen(view.initial_fen).turn === 'black';
    const cells = startBlack ? [null, ...moves] : moves;
    for (let i = 0; i < cells.length; i += 2) {
      const cell = (m) => {
        if (!m) return h('span', { class: 'mv' }, '…');
        const before = pos[m.ply - 1] || (m.pending ? rules.parseFen(view.fen) : null);
        const text = notation.moveText(m, before, style);
        const current = m.ply === moves[moves.length - 1].ply;
        return h('span', {
          class: `mv${current ? ' current' : ''}`, dataset: { ply: m.ply, move: m.move },
        }, text);
      };
      items.push(h('li', {}, h('span', { class: 'no' }, `${i / 2 + 1}.`), cell(cells[i]), cell(cells[i + 1])));
    }
    movesBox.replaceChildren(h('ol', {}, items));
    movesBox.scrollTop = movesBox.scrollHeight;
  }

  function actionButton(label, onclick, attrs = {}) {
    return h('button', { type: 'button', 'aria-label': label, onclick, ...attrs }, label);
  }

  function send(msg) {
    if (!socket.send(msg)) showNotice(t('game.reconnecting'));
  }

  function drawActions() {
    const list = [];
    if (you && live()) {
      const myTurn = view.turn === you;
      if (view.ply < 2) list.push(actionButton(t('game.abort'), () => send({ t: 'abort' }), { id: 'abort' }));
      if (view.draw_offer === other(you)) {
        list.push(actionButton(t('game.acceptDraw'), () => send({ t: 'draw_accept' }), { id: 'draw-accept', class: 'primary' }));
        list.push(actionButton(t('game.declineDraw'), () => send({ t: 'draw_decline' }), { id: 'draw-decline' }));
      } else {
        list.push(actionButton(t('game.offerDraw'), () => send({ t: 'draw_offer' }), {
          id: 'draw-offer', disabled: myTurn || view.ply === 0 || view.draw_offer === you || isComputer(other(you)),
        }));
      }
      list.push(actionButton(t('game.claimDraw'), () => send({ t: 'claim_draw' }), { id: 'claim-draw', disabled: !myTurn }));
      if (confirmResign) {
        list.push(actionButton(t('game.confirmResign'), () => {
          confirmResign = false;
          send({ t: 'resign' });
        }, { id: 'resign-confirm', class: 'primary' }));
        list.push(actionButton(t('lobby.cancel'), () => {
          confirmResign = false;
          drawActions();
        }, { id: 'resign-cancel' }));
      } else {
        list.push(actionButton(t('game.resign'), () => {
          confirmResign = true;
          drawActions();
          document.getElementById('resign-confirm')?.focus();
        }, { id: 'resign' }));
      }
    }
    if (view && !live()) {
      if (you) list.push(actionButton(t('game.rematch'), rematch, { id: 'rematch', class: 'primary' }));
      list.push(h('a', { class: 'button', href: `/replay/${id}`, 'data-link': '', id: 'to-replay' }, t('game.replay')));
      list.push(h('a', { class: 'button', href: '/', 'data-link': '' }, t('game.newGame')));
    }
    list.push(actionButton(t('game.flip'), () => {
      orientation = other(orientation);
      board.flip(orientation);
      drawBars();
      setClocks(view.clocks, view.turn);
    }, { id: 'flip' }));
    actions.replaceChildren(...list);
    moveForm.hidden = !(you && live());
  }

  function drawStatus() {
    let text = '';
    if (!live()) text = '';
    else if (!you) text = t('game.spectating');
    else if (view.turn === you) text = t('game.yourTurn');
    else if (isComputer(view.turn)) text = t('game.computerThinking');
    else text = t('game.theirTurn');
    const pos = shownPosition();
    if (live() && rules.inCheck(pos.board, pos.turn)) text += ` · ${t('game.check')}`;
    status.textContent = text;
    status.hidden = !text;
    const notes = [];
    if (live() && view.draw_offer) {
      notes.push(view.draw_offer === you ? t('game.drawYouOffered') : t('game.drawOffered', { side: t(`side.${view.draw_offer}`) }));
    }
    if (live() && view.must_change) {
      notes.push(mustChangeText(view.must_change, view.must_change_reason, view.must_change_article));
    }
    if (notes.length) showNotice(notes.join(' '));
    else if (!notice.dataset.sticky) notice.hidden = true;
  }

  function showNotice(text, sticky = false) {
    notice.textContent = text;
    notice.hidden = false;
    if (sticky) notice.dataset.sticky = '1';
    else delete notice.dataset.sticky;
  }

  function drawResult() {
    if (live()) {
      resultBox.hidden = true;
      return;
    }
    resultBox.hidden = false;
    resultBox.replaceChildren(
      h('h2', { id: 'result-title' }, resultText(view)),
      h('p', { class: 'ruling' }, reasonText(view)),
      view.detail ? h('p', { class: 'muted' }, view.detail) : null);
  }

  function showEndDialog(ratings) {
    const rows = [];
    for (const side of ['red', 'black']) {
      const r = ratings && ratings[side];
      if (r) rows.push(h('li', {}, `${view[side].name}: ${r.before} → ${r.after} (${r.after - r.before >= 0 ? '+' : ''}${r.after - r.before})`));
    }
    dialog.replaceChildren(
      h('h2', { id: 'end-title' }, resultText(view)),
      h('p', { class: 'ruling', id: 'end-reason' }, reasonText(view)),
      view.detail ? h('p', { class: 'muted' }, view.detail) : null,
      rows.length ? h('ul', {}, rows) : null,
      h('div', { class: 'row' },
        you ? actionButton(t('game.rematch'), () => {
          dialog.close();
          rematch();
        }, { class: 'primary', id: 'dialog-rematch' }) : null,
        h('a', { class: 'button', href: `/replay/${id}`, 'data-link': '', onclick: () => dialog.close() }, t('game.replay')),
        actionButton(t('game.close'), () => dialog.close(), { id: 'end-close', autofocus: true })));
    if (!dialog.open) dialog.showModal();
  }

  function setPremove(p) {
    premove = p;
    board.setPremove(p);
  }

  function refresh() {
    if (!view || !board) return;
    const pos = shownPosition();
    board.render(pos);
    const last = pending ? pending.move : view.moves.length ? view.moves[view.moves.length - 1].move : null;
    const inCheck = rules.inCheck(pos.board, pos.turn);
    const ks = rules.kingSquare(pos.board, pos.turn);
    board.highlight(last ? { from: last.slice(0, 2), to: last.slice(2, 4) } : null,
      inCheck && ks >= 0 ? rules.squareName(ks) : null);
    if (you && live() && !pending && pos.turn === you) {
      board.setInteractive(rules.destsBySquare(rules.legalMoves(pos)), onBoardMove);
    } else if (you && live() && premoveBox.checked) {
      // Premove: any move the piece could make by its movement alone.
      const dests = {};
      pos.board.forEach((p, sq) => {
        if (p && rules.colorOf(p) === you) {
          const targets = rules.pseudoTargets(pos.board, sq).map(rules.squareName);
          if (targets.length) dests[rules.squareName(sq)] = targets;
        }
      });
      board.setInteractive(dests, (from, to) => setPremove({ from, to }));
    } else {
      board.setInteractive(null, null);
    }
    drawMoves();
    drawActions();
    drawStatus();
    drawResult();
  }

  // --- acting -------------------------------------------------------------------
  function sendMove(move) {
    pending = { move, ply: view.ply + 1 };
    const pos = rules.parseFen(view.fen);
    const mv = rules.parseMove(move);
    (pos.board[mv[1]] ? sounds.capture : sounds.move)();
    send({ t: 'move', move, ply: pending.ply });
    refresh();
  }

  function onBoardMove(from, to) {
    sendMove(from + to);
  }

  function typedMove(text) {
    if (!(you && live()) || pending) return;
    const pos = rules.parseFen(view.fen);
    const legal = rules.legalMoves(pos);
    const want = normalizeMove(text);
    const found = legal.find((m) => m === want
      || normalizeMove(notation.formatMove(pos, m, 'chinese')) === want
      || normalizeMove(notation.formatMove(pos, m, 'wxf')) === want);
    if (found && pos.turn === you) {
      moveInput.value = '';
      sendMove(found);
    } else {
      showNotice(t('game.badMove', { move: text }));
    }
  }

  async function rematch() {
    const opp = other(you);
    const p = view[opp];
    try {
      if (p.computer && p.computer.startsWith('level:')) {
        const r = await api.playComputer({ level: Number(p.computer.slice(6)), time: view.time_control, color: opp, variant: view.variant });
        ctx.navigate(`/game/${r.game}`);
      } else {
        await api.challenge({ to: p.name, time: view.time_control, rated: view.rated, variant: view.variant, color: opp });
        showNotice(t('game.rematchSent', { name: p.name }), true);
      }
    } catch (e) {
      showNotice(t('error.generic', { message: e.message }), true);
    }
  }

  // --- messages -------------------------------------------------------------------
  function onFull(msg) {
    const first = !view;
    view = msg.game;
    you = msg.you || null;
    const spec = gameFor(view.variant);
    if (!spec) {
      status.textContent = t('error.generic', { message: `no board for ${view.variant}` });
      return;
    }
    rules = spec.rules;
    if (pending && view.ply >= pending.ply) pending = null;
    if (first) {
      orientation = you || 'red';
      board = createBoard(view.variant, boardWrap, { orientation, t });
    }
    drawBars();
    setClocks(view.clocks, view.turn);
    refresh();
    if (pending) send({ t: 'move', move: pending.move, ply: pending.ply });
    if (!live()) {
      ended = true;
      socket.stop();
    }
  }

  function onMoveEvent(msg) {
    if (msg.ply <= view.ply) return; // already have it
    if (msg.ply !== view.ply + 1) {
      socket.ws?.close(); // missed something: reconnect for a fresh `full`
      return;
    }
    const before = rules.parseFen(view.fen);
    const mover = before.turn;
    const mv = rules.parseMove(msg.move);
    const mine = pending && pending.ply === msg.ply;
    view.moves.push({ ply: msg.ply, move: msg.move, display: msg.display, wxf: msg.wxf, red_ms: msg.clocks?.red_ms, black_ms: msg.clocks?.black_ms });
    view.ply = msg.ply;
    view.fen = msg.fen;
    view.turn = msg.turn;
    if (msg.clocks) view.clocks = msg.clocks;
    if (view.draw_offer && view.draw_offer !== mover) view.draw_offer = null; // refused by moving (23.1)
    view.must_change = null;
    if (mine) pending = null;
    else if (mv) (before.board[mv[1]] ? sounds.capture : sounds.move)();
    confirmResign = false;
    setClocks(view.clocks, view.turn);
    const pos = rules.parseFen(view.fen);
    if (rules.inCheck(pos.board, pos.turn)) sounds.check();
    if (premove && pos.turn === you) {
      const m = premove.from + premove.to;
      setPremove(null);
      if (rules.legalMoves(pos).includes(m)) {
        sendMove(m);
        return;
      }
    }
    refresh();
  }

  function onEnd(msg) {
    view.state = msg.state;
    view.result = msg.result;
    view.winner = msg.winner;
    view.reason = msg.reason;
    view.detail = msg.detail;
    view.article = msg.article;
    view.draw_offer = null;
    if (msg.clocks) view.clocks = msg.clocks;
    pending = null;
    setPremove(null);
    setClocks(view.clocks, view.turn);
    refresh();
    sounds.end();
    if (!ended) showEndDialog(msg.ratings);
    ended = true;
  }

  function onMessage(msg) {
    switch (msg.t) {
      case 'full':
        onFull(msg);
        break;
      case 'move':
        if (view) onMoveEvent(msg);
        break;
      case 'end':
        if (view) onEnd(msg);
        break;
      case 'draw_offer':
        if (view) {
          view.draw_offer = msg.by;
          refresh();
        }
        break;
      case 'draw_declined':
        if (view) {
          view.draw_offer = null;
          refresh();
          if (msg.by !== you) showNotice(t('game.drawDeclined', { side: t(`side.${msg.by}`) }), true);
        }
        break;
      case 'must_change':
        if (view) {
          view.must_change = msg.side;
          view.must_change_reason = patternIn(msg.detail);
          view.must_change_article = msg.article;
          refresh();
        }
        break;
      case 'foul':
        if (view) {
          const article = msg.article ? t('article.suffix', { n: msg.article }) : '';
          showNotice(t('game.foul', { side: t(`side.${msg.side}`), count: msg.count, detail: msg.detail || msg.kind, article }), true);
        }
        break;
      case 'time_penalty':
      case 'time_given':
        if (view) {
          if (msg.clocks) view.clocks = msg.clocks;
          setClocks(view.clocks, view.turn);
          const key = msg.t === 'time_penalty' ? 'game.timePenalty' : 'game.timeGiven';
          showNotice(t(key, { side: t(`side.${msg.side}`), s: Math.round(msg.ms / 1000) }), true);
        }
        break;
      case 'clock':
        // The clocks were paused or resumed (e.g. across a server restart).
        if (view) {
          view.clocks = { ...view.clocks, red_ms: msg.red_ms, black_ms: msg.black_ms, running: msg.running };
          setClocks(view.clocks, view.turn);
        }
        break;
      case 'error':
        if (pending) pending = null;
        showNotice(msg.message || msg.code, true);
        refresh();
        break;
      default:
        break; // pong and messages this page does not use
    }
  }

  const socket = new Socket(`/api/games/${encodeURIComponent(id)}/ws`, {
    onMessage,
    onStatus: async (s) => {
      if (s !== 'closed' || ended) return;
      status.textContent = t('game.reconnecting');
      if (!view) {
        // Never connected: is there such a game at all?
        try {
          await api.game(id);
        } catch (e) {
          if (e.status === 404) {
            socket.stop();
            status.textContent = t('game.notFound');
          }
        }
      }
    },
  });

  return () => {
    socket.stop();
    stopTick();
    if (dialog.open) dialog.close();
    if (board) board.destroy();
  };
}
