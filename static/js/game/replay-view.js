// One state of a finished game on the replay page (static/js/replay.js), drawn with the live game
// screen's own renderers: what every game shares here, the dice and the board by the game's view module
// (views.js). Nothing here is interactive: no previews, nothing to choose, no keys.

import { fill, h } from './dom.js';
import { diceRow } from './dice.js';
import { viewModule } from './views.js';
import { eventText, fmt, gettext, number } from '../i18n.js';

function heading(state) {
  if (state.over) return gettext('Game over');
  if (!state.last_event) return fmt(gettext('The game begins: %(player)s to play'), { player: state.current });
  return fmt(gettext('%(player)s to play'), { player: state.current });
}

function standings(state, scores, winners, goal) {
  return h('ul', { class: 'g-players replay-players', 'aria-label': gettext('Scores') },
    state.players.map((p) => {
      const score = scores[p] ?? 0;
      const current = !state.over && state.current === p;
      return h('li', {
        class: ['player', current ? 'current' : '', state.resigned.includes(p) ? 'resigned' : ''].filter(Boolean).join(' '),
        dataset: { player: p },
      },
      h('span', { class: 'name' }, p),
      current ? h('span', { class: 'g-tag turn' }, gettext('to play')) : null,
      state.resigned.includes(p) ? h('span', { class: 'g-tag' }, gettext('resigned')) : null,
      // Played alone, nobody was beaten: no winner's tag (panels.js says the same at the end).
      winners.includes(p) && state.players.length > 1 ? h('span', { class: 'g-tag win' }, gettext('winner')) : null,
      h('span', { class: 'score' }, number(score)),
      goal ? h('span', { class: 'progress', 'aria-hidden': 'true' },
        h('span', { style: { width: `${Math.min(100, (100 * score) / goal)}%` } })) : null);
    }));
}

// The dice on the table; once a turn has ended (a score, a bank, a Farkle), the dice it ended with.
function dice(view, state) {
  const played = state.last_event?.dice ?? [];
  if (!state.dice.length && played.length) {
    return diceRow({ dice: played, count: played.length, marked: new Set(), markWord: '', interactive: false });
  }
  return view.dice(state);
}

/**
 * A drawer for the replay of one game: draw(container, step) shows `step` of `replay` (the page's
 * replay data: view, sheet, and per step the state, the scores and the winners), replacing what was there.
 */
export function replayer(replay) {
  const view = viewModule(replay.view).replay(replay.sheet);
  return (container, step) => {
    const state = replay.states[step];
    const moment = view.moment(state);
    container.classList.add('replay-view');
    fill(container,
      h('section', { class: 'g-play', 'aria-label': gettext('Table at this step') },
        h('h2', { class: 'g-turn', id: 'replay-turn' }, heading(state)),
        h('p', { class: 'g-last', id: 'replay-event' }, eventText(state.last_event)),
        standings(state, replay.scores[step], replay.winners[step], view.goal(state)),
        h('div', { class: 'g-tray' }, h('div', { class: 'g-dice', id: 'replay-dice', role: 'group', 'aria-label': gettext('Dice') }, dice(view, state))),
        moment ? h('div', { class: `g-moment ${moment.kind}` }, moment.parts) : null,
        h('div', { class: 'g-board', id: 'replay-table' }, view.board(state))));
  };
}
