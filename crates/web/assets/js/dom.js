// A few DOM helpers, so pages build their elements in plain JavaScript.

/**
 * `h('button', { class: 'x', onclick: f, 'aria-label': '…' }, 'text', child…)`:
 * an element with attributes, event handlers (on…) and children (strings,
 * nodes, arrays, null/false skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  append(e, children);
  return e;
}

/** Replaces an element's children, skipping null/false as `h` does
 *  (the DOM's own replaceChildren would print them as "null"). */
export function fill(e, ...children) {
  e.replaceChildren();
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else e.append(c instanceof Node ? c : String(c));
  }
}

/** A button with a visible text and an accessible label. */
export function button(text, onclick, attrs = {}) {
  return h('button', { type: 'button', 'aria-label': attrs.label || text, onclick, ...attrs, label: null }, text);
}

/** Formats a time in ms as m:ss, or h:mm:ss, with tenths under 10 s. */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) {
    const s = Math.floor(t / 1000);
    const tenth = Math.floor((t % 1000) / 100);
    return `0:0${s}.${tenth}`;
  }
  const total = Math.ceil(t / 1000);
  const hh = Math.floor(total / 3600);
  const mm = Math.floor((total % 3600) / 60);
  const ss = String(total % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

export function formatDate(ms) {
  if (!ms) return '';
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * Scrolls `box` (a scrolling list) so that `item` inside it is in view —
 * the list only, never the page: `scrollIntoView` would also scroll every
 * scrolling ancestor, the document too, which on a phone took the board
 * off the screen at every step.
 */
export function scrollWithin(box, item) {
  if (!box || !item) return;
  const b = box.getBoundingClientRect();
  const i = item.getBoundingClientRect();
  if (i.top < b.top) box.scrollTop -= b.top - i.top;
  else if (i.bottom > b.bottom) box.scrollTop += i.bottom - b.bottom;
}
