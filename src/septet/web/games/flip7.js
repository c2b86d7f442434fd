// Flip 7 (With a Vengeance and classic): one row per player with number cards in order,
// modifiers and special cards marked, round and game totals toward the target.

import { h } from '../dom.js';
import { L, bind, progress, stat } from './common.js';

const NAMES = {
  zero: ['Zero', 'ゼロ'], u7: ['Unlucky 7', 'アンラッキー7'], l13: ['Lucky 13', 'ラッキー13'],
  jom: ['Just One More!', 'もう1枚！'], flip4: ['Flip 4!', 'フリップ4！'], swap: ['Swap', 'スワップ'],
  steal: ['Steal', 'スティール'], discard: ['Discard', 'ディスカード'], freeze: ['Freeze', 'フリーズ'],
  flip3: ['Flip Three', 'フリップ3'], second: ['Second Chance', 'セカンドチャンス'],
};
const STATUS = {
  active: ['active', 'プレイ中'], stayed: ['stayed', 'ステイ'], busted: ['BUST', 'バースト'],
};
const DECISIONS = {
  hit_stay: ['Hit or stay?', 'ヒットかステイか？'], target: ['Choose who gets', '誰に渡すか選ぶ'],
  swap: ['Swap: choose two cards', 'スワップ：交換する2枚を選ぶ'], steal: ['Steal: choose a card', 'スティール：奪うカードを選ぶ'],
  discard: ['Discard: choose a card', 'ディスカード：捨てるカードを選ぶ'],
  flip7_choice: ['Flip 7: +15 for you or −15 to another', 'フリップ7：自分に+15か他の1人に−15'],
};

function kindOf(token) {
  if (/^\d+$/.test(token)) return 'number';
  if (token === 'zero' || token === 'u7' || token === 'l13') return 'special-number';
  if (/^[-+/x]/.test(token)) return 'modifier';
  return 'action';
}

/** One Flip 7 card drawn with CSS: value or symbol, with its name for screen readers. */
export function flipCard(token, ctx) {
  const kind = kindOf(token);
  const name = NAMES[token] ? NAMES[token][ctx.lang === 'ja' ? 1 : 0] : token.replace('-', '−').replace('x', '×').replace('/', '÷');
  const face = {
    zero: '0', u7: '7', l13: '13', jom: '+1', flip4: '4', swap: '⇄', steal: '↩', discard: '✕',
    freeze: '❄', flip3: '3', second: '♥',
  }[token] || name;
  return h('span', { class: `f7card f7-${kind} f7-${token.replace(/[^\w]/g, '_')}`, 'aria-label': name, title: name },
    h('span', { class: 'f7-face' }, face),
    kind !== 'number' ? h('span', { class: 'f7-name' }, name) : null);
}

function draw(view, ctx) {
  const decision = view.decision;
  const head = h('div', { class: 'f7-head' },
    stat(L(ctx, 'Round', 'ラウンド'), view.round),
    stat(L(ctx, 'Target', '目標'), view.target),
    stat(L(ctx, 'Deck', '山札'), view.deck_size),
    stat(L(ctx, 'Discards', '捨て札'), view.discard_size),
    view.edition === 'classic' ? h('span', { class: 'tag' }, L(ctx, 'classic', 'クラシック')) : null,
    view.brutal ? h('span', { class: 'tag' }, L(ctx, 'brutal', '残忍モード')) : null);
  const prompt = decision ? h('div', { class: 'prompt' },
    `${ctx.name(decision.player)}: ${(DECISIONS[decision.kind] || [decision.kind, decision.kind])[ctx.lang === 'ja' ? 1 : 0]}`,
    decision.card ? [' ', flipCard(decision.card, ctx)] : null) : null;
  const rows = view.players.map((p, i) => {
    const numbers = p.row.filter((c) => kindOf(c) === 'number' || kindOf(c) === 'special-number');
    const others = p.row.filter((c) => !numbers.includes(c));
    const row = h('div', {
      class: `f7-row status-${p.status}${view.to_move === i ? ' to-move' : ''}${ctx.seat === i ? ' mine' : ''}`,
      dataset: { seat: i },
    },
    h('div', { class: 'f7-who' },
      h('strong', {}, ctx.name(i)),
      view.dealer === i ? h('span', { class: 'tag', title: L(ctx, 'dealer', 'ディーラー') }, 'D') : null,
      h('span', { class: `tag st-${p.status}` }, (STATUS[p.status] || [p.status, p.status])[ctx.lang === 'ja' ? 1 : 0]),
      view.flip7 === i ? h('span', { class: 'tag flip7' }, 'Flip 7!') : null),
    h('div', { class: 'f7-cards' }, numbers.map((c) => flipCard(c, ctx)), others.length ? h('span', { class: 'f7-mods' }, others.map((c) => flipCard(c, ctx))) : null,
      p.after_bust.length ? h('span', { class: 'f7-after' }, p.after_bust.map((c) => flipCard(c, ctx))) : null),
    h('div', { class: 'f7-score' },
      stat(L(ctx, 'round', '今回'), p.round_score),
      stat(L(ctx, 'total', '合計'), p.total),
      progress(p.total, view.target, `${p.total}/${view.target}`)));
    return bind(row, `target ${i}`, ctx);
  });
  const aside = view.draw && view.draw.set_aside && view.draw.set_aside.length
    ? h('div', { class: 'f7-aside' }, L(ctx, 'Set aside: ', '保留中: '), view.draw.set_aside.map((c) => flipCard(c, ctx)))
    : null;
  return h('div', { class: 'flip7' }, head, prompt, aside, h('div', { class: 'f7-rows' }, rows));
}

function breakdown(view, ctx) {
  return h('table', { class: 'breakdown' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, L(ctx, 'last round', '最終ラウンド')), h('th', {}, L(ctx, 'total', '合計')))),
    h('tbody', {}, view.players.map((p, i) => h('tr', {}, h('td', {}, ctx.name(i)), h('td', {}, String((view.last_round || [])[i] ?? '')), h('td', {}, String(p.total))))));
}

export default { draw, breakdown };
