// The "Play someone now" page while the player waits (pairing/consumers.py): the queue as it changes,
// a ping every 10 s that keeps a live request in the queue, and the game's page once seated.
import { fmt, gettext, ngettext } from './i18n.js';

const panel = document.querySelector('[data-queue]');
const PING_EVERY_MS = 10000;
let since = Number(panel.dataset.since);
let computersAt = Number(panel.dataset.computersAt) || null;
// The rating window's steps ([seconds waited, points or null: anyone], pairing.matching): the page
// widens the window it names as the player waits; the server sends nothing at a step.
let windows = JSON.parse(document.getElementById('queue-windows').textContent);
let ws = null;
let delay = 500;
// Leaving by the page's own form: the socket's news of it must not reload the page the form is loading.
let leaving = false;
panel.querySelector('form').addEventListener('submit', () => {
  leaving = true;
});

function show(state) {
  if (leaving) return;
  if (state.game) {
    location.assign(state.url);
    return;
  }
  if (!state.waiting) {
    location.reload(); // left in another tab, or too long away: the form again
    return;
  }
  since = state.since;
  computersAt = state.computers_at || null;
  windows = state.windows;
  document.getElementById('queue-others').textContent = fmt(
    ngettext('%(n)s other player waits for this game.', '%(n)s other players wait for this game.', state.others),
    { n: state.others },
  );
  tick();
}

function showWindow(waited) {
  let points = null;
  for (const [at, step] of windows) if (waited >= at) points = step;
  const text = points
    ? fmt(gettext('Seating ratings within %(w)s points of yours; the range widens while you wait.'), { w: points })
    : gettext('Seating anyone who waits for this game.');
  const line = document.getElementById('queue-window');
  if (line.textContent !== text) line.textContent = text;
}

function tick() {
  const now = Date.now() / 1000;
  const waited = Math.max(0, Math.floor(now - since));
  document.getElementById('queue-waited').textContent = fmt(gettext('Waiting for %(n)s s.'), { n: waited });
  showWindow(now - since);
  const computers = document.getElementById('queue-computers');
  if (computers && computersAt) {
    const left = Math.ceil(computersAt - now);
    computers.textContent = left > 0
      ? fmt(gettext('Computers take the seats left in %(n)s s.'), { n: left })
      : gettext('Computers are taking the seats left.');
  }
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  ws = new WebSocket(`${scheme}://${location.host}/ws/queue/`);
  let ping = null;
  ws.onopen = () => {
    delay = 500;
    ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'ping' })), PING_EVERY_MS);
  };
  ws.onmessage = (e) => {
    const message = JSON.parse(e.data);
    if (message.type === 'queue') show(message);
    else if (message.type === 'seated' && !leaving) location.assign(message.url);
  };
  ws.onclose = (e) => {
    clearInterval(ping);
    if (e.code === 4401 || leaving) return;
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 15000);
  };
}

tick();
setInterval(tick, 1000);
connect();
