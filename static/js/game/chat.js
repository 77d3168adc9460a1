// The table's chat panel (docs/protocol.md: `say` and `unsay` out, `chat` in, the snapshot's `chat`):
// every message goes in as text, never as HTML. A player who hid the chat (notification settings) sees a
// note instead. Only the players write (spectators read); a message's author, and the creator of the
// group the game belongs to (`moderator`), may take it down. What the input says as its writer nears the
// limit, or when the server refuses a message, is chat-input.js's.

import { fill, h } from './dom.js';
import { ChatInput } from '../chat-input.js';
import { fmt, gettext } from '../i18n.js';

const MAX = 500;

export class ChatPanel {
  constructor(client, muted, { talks = true, moderator = false } = {}) {
    this.client = client;
    this.muted = muted;
    this.moderator = moderator;
    this.shown = null;
    this.list = h('ol', { class: 'g-chat', id: 'g-chat', tabindex: '0', 'aria-labelledby': 'g-chat-title' });
    this.input = h('input', { type: 'text', id: 'g-chat-text', maxlength: String(MAX), autocomplete: 'off', enterkeyhint: 'send' });
    this.writing = new ChatInput(this.input);
    this.el = h('section', { class: 'g-panel', 'aria-labelledby': 'g-chat-title' },
      h('h2', { id: 'g-chat-title' }, gettext('Chat')),
      muted
        ? h('p', { class: 'muted small' }, `${gettext('You hid the chat.')} `, h('a', { href: '/notices/settings/' }, gettext('Show it')))
        : [
          h('div', { role: 'log' }, this.list),
          talks && h('form', { class: 'g-chat-form', onsubmit: (e) => this.#send(e) },
            h('label', { for: 'g-chat-text', class: 'sr-only' }, gettext('Message')),
            this.input,
            h('button', { type: 'submit', class: 'button small' }, gettext('Send'))),
          talks && this.writing.el,
        ]);
  }

  #send(e) {
    e.preventDefault();
    const text = this.writing.take();
    if (text === null) return;
    if (this.client.say(text)) this.writing.sent();
    else this.writing.refuse(gettext('Not sent: the connection is down. Send it again once you are back online.'));
  }

  /** The server refused a message of ours (the game socket's `error` answering our `say`): why, beside
   * the input, and the text back in it; writing too fast carries the wait (`retry_after`). */
  refused(error, text) {
    this.writing.refuse(error.message, { draft: text, wait: error.retry_after ?? 0 });
  }

  #remover(m) {
    if (m.removed || !(this.moderator || m.user === this.client.me)) return null;
    return h('button', {
      type: 'button',
      class: 'link-button small',
      'aria-label': fmt(gettext("Remove %(username)s's message"), { username: m.user }),
      onclick: () => this.client.unsay(m.id),
    }, gettext('remove'));
  }

  render() {
    if (this.muted) return;
    const messages = this.client.chatMessages();
    const sig = messages.map((m) => `${m.id}:${m.removed}`);
    if (this.shown !== null && sig.join() === this.shown.join()) return;
    const nearBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    fill(this.list, messages.length ? messages.map((m) => line(m, this.#remover(m))) : h('li', { class: 'muted' }, gettext('No messages yet.')));
    this.shown = sig;
    if (nearBottom) this.list.scrollTop = this.list.scrollHeight;
  }
}

export function line(m, remover = null) {
  return h('li', { dataset: { id: String(m.id) } },
    h('strong', {}, m.user), ': ', m.removed ? h('em', { class: 'muted' }, gettext('removed')) : m.text,
    remover && ' ', remover);
}
