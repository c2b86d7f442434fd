// Flip 7: one screen per round. Each player's row by tapping the cards in front of them (or a
// plain number); the server scores the round with the engine's rules and sends the arithmetic.
import { h } from '../dom.js';
import { lang } from '../i18n.js';
import { call, cardName, num } from './common.js';
import { st } from './text.js';

export async function prepare(sheet) {
  const data = await call(`/api/score/flip7/cards?edition=${sheet.options.edition}&decks=${sheet.decks || 1}`);
  // flip7_bonus: the engine's number (F7V-7.2, F7V-8.3), never restated here
  return { cards: data.cards.filter((c) => c.group !== 'action'), bonus: data.flip7_bonus };
}

function emptyRow() {
  return { mode: 'cards', cards: [], busted: null, after: [], points: '' };
}

export function draft(sheet, existing) {
  const n = sheet.players.length;
  const d = { rows: [], current: 0, choice: null, preview: null, previewError: '', timer: null, seq: 0 };
  for (let i = 0; i < n; i++) {
    const r = existing ? existing.rows[i] : null;
    if (!r) { d.rows.push(emptyRow()); continue; }
    d.rows.push({
      mode: r.points !== null && r.points !== undefined ? 'number' : 'cards',
      cards: [...r.cards], busted: r.busted ? true : null, after: [...(r.after_bust || [])],
      points: r.points === null || r.points === undefined ? '' : String(r.points),
    });
  }
  if (existing && existing.flip7_choice !== null && existing.flip7_choice !== undefined) d.choice = existing.flip7_choice;
  return d;
}

function entered(r) {
  return r.mode === 'number' ? r.points.trim() !== '' && !Number.isNaN(Number(r.points)) : r.cards.length > 0 || r.busted === true;
}

function rowBody(r) {
  if (r.mode === 'number') return { points: Math.trunc(Number(r.points)) };
  return { cards: r.cards, busted: r.busted, after_bust: r.busted ? r.after : [] };
}

function signed(x) {
  return x < 0 ? `−${-x}` : `+${x}`;
}


/** The arithmetic of one scored row, as the engine reported it. */
export function explain(r, edition) {
  if (r.plain) return `${num(r.score)} (${st('ar.plain')})`;
  const parts = [];
  if (r.busted) {
    if (r.modifiers.length) {
      parts.push(`${st('ar.bust_mods')}: ${r.modifiers.map(signed).join(' ')} = ${num(r.modifier_sum)}`);
    } else {
      parts.push(st('ar.bust'));
    }
    if (r.penalty) parts.push(`${st('ar.penalty', { bonus: -r.penalty })} → ${num(r.score)}`);
    return parts.join(' · ');
  }
  let value = r.number_sum;
  parts.push(r.numbers.length ? `${r.numbers.join('+')} = ${r.number_sum}` : '0');
  if (r.multiplier) {
    value = r.after_multiplier;
    const word = edition === 'classic' ? st('ar.double') : st('ar.half');
    parts.push(`${r.multiplier > 1 ? `${word} ×${r.multiplier}` : word} → ${value}`);
  }
  if (r.modifiers.length) {
    value = r.after_multiplier + r.modifier_sum;
    parts.push(`${r.modifiers.map(signed).join(' ')} → ${num(value)}`);
  }
  if (r.floored) { value = 0; parts.push(`${st('ar.floor')} → 0`); }
  if (r.zero) { value = 0; parts.push(`${st('ar.zero')} → 0`); }
  if (r.bonus) { value = r.score - r.penalty; parts.push(`${st('ar.flip7', { bonus: r.bonus })} → ${num(value)}`); }
  if (r.penalty) { value = r.score; parts.push(`${st('ar.penalty', { bonus: -r.penalty })} → ${num(value)}`); }
  return value === r.score && parts.length > 1 ? parts.join(' · ') : `${parts.join(' · ')}  ⇒ ${num(r.score)}`;
}

export function cells(sheet, e) {
  return e.result.rows.map((r) => {
    const mark = r.busted ? '✗ ' : r.flip7 ? '★ ' : '';
    return h('span', { title: explain(r, sheet.options.edition), class: r.busted ? 'sk-bust' : r.flip7 ? 'sk-f7' : '' }, `${mark}${num(r.score)}`);
  });
}

function schedulePreview(ctx, ed) {
  const d = ed.draft;
  clearTimeout(d.timer);
  d.timer = setTimeout(() => preview(ctx, ed), 120);
}

async function preview(ctx, ed) {
  const d = ed.draft;
  const sheet = ctx.sheet;
  const idx = d.rows.map((r, i) => (entered(r) ? i : -1)).filter((i) => i >= 0);
  const seq = ++d.seq;
  if (!idx.length) { d.preview = null; d.previewError = ''; ctx.rerender(); return; }
  const body = {
    edition: sheet.options.edition, brutal: sheet.options.brutal, decks: sheet.decks || 1,
    rows: idx.map((i) => rowBody(d.rows[i])),
    names: idx.map((i) => sheet.players[i]),
  };
  if (d.choice !== null && idx.includes(d.choice)) body.flip7_choice = idx.indexOf(d.choice);
  try {
    const res = await call('/api/score/flip7/round', { method: 'POST', body });
    if (seq !== d.seq) return;
    const rows = Array(d.rows.length).fill(null);
    idx.forEach((i, k) => { rows[i] = res.rows[k]; });
    d.preview = { rows, flip7: res.flip7 === null ? null : idx[res.flip7] };
    d.previewError = '';
  } catch (err) {
    if (seq !== d.seq) return;
    d.previewError = err.code === 'network' ? st('err.network') : err.message;
  }
  ed.error = '';
  ctx.rerender();
}

export function view(ctx, ed) {
  const sheet = ctx.sheet;
  const d = ed.draft;
  const cards = ctx.extra.cards;
  const n = sheet.players.length;
  const p = d.current;
  const row = d.rows[p];
  const name = sheet.players[p];
  const brutal = sheet.options.brutal;
  if (!d.started) { d.started = true; schedulePreview(ctx, ed); }
  const change = () => schedulePreview(ctx, ed);
  const pr = d.preview && d.preview.rows[p];

  function pad(group, onTap, counts) {
    return h('div', { class: `sk-pad sk-pad-${group}` }, cards.filter((c) => c.group === group).map((c) => {
      const k = counts.filter((t) => t === c.token).length;
      return h('button', {
        type: 'button', class: `sk-cardbtn sk-${group}${k ? ' sk-has' : ''}`, dataset: { card: c.token },
        'aria-label': `${lang() === 'ja' ? c.ja : c.en}${k ? ` ×${k}` : ''}`,
        onclick: () => { onTap(c.token); change(); ctx.rerender(); },
      }, lang() === 'ja' ? c.ja : c.en, k ? h('span', { class: 'sk-badge' }, `×${k}`) : null);
    }));
  }

  const chips = (list, onRemove) => h('div', { class: 'sk-chips', 'aria-label': st('cards') },
    list.length ? list.map((tok, i) => h('button', {
      type: 'button', class: 'sk-chip', title: '×', onclick: () => { onRemove(i); change(); ctx.rerender(); },
    }, cardName(cards, tok), ' ×')) : h('span', { class: 'sk-muted' }, st('tap_cards', { name })));

  const cardsPanel = row.mode === 'cards' && [
    chips(row.cards, (i) => row.cards.splice(i, 1)),
    h('div', { class: 'sk-row-tools' },
      h('label', { class: 'sk-check sk-bust-toggle' },
        h('input', { type: 'checkbox', id: 'sk-busted', checked: row.busted === true || Boolean(pr && pr.busted),
          onchange: (e) => { row.busted = e.target.checked ? true : false; if (!e.target.checked && row.cards.length === 0) row.busted = null; change(); ctx.rerender(); } }),
        st('busted')),
      row.cards.length > 0 && h('button', { type: 'button', onclick: () => { row.cards = []; row.busted = null; change(); ctx.rerender(); } }, st('clear'))),
    h('h3', {}, st('numbers')), pad('number', (t) => row.cards.push(t), row.cards),
    h('h3', {}, st('specials')), pad('special', (t) => row.cards.push(t), row.cards),
    h('h3', {}, st('modifiers')), pad('modifier', (t) => row.cards.push(t), row.cards),
    brutal && (row.busted === true || (pr && pr.busted)) && [
      h('h3', {}, st('after_bust')),
      chips(row.after, (i) => row.after.splice(i, 1)),
      pad('modifier', (t) => { row.after.push(t); row.busted = true; }, row.after),
    ],
  ];

  const numberPanel = row.mode === 'number' && h('label', { class: 'sk-field sk-number' }, st('enter_number', { name }),
    h('div', { class: 'sk-number-row' },
      brutal && h('button', { type: 'button', 'aria-label': '±', onclick: () => {
        row.points = row.points.startsWith('-') ? row.points.slice(1) : `-${row.points}`; change(); ctx.rerender();
      } }, '±'),
      h('input', { type: 'text', inputmode: 'numeric', pattern: '-?[0-9]*', id: 'sk-points', value: row.points, autocomplete: 'off',
        oninput: (e) => { row.points = e.target.value.replace(/[^0-9-]/g, ''); change(); } })));

  const f7 = d.preview && d.preview.flip7;
  const choice = brutal && f7 !== null && f7 !== undefined && h('section', { class: 'sk-card sk-choice' },
    h('p', {}, st('flip7_choice', { name: sheet.players[f7], bonus: ctx.extra.bonus })),
    h('div', { class: 'sk-seg sk-wrap' },
      h('button', { type: 'button', 'aria-pressed': String(d.choice === null || d.choice === f7),
        onclick: () => { d.choice = null; change(); ctx.rerender(); } }, st('plus_bonus', { name: sheet.players[f7], bonus: ctx.extra.bonus })),
      sheet.players.map((other, i) => i !== f7 && h('button', { type: 'button', 'aria-pressed': String(d.choice === i),
        onclick: () => { d.choice = i; change(); ctx.rerender(); } }, st('minus_bonus', { name: other, bonus: ctx.extra.bonus })))));

  const all = d.rows.every(entered);
  const number = ed.index === null ? sheet.entries.length + 1 : ed.index + 1;
  return h('section', { class: 'sk-card sk-editor', id: 'sk-editor' },
    h('div', { class: 'sk-editor-head' },
      h('h1', {}, `${st('round')} ${number}`),
      h('button', { type: 'button', class: 'sk-icon', 'aria-label': st('cancel'), onclick: () => ctx.cancel() }, '×')),
    h('div', { class: 'sk-tabs', role: 'tablist' }, sheet.players.map((nm, i) => {
      const r = d.preview && d.preview.rows[i];
      return h('button', {
        type: 'button', role: 'tab', 'aria-selected': String(i === p), class: `sk-tab${entered(d.rows[i]) ? ' sk-done' : ''}`,
        onclick: () => { d.current = i; ctx.rerender(); },
      }, h('span', { class: 'sk-tab-name' }, nm), h('span', { class: 'sk-tab-score' },
        r ? `${r.busted ? '✗ ' : r.flip7 ? '★ ' : ''}${num(r.score)}` : entered(d.rows[i]) ? '…' : st('not_entered')));
    })),
    h('h2', {}, name),
    h('div', { class: 'sk-seg', role: 'group' },
      ['cards', 'number'].map((m) => h('button', { type: 'button', 'aria-pressed': String(row.mode === m), dataset: { mode: m },
        onclick: () => { row.mode = m; change(); ctx.rerender(); } }, st(m)))),
    h('output', { class: 'sk-arith', id: 'sk-arith' }, pr ? explain(pr, sheet.options.edition) : ''),
    (d.previewError || ed.error) && h('p', { class: 'sk-error', role: 'alert', id: 'sk-error' }, d.previewError || ed.error),
    cardsPanel, numberPanel, choice,
    h('nav', { class: 'sk-bar' },
      h('button', { type: 'button', disabled: p === 0, onclick: () => { d.current = p - 1; ctx.rerender(); } }, `‹ ${st('prev')}`),
      p < n - 1 && h('button', { type: 'button', id: 'sk-next', onclick: () => { d.current = p + 1; ctx.rerender(); window.scrollTo(0, 0); } }, `${st('next')} ›`),
      ed.index !== null && h('button', { type: 'button', class: 'sk-danger', onclick: () => ctx.remove() }, st('delete')),
      h('button', {
        type: 'button', id: 'sk-save', class: 'sk-primary', disabled: !all || Boolean(d.previewError),
        onclick: () => ctx.save({
          rows: d.rows.map(rowBody),
          flip7_choice: d.choice,
        }),
      }, st('save'))));
}

/** One line per row of an entry, for the printed sheet. */
export function details(sheet, e) {
  return e.result.rows.map((r, i) => `${sheet.players[i]}: ${explain(r, sheet.options.edition)}`);
}
