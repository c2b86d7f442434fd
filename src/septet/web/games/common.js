// Shared pieces of the game drawings: clickable pieces bound to legal moves, panels, tags.

import { h } from '../dom.js';

/**
 * Make `el` play `action` when it is one of the legal moves now (highlighted, focusable,
 * keyboard-activated); otherwise leave it inert. Returns el.
 */
export function bind(el, action, ctx) {
  if (action && ctx.canPlay(action)) {
    el.classList.add('legal');
    el.setAttribute('role', 'button');
    el.setAttribute('tabindex', '0');
    el.dataset.action = action;
    const text = (ctx.legal.find((x) => x.a === action) || {})[ctx.lang] || action;
    el.title = ctx.named ? ctx.named(text) : text;
    el.addEventListener('click', () => ctx.play(action));
    el.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); ctx.play(action); }
    });
  }
  return el;
}

/**
 * A labelled number, "label value", followed by a space so that neighbouring stats never run
 * together in the text ("points 0/7 tricks 1/7"). Returns [element, ' '] (a child list for h()).
 */
export function stat(label, value, cls = '') {
  return [h('span', { class: `stat ${cls}` }, h('span', { class: 'stat-label' }, label), ' ', h('strong', {}, String(value))), ' '];
}

/** A number with its counter word after it, "12 cards" / "12枚"; same shape as stat(). */
export function count(value, en, ja, ctx, cls = '') {
  const unit = ctx.lang === 'ja' ? ja : ` ${en}`;
  return [h('span', { class: `stat ${cls}` }, h('strong', {}, String(value)), h('span', { class: 'stat-label' }, unit)), ' '];
}

/** Pick the text for the current language from {en, ja}. */
export function L(ctx, en, ja) {
  return ctx.lang === 'ja' ? ja : en;
}

/** A progress bar toward a target (value/target), with a text label for screen readers. */
export function progress(value, target, label) {
  const pct = Math.max(0, Math.min(100, (100 * value) / Math.max(1, target)));
  return h('span', { class: 'progress', role: 'img', 'aria-label': label },
    h('span', { class: 'progress-fill', style: { width: `${pct}%` } }));
}
