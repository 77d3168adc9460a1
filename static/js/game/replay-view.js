// One state of a finished game on the replay page (static/js/replay.js), drawn with the live game
// screen's own renderers: the dice, every player's card (card games) or the Farkle board. Nothing here
// is interactive: no previews, nothing to choose, no keys.

import { fill, h } from './dom.js';
import { diceRow } from './dice.js';
import { LAYOUTS, bonusMoment, cardTable } from './cards.js';
import { farkleBoard, farkleMoment } from './farkle.js';

const NOTHING = () => {};
const READ_ONLY = { choose: NOTHING, point: NOTHING, focus: NOTHING };
// No cell is the roving keyboard stop: the replay's keys step through the game instead.
const NO_NAV = { row: -1, col: -1 };

function scoreOf(kind, state, player) {
  return kind in LAYOUTS ? state.cards[player]?.total ?? 0 : state.banked[player] ?? 0;
}

function winners(kind, state) {
  if (!state.over) return [];
  const alive = state.players.filter((p) => !state.resigned.includes(p));
  if (!(kind in LAYOUTS)) return alive.filter((p) => state.banked[p] >= state.goal);
  if (!alive.length) return [];
  const top = Math.max(...alive.map((p) => scoreOf(kind, state, p)));
  return alive.filter((p) => scoreOf(kind, state, p) === top);
}

function heading(state) {
  if (state.over) return 'Game over';
  if (!state.last_event) return `The game begins: ${state.current} to play`;
  return `${state.current} to play`;
}

function standings(kind, state) {
  const won = winners(kind, state);
  const goal = kind in LAYOUTS ? 0 : state.goal;
  return h('ul', { class: 'g-players replay-players', 'aria-label': 'Scores' },
    state.players.map((p) => {
      const score = scoreOf(kind, state, p);
      const current = !state.over && state.current === p;
      return h('li', {
        class: ['player', current ? 'current' : '', state.resigned.includes(p) ? 'resigned' : ''].filter(Boolean).join(' '),
        dataset: { player: p },
      },
      h('span', { class: 'name' }, p),
      current ? h('span', { class: 'g-tag turn' }, 'to play') : null,
      state.resigned.includes(p) ? h('span', { class: 'g-tag' }, 'resigned') : null,
      won.includes(p) ? h('span', { class: 'g-tag win' }, 'winner') : null,
      h('span', { class: 'score' }, String(score)),
      goal ? h('span', { class: 'progress', 'aria-hidden': 'true' },
        h('span', { style: `width:${Math.min(100, (100 * score) / goal)}%` })) : null);
    }));
}

// The dice on the table; once a turn has ended (a score, a bank, a Farkle), the dice it ended with.
function dice(kind, state) {
  const played = state.last_event?.dice ?? [];
  if (!state.dice.length && played.length) {
    return diceRow({ dice: played, count: played.length, marked: new Set(), markWord: '', interactive: false });
  }
  if (kind in LAYOUTS) {
    return diceRow({ dice: state.dice, count: 5, marked: new Set(state.held ?? []), markWord: 'held', interactive: false });
  }
  const count = state.dice.length || state.dice_left || state.dice_count;
  return diceRow({ dice: state.dice, count, marked: new Set(), markWord: 'selected', interactive: false });
}

// The box the step's action filled, marked on its owner's card.
function markScored(table, state, player) {
  const e = state.last_event;
  if (!e || e.player !== player || !['score', 'skip'].includes(e.type)) return;
  table.querySelector(`td[data-box="${e.box}"][data-col="${e.column ?? 0}"]`)?.classList.add('just-scored');
}

function cards(kind, state) {
  return h('div', { class: 'replay-cards' },
    state.players.map((owner) => {
      const card = state.cards[owner];
      const table = cardTable({
        kind, owner, card, previews: new Map(), live: false, choosable: false, nav: NO_NAV, handlers: READ_ONLY,
      });
      markScored(table, state, owner);
      return h('section', { class: 'replay-card', dataset: { player: owner }, 'aria-label': `${owner}'s card` },
        h('p', { class: 'card-caption' }, h('strong', {}, owner), ` · ${card.total} points`),
        h('div', { class: 'card-scroll' }, table));
    }));
}

/** Draw `state` (an engine state of a game of `kind`) into `container`, replacing what was there. */
export function render(container, kind, state) {
  const isCard = kind in LAYOUTS;
  const moment = isCard ? bonusMoment(kind, state) : farkleMoment(state, null);
  container.classList.add('replay-view');
  fill(container,
    h('section', { class: 'g-play', 'aria-label': 'Table at this step' },
      h('h2', { class: 'g-turn', id: 'replay-turn' }, heading(state)),
      h('p', { class: 'g-last', id: 'replay-event' }, state.last_event?.text ?? ''),
      standings(kind, state),
      h('div', { class: 'g-tray' }, h('div', { class: 'g-dice', id: 'replay-dice', role: 'group', 'aria-label': 'Dice' }, dice(kind, state))),
      moment ? h('div', { class: `g-moment ${moment.kind}` }, moment.parts) : null,
      h('div', { class: 'g-board', id: 'replay-table' }, isCard ? cards(kind, state) : farkleBoard({ state, me: null }))));
}
