// The games and variants the server plays, as `GET /api/info` describes
// them (the registry's descriptors: id, family, sides, names, computer
// levels …), asked once per page load. The lobby offers those whose
// family has a board here; other pages use them for names. A variant
// defined as data has its board drawn from its descriptor, so the app
// asks for them before it shows the first page.

import { api } from './api.js';
import { getLang, t } from './i18n.js';
import { gameFor } from './boards/board.js';
import { registerVariants } from './boards/variants.js';

let info = null;

/**
 * The server's variant descriptors (a promise; [] when it cannot be
 * asked). The variants defined as data get their boards from them.
 */
export function loadVariants() {
  info ||= api.info().then((i) => {
    const variants = (i && i.variants) || [];
    registerVariants(variants);
    return variants;
  }, () => {
    info = null; // ask again next time
    return [];
  });
  return info;
}

/** The descriptor of `id` (an id or an alias) in `variants`, or null. */
export function findVariant(variants, id) {
  return variants.find((v) => v.id === id || (v.aliases || []).includes(id)) || null;
}

/** The variants a player can be offered here: those with a board. */
export function playable(variants) {
  return variants.filter((v) => gameFor(v.id));
}

/** A descriptor's name in the reader's language. */
function nameOf(v) {
  const names = v.name || {};
  return names[getLang()] || names.en || v.id;
}

/**
 * A variant's name for a menu: its own name, and where several share it
 * (Xiangqi under four rule sets), the rule set's short name too.
 */
export function variantLabel(variants, v) {
  const name = nameOf(v);
  if (variants.filter((w) => nameOf(w) === name).length < 2) return name;
  const key = `rules.${v.id.split('/').pop()}`;
  const rules = t(key);
  if (rules !== key) return `${name} · ${rules}`;
  return `${name} · ${(v.rules && (v.rules[getLang()] || v.rules.en)) || v.id}`;
}

/** The side keys of a descriptor, first mover first (`['white', 'black']`). */
export function sideKeys(v) {
  const sides = (v && v.sides) || [];
  return sides.length === 2 ? sides.map((s) => s.key || s) : ['first', 'second'];
}
