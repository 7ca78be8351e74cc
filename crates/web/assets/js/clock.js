// Clocks that tick smoothly between server updates. The server's reading
// is the truth: each update replaces what is shown, and in between the
// running clock is counted down locally from the moment the update
// arrived. The display never decides a flag; the server does.

import { formatClock } from './dom.js';
import { t } from './i18n.js';

/** Time under which a clock shows its low-time warning. */
export function lowTimeMs(initialMs) {
  return Math.max(10000, Math.min(60000, initialMs * 0.1));
}

export class Clock {
  /** @param {HTMLElement} el  the element showing this side's clock */
  constructor(el, { initialMs = 0, onLow = () => {} } = {}) {
    this.el = el;
    this.initialMs = initialMs;
    this.onLow = onLow;
    this.ms = 0;
    this.at = performance.now();
    this.running = false;
    this.extra = null;
    this.warned = false;
    this.time = el.querySelector('.clock-time') || el;
    this.info = el.querySelector('.clock-info');
  }

  /**
   * Sets the reading: `ms` left, whether it runs, and (when the server
   * sends it) the side's clock view with stage and overtime
   * (`{ stage, moves_to_control, overtime: { kind: 'byoyomi',
   * periods_left }, period_left_ms }`).
   */
  set(ms, running, extra = null) {
    this.ms = ms;
    this.running = running;
    this.extra = extra;
    this.at = performance.now();
    this.draw();
  }

  /** What the clock reads now. */
  now() {
    return this.running ? Math.max(0, this.ms - (performance.now() - this.at)) : this.ms;
  }

  draw() {
    let left = this.now();
    const x = this.extra;
    const parts = [];
    if (x && x.overtime && x.overtime.kind === 'byoyomi') {
      parts.push(t('game.byoyomi', { n: x.overtime.periods_left }));
      if (x.period_left_ms !== undefined && x.period_left_ms !== null && left <= 0) {
        left = this.running ? Math.max(0, x.period_left_ms - (performance.now() - this.at)) : x.period_left_ms;
      }
    }
    if (x && x.stage > 1) parts.push(t('game.stage', { n: x.stage }));
    if (x && x.moves_to_control) parts.push(t('game.movesToControl', { n: x.moves_to_control }));
    this.time.textContent = formatClock(left);
    if (this.info) this.info.textContent = parts.join(' · ');
    const low = left < lowTimeMs(this.initialMs) && this.initialMs > 0;
    this.el.classList.toggle('low', low);
    this.el.classList.toggle('running', this.running);
    if (low && this.running && !this.warned) {
      this.warned = true;
      this.onLow();
    }
    if (!low) this.warned = false;
  }
}

/** Redraws clocks every animation frame while the page shows them. */
export function tickClocks(clocks) {
  let live = true;
  const frame = () => {
    if (!live) return;
    for (const c of clocks) if (c.running) c.draw();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return () => {
    live = false;
  };
}
