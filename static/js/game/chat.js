// The table's chat panel (docs/protocol.md: `say` and `unsay` out, `chat` in, the snapshot's `chat`):
// every message goes in as text, never as HTML. A player who hid the chat (notification settings) sees a
// note instead. Only the players write (spectators read); a message's author, and the creator of the
// group the game belongs to (`moderator`), may take it down.

import { fill, h } from './dom.js';
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
        ]);
  }

  #send(e) {
    e.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    if (this.client.say(text)) this.input.value = '';
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
