// Shogi (将棋) in a real headless Chromium (Debian's), driven by
// playwright-core, against a running `qiju serve`:
//
//   node tests/e2e/shogi.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs after run.mjs. Environment as
// for run.mjs (QIJU_CHROMIUM, QIJU_SCREENSHOTS; QIJU_REQUIRE_ORACLES=1
// makes a missing Fairy-Stockfish a failure).
//
// Scenarios: A challenges B from the lobby to shogi with 10 s byo-yomi
// (0|10s) and plays as sente: a move by clicks, a bishop capture that
// asks 成/不成 (promote), a drop dragged from the hand (駒台), B's drop by
// clicking the hand then a square, a capture that declines promotion
// (不成); a spectator on a phone watches and flips the board; B lets the
// byo-yomi run out and loses on time. The move list reads in Japanese,
// western and USI notation; the replay offers the KIF. Then A plays the
// computer (Fairy-Stockfish over USI) a two-piece handicap game (二枚落ち)
// as the receiver: the computer, the giver, moves first. Every page must
// log no console error, and every control must have a name.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { checkLabels, setUp, waitPly } from './harness.mjs';

const { base, shots, browser, tally, problems, step, person, register } = await setUp('shogi.mjs', { acceptDownloads: true });

const required = process.env.QIJU_REQUIRE_ORACLES === '1';

const pieceOn = (page, sq) => page.$eval('#board', (b, s) => b.querySelector(`.sg-pieces [data-square="${s}"]`)?.dataset.piece ?? null, sq);
const hit = (sq) => `#board .sg-hits [data-square="${sq}"]`;

async function centre(page, selector) {
  const b = await page.locator(selector).boundingBox();
  return [b.x + b.width / 2, b.y + b.height / 2];
}

/** Clicks a move: the piece's square, then the destination. */
async function clickMove(page, from, to) {
  await page.click(hit(from));
  await page.waitForSelector(`#board [data-dest="${to}"]`);
  await page.click(hit(to));
}

const stamp = Date.now().toString(36).slice(-5);
const nameA = `sgA${stamp}`;
const nameB = `sgB${stamp}`;
let gameId = null;

try {
  const A = await person('A', 'en-US');
  const B = await person('B', 'zh-CN');
  const C = await person('C (phone)', 'en-US', { width: 390, height: 844 });

  await step('shogi: A challenges B from the lobby (sente, 0|10s byo-yomi); B accepts', async () => {
    await register(A, nameA);
    await register(B, nameB);
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#challenge-form');
    const offered = await A.page.$$eval('#challenge-variant option', (os) => os.map((o) => [o.value, o.textContent]));
    const ids = offered.map(([v]) => v);
    for (const want of ['shogi/standard', 'shogi/declaration', 'shogi/lance', 'shogi/two-pieces', 'shogi/ten-pieces']) {
      assert.ok(ids.includes(want), `${want} offered: ${ids}`);
    }
    assert.ok(offered.some(([v, text]) => v === 'shogi/standard' && text === 'Shogi'), 'with its name');
    await A.page.fill('#challenge-name', nameB);
    await A.page.selectOption('#challenge-variant', 'shogi/standard');
    await A.page.selectOption('#challenge-color', 'first');
    assert.equal(await A.page.textContent('#challenge-color option[value="first"]'), 'Sente (☗, moves first)');
    await A.page.fill('#challenge-time', '0|10s');
    await checkLabels(A.page, 'lobby with the shogi menus');
    await A.page.click('#send-challenge');
    await B.page.click('#challenges [data-challenge] button.primary');
    await B.page.waitForURL(/\/game\//);
    await A.page.waitForURL(/\/game\//);
    assert.equal(A.page.url(), B.page.url());
    gameId = A.page.url().split('/game/')[1];
    for (const p of [A, B]) await p.page.waitForSelector('#board .sg-board .sg-pieces [data-piece]');
    assert.equal(await A.page.getAttribute('.player-bar.seat-bottom', 'data-color'), 'sente');
    assert.equal(await B.page.getAttribute('.player-bar.seat-bottom', 'data-color'), 'gote');
    assert.equal(await A.page.$$eval('#board .sg-pieces [data-piece]', (e) => e.length), 40);
    assert.equal(await pieceOn(A.page, '5i'), 'K');
    assert.equal(await pieceOn(A.page, '8h'), 'B');
    // Sente's king reads 玉, gote's 王; the coordinates are １–９ and 一–九.
    assert.equal(await A.page.$eval('#board [data-square="5i"] text', (e) => e.textContent), '玉');
    assert.equal(await A.page.$eval('#board [data-square="5a"] text', (e) => e.textContent), '王');
    const coords = await A.page.$$eval('#board .sg-coord', (els) => els.map((e) => e.textContent).join(''));
    assert.equal(coords, '９８７６５４３２１一二三四五六七八九');
    // Byo-yomi only: the clocks count the period, and say so.
    const info = await A.page.textContent('.player-bar[data-side="first"] .clock-info');
    assert.match(info, /byo-yomi 10 s × 1/);
    assert.match(await B.page.textContent('.player-bar[data-side="first"] .clock-info'), /读秒 10 秒 × 1/);
    // The spectator on a phone.
    await C.page.goto(`${base}/game/${gameId}`);
    await C.page.waitForSelector('#board .sg-pieces [data-piece]');
  });

  await step('shogi: a promotion choice, drops by drag and by click, a declined promotion', async () => {
    // 1. ▲７六歩 by clicks: the dots are the server's legal moves.
    await A.page.click(hit('7g'));
    assert.deepEqual(await A.page.$$eval('#board [data-dest]', (els) => els.map((e) => e.dataset.dest)), ['7f']);
    await A.page.click(hit('7f'));
    await waitPly(B.page, 1);
    // 2. △３四歩.
    await clickMove(B.page, '3c', '3d');
    await waitPly(A.page, 2);
    // 3. ▲２二角成: the bishop takes and may promote — the board asks.
    await clickMove(A.page, '8h', '2b');
    await A.page.waitForSelector('#promotion .sg-promotion-choice[data-choice="promote"]');
    const choices = await A.page.$$eval('#promotion .sg-promotion-choice', (bs) => bs.map((b) => b.dataset.choice));
    assert.deepEqual(choices, ['promote', 'keep']);
    await checkLabels(A.page, 'promotion dialog');
    await A.page.screenshot({ path: path.join(shots, 'shogi-promotion.png') });
    await A.page.click('#promotion [data-choice="promote"]');
    await waitPly(B.page, 3);
    assert.equal(await pieceOn(B.page, '2b'), '+B');
    assert.equal(await B.page.$eval('#board [data-square="2b"] text', (e) => e.textContent), '馬');
    // The captured bishop is in sente's hand.
    await A.page.waitForSelector('.sg-hand-bottom .sg-hand-piece[data-piece="B"]');
    // 4. △同銀.
    await clickMove(B.page, '3a', '2b');
    await waitPly(A.page, 4);
    // 5. ▲４五角: dragged from the hand onto the board.
    const [x1, y1] = await centre(A.page, '.sg-hand-bottom .sg-hand-piece[data-piece="B"]');
    const [x2, y2] = await centre(A.page, hit('4e'));
    await A.page.mouse.move(x1, y1);
    await A.page.mouse.down();
    await A.page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, { steps: 8 });
    await A.page.mouse.move(x2, y2, { steps: 8 });
    await A.page.mouse.up();
    await waitPly(B.page, 5);
    assert.equal(await pieceOn(B.page, '4e'), 'B');
    assert.equal(await A.page.$$eval('.sg-hand-bottom .sg-hand-piece', (bs) => bs.length), 0);
    // 6. △６五角打... by clicking the hand, then the square.
    await B.page.click('.sg-hand-bottom .sg-hand-piece[data-piece="B"]');
    await B.page.waitForSelector('#board [data-dest="6e"]');
    const drops = await B.page.$$eval('#board [data-dest]', (els) => els.length);
    assert.ok(drops > 30, `a bishop may be dropped on any empty square: ${drops}`);
    await B.page.click(hit('6e'));
    await waitPly(A.page, 6);
    assert.equal(await pieceOn(A.page, '6e'), 'b');
    // 7. ▲６三角不成: the bishop takes on 6c and stays a bishop.
    await clickMove(A.page, '4e', '6c');
    await A.page.waitForSelector('#promotion [data-choice="keep"]');
    await A.page.click('#promotion [data-choice="keep"]');
    await waitPly(B.page, 7);
    assert.equal(await pieceOn(B.page, '6c'), 'B');
    // Gote is in byo-yomi, its 10 s running: the pictures.
    await A.page.waitForFunction(() => document.querySelector('.player-bar[data-side="second"] .clock')?.classList.contains('overtime'));
    await checkLabels(A.page, 'shogi game');
    await A.page.screenshot({ path: path.join(shots, 'shogi-game.png') });
    await C.page.waitForFunction(() => document.querySelectorAll('#moves [data-ply]').length === 7);
    await checkLabels(C.page, 'shogi on a phone');
    await C.page.screenshot({ path: path.join(shots, 'shogi-phone.png'), fullPage: true });
    // The spectator turns the board round: gote at the bottom, the files read 1–9.
    await C.page.click('#flip');
    const coords = await C.page.$$eval('#board .sg-coord', (els) => els.map((e) => e.textContent).join(''));
    assert.equal(coords, '１２３４５６７８９九八七六五四三二一');
    assert.equal(await C.page.getAttribute('.sg-hand-bottom', 'data-color'), 'gote');
  });

  await step('shogi: gote\'s byo-yomi runs out; the move list in three notations', async () => {
    for (const p of [A, B]) await p.page.waitForSelector('#end-dialog[open]', { timeout: 20000 });
    assert.equal(await A.page.textContent('#end-title'), 'Sente wins');
    assert.match(await A.page.textContent('#end-reason'), /Lost on time/);
    assert.equal(await B.page.textContent('#end-title'), '先手胜');
    await A.page.click('#end-close');
    const texts = () => A.page.$$eval('#moves [data-ply]', (els) => els.map((e) => e.textContent));
    const japanese = await texts();
    assert.deepEqual(japanese.slice(0, 3), ['▲７六歩', '△３四歩', '▲２二角成']);
    assert.match(japanese[3], /^△同\s*銀$/);
    assert.equal(japanese[6], '▲６三角不成');
    await A.page.click('.notation-switch [data-style="western"]');
    assert.deepEqual(await texts(), ['P-7f', 'P-3d', 'Bx2b+', 'Sx2b', 'B*4e', 'B*6e', 'Bx6c=']);
    await A.page.click('.notation-switch [data-style="usi"]');
    assert.deepEqual(await texts(), ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e', 'B*6e', '4e6c']);
    await A.page.click('.notation-switch [data-style="japanese"]');
    const view = await (await A.page.request.get(`${base}/api/games/${gameId}`)).json();
    assert.equal(view.reason, 'time_forfeit');
    assert.equal(view.winner, 'first');
  });

  await step('shogi: the replay offers the game as KIF', async () => {
    await A.page.goto(`${base}/replay/${gameId}`);
    await A.page.waitForSelector('#board .sg-pieces [data-piece]');
    assert.equal(await A.page.textContent('#pgn'), 'Download KIF');
    assert.equal(await A.page.getAttribute('#pgn', 'download'), `qiju-${gameId}.kifu`);
    const kif = await (await A.page.request.get(`${base}/api/games/${gameId}/pgn`)).text();
    assert.match(kif, /手合割：平手/);
    assert.match(kif, /まで7手で先手の勝ち/);
    await checkLabels(A.page, 'shogi replay');
  });

  await step('shogi: a two-piece handicap game (二枚落ち) against Fairy-Stockfish, the giver first', async () => {
    const info = await (await A.page.request.get(`${base}/api/info`)).json();
    const v = info.variants.find((x) => x.id === 'shogi/two-pieces');
    if (!v.computer_levels) {
      assert.ok(!required, 'fairy-stockfish is required (QIJU_REQUIRE_ORACLES=1) but not installed');
      console.log('# skipped: fairy-stockfish is not installed');
      return;
    }
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#computer-form');
    await A.page.selectOption('#cpu-variant', 'shogi/two-pieces');
    await A.page.selectOption('#cpu-color', 'second');
    assert.equal(await A.page.textContent('#cpu-color option[value="second"]'), 'Shitate (下手)');
    await A.page.click('#computer-form [data-level="1"]');
    await A.page.fill('#cpu-time', '5|10s');
    await A.page.click('#play-computer');
    await A.page.waitForURL(/\/game\//);
    await A.page.waitForSelector('#board .sg-pieces [data-piece]');
    // The giver (上手, gote's pieces at the top) moves first.
    await waitPly(A.page, 1);
    const first = await A.page.textContent('#moves [data-ply="1"]');
    assert.match(first, /^△/, `the giver's move first: ${first}`);
    assert.equal(await A.page.getAttribute('.player-bar.seat-bottom', 'data-color'), 'shitate');
    assert.equal(await A.page.getAttribute('.player-bar.seat-top', 'data-color'), 'uwate');
    assert.equal(await A.page.$$eval('#board .sg-pieces [data-piece]', (e) => e.length), 38);
    // The move list has the giver's move in the first column.
    assert.equal(await A.page.$eval('#moves li', (li) => li.querySelector('.mv').dataset.ply), '1');
    await clickMove(A.page, '7g', '7f');
    await waitPly(A.page, 3);
    await clickMove(A.page, '2g', '2f');
    await waitPly(A.page, 5);
    await checkLabels(A.page, 'handicap game');
    await A.page.screenshot({ path: path.join(shots, 'shogi-handicap.png') });
    await A.page.click('#resign');
    await A.page.click('#resign-confirm');
    await A.page.waitForSelector('#end-dialog[open]');
    assert.equal(await A.page.textContent('#end-title'), 'Uwate wins');
  });

  await step('no page logged a console error', async () => {
    assert.deepEqual(problems, []);
  });
} catch (e) {
  for (const [i, c] of browser.contexts().entries()) {
    for (const pg of c.pages()) await pg.screenshot({ path: path.join(shots, `shogi-failure-${i}.png`) }).catch(() => {});
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
