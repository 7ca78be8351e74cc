// Issue 30, second round, features 3 and 5: quick pairing, friends and
// notifications, in a real headless Chromium (Debian's) driven by
// playwright-core against a running `qiju serve`:
//
//   node tests/e2e/social.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after players2.mjs. Environment
// as for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS). Desktop is 1280×900,
// the phone 390×844. Every page must log no console error, and every
// control must have a name.

import assert from 'node:assert/strict';
import { call, checkLabels, setUp, DESKTOP, PHONE } from './harness.mjs';

const { base, browser, expected, step, person, register, shot, finish } = await setUp('social.mjs', {
  emulatePhones: true,
  keepGoing: process.env.QIJU_E2E_KEEP_GOING === '1',
});

const tile = (tc) => `#quick-grid [data-tc="${tc}"]`;

const stamp = Date.now().toString(36).slice(-5);
const nameA = `soa${stamp}`;
const nameB = `sob${stamp}`;
const nameC = `soc${stamp}`;
let quickGame = null;

try {
  const A = await person('A (en, desktop)', 'en-US');
  const B = await person('B (zh, phone)', 'zh-CN', PHONE);
  const C = await person('C (en, desktop)', 'en-US');

  await step('three players register', async () => {
    await register(A, nameA);
    await register(B, nameB);
    await register(C, nameC);
  });

  await step('the quick-pairing grid lists the game\'s own clocks (the registry\'s), and follows the game chosen', async () => {
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector(tile('5+3'));
    const info = await A.page.evaluate(() => fetch('/api/info').then((r) => r.json()));
    const of = (id) => info.variants.find((v) => v.id === id).quick_pairings;
    const shown = () => A.page.$$eval('#quick-grid [data-tc]', (els) => els.map((e) => e.dataset.tc));
    assert.deepEqual(await shown(), of('xiangqi/cxa'));
    await A.page.selectOption('#quick-variant', 'shogi/standard');
    assert.deepEqual(await shown(), of('shogi/standard'));
    assert.ok((await shown()).some((tc) => tc.includes('|')), 'shogi offers byo-yomi');
    assert.match(await A.page.getAttribute(tile('10|30s'), 'aria-label'), /byo-yomi/);
    await A.page.selectOption('#quick-variant', 'xiangqi/cxa');
    assert.equal(await A.page.inputValue('#quick-range'), '500');
    await checkLabels(A.page, 'lobby with quick pairing');
  });

  await step('a player outside a waiting seek\'s range is not paired: their tile waits, and a second click stops it', async () => {
    // C waits for 5+3 against strong players only (A, new, is 1400).
    await C.page.goto(`${base}/`);
    await C.page.waitForSelector(tile('5+3'));
    const made = await call(C.page, 'POST', '/api/seeks', {
      variant: 'xiangqi/cxa', time: '5+3', rated: true, color: 'random', rating_min: 1800,
    });
    assert.equal(made.status, 200);
    assert.ok(made.body.seek, JSON.stringify(made.body));
    await A.page.waitForSelector(`#seek-rows tr[data-seek="${made.body.seek}"]`);
    await A.page.click(tile('5+3'));
    await A.page.waitForSelector(`${tile('5+3')}[aria-pressed="true"]`);
    await A.page.waitForTimeout(1000);
    assert.ok(A.page.url().endsWith('/'), `A was paired: ${A.page.url()}`);
    assert.ok(C.page.url().endsWith('/'), `C was paired: ${C.page.url()}`);
    const seeks = await A.page.evaluate(() => fetch('/api/seeks').then((r) => r.json()));
    const mine = seeks.find((s) => s.player === nameA);
    assert.ok(mine && mine.rating_min !== null && mine.rating_max - mine.rating_min === 1000, `±500 sent: ${JSON.stringify(mine)}`);
    assert.ok(seeks.some((s) => s.player === nameC), 'C\'s seek still waits');
    await A.page.click(tile('5+3'));
    await A.page.waitForSelector(`${tile('5+3')}[aria-pressed="false"]`);
    const after = await A.page.evaluate(() => fetch('/api/seeks').then((r) => r.json()));
    assert.ok(!after.some((s) => s.player === nameA), 'the second click withdrew A\'s seek');
    assert.equal((await call(C.page, 'DELETE', `/api/seeks/${made.body.seek}`)).status, 204);
  });

  await step('two players click the same tile and get one game', async () => {
    await B.page.goto(`${base}/`);
    await B.page.waitForSelector(tile('5+3'));
    // The phone lobby still shows how to start a game on its first screen.
    const where = await B.page.evaluate(() => ({
      seekButton: document.querySelector('#create-seek').getBoundingClientRect().bottom,
      computerTitle: document.querySelector('#cpu-title').getBoundingClientRect().bottom,
      height: window.innerHeight,
    }));
    assert.ok(where.seekButton <= where.height && where.computerTitle <= where.height, JSON.stringify(where));
    await A.page.click(tile('5+3'));
    await A.page.waitForSelector(`${tile('5+3')}[aria-pressed="true"]`);
    await B.page.waitForSelector(`#seek-rows tr[data-seek] >> text=${nameA}`);
    await B.page.click(tile('5+3'));
    await B.page.waitForURL(/\/game\//);
    await A.page.waitForURL(/\/game\//);
    quickGame = A.page.url().split('/game/')[1];
    assert.equal(B.page.url().split('/game/')[1], quickGame);
    await A.page.waitForSelector('#board [data-piece]');
    const view = await A.page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), quickGame);
    assert.equal(view.time_control, '5+3');
    assert.equal(view.rated, true);
    assert.deepEqual([view.first.name, view.second.name].sort(), [nameA, nameB].sort());
  });

  await step('following from a profile shows the friend online and playing, with a link to watch', async () => {
    await C.page.goto(`${base}/@/${nameA}`);
    await C.page.waitForSelector('#profile-follow');
    assert.equal(await C.page.getAttribute('#profile-follow', 'aria-pressed'), 'false');
    await C.page.click('#profile-follow');
    await C.page.waitForSelector('#profile-follow[aria-pressed="true"]');
    assert.equal(await C.page.textContent('#profile-follow'), 'Unfollow');
    await checkLabels(C.page, 'profile with Follow');
    await C.page.click('#nav a[href="/"]');
    const row = `#friends li[data-name="${nameA}"]`;
    await C.page.waitForSelector(row);
    assert.equal(await C.page.getAttribute(row, 'data-online'), '1');
    assert.match(await C.page.textContent(row), new RegExp(`playing ${nameB}`));
    assert.equal(await C.page.getAttribute(`${row} a[href^="/game/"]`, 'href'), `/game/${quickGame}`);
    await checkLabels(C.page, 'lobby with friends');
    await shot(C, 'social-lobby-en');
    await C.page.click(`${row} a[href^="/game/"]`);
    await C.page.waitForURL(new RegExp(`/game/${quickGame}$`));
    await C.page.waitForSelector('#board [data-piece]');
    await C.page.click('#nav a[href="/"]');
    await C.page.waitForSelector(row);
  });

  await step('screenshots: the lobby in Chinese, and on a phone in both languages', async () => {
    await C.page.selectOption('#lang', 'zh');
    await C.page.waitForFunction(() => document.querySelector('#quick-title')?.textContent === '快速配对');
    await C.page.waitForSelector(`#friends li[data-name="${nameA}"]`);
    assert.match(await C.page.textContent(`#friends li[data-name="${nameA}"]`), /正在对/);
    await shot(C, 'social-lobby-zh');
    await C.page.setViewportSize(PHONE);
    await C.page.waitForTimeout(300);
    await shot(C, 'social-lobby-phone-zh');
    await C.page.evaluate(() => document.querySelector('#quick-pairing').scrollIntoView());
    await shot(C, 'social-lobby-phone-quick-zh');
    await C.page.selectOption('#lang', 'en');
    await C.page.waitForFunction(() => document.querySelector('#quick-title')?.textContent === 'Quick pairing');
    await C.page.evaluate(() => window.scrollTo(0, 0));
    await shot(C, 'social-lobby-phone-en');
    await C.page.evaluate(() => document.querySelector('#quick-pairing').scrollIntoView());
    await shot(C, 'social-lobby-phone-quick-en');
    await C.page.setViewportSize(DESKTOP);
    await C.page.evaluate(() => window.scrollTo(0, 0));
  });

  await step('a challenge from the friends list reaches A on another page: a toast with a working link, and the browser\'s notification', async () => {
    // A is on their game's page; the browser allowed notifications and
    // A looks at another window (a stand-in records what would be shown).
    await A.page.evaluate(() => {
      window.shownNotes = [];
      window.Notification = class {
        static permission = 'granted';
        constructor(title, opts) { window.shownNotes.push({ title, body: opts.body }); }
        close() {}
      };
      document.hasFocus = () => false;
    });
    const row = `#friends li[data-name="${nameA}"]`;
    await C.page.click(`${row} .friend-challenge`);
    assert.equal(await C.page.inputValue('#challenge-name'), nameA);
    await C.page.click('#challenge-form [data-tc="3+2"]');
    await C.page.click('#send-challenge');
    const toast = A.page.locator('.toast.challenge-toast');
    await toast.waitFor();
    assert.match(await toast.textContent(), new RegExp(`${nameC} challenges you`));
    const notes = await A.page.evaluate(() => window.shownNotes);
    assert.equal(notes.length, 1, JSON.stringify(notes));
    assert.match(notes[0].body, new RegExp(nameC));
    await shot(A, 'social-challenge-toast-en');
    // The link: the challenger's profile, the toast staying for an answer.
    await toast.locator(`a[href="/@/${nameC}"]`).click();
    await A.page.waitForURL(new RegExp(`/@/${nameC}$`));
    await A.page.waitForSelector('#profile-rating');
    await toast.locator('button', { hasText: 'Accept' }).click();
    await A.page.waitForURL(/\/game\//);
    const game = A.page.url().split('/game/')[1];
    assert.notEqual(game, quickGame);
    await C.page.waitForURL(new RegExp(`/game/${game}$`));
    const view = await A.page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), game);
    assert.equal(view.time_control, '3+2');
  });

  await step('unfollowing from the friends list empties it', async () => {
    await C.page.click('#nav a[href="/"]');
    const row = `#friends li[data-name="${nameA}"]`;
    await C.page.waitForSelector(row);
    await C.page.click(`${row} .friend-unfollow`);
    await C.page.waitForSelector(row, { state: 'detached' });
    assert.deepEqual(await call(C.page, 'GET', '/api/follows').then((r) => r.body), []);
    // Bad input gets its reason, in the player's words (the browser logs
    // the refused requests: expected here).
    expected.push(/status of 404/, /status of 400/);
    await C.page.fill('#follow-name', 'no_such_player_zz');
    await C.page.click('#follow-submit');
    await C.page.waitForFunction(() => document.querySelector('#friends-message').textContent.includes('no_such_player_zz'));
    await C.page.fill('#follow-name', nameC);
    await C.page.click('#follow-submit');
    await C.page.waitForFunction(() => document.querySelector('#friends-message').textContent === 'You cannot follow yourself.');
  });

  for (const p of [A, B, C]) await p.context.close();
} finally {
  await browser.close();
}

finish('social');
