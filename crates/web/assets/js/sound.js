// Optional sounds, off by default, made with WebAudio (no sound files to
// ship). The switch is remembered.

const KEY = 'qiju.sound';
let ctx = null;

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    /* not remembered */
  }
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
