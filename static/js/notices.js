// The header's notifications on every page of a signed-in player (templates/notices/_header.html): a
// socket to /ws/notices/ (docs/protocol.md) keeps the count, the list, the tab title and the favicon
// current; a sound and a browser notification, each if the player switched it on, when a turn comes;
// and any "waiting for your turn" list on the page ([data-live-turns]) is redrawn live.

import { fmt, gettext, number } from './i18n.js';

const PING_EVERY_MS = 25000;
const root = document.getElementById('notices');

if (root) new Notices(root).start();

function Notices(el) {
  const count = el.querySelector('.notices-count');
  const list = el.querySelector('.notices-list');
  const menu = el.querySelector('details');
  const title = document.title.replace(/^\(\d+\) /, '');
  let wants = { sound: false, browser: false };
  let ws = null;
  let delay = 500;
  let known = null; // the games waiting for this player at the last message (null: none yet)
  let unseen = [];

  this.start = () => {
    connect();
    menu.addEventListener('toggle', () => {
      if (menu.open && unseen.length) send({ type: 'seen', ids: unseen.map((n) => n.id) });
    });
  };

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(`${scheme}://${location.host}/ws/notices/`);
    let ping = null;
    ws.onopen = () => {
      delay = 500;
      ping = setInterval(() => send({ type: 'ping' }), PING_EVERY_MS);
    };
    ws.onmessage = (e) => {
      const message = JSON.parse(e.data);
      if (message.type === 'notices') show(message);
      // A group page listens for its chat (static/js/group-chat.js).
      else if (message.type === 'group_chat') document.dispatchEvent(new CustomEvent('dicehall:group-chat', { detail: message }));
      // A part of a group's pages changed (a season's table: static/js/group-live.js).
      else if (message.type === 'group_changed') document.dispatchEvent(new CustomEvent('dicehall:group-changed', { detail: message }));
    };
    ws.onclose = (e) => {
      clearInterval(ping);
      if (e.code === 4401) return; // signed out
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 15000);
    };
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function show(feed) {
    wants = { sound: feed.sound, browser: feed.browser };
    count.textContent = feed.count ? String(feed.count) : '';
    count.hidden = !feed.count;
    el.dataset.count = String(feed.count);
    document.title = feed.count ? `(${feed.count}) ${title}` : title;
    favicon(feed.count);
    // Read notices stay in the list (opening the list used to empty it); only unread ones count.
    unseen = feed.notices.filter((n) => !n.seen);
    drawList(feed);
    for (const target of document.querySelectorAll('[data-live-turns]')) drawGames(target, feed.turns);
    for (const target of document.querySelectorAll('[data-live-playing]')) drawGames(target, feed.playing);
    const fresh = known === null ? [] : feed.turns.filter((t) => !known.has(t.game));
    known = new Set(feed.turns.map((t) => t.game));
    if (fresh.length) announce(fresh[0]);
  }

  function drawList(feed) {
    const items = [
      ...feed.turns.map((t) => item(t.url, fmt(gettext('Your turn: %(game)s'), { game: t.title }), fmt(gettext('waiting %(time)s'), { time: since(t.waiting) }))),
      ...feed.notices.map((n) => item(n.url, n.text, n.seen ? '' : gettext('new'), n.seen ? 'read' : 'unread')),
    ];
    list.replaceChildren(...(items.length ? items : [plain(gettext('Nothing waiting for you.'))]));
  }

  function drawGames(target, games) {
    const rows = games.map((g) => {
      const scores = g.players.map((p) => `${p} ${number(g.scores[p] ?? 0)}`).join(', ');
      const said = fmt(gettext('%(player)s to play'), { player: g.current });
      return item(g.url, g.title, `${g.players.join(', ')} · ${said} · ${scores} · ${fmt(gettext('for %(time)s'), { time: since(g.waiting) })}`);
    });
    target.replaceChildren(...(rows.length ? rows : [plain(target.dataset.empty || gettext('None.'))]));
  }

  function announce(turn) {
    if (wants.sound) beep();
    // Only when the player is looking elsewhere: on the page, the count and the list say it already.
    if (wants.browser && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
      const note = new Notification(gettext('Your turn'), { body: turn.title, tag: `turn-${turn.game}`, icon: '/static/favicon.svg' });
      note.onclick = () => { window.focus(); location.href = turn.url; };
    }
  }
}

function item(href, text, note, state = '') {
  const li = document.createElement('li');
  if (state) li.className = state;
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  li.append(a);
  if (note) {
    const small = document.createElement('span');
    small.className = 'muted small';
    small.textContent = ` ${note}`;
    li.append(small);
  }
  return li;
}

function plain(text) {
  const li = document.createElement('li');
  li.className = 'muted';
  li.textContent = text;
  return li;
}

function since(seconds) {
  if (seconds < 60) return gettext('a moment');
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} d`;
}

// A short two-note chime made on the spot (no sound file to load).
function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const ctx = new Context();
  [660, 880].forEach((freq, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.15, ctx.currentTime + i * 0.15);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + i * 0.15 + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(ctx.currentTime + i * 0.15);
    osc.stop(ctx.currentTime + i * 0.15 + 0.3);
  });
  setTimeout(() => ctx.close(), 1000);
}

// The favicon with the count on it, drawn over the site's own icon.
let plainIcon = null;
function favicon(n) {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  plainIcon ??= link.href;
  if (!n) {
    link.href = plainIcon;
    return;
  }
  const img = new Image();
  img.onload = () => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 64;
    const c = canvas.getContext('2d');
    c.drawImage(img, 0, 0, 64, 64);
    c.fillStyle = '#b3261e';
    c.beginPath();
    c.arc(44, 20, 20, 0, 2 * Math.PI);
    c.fill();
    c.fillStyle = '#fff';
    c.font = 'bold 28px sans-serif';
    c.textAlign = 'center';
    c.textBaseline = 'middle';
    c.fillText(n > 9 ? '9+' : String(n), 44, 21);
    link.type = 'image/png';
    link.href = canvas.toDataURL('image/png');
    link.dataset.count = String(n);
  };
  img.src = plainIcon;
}
