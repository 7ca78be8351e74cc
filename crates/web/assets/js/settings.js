// How the boards look: theme, Xiangqi piece set, coordinates. Kept in this
// browser and, for a logged-in player, with the account (so they follow the
// player to every browser: GET/PUT /api/account/settings). Applied as
// classes on <html>, which the stylesheet reads; the boards draw both the
// characters and the letters, and the class shows one.

import { api } from './api.js';

const KEY = 'qiju.settings';
export const DEFAULTS = { board_theme: 'wood', piece_set: 'chinese', coordinates: true, takebacks: true };
export const THEMES = ['wood', 'slate'];
export const PIECE_SETS = ['chinese', 'letters'];

function valid(s) {
  return s && THEMES.includes(s.board_theme) && PIECE_SETS.includes(s.piece_set) && typeof s.coordinates === 'boolean'
    && (s.takebacks === undefined || typeof s.takebacks === 'boolean');
}

/** The settings this browser knows. */
export function current() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || 'null');
    return valid(s) ? s : { ...DEFAULTS };
  } catch {
    return { ...DEFAULTS };
  }
}

export function apply(s) {
  const root = document.documentElement.classList;
  root.toggle('theme-slate', s.board_theme === 'slate');
  root.toggle('pieces-letters', s.piece_set === 'letters');
  root.toggle('no-coords', !s.coordinates);
}

function remember(s) {
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
  } catch {
    /* private mode: this page only */
  }
  apply(s);
}

/** Takes the account's settings (after logging in or on load). */
export async function loadFor(account) {
  if (!account) return;
  try {
    const s = await api.settings();
    if (valid(s)) remember(s);
  } catch {
    /* keep this browser's */
  }
}

/** Changes the settings: here at once, with the account when there is one. */
export async function change(s, account) {
  remember(s);
  if (account) await api.putSettings(s);
}
