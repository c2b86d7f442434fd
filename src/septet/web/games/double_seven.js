// Double Seven: the reserve (face-down pile, face-up display), each player's families, 7 and
// 77 tokens and rack size in words; my rack in the sticky area. Tiles are SVG pictograms with
// their names (animals.js). A rack tile or a family picked on the board keeps only the moves
// that use it; the display tiles and the pile are the draw buttons.

import { h } from '../dom.js';
import { arrive, banner, fly, pulse } from '../moments.js';
import { ANIMALS, animalName, pictogram, token } from './animals.js';
import { L, bind, plural } from './common.js';

/** Parse a family of the notation ("fox3+1": 3 foxes and 1 clover) -> {animal, animals, clovers, size}. */
export function parseFamily(text) {
  const m = /^([a-z]+)(\d+)(?:\+(\d+))?$/.exec(String(text));
  if (!m) return null;
  const animals = Number(m[2]);
  const clovers = Number(m[3] || 0);
  return { animal: m[1], animals, clovers, size: animals + clovers };
}

function familyKey(f) {
  return `${f.animal}${f.animals}${f.clovers ? `+${f.clovers}` : ''}`;
}

/** "3 foxes and 1 clover" / 「キツネ3枚とクローバー1枚」. */
export function familyWords(f, ctx) {
  const a = L(ctx, `${f.animals} ${animalName(f.animal, 'en', f.animals)}`, `${animalName(f.animal, 'ja')}${f.animals}枚`);
  if (!f.clovers) return a;
  return L(ctx, `${a} and ${f.clovers} ${animalName('clover', 'en', f.clovers)}`, `${a}とクローバー${f.clovers}枚`);
}

/** A tile: the animal's pictogram over its name, with a count badge when more than one. */
export function tile(animal, ctx, count = 1, extra = '') {
  const name = animalName(animal, ctx.lang, count);
  const label = count > 1 ? L(ctx, `${count} ${name}`, `${name}${count}枚`) : name;
  return h('span', { class: `tile tile-${animal}${extra ? ` ${extra}` : ''}`, title: label, 'aria-label': label, role: 'img', dataset: { tile: animal } },
    pictogram(animal, 30),
    h('span', { class: 'tile-name' }, animalName(animal, ctx.lang)),
    count > 1 ? h('span', { class: 'tile-count', 'aria-hidden': 'true' }, `×${count}`) : null);
}

function backTile(ctx) {
  return h('span', { class: 'tile back', 'aria-hidden': 'true' }, h('span', { class: 'tile-back-mark' }, '7'));
}

/** A family on the table: the animal, how many of it and of clovers, its size (7+ marked). */
function family(f, seat, ctx) {
  const key = seat === ctx.seat ? familyKey(f) : `${seat}:${familyKey(f)}`;
  const el = h('span', {
    class: `family${f.seven ? ' seven' : ''}`, dataset: { family: familyKey(f), seat, pick: `fam:${key}` },
    'aria-label': L(ctx, `Family of ${familyWords(f, ctx)}: ${f.size} tiles`, `${familyWords(f, ctx)}の家族：${f.size}枚`),
    title: familyWords(f, ctx),
  },
  pictogram(f.animal, 30),
  h('span', { class: 'fam-count' }, `×${f.animals}`),
  f.clovers ? [h('span', { class: 'fam-clover' }, '+', pictogram('clover', 18), `×${f.clovers}`),
    h('span', { class: 'fam-size', 'aria-hidden': 'true' }, `= ${f.size}`)] : null,
  f.seven ? h('span', { class: 'fam-seven', 'aria-hidden': 'true' }, '7+') : null);
  return ctx.pickable(el, `fam:${key}`);
}

// The engine's phases (DS-2 .. DS-7) in words.
function phaseWords(view, ctx) {
  const left = view.draws_left ?? 0;
  return {
    deal: L(ctx, 'Dealing the tiles', 'タイルを配っています'),
    first_player: L(ctx, 'Choosing who starts', 'スタートプレイヤーを決めています'),
    flip: L(ctx, 'Flipping a tile face up', 'タイルを表にします'),
    draw: L(ctx, `Drawing (${left} to go)`, `タイルを引く（あと${left}枚）`),
    // DS-4.3: asked whenever the rack holds 5+ tiles, so it says nothing of the rack.
    rainbow: L(ctx, 'Deciding on Rainbow', 'レインボー！を宣言するか決めています'),
    actions: L(ctx, 'Actions', 'アクション'),
    two_for_one_draw: L(ctx, 'Two for one: drawing 1 tile', '2対1：タイルを1枚引く'),
    discard: L(ctx, 'Discarding down to 5 tiles', '5枚になるよう1枚捨てる'),
    over: L(ctx, 'Game over', 'ゲーム終了'),
  }[view.phase] || '';
}

// DS-4.3 in words. Whether my rack qualifies is the engine's say: Declare is among my moves
// only then.
function rainbowHint(ctx) {
  if (ctx.legal.some((x) => x.a === 'rainbow')) {
    return L(ctx,
      'Your rack holds 5 or more tiles, all different animals and no clover: declare Rainbow! to show your rack to everyone and draw 1 more tile — or don\'t.',
      'ラックの5枚以上がすべて違う動物で、クローバーもありません。レインボー！を宣言するとラックを全員に見せて、もう1枚引けます。宣言しなくてもかまいません。');
  }
  return L(ctx,
    'No Rainbow this turn (it needs 5 or more tiles, all different animals, no clover): go on to your actions.',
    '今回はレインボー！になりません（5枚以上がすべて違う動物で、クローバーなしが条件）。アクションに進みます。');
}

/** A move's words where the engine's would mislead: a lone "no Rainbow" reads as going on. */
function moveLabel(x, ctx) {
  if (x.a === 'no-rainbow' && !ctx.legal.some((y) => y.a === 'rainbow')) return L(ctx, 'Go on to your actions', 'アクションに進む');
  return null;
}

/** What I can do now, in words (shown in the sticky area above my moves). */
export function hint(view, ctx) {
  if (view.to_move !== ctx.seat || ctx.seat === null) return null;
  return {
    draw: L(ctx, `Draw ${view.draws_left ?? ''} more: tap the face-down pile or a face-up tile.`, `あと${view.draws_left ?? ''}枚引きます：裏向きの山か表向きのタイルをタップ。`),
    two_for_one_draw: L(ctx, 'Draw 1 tile (not one of the two you put out).', '1枚引きます（出した2枚以外）。'),
    rainbow: rainbowHint(ctx),
    actions: L(ctx, 'Tap a rack tile or a family to see what you can do with it, or end your turn.', 'ラックのタイルや家族をタップすると、できることが表示されます。終わるならパス。'),
    discard: L(ctx, 'Your rack holds 6 or more: discard 1 tile (it leaves the game).', 'ラックが6枚以上です：1枚捨ててください（ゲームから除外）。'),
  }[view.phase] || null;
}

function supply(view, ctx) {
  const holder = view.double_seven;
  return h('div', { class: 'ds-supply' },
    h('span', { class: 'stat ds-sevens-left' }, token(false, 22), h('span', { class: 'stat-label' }, L(ctx, ' 7 tokens left: ', ' 残りの「7」トークン：')), h('strong', {}, String(view.sevens_left))),
    h('span', { class: 'stat ds-77' }, token(true, 22), ' ', holder === null || holder === undefined
      ? h('span', { class: 'stat-label' }, L(ctx, 'The 77 token is still free', '「77」トークンはまだ誰も持っていません'))
      : h('span', {}, L(ctx, `The 77 token: ${ctx.name(holder)}`, `「77」トークン：${ctx.name(holder)}`))));
}

function reserve(view, ctx) {
  const pile = h('span', { class: 'pile pile-el', dataset: { tile: 'pile' }, 'aria-label': L(ctx, `Face-down pile: ${view.pile} tiles`, `裏向きの山：${view.pile}枚`) },
    backTile(ctx), h('span', { class: 'pile-count' }, L(ctx, `${view.pile} face down`, `裏向き${view.pile}枚`)));
  // The pile and the face-up tiles are buttons, and so are the words in the sticky area: on a
  // phone the reserve may be scrolled away.
  bind(pile, 'draw', ctx, { keepButton: true });
  const display = h('span', { class: 'ds-display', 'aria-label': L(ctx, 'Face-up tiles', '表向きのタイル') },
    Object.entries(view.display || {}).flatMap(([a, n]) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(bind(tile(a, ctx), `take ${a}`, ctx, { keepButton: true }));
      return out;
    }),
    Object.values(view.display || {}).some((n) => n > 0) ? null : h('span', { class: 'muted empty' }, L(ctx, 'no face-up tile', '表向きのタイルなし')));
  const removed = Object.entries(view.removed || {});
  return h('div', { class: 'ds-reserve' }, pile, display,
    h('span', { class: 'ds-removed', 'aria-label': L(ctx, 'Out of the game', 'ゲームから除外') },
      removed.length ? [h('span', { class: 'muted' }, L(ctx, 'Out of the game: ', '除外：')), removed.map(([a, n]) => tile(a, ctx, n, 'small'))] : null));
}

function playerPanel(view, fams, i, ctx) {
  const rack = view.racks[i];
  const known = Object.entries(rack.known || {});
  return h('section', {
    class: `ds-player${view.to_move === i ? ' to-move' : ''}${ctx.seat === i ? ' mine' : ''}`, dataset: { seat: i }, 'aria-label': ctx.name(i),
  },
  h('div', { class: 'ds-who' },
    h('strong', { class: 'who' }, ctx.name(i)),
    view.double_seven === i ? h('span', { class: 'tag seven' }, token(true, 18), L(ctx, ' 77 token', ' 「77」トークン')) : null,
    view.end_triggered_by === i ? h('span', { class: 'tag warn' }, L(ctx, 'ended the game', '終了のきっかけ')) : null),
  h('div', { class: 'ds-facts' },
    h('span', { class: 'stat' }, h('span', { class: 'stat-label' }, L(ctx, 'Score ', '得点 ')), h('strong', {}, String((view.scores || [])[i] ?? 0))),
    h('span', { class: 'stat ds-tokens' }, token(false, 18), h('span', { class: 'stat-label' }, L(ctx, ' 7 tokens: ', ' 「7」トークン：')), h('strong', {}, String(view.sevens[i]))),
    h('span', { class: 'stat ds-rack', dataset: { seat: i } }, h('span', { class: 'stat-label' }, L(ctx, 'Rack: ', 'ラック：')), h('strong', {}, L(ctx, plural(rack.size, 'tile', 'tiles'), `${rack.size}枚`)))),
  known.length && i !== ctx.seat ? h('div', { class: 'known' }, h('span', { class: 'muted' }, L(ctx, 'Known on the rack: ', '公開されたラック：')), known.map(([a, n]) => tile(a, ctx, n, 'small'))) : null,
  h('div', { class: 'families' }, fams.length ? fams.map((f) => family(f, i, ctx)) : h('span', { class: 'muted' }, L(ctx, 'No family yet', 'まだ家族はありません'))));
}

function draw(view, ctx) {
  const head = h('div', { class: 'ds-head' },
    h('span', { class: 'ds-phase' }, view.to_move >= 0 ? L(ctx, `${ctx.name(view.to_move)}: `, `${ctx.name(view.to_move)}：`) : '', phaseWords(view, ctx)),
    view.two_for_one_used ? h('span', { class: 'tag' }, L(ctx, 'Two for one used this turn', 'このターンは2対1を使用済み')) : null,
    view.end_triggered_by !== null && view.end_triggered_by !== undefined && view.phase !== 'over'
      ? h('span', { class: 'tag warn' }, L(ctx, 'Last turns: everyone else plays once more', '最終ターン：他の人はあと1ターンずつ')) : null);
  return h('div', { class: 'double-seven' }, head, supply(view, ctx), reserve(view, ctx),
    h('div', { class: 'ds-players' }, view.families.map((fams, i) => playerPanel(view, fams, i, ctx))));
}

/** My rack (tiles with counts; a tile picked keeps only the moves that use it). */
function dock(view, ctx) {
  if (!view.rack) return null;
  const tiles = Object.entries(view.rack);
  return h('div', { class: 'rack', 'aria-label': L(ctx, 'Your rack', 'あなたのラック') },
    h('span', { class: 'rack-label' }, L(ctx, 'Your rack', 'あなたのラック')),
    tiles.length ? tiles.map(([a, n]) => ctx.pickable(tile(a, ctx, n), `tile:${a}`)) : h('span', { class: 'muted' }, L(ctx, 'empty', '空')));
}

// ----- moves by selection -------------------------------------------------------------------

/** Whether notation `a` uses the picked piece `key` ('tile:fox', 'fam:fox3+1', 'fam:2:frog4'). */
function matches(a, key) {
  const words = a.split(' ');
  const verb = words[0];
  if (key.startsWith('tile:')) {
    const animal = key.slice(5);
    const fam = (w) => parseFamily(w);
    if (verb === 'start') {
      const f = fam(words[1]);
      return Boolean(f && (f.animal === animal || (animal === 'clover' && f.clovers)));
    }
    if (verb === 'expand') {
      const w = words[3] || '';
      const f = fam(w);
      return Boolean(f && (f.animal === animal || (animal === 'clover' && f.clovers)));
    }
    if (verb === 'retrieve') {
      const f = fam((words[1] || '').split(':')[1]);
      return Boolean(f && f.animal === animal);
    }
    if (verb === 'two-for-one') return words.slice(1).includes(animal);
    if (verb === 'discard') return words[1] === animal;
    return false;
  }
  if (key.startsWith('fam:')) return words.includes(key.slice(4));
  return words.includes(key);
}

/** The picked piece in words, for the "showing moves with …" line. */
function selectionLabel(key, ctx) {
  if (key.startsWith('tile:')) return [pictogram(key.slice(5), 18), ' ', animalName(key.slice(5), ctx.lang)];
  if (key.startsWith('fam:')) {
    const rest = key.slice(4);
    const [seat, fam] = rest.includes(':') ? rest.split(':') : [ctx.seat, rest];
    const f = parseFamily(fam);
    if (!f) return rest;
    return Number(seat) === ctx.seat ? L(ctx, `your family of ${familyWords(f, ctx)}`, `自分の家族（${familyWords(f, ctx)}）`)
      : L(ctx, `${ctx.name(Number(seat))}'s family of ${familyWords(f, ctx)}`, `${ctx.name(Number(seat))}の家族（${familyWords(f, ctx)}）`);
  }
  return key;
}

/** Move groups in the order a turn goes, with their headings. */
function groups(ctx) {
  return [
    ['take', 'draw', L(ctx, 'Draw', '引く')],
    ['rainbow', 'no-rainbow', L(ctx, 'Rainbow', 'レインボー')],
    ['start', null, L(ctx, 'Start a family', '家族を作る')],
    ['expand', null, L(ctx, 'Expand a family', '家族を増やす')],
    ['exchange', null, L(ctx, 'Exchange families of the same size', '同じ枚数の家族を交換')],
    ['retrieve', null, L(ctx, 'Retrieve a clover', 'クローバーを取り戻す')],
    ['two-for-one', null, L(ctx, 'Two for one', '2対1')],
    ['discard', null, L(ctx, 'Discard', '捨てる')],
    ['pass', null, L(ctx, 'End your turn', 'ターンを終える')],
  ].map(([a, b, title]) => ({ verbs: [a, b].filter(Boolean), title }));
}

// ----- moments ------------------------------------------------------------------------------

const panel = (st, seat) => st.board.querySelector(`.ds-player[data-seat="${seat}"]`);
const rackOf = (st, seat) => (seat === st.ctx.seat && st.dock.querySelector('.rack')) || panel(st, seat)?.querySelector('.ds-rack');
const famsOf = (st, seat) => panel(st, seat); // the player's name, facts and families
const famEl = (st, seat, fam) => panel(st, seat)?.querySelector(`.family[data-family="${CSS.escape(fam)}"]`);

function familyFromKey(fam, seat, st) {
  const f = parseFamily(fam);
  return f ? family(f, seat, { ...st.ctx, pickable: (el) => el }) : null;
}

const moments = {
  async flip(ev, st) {
    const display = st.board.querySelector('.ds-display');
    display?.querySelector('.empty')?.remove();
    await arrive(st.q, st.board.querySelector('.pile'), display, tile(ev.data.tile, st.ctx));
    await st.q.wait(300);
  },
  async take(ev, st) {
    const from = st.board.querySelector(`.ds-display .tile[data-tile="${ev.data.tile}"]`);
    await fly(st.q, from, rackOf(st, ev.seat), tile(ev.data.tile, st.ctx));
    if (from) from.remove();
    pulse(rackOf(st, ev.seat));
    await st.q.wait(250);
  },
  async draw(ev, st) {
    await fly(st.q, st.board.querySelector('.pile'), rackOf(st, ev.seat), backTile(st.ctx));
    pulse(rackOf(st, ev.seat));
    await st.q.wait(200);
  },
  async drew(ev, st) {
    if (ev.seat === st.ctx.seat) {
      await banner(st.q, st.layer, [L(st.ctx, 'You drew ', '引いたのは'), tile(ev.data.tile, st.ctx)], 'info', 800, [st.board.querySelector('.ds-reserve'), st.board.querySelector('.ds-head')]);
    }
  },
  async start(ev, st) {
    const fams = panel(st, ev.seat)?.querySelector('.families');
    if (fams) fams.querySelector('.muted')?.remove();
    await arrive(st.q, rackOf(st, ev.seat), fams, familyFromKey(ev.data.family, ev.seat, st));
    await st.q.wait(400);
  },
  async expand(ev, st) {
    const el = famEl(st, ev.seat, ev.data.family);
    await fly(st.q, rackOf(st, ev.seat), el, tile(parseFamily(ev.data.new_family)?.animal || 'clover', st.ctx));
    const next = familyFromKey(ev.data.new_family, ev.seat, st);
    if (el && next) { el.replaceWith(next); pulse(next); }
    await st.q.wait(400);
  },
  async exchange(ev, st) {
    const mine = famEl(st, ev.seat, ev.data.family);
    const theirs = famEl(st, ev.data.with_seat, ev.data.other);
    await Promise.all([fly(st.q, mine, theirs, mine), fly(st.q, theirs, mine, theirs)]);
    if (mine && theirs) {
      const a = familyFromKey(ev.data.other, ev.seat, st);
      const b = familyFromKey(ev.data.family, ev.data.with_seat, st);
      mine.replaceWith(a);
      theirs.replaceWith(b);
      pulse(a);
      pulse(b);
    }
    await banner(st.q, st.layer, L(st.ctx, `Exchange: ${st.ctx.name(ev.seat)} ⇄ ${st.ctx.name(ev.data.with_seat)}`, `交換：${st.ctx.name(ev.seat)} ⇄ ${st.ctx.name(ev.data.with_seat)}`), 'info', 1000, [famsOf(st, ev.seat), famsOf(st, ev.data.with_seat)]);
  },
  async retrieve(ev, st) {
    const el = famEl(st, ev.data.from_seat, ev.data.family);
    await fly(st.q, rackOf(st, ev.seat), el, tile(ev.data.animal || parseFamily(ev.data.family)?.animal || 'clover', st.ctx));
    await fly(st.q, el, rackOf(st, ev.seat), tile('clover', st.ctx));
    const next = ev.data.new_family ? familyFromKey(ev.data.new_family, ev.data.from_seat, st) : null;
    if (el && next) { el.replaceWith(next); pulse(next); } else if (el) pulse(el);
    await banner(st.q, st.layer, [tile('clover', st.ctx), L(st.ctx, ` ${st.ctx.name(ev.seat)} retrieves a clover`, ` ${st.ctx.name(ev.seat)}がクローバーを取り戻した`)], 'info', 1000, [famsOf(st, ev.data.from_seat), famsOf(st, ev.seat)]);
  },
  async two_for_one(ev, st) {
    const display = st.board.querySelector('.ds-display');
    display?.querySelector('.empty')?.remove();
    for (const t of ev.data.tiles || []) await arrive(st.q, rackOf(st, ev.seat), display, tile(t, st.ctx));
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)}: two for one`, `${st.ctx.name(ev.seat)}：2対1`), 'info', 800, st.board.querySelector('.ds-reserve'));
  },
  async discard(ev, st) {
    await fly(st.q, rackOf(st, ev.seat), st.board.querySelector('.ds-removed'), tile(ev.data.tile, st.ctx));
    await st.q.wait(300);
  },
  async rainbow(ev, st) {
    const tiles = Object.entries(ev.data.rack || {}).map(([a, n]) => tile(a, st.ctx, n, 'small'));
    await banner(st.q, st.layer, [h('span', { class: 'moment-title' }, L(st.ctx, `${st.ctx.name(ev.seat)}: Rainbow!`, `${st.ctx.name(ev.seat)}：レインボー！`)), h('span', { class: 'moment-tiles' }, tiles)], 'rainbow', 1600, panel(st, ev.seat));
  },
  async clear(ev, st) {
    pulse(panel(st, ev.seat), 'glow');
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)}: Clear!`, `${st.ctx.name(ev.seat)}：空っぽ！`), 'seven', 1100, panel(st, ev.seat));
  },
  async pass(ev, st) {
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)}: Pass!`, `${st.ctx.name(ev.seat)}：パス！`), 'info', 600, panel(st, ev.seat));
  },
  async seven(ev, st) {
    const el = famEl(st, ev.seat, ev.data.family) || panel(st, ev.seat);
    await fly(st.q, st.board.querySelector('.ds-sevens-left'), panel(st, ev.seat)?.querySelector('.ds-tokens'), token(false, 28));
    pulse(el, 'glow');
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)}: Seven!`, `${st.ctx.name(ev.seat)}：セブン！`), 'seven', 1300, [el, famsOf(st, ev.seat)]);
  },
  async double_seven(ev, st) {
    await fly(st.q, st.board.querySelector('.ds-77'), panel(st, ev.seat), token(true, 32));
    pulse(panel(st, ev.seat), 'glow');
    await banner(st.q, st.layer, L(st.ctx, `${st.ctx.name(ev.seat)}: Double Seven!`, `${st.ctx.name(ev.seat)}：ダブルセブン！`), 'seven', 1600, famsOf(st, ev.seat));
  },
  async end_triggered(ev, st) {
    await banner(st.q, st.layer, L(st.ctx, 'Last turns: everyone else plays once more', '最終ターン：他の人はあと1ターンずつ'), 'warn', 1300);
  },
  async game_over(ev, st) {
    await banner(st.q, st.layer, L(st.ctx, 'Game over', 'ゲーム終了'), 'seven', 900);
  },
};

function mark(events, board) {
  for (const ev of events) {
    let el = null;
    if (ev.kind === 'start') el = board.querySelector(`.ds-player[data-seat="${ev.seat}"] .family[data-family="${CSS.escape(ev.data.family)}"]`);
    if (ev.kind === 'expand') el = board.querySelector(`.ds-player[data-seat="${ev.seat}"] .family[data-family="${CSS.escape(ev.data.new_family)}"]`);
    if (ev.kind === 'exchange') {
      el = board.querySelector(`.ds-player[data-seat="${ev.seat}"] .family[data-family="${CSS.escape(ev.data.other)}"]`);
      board.querySelector(`.ds-player[data-seat="${ev.data.with_seat}"] .family[data-family="${CSS.escape(ev.data.family)}"]`)?.classList.add('last-move');
    }
    if (ev.kind === 'retrieve' && ev.data.new_family) {
      el = board.querySelector(`.ds-player[data-seat="${ev.data.from_seat}"] .family[data-family="${CSS.escape(ev.data.new_family)}"]`);
    }
    if (ev.kind === 'flip') el = board.querySelector(`.ds-display .tile[data-tile="${ev.data.tile}"]`);
    if (el) el.classList.add('last-move');
  }
}

// ----- the end ------------------------------------------------------------------------------

function breakdown(view, ctx) {
  const sb = view.score_breakdown;
  const winners = view.winners || [];
  if (!Array.isArray(sb)) {
    return h('table', { class: 'breakdown' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, L(ctx, 'Tiles in families', '家族のタイル')), h('th', {}, L(ctx, '7 tokens', '「7」トークン')), h('th', {}, L(ctx, '77 token', '「77」トークン')), h('th', {}, L(ctx, 'Score', '得点')))),
      h('tbody', {}, view.families.map((fams, i) => h('tr', { class: winners.includes(i) ? 'winner' : '' },
        h('th', { scope: 'row' }, ctx.name(i)),
        h('td', {}, String(fams.reduce((s, f) => s + f.size, 0))),
        h('td', {}, String(view.sevens[i])),
        h('td', {}, view.double_seven === i ? '+2' : ''),
        h('td', {}, String((view.scores || [])[i] ?? ''))))));
  }
  const fams = (b) => (b.families || []).map((f) => h('span', {
    class: 'fam-points', title: animalName(f.animal, ctx.lang, f.size),
    'aria-label': L(ctx, `${animalName(f.animal, 'en', f.size)} ${f.points}`, `${animalName(f.animal, 'ja')} ${f.points}点`),
  }, pictogram(f.animal, 20), ` ${f.points}`));
  const tie = view.tie_break;
  return h('div', { class: 'end-double-seven' },
    h('table', { class: 'breakdown ds-breakdown' },
      h('thead', {}, h('tr', {}, h('th', {}, ''),
        h('th', { scope: 'col' }, L(ctx, 'Families (1 point a tile)', '家族（1枚1点）')),
        h('th', { scope: 'col' }, L(ctx, '7 tokens (+1 each)', '「7」トークン（各+1）')),
        h('th', { scope: 'col' }, L(ctx, '77 token (+2)', '「77」トークン（+2）')),
        h('th', { scope: 'col' }, L(ctx, 'Total', '合計')))),
      h('tbody', {}, sb.map((b, i) => h('tr', { class: winners.includes(i) ? 'winner' : '' },
        h('th', { scope: 'row' }, ctx.name(i), winners.includes(i) ? h('span', { class: 'tag win' }, L(ctx, 'Winner', '勝者')) : null),
        // (on a phone each row is a card: the cells say what they are, data-label)
        h('td', { class: 'ds-fams', dataset: { label: L(ctx, 'Families', '家族') } }, h('span', { class: 'fam-list' }, fams(b)), ' ', h('strong', { class: 'fam-total' }, L(ctx, `= ${b.tile_points}`, `= ${b.tile_points}点`))),
        h('td', { class: 'ds-sevens', dataset: { label: L(ctx, '7 tokens', '「7」トークン') } }, b.sevens ? `+${b.sevens}` : '0'),
        h('td', { class: 'ds-77', dataset: { label: L(ctx, '77 token', '「77」トークン') } }, b.seventy_seven ? `+${b.seventy_seven}` : '—'),
        h('td', { class: 'ds-total', dataset: { label: L(ctx, 'Total', '合計') } }, h('strong', {}, String(b.total))))))),
    tieWords(tie, ctx));
}

/** The tie-break in words (DS-8.2): the 77 token decides, or the tied players share the win. */
function tieWords(tie, ctx) {
  if (!tie || !Array.isArray(tie.tied)) return null;
  const en = tie.tied.map((s) => ctx.name(s)).join(' and ');
  const ja = tie.tied.map((s) => ctx.name(s)).join('と');
  if (tie.by === '77' && tie.winner !== null && tie.winner !== undefined) {
    return h('p', { class: 'tie-break' }, L(ctx,
      `${en} tied on points; ${ctx.name(tie.winner)} holds the 77 token and wins the tie.`,
      `${ja}が同点。「77」トークンを持つ${ctx.name(tie.winner)}の勝ち。`));
  }
  return h('p', { class: 'tie-break' }, L(ctx, `${en} tied on points and share the win.`, `${ja}が同点で、勝利を分け合う。`));
}

export default {
  draw, dock, moments, mark, breakdown, matches, selectionLabel, groups, hint, moveLabel,
  quiet: new Set(['dealt', 'turn', 'first_player']),
};

export { ANIMALS };
