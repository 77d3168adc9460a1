// The parts every game shares: the players list, the actions (skip, resign), the end-of-game panel,
// the next-game notice and log lines. Plain builders: the app decides when to redraw them.

import { h, listText, plural } from './dom.js';

/** A computer player's badge: "computer · expert". */
export function computerTag(strength) {
  return h('span', { class: 'tag computer' }, `computer · ${strength}`);
}

export function playerItems({ rows, me, goal }) {
  return rows.map(({ name, score, online, current, resigned, winner, computer }) => h('li', {
    class: ['player', current ? 'current' : '', resigned ? 'resigned' : '', name === me ? 'me' : ''].filter(Boolean).join(' '),
    'aria-current': current ? 'true' : null,
    dataset: { player: name },
  },
  // A computer is always at the table: the worker plays for it.
  computer ? h('span', { class: 'dot online', title: 'computer player' }, h('span', { class: 'sr-only' }, 'computer player'))
    : h('span', { class: `dot ${online ? 'online' : 'offline'}`, title: online ? 'connected' : 'not connected' },
      h('span', { class: 'sr-only' }, online ? 'connected' : 'not connected')),
  h('span', { class: 'name' }, name, name === me ? h('span', { class: 'muted' }, ' (you)') : null),
  computer ? computerTag(computer) : null,
  current ? h('span', { class: 'g-tag turn' }, 'to play') : null,
  resigned ? h('span', { class: 'g-tag' }, 'resigned') : null,
  winner ? h('span', { class: 'g-tag win' }, 'winner') : null,
  h('span', { class: 'score' }, String(score)),
  // Farkle: how far each player is on the way to the goal.
  goal ? h('span', { class: 'progress', 'aria-hidden': 'true' },
    h('span', { style: `width:${Math.min(100, (100 * score) / goal)}%` })) : null));
}

/** `skip`: null, {player, wait} while the player to move may not be skipped yet, or {player} once they may. */
export function actionItems({ skip, confirming, onSkip, onAskResign, onResign, onCancelResign }) {
  const parts = [];
  if (skip && !skip.wait) {
    parts.push(h('button', { type: 'button', class: 'button secondary small', id: 'skip-button', dataset: { focusKey: 'skip' }, onclick: onSkip },
      `Skip ${skip.player}'s turn`));
  } else if (skip) {
    parts.push(h('p', { class: 'muted small' }, `${skip.player} is not connected. You can skip their turn in ${plural(skip.wait, 'second')}.`));
  }
  if (confirming) {
    parts.push(h('div', { class: 'confirm', role: 'group', 'aria-label': 'Confirm resign' },
      h('p', {}, 'Resign from this game? You cannot take it back.'),
      h('button', { type: 'button', class: 'button danger small', id: 'resign-confirm', dataset: { focusKey: 'resign-yes' }, onclick: onResign }, 'Yes, resign'),
      ' ',
      h('button', { type: 'button', class: 'button secondary small', dataset: { focusKey: 'resign-no' }, onclick: onCancelResign }, 'Cancel')));
  } else {
    parts.push(h('button', { type: 'button', class: 'button secondary small', id: 'resign-button', dataset: { focusKey: 'resign' }, onclick: onAskResign }, 'Resign'));
  }
  return parts;
}

export function endPanel({ state, winners, scoreOf, me, laps, seated, againUrl, replayUrl, token }) {
  if (!state) return [h('h2', { id: 'g-end-title' }, 'Game cancelled')];
  const after = laps ? ` after ${plural(laps, 'lap')}` : '';
  let verdict;
  if (!winners.length) verdict = 'The game is over with no winner.';
  else if (winners.length === 1) verdict = `${winners[0] === me ? 'You win' : `${winners[0]} wins`} with ${scoreOf(winners[0])} points${after}!`;
  else verdict = `${listText(winners)} share the win with ${scoreOf(winners[0])} points${after}.`;
  const standings = [...state.players].sort((a, b) => scoreOf(b) - scoreOf(a));
  return [
    h('h2', { id: 'g-end-title' }, 'Game over'),
    h('p', { class: 'verdict' }, verdict),
    h('ol', { class: 'standings' }, standings.map((p) => h('li', { class: winners.includes(p) ? 'is-winner' : '' },
      h('span', { class: 'name' }, p),
      winners.includes(p) ? h('span', { class: 'g-tag win' }, 'winner') : null,
      state.resigned.includes(p) ? h('span', { class: 'g-tag' }, 'resigned') : null,
      h('span', { class: 'score' }, String(scoreOf(p)))))),
    // A plain form: the browser posts the CSRF token and follows the redirect to the new game itself.
    seated
      ? h('form', { method: 'post', action: againUrl, class: 'again' },
        h('input', { type: 'hidden', name: 'csrfmiddlewaretoken', value: token }),
        h('button', { class: 'button', type: 'submit', id: 'play-again' }, 'Play again'),
        h('span', { class: 'muted' }, ' same players, same seats'))
      : null,
    replayUrl ? h('p', {}, h('a', { href: replayUrl, id: 'replay-link' }, 'Replay this game step by step')) : null,
  ];
}

export function nextGameNotice({ next, me, href }) {
  return h('p', { role: 'status' },
    `${next.by === me ? 'You' : next.by} started the next game with the same players. `,
    h('a', { class: 'button small', href, id: 'next-game-link' }, `Go to game #${next.game}`));
}

export function logItem(entry) {
  return h('li', { dataset: { seq: String(entry.seq) } }, entry.result?.text || `${entry.player}: ${entry.action?.type ?? '?'}`);
}
