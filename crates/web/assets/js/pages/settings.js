// Settings: how the boards look (theme, size, Xiangqi and chess pieces,
// coordinates) and whether a move waits for a ✓ — saved as they are
// changed (see ../settings.js, whose CHOICES lists the values).

import { h } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { CHOICES, change, current } from '../settings.js';

/** The i18n key of each setting's name and values, and its field's id. */
const FIELDS = {
  board_theme: ['settings.theme', 'setting-theme'],
  board_size: ['settings.size', 'setting-size'],
  piece_set: ['settings.pieces', 'setting-pieces'],
  chess_pieces: ['settings.chessPieces', 'setting-chess-pieces'],
  move_confirmation: ['settings.confirm', 'setting-confirm'],
};

export function mount(main, _params, ctx) {
  const s = current();
  const status = h('p', { class: 'muted', id: 'settings-status', role: 'status' });
  const selects = {};
  const save = async () => {
    const next = { ...s, coordinates: coords.checked, takebacks: takebacks.checked };
    for (const [k, sel] of Object.entries(selects)) next[k] = sel.value;
    try {
      await change(next, ctx.account);
      status.textContent = ctx.account ? t('settings.savedAccount') : t('settings.savedBrowser');
    } catch (e) {
      status.textContent = errorText(e);
    }
  };
  const field = (key) => {
    const [words, id] = FIELDS[key];
    selects[key] = h('select', { id, onchange: save },
      CHOICES[key].map((v) => h('option', { value: v, selected: s[key] === v }, t(`${words}.${v}`))));
    return h('label', { class: 'field', for: id }, h('span', {}, t(words)), selects[key]);
  };
  const coords = h('input', { type: 'checkbox', id: 'setting-coords', checked: s.coordinates, onchange: save });
  const takebacks = h('input', { type: 'checkbox', id: 'setting-takebacks', checked: s.takebacks !== false, onchange: save });
  main.append(
    h('h1', {}, t('settings.title')),
    h('section', { class: 'card', 'aria-labelledby': 'board-look' },
      h('h2', { id: 'board-look' }, t('settings.board')),
      field('board_theme'),
      field('board_size'),
      field('piece_set'),
      field('chess_pieces'),
      h('label', { class: 'row', for: 'setting-coords' }, coords, t('settings.coords'))),
    h('section', { class: 'card', 'aria-labelledby': 'board-play' },
      h('h2', { id: 'board-play' }, t('settings.play')),
      field('move_confirmation'),
      h('label', { class: 'row', for: 'setting-takebacks' }, takebacks, t('settings.takebacks')),
      status));
  return null;
}
