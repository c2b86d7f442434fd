// Seven Shot: how each deal ended, who met the condition and the 7s each side took; the server
// scores it with the engine's rules (SS-4, SS-5: the 7-trick transfer, second place).
import { h } from '../dom.js';
import { call } from './common.js';
import { names, st } from './text.js';

export function draft(sheet, existing) {
  const nSides = sheet.side_names.length;
  return {
    ending: existing ? existing.ending : null,
    side: existing ? existing.side : null,
    sevens: existing ? [...existing.sevens] : Array(nSides).fill(0),
    hand: existing ? existing.hand_sevens : 0,
    ind: existing ? existing.indicator_seven : false,
    preview: null, previewError: '', timer: null, seq: 0, started: false,
  };
}

function body(sheet, d) {
  const four = sheet.side_names.length === 2;
  return {
    ending: d.ending, side: d.side, sevens: d.sevens,
    hand_sevens: d.ending === 'seven_tricks' && four ? d.hand : 0,
    indicator_seven: d.ending === 'sevens' ? false : d.ind,
  };
}

/** What happened in words: the transfer, the indicator, second place, the formula. */
export function explain(sheet, r) {
  const sides = sheet.side_names;
  const out = [];
  if (r.transferred) out.push(st('ss.transfer', { n: r.transferred, name: sides[r.winning_sides[0]] }));
  if (r.indicator_to !== null && r.indicator_to !== undefined) out.push(st('ss.indicator_to', { name: sides[r.indicator_to] }));
  if (r.ending === 'seven_tricks' && sides.length === 3) out.push(st('ss.three_tricks'));
  else out.push(`${sides[r.winning_sides[0]]}: ${r.formula}`);
  if (r.second && r.second.length) out.push(st('ss.second', { names: names(r.second.map((s) => sides[s])) }));
  return out.join(' ');
}

export function cells(sheet, e) {
  return e.result.gains.map((g) => h('span', { title: explain(sheet, e.result), class: g ? 'sk-f7' : '' }, String(g)));
}

async function preview(ctx, ed) {
  const d = ed.draft;
  const sheet = ctx.sheet;
  if (d.ending === null || d.side === null) { d.preview = null; d.previewError = ''; ctx.rerender(); return; }
  const seq = ++d.seq;
  try {
    const res = await call('/api/score/seven-shot/deal', {
      method: 'POST', body: { ...body(sheet, d), names: sheet.side_names },
    });
    if (seq !== d.seq) return;
    d.preview = res;
    d.previewError = '';
  } catch (err) {
    if (seq !== d.seq) return;
    d.preview = null;
    d.previewError = err.code === 'network' ? st('err.network') : err.message;
  }
  ed.error = '';
  ctx.rerender();
}

export function view(ctx, ed) {
  const sheet = ctx.sheet;
  const d = ed.draft;
  const sides = sheet.side_names;
  const four = sides.length === 2;
  const change = () => { clearTimeout(d.timer); d.timer = setTimeout(() => preview(ctx, ed), 120); ctx.rerender(); };
  if (!d.started) { d.started = true; change(); }
  const number = ed.index === null ? sheet.entries.length + 1 : ed.index + 1;
  const endings = [['sevens', st('ss.sevens', { n: sheet.threshold })], ['seven_tricks', st('ss.seven_tricks')], ['hands_empty', st('ss.hands_empty')]];
  // a side takes at most the deck's 7s: the sheet's `deck_sevens`, the engine's (SS-1.1)
  const stepper = (label, value, set, key) => h('div', { class: 'sk-stepper', dataset: { step: key } },
    h('span', { class: 'sk-label' }, label),
    h('button', { type: 'button', 'aria-label': `${label} −`, disabled: value <= 0, onclick: () => { set(value - 1); change(); } }, '−'),
    h('output', { class: 'sk-count' }, String(value)),
    h('button', { type: 'button', 'aria-label': `${label} +`, disabled: value >= sheet.deck_sevens, onclick: () => { set(value + 1); change(); } }, '+'));
  return h('section', { class: 'sk-card sk-editor', id: 'sk-editor' },
    h('div', { class: 'sk-editor-head' },
      h('h1', {}, `${st('deal')} ${number}`),
      h('button', { type: 'button', class: 'sk-icon', 'aria-label': st('cancel'), onclick: () => ctx.cancel() }, '×')),
    h('h2', {}, st('ss.how')),
    h('div', { class: 'sk-seg sk-col', role: 'group' }, endings.map(([k, label]) => h('button', {
      type: 'button', 'aria-pressed': String(d.ending === k), dataset: { ending: k }, onclick: () => { d.ending = k; change(); },
    }, label))),
    d.ending && [
      h('h2', {}, st(`ss.who.${d.ending}`)),
      h('div', { class: 'sk-seg sk-wrap', role: 'group' }, sides.map((nm, i) => h('button', {
        type: 'button', 'aria-pressed': String(d.side === i), dataset: { side: i }, onclick: () => { d.side = i; change(); },
      }, nm))),
      h('h2', {}, st('ss.taken')),
      sides.map((nm, i) => stepper(nm, d.sevens[i], (v) => { d.sevens[i] = v; }, `sevens-${i}`)),
      d.ending === 'seven_tricks' && four && d.side !== null
        && stepper(st('ss.hand', { name: sides[d.side] }), d.hand, (v) => { d.hand = v; }, 'hand'),
      d.ending !== 'sevens' && h('label', { class: 'sk-check' },
        h('input', { type: 'checkbox', id: 'sk-indicator', checked: d.ind, onchange: (e) => { d.ind = e.target.checked; change(); } }),
        st('ss.indicator')),
    ],
    d.preview && h('div', { class: 'sk-verdict', id: 'sk-verdict' },
      h('p', {}, explain(sheet, d.preview)),
      h('p', {}, `${st('ss.points')}: ${sides.map((nm, i) => `${nm} +${d.preview.gains[i]}`).join(' · ')}`)),
    (d.previewError || ed.error) && h('p', { class: 'sk-error', role: 'alert', id: 'sk-error' }, d.previewError || ed.error),
    h('nav', { class: 'sk-bar' },
      h('button', { type: 'button', onclick: () => ctx.cancel() }, st('cancel')),
      ed.index !== null && h('button', { type: 'button', class: 'sk-danger', onclick: () => ctx.remove() }, st('delete')),
      h('button', { type: 'button', id: 'sk-save', class: 'sk-primary', disabled: !d.preview || Boolean(d.previewError),
        onclick: () => ctx.save(body(sheet, d)) }, st('save'))));
}

/** What happened in the deal, for the printed sheet. */
export function details(sheet, e) {
  return [explain(sheet, e.result)];
}
