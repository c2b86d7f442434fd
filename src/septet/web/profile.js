// A player's profile (/u/{name} or /u/~{id}): per game the games played and won, the rating
// with its chart and the results against each bot level; the recent games with their replays;
// on one's own profile, "My games" (in play, waiting, finished).

import { api } from './api.js';
import { h, replace } from './dom.js';
import { onLang, pick, t } from './i18n.js';
import { gameLine, ratingChart, ratingText } from './players.js';
import { levelWord } from './seats.js';
import { session, showError } from './shell.js';

function gameCard(g) {
  const vs = (g.vs_bots || []).map((v) => h('li', {},
    t('pl.vs_level', { level: levelWord(v.level) }), ' ',
    h('strong', {}, t('pl.won_of', { won: v.wins, games: v.games }))));
  return h('section', { class: 'card profile-game' },
    h('h2', {}, pick(g.title, g.game)),
    h('p', { class: 'rating-line' },
      h('span', { class: 'rating-big', id: `rating-${g.game}` }, ratingText(g.rating)),
      g.rating ? h('span', { class: 'muted' }, ` ${t('pl.rated_games', { n: g.rating.games })}`) : null),
    ratingChart(g.history),
    h('p', {}, t('pl.played_won', { played: g.played, won: g.won }),
      h('a', { href: `/leaderboard/${g.game}`, class: 'inline-link' }, t('pl.leaderboard'))),
    vs.length ? h('div', {}, h('h3', {}, t('pl.vs_bots')), h('ul', { class: 'plain' }, vs)) : null);
}

/** The lists of "My games" (GET /api/me/games) as one card. */
export function myGamesCard(mine) {
  const section = (key, items) => (items && items.length
    ? h('div', {}, h('h3', {}, t(key)), h('ul', { class: 'plain' }, items.map((g) => gameLine(g))))
    : null);
  // Finished games are the profile's own list below ("Finished" on one's own profile).
  const any = ['playing', 'waiting'].some((k) => (mine[k] || []).length);
  return h('section', { class: 'card my-games', id: 'my-games' },
    h('h2', {}, t('pl.my_games')),
    section('pl.in_play', mine.playing), section('pl.waiting', mine.waiting),
    any ? null : h('p', { class: 'muted' }, t('pl.no_current')));
}

/** The profile page of `ref` (a name, or ~id); returns its cleanup function. */
export async function profilePage(root, ref) {
  let data = null;
  let mine = null;
  try {
    data = await api(`/api/players/${encodeURIComponent(ref)}`);
  } catch (err) {
    replace(root, h('section', { class: 'card' }, h('p', {}, err.status === 404 ? t('pl.no_player') : err.message)));
    if (err.status !== 404) showError(err);
    return () => {};
  }
  const own = session.player && session.player.id === data.player.id;
  if (own) {
    try { mine = await api('/api/me/games'); } catch (err) { mine = null; }
  }
  function draw() {
    const p = data.player;
    const name = p.deleted ? t('pl.deleted') : p.name;
    document.title = `${name} · ${t('brand')}`;
    replace(root, h('div', { class: 'profile' },
      h('section', { class: 'card' },
        h('h1', { id: 'profile-name' }, name, ' ',
          h('small', { class: 'tag' }, p.account ? t('pl.account') : t('pl.guest'))),
        own ? h('p', { class: 'muted' }, t('pl.this_is_you')) : null),
      own && mine ? myGamesCard(mine) : null,
      data.games.length ? data.games.map(gameCard) : h('section', { class: 'card' }, h('p', { class: 'muted' }, t('pl.no_games'))),
      h('section', { class: 'card' }, h('h2', {}, own ? t('pl.my_finished') : t('pl.recent')),
        data.recent.length ? h('ul', { class: 'plain', id: 'recent' }, data.recent.map((g) => gameLine(g))) : h('p', { class: 'muted' }, t('none')))));
  }
  draw();
  return onLang(draw);
}
