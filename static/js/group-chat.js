// A group page's chat, live (templates/chat/_group.html): the header's notices socket hands over each
// `group_chat` message (static/js/notices.js); every message goes in as text, never as HTML. The form
// posts without leaving the page (chat.views.post answers JSON), so that a refused message is explained
// beside the input and stays in it (chat-input.js); without this script it is a plain form.
import { ChatInput } from './chat-input.js';
import { fmt, gettext } from './i18n.js';

const section = document.getElementById('chat');
const list = document.getElementById('group-chat');
const form = section?.querySelector('form.g-chat-form');
const input = document.getElementById('group-chat-text');

function show(message) {
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
    tools(li, message);
  }
  if (old) old.replaceWith(li);
  else {
    list.querySelector('li.muted:not([data-id])')?.remove();
    list.append(li);
    list.scrollTop = list.scrollHeight;
  }
}

/** Beside another member's line, as the page's own lines have them: mute its writer (a form that posts
 * and comes back here) and report the line. */
function tools(li, message) {
  const { me, muteUrl, reportUrl } = section.dataset;
  if (!me || message.user === me || !muteUrl) return;
  const mute = document.createElement('form');
  mute.method = 'post';
  mute.className = 'inline';
  mute.action = muteUrl.replace('USER', encodeURIComponent(message.user));
  const fields = { csrfmiddlewaretoken: form.querySelector('[name=csrfmiddlewaretoken]').value, action: 'mute', next: `${window.location.pathname}#chat` };
  for (const [name, value] of Object.entries(fields)) {
    const field = document.createElement('input');
    Object.assign(field, { type: 'hidden', name, value });
    mute.append(field);
  }
  const button = document.createElement('button');
  Object.assign(button, { type: 'submit', className: 'link-button small', textContent: gettext('mute') });
  button.setAttribute('aria-label', fmt(gettext('Mute %(username)s'), { username: message.user }));
  mute.append(button);
  const report = document.createElement('a');
  report.className = 'small';
  report.href = `${reportUrl.replace('USER', encodeURIComponent(message.user))}?message=${message.id}&next=${encodeURIComponent(window.location.pathname)}`;
  report.textContent = gettext('report');
  report.setAttribute('aria-label', fmt(gettext("Report %(username)s's message"), { username: message.user }));
  li.append(' ', mute, ' ', report);
}

async function send(writing, text) {
  const body = new FormData(form);
  writing.sent();
  let answer;
  let reply = {};
  try {
    answer = await fetch(form.action, {
      method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'application/json' },
    });
    reply = await answer.json();
  } catch {
    // No answer (the network), or not ours (signed out: the login page): the plain form tells the rest.
    if (!answer) {
      writing.refuse(gettext('Not sent: the site cannot be reached. Try again in a moment.'), { draft: text });
      return;
    }
  }
  if (answer.ok && reply.message) show(reply.message);
  else if (reply.error) writing.refuse(reply.error, { draft: text, wait: reply.retry_after ?? 0 });
  else {
    input.value = text;
    form.submit();
  }
}

if (section && list) {
  const group = Number(section.dataset.group);
  document.addEventListener('dicehall:group-chat', (e) => {
    const { group: where, message } = e.detail;
    if (where === group) show(message);
  });
  if (form && input) {
    const writing = new ChatInput(input);
    form.after(writing.el);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = writing.take();
      if (text !== null) send(writing, text);
    });
  }
}
