// Seven Shot: my hand sorted by suit, playable cards highlighted; the trump indicator; the
// current trick in the centre; tricks and 7s per team against the 4 and 7 thresholds.

import { h } from '../dom.js';
import { L, bind, count, progress, stat } from './common.js';

const SUITS = {
  S: ['☀', 'Sun', '日'], M: ['☾', 'Moon', '月'], F: ['▲', 'Fire', '火'], W: ['≈', 'Water', '水'],
  T: ['♣', 'Tree', '木'], G: ['◆', 'Gold', '金'], E: ['■', 'Earth', '土'],
};

// The engine's phase names (SS-3 .. SS-4) in both languages.
const PHASES = {
  deal: ['dealing', '配札'], pass: ['passing cards', 'カードを渡す'],
  first_leader: ['choosing the first leader', '最初のリードを決める'], play: ['play', 'プレイ'],
  over: ['over', '終了'],
};

/** A card "M5" drawn as suit symbol, suit name and rank. */
export function ssCard(code, ctx) {
  const suit = code[0];
  const rank = code.slice(1);
  const s = SUITS[suit] || ['?', suit, suit];
  const name = `${s[ctx.lang === 'ja' ? 2 : 1]} ${rank}`;
  return h('span', { class: `sscard suit-${suit}${rank === '7' ? ' seven' : ''}`, title: name, 'aria-label': name },
    h('span', { class: 'ss-rank' }, rank), h('span', { class: 'ss-suit' }, s[0]), h('span', { class: 'ss-name' }, s[ctx.lang === 'ja' ? 2 : 1]));
}

function draw(view, ctx) {
  // Four players: two teams (SS-2.1). Three players: each player is a side (SS-5.1), and 3
  // sevens win a deal instead of 4 (SS-5.3).
  const sides = view.teams || view.hand_sizes.map((_, i) => [i]);
  const sevensToWin = view.teams ? 4 : 3;
  const teamName = (t) => {
    if (!view.teams) return ctx.name(t);
    return t === 0 ? L(ctx, 'Team A', 'チームA') : L(ctx, 'Team B', 'チームB');
  };
  const head = h('div', { class: 'ss-head' },
    stat(L(ctx, 'Deal', 'ディール'), view.deal_number),
    stat(L(ctx, 'Phase', 'フェーズ'), (PHASES[view.phase] || [view.phase, view.phase])[ctx.lang === 'ja' ? 1 : 0]),
    view.trump_indicator ? h('span', { class: 'trump' }, L(ctx, 'Trump ', '切り札 '), ssCard(view.trump_indicator, ctx)) : null,
    sides.map((members, t) => h('span', { class: 'team' },
      h('strong', {}, view.teams ? `${teamName(t)} (${members.map((s) => ctx.name(s)).join(' & ')})` : teamName(t)), ' ',
      stat(L(ctx, 'points', '点'), `${view.side_points[t]}/${view.target}`),
      progress(view.side_points[t], view.target, `${view.side_points[t]}/${view.target}`),
      stat(L(ctx, 'tricks', 'トリック'), `${view.side_tricks[t]}/7`),
      stat(L(ctx, '7s', '7の数'), `${view.side_sevens[t]}/${sevensToWin}`))));
  const trick = h('div', { class: 'trick', 'aria-label': L(ctx, 'current trick', '現在のトリック') },
    view.trick.length ? view.trick.map((p, i) => h('span', { class: 'played' }, ssCard(p.card, ctx), h('small', {}, `${ctx.name(p.seat)}${i === 0 ? L(ctx, ' (lead)', '（リード）') : ''}`)))
      : h('span', { class: 'muted' }, view.phase === 'play' && view.leader !== null ? `${ctx.name(view.leader)} ${L(ctx, 'leads', 'がリード')}` : ''));
  const seats = h('ul', { class: 'plain ss-seats' }, view.hand_sizes.map((n, i) => h('li', {
    class: `${view.to_move === i ? 'to-move' : ''}${ctx.seat === i ? ' mine' : ''}`, dataset: { seat: i },
  }, h('strong', {}, ctx.name(i)), ' ',
  count(n, 'cards', '枚', ctx, 'cards'), stat(L(ctx, 'tricks', 'トリック'), view.tricks_won[i]), stat(L(ctx, '7s', '7の数'), view.sevens_taken[i]),
  (view.voids[i] || []).length ? h('span', { class: 'muted voids', title: view.voids[i].map((s) => (SUITS[s] || [s, s, s])[ctx.lang === 'ja' ? 2 : 1]).join(', ') },
    L(ctx, 'void in: ', '持っていないスート: '), view.voids[i].map((s) => (SUITS[s] || [s])[0]).join(' ')) : null)));
  let hand = null;
  if (view.hand) {
    const action = (c) => (ctx.canPlay(c) ? c : `pass ${c}`);
    hand = h('div', { class: 'hand', 'aria-label': L(ctx, 'your hand', 'あなたの手札') },
      h('h3', {}, L(ctx, 'Your hand', 'あなたの手札')),
      h('div', { class: 'cards' }, view.hand.map((c) => bind(ssCard(c, ctx), action(c), ctx))),
      view.passing && view.passing.length ? h('div', {}, L(ctx, 'Chosen to pass: ', '渡すカード: '), view.passing.map((c) => ssCard(c, ctx))) : null,
      view.passed && view.passed.length ? h('div', { class: 'muted' }, L(ctx, `Passed to ${ctx.name(view.passed_to)}: `, `${ctx.name(view.passed_to)}に渡した: `), view.passed.map((c) => ssCard(c, ctx))) : null,
      view.received && view.received.length ? h('div', { class: 'muted' }, L(ctx, `Received from ${ctx.name(view.received_from)}: `, `${ctx.name(view.received_from)}から受け取った: `), view.received.map((c) => ssCard(c, ctx))) : null);
  }
  const last = (view.deals || [])[view.deals.length - 1];
  const lastDeal = last ? h('div', { class: 'last-deal' },
    `${L(ctx, 'Deal', 'ディール')} ${last.deal}: ${last.condition} (${last.rule}) — ${L(ctx, 'tricks', 'トリック')} ${(last.tricks || []).join('/')}, 7s ${(last.sevens || []).join('/')}`,
    last.formula ? ` — ${last.formula}` : '', ` → ${(last.points || []).join(' : ')}`) : null;
  return h('div', { class: 'seven-shot' }, head, lastDeal, trick, seats, hand);
}

function breakdown(view, ctx) {
  const deals = view.deals || [];
  return h('table', { class: 'breakdown' },
    h('thead', {}, h('tr', {}, ['#', L(ctx, 'ended by', '終了条件'), L(ctx, 'tricks', 'トリック'), '7s', L(ctx, 'points', '得点式'), L(ctx, 'score', '得点')].map((x) => h('th', {}, x)))),
    h('tbody', {}, deals.map((d) => h('tr', {},
      h('td', {}, String(d.deal)), h('td', {}, `${d.condition} (${d.rule})`),
      h('td', {}, (d.tricks || []).join(' / ')), h('td', {}, (d.sevens || []).join(' / ')),
      h('td', {}, d.formula || ''), h('td', {}, (d.points || []).join(' / '))))));
}

export default { draw, breakdown };
