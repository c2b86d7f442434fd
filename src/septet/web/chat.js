// Table chat: short messages between the seated players, shown as text only (names and
// messages are user input: they never go in as HTML). The server stores, limits and
// rate-limits them; this panel only sends {type: "chat", text} and shows what comes back.

import { h, replace } from './dom.js';
import { t } from './i18n.js';

const MAX = 200;

function clock(at) {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/**
 * The chat panel. `send(text)` sends a message; `nameOf(seat)` names a seat as the table does.
 * Returns {el, setAll(messages), add(message), setSeated(bool), error(text), onUnread(fn), seen()}.
 */
export function chatPanel({ send, nameOf }) {
  let messages = [];
  let seated = false;
  let unread = 0;
  let unreadFn = () => {};
  const list = h('ol', { class: 'plain chat-list', id: 'chat-list', 'aria-live': 'polite' });
  const note = h('p', { class: 'muted chat-note', id: 'chat-note' });
  const input = h('input', {
    id: 'chat-input', maxlength: MAX, autocomplete: 'off', 'aria-label': t('chat_placeholder'), placeholder: t('chat_placeholder'),
  });
  const button = h('button', { type: 'submit', id: 'chat-send' }, t('send'));
  const form = h('form', { class: 'row chat-form', onsubmit: (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send(text);
    input.value = '';
  } }, input, button);
  const el = h('div', { class: 'chat' }, list, note, form);

  function line(m) {
    const who = m.seat === null || m.seat === undefined ? (m.name || '') : nameOf(m.seat, m.name);
    return h('li', { class: 'chat-msg', dataset: { id: m.id } },
      h('strong', { class: 'who' }, who), h('span', { class: 'chat-text' }, ` ${m.text}`),
      h('small', { class: 'muted' }, ` ${clock(m.at)}`));
  }

  function draw() {
    replace(list, messages.length ? messages.map(line) : h('li', { class: 'muted' }, t('chat_none')));
    list.scrollTop = list.scrollHeight;
    input.placeholder = t('chat_placeholder');
    input.setAttribute('aria-label', t('chat_placeholder'));
    button.textContent = t('send');
    input.disabled = !seated;
    button.disabled = !seated;
    if (!seated) note.textContent = t('chat_spectator_note');
    else if (note.dataset.kind !== 'error') note.textContent = '';
  }

  return {
    el,
    setAll(list0) { messages = [...list0]; draw(); },
    add(m) {
      if (messages.some((x) => x.id === m.id)) return;
      messages.push(m);
      if (messages.length > 200) messages = messages.slice(-200);
      unread += 1;
      unreadFn(unread);
      draw();
    },
    setSeated(yes) { seated = Boolean(yes); draw(); },
    error(text) { note.dataset.kind = 'error'; note.textContent = text; setTimeout(() => { note.dataset.kind = ''; draw(); }, 5000); },
    onUnread(fn) { unreadFn = fn; },
    seen() { unread = 0; unreadFn(0); },
    redraw: draw,
  };
}
