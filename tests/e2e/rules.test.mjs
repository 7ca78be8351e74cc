// The browser's Xiangqi rules (crates/web/assets/js/rules/xiangqi.js)
// against the published perft counts in data/perft.json, plus the
// notation fallback against hand-checked records. Plain Node, no browser.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const rules = await import(path.join(root, 'crates/web/assets/js/rules/xiangqi.js'));

let passed = 0;
let failed = 0;
async function test(name, fn) {
  try {
    await fn();
    passed += 1;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed += 1;
    console.log(`not ok - ${name}\n  ${String(e.stack || e).split('\n').join('\n  ')}`);
  }
}

const data = JSON.parse(fs.readFileSync(path.join(root, 'data/perft.json'), 'utf8'));
// Depths that run in well under a second each in Node.
const LIMIT = 200000;
for (const { fen, counts } of data.xiangqi) {
  const entries = Array.isArray(counts) ? counts.map((c, i) => [i + 1, c]) : Object.entries(counts).map(([d, c]) => [Number(d), c]);
  for (const [depth, count] of entries) {
    if (count > LIMIT) continue;
    await test(`perft ${depth} = ${count} for ${fen}`, () => {
      assert.equal(rules.perft(rules.parseFen(fen), depth), count);
    });
  }
}

await test('FEN round trip and bad FENs', () => {
  const pos = rules.parseFen('startpos');
  assert.equal(rules.boardFen(pos), rules.STARTPOS.split(' ').slice(0, 2).join(' '));
  assert.throws(() => rules.parseFen('rnbakabnr/9/1c5c1 w'), rules.FenError);
  assert.throws(() => rules.parseFen('rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w'), rules.FenError);
  assert.throws(() => rules.parseFen('rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w'), rules.FenError);
});

await test('check and flying general', () => {
  // Red rook gives check on the e-file.
  const a = rules.parseFen('4k4/9/9/9/9/9/9/9/9/3KR4 b');
  assert.equal(rules.inCheck(a.board, 'black'), true);
  // Kings facing on an open file: the black king may not stay on the d-file.
  const b = rules.parseFen('3k5/9/9/9/9/9/9/9/9/4K4 b');
  assert.ok(!rules.legalMoves(b).includes('d9e9'));
  assert.ok(rules.legalMoves(b).includes('d9d8'));
});

await test('mate leaves no legal move', () => {
  // Double-rook mate: black king on e9 boxed in.
  const pos = rules.parseFen('R3k4/R8/9/9/9/9/9/9/9/3K5 b');
  assert.equal(rules.inCheck(pos.board, 'black'), true);
  assert.deepEqual(rules.legalMoves(pos), []);
});

const notation = await import(path.join(root, 'crates/web/assets/js/notation.js'));
await test('notation fallback: Chinese, WXF and ICCS', () => {
  const s = rules.parseFen('startpos');
  const fmt = (pos, m, style) => notation.formatMove(pos, m, style);
  assert.equal(fmt(s, 'h2e2', 'chinese'), '炮二平五');
  assert.equal(fmt(s, 'h2e2', 'wxf'), 'C2=5');
  assert.equal(fmt(s, 'h2e2', 'iccs'), 'h2e2');
  assert.equal(fmt(s, 'h0g2', 'chinese'), '马二进三');
  assert.equal(fmt(s, 'h0g2', 'wxf'), 'H2+3');
  const b = rules.play(s, 'h2e2');
  assert.equal(fmt(b, 'h7e7', 'chinese'), '炮８平５');
  assert.equal(fmt(b, 'h7e7', 'wxf'), 'C8=5');
  assert.equal(fmt(b, 'b9c7', 'chinese'), '马２进３');
  assert.equal(fmt(s, 'i0i1', 'chinese'), '车一进一');
  assert.equal(fmt(s, 'f0e1', 'chinese'), '仕四进五');
  assert.equal(fmt(s, 'g0e2', 'wxf'), 'E3+5');
  assert.equal(fmt(rules.play(s, 'g0e2'), 'e2g0', 'chinese'), '相五退三');
  // Two rooks on one file: 前/后.
  const two = rules.parseFen('4k4/9/9/9/4R4/9/4R4/9/9/3K5 w');
  assert.equal(fmt(two, 'e5e8', 'chinese'), '前车进三');
  assert.equal(fmt(two, 'e3a3', 'chinese'), '后车平九');
  assert.equal(fmt(two, 'e5e8', 'wxf'), 'R++3');
  assert.equal(fmt(two, 'e3a3', 'wxf'), 'R-=9');
});

const i18n = await import(path.join(root, 'crates/web/assets/js/i18n.js'));
const result = await import(path.join(root, 'crates/web/assets/js/result.js'));
await test('game-end texts, repetition rulings with their article', () => {
  i18n.setLang('zh');
  const chase = { state: 'over', result: '0-1', winner: 'black', reason: 'perpetual_chase', article: '26.4' };
  assert.equal(result.resultText(chase), '黑胜');
  assert.equal(result.reasonText(chase), '红方长捉，判负 — 第26.4条');
  assert.equal(result.reasonText({ reason: 'perpetual_check', winner: 'red', article: '26.1' }), '黑方长将，判负 — 第26.1条');
  assert.equal(result.reasonText({ reason: 'checkmate', winner: 'red', article: '4.1' }), '将死 — 第4.1条');
  assert.equal(result.reasonText({ reason: 'repetition_both_allowed', article: '26.2' }), '双方均为允许着法，不变作和 — 第26.2条');
  assert.equal(result.mustChangeText('red', result.patternIn('red plays a forbidden perpetual chase (长捉) against allowed moves'), '26.4'),
    '红方长捉，必须变着 — 第26.4条');
  assert.equal(result.resultText({ state: 'aborted' }), '对局已中止');
  i18n.setLang('en');
  assert.equal(result.reasonText(chase), 'Red: perpetual chase, loses — Article 26.4');
  assert.equal(result.resultText(chase), 'Black wins');
  // Every reason the referee and the session give has its own words in
  // both languages (no fallback to the raw code).
  const reasons = ['checkmate', 'stalemate', 'time_forfeit', 'resignation', 'agreement', 'aborted',
    'adjudication', 'fouls', 'natural_limit', 'insufficient_material', 'threefold_repetition',
    'repetition_both_allowed', 'repetition_both_forbidden'];
  for (const lang of ['zh', 'en']) {
    i18n.setLang(lang);
    for (const reason of reasons) {
      const text = result.reasonText({ reason });
      assert.ok(!text.includes('_') && text !== reason.replace(/_/g, ' '), `${lang}: ${reason} -> ${text}`);
    }
  }
  i18n.setLang('zh');
  assert.equal(result.reasonText({ reason: 'time_forfeit', winner: 'red', article: '4.1.4' }), '超时判负 — 第4.1.4条');
  // Every key exists in both languages.
  const zhKeys = Object.keys(i18n.LANGS.zh);
  const enKeys = Object.keys(i18n.LANGS.en);
  const optionalZh = new Set(['lang.zh', 'lang.en', 'game.notation.chinese', 'game.notation.wxf', 'game.notation.iccs']);
  assert.deepEqual(enKeys.filter((k) => !zhKeys.includes(k) && !optionalZh.has(k)), []);
  assert.deepEqual(zhKeys.filter((k) => !enKeys.includes(k)), []);
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
