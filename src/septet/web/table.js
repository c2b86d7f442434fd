// The table page: real-time play over the table's WebSocket. Every rule lives in the engine:
// the page draws the view it is sent, offers exactly the legal moves the server lists, and
// plays each update's events as moments (moments.js) before the new state settles.

import { api } from './api.js';
import { chatPanel } from './chat.js';
import { clearCue, turnCue } from './cues.js';
import { clearToast, h, replace, toast } from './dom.js';
import { rendererFor } from './games/index.js';
import { lang, onLang, pick, sentences, t } from './i18n.js';
import { minutesLeft } from './lobby.js';
import { learnFor } from './learn.js';
import { markdown } from './markdown.js';
import { MomentQueue } from './moments.js';
import { relabel } from './names.js';
import { levelWord, seatLevel, seatName } from './seats.js';
import { onSetting, setting } from './settings.js';
import { drawHeader, errorText, nameForm, navigate, session } from './shell.js';
import { deadlineNote, seatMarks } from './turns.js';

// Events that need no moment and no log line (private deal cards: the hand shows them).
const LOG_QUIET = new Set(['card_dealt', 'dealt']);
// Log lines drawn as separators between turns, rounds and deals.
const LOG_SEPARATORS = new Set(['turn', 'round_start', 'new_deal']);
const LOG_KEEP = 300;
// Events that end the game: the status says "Game over" as soon as the board shows them.
const END_EVENTS = new Set(['game_end', 'game_over']);
// At most this many moves are shown as they are; more are folded by kind (phone: into chips).
const FEW_MOVES = 4;

function sameMoves(a, b) {
  if (!a || !b || a.length !== b.length || !a.length) return false;
  return a.every((x, i) => x.a === b[i].a);
}

/** A bot seat's tooltip: its level in words ("Bot level: Normal"), never the agent spec. */
export function levelTip(s) {
  const level = levelWord(seatLevel(s));
  return level ? t('bot_level_tip', { level }) : null;
}

function clockTime(at) {
  const d = new Date(Date.parse(at || ''));
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** The table page for table `id`, drawn into `root`; returns its cleanup function. */
export async function tablePage(root, id) {
  let summary;
  try {
    summary = await api(`/api/tables/${id}`);
  } catch (err) {
    replace(root, h('p', { class: 'card' }, errorText(err)));
    return () => {};
  }
  const renderer = rendererFor(summary.game);
  const generic = rendererFor('');
  // A guided first game (learn.js): its lessons in the dock, its move marked on the table.
  const learn = await learnFor(summary, { matches: (a, k) => matches(a, k), named: (x) => named(x) });
  const queue = new MomentQueue();
  // What the moments leave on the table: the round or deal just ended, the finished trick, and
  // the keys of the panels the player has tapped away.
  const memory = { dismissed: new Set(), heldKey: null, round: null, deal: null, trick: null };
  let msg = null;
  let ws = null;
  let closing = false;
  let fresh = true;
  let epoch = 0; // counts fresh states (a reconnect): updates of an older epoch are dropped
  let logItems = [];
  let waitingForAnswer = false;
  let staleInput = false; // an update on its way changes my moves: the ones shown no longer apply
  let sentMove = false;
  let selection = [];
  // Multi-pick moves (the Seven Shot pass, a Flip 7 swap): picks staged here until the player
  // confirms (undo takes back the last pick); then sent one by one, `sending` holding the rest.
  let staged = [];
  let sending = [];
  let retry = 0;
  let seatTimer = null;
  let autoTimer = null;
  let noticeTimer = null;
  let chatSupported = false;
  let lastLine = '';
  let lobbyKey = '';
  let guestForm = null;
  let openPanel = null;
  let openGroup = null; // the move group the player opened (many moves, phone)
  let rulesLang = null;

  const board = h('div', { class: 'board', id: 'board' });
  const boardWrap = h('div', { class: 'board-wrap' }, board);
  const status = h('div', { class: 'status', id: 'status', role: 'status' });
  const hintBox = h('div', { class: 'hint', id: 'hint' });
  const lastBox = h('div', { class: 'last', id: 'last', 'aria-live': 'polite' });
  const notice = h('div', { class: 'notice', id: 'notice', role: 'alert', hidden: true });
  const mineBox = h('div', { class: 'mine', id: 'mine' });
  const actions = h('div', { class: 'actions', id: 'actions' });
  const dock = h('div', { class: 'dock', id: 'dock' }, learn?.el, status, hintBox, lastBox, notice, mineBox, actions);
  const tools = h('div', { class: 'tools-row' });
  const seatsBox = h('ul', { class: 'plain seats', id: 'seats' });
  const logBox = h('ul', { class: 'log plain', id: 'log' });
  const lobbyBox = h('div', { id: 'lobby-box' });
  const resultBox = h('div', { id: 'result' });
  const heldLayer = h('div', { class: 'held-layer', id: 'held', hidden: true });
  let resultShown = false; // the results were brought into view once
  let rematchError = '';
  const banner = h('div', { class: 'banner', hidden: true });
  const rulesText = h('div', { class: 'rules-text', id: 'rules-text' });
  const side = h('aside', { class: 'side', id: 'side' });
  const backdrop = h('div', { class: 'backdrop', hidden: true, onclick: () => openDrawer(null) });
  const momentLayer = document.getElementById('moments');
  const chat = chatPanel({ send: (text) => send({ type: 'chat', text }), nameOf: (s) => seatName(s, tableNow()) });
  chat.onUnread((n) => {
    const badge = document.getElementById('chat-badge');
    if (!badge) return;
    const shown = n > 0 && openPanel !== 'chat';
    badge.hidden = !shown;
    badge.textContent = shown ? String(n) : '';
  });

  const tableNow = () => msg?.table || summary;
  const nameOf = (s) => seatName(s, tableNow());
  const named = (text) => relabel(text, nameOf, tableNow()?.seats?.length ?? 0);

  // ----- the connection ------------------------------------------------------------------------
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
    if (!msg || waitingForAnswer || staleInput) return;
    waitingForAnswer = true;
    sentMove = true;
    openGroup = null;
    clearTimeout(autoTimer);
    // The player's decision ends the moment kept on screen (the last round, the last deal).
    if (memory.heldKey) { memory.dismissed.add(memory.heldKey); drawHeld(); }
    hideNotice();
    for (const b of actions.querySelectorAll('button')) b.disabled = true;
    for (const el of root.querySelectorAll('.legal')) el.classList.remove('legal');
    drawStatus(ctx());
    send({ type: 'move', version: msg.version, action });
  }

  /** The multi-pick the renderer asks for now, {verb, need, title}, or null. */
  function multiPick() {
    if (!msg || !msg.view || !renderer.multiPick) return null;
    try { return renderer.multiPick(msg.view, ctxBase()); } catch (err) { return null; }
  }

  /**
   * A piece tapped or a move chosen: a multi-pick move is staged (a second tap on a staged
   * pick takes it back); every other move is sent at once.
   */
  function choose(action, confirm = false) {
    const mp = multiPick();
    const multi = mp && action.split(' ')[0] === mp.verb;
    if (!multi && !confirm) { play(action); return; }
    if (staged.includes(action)) staged = staged.filter((a) => a !== action);
    else if (!multi) staged = [action];
    else if (staged.length < mp.need) staged = [...staged, action];
    else { showNotice(t('picks_full', { n: mp.need }), 'info'); return; }
    drawPlay();
  }

  function undoPick() {
    staged = staged.slice(0, -1);
    drawPlay();
  }

  // Staged picks survive a reload of this tab (sessionStorage), for the same seat and version,
  // and come back only while every one of them is still among the legal moves.
  const pickKey = `septet.picks.${id}`;
  function keepPicks() {
    if (!msg) return;
    try {
      if (staged.length) sessionStorage.setItem(pickKey, JSON.stringify({ v: msg.version, seat: msg.seat, picks: staged }));
      else sessionStorage.removeItem(pickKey);
    } catch (err) { /* storage off: picks are kept for this page only */ }
  }
  function restorePicks() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(pickKey) || 'null');
      if (!saved || !msg || saved.v !== msg.version || saved.seat !== msg.seat || !Array.isArray(saved.picks)) return;
      if (saved.picks.every((a) => msg.legal.some((x) => x.a === a))) staged = saved.picks.slice();
    } catch (err) { /* a broken entry: ignored */ }
  }

  function confirmPicks() {
    if (!staged.length) return;
    sending = staged.slice(1);
    const first = staged[0];
    staged = [];
    play(first);
    drawPlay();
  }

  /** After an update: the next staged pick goes out while it is still legal (else all stop). */
  function sendNextPick() {
    if (!sending.length || !msg) return false;
    const next = sending.shift();
    if (msg.legal.some((x) => x.a === next)) { play(next); return true; }
    sending = [];
    return false;
  }

  function onMessage(m) {
    if (m.type === 'state') {
      if (Array.isArray(m.chat)) {
        chatSupported = true;
        side.classList.add('has-chat');
        tools.classList.add('has-chat');
        chat.setAll(m.chat);
      }
      const seatChanged = msg && msg.seat !== m.seat;
      if (fresh) {
        fresh = false;
        epoch += 1; // an update still playing is superseded: it neither logs nor settles
        queue.clear();
        logItems = [...m.events];
        settle(m, []);
      } else {
        const mine = sentMove;
        sentMove = false;
        // Moves still the same after this update (another player's move that changes nothing
        // for mine) stay playable while its moments play.
        if (msg && sameMoves(msg.legal, m.legal)) msg.version = m.version;
        else if (msg && msg.legal.length && !waitingForAnswer) {
          staleInput = true;
          for (const b of actions.querySelectorAll('button')) b.disabled = true;
          for (const el of root.querySelectorAll('.legal')) el.classList.remove('legal');
        }
        queue.push((q) => playUpdate(q, m, mine));
      }
      if (seatChanged) reconnect();
    } else if (m.type === 'chat' && m.message) {
      chat.add(m.message);
    } else if (m.type === 'error') {
      // The server sends the reason in English and Japanese (message_ja); show ours.
      const text = errorText({ code: m.code, message: pick({ en: m.message, ja: m.message_ja }, m.message) });
      if (String(m.code).startsWith('chat_')) {
        chat.error(text);
        return;
      }
      waitingForAnswer = false;
      sending = [];
      showNotice(text);
      if (msg) drawPlay();
    }
  }

  // ----- moments ------------------------------------------------------------------------------
  function say(ev) {
    const text = named(pick(ev, ''));
    if (!text || text === ev.kind) return;
    lastLine = text;
    replace(lastBox, h('span', { class: 'last-label' }, t('last_move')), ' ', text);
  }

  /** The log gains `ev` as the board plays it (never ahead of the board). */
  function logEvent(ev) {
    logItems.push(ev);
    if (logItems.length > LOG_KEEP) logItems = logItems.slice(-LOG_KEEP);
    if (LOG_QUIET.has(ev.kind)) return;
    logBox.querySelector('li.muted')?.remove();
    logBox.append(logLine(ev));
    while (logBox.children.length > 200) logBox.firstChild.remove();
    logBox.scrollTop = logBox.scrollHeight;
  }

  /** The game's result in words (the end event's line), or "Game over" without one. */
  function resultText(ev) {
    const text = ev ? named(pick(ev, '')) : '';
    return text && text !== ev.kind ? text : t('game_over');
  }

  /**
   * The status line as the moments play, in step with the board (issue 27): at the first
   * event of each step it names whose move the board shows ("Bot 2's turn", "Your move"),
   * never the stale "is thinking…" or "Your turn" of the state before; at the game's end it
   * is the result, as soon as the board shows it. `first`: the update's first shown event.
   */
  function statusFor(ev, first, prevV, m) {
    const spectator = msg && msg.seat === null;
    const turnOf = (seat) => (msg && seat === msg.seat ? t('your_move_shown') : t('turn_of', { name: nameOf(seat) }));
    let text = null;
    if (END_EVENTS.has(ev.kind)) text = resultText(ev);
    else if (renderer.starts?.has(ev.kind)) {
      // A round or deal begins: the event's seat is its dealer; the status names the player to
      // act once it is dealt (the update's next decision: its state's player to move).
      const next = m?.table?.to_move;
      text = typeof next === 'number' && next >= 0 ? turnOf(next) : '';
    } else if (renderer.turnless?.has(ev.kind)) {
      // a card dealt or drawn: whose move it is stays as it was
      if (first) text = '';
    } else if (typeof ev.seat === 'number' && ev.seat >= 0 && (first || ev.v !== prevV)) {
      text = turnOf(ev.seat);
    } else if (first) text = '';
    if (text === null) return;
    replace(status, spectator && text ? sentences([text, t('spectating')]) : text);
    status.classList.remove('mine');
    replace(hintBox);
    hintBox.hidden = true;
  }

  async function playUpdate(q, m, mine) {
    const events = m.events || [];
    const mark = epoch;
    let logged = 0;
    try {
      logged = await playEvents(q, m, mine, events, mark);
    } finally {
      // Whatever a moment did (even a failing one), the log catches up and the state settles.
      if (!closing && mark === epoch) {
        for (const ev of events.slice(logged)) logEvent(ev);
        settle(m, events);
      }
    }
  }

  /** Play `events` of update `m` on the board; returns how many were logged. */
  async function playEvents(q, m, mine, events, mark) {
    q.boost = mine ? 0.45 : 1;
    let logged = 0;
    const prev = msg;
    const animate = prev && prev.view && m.view && !document.hidden && renderer.moments;
    const c = ctx();
    const st = {
      q, board, dock: mineBox, layer: momentLayer, ctx: c, view: prev?.view, next: m.view, memory,
      showHeld: () => drawHeld(ctx(), m.view),
    };
    let shown = 0;
    let prevV = null;
    for (const ev of events) {
      if (closing || mark !== epoch) return logged;
      renderer.remember?.(ev, memory, st);
      if (LOG_QUIET.has(ev.kind)) { logEvent(ev); logged += 1; continue; }
      const step = () => { statusFor(ev, shown === 0, prevV, m); shown += 1; prevV = ev.v; };
      if (renderer.quiet?.has(ev.kind)) { step(); logEvent(ev); logged += 1; continue; }
      if (animate && renderer.before?.[ev.kind]) await renderer.before[ev.kind](ev, st);
      step();
      logEvent(ev);
      logged += 1;
      say(ev);
      if (!animate) continue;
      const fn = renderer.moments[ev.kind];
      if (fn) await fn(ev, st);
      else await q.wait(mine ? 150 : 400);
    }
    return logged;
  }

  function settle(m, events) {
    const first = !msg;
    if (!first) warmingNotes(msg.table, m.table);
    if (!msg || msg.version !== m.version || msg.seat !== m.seat) { selection = []; staged = []; }
    msg = m;
    if (first) restorePicks();
    waitingForAnswer = false;
    staleInput = false;
    draw();
    if (events.length && msg.view) {
      try { renderer.mark?.(events, board, mineBox); } catch (err) { /* a mark is a nicety */ }
    }
    if (!sendNextPick()) maybeAutoPlay();
  }

  function maybeAutoPlay() {
    clearTimeout(autoTimer);
    if (!setting('autoForced') || !msg || !msg.view || msg.view.forced_public !== true || msg.legal.length !== 1) return;
    const version = msg.version;
    const move = msg.legal[0];
    showNotice(t('auto_playing', { move: named(pick(move, '')) }), 'info');
    autoTimer = setTimeout(() => {
      if (msg && msg.version === version && !waitingForAnswer && !closing) play(move.a);
    }, 900);
  }

  // ----- notices (errors and info in the sticky area: they never cover the turn indicator) ------
  function showNotice(text, kind = 'error') {
    clearTimeout(noticeTimer);
    notice.textContent = text;
    notice.className = `notice ${kind}`;
    notice.hidden = false;
    noticeTimer = setTimeout(hideNotice, kind === 'error' ? 7000 : 4000);
  }

  function hideNotice() {
    clearTimeout(noticeTimer);
    notice.hidden = true;
  }

  // ----- drawing ------------------------------------------------------------------------------
  function matches(a, key) {
    return renderer.matches ? renderer.matches(a, key) : a.split(' ').includes(key);
  }

  function select(key) {
    if (selection.includes(key)) selection = selection.filter((k) => k !== key);
    else selection = [...selection, key].slice(-2);
    drawPlay();
  }

  function ctxBase() {
    return { lang: lang(), t, seat: msg ? msg.seat : null, name: nameOf, named, legal: msg ? msg.legal : [] };
  }

  function ctx() {
    const tbl = tableNow();
    const c = {
      lang: lang(), t, seat: msg ? msg.seat : null, table: tbl, legal: msg ? msg.legal : [],
      name: nameOf, named, play: (a) => choose(a), confirm: (a) => choose(a, true), staged,
      text: named(msg?.text ?? null),
      canPlay: (a) => Boolean(msg && !waitingForAnswer && msg.legal.some((x) => x.a === a)),
      select, selected: selection, bound: new Set(),
      mentions: (key) => Boolean(msg && msg.legal.some((x) => matches(x.a, key))),
    };
    c.pickable = (el, key) => {
      if (!msg || waitingForAnswer || !msg.legal.some((x) => matches(x.a, key))) return el;
      const on = selection.includes(key);
      el.classList.add('pickable');
      if (on) el.classList.add('selected');
      el.setAttribute('role', 'button');
      el.setAttribute('tabindex', '0');
      el.setAttribute('aria-pressed', String(on));
      el.dataset.pick = key;
      el.addEventListener('click', (ev) => { ev.stopPropagation(); select(key); });
      el.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); select(key); } });
      return el;
    };
    return c;
  }

  function yourTurn() {
    const tbl = tableNow();
    return Boolean(msg && msg.seat !== null && tbl.status === 'playing' && (tbl.to_move === msg.seat || msg.legal.length));
  }

  function drawStatus(c) {
    const tbl = tableNow();
    let text = '';
    const mine = yourTurn();
    if (tbl.status === 'waiting') text = t('waiting_players');
    else if (tbl.status === 'finished') text = resultText([...logItems].reverse().find((e) => END_EVENTS.has(e.kind)));
    else if (mine) text = t('your_turn');
    else if (tbl.to_move !== null && tbl.to_move !== undefined && tbl.to_move >= 0) {
      const s = tbl.seats[tbl.to_move];
      text = s && s.kind === 'bot' ? t('bot_thinking', { name: nameOf(tbl.to_move) }) : t('waiting_for', { name: nameOf(tbl.to_move) });
      // a Strong bot playing at Normal while its search warms up (the server says so)
      if (s && s.kind === 'bot' && s.warming) text = sentences([t('bot_warming', { name: nameOf(tbl.to_move) }), text]);
    }
    if (msg && msg.seat === null && tbl.status !== 'waiting') text = sentences([text, t('spectating')]);
    replace(status, text, deadlineNote(tbl, nameOf, mine));
    status.classList.toggle('mine', mine && !waitingForAnswer);
    const hint = mine && !waitingForAnswer && msg?.view && renderer.hint ? renderer.hint(msg.view, c) : null;
    replace(hintBox, hint || '');
    hintBox.hidden = !hint;
    if (!lastLine) replace(lastBox);
    const title = pick(summary.title, summary.game);
    turnCue(mine ? `${t('your_turn_title')} · ${title}` : `${title} — ${t('brand')}`, mine);
  }

  function drawSeats() {
    const tbl = tableNow();
    clearTimeout(seatTimer);
    const now = Date.now();
    let nextCheck = null;
    replace(seatsBox, tbl.seats.map((s) => {
      const marks = [];
      if (msg && s.seat === msg.seat) marks.push(h('span', { class: 'tag you' }, t('you')));
      const level = levelWord(seatLevel(s));
      if (s.kind === 'bot' && level) marks.push(h('span', { class: 'tag level', title: levelTip(s) }, level));
      if (tbl.to_move === s.seat && tbl.status === 'playing') marks.push(h('span', { class: 'tag turn' }, `▶ ${t('playing_now')}`));
      if (s.replaced) marks.push(h('span', { class: 'tag' }, t('bot_playing')));
      marks.push(...seatMarks(s));
      let callBot = null;
      if (s.gone_for !== null && s.gone_for !== undefined && s.kind === 'human' && !s.replaced && tbl.status === 'playing' && tbl.pace !== 'turn-based') {
        marks.push(h('span', { class: 'tag away' }, t('gone')));
        const wait = (tbl.replace_after - s.gone_for) * 1000 - (now - (msg?._at || now));
        if (msg && msg.seat !== null && wait <= 0) {
          callBot = h('button', { class: 'small', dataset: { replace: s.seat }, onclick: () => send({ type: 'replace', seat: s.seat }) }, t('call_bot', { name: s.name }));
        } else if (wait > 0) {
          nextCheck = nextCheck === null ? wait : Math.min(nextCheck, wait);
        }
      }
      const label = s.taken ? nameOf(s.seat) : t('free_seat');
      return h('li', { class: tbl.to_move === s.seat ? 'to-move' : '', title: s.kind === 'bot' ? levelTip(s) : null },
        h('strong', { class: 'who' }, label), ' ', marks, callBot);
    }));
    if (nextCheck !== null) seatTimer = setTimeout(drawSeats, nextCheck + 50);
  }

  function drawLobby() {
    const tbl = tableNow();
    if (tbl.status !== 'waiting') { if (lobbyKey) replace(lobbyBox); lobbyKey = ''; return; }
    const mine = msg ? msg.seat : summary.my_seat;
    // Drawn again only when what it shows changes: a player typing a name keeps what they typed.
    const key = JSON.stringify([lang(), mine, Boolean(session.player), tbl.expires_at, tbl.seats.map((s) => [s.taken, s.name])]);
    if (key === lobbyKey) return;
    lobbyKey = key;
    const url = `${session.publicUrl || location.origin}/t/${id}`;
    const joinButtons = [];
    if (mine === null || mine === undefined) {
      if (!session.player) {
        guestForm = guestForm || nameForm(() => { lobbyKey = ''; drawLobby(); });
        guestForm.relabel();
        joinButtons.push(guestForm);
      } else {
        for (const s of tbl.seats) {
          if (!s.taken) {
            joinButtons.push(h('button', { class: 'primary', dataset: { join: s.seat }, onclick: async () => {
              try { await api(`/api/tables/${id}/join`, { method: 'POST', body: { seat: s.seat } }); reconnect(); } catch (err) { showNotice(errorText(err)); }
            } }, t('join_seat', { n: s.seat + 1 })));
          }
        }
      }
    } else {
      joinButtons.push(h('button', { onclick: async () => {
        try { await api(`/api/tables/${id}/leave`, { method: 'POST' }); reconnect(); } catch (err) { showNotice(errorText(err)); }
      } }, t('leave')));
    }
    const input = h('input', { readonly: true, value: url, id: 'invite', 'aria-label': t('invite') });
    const min = minutesLeft(tbl.expires_at);
    replace(lobbyBox, h('section', { class: 'card invite-card' },
      h('h2', {}, t('invite')),
      h('div', { class: 'row' }, input, h('button', { onclick: async () => {
        try { await navigator.clipboard.writeText(url); toast(t('copied'), 'info'); } catch (err) { input.select(); }
      } }, t('copy'))),
      min !== null ? h('p', { class: 'muted expiry', id: 'expiry' }, t('expires_at', { min, time: clockTime(tbl.expires_at) })) : null,
      h('div', { class: 'row' }, joinButtons)));
  }

  function moveButton(x) {
    return h('button', {
      class: `move${staged.includes(x.a) ? ' staged' : ''}`, dataset: { action: x.a }, disabled: waitingForAnswer,
      'aria-pressed': staged.includes(x.a) ? 'true' : null, onclick: () => choose(x.a),
    }, (renderer.moveLabel && renderer.moveLabel(x, ctx())) || named(pick(x, x.en || '')));
  }

  /** The picks staged so far, with Undo and Confirm (Confirm once every pick is made). */
  function stagedBar() {
    const mp = multiPick();
    if (!staged.length && !(mp && msg.legal.some((x) => x.a.split(' ')[0] === mp.verb))) return null;
    const need = mp && staged.every((a) => a.split(' ')[0] === mp.verb) ? mp.need : 1;
    const c = ctx();
    const words = staged.map((a) => (renderer.pickLabel && renderer.pickLabel(a, c))
      || named(pick(msg.legal.find((x) => x.a === a) || {}, a)));
    const head = mp && need > 1 ? t('picks_head', { title: mp.title, count: t('n_of_m', { n: staged.length, m: need }) }) : t('confirm_move');
    return h('div', { class: 'staged-bar', id: 'staged', role: 'group', 'aria-label': head },
      h('p', { class: 'staged-head' }, h('strong', {}, head), words.length ? t('colon') : '', words.join(t('list_sep'))),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', id: 'undo-pick', disabled: !staged.length || waitingForAnswer, onclick: undoPick }, `↶ ${t('undo')}`),
        h('button', { type: 'button', class: 'primary', id: 'confirm-picks', disabled: staged.length !== need || waitingForAnswer, onclick: confirmPicks }, t('confirm'))));
  }

  function drawActions(c) {
    if (!msg || !msg.legal.length) {
      replace(actions);
      return;
    }
    const chosen = msg.legal.filter((x) => selection.every((k) => matches(x.a, k)));
    const onPieces = chosen.filter((x) => c.bound.has(x.a));
    const shown = chosen.filter((x) => !c.bound.has(x.a));
    const parts = [h('h2', { class: 'visually-hidden' }, t('moves')), stagedBar()];
    if (selection.length) {
      const [before, after] = t('moves_with', { what: '\u0000' }).split('\u0000');
      const labels = selection.map((k) => h('span', { class: 'sel-label' }, renderer.selectionLabel ? renderer.selectionLabel(k, c) : k));
      parts.push(h('div', { class: 'selection' }, before, labels.flatMap((l, i) => (i ? [' + ', l] : [l])), after,
        h('button', { class: 'small chip', id: 'clear-selection', onclick: () => { selection = []; drawPlay(); } }, t('show_all'))));
    }
    if (!shown.length && onPieces.length && !renderer.hint) parts.push(h('p', { class: 'muted tap-hint' }, t('tap_piece')));
    const groups = renderer.groups ? renderer.groups(c) : null;
    if (groups) {
      // Many moves: each group folds into a chip that opens its moves (one open at a time),
      // so every way to move is on screen at once, even on a phone.
      // A turn with few moves (a yes/no, four draws) shows them all, unfolded.
      const phone = typeof matchMedia === 'function' && matchMedia('(max-width: 859px)').matches;
      const fold = shown.length <= FEW_MOVES ? Infinity : (phone ? 1 : 3);
      const box = h('div', { class: 'groups' });
      const used = new Set();
      for (const g of groups) {
        const items = shown.filter((x) => g.verbs.includes(x.a.split(' ')[0]));
        if (!items.length) continue;
        for (const x of items) used.add(x);
        const buttons = h('div', { class: 'buttons' }, items.map(moveButton));
        const key = g.verbs[0];
        if (items.length > fold && !selection.length) {
          box.append(h('details', {
            class: 'group folded', open: openGroup === key, dataset: { group: key },
            ontoggle: (ev) => {
              if (ev.target.open) {
                openGroup = key;
                for (const d of box.querySelectorAll('details[open]')) if (d !== ev.target) d.open = false;
              } else if (openGroup === key) {
                openGroup = null;
              }
            },
          }, h('summary', {}, `${g.title} (${t('n_moves', { n: items.length })})`), buttons));
        } else {
          box.append(h('div', { class: 'group' }, h('h3', {}, g.title), buttons));
        }
      }
      const rest = shown.filter((x) => !used.has(x));
      if (rest.length) box.append(h('div', { class: 'group' }, h('div', { class: 'buttons' }, rest.map(moveButton))));
      parts.push(box);
    } else if (shown.length > 10) {
      const byVerb = new Map();
      for (const x of shown) {
        const verb = x.a.split(' ')[0];
        if (!byVerb.has(verb)) byVerb.set(verb, []);
        byVerb.get(verb).push(x);
      }
      for (const xs of byVerb.values()) parts.push(h('div', { class: 'buttons group' }, xs.map(moveButton)));
    } else if (shown.length) {
      parts.push(h('div', { class: 'buttons' }, shown.map(moveButton)));
    }
    replace(actions, parts);
  }

  function logLine(e) {
    const text = e.kind === 'bot_warming' ? sentences([t('bot_warming', { name: nameOf(e.seat) })]) : named(pick(e, e.kind));
    return h('li', { class: `ev ev-${e.kind}${LOG_SEPARATORS.has(e.kind) ? ' sep' : ''}` }, text);
  }

  /** The log says when a Strong bot starts playing at Normal (its search warming up): the
   * server marks the seat `warming` after such a move; a note follows the move's line. */
  function warmingNotes(before, after) {
    if (!before || !after) return;
    for (const s of after.seats || []) {
      const was = (before.seats || [])[s.seat];
      if (s.warming && !(was && was.warming)) logItems.push({ kind: 'bot_warming', seat: s.seat });
    }
  }

  function drawLog() {
    const items = logItems.filter((e) => !LOG_QUIET.has(e.kind)).slice(-200);
    replace(logBox, items.length ? items.map(logLine) : h('li', { class: 'muted' }, t('nothing_yet')));
    logBox.scrollTop = logBox.scrollHeight;
  }

  function drawResult(c) {
    const tbl = msg?.table;
    root.querySelector('.table-page')?.classList.toggle('finished', Boolean(tbl && tbl.status === 'finished'));
    if (!tbl || tbl.status !== 'finished' || !tbl.result) { replace(resultBox); return; }
    const { scores, winners } = tbl.result;
    const names = winners.map(nameOf);
    const headline = (msg.view && renderer.headline ? renderer.headline(msg.view, c) : null) || (lang() === 'ja'
      ? `${names.join('・')}の勝ち！`
      : `${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} win` : `${names[0]} wins`}!`);
    let detail = null;
    try { detail = renderer.breakdown && msg.view ? renderer.breakdown(msg.view, c) : null; } catch (err) { detail = null; }
    // The last round or deal, folded under the final table (it was the moment kept on screen).
    let last = null;
    try { last = msg.view && renderer.held ? renderer.held(msg.view, c, { ...memory, dismissed: new Set() }) : null; } catch (err) { last = null; }
    const sat = msg.seat !== null && msg.seat !== undefined;
    replace(resultBox, h('section', { class: 'card result', id: 'final', 'aria-labelledby': 'final-title' },
      h('h2', { id: 'final-title' }, t('results')),
      h('p', { class: 'headline' }, h('span', { 'aria-hidden': 'true' }, '★ '), headline),
      detail || h('table', { class: 'scores' },
        h('thead', {}, h('tr', {}, h('th', {}, t('players')), h('th', {}, t('score')), h('th', {}, ''))),
        h('tbody', {}, scores.map((sc, i) => h('tr', { class: winners.includes(i) ? 'winner' : '' },
          h('td', { class: 'name' }, nameOf(i)), h('td', {}, String(sc)), h('td', {}, winners.includes(i) ? `★ ${t('winner')}` : ''))))),
      last ? h('details', { class: 'last-summary', id: 'final-last' }, h('summary', {}, last.querySelector('h2')?.textContent || t('last_summary')), last) : null,
      h('div', { class: 'row end-buttons' },
        sat ? h('button', { type: 'button', class: 'primary', id: 'rematch', onclick: rematch }, t('rematch')) : null,
        h('a', { class: 'button', href: `/r/${id}`, id: 'to-replay' }, t('replay')),
        h('a', { class: 'button', href: `/api/tables/${id}/record`, download: `septet-${id}.json` }, t('download_record')),
        h('a', { class: 'button', href: '/', id: 'to-lobby' }, t('back_to_lobby'))),
      rematchError ? h('p', { class: 'notice', id: 'rematch-error', role: 'alert' }, rematchError) : null));
    if (!resultShown) {
      resultShown = true;
      requestAnimationFrame(() => inView(resultBox));
    }
  }

  /** Another game at this table's settings (the same new table for everyone who asks). */
  async function rematch() {
    const button = resultBox.querySelector('#rematch');
    if (button) button.disabled = true;
    rematchError = '';
    try {
      const res = await fetch(`/api/tables/${id}/rematch`, { method: 'POST', credentials: 'same-origin' });
      const data = await res.json().catch(() => ({}));
      if (!res.ok || !data.table || !data.table.id) {
        const text = pick({ en: data.message, ja: data.message_ja }, data.message || '');
        rematchError = text || t('rematch_failed');
        drawResult(ctx());
        return;
      }
      navigate(`/t/${data.table.id}`);
    } catch (err) {
      rematchError = t('rematch_failed');
      drawResult(ctx());
    }
  }

  function drawHeld(c = ctx(), view = msg?.view) {
    const finished = msg?.table?.status === 'finished';
    const node = !finished && view && renderer.held ? renderer.held(view, c, memory) : null;
    if (!node) {
      heldLayer.hidden = true;
      replace(heldLayer);
      return;
    }
    const wasHidden = heldLayer.hidden;
    replace(heldLayer, h('div', { class: 'held-card', role: 'region', 'aria-label': t('results'), onclick: dismissHeld },
      node, h('button', { type: 'button', class: 'primary', id: 'held-continue' }, t('continue'))));
    heldLayer.hidden = false;
    if (wasHidden) inView(heldLayer);
  }

  /** Scroll `el` into the part of the screen above the sticky area, when it is not there. */
  function inView(el) {
    const r = el.getBoundingClientRect();
    const bottom = Math.min(window.innerHeight, dock.getBoundingClientRect().top || window.innerHeight);
    if (r.top < 0 || r.top > bottom - 80) window.scrollBy({ top: r.top - 8, behavior: 'instant' });
  }

  function dismissHeld(ev) {
    if (ev) ev.stopPropagation();
    if (memory.heldKey) memory.dismissed.add(memory.heldKey);
    drawHeld();
  }

  function drawPlay(c = ctx()) {
    keepPicks();
    if (msg && msg.view) {
      try {
        replace(board, renderer.draw(msg.view, c, memory));
        replace(mineBox, renderer.dock ? renderer.dock(msg.view, c) : null);
      } catch (err) {
        console.warn('drawing failed, showing the generic view', err);
        replace(board, generic.draw(msg.view, c));
        replace(mineBox);
      }
    } else {
      replace(board);
      replace(mineBox);
    }
    mineBox.hidden = !mineBox.childNodes.length;
    drawActions(c);
    drawHeld(c);
    learn?.draw(msg, root);
  }

  function draw() {
    if (msg) msg._at = msg._at || Date.now();
    drawHeader();
    const c = ctx();
    drawSeats();
    drawLobby();
    drawPlay(c);
    drawStatus(c);
    drawResult(c);
    drawLog();
    chat.setSeated(Boolean(msg && msg.seat !== null && msg.seat !== undefined));
  }

  // ----- drawers (players, log, chat, rules) -----------------------------------------------
  async function loadRules() {
    if (rulesLang === lang()) return;
    try {
      const r = await api(`/api/games/${summary.game}/rules?lang=${lang()}`);
      replace(rulesText, markdown(r.text));
      rulesLang = lang();
    } catch (err) { replace(rulesText, errorText(err)); }
  }

  function openDrawer(name) {
    openPanel = name;
    side.dataset.open = name || '';
    side.classList.toggle('open', Boolean(name));
    backdrop.hidden = !name;
    for (const b of tools.querySelectorAll('button[data-panel]')) b.setAttribute('aria-expanded', String(b.dataset.panel === name));
    if (name === 'rules') loadRules();
    if (name === 'chat') chat.seen();
    if (name) document.getElementById(`${name}-panel`)?.scrollIntoView({ block: 'nearest' });
  }

  function layout() {
    banner.textContent = t('reconnecting');
    const tool = (name, label) => h('button', {
      type: 'button', class: `tool tool-${name}`, id: `open-${name}`, dataset: { panel: name }, 'aria-expanded': String(openPanel === name),
      onclick: () => openDrawer(openPanel === name ? null : name),
    }, label, name === 'chat' ? h('span', { class: 'badge', id: 'chat-badge', hidden: true }) : null);
    replace(tools, tool('players', t('seats_title')), tool('log', t('log')), tool('chat', t('chat')), tool('rules', t('rules')));
    const panel = (name, title, body) => h('section', { class: `card panel panel-${name}`, id: `${name}-panel` },
      h('div', { class: 'panel-head' }, h('h2', {}, title),
        h('button', { type: 'button', class: 'small close-drawer', 'aria-label': t('close'), onclick: () => openDrawer(null) }, '✕')),
      body);
    replace(side, panel('rules', t('rules'), rulesText), panel('players', t('seats_title'), seatsBox),
      panel('chat', t('chat'), chat.el), panel('log', t('log'), logBox));
    replace(root, h('div', { class: 'table-page' },
      banner,
      h('div', { class: 'table-head' }, h('h1', {}, pick(summary.title, summary.game)), h('nav', { class: 'tools', 'aria-label': t('options') }, tools)),
      lobbyBox,
      h('div', { class: 'table-main' }, h('div', { class: 'play-area' }, resultBox, heldLayer, boardWrap, dock), side),
      backdrop));
    chat.redraw();
    lobbyKey = '';
    rulesLang = null;
    if (openPanel) openDrawer(openPanel);
    draw();
  }

  // A tap on the table plays the current moments at once; on a finished trick, clears it.
  board.addEventListener('click', (ev) => {
    if (queue.busy) queue.skip();
    const key = renderer.dismissKey ? renderer.dismissKey(ev.target) : null;
    if (key) {
      memory.dismissed.add(key);
      memory.trick = null;
      drawPlay();
    }
  });
  const onKey = (ev) => {
    if (ev.key !== 'Escape') return;
    if (openPanel) openDrawer(null);
    else if (!heldLayer.hidden) dismissHeld();
  };
  document.addEventListener('keydown', onKey);
  const resize = typeof ResizeObserver === 'function'
    ? new ResizeObserver(() => document.documentElement.style.setProperty('--dock-h', `${dock.offsetHeight}px`)) : null;
  resize?.observe(dock);

  layout();
  connect();
  const offLang = onLang(() => { if (renderer.wantsText) reconnect(); layout(); });
  const offSetting = onSetting((key) => { if (key === 'autoForced') maybeAutoPlay(); });
  return () => {
    closing = true;
    queue.clear();
    offLang();
    offSetting();
    clearTimeout(seatTimer);
    clearTimeout(autoTimer);
    clearTimeout(noticeTimer);
    resize?.disconnect();
    document.documentElement.style.setProperty('--dock-h', '0px');
    document.removeEventListener('keydown', onKey);
    if (ws) ws.close();
    if (momentLayer) momentLayer.replaceChildren();
    clearToast();
    clearCue(t('brand'));
  };
}
