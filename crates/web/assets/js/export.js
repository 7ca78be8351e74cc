// Sharing a game from its page: the position's FEN and the page's link to
// the clipboard, the board as a PNG image, and the game's record in each
// notation its variant's record format is written in (the registry's
// `record.notations`: Xiangqi's PGN in ICCS or in Chinese).
//
// The image is one function for every board: whatever SVGs a board draws
// (Xiangqi, chess, renju: one; shogi: the board and its pieces in hand)
// are drawn onto one canvas where they stand on the screen, with the
// stylesheet's look copied onto each element (an SVG drawn as an image
// sees no stylesheet, no web font and no other file), and the plain text
// beside them (shogi's counts in hand) drawn over it.

import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';

/** How long "Copied" stays. */
const SAID_MS = 2500;
/** Pixels of the image per CSS pixel of the board on the screen. */
const IMAGE_SCALE = 2;
/** What the stylesheet decides of an SVG element's look. */
const STYLE = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'opacity',
  'font-family', 'font-size', 'font-weight', 'letter-spacing', 'text-anchor', 'dominant-baseline',
  'paint-order', 'filter', 'visibility',
];
const FONT_URL = '/fonts/qiju-board.woff2';
const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Puts `text` on the clipboard: the Clipboard API, else the old
 * `execCommand('copy')` of a selected text field (a page served over
 * plain HTTP from another machine has no Clipboard API).
 * @returns {Promise<boolean>} whether it was copied
 */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* refused: try the old way */
  }
  const area = h('textarea', { readonly: true, 'aria-hidden': 'true', style: 'position:fixed;top:0;left:0;opacity:0' });
  area.value = text;
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

const dataUrls = new Map();

/** A file of this site as a `data:` URL (an SVG image may load nothing else). */
function dataUrl(url) {
  if (!dataUrls.has(url)) {
    dataUrls.set(url, fetch(url)
      .then((r) => {
        if (!r.ok) throw new Error(`${url}: ${r.status}`);
        return r.blob();
      })
      .then((b) => new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result);
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(b);
      }))
      .catch((e) => {
        dataUrls.delete(url);
        throw e;
      }));
  }
  return dataUrls.get(url);
}

/** A copy of `svg` that looks the same drawn alone: every element's
 *  computed look inline, hidden ones left out, images and the board font
 *  carried inside. */
async function standalone(svg, width, height) {
  const copy = svg.cloneNode(true);
  const originals = [svg, ...svg.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  const hidden = [];
  originals.forEach((o, i) => {
    const c = copies[i];
    const cs = getComputedStyle(o);
    if (cs.display === 'none') {
      hidden.push(c);
      return;
    }
    c.setAttribute('style', STYLE.map((k) => `${k}:${cs.getPropertyValue(k)}`).join(';'));
  });
  for (const c of hidden) c.remove();
  for (const img of copy.querySelectorAll('image')) {
    const href = img.getAttribute('href') || img.getAttribute('xlink:href');
    if (href && !href.startsWith('data:')) img.setAttribute('href', await dataUrl(href));
  }
  if (copy.querySelector('text')) {
    const style = document.createElementNS(SVG_NS, 'style');
    style.textContent = `@font-face{font-family:"qiju board";font-weight:100 900;src:url(${await dataUrl(FONT_URL)}) format("woff2")}`;
    copy.prepend(style);
  }
  copy.setAttribute('xmlns', SVG_NS);
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  return new XMLSerializer().serializeToString(copy);
}

function loadImage(src) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('the board could not be drawn'));
    img.src = src;
  });
}

/** The SVGs a board draws, not those inside another (a piece's own). */
function boardSvgs(container) {
  return [...container.querySelectorAll('svg')]
    .filter((s) => !s.parentElement.closest('svg'))
    .filter((s) => s.getBoundingClientRect().width > 0);
}

/** Plain text beside the SVGs (shogi's counts in hand), with where it
 *  stands; not the board's switches (renju's) nor what only a screen
 *  reader hears. */
function looseText(container) {
  const out = [];
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || el.closest('svg, label, .visually-hidden, [hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && getComputedStyle(el).visibility !== 'hidden') out.push({ el, text: n.textContent.trim(), r });
  }
  return out;
}

/** The smallest rectangle holding all of `rects`. */
function around(rects) {
  const left = Math.min(...rects.map((r) => r.left));
  const top = Math.min(...rects.map((r) => r.top));
  const right = Math.max(...rects.map((r) => r.right));
  const bottom = Math.max(...rects.map((r) => r.bottom));
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * The board in `container` as a PNG, as it looks now, at twice its size
 * on the screen: what it draws (its SVGs and the text beside them), not
 * the controls around it.
 * @returns {Promise<Blob>}
 */
export async function boardImage(container) {
  const svgs = boardSvgs(container);
  const texts = looseText(container);
  if (!svgs.length) throw new Error('there is no board to draw');
  const box = around([...svgs.map((s) => s.getBoundingClientRect()), ...texts.map((x) => x.r)]);
  const width = Math.round(box.width * IMAGE_SCALE);
  const height = Math.round(box.height * IMAGE_SCALE);
  if (!width || !height) throw new Error('there is no board to draw');
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d');
  g.fillStyle = getComputedStyle(document.body).backgroundColor || '#ffffff';
  g.fillRect(0, 0, width, height);
  for (const svg of svgs) {
    const r = svg.getBoundingClientRect();
    const w = Math.round(r.width * IMAGE_SCALE);
    const hgt = Math.round(r.height * IMAGE_SCALE);
    const text = await standalone(svg, w, hgt);
    const img = await loadImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`);
    g.drawImage(img, (r.left - box.left) * IMAGE_SCALE, (r.top - box.top) * IMAGE_SCALE, w, hgt);
  }
  for (const { el, text, r } of texts) {
    const cs = getComputedStyle(el);
    g.font = `${cs.fontWeight} ${parseFloat(cs.fontSize) * IMAGE_SCALE}px ${cs.fontFamily}`;
    g.fillStyle = cs.color;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(text, (r.left + r.width / 2 - box.left) * IMAGE_SCALE, (r.top + r.height / 2 - box.top) * IMAGE_SCALE);
  }
  return new Promise((resolve, reject) => {
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the image could not be made'))), 'image/png');
  });
}

/** Saves a blob under `name` through a download link. */
function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** The label of a record download: "Download PGN", "Download PGN (中文)". */
function recordLabel(record, notation, usual) {
  const base = record.format === 'pgn' ? t('replay.pgn') : t('replay.record', { format: record.format.toUpperCase() });
  return notation === usual ? base : t('export.recordIn', { what: base, notation: t(`game.notation.${notation}`) });
}

/**
 * The game's record downloads: one link per notation its format is
 * written in, the usual one first (`#pgn`), the others `#pgn-chinese` ….
 */
export function recordLinks(id, variantInfo) {
  const record = (variantInfo && variantInfo.record) || { format: 'pgn', extension: 'pgn', notations: [] };
  const notations = record.notations && record.notations.length ? record.notations : [null];
  const usual = notations[0];
  return notations.map((n, i) => {
    const label = recordLabel(record, n, usual);
    const suffix = i === 0 ? '' : `-${n}`;
    return h('a', {
      class: `button${i === 0 ? ' primary' : ''}`,
      href: i === 0 ? api.pgnUrl(id) : `${api.pgnUrl(id)}?notation=${encodeURIComponent(n)}`,
      download: `qiju-${id}${suffix}.${record.extension || 'pgn'}`,
      id: `pgn${suffix}`,
      'aria-label': label,
    }, label);
  });
}

/**
 * The sharing buttons of a game's page: copy the FEN (`fen()`: the
 * server's, of the position shown, maybe asked for), copy the page's
 * link, save the board (`board()`: its container) as
 * `qiju-ID-PLY.png` (`ply()`: the position's number). "Copied" (or what
 * went wrong) shows beside them for a moment.
 */
export function exportTools({ id, fen, ply, board }) {
  const said = h('span', { class: 'copied', id: 'export-said', role: 'status', 'aria-live': 'polite' });
  let timer = null;
  const say = (text) => {
    said.textContent = text;
    clearTimeout(timer);
    timer = setTimeout(() => { said.textContent = ''; }, SAID_MS);
  };
  const copy = async (get) => {
    try {
      const text = await get();
      say((await copyText(text)) ? t('export.copied') : t('export.copyThis', { text }));
    } catch (e) {
      say(t('export.failed', { message: e.message || String(e) }));
    }
  };
  const button = (idAttr, label, onclick) => h('button', { type: 'button', id: idAttr, 'aria-label': label, onclick }, label);
  return h('div', { class: 'export-tools', role: 'group', 'aria-label': t('export.title') },
    button('copy-fen', t('export.copyFen'), () => copy(fen)),
    button('copy-link', t('export.copyLink'), () => copy(() => location.href)),
    button('board-png', t('export.image'), async () => {
      try {
        save(await boardImage(board()), `qiju-${id}-${ply()}.png`);
        say(t('export.saved'));
      } catch (e) {
        say(t('export.failed', { message: e.message || String(e) }));
      }
    }),
    said);
}
