// /score/print/<game>: a blank score sheet to print (names optional), from the print stylesheet.
import { h, replace } from '../dom.js';
import { title } from './common.js';
import { st } from './text.js';

const ROWS = { flip7: 16, 'double-seven': 6, 'seven-shot': 14 };
const COUNTS = { flip7: [2, 18, 4], 'double-seven': [2, 4, 3], 'seven-shot': [3, 4, 4] };

export async function mount(app, game) {
  if (!ROWS[game]) game = 'flip7';
  const [lo, hi, dflt] = COUNTS[game];
  const params = new URLSearchParams(location.search);
  let names = (params.get('names') || '').split(',').map((x) => x.trim()).filter(Boolean);
  let count = Math.min(hi, Math.max(lo, Number(params.get('players')) || names.length || dflt));

  function heads() {
    const list = Array.from({ length: count }, (_, i) => names[i] || '');
    if (game === 'seven-shot' && count === 4) return [`${list[0]} & ${list[2]}`, `${list[1]} & ${list[3]}`].map((x) => (x.trim() === '&' ? '' : x));
    return list;
  }

  function grid() {
    const cols = heads();
    const word = game === 'flip7' ? st('round') : game === 'double-seven' ? st('game') : st('deal');
    if (game === 'double-seven') {
      return h('table', { class: 'sk-print-grid' },
        h('thead', {}, h('tr', {}, h('th', {}, word), cols.map((c) => h('th', { class: 'sk-namecell' }, c)))),
        h('tbody', {}, Array.from({ length: ROWS[game] }, (_, r) => [
          h('tr', {}, h('th', { rowspan: 4 }, String(r + 1)), cols.map(() => h('td', { class: 'sk-hint' }, st('ds.families')))),
          h('tr', {}, cols.map(() => h('td', { class: 'sk-hint' }, st('ds.sevens')))),
          h('tr', {}, cols.map(() => h('td', { class: 'sk-hint' }, st('ds.77')))),
          h('tr', { class: 'sk-sum' }, cols.map(() => h('td', { class: 'sk-hint' }, st('total')))),
        ])));
    }
    return h('table', { class: 'sk-print-grid' },
      h('thead', {}, h('tr', {}, h('th', {}, word),
        game === 'seven-shot' && h('th', {}, st('ss.how')),
        cols.map((c) => h('th', { class: 'sk-namecell', colspan: 2 }, c)))),
      h('tbody', {}, Array.from({ length: ROWS[game] }, (_, r) => h('tr', {}, h('th', {}, String(r + 1)),
        game === 'seven-shot' && h('td', {}, ''),
        cols.map(() => [h('td', { class: 'sk-score' }, ''), h('td', { class: 'sk-sum' }, '')])))));
  }

  function render() {
    document.title = `${title(game)} — ${st('print.title')}`;
    replace(app,
      h('section', { class: 'sk-card sk-noprint' },
        h('h1', {}, `${st('print.blank')}: ${title(game)}`),
        h('label', { class: 'sk-field' }, st('print.count'),
          h('input', { type: 'number', min: lo, max: hi, value: count, oninput: (e) => {
            const v = Number(e.target.value); if (v >= lo && v <= hi) { count = v; render(); }
          } })),
        h('label', { class: 'sk-field' }, st('print.names'),
          h('textarea', { rows: 3, oninput: (e) => { names = e.target.value.split('\n').map((x) => x.trim()); render(); } }, names.join('\n'))),
        h('p', {}, h('button', { type: 'button', class: 'sk-primary', onclick: () => window.print() }, st('print')), ' ',
          ['flip7', 'double-seven', 'seven-shot'].map((g) => [h('a', { href: `/score/print/${g}` }, title(g)), ' ']))),
      h('section', { class: 'sk-print-sheet' },
        h('header', {}, h('h1', {}, `${title(game)} — ${st('print.title')}`),
          h('p', {}, `${st('print.date')}: ________  ${st('print.place')}: ________`)),
        grid()));
  }
  render();
  return { render };
}
