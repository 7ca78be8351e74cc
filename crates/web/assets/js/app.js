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
  items.push(soundSwitch());
  items.push(lang);
  nav.replaceChildren(...items);
  document.getElementById('brand').replaceChildren(
    h('a', { href: '/', 'data-link': '', 'aria-label': t('app.name') }, h('span', { class: 'logo', 'aria-hidden': 'true' }, '棋'), ' ', t('app.name')),
  );
}

// Personal events reach the player wherever they are.
onFeed((msg) => {
  if (msg.t === 'game_start' && msg.game) {
    navigate(`/game/${msg.game}`);
  } else if (msg.t === 'challenge' && msg.challenge && ctx.account && msg.challenge.to === ctx.account.name) {
    showChallenge(msg.challenge);
  } else if (msg.t === 'challenge_declined' && ctx.account && msg.by !== ctx.account.name) {
    ctx.toast(t('lobby.declined', { by: msg.by }));
  }
});

/** A challenge to this player, as a toast with Accept and Decline. */
async function showChallenge(c) {
  const variants = await loadVariants();
  const v = findVariant(variants, c.variant);
  const game = v ? variantLabel(variants, v) : c.variant;
  const mode = c.rated ? t('lobby.rated') : t('lobby.casual');
  const item = ctx.toast(t('lobby.challengeFrom', { from: c.from, game, time: c.time, mode }), [
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
ctx.refreshAccount().then(async () => {
  await settings.loadFor(ctx.account);
  restartFeed();
  route();
});
