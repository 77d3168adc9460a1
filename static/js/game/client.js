// The protocol side of a game page (docs/protocol.md): the latest snapshot, events in seq order,
// the event log, presence, and one action in flight that survives reconnects under the same id.

import { GameSocket } from './socket.js';

const LOG_LIMIT = 200;
// The ack can overtake its own event on the socket; only a seq still missing after this is a gap.
const ACK_GAP_WAIT_MS = 1500;
// The chat messages whose refusal the page still waits for: the server never confirms one by its id (the
// `chat` broadcast is the answer), so the oldest are forgotten.
const SAYING_LIMIT = 20;

function randomPrefix() {
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class GameClient {
  constructor(gameId, listener) {
    this.gameId = gameId;
    this.listener = listener;
    this.prefix = randomPrefix();
    this.counter = 0;
    this.pending = null;
    this.saying = new Map();
    this.syncing = false;
    this.lastSeq = null;
    this.game = null;
    this.status = null;
    this.seats = [];
    this.ratings = null; // the table's ratings (docs/protocol.md): beside each name, the end's changes
    this.connected = new Set();
    this.offlineSince = new Map();
    this.state = null;
    // The server's figures for the state: nothing here works them out again.
    this.scores = {};
    this.winners = [];
    this.preview = {};
    this.you = null;
    this.turnStartedAt = 0;
    this.log = new Map();
    this.chat = new Map();
    this.connection = 'connecting';
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.socket = new GameSocket(`${scheme}://${location.host}/ws/games/${gameId}/`, {
      pageUrl: `/games/${gameId}/`,
      onOpen: () => this.#opened(),
      onMessage: (m) => this.#receive(m),
      onStatus: (status, why, alert) => {
        this.connection = status;
        // An action still unanswered when the socket drops goes again on return (#opened).
        if (status !== 'open' && this.pending) this.pending.queued = true;
        this.listener.connection?.(status, why, alert);
      },
    });
  }

  start() {
    this.socket.start();
  }

  get mySeat() {
    return this.you?.seat ?? null;
  }

  get me() {
    return this.you?.user ?? null;
  }

  // Returns false when another action is still waiting for its answer (no double sends on double clicks).
  // An action asked for while the socket is down waits (`queued`) and goes once on return (#opened).
  act(action) {
    if (this.pending) return false;
    this.pending = { id: this.#nextId(), action, queued: false };
    this.pending.queued = !this.socket.send({ type: 'action', id: this.pending.id, action });
    this.listener.change?.('pending');
    return true;
  }

  // Returns false when the socket is down (the message is not sent: chat does not wait for a return).
  // The id comes back on a refusal, which then reaches the chat panel rather than the table's alert.
  say(text) {
    const id = this.#nextId();
    if (!this.socket.send({ type: 'say', id, text })) return false;
    this.saying.set(id, text);
    if (this.saying.size > SAYING_LIMIT) this.saying.delete(this.saying.keys().next().value);
    return true;
  }

  #nextId() {
    this.counter += 1;
    return `${this.prefix}-${this.counter}`;
  }

  unsay(id) {
    return this.socket.send({ type: 'unsay', message: id });
  }

  askHint() {
    return this.socket.send({ type: 'ask_hint' });
  }

  sendClientSeed(seed) {
    return this.socket.send({ type: 'client_seed', seed });
  }

  chatMessages() {
    return [...this.chat.values()].sort((a, b) => a.id - b.id);
  }

  #chatMessage(m) {
    this.chat.set(m.id, m);
    this.listener.chat?.();
  }

  sync() {
    if (this.syncing) return;
    this.syncing = this.socket.send({ type: 'sync', seq: this.lastSeq ?? 0 });
  }

  #opened() {
    this.syncing = false;
    // The connect snapshot already brings the state; the sync fetches every event we missed for the log.
    if (this.lastSeq !== null) this.sync();
    // Same id as before the drop: if the server applied it already, it answers with a duplicate ack.
    if (this.pending) this.socket.send({ type: 'action', id: this.pending.id, action: this.pending.action });
  }

  #receive(message) {
    switch (message.type) {
      case 'snapshot': return this.#snapshot(message);
      case 'event': return this.#event(message);
      case 'ack': return this.#ack(message);
      case 'error': return this.#error(message);
      case 'presence': return this.#presence(message);
      case 'lobby': return this.listener.lobby?.(message);
      case 'next_game': return this.listener.nextGame?.(message);
      case 'chat': return this.#chatMessage(message.message);
      case 'hint': return this.listener.hint?.(message);
      default: return undefined;
    }
  }

  #snapshot(message) {
    this.syncing = false;
    this.game = message.game;
    this.status = message.game.status;
    this.seats = message.seats;
    this.ratings = message.ratings ?? null;
    this.connected = new Set(message.connected);
    this.#take(message);
    this.you = message.you;
    this.turnStartedAt = message.game.turn_started_at ? Date.parse(message.game.turn_started_at) : Date.now();
    // The server counts absence from a player's last sign of life, which a fresh page has not seen.
    for (const seat of message.seats) {
      if (seat.last_seen && !this.connected.has(seat.user)) this.offlineSince.set(seat.user, Date.parse(seat.last_seen));
    }
    this.lastSeq = message.seq;
    for (const entry of message.events) this.#remember(entry);
    for (const m of message.chat ?? []) this.chat.set(m.id, m);
    this.listener.change?.('snapshot');
  }

  #event(message) {
    if (this.lastSeq === null || message.seq <= this.lastSeq) return;
    if (message.seq > this.lastSeq + 1) {
      this.sync();
      return;
    }
    const before = this.state?.current;
    const ended = this.status === 'playing' && message.status !== 'playing';
    this.lastSeq = message.seq;
    this.#take(message);
    this.status = message.status;
    // An event carries no seats: the snapshot brings the finished game's (results, personal bests).
    if (ended) this.sync();
    if (this.state?.current !== before) {
      this.turnStartedAt = Date.parse(message.turn_started_at ?? message.at) || Date.now();
    }
    this.#remember(message);
    this.listener.change?.('event', message);
  }

  #take(message) {
    this.state = message.state;
    this.scores = message.scores ?? {};
    this.winners = message.winners ?? [];
    this.preview = message.preview ?? {};
  }

  #ack(message) {
    if (this.pending?.id !== message.id) return;
    this.pending = null;
    const seq = message.seq;
    if (seq > (this.lastSeq ?? 0)) {
      // Without a channel layer the event never comes; the ack is then our cue to catch up.
      setTimeout(() => {
        if ((this.lastSeq ?? 0) < seq) this.sync();
      }, ACK_GAP_WAIT_MS);
    }
    this.listener.change?.('ack');
  }

  #error(message) {
    if (message.id && this.saying.has(message.id)) {
      const text = this.saying.get(message.id);
      this.saying.delete(message.id);
      this.listener.chatRefused?.(message, text);
      return;
    }
    if (message.id && this.pending?.id === message.id) this.pending = null;
    else if (message.id) return; // an answer to an action this page no longer waits for
    this.listener.error?.(message);
    this.listener.change?.('error');
  }

  #presence(message) {
    this.connected = new Set(message.connected);
    if (!message.online && !this.connected.has(message.user)) this.offlineSince.set(message.user, Date.now());
    this.listener.change?.('presence');
  }

  #remember(entry) {
    const { seq, seat, player, action, result, at } = entry;
    this.log.set(seq, { seq, seat, player, action, result, at });
    if (this.log.size > LOG_LIMIT) {
      const oldest = Math.min(...this.log.keys());
      this.log.delete(oldest);
    }
  }

  logEntries() {
    return [...this.log.values()].sort((a, b) => a.seq - b.seq);
  }
}
