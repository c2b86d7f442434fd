// /score/flip7/odds: tap the cards seen since the shuffle and your row; the server answers with
// the exact programme of `septet advise flip7` (bust chance, value of staying and of hitting).
import { h, replace } from '../dom.js';
import { lang } from '../i18n.js';
import { call, cardName } from './common.js';
import { st } from './text.js';

const KEY = 'septet.score.odds';

export async function mount(app) {
  const params = new URLSearchParams(location.search);
  const saved = (() => { try { return JSON.parse(sessionStorage.getItem(KEY) || '{}'); } catch { return {}; } })();
  const s = {
    edition: params.get('edition') === 'classic' ? 'classic' : (saved.edition || 'vengeance'),
    alone: Boolean(saved.alone), target: 'mine',
    decks: params.get('decks') ? (params.get('decks') === '2' ? 2 : 1) : (saved.decks === 2 ? 2 : 1),
    mine: saved.mine || [], seen: saved.seen || [],
    cards: [], result: null, error: '', timer: null, ctrl: null,
  };
  if ((params.get('edition') && saved.edition && saved.edition !== s.edition)
    || (params.get('decks') && saved.decks && saved.decks !== s.decks)) { s.mine = []; s.seen = []; }

  async function loadCards() {
    s.cards = (await call(`/api/score/flip7/cards?edition=${s.edition}&decks=${s.decks}`)).cards;
  }

  function left(token) {
    const c = s.cards.find((x) => x.token === token);
    return c.count - s.mine.filter((t) => t === token).length - s.seen.filter((t) => t === token).length;
  }

  function changed() {
    sessionStorage.setItem(KEY, JSON.stringify({ edition: s.edition, decks: s.decks, alone: s.alone, mine: s.mine, seen: s.seen }));
    clearTimeout(s.timer);
    s.timer = setTimeout(ask, 250);
    render();
  }

  async function ask() {
    if (s.ctrl) s.ctrl.abort();
    s.ctrl = new AbortController();
    s.pending = true;
    render();
    try {
      s.result = await call('/api/score/flip7/odds', {
        method: 'POST', signal: s.ctrl.signal,
        body: { edition: s.edition, decks: s.decks, row: s.mine, seen: s.seen, alone: s.alone },
      });
      s.error = '';
      s.pending = false;
    } catch (err) {
      if (err.name === 'AbortError') return;
      s.pending = false;
      s.result = null;
      s.error = err.code === 'network' ? st('err.network') : err.message;
    }
    render();
  }

  function pad(group) {
    return h('div', { class: `sk-pad sk-pad-${group}` }, s.cards.filter((c) => c.group === group).map((c) => {
      const n = left(c.token);
      const inMine = s.mine.filter((t) => t === c.token).length;
      return h('button', {
        type: 'button', class: `sk-cardbtn sk-${group}${inMine ? ' sk-has' : ''}`, dataset: { card: c.token }, disabled: n <= 0,
        onclick: () => { (s.target === 'mine' ? s.mine : s.seen).push(c.token); changed(); },
      }, lang() === 'ja' ? c.ja : c.en, h('span', { class: 'sk-left' }, st('odds.left_n', { n })));
    }));
  }

  function chips(list, label) {
    return h('div', { class: 'sk-chips', 'aria-label': label }, list.length
      ? list.map((tok, i) => h('button', { type: 'button', class: 'sk-chip', onclick: () => { list.splice(i, 1); changed(); } },
        cardName(s.cards, tok), ' ×'))
      : h('span', { class: 'sk-muted' }, '—'));
  }

  function results() {
    const r = s.result;
    if (s.error) return h('p', { class: 'sk-error', role: 'alert', id: 'sk-error' }, s.error);
    if (!r) return h('p', { class: 'sk-muted' }, s.pending ? st('odds.computing') : st('odds.empty'));
    const pct = (x) => `${(100 * x).toFixed(1)}%`;
    // points as players say them: whole points without decimals ("33", not "33.00"), else one
    // decimal ("26.5"); in Japanese with the unit (33点)
    const pts = (x) => st('odds.points', { n: Math.abs(x - Math.round(x)) < 0.05 ? String(Math.round(x)) : x.toFixed(1) });
    return h('div', { class: 'sk-odds', id: 'sk-odds' },
      h('div', { class: `sk-advice sk-${r.action}`, id: 'sk-advice' },
        h('span', { class: 'sk-label' }, st('odds.advice')),
        h('strong', {}, r.action === 'hit' ? st('odds.hit_word') : st('odds.stay_word'))),
      h('dl', { class: 'sk-facts' },
        h('dt', {}, st('odds.bust')), h('dd', { id: 'sk-bust' }, pct(r.bust_probability)),
        h('dt', {}, st('odds.stay')), h('dd', { id: 'sk-stay' }, r.stay === null ? '—' : pts(r.stay)),
        h('dt', {}, st('odds.hit')), h('dd', { id: 'sk-hit' }, pts(r.hit)),
        h('dt', {}, st('odds.left')), h('dd', { id: 'sk-left' }, String(r.left))),
      r.stay === null && h('p', { class: 'sk-muted' }, st('odds.no_stay')),
      r.method !== 'exact' && h('p', { class: 'sk-muted' }, st(`odds.${r.method}`)),
      s.pending && h('p', { class: 'sk-muted', id: 'sk-computing' }, st('odds.computing')));
  }

  function render() {
    document.title = `${st('odds.title')} — ${st('brand')}`;
    replace(app,
      h('section', { class: 'sk-card' },
        h('h1', {}, st('odds.title')),
        h('p', { class: 'sk-muted sk-small' }, st('odds.intro')),
        h('div', { class: 'sk-seg', role: 'group', 'aria-label': st('edition') }, ['vengeance', 'classic'].map((ed) => h('button', {
          type: 'button', 'aria-pressed': String(s.edition === ed),
          onclick: async () => { s.edition = ed; s.mine = []; s.seen = []; await loadCards(); changed(); },
        }, st(ed)))),
        h('div', { class: 'sk-seg', role: 'group', 'aria-label': st('decks'), id: 'sk-decks' }, [1, 2].map((n) => h('button', {
          type: 'button', 'aria-pressed': String(s.decks === n), dataset: { decks: String(n) },
          onclick: async () => { s.decks = n; s.mine = []; s.seen = []; await loadCards(); changed(); },
        }, st(`decks_${n}`)))),
        h('label', { class: 'sk-check' }, h('input', { type: 'checkbox', checked: s.alone, id: 'sk-alone',
          onchange: (e) => { s.alone = e.target.checked; changed(); } }), st('odds.alone'))),
      h('section', { class: 'sk-card sk-sticky-result' }, results()),
      h('section', { class: 'sk-card' },
        h('div', { class: 'sk-seg', role: 'tablist' }, ['mine', 'seen'].map((t) => h('button', {
          type: 'button', role: 'tab', 'aria-selected': String(s.target === t), dataset: { target: t },
          onclick: () => { s.target = t; render(); },
        }, `${st(`odds.${t}`)} (${(t === 'mine' ? s.mine : s.seen).length})`))),
        h('h3', {}, st('odds.mine')), chips(s.mine, st('odds.mine')),
        h('h3', {}, st('odds.seen')), chips(s.seen, st('odds.seen')),
        h('p', {}, h('button', { type: 'button', id: 'sk-shuffle', onclick: () => { s.mine = []; s.seen = []; changed(); } }, st('odds.new_shuffle'))),
        h('h3', {}, st('numbers')), pad('number'),
        h('h3', {}, st('specials')), pad('special'),
        h('h3', {}, st('modifiers')), pad('modifier'),
        s.target === 'seen' && [h('h3', {}, st('actions')), pad('action')]));
  }

  await loadCards();
  s.mine = s.mine.filter((t) => s.cards.some((c) => c.token === t));
  s.seen = s.seen.filter((t) => s.cards.some((c) => c.token === t));
  render();
  ask();
  return { render };
}
