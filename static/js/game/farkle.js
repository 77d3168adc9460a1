// Farkle's parts of the table: Roll/Bank with the live value of the selection, the scoring sets of the
// roll, the dice set aside this turn, and the Farkle and hot-dice moments.

import { h } from './dom.js';
import { dieFace, dieText } from './dice.js';
import { farkleScore } from './farkle-score.js';
import { fmt, gettext, ngettext, number } from '../i18n.js';

const sameDice = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The engine's value of the selected indices (`sorted`), from the preview's keeps; 0 if they do not score. */
export function selectionValue(keeps, sorted) {
  return keeps.find((k) => sameDice(k.keep, sorted))?.value ?? 0;
}

/** The dice that are selected or can still join the selection: those of every scoring selection that holds it. */
export function usableDice(keeps, sel) {
  const out = new Set(sel);
  for (const { keep } of keeps) {
    if ([...sel].every((i) => keep.includes(i))) keep.forEach((i) => out.add(i));
  }
  return out;
}

// The engine's scoring sets of the roll with their worth (the preview's sets), shown before the player
// picks; on the player's turn each is a button that selects its dice (again: none).
function scoringSets({ sets, picked, mine, onPick }) {
  if (!sets.length) return null;
  return h('div', { class: 'farkle-sets', id: 'farkle-sets' },
    h('span', { class: 'sets-label', id: 'sets-label' }, gettext('Scoring sets:')),
    h('ul', { class: 'sets-list', 'aria-labelledby': 'sets-label' }, sets.map((set) => {
      const said = fmt(gettext('%(dice)s: %(points)s points'), { dice: set.dice.join(' '), points: number(set.value) });
      const body = [
        h('span', { class: 'set-dice', 'aria-hidden': 'true' }, set.dice.map((f) => dieFace(f, { small: true }))),
        h('span', { class: 'set-value', 'aria-hidden': 'true' }, number(set.value)),
      ];
      if (!mine) return h('li', { class: 'set' }, h('span', { class: 'sr-only' }, said), body);
      return h('li', { class: 'set' }, h('button', {
        type: 'button', class: 'set-pick', 'aria-label': said, 'aria-pressed': String(sameDice(set.keep, picked)),
        dataset: { focusKey: `set:${set.keep.join(',')}` }, onclick: () => onPick(set.keep),
      }, body));
    })));
}

// `value`: the selection's value (selectionValue); `sets`: the preview's; `minimum`: the points a turn
// needs to bank (the preview's bank_minimum).
export function farkleControls({ state: s, sel, value, sets, minimum, mine, onRoll, onBank, onPick }) {
  const first = s.rolls === 0;
  const all = sel.size > 0 && sel.size === s.dice.length;
  const after = s.turn_points + value;
  const left = s.dice.length - sel.size;
  const canRoll = mine && (first || value > 0);
  // After hot dice every die on the table scores; setting them all aside means rolling again (RULINGS 4).
  const canBank = mine && !first && value > 0 && !all && after >= minimum;
  let rollLabel = gettext('Roll');
  if (first) {
    const count = s.dice_left || s.dice_count;
    rollLabel = fmt(ngettext('Roll %(count)s die', 'Roll %(count)s dice', count), { count });
  } else if (value > 0 && all) rollLabel = fmt(gettext('Hot dice! Roll all %(count)s'), { count: s.dice_count });
  else if (value > 0) rollLabel = fmt(ngettext('Set aside, roll %(count)s die', 'Set aside, roll %(count)s dice', left), { count: left });
  let selection = '';
  if (mine && !first && s.dice.length) {
    if (!sel.size) selection = gettext('Select scoring dice');
    else selection = value > 0 ? fmt(gettext('Selected: %(points)s'), { points: number(value) }) : gettext('Those dice do not score together');
  }
  let why = '';
  if (mine && !first && value > 0) {
    if (all) why = gettext('All your dice score: roll them all again to confirm before you bank.');
    else if (after < minimum) {
      why = fmt(gettext('Banking needs %(minimum)s points in the turn; you would have %(points)s.'), { minimum: number(minimum), points: number(after) });
    }
  }
  return [
    h('div', { class: 'farkle-buttons' },
      h('button', { type: 'button', class: 'button roll', id: 'roll-button', disabled: !canRoll, dataset: { focusKey: 'roll' }, onclick: onRoll }, rollLabel),
      h('button', { type: 'button', class: 'button bank', id: 'bank-button', disabled: !canBank, dataset: { focusKey: 'bank' }, onclick: onBank },
        after ? fmt(gettext('Bank %(points)s'), { points: number(after) }) : gettext('Bank'))),
    h('p', { class: 'farkle-figures' },
      h('span', { class: 'selection', id: 'selection-value', 'aria-live': 'polite' }, selection),
      h('span', { class: 'turn-points', id: 'turn-points' }, `${gettext('Turn:')} ${number(s.turn_points)}${value > 0 ? ` + ${number(value)} = ${number(after)}` : ''}`)),
    why ? h('p', { class: 'why muted', id: 'bank-why' }, why) : null,
    first || s.over ? null : scoringSets({ sets, picked: [...sel].sort((a, b) => a - b), mine, onPick }),
  ];
}

function aside(s, me) {
  if (!s.current) return gettext('Set aside');
  if (s.current === me) return gettext('Set aside this turn by you');
  return fmt(gettext('Set aside this turn by %(player)s'), { player: s.current });
}

// The sets already set aside: the state keeps their faces only, so their values are worked out here
// (farkle-score.js, checked against the engine on every multiset of dice by a browser test).
export function farkleBoard({ state: s, me }) {
  const rows = s.set_aside.map((faces, i) => h('li', {},
    h('span', { class: 'aside-label' }, fmt(gettext('Set %(number)s'), { number: i + 1 })),
    h('span', { class: 'moment-dice' }, faces.map((f) => dieFace(f, { small: true, label: String(f) }))),
    h('span', { class: 'aside-value' }, number(farkleScore(faces)))));
  const stat = (label, value, id) => h('span', { class: 'stat', id }, h('span', { class: 'muted' }, `${label} `), value);
  return [
    h('div', { class: 'farkle-info' },
      // The goal in plain digits, as the game's name writes it ("Farkle (10000)") in every language.
      h('p', {}, stat(gettext('Goal'), String(s.goal)), stat(gettext('Lap'), number(s.laps), 'lap-counter'), stat(gettext('Dice'), number(s.dice_count))),
      s.ending && !s.over ? h('p', { class: 'final-round' }, gettext('Final round: the goal has been reached.')) : null),
    h('section', { class: 'set-aside', 'aria-labelledby': 'aside-title' },
      h('h3', { id: 'aside-title' }, aside(s, me)),
      rows.length ? h('ol', { class: 'aside-list' }, rows) : h('p', { class: 'muted' }, gettext('Nothing yet.')),
      h('p', { class: 'turn-total' }, fmt(gettext('Turn points: %(points)s'), { points: number(s.turn_points) }))),
  ];
}

// Drawn from the state's last event, so that a reload still shows the moment until the next roll.
export function farkleMoment(s, me) {
  const e = s.last_event;
  if (e?.farkle) {
    let said;
    if (e.player === me) said = e.lost ? gettext('You rolled no scoring dice: %(lost)s points lost.') : gettext('You rolled no scoring dice.');
    else said = e.lost ? gettext('%(player)s rolled no scoring dice: %(lost)s points lost.') : gettext('%(player)s rolled no scoring dice.');
    return {
      kind: 'farkle',
      key: ['farkle', e.player, e.dice, e.lost, s.turn],
      parts: [h('p', { class: 'big' }, gettext('Farkle!')),
        h('div', { class: 'moment-dice' }, e.dice.map((d) => dieFace(d, { small: true, label: dieText(d) }))),
        h('p', {}, fmt(said, { player: e.player, lost: number(e.lost) }))],
    };
  }
  if (e?.hot_dice) {
    return {
      kind: 'hot',
      key: ['hot', e.player, s.turn, s.rolls],
      parts: [h('p', { class: 'big' }, gettext('Hot dice!')), h('p', {}, fmt(gettext('Every die scored: all %(count)s were rolled again.'), { count: s.dice_count }))],
    };
  }
  return null;
}
