// The score cards of the three card games. The layouts mirror the engines' box lists
// (games/rules/*.py); every figure shown comes from the state the server sent.

import { h } from './dom.js';
import { COLOUR_LETTER } from './dice.js';

const box = (name, label) => ({ box: name, label });
const sum = (label, value, cls = '') => ({ label, value, cls });
const signed = (n) => (n > 0 ? `+${n}` : String(n));

const TQ_LABELS = {
  ones: 'Ones', twos: 'Twos', threes: 'Threes', fours: 'Fours', fives: 'Fives', sixes: 'Sixes',
  three_of_a_kind: '3 of a Kind', four_of_a_kind: '4 of a Kind', full_house: 'Full House',
  small_straight: 'Small Straight', large_straight: 'Large Straight', quintzee: 'Quintzee', chance: 'Chance',
};

const TY_LABELS = {
  ones: 'Ones', xtra_ones: 'Xtra Ones', twos: 'Twos', threes: 'Threes', fours: 'Fours', fives: 'Fives',
  sixes: 'Sixes', waste_upper: 'Waste-A-Turn', two_pairs: '2 Pairs', three_of_a_kind: '3 of a Kind',
  four_of_a_kind: '4 of a Kind', full_house: 'Full House', small_straight: 'Small Straight',
  large_straight: 'Large Straight', yahtzee: 'Yahtzee', yahtzee_bonus: 'Yahtzee Bonus',
  first_chance: '1st Chance', second_chance: '2nd Chance', waste_lower: 'Waste-A-Turn',
};

const PD_LABELS = {
  ones: 'Ones', twos: 'Twos', threes: 'Threes', fours: 'Fours', fives: 'Fives', sixes: 'Sixes',
  blues: 'Blues', reds: 'Reds', pinks: 'Pinks', greens: 'Greens', yellows: 'Yellows',
  four_of_a_kind: '4 of a Kind', four_of_a_color: '4 of a Color', full_house: 'Full House',
  painted_house: 'Painted House', straight: 'Straight', rainbow: 'Rainbow', flush: 'Flush',
  dicez: 'DiceZ', chance: 'Chance',
};
const PD_COLOUR = { blues: 'blue', reds: 'red', pinks: 'pink', greens: 'green', yellows: 'yellow' };

const RIGHT_MOST = new Set(['full_house', 'small_straight', 'large_straight', 'quintzee']);
const TY_UPGRADE = { 1: 2, 2: 3, 3: 5 };

function onTrack(col) {
  if (col.on_track == null) return { text: '—', cls: '' };
  return { text: signed(col.on_track), cls: col.on_track > 0 ? 'ahead' : col.on_track < 0 ? 'behind' : '' };
}

function countOf(n, need) {
  return { text: `${n}/${need}`, cls: n >= need ? 'ahead' : '' };
}

export const LAYOUTS = {
  'triple-quintzee': {
    columns: 3,
    labels: TQ_LABELS,
    header: (col) => ({ title: col.column, sub: `×${col.multiplier}` }),
    rows: [
      ...['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'].map((b) => box(b, TQ_LABELS[b])),
      sum('Top subtotal', (c) => c.top_subtotal, 'subtotal'),
      sum('Bonus (63+)', (c) => c.top_bonus, 'bonus'),
      sum('On track', onTrack, 'on-track'),
      ...['three_of_a_kind', 'four_of_a_kind', 'full_house', 'small_straight', 'large_straight', 'quintzee',
        'chance'].map((b) => box(b, TQ_LABELS[b])),
      sum('Bottom subtotal', (c) => c.bottom_subtotal, 'subtotal'),
      sum('Quintzee bonus', (c) => c.quintzee_bonus, 'bonus'),
      sum('Column total', (c) => c.total, 'total'),
    ],
  },
  'triple-yahtzee-99': {
    columns: 3,
    labels: TY_LABELS,
    header: (col) => {
      if (col.status === 'upgraded') return { title: col.column, sub: `×${col.multiplier}`, note: 'upgraded', cls: 'upgraded' };
      if (col.status === 'blocked') return { title: col.column, sub: `×${col.multiplier}`, note: 'blocked', cls: 'blocked' };
      return { title: col.column, sub: `×${col.multiplier}`, note: `→ ×${TY_UPGRADE[col.column]}`, cls: 'pending' };
    },
    rows: [
      ...['ones', 'xtra_ones', 'twos', 'threes', 'fours', 'fives', 'sixes', 'waste_upper'].map((b) => box(b, TY_LABELS[b])),
      sum('Upper subtotal', (c) => c.upper_subtotal, 'subtotal'),
      sum('Upper bonus', (c) => c.upper_bonus, 'bonus'),
      sum('3-of-a-kinds (upper)', (c) => countOf(c.upper_count, 4), 'count'),
      ...['two_pairs', 'three_of_a_kind', 'four_of_a_kind', 'full_house', 'small_straight', 'large_straight',
        'yahtzee', 'yahtzee_bonus', 'first_chance', 'second_chance', 'waste_lower'].map((b) => box(b, TY_LABELS[b])),
      sum('Lower total', (c) => c.lower_total, 'subtotal'),
      sum('3-of-a-kinds (lower)', (c) => countOf(c.lower_count, 4), 'count'),
      sum('Upgrade', (c) => ({ text: c.status, cls: c.status === 'upgraded' ? 'ahead' : c.status === 'blocked' ? 'behind' : '' }), 'status'),
      sum('Column total', (c) => c.total, 'total'),
    ],
  },
  'painted-dicez': {
    columns: 1,
    labels: PD_LABELS,
    header: () => ({ title: 'Score' }),
    rows: [
      ...['ones', 'twos', 'threes', 'fours', 'fives', 'sixes'].map((b) => box(b, PD_LABELS[b])),
      sum('Upper subtotal', (c) => c.upper_subtotal, 'subtotal'),
      sum('Upper bonus (63+)', (c) => c.upper_bonus, 'bonus'),
      ...['blues', 'reds', 'pinks', 'greens', 'yellows'].map((b) => box(b, PD_LABELS[b])),
      sum('Colour subtotal', (c) => c.color_subtotal, 'subtotal'),
      sum('Colour bonus (63+)', (c) => c.color_bonus, 'bonus'),
      ...['four_of_a_kind', 'four_of_a_color', 'full_house', 'painted_house', 'straight', 'rainbow', 'flush',
        'dicez', 'chance'].map((b) => box(b, PD_LABELS[b])),
      sum('Lower subtotal', (c) => c.lower_subtotal, 'subtotal'),
    ],
  },
};

const WASTE = new Set(['waste_upper', 'waste_lower']);

// Painted DiceZ has one unnamed column; the triple games three. Column numbers are 1-based, null for PD.
function columnsOf(card, layout) {
  return layout.columns === 1 ? [card] : card.columns;
}

export function navRows(kind) {
  return LAYOUTS[kind].rows.filter((r) => r.box).map((r) => r.box);
}

export function previewIndex(preview) {
  const map = new Map();
  for (const entry of preview?.boxes ?? []) map.set(`${entry.box}:${entry.column ?? 0}`, entry);
  return map;
}

export function boxLabel(kind, name) {
  return LAYOUTS[kind].labels[name] ?? name;
}

function cellText(kind, name, value) {
  if (value == null) return '';
  if (WASTE.has(name)) return '✗';
  return String(value);
}

function describeCell(kind, name, column, value, entry, layout) {
  const parts = [boxLabel(kind, name)];
  if (layout.columns > 1) parts.push(`column ${column}`);
  if (value != null) parts.push(WASTE.has(name) ? 'wasted' : `${value}`);
  else {
    parts.push('empty');
    if (entry) {
      const elsewhere = entry.lands != null && entry.lands !== column ? ` in column ${entry.lands}` : '';
      parts.push(WASTE.has(name) ? 'waste the turn here' : `would score ${entry.value}${elsewhere}`);
    }
  }
  return parts.join(', ');
}

/**
 * One player's card as an ARIA grid. `live` is set when this card belongs to the player to move and
 * the dice have been rolled: empty boxes then show what they would score (`previews`), and when
 * `choosable` they can be picked by click or Enter.
 */
export function cardTable({ kind, owner, card, previews, live, choosable, nav, handlers }) {
  const layout = LAYOUTS[kind];
  const cols = columnsOf(card, layout);
  const colNumbers = layout.columns === 1 ? [null] : cols.map((c) => c.column);
  const rows = navRows(kind);
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'label-col' }, 'Box'),
    cols.map((col) => {
      const info = layout.header(col);
      return h('th', { scope: 'col', class: `col-head ${info.cls ?? ''}` },
        h('span', { class: 'col-title' }, layout.columns > 1 ? h('span', { class: 'col-word' }, 'Column ') : null, String(info.title)),
        info.sub ? h('span', { class: 'col-mult' }, info.sub) : null,
        info.note ? h('span', { class: 'col-note' }, info.note) : null);
    }));
  const body = layout.rows.map((row) => {
    if (!row.box) {
      return h('tr', { class: `sum-row ${row.cls}` },
        h('th', { scope: 'row' }, row.label),
        cols.map((col) => {
          const v = row.value(col);
          const shown = typeof v === 'object' && v !== null ? v : { text: String(v ?? ''), cls: '' };
          return h('td', { class: `num ${shown.cls}` }, shown.text);
        }));
    }
    const name = row.box;
    const r = rows.indexOf(name);
    const colour = PD_COLOUR[name];
    const label = h('th', { scope: 'row' },
      colour ? h('span', { class: `swatch paint-${colour}`, 'aria-hidden': 'true' }, COLOUR_LETTER[colour]) : null,
      row.label,
      RIGHT_MOST.has(name) && kind === 'triple-quintzee' ? h('span', { class: 'rm-mark', title: 'Right-most rule: a non-zero score goes to the right-most empty box', 'aria-hidden': 'true' }, ' ⇥') : null);
    return h('tr', { class: `box-row${WASTE.has(name) ? ' waste' : ''}` }, label,
      cols.map((col, ci) => {
        const column = colNumbers[ci];
        const value = col.boxes[name];
        const entry = live && value == null ? previews.get(`${name}:${column ?? 0}`) : undefined;
        const c = ci + 1;
        const here = nav.row === r && nav.col === c;
        const classes = ['cell', value != null ? 'filled' : 'empty'];
        let content = cellText(kind, name, value);
        let extra = null;
        if (entry) {
          classes.push('preview', entry.value ? 'scores' : 'zero');
          if (choosable) classes.push('choosable');
          content = WASTE.has(name) ? '✗' : String(entry.value);
          if (entry.lands != null && entry.lands !== column) {
            classes.push('moves');
            extra = h('span', { class: 'lands-mark', 'aria-hidden': 'true' }, `→${entry.lands}`);
          }
        }
        return h('td', {
          class: classes.join(' '),
          tabindex: here ? '0' : '-1',
          'aria-label': describeCell(kind, name, column, value, entry, layout),
          dataset: { box: name, col: String(column ?? 0), row: String(r), c: String(c), focusKey: `cell:${owner}:${name}:${c}` },
          onclick: () => handlers.choose(name, column, entry),
          onmouseenter: () => handlers.point(name, column, entry),
          onmouseleave: () => handlers.point(null),
          onfocus: () => handlers.focus(r, c, name, column, entry),
          onblur: () => handlers.point(null),
        }, h('span', { class: 'cell-value' }, content), extra);
      }));
  });
  const foot = h('tr', { class: 'grand-total' },
    h('th', { scope: 'row' }, 'Total'),
    h('td', { class: 'num', colspan: String(cols.length) }, String(card.total)));
  return h('table', { class: `scorecard cols-${cols.length}`, role: 'grid', 'aria-label': `${owner}'s card` },
    h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, foot));
}

// The sentence under the dice while the player points at a box: where it lands and what it is worth.
export function landingHint(kind, card, entry, picked) {
  const layout = LAYOUTS[kind];
  const label = boxLabel(kind, entry.box);
  if (WASTE.has(entry.box)) return `${label}, column ${picked}: waste this turn (no points). Click or press Enter to choose it.`;
  if (layout.columns === 1) return `${label}: scores ${entry.value}. Click or press Enter to choose it.`;
  const col = card.columns[entry.lands - 1];
  const worth = entry.value * col.multiplier;
  let text = `${label}, column ${picked}: scores ${entry.value}`;
  if (entry.lands !== picked) {
    const why = entry.box === 'yahtzee_bonus' ? 'bonuses fill columns 1, 2, 3 in turn' : 'right-most rule';
    text += ` in column ${entry.lands} (${why})`;
  }
  text += ` × ${col.multiplier} = ${worth}. Click or press Enter to choose it.`;
  return text;
}

export const MAX_ROLLS = 3;

export function cardControls({ state: s, holds, mine, onRoll }) {
  const made = s.roll;
  const canRoll = mine && made < MAX_ROLLS && holds.size < 5;
  let label = `Roll ${made + 1} of ${MAX_ROLLS}`;
  if (made >= MAX_ROLLS) label = 'No rolls left';
  else if (made > 0 && holds.size >= 5) label = 'Release a die to roll';
  return [
    h('button', { type: 'button', class: 'button roll', id: 'roll-button', disabled: !canRoll, dataset: { focusKey: 'roll' }, onclick: onRoll }, label),
    h('p', { class: 'roll-count', id: 'roll-count' }, made ? `${made} of ${MAX_ROLLS} rolls used` : 'Not rolled yet'),
  ];
}

export function cardTabs({ state: s, viewed, me, onView }) {
  if (s.players.length < 2) return null;
  return h('div', { class: 'card-tabs', role: 'group', 'aria-label': 'Show the card of' },
    s.players.map((p) => h('button', {
      type: 'button', class: `card-tab${p === s.current ? ' current' : ''}`, 'aria-pressed': String(p === viewed),
      dataset: { focusKey: `tab:${p}`, player: p }, onclick: () => onView(p),
    }, p === me ? `${p} (you)` : p, h('span', { class: 'tab-score' }, String(s.cards[p].total)))));
}

export function cardCaption({ owner, me, card, live, choosable }) {
  let note = null;
  if (live) note = choosable ? ' · shaded boxes show what these dice would score' : ' · showing what the dice would score';
  return h('p', { class: 'card-caption' },
    h('strong', {}, owner === me ? 'Your card' : `${owner}'s card`), ` · ${card.total} points`,
    note ? h('span', { class: 'muted' }, note) : null);
}

export function bonusMoment(kind, s) {
  const e = s.last_event;
  if (kind !== 'triple-quintzee' || e?.type !== 'score' || !e.bonus) return null;
  return {
    kind: 'bonus',
    key: ['bonus', e.player, s.turn],
    parts: [h('p', { class: 'big' }, 'Quintzee bonus!'), h('p', {}, `${e.player}: +${e.bonus} in column ${e.column}.`)],
  };
}
