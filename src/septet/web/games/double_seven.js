// Double Seven: the reserve (face-down pile and face-up display), each player's families,
// 7 and 77 tokens and rack size; my rack at the bottom. Animals carry a symbol and a name.

import { h, svg } from '../dom.js';
import { L, bind, stat } from './common.js';

// [colour, English, Japanese]; the badge shows the name's first letter (or kana), so a tile
// reads without colour and without an emoji font.
const ANIMALS = {
  squirrel: ['#b86b2b', 'squirrel', 'リス'], fox: ['#e0782b', 'fox', 'キツネ'],
  butterfly: ['#8e5bd0', 'butterfly', '蝶'], swan: ['#6f8fb8', 'swan', '白鳥'],
  rabbit: ['#9b8b7a', 'rabbit', 'ウサギ'], frog: ['#3f9a3f', 'frog', 'カエル'],
  deer: ['#8a5a2b', 'deer', '鹿'], bird: ['#d4a017', 'bird', '鳥'], clover: ['#2e8b57', 'clover', 'クローバー'],
};

function badge(animal, ctx) {
  const x = ANIMALS[animal] || ['#777', animal, animal];
  const letter = ctx.lang === 'ja' ? x[2][0] : x[1][0].toUpperCase();
  return svg('svg', { class: 'tile-icon', viewBox: '0 0 24 24', width: 24, height: 24, 'aria-hidden': 'true' },
    animal === 'clover'
      ? [0, 90, 180, 270].map((a) => svg('circle', { cx: 12 + 5 * Math.cos((a * Math.PI) / 180), cy: 12 + 5 * Math.sin((a * Math.PI) / 180), r: 5, fill: x[0] }))
      : svg('circle', { cx: 12, cy: 12, r: 11, fill: x[0] }),
    svg('text', { x: 12, y: 16.5, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 700, fill: '#fff' }, letter));
}

function animalName(a, ctx) {
  const x = ANIMALS[a];
  return x ? x[ctx.lang === 'ja' ? 2 : 1] : a;
}

/** A tile: the animal's symbol over its name (readable without colour). */
export function tile(animal, ctx, count = 1) {
  return h('span', { class: `tile tile-${animal}`, title: animalName(animal, ctx), 'aria-label': `${animalName(animal, ctx)}${count > 1 ? ` ×${count}` : ''}` },
    badge(animal, ctx),
    h('span', { class: 'tile-name' }, animalName(animal, ctx)),
    count > 1 ? h('span', { class: 'tile-count' }, `×${count}`) : null);
}

function family(f, ctx) {
  return h('span', { class: `family${f.size >= 7 ? ' seven' : ''}`, title: `${f.size}` },
    tile(f.animal, ctx, f.animals),
    f.clovers ? tile('clover', ctx, f.clovers) : null,
    h('span', { class: 'family-size' }, String(f.size)));
}

// The engine's phase names (DS-2 .. DS-6) in both languages.
const PHASES = {
  deal: ['setup', '準備'], first_player: ['choosing the first player', 'スタートプレイヤー決定'],
  flip: ['flip', 'めくる'], draw: ['draw', '引く'], rainbow: ['Rainbow!', 'レインボー！'],
  actions: ['actions', 'アクション'], two_for_one_draw: ['two-for-one draw', '2対1の引き'],
  discard: ['discard', '捨てる'], over: ['over', '終了'],
};

function draw(view, ctx) {
  const phase = h('div', { class: 'ds-head' },
    stat(L(ctx, 'Phase', 'フェーズ'), (PHASES[view.phase] || [view.phase, view.phase])[ctx.lang === 'ja' ? 1 : 0]),
    stat(L(ctx, 'Pile', '山'), view.pile),
    stat(L(ctx, '7 tokens left', '残りの7トークン'), view.sevens_left),
    stat('77', view.double_seven === null || view.double_seven === undefined ? L(ctx, 'unclaimed', '未獲得') : ctx.name(view.double_seven)),
    view.two_for_one_used ? h('span', { class: 'tag' }, L(ctx, 'two-for-one used', '2対1使用済み')) : null,
    view.rainbow_used ? h('span', { class: 'tag' }, L(ctx, 'Rainbow used', 'レインボー使用済み')) : null,
    view.end_triggered_by !== null && view.end_triggered_by !== undefined ? h('span', { class: 'tag warn' }, L(ctx, 'last turns', '最終ターン')) : null);
  const display = h('div', { class: 'ds-display' },
    h('span', { class: 'pile', 'aria-label': L(ctx, 'face-down pile', '裏向きの山') }, h('span', { class: 'tile back' }, '?'), ` ×${view.pile}`),
    Object.entries(view.display || {}).map(([a, n]) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(bind(tile(a, ctx), `take ${a}`, ctx));
      return out;
    }),
    Object.keys(view.removed || {}).length ? h('span', { class: 'removed muted' }, L(ctx, ' removed: ', ' 除外: '),
      Object.entries(view.removed).map(([a, n]) => tile(a, ctx, n))) : null);
  const players = view.families.map((fams, i) => h('div', {
    class: `ds-player${view.to_move === i ? ' to-move' : ''}${ctx.seat === i ? ' mine' : ''}`, dataset: { seat: i },
  },
  h('div', { class: 'ds-who' }, h('strong', {}, ctx.name(i)),
    stat(L(ctx, 'score', '得点'), (view.scores || [])[i] ?? 0),
    stat(L(ctx, '7', '7トークン'), view.sevens[i]),
    view.double_seven === i ? h('span', { class: 'tag seven' }, '77') : null,
    stat(L(ctx, 'rack', 'ラック'), view.racks[i].size),
    Object.keys(view.racks[i].known || {}).length && i !== ctx.seat
      ? h('span', { class: 'known' }, L(ctx, 'known: ', '判明: '), Object.entries(view.racks[i].known).map(([a, n]) => tile(a, ctx, n))) : null),
  h('div', { class: 'families' }, fams.length ? fams.map((f) => family(f, ctx)) : h('span', { class: 'muted' }, L(ctx, 'no families', '家族なし')))));
  // Picking a rack tile keeps only the moves with that animal (start, expand, retrieve...).
  const pickable = (el, animal) => {
    if (!ctx.select || !ctx.mentions(animal)) return el;
    el.classList.add('pickable');
    if (ctx.selected === animal) el.classList.add('selected');
    el.setAttribute('role', 'button');
    el.setAttribute('tabindex', '0');
    el.setAttribute('aria-pressed', String(ctx.selected === animal));
    el.dataset.pick = animal;
    el.addEventListener('click', () => ctx.select(animal));
    el.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); ctx.select(animal); } });
    return el;
  };
  const rack = view.rack ? h('div', { class: 'rack', 'aria-label': L(ctx, 'your rack', 'あなたのラック') },
    h('h3', {}, L(ctx, 'Your rack', 'あなたのラック')),
    Object.entries(view.rack).map(([a, n]) => pickable(tile(a, ctx, n), a))) : null;
  return h('div', { class: 'double-seven' }, phase, display, h('div', { class: 'ds-players' }, players), rack);
}

function breakdown(view, ctx) {
  return h('table', { class: 'breakdown' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, L(ctx, 'tiles in families', '家族のタイル')), h('th', {}, L(ctx, '7 tokens', '7トークン')), h('th', {}, '77'), h('th', {}, L(ctx, 'score', '得点')))),
    h('tbody', {}, view.families.map((fams, i) => h('tr', {},
      h('td', {}, ctx.name(i)),
      h('td', {}, String(fams.reduce((s, f) => s + f.size, 0))),
      h('td', {}, String(view.sevens[i])),
      h('td', {}, view.double_seven === i ? '★' : ''),
      h('td', {}, String((view.scores || [])[i] ?? ''))))));
}

export default { draw, breakdown };
