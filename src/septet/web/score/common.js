// Helpers shared by the score keeper's pages: JSON requests that keep the server's sentence in
// both languages, game titles, and the sheets remembered on this device.
import { lang } from '../i18n.js';

/** fetch JSON; a refusal becomes an Error with .code, .status, .data and the sentence in the
 *  current language (the server sends message and message_ja). */
export async function call(path, { method = 'GET', body, signal } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    const e = new Error('network');
    e.code = 'network';
    throw e;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const text = (lang() === 'ja' && data.message_ja) || data.message || `HTTP ${response.status}`;
    const e = new Error(text);
    e.code = data.error || 'http';
    e.status = response.status;
    e.data = data;
    throw e;
  }
  return data;
}

export const TITLES = {
  flip7: { en: 'Flip 7', ja: 'フリップ7' },
  'double-seven': { en: 'Double Seven', ja: 'ダブルセブン' },
  'seven-shot': { en: 'Seven Shot', ja: 'セブンショット' },
};

export function title(game) {
  return (TITLES[game] || { en: game })[lang()] || game;
}

const RECENT = 'septet.score.recent';

/** Sheets opened on this device, newest first: [{id, game, players, at}]. */
export function recent() {
  try {
    return JSON.parse(localStorage.getItem(RECENT) || '[]');
  } catch {
    return [];
  }
}

export function remember(sheet) {
  const list = recent().filter((s) => s.id !== sheet.id);
  list.unshift({ id: sheet.id, game: sheet.game, players: sheet.players, at: Date.now() });
  localStorage.setItem(RECENT, JSON.stringify(list.slice(0, 12)));
}

/** Card names from the server's card list, in the current language. */
export function cardName(cards, token) {
  const c = cards.find((x) => x.token === token);
  return c ? (lang() === 'ja' ? c.ja : c.en) : token;
}

/** A number as players write it: a true minus sign for negatives (brutal mode). */
export function num(x) {
  return x < 0 ? `−${-x}` : String(x);
}
