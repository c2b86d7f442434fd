// What every page shares: who this browser plays as, the header (language, settings, the way
// back to the lobby), the name form, errors as sentences, and navigation.

import { api } from './api.js';
import { h, replace, toast } from './dom.js';
import { lang, onLang, setLang, t } from './i18n.js';
import { reducedMotion, setSetting, setting } from './settings.js';

/** Shared state of the page: the guest (or null) and the public address for invite links. */
export const session = { player: null, publicUrl: '' };

let router = () => {};

/** Set the function that draws the page for location.pathname. */
export function setRouter(fn) {
  router = fn;
}

/** Go to `path` inside the client (no reload). */
export function navigate(path) {
  history.pushState({}, '', path);
  router();
}

/** An error from the server or the network, as a sentence in the current language. */
export function errorText(err) {
  const key = `err.${err.code}`;
  const text = t(key, { message: err.message });
  if (text !== key) return text;
  return lang() === 'ja' && err.messageJa ? err.messageJa : err.message;
}

/** Show `err` in the page's toast. */
export function showError(err) {
  toast(errorText(err));
}

// ----- header ---------------------------------------------------------------------------------

/** Draw the header in the current language: brand, lobby link (away from the lobby), me. */
export function drawHeader() {
  for (const b of document.querySelectorAll('.lang button')) {
    b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
  }
  document.querySelector('.brand').textContent = t('brand');
  const back = document.getElementById('to-lobby');
  if (back) {
    back.textContent = t('back_to_lobby');
    back.hidden = location.pathname === '/';
  }
  const gear = document.getElementById('open-settings');
  if (gear) {
    gear.setAttribute('aria-label', t('settings'));
    gear.title = t('settings');
    gear.querySelector('.label').textContent = t('settings');
  }
  // accounts (issue 24): "Sign in" for guests, the account's name for accounts; both lead to /account.
  const account = session.player && session.player.account;
  replace(document.getElementById('me'), h('a', {
    href: '/account', id: 'account-link', class: account ? 'account-link signed-in' : 'account-link',
    title: account ? t('acct_title') : (session.player ? session.player.name : null),
  }, account ? session.player.name : t('acct_sign_in')));
}

function settingsDialog() {
  const dialog = document.getElementById('settings');
  const check = (key, label) => h('label', { class: 'setting' },
    h('input', { type: 'checkbox', id: `set-${key}`, checked: setting(key), onchange: (ev) => setSetting(key, ev.target.checked) }),
    ' ', label);
  const speed = h('select', { id: 'set-speed', onchange: (ev) => setSetting('speed', ev.target.value) },
    ['slow', 'normal', 'fast'].map((s) => h('option', { value: s, selected: setting('speed') === s }, t(`speed_${s}`))));
  replace(dialog, h('form', { method: 'dialog', class: 'settings-form' },
    h('h2', {}, t('settings')),
    check('sound', t('settings_sound')),
    check('autoForced', t('settings_auto')),
    h('label', { class: 'setting' }, t('settings_speed'), ' ', speed),
    reducedMotion() ? h('p', { class: 'muted' }, t('settings_motion_note')) : null,
    h('p', { class: 'muted' }, t('settings_kept')),
    h('div', { class: 'row' }, h('button', { type: 'submit', id: 'settings-close', class: 'primary' }, t('close')))));
}

/** Open the settings dialog. */
export function openSettings() {
  const dialog = document.getElementById('settings');
  if (!dialog) return;
  settingsDialog();
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
}

for (const b of document.querySelectorAll('.lang button')) {
  b.addEventListener('click', () => setLang(b.dataset.lang));
}
document.getElementById('open-settings')?.addEventListener('click', openSettings);
onLang(() => {
  drawHeader();
  const dialog = document.getElementById('settings');
  if (dialog && dialog.open) settingsDialog();
});

/**
 * The name form: choose a display name (POST /api/guest), then onDone(). The same form node
 * is kept while the page redraws, so what a player is typing is never wiped.
 */
export function nameForm(onDone, initial = '') {
  const input = h('input', {
    id: 'name', name: 'name', maxlength: 32, required: true, value: initial,
    autocomplete: 'nickname', 'aria-label': t('your_name'),
  });
  const label = h('label', { for: 'name' }, t('your_name'));
  const hint = h('p', { class: 'muted' }, t('name_hint'));
  const button = h('button', { type: 'submit', id: 'name-ok' }, t('continue'));
  const form = h('form', { class: 'card name-form', onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      session.player = (await api('/api/guest', { method: 'POST', body: { name: input.value } })).player;
      drawHeader();
      onDone();
    } catch (err) { showError(err); }
  } }, label, hint, h('div', { class: 'row' }, input, button));
  form.relabel = () => {
    label.textContent = t('your_name');
    hint.textContent = t('name_hint');
    button.textContent = t('continue');
    input.setAttribute('aria-label', t('your_name'));
  };
  return form;
}
