// Issue 30's casual play in a real headless Chromium (Debian's) driven by
// playwright-core against a running `qiju serve`: takebacks (悔棋) asked,
// refused and granted on the game page, the setting that refuses them, a
// correspondence (daily) game made from the challenge form, and the lists
// of your games — in the lobby and the header — saying whose move it is.
//
//   node tests/e2e/casual.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after players2.mjs. Environment
// as for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS). A plays in English on
// a desktop (1280×900), B in Chinese on a phone (390×844). Every page must
// log no console error, and every control must have a name.

import assert from 'node:assert/strict';
import path from 'node:path';
import {
  boardPosition, call, checkLabels, setUp, typeMove, waitPly, DESKTOP, PHONE, root,
} from './harness.mjs';

const { base, step, person, register, shot, finish, browser } = await setUp('casual.mjs', {
  emulatePhones: true,
  keepGoing: process.env.QIJU_E2E_KEEP_GOING === '1',
});

const rules = await import(path.join(root, 'crates/web/assets/js/rules/xiangqi.js'));

/** Waits until the move list holds exactly `n` moves. */
async function waitMoves(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves [data-ply]').length === k, n);
}

/** A challenges B to `time` (casual) over the API and B accepts: the game's id. */
async function challenge(A, B, nameB, time) {
  const made = await call(A.page, 'POST', '/api/challenges', { to: nameB, time, color: 'first', rated: false });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const acc = await call(B.page, 'POST', `/api/challenges/${made.body.id}/accept`);
  assert.equal(acc.status, 200, JSON.stringify(acc.body));
  return acc.body.game;
}

const stamp = Date.now().toString(36).slice(-5);
const nameA = `cza${stamp}`;
const nameB = `czb${stamp}`;
const START = rules.parseFen(rules.STARTPOS);

try {
  const A = await person('A (en, desktop)', 'en-US');
  const B = await person('B (zh, phone)', 'zh-CN', PHONE);
  await register(A, nameA);
  await register(B, nameB);

  await step('feature 1: a takeback asked, refused, asked again and granted; the board goes back', async () => {
    const game = await challenge(A, B, nameB, '10+5');
    await A.page.goto(`${base}/game/${game}`);
    await B.page.goto(`${base}/game/${game}`);
    await A.page.waitForSelector('#takeback');
    assert.equal(await A.page.isDisabled('#takeback'), true, 'nothing of A\'s to take back yet');
    await typeMove(A.page, 'h2e2');
    await waitPly(B.page, 1);
    await typeMove(B.page, 'h9g7');
    await waitPly(A.page, 2);
    // A asks; B sees the request and refuses it.
    await A.page.click('#takeback');
    await B.page.waitForSelector('#takeback-accept');
    assert.match(await B.page.textContent('#notice'), /请求悔棋/);
    await checkLabels(B.page, 'takeback request');
    await shot(B, 'casual-takeback-request-phone-zh');
    await B.page.click('#takeback-decline');
    await A.page.waitForFunction(() => /refused/.test(document.querySelector('#notice')?.textContent || ''));
    await A.page.waitForSelector('#takeback:not([disabled])');
    // Asked again and granted: B's reply and A's move go, A to move again.
    await A.page.click('#takeback');
    await B.page.waitForSelector('#takeback-accept');
    await B.page.click('#takeback-accept');
    await waitMoves(A.page, 0);
    await waitMoves(B.page, 0);
    assert.deepEqual(await boardPosition(A.page), START.board, 'A\'s board is the start again');
    assert.deepEqual(await boardPosition(B.page), START.board, 'B\'s board too');
    const v = (await call(A.page, 'GET', `/api/games/${game}`)).body;
    assert.equal(v.ply, 0);
    assert.equal(v.turn, 'first');
    await shot(A, 'casual-taken-back-en');
    // And play goes on with another move.
    await typeMove(A.page, 'b2e2');
    await waitPly(B.page, 1);
    assert.equal(await B.page.getAttribute('#moves [data-ply="1"]', 'data-move'), 'b2e2');
    assert.equal((await call(A.page, 'POST', `/api/games/${game}/resign`)).status, 200);
  });

  await step('feature 1: a player who turns takebacks off in the settings is never asked', async () => {
    await B.page.goto(`${base}/settings`);
    await B.page.waitForSelector('#setting-takebacks');
    await checkLabels(B.page, 'settings');
    await B.page.uncheck('#setting-takebacks');
    await B.page.waitForFunction(() => document.querySelector('#settings-status')?.textContent.length > 0);
    const s = (await call(B.page, 'GET', '/api/account/settings')).body;
    assert.equal(s.takebacks, false, JSON.stringify(s));
    await shot(B, 'casual-settings-takebacks-phone-zh');
    const game = await challenge(A, B, nameB, '10+5');
    await A.page.goto(`${base}/game/${game}`);
    await A.page.waitForSelector('#move-input');
    await typeMove(A.page, 'h2e2');
    await waitPly(A.page, 1);
    await A.page.click('#takeback');
    await A.page.waitForFunction(() => /does not accept takebacks/.test(document.querySelector('#notice')?.textContent || ''));
    const v = (await call(A.page, 'GET', `/api/games/${game}`)).body;
    assert.equal(v.ply, 1, 'nothing taken back');
    assert.equal(v.takeback_offer, null);
    // Put the setting back for the games below (the accepted challenge
    // took B to the game).
    await B.page.goto(`${base}/settings`);
    await B.page.check('#setting-takebacks');
    await B.page.waitForFunction(() => document.querySelector('#settings-status')?.textContent.length > 0);
    await call(A.page, 'POST', `/api/games/${game}/resign`);
  });

  await step('features 4 and 2: a correspondence game from the challenge form; whose move in the lobby and the header', async () => {
    await A.page.goto(`${base}/?challenge=${nameB}`);
    await A.page.waitForSelector('#challenge-form');
    await A.page.click('#challenge-form [data-tc="3d"]');
    await A.page.selectOption('#challenge-color', 'first');
    assert.equal(await A.page.textContent('#challenge-form [data-tc="3d"]'), '3 days a move');
    await A.page.click('#send-challenge');
    await A.page.waitForSelector('#challenges [data-challenge]');
    const mine = (await call(B.page, 'GET', '/api/challenges')).body;
    const c = mine.find((x) => x.from === nameA);
    assert.equal(c.time, '3d');
    const acc = await call(B.page, 'POST', `/api/challenges/${c.id}/accept`);
    const game = acc.body.game;
    await A.page.goto(`${base}/game/${game}`);
    await A.page.waitForSelector('#move-input');
    // The clock counts days, and says what the time control is.
    const clockText = await A.page.textContent('.clock');
    assert.match(clockText, /3 days a move/, clockText);
    await typeMove(A.page, 'h2e2');
    await waitPly(A.page, 1);
    assert.match(await A.page.textContent('.clock.running'), /2 d 23 h|3 d 0 h/);
    // The header follows the move: no game waits for A now.
    await A.page.waitForFunction(() => /Your games \(1\)/.test(document.querySelector('#nav-playing')?.textContent || ''));
    await shot(A, 'casual-correspondence-game-en');
    // B was elsewhere all along: the lobby says the game waits for B.
    await B.page.goto(`${base}/`);
    await B.page.waitForSelector(`#your-game [data-game="${game}"]`);
    const line = await B.page.textContent(`#your-game [data-game="${game}"]`);
    assert.match(line, /轮到你走/, line);
    assert.match(line, /剩余 2天23小时|剩余 3天0小时/, line);
    assert.match(line, /每步3天/, line);
    assert.equal(await B.page.getAttribute(`#your-game [data-game="${game}"]`, 'data-turn'), 'you');
    await B.page.waitForFunction(() => /轮到你走 \(1\)/.test(document.querySelector('#nav-playing')?.textContent || ''));
    // The phone's header wraps; the list is on the first screen.
    const top = await B.page.$eval('#your-game', (e) => e.getBoundingClientRect().top);
    assert.ok(top < 844, `the list starts at ${top}px`);
    await shot(B, 'casual-your-games-phone-zh');
    // A's lobby: the same game, waiting for B; the header counts A's games.
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector(`#your-game [data-game="${game}"]`);
    assert.equal(await A.page.getAttribute(`#your-game [data-game="${game}"]`, 'data-turn'), 'them');
    assert.match(await A.page.textContent(`#your-game [data-game="${game}"]`), /Their move/);
    await A.page.waitForFunction(() => /Your games \(1\)/.test(document.querySelector('#nav-playing')?.textContent || ''));
    // A daily game does not hold A at the board: a seek is made at once.
    await A.page.click('#seek-form button[type=submit]');
    await A.page.waitForFunction(() => document.querySelector('#seek-busy')?.hidden !== false);
    await checkLabels(A.page, 'lobby with your games');
    await shot(A, 'casual-your-games-en');
    // B answers from the list; the move reaches A's list.
    await B.page.click(`#your-game [data-game="${game}"] a`);
    await B.page.waitForSelector('#move-input');
    await typeMove(B.page, 'h9g7');
    await waitPly(B.page, 2);
    await A.page.reload();
    await A.page.waitForSelector(`#your-game [data-game="${game}"][data-turn="you"]`);
    await A.page.waitForFunction(() => /Your move \(1\)/.test(document.querySelector('#nav-playing')?.textContent || ''));
    // The other two of each page: English on a phone, Chinese on a desktop.
    await B.page.setViewportSize(DESKTOP);
    // B's header follows B's own move (asked again a moment after it).
    await B.page.waitForFunction(() => /我的对局 \(1\)/.test(document.querySelector('#nav-playing')?.textContent || ''));
    await shot(B, 'casual-correspondence-game-zh');
    await A.page.setViewportSize(PHONE);
    await A.page.waitForTimeout(200);
    await shot(A, 'casual-your-games-phone-en');
    await A.page.click(`#your-game [data-game="${game}"] a`);
    await A.page.waitForSelector('#move-input');
    await shot(A, 'casual-correspondence-game-phone-en');
    await B.page.goto(`${base}/`);
    await B.page.waitForSelector(`#your-game [data-game="${game}"][data-turn="them"]`);
    await shot(B, 'casual-your-games-zh');
    await B.page.goto(`${base}/settings`);
    await B.page.waitForSelector('#setting-takebacks');
    await shot(B, 'casual-settings-zh');
    await A.page.goto(`${base}/settings`);
    await A.page.waitForSelector('#setting-takebacks');
    await shot(A, 'casual-settings-phone-en');
  });

  await A.context.close();
  await B.context.close();
} finally {
  await browser.close();
}

finish('casual');
