// The lobby: choose a name, create a table (game, players, seats: you, people you invite,
// bots by level), and the open, playing and finished tables.

import { api } from './api.js';
import { h, replace } from './dom.js';
import { lang, onLang, pick, t } from './i18n.js';
import { markdown } from './markdown.js';
import { lobbyPlayers } from './players.js'; // issue 24: Play now, my games first
import { botTooltip, isDeletedSeat, levelWord, seatName } from './seats.js';
import { startTutorial } from './learn.js';
import { nameForm, navigate, session, showError } from './shell.js';
import { startTurns, turnsSection } from './turns.js';

/** Minutes until `at` (ISO-8601), at least 0; null when `at` is missing or not a date. */
export function minutesLeft(at, now = Date.now()) {
  const d = Date.parse(at || '');
  if (Number.isNaN(d)) return null;
  return Math.max(0, Math.ceil((d - now) / 60000));
}

/**
 * The site's pages, one tap apart (the lobby, the score keeper, the odds page, the rules):
 * a <nav> whose `current` entry ('play', 'score', 'odds', 'rules') is marked. Other entries
 * (e.g. "Learn to play") go in the same list.
 */
export function siteNav(current) {
  const item = (key, href, label) => h('li', {}, h('a', { href, class: `nav-link${key === current ? ' current' : ''}`, 'aria-current': key === current ? 'page' : null }, label));
  return h('nav', { class: 'site-nav', 'aria-label': t('nav_label') }, h('ul', { class: 'plain row' },
    item('play', '/', t('nav_play')),
    item('rules', '/#rules', t('nav_rules')),
    item('score', '/score', t('nav_score')),
    item('odds', '/score/flip7/odds', t('nav_odds'))));
}

/**
 * An option's help without the words of its label in front ("Brutal mode (Vengeance only):
 * round scores…" under the label "Brutal mode" reads "Round scores… (Vengeance only)").
 */
export function helpWords(help, label) {
  if (!help || !label) return help || '';
  const esc = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = help.match(new RegExp(`^${esc}\\s*(?:[(（]([^)）]*)[)）])?\\s*[:：]\\s*`, 'i'));
  if (!m) return help;
  let rest = help.slice(m[0].length);
  if (!rest) return '';
  if (/^[a-z]/.test(rest)) rest = rest[0].toUpperCase() + rest.slice(1);
  if (m[1]) rest = /[\u3000-\u9fff]/.test(m[1]) ? `${rest}（${m[1]}）` : `${rest} (${m[1]})`;
  return rest;
}

/** The lobby page; returns its cleanup function. */
export async function lobbyPage(root) {
  let gamesList = [];
  let lists = { open: [], playing: [], finished: [] };
  const formState = { game: null, seats: [], options: {} };
  let form = null;

  async function refresh() {
    try { lists = await api('/api/tables'); } catch (err) { /* keep the old lists */ }
    drawLists();
    mine?.refresh(); // issue 24
  }

  const listsBox = h('div', { class: 'lists' });
  const formBox = h('div');
  let learnGames = [];

  // Learn to play (issue 27): a guided first game of each game that has one.
  function learnCard() {
    if (!learnGames.length) return null;
    return h('section', { class: 'card learn-entry', id: 'learn-entry' },
      h('h2', {}, t('learn_title')), h('p', { class: 'muted' }, t('learn_intro')),
      h('div', { class: 'buttons' }, learnGames.map((x) => h('button', {
        type: 'button', class: 'primary', dataset: { learn: x.game }, onclick: () => startTutorial(x.game),
      }, pick(x.title, x.game)))));
  }

  function tableLine(tbl, kind) {
    const names = tbl.seats.map((s, i) => {
      if (s.bot) {
        const level = levelWord(s.level);
        return h('span', { title: level ? t('bot_level_tip', { level }) : null }, seatName(i, tbl), level ? t('paren', { x: level }) : '');
      }
      return h('span', {}, isDeletedSeat(s) ? t('deleted_player') : s.name || t('free_seat'));
    });
    const link = kind === 'finished'
      ? h('a', { href: `/r/${tbl.id}`, class: 'button' }, t('replay'))
      : h('a', { href: `/t/${tbl.id}`, class: 'button' }, kind === 'open' ? t('join') : t('watch'));
    const min = kind === 'open' ? minutesLeft(tbl.expires_at) : null;
    return h('li', { class: 'table-line' },
      h('strong', {}, pick(tbl.title, tbl.game)), ' ',
      h('span', { class: 'muted' }, names.flatMap((n, i) => (i ? [lang() === 'ja' ? '・' : ' · ', n] : [n]))), ' ',
      min !== null ? h('small', { class: 'muted expiry' }, t('expires_in', { min })) : null,
      link);
  }

  function drawLists() {
    const section = (key, items, kind) => h('section', { class: 'card' },
      h('h2', {}, t(key)),
      items.length ? h('ul', { class: 'plain' }, items.map((x) => tableLine(x, kind))) : h('p', { class: 'muted' }, t('none')));
    replace(listsBox,
      section('open_tables', lists.open || [], 'open'),
      section('playing_tables', lists.playing || [], 'playing'),
      section('finished_tables', lists.finished || [], 'finished'));
  }

  function currentGame() {
    return gamesList.find((g) => g.name === formState.game) || gamesList[0];
  }

  // The bot choices: by level where the server offers levels, else by the bots it lists.
  function botChoices(g) {
    if (Array.isArray(g.levels) && g.levels.length) {
      return g.levels.map((l) => ({ value: `bot:${l.level}`, label: t('bot_level', { level: levelWord(l.level) || l.level }), title: t('bot_level_tip', { level: levelWord(l.level) || l.level }) }));
    }
    return (g.bots || []).map((b) => ({ value: `bot:${b}`, label: `${t('bot')}: ${b}`, title: '' }));
  }

  function setPlayers(n) {
    const g = currentGame();
    const choices = botChoices(g);
    const normal = choices.find((c) => c.value === 'bot:normal') || choices.find((c) => c.value === 'bot:greedy') || choices[0];
    const seats = [];
    for (let i = 0; i < n; i++) seats.push(formState.seats[i] || (i === 0 ? 'you' : normal.value));
    seats[0] = 'you';
    formState.seats = seats;
  }

  function drawForm() {
    const g = currentGame();
    if (!g) { replace(formBox); return; }
    if (!formState.seats.length) setPlayers(Math.max(g.min_players, Math.min(3, g.max_players)));
    const choices = botChoices(g);
    const gameSelect = h('select', { id: 'game', onchange: (ev) => {
      formState.game = ev.target.value; formState.seats = []; formState.options = {}; drawForm();
    } }, gamesList.map((x) => h('option', { value: x.name, selected: x.name === g.name }, pick(x.titles, x.name))));
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
    const countSelect = h('select', { id: 'players', onchange: (ev) => { setPlayers(Number(ev.target.value)); drawForm(); } },
      counts.map((n) => h('option', { value: n, selected: n === formState.seats.length }, String(n))));
    const seatRows = formState.seats.map((choice, i) => {
      if (i === 0) return h('li', {}, h('span', { class: 'seat-label' }, `${t('seat_n', { n: 1 })}${t('colon')}`), h('strong', {}, t('you')));
      const titleOf = (v) => (choices.find((c) => c.value === v) || {}).title || '';
      const sel = h('select', {
        id: `seat-${i}`, 'aria-label': t('seat_n', { n: i + 1 }), title: titleOf(choice),
        onchange: (ev) => { formState.seats[i] = ev.target.value; ev.target.title = titleOf(ev.target.value); },
      },
      h('option', { value: 'human', selected: choice === 'human' }, t('human')),
      choices.map((c) => h('option', { value: c.value, selected: choice === c.value, title: c.title }, c.label)));
      return h('li', {}, h('label', { for: `seat-${i}`, class: 'seat-label' }, `${t('seat_n', { n: i + 1 })}${t('colon')}`), sel);
    });
    const optionRows = [...g.options, ...(g.table_options || [])].map((o) => { // table_options: rated (issue 24)
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
      const label = pick(o.label, o.name);
      const help = kind === 'choice' ? '' : helpWords(pick(o.help_i18n, o.help), label);
      return h('li', {}, h('label', { for: id, title: help }, `${label}: `), input, help ? h('small', { class: 'muted' }, ` ${help}`) : null);
    });
    const wasOpen = formBox.querySelector('details')?.open;
    replace(formBox, h('form', { class: 'card create', onsubmit: async (ev) => {
      ev.preventDefault();
      const seats = formState.seats.map((c) => (c.startsWith('bot:') ? { kind: 'bot', bot: c.slice(4) } : { kind: 'human' }));
      try {
        const tbl = await api('/api/tables', { method: 'POST', body: { game: g.name, options: formState.options, seats } });
        navigate(`/t/${tbl.id}`);
      } catch (err) { showError(err); }
    } },
    h('h2', {}, t('create_table')),
    h('div', { class: 'row' }, h('label', { for: 'game' }, t('game')), gameSelect,
      h('span', { class: 'nowrap' }, h('label', { for: 'players' }, t('players')), ' ', countSelect)),
    h('ul', { class: 'plain seats-form' }, seatRows),
    optionRows.length ? h('details', { open: wasOpen }, h('summary', {}, t('options')), h('ul', { class: 'plain' }, optionRows)) : null,
    h('button', { type: 'submit', id: 'create', class: 'primary' }, t('create'))));
  }

  function draw() {
    document.title = t('brand');
    if (!session.player) {
      form = form || nameForm(draw);
      form.relabel();
      replace(root, siteNav('play'), form, rulesCard());
      return;
    }
    drawForm();
    drawLists();
    // Issue 24: the player's own games first, and Play now, above the rest.
    mine = mine || lobbyPlayers(gamesList, navigate, showError, `/u/~${session.player.id}`);
    mine.draw();
    mine.refresh();
    startTurns(); // issue 28: "Your turn" across tables, first
    replace(root, siteNav('play'), h('div', { class: 'lobby' }, turnsSection(), mine.mineBox, mine.playBox, learnCard(), formBox, listsBox, rulesCard()));
    if (location.hash === '#rules') document.getElementById('rules')?.scrollIntoView();
  }

  // ----- getting around: the site's pages and the rules (issue 27) -----
  let rulesGame = null;
  const rulesBody = h('div', { class: 'rules-text', id: 'lobby-rules-text' });
  async function showRules(name) {
    rulesGame = name;
    try {
      const r = await api(`/api/games/${name}/rules?lang=${lang()}`);
      if (rulesGame === name) replace(rulesBody, markdown(r.text));
    } catch (err) { showError(err); }
    draw();
  }
  function rulesCard() {
    if (rulesGame && !rulesBody.childNodes.length) showRules(rulesGame);
    return h('section', { class: 'card rules-card', id: 'rules' },
      h('h2', {}, t('rules_page_title')),
      h('div', { class: 'row' }, gamesList.map((g) => h('button', {
        type: 'button', class: g.name === rulesGame ? 'primary' : '', 'aria-pressed': String(g.name === rulesGame),
        dataset: { rules: g.name }, onclick: () => { replace(rulesBody); showRules(g.name); },
      }, pick(g.titles, g.name)))),
      rulesGame ? rulesBody : null);
  }
  let mine = null;

  try { gamesList = await api('/api/games'); } catch (err) { showError(err); }
  try { learnGames = (await api('/api/learn')).games || []; } catch (err) { learnGames = []; }
  formState.game = gamesList[0]?.name;
  draw();
  refresh();
  const timer = setInterval(refresh, 5000);
  const off = onLang(draw);
  return () => { clearInterval(timer); off(); };
}
