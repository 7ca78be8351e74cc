// Clocks that tick smoothly between server updates. The server's reading
// is the truth: each update replaces what is shown, and in between the
// running clock is counted down locally from the moment the update
// arrived. The display never decides a flag; the server does.

import { formatClock } from './dom.js';
import { t } from './i18n.js';

const DAY_MS = 86400000;

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
   * Sets the reading: `ms` of main time left, whether it runs, and (when
   * the time control has stages or byo-yomi) the side's clock beyond it
   * as the server sends it: `{ stage, moves_to_control, periods_left,
   * period_ms, period_left_ms }`.
   */
  set(ms, running, extra = null) {
    this.ms = ms;
    this.running = running;
    this.extra = extra;
    this.at = performance.now();
    this.draw();
  }

  /** What the clock reads now (main time). */
  now() {
    return this.running ? Math.max(0, this.ms - (performance.now() - this.at)) : this.ms;
  }

  /**
   * Byo-yomi (秒読み, 读秒) now: `{ periods, left }` — the periods left (the
   * current one counted) and, once main time is gone, the time left in
   * the current period (else null). Counted on locally between readings:
   * a period that runs out gives way to the next, as the server's clock
   * does; the server alone decides the flag.
   */
  byoyomi() {
    const x = this.extra;
    if (!x || !x.period_ms || x.periods_left === null || x.periods_left === undefined) return null;
    const elapsed = this.running ? performance.now() - this.at : 0;
    // How far into overtime the clock is now, if it is.
    let over = null;
    if (x.period_left_ms !== null && x.period_left_ms !== undefined) over = elapsed + (x.period_ms - x.period_left_ms);
    else if (this.ms - elapsed <= 0) over = elapsed - this.ms;
    if (over === null) return { periods: x.periods_left, left: null };
    const lost = Math.floor(over / x.period_ms);
    const periods = Math.max(0, x.periods_left - lost);
    return { periods, left: periods > 0 ? x.period_ms - (over % x.period_ms) : 0 };
  }

  draw() {
    let left = this.now();
    const x = this.extra;
    const parts = [];
    const b = this.byoyomi();
    const overtime = !!(b && b.left !== null);
    // A correspondence game: one period of days a move, told in days.
    const daily = x && x.period_ms >= DAY_MS;
    if (b) {
      if (overtime) left = b.left;
      parts.push(daily
        ? t('clock.correspondence', { n: Math.round(x.period_ms / DAY_MS) })
        : t('game.byoyomi', { s: Math.round(x.period_ms / 1000), n: b.periods }));
    }
    if (x && x.stage > 1) parts.push(t('game.stage', { n: x.stage }));
    if (x && x.moves_to_control) parts.push(t('game.movesToControl', { n: x.moves_to_control }));
    this.time.textContent = left >= DAY_MS
      ? t('clock.days', { d: Math.floor(left / DAY_MS), h: Math.floor((left % DAY_MS) / 3600000) })
      : formatClock(left);
    if (this.info) this.info.textContent = parts.join(' · ');
    const low = overtime ? left < Math.min(10000, x.period_ms / 3) : left < lowTimeMs(this.initialMs) && this.initialMs > 0;
    this.el.classList.toggle('low', low);
    this.el.classList.toggle('overtime', overtime);
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
