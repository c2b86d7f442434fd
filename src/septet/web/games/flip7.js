// Flip 7 (With a Vengeance and classic): one row per player, number cards coloured by value,
// special cards by kind, round and game totals toward the target; the round's end as a
// summary of every row with its arithmetic; the moments of each update (a card flies from the
// deck to a row, Bust!, Flip 7!, Swap/Steal/Discard move the cards between rows).

import { h } from '../dom.js';
import { arrive, banner, fly, pulse } from '../moments.js';
import { L, bind, progress } from './common.js';

// One name per card, the rulebooks' (the engine's names: flip7/cards.py).
const NAMES = {
  zero: ['Zero', 'ゼロ'], u7: ['Unlucky 7', 'アンラッキー7'], l13: ['Lucky 13', 'ラッキー13'],
  jom: ['Just One More!', 'ジャスト・ワンモア！'], flip4: ['Flip 4!', 'フリップ4！'], swap: ['Swap', 'スワップ'],
  steal: ['Steal', 'スティール'], discard: ['Discard', 'ディスカード'], freeze: ['Freeze', 'フリーズ'],
  flip3: ['Flip Three', 'フリップ3'], second: ['Second Chance', 'セカンドチャンス'],
};
const FACES = {
  zero: '0', u7: '7', l13: '13', jom: '+1', flip4: '4', swap: '⇄', steal: '✋', discard: '✕',
  freeze: '❄', flip3: '3', second: '♥',
};
const STATUS = {
  active: ['In play', 'プレイ中'], stayed: ['Stayed', 'ステイ'], busted: ['Busted', 'バースト'],
  flip7: ['Flip 7!', 'フリップ7！'],
};

function kindOf(token) {
  if (/^\d+$/.test(token)) return 'number';
  if (token === 'zero' || token === 'u7' || token === 'l13') return 'special-number';
  if (/^[-+/x×÷]/.test(token)) return 'modifier';
  return 'action';
}

/** The card's name in the current language: "8", "Lucky 13", "÷2", "Flip 4!". */
export function cardName(token, ctx) {
  if (NAMES[token]) return NAMES[token][ctx.lang === 'ja' ? 1 : 0];
  return String(token).replace(/^-/, '−').replace(/^x/, '×').replace(/^\//, '÷');
}

/** One Flip 7 card: value or symbol (coloured by value or kind) with its name. */
export function flipCard(token, ctx, extra = '') {
  const kind = kindOf(token);
  const name = cardName(token, ctx);
  const value = kind === 'number' ? ` f7-v${token}` : '';
  return h('span', {
    class: `f7card f7-${kind} f7-${String(token).replace(/[^\w]/g, '_')}${value}${extra ? ` ${extra}` : ''}`,
    dataset: { card: token }, 'aria-label': name, title: name, role: 'img',
  },
  h('span', { class: 'f7-face' }, FACES[token] || name),
  kind === 'action' || kind === 'special-number' ? h('span', { class: 'f7-name' }, name) : null);
}

function statusWord(p, i, view, ctx) {
  const key = view.flip7 === i ? 'flip7' : p.status;
  return (STATUS[key] || [p.status, p.status])[ctx.lang === 'ja' ? 1 : 0];
}

function decisionText(d, view, ctx) {
  const who = d.player === ctx.seat ? null : ctx.name(d.player);
  const card = d.card ? cardName(d.card, ctx) : '';
  const stop = /[!?]$/.test(card) ? '' : '.'; // "Just One More!" ends its own sentence
  const bonus = view.flip7_bonus; // the engine's number (F7V-7.2, F7V-8.3)
  const mine = {
    hit_stay: L(ctx, 'Hit or stay?', 'ヒットかステイか？'),
    target: L(ctx, `Choose who gets ${card}${stop}`, `${card}を誰に渡すか選んでください。`),
    swap: L(ctx, 'Swap: choose two face-up cards of two players.', 'スワップ：2人の表向きのカードを1枚ずつ選んでください。'),
    steal: L(ctx, 'Steal: choose a card to take.', 'スティール：奪うカードを選んでください。'),
    discard: L(ctx, 'Discard: choose the card to throw away.', 'ディスカード：捨てさせるカードを選んでください。'),
    flip7_choice: L(ctx, `Flip 7! Take +${bonus}, or give −${bonus} to another player.`, `フリップ7！自分に+${bonus}か、他の1人に−${bonus}か選んでください。`),
  };
  const theirs = {
    hit_stay: L(ctx, `${who} decides: hit or stay.`, `${who}がヒットかステイかを考えています。`),
    target: L(ctx, `${who} chooses who gets ${card}${stop}`, `${who}が${card}を誰に渡すか選んでいます。`),
    swap: L(ctx, `${who} chooses two cards to swap.`, `${who}が交換する2枚を選んでいます。`),
    steal: L(ctx, `${who} chooses a card to steal.`, `${who}が奪うカードを選んでいます。`),
    discard: L(ctx, `${who} chooses a card to discard.`, `${who}が捨てさせるカードを選んでいます。`),
    flip7_choice: L(ctx, `${who} chooses: +${bonus} or −${bonus} to another.`, `${who}が+${bonus}か−${bonus}かを選んでいます。`),
  };
  return (who === null ? mine : theirs)[d.kind] || '';
}

function flipFrame(view) {
  const frames = view.stack || [];
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].kind === 'flip') return frames[i];
  return null;
}

function rowCards(p, i, view, ctx) {
  const d = view.decision;
  const cards = p.row.map((c) => {
    const el = flipCard(c, ctx);
    if (d && d.player === ctx.seat && ['steal', 'discard', 'swap'].includes(d.kind)) {
      const key = `${i}:${c}`;
      if (d.kind === 'swap') {
        // Swap: pick one card, then a card that completes a legal swap with it.
        const pair = ctx.selected.length
          ? ctx.legal.find((x) => x.a.split(' ')[0] === 'swap' && x.a.includes(ctx.selected[0]) && x.a.split(' ').includes(key) && key !== ctx.selected[0])
          : null;
        if (pair) bind(el, pair.a, ctx, { keepButton: true, confirm: true });
        else ctx.pickable(el, key);
      } else {
        bind(el, `${d.kind} ${key}`, ctx, { keepButton: true });
      }
    }
    return el;
  });
  return [
    h('span', { class: 'f7-line' }, cards),
    p.after_bust && p.after_bust.length
      ? h('span', { class: 'f7-after', title: L(ctx, 'received after busting', 'バースト後に受け取ったカード') }, p.after_bust.map((c) => flipCard(c, ctx))) : null,
  ];
}

function row(p, i, view, ctx, compact = false) {
  const status = view.flip7 === i ? 'flip7' : p.status;
  const el = h(compact ? 'div' : 'section', {
    class: `${compact ? 'f7-mine' : 'f7-row'} status-${status}${view.to_move === i ? ' to-move' : ''}${ctx.seat === i ? ' mine' : ''}`,
    dataset: { seat: i }, 'aria-label': ctx.name(i),
  },
  h('div', { class: 'f7-who' },
    h('strong', { class: 'who' }, ctx.name(i)),
    view.dealer === i ? h('span', { class: 'tag dealer' }, L(ctx, 'Dealer', 'ディーラー')) : null,
    h('span', { class: `tag st-${status}` }, statusWord(p, i, view, ctx))),
  h('div', { class: 'f7-cards' }, rowCards(p, i, view, ctx)),
  h('div', { class: 'f7-score' },
    h('span', { class: 'stat' }, h('span', { class: 'stat-label' }, L(ctx, 'This round ', '今回 ')), h('strong', { class: 'f7-this-round' }, String(p.round_score))),
    h('span', { class: 'stat' }, h('span', { class: 'stat-label' }, L(ctx, 'Total ', '合計 ')), h('strong', { class: 'f7-game-total' }, String(p.total)), h('span', { class: 'stat-label' }, ` / ${view.target}`)),
    progress(p.total, view.target, L(ctx, `${p.total} of ${view.target} points`, `${view.target}点中${p.total}点`))));
  return compact ? el : bind(el, `target ${i}`, ctx, { keepButton: true });
}

function draw(view, ctx) {
  const d = view.decision;
  const frame = flipFrame(view);
  const head = h('div', { class: 'f7-head' },
    h('span', { class: 'f7-round' }, L(ctx, `Round ${view.round}`, `ラウンド${view.round}`)),
    h('span', { class: 'muted' }, L(ctx, `First to ${view.target} ${view.target === 1 ? 'point' : 'points'} wins`, `${view.target}点先取`)),
    view.edition === 'classic' ? h('span', { class: 'tag' }, L(ctx, 'Classic', 'クラシック')) : null,
    view.brutal ? h('span', { class: 'tag warn' }, L(ctx, 'Brutal mode', '残忍モード')) : null,
    h('span', { class: 'f7-piles' },
      h('span', { class: 'f7-deck pile-el', 'aria-label': L(ctx, `Deck: ${view.deck_size} cards`, `山札 ${view.deck_size}枚`) },
        h('span', { class: 'f7card f7-back' }, h('span', { class: 'f7-face' }, '7')),
        h('span', {}, L(ctx, `Deck ${view.deck_size}`, `山札 ${view.deck_size}枚`))),
      h('span', { class: 'f7-discard pile-el', 'aria-label': L(ctx, `Discard pile: ${view.discard_size} cards`, `捨て札 ${view.discard_size}枚`) },
        h('span', { class: 'f7card f7-back used' }, h('span', { class: 'f7-face' }, '✕')),
        h('span', {}, L(ctx, `Discards ${view.discard_size}`, `捨て札 ${view.discard_size}枚`)))));
  const prompt = d ? h('div', { class: `prompt${d.player === ctx.seat ? ' mine' : ''}` },
    d.card ? flipCard(d.card, ctx, 'in-hand') : null, h('span', {}, decisionText(d, view, ctx))) : null;
  let aside = null;
  if (frame) {
    const card = view.edition === 'classic' ? 'flip3' : 'flip4';
    aside = h('div', { class: 'f7-aside' },
      h('span', {}, L(ctx, `${ctx.name(frame.player)} flips ${frame.left} more (${cardName(card, ctx)})`,
        `${ctx.name(frame.player)}の${cardName(card, ctx)}：あと${frame.left}枚めくる`)),
      frame.set_aside && frame.set_aside.length
        ? h('span', { class: 'f7-set-aside' }, L(ctx, ' · set aside until then: ', ' ・ 後で処理するカード: '), frame.set_aside.map((c) => flipCard(c, ctx))) : null);
  }
  const rows = view.players.map((p, i) => row(p, i, view, ctx));
  return h('div', { class: 'flip7' }, head, prompt, aside, h('div', { class: 'f7-rows' }, rows));
}

/** My own row, kept in view on a phone (in the sticky area with my moves). */
function dock(view, ctx) {
  if (ctx.seat === null || ctx.seat === undefined || !view.players[ctx.seat]) return null;
  return row(view.players[ctx.seat], ctx.seat, view, ctx, true);
}

// ----- the round's end ------------------------------------------------------------------------

function arithmetic(b, view, ctx) {
  if (b.busted) {
    // F7V-7.1; in brutal mode the modifiers received after busting still count (F7V-8.2)
    if (!b.modifiers) return L(ctx, 'Busted: 0 points', 'バースト：0点');
    return L(ctx, `Busted: modifiers ${signed(b.modifiers)} → ${b.score} points`, `バースト：修正 ${signed(b.modifiers)} → ${b.score}点`);
  }
  const parts = [L(ctx, `Numbers ${b.numbers}`, `数字の合計 ${b.numbers}`)];
  if (b.after_multiplier !== b.numbers) {
    parts.push(view.edition === 'classic' ? `×2 = ${b.after_multiplier}` : `÷2 = ${b.after_multiplier}`);
  }
  if (b.modifiers) parts.push(L(ctx, `modifiers ${signed(b.modifiers)}`, `修正 ${signed(b.modifiers)}`));
  if (b.zero) parts.push(L(ctx, 'the Zero makes it 0', 'ゼロで0点'));
  if (b.bonus) parts.push(L(ctx, `Flip 7 +${b.bonus}`, `フリップ7ボーナス +${b.bonus}`));
  if (b.penalty) parts.push(L(ctx, `Flip 7 penalty ${signed(b.penalty)}`, `フリップ7ペナルティ ${signed(b.penalty)}`));
  return `${parts.join(' → ')} → ${L(ctx, `${b.score} points`, `${b.score}点`)}`;
}

function signed(n) {
  return n > 0 ? `+${n}` : `−${Math.abs(n)}`;
}

/**
 * The round that just ended (the round_end event's data, or the view's last_round_detail):
 * every row as it ended, its status, the arithmetic and the new totals.
 */
function roundSummary(data, view, ctx) {
  const n = data.rows.length;
  const lines = [];
  for (let i = 0; i < n; i++) {
    const status = data.flip7 === i ? 'flip7' : data.status[i];
    const b = (data.breakdown || [])[i];
    lines.push(h('li', { class: `f7-sum status-${status}`, dataset: { seat: i } },
      h('div', { class: 'f7-who' }, h('strong', { class: 'who' }, ctx.name(i)),
        h('span', { class: `tag st-${status}` }, (STATUS[status] || [status, status])[ctx.lang === 'ja' ? 1 : 0])),
      h('div', { class: 'f7-cards small' }, data.rows[i].map((c) => flipCard(c, ctx)),
        (data.after_bust || [])[i] && data.after_bust[i].length ? h('span', { class: 'f7-after' }, data.after_bust[i].map((c) => flipCard(c, ctx))) : null),
      h('div', { class: 'f7-math' }, b ? arithmetic(b, view, ctx) : `${data.scores[i]}`,
        h('span', { class: 'f7-total' }, L(ctx, ` · total ${data.totals[i]}`, ` ・ 合計 ${data.totals[i]}点`)))));
  }
  return h('div', { class: 'summary f7-summary', id: 'round-summary' },
    h('h2', {}, L(ctx, `Round ${data.round} is over`, `ラウンド${data.round}終了`)),
    h('ol', { class: 'plain' }, lines));
}

/** The moment panel kept on screen (round summary) until the next decision or a tap. */
function held(view, ctx, memory) {
  const data = memory.round;
  if (!data || memory.dismissed.has(`round-${data.round}`)) return null;
  memory.heldKey = `round-${data.round}`;
  return roundSummary(data, view, ctx);
}

// ----- moments ------------------------------------------------------------------------------

const rowOf = (st, seat) => st.board.querySelector(`.f7-row[data-seat="${seat}"]`);
const lineOf = (st, seat) => rowOf(st, seat)?.querySelector('.f7-line');
const cardIn = (st, seat, token) => {
  const all = rowOf(st, seat)?.querySelectorAll(`.f7card[data-card="${CSS.escape(String(token))}"]`) || [];
  return all[all.length - 1] || null;
};

function setStatus(st, seat, status) {
  const r = rowOf(st, seat);
  if (!r) return;
  r.className = r.className.replace(/status-\w+/, `status-${status}`);
  const tag = r.querySelector('.f7-who .tag[class*="st-"]');
  if (tag) {
    tag.className = `tag st-${status}`;
    tag.textContent = (STATUS[status] || [status, status])[st.ctx.lang === 'ja' ? 1 : 0];
  }
}

/**
 * Before a round's first line is logged: the rows (and my row in the sticky area) become the
 * new round's, so the board never shows the round before's cards or figures beside it (issue
 * 27): empty rows in play, nothing scored this round, the totals the round's end gave.
 */
function newRound(ev, st) {
  const totals = st.memory?.round?.totals;
  // the decision and the Flip 4 of the round before are over
  for (const el of st.board.querySelectorAll('.prompt, .f7-aside')) el.remove();
  for (const box of [st.board, st.dock]) {
    if (!box) continue;
    for (const line of box.querySelectorAll('.f7-line, .f7-after')) line.replaceChildren();
    // the new round's dealer (the event's seat) marked, the round before's unmarked
    for (const tag of box.querySelectorAll('.tag.dealer')) tag.remove();
    for (const r of box.querySelectorAll(`.f7-row[data-seat="${ev.seat}"], .f7-mine[data-seat="${ev.seat}"]`)) {
      r.querySelector('.f7-who .who')?.after(h('span', { class: 'tag dealer' }, L(st.ctx, 'Dealer', 'ディーラー')));
    }
    for (const r of box.querySelectorAll('.f7-row, .f7-mine')) {
      const seat = Number(r.dataset.seat);
      r.className = r.className.replace(/status-\w+/, 'status-active');
      const tag = r.querySelector('.f7-who .tag[class*="st-"]');
      if (tag) { tag.className = 'tag st-active'; tag.textContent = STATUS.active[st.ctx.lang === 'ja' ? 1 : 0]; }
      const score = r.querySelector('.f7-this-round');
      if (score) score.textContent = '0';
      const total = r.querySelector('.f7-game-total');
      if (total && Array.isArray(totals) && totals[seat] !== undefined) total.textContent = String(totals[seat]);
    }
  }
  const head = st.board.querySelector('.f7-round');
  if (head) head.textContent = L(st.ctx, `Round ${ev.data.round}`, `ラウンド${ev.data.round}`);
}

const before = { round_start: newRound };

const moments = {
  async round_start(ev, st) {
    const head = st.board.querySelector('.f7-round');
    await banner(st.q, st.layer, L(st.ctx, `Round ${ev.data.round}`, `ラウンド${ev.data.round}`), 'info', 700, st.board.querySelector('.f7-head') || head); // beside the whole round line (target, deck)
  },
  async draw(ev, st) {
    const card = flipCard(ev.data.card, st.ctx);
    await arrive(st.q, st.board.querySelector('.f7-deck'), lineOf(st, ev.seat), card);
    await st.q.wait(kindOf(ev.data.card) === 'number' ? 200 : 500);
  },
  async bust(ev, st) {
    setStatus(st, ev.seat, 'busted');
    const dup = cardIn(st, ev.seat, ev.data.card);
    if (dup) dup.classList.add('dup');
    pulse(rowOf(st, ev.seat), 'shake');
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)}: Bust!`, `${st.ctx.name(ev.seat)}：バースト！`), 'bust', 1100, rowOf(st, ev.seat));
  },
  async flip7(ev, st) {
    setStatus(st, ev.seat, 'flip7');
    pulse(rowOf(st, ev.seat), 'glow');
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)}: Flip 7!`, `${st.ctx.name(ev.seat)}：フリップ7！`), 'flip7', 1300, rowOf(st, ev.seat));
  },
  async stay(ev, st) {
    setStatus(st, ev.seat, 'stayed');
    pulse(rowOf(st, ev.seat));
    await st.q.wait(350);
  },
  async give(ev, st) {
    const from = cardIn(st, ev.seat, ev.data.card) || st.board.querySelector('.prompt .f7card') || st.board.querySelector('.f7-deck');
    const piece = flipCard(ev.data.card, st.ctx);
    if (from && from.closest('.f7-line')) from.remove();
    await arrive(st.q, from, lineOf(st, ev.data.to), piece);
    await st.q.wait(350);
  },
  async steal(ev, st) {
    const from = cardIn(st, ev.data.from, ev.data.card);
    const piece = flipCard(ev.data.card, st.ctx);
    if (from) from.remove();
    await arrive(st.q, from ? rowOf(st, ev.data.from) : null, lineOf(st, ev.seat), piece);
    await banner(st.q, st.layer, L(st.ctx, `Steal: ${cardName(ev.data.card, st.ctx)}`, `スティール：${cardName(ev.data.card, st.ctx)}`), 'info', 700, [rowOf(st, ev.seat), rowOf(st, ev.data.from)]);
  },
  async discard(ev, st) {
    const from = cardIn(st, ev.data.from, ev.data.card);
    if (from) {
      await fly(st.q, from, st.board.querySelector('.f7-discard'), from);
      from.remove();
    }
    await banner(st.q, st.layer, L(st.ctx, `Discard: ${cardName(ev.data.card, st.ctx)}`, `ディスカード：${cardName(ev.data.card, st.ctx)}`), 'info', 700, [rowOf(st, ev.data.from), st.board.querySelector('.f7-piles')]);
  },
  async swap(ev, st) {
    const [s1, s2] = ev.data.seats;
    const [c1, c2] = ev.data.cards;
    const a = cardIn(st, s1, c1);
    const b = cardIn(st, s2, c2);
    await Promise.all([fly(st.q, a, b || rowOf(st, s2), flipCard(c1, st.ctx)), fly(st.q, b, a || rowOf(st, s1), flipCard(c2, st.ctx))]);
    if (a && b) {
      a.replaceWith(flipCard(c2, st.ctx, 'pulse'));
      b.replaceWith(flipCard(c1, st.ctx, 'pulse'));
    }
    await banner(st.q, st.layer, L(st.ctx, 'Swap!', 'スワップ！'), 'info', 700, [rowOf(st, s1), rowOf(st, s2)]);
  },
  async unlucky7(ev, st) {
    const line = lineOf(st, ev.seat);
    for (const c of [...(line?.children || [])]) {
      if (c.dataset.card !== 'u7' && kindOf(c.dataset.card) !== 'action') c.classList.add('leaving');
    }
    await banner(st.q, st.layer, L(st.ctx, `Unlucky 7: ${st.ctx.name(ev.seat)} loses the other cards`, `アンラッキー7：${st.ctx.name(ev.seat)}は他のカードを失う`), 'bust', 1000, rowOf(st, ev.seat));
  },
  async second_chance(ev, st) {
    const second = cardIn(st, ev.seat, 'second');
    const dup = cardIn(st, ev.seat, ev.data.card);
    for (const c of [second, dup]) if (c) c.classList.add('leaving');
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)}: Second Chance saves the row!`, `${st.ctx.name(ev.seat)}：セカンドチャンスで助かった！`), 'seven', 1100, rowOf(st, ev.seat));
  },
  async set_aside(ev, st) {
    const c = cardIn(st, ev.seat, ev.data.card);
    if (c) c.classList.add('aside');
    await st.q.wait(400);
  },
  async flip7_bonus(ev, st) {
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)} takes +${st.next.flip7_bonus}`, `${st.ctx.name(ev.seat)}が+${st.next.flip7_bonus}を取った`), 'flip7', 900, rowOf(st, ev.seat));
  },
  async flip7_penalty(ev, st) {
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.data.to)} gets −${st.next.flip7_bonus}`, `${st.ctx.name(ev.data.to)}に−${st.next.flip7_bonus}`), 'bust', 900, rowOf(st, ev.data.to));
  },
  async reshuffle(ev, st) {
    pulse(st.board.querySelector('.f7-deck'));
    await banner(st.q, st.layer, L(st.ctx, 'The discards are shuffled into a new deck', '捨て札を切り直して山札にした'), 'info', 900, st.board.querySelector('.f7-piles'));
  },
  async round_end(ev, st) {
    st.showHeld();
    await st.q.wait(1200);
  },
  async game_end(ev, st) {
    await banner(st.q, st.layer, L(st.ctx, 'Game over', 'ゲーム終了'), 'seven', 900);
  },
};

/** After the state settles: the cards that arrived in this update stay marked. */
function mark(events, board) {
  const seen = new Map();
  for (const ev of events) {
    if (ev.kind === 'round_start') seen.clear();
    if (['draw', 'give', 'steal'].includes(ev.kind)) {
      const seat = ev.kind === 'give' ? ev.data.to : ev.seat;
      seen.set(`${seat}:${ev.data.card}`, seat);
    }
  }
  for (const [key, seat] of seen) {
    const token = key.slice(key.indexOf(':') + 1);
    const all = board.querySelectorAll(`.f7-row[data-seat="${seat}"] .f7card[data-card="${CSS.escape(token)}"]`);
    if (all.length) all[all.length - 1].classList.add('last-move');
  }
}

// ----- the end ------------------------------------------------------------------------------

function breakdown(view, ctx) {
  const rounds = view.rounds;
  const n = view.players.length;
  const winners = view.winners || [];
  if (!Array.isArray(rounds) || !rounds.length) {
    return h('table', { class: 'breakdown' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, L(ctx, 'Last round', '最終ラウンド')), h('th', {}, L(ctx, 'Total', '合計')))),
      h('tbody', {}, view.players.map((p, i) => h('tr', { class: winners.includes(i) ? 'winner' : '' },
        h('th', { scope: 'row' }, ctx.name(i)), h('td', {}, String((view.last_round || [])[i] ?? '')), h('td', {}, String(p.total))))));
  }
  const cell = (r, i) => {
    const status = r.flip7 === i ? 'flip7' : (r.status || [])[i];
    const mark = status === 'busted' ? h('span', { class: 'mark bust', title: STATUS.busted[ctx.lang === 'ja' ? 1 : 0] }, '✕')
      : status === 'flip7' ? h('span', { class: 'mark flip7', title: STATUS.flip7[ctx.lang === 'ja' ? 1 : 0] }, '★') : null;
    return h('td', { class: `st-${status}` }, String(r.scores[i]), mark ? [' ', mark] : null);
  };
  const names = [];
  for (let i = 0; i < n; i++) names.push(h('th', { scope: 'col', class: winners.includes(i) ? 'winner' : '' }, ctx.name(i)));
  return h('div', { class: 'end-flip7' },
    h('table', { class: 'breakdown rounds' },
      h('thead', {}, h('tr', {}, h('th', {}, L(ctx, 'Round', 'ラウンド')), names)),
      h('tbody', {}, rounds.map((r) => h('tr', {}, h('th', { scope: 'row' }, String(r.round)), view.players.map((_, i) => cell(r, i))))),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, L(ctx, 'Total', '合計')),
        view.players.map((p, i) => h('td', { class: winners.includes(i) ? 'winner' : '' }, h('strong', {}, String(p.total))))))),
    h('p', { class: 'legend muted' },
      h('span', { class: 'mark bust' }, '✕'), L(ctx, ' busted (0 points)  ', ' バースト（0点）  '),
      h('span', { class: 'mark flip7' }, '★'), L(ctx, ` Flip 7 (+${view.flip7_bonus})`, ` フリップ7（+${view.flip7_bonus}）`)));
}

/** What an update leaves for later drawings, with or without its moments played. */
function remember(ev, memory) {
  if (ev.kind === 'round_end') memory.round = ev.data;
}

/** What I can do now, in words. */
function hint(view, ctx) {
  const d = view.decision;
  return d && d.player === ctx.seat ? decisionText(d, view, ctx) : null;
}

/** A picked card "1:7" (seat 1's 7) in words: "Bot 1's 7" / 「ボット1の7」. */
function selectionLabel(key, ctx) {
  const [seat, card] = String(key).split(':');
  if (card === undefined) return key;
  const who = ctx.name(Number(seat));
  return L(ctx, `${who}'s ${cardName(card, ctx)}`, `${who}の${cardName(card, ctx)}`);
}

export default {
  draw, dock, held, before, moments, mark, breakdown, remember, hint, selectionLabel,
  quiet: new Set(['dealer', 'forced', 'no_target', 'hit']),
  // the status at a round's start names the player to act, not its dealer; a card dealt or
  // drawn leaves whose move it is as it was
  starts: new Set(['round_start']),
  turnless: new Set(['dealer', 'draw', 'reshuffle']),
};
