// The variants defined as data (crates/variants, issue 27) in a real
// headless Chromium (Debian's), driven by playwright-core, against a
// running `qiju serve --variants tests/e2e/operator-variant.toml`:
//
//   node tests/e2e/variants.mjs http://127.0.0.1:PORT
//
// Started by crates/qiju/tests/browser.rs. Scenarios:
// - 升级象棋 (shengji) against the built-in computer: the red cannon takes
//   the horse on h9 (炮二进七) and is promoted by that capture to 铁炮; the
//   board shows it with its own glyph inside a gold ring (a screenshot,
//   docs/screenshots/shengji-promotion.png); the replay shows the same.
// - The operator's own file (`courtyard`, 7 × 8, loaded with
//   `--variants`): offered in the lobby, drawn at its size with its
//   palace and river, played against the computer
//   (docs/screenshots/variants-operator.png).
// - Xiangqi with two house rules of seed 004 switched on (龙战士, 任务兵)
//   against the computer (docs/screenshots/variants-house-rules.png).
// - The analysis board on Janggi, with its engine.
// - Janggi between two players by a challenge: a move by clicks, a pass
//   by a second click on the king (e8e8; a second click on a piece that
//   cannot pass lets it go).
// - Xiangqi with the eight house rules that go together (xiangqi-house)
//   on the analysis board: 还魂卒's reserve written under the board and a
//   pawn revived by a click on its start point; 解将旗's flags written
//   there and on the ring's map, and the flag's step (a button) taking
//   the other flag (docs/screenshots/variants-revival.png,
//   docs/screenshots/variants-flags.png).
// - 杀惊遁马 (xiangqi-horse) between two players: Red's opening cannon
//   takes a horse, Black answers with two moves by clicks, the horse
//   first, and the move list gives Black's second its own row; the live
//   board, the replay and the analysis board say Black is still to move
//   after the horse (who moves comes from the server, not from the ply
//   count); Red's premove (the server's list for a data variant) waits
//   through Black's two moves.
// Every page must log no console error (`finish`), and every control must
// have a name.

import assert from 'node:assert/strict';
import { checkLabels, setUp, waitPly } from './harness.mjs';

const { base, browser, step, person, register, shot, finish } = await setUp('variants.mjs');

const hit = (sq) => `#board .xq-hits [data-square="${sq}"]`;
const pieceOn = (page, sq) => page.$eval('#board', (b, s) => b.querySelector(`.xq-pieces [data-square="${s}"]`)?.dataset.piece ?? null, sq);
const glyphOn = (page, sq) => page.$eval('#board', (b, s) => b.querySelector(`.xq-pieces [data-square="${s}"] .xq-glyph`)?.textContent ?? null, sq);

/** Clicks a move: the piece's square, then the destination (a dot of the server's legal moves). */
async function clickMove(page, from, to) {
  await page.click(hit(from));
  await page.waitForSelector(`#board [data-dest="${to}"]`);
  await page.click(hit(to));
}

/** Starts a game against the computer at level 1 from the lobby, as red. */
async function playComputer(p, variant) {
  await p.page.goto(`${base}/`);
  await p.page.waitForSelector('#computer-form');
  await p.page.selectOption('#cpu-variant', variant);
  await p.page.selectOption('#cpu-color', 'first');
  await p.page.click('#computer-form [data-level="1"]');
  await p.page.fill('#cpu-time', '10+5');
  await p.page.click('#play-computer');
  await p.page.waitForURL(/\/game\//);
  await p.page.waitForSelector('#board .xq-board .xq-pieces [data-piece]');
  return p.page.url().split('/game/')[1];
}

/** The board's accessible name, which says who is to move ("… Black to move"). */
const toMove = (page) => page.$eval('#board svg.xq-board', (b) => b.getAttribute('aria-label'));

/** Resigns the game on `page` and waits for the result dialog. */
async function resign(page) {
  await page.click('#resign');
  await page.click('#resign-confirm');
  await page.waitForSelector('#end-dialog[open]');
}

const stamp = Date.now().toString(36).slice(-5);
const nameA = `vaA${stamp}`;
const nameB = `vaB${stamp}`;

try {
  const A = await person('A', 'en-US');
  const B = await person('B', 'zh-CN');

  await step('variants: the data variants are offered for seeks, challenges and the computer', async () => {
    await register(A, nameA);
    await register(B, nameB);
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#computer-form');
    for (const menu of ['#cpu-variant', '#challenge-variant']) {
      const ids = await A.page.$$eval(`${menu} option`, (os) => os.map((o) => o.value));
      for (const want of ['variants/shengji', 'variants/janggi', 'variants/manchu', 'variants/minixiangqi', 'variants/courtyard',
        'variants/xiangqi-dragon-mission', 'variants/xiangqi-royal', 'variants/xiangqi-horse', 'variants/xiangqi-revival',
        'variants/xiangqi-cannon', 'variants/xiangqi-elephant', 'variants/xiangqi-strategy', 'variants/xiangqi-flag',
        'variants/xiangqi-house']) {
        assert.ok(ids.includes(want), `${menu}: ${want} offered: ${ids}`);
      }
    }
    const seekIds = await A.page.$$eval('#seek-form select option', (os) => os.map((o) => o.value));
    assert.ok(seekIds.includes('variants/shengji'), `seeks offer 升级象棋: ${seekIds}`);
    await A.page.selectOption('#cpu-variant', 'variants/shengji');
    assert.equal(await A.page.$$eval('#computer-form [data-level]', (bs) => bs.length), 5, 'five levels');
    await checkLabels(A.page, 'lobby with the data variants');
  });

  let shengjiGame = null;
  await step('variants: 升级象棋 against the computer — a capture promotes the cannon to 铁炮, shown ringed', async () => {
    shengjiGame = await playComputer(A, 'variants/shengji');
    const page = A.page;
    assert.equal(await page.$$eval('#board .xq-pieces [data-piece]', (e) => e.length), 32);
    assert.equal(await page.$$eval('#board .xq-hits [data-square]', (e) => e.length), 90);
    assert.equal(await glyphOn(page, 'h2'), '炮');
    assert.equal(await glyphOn(page, 'e9'), '将');
    assert.equal(await page.$$eval('#board .xq-promoted-ring', (e) => e.length), 0, 'nothing promoted at the start');
    // 炮二进七: the cannon takes the horse over the black cannon on h7 and
    // is promoted (铁炮). The computer answers at once (its reply may be
    // to take the 铁炮 with its rook, which that capture promotes to 飞车):
    // either way a promoted piece stands on h9, with its own glyph in a
    // gold ring. (The replay below shows the 铁炮 itself, move by move.)
    await clickMove(page, 'h2', 'h9');
    await waitPly(page, 2);
    assert.equal(await page.textContent('#moves [data-ply="1"]'), 'h2h9');
    const h9 = await pieceOn(page, 'h9');
    assert.ok(['+C', '+r'].includes(h9), `a promoted piece on h9: ${h9}`);
    assert.equal(await glyphOn(page, 'h9'), h9 === '+C' ? '铁' : '飞');
    assert.ok(await page.$eval('#board .xq-pieces [data-square="h9"]', (g) => g.classList.contains('promoted')
      && !!g.querySelector('.xq-promoted-ring')), 'a gold ring');
    assert.match(await page.getAttribute('#board .xq-pieces [data-square="h9"]', 'aria-label'), / (iron cannon|flying rook) h9$/);
    const promoted = await page.$$eval('#board .xq-pieces .promoted', (els) => els.map((e) => [e.dataset.piece, e.querySelector('.xq-glyph').textContent]));
    for (const [piece, glyph] of promoted) {
      assert.ok(piece.startsWith('+'), piece);
      assert.ok(['铁', '飞', '悍', '骑', '上'].includes(glyph), `${piece}: ${glyph}`);
    }
    // Unpromoted pieces have no ring.
    assert.equal(await page.$$eval('#board .xq-promoted-ring', (e) => e.length), promoted.length);
    await checkLabels(page, 'shengji game');
    await shot(A, 'shengji-promotion');
    await resign(page);
  });

  await step('variants: the replay of the 升级象棋 game shows the promotion move by move', async () => {
    const page = A.page;
    await page.goto(`${base}/replay/${shengjiGame}`);
    await page.waitForSelector('#board .xq-pieces [data-piece]');
    // To the first move: the browser's rules promote the capturing cannon.
    await page.click('#first');
    assert.equal(await pieceOn(page, 'h2'), 'C');
    await page.click('#next');
    await page.waitForFunction(() => document.querySelector('#board .xq-pieces [data-square="h9"]')?.dataset.piece === '+C');
    assert.equal(await pieceOn(page, 'h9'), '+C');
    assert.equal(await glyphOn(page, 'h9'), '铁');
    const pgn = await (await page.request.get(`${base}/api/games/${shengjiGame}/pgn`)).text();
    assert.match(pgn, /\[Variant "shengji"\]/);
    assert.match(pgn, /1\. h2h9 /);
    await checkLabels(page, 'shengji replay');
  });

  await step("variants: an operator's file (courtyard, 7 × 8, --variants) played against the computer", async () => {
    await playComputer(A, 'variants/courtyard');
    const page = A.page;
    assert.equal(await page.$$eval('#board .xq-hits [data-square]', (e) => e.length), 56, '7 × 8 points');
    assert.equal(await page.$$eval('#board .xq-pieces [data-piece]', (e) => e.length), 20);
    assert.equal(await glyphOn(page, 'd0'), '帅');
    // Files are lettered a–g, ranks numbered 0–7; the river has its words.
    const coords = await page.$$eval('#board .xq-coord', (els) => els.map((e) => e.textContent).join(''));
    assert.equal(coords, 'abcdefg01234567');
    assert.equal(await page.$$eval('#board .xq-river', (e) => e.length), 2);
    await clickMove(page, 'd2', 'd3');
    await waitPly(page, 2);
    assert.equal(await page.textContent('#moves [data-ply="1"]'), 'd2d3');
    assert.equal(await pieceOn(page, 'd3'), 'P');
    await checkLabels(page, 'courtyard game');
    await shot(A, 'variants-operator');
    await resign(page);
  });

  await step('variants: Xiangqi with two house rules on (龙战士 and 任务兵) against the computer', async () => {
    await playComputer(A, 'variants/xiangqi-dragon-mission');
    const page = A.page;
    assert.match(await page.textContent('#game-info'), /xiangqi-dragon-mission/);
    assert.equal(await page.$$eval('#board .xq-pieces [data-piece]', (e) => e.length), 32);
    await clickMove(page, 'h2', 'e2');
    await waitPly(page, 2);
    assert.equal(await page.textContent('#moves [data-ply="1"]'), 'h2e2');
    await checkLabels(page, 'house-rule game');
    await shot(A, 'variants-house-rules');
    await resign(page);
  });

  await step('variants: the analysis board takes a data variant (janggi) and its engine', async () => {
    const page = A.page;
    await page.goto(`${base}/analysis?variant=variants/janggi`);
    await page.waitForSelector('#board .xq-pieces [data-piece]');
    assert.equal(await page.$$eval('#board .xq-pieces [data-piece]', (e) => e.length), 32);
    assert.equal(await page.inputValue('#analysis-variant'), 'variants/janggi');
    await clickMove(page, 'b0', 'c2');
    await page.waitForFunction(() => document.querySelector('#board .xq-pieces [data-square="c2"]')?.dataset.piece === 'N');
    // The generic search's verdict, for the side to move.
    await page.waitForFunction(() => (document.querySelector('#eval-score')?.textContent || '').trim() !== '');
    await checkLabels(page, 'janggi analysis');
  });

  await step('variants: janggi between two players — a move by clicks, a pass by a second click on the king (e8e8)', async () => {
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#challenge-form');
    await A.page.fill('#challenge-name', nameB);
    await A.page.selectOption('#challenge-variant', 'variants/janggi');
    await A.page.selectOption('#challenge-color', 'first');
    await A.page.fill('#challenge-time', '10+5');
    await A.page.click('#send-challenge');
    await B.page.goto(`${base}/`);
    await B.page.click('#challenges [data-challenge] button.primary');
    await B.page.waitForURL(/\/game\//);
    await A.page.waitForURL(/\/game\//);
    for (const p of [A, B]) await p.page.waitForSelector('#board .xq-board .xq-pieces [data-piece]');
    // Janggi's own glyphs: 楚 for the first side's king, 漢 for the second's.
    assert.equal(await glyphOn(A.page, 'e1'), '楚');
    assert.equal(await glyphOn(A.page, 'e8'), '漢');
    assert.equal(await A.page.$$eval('#board .xq-river', (e) => e.length), 0, 'no river');
    // A second click on a piece that cannot pass lets it go: no move.
    await A.page.click(hit('a3'));
    await A.page.waitForSelector('#board [data-dest="b3"]');
    await A.page.click(hit('a3'));
    await A.page.waitForFunction(() => !document.querySelector('#board [data-dest]'));
    assert.equal(await A.page.$$eval('#moves [data-ply]', (m) => m.length), 0);
    await clickMove(A.page, 'a3', 'b3');
    await waitPly(B.page, 1);
    // The pass by clicks: the king, then its own point (its dot is on it).
    await clickMove(B.page, 'e8', 'e8');
    await waitPly(A.page, 2);
    assert.equal(await A.page.textContent('#moves [data-ply="2"]'), 'e8e8');
    await shot(A, 'variants-janggi');
  });

  await step('variants: 杀惊遁马 between two players — Black moves twice after the opening cannon takes a horse', async () => {
    await A.page.goto(`${base}/`);
    await A.page.waitForSelector('#challenge-form');
    await A.page.fill('#challenge-name', nameB);
    await A.page.selectOption('#challenge-variant', 'variants/xiangqi-horse');
    await A.page.selectOption('#challenge-color', 'first');
    await A.page.fill('#challenge-time', '10+5');
    await A.page.click('#send-challenge');
    await B.page.goto(`${base}/`);
    await B.page.click('#challenges [data-challenge] button.primary');
    await B.page.waitForURL(/\/game\//);
    await A.page.waitForURL(/\/game\//);
    for (const p of [A, B]) await p.page.waitForSelector('#board .xq-board .xq-pieces [data-piece]');
    await clickMove(A.page, 'h2', 'h9');
    await waitPly(B.page, 1);
    // Red queues a premove while Black thinks (the server's list of Red's
    // moves by movement alone: a data variant has no rules in the browser).
    await A.page.check('#premove');
    await clickMove(A.page, 'b0', 'c2');
    assert.equal(await A.page.$$eval('#board .xq-premove', (e) => e.length), 2);
    await clickMove(B.page, 'b9', 'c7');
    await waitPly(B.page, 2);
    // The live board says Black is still to move (from the server's FEN).
    await waitPly(A.page, 2);
    assert.match(await toMove(A.page), /Black to move/);
    // Still Black's turn: the rook takes the cannon.
    await clickMove(B.page, 'i9', 'h9');
    // Red's premove waited through Black's first move and went at once
    // after its second: the horse to c2 is ply 4.
    await Promise.all([waitPly(A.page, 4), waitPly(B.page, 4)]);
    await A.page.uncheck('#premove');
    assert.equal(await pieceOn(A.page, 'c2'), 'N');
    assert.equal(await pieceOn(A.page, 'h9'), 'r');
    assert.equal(await pieceOn(A.page, 'c7'), 'n');
    // Black's two moves: the second has a row of its own, in Black's column.
    const rows = await A.page.$$eval('#moves li', (ls) => ls.map((l) => [...l.querySelectorAll('.mv')].map((m) => m.dataset.ply || '…')));
    assert.deepEqual(rows, [['1', '2'], ['…', '3'], ['4', '…']]);
    const horseGame = A.page.url().split('/game/')[1];
    await resign(A.page);
    // The replay: who is to move comes from the recorded sides, not from
    // the ply count — after Black's horse, Black again (the bug was Red).
    await A.page.goto(`${base}/replay/${horseGame}`);
    await A.page.waitForSelector('#board .xq-pieces [data-piece]');
    const expected = ['Red', 'Black', 'Black', 'Red', 'Black'];
    await A.page.click('#first');
    for (const [ply, side] of expected.entries()) {
      if (ply > 0) await A.page.click('#next');
      if (ply > 0) await A.page.waitForFunction((n) => document.querySelector('#replay-ply')?.textContent.startsWith(`Move ${n} of`), ply);
      assert.match(await toMove(A.page), new RegExp(`${side} to move`), `ply ${ply}`);
    }
    // The analysis board takes who moves from the server's `movers` too:
    // after the cannon and the horse, Black again.
    await A.page.goto(`${base}/analysis?${new URLSearchParams({ variant: 'variants/xiangqi-horse', moves: 'h2h9,b9c7' })}`);
    await A.page.waitForSelector('#board .xq-pieces [data-square="c7"][data-piece="n"]');
    assert.match(await toMove(A.page), /Black to move/);
  });

  await step('variants: xiangqi-house on the analysis board — a pawn revived by a click, a flag taken by its step', async () => {
    const page = A.page;
    const open = async (fen) => {
      await page.goto(`${base}/analysis?${new URLSearchParams({ variant: 'variants/xiangqi-house', fen })}`);
      await page.waitForSelector('#board .xq-pieces [data-piece]');
    };
    // Red just took on a5 and has a pawn in its reserve: the start points
    // of its pawns take it (a dot on each empty one).
    await open('3k5/9/9/9/R8/9/2P6/9/9/4K4[Pp]{0,21} w V - 0 1');
    await page.waitForFunction(() => /×1/.test(document.querySelector('#board .variants-reserve')?.textContent || ''));
    await page.waitForSelector('#board [data-dest="e3"]');
    assert.equal(await page.$$eval('#board [data-dest]', (d) => d.length), 4, 'a3 e3 g3 i3 (c3 is taken)');
    await shot(A, 'variants-revival');
    await page.click(hit('e3'));
    await page.waitForFunction(() => document.querySelector('#board .xq-pieces [data-square="e3"]')?.dataset.piece === 'P');
    // Red's reserve is spent; Black's pawn is still in Black's.
    const reserve = await page.textContent('#board .variants-reserve');
    assert.ok(reserve.includes('解将旗') && !/Red: 兵/.test(reserve), reserve);
    // Red in check with its flag right behind Black's: the step takes it.
    await open('3r1k3/9/9/9/9/9/9/9/9/3K5{20,21} w - - 0 1');
    // The ring's map: Red's flag on 20, Black's on 21, right ahead of it.
    await page.waitForSelector('#board .variants-ring .variants-flag-red[data-point="20"]');
    assert.equal(await page.$$eval('#board .variants-ring .variants-ring-point', (p) => p.length), 42);
    await shot(A, 'variants-flags');
    await page.click('#board .variants-flag-steps button[data-move="~"]');
    await page.waitForFunction(() => /21\/42 · \S+ ×/.test(document.querySelector('#board .variants-reserve')?.textContent || ''));
    await page.waitForSelector('#board .variants-ring .variants-flag-red[data-point="21"]');
    assert.equal(await page.$$eval('#board .variants-ring .variants-flag-black', (f) => f.length), 0, 'taken');
    await checkLabels(page, 'xiangqi-house analysis');
  });

} finally {
  await browser.close();
}

finish('variants');
