// Double Seven: at the end of a game, each player's families (sizes), 7 tokens and the 77;
// the server scores it with the engine's rules (DS-8) and names the winner and the tie-break.
import { h } from '../dom.js';
import { call } from './common.js';
import { names, st } from './text.js';

/** The family sizes a player can pick: the sheet's `family_sizes` [min, max], the engine's
 * (DS-5.1, DS-1.1; server/score/sheet.py), never restated here. */
function sizes(sheet) {
  const [lo, hi] = sheet.family_sizes;
  return Array.from({ length: hi - lo + 1 }, (_, i) => i + lo);
}

export function draft(sheet, existing) {
  return {
    players: sheet.players.map((_, i) => {
      const p = existing ? existing.players[i] : null;
      return p ? { families: [...p.families], sevens: p.sevens, dd: p.double_seven } : { families: [], sevens: 0, dd: false };
    }),
    picking: null, preview: null, previewError: '', timer: null, seq: 0, started: false,
  };
}

function body(d) {
  return { players: d.players.map((p) => ({ families: p.families, sevens: p.sevens, double_seven: p.dd })) };
}

export function explain(p) {
  return st('ds.points', { tiles: p.tiles, sevens: p.sevens, dd: p.double_seven, score: p.score });
}

/** The winner line with the tie-break in words (DS-8.2). */
export function verdict(sheet, result) {
  const who = result.winners.map((i) => sheet.players[i]);
  const tied = result.tied.map((i) => sheet.players[i]);
  const points = result.scores[result.tied[0]];
  if (result.tie_break === '77') return st('ds.tie77', { names: names(tied), points, holder: who[0] });
  if (result.tie_break === 'shared') return st('ds.tieshared', { names: names(tied), points });
  return st('wins_line', { names: names(who) });
}

export function cells(sheet, e) {
  const win = new Set(e.result.winners);
  return e.result.players.map((p, i) => h('span', { title: explain(p), class: win.has(i) ? 'sk-f7' : '' },
    `${win.has(i) ? '★ ' : ''}${p.score}`));
}

async function preview(ctx, ed) {
  const d = ed.draft;
  const seq = ++d.seq;
  try {
    const res = await call('/api/score/double-seven/game', {
      method: 'POST', body: { ...body(d), double_seven: ctx.sheet.options.double_seven, names: ctx.sheet.players },
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
  const change = () => { clearTimeout(d.timer); d.timer = setTimeout(() => preview(ctx, ed), 120); ctx.rerender(); };
  if (!d.started) { d.started = true; change(); }
  const number = ed.index === null ? sheet.entries.length + 1 : ed.index + 1;
  return h('section', { class: 'sk-card sk-editor', id: 'sk-editor' },
    h('div', { class: 'sk-editor-head' },
      h('h1', {}, `${st('game')} ${number}`),
      h('button', { type: 'button', class: 'sk-icon', 'aria-label': st('cancel'), onclick: () => ctx.cancel() }, '×')),
    d.players.map((p, i) => h('div', { class: 'sk-player', dataset: { player: i } },
      h('h2', {}, sheet.players[i], d.preview ? h('span', { class: 'sk-player-score' }, ` ${d.preview.scores[i]}`) : null),
      h('div', { class: 'sk-label' }, st('ds.families')),
      h('div', { class: 'sk-chips' },
        p.families.map((size, k) => h('button', { type: 'button', class: 'sk-chip sk-family', onclick: () => { p.families.splice(k, 1); change(); } }, `${size} ×`)),
        h('button', { type: 'button', class: 'sk-add-family', 'aria-expanded': String(d.picking === i),
          onclick: () => { d.picking = d.picking === i ? null : i; ctx.rerender(); } }, st('ds.add_family'))),
      d.picking === i && h('div', { class: 'sk-sizes', role: 'group', 'aria-label': st('ds.size') },
        sizes(sheet).map((size) => h('button', { type: 'button', class: `sk-size${size >= sheet.seven ? ' sk-seven' : ''}`, dataset: { size },
          onclick: () => { p.families.push(size); d.picking = null; change(); } }, String(size)))),
      h('div', { class: 'sk-stepper' },
        h('span', { class: 'sk-label' }, st('ds.sevens')),
        h('button', { type: 'button', 'aria-label': `${st('ds.sevens')} −`, disabled: p.sevens <= 0, onclick: () => { p.sevens -= 1; change(); } }, '−'),
        h('output', { class: 'sk-count', dataset: { sevens: i } }, String(p.sevens)),
        h('button', { type: 'button', 'aria-label': `${st('ds.sevens')} +`, disabled: p.sevens >= sheet.seven_tokens, onclick: () => { p.sevens += 1; change(); } }, '+')),
      h('label', { class: 'sk-check' },
        h('input', { type: 'checkbox', checked: p.dd, dataset: { dd: i },
          onchange: (e) => { d.players.forEach((q) => { q.dd = false; }); p.dd = e.target.checked; change(); } }),
        st('ds.77')),
      d.preview && h('p', { class: 'sk-arith' }, explain(d.preview.players[i])))),
    d.preview && h('p', { class: 'sk-verdict', id: 'sk-verdict' }, verdict(sheet, d.preview)),
    (d.previewError || ed.error) && h('p', { class: 'sk-error', role: 'alert', id: 'sk-error' }, d.previewError || ed.error),
    h('nav', { class: 'sk-bar' },
      h('button', { type: 'button', onclick: () => ctx.cancel() }, st('cancel')),
      ed.index !== null && h('button', { type: 'button', class: 'sk-danger', onclick: () => ctx.remove() }, st('delete')),
      h('button', { type: 'button', id: 'sk-save', class: 'sk-primary', disabled: Boolean(d.previewError) || !d.preview,
        onclick: () => ctx.save(body(d)) }, st('save'))));
}

/** One line per player and the verdict, for the printed sheet. */
export function details(sheet, e) {
  return [...e.result.players.map((p, i) => `${sheet.players[i]}: ${explain(p)}`), verdict(sheet, e.result)];
}
