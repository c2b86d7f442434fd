// The fallback drawing for any game: the engine's own text rendering of the view (sent by the
// server in the chosen language) or the view itself; the legal moves are the page's buttons.

import { h } from '../dom.js';

export default {
  wantsText: true,
  draw(view, ctx) {
    const text = ctx.text || JSON.stringify(view, null, 1);
    return h('div', { class: 'generic' }, h('pre', { class: 'text-view' }, text));
  },
};
