// What every view module (views.js) gives the game page (app.js) for one game: the page draws what all
// games share (turn, players, end panel, log, actions) and asks its view for the rest. A view keeps the
// local UI state the server does not know yet (dice held or selected, the card on show); `app` gives it
// the game's facts (state, preview, scores, me, myTurn) and sends its actions (app.send).
// The defaults here are those of a game with nothing more to say.

export class GameView {
  constructor(app) {
    this.app = app;
  }

  /** The keys line under the side panels. */
  get keysHelp() { return ''; }

  /** How many digit keys pick a die (1 to n). */
  get dieKeys() { return 0; }

  /** The part of the turn's identity that changes with each roll of the turn. */
  turnKey() { return ''; }

  /** A new turn or a new roll: forget the local selection. */
  newTurn() {}

  /** Called after each change once the turn has been followed (e.g. to pick the card on show). */
  follow() {}

  /** Take in an event as it arrives; returns the indices of the dice it rolled (they tumble). */
  effects() { return new Set(); }

  roll() {}

  toggleDie() {}

  /** Keys of this game beyond Space and the digits; true when the key was used. */
  key() { return false; }

  /** The props of dice.js diceRow for the dice on the table (without rolled and onToggle). */
  dice() { return null; }

  /** The buttons and figures beside the dice. */
  controls() { return []; }

  /** The hint under the dice while it is the viewer's turn. */
  turnHint() { return ''; }

  /** A hint that wins over every other one (what the box pointed at would score), or null. */
  pointedHint() { return null; }

  /** The banner of a moment ({kind, key, parts, fresh}) or null; `fresh` plays its entrance. */
  moment() { return null; }

  /** Draw the board into `el`; `changed(name, value)` says whether `value` differs from last time. */
  board() {}

  /** Draw what sits beside the board on a wide screen into `el` (as board); nothing by default. */
  beside() {}

  /** The goal the players' progress bars fill up to; 0 for none. */
  goal() { return 0; }

  /** "after n laps" in the end panel; 0 for none. */
  laps() { return 0; }
}
