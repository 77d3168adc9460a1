// Dice drawn with pips. Painted DiceZ dice also carry their colour's letter, so that the colour is
// never the only way to tell them apart.

import { h } from './dom.js';
import { fmt, gettext } from '../i18n.js';

export const FACE_WORDS = [gettext('none'), gettext('one'), gettext('two'), gettext('three'), gettext('four'), gettext('five'), gettext('six')];
export const COLOUR_LETTER = { blue: 'B', red: 'R', pink: 'P', green: 'G', yellow: 'Y' };

const PIPS = {
  1: ['c'],
  2: ['tr', 'bl'],
  3: ['tr', 'c', 'bl'],
  4: ['tl', 'tr', 'bl', 'br'],
  5: ['tl', 'tr', 'c', 'bl', 'br'],
  6: ['tl', 'tr', 'ml', 'mr', 'bl', 'br'],
};

export function dieParts(die) {
  return Array.isArray(die) ? { face: die[0], colour: die[1] } : { face: die, colour: null };
}

export function dieText(die) {
  const { face, colour } = dieParts(die);
  return colour ? `${FACE_WORDS[face]}, ${gettext(colour)}` : FACE_WORDS[face];
}

// The face alone, for small dice in banners and lists; `label` makes it readable on its own.
export function dieFace(die, { small = false, label = null } = {}) {
  const { face, colour } = dieParts(die);
  const attrs = label
    ? { role: 'img', 'aria-label': label }
    : { 'aria-hidden': 'true' };
  return h(
    'span',
    { class: `g-face${small ? ' small' : ''}${colour ? ` paint paint-${colour}` : ''}`, ...attrs },
    (PIPS[face] ?? []).map((p) => h('span', { class: `pip p-${p}` })),
    colour ? h('span', { class: 'g-letter' }, COLOUR_LETTER[colour] ?? '?') : null,
  );
}

/**
 * The dice on the table. `marked` holds indices shown raised (held, or selected in Farkle);
 * `rolled` those that just came out of the cup (they get the tumble animation, which is pure CSS
 * and never delays showing the value).
 */
export function diceRow({ dice, count, marked, markWord, tagWord = markWord, rolled, interactive, usable, onToggle }) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const die = dice[i];
    const n = i + 1;
    if (die === undefined) {
      out.push(h('span', { class: 'g-die blank', role: 'img', 'aria-label': fmt(gettext('Die %(number)s: not rolled'), { number: n }) },
        h('span', { class: 'g-face empty', 'aria-hidden': 'true' }), h('span', { class: 'g-die-tag' })));
      continue;
    }
    const isMarked = marked.has(i);
    const canUse = usable ? usable.has(i) : true;
    const label = `${fmt(gettext('Die %(number)s: %(face)s'), { number: n, face: dieText(die) })}${isMarked ? `, ${markWord}` : ''}`;
    const cls = ['g-die', isMarked ? 'marked' : '', rolled?.has(i) ? 'rolling' : '', canUse ? '' : 'dead']
      .filter(Boolean).join(' ');
    const face = dieFace(die);
    const tag = h('span', { class: 'g-die-tag', 'aria-hidden': 'true' }, isMarked ? tagWord : '');
    if (interactive && canUse) {
      out.push(h('button', {
        type: 'button', class: cls, 'aria-pressed': String(isMarked), 'aria-label': label,
        dataset: { focusKey: `die:${i}`, key: String(n) }, onclick: () => onToggle(i),
      }, face, tag));
    } else {
      out.push(h('span', { class: cls, role: 'img', 'aria-label': label, dataset: { key: String(n) } }, face, tag));
    }
  }
  return out;
}
