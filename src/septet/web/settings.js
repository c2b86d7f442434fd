// The player's table settings, kept in this browser (localStorage): all off or "normal" by
// default, so nothing surprising happens until the player asks for it.

const KEY = 'septet.settings';

/** Every setting with its default: {sound, autoForced, speed}. */
export const DEFAULTS = Object.freeze({
  sound: false, // a short tone when it becomes your turn
  autoForced: false, // play a single forced move by itself where doing so reveals nothing
  speed: 'normal', // pace of the table's moments: 'slow' | 'normal' | 'fast'
});

const SPEEDS = { slow: 1.6, normal: 1, fast: 0.35 };

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || '{}');
    const out = { ...DEFAULTS };
    for (const k of Object.keys(DEFAULTS)) {
      if (k in saved && typeof saved[k] === typeof DEFAULTS[k]) out[k] = saved[k];
    }
    if (!(out.speed in SPEEDS)) out.speed = DEFAULTS.speed;
    return out;
  } catch (err) {
    return { ...DEFAULTS };
  }
}

let current = load();
const listeners = new Set();

/** The value of setting `key` (see DEFAULTS). */
export function setting(key) {
  return current[key];
}

/** Change setting `key`, keep it in this browser and tell every listener. */
export function setSetting(key, value) {
  if (!(key in DEFAULTS) || typeof value !== typeof DEFAULTS[key]) return;
  current = { ...current, [key]: value };
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch (err) { /* private mode: kept for this page */ }
  for (const fn of listeners) fn(key, value);
}

/** Call fn(key, value) after every change; returns a function that stops it. */
export function onSetting(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** How much longer (>1) or shorter (<1) the table's pauses are than normal. */
export function paceFactor() {
  return SPEEDS[current.speed] ?? 1;
}

/** Whether the player asked the system for less motion (prefers-reduced-motion). */
export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
