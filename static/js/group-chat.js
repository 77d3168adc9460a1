// A group page's chat, live (templates/chat/_group.html): the header's notices socket hands over each
// `group_chat` message (static/js/notices.js); every message goes in as text, never as HTML.
import { gettext } from './i18n.js';

const section = document.getElementById('chat');
const list = document.getElementById('group-chat');

if (section && list) {
  const group = Number(section.dataset.group);
  document.addEventListener('dicehall:group-chat', (e) => {
    const { group: where, message } = e.detail;
    if (where !== group) return;
    const old = list.querySelector(`li[data-id="${message.id}"]`);
    const li = document.createElement('li');
    li.dataset.id = String(message.id);
    const who = document.createElement('strong');
    who.textContent = message.user;
    li.append(who, ': ');
    if (message.removed) {
      const em = document.createElement('em');
      em.className = 'muted';
      em.textContent = gettext('removed');
      li.append(em);
    } else {
      li.append(message.text);
    }
    if (old) old.replaceWith(li);
    else {
      list.querySelector('li.muted:not([data-id])')?.remove();
      list.append(li);
      list.scrollTop = list.scrollHeight;
    }
  });
}
