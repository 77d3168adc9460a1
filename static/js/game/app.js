// The game page: draws whatever the server's state says, the moment it arrives. Local UI state is only
// what the server does not know yet: dice held or selected before the next roll, the card being viewed,
// the box being pointed at.

import { fill, h } from './dom.js';
import { GameClient } from './client.js';
import { diceRow } from './dice.js';
import {
  LAYOUTS, MAX_ROLLS, bonusMoment, cardCaption, cardControls, cardTable, cardTabs, landingHint, navRows, previewIndex,
} from './cards.js';
import { farkleBoard, farkleControls, farkleMoment } from './farkle.js';
import { actionItems, endPanel, logItem, nextGameNotice, playerItems } from './panels.js';
import { bindKeys } from './keyboard.js';

const OVER = new Set(['finished', 'abandoned']);

export class GameApp {
  constructor(root) {
    this.root = root;
    this.kind = root.dataset.kind;
    this.isCard = this.kind in LAYOUTS;
    this.waiting = root.dataset.status === 'open';
    this.againUrl = root.dataset.againUrl;
    this.replayUrl = root.dataset.replayUrl;
    this.gameUrl = root.dataset.gameUrl ?? '/games/0/';
    this.holds = new Set();
    this.sel = new Set();
    this.turnKey = null;
    this.lastCurrent = undefined;
    this.viewed = null;
    this.nav = { row: 0, col: 1 };
    this.pointing = null;
    this.rolled = new Set();
    this.freshFarkle = false;
    this.error = '';
    this.nextGame = null;
    this.confirmResign = false;
    this.fatal = null;
    this.sigs = {};
    this.logShown = [];
    this.client = new GameClient(Number(root.dataset.gameId), {
      change: (why, message) => this.#changed(why, message),
      error: (message) => this.#serverError(message),
      lobby: (message) => this.#lobby(message),
      nextGame: (message) => { this.nextGame = message; this.render(); },
      connection: (status, why, alert) => {
        this.fatal = why ?? null;
        this.#renderConnection(status);
        if (alert) this.#setError(alert);
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

  scoreOf(player) {
    const s = this.state;
    if (!s) return 0;
    return this.isCard ? s.cards[player]?.total ?? 0 : s.banked[player] ?? 0;
  }

  winners() {
    const s = this.state;
    if (!s || !s.over) return [];
    const alive = s.players.filter((p) => !s.resigned.includes(p));
    if (!this.isCard) return alive.filter((p) => s.banked[p] >= s.goal);
    if (!alive.length) return [];
    const top = Math.max(...alive.map((p) => this.scoreOf(p)));
    return alive.filter((p) => this.scoreOf(p) === top);
  }

  // --- actions ------------------------------------------------------------------------------------

  send(action) {
    this.#setError('');
    this.client.act(action);
  }

  roll() {
    const s = this.state;
    if (!s) return;
    if (this.isCard) {
      this.send({ type: 'roll', hold: s.roll === 0 ? [] : [...this.holds].sort((a, b) => a - b) });
    } else {
      this.send({ type: 'roll', keep: s.rolls === 0 ? [] : [...this.sel].sort((a, b) => a - b) });
    }
  }

  bank() {
    if (!this.isCard && this.state) this.send({ type: 'bank', keep: [...this.sel].sort((a, b) => a - b) });
  }

  toggleDie(i) {
    const s = this.state;
    if (!this.myTurn || !s || i >= s.dice.length) return;
    if (this.isCard) {
      if (s.roll === 0 || s.roll >= MAX_ROLLS) return;
      this.holds.has(i) ? this.holds.delete(i) : this.holds.add(i);
    } else {
      if (!(this.client.preview.scoring ?? []).includes(i)) return;
      this.sel.has(i) ? this.sel.delete(i) : this.sel.add(i);
    }
    this.render();
  }

  choose(name, column) {
    // Only the player to move, on their own card; the server explains any box it refuses.
    if (!this.myTurn || this.viewed !== this.me || name == null) return;
    const action = { type: 'score', box: name };
    if (LAYOUTS[this.kind].columns > 1) action.column = column;
    this.send(action);
  }

  // Arrow keys: the first press brings focus into the card, later ones move it.
  moveInCard(key) {
    if (!this.isCard) return;
    const active = document.activeElement;
    const inGrid = active?.dataset?.row !== undefined && this.root.contains(active);
    if (inGrid) {
      const rows = navRows(this.kind).length;
      const cols = LAYOUTS[this.kind].columns;
      let { row, col } = this.nav;
      if (key === 'ArrowUp') row = Math.max(0, row - 1);
      if (key === 'ArrowDown') row = Math.min(rows - 1, row + 1);
      if (key === 'ArrowLeft') col = Math.max(1, col - 1);
      if (key === 'ArrowRight') col = Math.min(cols, col + 1);
      this.nav = { row, col };
    }
    this.#cell(this.nav.row, this.nav.col)?.focus();
  }

  chooseFocused() {
    const cell = document.activeElement;
    if (!cell?.dataset?.box || !this.root.contains(cell)) return false;
    const column = Number(cell.dataset.col) || null;
    this.choose(cell.dataset.box, column);
    return true;
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
    if (why === 'event') this.#effects(message);
    this.#followTurn();
    this.render();
  }

  #effects(event) {
    const action = event.action ?? {};
    const dice = event.state?.dice ?? [];
    if (action.type === 'roll') {
      const held = new Set(this.isCard ? action.hold ?? [] : []);
      this.rolled = new Set(dice.map((_, i) => i).filter((i) => !held.has(i)));
    }
    if (event.result?.farkle) this.freshFarkle = true;
    if (event.player === this.me && ['roll', 'score', 'bank'].includes(action.type)) this.#setError('');
  }

  #followTurn() {
    const s = this.state;
    if (!s) return;
    const key = `${s.current}|${s.turn}|${this.isCard ? s.roll : s.rolls}`;
    if (key !== this.turnKey) {
      this.turnKey = key;
      this.holds = new Set(this.isCard ? s.held ?? [] : []);
      this.sel = new Set();
      this.pointing = null;
    }
    if (s.current !== this.lastCurrent) {
      this.lastCurrent = s.current;
      this.confirmResign = false;
      if (s.current) this.viewed = s.current;
    }
    if (!this.viewed || !s.players.includes(this.viewed)) {
      this.viewed = s.current ?? (s.players.includes(this.me) ? this.me : s.players[0]);
    }
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

  #waitingSeats(seats) {
    const list = document.getElementById('seat-list');
    if (!list) return;
    const host = this.client.game?.creator;
    fill(list, seats.map((s) => h('li', {}, s.user, s.user === host ? [' ', h('span', { class: 'tag' }, 'host')] : null)));
    const heading = document.getElementById('waiting-heading');
    const max = this.client.game?.max_seats;
    if (heading && max) heading.textContent = `Waiting for players (${seats.length}/${max})`;
  }

  // --- drawing ------------------------------------------------------------------------------------

  #skeleton() {
    const el = (id, tag = 'div', attrs = {}) => h(tag, { id, ...attrs });
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
      last: el('g-last', 'p', { class: 'g-last' }),
      dice: el('g-dice', 'div', { class: 'g-dice', role: 'group', 'aria-label': 'Dice' }),
      controls: el('g-controls', 'div', { class: 'g-controls' }),
      hint: el('g-hint', 'p', { class: 'g-hint' }),
      error: el('g-error', 'p', { class: 'g-error', role: 'alert' }),
      moment: el('g-moment', 'div', { class: 'g-moment' }),
      board: el('g-board', 'div', { class: 'g-board' }),
      players: el('g-players', 'ul', { class: 'g-players' }),
      actions: el('g-actions', 'div', { class: 'g-actions' }),
      log: el('g-log', 'ol', { class: 'g-log', role: 'log', 'aria-label': 'Game log' }),
    });
    const d = this.dom;
    const keys = this.isCard
      ? 'Space rolls · 1–5 hold a die · arrow keys move over the card · Enter scores the box'
      : 'Space rolls · 1–6 select a die · B banks';
    fill(this.root,
      d.conn, d.next,
      h('div', { class: 'g-layout' },
        h('section', { class: 'g-play', 'aria-label': 'Table' },
          d.end, d.turn, d.last,
          h('div', { class: 'g-tray' }, d.dice, d.controls),
          d.hint, d.error, d.moment, d.board),
        h('aside', { class: 'g-side' },
          h('section', { class: 'g-panel', 'aria-labelledby': 'g-players-title' },
            h('h2', { id: 'g-players-title' }, 'Players'), d.players, d.actions),
          h('section', { class: 'g-panel', 'aria-labelledby': 'g-log-title' },
            h('h2', { id: 'g-log-title' }, 'Game log'), d.log),
          h('p', { class: 'g-keys muted' }, h('strong', {}, 'Keys: '), keys))));
  }

  #renderConnection(status) {
    const text = { connecting: 'Connecting…', reconnecting: 'Reconnecting…', closed: this.fatal ?? 'Disconnected.' }[status] ?? '';
    this.dom.conn.textContent = text;
    this.dom.conn.className = `g-conn ${status}`;
    this.root.dataset.conn = status;
  }

  #setError(text) {
    this.error = text;
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
      this.#renderHint();
      this.#renderMoment();
      this.#renderBoard();
    } else {
      fill(this.dom.turn, c.status === 'abandoned' ? 'This game was cancelled before it started.' : 'Waiting for the game to start…');
    }
    this.#renderPlayers();
    this.#renderActions();
    this.#renderLog();
    this.rolled = new Set();
    this.freshFarkle = false;
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
    if (!this.#changedSig('end', [over, s?.over && s.last_event, this.seated])) return;
    this.dom.end.hidden = !over;
    if (!over) return fill(this.dom.end);
    fill(this.dom.end, endPanel({
      state: s, winners: this.winners(), scoreOf: (p) => this.scoreOf(p), me: this.me,
      laps: !this.isCard && s ? s.laps : 0, seated: this.seated, againUrl: this.againUrl, replayUrl: this.replayUrl,
      token: document.querySelector('input[name=csrfmiddlewaretoken]')?.value ?? '',
    }));
  }

  #renderTurn() {
    const s = this.state;
    let text = 'Waiting…';
    if (s.over) text = 'Game over';
    else if (this.myTurn) text = 'Your turn';
    else if (s.current) text = `${s.current}'s turn`;
    const away = s.current && !s.over && !this.client.connected.has(s.current) ? ' (not connected)' : '';
    const watching = this.seated ? '' : ' · you are watching';
    if (this.#changedSig('turn', [text, away, watching])) {
      fill(this.dom.turn, h('span', { class: this.myTurn ? 'mine' : '' }, text),
        away ? h('span', { class: 'muted' }, away) : null,
        watching ? h('span', { class: 'muted small' }, watching) : null);
    }
    const last = s.last_event?.text ?? '';
    if (this.dom.last.textContent !== last) this.dom.last.textContent = last;
  }

  #renderDice() {
    const s = this.state;
    let props;
    if (this.isCard) {
      const interactive = this.myTurn && s.roll > 0 && s.roll < MAX_ROLLS;
      props = { dice: s.dice, count: 5, marked: this.myTurn ? this.holds : new Set(s.held ?? []), markWord: 'held', interactive };
    } else {
      props = {
        dice: s.dice, count: s.dice.length || s.dice_left || s.dice_count, marked: this.sel, markWord: 'selected',
        tagWord: 'keep', interactive: this.myTurn && s.rolls > 0, usable: new Set(this.client.preview.scoring ?? []),
      };
    }
    const sig = [props.dice, props.count, [...props.marked].sort(), props.interactive, props.usable ? [...props.usable] : null];
    // Fresh dice always redraw, so that the tumble plays even when a roll repeats the same faces.
    if (!this.#changedSig('dice', sig) && !this.rolled.size) return;
    fill(this.dom.dice, diceRow({ ...props, rolled: this.rolled, onToggle: (i) => this.toggleDie(i) }));
  }

  #renderControls() {
    const common = { state: this.state, mine: this.myTurn, onRoll: () => this.roll() };
    const parts = this.isCard
      ? cardControls({ ...common, holds: this.holds })
      : farkleControls({ ...common, sel: this.sel, onBank: () => this.bank() });
    if (this.#changedSig('controls', parts.map((p) => p?.outerHTML))) fill(this.dom.controls, parts);
  }

  #defaultHint() {
    const s = this.state;
    if (s.over) return '';
    if (!this.myTurn) {
      if (!this.seated) return '';
      return s.resigned.includes(this.me) ? 'You resigned from this game.' : `Waiting for ${s.current}.`;
    }
    if (this.isCard) {
      if (s.roll === 0) return 'Roll the dice to start your turn.';
      if (s.roll < MAX_ROLLS) return 'Click dice to hold them and roll again, or choose a box on your card.';
      return 'Choose a box on your card for these dice.';
    }
    if (s.rolls === 0) return `Roll the dice to start your turn. Goal: ${s.goal}.`;
    if (s.confirm_roll) return 'Hot dice confirmed: set aside scoring dice, then roll or bank.';
    return 'Select scoring dice, then roll the rest or bank.';
  }

  #renderHint() {
    const s = this.state;
    const p = this.pointing;
    let text = this.#defaultHint();
    if (this.isCard && p?.entry && s.cards[this.viewed]) text = landingHint(this.kind, s.cards[this.viewed], p.entry, p.column);
    if (this.dom.hint.textContent !== text) this.dom.hint.textContent = text;
  }

  #renderMoment() {
    const moment = this.isCard ? bonusMoment(this.kind, this.state) : farkleMoment(this.state, this.me);
    if (!this.#changedSig('moment', moment?.key ?? null) && !this.freshFarkle) return;
    const el = this.dom.moment;
    el.className = 'g-moment';
    if (!moment) return fill(el);
    el.classList.add(moment.kind);
    // The shake is for the moment itself, not for a reload that finds the Farkle in the state.
    if (this.freshFarkle && moment.kind === 'farkle') el.classList.add('fresh');
    fill(el, moment.parts);
  }

  #renderBoard() {
    const s = this.state;
    if (!this.isCard) {
      if (this.#changedSig('board', [s.set_aside, s.turn_points, s.laps, s.goal, s.ending, s.current, s.over])) {
        fill(this.dom.board, farkleBoard({ state: s, me: this.me }));
      }
      return;
    }
    const owner = this.viewed;
    const card = s.cards[owner];
    if (!card) return;
    const live = owner === s.current && s.roll > 0 && !s.over;
    const choosable = live && this.myTurn;
    const preview = live ? this.client.preview : {};
    if (!this.#changedSig('card', [owner, card, preview, live, choosable, s.players.map((p) => s.cards[p].total)])) return;
    const table = cardTable({
      kind: this.kind, owner, card, previews: previewIndex(preview), live, choosable, nav: this.nav,
      handlers: {
        choose: (name, column) => this.choose(name, column),
        point: (name, column, entry) => this.#point(name ? { name, column, entry } : null),
        focus: (row, col, name, column, entry) => {
          this.nav = { row, col };
          this.#rove();
          this.#point({ name, column, entry });
        },
      },
    });
    fill(this.dom.board,
      cardTabs({ state: s, viewed: owner, me: this.me, onView: (p) => { this.viewed = p; this.pointing = null; this.render(); } }),
      cardCaption({ owner, me: this.me, card, live, choosable }),
      h('div', { class: 'card-scroll' }, table));
    this.#highlight();
  }

  #cell(row, col) {
    return this.dom.board.querySelector(`td[data-row="${row}"][data-c="${col}"]`);
  }

  #rove() {
    for (const td of this.dom.board.querySelectorAll('td[tabindex="0"]')) td.tabIndex = -1;
    const cell = this.#cell(this.nav.row, this.nav.col);
    if (cell) cell.tabIndex = 0;
  }

  #point(pointing) {
    this.pointing = pointing?.entry ? pointing : null;
    this.#highlight();
    this.#renderHint();
  }

  #highlight() {
    for (const el of this.dom.board.querySelectorAll('.lands-here, .pointed')) el.classList.remove('lands-here', 'pointed');
    const p = this.pointing;
    if (!p) return;
    const col = p.column ?? 0;
    this.dom.board.querySelector(`td[data-box="${p.name}"][data-col="${col}"]`)?.classList.add('pointed');
    const lands = p.entry.lands ?? col;
    this.dom.board.querySelector(`td[data-box="${p.name}"][data-col="${lands}"]`)?.classList.add('lands-here');
  }

  #renderPlayers() {
    const s = this.state;
    const c = this.client;
    const won = this.winners();
    const rows = (s ? s.players : c.seats.map((seat) => seat.user)).map((name) => ({
      name, score: this.scoreOf(name), online: c.connected.has(name), current: Boolean(s && !s.over && s.current === name),
      resigned: Boolean(s?.resigned.includes(name)), winner: won.includes(name),
    }));
    const goal = !this.isCard && s ? s.goal : 0;
    if (this.#changedSig('players', [rows, this.me, goal])) fill(this.dom.players, playerItems({ rows, me: this.me, goal }));
  }

  #renderActions() {
    const c = this.client;
    const s = this.state;
    if (!this.dom?.actions || !c.game) return;
    const active = Boolean(s && !s.over && c.status === 'playing' && this.seated && !s.resigned.includes(this.me));
    let skip = null;
    // The server has the last word on absence; this only decides when offering the button makes sense.
    if (active && s.current && s.current !== this.me && !c.connected.has(s.current)) {
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
    // Appending keeps the role=log region announcing only the new lines.
    if (prefix) list.append(...entries.slice(this.logShown.length).map(logItem));
    else fill(list, entries.map(logItem));
    const placeholder = list.querySelector('li:not([data-seq])');
    if (entries.length) placeholder?.remove();
    else if (!placeholder) list.append(h('li', { class: 'muted' }, 'Nothing has happened yet.'));
    this.logShown = seqs;
    if (nearBottom || !prefix) list.scrollTop = list.scrollHeight;
  }
}
