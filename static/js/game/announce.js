// What a game says aloud: each applied event as one sentence in the reader's language, written into
// one visually hidden live region, so that a screen reader follows the game without looking for it.
//
// The region is a log (role=log, polite, additions only) that appends one line per announcement and
// keeps the last few: a status region whose text is replaced says only its latest text when changes
// come quickly (two moves of a computer a moment apart), while each line appended to a log is queued
// and read in turn. Lines are keyed by the event's seq, so none is said twice; a reconnect or a sync
// that brings several moves at once says one summary line instead of replaying them.

import { h } from './dom.js';
import { eventText, fmt, gettext, ngettext, number, say } from '../i18n.js';

// Enough lines to read back the last few moves; older ones are removed (not announced: additions only).
const KEEP_LINES = 12;

// The reader's own moves in the second person ("You rolled 2, 3, 2, 5, 5."): the engine's messages in
// which the reader is the player who acts (its `player` parameter), said the reader's way.
const YOURS = {
  rolled: () => gettext('You rolled %(dice)s.'),
  resigned: () => gettext('You resigned.'),
  'farkle.kept': () => gettext('You set aside %(kept)s for %(value)s (turn: %(turn)s) and rolled %(dice)s.'),
  'farkle.hot_dice': () => gettext('You set aside %(kept)s for %(value)s (turn: %(turn)s): hot dice! You rolled all %(count)s dice again: %(dice)s.'),
  'farkle.banked': () => gettext('You set aside %(kept)s for %(value)s and banked %(points)s (total: %(total)s).'),
  'farkle.goal': () => gettext('You reached the goal of %(goal)s.'),
  'card.held': ({ count }) => ngettext('You held %(count)s die and rolled again: %(dice)s (roll %(roll)s of %(rolls)s).',
    'You held %(count)s dice and rolled again: %(dice)s (roll %(roll)s of %(rolls)s).', count),
  'card.rerolled': () => gettext('You rolled all five dice again: %(dice)s (roll %(roll)s of %(rolls)s).'),
  'card.scored': () => gettext('You scored %(points)s in %(label)s.'),
  'card.scored_column': () => gettext('You scored %(points)s in %(label)s, column %(column)s.'),
  'yahtzee.wasted': () => gettext('You wasted the turn: %(label)s, column %(column)s.'),
};

// An event's sentence for this reader: their own moves as "You ...", everyone else's by name.
function sentence(result, me) {
  if (!result?.msg?.length || !me) return eventText(result);
  return result.msg.map((part) => say([part], part.params?.player === me ? YOURS : {})).join(' ');
}

export class Announcer {
  constructor() {
    this.el = h('div', {
      id: 'g-announce', class: 'sr-only', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions',
      'aria-label': gettext('Announcements'),
    });
    this.said = null; // the seq of the last event said (or summarised); null before the first snapshot
    this.turn = null; // whose turn was last said: "player|turn"
  }

  /** The client changed (GameApp's listener): `why` is 'snapshot' or 'event'; other changes say nothing. */
  changed(client, why, message) {
    if (why === 'event') this.#event(client, message);
    else if (why === 'snapshot') this.#snapshot(client);
  }

  #event(client, event) {
    if (this.said === null || event.seq <= this.said) return;
    if (event.seq > this.said + 1) return this.#catchUp(client);
    this.said = event.seq;
    this.#say(event.seq, [sentence(event.result, client.me), this.#turnWords(client), this.#placesWords(client)]);
  }

  #snapshot(client) {
    const seq = client.lastSeq ?? 0;
    if (this.said === null) {
      // A page opened (or reloaded) says where the game stands, not its history.
      this.said = seq;
      if (client.state) this.#say(seq, [this.#turnWords(client), this.#placesWords(client)]);
      return;
    }
    if (seq > this.said) this.#catchUp(client);
  }

  // Moves missed while away: one of them is said as itself, more are counted in one sentence.
  #catchUp(client) {
    const seq = client.lastSeq ?? 0;
    const missed = seq - this.said;
    if (missed <= 0) return;
    const only = missed === 1 ? client.log.get(seq) : null;
    this.said = seq;
    const what = only ? sentence(only.result, client.me)
      : fmt(ngettext('Caught up: %(count)s move while you were away.', 'Caught up: %(count)s moves while you were away.', missed), { count: number(missed) });
    this.#say(seq, [what, this.#turnWords(client, { always: true }), this.#placesWords(client)]);
  }

  // Whose turn it is, when that changed since it was last said (or `always`).
  #turnWords(client, { always = false } = {}) {
    const s = client.state;
    if (!s || s.over || client.status !== 'playing' || !s.current) return '';
    const key = `${s.current}|${s.turn}`;
    if (key === this.turn && !always) return '';
    this.turn = key;
    return s.current === client.me ? gettext('It is your turn.') : fmt(gettext("It is %(player)s's turn."), { player: s.current });
  }

  // Once the game is finished: the places, best first (players with the same total share a place). An
  // abandoned or aborted game ranks nobody (docs/ratings.md).
  #placesWords(client) {
    const s = client.state;
    if (!s || client.status !== 'finished') return '';
    const score = (p) => client.scores[p] ?? 0;
    const order = [...s.players].sort((a, b) => score(b) - score(a));
    const places = order.map((p) => {
      const place = order.findIndex((q) => score(q) === score(p)) + 1;
      return fmt(gettext('%(place)s. %(player)s, %(points)s'), { place, player: p, points: number(score(p)) });
    });
    return fmt(gettext('Final scores: %(places)s.'), { places: places.join('; ') });
  }

  #say(seq, parts) {
    const text = parts.filter(Boolean).join(' ');
    if (!text) return;
    this.el.append(h('p', { dataset: { seq: String(seq) } }, text));
    while (this.el.childElementCount > KEEP_LINES) this.el.firstElementChild.remove();
  }
}
