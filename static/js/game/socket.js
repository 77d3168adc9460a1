// One websocket that keeps itself alive: back-off reconnects, pings, and a watchdog for sockets that
// die silently (a laptop lid, a NAT timeout) without ever firing `close`.

import { gettext } from '../i18n.js';

const BACKOFF_FIRST_MS = 300;
const BACKOFF_CAP_MS = 5000;
const PING_EVERY_MS = 25000;
const PONG_WAIT_MS = 10000;

// Refusals the server makes on purpose: retrying would only be refused again.
const FATAL = new Map([
  [4401, gettext('You are signed out. Sign in again to play.')],
  [4403, gettext('This game belongs to a group you are not a member of.')],
  // A private game is not told apart from a missing one (games.access).
  [4404, gettext('There is no such game, or it is not open to you.')],
]);

// A refusal at the handshake reaches the browser as a bare failure (HTTP 403, close code 1006): its
// close code is lost. The game page itself answers the same question over plain HTTP, so after a failed
// handshake the page is asked, and a refusal there ends the retries with the reason.
const REFUSED_PAGE = new Map([
  [404, [4404, gettext('You can no longer see this game.')]],
]);
const SIGNED_OUT = [4401, gettext('You were signed out.')];

export class GameSocket {
  #url;
  #ws = null;
  #attempts = 0;
  #retryTimer = null;
  #pingTimer = null;
  #lastHeard = 0;
  #stopped = false;

  #pageUrl;

  constructor(url, { pageUrl, onOpen, onMessage, onStatus }) {
    this.#url = url;
    this.#pageUrl = pageUrl;
    this.onOpen = onOpen;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
  }

  start() {
    window.addEventListener('online', () => this.#retryNow());
    // When the browser knows the network is gone, say so at once: the socket may still look open (its
    // frames just go nowhere) until the ping watchdog gives up on it, half a minute later.
    window.addEventListener('offline', () => this.#lostNetwork());
    // Leaving the page closes the socket; that is not a drop worth a "Reconnecting" flash.
    window.addEventListener('pagehide', () => { this.#stopped = true; });
    this.#connect();
  }

  get isOpen() {
    return this.#ws?.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.isOpen) return false;
    this.#ws.send(JSON.stringify(message));
    return true;
  }

  #connect() {
    this.#retryTimer = null;
    const ws = new WebSocket(this.#url);
    this.#ws = ws;
    let opened = false;
    ws.addEventListener('open', () => {
      if (ws !== this.#ws) return;
      opened = true;
      this.#attempts = 0;
      this.#lastHeard = Date.now();
      this.#startPing(ws);
      this.onStatus('open');
      this.onOpen();
    });
    ws.addEventListener('message', (e) => {
      if (ws !== this.#ws) return;
      this.#lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      if (message && typeof message.type === 'string') this.onMessage(message);
    });
    ws.addEventListener('close', (e) => {
      if (ws !== this.#ws) return;
      this.#stopPing();
      const fatal = FATAL.get(e.code);
      if (fatal) {
        this.#stopped = true;
        this.onStatus('closed', fatal);
        return;
      }
      if (opened || !this.#pageUrl || !navigator.onLine) {
        this.#schedule();
        return;
      }
      this.onStatus('reconnecting');
      this.#askPage().then((refusal) => {
        if (ws !== this.#ws || this.#stopped) return;
        if (!refusal) {
          this.#schedule();
          return;
        }
        const [code, alert] = refusal;
        this.#stopped = true;
        this.onStatus('closed', FATAL.get(code), alert);
      });
    });
  }

  // [close code, message] when the page refuses this user now; null when it serves the page, or when it
  // cannot be reached (the server is down: keep retrying).
  async #askPage() {
    try {
      const response = await fetch(this.#pageUrl, {
        method: 'HEAD', credentials: 'same-origin', redirect: 'manual', cache: 'no-store',
      });
      if (response.type === 'opaqueredirect') return SIGNED_OUT;
      return REFUSED_PAGE.get(response.status) ?? null;
    } catch {
      return null;
    }
  }

  #schedule() {
    if (this.#stopped || this.#retryTimer) return;
    const base = BACKOFF_FIRST_MS * 2 ** this.#attempts;
    // Jitter spreads a whole table's reconnects after a server restart.
    const delay = Math.min(BACKOFF_CAP_MS, base * (0.75 + Math.random() * 0.5));
    this.#attempts = Math.min(this.#attempts + 1, 10);
    this.onStatus('reconnecting');
    this.#retryTimer = setTimeout(() => this.#connect(), delay);
  }

  #lostNetwork() {
    if (this.#stopped || !this.#ws) return;
    this.#drop();
  }

  #retryNow() {
    if (this.#stopped || this.isOpen) return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#attempts = 0;
    this.#drop();
  }

  // Abandon the current socket without waiting for a closing handshake that may never come.
  #drop() {
    const ws = this.#ws;
    this.#ws = null;
    this.#stopPing();
    if (ws) {
      try { ws.close(); } catch { /* already closed */ }
    }
    this.#schedule();
  }

  #startPing(ws) {
    this.#stopPing();
    this.#pingTimer = setInterval(() => {
      const sent = Date.now();
      this.send({ type: 'ping' });
      setTimeout(() => {
        if (ws === this.#ws && this.#lastHeard < sent) this.#drop();
      }, PONG_WAIT_MS);
    }, PING_EVERY_MS);
  }

  #stopPing() {
    clearInterval(this.#pingTimer);
    this.#pingTimer = null;
  }
}
