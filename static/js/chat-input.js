// What a chat's input tells its writer, at the table (game/chat.js) and in a group
// (group-chat.js): how many characters are left as the limit nears, a message over the limit refused with
// a word instead of cut short, and the server's refusal (writing too fast) beside the input, with the
// refused text put back for another try once the wait is over.

import { h } from './game/dom.js';
import { fmt, gettext, ngettext, number } from './i18n.js';

// The count shows once this few characters are left: earlier it is only noise.
const COUNT_WHEN_LEFT = 50;
// A screen reader hears the count once typing pauses, not at every key (as GOV.UK's character count).
const SAY_COUNT_AFTER_MS = 1000;

/** Characters as the server counts them (chat.services.clean): code points, spaces run together and
 * trimmed; an emoji is one character, not two UTF-16 units. */
export function charactersOf(text) {
  return [...text.trim().replace(/\s+/g, ' ')].length;
}

export class ChatInput {
  /** `input`: the chat's text field; its maxlength is the limit (without this script the browser keeps
   * to it by cutting, which is all a plain page can do). */
  constructor(input) {
    this.input = input;
    this.max = input.maxLength;
    input.removeAttribute('maxlength');
    this.noteTimer = null;
    this.sayTimer = null;
    this.count = h('span', { class: 'chat-count', 'aria-hidden': 'true' });
    this.said = h('span', { class: 'sr-only', id: `${input.id}-count`, 'aria-live': 'polite' });
    this.noteId = `${input.id}-note`;
    this.note = null;
    this.el = h('div', { class: 'chat-status' }, this.count, this.said);
    input.setAttribute('aria-describedby', `${this.said.id} ${this.noteId}`);
    input.addEventListener('input', () => this.typed());
  }

  /** The text to send, or null when there is none or it is too long (then the note says why). */
  take() {
    const text = this.input.value.trim();
    if (!text) return null;
    const over = charactersOf(text) - this.max;
    if (over > 0) {
      this.#setNote(fmt(ngettext(
        'A message is at most %(max)s characters: this one is %(count)s character too long.',
        'A message is at most %(max)s characters: this one is %(count)s characters too long.', over,
      ), { max: number(this.max), count: number(over) }), 'long');
      this.input.focus();
      return null;
    }
    this.#setNote('');
    return text;
  }

  /** The message went: the field is cleared for the next one. */
  sent() {
    this.input.value = '';
    this.typed();
  }

  /** Say why a message was not sent; `draft` goes back into the field (unless something new was
   * written there meanwhile), and the note goes after `wait` seconds, when sending works again. */
  refuse(text, { draft = '', wait = 0 } = {}) {
    if (draft && !this.input.value.trim()) {
      this.input.value = draft;
      this.typed();
    }
    this.#setNote(text);
    if (wait > 0) this.noteTimer = setTimeout(() => this.#setNote(''), wait * 1000);
  }

  /** Redraw the count after the field changed. */
  typed() {
    const left = this.max - charactersOf(this.input.value);
    const shown = left <= COUNT_WHEN_LEFT ? this.#countText(left) : '';
    this.count.textContent = shown;
    this.count.classList.toggle('over', left < 0);
    // A message back within the limit no longer needs the note that refused it.
    if (left >= 0 && this.note?.dataset.why === 'long') this.#setNote('');
    clearTimeout(this.sayTimer);
    this.sayTimer = setTimeout(() => { if (this.said.textContent !== shown) this.said.textContent = shown; }, SAY_COUNT_AFTER_MS);
  }

  #countText(left) {
    if (left >= 0) return fmt(ngettext('%(count)s character left', '%(count)s characters left', left), { count: number(left) });
    return fmt(ngettext('%(count)s character too many', '%(count)s characters too many', -left), { count: number(-left) });
  }

  // A new alert each time, gone when there is nothing to say: an alert put on the page with its words is
  // announced (each time, the same words too), and the page's own alert stays its only one otherwise.
  // `why`: 'long' for a message over the limit, whose note goes once it is short enough.
  #setNote(text, why = '') {
    clearTimeout(this.noteTimer);
    this.note?.remove();
    this.note = text ? h('p', { class: 'chat-note', id: this.noteId, role: 'alert', dataset: { why } }, text) : null;
    if (this.note) this.el.append(this.note);
  }
}
