// Seven Shot: the trick in the centre with each card at its player's place; a finished trick
// stays, all its cards and its winner marked, until the winner leads or the player taps; the
// sides' points, tricks and 7s against the thresholds in words; my hand (cards are the
// buttons) in the sticky area; each deal's end explained; the sides as rows at the end.

import { h } from '../dom.js';
import { arrive, banner, pulse } from '../moments.js';
import { L, bind, plural, progress } from './common.js';

// Suit letter -> [symbol, English, Japanese] (the engine's names, SS-1.3).
const SUITS = {
  S: ['☀', 'Sun', '日'], M: ['☾', 'Moon', '月'], F: ['▲', 'Fire', '火'], W: ['≈', 'Water', '水'],
  T: ['♣', 'Tree', '木'], G: ['◆', 'Gold', '金'], E: ['■', 'Earth', '土'],
};
const ACE = 'S1'; // SS-1.2: the Sun 1 is the A

function suitName(s, ctx) {
  return (SUITS[s] || ['?', s, s])[ctx.lang === 'ja' ? 2 : 1];
}

/** The card's name: "8 of Earth" / 「土の8」; the A is "the A" / 「A」. */
export function cardName(code, ctx) {
  if (code === ACE) return L(ctx, 'the A (Sun 1)', 'A（日の1）');
  const s = suitName(code[0], ctx);
  const r = code.slice(1);
  return L(ctx, `${r} of ${s}`, `${s}の${r}`);
}

/** A card "M5" drawn as rank, suit symbol and suit name; the A drawn as the A. */
export function ssCard(code, ctx, extra = '') {
  const suit = code[0];
  const rank = code.slice(1);
  const s = SUITS[suit] || ['?', suit, suit];
  const ace = code === ACE;
  return h('span', {
    class: `sscard suit-${suit}${rank === '7' ? ' seven' : ''}${ace ? ' ace' : ''}${extra ? ` ${extra}` : ''}`,
    title: cardName(code, ctx), 'aria-label': cardName(code, ctx), role: 'img', dataset: { card: code },
  },
  h('span', { class: 'ss-rank' }, ace ? 'A' : rank), h('span', { class: 'ss-suit' }, s[0]),
  h('span', { class: 'ss-name' }, ace ? L(ctx, 'Sun 1', '日1') : s[ctx.lang === 'ja' ? 2 : 1]));
}

function sidesOf(view) {
  return view.teams || view.hand_sizes.map((_, i) => [i]);
}

/**
 * A side's name: "Team 1 (Aki & Bot 2)" / 「チーム1（アキ・ボット2）」 with four players (teams
 * are numbered, as in the engine's texts: "A" is the ace), else the player's name.
 */
export function sideName(view, side, ctx, withMembers = true) {
  if (!view.teams) return ctx.name(side);
  const team = L(ctx, `Team ${side + 1}`, `チーム${side + 1}`);
  if (!withMembers) return team;
  const members = view.teams[side].map((s) => ctx.name(s)).join(L(ctx, ' & ', '・'));
  return L(ctx, `${team} (${members})`, `${team}（${members}）`);
}

/** 7s that win a deal: the engine's threshold (SS-4.1: 4; SS-5.3: 3 with three players). */
function threshold(view) {
  return view.threshold;
}

function sideOfSeat(view, seat) {
  if (!view.teams) return seat;
  return view.teams.findIndex((m) => m.includes(seat));
}

// Places around the table, from my seat (bottom) clockwise in seat order.
function places(view, ctx) {
  const n = view.hand_sizes.length;
  const me = ctx.seat ?? 0;
  const names = n === 4 ? ['south', 'west', 'north', 'east'] : ['south', 'west', 'east'];
  const out = {};
  for (let k = 0; k < n; k++) out[(me + k) % n] = names[k];
  return out;
}

function howWords(how, ctx) {
  return {
    ace: L(ctx, 'with the A', 'Aで'),
    trump: L(ctx, 'with a trump', '切り札で'),
    suit: L(ctx, 'with the highest card of the suit led', 'リードスートの最大のカードで'),
  }[how] || '';
}

/** The completed trick to keep on the table, or null: {plays: [{seat, card}], winner, key}. */
function heldTrick(view, memory) {
  if (view.trick && view.trick.length) return null;
  let trick = null;
  let key = null;
  if (view.tricks && view.tricks.length) {
    trick = view.tricks[view.tricks.length - 1];
    key = `${view.deal_number}-${view.tricks.length}`;
  } else if (view.last_deal_tricks && view.last_deal_tricks.length) {
    trick = view.last_deal_tricks[view.last_deal_tricks.length - 1];
    key = `${view.deal_number - 1}-${view.last_deal_tricks.length}`;
  }
  if (!trick || memory.dismissed.has(`trick-${key}`)) return null;
  if (memory.trick && memory.trick.key === key) return memory.trick;
  // The seat of each card comes from the engine (tricks[i].seats); without it the cards are
  // shown in play order with the winner named.
  const plays = trick.cards.map((card, i) => ({ seat: trick.seats ? trick.seats[i] : null, card }));
  return { plays, winner: trick.winner, how: null, key };
}

function trickArea(view, ctx, memory) {
  const spots = places(view, ctx);
  const held = heldTrick(view, memory);
  const plays = held ? held.plays : (view.trick || []);
  const slotted = plays.every((p) => p.seat !== null && p.seat !== undefined);
  const played = (p, i) => {
    const winner = held && p.seat === held.winner;
    return h('div', { class: `played${winner ? ' winner' : ''}${slotted ? ` at-${spots[p.seat]}` : ''}`, dataset: { seat: p.seat ?? '', card: p.card } },
      ssCard(p.card, ctx),
      h('small', { class: 'who' }, p.seat === null || p.seat === undefined ? '' : ctx.name(p.seat),
        i === 0 ? h('span', { class: 'lead-mark' }, L(ctx, ' (led)', '（リード）')) : null,
        winner ? h('span', { class: 'win-mark' }, L(ctx, ' wins', 'の勝ち')) : null));
  };
  let caption = null;
  if (held) {
    caption = h('p', { class: 'trick-caption' },
      L(ctx, `${ctx.name(held.winner)} wins the trick${held.how ? ` ${howWords(held.how, ctx)}` : ''}.`,
        `${ctx.name(held.winner)}が${held.how ? howWords(held.how, ctx) : ''}トリックを獲得。`),
      h('span', { class: 'muted' }, L(ctx, ' Tap to clear.', ' タップで片付けます。')));
  } else if (!plays.length && view.phase === 'play' && view.leader !== null && view.leader !== undefined) {
    caption = h('p', { class: 'trick-caption muted' }, view.leader === ctx.seat ? L(ctx, 'You lead.', 'あなたがリードします。') : L(ctx, `${ctx.name(view.leader)} leads.`, `${ctx.name(view.leader)}がリードします。`));
  }
  return h('div', {
    class: `trick${held ? ' done' : ''}${slotted ? ' slotted' : ''} seats-${view.hand_sizes.length}`,
    id: 'trick', 'aria-label': L(ctx, 'The trick', 'トリック'), dataset: held ? { held: held.key } : {},
  }, plays.map(played), caption);
}

function sideBoard(view, ctx) {
  const sides = sidesOf(view);
  const sevensToWin = threshold(view);
  return h('div', { class: 'ss-sides' }, sides.map((members, t) => h('div', {
    class: `ss-side${members.includes(ctx.seat) ? ' mine' : ''}`, dataset: { side: t },
  },
  h('strong', { class: 'who' }, sideName(view, t, ctx)),
  h('div', { class: 'ss-side-stats' },
    h('span', { class: 'stat' }, h('span', { class: 'stat-label' }, L(ctx, 'Points ', '得点 ')), h('strong', {}, String(view.side_points[t])), h('span', { class: 'stat-label' }, L(ctx, ` of ${view.target}`, ` / ${view.target}`)),
      progress(view.side_points[t], view.target, L(ctx, `${view.side_points[t]} of ${view.target} points`, `${view.target}点中${view.side_points[t]}点`))),
    h('span', { class: 'stat' }, h('span', { class: 'stat-label' }, L(ctx, '7s taken ', '取った7の数 ')), h('strong', {}, String(view.side_sevens[t])), h('span', { class: 'stat-label' }, L(ctx, ` (${sevensToWin} win the deal)`, `枚（${sevensToWin}枚で勝ち）`))),
    h('span', { class: 'stat' }, h('span', { class: 'stat-label' }, L(ctx, 'Tricks ', 'トリック ')), h('strong', {}, String(view.side_tricks[t])), h('span', { class: 'stat-label' }, L(ctx, ' (7 lose the deal)', '回（7回で負け）')))))));
}

function seatList(view, ctx) {
  return h('ul', { class: 'plain ss-seats' }, view.hand_sizes.map((n, i) => h('li', {
    class: `ss-seat${view.to_move === i ? ' to-move' : ''}${ctx.seat === i ? ' mine' : ''}`, dataset: { seat: i },
  },
  h('strong', { class: 'who' }, ctx.name(i)),
  h('span', { class: 'seat-facts' },
    L(ctx, `${plural(n, 'card', 'cards')} in hand`, `手札${n}枚`),
    ' · ', L(ctx, plural(view.tricks_won[i], 'trick', 'tricks'), `トリック${view.tricks_won[i]}回`),
    ' · ', L(ctx, plural(view.sevens_taken[i], 'seven', 'sevens'), `7を${view.sevens_taken[i]}枚`)),
  (view.voids[i] || []).length ? h('span', { class: 'voids muted' },
    L(ctx, 'Has no ', '持っていない: '), view.voids[i].map((s) => `${SUITS[s]?.[0] ?? ''}${suitName(s, ctx)}`).join(L(ctx, ', ', '・'))) : null)));
}

function phaseLine(view, ctx) {
  if (view.phase === 'pass') {
    const k = view.pass_cards ?? 3;
    const to = view.teams ? L(ctx, 'your partner', 'パートナー') : L(ctx, 'the player on your left', '左隣の人');
    const done = (view.passing || []).length + (ctx.staged || []).filter((a) => a.startsWith('pass ')).length;
    return h('p', { class: 'phase-line' }, ctx.seat === null || ctx.seat === undefined
      ? L(ctx, `Everyone chooses ${k} cards to pass.`, `全員が渡すカードを${k}枚選んでいます。`)
      : L(ctx, `Choose ${k} cards to pass to ${to} (${done} of ${k} chosen).`, `${to}に渡すカードを${k}枚選んでください（${done}/${k}枚）。`));
  }
  return null;
}

function draw(view, ctx, memory = { dismissed: new Set() }) {
  const head = h('div', { class: 'ss-head' },
    h('span', { class: 'ss-deal' }, L(ctx, `Deal ${view.deal_number}`, `第${view.deal_number}ディール`)),
    view.trump_indicator ? h('span', { class: 'trump' }, L(ctx, 'Trump: ', '切り札：'), h('strong', {}, `${SUITS[view.trump]?.[0] ?? ''} ${suitName(view.trump, ctx)}`), ' ', ssCard(view.trump_indicator, ctx, 'small')) : null,
    h('span', { class: 'muted' }, L(ctx, `First side to ${view.target} ${view.target === 1 ? 'point' : 'points'} wins`, `${view.target}点先取`)));
  // The trick first: it is where the game happens (on a phone, above the fold).
  const showTrick = view.phase === 'play' || heldTrick(view, memory);
  return h('div', { class: 'seven-shot' }, head, phaseLine(view, ctx), showTrick ? trickArea(view, ctx, memory) : null, sideBoard(view, ctx), seatList(view, ctx));
}

/** My hand, sorted by suit and rank; the cards I may play now are the buttons. */
function dock(view, ctx) {
  if (!view.hand) return null;
  const action = (c) => (ctx.canPlay(c) ? c : `pass ${c}`);
  const received = new Set(view.received || []);
  return h('div', { class: 'hand', 'aria-label': L(ctx, 'Your hand', 'あなたの手札') },
    h('div', { class: 'cards' }, view.hand.map((c) => bind(ssCard(c, ctx, received.has(c) && view.phase !== 'deal' ? 'received' : ''), action(c), ctx))),
    view.passing && view.passing.length ? h('div', { class: 'hand-note' }, L(ctx, 'To pass: ', '渡すカード: '), view.passing.map((c) => ssCard(c, ctx, 'small'))) : null,
    view.received && view.received.length && view.phase === 'play' && (view.tricks || []).length === 0 && !(view.trick || []).length
      ? h('div', { class: 'hand-note muted' }, L(ctx, `Received from ${ctx.name(view.received_from)}: `, `${ctx.name(view.received_from)}から受け取った: `), view.received.map((c) => ssCard(c, ctx, 'small'))) : null);
}

// ----- a deal's end ---------------------------------------------------------------------------

/** How deal `d` ended, in words (SS-4.1 .. SS-4.3, SS-5.3 .. SS-5.5). */
export function dealWords(d, view, ctx) {
  const side = (s) => sideName(view, s, ctx, false);
  const n = (d.sevens || []).length;
  const three = !view.teams;
  let how;
  if (d.condition === 'sevens') {
    how = L(ctx, `${side(d.side)} took ${d.sevens[d.side]} sevens and wins the deal.`, `${side(d.side)}が7を${d.sevens[d.side]}枚取って勝ち。`);
  } else if (d.condition === 'seven_tricks') {
    how = three
      ? L(ctx, `${side(d.side)} took 7 tricks and loses the deal: the other two win.`, `${side(d.side)}が7回トリックを取ったので負け。他の2人の勝ち。`)
      : L(ctx, `${side(d.side)} took 7 tricks and loses the deal.`, `${side(d.side)}が7回トリックを取ったので負け。`);
    if (d.transferred && d.transferred.length) {
      const to = (d.winning_sides || []).map(side).join(L(ctx, ' and ', '・'));
      how += L(ctx, ` Its 7s go to ${to}: `, ` その7は${to}へ：`) + d.transferred.map((c) => cardName(c, ctx)).join(L(ctx, ', ', '、')) + L(ctx, '.', '。');
    }
  } else if (d.condition === 'hands_empty') {
    how = L(ctx, `The hands ran out: ${ctx.name(d.last_trick_winner)} took the last trick and the trump indicator.`,
      `手札がなくなった。最後のトリックを取った${ctx.name(d.last_trick_winner)}が切り札表示カードも取る。`);
  } else {
    how = String(d.condition || '');
  }
  const sevens = [];
  for (let s = 0; s < n; s++) sevens.push(L(ctx, `${side(s)}: ${d.sevens[s]}`, `${side(s)}：${d.sevens[s]}枚`));
  const gains = [];
  (d.gains || []).forEach((g, s) => { if (g) gains.push(`${side(s)} +${g}`); });
  // The formula own 7s − other 7s + 1 (SS-4.4, SS-5.4); the three-player 7-trick rule pays a
  // fixed 2 each (SS-5.5) and has no formula (terms null).
  const formula = d.formula && d.terms !== null ? `${d.formula.replace(/-/g, '−')} → ` : '';
  return {
    how,
    sevens: L(ctx, `7s taken — ${sevens.join(', ')}.`, `取った7 — ${sevens.join('、')}。`),
    points: gains.length ? L(ctx, `Points: ${formula}${gains.join(', ')}.`, `得点：${formula}${gains.join('、')}。`) : '',
  };
}

function dealSummary(d, view, ctx) {
  const w = dealWords(d, view, ctx);
  return h('div', { class: 'summary ss-summary', id: 'deal-summary' },
    h('h2', {}, L(ctx, `Deal ${d.deal} is over`, `第${d.deal}ディール終了`)),
    h('p', { class: 'deal-how' }, w.how),
    h('p', {}, w.sevens),
    w.points ? h('p', { class: 'deal-points' }, w.points) : null,
    h('p', { class: 'muted' }, L(ctx, 'Totals — ', '合計 — '),
      sidesOf(view).map((_, s) => L(ctx, `${sideName(view, s, ctx, false)}: ${d.points[s]}`, `${sideName(view, s, ctx, false)}：${d.points[s]}点`)).join(' · '),
      L(ctx, ` (first to ${view.target} wins)`, `（${view.target}点先取）`)));
}

function held(view, ctx, memory) {
  const d = memory.deal;
  if (!d || memory.dismissed.has(`deal-${d.deal}`)) return null;
  memory.heldKey = `deal-${d.deal}`;
  return dealSummary(d, view, ctx);
}

// ----- moments ------------------------------------------------------------------------------

// How long a finished trick stays on the table at least before the next lead clears it (ms,
// at the normal pace).
const TRICK_READ_MS = 2000;

const seatEl = (st, seat) => st.board.querySelector(`.ss-seat[data-seat="${seat}"]`);

const moments = {
  async card_played(ev, st) {
    const trick = st.board.querySelector('#trick');
    if (!trick) return;
    if (trick.classList.contains('done')) {
      // The winner leads: the finished trick leaves the table (after `before` below).
      st.memory.trick = null;
      trick.classList.remove('done');
      trick.replaceChildren();
    }
    for (const c of trick.querySelectorAll('.trick-caption')) c.remove();
    const spots = places(st.view, st.ctx);
    const first = !trick.querySelector('.played');
    const slot = h('div', { class: `played at-${spots[ev.seat]}`, dataset: { seat: ev.seat, card: ev.data.card } },
      ssCard(ev.data.card, st.ctx),
      h('small', { class: 'who' }, st.ctx.name(ev.seat), first ? h('span', { class: 'lead-mark' }, L(st.ctx, ' (led)', '（リード）')) : null));
    trick.classList.add('slotted');
    const from = ev.seat === st.ctx.seat
      ? st.dock.querySelector(`.hand .sscard[data-card="${ev.data.card}"]`) || st.dock
      : seatEl(st, ev.seat);
    const mine = from && from.closest && from.closest('.hand');
    if (mine && from.classList.contains('sscard')) from.classList.add('gone');
    await arrive(st.q, from, trick, slot);
    await st.q.wait(ev.seat === st.ctx.seat ? 150 : 450);
  },
  async trick_won(ev, st) {
    const trick = st.board.querySelector('#trick');
    const plays = [...(trick?.querySelectorAll('.played') || [])].map((p) => ({ seat: p.dataset.seat === '' ? null : Number(p.dataset.seat), card: p.dataset.card }));
    const key = `${st.next.deal_number}-${ev.data.trick}`;
    const dealOver = !(st.next.tricks || []).length && st.next.deal_number !== st.view.deal_number;
    st.memory.trickShownAt = Date.now();
    st.memory.trick = { plays: plays.length ? plays : ev.data.cards.map((card) => ({ seat: null, card })), winner: ev.seat, how: ev.data.how, key: dealOver ? `${st.view.deal_number}-${ev.data.trick}` : key };
    if (trick) {
      trick.classList.add('done');
      trick.dataset.held = st.memory.trick.key;
      const win = trick.querySelector(`.played[data-seat="${ev.seat}"]`);
      if (win) {
        win.classList.add('winner');
        win.querySelector('.who')?.append(h('span', { class: 'win-mark' }, L(st.ctx, ' wins', 'の勝ち')));
      }
      trick.append(h('p', { class: 'trick-caption' }, L(st.ctx, `${st.ctx.name(ev.seat)} wins the trick ${howWords(ev.data.how, st.ctx)}.`, `${st.ctx.name(ev.seat)}が${howWords(ev.data.how, st.ctx)}トリックを獲得。`)));
    }
    const sevens = ev.data.sevens || [];
    await banner(st.q, st.layer, [
      L(st.ctx, `${st.ctx.name(ev.seat)} wins the trick`, `${st.ctx.name(ev.seat)}がトリックを獲得`),
      sevens.length ? h('span', { class: 'moment-sub' }, L(st.ctx, ` and ${sevens.length === 1 ? 'a seven' : `${sevens.length} sevens`}!`, `（7を${sevens.length}枚）`)) : null,
    ], sevens.length ? 'seven' : 'info', sevens.length ? 1200 : 800, [trick, seatEl(st, ev.seat), st.board.querySelector(`.ss-side[data-side="${sideOfSeat(st.view, ev.seat)}"]`)]);
    pulse(seatEl(st, ev.seat));
  },
  async trump_indicator(ev, st) {
    await banner(st.q, st.layer, [L(st.ctx, `Trump: ${suitName(ev.data.trump, st.ctx)}`, `切り札は${suitName(ev.data.trump, st.ctx)}`), ' ', ssCard(ev.data.card, st.ctx)], 'info', 900, [st.board.querySelector('.trump'), st.board.querySelector('.phase-line')]);
  },
  async new_deal(ev, st) {
    await banner(st.q, st.layer, L(st.ctx, `Deal ${ev.data.deal}`, `第${ev.data.deal}ディール`), 'info', 700, st.board.querySelector('.ss-deal'));
  },
  async deal_end(ev, st) {
    st.showHeld();
    await st.q.wait(1200);
  },
  async cards_received(ev, st) {
    if (ev.seat === st.ctx.seat) {
      await banner(st.q, st.layer, [L(st.ctx, `From ${st.ctx.name(ev.data.from)}: `, `${st.ctx.name(ev.data.from)}から: `), ev.data.cards.map((c) => ssCard(c, st.ctx, 'small'))], 'info', 1200, st.board.querySelector('.phase-line'));
    }
  },
  async game_end(ev, st) {
    await banner(st.q, st.layer, L(st.ctx, 'Game over', 'ゲーム終了'), 'seven', 900);
  },
};

// Before an event is said and played: a finished trick stays on the table long enough to read
// before the next lead clears it (a bot's trick whose winner is a bot that leads at once, or
// several moves in one update); a tap skips the pause; my own lead clears it at once.
const before = {
  async card_played(ev, st) {
    if (ev.seat === st.ctx.seat || !st.board.querySelector('#trick.done')) return;
    const shown = Date.now() - (st.memory.trickShownAt || 0);
    if (shown < TRICK_READ_MS) await st.q.wait(TRICK_READ_MS - shown, true);
  },
};

function mark(events, board, dock) {
  for (const ev of events) {
    if (ev.kind === 'card_played') {
      const el = board.querySelector(`#trick .played[data-card="${ev.data.card}"]`);
      if (el) el.classList.add('last-move');
    }
  }
  if (events.some((e) => e.kind === 'cards_received')) {
    for (const el of dock?.querySelectorAll('.hand .sscard.received') || []) el.classList.add('last-move');
  }
}

// ----- the end ------------------------------------------------------------------------------

function breakdown(view, ctx) {
  const deals = view.deals || [];
  const sides = sidesOf(view);
  const winners = new Set((view.winners || []).map((s) => sideOfSeat(view, s)));
  const cells = (s) => deals.map((d) => h('td', { class: (d.gains || [])[s] ? 'gain' : '' },
    h('strong', {}, `+${(d.gains || [])[s] ?? 0}`),
    h('small', { class: 'muted' }, L(ctx, ` (7s: ${(d.sevens || [])[s] ?? 0})`, `（7: ${(d.sevens || [])[s] ?? 0}枚）`))));
  return h('div', { class: 'end-seven-shot' },
    h('table', { class: 'breakdown sides' },
      h('thead', {}, h('tr', {}, h('th', {}, L(ctx, 'Side', 'チーム／プレイヤー')),
        deals.map((d) => h('th', { scope: 'col' }, L(ctx, `Deal ${d.deal}`, `第${d.deal}ディール`))),
        h('th', { scope: 'col' }, L(ctx, 'Points', '得点')))),
      h('tbody', {}, sides.map((_, s) => h('tr', { class: winners.has(s) ? 'winner' : '' },
        h('th', { scope: 'row' }, sideName(view, s, ctx), winners.has(s) ? h('span', { class: 'tag win' }, L(ctx, 'Winner', '勝者')) : null),
        cells(s),
        h('td', {}, h('strong', {}, String(view.side_points[s]))))))),
    h('ol', { class: 'plain deal-list' }, deals.map((d) => {
      const w = dealWords(d, view, ctx);
      return h('li', {}, h('strong', {}, L(ctx, `Deal ${d.deal}: `, `第${d.deal}ディール：`)), `${w.how} ${w.sevens} ${w.points}`);
    })));
}

/** What an update leaves for later drawings, with or without its moments played. */
function remember(ev, memory) {
  if (ev.kind === 'deal_end') memory.deal = ev.data;
  if (ev.kind === 'trick_won') memory.trick = null;
}

/** The pass (SS-2.3, SS-5.2) as one multi-pick: the cards still to choose, confirmed at once. */
function multiPick(view, ctx) {
  if (view.phase !== 'pass' || view.to_move !== ctx.seat || ctx.seat === null || ctx.seat === undefined) return null;
  const need = (view.pass_cards ?? 3) - (view.passing || []).length;
  return need > 0 ? { verb: 'pass', need, title: L(ctx, 'Cards to pass', '渡すカード') } : null;
}

/** A staged pick in the pass's bar: the card's name ("pass E4" → "4 of Earth"). */
function pickLabel(action, ctx) {
  const [verb, card] = action.split(' ');
  return verb === 'pass' && card ? cardName(card, ctx) : null;
}

/** What I can do now, in words. */
function hint(view, ctx) {
  if (view.phase === 'play') return L(ctx, 'Play a highlighted card from your hand.', '手札の光っているカードを出してください。');
  if (view.phase === 'pass') return L(ctx, 'Tap the cards in your hand to pass, then Confirm.', '渡すカードを手札からタップして、「確定」を押してください。');
  return null;
}

/** The end's headline: the winning team by its name (SS-2.1), or null for the players'. */
function headline(view, ctx) {
  if (!view.teams || !(view.winners || []).length) return null;
  const side = sideOfSeat(view, view.winners[0]);
  return L(ctx, `${sideName(view, side, ctx)} wins!`, `${sideName(view, side, ctx)}の勝ち！`);
}

export default {
  draw, dock, held, moments, before, mark, breakdown, remember, hint, headline, multiPick, pickLabel,
  quiet: new Set(['card_dealt', 'pass_chosen', 'pass_ready', 'passes_done', 'first_leader']),
  starts: new Set(['new_deal']), // the status names the player to act in the new deal
  /** A tap on the finished trick clears it (the key goes to memory.dismissed). */
  dismissKey(target) {
    const t = target.closest && target.closest('#trick.done');
    return t && t.dataset.held ? `trick-${t.dataset.held}` : null;
  },
};
