// Sounds, on unless the player turns them off with the header's switch
// (remembered in this browser: a phone in a meeting and a desktop at
// home want different answers), made with WebAudio (no sound files to
// ship).

import { h } from './dom.js';
import { t } from './i18n.js';

const KEY = 'qiju.sound';
let ctx = null;

export function soundOn() {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    /* not remembered */
  }
}

const NS = 'http://www.w3.org/2000/svg';

/** A loudspeaker, with sound waves when on and a cross when off (drawn:
 *  an emoji needs a colour-emoji font many machines lack). */
function speaker(on) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '22');
  svg.setAttribute('height', '22');
  svg.setAttribute('aria-hidden', 'true');
  const add = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.append(e);
  };
  add('path', { d: 'M3 9h4l5-4v14l-5-4H3z', fill: 'currentColor' });
  const line = { fill: 'none', stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round' };
  if (on) {
    add('path', { d: 'M15.5 8.5a5 5 0 0 1 0 7', ...line });
    add('path', { d: 'M18.5 5.5a9 9 0 0 1 0 13', ...line });
  } else {
    add('path', { d: 'M16 9l6 6M22 9l-6 6', ...line });
  }
  return svg;
}

/** The header's switch: a button that shows and says whether sound is on. */
export function soundSwitch() {
  const button = h('button', { type: 'button', id: 'sound-switch', class: 'link sound-switch' });
  const show = () => {
    const on = soundOn();
    button.setAttribute('aria-pressed', String(on));
    button.setAttribute('aria-label', t(on ? 'sound.on' : 'sound.off'));
    button.title = t(on ? 'sound.on' : 'sound.off');
    button.replaceChildren(speaker(on));
  };
  button.addEventListener('click', () => {
    setSound(!soundOn());
    show();
  });
  show();
  return button;
}

function tone(freq, ms, type = 'sine', gain = 0.15) {
  if (!soundOn()) return;
  try {
    ctx ||= new AudioContext();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.type = type;
    o.frequency.value = freq;
    g.gain.setValueAtTime(gain, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + ms / 1000);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + ms / 1000);
  } catch {
    /* no audio */
  }
}

export const sounds = {
  move: () => tone(520, 90, 'triangle'),
  capture: () => tone(300, 140, 'square', 0.08),
  check: () => tone(880, 180, 'sawtooth', 0.06),
  end: () => tone(660, 400, 'sine'),
  lowTime: () => tone(1000, 60, 'sine', 0.05),
};
