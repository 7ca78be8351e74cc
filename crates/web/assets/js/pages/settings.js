// Settings: board theme, Xiangqi piece set, coordinates — saved as they are
// changed (see ../settings.js).

import { h } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { PIECE_SETS, THEMES, change, current } from '../settings.js';

export function mount(main, _params, ctx) {
  const s = current();
  const status = h('p', { class: 'muted', id: 'settings-status', role: 'status' });
  const save = async () => {
    const next = {
      board_theme: theme.value, piece_set: pieces.value, coordinates: coords.checked, takebacks: takebacks.checked,
    };
    try {
      await change(next, ctx.account);
      status.textContent = ctx.account ? t('settings.savedAccount') : t('settings.savedBrowser');
    } catch (e) {
      status.textContent = errorText(e);
    }
  };
  const theme = h('select', { id: 'setting-theme', onchange: save },
    THEMES.map((v) => h('option', { value: v, selected: s.board_theme === v }, t(`settings.theme.${v}`))));
  const pieces = h('select', { id: 'setting-pieces', onchange: save },
    PIECE_SETS.map((v) => h('option', { value: v, selected: s.piece_set === v }, t(`settings.pieces.${v}`))));
  const coords = h('input', { type: 'checkbox', id: 'setting-coords', checked: s.coordinates, onchange: save });
  const takebacks = h('input', { type: 'checkbox', id: 'setting-takebacks', checked: s.takebacks !== false, onchange: save });
  main.append(
    h('h1', {}, t('settings.title')),
    h('section', { class: 'card', 'aria-labelledby': 'board-look' },
      h('h2', { id: 'board-look' }, t('settings.board')),
      h('label', { class: 'field', for: 'setting-theme' }, h('span', {}, t('settings.theme')), theme),
      h('label', { class: 'field', for: 'setting-pieces' }, h('span', {}, t('settings.pieces')), pieces),
      h('label', { class: 'row', for: 'setting-coords' }, coords, t('settings.coords')),
      status),
    h('section', { class: 'card', 'aria-labelledby': 'game-prefs' },
      h('h2', { id: 'game-prefs' }, t('settings.games')),
      h('label', { class: 'row', for: 'setting-takebacks' }, takebacks, t('settings.takebacks'))));
  return null;
}
