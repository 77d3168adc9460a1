// Farkle's parts of the table: Roll/Bank with the live value of the selection, the dice set aside
// this turn, and the Farkle and hot-dice moments.

import { h, plural } from './dom.js';
import { dieFace, dieText } from './dice.js';
import { farkleScore } from './farkle-score.js';

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
  let rollLabel = 'Roll';
  if (first) rollLabel = `Roll ${plural(s.dice_left || s.dice_count, 'die', 'dice')}`;
  else if (value > 0 && all) rollLabel = `Hot dice! Roll all ${s.dice_count}`;
  else if (value > 0) rollLabel = `Set aside, roll ${plural(left, 'die', 'dice')}`;
  let selection = '';
  if (mine && !first && s.dice.length) {
    if (!sel.size) selection = 'Select scoring dice';
    else selection = value > 0 ? `Selected: ${value}` : 'Those dice do not score together';
  }
  let why = '';
  if (mine && !first && value > 0) {
    if (all) why = 'All your dice score: roll them all again to confirm before you bank.';
    else if (after < minimum) why = `Banking needs ${minimum} points in the turn; you would have ${after}.`;
  }
  return [
    h('div', { class: 'farkle-buttons' },
      h('button', { type: 'button', class: 'button roll', id: 'roll-button', disabled: !canRoll, dataset: { focusKey: 'roll' }, onclick: onRoll }, rollLabel),
      h('button', { type: 'button', class: 'button bank', id: 'bank-button', disabled: !canBank, dataset: { focusKey: 'bank' }, onclick: onBank },
        after ? `Bank ${after}` : 'Bank')),
    h('p', { class: 'farkle-figures' },
      h('span', { class: 'selection', id: 'selection-value', 'aria-live': 'polite' }, selection),
      h('span', { class: 'turn-points', id: 'turn-points' }, `Turn: ${s.turn_points}${value > 0 ? ` + ${value} = ${after}` : ''}`)),
    why ? h('p', { class: 'why muted', id: 'bank-why' }, why) : null,
  ];
}

export function farkleBoard({ state: s, me }) {
  const rows = s.set_aside.map((faces, i) => h('li', {},
    h('span', { class: 'aside-label' }, `Set ${i + 1}`),
    h('span', { class: 'moment-dice' }, faces.map((f) => dieFace(f, { small: true, label: String(f) }))),
    h('span', { class: 'aside-value' }, String(farkleScore(faces)))));
  const stat = (label, value, id) => h('span', { class: 'stat', id }, h('span', { class: 'muted' }, `${label} `), String(value));
  return [
    h('div', { class: 'farkle-info' },
      h('p', {}, stat('Goal', s.goal), stat('Lap', s.laps, 'lap-counter'), stat('Dice', s.dice_count)),
      s.ending && !s.over ? h('p', { class: 'final-round' }, 'Final round: the goal has been reached.') : null),
    h('section', { class: 'set-aside', 'aria-labelledby': 'aside-title' },
      h('h3', { id: 'aside-title' }, s.current ? `Set aside this turn by ${s.current === me ? 'you' : s.current}` : 'Set aside'),
      rows.length ? h('ol', { class: 'aside-list' }, rows) : h('p', { class: 'muted' }, 'Nothing yet.'),
      h('p', { class: 'turn-total' }, `Turn points: ${s.turn_points}`)),
  ];
}

// Drawn from the state's last event, so that a reload still shows the moment until the next roll.
export function farkleMoment(s, me) {
  const e = s.last_event;
  if (e?.farkle) {
    const who = e.player === me ? 'You' : e.player;
    return {
      kind: 'farkle',
      key: ['farkle', e.player, e.dice, e.lost, s.turn],
      parts: [h('p', { class: 'big' }, 'Farkle!'),
        h('div', { class: 'moment-dice' }, e.dice.map((d) => dieFace(d, { small: true, label: dieText(d) }))),
        h('p', {}, `${who} rolled no scoring dice${e.lost ? `: ${e.lost} points lost` : ''}.`)],
    };
  }
  if (e?.hot_dice) {
    return {
      kind: 'hot',
      key: ['hot', e.player, s.turn, s.rolls],
      parts: [h('p', { class: 'big' }, 'Hot dice!'), h('p', {}, `Every die scored: all ${s.dice_count} were rolled again.`)],
    };
  }
  return null;
}
