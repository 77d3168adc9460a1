// A card game's score card, drawn from the sheet the server sends (the engine's SHEET, built with
// games/rules/sheet.py: rows, labels, sums, column headers) and the card in the state: one renderer
// for every card game.

import { h } from './dom.js';
import { COLOUR_LETTER } from './dice.js';
import { fmt, gettext, gettext_noop, ngettext } from '../i18n.js';

// A column's status as the card shows it, translated where it is drawn.
export const STATUS_WORDS = [gettext_noop('upgraded'), gettext_noop('blocked')];

const signed = (n) => (n > 0 ? `+${n}` : String(n));

// How a sum row shows its figure (the sheet's `show`); `cls` colours it.
const SHOW = {
  value: (v) => ({ text: String(v ?? ''), cls: '' }),
  signed: (v) => (v == null ? { text: '—', cls: '' } : { text: signed(v), cls: v > 0 ? 'ahead' : v < 0 ? 'behind' : '' }),
  count: (v, row) => ({ text: `${v}/${row.need}`, cls: v >= row.need ? 'ahead' : '' }),
  status: (v) => ({ text: v, cls: v === 'upgraded' ? 'ahead' : v === 'blocked' ? 'behind' : '' }),
};

const boxIndex = new WeakMap();

// The sheet's box rows by box name.
function boxRows(sheet) {
  if (!boxIndex.has(sheet)) boxIndex.set(sheet, new Map(sheet.rows.filter((r) => r.box).map((r) => [r.box, r])));
  return boxIndex.get(sheet);
}

function header(sheet, col) {
  if (sheet.columns === 1) return { title: gettext('Score') };
  const info = { title: col.column, sub: `×${col.multiplier}` };
  if (!sheet.upgrades) return info;
  if (col.status === 'upgraded' || col.status === 'blocked') return { ...info, note: gettext(col.status), cls: col.status };
  return { ...info, note: `→ ×${sheet.upgrades[col.column - 1]}`, cls: 'pending' };
}

// A one-column card holds its boxes itself; the triple games' cards hold three columns. Column numbers
// are 1-based, null for a one-column card.
function columnsOf(card, sheet) {
  return sheet.columns === 1 ? [card] : card.columns;
}

export function navRows(sheet) {
  return [...boxRows(sheet).keys()];
}

export function previewIndex(preview) {
  const map = new Map();
  for (const entry of preview?.boxes ?? []) map.set(`${entry.box}:${entry.column ?? 0}`, entry);
  return map;
}

export function boxLabel(sheet, name) {
  const label = boxRows(sheet).get(name)?.label;
  return label ? gettext(label) : name;
}

function isWaste(sheet, name) {
  return Boolean(boxRows(sheet).get(name)?.waste);
}

function cellText(sheet, name, value) {
  if (value == null) return '';
  if (isWaste(sheet, name)) return '✗';
  return String(value);
}

// What a preview counts for on the card: its value times the multiplier of the column it lands in.
export function worthOf(sheet, card, entry) {
  if (sheet.columns === 1) return { value: entry.value, multiplier: null, worth: entry.value };
  const multiplier = card.columns[(entry.lands ?? entry.column) - 1].multiplier;
  return { value: entry.value, multiplier, worth: entry.value * multiplier };
}

function worthText({ value, multiplier, worth }) {
  return multiplier == null ? String(value) : `${value} × ${multiplier} = ${worth}`;
}

function describeCell(sheet, card, name, column, value, entry) {
  const waste = isWaste(sheet, name);
  const parts = [boxLabel(sheet, name)];
  if (sheet.columns > 1) parts.push(fmt(gettext('column %(column)s'), { column }));
  if (value != null) parts.push(waste ? gettext('wasted') : `${value}`);
  else {
    parts.push(gettext('empty'));
    if (entry) {
      const worth = worthText(worthOf(sheet, card, entry));
      if (waste) parts.push(gettext('waste the turn here'));
      else if (entry.lands != null && entry.lands !== column) {
        parts.push(fmt(gettext('would score %(worth)s in column %(column)s'), { worth, column: entry.lands }));
      } else parts.push(fmt(gettext('would score %(worth)s'), { worth }));
    }
  }
  return parts.join(', ');
}

/**
 * One player's card as an ARIA grid. `live` is set when this card belongs to the player to move and
 * the dice have been rolled: empty boxes then show what they would count for (`previews`, times the
 * column's multiplier; a box that would score 0 keeps quiet until pointed at), and when `choosable`
 * they can be picked by click, tap or Enter.
 */
export function cardTable({ sheet, owner, card, previews, live, choosable, nav, handlers }) {
  const cols = columnsOf(card, sheet);
  const colNumbers = sheet.columns === 1 ? [null] : cols.map((c) => c.column);
  const rows = navRows(sheet);
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'label-col' }, gettext('Box')),
    cols.map((col) => {
      const info = header(sheet, col);
      return h('th', { scope: 'col', class: `col-head ${info.cls ?? ''}` },
        h('span', { class: 'col-title' }, sheet.columns > 1 ? h('span', { class: 'col-word' }, `${gettext('Column')} `) : null, String(info.title)),
        info.sub ? h('span', { class: 'col-mult' }, info.sub) : null,
        info.note ? h('span', { class: 'col-note' }, info.note) : null);
    }));
  const body = sheet.rows.map((row) => {
    if (!row.box) {
      return h('tr', { class: `sum-row ${row.cls}` },
        h('th', { scope: 'row' }, gettext(row.label)),
        cols.map((col) => {
          const shown = SHOW[row.show](col[row.field], row);
          return h('td', { class: `num ${shown.cls}` }, shown.text);
        }));
    }
    const name = row.box;
    const r = rows.indexOf(name);
    const label = h('th', { scope: 'row' },
      row.colour ? h('span', { class: `swatch paint-${row.colour}`, 'aria-hidden': 'true' }, COLOUR_LETTER[row.colour]) : null,
      gettext(row.label),
      row.right_most ? h('span', { class: 'rm-mark', title: gettext('Right-most rule: a non-zero score goes to the right-most empty box'), 'aria-hidden': 'true' }, ' ⇥') : null);
    return h('tr', { class: `box-row${row.waste ? ' waste' : ''}` }, label,
      cols.map((col, ci) => {
        const column = colNumbers[ci];
        const value = col.boxes[name];
        const entry = live && value == null ? previews.get(`${name}:${column ?? 0}`) : undefined;
        const c = ci + 1;
        const here = nav.row === r && nav.col === c;
        const classes = ['cell', value != null ? 'filled' : 'empty'];
        let content = cellText(sheet, name, value);
        let extra = null;
        if (entry) {
          classes.push('preview', entry.value ? 'scores' : 'zero');
          if (choosable) classes.push('choosable');
          content = row.waste ? '✗' : String(worthOf(sheet, card, entry).worth);
          if (entry.lands != null && entry.lands !== column) {
            classes.push('moves');
            // Drawn by CSS from data-lands: the cell's label says it in words, and a mark in the text
            // would make the visible text differ from the label (axe: label-content-name-mismatch).
            extra = h('span', { class: 'lands-mark', 'aria-hidden': 'true', dataset: { lands: String(entry.lands) } });
          }
        }
        return h('td', {
          class: classes.join(' '),
          tabindex: here ? '0' : '-1',
          'aria-label': describeCell(sheet, card, name, column, value, entry),
          dataset: { box: name, col: String(column ?? 0), row: String(r), c: String(c), focusKey: `cell:${owner}:${name}:${c}` },
          onclick: (e) => handlers.choose(name, column, entry, e),
          onmouseenter: () => handlers.point(name, column, entry),
          onmouseleave: () => handlers.point(null),
          onfocus: () => handlers.focus(r, c, name, column, entry),
          onblur: () => handlers.point(null),
        }, h('span', { class: 'cell-value' }, content), extra);
      }));
  });
  const foot = h('tr', { class: 'grand-total' },
    h('th', { scope: 'row' }, gettext('Total')),
    h('td', { class: 'num', colspan: String(cols.length) }, String(card.total)));
  return h('table', { class: `scorecard cols-${cols.length}`, role: 'grid', 'aria-label': fmt(gettext("%(player)s's card"), { player: owner }) },
    h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, foot));
}

// The sentence under the dice for the box pointed at or tapped: where it lands and what it is worth.
// `how` says how to confirm it: a mouse clicks once ('click'), a finger taps twice or presses Score
// ('tap'); someone watching another player's turn has nothing to confirm ('watch').
export function landingHint(sheet, card, entry, picked, how = 'click') {
  const row = boxRows(sheet).get(entry.box);
  const label = boxLabel(sheet, entry.box);
  const confirm = {
    tap: gettext('Tap it again or press Score to choose it.'),
    again: gettext('Click it again or press Score to choose it.'),
    click: gettext('Click or press Enter to choose it.'),
    mark: gettext('Click to mark it, or press Enter to choose it.'),
  }[how] ?? '';
  const said = { label, column: picked, value: entry.value };
  if (row?.waste) return `${fmt(gettext('%(label)s, column %(column)s: waste this turn (no points).'), said)} ${confirm}`.trim();
  if (sheet.columns === 1) return `${fmt(gettext('%(label)s: scores %(value)s.'), said)} ${confirm}`.trim();
  const { multiplier, worth } = worthOf(sheet, card, entry);
  let text = fmt(gettext('%(label)s, column %(column)s: scores %(value)s'), said);
  if (entry.lands !== picked) {
    text += ` ${fmt(gettext('in column %(column)s'), { column: entry.lands })}${row?.moves ? ` (${gettext(row.moves)})` : ''}`;
  }
  text += ` × ${multiplier} = ${worth}. ${confirm}`;
  return text.trim();
}

/** `chosen`: the box tapped once ({label, worth}), waiting for a second tap or the Score button. */
export function cardControls({ sheet, state: s, holds, mine, onRoll, chosen, onScore, onCancel }) {
  const made = s.roll;
  const most = sheet.rolls;
  const canRoll = mine && made < most && holds.size < sheet.dice;
  let label = fmt(gettext('Roll %(roll)s of %(rolls)s'), { roll: made + 1, rolls: most });
  if (made >= most) label = gettext('No rolls left');
  else if (made > 0 && holds.size >= sheet.dice) label = gettext('Release a die to roll');
  return [
    h('button', { type: 'button', class: 'button roll', id: 'roll-button', disabled: !canRoll, dataset: { focusKey: 'roll' }, onclick: onRoll }, label),
    chosen ? h('span', { class: 'chosen', role: 'group', 'aria-label': fmt(gettext('Score %(label)s?'), { label: chosen.label }) },
      h('button', { type: 'button', class: 'button score', id: 'score-button', dataset: { focusKey: 'score' }, onclick: onScore },
        fmt(gettext('Score %(points)s'), { points: chosen.worth })),
      h('button', { type: 'button', class: 'button secondary', id: 'score-cancel', 'aria-label': gettext('Cancel'), dataset: { focusKey: 'score-cancel' }, onclick: onCancel }, '✕'))
      : null,
    h('p', { class: 'roll-count', id: 'roll-count' }, made ? fmt(ngettext('%(made)s of %(rolls)s roll used', '%(made)s of %(rolls)s rolls used', most), { made, rolls: most }) : gettext('Not rolled yet')),
  ];
}

export function cardTabs({ state: s, scores, viewed, me, onView }) {
  if (s.players.length < 2) return null;
  return h('div', { class: 'card-tabs', role: 'group', 'aria-label': gettext('Show the card of') },
    s.players.map((p) => h('button', {
      type: 'button', class: `card-tab${p === s.current ? ' current' : ''}`, 'aria-pressed': String(p === viewed),
      dataset: { focusKey: `tab:${p}`, player: p }, onclick: () => onView(p),
    }, p === me ? gettext('Your card') : p, h('span', { class: 'tab-score' }, String(scores[p] ?? 0)))));
}

export function cardCaption({ owner, me, card, live, choosable }) {
  let note = null;
  if (live) note = ` · ${choosable ? gettext('shaded boxes show what these dice would score') : gettext('showing what the dice would score')}`;
  if (live && card.columns) note += gettext(', times the column');
  return h('p', { class: 'card-caption' },
    h('strong', {}, owner === me ? gettext('Your card') : fmt(gettext("%(player)s's card"), { player: owner })),
    ` · ${fmt(gettext('%(points)s points'), { points: card.total })}`,
    note ? h('span', { class: 'muted' }, note) : null);
}

// The banner of a score that earned a bonus, for the sheets that name one (Triple Quintzee).
export function bonusMoment(sheet, s) {
  const e = s.last_event;
  if (!sheet.bonus_moment || e?.type !== 'score' || !e.bonus) return null;
  return {
    kind: 'bonus',
    key: ['bonus', e.player, s.turn],
    parts: [h('p', { class: 'big' }, gettext(sheet.bonus_moment)), h('p', {}, fmt(gettext('%(player)s: +%(bonus)s in column %(column)s.'), { player: e.player, bonus: e.bonus, column: e.column }))],
  };
}
