// /score/s/<id>: one shared sheet, live over a WebSocket; entries added, edited, deleted,
// undone and redone through the server, which scores them with the engines' rules.
import { h, replace, toast } from '../dom.js';
import { lang } from '../i18n.js';
import { call, num, remember, title } from './common.js';
import { names, st } from './text.js';

const ENTRY_WORD = { flip7: 'round', 'double-seven': 'game', 'seven-shot': 'deal' };
const ADD_WORD = { flip7: 'add_round', 'double-seven': 'add_game', 'seven-shot': 'add_deal' };
const EDITORS = { flip7: './flip7_entry.js', 'double-seven': './ds_entry.js', 'seven-shot': './ss_entry.js' };

export async function mount(app, id) {
  let sheet;
  try {
    sheet = await call(`/api/score/sheets/${encodeURIComponent(id)}`);
  } catch (err) {
    replace(app, h('section', { class: 'sk-card' }, h('p', {}, err.status === 404 ? st('not_found') : err.message),
      h('p', {}, h('a', { href: '/score' }, st('new_sheet')))));
    return { render() {} };
  }
  remember(sheet);
  const editorMod = await import(EDITORS[sheet.game]);
  const extra = editorMod.prepare ? await editorMod.prepare(sheet) : {};
  let editor = null; // {index, draft} while an entry is being entered
  // Links carry the server's public address when it has one (septet serve --public-url).
  const publicUrl = await call('/api/config').then((c) => (c.public_url || '').replace(/\/+$/, ''), () => '');
  let busy = false;
  const live = document.getElementById('sk-live');
  // A render the network brings (a round's preview, a live update) waits while a finger or the
  // mouse is down: the page rebuilt between press and release would swallow that tap.
  let pressed = false;
  let deferred = false;
  app.addEventListener('pointerdown', () => { pressed = true; }, true);
  const release = () => {
    pressed = false;
    if (deferred) { deferred = false; setTimeout(render, 0); }
  };
  window.addEventListener('pointerup', release, true);
  window.addEventListener('pointercancel', release, true);
  function renderSoon() { if (pressed) deferred = true; else render(); }

  // ----- live updates ------------
  let socket = null;
  let retry = 500;
  function connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${proto}://${location.host}/ws/score/${encodeURIComponent(sheet.id)}`);
    socket.onopen = () => { retry = 500; showLive(true); };
    socket.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === 'sheet' && msg.sheet.version >= sheet.version) {
        const changed = msg.sheet.version !== sheet.version;
        sheet = msg.sheet;
        if (changed || !editor) renderSoon();
      }
    };
    socket.onclose = () => {
      showLive(false);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }
  function showLive(on) {
    live.hidden = false;
    live.textContent = on ? `● ${st('live')}` : `○ ${st('offline')}`;
    live.className = on ? 'sk-live on' : 'sk-live';
  }
  connect();
  setInterval(() => { if (socket && socket.readyState === 1) socket.send('{"type":"ping"}'); }, 25000);

  // ----- changes ------------
  async function send(op) {
    if (busy) return false;
    busy = true;
    try {
      sheet = await call(`/api/score/sheets/${encodeURIComponent(sheet.id)}/ops`,
        { method: 'POST', body: { version: sheet.version, op } });
      return true;
    } catch (err) {
      if (err.code === 'stale' && err.data && err.data.sheet) {
        sheet = err.data.sheet;
        toast(st('err.stale'));
      } else {
        toast(err.code === 'network' ? st('err.network') : err.message);
        if (editor) editor.error = err.code === 'network' ? st('err.network') : err.message;
      }
      return false;
    } finally {
      busy = false;
      render();
    }
  }

  const ctx = {
    get sheet() { return sheet; },
    extra,
    rerender: () => renderSoon(),
    async save(entry) {
      const op = editor.index === null ? { op: 'add', entry } : { op: 'edit', index: editor.index, entry };
      const saved = editor;
      if (await send(op)) {
        if (editor === saved) editor = null;
        render();
        window.scrollTo(0, 0);
      }
    },
    cancel() { editor = null; render(); },
    async remove() {
      const i = editor.index;
      editor = null;
      await send({ op: 'delete', index: i });
    },
  };

  function opText(label) {
    if (!label) return '';
    const entry = st(ENTRY_WORD[sheet.game]);
    return st(`op.${label.op}`, { entry, n: (label.index ?? 0) + 1 });
  }

  function open(index) {
    const existing = index === null ? null : sheet.entries[index].entry;
    editor = { index, draft: editorMod.draft(sheet, existing), error: '' };
    render();
    window.scrollTo(0, 0);
  }

  // ----- the view ------------
  function statusLine() {
    const sideNames = sheet.side_names;
    if (sheet.game === 'double-seven') {
      if (!sheet.entries.length) return '';
      return `${st('wins')}: ${sheet.wins.map((w, i) => `${sideNames[i]} ${w}`).join(' · ')}`;
    }
    if (sheet.over) {
      const who = names(sheet.winners.map((s) => sideNames[s]));
      return sheet.winners.length > 1 ? st('win_line_many', { names: who }) : st('wins_line', { names: who });
    }
    const target = sheet.options.target;
    const totals = sheet.totals;
    const best = Math.max(...totals);
    const top = totals.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
    let lead = '';
    if (sheet.entries.length && best >= target && top.length > 1) {
      lead = st('tie_top', { names: names(top.map((i) => sideNames[i])) });
    } else if (sheet.entries.length) {
      lead = st('leader', { name: names(top.map((i) => sideNames[i])), points: num(best) });
    }
    return [st('target_line', { target }), lead].filter(Boolean).join(' · ');
  }

  function optionsLine() {
    const o = sheet.options;
    if (sheet.game === 'flip7') {
      return [st(o.edition), o.brutal ? st('brutal') : '', sheet.decks === 2 ? st('two_decks') : '',
        st('target_line', { target: o.target })].filter(Boolean).join(' · ');
    }
    if (sheet.game === 'seven-shot') return st('target_line', { target: o.target });
    return `${st('ds_rule')} ${st(o.double_seven)}`;
  }

  function table() {
    const sideNames = sheet.side_names;
    const word = st(ENTRY_WORD[sheet.game]);
    const winners = new Set(sheet.winners || []);
    return h('div', { class: 'sk-table-wrap' }, h('table', { class: 'sk-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, word),
        sideNames.map((n, i) => h('th', { scope: 'col', class: winners.has(i) ? 'sk-win' : '' }, n)))),
      h('tbody', {}, sheet.entries.map((e) => h('tr', {
        class: 'sk-entry', tabindex: 0, dataset: { index: e.index },
        onclick: () => open(e.index),
        onkeydown: (ev) => { if (ev.key === 'Enter') open(e.index); },
        title: `${st('edit')} ${word} ${e.index + 1}`,
      },
      h('th', { scope: 'row' }, `${e.index + 1}`),
      editorMod.cells(sheet, e).map((c) => h('td', {}, c))))),
      h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, st('total')),
        sheet.totals.map((t, i) => h('td', { class: winners.has(i) ? 'sk-win' : '' }, num(t)))),
      sheet.game === 'double-seven' && h('tr', {}, h('th', { scope: 'row' }, st('wins')),
        sheet.wins.map((w) => h('td', {}, String(w)))))));
  }

  function share() {
    const url = `${publicUrl || location.origin}/score/s/${sheet.id}`;
    return h('section', { class: 'sk-card sk-share sk-noprint' },
      h('h2', {}, st('share')),
      h('p', { class: 'sk-muted' }, st('share_hint')),
      h('img', { class: 'sk-qr', src: `/api/score/sheets/${encodeURIComponent(sheet.id)}/qr.svg`, alt: st('qr'), width: 168, height: 168 }),
      h('div', { class: 'sk-share-row' },
        h('input', { type: 'text', readonly: true, value: url, 'aria-label': st('share'), onfocus: (e) => e.target.select() }),
        h('button', { type: 'button', onclick: async () => {
          try { await navigator.clipboard.writeText(url); toast(st('copied'), 'info'); } catch { toast(url, 'info'); }
        } }, st('copy')),
        navigator.share && h('button', { type: 'button', onclick: () => navigator.share({ url, title: title(sheet.game) }).catch(() => {}) }, '↗')));
  }

  function bar() {
    return h('nav', { class: 'sk-bar sk-noprint' },
      h('button', { type: 'button', id: 'sk-undo', disabled: !sheet.undo, title: sheet.undo ? st('undo_what', { what: opText(sheet.undo) }) : st('undo'),
        onclick: () => send({ op: 'undo' }) }, `↶ ${st('undo')}`),
      h('button', { type: 'button', id: 'sk-redo', disabled: !sheet.redo, title: sheet.redo ? st('redo_what', { what: opText(sheet.redo) }) : st('redo'),
        onclick: () => send({ op: 'redo' }) }, `↷ ${st('redo')}`),
      h('button', { type: 'button', id: 'sk-add', class: 'sk-primary', disabled: Boolean(sheet.over),
        onclick: () => open(null) }, st(ADD_WORD[sheet.game])));
  }

  function render() {
    document.title = `${title(sheet.game)} — ${st('title')}`;
    if (editor) {
      replace(app, editorMod.view(ctx, editor), h('div', { class: 'sk-bar-space' }));
      return;
    }
    replace(app,
      h('section', { class: 'sk-card sk-head' },
        h('h1', {}, title(sheet.game), ' ', h('span', { class: 'sk-muted sk-small' }, optionsLine())),
        h('p', { class: `sk-status${sheet.over ? ' sk-over' : ''}`, id: 'sk-status' }, statusLine()),
        h('div', { class: 'sk-totals' }, sheet.side_names.map((n, i) => h('div', { class: `sk-total${(sheet.winners || []).includes(i) ? ' sk-win' : ''}` },
          h('span', { class: 'sk-total-name' }, n), h('span', { class: 'sk-total-num' }, num(sheet.totals[i])))))),
      sheet.problems && sheet.problems.length > 0 && h('p', { class: 'sk-error' }, sheet.problems.join(' ')),
      sheet.entries.length ? table() : h('p', { class: 'sk-muted sk-card' }, st('none')),
      sheet.entries.length > 0 && h('p', { class: 'sk-muted sk-small', id: 'sk-legend' }, st(`legend.${sheet.game}`)),
      sheet.undo && h('p', { class: 'sk-muted sk-small sk-noprint' }, st('undo_what', { what: opText(sheet.undo) })),
      share(),
      h('p', { class: 'sk-links sk-noprint' },
        h('button', { type: 'button', onclick: () => window.print() }, st('print')), ' ',
        sheet.game === 'flip7' && h('a', { href: `/score/flip7/odds?edition=${sheet.options.edition}&decks=${sheet.decks || 1}`, class: 'sk-button' }, st('odds_link')), ' ',
        h('a', { href: '/score', class: 'sk-button' }, st('new_sheet'))),
      sheet.entries.length > 0 && h('section', { class: 'sk-print-only sk-details' },
        h('h2', {}, st('details')),
        h('ol', {}, sheet.entries.map((e) => h('li', {}, editorMod.details(sheet, e).map((line) => h('div', {}, line)))))),
      h('p', { class: 'sk-print-only sk-small' }, `${publicUrl || location.origin}/score/s/${sheet.id} · ${new Date().toLocaleString(lang())}`),
      bar(),
      h('div', { class: 'sk-bar-space' }));
  }

  render();
  return { render };
}
