// The parts every game shares: the players list, the actions (skip, resign), the end-of-game panel,
// the next-game notice and log lines. Plain builders: the app decides when to redraw them.

import { h, listText } from './dom.js';
import { duration, eventText, fmt, gettext, ngettext, number } from '../i18n.js';

/** A computer player's badge: "computer · expert" (the strength's word from the server's catalogue). */
export function computerTag(strength) {
  return h('span', { class: 'tag computer' }, fmt(gettext('computer · %(strength)s'), { strength: gettext(strength) }));
}

/** A player's rating beside their name: "1,532", with "?" while provisional (docs/ratings.md). */
export function ratingTag(rating) {
  if (!rating) return null;
  const title = rating.provisional ? gettext('Rating (provisional: not enough rated games yet to be sure of it)') : gettext('Rating');
  return h('span', { class: 'rating', title }, h('span', { class: 'sr-only' }, `${gettext('Rating')} `),
    number(rating.rating), rating.provisional ? '?' : '');
}

/** What the game's end did to a rating: "+14, now 1,532". */
export function ratingChange(rating) {
  if (!rating || rating.change === null || rating.change === undefined) return null;
  const change = rating.change > 0 ? `+${number(rating.change)}` : rating.change < 0 ? `−${number(-rating.change)}` : '±0';
  const text = fmt(gettext('%(change)s, now %(rating)s'), { change, rating: `${number(rating.rating)}${rating.provisional ? '?' : ''}` });
  return h('span', { class: `rating-change ${rating.change > 0 ? 'up' : rating.change < 0 ? 'down' : ''}`.trim() }, text);
}

export function playerItems({ rows, me, goal }) {
  return rows.map(({ name, score, online, current, resigned, winner, computer, rating }) => h('li', {
    class: ['player', current ? 'current' : '', resigned ? 'resigned' : '', name === me ? 'me' : ''].filter(Boolean).join(' '),
    'aria-current': current ? 'true' : null,
    dataset: { player: name },
  },
  // A computer is always at the table: the worker plays for it.
  computer ? h('span', { class: 'dot online', title: gettext('computer player') }, h('span', { class: 'sr-only' }, gettext('computer player')))
    : h('span', { class: `dot ${online ? 'online' : 'offline'}`, title: online ? gettext('connected') : gettext('not connected') },
      h('span', { class: 'sr-only' }, online ? gettext('connected') : gettext('not connected'))),
  h('span', { class: 'name' }, name, name === me ? h('span', { class: 'muted' }, ` ${gettext('(you)')}`) : null),
  computer ? computerTag(computer) : null,
  ratingTag(rating),
  current ? h('span', { class: 'g-tag turn' }, gettext('to play')) : null,
  resigned ? h('span', { class: 'g-tag' }, gettext('resigned')) : null,
  winner ? h('span', { class: 'g-tag win' }, gettext('winner')) : null,
  h('span', { class: 'score' }, number(score)),
  // Farkle: how far each player is on the way to the goal.
  goal ? h('span', { class: 'progress', 'aria-hidden': 'true' },
    h('span', { style: { width: `${Math.min(100, (100 * score) / goal)}%` } })) : null));
}

/** `skip`: null, {player, wait} while the player to move may not be skipped yet, or {player} once they may. */
export function actionItems({ skip, confirming, onSkip, onAskResign, onResign, onCancelResign }) {
  const parts = [];
  if (skip && !skip.wait) {
    parts.push(h('button', { type: 'button', class: 'button secondary small', id: 'skip-button', dataset: { focusKey: 'skip' }, onclick: onSkip },
      fmt(gettext("Skip %(player)s's turn"), { player: skip.player })));
  } else if (skip) {
    const text = gettext('%(player)s is not connected. You can skip their turn in %(time)s.');
    parts.push(h('p', { class: 'muted small' }, fmt(text, { player: skip.player, time: duration(skip.wait) })));
  }
  if (confirming) {
    parts.push(h('div', { class: 'confirm', role: 'group', 'aria-label': gettext('Confirm resign') },
      h('p', {}, gettext('Resign from this game? You cannot take it back.')),
      h('button', { type: 'button', class: 'button danger small', id: 'resign-confirm', dataset: { focusKey: 'resign-yes' }, onclick: onResign }, gettext('Yes, resign')),
      ' ',
      h('button', { type: 'button', class: 'button secondary small', dataset: { focusKey: 'resign-no' }, onclick: onCancelResign }, gettext('Cancel'))));
  } else {
    parts.push(h('button', { type: 'button', class: 'button secondary small', id: 'resign-button', dataset: { focusKey: 'resign' }, onclick: onAskResign }, gettext('Resign')));
  }
  return parts;
}

// A game played alone has nobody to beat: its end says the total (and the laps to Farkle's goal), and
// whether it is the player's personal best (`bests`: the seats' best flags), never a win.
function soloEnd({ state, winners, scoreOf, me, laps, bests, name }) {
  const player = state.players[0];
  const said = { player, points: number(scoreOf(player)), laps, game: name };
  if (!winners.length) {
    const verdict = player === me ? gettext('You resigned with %(points)s points.') : gettext('%(player)s resigned with %(points)s points.');
    return [h('h2', { id: 'g-end-title' }, gettext('Game over')), h('p', { class: 'verdict' }, fmt(verdict, said))];
  }
  const title = laps ? ngettext('Game over: %(points)s points after %(laps)s lap', 'Game over: %(points)s points after %(laps)s laps', laps)
    : gettext('Game over: %(points)s points');
  let best = null;
  if (bests.includes(player)) {
    best = player === me ? gettext('A personal best: your best %(game)s result so far!') : gettext("A personal best: %(player)s's best %(game)s result so far!");
  }
  return [h('h2', { id: 'g-end-title' }, fmt(title, said)), best ? h('p', { class: 'verdict', id: 'personal-best' }, fmt(best, said)) : null];
}

export function endPanel({ state, winners, scoreOf, me, bests = [], name = '', laps, seated, againUrl, replayUrl, token, ratings = null, nextSeed = '', aborted = false }) {
  if (!state) return [h('h2', { id: 'g-end-title' }, gettext('Game cancelled'))];
  const after = [
    // A plain form: the browser posts the CSRF token and follows the redirect to the new game itself.
    seated
      ? h('form', { method: 'post', action: againUrl, class: 'again' },
        h('input', { type: 'hidden', name: 'csrfmiddlewaretoken', value: token }),
        nextSeed ? h('input', { type: 'hidden', name: 'client_seed', value: nextSeed }) : null,
        h('button', { class: 'button', type: 'submit', id: 'play-again' }, gettext('Play again')),
        h('span', { class: 'muted' }, ` ${state.players.length === 1 ? gettext('same game, same options') : gettext('same game; the other players are asked')}`))
      : null,
    replayUrl ? h('p', {}, h('a', { href: replayUrl, id: 'replay-link' }, gettext('Replay this game step by step'))) : null,
  ];
  if (state.players.length === 1) return [...soloEnd({ state, winners, scoreOf, me, laps, bests, name }), ...after];
  // Ended before every player had made a move (docs/ratings.md): no winner to name, nothing rated.
  if (aborted) {
    return [
      h('h2', { id: 'g-end-title' }, gettext('Game aborted')),
      h('p', { class: 'verdict' }, gettext('The game ended before every player had made a move: it is not rated and counts in no statistics.')),
      ...after,
    ];
  }
  const said = { winner: winners[0], winners: listText(winners), points: number(scoreOf(winners[0])), laps };
  let verdict;
  if (!winners.length) verdict = gettext('The game is over with no winner.');
  else if (winners.length === 1 && winners[0] === me) {
    verdict = laps ? ngettext('You win with %(points)s points after %(laps)s lap!', 'You win with %(points)s points after %(laps)s laps!', laps)
      : gettext('You win with %(points)s points!');
  } else if (winners.length === 1) {
    verdict = laps ? ngettext('%(winner)s wins with %(points)s points after %(laps)s lap!', '%(winner)s wins with %(points)s points after %(laps)s laps!', laps)
      : gettext('%(winner)s wins with %(points)s points!');
  } else {
    verdict = laps ? ngettext('%(winners)s share the win with %(points)s points after %(laps)s lap.', '%(winners)s share the win with %(points)s points after %(laps)s laps.', laps)
      : gettext('%(winners)s share the win with %(points)s points.');
  }
  verdict = fmt(verdict, said);
  const standings = [...state.players].sort((a, b) => scoreOf(b) - scoreOf(a));
  return [
    h('h2', { id: 'g-end-title' }, gettext('Game over')),
    h('p', { class: 'verdict' }, verdict),
    h('ol', { class: 'standings' }, standings.map((p) => h('li', { class: winners.includes(p) ? 'is-winner' : '' },
      h('span', { class: 'name' }, p),
      winners.includes(p) ? h('span', { class: 'g-tag win' }, gettext('winner')) : null,
      state.resigned.includes(p) ? h('span', { class: 'g-tag' }, gettext('resigned')) : null,
      h('span', { class: 'score' }, number(scoreOf(p))),
      ratingChange(ratings?.players[p])))),
    ...after,
  ];
}

export function nextGameNotice({ next, me, href }) {
  // Only the presser and the players asked hear of the next table (a blocked player is not asked).
  const invited = next.invited ?? [];
  if (next.by !== me && !invited.includes(me)) return null;
  const text = next.by === me
    ? (invited.length ? gettext('You opened the next table: the other players are asked, and it starts when they join.') : gettext('You started the next game.'))
    : fmt(gettext('%(player)s asks for another game: press Play again to join.'), { player: next.by });
  return h('p', { role: 'status' }, text, ' ',
    h('a', { class: 'button small', href, id: 'next-game-link' }, fmt(gettext('Go to game #%(game)s'), { game: next.game })));
}

export function logItem(entry) {
  return h('li', { dataset: { seq: String(entry.seq) } }, eventText(entry.result) || `${entry.player}: ${entry.action?.type ?? '?'}`);
}
