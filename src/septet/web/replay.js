// Replays of finished games: step through the record, seen by a spectator or any player.

import { api } from './api.js';
import { h, replace } from './dom.js';
import { rendererFor } from './games/index.js';
import { lang, onLang, pick, sentences, t } from './i18n.js';
import { relabel } from './names.js';
import { seatName } from './seats.js';
import { drawHeader, errorText, showError } from './shell.js';

/** The replay page of table `id`; returns its cleanup function. */
export async function replayPage(root, id) {
  let data;
  try {
    data = await api(`/api/tables/${id}/replay`);
  } catch (err) {
    replace(root, h('p', { class: 'card' }, errorText(err)));
    return () => {};
  }
  const renderer = rendererFor(data.game);
  const total = data.steps.length;
  // A replay opens at the start (the result is not given away); Last jumps to the end.
  let step = 0;
  let viewAs = 'spectator';
  let frame = null;
  const board = h('div', { class: 'board', id: 'board' });
  const label = h('span', { id: 'step-label' });
  const startHint = h('p', { class: 'muted', id: 'replay-start' });
  const slider = h('input', { type: 'range', min: 0, max: total, value: step, id: 'step', 'aria-label': t('step', { i: step, n: total }), oninput: (ev) => go(Number(ev.target.value)) });
  const list = h('ol', { class: 'log steps', id: 'steps' });
  const names = data.players;
  // The same display names as on the table page when the server lists the seats.
  const table = { seats: data.seats || names.map((n, i) => ({ seat: i, name: n, kind: 'human' })) };
  const nameOf = (s) => seatName(s, table);
  const relabelled = (text) => relabel(text, nameOf, names.length);

  async function go(i) {
    step = Math.max(0, Math.min(total, i));
    slider.value = String(step);
    try { frame = await api(`/api/tables/${id}/replay/${step}`); } catch (err) { showError(err); return; }
    draw();
  }

  // A step in words: what happened (its events, e.g. "Bot 2 gets a 12"); a step without events
  // says who moved and the move.
  function stepText(s) {
    const evs = s.events.map((e) => relabelled(pick(e, ''))).filter(Boolean);
    if (evs.length) return sentences(evs);
    const move = relabelled(pick(s, ''));
    if (s.seat === null) return move || t('chance');
    return move ? t('who_move', { who: nameOf(s.seat), move }) : nameOf(s.seat);
  }

  function draw() {
    drawHeader();
    document.title = `${t('replay_title', { title: pick(data.title, data.game) })} — ${t('brand')}`;
    replace(label, t('step', { i: step, n: total }));
    startHint.hidden = step !== 0;
    slider.setAttribute('aria-label', t('step', { i: step, n: total }));
    if (frame) {
      const view = viewAs === 'spectator' ? frame.spectator : frame.views[Number(viewAs)];
      const c = {
        lang: lang(), t, seat: viewAs === 'spectator' ? null : Number(viewAs), table, legal: [], name: nameOf,
        named: relabelled, play: () => {}, canPlay: () => false, text: null, select: () => {}, selected: [],
        bound: new Set(), pickable: (el) => el, mentions: () => false,
      };
      try {
        replace(board, renderer.draw(view, c, { dismissed: new Set() }), renderer.dock ? renderer.dock(view, c) : null);
      } catch (err) {
        console.warn('drawing failed, showing the generic view', err);
        replace(board, rendererFor('').draw(view, c));
      }
    }
    replace(list, data.steps.map((s, i) => h('li', { class: i + 1 === step ? 'current' : '', onclick: () => go(i + 1) }, stepText(s))));
    // Scroll the list (never the page) to the current step.
    const cur = list.querySelector('.current');
    if (cur && list.scrollHeight > list.clientHeight) {
      list.scrollTop += cur.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientHeight / 2;
    }
  }

  const onKey = (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type !== 'range') return;
    if (ev.key === 'ArrowRight') go(step + 1);
    if (ev.key === 'ArrowLeft') go(step - 1);
  };
  document.addEventListener('keydown', onKey);

  function layout() {
    replace(startHint, t('replay_at_start'));
    const viewSelect = h('select', { id: 'view-as', onchange: (ev) => { viewAs = ev.target.value; draw(); } },
      h('option', { value: 'spectator', selected: viewAs === 'spectator' }, t('spectator')),
      names.map((n, i) => h('option', { value: i, selected: viewAs === String(i) }, nameOf(i))));
    replace(root, h('div', { class: 'replay-page' },
      h('div', { class: 'table-head' }, h('h1', {}, t('replay_title', { title: pick(data.title, data.game) })),
        h('a', { class: 'button', href: `/api/tables/${id}/record`, download: `septet-${id}.json` }, t('download_record'))),
      h('div', { class: 'row controls' },
        h('button', { id: 'first', onclick: () => go(0) }, `« ${t('first')}`),
        h('button', { id: 'prev', onclick: () => go(step - 1) }, `◀ ${t('prev')}`),
        slider,
        h('button', { id: 'next', onclick: () => go(step + 1) }, `${t('next')} ▶`),
        h('button', { id: 'last', title: t('to_end'), onclick: () => go(total) }, `${t('last')} »`),
        label,
        h('label', { for: 'view-as' }, t('view_as')), viewSelect),
      startHint,
      h('div', { class: 'table-main' }, h('div', { class: 'play-area' }, board), h('aside', { class: 'side replay-side' }, h('section', { class: 'card' }, list)))));
    draw();
  }

  layout();
  const off = onLang(() => layout());
  go(step);
  return () => { off(); document.removeEventListener('keydown', onKey); };
}
