// Double Seven's tiles as pictograms: each animal of DS-1.1 (and the clover) has its own
// silhouette and colour, drawn as SVG (no emoji font, no letter badges), and its name in the
// rulebook's words under it, so a tile reads without colour and without the picture.

import { svg } from '../dom.js';

/** Animal -> [colour, English name, plural, Japanese name] (DS-1.1, Japanese rulebook names). */
export const ANIMALS = {
  bird: ['#c99700', 'bird', 'birds', '鳥'],
  squirrel: ['#b4532a', 'squirrel', 'squirrels', 'リス'],
  fox: ['#e36d12', 'fox', 'foxes', 'キツネ'],
  butterfly: ['#8a4fcf', 'butterfly', 'butterflies', '蝶'],
  swan: ['#2f78c4', 'swan', 'swans', '白鳥'],
  frog: ['#3c9a3c', 'frog', 'frogs', 'カエル'],
  deer: ['#6f4a2a', 'deer', 'deer', '鹿'],
  rabbit: ['#cf5f8c', 'rabbit', 'rabbits', 'ウサギ'],
  clover: ['#0f7f74', 'clover', 'clovers', 'クローバー'],
};

/** The animal's name in `lang` ('en' | 'ja'), plural in English when n != 1. */
export function animalName(animal, lang, n = 1) {
  const a = ANIMALS[animal];
  if (!a) return animal;
  if (lang === 'ja') return a[3];
  return n === 1 ? a[1] : a[2];
}

const DARK = '#2a2118';
const LIGHT = '#ffffff';

// Each drawing is in a 32x32 box, filled with the animal's colour `c`.
const DRAW = {
  bird: (c) => [
    svg('polygon', { points: '8,18 1,12 3,22', fill: c }),
    svg('ellipse', { cx: 15, cy: 19, rx: 9.5, ry: 7, fill: c }),
    svg('circle', { cx: 22, cy: 11, r: 5.5, fill: c }),
    svg('polygon', { points: '26.5,9.5 31.5,12 26.5,13.5', fill: DARK }),
    svg('ellipse', { cx: 13, cy: 19, rx: 5.5, ry: 3, fill: LIGHT, opacity: 0.45 }),
    svg('circle', { cx: 23.3, cy: 10, r: 1.4, fill: DARK }),
    svg('path', { d: 'M13 26 L12 30 M18 26 L19 30', stroke: DARK, 'stroke-width': 1.6, 'stroke-linecap': 'round' }),
  ],
  squirrel: (c) => [
    // a bushy tail curling up behind an upright body
    svg('path', { d: 'M16 29 C5 30, 1 21, 3 13 C5 5, 12 1.5, 16 5 C18.5 7.5, 16.5 11.5, 13 11 C9.5 11, 9 17, 12.5 21.5 Z', fill: c }),
    svg('path', { d: 'M6 20 C5 14, 8 8, 12 7', stroke: LIGHT, 'stroke-width': 1.4, fill: 'none', opacity: 0.45 }),
    svg('ellipse', { cx: 20.5, cy: 22.5, rx: 6, ry: 7.2, fill: c }),
    svg('circle', { cx: 23, cy: 12, r: 5, fill: c }),
    svg('polygon', { points: '20.5,8.5 21.8,2.8 24.6,8', fill: c }),
    svg('circle', { cx: 24.8, cy: 11.2, r: 1.3, fill: DARK }),
    svg('circle', { cx: 27.8, cy: 13, r: 0.9, fill: DARK }),
    svg('ellipse', { cx: 22, cy: 23.5, rx: 3, ry: 4.2, fill: LIGHT, opacity: 0.4 }),
    svg('circle', { cx: 26, cy: 19.5, r: 2, fill: '#8a5a2b' }),
  ],
  fox: (c) => [
    svg('polygon', { points: '3,2 13,10 6,15', fill: c }),
    svg('polygon', { points: '29,2 19,10 26,15', fill: c }),
    svg('path', { d: 'M3.5 9 L16 12.5 L28.5 9 L25 20 L16 29 L7 20 Z', fill: c }),
    svg('polygon', { points: '9,18 23,18 16,28.5', fill: LIGHT }),
    svg('circle', { cx: 11, cy: 15, r: 1.5, fill: DARK }),
    svg('circle', { cx: 21, cy: 15, r: 1.5, fill: DARK }),
    svg('circle', { cx: 16, cy: 27, r: 1.7, fill: DARK }),
  ],
  butterfly: (c) => [
    svg('ellipse', { cx: 9.5, cy: 11, rx: 7.5, ry: 6.5, fill: c, transform: 'rotate(-25 9.5 11)' }),
    svg('ellipse', { cx: 22.5, cy: 11, rx: 7.5, ry: 6.5, fill: c, transform: 'rotate(25 22.5 11)' }),
    svg('ellipse', { cx: 11, cy: 22.5, rx: 5, ry: 5.5, fill: c }),
    svg('ellipse', { cx: 21, cy: 22.5, rx: 5, ry: 5.5, fill: c }),
    svg('circle', { cx: 9, cy: 11, r: 2.2, fill: LIGHT, opacity: 0.55 }),
    svg('circle', { cx: 23, cy: 11, r: 2.2, fill: LIGHT, opacity: 0.55 }),
    svg('rect', { x: 14.8, y: 7, width: 2.4, height: 20, rx: 1.2, fill: DARK }),
    svg('path', { d: 'M15.5 7.5 Q13 3 11 2 M16.5 7.5 Q19 3 21 2', stroke: DARK, 'stroke-width': 1.2, fill: 'none' }),
  ],
  swan: (c) => [
    svg('path', { d: 'M5 21 Q6 29 17 29 Q29 29 30 19 Q25 23 19 21.5 Z', fill: c }),
    svg('path', { d: 'M10 22 C4.5 15, 6 6.5, 12 6.5 C15 6.5, 15.5 9.5, 14 11', stroke: c, 'stroke-width': 3.6, fill: 'none', 'stroke-linecap': 'round' }),
    svg('polygon', { points: '14,5.2 19,7.2 14,8.6', fill: DARK }),
    svg('circle', { cx: 12.2, cy: 6.6, r: 1.1, fill: LIGHT }),
    svg('path', { d: 'M14 24 Q20 20 27 21', stroke: LIGHT, 'stroke-width': 1.4, fill: 'none', opacity: 0.6 }),
  ],
  frog: (c) => [
    svg('ellipse', { cx: 16, cy: 20, rx: 13, ry: 9.5, fill: c }),
    svg('circle', { cx: 8.5, cy: 10.5, r: 5, fill: c }),
    svg('circle', { cx: 23.5, cy: 10.5, r: 5, fill: c }),
    svg('circle', { cx: 8.5, cy: 10.5, r: 2.9, fill: LIGHT }),
    svg('circle', { cx: 23.5, cy: 10.5, r: 2.9, fill: LIGHT }),
    svg('circle', { cx: 9, cy: 11, r: 1.5, fill: DARK }),
    svg('circle', { cx: 23, cy: 11, r: 1.5, fill: DARK }),
    svg('path', { d: 'M8.5 21 Q16 27 23.5 21', stroke: DARK, 'stroke-width': 1.6, fill: 'none', 'stroke-linecap': 'round' }),
  ],
  deer: (c) => [
    svg('path', { d: 'M12.5 12 L9 3.5 M10.8 7.8 L5.5 6 M9.8 5.2 L11.8 1.5 M19.5 12 L23 3.5 M21.2 7.8 L26.5 6 M22.2 5.2 L20.2 1.5', stroke: c, 'stroke-width': 2.3, fill: 'none', 'stroke-linecap': 'round' }),
    svg('ellipse', { cx: 7.5, cy: 15.5, rx: 4.5, ry: 2.2, fill: c, transform: 'rotate(20 7.5 15.5)' }),
    svg('ellipse', { cx: 24.5, cy: 15.5, rx: 4.5, ry: 2.2, fill: c, transform: 'rotate(-20 24.5 15.5)' }),
    svg('path', { d: 'M10 14 Q16 10 22 14 L19.5 27 Q16 30.5 12.5 27 Z', fill: c }),
    svg('circle', { cx: 13.3, cy: 17.5, r: 1.3, fill: DARK }),
    svg('circle', { cx: 18.7, cy: 17.5, r: 1.3, fill: DARK }),
    svg('ellipse', { cx: 16, cy: 27, rx: 2.2, ry: 1.6, fill: DARK }),
  ],
  rabbit: (c) => [
    svg('ellipse', { cx: 11.5, cy: 8.5, rx: 3.3, ry: 8, fill: c, transform: 'rotate(-8 11.5 8.5)' }),
    svg('ellipse', { cx: 20.5, cy: 8.5, rx: 3.3, ry: 8, fill: c, transform: 'rotate(8 20.5 8.5)' }),
    svg('ellipse', { cx: 11.5, cy: 9, rx: 1.4, ry: 5.5, fill: LIGHT, opacity: 0.5, transform: 'rotate(-8 11.5 9)' }),
    svg('ellipse', { cx: 20.5, cy: 9, rx: 1.4, ry: 5.5, fill: LIGHT, opacity: 0.5, transform: 'rotate(8 20.5 9)' }),
    svg('circle', { cx: 16, cy: 21.5, r: 8.5, fill: c }),
    svg('circle', { cx: 13, cy: 20, r: 1.3, fill: DARK }),
    svg('circle', { cx: 19, cy: 20, r: 1.3, fill: DARK }),
    svg('path', { d: 'M14.6 24 L16 25.4 L17.4 24 Z', fill: DARK }),
  ],
  clover: (c) => [
    svg('path', { d: 'M17 17 Q21 24 25 30', stroke: c, 'stroke-width': 2.4, fill: 'none', 'stroke-linecap': 'round' }),
    ...[[16, 8.8], [23.2, 16], [16, 23.2], [8.8, 16]].map(([x, y]) => svg('circle', { cx: x, cy: y, r: 6.3, fill: c })),
    svg('circle', { cx: 16, cy: 16, r: 2.2, fill: LIGHT, opacity: 0.7 }),
  ],
};

/** The pictogram of `animal` as an <svg> of `size` px (decorative: the name goes beside it). */
export function pictogram(animal, size = 32) {
  const colour = (ANIMALS[animal] || ['#777'])[0];
  const parts = (DRAW[animal] || ((c) => [svg('circle', { cx: 16, cy: 16, r: 12, fill: c })]))(colour);
  return svg('svg', {
    class: `pict pict-${animal}`, viewBox: '0 0 32 32', width: size, height: size, 'aria-hidden': 'true', focusable: 'false',
  }, parts);
}

/** The 7 token (DS-1.2) or, with `double`, the 77 token, as a small coin. */
export function token(double = false, size = 24) {
  return svg('svg', { class: `token-pict${double ? ' double' : ''}`, viewBox: '0 0 24 24', width: size, height: size, 'aria-hidden': 'true', focusable: 'false' },
    svg('circle', { cx: 12, cy: 12, r: 11, fill: double ? '#b8860b' : '#e0b423', stroke: '#7a5a00', 'stroke-width': 1.5 }),
    svg('text', { x: 12, y: 16.5, 'text-anchor': 'middle', 'font-size': double ? 11 : 13, 'font-weight': 800, fill: '#2a2118', 'font-family': 'sans-serif' }, double ? '77' : '7'));
}
