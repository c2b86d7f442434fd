// Learn to play: the guided first game over the table page. The table is a normal table (its
// seed and scripted bots chosen by the server, POST /api/learn/{game}); this module only reads
// the tutorial's steps (GET /api/learn/{game}) and, at each version of the table, shows the
// lessons that apply there and points at the scripted move: that move's button or piece is
// highlighted and every other move is marked off and cannot be pressed. Rules stay in the
// engine: the lessons are texts, the moves are the server's legal moves. A reload lands on the
// same version, hence the same step.

import { api } from './api.js';
import { h, replace } from './dom.js';
import { lang, pick, t } from './i18n.js';
import { navigate, showError } from './shell.js';

const SPEC = /^script:name=learn-([\w-]+)$/;

/** The tutorial game of a table summary (its bots play a learn-<game> script), or null. */
export function tutorialOf(summary) {
  for (const s of summary?.seats || []) {
    const m = SPEC.exec(s.bot || '');
    if (m) return m[1];
  }
  return null;
}

/** Open the guided game of `game` (a new table, or the player's own one still in play). */
export async function startTutorial(game) {
  try {
    const tbl = await api(`/api/learn/${game}`, { method: 'POST' });
    navigate(tbl.invite || `/t/${tbl.id}`);
  } catch (err) { showError(err); }
}

let styled = false;
function addStyle() {
  if (styled || document.getElementById('learn-style')) return;
  styled = true;
  document.head.append(h('link', { rel: 'stylesheet', id: 'learn-style', href: '/static/learn.css' }));
}

/**
 * The guide of a tutorial table, or null for any other table.
 * `opts`: {matches(notation, pieceKey), named(text)} from the table page.
 * Returns {el, draw(msg, root)}: `el` goes into the page's dock; `draw` is called after each
 * drawing of the play area.
 */
export async function learnFor(summary, opts) {
  const game = tutorialOf(summary);
  if (!game) return null;
  let data;
  try { data = await api(`/api/learn/${game}`); } catch (err) { return null; }
  addStyle();
  const moves = new Map(Object.entries(data.moves).map(([v, a]) => [Number(v), a]));
  const versions = [...moves.keys()].sort((a, b) => a - b);
  const el = h('section', { class: 'learn', id: 'learn', 'aria-live': 'polite', 'aria-label': t('learn_title') });
  let folded = false;
  let lastKey = '';
  let lastTarget = '';

  // The newcomer's scripted moves to point at now: the move at this version, and for a
  // multi-pick (the Seven Shot pass) the picks right after it made with the same verb.
  function targets(version) {
    const first = moves.get(version);
    if (!first) return [];
    const out = [first];
    const verb = first.split(' ')[0];
    if (verb !== 'pass' || game !== 'seven-shot') return out;
    for (let v = version + 1; moves.has(v) && moves.get(v).split(' ')[0] === verb; v++) out.push(moves.get(v));
    return out;
  }

  // Lessons since the newcomer's last move: what happened meanwhile and what comes now.
  function lessons(version) {
    const before = versions.filter((v) => v < version);
    const since = before.length ? before[before.length - 1] : -1;
    return data.steps.filter((s) => s.at > since && s.at <= version).flatMap((s) => s.lessons);
  }

  async function playEasy() {
    try {
      const tbl = await api('/api/tables', { method: 'POST', body: data.easy });
      navigate(`/t/${tbl.id}`);
    } catch (err) { showError(err); }
  }

  function card(body, key) {
    const full = `${lang()}:${key}`;
    if (full === lastKey && el.childNodes.length) return;
    lastKey = full;
    el.dataset.folded = String(folded);
    const toggle = h('button', {
      type: 'button', class: 'small', id: 'learn-fold', 'aria-expanded': String(!folded),
      onclick: () => { folded = !folded; el.dataset.folded = String(folded); toggle.textContent = folded ? t('learn_show') : t('learn_hide'); toggle.setAttribute('aria-expanded', String(!folded)); },
    }, folded ? t('learn_show') : t('learn_hide'));
    replace(el, h('div', { class: 'learn-head' }, h('strong', {}, t('learn_guide')), toggle), h('div', { class: 'learn-body' }, body));
  }

  function mark(root, wanted) {
    const hit = (a) => wanted.includes(a);
    for (const x of root.querySelectorAll('[data-action]')) {
      const on = hit(x.dataset.action);
      x.classList.toggle('learn-target', on);
      x.classList.toggle('learn-off', !on);
      if (!on && 'disabled' in x) x.disabled = true;
      if (!on) x.setAttribute('aria-disabled', 'true');
    }
    for (const x of root.querySelectorAll('[data-pick]')) {
      const on = wanted.some((a) => opts.matches(a, x.dataset.pick));
      x.classList.toggle('learn-target', on);
      x.classList.toggle('learn-off', !on);
      if (!on) { x.setAttribute('tabindex', '-1'); x.setAttribute('aria-disabled', 'true'); }
    }
    // A move folded into a group (many moves on a phone): open its group.
    for (const d of root.querySelectorAll('details.group')) {
      const inside = [...d.querySelectorAll('[data-action]')].some((x) => hit(x.dataset.action));
      d.classList.toggle('learn-off', !inside);
      if (inside && !d.open) d.open = true;
    }
    const first = root.querySelector('.learn-target');
    const key = wanted.join('|');
    if (first && key !== lastTarget && typeof first.scrollIntoView === 'function') first.scrollIntoView({ block: 'nearest' });
    lastTarget = key;
  }

  function clearMarks(root) {
    for (const x of root.querySelectorAll('.learn-target, .learn-off')) x.classList.remove('learn-target', 'learn-off');
  }

  /** Show the step of `msg` (the table's state message) and mark the moves under `root`. */
  function draw(msg, root) {
    if (!msg) return;
    const tbl = msg.table || summary;
    const version = msg.version ?? 0;
    el.dataset.version = String(version); // (for tests and the curious: the step shown)
    if (tbl.status === 'finished' || version >= data.end) {
      clearMarks(root);
      el.dataset.wanted = '';
      const last = lessons(version).map((x) => h('p', {}, pick(x)));
      card([...last, h('p', { class: 'learn-move' }, pick(data.done)),
        h('div', { class: 'buttons' },
          h('button', { type: 'button', class: 'primary', id: 'learn-easy', onclick: playEasy }, t('learn_easy')),
          h('a', { href: '/', class: 'button', id: 'learn-lobby' }, t('learn_lobby')))], `done:${version}`);
      return;
    }
    if (msg.seat !== data.human) { replace(el); return; }
    const mine = msg.legal && msg.legal.length;
    const wanted = mine ? targets(version).filter((a, i) => i > 0 || msg.legal.some((x) => x.a === a)) : [];
    const parts = lessons(version).map((x) => h('p', { class: 'lesson' }, pick(x)));
    el.dataset.wanted = wanted.join('|');
    if (wanted.length) {
      const words = wanted.map((a) => opts.named(pick(msg.legal.find((x) => x.a === a) || {}, a)));
      parts.unshift(h('p', { class: 'learn-move', id: 'learn-move' }, pick(data.your_move).replace('{move}', words.join(t('list_sep')))));
      mark(root, wanted);
    } else {
      clearMarks(root);
      if (mine) parts.unshift(h('p', { class: 'learn-move' }, t('learn_free')));
      else if (!parts.length) parts.push(h('p', { class: 'muted' }, t('learn_watch')));
    }
    card(parts, `${version}:${wanted.join('|')}:${mine ? 1 : 0}`);
  }

  return { el, draw };
}
