// The account page (/account, issue 24): a guest creates an account (keeping its games) or
// signs in; an account changes its password, sets its e-mail notices (email.js, issue 28),
// downloads its data, signs out or deletes itself.
// Every check (names, passwords, limits) is the server's; the page shows its answers.

import { api } from './api.js';
import { clearToast, h, replace, toast } from './dom.js';
import { onLang, t } from './i18n.js';
import { emailSection } from './email.js';
import { drawHeader, navigate, session, showError } from './shell.js';

function field(id, label, attrs) {
  return h('label', { class: 'field', for: id }, h('span', {}, label),
    h('input', { id, name: id, required: true, ...attrs }));
}

function form(id, title, intro, fields, submit, onSubmit, extra = null) {
  const el = h('form', { class: 'card account-form', id, onsubmit: async (ev) => {
    ev.preventDefault();
    const data = Object.fromEntries(new FormData(el).entries());
    const button = el.querySelector('button[type=submit]');
    button.disabled = true;
    clearToast();
    try { await onSubmit(data, el); } catch (err) { showError(err); } finally { button.disabled = false; }
  } }, h('h2', {}, title), intro ? h('p', { class: 'muted' }, intro) : null, fields, extra,
  h('div', { class: 'row' }, h('button', { type: 'submit', class: submit.danger ? 'danger' : 'primary', id: `${id}-ok` }, submit.label)));
  return el;
}

const PASSWORD = { type: 'password', minlength: 8, maxlength: 128 };

function guestForms(redraw) {
  const p = session.player;
  const claim = form('create-account', t('acct_create'),
    p ? t('acct_create_intro', { name: p.name }) : t('acct_create_intro_new'),
    [field('claim-name', t('acct_name'), { maxlength: 32, autocomplete: 'username', value: p ? p.name : '' }),
      field('claim-password', t('acct_password'), { ...PASSWORD, autocomplete: 'new-password' }),
      h('p', { class: 'muted small' }, t('acct_password_hint'))],
    { label: t('acct_create_ok') },
    async (d) => {
      const r = await api('/api/account', { method: 'POST', body: { name: d['claim-name'], password: d['claim-password'] } });
      session.player = r.player;
      toast(t('acct_created'), 'info');
      redraw();
    });
  const login = form('sign-in', t('acct_sign_in'), p ? t('acct_sign_in_intro') : null,
    [field('login-name', t('acct_name'), { maxlength: 64, autocomplete: 'username' }),
      field('login-password', t('acct_password'), { type: 'password', maxlength: 1024, autocomplete: 'current-password' })],
    { label: t('acct_sign_in_ok') },
    async (d) => {
      const r = await api('/api/login', { method: 'POST', body: { name: d['login-name'], password: d['login-password'] } });
      session.player = r.player;
      redraw();
    });
  return [claim, login];
}

function accountForms(redraw) {
  const p = session.player;
  const who = h('section', { class: 'card', id: 'signed-in' }, h('h2', {}, t('acct_signed_in', { name: p.name })),
    h('div', { class: 'row' },
      h('a', { class: 'button', id: 'export', href: '/api/me/export', download: 'septet-data.json' }, t('acct_export')),
      h('button', { type: 'button', id: 'sign-out', onclick: async () => {
        try {
          await api('/api/logout', { method: 'POST' });
          session.player = null;
          redraw();
        } catch (err) { showError(err); }
      } }, t('acct_sign_out'))),
    h('p', { class: 'muted small' }, t('acct_export_hint')));
  const change = form('change-password', t('acct_change'), t('acct_change_intro'),
    [field('old-password', t('acct_old_password'), { type: 'password', maxlength: 1024, autocomplete: 'current-password' }),
      field('new-password', t('acct_new_password'), { ...PASSWORD, autocomplete: 'new-password' })],
    { label: t('acct_change_ok') },
    async (d, el) => {
      await api('/api/me/password', { method: 'POST', body: { old: d['old-password'], new: d['new-password'] } });
      el.reset();
      toast(t('acct_changed'), 'info');
    });
  const del = form('delete-account', t('acct_delete'), t('acct_delete_intro'),
    [field('delete-password', t('acct_password'), { type: 'password', maxlength: 1024, autocomplete: 'current-password' }),
      h('label', { class: 'setting' }, h('input', { type: 'checkbox', id: 'delete-confirm', name: 'confirm', required: true }), ' ', t('acct_delete_confirm'))],
    { label: t('acct_delete_ok'), danger: true },
    async (d) => {
      await api('/api/me', { method: 'DELETE', body: { password: d['delete-password'] } });
      session.player = null;
      toast(t('acct_deleted'), 'info');
      navigate('/');
    });
  return [who, emailSection(), change, del];
}

/** Draw the account page into `root`; returns its cleanup. */
export async function accountPage(root) {
  function draw() {
    // A redraw (a new language) keeps what was typed.
    const typed = Object.fromEntries([...root.querySelectorAll('input')].map((i) => [i.id, i.type === 'checkbox' ? i.checked : i.value]));
    drawHeader();
    document.title = `${t('acct_title')} — Septet`;
    const p = session.player;
    const parts = p && p.account ? accountForms(draw) : guestForms(draw);
    const guestExport = p && !p.account
      ? h('p', { class: 'muted small' }, h('a', { href: '/api/me/export', id: 'export', download: 'septet-data.json' }, t('acct_export')), ' — ', t('acct_export_hint'))
      : null;
    replace(root, h('div', { class: 'account-page' }, h('h1', {}, t('acct_title')), parts, guestExport));
    for (const input of root.querySelectorAll('input')) {
      if (!(input.id in typed)) continue;
      if (input.type === 'checkbox') input.checked = typed[input.id];
      else input.value = typed[input.id];
    }
  }
  draw();
  return onLang(draw);
}
