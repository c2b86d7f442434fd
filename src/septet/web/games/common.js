// Shared pieces of the game drawings: clickable pieces bound to legal moves, panels, tags.

import { h } from '../dom.js';

/**
 * Make `el` play `action` when it is one of the legal moves now (highlighted, focusable,
 * keyboard-activated, named by the move's words); otherwise leave it inert. The move is then
 * played by the piece itself and its button is left out of the move list, unless
 * `keepButton` (a move whose words say more than the piece, e.g. "Give Flip 4! to Ben").
 * `confirm`: the tap stages the move, sent once the player confirms it (ctx.confirm; a move
 * made of several picks). Returns el.
 */
export function bind(el, action, ctx, { keepButton = false, confirm = false } = {}) {
  if (action && ctx.canPlay(action)) {
    el.classList.add('legal');
    el.setAttribute('role', 'button');
    el.setAttribute('tabindex', '0');
    el.dataset.action = action;
    const move = ctx.legal.find((x) => x.a === action) || {};
    const text = ctx.named ? ctx.named(move[ctx.lang] || move.en || '') : (move[ctx.lang] || '');
    if (text) {
      el.title = text;
      el.setAttribute('aria-label', text);
    }
    const go = () => (confirm && ctx.confirm ? ctx.confirm(action) : ctx.play(action));
    if (ctx.staged && ctx.staged.includes(action)) {
      el.classList.add('staged');
      el.setAttribute('aria-pressed', 'true');
    }
    el.addEventListener('click', (ev) => { ev.stopPropagation(); go(); });
    el.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); go(); }
    });
    if (!keepButton && ctx.bound) ctx.bound.add(action);
  }
  return el;
}

/**
 * A labelled number, "label value", followed by a space so that neighbouring stats never run
 * together in the text. Returns [element, ' '] (a child list for h()).
 */
export function stat(label, value, cls = '') {
  return [h('span', { class: `stat ${cls}` }, h('span', { class: 'stat-label' }, label), ' ', h('strong', {}, String(value))), ' '];
}

/** "1 trick" / "3 tricks": English words by count (Japanese has no plural). */
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
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
