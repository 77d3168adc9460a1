// The game page: draws whatever the server's state says, the moment it arrives. What every game shares
// is drawn here; the rest by the game's view (views.js), chosen once by the snapshot's game.view. Local
// UI state is only what the server does not know yet, and lives in the view: dice held or selected
// before the next roll, the card being viewed, the box being pointed at.

import { fill, h } from './dom.js';
import { GameClient } from './client.js';
import { diceRow } from './dice.js';
import { actionItems, computerTag, endPanel, logItem, nextGameNotice, playerItems } from './panels.js';
import { bindKeys } from './keyboard.js';
import { ChatPanel } from './chat.js';
import { HintPanel } from './coach.js';
import { Announcer } from './announce.js';
import { viewModule } from './views.js';
import { randomSeed } from '../fair-seed.js';
import { eventText, fmt, gettext, gettext_noop } from '../i18n.js';

const OVER = new Set(['finished', 'abandoned', 'aborted']);
// A refused move is news for a moment, not a state: its message goes after this long (or sooner, when
// the game moves on).
const ERROR_MS = 6000;
// A computer's move this late (its pause is about a second) makes the page ask the server how far the
// game is and whether the background worker is playing: the worker's moves reach the page through the
// channel layer, which without Redis (one process's memory) they cannot; the page then syncs by itself.
// The server says the worker is not running once the move is overdue by a few seconds.
const COMPUTER_LATE_MS = 2000;
const WORKER_NOTICE = gettext_noop('The computer players are waiting for the background worker, which is not running.');
// A move asked for while the connection is down waits for it (client.js: it goes once, on return); the
// page says so beside the buttons until the server has acknowledged it.
const QUEUED = {
  roll: gettext_noop('Your roll will be sent as soon as you are back online.'),
  score: gettext_noop('Your score will be sent as soon as you are back online.'),
  bank: gettext_noop('Your points will be banked as soon as you are back online.'),
  skip: gettext_noop('The skip will be sent as soon as you are back online.'),
  resign: gettext_noop('Your resignation will be sent as soon as you are back online.'),
};
const QUEUED_MOVE = gettext_noop('Your move will be sent as soon as you are back online.');

export class GameApp {
  constructor(root) {
    this.root = root;
    this.view = null;
    this.waiting = root.dataset.status === 'open';
    this.againUrl = root.dataset.againUrl;
    this.replayUrl = root.dataset.replayUrl;
    this.gameUrl = root.dataset.gameUrl ?? '/games/0/';
    this.turnKey = null;
    this.lastCurrent = undefined;
    this.rolled = new Set();
    this.error = '';
    this.stickyError = false;
    this.errorTimer = null;
    this.nextGame = null;
    this.confirmResign = false;
    this.fatal = null;
    this.sigs = {};
    this.logShown = [];
    this.computersUrl = root.dataset.computersUrl;
    this.movedAt = Date.now();
    this.workerDown = false;
    this.askingWorker = false;
    this.client = new GameClient(Number(root.dataset.gameId), {
      change: (why, message) => this.#changed(why, message),
      error: (message) => this.#serverError(message),
      lobby: (message) => this.#lobby(message),
      nextGame: (message) => { this.nextGame = message; this.render(); },
      chat: () => this.chat.render(),
      chatRefused: (message, text) => this.chat.refused(message, text),
      hint: (message) => this.hints?.received(message),
      connection: (status, why, alert) => {
        this.fatal = why ?? null;
        this.#renderConnection(status);
        this.#renderQueued();
        if (alert) this.#setError(alert, { sticky: status === 'closed' });
      },
    });
  }

  start() {
    // A page restored from the back/forward cache has a dead socket and an old picture: start afresh.
    window.addEventListener('pageshow', (e) => { if (e.persisted) location.reload(); });
    this.#skeleton();
    this.client.start();
    if (this.waiting) return;
    bindKeys(this);
    // The skip button depends on how long the player to move has been away, which changes by itself.
    setInterval(() => this.#renderActions(), 1000);
    setInterval(() => this.#checkWorker(), 1000);
  }

  // --- facts about the game ---------------------------------------------------------------------

  get state() { return this.client.state; }
  get me() { return this.client.me; }
  get over() { return OVER.has(this.client.status); }
  get seated() { return this.client.mySeat !== null && this.client.mySeat !== undefined; }

  get myTurn() {
    const s = this.state;
    return Boolean(s && !s.over && this.client.status === 'playing' && s.current === this.me);
  }

  computerOf(player) {
    return this.client.seats.find((seat) => seat.user === player)?.computer ?? '';
  }

  scoreOf(player) {
    return this.client.scores[player] ?? 0;
  }

  winners() {
    // An aborted game names no winner: it was never played by everyone (docs/ratings.md).
    return this.client.status === 'aborted' ? [] : this.client.winners;
  }

  // --- actions ------------------------------------------------------------------------------------

  send(action) {
    this.#setError('');
    this.client.act(action);
  }

  roll() {
    if (this.state) this.view.roll();
  }

  toggleDie(i) {
    const s = this.state;
    if (!this.myTurn || !s || i >= s.dice.length) return;
    this.view.toggleDie(i);
  }

  // --- protocol callbacks -------------------------------------------------------------------------

  #changed(why, message) {
    const c = this.client;
    if (this.waiting) {
      // The page was drawn as a waiting room; a started game is best drawn by reloading it.
      if (why === 'snapshot' && c.status !== 'open') location.reload();
      else if (why === 'snapshot') this.#waitingSeats(c.seats);
      this.root.dataset.seq = String(c.lastSeq ?? '');
      return;
    }
    if (!this.view && c.game) this.#chooseView();
    // Said first: a screen reader hears the move as soon as it is here, before the page is redrawn.
    this.announcer.changed(c, why, message);
    if (why === 'event' || why === 'snapshot') this.movedAt = Date.now();
    if (why === 'event') this.#effects(message);
    if (why === 'event' && message.fair_dice?.server_seed) this.#revealSeed(message.fair_dice.server_seed);
    if (why === 'event' || why === 'snapshot') this.#offerNextSeed(why === 'event' ? message.fair_dice : c.game?.fair_dice);
    this.#followTurn();
    this.render();
  }

  // Once, from the first snapshot: the game's view module and its keys line.
  #chooseView() {
    const game = this.client.game;
    this.view = viewModule(game.view).play(this, game.sheet);
    if (this.dom.keys) fill(this.dom.keys, h('strong', {}, `${gettext('Keys:')} `), this.view.keysHelp);
  }

  #effects(event) {
    const action = event.action ?? {};
    const rolled = this.view.effects(event);
    if (action.type === 'roll') this.rolled = rolled;
    // Whatever was refused was refused in the situation before this event.
    if (!this.stickyError) this.#setError('');
  }

  #followTurn() {
    const s = this.state;
    if (!s) return;
    const key = `${s.current}|${s.turn}|${this.view.turnKey(s)}`;
    if (key !== this.turnKey) {
      this.turnKey = key;
      this.view.newTurn(s);
    }
    if (s.current !== this.lastCurrent) {
      this.lastCurrent = s.current;
      this.confirmResign = false;
      if (!this.stickyError) this.#setError('');
    }
    this.view.follow(s);
  }

  // Asks only while a computer is to move and has not moved for a while; the answer is shown, and
  // withdrawn by the next move.
  async #checkWorker() {
    const s = this.state;
    const computerToMove = Boolean(s && !s.over && this.client.status === 'playing' && this.computerOf(s.current));
    const late = computerToMove && Date.now() - this.movedAt > COMPUTER_LATE_MS;
    if (!late) return this.#showWorker(false);
    if (this.askingWorker || !this.computersUrl) return;
    this.askingWorker = true;
    try {
      const answer = await fetch(this.computersUrl, { headers: { Accept: 'application/json' } });
      if (answer.ok) {
        const { seq, waiting_for_worker: down } = await answer.json();
        if (seq > (this.client.lastSeq ?? 0)) this.client.sync();
        this.#showWorker(down);
      }
    } catch {
      // The socket's own reconnecting notice covers a server that cannot be reached.
    } finally {
      this.askingWorker = false;
    }
  }

  #showWorker(down) {
    if (down === this.workerDown) return;
    this.workerDown = down;
    if (!this.dom?.worker) return;
    this.dom.worker.hidden = !down;
    this.dom.worker.textContent = down ? gettext(WORKER_NOTICE) : '';
  }

  #serverError(message) {
    this.#setError(message.message);
    // "not playing" means our picture is stale (the game ended or restarted): fetch the truth.
    if (message.code === 'not_playing') this.client.sync();
  }

  #lobby(message) {
    if (!this.waiting) return;
    if (message.status !== 'open') {
      location.reload();
      return;
    }
    this.#waitingSeats(message.seats);
  }

  // Fair dice (docs/fair-dice.md): the event that ends the game reveals the server seed, drawn into the
  // page's "Fair dice" panel (templates/games/game.html).
  // Once the game is over, the seed this player brings to its "Play again", made here after that game's
  // commitment was shown (next_commitment, from this game's creation on: docs/fair-dice.md): sent now
  // over the socket, and again with the Play again form.
  #offerNextSeed(fair) {
    if (this.nextSeed || !this.seated || !fair?.server_seed || !fair.next_commitment) return;
    this.nextSeed = randomSeed();
    this.client.sendClientSeed(this.nextSeed);
  }

  #revealSeed(seed) {
    const code = document.getElementById('fair-server-seed');
    if (!code) return;
    code.textContent = seed;
    document.getElementById('fair-revealed').hidden = false;
    document.getElementById('fair-pending').hidden = true;
  }

  #fairSeeds(seats) {
    const list = document.getElementById('fair-seeds');
    if (list) fill(list, seats.map((s) => h('li', {}, `${s.user}: `, h('code', { class: 'seed' }, s.client_seed))));
  }

  #waitingSeats(seats) {
    this.#fairSeeds(seats);
    const list = document.getElementById('seat-list');
    if (!list) return;
    const host = this.client.game?.creator;
    // The host may take a computer's seat away again (the page's own form, drawn afresh here).
    const removeUrl = list.dataset.removeUrl;
    const token = document.querySelector('input[name=csrfmiddlewaretoken]')?.value ?? '';
    const remove = (name) => h('form', { method: 'post', action: removeUrl, class: 'inline' },
      h('input', { type: 'hidden', name: 'csrfmiddlewaretoken', value: token }),
      h('input', { type: 'hidden', name: 'username', value: name }),
      h('button', { type: 'submit', class: 'link-button', 'aria-label': fmt(gettext('Remove %(player)s'), { player: name }) }, gettext('remove')));
    fill(list, seats.map((s) => h('li', {}, s.user,
      s.computer ? [' ', computerTag(s.computer)] : null,
      s.user === host ? [' ', h('span', { class: 'tag' }, gettext('host'))] : null,
      s.computer && removeUrl ? [' ', remove(s.user)] : null)));
    const heading = document.getElementById('waiting-heading');
    const max = this.client.game?.max_seats;
    if (heading && max) heading.textContent = fmt(gettext('Waiting for players (%(seated)s/%(max)s)'), { seated: seats.length, max });
    const add = document.getElementById('add-computer');
    if (add && max) add.hidden = seats.length >= max;
  }

  // --- drawing ------------------------------------------------------------------------------------

  #skeleton() {
    const el = (id, tag = 'div', attrs = {}) => h(tag, { id, ...attrs });
    this.chat = new ChatPanel(this.client, this.root.dataset.muteChat === 'true', {
      talks: this.root.dataset.talks === 'true',
      moderator: this.root.dataset.moderator === 'true',
      off: this.root.dataset.chatOff === 'true',
      urls: this.root.dataset.user
        ? { chat: this.root.dataset.chatUrl, mute: this.root.dataset.muteUrl, report: this.root.dataset.reportUrl }
        : {},
    });
    this.hints = this.root.dataset.hint === 'true' ? new HintPanel(this.client) : null;
    this.announcer = new Announcer();
    this.dom = {
      conn: el('g-conn', 'p', { class: 'g-conn', role: 'status' }),
      next: el('g-next', 'div', { class: 'g-next' }),
    };
    if (this.waiting) {
      fill(this.root, this.dom.conn, this.dom.next);
      return;
    }
    Object.assign(this.dom, {
      end: el('g-end', 'section', { class: 'g-end', 'aria-labelledby': 'g-end-title' }),
      turn: el('g-turn', 'h2', { class: 'g-turn' }),
      worker: el('g-worker', 'p', { class: 'g-worker', role: 'status', hidden: true }),
      last: el('g-last', 'p', { class: 'g-last' }),
      dice: el('g-dice', 'div', { class: 'g-dice', role: 'group', 'aria-label': gettext('Dice') }),
      controls: el('g-controls', 'div', { class: 'g-controls' }),
      queued: el('g-queued', 'p', { class: 'g-queued', role: 'status' }),
      hint: el('g-hint', 'p', { class: 'g-hint' }),
      error: el('g-error', 'p', { class: 'g-error', role: 'alert' }),
      moment: el('g-moment', 'div', { class: 'g-moment' }),
      board: el('g-board', 'div', { class: 'g-board' }),
      beside: el('g-beside', 'div', { class: 'g-beside' }),
      players: el('g-players', 'ul', { class: 'g-players' }),
      actions: el('g-actions', 'div', { class: 'g-actions' }),
      // Focusable, so that a keyboard can scroll it. Not a live region: the announcements (announce.js) say
      // each move once, in a sentence of their own.
      log: el('g-log', 'ol', { class: 'g-log', tabindex: '0', 'aria-labelledby': 'g-log-title' }),
      keys: h('p', { class: 'g-keys muted' }),
    });
    const d = this.dom;
    fill(this.root,
      d.conn, d.next, this.announcer.el,
      h('div', { class: 'g-layout' },
        h('section', { class: 'g-play', 'aria-label': gettext('Table') },
          d.end, d.turn, d.worker, d.last,
          // The bar stays on screen while the card scrolls under it (game.css): the dice, the buttons
          // and what the box being chosen would score are always seen together.
          h('div', { class: 'g-bar' }, h('div', { class: 'g-tray' }, d.dice, d.controls), d.queued, d.hint, d.error),
          this.hints?.el,
          d.moment, h('div', { class: 'g-cards' }, d.board, d.beside)),
        h('aside', { class: 'g-side' },
          h('section', { class: 'g-panel', 'aria-labelledby': 'g-players-title' },
            h('h2', { id: 'g-players-title' }, gettext('Players')), d.players, d.actions),
          h('section', { class: 'g-panel', 'aria-labelledby': 'g-log-title' },
            h('h2', { id: 'g-log-title' }, gettext('Game log')), d.log),
          this.chat.el,
          d.keys)));
  }

  #renderConnection(status) {
    const text = { connecting: gettext('Connecting…'), reconnecting: gettext('Reconnecting…'), closed: this.fatal ?? gettext('Disconnected.') }[status] ?? '';
    this.dom.conn.textContent = text;
    this.dom.conn.className = `g-conn ${status}`;
    this.root.dataset.conn = status;
  }

  // A socket closed for good sends nothing more: its own alert says why, and no promise is made.
  #renderQueued() {
    const { pending, connection } = this.client;
    if (!this.dom?.queued) return;
    const text = pending?.queued && connection !== 'closed' ? gettext(QUEUED[pending.action?.type] ?? QUEUED_MOVE) : '';
    if (this.dom.queued.textContent !== text) this.dom.queued.textContent = text;
  }

  // `sticky`: a connection closed for good explains itself until the page is left.
  #setError(text, { sticky = false } = {}) {
    this.error = text;
    this.stickyError = Boolean(text) && sticky;
    clearTimeout(this.errorTimer);
    if (text && !sticky) this.errorTimer = setTimeout(() => this.#setError(''), ERROR_MS);
    if (this.dom?.error && this.dom.error.textContent !== text) this.dom.error.textContent = text;
  }

  // Redraw one region only when what it shows has changed, so that a presence blip does not restart a
  // dice animation or take the keyboard focus away.
  #changedSig(name, value) {
    const sig = JSON.stringify(value);
    if (this.sigs[name] === sig) return false;
    this.sigs[name] = sig;
    return true;
  }

  render() {
    const c = this.client;
    if (this.waiting || !c.game) return;
    const focusKey = this.root.contains(document.activeElement) ? document.activeElement.dataset?.focusKey : null;
    this.#renderNext();
    this.#renderEnd();
    if (c.state) {
      this.#renderTurn();
      this.#renderDice();
      this.#renderControls();
      this.renderHint();
      this.hints?.render(this.myTurn && !c.pending);
      this.#renderMoment();
      this.#renderBoard();
    } else {
      fill(this.dom.turn, c.status === 'abandoned' ? gettext('This game was cancelled before it started.') : gettext('Waiting for the game to start…'));
    }
    this.#renderQueued();
    this.#renderPlayers();
    this.#renderActions();
    this.#renderLog();
    this.chat.render();
    this.rolled = new Set();
    if (focusKey && !this.root.contains(document.activeElement)) {
      this.root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
    }
    this.root.dataset.seq = String(c.lastSeq ?? '');
    this.root.dataset.turn = this.state?.current ?? '';
    this.root.classList.toggle('is-over', this.over);
  }

  #renderNext() {
    const next = this.nextGame;
    if (!this.#changedSig('next', next)) return;
    if (!next) return fill(this.dom.next);
    fill(this.dom.next, nextGameNotice({ next, me: this.me, href: this.gameUrl.replace(/0\/$/, `${next.game}/`) }));
  }

  #renderEnd() {
    const s = this.state;
    const over = this.over;
    const bests = this.client.seats.filter((seat) => seat.best).map((seat) => seat.user);
    const ratings = this.client.ratings;
    if (!this.#changedSig('end', [over, this.client.status, s?.over && s.last_event, this.seated, bests, ratings, this.nextSeed])) return;
    this.dom.end.hidden = !over;
    if (!over) return fill(this.dom.end);
    fill(this.dom.end, endPanel({
      state: s, winners: this.winners(), scoreOf: (p) => this.scoreOf(p), me: this.me, bests, name: this.client.game.name,
      laps: this.view?.laps(s) ?? 0, seated: this.seated, againUrl: this.againUrl, replayUrl: this.replayUrl, ratings, nextSeed: this.nextSeed,
      aborted: this.client.status === 'aborted', token: document.querySelector('input[name=csrfmiddlewaretoken]')?.value ?? '',
    }));
  }

  #renderTurn() {
    const s = this.state;
    let text = gettext('Waiting…');
    if (s.over) text = gettext('Game over');
    else if (this.myTurn) text = gettext('Your turn');
    else if (s.current) text = fmt(gettext("%(player)s's turn"), { player: s.current });
    const computer = this.computerOf(s.current);
    const away = s.current && !s.over && !computer && !this.client.connected.has(s.current) ? ` ${gettext('(not connected)')}` : '';
    const watching = this.seated ? '' : ` · ${gettext('you are watching')}`;
    if (this.#changedSig('turn', [text, away, watching])) {
      fill(this.dom.turn, h('span', { class: this.myTurn ? 'mine' : '' }, text),
        away ? h('span', { class: 'muted' }, away) : null,
        watching ? h('span', { class: 'muted small' }, watching) : null);
    }
    const last = eventText(s.last_event);
    if (this.dom.last.textContent !== last) this.dom.last.textContent = last;
  }

  #renderDice() {
    const props = this.view.dice();
    const sig = [props.dice, props.count, [...props.marked].sort(), props.interactive, props.usable ? [...props.usable] : null];
    // Fresh dice always redraw, so that the tumble plays even when a roll repeats the same faces.
    if (!this.#changedSig('dice', sig) && !this.rolled.size) return;
    fill(this.dom.dice, diceRow({ ...props, rolled: this.rolled, onToggle: (i) => this.toggleDie(i) }));
  }

  #renderControls() {
    const parts = this.view.controls();
    if (this.#changedSig('controls', parts.map((p) => p?.outerHTML))) fill(this.dom.controls, parts);
  }

  #defaultHint() {
    const s = this.state;
    if (s.over) return '';
    if (!this.myTurn) {
      if (!this.seated) return '';
      return s.resigned.includes(this.me) ? gettext('You resigned from this game.') : fmt(gettext('Waiting for %(player)s.'), { player: s.current });
    }
    return this.view.turnHint();
  }

  // Public: the view redraws the hint while the player points at its board.
  renderHint() {
    const text = this.view.pointedHint() ?? this.#defaultHint();
    if (this.dom.hint.textContent !== text) this.dom.hint.textContent = text;
  }

  #renderMoment() {
    const moment = this.view.moment();
    if (!this.#changedSig('moment', moment?.key ?? null) && !moment?.fresh) return;
    const el = this.dom.moment;
    el.className = 'g-moment';
    if (!moment) return fill(el);
    el.classList.add(moment.kind);
    // The entrance is for the moment itself, not for a reload that finds it in the state.
    if (moment.fresh) el.classList.add('fresh');
    fill(el, moment.parts);
  }

  #renderBoard() {
    const changed = (name, value) => this.#changedSig(name, value);
    this.view.board(this.dom.board, changed);
    this.view.beside(this.dom.beside, changed);
  }

  #renderPlayers() {
    const s = this.state;
    const c = this.client;
    // Played alone, nobody was beaten: the player is no "winner" on the table (the end panel says the total).
    const won = s?.players.length === 1 ? [] : this.winners();
    const rows = (s ? s.players : c.seats.map((seat) => seat.user)).map((name) => ({
      name, score: this.scoreOf(name), online: c.connected.has(name), computer: this.computerOf(name),
      current: Boolean(s && !s.over && s.current === name),
      resigned: Boolean(s?.resigned.includes(name)), winner: won.includes(name),
      rating: c.ratings?.players[name] ?? null,
    }));
    const goal = s ? this.view.goal(s) : 0;
    if (this.#changedSig('players', [rows, this.me, goal])) fill(this.dom.players, playerItems({ rows, me: this.me, goal }));
  }

  #renderActions() {
    const c = this.client;
    const s = this.state;
    if (!this.dom?.actions || !c.game) return;
    const active = Boolean(s && !s.over && c.status === 'playing' && this.seated && !s.resigned.includes(this.me));
    let skip = null;
    // The server has the last word on absence; this only decides when offering the button makes sense.
    if (active && s.current && s.current !== this.me && !c.connected.has(s.current) && !this.computerOf(s.current)) {
      const since = Math.max(c.turnStartedAt, c.offlineSince.get(s.current) ?? 0);
      const wait = Math.ceil(c.game.absence_limit - (Date.now() - since) / 1000);
      skip = { player: s.current, wait: Math.max(0, wait) };
    }
    if (!this.#changedSig('actions', [active, skip, this.confirmResign])) return;
    if (!active) return fill(this.dom.actions);
    fill(this.dom.actions, actionItems({
      skip,
      confirming: this.confirmResign,
      onSkip: () => this.send({ type: 'skip' }),
      onAskResign: () => {
        this.confirmResign = true;
        this.#renderActions();
        document.getElementById('resign-confirm')?.focus();
      },
      onResign: () => {
        this.confirmResign = false;
        this.send({ type: 'resign' });
      },
      onCancelResign: () => {
        this.confirmResign = false;
        this.#renderActions();
        document.getElementById('resign-button')?.focus();
      },
    }));
  }

  #renderLog() {
    const entries = this.client.logEntries();
    const seqs = entries.map((e) => e.seq);
    const list = this.dom.log;
    const prefix = this.logShown.length <= seqs.length && this.logShown.every((seq, i) => seqs[i] === seq);
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    // Appending keeps the list's scroll position and focus while it grows.
    if (prefix) list.append(...entries.slice(this.logShown.length).map(logItem));
    else fill(list, entries.map(logItem));
    const placeholder = list.querySelector('li:not([data-seq])');
    if (entries.length) placeholder?.remove();
    else if (!placeholder) list.append(h('li', { class: 'muted' }, gettext('Nothing has happened yet.')));
    this.logShown = seqs;
    if (nearBottom || !prefix) list.scrollTop = list.scrollHeight;
  }
}
