// Farkle's parts of the table: Roll/Bank with the live value of the selection, the dice set aside
// this turn, and the Farkle and hot-dice moments.

import { h } from './dom.js';
import { dieFace, dieText } from './dice.js';
import { farkleScore } from './farkle-score.js';
import { fmt, gettext, ngettext, number } from '../i18n.js';

// `minimum`: the points a turn needs to bank (the preview's bank_minimum).
export function farkleControls({ state: s, sel, minimum, mine, onRoll, onBank }) {
  const value = farkleScore([...sel].map((i) => s.dice[i]));
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
  ];
}

function aside(s, me) {
  if (!s.current) return gettext('Set aside');
  if (s.current === me) return gettext('Set aside this turn by you');
  return fmt(gettext('Set aside this turn by %(player)s'), { player: s.current });
}

export function farkleBoard({ state: s, me }) {
  const rows = s.set_aside.map((faces, i) => h('li', {},
    h('span', { class: 'aside-label' }, fmt(gettext('Set %(number)s'), { number: i + 1 })),
    h('span', { class: 'moment-dice' }, faces.map((f) => dieFace(f, { small: true, label: String(f) }))),
    h('span', { class: 'aside-value' }, number(farkleScore(faces)))));
  const stat = (label, value, id) => h('span', { class: 'stat', id }, h('span', { class: 'muted' }, `${label} `), number(value));
  return [
    h('div', { class: 'farkle-info' },
      h('p', {}, stat(gettext('Goal'), s.goal), stat(gettext('Lap'), s.laps, 'lap-counter'), stat(gettext('Dice'), s.dice_count)),
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
