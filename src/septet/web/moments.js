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

// ----- banners beside what they describe (issue 27) -----------------------------------------

/** What a banner never covers, whatever it says: the summaries kept on screen and the trick. */
const ALWAYS_CLEAR = ['#held:not([hidden]) .held-card', '#final', '#trick'];
let momentIds = 0;

function phone() {
  return typeof matchMedia === 'function' && matchMedia('(max-width: 859px)').matches;
}

/** The free band of the viewport between the page's top and the sticky area (px). */
function freeBand() {
  const vh = window.innerHeight;
  const dock = document.getElementById('dock');
  const top = dock && getComputedStyle(dock).position === 'sticky' ? dock.getBoundingClientRect().top : vh;
  return { top: 0, bottom: Math.max(120, Math.min(vh, top)), vh, vw: document.documentElement.clientWidth || window.innerWidth };
}

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The visible boxes of `els` (elements, selectors or lists of them), nothing off screen. */
export function boxesOf(els) {
  const out = [];
  const add = (el) => {
    if (!el) return;
    if (typeof el === 'string') { for (const x of document.querySelectorAll(el)) add(x); return; }
    if (Array.isArray(el) || el instanceof NodeList) { for (const x of el) add(x); return; }
    if (!el.getBoundingClientRect || !el.isConnected) return;
    const r = el.getBoundingClientRect();
    if (r.width && r.height && r.bottom > 0 && r.top < window.innerHeight) out.push(r);
  };
  add(els);
  return out;
}

/**
 * Bring the first of `about` into the free band when it is off screen or under the sticky
 * area (a Seven! on a family below the hand), scrolling the page as little as possible.
 */
export function reveal(about) {
  const el = (Array.isArray(about) ? about : [about]).find((x) => x && x.getBoundingClientRect && x.isConnected);
  if (!el) return;
  const r = el.getBoundingClientRect();
  const band = freeBand();
  const room = band.bottom - band.top;
  let dy = 0;
  if (r.bottom > band.bottom) dy = Math.min(r.bottom - band.bottom + 8, r.top - band.top - 8);
  else if (r.top < band.top) dy = r.top - band.top - 8;
  if (r.height > room) dy = r.top - band.top - 8;
  if (Math.abs(dy) > 1) window.scrollBy({ top: dy, behavior: 'instant' });
}

/**
 * Where a banner of size `w` x `h` goes: beside (above or below) what it describes, never over
 * it, the summaries or the trick; as near as it can to `about`; over the sticky area only when
 * nothing else is free. Returns {left, top} in viewport px.
 */
export function placeBanner(w, h, about, avoid) {
  const band = freeBand();
  const left = Math.max(4, (band.vw - w) / 2);
  const target = about.length ? about : avoid;
  const cy = target.length ? target.reduce((s, r) => s + (r.top + r.bottom) / 2, 0) / target.length : band.bottom * 0.32;
  const ys = [band.top + 6, band.bottom - h - 6, band.vh - h - 6, band.bottom * 0.32 - h / 2];
  for (const r of avoid) ys.push(r.top - h - 6, r.bottom + 6);
  let best = null;
  for (const y of ys) {
    if (y < 2 || y + h > band.vh - 2) continue;
    const box = { left, right: left + w, top: y, bottom: y + h };
    const covered = avoid.reduce((s, r) => s + overlap(box, r), 0);
    const overDock = y + h > band.bottom ? 5e5 : 0; // my hand and moves: only when nothing else is free
    const score = covered * 1e4 + overDock + Math.abs(y + h / 2 - cy);
    if (!best || score < best.score) best = { score, left, top: y };
  }
  return best || { left, top: Math.max(2, band.vh * 0.32 - h / 2) };
}

/**
 * A banner for `ms` (then it fades; sooner on a phone): `content` is text or a node; `kind`
 * styles it (e.g. 'seven', 'bust', 'flip7', 'info'); `host` is the page's moment layer.
 * `about`: the elements it describes (a row, a trick, a player's families): brought into view
 * and never covered, nor are the summaries and the trick (ALWAYS_CLEAR). The banner carries
 * data-moment, and each described element data-moment-about with the same id while it shows.
 */
export async function banner(q, host, content, kind = 'info', ms = 900, about = []) {
  if (!host) return;
  const els = (Array.isArray(about) ? about : [about]).filter((x) => x && x.isConnected);
  if (els.length) reveal(els);
  const id = String(++momentIds);
  const el = h('div', { class: `moment moment-${kind}`, role: 'status', dataset: { moment: id } }, content);
  el.style.visibility = 'hidden';
  host.appendChild(el);
  for (const x of els) x.dataset.momentAbout = `${x.dataset.momentAbout ? `${x.dataset.momentAbout} ` : ''}${id}`;
  // (the layout size: the entrance animation scales the box while it plays)
  const aboutBoxes = boxesOf(els);
  const spot = placeBanner(el.offsetWidth, el.offsetHeight, aboutBoxes, [...aboutBoxes, ...boxesOf(ALWAYS_CLEAR)]);
  el.style.left = `${Math.round(spot.left)}px`;
  el.style.top = `${Math.round(spot.top)}px`;
  el.style.visibility = '';
  try {
    await q.wait(phone() ? ms * 0.65 : ms, true);
    el.classList.add('leaving');
    await q.wait(MS.fade);
  } finally {
    el.remove();
    for (const x of els) {
      const left = (x.dataset.momentAbout || '').split(' ').filter((v) => v && v !== id);
      if (left.length) x.dataset.momentAbout = left.join(' ');
      else delete x.dataset.momentAbout;
    }
  }
}
