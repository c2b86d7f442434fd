// What the pages of players share (issue 24): ratings as one number with "provisional", the
// rating chart (inline SVG, no library) and the lists of a player's games.

import { api } from './api.js';
import { h, replace, svg } from './dom.js';
import { lang, pick, t } from './i18n.js';
import { levelWord } from './seats.js';

/** The rating as players read it: "1138" and, until enough games, "provisional". */
export function ratingText(r) {
  if (!r) return t('pl.unrated');
  return r.provisional ? `${r.rating}${t('pl.provisional')}` : String(r.rating);
}

/** A seat of a listed game in words: a person's name, a bot by its level. */
export function seatWord(s) {
  if (s.player === null || s.player === undefined) {
    const level = levelWord(s.level);
    return level ? t('pl.bot_level', { level }) : t('bot');
  }
  return s.name || t('pl.deleted');
}

/** The seats of a listed game joined as the lobby joins them. */
export function seatsLine(seats) {
  return seats.map(seatWord).join(lang() === 'ja' ? '・' : ' · ');
}

/**
 * A small line chart of `points` ([{rating}], oldest first) as inline SVG, `w` x `hgt` px,
 * with its first and last values written beside it; null for fewer than two points.
 */
export function ratingChart(points, w = 280, hgt = 72) {
  if (!points || points.length < 2) return null;
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = Math.max(1, hi - lo);
  const pad = 6;
  const left = 34; // room for the highest and lowest values, written at the left
  const x = (i) => left + (i * (w - left - pad)) / (values.length - 1);
  const y = (v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / span;
  const path = values.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const label = t('pl.chart_label', { n: values.length, from: values[0], to: values[values.length - 1], lo, hi });
  return svg('svg', { class: 'rating-chart', viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: 'img', 'aria-label': label },
    svg('title', {}, label),
    svg('line', { x1: left, x2: w - pad, y1: y(lo), y2: y(lo), class: 'axis' }),
    svg('path', { d: path, class: 'line' }),
    svg('circle', { cx: x(values.length - 1), cy: y(values[values.length - 1]), r: 3, class: 'dot' }),
    svg('text', { x: 0, y: pad + 4, class: 'tick' }, String(hi)),
    svg('text', { x: 0, y: hgt - pad + 2, class: 'tick' }, String(lo)));
}

/** A list line of one of the player's games: title, seats, and a link (play, watch, replay). */
export function gameLine(g, { extra = null } = {}) {
  const href = g.status === 'finished' || g.replay ? `/r/${g.id}` : `/t/${g.id}`;
  const word = g.status === 'finished' || g.replay ? t('replay') : g.status === 'waiting' ? t('pl.open') : t('pl.play');
  return h('li', { class: 'table-line' },
    h('strong', {}, pick(g.title, g.game)), ' ',
    h('span', { class: 'muted' }, seatsLine(g.seats || [])), ' ',
    g.won === true ? h('span', { class: 'tag won' }, t('pl.won')) : null,
    g.left ? h('span', { class: 'tag' }, t('pl.left')) : null,
    extra,
    h('a', { href, class: 'button' }, word));
}

// ----- the lobby's part (issue 24): Play now, and the player's own games first -------------

const BOTS_AFTER = 30;

/**
 * The lobby's Play now card and "My games" box: `box` is redrawn by `refresh()` (the player's
 * tables in play and waiting, seats a rematch keeps for them, with Decline).
 */
export function lobbyPlayers(gamesList, navigate, showError, profileHref) {
  const state = { game: gamesList[0]?.name, players: null, mine: null };
  const playBox = h('div');
  const mineBox = h('div');
  function counts(g) {
    const out = [];
    for (let n = g.min_players; n <= g.max_players; n++) out.push(n);
    return out;
  }
  function drawPlay() {
    const g = gamesList.find((x) => x.name === state.game) || gamesList[0];
    if (!g) { replace(playBox); return; }
    if (!state.players || state.players < g.min_players || state.players > g.max_players) {
      state.players = Math.max(g.min_players, Math.min(g.name === 'seven-shot' ? 4 : 2, g.max_players));
    }
    replace(playBox, h('form', { class: 'card play-now', onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        const r = await api('/api/play-now', { method: 'POST', body: { game: g.name, players: state.players, bots_after: BOTS_AFTER } });
        navigate(`/t/${r.table.id}`);
      } catch (err) { showError(err); }
    } },
    h('h2', {}, t('pl.play_now')),
    h('div', { class: 'row' },
      h('label', { for: 'pn-game' }, t('game')),
      h('select', { id: 'pn-game', onchange: (ev) => { state.game = ev.target.value; drawPlay(); } },
        gamesList.map((x) => h('option', { value: x.name, selected: x.name === g.name }, pick(x.titles, x.name)))),
      h('span', { class: 'nowrap' }, h('label', { for: 'pn-players' }, t('players')), ' ',
        h('select', { id: 'pn-players', onchange: (ev) => { state.players = Number(ev.target.value); } },
          counts(g).map((n) => h('option', { value: n, selected: n === state.players }, String(n))))),
      h('button', { type: 'submit', id: 'play-now', class: 'primary' }, t('pl.play_now'))),
    h('p', { class: 'muted' }, t('pl.play_now_hint', { s: BOTS_AFTER })),
    h('p', { class: 'muted' }, `${t('pl.leaderboards')} `, gamesList.map((x, i) => [i ? ' · ' : '', h('a', { href: `/leaderboard/${x.name}` }, pick(x.titles, x.name))]))));
  }
  function drawMine() {
    const mine = state.mine;
    if (!mine) { replace(mineBox); return; }
    const offers = (mine.offers || []).map((g) => gameLine({ ...g, status: 'waiting' }, {
      extra: h('span', {}, h('span', { class: 'tag' }, t('pl.offered')), ' ',
        h('button', { type: 'button', class: 'decline', onclick: async () => {
          try { await api(`/api/tables/${g.id}/decline`, { method: 'POST', body: {} }); refresh(); } catch (err) { showError(err); }
        } }, t('pl.decline'))),
    }));
    const items = [...offers, ...(mine.playing || []).map((g) => gameLine(g)), ...(mine.waiting || []).map((g) => gameLine(g))];
    replace(mineBox, h('section', { class: 'card my-games', id: 'my-games' },
      h('div', { class: 'row' }, h('h2', {}, t('pl.my_games')),
        profileHref ? h('a', { href: profileHref, id: 'my-profile', class: 'inline-link' }, t('pl.my_profile')) : null),
      items.length ? h('ul', { class: 'plain' }, items) : h('p', { class: 'muted' }, t('pl.no_current'))));
  }
  async function refresh() {
    try { state.mine = await api('/api/me/games'); } catch (err) { state.mine = null; }
    drawMine();
  }
  return { playBox, mineBox, refresh, draw: () => { drawPlay(); drawMine(); } };
}
