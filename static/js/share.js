// Invitation links (templates/games/invite_share.html) and the daily challenge's result to pass on
// (templates/daily/day.html): Copy, and Share where the browser has the Web Share API (phones mostly).
// No inline handlers: every [data-share] box on the page is wired here.

import { gettext } from './i18n.js';

const SAID_FOR_MS = 4000; // long enough to read "Copied", short enough that a second copy says it again

function say(box, text) {
  const status = box.querySelector('[data-share-status]');
  status.textContent = text;
  clearTimeout(status.timer);
  status.timer = setTimeout(() => { status.textContent = ''; }, SAID_FOR_MS);
}

// Selected text is the fallback everywhere: the clipboard API needs a secure context (not plain http
// on a LAN address) and may be refused by the browser's permissions.
function selectLink(input) {
  input.focus();
  input.select();
  input.setSelectionRange(0, input.value.length); // iOS Safari ignores select() on read-only inputs
}

async function copy(box, input) {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(input.value);
    say(box, gettext('Copied'));
  } catch {
    selectLink(input);
    say(box, gettext('The link is selected: copy it with Ctrl+C (or a long press).'));
  }
}

async function share(box, input) {
  try {
    // A box whose field holds a whole text to pass on (the daily challenge's result) names its link apart.
    const url = box.dataset.shareLink || input.value;
    await navigator.share({ title: box.dataset.shareTitle, text: box.dataset.shareText, url });
  } catch (error) {
    // AbortError: the player closed the share sheet, which is no failure to report.
    if (error.name !== 'AbortError') say(box, gettext('Sharing did not work here: copy the link instead.'));
  }
}

function wire(box) {
  const input = box.querySelector('[data-share-url]');
  input.addEventListener('click', () => selectLink(input));
  const copyButton = box.querySelector('[data-share-copy]');
  copyButton.addEventListener('click', () => copy(box, input));
  copyButton.hidden = false;
  const send = box.querySelector('[data-share-send]');
  if (typeof navigator.share === 'function') {
    send.hidden = false;
    send.addEventListener('click', () => share(box, input));
  }
}

document.querySelectorAll('[data-share]').forEach(wire);
