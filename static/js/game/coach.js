// The Hint button (solo games and games against computers only; the server checks again): asks the
// server for the expert's move for the player's current decision and shows it until the game moves on.

import { h } from './dom.js';
import { decimal, fmt, gettext } from '../i18n.js';

export class HintPanel {
  constructor(client) {
    this.client = client;
    this.hint = null;
    this.asked = null;
    this.button = h('button', { type: 'button', class: 'button small secondary', id: 'hint-button', disabled: true, onclick: () => this.ask() }, gettext('Hint'));
    this.text = h('p', { class: 'hint-text', id: 'hint-text', 'aria-live': 'polite' });
    this.el = h('div', { class: 'g-coach', id: 'g-coach' }, this.button, this.text);
  }

  ask() {
    this.asked = this.client.lastSeq;
    if (this.client.askHint()) {
      this.text.textContent = gettext('The expert is thinking…');
    }
  }

  received(message) {
    if (message.seq !== this.client.lastSeq) return; // worked out for a state already gone
    this.hint = message;
    this.render(true);
  }

  render(myTurn) {
    this.button.disabled = !myTurn;
    if (this.hint && this.hint.seq !== this.client.lastSeq) this.hint = null;
    if (this.asked !== null && this.asked !== this.client.lastSeq) this.asked = null;
    let text = '';
    if (this.hint) {
      // The move's words come from the server in the asker's language (coach.hints).
      const { text: move, value, decision, measure } = this.hint;
      const said = { move, value: decimal(value) };
      if (measure === 'win') {
        // The last turn against a known score: the expert plays for the chance of winning.
        text = decision
          ? fmt(gettext('Expert: %(move)s (wins %(value)s times in 100)'), said)
          : fmt(gettext('Expert: %(move)s: nothing to choose yet (this turn wins %(value)s times in 100).'), said);
      } else {
        text = decision
          ? fmt(gettext('Expert: %(move)s (%(value)s points expected)'), said)
          : fmt(gettext('Expert: %(move)s: nothing to choose yet (%(value)s points expected this turn).'), said);
      }
    } else if (this.asked !== null) {
      text = this.text.textContent;
    }
    if (this.text.textContent !== text) this.text.textContent = text;
  }
}
