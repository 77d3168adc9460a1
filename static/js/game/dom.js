// A tiny element builder: every server string goes in as a text node, never as HTML.

import { fmt, gettext } from '../i18n.js';

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value == null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    // An object of properties, set through the CSSOM: the Content-Security-Policy (style-src 'self')
    // refuses a style attribute, but not what a script sets on element.style.
    else if (key === 'style') Object.assign(el.style, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function listText(names) {
  if (names.length <= 1) return names.join('');
  return fmt(gettext('%(first)s and %(last)s'), { first: names.slice(0, -1).join(', '), last: names.at(-1) });
}
