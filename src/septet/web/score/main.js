// The score keeper's pages: /score (new sheet), /score/s/<id> (a sheet), /score/flip7/odds,
// /score/print/<game> (blank printable sheets). Plain ES modules, no build step.
import { replace } from '../dom.js';
import { lang, onLang, setLang } from '../i18n.js';
import { st } from './text.js';

const app = document.getElementById('sk-app');
let current = null; // {render} of the page on screen

function langButtons() {
  for (const b of document.querySelectorAll('.sk-lang button')) {
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
    b.onclick = () => setLang(b.dataset.lang);
  }
  document.getElementById('sk-brand').textContent = `${st('brand')} · ${st('title')}`;
  // the page's own title (the sheet, odds and print pages set theirs when they draw)
  document.title = st('page_title');
  drawNav();
}

/** The site's pages, one tap apart (issue 27): the lobby, the rules, the score keeper, the odds. */
function drawNav() {
  const nav = document.getElementById('sk-nav');
  if (!nav) return;
  const path = location.pathname.replace(/\/+$/, '');
  const current = path === '/score/flip7/odds' ? 'odds' : 'score';
  nav.setAttribute('aria-label', st('nav.label'));
  const links = [['play', '/'], ['rules', '/#rules'], ['score', '/score'], ['odds', '/score/flip7/odds']];
  nav.replaceChildren(...links.map(([key, href]) => {
    const a = document.createElement('a');
    a.href = href;
    a.className = `sk-nav-link${key === current ? ' current' : ''}`;
    if (key === current) a.setAttribute('aria-current', 'page');
    a.textContent = st(`nav.${key}`);
    return a;
  }));
}

async function route() {
  const path = location.pathname.replace(/\/+$/, '');
  let mod;
  let arg;
  if (path.startsWith('/score/s/')) {
    mod = await import('./sheet.js');
    arg = decodeURIComponent(path.slice('/score/s/'.length));
  } else if (path === '/score/flip7/odds') {
    mod = await import('./odds.js');
  } else if (path.startsWith('/score/print/')) {
    mod = await import('./print.js');
    arg = decodeURIComponent(path.slice('/score/print/'.length));
  } else {
    mod = await import('./home.js');
  }
  current = await mod.mount(app, arg);
}

onLang(() => {
  langButtons();
  if (current && current.render) current.render();
});
langButtons();
route().catch((err) => {
  replace(app, String(err && err.message ? err.message : err));
});
