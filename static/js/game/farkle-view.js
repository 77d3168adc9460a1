// Farkle's view (views.js): scoring dice selected before a roll or a bank, Roll/Bank with the value of
// the selection, the roll's scoring sets, the dice set aside this turn and the Farkle and hot-dice moments.

import { diceRow } from './dice.js';
import { fill } from './dom.js';
import { farkleBoard, farkleControls, farkleMoment, selectionValue, usableDice } from './farkle.js';
import { GameView } from './view.js';
import { fmt, gettext } from '../i18n.js';

// Digits pick a die whatever the game's number of dice; a digit past the dice on the table does nothing.
const DIE_KEYS = 6;

function diceCount(s) {
  return s.dice.length || s.dice_left || s.dice_count;
}

const sorted = (set) => [...set].sort((a, b) => a - b);

class FarklePlay extends GameView {
  constructor(app) {
    super(app);
    this.sel = new Set();
    this.fresh = false;
  }

  get keysHelp() { return fmt(gettext('Space rolls · 1–%(keys)s select a die · B banks'), { keys: DIE_KEYS }); }

  get dieKeys() { return DIE_KEYS; }

  turnKey(s) { return s.rolls; }

  newTurn() {
    this.sel = new Set();
  }

  effects(event) {
    // Only a Farkle shakes its banner: a reload that finds one in the state shows it standing still.
    if (event.result?.farkle) this.fresh = true;
    if (event.action?.type !== 'roll') return new Set();
    return new Set((event.state?.dice ?? []).map((_, i) => i));
  }

  roll() {
    const s = this.app.state;
    this.app.send({ type: 'roll', keep: s.rolls === 0 ? [] : sorted(this.sel) });
  }

  #bank() {
    this.app.send({ type: 'bank', keep: sorted(this.sel) });
  }

  // What the engine says about the roll (the preview): every scoring selection with its value. The
  // page never scores dice itself: a die can be picked while some scoring selection holds it with
  // those already picked, so two dice that never score together cannot both be picked.
  get #keeps() { return this.app.client.preview.keeps ?? []; }

  toggleDie(i) {
    if (!usableDice(this.#keeps, this.sel).has(i)) return;
    this.sel.has(i) ? this.sel.delete(i) : this.sel.add(i);
    this.app.render();
  }

  #pick(keep) {
    const same = keep.length === this.sel.size && keep.every((i) => this.sel.has(i));
    this.sel = new Set(same ? [] : keep);
    this.app.render();
  }

  key(e) {
    if (e.key !== 'b' && e.key !== 'B') return false;
    e.preventDefault();
    if (!e.repeat) this.#bank();
    return true;
  }

  dice() {
    const s = this.app.state;
    return {
      dice: s.dice, count: diceCount(s), marked: this.sel, markWord: gettext('selected to keep'), tagWord: gettext('keep'),
      interactive: this.app.myTurn && s.rolls > 0, usable: usableDice(this.#keeps, this.sel),
    };
  }

  controls() {
    const app = this.app;
    const preview = app.client.preview;
    return farkleControls({
      state: app.state, sel: this.sel, value: selectionValue(this.#keeps, sorted(this.sel)), sets: preview.sets ?? [],
      minimum: preview.bank_minimum, mine: app.myTurn,
      onRoll: () => app.roll(), onBank: () => this.#bank(), onPick: (keep) => this.#pick(keep),
    });
  }

  turnHint() {
    const s = this.app.state;
    if (s.rolls === 0) return fmt(gettext('Roll the dice to start your turn. Goal: %(goal)s.'), { goal: String(s.goal) });
    if (s.confirm_roll) return gettext('Hot dice confirmed: set aside scoring dice, then roll or bank.');
    return gettext('Select scoring dice, then roll the rest or bank.');
  }

  moment() {
    const moment = farkleMoment(this.app.state, this.app.me);
    if (moment?.kind === 'farkle' && this.fresh) moment.fresh = true;
    this.fresh = false;
    return moment;
  }

  board(el, changed) {
    const s = this.app.state;
    if (changed('board', [s.set_aside, s.turn_points, s.laps, s.goal, s.ending, s.current, s.over])) {
      fill(el, farkleBoard({ state: s, me: this.app.me }));
    }
  }

  goal(s) { return s?.goal ?? 0; }

  laps(s) { return s?.laps ?? 0; }
}

class FarkleReplay {
  dice(state) {
    return diceRow({ dice: state.dice, count: diceCount(state), marked: new Set(), markWord: gettext('selected'), interactive: false });
  }

  moment(state) {
    return farkleMoment(state, null);
  }

  board(state) {
    return farkleBoard({ state, me: null });
  }

  goal(state) { return state.goal; }
}

export const farkleView = {
  play: (app) => new FarklePlay(app),
  replay: () => new FarkleReplay(),
};
