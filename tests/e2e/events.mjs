// Issue 28, events: an organiser creates an event in the page, two players
// join it with the page's button, the organiser pairs the round with the
// arbiter's button, the players' game opens for them by itself, the game
// is played, the standings move, and the
// arbiter's correction moves them again — in a real headless Chromium
// (Debian's) driven by playwright-core against a running `qiju serve`:
//
//   node tests/e2e/events.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after casual.mjs. Environment as
// for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS). Screenshots: the event
// list and the event page, desktop (English) and phone (Chinese).

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

    // The arbiter corrects the result; the standings follow.
    const fix = await call(A.page, 'POST', `/api/events/${eventId}/result`,
      { round: 1, board: 1, result: '0-1', reason: 'e2e correction' });
    assert.equal(fix.status, 204);
    await A.page.reload();
    await A.page.waitForSelector('#event-standings tr');
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
} finally {
  finish('events.mjs');
}
