// The table's notification queue (as on Board Game Arena): each update from the server is a
// job; its events are played in order on the board as it was (a card flies from where it came
// from to where it goes, a banner says "Bust!"), each with a short readable pause, and only
// then does the new state settle. Jobs never overlap; a backlog plays faster; a tap skips.
// prefers-reduced-motion: nothing moves, the moments are still said and shown, briefly.

import { h } from './dom.js';
import { paceFactor, reducedMotion } from './settings.js';

/** Animation lengths in ms, within the 150-400 ms players expect. */
export const MS = Object.freeze({ fly: 340, pop: 260, fade: 200 });

/**
 * A queue of async jobs run one at a time: push(job) where job(q) returns a promise.
 * q.wait(ms) pauses (scaled by the speed setting and the backlog; cut short by skip()).
 */
export class MomentQueue {
  constructor() {
    this.jobs = [];
    this.running = false;
    this.skipping = false;
    this.wakers = new Set();
    this.idle = [];
    this.boost = 1; // < 1: the player's own move, played back quicker
  }

  /** Number of jobs waiting behind the one playing. */
  get backlog() {
    return this.jobs.length;
  }

  /** Whether a job is playing now. */
  get busy() {
    return this.running;
  }

  /** Queue `job(q)`. */
  push(job) {
    this.jobs.push(job);
    if (!this.running) this.run();
  }

  async run() {
    this.running = true;
    while (this.jobs.length) {
      const job = this.jobs.shift();
      this.skipping = false;
      try {
        await job(this);
      } catch (err) {
        console.warn('a table moment failed; the state is drawn as it is', err);
      }
    }
    this.running = false;
    this.skipping = false;
    for (const fn of this.idle.splice(0)) fn();
  }

  /** Play the rest of the current job at once (a tap on the table). */
  skip() {
    this.skipping = true;
    for (const wake of this.wakers) wake();
    this.wakers.clear();
  }

  /** Drop every waiting job and skip the current one (leaving the page). */
  clear() {
    this.jobs = [];
    this.skip();
  }

  /** A promise resolved once no job is playing or waiting. */
  whenIdle() {
    return this.running ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  /**
   * How long `ms` lasts now: the speed setting, faster with a backlog, 0 when skipping;
   * `headline` pauses (a banner) keep their length when the player's own move plays back.
   */
  scaled(ms, headline = false) {
    if (this.skipping) return 0;
    const backlog = this.jobs.length;
    return Math.round((ms * paceFactor() * (headline ? 1 : this.boost)) / (1 + backlog * 0.75));
  }

  /** Pause `ms` (scaled, see scaled()); resolves at once when skipping. */
  wait(ms, headline = false) {
    const t = this.scaled(ms, headline);
    if (t <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => { clearTimeout(timer); this.wakers.delete(wake); resolve(); };
      const timer = setTimeout(wake, t);
      this.wakers.add(wake);
    });
  }

  /** Run a Web Animation on `el` (skipped under reduced motion or when skipping). */
  async animate(el, keyframes, ms) {
    if (!el || !el.animate || reducedMotion() || this.skipping) return;
    const duration = Math.min(400, Math.max(150, this.scaled(ms)));
    const anim = el.animate(keyframes, { duration, easing: 'cubic-bezier(.2,.7,.3,1)' });
    const wake = () => anim.finish();
    this.wakers.add(wake);
    try { await anim.finished; } catch (err) { /* cancelled */ }
    this.wakers.delete(wake);
  }
}

function center(el) {
  const r = el.getBoundingClientRect();
  if (!r.width && !r.height) return null;
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
}

/**
 * A copy of `piece` flies from element `from` to element `to` (centres), over the page.
 * Nothing happens when either end is not on screen, under reduced motion, or when skipping.
 */
export async function fly(q, from, to, piece, ms = MS.fly) {
  if (!from || !to || !piece || reducedMotion() || q.skipping) return;
  const a = center(from);
  const b = center(to);
  if (!a || !b) return;
  const ghost = piece.cloneNode(true);
  ghost.classList.add('ghost');
  ghost.removeAttribute('id');
  ghost.setAttribute('aria-hidden', 'true');
  Object.assign(ghost.style, { position: 'fixed', left: '0px', top: '0px', margin: '0', zIndex: '60', pointerEvents: 'none', visibility: 'hidden' });
  document.body.appendChild(ghost);
  const g = ghost.getBoundingClientRect();
  const x0 = a.x - g.width / 2;
  const y0 = a.y - g.height / 2;
  const x1 = b.x - g.width / 2;
  const y1 = b.y - g.height / 2;
  ghost.style.visibility = 'visible';
  await q.animate(ghost, [
    { transform: `translate(${x0}px, ${y0}px) scale(1)` },
    { transform: `translate(${(x0 + x1) / 2}px, ${Math.min(y0, y1) - 24}px) scale(1.12)`, offset: 0.5 },
    { transform: `translate(${x1}px, ${y1}px) scale(1)` },
  ], ms);
  ghost.remove();
}

/**
 * Put `piece` into `container` (at the end, or before `before`), flying in from `from`:
 * the piece takes its place hidden, a copy flies there, then it shows with a short pulse.
 * Returns the piece.
 */
export async function arrive(q, from, container, piece, before = null) {
  if (!container || !piece) return piece;
  piece.classList.add('arriving');
  container.insertBefore(piece, before);
  await fly(q, from, piece, piece);
  piece.classList.remove('arriving');
  pulse(piece);
  return piece;
}

/** Mark `el` for a moment (a CSS animation, none under reduced motion). */
export function pulse(el, cls = 'pulse') {
  if (!el) return;
  el.classList.remove(cls);
  void el.offsetWidth; // restart the animation
  el.classList.add(cls);
  setTimeout(() => el.classList.remove(cls), 1200);
}

/**
 * A big banner over the table for `ms` (then it fades): `content` is text or a node; `kind`
 * styles it (e.g. 'seven', 'bust', 'flip7', 'info'). `host` is the page's moment layer.
 */
export async function banner(q, host, content, kind = 'info', ms = 900) {
  if (!host) return;
  const el = h('div', { class: `moment moment-${kind}`, role: 'status' }, content);
  host.appendChild(el);
  await q.wait(ms, true);
  el.classList.add('leaving');
  await q.wait(MS.fade);
  el.remove();
}
