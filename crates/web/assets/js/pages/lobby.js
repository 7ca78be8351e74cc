// The lobby: open seeks (live from the lobby feed), creating a seek,
// playing the computer, challenges sent and received, and a way to watch
// a game by its id. The games on offer are the server's variants
// (`GET /api/info`) whose family has a board here; a side is asked for as
// `first`/`second`/`random` and shown in the variant's words (执红, White).

import { api } from '../api.js';
import { fill, h } from '../dom.js';
import { errorText, getLang, shownName, t } from '../i18n.js';
import { currentSeeks, lobbyChat, onFeed, sendFeed } from '../feed.js';
import { chatLine } from '../chat.js';
import { clockText, timeLeftText } from '../result.js';
import {
  findVariant, loadVariants, playable, sideKeys, variantLabel,
} from '../variants.js';

// `1d`, `3d`: correspondence, days a move.
const PRESETS = ['1+0', '3+2', '5+3', '10+5', '15+10', '30+0', '90+30', '1d', '3d'];
const OPPOSITE = { first: 'second', second: 'first', random: 'random' };

function timeControl(prefix) {
  let value = '10+5';
  const custom = h('input', {
    id: `${prefix}-time`, name: 'time', value, size: 12,
    'aria-label': t('lobby.timeCustom'),
    oninput: () => {
      value = custom.value.trim();
      mark();
    },
  });
  const buttons = PRESETS.map((p) => h('button', {
    type: 'button', 'aria-pressed': p === value ? 'true' : 'false', 'aria-label': `${t('lobby.time')} ${p}`,
    dataset: { tc: p },
    onclick: () => {
      value = p;
      custom.value = p;
      mark();
    },
  }, /d$/.test(p) ? clockText(p) : p));
  function mark() {
    for (const b of buttons) b.setAttribute('aria-pressed', b.dataset.tc === value ? 'true' : 'false');
  }
  const el = h('fieldset', { class: 'field' },
    h('legend', {}, t('lobby.time')),
    h('div', { class: 'tc-presets' }, buttons),
    h('label', { for: `${prefix}-time`, class: 'row' }, h('span', { class: 'muted' }, t('lobby.timeCustom')), custom));
  return { el, get: () => value };
}

/** How a side choice reads for a variant: 随机, 执红, White … */
function colorText(v, choice) {
  if (choice !== 'first' && choice !== 'second') return t('lobby.color.random');
  const key = sideKeys(v)[choice === 'second' ? 1 : 0];
  const text = t(`lobby.color.${key}`);
  return text === `lobby.color.${key}` ? t(`side.${key}`) : text;
}

/**
 * A variant menu and a side menu that follows it (the side names are the
 * variant's). `list` is the variants to offer; `onVariant(v)` hears a change.
 */
const nameOf = (v) => (v.name && (v.name[getLang()] || v.name.en)) || v.id;

/**
 * One rule set per game for a newcomer: the first of those sharing a name
 * (the registry lists the default first: CXA Xiangqi, freestyle gomoku,
 * RIF renju), by the game's plain name (`main`); the other rule sets
 * (`more`).
 */
function mainVariants(list) {
  const main = [];
  const more = [];
  for (const v of list) (main.some((w) => nameOf(w) === nameOf(v)) ? more : main).push(v);
  return { main, more };
}

function gamePicker(prefix, variants, list, onVariant = () => {}) {
  // The other rule sets go under "More rule sets".
  const { main, more } = mainVariants(list);
  const variantEl = h('select', {
    id: `${prefix}-variant`, 'aria-label': t('lobby.variant'),
    onchange: () => {
      drawColors();
      onVariant(current());
    },
  },
  main.map((v) => h('option', { value: v.id }, nameOf(v))),
  more.length ? h('optgroup', { label: t('lobby.moreRules') },
    more.map((v) => h('option', { value: v.id }, variantLabel(variants, v)))) : null);
  const colorEl = h('select', { id: `${prefix}-color`, 'aria-label': t('lobby.color') });
  const current = () => findVariant(list, variantEl.value) || list[0] || null;
  function drawColors() {
    const keep = colorEl.value || 'random';
    colorEl.replaceChildren(...['random', 'first', 'second'].map((c) => h('option', { value: c, selected: c === keep }, colorText(current(), c))));
  }
  drawColors();
  const el = h('div', { class: 'row' },
    h('label', { for: `${prefix}-variant` }, h('span', { class: 'visually-hidden' }, t('lobby.variant')), variantEl),
    h('label', { for: `${prefix}-color` }, h('span', { class: 'visually-hidden' }, t('lobby.color')), colorEl));
  return {
    el, variantEl, colorEl, current,
    /** The request fields: `variant` (when the server named any) and `color`. */
    get: () => ({ ...(current() ? { variant: current().id } : {}), color: colorEl.value }),
  };
}

/** A small decorative board for the welcome card. */
function heroSvg() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 120 120');
  svg.setAttribute('aria-hidden', 'true');
  svg.innerHTML = '<circle cx="40" cy="60" r="32" fill="#f8e7c4" stroke="#8a5a2b" stroke-width="2"/>'
    + '<circle cx="40" cy="60" r="27" fill="none" stroke="#b3261e" stroke-width="1.5"/>'
    + '<text x="40" y="62" font-size="34" text-anchor="middle" dominant-baseline="central" fill="#b3261e" style="font-family:var(--cjk);font-weight:700">帅</text>'
    + '<circle cx="84" cy="56" r="32" fill="#f8e7c4" stroke="#8a5a2b" stroke-width="2"/>'
    + '<circle cx="84" cy="56" r="27" fill="none" stroke="#1f1f1f" stroke-width="1.5"/>'
    + '<text x="84" y="58" font-size="34" text-anchor="middle" dominant-baseline="central" fill="#1f1f1f" style="font-family:var(--cjk);font-weight:700">将</text>';
  return svg;
}

/**
 * A time control's speed, as lichess sorts its grid: the estimated game
 * length (main time + 40 moves of increment or byo-yomi) under 3, 8 and
 * 25 minutes is bullet, blitz and rapid; longer is classical.
 */
function speedOf(tc) {
  const m = /^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?(?:\|(\d+(?:\.\d+)?)s)?/.exec(tc);
  if (!m) return 'classical';
  const seconds = Number(m[1]) * 60 + 40 * Number(m[2] || m[3] || 0);
  if (seconds < 180) return 'bullet';
  if (seconds < 480) return 'blitz';
  if (seconds < 1500) return 'rapid';
  return 'classical';
}

/** The rating ranges the quick-pairing grid offers (`''`: anyone). */
const RANGES = ['300', '500', ''];

/**
 * A form's submit handler that runs one request at a time: its submit
 * button is disabled until the answer comes, so a double click makes one
 * seek, one challenge, one game — not two.
 */
function oneAtATime(handler) {
  let running = false;
  return async (e) => {
    e.preventDefault();
    if (running) return;
    running = true;
    const button = e.target.querySelector('button[type=submit]');
    if (button) button.disabled = true;
    try {
      await handler(e);
    } finally {
      running = false;
      if (button && button.isConnected) button.disabled = false;
    }
  };
}

export async function mount(main, _params, ctx) {
  const me = ctx.account;
  const variants = await loadVariants();
  const offered = playable(variants);
  const variantOf = (id) => findVariant(variants, id);
  const message = h('p', { class: 'error', role: 'alert', id: 'lobby-message' });
  const fail = (e) => {
    message.textContent = errorText(e);
  };
  const go = (game) => game && ctx.navigate(`/game/${game}`);

  // --- your running games ------------------------------------------------
  // A player back in the lobby mid-game sees the way back to it first;
  // the games where it is their move come first (the server's order), each
  // saying so, with the time left — a correspondence player's list of
  // games waiting for them.
  let running = [];
  // Games that hold a player at the board: all but correspondence ones.
  const atTheBoard = () => running.filter((g) => !g.days);
  const yourGame = h('section', {
    class: 'card your-game', id: 'your-game', hidden: true, 'aria-labelledby': 'your-game-title',
  });
  const opponentName = (name) => (/^level:\d+$/.test(name) ? t('game.computerLevel', { n: name.slice(6) }) : shownName(name));
  async function drawYourGames() {
    if (!me) return;
    try {
      running = await api.playing();
    } catch {
      running = [];
    }
    yourGame.hidden = running.length === 0;
    if (!atTheBoard().length) seekBusy.hidden = true;
    const turnText = (g) => {
      const left = g.time_left_ms === null || g.time_left_ms === undefined ? '' : ` · ${t('lobby.timeLeft', { t: timeLeftText(g.time_left_ms) })}`;
      return g.your_turn ? t('lobby.yourTurn') + left : t('lobby.theirTurn');
    };
    fill(yourGame,
      h('h2', { id: 'your-game-title' }, t(running.length > 1 ? 'lobby.yourGames' : 'lobby.yourGame')),
      h('ul', { class: 'your-game-list' }, running.map((g) => h('li', {
        class: `row${g.your_turn ? ' your-turn' : ''}`, dataset: { game: g.id, turn: g.your_turn ? 'you' : 'them' },
      },
        h('span', {}, t('lobby.yourGameLine', {
          opponent: opponentName(g.opponent),
          game: gameName(g.variant),
          time: clockText(g.time_control),
        })),
        h('span', { class: g.your_turn ? 'turn-badge' : 'muted' }, turnText(g)),
        h('a', {
          class: `button${g.your_turn ? ' primary' : ''}`, href: `/game/${g.id}`, 'data-link': '',
          'aria-label': `${t('lobby.backToGame')}: ${opponentName(g.opponent)}`,
        }, t('lobby.backToGame'))))));
  }

  // --- seeks -------------------------------------------------------------
  const seekBody = h('tbody', { id: 'seek-rows' });
  const seekTable = h('table', { class: 'seeks', 'aria-labelledby': 'seeks-title' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, t('lobby.player')),
      h('th', { scope: 'col' }, t('lobby.rating')),
      h('th', { scope: 'col' }, t('lobby.variant')),
      h('th', { scope: 'col' }, t('lobby.time')),
      h('th', { scope: 'col' }, t('lobby.mode')),
      h('th', { scope: 'col' }, t('lobby.color')),
      h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('lobby.accept'))))),
    seekBody);
  const noSeeks = h('p', { class: 'muted', id: 'no-seeks' }, t('lobby.noSeeks'));

  async function accept(s) {
    message.textContent = '';
    try {
      // Pairing happens when a matching seek is made: answer with the
      // mirror of this one, narrowed to its player's rating so it pairs
      // with this seek and no other.
      const r = await api.createSeek({
        time: s.time, variant: s.variant, rated: s.rated, color: OPPOSITE[s.color] || 'random',
        rating_min: s.rating - 0.5, rating_max: s.rating + 0.5,
      });
      if (r.game) go(r.game);
      else if (r.seek) {
        await api.cancelSeek(r.seek).catch(() => {});
        message.textContent = t('error.generic', { message: 'seek gone' });
      }
    } catch (e) {
      fail(e);
    }
  }

  function drawSeeks() {
    const seeks = currentSeeks();
    noSeeks.hidden = seeks.length > 0;
    seekTable.hidden = seeks.length === 0;
    seekBody.replaceChildren(...seeks.map((s) => {
      const mine = me && s.player === me.name;
      const action = mine
        ? h('button', {
          type: 'button', 'aria-label': t('lobby.cancelSeek'), class: 'cancel-seek',
          onclick: () => api.cancelSeek(s.id).catch(fail),
        }, t('lobby.cancel'))
        : h('button', {
          type: 'button', class: 'primary accept-seek', disabled: !me || (s.rated && me.guest),
          'aria-label': t('lobby.acceptSeek', { name: s.player, time: s.time }),
          dataset: { seek: s.id, player: s.player },
          onclick: () => accept(s),
        }, t('lobby.accept'));
      return h('tr', { class: mine ? 'seek-mine' : '', dataset: { seek: s.id } },
        h('td', {}, h('a', { href: `/@/${s.player}`, 'data-link': '' }, shownName(s.player))),
        h('td', {}, Math.round(s.rating)),
        h('td', {}, variantOf(s.variant) ? variantLabel(variants, variantOf(s.variant)) : s.variant),
        h('td', {}, clockText(s.time)),
        h('td', {}, s.rated ? t('lobby.rated') : t('lobby.casual')),
        h('td', {}, colorText(variantOf(s.variant), s.color)),
        h('td', {}, action));
    }));
  }

  // --- create a seek -------------------------------------------------------
  const seekTc = timeControl('seek');
  const rated = h('input', { type: 'checkbox', id: 'seek-rated', disabled: !me || me.guest, checked: !!me && !me.guest });
  const seekGame = gamePicker('seek', variants, offered);
  // While the player has a game running, a seek is not made silently: the
  // form asks first, with the way back to the game beside it.
  const seekBusy = h('div', { class: 'notice', id: 'seek-busy', hidden: true, role: 'alert' });
  let seekAnyway = false;
  function askBeforeSeeking() {
    fill(seekBusy,
      h('p', {}, t('lobby.seekWhilePlaying')),
      h('div', { class: 'row' },
        h('a', { class: 'button primary', href: `/game/${atTheBoard()[0].id}`, 'data-link': '', id: 'seek-busy-back' }, t('lobby.backToGame')),
        h('button', {
          type: 'button', id: 'seek-anyway',
          onclick: () => {
            seekAnyway = true;
            seekBusy.hidden = true;
            seekForm.requestSubmit();
          },
        }, t('lobby.seekAnyway'))));
    seekBusy.hidden = false;
  }
  const seekForm = h('form', {
    class: 'card', id: 'seek-form', 'aria-labelledby': 'seek-title',
    onsubmit: oneAtATime(async (e) => {
      e.preventDefault();
      message.textContent = '';
      if (atTheBoard().length && !seekAnyway) {
        askBeforeSeeking();
        return;
      }
      seekAnyway = false;
      try {
        const r = await api.createSeek({ time: seekTc.get(), rated: rated.checked, ...seekGame.get() });
        if (r.game) go(r.game);
      } catch (err) {
        fail(err);
      }
    }),
  },
  h('h2', { id: 'seek-title' }, t('lobby.create')),
  seekTc.el,
  seekGame.el,
  h('div', { class: 'row' },
    h('label', { for: 'seek-rated', class: 'row' }, rated, t('lobby.rated'))),
  h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary', id: 'create-seek', disabled: !me }, t('lobby.createSeek'))),
  seekBusy);

  // --- play the computer ---------------------------------------------------
  // Only the variants with a computer player; the levels are the variant's.
  const withComputer = offered.filter((v) => v.computer_levels > 0);
  let level = 3;
  const levels = h('div', { class: 'levels' });
  function drawLevels(v) {
    const n = (v && v.computer_levels) || 0;
    level = Math.min(Math.max(level, 1), Math.max(n, 1));
    const buttons = Array.from({ length: n }, (_, i) => i + 1).map((k) => h('button', {
      type: 'button', 'aria-pressed': k === level ? 'true' : 'false',
      'aria-label': `${t('lobby.level')} ${k}`, dataset: { level: k },
      onclick: () => {
        level = k;
        for (const b of buttons) b.setAttribute('aria-pressed', Number(b.dataset.level) === level ? 'true' : 'false');
      },
    }, String(k)));
    levels.style.gridTemplateColumns = `repeat(${Math.max(n, 1)}, minmax(0, 1fr))`;
    levels.replaceChildren(...buttons);
  }
  const cpuTc = timeControl('cpu');
  const cpuGame = gamePicker('cpu', variants, withComputer, drawLevels);
  drawLevels(cpuGame.current());
  const cpuForm = h('form', {
    class: 'card', id: 'computer-form', 'aria-labelledby': 'cpu-title',
    onsubmit: oneAtATime(async (e) => {
      e.preventDefault();
      message.textContent = '';
      try {
        const r = await api.playComputer({ level, time: cpuTc.get(), ...cpuGame.get() });
        go(r.game);
      } catch (err) {
        fail(err);
      }
    }),
  },
  h('h2', { id: 'cpu-title' }, t('lobby.computer')),
  withComputer.length ? [
    h('fieldset', { class: 'field' }, h('legend', {}, t('lobby.level')), levels),
    cpuTc.el,
    cpuGame.el,
    h('div', { class: 'row' },
      h('button', { type: 'submit', class: 'primary', id: 'play-computer', disabled: !me }, t('lobby.startComputer'))),
  ] : h('p', { class: 'muted' }, t('lobby.noComputer')));

  // --- challenges ------------------------------------------------------------
  const challengeList = h('ul', { id: 'challenges' });
  const challengeName = h('input', { id: 'challenge-name', autocomplete: 'off', 'aria-label': t('lobby.challengeName') });
  const challengeTc = timeControl('challenge');
  const challengeGame = gamePicker('challenge', variants, offered);
  const gameName = (id) => (variantOf(id) ? variantLabel(variants, variantOf(id)) : id);
  async function drawChallenges() {
    if (!me) return;
    let list = [];
    try {
      list = await api.challenges();
    } catch {
      list = [];
    }
    challengeList.replaceChildren(...(list.length ? list.map((c) => {
      const mode = c.rated ? t('lobby.rated') : t('lobby.casual');
      const incoming = c.to === me.name;
      return h('li', { class: 'row', dataset: { challenge: c.id } },
        incoming
          ? t('lobby.challengeFrom', { from: c.from, game: gameName(c.variant), time: c.time, mode })
          : t('lobby.challengeTo', { to: c.to, game: gameName(c.variant), time: c.time, mode }),
        incoming && h('button', {
          type: 'button', class: 'primary', 'aria-label': `${t('lobby.accept')}: ${c.from}`,
          onclick: async () => {
            try {
              go((await api.acceptChallenge(c.id)).game);
            } catch (err) {
              fail(err);
            }
          },
        }, t('lobby.accept')),
        h('button', {
          type: 'button', 'aria-label': `${incoming ? t('lobby.decline') : t('lobby.withdraw')}: ${incoming ? c.from : c.to}`,
          onclick: () => api.declineChallenge(c.id).then(drawChallenges, fail),
        }, incoming ? t('lobby.decline') : t('lobby.withdraw')));
    }) : [h('li', { class: 'muted' }, t('lobby.noChallenges'))]));
  }
  // An event over the board may ask for the arbiter's rules (fouls).
  const challengeRules = h('select', { id: 'challenge-rules', 'aria-label': t('lobby.rulesProfile') },
    ['online', 'arbiter'].map((p) => h('option', { value: p }, t(`lobby.profile.${p}`))));
  // Rated only between registered players (the server says so too).
  const challengeMessage = h('p', { class: 'error', role: 'alert', id: 'challenge-message' });
  const challengeRated = h('input', { type: 'checkbox', id: 'challenge-rated', disabled: !me || me.guest });
  const challengeForm = h('form', {
    class: 'card', id: 'challenge-form', 'aria-labelledby': 'challenge-title',
    onsubmit: oneAtATime(async (e) => {
      e.preventDefault();
      message.textContent = '';
      const to = challengeName.value.trim();
      challengeMessage.textContent = '';
      try {
        await api.challenge({
          to, time: challengeTc.get(), rated: challengeRated.checked, rules: challengeRules.value, ...challengeGame.get(),
        });
        challengeName.value = '';
        drawChallenges();
      } catch (err) {
        // Said beside the name, not at the top of the page. A 404 can
        // mean one thing here: no one of that name.
        challengeMessage.textContent = err.status === 404 ? t('lobby.noSuchPlayer', { name: to }) : errorText(err);
      }
    }),
  },
  h('h2', { id: 'challenge-title' }, t('lobby.challenges')),
  challengeList,
  h('label', { class: 'field', for: 'challenge-name' }, h('span', {}, t('lobby.challengeName')), challengeName),
  challengeMessage,
  challengeTc.el,
  challengeGame.el,
  h('div', { class: 'row' },
    h('label', { for: 'challenge-rated', class: 'row' }, challengeRated, t('lobby.rated'))),
  // What only an event over the board needs, out of a newcomer's way.
  h('details', { class: 'more-options', id: 'challenge-more' },
    h('summary', {}, t('lobby.moreOptions')),
    h('label', { class: 'field' }, h('span', {}, t('lobby.rulesProfile')), challengeRules)),
  h('button', { type: 'submit', id: 'send-challenge', disabled: !me }, t('lobby.sendChallenge')));

  // --- games in play ---------------------------------------------------------
  // The strongest first; the first is "TV". Asked again every 10 s.
  const liveList = h('ul', { id: 'live-games', class: 'live-games' });
  const onlineLine = h('p', { class: 'muted', id: 'online' });
  const onlineNames = h('p', { id: 'online-players', class: 'online-players' });
  async function drawLive() {
    let live = { online: 0, games: [] };
    try {
      live = await api.liveGames();
    } catch {
      return;
    }
    onlineLine.textContent = t('lobby.online', { n: live.online, games: live.games.length });
    const names = live.players || [];
    onlineNames.replaceChildren(...names.flatMap((n, i) => [i ? ' · ' : '',
      h('a', { href: `/@/${encodeURIComponent(n)}`, 'data-link': '' }, shownName(n))]));
    const player = (name, rating) => (rating ? `${shownName(name)} (${Math.round(rating)})` : shownName(name));
    liveList.replaceChildren(...(live.games.length ? live.games.map((g, i) => h('li', {},
      h('a', {
        href: `/game/${g.id}`, 'data-link': '', class: i === 0 ? 'tv' : '',
        'aria-label': t('lobby.watchGame', { first: g.first, second: g.second }),
      },
      i === 0 ? h('span', { class: 'badge' }, t('lobby.tv')) : null,
      `${player(g.first, g.first_rating)} – ${player(g.second, g.second_rating)}`),
      h('span', { class: 'muted' }, ` · ${gameName(g.variant)} · ${clockText(g.time_control)}`)))
      : [h('li', { class: 'muted' }, t('lobby.noLiveGames'))]));
  }
  const liveTimer = setInterval(() => {
    drawLive();
    drawFriends();
  }, 10000);

  // --- quick pairing -------------------------------------------------------
  // A grid of the game's common clocks (the registry's `quick_pairings`):
  // a click seeks that game with the chosen rating range, and the server
  // pairs it at once with a waiting seek that fits both players' ranges;
  // else it waits. A tile with the player's own seek waiting cancels it.
  const quickVariants = mainVariants(offered).main.filter((v) => (v.quick_pairings || []).length);
  const quickGame = h('select', {
    id: 'quick-variant', 'aria-label': t('lobby.quickGame'), onchange: () => drawQuick(),
  }, quickVariants.map((v) => h('option', { value: v.id }, nameOf(v))));
  const quickRange = h('select', { id: 'quick-range', 'aria-label': t('lobby.quickRange') },
    RANGES.map((r) => h('option', { value: r, selected: r === '500' }, t(`lobby.range.${r || 'any'}`))));
  const quickGrid = h('div', { class: 'quick-grid', id: 'quick-grid' });
  const quickRated = !!me && !me.guest;
  const quickBusy = new Set();
  /** The player's own waiting seek for this game and clock, if any. */
  const mySeek = (variant, time) => me && currentSeeks().find((s) => s.player === me.name && s.variant === variant && s.time === time);
  function drawQuick() {
    const v = findVariant(quickVariants, quickGame.value) || quickVariants[0];
    if (!v) return;
    quickGrid.replaceChildren(...v.quick_pairings.map((time) => {
      const waiting = mySeek(v.id, time);
      const speed = t(`speed.${speedOf(time)}`);
      return h('button', {
        type: 'button', class: `quick-tile${waiting ? ' waiting' : ''}`, disabled: !me,
        'aria-pressed': waiting ? 'true' : 'false',
        'aria-label': waiting ? t('lobby.quickCancel', { time: clockText(time) }) : t('lobby.quickTile', { time: clockText(time), speed }),
        dataset: { tc: time },
        onclick: () => quickClick(v, time),
      },
      h('span', { class: 'quick-time' }, time),
      h('span', { class: 'quick-speed' }, waiting ? t('lobby.quickSearching') : speed));
    }));
  }
  async function quickClick(v, time) {
    const key = `${v.id} ${time}`;
    if (quickBusy.has(key)) return;
    quickBusy.add(key);
    message.textContent = '';
    try {
      const waiting = mySeek(v.id, time);
      if (waiting) {
        await api.cancelSeek(waiting.id);
      } else {
        const range = quickRange.value ? { rating_range: Number(quickRange.value) } : {};
        const r = await api.createSeek({ variant: v.id, time, rated: quickRated, color: 'random', ...range });
        if (r.game) go(r.game);
      }
    } catch (e) {
      fail(e);
    } finally {
      quickBusy.delete(key);
    }
  }
  const quickCard = h('section', { class: 'card', id: 'quick-pairing', 'aria-labelledby': 'quick-title' },
    h('div', { class: 'row quick-head' },
      h('h2', { id: 'quick-title' }, t('lobby.quick')),
      h('label', { for: 'quick-variant' }, h('span', { class: 'visually-hidden' }, t('lobby.quickGame')), quickGame),
      h('label', { for: 'quick-range', class: 'row' }, h('span', { class: 'muted' }, t('lobby.quickRange')), quickRange)),
    quickGrid,
    h('p', { class: 'muted small' }, me
      ? [t('lobby.quickHint'), t(quickRated ? 'lobby.quickRated' : 'lobby.quickCasual')].join(getLang() === 'zh' ? '' : ' ')
      : t('lobby.loginToPlay')));

  // --- friends ------------------------------------------------------------------
  // Whom the player follows: online or not, the game they play (to
  // watch), and a challenge through the challenge form above.
  const friendList = h('ul', { id: 'friends', class: 'friends' });
  const friendName = h('input', {
    id: 'follow-name', autocomplete: 'off', 'aria-label': t('friends.followName'), placeholder: t('friends.followName'),
  });
  const friendMessage = h('p', { class: 'error', role: 'alert', id: 'friends-message' });
  async function drawFriends() {
    if (!me || me.guest) return;
    let list;
    try {
      list = await api.follows();
    } catch {
      return;
    }
    friendList.replaceChildren(...(list.length ? list.map((f) => h('li', { class: 'friend', dataset: { name: f.name, online: f.online ? '1' : '0' } },
      h('span', { class: `presence ${f.online ? 'on' : 'off'}`, title: t(f.online ? 'friends.online' : 'friends.offline') }),
      h('a', { href: `/@/${encodeURIComponent(f.name)}`, 'data-link': '' }, shownName(f.name)),
      h('span', { class: 'visually-hidden' }, t(f.online ? 'friends.online' : 'friends.offline')),
      f.playing ? h('span', { class: 'muted friend-game' }, t('friends.playing', {
        opponent: opponentName(f.playing.opponent), game: gameName(f.playing.variant), time: clockText(f.playing.time_control),
      })) : null,
      h('span', { class: 'friend-actions row' },
        f.playing ? h('a', {
          class: 'button', href: `/game/${f.playing.id}`, 'data-link': '', 'aria-label': t('friends.watchName', { name: shownName(f.name) }),
        }, t('friends.watch')) : null,
        h('button', {
          type: 'button', class: 'friend-challenge', 'aria-label': t('profile.challenge', { name: shownName(f.name) }),
          onclick: () => {
            challengeName.value = f.name;
            challengeForm.scrollIntoView({ block: 'start' });
            challengeName.focus({ preventScroll: true });
          },
        }, t('friends.challenge')),
        h('button', {
          type: 'button', class: 'friend-unfollow', 'aria-label': t('friends.unfollowName', { name: shownName(f.name) }),
          onclick: () => api.unfollow(f.name).then(drawFriends, (e) => {
            friendMessage.textContent = errorText(e);
          }),
        }, '×'))))
      : [h('li', { class: 'muted' }, t('friends.none'))]));
  }
  const friendForm = h('form', {
    class: 'row', id: 'follow-form',
    onsubmit: oneAtATime(async () => {
      const name = friendName.value.trim();
      friendMessage.textContent = '';
      if (!name) return;
      try {
        await api.follow(name);
        friendName.value = '';
        drawFriends();
      } catch (err) {
        friendMessage.textContent = err.status === 404 ? t('lobby.noSuchPlayer', { name }) : errorText(err);
      }
    }),
  }, friendName, h('button', { type: 'submit', id: 'follow-submit' }, t('friends.follow')));
  const friendsCard = !me ? null : h('section', { class: 'card', id: 'friends-card', 'aria-labelledby': 'friends-title' },
    h('h2', { id: 'friends-title' }, t('friends.title')),
    me.guest ? h('p', { class: 'muted' }, t('friends.guest')) : [friendList, friendMessage, friendForm]);

  // --- lobby chat ---------------------------------------------------------------
  const chatLog = h('ul', { class: 'chat-log', id: 'lobby-chat-log', 'aria-live': 'polite' });
  const chatInput = h('input', { id: 'lobby-chat-input', maxlength: 200, autocomplete: 'off', 'aria-label': t('chat.say') });
  const chatForm = h('form', {
    class: 'move-form', id: 'lobby-chat-form', hidden: !me,
    onsubmit: (e) => {
      e.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      sendFeed({ t: 'chat', text });
      chatInput.value = '';
    },
  }, chatInput, h('button', { type: 'submit', 'aria-label': t('chat.send') }, t('chat.send')));
  const chatCard = h('section', { class: 'card', 'aria-labelledby': 'lobby-chat-title' },
    h('h2', { id: 'lobby-chat-title' }, t('chat.lobby')), chatLog, chatForm,
    me ? null : h('p', { class: 'muted' }, t('chat.login')));
  function drawChat() {
    chatLog.replaceChildren(...lobbyChat().map((m) => chatLine(m, ctx, 'lobby')));
    chatLog.scrollTop = chatLog.scrollHeight;
  }

  // --- watch ------------------------------------------------------------------
  const watchId = h('input', { id: 'watch-id', 'aria-label': t('lobby.watchId'), size: 10, pattern: '[A-Za-z0-9_-]+' });
  const watchForm = h('form', {
    class: 'card row', 'aria-label': t('lobby.watch'),
    onsubmit: (e) => {
      e.preventDefault();
      if (watchId.value.trim()) ctx.navigate(`/game/${watchId.value.trim()}`);
    },
  }, h('h2', {}, t('lobby.watch')), watchId, h('button', { type: 'submit' }, t('lobby.watchGo')));

  const welcome = me ? null : h('section', { class: 'card hero', 'aria-labelledby': 'welcome-title' },
    heroSvg(),
    h('div', {},
      h('h2', { id: 'welcome-title' }, t('app.tagline')),
      h('p', {}, t('lobby.loginToPlay')),
      h('div', { class: 'row' },
        h('a', { class: 'button primary', href: '/login', 'data-link': '' }, t('nav.login')),
        h('a', { class: 'button', href: '/register', 'data-link': '' }, t('login.register')),
        h('button', {
          type: 'button', id: 'lobby-guest',
          onclick: async () => {
            try {
              ctx.setAccount(await api.guest());
              ctx.rerender();
            } catch (err) {
              fail(err);
            }
          },
        }, t('login.guest')))));

  // On a phone the column that starts a game comes first (CSS `order`), so
  // a newcomer sees how to play without scrolling past seeks and chat.
  main.append(
    h('h1', {}, t('lobby.title')),
    message,
    yourGame,
    welcome || '',
    h('div', { class: 'lobby' },
      h('div', { class: 'lobby-main' },
        quickCard,
        friendsCard || '',
        h('section', { class: 'card', 'aria-labelledby': 'seeks-title' },
          h('h2', { id: 'seeks-title' }, t('lobby.seeks')), noSeeks, seekTable),
        me && challengeForm,
        h('section', { class: 'card', 'aria-labelledby': 'live-title' },
          h('div', { class: 'row', style: 'justify-content:space-between' },
            h('h2', { id: 'live-title' }, t('lobby.liveGames')),
            h('a', { class: 'button', href: '/tv', 'data-link': '', id: 'watch-tv' }, t('lobby.tv'))),
          onlineLine, onlineNames, liveList),
        chatCard,
        watchForm),
      h('div', { class: 'lobby-start' }, seekForm, cpuForm)));

  // A profile's "Challenge" button lands here with the name filled in.
  const asked = new URLSearchParams(location.search).get('challenge');
  if (asked && me) {
    challengeName.value = asked;
    challengeForm.scrollIntoView({ block: 'start' });
    challengeName.focus({ preventScroll: true });
  }
  drawYourGames();
  drawQuick();
  drawFriends();
  drawSeeks();
  drawChallenges();
  drawLive();
  drawChat();
  const off = onFeed((msg) => {
    if (msg.t === 'chat_history' || (msg.t === 'chat' && msg.room === 'lobby')) drawChat();
    if (msg.t === 'error' && msg.code) ctx.toast(errorText({ code: msg.code, message: msg.message }));
    if (msg.t === 'seeks' || msg.t === 'seek_added' || msg.t === 'seek_removed') {
      drawSeeks();
      drawQuick();
    }
    // `seeks` opens every (re)connection of the feed: a challenge made
    // while it was not yet (or no longer) open came with no event, so the
    // list is asked for again then.
    if (msg.t === 'seeks' || msg.t === 'challenge' || msg.t === 'challenge_declined') drawChallenges();
    if (msg.t === 'game_start') {
      drawLive();
      drawFriends();
      drawYourGames();
    }
  });
  return () => {
    off();
    clearInterval(liveTimer);
  };
}
