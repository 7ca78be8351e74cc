// The app shell and router. Pages are modules with
// `mount(main, params, ctx) → cleanup`; the router picks one by the path
// (History API, so /game/abc and /@/name survive a reload: the server
// answers every non-API path with index.html). The shell holds the
// logged-in account, the language switch and the app-wide lobby feed.

import { api } from './api.js';
import { h } from './dom.js';
import { errorText, getLang, onLangChange, setLang, shownName, t } from './i18n.js';
import { onFeed, restartFeed } from './feed.js';
import * as settings from './settings.js';
import { soundSwitch } from './sound.js';
import { findVariant, loadVariants, variantLabel } from './variants.js';
import './boards/xiangqi.js';
import './boards/chess.js';
import './boards/shogi.js';
import './boards/renju.js';

const routes = [
  [/^\/$/, () => import('./pages/lobby.js')],
  [/^\/login$/, () => import('./pages/login.js'), { mode: 'login' }],
  [/^\/register$/, () => import('./pages/login.js'), { mode: 'register' }],
  [/^\/game\/([A-Za-z0-9_-]+)$/, () => import('./pages/game.js')],
  [/^\/replay\/([A-Za-z0-9_-]+)$/, () => import('./pages/replay.js')],
  // Names may be of any script: the path holds them percent-encoded.
  [/^\/@\/([^/]+)$/, () => import('./pages/profile.js')],
  [/^\/players$/, () => import('./pages/players.js')],
  [/^\/settings$/, () => import('./pages/settings.js')],
  [/^\/tv$/, () => import('./pages/tv.js')],
  [/^\/events$/, () => import('./pages/events.js')],
  [/^\/event\/([A-Za-z0-9_-]+)$/, () => import('./pages/events.js')],
  [/^\/event\/([A-Za-z0-9_-]+)\/live$/, () => import('./pages/liveboards.js')],
  [/^\/analysis$/, () => import('./pages/analysis.js')],
];

const ctx = {
  account: null,
  t,
  navigate,
  /** Asks the server who is logged in — only when this browser logged in
   *  before (a hint in localStorage; the session cookie itself is
   *  HttpOnly), so a first visit makes no request that fails with 401. */
  async refreshAccount() {
    ctx.account = null;
    if (loginHint()) {
      try {
        ctx.account = await api.account();
      } catch {
        setLoginHint(false);
      }
    }
    renderHeader();
    return ctx.account;
  },
  setAccount(a) {
    ctx.account = a;
    setLoginHint(!!a);
    renderHeader();
    restartFeed();
    settings.loadFor(a);
  },
  /** Mounts the current page again (after logging in, say). */
  rerender: () => route(),
  /** Shows a short message at the top of the page. */
  toast(text, actions = [], timeoutMs = 6000) {
    const box = document.getElementById('toasts');
    const item = h('div', { class: 'toast', role: 'status' }, h('span', {}, text), ...actions);
    box.append(item);
    if (timeoutMs) setTimeout(() => item.remove(), timeoutMs);
    return item;
  },
};

const HINT = 'qiju.loggedIn';

function loginHint() {
  try {
    return localStorage.getItem(HINT) === '1';
  } catch {
    return true; // no storage: ask every time
  }
}

function setLoginHint(on) {
  try {
    if (on) localStorage.setItem(HINT, '1');
    else localStorage.removeItem(HINT);
  } catch {
    /* nothing to remember it in */
  }
}

let cleanup = null;
let mountSeq = 0;

export function navigate(path, { replace = false } = {}) {
  if (path === location.pathname) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

async function route() {
  const seq = ++mountSeq;
  if (cleanup) {
    try {
      cleanup();
    } catch (e) {
      console.warn('page cleanup failed', e);
    }
    cleanup = null;
  }
  const main = document.getElementById('main');
  main.replaceChildren();
  const path = location.pathname;
  for (const [re, load, extra] of routes) {
    const m = path.match(re);
    if (!m) continue;
    const page = await load();
    if (seq !== mountSeq) return; // navigated away meanwhile
    let param = m[1];
    try {
      param = decodeURIComponent(m[1] || '');
    } catch {
      /* not percent-encoding: taken as it is */
    }
    cleanup = (await page.mount(main, { ...(extra || {}), id: param, name: param }, ctx)) || null;
    main.focus({ preventScroll: true });
    refreshPlaying();
    return;
  }
  main.append(h('h1', {}, t('error.notFound')));
}

function renderHeader() {
  const nav = document.getElementById('nav');
  const a = ctx.account;
  const link = (href, text, attrs = {}) => h('a', { href, 'data-link': '', ...attrs }, text);
  const lang = h('select', {
    id: 'lang',
    'aria-label': t('nav.language'),
    onchange: (e) => setLang(e.target.value),
  },
  h('option', { value: 'zh', selected: getLang() === 'zh' }, '中文'),
  h('option', { value: 'en', selected: getLang() === 'en' }, 'English'));
  const items = [
    link('/', t('nav.lobby')),
    link('/players', t('nav.players'), { id: 'nav-players' }),
    link('/events', t('nav.events'), { id: 'nav-events' }),
    link('/analysis', t('nav.analysis'), { id: 'nav-analysis' }),
  ];
  if (a) {
    items.push(link(`/@/${a.name}`, shownName(a.name), { class: 'me', 'aria-label': `${t('nav.profile')}: ${shownName(a.name)}` }));
    items.push(h('button', {
      type: 'button',
      class: 'link',
      'aria-label': t('nav.logout'),
      onclick: async () => {
        await api.logout().catch(() => {});
        ctx.setAccount(null);
        navigate('/');
        route();
      },
    }, t('nav.logout')));
  } else {
    items.push(link('/login', t('nav.login')));
  }
  items.push(link('/settings', t('nav.settings'), { id: 'nav-settings' }));
  // Asked only on this click, as browsers want; gone once answered.
  if (a && 'Notification' in window && Notification.permission === 'default') {
    const bell = h('button', {
      type: 'button', class: 'link bell', id: 'notify-enable', 'aria-label': t('notify.enable'), title: t('notify.enable'),
      onclick: async () => {
        const answer = await Notification.requestPermission().catch(() => 'denied');
        ctx.toast(t(answer === 'granted' ? 'notify.on' : 'notify.denied'));
        renderHeader();
      },
    });
    // Drawn, not an emoji: a system without an emoji font showed a box.
    bell.innerHTML = '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">'
      + '<path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9"/><path d="M10.3 21a1.94 1.94 0 0 0 3.4 0"/></svg>';
    items.push(bell);
  }
  items.push(soundSwitch());
  items.push(lang);
  if (a) items.unshift(playingLink);
  nav.replaceChildren(...items);
  refreshPlaying();
  document.getElementById('brand').replaceChildren(
    h('a', { href: '/', 'data-link': '', 'aria-label': t('app.name') }, h('span', { class: 'logo', 'aria-hidden': 'true' }, '棋'), ' ', t('app.name')),
  );
}

// Your games in the header: how many are waiting for your move (else how
// many you play), a link to the lobby's list; hidden with none. Asked on
// every page change, on a game's start and every 30 s while the page is
// seen — correspondence moves come while the player is elsewhere.
const playingLink = h('a', { href: '/#your-game', 'data-link': '', id: 'nav-playing', hidden: true });
let playingAsked = 0;
async function refreshPlaying() {
  const seq = ++playingAsked;
  if (!ctx.account) {
    playingLink.hidden = true;
    return;
  }
  let list = [];
  try {
    list = await api.playing();
  } catch {
    /* shown as none */
  }
  if (seq !== playingAsked) return;
  const waiting = list.filter((g) => g.your_turn).length;
  playingLink.hidden = list.length === 0;
  playingLink.classList.toggle('your-turn', waiting > 0);
  playingLink.textContent = waiting ? t('nav.yourTurn', { n: waiting }) : t('nav.yourGames', { n: list.length });
}
setInterval(() => {
  if (document.visibilityState === 'visible') refreshPlaying();
}, 30000);
// A page that sees a game's moves asks again, at most once in 3 s.
let playingSoon = null;
ctx.gamesChanged = () => {
  if (!playingSoon) {
    playingSoon = setTimeout(() => {
      playingSoon = null;
      refreshPlaying();
    }, 3000);
  }
};

// Personal events reach the player wherever they are: a challenge (or a
// rematch offer) and a notice (`notice`: a move in a correspondence game)
// as a toast with its link, and as the browser's notification when the
// player allowed them and is looking elsewhere.
onFeed((msg) => {
  if (msg.t === 'game_start' && msg.game) {
    refreshPlaying();
    navigate(`/game/${msg.game}`);
  } else if (msg.t === 'challenge' && msg.challenge && ctx.account && msg.challenge.to === ctx.account.name) {
    showChallenge(msg.challenge);
  } else if (msg.t === 'challenge_declined' && ctx.account && msg.by !== ctx.account.name) {
    ctx.toast(t('lobby.declined', { by: msg.by }));
  } else if (msg.t === 'notice') {
    refreshPlaying();
    showNotice(msg);
  }
});

/** Whether the page is out of the player's sight (another tab, another
 *  window): only then is a system notification worth its interruption. */
function outOfSight() {
  return document.visibilityState !== 'visible' || !document.hasFocus();
}

/** The browser's notification, when the player allowed them (the bell in
 *  the header asks, on a click) and is looking elsewhere; clicking it
 *  brings the tab back at `path`. */
function systemNotify(text, path) {
  if (!('Notification' in window) || Notification.permission !== 'granted' || !outOfSight()) return;
  try {
    const n = new Notification(t('app.name'), { body: text, tag: path, icon: '/favicon.svg' });
    n.onclick = () => {
      window.focus();
      navigate(path);
      n.close();
    };
  } catch {
    /* some browsers allow notifications from service workers only */
  }
}

/** A notice of any kind: its words (`notice.{kind}`), a link to its game —
 *  not while that game's page is open, where the player sees it anyway. */
function showNotice(msg) {
  const path = msg.game ? `/game/${msg.game}` : '/';
  if (location.pathname === path && !outOfSight()) return;
  const words = { from: shownName(msg.from) };
  let text = t(`notice.${msg.kind}`, words);
  if (text === `notice.${msg.kind}`) text = t('notice.other', words);
  const item = ctx.toast(text, [
    h('a', {
      class: 'button', href: path, 'data-link': '', onclick: () => item.remove(),
    }, t('notice.open')),
  ], 15000);
  item.classList.add('notice');
  systemNotify(text, path);
}

/** A challenge to this player, as a toast with Accept and Decline and a
 *  link to the challenger's profile; a rematch offer says so. */
async function showChallenge(c) {
  const variants = await loadVariants();
  const v = findVariant(variants, c.variant);
  const game = v ? variantLabel(variants, v) : c.variant;
  const mode = c.rated ? t('lobby.rated') : t('lobby.casual');
  const text = t(c.rematch_of ? 'lobby.rematchFrom' : 'lobby.challengeFrom', {
    from: shownName(c.from), game, time: c.time, mode,
  });
  const item = ctx.toast(text, [
    h('a', {
      class: 'button', href: `/@/${encodeURIComponent(c.from)}`, 'data-link': '',
      'aria-label': `${t('lobby.challenger')}: ${shownName(c.from)}`,
    }, t('lobby.challenger')),
    h('button', {
      type: 'button',
      'aria-label': `${t('lobby.accept')}: ${c.from}`,
      onclick: async () => {
        item.remove();
        const r = await api.acceptChallenge(c.id).catch((e) => ctx.toast(errorText(e)));
        if (r && r.game) navigate(`/game/${r.game}`);
      },
    }, t('lobby.accept')),
    h('button', {
      type: 'button',
      'aria-label': `${t('lobby.decline')}: ${c.from}`,
      onclick: () => {
        item.remove();
        api.declineChallenge(c.id).catch(() => {});
      },
    }, t('lobby.decline')),
  ], 0);
  item.classList.add('challenge-toast');
  item.dataset.challenge = c.id;
  systemNotify(text, '/');
}

document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);
onLangChange(() => {
  document.title = tabTitle();
  renderHeader();
  route();
});

document.documentElement.lang = getLang() === 'zh' ? 'zh-CN' : 'en';
/** The tab's title: "棋局 · qiju" in Chinese, plain "qiju" in English
 *  (not "qiju · qiju"). */
function tabTitle() {
  const name = t('app.name');
  return name === 'qiju' ? name : `${name} · qiju`;
}

document.title = tabTitle();
settings.apply(settings.current());
renderHeader();
// The descriptors first: a data variant's board is made from its own.
Promise.all([ctx.refreshAccount(), loadVariants()]).then(async () => {
  await settings.loadFor(ctx.account);
  restartFeed();
  route();
});
