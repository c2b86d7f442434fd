// The Septet browser client: lobby, table (real-time over WebSocket) and replays.
// Every rule lives on the server: the page draws the view it is sent and offers exactly the
// legal moves the server lists.

import { api, me } from './api.js';
import { h, replace, toast } from './dom.js';
import { lang, onLang, pick, sentences, setLang, t } from './i18n.js';
import { rendererFor } from './games/index.js';
import { relabel } from './names.js';

const root = document.getElementById('app');
// Events shown briefly over the table as well as in the log.
const HIGHLIGHTS = new Set(['seven', 'double_seven', 'rainbow', 'clear', 'bust', 'flip7', 'trick_won', 'deal_end', 'round_end', 'game_end', 'game_over']);
let player = null;
let cleanup = () => {};
// The address friends reach this server at (septet serve --public-url); '' means this page's own.
let publicUrl = '';

function seatName(seat, table) {
  const s = table?.seats?.[seat];
  // Seats are numbered from 0, as in the engines' logs ("seat 2", "P2").
  if (!s) return `${t('seat')} ${seat}`;
  if (s.kind === 'bot') return `${t('bot')} ${seat} (${s.bot})`;
  return s.name || `${t('seat')} ${seat}`;
}

/** An engine text (log line, move) with its seat references ("P1", "seat 1") as display names. */
function named(text, table) {
  return relabel(text, (s) => seatName(s, table), table?.seats?.length ?? 0);
}

function showError(err) {
  const key = `err.${err.code}`;
  const text = t(key, { message: err.message });
  toast(text === key ? err.message : text);
}

// ----- header: language and identity ------------------------------------------------------
function drawHeader() {
  for (const b of document.querySelectorAll('.lang button')) {
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
  }
  document.querySelector('.brand').textContent = t('brand');
  replace(document.getElementById('me'), player ? player.name : '');
}

for (const b of document.querySelectorAll('.lang button')) {
  b.addEventListener('click', () => setLang(b.dataset.lang));
}
onLang(drawHeader);

function nameForm(onDone, initial = '') {
  const input = h('input', {
    id: 'name', name: 'name', maxlength: 32, required: true, value: initial,
    autocomplete: 'nickname', 'aria-label': t('your_name'),
  });
  const form = h('form', { class: 'card name-form', onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      player = (await api('/api/guest', { method: 'POST', body: { name: input.value } })).player;
      drawHeader();
      onDone();
    } catch (err) { showError(err); }
  } },
  h('label', { for: 'name' }, t('your_name')),
  h('p', { class: 'muted' }, t('name_hint')),
  h('div', { class: 'row' }, input, h('button', { type: 'submit', id: 'name-ok' }, t('continue'))));
  return form;
}

// ----- lobby ----------------------------------------------------------------------------------
async function lobbyPage() {
  let gamesList = [];
  let lists = { open: [], playing: [], finished: [] };
  let timer = null;
  const formState = { game: null, seats: [], options: {} };

  async function refresh() {
    try { lists = await api('/api/tables'); } catch (err) { /* keep the old lists */ }
    drawLists();
  }

  const listsBox = h('div', { class: 'lists' });
  const formBox = h('div');

  function tableLine(tbl, kind) {
    const names = tbl.seats.map((s) => (s.bot ? `${t('bot')} (${s.bot})` : (s.name || t('free_seat'))));
    const link = kind === 'finished'
      ? h('a', { href: `/r/${tbl.id}`, class: 'button' }, t('replay'))
      : h('a', { href: `/t/${tbl.id}`, class: 'button' }, kind === 'open' ? t('join') : t('watch'));
    return h('li', { class: 'table-line' },
      h('strong', {}, pick(tbl.title, tbl.game)), ' ', h('span', { class: 'muted' }, names.join(' · ')), ' ', link);
  }

  function drawLists() {
    const section = (key, items, kind) => h('section', { class: 'card' },
      h('h2', {}, t(key)),
      items.length ? h('ul', { class: 'plain' }, items.map((x) => tableLine(x, kind))) : h('p', { class: 'muted' }, t('none')));
    replace(listsBox,
      section('open_tables', lists.open, 'open'),
      section('playing_tables', lists.playing, 'playing'),
      section('finished_tables', lists.finished, 'finished'));
  }

  function currentGame() {
    return gamesList.find((g) => g.name === formState.game) || gamesList[0];
  }

  function setPlayers(n) {
    const g = currentGame();
    const bot = ['greedy', 'random'].find((b) => g.bots.includes(b)) || g.bots[0];
    const seats = [];
    for (let i = 0; i < n; i++) seats.push(formState.seats[i] || (i === 0 ? 'you' : `bot:${bot}`));
    seats[0] = 'you';
    formState.seats = seats;
  }

  function drawForm() {
    const g = currentGame();
    if (!g) { replace(formBox); return; }
    if (!formState.seats.length) setPlayers(Math.max(g.min_players, Math.min(3, g.max_players)));
    const gameSelect = h('select', { id: 'game', onchange: (ev) => {
      formState.game = ev.target.value; formState.seats = []; formState.options = {}; drawForm();
    } }, gamesList.map((x) => h('option', { value: x.name, selected: x.name === g.name }, pick(x.titles, x.name))));
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
    const countSelect = h('select', { id: 'players', onchange: (ev) => { setPlayers(Number(ev.target.value)); drawForm(); } },
      counts.map((n) => h('option', { value: n, selected: n === formState.seats.length }, String(n))));
    const seatRows = formState.seats.map((choice, i) => {
      if (i === 0) return h('li', {}, `${t('seat')} 0: `, h('strong', {}, t('you')));
      const sel = h('select', { id: `seat-${i}`, 'aria-label': `${t('seat')} ${i}`, onchange: (ev) => { formState.seats[i] = ev.target.value; } },
        h('option', { value: 'human', selected: choice === 'human' }, t('human')),
        g.bots.map((b) => h('option', { value: `bot:${b}`, selected: choice === `bot:${b}` }, `${t('bot')}: ${b}`)));
      return h('li', {}, h('label', { for: `seat-${i}` }, `${t('seat')} ${i}: `), sel);
    });
    const optionRows = g.options.map((o) => {
      const id = `opt-${o.name}`;
      const value = formState.options[o.name] ?? o.default;
      const kind = o.kind || (typeof o.default === 'boolean' ? 'bool' : typeof o.default === 'number' ? 'int' : 'text');
      // A cleared field means "the default": the option is left out and the engine's default applies.
      const set = (v) => { if (v === '' || v === null) delete formState.options[o.name]; else formState.options[o.name] = v; };
      let input;
      if (kind === 'bool') {
        input = h('input', { id, type: 'checkbox', checked: Boolean(value), onchange: (ev) => set(ev.target.checked) });
      } else if (kind === 'choice' && o.choices) {
        input = h('select', { id, onchange: (ev) => set(ev.target.value) },
          o.choices.map((c) => h('option', { value: c.value, selected: c.value === value }, pick(c, String(c.value)))));
      } else if (kind === 'int' || kind === 'float') {
        input = h('input', {
          id, type: 'number', value: value ?? '', placeholder: String(o.default ?? ''),
          step: kind === 'int' ? 1 : 'any',
          onchange: (ev) => set(ev.target.value.trim() === '' ? '' : Number(ev.target.value)),
        });
      } else {
        input = h('input', { id, value: value ?? '', placeholder: String(o.default ?? ''), maxlength: 64, onchange: (ev) => set(ev.target.value) });
      }
      const help = pick(o.help_i18n, o.help);
      const label = pick(o.label, o.name);
      return h('li', {}, h('label', { for: id, title: help }, `${label}: `), input, help ? h('small', { class: 'muted' }, ` ${help}`) : null);
    });
    replace(formBox, h('form', { class: 'card create', onsubmit: async (ev) => {
      ev.preventDefault();
      const seats = formState.seats.map((c) => (c.startsWith('bot:') ? { kind: 'bot', bot: c.slice(4) } : { kind: 'human' }));
      try {
        const tbl = await api('/api/tables', { method: 'POST', body: { game: g.name, options: formState.options, seats } });
        navigate(`/t/${tbl.id}`);
      } catch (err) { showError(err); }
    } },
    h('h2', {}, t('create_table')),
    h('div', { class: 'row' }, h('label', { for: 'game' }, t('game')), gameSelect, h('label', { for: 'players' }, t('players')), countSelect),
    h('ul', { class: 'plain seats-form' }, seatRows),
    optionRows.length ? h('details', {}, h('summary', {}, t('options')), h('ul', { class: 'plain' }, optionRows)) : null,
    h('button', { type: 'submit', id: 'create', class: 'primary' }, t('create'))));
  }

  function draw() {
    if (!player) {
      replace(root, nameForm(draw));
      return;
    }
    drawForm();
    drawLists();
    replace(root, h('div', { class: 'lobby' }, formBox, listsBox));
  }

  try { gamesList = await api('/api/games'); } catch (err) { showError(err); }
  formState.game = gamesList[0]?.name;
  draw();
  refresh();
  timer = setInterval(refresh, 5000);
  const off = onLang(draw);
  cleanup = () => { clearInterval(timer); off(); };
}

// ----- table ----------------------------------------------------------------------------------
async function tablePage(id) {
  let summary;
  try { summary = await api(`/api/tables/${id}`); } catch (err) { replace(root, h('p', { class: 'card' }, err.message)); return; }
  let msg = null;
  let ws = null;
  let closing = false;
  let fresh = true;
  let logItems = [];
  let waitingForAnswer = false;
  let selection = null; // a word picked on the board (an animal, a card) that filters the moves
  let retry = 0;
  let seatTimer = null;
  const renderer = rendererFor(summary.game);

  const board = h('div', { class: 'board', id: 'board' });
  const actions = h('div', { class: 'actions', id: 'actions' });
  const status = h('div', { class: 'status', id: 'status', role: 'status' });
  const seatsBox = h('ul', { class: 'plain seats', id: 'seats' });
  const logBox = h('ol', { class: 'log', id: 'log' });
  const lobbyBox = h('div', { id: 'lobby-box' });
  const resultBox = h('div', { id: 'result' });
  const banner = h('div', { class: 'banner', hidden: true }, t('reconnecting'));
  const rulesText = h('pre', { class: 'rules-text', id: 'rules-text' });
  const rulesBox = h('details', { class: 'card rules', ontoggle: async (ev) => {
    if (!ev.target.open) return;
    try {
      const r = await api(`/api/games/${summary.game}/rules?lang=${lang()}`);
      replace(rulesText, r.text);
    } catch (err) { showError(err); }
  } });

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = renderer.wantsText ? `?render=${lang()}` : '';
    ws = new WebSocket(`${proto}://${location.host}/ws/tables/${id}${query}`);
    fresh = true;
    ws.onopen = () => { retry = 0; banner.hidden = true; };
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = () => {
      if (closing) return;
      banner.hidden = false;
      retry = Math.min(retry + 1, 6);
      setTimeout(() => { if (!closing) connect(); }, 300 * 2 ** retry);
    };
  }

  function reconnect() {
    if (ws) { ws.onclose = null; ws.close(); }
    connect();
  }

  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
  }

  function play(action) {
    if (!msg || waitingForAnswer) return;
    waitingForAnswer = true;
    for (const b of actions.querySelectorAll('button')) b.disabled = true;
    send({ type: 'move', version: msg.version, action });
  }

  function onMessage(m) {
    if (m.type === 'state') {
      const seatChanged = msg && msg.seat !== m.seat;
      const wasFresh = fresh;
      if (fresh) { logItems = []; fresh = false; }
      logItems.push(...m.events);
      if (!wasFresh) {
        const big = m.events.filter((e) => HIGHLIGHTS.has(e.kind));
        if (big.length) toast(big.map((e) => named(pick(e, e.kind), m.table)).join(' · '), 'event');
      }
      if (logItems.length > 400) logItems = logItems.slice(-400);
      if (!msg || msg.version !== m.version) selection = null;
      msg = m;
      waitingForAnswer = false;
      draw();
      if (seatChanged) reconnect();
    } else if (m.type === 'error') {
      waitingForAnswer = false;
      // The server sends the reason in English and Japanese (message_ja); show ours.
      showError({ code: m.code, message: pick({ en: m.message, ja: m.message_ja }, m.message) });
      if (msg) drawActions();
    }
  }

  function drawStatus() {
    const tbl = msg?.table || summary;
    let text;
    if (tbl.status === 'waiting') text = t('waiting_players');
    else if (tbl.status === 'finished') text = t('game_over');
    else if (msg && tbl.to_move !== null && tbl.to_move === msg.seat) text = t('your_turn');
    else if (tbl.to_move !== null && tbl.to_move !== undefined) text = t('waiting_for', { name: seatName(tbl.to_move, tbl) });
    else text = '';
    if (msg && msg.seat === null && tbl.status !== 'waiting') text = sentences([text, t('spectating')]);
    replace(status, text);
    status.classList.toggle('mine', text === t('your_turn'));
  }

  function drawSeats() {
    const tbl = msg?.table || summary;
    clearTimeout(seatTimer);
    const now = Date.now();
    let nextCheck = null;
    replace(seatsBox, tbl.seats.map((s) => {
      const marks = [];
      if (msg && s.seat === msg.seat) marks.push(h('span', { class: 'tag you' }, t('you')));
      if (tbl.to_move === s.seat) marks.push(h('span', { class: 'tag turn', 'aria-label': 'to move' }, '▶'));
      if (s.replaced) marks.push(h('span', { class: 'tag' }, t('bot_playing')));
      let callBot = null;
      if (s.gone_for !== null && s.kind === 'human' && !s.replaced && tbl.status === 'playing') {
        marks.push(h('span', { class: 'tag away' }, t('gone')));
        const wait = (tbl.replace_after - s.gone_for) * 1000 - (now - (msg?._at || now));
        if (msg && msg.seat !== null && wait <= 0) {
          callBot = h('button', { class: 'small', dataset: { replace: s.seat }, onclick: () => send({ type: 'replace', seat: s.seat }) }, t('call_bot', { name: s.name }));
        } else if (wait > 0) {
          nextCheck = nextCheck === null ? wait : Math.min(nextCheck, wait);
        }
      }
      const label = s.taken ? seatName(s.seat, tbl) : t('free_seat');
      return h('li', { class: tbl.to_move === s.seat ? 'to-move' : '' }, h('span', { class: 'seat-no' }, `${s.seat}`), ' ', label, ' ', marks, callBot);
    }));
    if (nextCheck !== null) seatTimer = setTimeout(drawSeats, nextCheck + 50);
  }

  function drawLobby() {
    const tbl = msg?.table || summary;
    if (tbl.status !== 'waiting') { replace(lobbyBox); return; }
    const url = `${publicUrl || location.origin}/t/${id}`;
    const mine = msg ? msg.seat : summary.my_seat;
    const joinButtons = [];
    if (mine === null || mine === undefined) {
      if (!player) {
        joinButtons.push(nameForm(() => drawLobby()));
      } else {
        for (const s of tbl.seats) {
          if (!s.taken) {
            joinButtons.push(h('button', { class: 'primary', dataset: { join: s.seat }, onclick: async () => {
              try { await api(`/api/tables/${id}/join`, { method: 'POST', body: { seat: s.seat } }); reconnect(); } catch (err) { showError(err); }
            } }, `${t('join')} — ${t('seat')} ${s.seat}`));
          }
        }
      }
    } else {
      joinButtons.push(h('button', { onclick: async () => {
        try { await api(`/api/tables/${id}/leave`, { method: 'POST' }); reconnect(); } catch (err) { showError(err); }
      } }, t('leave')));
    }
    const input = h('input', { readonly: true, value: url, id: 'invite', 'aria-label': t('invite') });
    replace(lobbyBox, h('section', { class: 'card' },
      h('h2', {}, t('invite')),
      h('div', { class: 'row' }, input, h('button', { onclick: async () => {
        try { await navigator.clipboard.writeText(url); toast(t('copied'), 'info'); } catch (err) { input.select(); }
      } }, t('copy'))),
      h('div', { class: 'row' }, joinButtons)));
  }

  function drawActions() {
    if (!msg || !msg.legal.length) {
      replace(actions, msg && msg.table.status === 'playing' && msg.seat !== null ? h('p', { class: 'muted' }, t('no_moves')) : null);
      return;
    }
    const matches = (x) => !selection || x.a.split(/[\s:]+/).some((w) => w.replace(/\d+$/, '') === selection);
    const shown = msg.legal.filter(matches);
    const clear = selection ? h('button', { class: 'small chip', id: 'clear-selection', onclick: () => select(null) }, `${selection} ✕`) : null;
    const button = (x) => h('button', {
      class: 'move', title: x.a, dataset: { action: x.a }, disabled: waitingForAnswer,
      onclick: () => play(x.a),
    }, named(pick(x, x.a), msg.table || summary));
    // Many moves (Double Seven's families, say): one row per kind of move, by the notation's
    // first word, so the choice reads at a glance.
    const groups = new Map();
    for (const x of shown) {
      const kind = x.a.split(' ')[0];
      if (!groups.has(kind)) groups.set(kind, []);
      groups.get(kind).push(x);
    }
    const rows = shown.length > 10 && groups.size > 1
      ? [...groups.values()].map((xs) => h('div', { class: 'buttons group' }, xs.map(button)))
      : [h('div', { class: 'buttons' }, shown.map(button))];
    replace(actions, h('h2', { class: 'visually-hidden' }, t('moves')), clear, rows);
  }

  function drawLog() {
    const tbl = msg?.table || summary;
    replace(logBox, logItems.slice(-80).map((e) => h('li', { class: `ev ev-${e.kind}` }, named(pick(e, e.kind), tbl))));
    logBox.scrollTop = logBox.scrollHeight;
  }

  function drawResult() {
    const tbl = msg?.table;
    if (!tbl || tbl.status !== 'finished' || !tbl.result) { replace(resultBox); return; }
    const { scores, winners } = tbl.result;
    replace(resultBox, h('section', { class: 'card result', id: 'final' },
      h('h2', {}, t('results')),
      h('table', { class: 'scores' },
        h('thead', {}, h('tr', {}, h('th', {}, t('seat')), h('th', {}, t('score')), h('th', {}, ''))),
        h('tbody', {}, scores.map((sc, i) => h('tr', { class: winners.includes(i) ? 'winner' : '' },
          h('td', {}, seatName(i, tbl)), h('td', {}, String(sc)), h('td', {}, winners.includes(i) ? `★ ${t('winner')}` : ''))))),
      renderer.breakdown ? renderer.breakdown(msg.view, ctx()) : null,
      h('p', { class: 'row' },
        h('a', { class: 'button', href: `/r/${id}` }, t('replay')),
        h('a', { class: 'button', href: `/api/tables/${id}/record`, download: `septet-${id}.json` }, t('download')))));
  }

  function select(word) {
    selection = selection === word ? null : word;
    draw();
  }

  function ctx() {
    const tbl = msg?.table || summary;
    return {
      lang: lang(), t, seat: msg ? msg.seat : null, table: tbl, legal: msg ? msg.legal : [],
      name: (s) => seatName(s, tbl), named: (text) => named(text, tbl), play, text: named(msg?.text ?? null, tbl),
      canPlay: (a) => Boolean(msg && !waitingForAnswer && msg.legal.some((x) => x.a === a)),
      select, selected: selection,
      mentions: (word) => Boolean(msg && msg.legal.some((x) => x.a.split(/[\s:]+/).some((w) => w.replace(/\d+$/, '') === word))),
    };
  }

  function draw() {
    if (msg) msg._at = msg._at || Date.now();
    drawHeader();
    drawStatus();
    drawSeats();
    drawLobby();
    if (msg && msg.view) {
      try {
        replace(board, renderer.draw(msg.view, ctx()));
      } catch (err) {
        console.warn('drawing failed, showing the generic view', err);
        replace(board, rendererFor('').draw(msg.view, ctx()));
      }
    } else {
      replace(board);
    }
    drawActions();
    drawLog();
    drawResult();
  }

  function layout() {
    banner.textContent = t('reconnecting');
    replace(root, h('div', { class: 'table-page' },
      banner,
      h('div', { class: 'table-head' }, h('h1', {}, pick(summary.title, summary.game)), status),
      lobbyBox,
      h('div', { class: 'table-main' },
        h('div', { class: 'play-area' }, board, actions, resultBox),
        h('aside', { class: 'side' },
          h('section', { class: 'card' }, h('h2', {}, t('seats_title')), seatsBox),
          h('section', { class: 'card' }, h('h2', {}, t('log')), logBox),
          replace(rulesBox, h('summary', { id: 'rules' }, t('rules')), rulesText)))));
    if (rulesBox.open) rulesBox.dispatchEvent(new Event('toggle'));
    draw();
  }

  layout();
  connect();
  const off = onLang(() => { if (renderer.wantsText) reconnect(); layout(); });
  cleanup = () => { closing = true; off(); clearTimeout(seatTimer); if (ws) ws.close(); };
}

// ----- replay ---------------------------------------------------------------------------------
async function replayPage(id) {
  let data;
  try { data = await api(`/api/tables/${id}/replay`); } catch (err) { replace(root, h('p', { class: 'card' }, err.message)); return; }
  const renderer = rendererFor(data.game);
  const total = data.steps.length;
  let step = total;
  let viewAs = 'spectator';
  let frame = null;
  const board = h('div', { class: 'board', id: 'board' });
  const label = h('span', { id: 'step-label' });
  const slider = h('input', { type: 'range', min: 0, max: total, value: step, id: 'step', 'aria-label': 'step', oninput: (ev) => go(Number(ev.target.value)) });
  const list = h('ol', { class: 'log steps', id: 'steps' });
  const names = data.players;
  // The same display names as on the table page when the server lists the seats.
  const nameOf = (s) => (data.seats && data.seats[s] ? seatName(s, { seats: data.seats }) : (names[s] || `${t('seat')} ${s}`));
  const relabelled = (text) => relabel(text, nameOf, names.length);

  async function go(i) {
    step = Math.max(0, Math.min(total, i));
    slider.value = String(step);
    try { frame = await api(`/api/tables/${id}/replay/${step}`); } catch (err) { showError(err); return; }
    draw();
  }

  function stepText(s) {
    const who = s.seat === null ? t('chance') : nameOf(s.seat);
    const evs = s.events.map((e) => relabelled(pick(e, e.kind))).join(' · ');
    return `${who}: ${relabelled(pick(s, s.a))}${evs ? ` — ${evs}` : ''}`;
  }

  function draw() {
    drawHeader();
    replace(label, t('step', { i: step, n: total }));
    if (frame) {
      const view = viewAs === 'spectator' ? frame.spectator : frame.views[Number(viewAs)];
      const c = { lang: lang(), t, seat: viewAs === 'spectator' ? null : Number(viewAs), table: { seats: names.map((n, i) => ({ seat: i, name: n, kind: 'human' })) }, legal: [], name: nameOf, named: relabelled, play: () => {}, canPlay: () => false, text: null };
      replace(board, renderer.draw(view, c));
    }
    replace(list, data.steps.map((s, i) => h('li', { class: i + 1 === step ? 'current' : '', onclick: () => go(i + 1) }, stepText(s))));
    const cur = list.querySelector('.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  const onKey = (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type !== 'range') return;
    if (ev.key === 'ArrowRight') go(step + 1);
    if (ev.key === 'ArrowLeft') go(step - 1);
  };
  document.addEventListener('keydown', onKey);

  function layout() {
    const viewSelect = h('select', { id: 'view-as', onchange: (ev) => { viewAs = ev.target.value; draw(); } },
      h('option', { value: 'spectator', selected: viewAs === 'spectator' }, t('spectator')),
      names.map((n, i) => h('option', { value: i, selected: viewAs === String(i) }, nameOf(i))));
    replace(root, h('div', { class: 'replay-page' },
      h('div', { class: 'table-head' }, h('h1', {}, `${t('replay')}: ${pick(data.title, data.game)}`),
        h('a', { class: 'button', href: `/api/tables/${id}/record`, download: `septet-${id}.json` }, t('download'))),
      h('div', { class: 'row controls' },
        h('button', { id: 'first', onclick: () => go(0) }, `« ${t('first')}`),
        h('button', { id: 'prev', onclick: () => go(step - 1) }, `◀ ${t('prev')}`),
        slider,
        h('button', { id: 'next', onclick: () => go(step + 1) }, `${t('next')} ▶`),
        h('button', { id: 'last', onclick: () => go(total) }, `${t('last')} »`),
        label,
        h('label', { for: 'view-as' }, t('view_as')), viewSelect),
      h('div', { class: 'table-main' }, h('div', { class: 'play-area' }, board), h('aside', { class: 'side' }, h('section', { class: 'card' }, list)))));
    draw();
  }

  layout();
  const off = onLang(() => layout());
  cleanup = () => { off(); document.removeEventListener('keydown', onKey); };
  go(step);
}

// ----- routing --------------------------------------------------------------------------------
function navigate(path) {
  history.pushState({}, '', path);
  route();
}

async function route() {
  cleanup();
  cleanup = () => {};
  replace(root, h('p', { class: 'muted' }, t('loading')));
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([\w-]+)$/))) return tablePage(m[1]);
  if ((m = path.match(/^\/r\/([\w-]+)$/))) return replayPage(m[1]);
  return lobbyPage();
}

document.addEventListener('click', (ev) => {
  const a = ev.target.closest && ev.target.closest('a[href^="/"]');
  if (!a || a.hasAttribute('download') || a.getAttribute('href').startsWith('/api/')) return;
  if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

(async () => {
  const config = api('/api/config').then((c) => { publicUrl = c.public_url || ''; }, () => {});
  try { player = await me(); } catch (err) { player = null; }
  drawHeader();
  await config;
  route();
})();
