// Gomoku and renju (五子棋 / 连珠) in a real headless Chromium (Debian's),
// driven by playwright-core, against a running `qiju serve`:
//
//   node tests/e2e/renju.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after shogi.mjs. Environment as
// for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS).
//
// Scenarios: A challenges B from the lobby to renju (RIF) as black; stones
// are placed by clicking the board; when black is to move its forbidden
// points carry a red ×, with their kind (a switch turns the marks off);
// move numbers are switched on; a spectator on a phone watches; A plays
// the double-three and loses. Then a swap2 game: A places three stones, B
// gets swap2's dialog and places two more, A chooses white in the colour
// dialog and places the 6th stone: the bars show the colours change while
// the players keep their places. An office-rules game: the page announces
// black's threes (seed 001), black's forbidden stone is pointed out from
// the board's dialog and black plays again. Then
// A plays the computer under
// Soosõrv-8 as the tentative white: the computer puts the opening, A answers
// every step (a colour, the number of 5th moves, offers or a pick on the
// board) as it comes. Every page must log no console error,
// and every control must have a name.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { checkLabels, setUp, waitPly } from './harness.mjs';

const { base, shots, browser, tally, problems, step, person, register } = await setUp('renju.mjs');

// The board's geometry (boards/renju.js): 40 units a line, 44 of margin.
const CELL = 40;
const MARGIN = 44;
const WIDTH = CELL * 14 + 2 * MARGIN;

/** Clicks the point `name` (`h8`) of the board. */
async function clickPoint(page, name) {
  const col = name.charCodeAt(0) - 97;
  const row = Number(name.slice(1)) - 1;
  const b = await page.locator('#board .rj-board').boundingBox();
  const s = b.width / WIDTH;
  await page.mouse.click(b.x + (MARGIN + col * CELL) * s, b.y + (MARGIN + (14 - row) * CELL) * s);
}

/** Places stones by turns: each [page, point] after the previous is stored. */
async function place(list, watcher) {
  for (const [page, point] of list) {
    await page.waitForFunction(() => document.querySelector('#board .rj-board.interactive'));
    const before = await page.$$eval('#moves [data-ply]', (e) => e.length);
    await clickPoint(page, point);
    await waitPly(watcher || page, before + 1);
  }
}

const stoneAt = (page, p) => page.$eval('#board', (b, q) => b.querySelector(`.rj-stones [data-point="${q}"]`)?.dataset.color ?? null, p);

async function challenge(A, B, nameB, variant) {
  await A.page.goto(`${base}/`);
  await A.page.waitForSelector('#challenge-form');
  await A.page.fill('#challenge-name', nameB);
  await A.page.selectOption('#challenge-variant', variant);
  await A.page.selectOption('#challenge-color', 'first');
  await A.page.fill('#challenge-time', '10+5');
  await A.page.click('#send-challenge');
  await B.page.goto(`${base}/`);
  await B.page.click('#challenges [data-challenge] button.primary');
  await B.page.waitForURL(/\/game\//);
  await A.page.waitForURL(/\/game\//);
  assert.equal(A.page.url(), B.page.url());
  for (const p of [A, B]) await p.page.waitForSelector('#board .rj-board');
  return A.page.url().split('/game/')[1];
}

const stamp = Date.now().toString(36).slice(-5);
const nameA = `rjA${stamp}`;
const nameB = `rjB${stamp}`;

try {
  const A = await person('A', 'en-US');
  const B = await person('B', 'zh-CN');
  const C = await person('C (phone)', 'en-US', { width: 390, height: 844 });

  await step('renju: A challenges B from the lobby to renju (RIF) as black', async () => {
    await register(A, nameA);
    await register(B, nameB);
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#challenge-form');
    const offered = await A.page.$$eval('#challenge-variant option', (os) => os.map((o) => [o.value, o.textContent]));
    const ids = offered.map(([v]) => v);
    for (const want of ['gomoku/freestyle', 'gomoku/swap2', 'renju/rif', 'renju/soosorv8', 'renju/office']) {
      assert.ok(ids.includes(want), `${want} offered: ${ids}`);
    }
    assert.ok(offered.some(([v, text]) => v === 'renju/soosorv8' && text === 'Renju · Soosõrv-8'), `named: ${offered}`);
    const game = await challenge(A, B, nameB, 'renju/rif');
    assert.equal(await A.page.getAttribute('.player-bar.seat-bottom', 'data-color'), 'black');
    assert.equal(await B.page.getAttribute('.player-bar.seat-bottom', 'data-color'), 'white');
    await C.page.goto(`${base}/game/${game}`);
    await C.page.waitForSelector('#board .rj-board');
  });

  await step('renju: stones by clicks, forbidden marks for black, move numbers, a loss on a double-three', async () => {
    // Black h8 i8 on row 8 and j9 j10 on column j; white far off.
    await place([
      [A.page, 'h8'], [B.page, 'a1'], [A.page, 'i8'], [B.page, 'a3'],
      [A.page, 'j9'], [B.page, 'a5'], [A.page, 'j10'], [B.page, 'a7'],
    ], null);
    await waitPly(A.page, 8);
    assert.equal(await stoneAt(A.page, 'j10'), 'black');
    assert.equal(await stoneAt(A.page, 'a7'), 'white');
    // The last stone is marked.
    assert.equal(await A.page.$eval('#board .rj-stone.last', (e) => e.dataset.point), 'a7');
    // Black to move: j8 makes two open threes, and is marked.
    await A.page.waitForSelector('#board .rj-forbidden[data-point="j8"]');
    assert.equal(await A.page.getAttribute('#board .rj-forbidden[data-point="j8"]', 'data-kind'), 'double-three');
    // The switch turns the marks off and on again.
    await A.page.uncheck('#rj-forbidden');
    assert.equal(await A.page.$$eval('#board .rj-forbidden', (e) => e.length), 0);
    await A.page.check('#rj-forbidden');
    await A.page.waitForSelector('#board .rj-forbidden[data-point="j8"]');
    // Move numbers.
    await A.page.check('#rj-numbers');
    assert.equal(await A.page.$eval('#board .rj-stones [data-point="j10"] .rj-number', (e) => e.textContent), '7');
    await C.page.check('#rj-numbers');
    await waitPly(C.page, 8);
    await checkLabels(A.page, 'renju game');
    await A.page.screenshot({ path: path.join(shots, 'renju-game.png') });
    await C.page.screenshot({ path: path.join(shots, 'renju-phone.png'), fullPage: true });
    // White sees them too while black is to move (what white may point at).
    await B.page.waitForSelector('#board .rj-forbidden[data-point="j8"]');
    // Black plays the forbidden point and loses.
    await clickPoint(A.page, 'j8');
    await A.page.waitForSelector('#end-dialog[open]');
    assert.equal(await A.page.textContent('#end-title'), 'White wins');
    assert.equal(await A.page.textContent('#end-reason'), 'Black played a forbidden double three (三三)');
    await B.page.waitForSelector('#end-dialog[open]');
    assert.equal(await B.page.textContent('#end-title'), '白胜');
  });

  await step('gomoku swap2: three stones, swap2\'s dialog, two more stones, the colour chosen', async () => {
    await challenge(A, B, nameB, 'gomoku/swap2');
    assert.equal(await A.page.getAttribute('.player-bar.seat-bottom', 'data-color'), 'tentative_black');
    // A, the tentative black, places black, white, black — each click
    // once the board takes clicks again (a click while the page redraws
    // after the last stone was lost, now and then).
    await place([[A.page, 'h8'], [A.page, 'h9'], [A.page, 'i8']], null);
    assert.equal(await stoneAt(A.page, 'h9'), 'white');
    // B is asked: take black, take white, or place two more.
    await B.page.waitForSelector('#renju-choice:not([hidden])');
    const options = await B.page.$$eval('#renju-choice button', (bs) => bs.map((b) => b.dataset.move));
    assert.deepEqual(options, ['choose:black', 'choose:white', 'more']);
    assert.equal(await B.page.textContent('#renju-choice-title'), 'Swap2：请选择');
    await checkLabels(B.page, 'swap2 dialog');
    await B.page.screenshot({ path: path.join(shots, 'renju-swap2.png') });
    assert.ok(await A.page.$eval('#renju-choice', (d) => d.hidden), 'A waits: no dialog');
    await B.page.click('#renju-choice button[data-move="more"]');
    await waitPly(B.page, 4);
    assert.ok(await B.page.$eval('#renju-choice', (d) => d.hidden));
    // B places a white and a black stone.
    await place([[B.page, 'i9'], [B.page, 'j7']], null);
    await waitPly(A.page, 6);
    // A chooses a colour: white.
    await A.page.waitForSelector('#renju-choice:not([hidden])');
    assert.deepEqual(await A.page.$$eval('#renju-choice button', (bs) => bs.map((b) => b.dataset.move)), ['choose:black', 'choose:white']);
    await A.page.screenshot({ path: path.join(shots, 'renju-choose.png') });
    await A.page.click('#renju-choice button[data-move="choose:white"]');
    await waitPly(B.page, 7);
    // The players keep their places; their colours change.
    await A.page.waitForSelector('.player-bar.seat-bottom[data-color="white"]');
    await B.page.waitForSelector('.player-bar.seat-bottom[data-color="black"]');
    // White (A) places the 6th stone.
    await clickPoint(A.page, 'k10');
    await waitPly(B.page, 8);
    assert.equal(await stoneAt(B.page, 'k10'), 'white');
    // The move list keeps each move on its player's side.
    const rows = await A.page.$$eval('#moves li', (lis) => lis.map((li) => [...li.querySelectorAll('.mv')].map((m) => m.textContent)));
    assert.deepEqual(rows.slice(0, 3), [['h8', '…'], ['h9', '…'], ['i8', 'two more stones']]);
    await A.page.click('#resign');
    await A.page.click('#resign-confirm');
    await A.page.waitForSelector('#end-dialog[open]');
    assert.equal(await A.page.textContent('#end-title'), 'Black wins');
  });

  await step('renju office rules: white points out black\'s forbidden stone and black plays again', async () => {
    await challenge(A, B, nameB, 'renju/office');
    // White's first stone goes on its own side of the centre line (rows 9–15).
    await place([
      [A.page, 'h8'], [B.page, 'a15'], [A.page, 'i8'], [B.page, 'a13'],
      [A.page, 'j9'], [B.page, 'a11'], [A.page, 'j10'], [B.page, 'a9'],
    ], null);
    await A.page.waitForFunction(() => document.querySelector('#board .rj-board.interactive'));
    await clickPoint(A.page, 'j8');
    // The platform makes seed 001's announcement: j8 makes two threes (row
    // 8 and column j), each said once, in either language.
    await B.page.waitForSelector('#announce:not([hidden])');
    assert.equal(await B.page.textContent('#announce'), '黑方：活三！');
    await A.page.waitForSelector('#announce:not([hidden])');
    assert.equal(await A.page.textContent('#announce'), 'Black: open three!');
    await B.page.screenshot({ path: path.join(shots, 'renju-announce.png') });
    // The game goes on: white may point the foul out, or play on.
    await B.page.waitForSelector('#renju-choice[data-kind="foul"]:not([hidden])');
    assert.deepEqual(await B.page.$$eval('#renju-choice button', (bs) => bs.map((b) => b.dataset.move)), ['foul']);
    assert.equal(await B.page.textContent('#renju-choice-title'), '黑方落在禁手点上');
    assert.equal(await stoneAt(B.page, 'j8'), 'black');
    await B.page.click('#renju-choice button[data-move="foul"]');
    await waitPly(A.page, 10);
    await A.page.waitForFunction(() => !document.querySelector('#board .rj-stones [data-point="j8"]'));
    // Black moves again, somewhere allowed.
    await place([[A.page, 'g8']], B.page);
    assert.equal(await stoneAt(B.page, 'g8'), 'black');
    await A.page.click('#resign');
    await A.page.click('#resign-confirm');
    await A.page.waitForSelector('#end-dialog[open]');
  });

  await step('renju Soosõrv-8 against the computer: the computer opens, the colour and count dialogs, offers on the board', async () => {
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#computer-form');
    await A.page.selectOption('#cpu-variant', 'renju/soosorv8');
    await A.page.selectOption('#cpu-color', 'second');
    await A.page.click('#computer-form [data-level="1"]');
    await A.page.fill('#cpu-time', '10+5');
    await A.page.click('#play-computer');
    await A.page.waitForURL(/\/game\//);
    const id = A.page.url().split('/game/')[1];
    // The computer, the tentative black, puts one of the 26 openings.
    await waitPly(A.page, 3);
    const view = () => A.page.evaluate((g) => fetch(`/api/games/${g}`).then((r) => r.json()), id);
    const seen = new Set();
    let offersShown = false;
    // The server's view decides what is asked; the page must have caught
    // up with it (its move list as long) before it is clicked.
    const caughtUp = (ply) => A.page.waitForFunction((n) => document.querySelectorAll('#moves [data-ply]').length === n, ply);
    for (let guard = 0; guard < 40; guard += 1) {
      const v = await view();
      if (v.state !== 'live' || v.ply >= 14) break;
      if (v.turn !== 'second') {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      await caughtUp(v.ply);
      const choices = v.legal.filter((m) => !/^([a-z]+:)?[a-o]\d+$/.test(m));
      if (choices.length) {
        // A choice: asked in the board's dialog.
        await A.page.waitForSelector('#renju-choice:not([hidden])');
        const kind = choices[0].startsWith('declare:') ? 'declare' : 'colour';
        seen.add(kind);
        if (kind === 'declare') {
          assert.deepEqual(await A.page.$$eval('#renju-choice button', (bs) => bs.map((b) => b.textContent)), ['1', '2', '3', '4', '5', '6', '7', '8']);
          await checkLabels(A.page, 'declare dialog');
        }
        const pick = choices.includes('declare:2') ? 'declare:2' : choices.includes('choose:white') ? 'choose:white' : choices[0];
        await A.page.click(`#renju-choice button[data-move="${pick}"]`);
      } else {
        const word = ['offer:', 'select:'].find((w) => v.legal.some((m) => m.startsWith(w)));
        if (word) seen.add(word);
        if (word) {
          await A.page.waitForSelector(`#renju-choice[data-kind="prompt"]:not([hidden])`);
          assert.equal(await A.page.textContent('#renju-choice-title'), word === 'offer:' ? 'Offer the 5th moves' : 'Pick a 5th move for black');
        }
        if (word === 'select:') {
          offersShown = (await A.page.$$eval('#board .rj-offer', (e) => e.length)) >= 1;
          await A.page.screenshot({ path: path.join(shots, 'renju-soosorv.png') });
        }
        await A.page.waitForFunction(() => document.querySelector('#board .rj-board.interactive'));
        const points = v.legal.filter((m) => (word ? m.startsWith(word) : !m.includes(':'))).map((m) => m.replace(/^[a-z]+:/, ''));
        const dist = (m) => Math.abs(m.charCodeAt(0) - 104) + Math.abs(Number(m.slice(1)) - 8);
        points.sort((a, b) => dist(a) - dist(b));
        await clickPoint(A.page, points[0]);
      }
      // Until the server has it.
      for (let w = await view(); w.ply === v.ply && w.state === 'live'; w = await view()) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // Whichever colours the computer chose, the person saw a colour choice
    // and declared the count or offered 5th moves or picked one.
    assert.ok(seen.has('colour'), `steps seen: ${[...seen]}`);
    const v = await view();
    assert.ok(['black', 'white'].includes(v.sides[1]), `colours settled: ${v.sides}`);
    if (seen.has('select:')) assert.ok(offersShown, 'the offers were drawn on the board');
    if (v.state === 'live') {
      await A.page.click('#resign');
      await A.page.click('#resign-confirm');
    }
    await A.page.waitForSelector('#end-dialog[open]');
  });

  await step('the analysis board explores an opening\'s choices too', async () => {
    await A.page.goto(`${base}/analysis?variant=gomoku/swap2&moves=h8,h9,i8`);
    await A.page.waitForSelector('#renju-choice:not([hidden])');
    await A.page.click('#renju-choice button[data-move="choose:black"]');
    await A.page.waitForFunction(() => location.search.includes('choose%3Ablack') || location.search.includes('choose:black'));
    await A.page.waitForSelector('#renju-choice', { state: 'hidden' });
    await A.page.waitForFunction(() => document.querySelector('#board .rj-board.interactive'));
  });

  await step('no page logged a console error', async () => {
    assert.deepEqual(problems, []);
  });
} catch (e) {
  for (const [i, c] of browser.contexts().entries()) {
    for (const pg of c.pages()) await pg.screenshot({ path: path.join(shots, `renju-failure-${i}.png`) }).catch(() => {});
  }
  if (problems.length) console.log(`console problems so far:\n  ${problems.join('\n  ')}`);
  if (!tally.failed) {
    tally.failed += 1;
    console.log(`not ok - ${e.stack || e}`);
  }
} finally {
  await browser.close();
}

console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed ? 1 : 0);
