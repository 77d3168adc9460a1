// The table's chat panel (docs/protocol.md: `say` and `unsay` out, `chat` in, the snapshot's `chat`):
// every message goes in as text, never as HTML. A player who hid the chat (notification settings) sees a
// note instead. Only the players write (spectators read); a message's author, and the creator of the
// group the game belongs to (`moderator`), may take it down. What the input says as its writer nears the
// limit, or when the server refuses a message, is chat-input.js's. Beside another person's line: mute
// them (their chat is gone for the reader at every table and in every group) and report the line
// (safety's form). A reader may turn the table's chat off for themselves for this game.

import { fill, h } from './dom.js';
import { ChatInput } from '../chat-input.js';
import { fmt, gettext } from '../i18n.js';

const MAX = 500;

export class ChatPanel {
  constructor(client, muted, { talks = true, moderator = false, off = false, urls = {} } = {}) {
    this.client = client;
    this.muted = muted;
    this.moderator = moderator;
    this.off = off;
    this.urls = urls;
    this.shown = null;
    this.list = h('ol', { class: 'g-chat', id: 'g-chat', tabindex: '0', 'aria-labelledby': 'g-chat-title' });
    this.input = h('input', { type: 'text', id: 'g-chat-text', maxlength: String(MAX), autocomplete: 'off', enterkeyhint: 'send' });
    this.writing = new ChatInput(this.input);
    this.el = h('section', { class: 'g-panel', 'aria-labelledby': 'g-chat-title' },
      h('h2', { id: 'g-chat-title' }, gettext('Chat')),
      muted
        ? h('p', { class: 'muted small' }, `${gettext('You hid the chat.')} `, h('a', { href: '/notices/settings/' }, gettext('Show it')))
        : off
          ? h('p', { class: 'muted small', id: 'g-chat-off' }, `${gettext('You turned this table\'s chat off.')} `,
            h('button', { type: 'button', class: 'link-button small', onclick: () => this.#turn('on') }, gettext('Turn it on')))
          : [
          h('div', { role: 'log' }, this.list),
          talks && h('form', { class: 'g-chat-form', onsubmit: (e) => this.#send(e) },
            h('label', { for: 'g-chat-text', class: 'sr-only' }, gettext('Message')),
            this.input,
            h('button', { type: 'submit', class: 'button small' }, gettext('Send'))),
          talks && this.writing.el,
          urls.chat && h('p', { class: 'small g-chat-tools' },
            h('button', { type: 'button', class: 'link-button small', id: 'g-chat-turn-off', onclick: () => this.#turn('off') }, gettext('Turn this table\'s chat off'))),
        ]);
  }

  async #post(url, data) {
    const body = new FormData();
    body.append('csrfmiddlewaretoken', document.querySelector('input[name=csrfmiddlewaretoken]')?.value ?? '');
    for (const [k, v] of Object.entries(data)) body.append(k, v);
    try {
      const answer = await fetch(url, { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'application/json' } });
      return answer.ok ? await answer.json() : null;
    } catch {
      return null;
    }
  }

  /** Turn the table's chat off or on for oneself; the page is drawn again with it. */
  async #turn(action) {
    if (await this.#post(this.urls.chat, { action })) window.location.reload();
  }

  /** Mute a line's writer: their lines go from this page at once, and the server sends no more. */
  async #mute(user) {
    const answer = await this.#post(this.urls.mute.replace('USER', encodeURIComponent(user)), { action: 'mute' });
    if (!answer) return;
    for (const [id, m] of this.client.chat) if (m.user === user) this.client.chat.delete(id);
    this.shown = null;
    this.render();
  }

  #tools(m) {
    const me = this.client.me;
    if (!me || m.removed || m.user === me || !this.urls.mute) return null;
    const report = `${this.urls.report.replace('USER', encodeURIComponent(m.user))}?message=${m.id}&next=${encodeURIComponent(window.location.pathname)}`;
    return h('span', { class: 'g-chat-line-tools' },
      h('button', {
        type: 'button', class: 'link-button small',
        'aria-label': fmt(gettext('Mute %(username)s'), { username: m.user }),
        onclick: () => this.#mute(m.user),
      }, gettext('mute')),
      ' ',
      h('a', { class: 'small', href: report, 'aria-label': fmt(gettext("Report %(username)s's message"), { username: m.user }) }, gettext('report')));
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
    if (this.muted || this.off) return;
    const messages = this.client.chatMessages();
    const sig = messages.map((m) => `${m.id}:${m.removed}`);
    if (this.shown !== null && sig.join() === this.shown.join()) return;
    const nearBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    fill(this.list, messages.length ? messages.map((m) => line(m, this.#remover(m), this.#tools(m))) : h('li', { class: 'muted' }, gettext('No messages yet.')));
    this.shown = sig;
    if (nearBottom) this.list.scrollTop = this.list.scrollHeight;
  }
}

export function line(m, remover = null, tools = null) {
  return h('li', { dataset: { id: String(m.id) } },
    h('strong', {}, m.user), ': ', m.removed ? h('em', { class: 'muted' }, gettext('removed')) : m.text,
    remover && ' ', remover, tools && ' ', tools);
}
