// The leaderboard of a game (/leaderboard/{game}?page=): rated players with enough games, best
// first, 25 a page; bots are listed among the people and marked.

import { api } from './api.js';
import { h, replace } from './dom.js';
import { onLang, pick, t } from './i18n.js';
import { levelWord } from './seats.js';
import { showError } from './shell.js';

const SIZE = 25;

/** The leaderboard page of `game`; returns its cleanup function. */
export async function leaderboardPage(root, game) {
  const page = Math.max(1, Number(new URLSearchParams(location.search).get('page')) || 1);
  let data = null;
  let gamesList = [];
  try {
    [data, gamesList] = await Promise.all([
      api(`/api/leaderboard/${encodeURIComponent(game)}?page=${page}&size=${SIZE}`),
      api('/api/games'),
    ]);
  } catch (err) {
    replace(root, h('section', { class: 'card' }, h('p', {}, err.message)));
    showError(err);
    return () => {};
  }
  function row(p) {
    const name = p.bot ? pick(p.names, p.name) : p.name;
    return h('tr', { class: p.bot ? 'bot-row' : '' },
      h('td', { class: 'num' }, String(p.rank)),
      h('td', {}, p.path ? h('a', { href: p.path }, name) : name,
        p.bot ? h('span', { class: 'tag', title: levelWord(p.level) }, ` ${t('bot')}`) : null),
      h('td', { class: 'num' }, String(p.rating)),
      h('td', { class: 'num' }, String(p.games)),
      h('td', { class: 'num' }, String(p.wins)));
  }
  function draw() {
    document.title = `${t('pl.leaderboard')} · ${pick(data.title, game)} · ${t('brand')}`;
    const pages = Math.max(1, Math.ceil(data.total / SIZE));
    const link = (n, label) => h('a', { href: `/leaderboard/${game}?page=${n}`, class: 'button' }, label);
    replace(root, h('div', { class: 'leaderboard' },
      h('section', { class: 'card' },
        h('h1', {}, t('pl.leaderboard_of', { title: pick(data.title, game) })),
        h('nav', { class: 'row game-tabs', 'aria-label': t('game') }, gamesList.map((g) => (g.name === game
          ? h('strong', {}, pick(g.titles, g.name))
          : h('a', { href: `/leaderboard/${g.name}` }, pick(g.titles, g.name))))),
        h('p', { class: 'muted' }, t('pl.board_note', { n: data.min_games }))),
      h('section', { class: 'card' },
        data.players.length
          ? h('table', { class: 'board', id: 'board' },
            h('thead', {}, h('tr', {}, h('th', { class: 'num' }, '#'), h('th', {}, t('pl.player')),
              h('th', { class: 'num' }, t('pl.rating')), h('th', { class: 'num' }, t('pl.games')),
              h('th', { class: 'num' }, t('pl.wins')))),
            h('tbody', {}, data.players.map(row)))
          : h('p', { class: 'muted' }, t('pl.board_empty', { n: data.min_games })),
        pages > 1 ? h('div', { class: 'row pager' },
          page > 1 ? link(page - 1, t('pl.prev')) : null,
          h('span', { class: 'muted' }, t('pl.page_of', { page, pages })),
          page < pages ? link(page + 1, t('pl.next')) : null) : null)));
  }
  draw();
  return onLang(draw);
}
