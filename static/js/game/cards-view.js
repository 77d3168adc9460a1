// The card games' view (views.js): dice held between rolls, the score card on show with its box
// previews and keyboard grid, on the game page; every player's card on the replay. Everything
// game-specific comes from the score sheet the server sends (the engine's SHEET, games/rules/sheet.py).

import { fill, h } from './dom.js';
import { diceRow } from './dice.js';
import { bonusMoment, boxLabel, cardCaption, cardControls, cardTable, cardTabs, landingHint, navRows, previewIndex, worthOf } from './cards.js';
import { GameView } from './view.js';
import { fmt, gettext } from '../i18n.js';

const ARROWS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);
// A finger has no hover to preview with and taps by mistake: its first tap on a box only shows what the
// box would score, and a second tap (or the Score button) scores. A mouse hovers first and scores at
// one click; Enter scores at once.
const TWO_TAPS = new Set(['touch', 'pen']);

class CardPlay extends GameView {
  constructor(app, sheet) {
    super(app);
    this.sheet = sheet;
    this.holds = new Set();
    this.viewed = null;
    this.lastCurrent = undefined;
    this.nav = { row: 0, col: 1 };
    this.pointing = null;
    this.selected = null;
    this.keepMine = false;
    this.lastPointer = '';
  }

  get keysHelp() {
    return fmt(gettext('Space rolls · 1–%(keys)s hold a die · arrow keys move over the card · Enter scores the box'), { keys: this.sheet.dice });
  }

  get dieKeys() { return this.sheet.dice; }

  turnKey(s) { return s.roll; }

  newTurn(s) {
    this.holds = new Set(s.held ?? []);
    this.pointing = null;
    this.selected = null;
  }

  // The card on show follows the player to move, until the viewer picks another tab; except that the
  // viewer's own card stays on show after they score, until the next player's first roll, so that they
  // see the box they filled.
  follow(s) {
    const me = this.app.me;
    if (s.current !== this.lastCurrent) {
      const justPlayed = this.lastCurrent === me && this.viewed === me && s.players.includes(me);
      this.lastCurrent = s.current;
      this.keepMine = justPlayed && Boolean(s.current) && s.current !== me && !s.over;
      if (s.current && !this.keepMine) this.viewed = s.current;
    }
    if (this.keepMine && s.roll > 0) {
      this.keepMine = false;
      this.viewed = s.current;
    }
    if (!this.viewed || !s.players.includes(this.viewed)) {
      this.viewed = s.current ?? (s.players.includes(me) ? me : s.players[0]);
    }
  }

  effects(event) {
    if (event.action?.type !== 'roll') return new Set();
    const held = new Set(event.action?.hold ?? []);
    return new Set((event.state?.dice ?? []).map((_, i) => i).filter((i) => !held.has(i)));
  }

  roll() {
    const s = this.app.state;
    this.app.send({ type: 'roll', hold: s.roll === 0 ? [] : [...this.holds].sort((a, b) => a - b) });
  }

  toggleDie(i) {
    const s = this.app.state;
    if (s.roll === 0 || s.roll >= this.sheet.rolls) return;
    this.holds.has(i) ? this.holds.delete(i) : this.holds.add(i);
    this.app.render();
  }

  key(e) {
    if (ARROWS.has(e.key)) {
      e.preventDefault();
      this.#moveInCard(e.key);
      return true;
    }
    if (e.key === 'Enter' && this.#chooseFocused()) {
      e.preventDefault();
      return true;
    }
    return false;
  }

  dice() {
    const s = this.app.state;
    const mine = this.app.myTurn;
    const interactive = mine && s.roll > 0 && s.roll < this.sheet.rolls;
    return { dice: s.dice, count: this.sheet.dice, marked: mine ? this.holds : new Set(s.held ?? []), markWord: gettext('held'), interactive };
  }

  controls() {
    const sel = this.selected;
    const card = this.app.state.cards[this.app.me];
    const chosen = sel && card ? { label: boxLabel(this.sheet, sel.name), worth: worthOf(this.sheet, card, sel.entry).worth } : null;
    return cardControls({
      sheet: this.sheet, state: this.app.state, holds: this.holds, mine: this.app.myTurn, onRoll: () => this.app.roll(),
      // Read at the press, not when drawn: the button is only redrawn when its text changes.
      chosen, onScore: () => this.selected && this.#score(this.selected.name, this.selected.column), onCancel: () => this.#select(null),
    });
  }

  turnHint() {
    const made = this.app.state.roll;
    if (made === 0) return gettext('Roll the dice to start your turn.');
    if (made < this.sheet.rolls) {
      // A finger taps and a mouse clicks: the hint names what the player does.
      return matchMedia('(pointer: coarse)').matches
        ? gettext('Tap dice to hold them and roll again, or choose a box on your card.')
        : gettext('Click dice to hold them and roll again, or choose a box on your card.');
    }
    return gettext('Choose a box on your card for these dice.');
  }

  pointedHint() {
    const card = this.app.state.cards[this.viewed];
    const sel = this.selected;
    if (sel && card) return landingHint(this.sheet, card, sel.entry, sel.column, TWO_TAPS.has(sel.pointer) ? 'tap' : 'again');
    const p = this.pointing;
    // Watching another player's dice: what they would score, with nothing to choose.
    const quick = this.app.root.dataset.quickScoring === 'true';
    const how = this.app.myTurn && this.viewed === this.app.me ? (quick ? 'click' : 'mark') : 'watch';
    return p?.entry && card ? landingHint(this.sheet, card, p.entry, p.column, how) : null;
  }

  moment() {
    return bonusMoment(this.sheet, this.app.state);
  }

  board(el, changed) {
    const app = this.app;
    const s = app.state;
    const owner = this.viewed;
    const card = s.cards[owner];
    if (this.el !== el) {
      // For browsers whose click events do not say what pressed: the last pointer to go down did.
      el.addEventListener('pointerdown', (e) => { this.lastPointer = e.pointerType; });
      this.el = el;
    }
    if (!card) return;
    const live = owner === s.current && s.roll > 0 && !s.over;
    const choosable = live && app.myTurn;
    const preview = live ? app.client.preview : {};
    if (!changed('card', [owner, card, preview, live, choosable, app.client.scores])) return;
    const table = cardTable({
      sheet: this.sheet, owner, card, previews: previewIndex(preview), live, choosable, nav: this.nav,
      handlers: {
        choose: (name, column, entry, event) => this.#choose(name, column, entry, event),
        point: (name, column, entry) => this.#point(name ? { name, column, entry } : null),
        focus: (row, col, name, column, entry) => {
          this.nav = { row, col };
          this.#rove();
          this.#point({ name, column, entry });
        },
      },
    });
    fill(el,
      cardTabs({
        state: s, scores: app.client.scores, viewed: owner, me: app.me,
        onView: (p) => {
          this.viewed = p;
          this.keepMine = false;
          this.pointing = null;
          this.selected = null;
          app.render();
        },
      }),
      cardCaption({ owner, me: app.me, card, live, choosable }),
      h('div', { class: 'card-scroll' }, table));
    this.#highlight();
  }

  // On a wide screen (game.css shows them from 1100 px) the other players' cards sit beside the one on
  // show, read-only: your own card stays in sight while the others play.
  beside(el, changed) {
    const s = this.app.state;
    const others = s.players.filter((p) => p !== this.viewed && s.cards[p]);
    const e = s.last_event;
    if (!changed('beside', [others, others.map((p) => s.cards[p]), this.app.me, e && [e.type, e.player, e.box, e.column]])) return;
    fill(el, others.map((p) => readOnlyCard(this.sheet, s, p, { mine: p === this.app.me })));
  }

  #choose(name, column, entry, event) {
    // Only the player to move, on their own card; the server explains any box it refuses.
    if (!this.app.myTurn || this.viewed !== this.app.me || name == null) return;
    const sel = this.selected;
    const again = sel?.name === name && sel.column === column;
    // No event: Enter on a box the player moved the focus to, which scores at once. A tap marks the
    // box first; so does a click unless the player chose to score with one (their profile).
    const pointer = event ? event.pointerType || this.lastPointer : '';
    const quick = this.app.root.dataset.quickScoring === 'true' && !TWO_TAPS.has(pointer);
    if (event && !quick && entry && !again) return this.#select({ name, column, entry, pointer });
    this.#score(name, column);
  }

  #score(name, column) {
    this.selected = null;
    const action = { type: 'score', box: name };
    if (this.sheet.columns > 1) action.column = column;
    this.app.send(action);
    this.app.render();
  }

  // The box tapped once: marked on the card, its worth in the hint and on the Score button.
  #select(sel) {
    this.selected = sel;
    this.app.render();
    this.#highlight();
  }

  // Arrow keys: the first press brings focus into the card, later ones move it.
  #moveInCard(key) {
    const active = document.activeElement;
    if (active?.dataset?.row !== undefined && this.app.root.contains(active)) {
      const rows = navRows(this.sheet).length;
      let { row, col } = this.nav;
      if (key === 'ArrowUp') row = Math.max(0, row - 1);
      if (key === 'ArrowDown') row = Math.min(rows - 1, row + 1);
      if (key === 'ArrowLeft') col = Math.max(1, col - 1);
      if (key === 'ArrowRight') col = Math.min(this.sheet.columns, col + 1);
      this.nav = { row, col };
    }
    this.#cell(this.nav.row, this.nav.col)?.focus();
  }

  #chooseFocused() {
    const cell = document.activeElement;
    if (!cell?.dataset?.box || !this.app.root.contains(cell)) return false;
    this.#choose(cell.dataset.box, Number(cell.dataset.col) || null);
    return true;
  }

  #cell(row, col) {
    return this.el?.querySelector(`td[data-row="${row}"][data-c="${col}"]`);
  }

  #rove() {
    for (const td of this.el.querySelectorAll('td[tabindex="0"]')) td.tabIndex = -1;
    const cell = this.#cell(this.nav.row, this.nav.col);
    if (cell) cell.tabIndex = 0;
  }

  #point(pointing) {
    this.pointing = pointing?.entry ? pointing : null;
    this.#highlight();
    this.app.renderHint();
  }

  #highlight() {
    if (!this.el) return;
    for (const el of this.el.querySelectorAll('.lands-here, .pointed, .selected')) el.classList.remove('lands-here', 'pointed', 'selected');
    const sel = this.selected;
    if (sel) this.#cellOf(sel.name, sel.column ?? 0)?.classList.add('selected');
    // A tapped box is what the card shows until it is scored or let go; the pointer only adds to it.
    const p = sel ?? this.pointing;
    if (!p) return;
    const col = p.column ?? 0;
    if (p !== sel) this.#cellOf(p.name, col)?.classList.add('pointed');
    this.#cellOf(p.name, p.entry.lands ?? col)?.classList.add('lands-here');
  }

  #cellOf(name, col) {
    return this.el.querySelector(`td[data-box="${name}"][data-col="${col}"]`);
  }
}

const NOTHING = () => {};
const READ_ONLY = { choose: NOTHING, point: NOTHING, focus: NOTHING };
// No cell is the roving keyboard stop: the replay's keys step through the game instead.
const NO_NAV = { row: -1, col: -1 };

// The box the step's action filled, marked on its owner's card.
function markScored(table, state, player) {
  const e = state.last_event;
  if (!e || e.player !== player || !['score', 'skip'].includes(e.type)) return;
  table.querySelector(`td[data-box="${e.box}"][data-col="${e.column ?? 0}"]`)?.classList.add('just-scored');
}

// A player's card with nothing to point at or choose, its last filled box marked: the replay's cards,
// and the other players' cards beside the live one on a wide screen.
function readOnlyCard(sheet, state, owner, { mine = false } = {}) {
  const card = state.cards[owner];
  const table = cardTable({ sheet, owner, card, previews: new Map(), live: false, choosable: false, nav: NO_NAV, handlers: READ_ONLY });
  markScored(table, state, owner);
  return h('section', { class: 'replay-card', dataset: { player: owner }, 'aria-label': mine ? gettext('Your card') : fmt(gettext("%(player)s's card"), { player: owner }) },
    h('p', { class: 'card-caption' }, h('strong', {}, mine ? gettext('Your card') : owner), ` · ${fmt(gettext('%(points)s points'), { points: card.total })}`),
    h('div', { class: 'card-scroll' }, table));
}

// One state of a finished game, read-only: every player's card side by side.
class CardReplay {
  constructor(sheet) {
    this.sheet = sheet;
  }

  dice(state) {
    return diceRow({ dice: state.dice, count: this.sheet.dice, marked: new Set(state.held ?? []), markWord: gettext('held'), interactive: false });
  }

  moment(state) {
    return bonusMoment(this.sheet, state);
  }

  board(state) {
    return h('div', { class: 'replay-cards' }, state.players.map((owner) => readOnlyCard(this.sheet, state, owner)));
  }

  goal() { return 0; }
}

export const cardsView = {
  play: (app, sheet) => new CardPlay(app, sheet),
  replay: (sheet) => new CardReplay(sheet),
};
