// Turn-based tables (issue 28): "your turn" across tables. One socket per page (/ws/me) hears
// whenever a table of this player moves on; the lobby's "Your turn" section, the count in the
// tab's title and a toast on any other page follow it. Also the deadline under a table's status
// line and the seats' missed-deadline marks. (The pace is a table option of the create form:
// GET /api/games lists it in table_options.)
// The server decides everything (whose turn, deadlines); this only shows it.

import { h, replace, toast } from './dom.js';
import { lang, onLang, pick, t } from './i18n.js';
import { session } from './shell.js';

const state = { turns: [], socket: null, retry: 0, started: false };
const section = h('section', { class: 'card turns', id: 'my-turns' });
const listeners = new Set();

/** Hours and minutes until `at` (ISO-8601) from `now`, or null; past deadlines give 0. */
export function timeLeft(at, now = Date.now()) {
  const d = Date.parse(at || '');
  if (Number.isNaN(d)) return null;
  const minutes = Math.max(0, Math.ceil((d - now) / 60000));
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}

/** A deadline as a player reads it: "move by Wed 3 Dec, 10:00 (in 23 h 5 min)" in their
 * language; with `name`, the deadline of someone else: "Aki moves by ...". */
export function deadlineText(at, now = Date.now(), name = null) {
  const left = timeLeft(at, now);
  if (!left) return '';
  const when = new Date(at).toLocaleString(lang() === 'ja' ? 'ja-JP' : 'en-GB', {
    weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit',
  });
  const key = !left.hours ? 'turns.left_m' : left.minutes ? 'turns.left_h' : 'turns.left_hours';
  const rest = t(key, left);
  return name ? t('turns.by_other', { name, when, rest }) : t('turns.by', { when, rest });
}

// ----- the tab title ----------------------------------------------------------------------------
const PREFIX = /^\(\d+\) /;

function titleCount() {
  const base = document.title.replace(PREFIX, '');
  const n = state.turns.length;
  const want = n ? `(${n}) ${base}` : base;
  if (document.title !== want) document.title = want;
}

// Pages set their own titles (cues.js, the lobby): the count is put back in front of each.
new MutationObserver(titleCount).observe(document.querySelector('title') || document.head, {
  childList: true, characterData: true, subtree: true,
});

// ----- the lobby section ------------------------------------------------------------------------
function drawSection() {
  const items = state.turns.map((x) => h('li', { class: 'table-line turn-line', dataset: { table: x.id } },
    h('strong', {}, pick(x.title, x.game)), ' ',
    h('small', { class: 'muted deadline' }, x.deadline ? deadlineText(x.deadline) : t('turns.live')),
    h('a', { href: `/t/${x.id}`, class: 'button primary' }, t('turns.play'))));
  replace(section,
    h('h2', {}, t('turns.title', { n: state.turns.length })),
    items.length ? h('ul', { class: 'plain' }, items) : h('p', { class: 'muted' }, t('turns.none')));
  section.hidden = !session.player || !state.turns.length;
}

/** The lobby's "Your turn" section (one element, kept up to date). */
export function turnsSection() {
  drawSection();
  return section;
}

/** Call fn(turns) whenever the list changes; returns the function that stops it. */
export function onTurns(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function take(msg) {
  state.turns = Array.isArray(msg.turns) ? msg.turns : [];
  drawSection();
  titleCount();
  for (const fn of listeners) fn(state.turns);
  const here = location.pathname === `/t/${msg.your_turn}`;
  if (msg.your_turn && !here) {
    const found = state.turns.find((x) => x.id === msg.your_turn);
    if (found) toast(t('turns.toast', { title: pick(found.title, found.game) }), 'info');
  }
}

// ----- the socket -------------------------------------------------------------------------------
function connect() {
  if (state.socket || !session.player) return;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${proto}://${location.host}/ws/me`);
  state.socket = socket;
  socket.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (err) { return; }
    if (msg.type === 'turns') { state.retry = 0; take(msg); }
  };
  socket.onclose = (ev) => {
    state.socket = null;
    if (ev.code === 4401) return; // no guest yet: startTurns() again once there is one
    state.retry = Math.min(state.retry + 1, 6);
    setTimeout(connect, 500 * 2 ** state.retry);
  };
}

/** Open this page's /ws/me (once there is a guest; calling again does nothing more). */
export function startTurns() {
  if (!state.started) {
    state.started = true;
    onLang(() => drawSection());
    setInterval(drawSection, 60000); // the "in N h" of the deadlines
  }
  connect();
}

// ----- the table page ---------------------------------------------------------------------------
/** The line under a turn-based table's status: the deadline of the move due (`mine`: this page's
 * seat is to move; else the deadline names who is), and the last move a bot made at a missed
 * deadline (`nameOf(seat)` names a seat); null at a live table. */
export function deadlineNote(tbl, nameOf, mine = true) {
  if (!tbl || tbl.pace !== 'turn-based') return null;
  const parts = [t('turns.pace', { hours: tbl.turn_hours })];
  const other = !mine && tbl.to_move !== null && tbl.to_move !== undefined && tbl.to_move >= 0 ? nameOf(tbl.to_move) : null;
  if (tbl.status === 'playing' && tbl.deadline) parts.push(deadlineText(tbl.deadline, Date.now(), other));
  const last = (tbl.timeouts || []).at(-1);
  if (last) parts.push(t('turns.timed_out', { name: nameOf(last.seat) }));
  return h('small', { class: 'deadline-note muted', id: 'deadline' }, parts.join(lang() === 'ja' ? '　' : ' · '));
}

/** Marks of a seat that missed deadlines (turn-based tables). */
export function seatMarks(seat) {
  return seat && seat.missed ? [h('span', { class: 'tag missed' }, t('turns.missed', { n: seat.missed }))] : [];
}
