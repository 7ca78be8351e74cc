// The browser's Xiangqi rules (crates/web/assets/js/rules/xiangqi.js)
// against the published perft counts in data/perft.json, the notation
// fallback against hand-checked records, the chess module's FEN, move
// playing (castling both ways, en passant, promotion) and typed moves,
// and the end-of-game texts. Plain Node, no browser.
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

const notation = await import(path.join(root, 'crates/web/assets/js/notation/xiangqi.js'));
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


const chess = await import(path.join(root, 'crates/web/assets/js/rules/chess.js'));
const chessNotation = await import(path.join(root, 'crates/web/assets/js/notation/chess.js'));
const boardFen = (pos) => {
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = pos.board[r * 8 + f];
      if (p) {
        row += (empty || '') + p;
        empty = 0;
      } else {
        empty += 1;
      }
    }
    rows.push(row + (empty || ''));
  }
  return `${rows.join('/')} ${pos.turn === 'white' ? 'w' : 'b'}`;
};

await test('chess: FEN, squares and bad FENs', () => {
  const s = chess.parseFen('startpos');
  assert.equal(boardFen(s), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w');
  assert.equal(chess.squareName(0), 'a1');
  assert.equal(chess.squareName(63), 'h8');
  assert.equal(chess.parseSquare('e4'), 28);
  assert.equal(chess.kingSquare(s.board, 'black'), chess.parseSquare('e8'));
  assert.throws(() => chess.parseFen('rnbqkbnr/pppppppp/8/8 w'), chess.FenError);
  assert.throws(() => chess.parseFen('rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w'), chess.FenError);
  assert.throws(() => chess.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w'), chess.FenError);
});

// The end-to-end game (checked with python-chess): castling both ways,
// en passant, an under-promotion, mate.
const E2E_GAME = ['e2e4', 'd7d5', 'e4e5', 'f7f5', 'e5f6', 'b8c6', 'f6g7', 'c8f5', 'g1f3', 'd8d6',
  'f1c4', 'e8c8', 'e1g1', 'e7e5', 'g7h8n', 'g8h6', 'f3e5', 'h6g4', 'e5f7', 'd6h2'];

await test('chess: playing moves — castling, en passant, promotion', () => {
  let pos = chess.parseFen('startpos');
  const after = {};
  E2E_GAME.forEach((m, i) => {
    pos = chess.play(pos, m);
    after[i + 1] = boardFen(pos);
  });
  assert.equal(after[5], 'rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b'); // exf6 e.p.
  assert.equal(after[12], '2kr1bnr/ppp1p1Pp/2nq4/3p1b2/2B5/5N2/PPPP1PPP/RNBQK2R w'); // O-O-O
  assert.equal(after[13], '2kr1bnr/ppp1p1Pp/2nq4/3p1b2/2B5/5N2/PPPP1PPP/RNBQ1RK1 b'); // O-O
  assert.equal(after[15], '2kr1bnN/ppp4p/2nq4/3ppb2/2B5/5N2/PPPP1PPP/RNBQ1RK1 b'); // gxh8=N
  assert.equal(after[20], '2kr1b1N/ppp2N1p/2n5/3p1b2/2B3n1/8/PPPP1PPq/RNBQ1RK1 w');
  // Chess960: the king takes its own rook.
  const c960 = chess.parseFen('1r2k1r1/8/8/8/8/8/8/1R2K1R1 w');
  assert.equal(boardFen(chess.play(c960, 'e1g1')), '1r2k1r1/8/8/8/8/8/8/1R3RK1 b');
  assert.equal(boardFen(chess.play(c960, 'e1b1')), '1r2k1r1/8/8/8/8/8/8/2KR2R1 b');
  const kb1 = chess.parseFen('4k3/8/8/8/8/8/8/RK6 w');
  assert.equal(boardFen(chess.play(kb1, 'b1a1')), '4k3/8/8/8/8/8/8/2KR4 b');
  assert.ok(chess.isCapture(chess.parseFen('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w'), 'e5f6'));
  assert.ok(chess.isPromotion(chess.parseFen('8/6P1/8/8/8/8/8/k6K w').board, chess.parseSquare('g7'), chess.parseSquare('h8')));
});

await test('chess: premove geometry and typed moves', () => {
  const s = chess.parseFen('startpos');
  const knight = chess.premoveTargets(s.board, chess.parseSquare('g1')).map(chess.squareName).sort();
  assert.deepEqual(knight, ['e2', 'f3', 'h3']);
  const pawn = chess.premoveTargets(s.board, chess.parseSquare('e2')).map(chess.squareName).sort();
  assert.deepEqual(pawn, ['d3', 'e3', 'e4', 'f3']);
  const king = chess.premoveTargets(s.board, chess.parseSquare('e1')).map(chess.squareName);
  assert.ok(king.includes('g1') && king.includes('c1') && king.includes('h1') && king.includes('a1'));
  const legal = ['b1a3', 'b1c3', 'e2e4', 'g1f3', 'g1h3'];
  assert.equal(chessNotation.findMove('Nf3', s, legal), 'g1f3');
  assert.equal(chessNotation.findMove('e4', s, legal), 'e2e4');
  assert.equal(chessNotation.findMove('e2e4', s, legal), 'e2e4');
  assert.equal(chessNotation.findMove('Nd2', s, legal), null);
  const castle = chess.parseFen('r3k2r/8/8/8/8/8/8/R3K2R w');
  assert.equal(chessNotation.findMove('O-O', castle, ['e1g1', 'e1c1', 'a1b1']), 'e1g1');
  assert.equal(chessNotation.findMove('0-0-0', castle, ['e1g1', 'e1c1', 'a1b1']), 'e1c1');
  const promo = chess.parseFen('8/6P1/8/8/8/8/8/k6K w');
  assert.equal(chessNotation.findMove('g8=N', promo, ['g7g8q', 'g7g8n', 'h1h2']), 'g7g8n');
  assert.equal(chessNotation.moveText({ move: 'g7h8n', display: 'gxh8=N' }, null, 'san'), 'gxh8=N');
  assert.equal(chessNotation.moveText({ move: 'g7h8n', display: 'gxh8=N' }, null, 'uci'), 'g7h8n');
});

const i18n = await import(path.join(root, 'crates/web/assets/js/i18n.js'));
const result = await import(path.join(root, 'crates/web/assets/js/result.js'));
await test('game-end texts, repetition rulings with their article', () => {
  i18n.setLang('zh');
  const xq = { sides: ['red', 'black'] };
  const chase = { ...xq, state: 'over', result: '0-1', winner: 'second', reason: 'perpetual_chase', article: '26.4' };
  assert.equal(result.resultText(chase), '黑胜');
  assert.equal(result.reasonText(chase), '红方长捉，判负 — 第26.4条');
  assert.equal(result.reasonText({ ...xq, reason: 'perpetual_check', winner: 'first', article: '26.1' }), '黑方长将，判负 — 第26.1条');
  assert.equal(result.reasonText({ ...xq, reason: 'checkmate', winner: 'first', article: '4.1' }), '将死 — 第4.1条');
  assert.equal(result.reasonText({ ...xq, reason: 'repetition_both_allowed', article: '26.2' }), '双方均为允许着法，不变作和 — 第26.2条');
  assert.equal(result.mustChangeText(xq, 'first', result.patternIn('red plays a forbidden perpetual chase (长捉) against allowed moves'), '26.4'),
    '红方长捉，必须变着 — 第26.4条');
  // Chess: the same data, the variant's own side words; stalemate draws.
  const chess = { sides: ['white', 'black'], state: 'over' };
  assert.equal(result.resultText({ ...chess, result: '1-0', winner: 'first' }), '白胜');
  assert.equal(result.resultText({ ...chess, result: '0-1' }), '黑胜');
  assert.equal(result.resultText({ ...chess, result: '1/2-1/2' }), '和棋');
  assert.equal(result.reasonText({ ...chess, result: '1/2-1/2', reason: 'stalemate', article: '5.2.1' }), '逼和 — 第5.2.1条');
  assert.equal(result.reasonText({ ...xq, result: '1-0', winner: 'first', reason: 'stalemate' }), '困毙');
  assert.equal(result.sideName(chess, 'first'), '白方');
  assert.equal(result.resultText({ state: 'aborted' }), '对局已中止');
  i18n.setLang('en');
  assert.equal(result.reasonText(chase), 'Red: perpetual chase, loses — Article 26.4');
  assert.equal(result.resultText(chase), 'Black wins');
  assert.equal(result.resultText({ ...chess, result: '1-0', winner: 'first' }), 'White wins');
  // Every reason the referee and the session give has its own words in
  // both languages (no fallback to the raw code).
  const reasons = ['checkmate', 'stalemate', 'time_forfeit', 'resignation', 'agreement', 'aborted', 'no_show', 'double_no_show',
    'adjudication', 'fouls', 'natural_limit', 'insufficient_material', 'threefold_repetition',
    'repetition_both_allowed', 'repetition_both_forbidden',
    // chess (crates/chess/src/ending.rs, crates/session)
    'fifty_moves', 'seventy_five_moves', 'fivefold_repetition', 'time_forfeit_draw',
    // shogi (crates/shogi/src/game.rs, impasse.rs)
    'no_legal_move', 'repetition', 'impasse', 'impasse_points', 'impasse_declaration'];
  for (const lang of ['zh', 'en']) {
    i18n.setLang(lang);
    for (const reason of reasons) {
      const text = result.reasonText({ reason });
      assert.ok(!text.includes('_') && text !== reason.replace(/_/g, ' '), `${lang}: ${reason} -> ${text}`);
    }
  }
  i18n.setLang('zh');
  assert.equal(result.reasonText({ reason: 'time_forfeit', winner: 'first', article: '4.1.4' }), '超时判负 — 第4.1.4条');
  // Every key exists in both languages.
  const zhKeys = Object.keys(i18n.LANGS.zh);
  const enKeys = Object.keys(i18n.LANGS.en);
  const optionalZh = new Set(['lang.zh', 'lang.en', 'game.notation.chinese', 'game.notation.wxf', 'game.notation.iccs',
    'game.notation.san', 'game.notation.uci']);
  assert.deepEqual(enKeys.filter((k) => !zhKeys.includes(k) && !optionalZh.has(k)), []);
  assert.deepEqual(zhKeys.filter((k) => !enKeys.includes(k)), []);
});

// --- shogi: the browser's SFEN, USI moves, promotion zones, typed moves ---
const sg = await import(path.join(root, 'crates/web/assets/js/rules/shogi.js'));
const sgNotation = await import(path.join(root, 'crates/web/assets/js/notation/shogi.js'));
const boards = await import(path.join(root, 'crates/web/assets/js/boards/board.js'));

await test('shogi: SFEN, squares, moves with a promotion and drops, hands', () => {
  let p = sg.parseFen('startpos');
  assert.equal(p.turn, 'sente');
  assert.equal(p.board[sg.parseSquare('7g')], 'P');
  assert.equal(sg.squareName(0), '9i');
  assert.equal(sg.squareName(80), '1a');
  for (const m of ['7g7f', '3c3d', '8h2b+', '3a2b', 'B*4e']) p = sg.play(p, m);
  assert.equal(p.hands.gote.B, 1);
  assert.equal(p.hands.sente.B, 0);
  assert.equal(p.board[sg.parseSquare('4e')], 'B');
  assert.equal(p.board[sg.parseSquare('2b')], 's');
  const h = sg.parseFen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P3pS 1');
  assert.deepEqual([h.hands.sente.P, h.hands.sente.S, h.hands.gote.P], [2, 1, 3]);
  assert.throws(() => sg.parseFen('9/9 b - 1'), /SFEN has 2 ranks/);
  assert.deepEqual(boards.splitMove('P*5e'), ['P*', '5e', '']);
  assert.deepEqual(boards.splitMove('8h2b+'), ['8h', '2b', '+']);
  assert.deepEqual(boards.destsOf(['P*5e', 'P*5d', '7g7f']), { 'P*': ['5e', '5d'], '7g': ['7f'] });
});

await test('shogi: where a move may and must promote', () => {
  assert.ok(sg.mayPromote('P', sg.parseSquare('2d'), sg.parseSquare('2c')));
  assert.ok(sg.mayPromote('S', sg.parseSquare('2c'), sg.parseSquare('3d')), 'leaving the zone');
  assert.ok(!sg.mayPromote('G', sg.parseSquare('2d'), sg.parseSquare('2c')));
  assert.ok(!sg.mayPromote('+P', sg.parseSquare('2d'), sg.parseSquare('2c')));
  assert.ok(sg.mustPromote('P', sg.parseSquare('2a')));
  assert.ok(sg.mustPromote('L', sg.parseSquare('2a')));
  assert.ok(sg.mustPromote('N', sg.parseSquare('2b')));
  assert.ok(!sg.mustPromote('N', sg.parseSquare('2c')));
  assert.ok(sg.mustPromote('p', sg.parseSquare('2i')));
  assert.ok(!sg.mustPromote('s', sg.parseSquare('2i')));
});

await test('shogi: typed moves in USI, western and Japanese notation', () => {
  const q = sg.parseFen('lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3');
  assert.equal(sgNotation.findMove('P-7e', q, ['7f7e', '2g2f']), '7f7e');
  assert.equal(sgNotation.findMove('７五歩', q, ['7f7e', '2g2f']), '7f7e');
  assert.equal(sgNotation.findMove('75歩', q, ['7f7e', '2g2f']), '7f7e');
  assert.equal(sgNotation.findMove('Bx2b', q, ['8h2b', '8h2b+']), null, '成 or 不成 must be said');
  assert.equal(sgNotation.findMove('Bx2b+', q, ['8h2b', '8h2b+']), '8h2b+');
  assert.equal(sgNotation.findMove('２二角成', q, ['8h2b', '8h2b+']), '8h2b+');
  assert.equal(sgNotation.findMove('22角不成', q, ['8h2b', '8h2b+']), '8h2b');
  assert.equal(sgNotation.findMove('p*5e', q, ['P*5e']), 'P*5e');
  const g = sg.parseFen('startpos');
  assert.equal(sgNotation.findMove('58金右', g, ['4i5h', '6i5h']), '4i5h');
  assert.equal(sgNotation.findMove('58金左', g, ['4i5h', '6i5h']), '6i5h');
  assert.equal(sgNotation.findMove('58金', g, ['4i5h', '6i5h']), null);
  assert.equal(sgNotation.moveText({ move: '7g7f', display: '▲７六歩', alt: 'P-7f' }, g, 'japanese'), '▲７六歩');
  assert.equal(sgNotation.moveText({ move: '7g7f', display: '▲７六歩', alt: 'P-7f' }, g, 'western'), 'P-7f');
  assert.equal(sgNotation.moveText({ move: '4i5h' }, g, 'western'), 'G4i-5h', 'worked out when the server has not said');
});

await test('shogi: a handicap game\'s giver (gote\'s pieces) is the first side', async () => {
  await import(path.join(root, 'crates/web/assets/js/boards/shogi.js')).catch(() => null);
  const spec = boards.gameFor('shogi/two-pieces');
  if (!spec) return; // the board module needs a DOM to load; the rules are tested above
  const h = sg.parseFen('lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1');
  assert.equal(boards.secondToMove(spec, h, ['uwate', 'shitate']), false);
  assert.equal(boards.secondToMove(spec, sg.play(h, '6a5b'), ['uwate', 'shitate']), true);
  const premoves = spec.premoves(sg.play(sg.play(h, '6a5b'), '7g7f'), 'uwate');
  assert.ok(premoves['5b'].includes('5a'));
});

// Gomoku and renju: black's forbidden points as the renju crate finds them
// (tests/e2e/renju-forbidden.json, kept true by crates/renju/tests/
// browser_fixture.rs), the opening's steps on the position, the move list's
// rows when one side moves several times, and reading placements.
const rj = await import(path.join(root, 'crates/web/assets/js/rules/renju.js'));
const rjFixture = JSON.parse(fs.readFileSync(path.join(here, 'renju-forbidden.json'), 'utf8'));

await test(`renju: forbidden points of ${rjFixture.length} boards match the renju crate`, () => {
  let points = 0;
  for (const { board, forbidden } of rjFixture) {
    const b = [...board].map((c) => (c === '.' ? null : c));
    const got = Object.fromEntries([...rj.forbiddenPoints(b)].map(([p, k]) => [rj.pointName(p), k]));
    assert.deepEqual(got, forbidden, board);
    points += Object.keys(forbidden).length;
  }
  assert.ok(points > 500, `${points} forbidden points`);
});

await test('renju: positions, opening steps and offers', () => {
  let pos = rj.parseFen(rj.EMPTY_FEN);
  pos.order = [];
  for (const m of ['h8', 'h9', 'h10', 'choose:black', 'g9', 'declare:2', 'choose:black', 'offer:j9', 'offer:i11']) {
    pos = rj.play(pos, m);
  }
  assert.equal(pos.turn, 'black');
  assert.deepEqual(pos.offers.map(rj.pointName), ['j9', 'i11']);
  pos = rj.play(pos, 'select:i11');
  assert.equal(pos.board[rj.parsePoint('i11')], 'x');
  assert.deepEqual(pos.offers, []);
  assert.deepEqual(pos.order.map(rj.pointName), ['h8', 'h9', 'h10', 'g9', 'i11']);
  assert.equal(pos.turn, 'white');
  const shown = rj.parseFen('15/15/15/15/15/7x7/7o7/7x7/15/15/15/15/15/15/15 b j9,i11');
  assert.deepEqual(shown.offers.map(rj.pointName), ['j9', 'i11']);
  assert.equal(boards.splitMove('h8').join('|'), '|h8|');
  assert.equal(boards.splitMove('offer:h10').join('|'), 'offer:|h10|');
  assert.equal(boards.splitMove('choose:black')[1], null);
  assert.deepEqual(boards.choicesOf(['choose:black', 'choose:white', 'more', 'h8']), ['choose:black', 'choose:white', 'more']);
  assert.deepEqual(boards.destsOf(['a1', 'b2']), { '': ['a1', 'b2'] });
  assert.equal(boards.splitMove('h2e2').join('|'), 'h2|e2|');
  assert.equal(boards.splitMove('P*5e').join('|'), 'P*|5e|');
});

await test('move rows follow each move\'s side', () => {
  const ms = (...sides) => sides.map((side, i) => ({ ply: i + 1, side }));
  const rows = boards.moveRows(ms('first', 'first', 'first', 'second', 'second', 'first'));
  assert.deepEqual(rows.map(([a, b]) => [a && a.ply, b && b.ply]), [[1, null], [2, null], [3, 4], [null, 5], [6, null]]);
  const alt = boards.moveRows([{ ply: 1 }, { ply: 2 }, { ply: 3 }], true);
  assert.deepEqual(alt.map(([a, b]) => [a && a.ply, b && b.ply]), [[null, 1], [2, 3]]);
});

const dv = await import(path.join(root, 'crates/web/assets/js/rules/variants.js'));
const dvNotation = await import(path.join(root, 'crates/web/assets/js/notation/variants.js'));

await test('data variants: reserves in the FEN, drops and revived captures replayed (还魂卒)', () => {
  const r = dv.rulesFor({ board: { files: 9, ranks: 10, revived: ['p'], pieces: [{ code: 'k', royal: true }, { code: 'p' }, { code: 'r' }] } });
  let pos = r.parseFen('3k5/9/9/9/p8/9/2P6/9/R8/4K4[P] w V - 0 1');
  assert.deepEqual(pos.hands, { red: { p: 1 }, black: {} });
  pos = r.play(pos, 'a1a5'); // the black pawn goes to Black's reserve
  assert.deepEqual(pos.hands.black, { p: 1 });
  pos = r.play(r.play(pos, 'd9d8'), 'P@e3');
  assert.equal(pos.board[r.parseSquare('e3')], 'P');
  assert.equal(pos.hands.red.p, 0);
  assert.equal(pos.turn, 'black');
  assert.deepEqual(r.parseDrop('P@e3'), { letter: 'p', to: r.parseSquare('e3') });
  assert.equal(r.parseMove('P@e3'), null);
  assert.equal(dvNotation.findMove('p@E3', pos, ['a5a6', 'P@e3']), 'P@e3');
  assert.throws(() => r.parseFen('3k5/9/9/9/9/9/9/9/9/4K4[X] w - - 0 1'));
});

await test('data variants: flags on the ring replayed (解将旗)', () => {
  const r = dv.rulesFor({ board: { files: 9, ranks: 10, flag_ring: 42, pieces: [{ code: 'k', royal: true }, { code: 'r' }] } });
  let pos = r.parseFen('3r1k3/9/9/9/9/9/9/9/9/3K5{20,21} w - - 0 1');
  assert.deepEqual(pos.flags, [20, 21]);
  pos = r.play(pos, '~');
  assert.deepEqual(pos.flags, [21, null]);
  assert.equal(pos.turn, 'red', 'the step keeps the turn');
  pos = r.play(r.parseFen('4k4/9/9/9/9/9/9/9/9/3K5{41,21} b - - 0 1'), '~~');
  assert.deepEqual(pos.flags, [41, 23]);
  assert.equal(pos.turn, 'red');
  assert.equal(dvNotation.choiceText('~'), '解将旗 +1 (~)');
});

await test('data variants: a turn of two moves keeps the side to move in a replay (杀惊遁马)', async () => {
  const { registerVariants } = await import(path.join(root, 'crates/web/assets/js/boards/variants.js'));
  const pieces = ['k', 'a', 'b', 'n', 'r', 'c', 'p'].map((code) => ({ code, royal: code === 'k' }));
  registerVariants([{ id: 'variants/test-horse', board: { renderer: 'variants', files: 9, ranks: 10, pieces } }]);
  const spec = boards.gameFor('variants/test-horse');
  const start = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
  // 炮二进七 takes a horse; Black moves its horse, then its rook takes the cannon.
  const moves = [{ move: 'h2h9', side: 'first' }, { move: 'b9c7', side: 'second' }, { move: 'i9h9', side: 'second' }];
  const after = 'r1bakab2/9/1cn4cr/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 3';
  const turns = boards.gamePositions(spec, start, moves, after).map((p) => p.turn);
  assert.deepEqual(turns, ['red', 'black', 'black', 'red'], 'Black is still to move after its horse');
  // Without the sides (a game whose turns alternate), play's own turns.
  const plain = boards.gamePositions({ rules: spec.rules }, start, moves).map((p) => p.turn);
  assert.deepEqual(plain, ['red', 'black', 'red', 'black']);
  // After the last move, the server's FEN: Black owed its second move.
  const owed = boards.gamePositions(spec, start, moves.slice(0, 2), 'r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b s - 0 2');
  assert.equal(owed[2].turn, 'black');
});

// --- the live boards of an event (pages/liveboards.js): which games, which page ---
await test('live boards: the round\'s games with a board, a knockout\'s latest game, an arena\'s in progress, 12 a page', async () => {
  const live = await import(path.join(root, 'crates/web/assets/js/pages/liveboards.js'));
  i18n.setLang('en');
  const p = (number, name) => ({ number, name });
  const swiss = {
    system: 'swiss',
    rounds_paired: [
      { round: 1, boards: [{ board: 1, white: p(1, 'a'), black: p(2, 'b'), game: 'old', games: [] }] },
      { round: 2, boards: [
        { board: 1, white: p(2, 'b'), black: p(1, 'a'), game: 'g1', games: [] },
        { board: 2, white: p(3, 'c'), black: null, game: null, result: 'bye', games: [] },
        { board: 3, white: p(4, 'd'), black: p(5, 'e'), game: null, result: '+-', forfeit: true, games: [] },
      ] },
    ],
  };
  assert.deepEqual(live.liveGames(swiss), [{ game: 'g1', label: 'Board 1', white: 'b', black: 'a' }]);
  const knockout = {
    system: 'knockout',
    rounds_paired: [{ round: 1, boards: [{ board: 1, white: p(1, 'a'), black: p(2, 'b'), game: 'k1',
      games: [{ game: 'k1', result: '1/2-1/2' }, { game: 'k2', result: null }] }] }],
  };
  assert.deepEqual(live.liveGames(knockout).map((g) => g.game), ['k2']);
  const arena = {
    system: 'arena', rounds_paired: [],
    arena: { games: [
      { seq: 1, game: 'x1', white: p(1, 'a'), black: p(2, 'b'), result: '1-0' },
      { seq: 2, game: 'x2', white: p(2, 'b'), black: p(1, 'a'), result: null, points_now: [0, 2] },
      { seq: 3, game: 'x3', white: p(3, 'c'), black: p(4, 'd'), result: null, points_now: [0, 0] },
      { seq: 4, game: 'x4', white: p(5, 'e'), black: p(6, 'f'), result: null, points_now: [5, 1] },
      { seq: 5, game: 'x5', white: p(7, 'g'), black: p(8, 'h'), result: null, points_now: [2, 2] },
    ] },
  };
  // The leaders' games first: the better player's points, then the other's.
  assert.deepEqual(live.liveGames(arena).map((g) => g.game), ['x4', 'x5', 'x2', 'x3']);
  assert.deepEqual(live.liveGames(arena)[2], { game: 'x2', label: 'Game 2', white: 'b', black: 'a' });
  assert.deepEqual(live.liveGames({ system: 'swiss', rounds_paired: [] }), []);
  // A 500-board round: 42 pages of 12, the last with 8; a page past the
  // end is the last one, before the start the first.
  const boards500 = Array.from({ length: 500 }, (_, i) => i + 1);
  assert.equal(live.PAGE_SIZE, 12);
  const first = live.pageOf(boards500, 1);
  assert.deepEqual([first.page, first.pages, first.from, first.items.length, first.items[0]], [1, 42, 0, 12, 1]);
  const last = live.pageOf(boards500, 99);
  assert.deepEqual([last.page, last.from, last.items.length, last.items[7]], [42, 492, 8, 500]);
  assert.equal(live.pageOf(boards500, 0).page, 1);
  assert.deepEqual(live.pageOf([], 3), { items: [], page: 1, pages: 1, from: 0 });
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
