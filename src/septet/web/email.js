// The e-mail settings of an account (issue 28), a section of the /account page: add an address
// (confirmed by a link the server mails), see whether it is confirmed and why the last mail did
// not go, choose the daily digest and the mails' language, send a test mail, remove it.
// Every check (the address, the account, whether the server sends mail) is the server's.

import { api } from './api.js';
import { clearToast, h, replace, toast } from './dom.js';
import { lang, t } from './i18n.js';
import { showError } from './shell.js';

async function call(path, options, after) {
  clearToast();
  try {
    const r = await api(path, options);
    after(r);
  } catch (err) { showError(err); }
}

function digestBox(checked, onchange) {
  return h('label', { class: 'setting' },
    h('input', { type: 'checkbox', id: 'email-digest', name: 'digest', checked, onchange }), h('span', {}, t('email.digest')));
}

function addressForm(current, draw) {
  const input = h('input', { id: 'email-address', name: 'address', type: 'email', required: true, maxlength: 254,
    autocomplete: 'email', placeholder: 'name@example.org' });
  const box = current ? null : digestBox(false);
  const el = h('form', { class: 'email-form', onsubmit: (ev) => {
    ev.preventDefault();
    const button = el.querySelector('button[type=submit]');
    button.disabled = true;
    const body = { address: input.value, lang: current ? current.lang : lang(), digest: current ? current.digest : el.querySelector('#email-digest').checked };
    call('/api/me/email', { method: 'POST', body }, (r) => {
      toast(t('email.sent_link', { address: r.email.address }), 'info');
      draw(r);
    }).finally(() => { button.disabled = false; });
  } }, h('label', { class: 'field', for: 'email-address' }, h('span', {}, current ? t('email.change') : t('email.address')), input),
  box, h('div', { class: 'row' }, h('button', { type: 'submit', class: current ? '' : 'primary', id: 'email-save' }, current ? t('email.change_ok') : t('email.save'))));
  return el;
}

function status(email, r) {
  const lastError = lang() === 'ja' && r.last_error_ja ? r.last_error_ja : r.last_error;
  const tag = email.confirmed
    ? h('span', { class: 'tag ok', id: 'email-status' }, t('email.confirmed'))
    : h('span', { class: 'tag warn', id: 'email-status' }, t('email.unconfirmed'));
  return [
    h('p', { class: 'email-now' }, h('strong', { class: 'email-address' }, email.address), ' ', tag),
    email.confirmed ? null : h('p', { class: 'muted small' }, t('email.unconfirmed_hint')),
    lastError ? h('p', { class: 'email-error', id: 'email-error', role: 'alert' }, t('email.last_error', { error: lastError })) : null,
  ];
}

function prefs(email, draw) {
  const patch = (body) => call('/api/me/email', { method: 'PATCH', body }, draw);
  const langSelect = h('select', { id: 'email-lang', onchange: (ev) => patch({ lang: ev.target.value }) },
    h('option', { value: 'en', selected: email.lang === 'en' }, 'English'),
    h('option', { value: 'ja', selected: email.lang === 'ja' }, '日本語'));
  return [
    digestBox(email.digest, (ev) => patch({ digest: ev.target.checked })),
    h('label', { class: 'setting', for: 'email-lang' }, t('email.lang'), ' ', langSelect),
    h('div', { class: 'row' },
      h('button', { type: 'button', id: 'email-test', onclick: () => call('/api/me/email/test', { method: 'POST' },
        () => toast(t('email.test_queued', { address: email.address }), 'info')) }, t('email.test')),
      h('button', { type: 'button', id: 'email-remove', class: 'danger', onclick: () => call('/api/me/email', { method: 'DELETE' },
        (r) => { toast(t('email.removed'), 'info'); draw(r); }) }, t('email.remove'))),
  ];
}

/** The account page's "E-mail notices" section (an account only): drawn once the server says
 * whether it sends mail and which address this account has. */
export function emailSection() {
  const el = h('section', { class: 'card email-settings', id: 'email-settings', 'aria-busy': 'true' },
    h('h2', {}, t('email.title')));
  function draw(r) {
    el.removeAttribute('aria-busy');
    if (!r.enabled) {
      replace(el, h('h2', {}, t('email.title')), h('p', { class: 'muted', id: 'email-off' }, t('email.off')));
      return;
    }
    const head = [h('h2', {}, t('email.title')), h('p', { class: 'muted small' }, t('email.intro'))];
    if (!r.email) {
      replace(el, head, addressForm(null, draw));
      return;
    }
    replace(el, head, status(r.email, r), prefs(r.email, draw), addressForm(r.email, draw));
  }
  api('/api/me/email').then(draw, showError);
  return el;
}
