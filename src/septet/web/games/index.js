// Game drawings by registry name; any other game gets the generic drawing.

import generic from './generic.js';
import flip7 from './flip7.js';
import doubleSeven from './double_seven.js';
import sevenShot from './seven_shot.js';

const RENDERERS = { flip7, 'double-seven': doubleSeven, 'seven-shot': sevenShot };

/** The drawing module for `game`: {draw(view, ctx) -> Node, breakdown?, wantsText?}. */
export function rendererFor(game) {
  return RENDERERS[game] || generic;
}
