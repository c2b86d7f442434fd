// The Septet browser client: lobby, table (real-time over WebSocket) and replays.
// Every rule lives on the server: the page draws the view it is sent and offers exactly the
// legal moves the server lists. Pages: lobby.js, table.js, replay.js; shared: shell.js.

import { accountPage } from './account.js';
import { api, me } from './api.js';
import { clearToast, h, replace } from './dom.js';
import { t } from './i18n.js';
import { leaderboardPage } from './leaderboard.js'; // issue 24
import { lobbyPage } from './lobby.js';
import { profilePage } from './profile.js'; // issue 24
import { replayPage } from './replay.js';
import { drawHeader, navigate, session, setRouter } from './shell.js';
import { tablePage } from './table.js';
import { startTurns } from './turns.js';

const root = document.getElementById('app');
let cleanup = () => {};
let routing = 0;

async function route() {
  const mine = ++routing;
  cleanup();
  cleanup = () => {};
  clearToast();
  document.getElementById('settings')?.close?.();
  replace(root, h('p', { class: 'muted' }, t('loading')));
  drawHeader();
  const path = location.pathname;
  let m;
  let done;
  if ((m = path.match(/^\/t\/([\w-]+)$/))) done = await tablePage(root, m[1]);
  else if ((m = path.match(/^\/r\/([\w-]+)$/))) done = await replayPage(root, m[1]);
  else if (path === '/account') done = await accountPage(root); // accounts (issue 24)
  else if ((m = path.match(/^\/u\/([^/]+)$/))) done = await profilePage(root, decodeURIComponent(m[1])); // issue 24
  else if ((m = path.match(/^\/leaderboard\/([\w-]+)$/))) done = await leaderboardPage(root, m[1]); // issue 24
  else done = await lobbyPage(root);
  if (mine !== routing) { done?.(); return; } // the player went elsewhere meanwhile
  cleanup = done || (() => {});
  drawHeader();
}

setRouter(route);

document.addEventListener('click', (ev) => {
  const a = ev.target.closest && ev.target.closest('a[href^="/"]');
  if (!a || a.hasAttribute('download') || a.getAttribute('href').startsWith('/api/')) return;
  if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

(async () => {
  const config = api('/api/config').then((c) => { session.publicUrl = c.public_url || ''; }, () => {});
  try { session.player = await me(); } catch (err) { session.player = null; }
  startTurns(); // "your turn" on every page (issue 28)
  drawHeader();
  await config;
  route();
})();
