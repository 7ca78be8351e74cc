// Issue 28, events: an organiser creates an event in the page, two players
// join it with the page's button, the organiser pairs the round with the
// arbiter's button, the players' game opens for them by itself, the game
// is played, the standings move, and the
// arbiter's correction in the arbiter's panel moves them again; then an
// arena: created in the page, joined, started, a player's game and the
// berserk button on the event page, the sheets with their marks — in a real headless Chromium
// (Debian's) driven by playwright-core against a running `qiju serve`:
//
//   node tests/e2e/events.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after casual.mjs. Environment as
// for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS). Screenshots: the event
// list, the event page, the arbiter's panel and the arena, desktop
// (English) and phone (Chinese).

import assert from 'node:assert/strict';
import { call, checkLabels, setUp, PHONE } from './harness.mjs';

const { base, step, person, register, shot, finish } = await setUp('events.mjs', {
  emulatePhones: true,
  keepGoing: process.env.QIJU_E2E_KEEP_GOING === '1',
});

const stamp = Date.now().toString(36).slice(-5);
const eventName = `Open ${stamp}`;
let eventId = null;
let game = null;

/** The standings' points of `name`, as the page shows them. */
async function pointsOf(page, name) {
  return page.$$eval('#event-standings tr', (rows, n) => {
    const row = rows.find((r) => r.children[1]?.textContent.endsWith(n));
    return row ? row.children[2].textContent : null;
  }, name);
}

try {
  const A = await person('A organiser (en, desktop)', 'en-US');
  const B = await person('B (zh, phone)', 'zh-CN', PHONE);
  const C = await person('C (en, desktop)', 'en-US');
  const nameB = `evb${stamp}`;
  const nameC = `evc${stamp}`;

  await step('three people register', async () => {
    await register(A, `eva${stamp}`);
    await register(B, nameB);
    await register(C, nameC);
  });

  await step('the organiser creates a Swiss in the events page', async () => {
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector('#event-create');
    await checkLabels(A.page, 'A events list');
    await A.page.fill('#event-name', eventName);
    await A.page.selectOption('#event-system', 'swiss');
    await A.page.fill('#event-rounds', '3');
    await A.page.click('#event-create button[type=submit]');
    await A.page.waitForURL(/\/event\/[A-Za-z0-9_-]+$/);
    eventId = A.page.url().split('/').pop();
    await A.page.waitForFunction((n) => document.querySelector('h1')?.textContent === n, eventName);
  });

  await step('two players find it and join with the button', async () => {
    for (const p of [B, C]) {
      await p.page.goto(`${base}/events`);
      await p.page.click(`#events-upcoming a[href="/event/${eventId}"]`);
      await p.page.waitForSelector('#event-actions button');
      await p.page.click('#event-actions button');
      await p.page.waitForFunction(() => document.querySelectorAll('#event-entries li').length >= 1);
    }
    await B.page.waitForFunction(() => document.querySelectorAll('#event-entries li').length === 2);
    await checkLabels(B.page, 'B event page');
  });

  await step('the arbiter pairs round 1; both players see the pairing', async () => {
    await A.page.reload();
    const pairButton = A.page.locator('#event-actions button', { hasText: 'Pair the next round' });
    await pairButton.click();
    await A.page.waitForSelector('#event-rounds a[href^="/game/"]');
    const href = await A.page.getAttribute('#event-rounds a[href^="/game/"]', 'href');
    game = href.split('/').pop();
    // The player's game opens by itself, as any game that starts for them.
    await B.page.waitForURL(`**/game/${game}`);
    await shot(B, 'events-game-phone');
    await B.page.goto(`${base}/event/${eventId}`);
    await B.page.waitForSelector(`#event-rounds a[href="/game/${game}"]`);
    await shot(A, 'events-page-desktop');
    await shot(B, 'events-page-phone');
  });

  await step('the game is played; the standings move', async () => {
    const view = await call(B.page, 'GET', `/api/games/${game}`);
    const first = view.body.first.name === nameB ? B : C;
    const second = first === B ? C : B;
    const secondName = second === B ? nameB : nameC;
    assert.equal((await call(first.page, 'POST', `/api/games/${game}/move/h2e2`)).status, 200);
    assert.equal((await call(second.page, 'POST', `/api/games/${game}/move/h7e7`)).status, 200);
    assert.ok((await call(second.page, 'POST', `/api/games/${game}/resign`)).status < 300);
    const firstName = first === B ? nameB : nameC;
    // The page looks again every 5 s.
    await A.page.waitForFunction(
      ([n]) => [...document.querySelectorAll('#event-standings tr')]
        .some((r) => r.children[1]?.textContent.endsWith(n) && r.children[2].textContent === '1.0'),
      [firstName], { timeout: 15000 },
    );
    assert.equal(await pointsOf(A.page, secondName), '0.0');

    // The arbiter corrects the result in the panel; the standings follow.
    await A.page.waitForSelector('#arbiter-panel:not([hidden]) #result-form');
    await checkLabels(A.page, 'A arbiter panel');
    await A.page.fill('#result-round', '1');
    await A.page.fill('#result-board', '1');
    await A.page.selectOption('#result-value', '0-1');
    await A.page.fill('#result-reason', 'e2e correction');
    await A.page.click('#result-form button');
    await A.page.waitForFunction(
      ([n]) => [...document.querySelectorAll('#event-standings tr')]
        .some((r) => r.children[1]?.textContent.endsWith(n) && r.children[2].textContent === '1.0'),
      [secondName], { timeout: 15000 },
    );
    await A.page.waitForSelector('#event-log li');
    await shot(A, 'events-arbiter-panel-desktop');
    assert.equal(await pointsOf(A.page, secondName), '1.0');
    assert.equal(await pointsOf(A.page, firstName), '0.0');
    const log = await call(A.page, 'GET', `/api/events/${eventId}/log`);
    assert.ok(log.body.some((l) => l.action === 'result' && l.detail.includes('e2e correction')));
  });

  await step('the event list, desktop and phone', async () => {
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector(`#events-running a[href="/event/${eventId}"]`);
    await shot(A, 'events-list-desktop');
    await B.page.goto(`${base}/events`);
    await B.page.waitForSelector(`#events-running a[href="/event/${eventId}"]`);
    await checkLabels(B.page, 'B events list');
    await shot(B, 'events-list-phone');
  });

  let arenaId = null;
  await step('an arena: created in the page, joined, started', async () => {
    await A.page.goto(`${base}/events`);
    await A.page.waitForSelector('#event-create');
    await A.page.fill('#event-name', `Arena ${stamp}`);
    await A.page.selectOption('#event-system', 'arena');
    await A.page.fill('#event-minutes', '5');
    await A.page.click('#event-create button[type=submit]');
    await A.page.waitForURL(/\/event\/[A-Za-z0-9_-]+$/);
    arenaId = A.page.url().split('/').pop();
    for (const p of [B, C]) {
      await p.page.goto(`${base}/event/${arenaId}`);
      await p.page.waitForSelector('#event-actions button');
      await p.page.click('#event-actions button');
      await p.page.waitForFunction(() => document.querySelectorAll('#event-entries li').length >= 1);
    }
    await A.page.reload();
    await A.page.locator('#event-actions button', { hasText: 'Start the arena' }).click();
    // The pairing opens the players' game by itself.
    await B.page.waitForURL('**/game/*');
    await B.page.goto(`${base}/event/${arenaId}`);
    await B.page.waitForSelector('#my-game a[href^="/game/"]');
    const g = (await B.page.getAttribute('#my-game a', 'href')).split('/').pop();
    // Berserk from the event page, before the first move.
    await B.page.locator('#event-actions button', { hasText: '狂战' }).click();
    const view = await call(B.page, 'GET', `/api/events/${arenaId}`);
    const mine = view.body.arena.games.find((x) => x.game === g);
    assert.ok(mine.white_berserk || mine.black_berserk, JSON.stringify(mine));
    const gv = await call(B.page, 'GET', `/api/games/${g}`);
    const [first, second] = gv.body.first.name === nameB ? [B, C] : [C, B];
    for (const [p, mv] of [[first, 'h2e2'], [second, 'h7e7']]) {
      assert.equal((await call(p.page, 'POST', `/api/games/${g}/move/${mv}`)).status, 200);
    }
    assert.ok((await call(second.page, 'POST', `/api/games/${g}/resign`)).status < 300);
    await A.page.waitForFunction(() => [...document.querySelectorAll('#event-standings tr')]
      .some((r) => r.children[2]?.textContent === '2'), null, { timeout: 15000 });
    await A.page.waitForSelector('#arena-games a[href^="/game/"]');
    // The two are paired again at once (the game opens for them); B pauses,
    // and reads the arena with the pause button turned into "join again".
    assert.equal((await call(B.page, 'POST', `/api/events/${arenaId}/withdraw`)).status, 204);
    await B.page.goto(`${base}/event/${arenaId}`);
    await B.page.waitForSelector('#arena-games a[href^="/game/"]');
    await B.page.locator('#event-actions button', { hasText: '重新加入' }).waitFor();
    await checkLabels(B.page, 'B arena page');
    await shot(A, 'events-arena-desktop');
    await shot(B, 'events-arena-phone');
  });
} finally {
  finish('events.mjs');
}
