// Turn cues: the tab's title and icon say when it is your turn, and an optional short tone
// (off by default, see settings.js) sounds when your turn begins.

import { setting } from './settings.js';

const ICON = (dot) => 'data:image/svg+xml,' + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>"
  + "<rect width='16' height='16' rx='3' fill='#b0413e'/>"
  + "<text x='8' y='12.5' font-size='11' text-anchor='middle' fill='white' font-family='sans-serif'>7</text>"
  + (dot ? "<circle cx='12.5' cy='3.5' r='3.5' fill='#f0c75e' stroke='#1f1d1a' stroke-width='1'/>" : '')
  + '</svg>');

let mine = false;
let audio = null;

function iconLink() {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  return link;
}

/**
 * Set the tab title to `title`, marked ("● ") with a dotted icon while `yourTurn` is true;
 * sounds the tone (when the player turned it on) when the turn has just become theirs.
 */
export function turnCue(title, yourTurn) {
  document.title = yourTurn ? `● ${title}` : title;
  iconLink().href = ICON(yourTurn);
  if (yourTurn && !mine && setting('sound')) tone();
  mine = yourTurn;
}

/** Back to the plain title and icon (leaving a table). */
export function clearCue(title) {
  mine = false;
  document.title = title;
  iconLink().href = ICON(false);
}

/** A short, soft two-note tone (Web Audio; nothing to download). */
export function tone() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    const now = audio.currentTime;
    for (const [i, freq] of [[0, 660], [1, 880]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.22);
    }
  } catch (err) {
    // a browser without sound: the title and icon still tell
  }
}
