// The page's words in the reader's language: Django's JavaScript catalogue (/jsi18n/, loaded by
// base.html before any module) gives gettext and ngettext; DICE_I18N holds the engines' messages by
// code (play/i18n.py), so that one broadcast event is said in each reader's own language.

const catalogue = globalThis.DICE_I18N ?? { messages: {}, translated: [], naming: [], language: 'en' };
const TRANSLATED = new Set(catalogue.translated);
// Numbers that name a game's variant (Farkle's goal), in plain digits in every language (games.rules.messages.NAMING).
const NAMING = new Set(catalogue.naming ?? []);
export const language = catalogue.language || document.documentElement.lang || 'en';

export function gettext(text) {
  return globalThis.gettext ? globalThis.gettext(text) : text;
}

/** Marks a word for the catalogue that is translated later, from a variable. */
export function gettext_noop(text) {
  return text;
}

export function ngettext(singular, plural, count) {
  if (globalThis.ngettext) return globalThis.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** `template` with its %(name)s filled from `params`. */
export function fmt(template, params) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(params[key] ?? ''));
}

/** A figure as the reader writes it: 10.350 in German; English keeps the plain 10350. */
export function number(value) {
  return language.startsWith('en') ? String(value) : Number(value).toLocaleString(language);
}

/** A figure with ``digits`` decimals as the reader writes it: 50,0 in German, 50.0 in English. */
export function decimal(value, digits = 1) {
  if (language.startsWith('en')) return Number(value).toFixed(digits);
  return Number(value).toLocaleString(language, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const MINUTE = 60, HOUR = 3600, DAY = 86400;

// How many of a unit say `seconds`: a whole number of them, or two or more (games/i18n.py's duration).
function counted(seconds, size) {
  return seconds >= 2 * size || (seconds >= size && seconds % size === 0) ? Math.round(seconds / size) : null;
}

/** A span of time in words, in the largest unit that says it well: "1 day", "23 hours", "90 seconds". */
export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  let n;
  if ((n = counted(s, DAY)) !== null) return fmt(ngettext('%(count)s day', '%(count)s days', n), { count: number(n) });
  if ((n = counted(s, HOUR)) !== null) return fmt(ngettext('%(count)s hour', '%(count)s hours', n), { count: number(n) });
  if ((n = counted(s, MINUTE)) !== null) return fmt(ngettext('%(count)s minute', '%(count)s minutes', n), { count: number(n) });
  return fmt(ngettext('%(count)s second', '%(count)s seconds', s), { count: number(s) });
}

function names(words) {
  if (words.length <= 1) return words.join('');
  return fmt(gettext(catalogue.messages['list.and']), { first: words.slice(0, -1).join(', '), last: words.at(-1) });
}

function param(key, value) {
  if (value && typeof value === 'object' && !Array.isArray(value)) return say([value]);
  if (Array.isArray(value)) {
    if (value.length && Array.isArray(value[0])) {
      const painted = gettext(catalogue.messages['die.painted']);
      return value.map(([face, colour]) => fmt(painted, { colour: gettext(colour), face })).join(', ');
    }
    return names(value.map(String));
  }
  if (typeof value === 'number') return NAMING.has(key) ? String(value) : number(value);
  if (TRANSLATED.has(key) && typeof value === 'string') return gettext(value);
  return value;
}

// Dice as the game's messages name them: "1 1 1 5 2 3", or Painted DiceZ's faces with their colours.
export function diceWords(dice) {
  if (dice.length && Array.isArray(dice[0])) return param('dice', dice);
  return dice.join(' ');
}

// `own`: templates by code, each a function of the raw parameters giving the template (already in the
// reader's language) to say a message in instead of the engine's, or nothing to keep the engine's.
function one({ code, params = {} }, own = {}) {
  const entry = catalogue.messages[code];
  if (entry === undefined) return '';
  const shown = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, param(k, v)]));
  const template = own[code]?.(params)
    ?? (typeof entry === 'string' ? gettext(entry) : ngettext(entry[0], entry[1], params[entry[2]]));
  return fmt(template, shown);
}

/** A list of engine messages (an event's `msg`) as one text; `own` as for one message, above. */
export function say(parts, own = {}) {
  return parts.map((part) => one(part, own)).join(' ');
}

/** An event's sentence; one stored before events had codes keeps its English text. */
export function eventText(event) {
  if (!event) return '';
  return event.msg?.length ? say(event.msg) : (event.text ?? '');
}
