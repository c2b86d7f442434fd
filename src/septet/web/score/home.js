// /score: pick a game, its options and the players; start a shared sheet.
import { h, replace, toast } from '../dom.js';
import { call, recent, remember, title } from './common.js';
import { st } from './text.js';

const DEFAULT_PLAYERS = { flip7: 4, 'double-seven': 3, 'seven-shot': 4 };
// The player counts and option defaults are the engines', read from the server's game
// descriptions (GET /api/games) when the page mounts: [min, max] per game, in this order.
const LIMITS = { flip7: null, 'double-seven': null, 'seven-shot': null };

async function loadGames() {
  const defaults = {};
  for (const g of await call('/api/games')) {
    if (!(g.name in LIMITS)) continue;
    LIMITS[g.name] = [g.min_players, g.max_players];
    defaults[g.name] = Object.fromEntries(g.options.map((o) => [o.name, o.default]));
  }
  return defaults;
}

export async function mount(app) {
  const d = await loadGames();
  const form = {
    game: 'flip7',
    edition: d.flip7.edition,
    brutal: d.flip7.brutal,
    target: d.flip7.target,
    decks: String(d.flip7.decks),
    ssTarget: d['seven-shot'].target,
    doubleSeven: d['double-seven'].double_seven,
    names: ['', '', '', ''],
  };

  function setGame(game) {
    form.game = game;
    const [lo, hi] = LIMITS[game];
    // Keep the names typed so far; otherwise the game's usual number of players.
    let filled = 0;
    form.names.forEach((n, i) => { if (n.trim()) filled = i + 1; });
    const want = Math.min(hi, Math.max(lo, filled, DEFAULT_PLAYERS[game]));
    while (form.names.length < want) form.names.push('');
    form.names.length = want;
    render();
  }

  async function start(event) {
    event.preventDefault();
    const names = form.names.map((n, i) => n.trim() || st('player_n', { n: i + 1 }));
    const options = form.game === 'flip7'
      ? { edition: form.edition, brutal: form.edition === 'vengeance' && form.brutal, target: Number(form.target),
        decks: form.decks === 'auto' ? 'auto' : Number(form.decks) }
      : form.game === 'seven-shot' ? { target: Number(form.ssTarget) } : { double_seven: form.doubleSeven };
    try {
      const sheet = await call('/api/score/sheets', { method: 'POST', body: { game: form.game, options, players: names } });
      remember(sheet);
      location.href = sheet.link;
    } catch (err) {
      toast(err.code === 'network' ? st('err.network') : err.message);
    }
  }

  function options() {
    if (form.game === 'flip7') {
      return [
        h('div', { class: 'sk-seg', role: 'group', 'aria-label': st('edition') },
          ['vengeance', 'classic'].map((ed) => h('button', {
            type: 'button', 'aria-pressed': String(form.edition === ed),
            onclick: () => { form.edition = ed; render(); },
          }, st(ed)))),
        form.edition === 'vengeance' && h('label', { class: 'sk-check' },
          h('input', { type: 'checkbox', checked: form.brutal, onchange: (e) => { form.brutal = e.target.checked; } }),
          st('brutal')),
        h('label', { class: 'sk-field' }, st('target'),
          h('input', { type: 'number', inputmode: 'numeric', min: 1, max: 10000, value: form.target, name: 'target',
            oninput: (e) => { form.target = e.target.value; } })),
        h('label', { class: 'sk-field' }, st('decks'),
          h('select', { name: 'decks', onchange: (e) => { form.decks = e.target.value; } },
            ['auto', '1', '2'].map((v) => h('option', { value: v, selected: String(form.decks) === v }, st(`decks_${v}`))))),
      ];
    }
    if (form.game === 'seven-shot') {
      return h('label', { class: 'sk-field' }, st('target'),
        h('input', { type: 'number', inputmode: 'numeric', min: 1, max: 100, value: form.ssTarget,
          oninput: (e) => { form.ssTarget = e.target.value; } }));
    }
    return h('fieldset', { class: 'sk-radios' }, h('legend', {}, st('ds_rule')),
      ['two_families', 'second_token'].map((v) => h('label', { class: 'sk-check' },
        h('input', { type: 'radio', name: 'ds77', checked: form.doubleSeven === v, onchange: () => { form.doubleSeven = v; } }),
        st(v))));
  }

  function render() {
    const [lo, hi] = LIMITS[form.game];
    const list = recent();
    replace(app,
      h('section', { class: 'sk-card' },
        h('h1', {}, st('title')),
        h('p', { class: 'sk-muted' }, st('intro')),
        h('form', { onsubmit: start, class: 'sk-form' },
          h('div', { class: 'sk-games', role: 'group', 'aria-label': st('pick_game') },
            Object.keys(LIMITS).map((g) => h('button', {
              type: 'button', class: 'sk-game', 'aria-pressed': String(form.game === g),
              dataset: { game: g }, onclick: () => setGame(g),
            }, title(g)))),
          h('h2', {}, st('options')),
          options(),
          h('h2', {}, st('players')),
          h('ol', { class: 'sk-names' }, form.names.map((name, i) => h('li', {},
            h('input', { type: 'text', maxlength: 40, value: name, placeholder: st('player_n', { n: i + 1 }),
              'aria-label': st('player_n', { n: i + 1 }), autocomplete: 'off',
              oninput: (e) => { form.names[i] = e.target.value; } }),
            form.names.length > lo && h('button', { type: 'button', class: 'sk-icon', 'aria-label': st('remove_player'),
              onclick: () => { form.names.splice(i, 1); render(); } }, '×')))),
          form.names.length < hi && h('button', { type: 'button', onclick: () => { form.names.push(''); render(); } }, st('add_player')),
          h('button', { type: 'submit', class: 'sk-primary sk-big', id: 'sk-start' }, st('start')))),
      h('section', { class: 'sk-card' },
        h('p', {}, h('a', { href: '/score/flip7/odds', class: 'sk-button sk-link-big' }, st('odds_link'))),
        h('h2', {}, st('print_link')),
        h('div', { class: 'sk-links' },
          Object.keys(LIMITS).map((g) => h('a', { href: `/score/print/${g}`, class: 'sk-button' }, title(g))))),
      list.length > 0 && h('section', { class: 'sk-card' },
        h('h2', {}, st('recent')),
        h('ul', { class: 'sk-recent' }, list.map((s) => h('li', {},
          h('a', { href: `/score/s/${s.id}` }, `${title(s.game)} — ${s.players.join(', ')}`),
          ' ', h('span', { class: 'sk-muted' }, new Date(s.at).toLocaleDateString()))))));
  }

  render();
  return { render };
}
