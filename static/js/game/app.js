// The game page: draws whatever the server's state says, the moment it arrives. Local UI state is only
// what the server does not know yet: dice held or selected before the next roll, the card being viewed,
// the box being pointed at.

import { fill, h, listText, plural } from './dom.js';
import { GameClient } from './client.js';
import { diceRow, dieFace, dieText } from './dice.js';
import { LAYOUTS, boxLabel, cardTable, landingHint, navRows, previewIndex } from './cards.js';
import { farkleScore } from './farkle-score.js';
import { bindKeys } from './keyboard.js';

const MAX_ROLLS = 3;
const BANK_MINIMUM = 300;
const OVER = new Set(['finished', 'abandoned']);

export class GameApp {
  constructor(root) {
    this.root = root;
    this.kind = root.dataset.kind;
    this.isCard = this.kind in LAYOUTS;
    this.waiting = root.dataset.status === 'open';
    this.againUrl = root.dataset.againUrl;
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
      connection: (status, why) => { this.fatal = why ?? null; this.#renderConnection(status); },
    });
  }

  start() {
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

  selectionValue() {
    const s = this.state;
    if (!s || this.isCard) return 0;
    return farkleScore([...this.sel].map((i) => s.dice[i]));
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
  }

  #renderNext() {
    const n = this.nextGame;
    if (!this.#changedSig('next', n)) return;
    if (!n) return fill(this.dom.next);
    fill(this.dom.next, h('p', { role: 'status' },
      `${n.by === this.me ? 'You' : n.by} started the next game with the same players. `,
      h('a', { class: 'button small', href: this.gameUrl.replace(/0\/$/, `${n.game}/`), id: 'next-game-link' }, `Go to game #${n.game}`)));
  }

  #renderEnd() {
    const c = this.client;
    const s = this.state;
    const over = this.over;
    if (!this.#changedSig('end', [over, s?.over && s.last_event, this.seated])) return;
    this.dom.end.hidden = !over;
    if (!over) return fill(this.dom.end);
    if (!s) return fill(this.dom.end, h('h2', { id: 'g-end-title' }, 'Game cancelled'));
    const won = this.winners();
    const standings = [...s.players].sort((a, b) => this.scoreOf(b) - this.scoreOf(a));
    const laps = this.isCard ? '' : ` after ${plural(s.laps, 'lap')}`;
    let verdict;
    if (!won.length) verdict = 'The game is over with no winner.';
    else if (won.length === 1) verdict = `${won[0] === this.me ? 'You win' : `${won[0]} wins`} with ${this.scoreOf(won[0])} points${laps}!`;
    else verdict = `${listText(won)} share the win with ${this.scoreOf(won[0])} points${laps}.`;
    const token = document.querySelector('input[name=csrfmiddlewaretoken]')?.value ?? '';
    fill(this.dom.end,
      h('h2', { id: 'g-end-title' }, 'Game over'),
      h('p', { class: 'verdict' }, verdict),
      h('ol', { class: 'standings' }, standings.map((p) => h('li', { class: won.includes(p) ? 'winner' : '' },
        h('span', { class: 'name' }, p), won.includes(p) ? h('span', { class: 'tag win' }, 'winner') : null,
        s.resigned.includes(p) ? h('span', { class: 'tag' }, 'resigned') : null,
        h('span', { class: 'score' }, String(this.scoreOf(p)))))),
      this.seated && c.game.status !== 'open'
        ? h('form', { method: 'post', action: this.againUrl, class: 'again' },
          h('input', { type: 'hidden', name: 'csrfmiddlewaretoken', value: token }),
          h('button', { class: 'button', type: 'submit', id: 'play-again' }, 'Play again'),
          h('span', { class: 'muted' }, ' same players, same seats'))
        : null);
  }

  #renderTurn() {
    const s = this.state;
    let text;
    if (s.over) text = 'Game over';
    else if (this.myTurn) text = 'Your turn';
    else if (s.current) text = `${s.current}'s turn`;
    else text = 'Waiting…';
    const away = s.current && !s.over && !this.client.connected.has(s.current) ? ' (not connected)' : '';
    const watching = this.seated ? '' : ' · you are watching';
    if (this.#changedSig('turn', [text, away, watching])) {
      fill(this.dom.turn, h('span', { class: this.myTurn ? 'mine' : '' }, text), away ? h('span', { class: 'muted' }, away) : null,
        watching ? h('span', { class: 'muted small' }, watching) : null);
    }
    const last = s.last_event?.text ?? '';
    if (this.dom.last.textContent !== last) this.dom.last.textContent = last;
  }

  #renderDice() {
    const s = this.state;
    const preview = this.client.preview;
    let props;
    if (this.isCard) {
      const interactive = this.myTurn && s.roll > 0 && s.roll < MAX_ROLLS;
      props = { dice: s.dice, count: 5, marked: this.myTurn ? this.holds : new Set(s.held ?? []), markWord: 'held', interactive };
    } else {
      const count = s.dice.length || s.dice_left || s.dice_count;
      props = {
        dice: s.dice, count, marked: this.sel, markWord: 'selected', interactive: this.myTurn && s.rolls > 0,
        usable: new Set(preview.scoring ?? []),
      };
    }
    const sig = [props.dice, props.count, [...props.marked].sort(), props.interactive, props.usable ? [...props.usable] : null];
    if (!this.#changedSig('dice', sig) && !this.rolled.size) return;
    fill(this.dom.dice, diceRow({ ...props, rolled: this.rolled, onToggle: (i) => this.toggleDie(i) }));
  }

  #renderControls() {
    const s = this.state;
    const mine = this.myTurn;
    let parts;
    if (this.isCard) {
      const made = s.roll;
      const canRoll = mine && made < MAX_ROLLS && this.holds.size < 5;
      const label = made >= MAX_ROLLS ? 'No rolls left'
        : this.holds.size >= 5 && made > 0 ? 'Release a die to roll'
          : `Roll ${made + 1} of ${MAX_ROLLS}`;
      parts = [
        h('button', { type: 'button', class: 'button roll', id: 'roll-button', disabled: !canRoll, dataset: { focusKey: 'roll' }, onclick: () => this.roll() }, label),
        h('p', { class: 'roll-count', id: 'roll-count' }, made ? `${made} of ${MAX_ROLLS} rolls used` : 'Not rolled yet'),
      ];
    } else {
      const value = this.selectionValue();
      const first = s.rolls === 0;
      const all = this.sel.size > 0 && this.sel.size === s.dice.length;
      const after = s.turn_points + value;
      const left = s.dice.length - this.sel.size;
      const canRoll = mine && (first || value > 0);
      const canBank = mine && !first && value > 0 && !all && after >= BANK_MINIMUM;
      let rollLabel = 'Roll';
      if (first) rollLabel = `Roll ${plural(s.dice_left || s.dice_count, 'die', 'dice')}`;
      else if (value > 0 && all) rollLabel = `Hot dice! Roll all ${s.dice_count}`;
      else if (value > 0) rollLabel = `Set aside, roll ${plural(left, 'die', 'dice')}`;
      let selection = '';
      if (!first && s.dice.length) {
        if (!this.sel.size) selection = 'Select scoring dice';
        else selection = value > 0 ? `Selected: ${value}` : 'Those dice do not score together';
      }
      let why = '';
      if (mine && !first && value > 0) {
        if (all) why = 'All your dice score: roll them all again to confirm before you bank.';
        else if (after < BANK_MINIMUM) why = `Banking needs ${BANK_MINIMUM} points in the turn; you would have ${after}.`;
      }
      parts = [
        h('div', { class: 'farkle-buttons' },
          h('button', { type: 'button', class: 'button roll', id: 'roll-button', disabled: !canRoll, dataset: { focusKey: 'roll' }, onclick: () => this.roll() }, rollLabel),
          h('button', { type: 'button', class: 'button bank', id: 'bank-button', disabled: !canBank, dataset: { focusKey: 'bank' }, onclick: () => this.bank() },
            `Bank ${after}`)),
        h('p', { class: 'farkle-figures' },
          h('span', { class: 'selection', id: 'selection-value', 'aria-live': 'polite' }, selection),
          h('span', { class: 'turn-points', id: 'turn-points' }, `Turn: ${s.turn_points}${value > 0 ? ` + ${value} = ${after}` : ''}`)),
        why ? h('p', { class: 'why muted', id: 'bank-why' }, why) : null,
      ];
    }
    if (this.#changedSig('controls', [parts.map((p) => p?.outerHTML)])) fill(this.dom.controls, parts);
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
    let text = this.#defaultHint();
    const p = this.pointing;
    if (this.isCard && p?.entry && s.cards[this.viewed]) text = landingHint(this.kind, s.cards[this.viewed], p.entry, p.column);
    if (this.dom.hint.textContent !== text) this.dom.hint.textContent = text;
  }

  #renderMoment() {
    const s = this.state;
    const e = s.last_event;
    let content = null;
    if (!this.isCard && e?.farkle) {
      content = ['farkle', e.player, e.dice, e.lost];
    } else if (!this.isCard && e?.hot_dice) {
      content = ['hot', e.player, s.dice_count];
    } else if (this.isCard && e?.type === 'score' && e.bonus && this.kind === 'triple-quintzee') {
      content = ['bonus', e.player, e.bonus, e.column];
    }
    if (!this.#changedSig('moment', content) && !this.freshFarkle) return;
    const m = this.dom.moment;
    m.className = 'g-moment';
    if (!content) return fill(m);
    if (content[0] === 'farkle') {
      m.classList.add('farkle');
      if (this.freshFarkle) m.classList.add('fresh');
      const who = e.player === this.me ? 'You' : e.player;
      fill(m, h('p', { class: 'big' }, 'Farkle!'),
        h('div', { class: 'moment-dice' }, e.dice.map((d) => dieFace(d, { small: true, label: dieText(d) }))),
        h('p', {}, `${who} rolled no scoring dice${e.lost ? `: ${e.lost} points lost` : ''}.`));
    } else if (content[0] === 'hot') {
      m.classList.add('hot');
      fill(m, h('p', { class: 'big' }, 'Hot dice!'), h('p', {}, `Every die scored: all ${s.dice_count} were rolled again.`));
    } else {
      m.classList.add('bonus');
      fill(m, h('p', { class: 'big' }, 'Quintzee bonus!'), h('p', {}, `${e.player}: +${e.bonus} in column ${e.column}.`));
    }
  }

  #renderBoard() {
    if (this.isCard) this.#renderCard();
    else this.#renderFarkleBoard();
  }

  #renderCard() {
    const s = this.state;
    const viewed = this.viewed;
    const card = s.cards[viewed];
    if (!card) return;
    const live = viewed === s.current && s.roll > 0 && !s.over;
    const choosable = live && this.myTurn;
    const preview = live ? this.client.preview : {};
    const sig = [viewed, card, preview, live, choosable, s.players.map((p) => s.cards[p].total)];
    if (!this.#changedSig('card', sig)) return;
    const tabs = s.players.length > 1
      ? h('div', { class: 'card-tabs', role: 'group', 'aria-label': 'Show the card of' },
        s.players.map((p) => h('button', {
          type: 'button', class: `card-tab${p === s.current ? ' current' : ''}`, 'aria-pressed': String(p === viewed),
          dataset: { focusKey: `tab:${p}`, player: p },
          onclick: () => { this.viewed = p; this.pointing = null; this.render(); },
        }, p === this.me ? `${p} (you)` : p, h('span', { class: 'tab-score' }, String(s.cards[p].total)))))
      : null;
    const table = cardTable({
      kind: this.kind, owner: viewed, card, previews: previewIndex(preview), live, choosable, nav: this.nav,
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
    const caption = h('p', { class: 'card-caption' },
      h('strong', {}, viewed === this.me ? 'Your card' : `${viewed}'s card`),
      ` · ${card.total} points`,
      live ? h('span', { class: 'muted' }, choosable ? ' · shaded boxes show what these dice would score' : ' · showing what the dice would score') : null);
    fill(this.dom.board, tabs, caption, h('div', { class: 'card-scroll' }, table));
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

  #renderFarkleBoard() {
    const s = this.state;
    if (!this.#changedSig('board', [s.set_aside, s.turn_points, s.laps, s.goal, s.ending, s.current])) return;
    const rows = s.set_aside.map((faces, i) => h('li', {},
      h('span', { class: 'aside-label' }, `Set ${i + 1}`),
      h('span', { class: 'moment-dice' }, faces.map((f) => dieFace(f, { small: true, label: String(f) }))),
      h('span', { class: 'aside-value' }, String(farkleScore(faces)))));
    fill(this.dom.board,
      h('div', { class: 'farkle-info' },
        h('p', {}, h('span', { class: 'stat' }, h('span', { class: 'muted' }, 'Goal '), String(s.goal)),
          h('span', { class: 'stat', id: 'lap-counter' }, h('span', { class: 'muted' }, 'Lap '), String(s.laps)),
          h('span', { class: 'stat' }, h('span', { class: 'muted' }, 'Dice '), String(s.dice_count))),
        s.ending && !s.over ? h('p', { class: 'final-round' }, 'Final round: the goal has been reached.') : null),
      h('section', { class: 'set-aside', 'aria-labelledby': 'aside-title' },
        h('h3', { id: 'aside-title' }, s.current ? `Set aside this turn by ${s.current === this.me ? 'you' : s.current}` : 'Set aside'),
        rows.length ? h('ol', { class: 'aside-list' }, rows) : h('p', { class: 'muted' }, 'Nothing yet.'),
        h('p', { class: 'turn-total' }, `Turn points: ${s.turn_points}`)));
  }

  #renderPlayers() {
    const s = this.state;
    const c = this.client;
    const players = s ? s.players : c.seats.map((seat) => seat.user);
    const won = this.winners();
    const data = players.map((p) => [p, this.scoreOf(p), c.connected.has(p), s?.current === p && !s.over, s?.resigned.includes(p), won.includes(p)]);
    if (!this.#changedSig('players', [data, this.me])) return;
    fill(this.dom.players, data.map(([p, score, online, current, resigned, winner]) => h('li', {
      class: ['player', current ? 'current' : '', resigned ? 'resigned' : '', p === this.me ? 'me' : ''].filter(Boolean).join(' '),
      'aria-current': current ? 'true' : null, dataset: { player: p },
    },
    h('span', { class: `dot ${online ? 'online' : 'offline'}`, title: online ? 'connected' : 'not connected' },
      h('span', { class: 'sr-only' }, online ? 'connected' : 'not connected')),
    h('span', { class: 'name' }, p, p === this.me ? h('span', { class: 'muted' }, ' (you)') : null),
    current ? h('span', { class: 'tag turn' }, 'to play') : null,
    resigned ? h('span', { class: 'tag' }, 'resigned') : null,
    winner ? h('span', { class: 'tag win' }, 'winner') : null,
    h('span', { class: 'score' }, String(score)),
    !this.isCard && s ? h('span', { class: 'progress', 'aria-hidden': 'true' },
      h('span', { style: `width:${Math.min(100, (100 * score) / s.goal)}%` })) : null)));
  }

  #renderActions() {
    const c = this.client;
    const s = this.state;
    if (!this.dom?.actions || !c.game) return;
    let skip = null;
    const active = s && !s.over && c.status === 'playing' && this.seated && !s.resigned.includes(this.me);
    if (active && s.current && s.current !== this.me && !c.connected.has(s.current)) {
      const since = Math.max(c.turnStartedAt, c.offlineSince.get(s.current) ?? 0);
      const wait = Math.ceil(c.game.absence_limit - (Date.now() - since) / 1000);
      skip = wait <= 0 ? ['button', s.current] : ['wait', s.current, wait];
    }
    if (!this.#changedSig('actions', [active, skip, this.confirmResign])) return;
    if (!active) return fill(this.dom.actions);
    const parts = [];
    if (skip?.[0] === 'button') {
      parts.push(h('button', { type: 'button', class: 'button secondary small', id: 'skip-button', dataset: { focusKey: 'skip' }, onclick: () => this.send({ type: 'skip' }) },
        `Skip ${skip[1]}'s turn`));
    } else if (skip) {
      parts.push(h('p', { class: 'muted small' }, `${skip[1]} is not connected. You can skip their turn in ${plural(skip[2], 'second')}.`));
    }
    if (this.confirmResign) {
      parts.push(h('div', { class: 'confirm', role: 'group', 'aria-label': 'Confirm resign' },
        h('p', {}, 'Resign from this game? You cannot take it back.'),
        h('button', { type: 'button', class: 'button danger small', id: 'resign-confirm', dataset: { focusKey: 'resign-yes' }, onclick: () => { this.confirmResign = false; this.send({ type: 'resign' }); } }, 'Yes, resign'),
        ' ',
        h('button', { type: 'button', class: 'button secondary small', dataset: { focusKey: 'resign-no' }, onclick: () => { this.confirmResign = false; this.#renderActions(); } }, 'Cancel')));
    } else {
      parts.push(h('button', { type: 'button', class: 'button secondary small', id: 'resign-button', dataset: { focusKey: 'resign' }, onclick: () => {
        this.confirmResign = true;
        this.#renderActions();
        document.getElementById('resign-confirm')?.focus();
      } }, 'Resign'));
    }
    fill(this.dom.actions, parts);
  }

  #renderLog() {
    const entries = this.client.logEntries();
    const seqs = entries.map((e) => e.seq);
    const list = this.dom.log;
    const prefix = this.logShown.length <= seqs.length && this.logShown.every((seq, i) => seqs[i] === seq);
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const item = (e) => h('li', { dataset: { seq: String(e.seq) } }, e.result?.text || `${e.player}: ${e.action?.type ?? '?'}`);
    if (prefix) {
      for (const e of entries.slice(this.logShown.length)) list.append(item(e));
    } else {
      fill(list, entries.map(item));
    }
    if (!entries.length && !list.children.length) list.append(h('li', { class: 'muted' }, 'Nothing has happened yet.'));
    else list.querySelector('li.muted:not([data-seq])')?.remove();
    this.logShown = seqs;
    if (nearBottom || !prefix) list.scrollTop = list.scrollHeight;
  }
}
