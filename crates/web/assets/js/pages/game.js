// The game page: play or watch one game over its WebSocket.
//
// The server's view is the truth. `full` (sent on every connection, and in
// answer to `resync`, so a reload or a reconnect resumes the game)
// replaces it; versioned events (`move`, `end`, `draw_offer`, … each with
// `v` = 1, 2, 3 …) update it. An event at or below the last version is a
// duplicate and is dropped; one past a gap makes the page ask for a fresh
// `full` (`resync`) instead of drawing a game it only half knows.
//
// Sides are `first` and `second`; the variant's words for them
// (`view.sides`: red/black, white/black) are only for display, and the
// board, its rules and its notation come from the variant's family
// (`createBoard(view.variant, …)`), so this page names no game. What may
// be played is the server's `legal` list; a move the player makes is
// shown at once (`pending`) and sent with its ply number; the `move`
// event confirms it, an `error` takes it back, and after a reconnect an
// unconfirmed move is sent again (the server ignores a ply it has). With
// move confirmation on (settings.js), a move made on the board is first
// only shown (`proposed`) and goes when the player taps ✓.

import { api } from '../api.js';
import { chatLine } from '../chat.js';
import { fill, h } from '../dom.js';
import { errorText, shownName, t } from '../i18n.js';
import { Socket } from '../socket.js';
import { Clock, tickClocks } from '../clock.js';
import {
  choicesOf, createBoard, destsOf, gameFor, gamePositions, moveRows, secondToMove, splitMove,
} from '../boards/board.js';
import {
  clockText, colorOf, detailLine, foulText, mustChangeText, otherSide, patternIn, personalResult, reasonText, resultText, sideName,
} from '../result.js';
import { sounds } from '../sound.js';
import { exportTools, recordLinks } from '../export.js';
import { confirmMoves } from '../settings.js';
import { findVariant, loadVariants, variantLabel } from '../variants.js';

const PREMOVE_KEY = 'qiju.premove';
const SIDES = ['first', 'second'];
/** How long a passing notice (a declined draw offer) stays. */
const NOTICE_MS = 5000;

function premoveOn() {
  try {
    return localStorage.getItem(PREMOVE_KEY) === 'on';
  } catch {
    return false;
  }
}

/** A player's name; the built-in computer's in the reader's language. */
function playerName(p) {
  const level = p.computer && p.computer.startsWith('level:') ? p.computer.slice(6) : null;
  return level ? t('game.computerLevel', { n: level }) : shownName(p.name);
}

/** The page for a game id the server does not know: no board, no socket. */
function notFound(main, id) {
  main.append(h('section', { class: 'card not-found', id: 'game-not-found', 'aria-labelledby': 'not-found-title' },
    h('h1', { id: 'not-found-title' }, t('game.notFoundTitle')),
    h('p', {}, t('game.notFoundText', { id })),
    h('div', { class: 'row' },
      h('a', { class: 'button primary', href: '/', 'data-link': '' }, t('game.toLobby')),
      h('a', { class: 'button', href: '/tv', 'data-link': '' }, t('lobby.tv')))));
}

export async function mount(main, params, ctx) {
  const id = params.id;
  // Ask first whether there is such a game: an unknown id gets a page that
  // says so, and no WebSocket is opened for it.
  try {
    await api.game(id);
  } catch (e) {
    if (e.status === 404) {
      notFound(main, id);
      return null;
    }
    // Anything else (the network): the socket below keeps trying.
  }
  let view = null; // the server's GameView
  let lastV = 0; // version of the last game event applied
  let resyncing = false; // a `resync` is out, waiting for its `full`
  let you = null; // 'first' | 'second' | null (spectator)
  let pending = null; // { move, ply } sent, not yet confirmed
  let proposed = null; // { move } made on the board, waiting for the player's ✓
  let premove = null; // { from, to, promotion } queued while the opponent thinks
  let bottom = 'first'; // the side shown at the bottom
  let spec = null; // the family's board, rules and notation
  let board = null;
  let confirmResign = false;
  let ended = false;
  let away = null; // { side, at }: a player who left, and when the opponent may claim
  const tv = new URLSearchParams(location.search).has('tv'); // watching as TV (pages/tv.js)
  let tvTimer = null;
  let awayTimer = null; // redraws the countdown each second while someone is away

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
  // What a move made that the rules ask a player to announce (renju's
  // office rule: an open three, a four), shown for a few seconds.
  const announceBox = h('div', { class: 'notice announce', id: 'announce', hidden: true, role: 'status', 'aria-live': 'polite' });
  let announceTimer = null;
  const gameInfo = h('p', { class: 'muted', id: 'game-info' });
  const movesBox = h('div', { class: 'moves', id: 'moves', tabindex: '0', 'aria-label': t('game.moves') });
  const actions = h('div', { class: 'actions', id: 'actions', role: 'group', 'aria-label': t('game.actions') });
  const choiceBox = h('div', {
    class: 'actions', id: 'choices', role: 'group', 'aria-label': t('game.choices'), hidden: true,
  });
  const choiceLabel = (m) => (spec.notation.choiceText ? spec.notation.choiceText(m) : m);
  const resultBox = h('div', { class: 'card', id: 'result', hidden: true, 'aria-live': 'polite' });
  const styleSwitch = h('div', { class: 'notation-switch', role: 'group', 'aria-label': t('game.notation') });
  const moveInput = h('input', {
    id: 'move-input', autocomplete: 'off', 'aria-label': t('game.moveInput'),
  });
  const moveForm = h('form', {
    class: 'move-form', id: 'move-form', hidden: true,
    onsubmit: (e) => {
      e.preventDefault();
      typedMove(moveInput.value);
    },
  }, moveInput, h('button', { type: 'submit', 'aria-label': t('game.play') }, t('game.play')));
  const confirmText = h('span', { id: 'confirm-text' });
  const confirmBox = h('div', { class: 'confirm-move', id: 'confirm-move', hidden: true, role: 'group', 'aria-label': t('game.confirmYes') },
    confirmText,
    h('button', {
      type: 'button', class: 'yes', id: 'confirm-yes', 'aria-label': t('game.confirmYes'),
      onclick: () => {
        const m = proposed && proposed.move;
        proposed = null;
        if (m) sendMove(m);
      },
    }, '✓'),
    h('button', {
      type: 'button', class: 'no', id: 'confirm-no', 'aria-label': t('game.confirmNo'),
      onclick: () => {
        proposed = null;
        refresh();
      },
    }, '✗'));
  const records = h('div', { class: 'export-tools', id: 'records', hidden: true });
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
  // Chat: players talk to each other, spectators among themselves; the
  // server keeps the rooms apart (ServerMsg::Chat).
  const chatTitle = h('h2', { id: 'chat-title' }, t('chat.title'));
  const chatLog = h('ul', { class: 'chat-log', id: 'chat-log', 'aria-live': 'polite' });
  const chatInput = h('input', { id: 'chat-input', maxlength: 200, autocomplete: 'off', 'aria-label': t('chat.say') });
  const chatForm = h('form', {
    class: 'move-form', id: 'chat-form',
    onsubmit: (e) => {
      e.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      send({ t: 'chat', text });
      chatInput.value = '';
    },
  }, chatInput, h('button', { type: 'submit', 'aria-label': t('chat.send') }, t('chat.send')));
  const chatCard = h('div', { class: 'card', 'aria-labelledby': 'chat-title' }, chatTitle, chatLog, chatForm);
  function addChat(msg) {
    chatLog.append(chatLine(msg, ctx, id));
    while (chatLog.children.length > 100) chatLog.firstChild.remove();
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  const dialog = h('dialog', {
    class: 'end', id: 'end-dialog', 'aria-labelledby': 'end-title',
    onkeydown: (e) => {
      if (e.key === 'Escape') dialog.close();
    },
  });

  main.append(
    h('h1', { class: 'visually-hidden' }, t('game.title', { id })),
    h('div', { class: 'game' },
      // The ✓/✗ float over the board's middle (Xiangqi's river), so that
      // asking moves nothing: the clocks stay where they were.
      h('div', { class: 'board-col' }, topBar.el, h('div', { class: 'board-stack' }, boardWrap, confirmBox), bottomBar.el),
      h('aside', { class: 'side-panel', 'aria-label': t('game.moves') },
        h('div', { class: 'card' }, gameInfo, status, notice, announceBox, choiceBox, resultBox),
        h('div', { class: 'card' },
          h('div', { class: 'row', style: 'justify-content:space-between' },
            h('h2', {}, t('game.moves')),
            styleSwitch),
          movesBox),
        h('div', { class: 'card' }, actions, moveForm,
          h('div', { class: 'row' },
            h('label', { for: 'premove', class: 'row' }, premoveBox, t('game.premove'))),
          exportTools({
            id,
            fen: () => {
              if (!view) throw new Error(t('game.connecting'));
              return view.fen;
            },
            ply: () => (view ? view.ply : 0),
            board: () => boardWrap,
          }),
          records),
        chatCard)),
    dialog);

  const initialMs = () => (view ? view.initial_ms : 0);
  const clocks = {
    first: new Clock(bottomBar.clockEl, { onLow: sounds.lowTime }),
    second: new Clock(topBar.clockEl, { onLow: sounds.lowTime }),
  };
  const stopTick = tickClocks(Object.values(clocks));

  // --- derived state ----------------------------------------------------------
  const rules = () => spec.rules;

  function positions() {
    return gamePositions(spec, view.initial_fen, view.moves, view.fen);
  }

  function shownPosition() {
    let pos = rules().parseFen(view.fen);
    if (spec.annotate) pos = spec.annotate(pos, view.moves, view.initial_fen);
    const shown = pending || proposed;
    return shown ? rules().play(pos, shown.move) : pos;
  }

  /** The last move as the server sent it (or the pending or proposed one). */
  function lastMove() {
    const shown = pending || proposed;
    if (shown) return { move: shown.move };
    return view.moves.length ? view.moves[view.moves.length - 1] : null;
  }

  // An aborted game, or one without a move, has nothing to replay or download.
  const hasRecord = () => view && view.state !== 'aborted' && view.moves.length > 0;
  const isComputer = (side) => !!(view && view[side] && view[side].computer);
  const live = () => view && view.state === 'live';

  // --- drawing --------------------------------------------------------------
  function drawBars() {
    const top = otherSide(bottom);
    for (const [b, side] of [[bottomBar, bottom], [topBar, top]]) {
      const p = view[side];
      const color = colorOf(view, side);
      const rating = p.rating ? h('span', { class: 'rating' }, `(${Math.round(p.rating)})`) : null;
      const nameEl = p.id
        ? h('a', { href: `/@/${p.name}`, 'data-link': '' }, shownName(p.name))
        : h('span', {}, playerName(p));
      fill(b.name, h('span', { class: `dot ${color}`, 'aria-hidden': 'true' }), nameEl, rating);
      b.name.setAttribute('aria-label', `${sideName(view, side)}: ${playerName(p)}`);
      b.clockEl.setAttribute('aria-label', t('game.clock', { side: sideName(view, side) }));
      b.el.dataset.side = side;
      b.el.dataset.color = color;
    }
    // The clock objects follow their side's bar.
    for (const [side, b] of [[bottom, bottomBar], [top, topBar]]) {
      clocks[side].el = b.clockEl;
      clocks[side].time = b.clockEl.querySelector('.clock-time');
      clocks[side].info = b.clockEl.querySelector('.clock-info');
    }
  }

  /** What is being played: the game and its rules, the clock, rated or not. */
  async function drawInfo() {
    const variants = await loadVariants();
    const v = findVariant(variants, view.variant);
    const clock = clockText(view.time_control);
    gameInfo.textContent = [v ? variantLabel(variants, v) : view.variant, clock,
      view.rated ? t('lobby.rated') : t('lobby.casual'),
      view.rules_profile === 'arbiter' ? t('lobby.profile.arbiter') : null].filter(Boolean).join(' · ');
  }

  function setClocks(c, turn) {
    for (const side of SIDES) {
      clocks[side].initialMs = initialMs();
      const extra = c[side] && typeof c[side] === 'object' ? c[side] : null;
      clocks[side].set(c[`${side}_ms`], !!c.running && turn === side && live(), extra);
    }
  }

  function drawStyleSwitch() {
    const notation = spec.notation;
    const buttons = notation.STYLES.map((s) => h('button', {
      type: 'button', 'aria-pressed': String(notation.getStyle() === s), dataset: { style: s },
      'aria-label': `${t('game.notation')}: ${t(`game.notation.${s}`)}`,
      onclick: () => {
        notation.setStyle(s);
        for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.style === s));
        drawMoves();
        drawHint();
      },
    }, t(`game.notation.${s}`)));
    styleSwitch.replaceChildren(...buttons);
    drawHint();
  }

  /** The typed-move hint, in the notation the moves are shown in first. */
  function drawHint() {
    const notation = spec.notation;
    const examples = notation.examplesFor ? notation.examplesFor(notation.getStyle()) : notation.EXAMPLES;
    moveInput.placeholder = t('game.moveInputHint', { examples: examples.join(' · ') });
  }

  function drawMoves() {
    const style = spec.notation.getStyle();
    const pos = positions();
    const moves = view.moves.slice();
    if (pending) moves.push({ ply: pending.ply, move: pending.move, side: you, pending: true });
    if (!moves.length) {
      movesBox.replaceChildren(h('p', { class: 'muted' }, t('game.noMoves')));
      return;
    }
    const items = [];
    const startSecond = secondToMove(spec, pos[0], view.sides);
    const rows = moveRows(moves, startSecond);
    rows.forEach(([a, b], i) => {
      const cell = (m) => {
        if (!m) return h('span', { class: 'mv' }, '…');
        const before = pos[m.ply - 1] || (m.pending ? rules().parseFen(view.fen) : null);
        const text = spec.notation.moveText(m, before, style);
        const current = m.ply === moves[moves.length - 1].ply;
        return h('span', {
          class: `mv${current ? ' current' : ''}`, dataset: { ply: m.ply, move: m.move },
        }, text);
      };
      items.push(h('li', {}, h('span', { class: 'no' }, `${i + 1}.`), cell(a), cell(b)));
    });
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
      const them = otherSide(you);
      if (view.ply < 2) list.push(actionButton(t('game.abort'), () => send({ t: 'abort' }), { id: 'abort' }));
      if (view.draw_offer === them) {
        list.push(actionButton(t('game.acceptDraw'), () => send({ t: 'draw_accept' }), { id: 'draw-accept', class: 'primary' }));
        list.push(actionButton(t('game.declineDraw'), () => send({ t: 'draw_decline' }), { id: 'draw-decline' }));
      } else {
        // Offers alternate (23.1): after a refusal, not again until the
        // opponent has offered — online the button says so instead of
        // letting a player into a foul (9.1.3).
        const refused = view.offer_refused === you;
        list.push(actionButton(t('game.offerDraw'), () => send({ t: 'draw_offer' }), {
          id: 'draw-offer',
          disabled: myTurn || view.ply === 0 || view.draw_offer === you || isComputer(them) || (online() && refused),
          title: online() && refused ? t('game.offerAfterRefusal') : null,
        }));
      }
      // Online a claim is offered only when it holds (a false claim would
      // be a foul and 5 minutes over the board, 9.1.4, 23.3), in the
      // words of what it claims (a draw, or a count or declaration that
      // may win or lose: the claim's reason says which).
      if (!online() || (myTurn && view.claimable)) {
        const claimKey = `claim.${view.claim}`;
        const claimLabel = view.claim && t(claimKey) !== claimKey ? t(claimKey) : t('game.claimDraw');
        list.push(actionButton(claimLabel, () => send({ t: 'claim_draw' }), {
          id: 'claim-draw', disabled: !myTurn, class: online() ? 'primary' : null,
        }));
      }
      // Takebacks (悔棋): casual games only — the server says which.
      if (view.takebacks && view.takeback_offer === them) {
        list.push(actionButton(t('game.acceptTakeback'), () => send({ t: 'takeback_accept' }), { id: 'takeback-accept', class: 'primary' }));
        list.push(actionButton(t('game.declineTakeback'), () => send({ t: 'takeback_decline' }), { id: 'takeback-decline' }));
      } else if (view.takebacks) {
        const moved = view.moves.some((m) => m.side === you);
        list.push(actionButton(t('game.takeback'), () => send({ t: 'takeback_offer' }), {
          id: 'takeback', disabled: !moved || view.takeback_offer === you,
        }));
      }
      if (away && away.side === them) {
        list.push(actionButton(t('game.claimVictory'), () => send({ t: 'claim_victory' }), {
          id: 'claim-victory', class: 'primary', disabled: claimIn() > 0,
        }));
      }
      if (confirmResign) {
        list.push(actionButton(t('game.confirmResign'), () => {
          // Once: the button goes at once, so a double click resigns once.
          if (!confirmResign) return;
          confirmResign = false;
          send({ t: 'resign' });
          drawActions();
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
      if (hasRecord()) list.push(h('a', { class: 'button', href: `/replay/${id}`, 'data-link': '', id: 'to-replay' }, t('game.replay')));
      list.push(h('a', { class: 'button', href: '/', 'data-link': '' }, t('game.newGame')));
    }
    list.push(actionButton(t('game.flip'), () => {
      bottom = otherSide(bottom);
      board.flip(colorOf(view, bottom));
      drawBars();
      setClocks(view.clocks, view.turn);
    }, { id: 'flip' }));
    actions.replaceChildren(...list);
    moveForm.hidden = !(you && live());
  }

  // --- a player who left -----------------------------------------------------------
  const online = () => view.rules_profile !== 'arbiter';
  const claimIn = () => (away ? Math.max(0, Math.ceil((away.at - Date.now()) / 1000)) : 0);

  function setAway(a) {
    away = a && live() ? { side: a.side, at: Date.now() + (a.claim_in_ms || 0) } : null;
    if (away && !awayTimer) {
      awayTimer = setInterval(() => {
        drawStatus(false);
        drawActions();
        if (!away || claimIn() === 0) {
          clearInterval(awayTimer);
          awayTimer = null;
        }
      }, 1000);
    }
    if (!away && awayTimer) {
      clearInterval(awayTimer);
      awayTimer = null;
    }
    refresh();
  }

  function drawStatus(check) {
    let text = '';
    if (!live()) text = '';
    else if (!you) text = t('game.spectating');
    else if (view.turn === you) text = t('game.yourTurn');
    else if (isComputer(view.turn)) text = t('game.computerThinking');
    else text = t('game.theirTurn');
    if (live() && check) text += ` · ${t('game.check')}`;
    status.textContent = text;
    status.hidden = !text;
    const notes = [];
    if (live() && away) {
      const side = sideName(view, away.side);
      if (!you || away.side === you) notes.push(t('game.playerLeftWatch', { side }));
      else if (claimIn() > 0) notes.push(t('game.playerLeft', { side, s: claimIn() }));
      else notes.push(t('game.playerLeftClaim', { side }));
    }
    if (live() && view.draw_offer) {
      notes.push(view.draw_offer === you ? t('game.drawYouOffered') : t('game.drawOffered', { side: sideName(view, view.draw_offer) }));
    }
    if (live() && view.takeback_offer) {
      notes.push(view.takeback_offer === you ? t('game.takebackYouAsked') : t('game.takebackOffered', { side: sideName(view, view.takeback_offer) }));
    }
    if (live() && view.must_change) {
      notes.push(mustChangeText(view, view.must_change, view.must_change_reason, view.must_change_article));
    }
    if (notes.length) showNotice(notes.join(' '));
    else if (!notice.dataset.sticky) notice.hidden = true;
  }

  let noticeTimer = null;
  /** A notice that goes by itself after `ms`, unless replaced first. */
  function flashNotice(text, ms = NOTICE_MS) {
    showNotice(text);
    noticeTimer = setTimeout(() => {
      noticeTimer = null;
      if (notice.textContent === text && !notice.dataset.sticky) notice.hidden = true;
    }, ms);
  }

  /** `words`: the move event's `announce` (`four`, `open_three`), each
   * said once, fours first as the server sends them. */
  function showAnnouncement(side, words) {
    if (!words || !words.length) return;
    const what = [...new Set(words)].map((w) => t(`announce.${w}`)).join(t('announce.and'));
    announceBox.textContent = t('game.announce', { side: sideName(view, side), what });
    announceBox.hidden = false;
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => { announceBox.hidden = true; }, 4000);
  }

  function showNotice(text, sticky = false) {
    if (noticeTimer) {
      clearTimeout(noticeTimer);
      noticeTimer = null;
    }
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
    fill(resultBox,
      h('h2', { id: 'result-title' }, resultText(view)),
      h('p', { class: 'ruling' }, reasonText(view)),
      detailLine(view));
  }

  function showEndDialog(ratings) {
    const rows = [];
    for (const side of SIDES) {
      const r = ratings && ratings[side];
      if (r) {
        const before = Math.round(r.before);
        const after = Math.round(r.after);
        rows.push(h('li', {}, `${view[side].name}: ${before} → ${after} (${after - before >= 0 ? '+' : ''}${after - before})`));
      }
    }
    // A player reads first what the game means to them, then the result
    // in the sides' words and the ruling.
    const mine = personalResult(view, you);
    dialog.setAttribute('aria-labelledby', mine ? 'end-you end-title' : 'end-title');
    fill(dialog,
      mine ? h('h2', { id: 'end-you' }, mine) : null,
      h(mine ? 'p' : 'h2', { id: 'end-title', class: mine ? 'end-result' : null }, resultText(view)),
      h('p', { class: 'ruling', id: 'end-reason' }, reasonText(view)),
      detailLine(view),
      rows.length ? h('ul', {}, rows) : null,
      h('div', { class: 'row' },
        you ? actionButton(t('game.rematch'), () => {
          dialog.close();
          rematch();
        }, { class: 'primary', id: 'dialog-rematch' }) : null,
        hasRecord() ? h('a', { class: 'button', href: `/replay/${id}`, 'data-link': '', onclick: () => dialog.close() }, t('game.replay')) : null,
        actionButton(t('game.close'), () => dialog.close(), { id: 'end-close', autofocus: true })));
    // Not modal (defect: it blocked a rematch toast until closed); Escape
    // still closes it.
    if (!dialog.open) dialog.show();
    dialog.querySelector('#end-close')?.focus();
  }

  function setPremove(p) {
    premove = p;
    if (board) board.setPremove(p);
  }

  function refresh() {
    if (!view || !board) return;
    // A proposed move the game has moved past (a reconnect, the end) goes.
    if (proposed && !(you && live() && !pending && view.turn === you && view.legal.includes(proposed.move))) proposed = null;
    drawConfirm();
    const pos = shownPosition();
    board.render(pos);
    const last = lastMove();
    const [from, to] = last ? splitMove(last.move) : [null, null];
    const check = spec.checkSquare(pos, last);
    board.highlight(to ? { from, to } : null, check);
    const myTurn = you && live() && !pending && !proposed && view.turn === you;
    // Moves with no square (an opening rule's choices): the board's
    // dialog, or buttons here.
    const choices = myTurn ? choicesOf(view.legal) : [];
    const asked = board.setChoices(choices, sendMove);
    fill(choiceBox, ...(asked ? [] : choices.map((m) => actionButton(choiceLabel(m), () => sendMove(m), {
      class: 'primary', dataset: { move: m },
    }))));
    choiceBox.hidden = asked || !choices.length;
    if (myTurn) {
      board.setInteractive(destsOf(view.legal), onBoardMove);
    } else if (you && live() && premoveBox.checked) {
      // Premove: any move a piece could make by its movement alone; the
      // server's legal list decides when it is the player's turn. Where the
      // browser has no rules of the game (a variant defined as data), the
      // server sends them: `premoves`, the side not to move's — the
      // player's while the other side is to move (not while a move of its
      // own is on its way, when the list is still the other side's).
      const fromServer = view.premoves && view.premoves.length && !pending && view.turn !== you;
      board.setInteractive(fromServer ? destsOf(view.premoves) : spec.premoves(pos, colorOf(view, you)),
        (f, dest, promotion) => setPremove({ from: f, to: dest, promotion }));
    } else {
      board.setInteractive(null, null);
    }
    drawMoves();
    drawActions();
    drawStatus(!!check);
    drawResult();
    drawRecords();
  }

  // --- acting -------------------------------------------------------------------
  function sendMove(move) {
    if (!(view.legal || []).includes(move)) {
      showNotice(t('game.badMove', { move }), true);
      refresh();
      return;
    }
    const pos = rules().parseFen(view.fen);
    pending = { move, ply: view.ply + 1 };
    (spec.isCapture(pos, move) ? sounds.capture : sounds.move)();
    send({ t: 'move', move, ply: pending.ply });
    refresh();
  }

  function onBoardMove(from, to, promotion) {
    const move = from + to + (promotion || '');
    if (confirmMoves() && (view.legal || []).includes(move)) {
      proposed = { move };
      refresh();
      document.getElementById('confirm-yes')?.focus({ preventScroll: true });
      return;
    }
    sendMove(move);
  }

  /** The ✓/✗ under the board while a move waits for them. */
  function drawConfirm() {
    confirmBox.hidden = !proposed;
    if (!proposed) return;
    const text = spec.notation.moveText({ move: proposed.move }, rules().parseFen(view.fen), spec.notation.getStyle());
    confirmText.textContent = t('game.confirmMove', { move: text });
  }

  /** The record downloads, once the game is over. */
  async function drawRecords() {
    if (live() || !hasRecord() || records.childElementCount) {
      records.hidden = !records.childElementCount;
      return;
    }
    const info = findVariant(await loadVariants(), view.variant);
    if (records.childElementCount) return;
    fill(records, recordLinks(id, info));
    records.hidden = false;
  }

  function typedMove(text) {
    if (!(you && live()) || pending) return;
    if (view.turn !== you) {
      showNotice(t('game.notYourTurn'));
      return;
    }
    const pos = rules().parseFen(view.fen);
    const found = spec.notation.findMove(text, pos, view.legal || []);
    if (found) {
      moveInput.value = '';
      sendMove(found);
    } else {
      showNotice(t('game.badMove', { move: text }));
    }
  }

  async function rematch() {
    const opp = otherSide(you);
    const p = view[opp];
    try {
      if (p.computer && p.computer.startsWith('level:')) {
        const r = await api.playComputer({ level: Number(p.computer.slice(6)), time: view.time_control, color: opp, variant: view.variant });
        ctx.navigate(`/game/${r.game}`);
      } else {
        await api.challenge({
          to: p.name, time: view.time_control, rated: view.rated, variant: view.variant, color: opp, rematch_of: view.id,
        });
        showNotice(t('game.rematchSent', { name: p.name }), true);
      }
    } catch (e) {
      showNotice(errorText(e), true);
    }
  }

  // --- messages -------------------------------------------------------------------
  function resync() {
    if (resyncing) return;
    resyncing = true;
    send({ t: 'resync' });
  }

  function onFull(msg) {
    const first = !view;
    view = msg.game;
    view.legal = view.legal || [];
    lastV = view.v || 0;
    resyncing = false;
    you = msg.you || null;
    spec = gameFor(view.variant);
    if (!spec) {
      status.textContent = t('error.generic', { message: `no board for ${view.variant}` });
      return;
    }
    if (pending && view.ply >= pending.ply) pending = null;
    if (first) {
      drawInfo();
      chatTitle.textContent = you ? t('chat.players') : t('chat.spectators');
      // A player facing the computer has no one to talk to.
      chatCard.hidden = !!you && isComputer(otherSide(you));
      chatForm.hidden = !ctx.account;
      if (!ctx.account) chatLog.append(h('li', { class: 'muted' }, t('chat.login')));
      bottom = you || 'first';
      board = createBoard(view.variant, boardWrap, { orientation: colorOf(view, bottom), t });
      drawStyleSwitch();
    }
    drawBars();
    setClocks(view.clocks, view.turn);
    setAway(view.away);
    if (pending) send({ t: 'move', move: pending.move, ply: pending.ply });
    if (!live()) {
      ended = true;
      socket.stop();
    }
  }

  function onMoveEvent(msg) {
    if (msg.ply <= view.ply) return; // already have it
    if (msg.ply !== view.ply + 1) {
      resync();
      return;
    }
    const mover = msg.side || view.turn;
    const mine = pending && pending.ply === msg.ply;
    view.moves.push({
      ply: msg.ply, side: mover, move: msg.move, display: msg.display, alt: msg.alt, check: msg.check,
      first_ms: msg.clocks?.first_ms, second_ms: msg.clocks?.second_ms,
    });
    if (msg.sides && msg.sides.join() !== (view.sides || []).join()) {
      // A colour was chosen (renju's and gomoku's opening rules).
      view.sides = msg.sides;
      drawBars();
    }
    view.ply = msg.ply;
    view.fen = msg.fen;
    view.turn = msg.turn;
    view.legal = msg.legal || [];
    view.premoves = msg.premoves || [];
    if (msg.clocks) view.clocks = msg.clocks;
    if (view.draw_offer && view.draw_offer !== mover) { // refused by moving (23.1)
      view.offer_refused = view.draw_offer;
      view.draw_offer = null;
    }
    view.claimable = !!msg.claimable;
    view.claim = msg.claim || null;
    view.must_change = null;
    view.takeback_offer = null; // a move declines a takeback request
    if (you) ctx.gamesChanged?.(); // the header's count of games waiting for you
    showAnnouncement(mover, msg.announce);
    if (mine) pending = null;
    else (msg.capture ? sounds.capture : sounds.move)();
    confirmResign = false;
    setClocks(view.clocks, view.turn);
    if (msg.check) sounds.check();
    if (premove && view.turn === you) {
      const m = premove.from + premove.to + (premove.promotion || '');
      setPremove(null);
      if (view.legal.includes(m)) {
        sendMove(m);
        return;
      }
    }
    refresh();
  }

  function onEnd(msg) {
    if (you) ctx.gamesChanged?.();
    view.state = msg.state;
    view.result = msg.result;
    view.winner = msg.winner;
    view.reason = msg.reason;
    view.detail = msg.detail;
    view.article = msg.article;
    view.draw_offer = null;
    view.legal = [];
    if (msg.clocks) view.clocks = msg.clocks;
    pending = null;
    setPremove(null);
    setClocks(view.clocks, view.turn);
    setAway(null);
    sounds.end();
    // The bars show the ratings the game ended with.
    for (const side of SIDES) {
      const r = msg.ratings && msg.ratings[side];
      if (r) view[side].rating = r.after;
    }
    drawBars();
    if (tv) {
      // TV: on to the next strongest game after a moment.
      tvTimer = setTimeout(() => ctx.navigate('/tv', { replace: true }), 5000);
    } else if (!ended) {
      showEndDialog(msg.ratings);
    }
    ended = true;
  }

  function onEvent(msg) {
    switch (msg.t) {
      case 'move':
        onMoveEvent(msg);
        break;
      case 'end':
        onEnd(msg);
        break;
      case 'draw_offer':
        view.draw_offer = msg.by;
        if (view.offer_refused && view.offer_refused !== msg.by) view.offer_refused = null;
        refresh();
        break;
      case 'draw_declined':
        view.draw_offer = null;
        view.offer_refused = msg.offer_by;
        refresh();
        // News of the moment, not of the game: gone after a few seconds,
        // or at the next move (drawStatus clears a notice that is not sticky).
        if (msg.by !== you) flashNotice(t('game.drawDeclined', { side: sideName(view, msg.by) }));
        break;
      case 'takeback_offer':
        view.takeback_offer = msg.by;
        refresh();
        break;
      case 'takeback_declined':
        view.takeback_offer = null;
        refresh();
        if (msg.offer_by === you) flashNotice(t('game.takebackDeclined'));
        break;
      case 'taken_back':
        // The board, the clocks and the legal moves all changed: the
        // whole state again, then a word of what happened.
        view.takeback_offer = null;
        pending = null;
        setPremove(null);
        resync();
        flashNotice(t('game.takenBack', { side: sideName(view, msg.by) }));
        break;
      case 'must_change':
        view.must_change = msg.side;
        view.must_change_reason = patternIn(msg.detail);
        view.must_change_article = msg.article;
        refresh();
        break;
      case 'foul': {
        const article = msg.article ? t('article.suffix', { n: msg.article }) : '';
        showNotice(t('game.foul', { side: sideName(view, msg.side), count: msg.count, detail: foulText(msg), article }), true);
        break;
      }
      case 'time_penalty':
      case 'time_given': {
        if (msg.clocks) view.clocks = msg.clocks;
        setClocks(view.clocks, view.turn);
        const key = msg.t === 'time_penalty' ? 'game.timePenalty' : 'game.timeGiven';
        showNotice(t(key, { side: sideName(view, msg.side), s: Math.round(msg.ms / 1000) }), true);
        break;
      }
      case 'player_gone':
        setAway(msg);
        break;
      case 'player_back':
        setAway(null);
        break;
      case 'clock':
        // The clocks were paused or resumed (e.g. across a server restart).
        view.clocks = { ...view.clocks, ...msg.clocks };
        setClocks(view.clocks, view.turn);
        break;
      default:
        break; // an event this page does not show
    }
  }

  function onMessage(msg) {
    if (msg.t === 'full') {
      onFull(msg);
      return;
    }
    if (typeof msg.v === 'number') {
      // A game event: apply each version once, in order.
      if (!view || msg.v <= lastV) return;
      if (msg.v > lastV + 1) {
        resync();
        return;
      }
      lastV = msg.v;
      onEvent(msg);
      return;
    }
    if (msg.t === 'chat') {
      addChat(msg);
      return;
    }
    if (msg.t === 'error') {
      if (pending) pending = null;
      // A second click that reached the server after the end says nothing
      // the end dialog has not.
      if (ended && msg.code === 'game_over') return;
      showNotice(errorText(msg), true);
      refresh();
    }
    // pong and anything else: nothing to do
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
    if (awayTimer) clearInterval(awayTimer);
    if (tvTimer) clearTimeout(tvTimer);
    if (noticeTimer) clearTimeout(noticeTimer);
    if (dialog.open) dialog.close();
    if (board) board.destroy();
  };
}
