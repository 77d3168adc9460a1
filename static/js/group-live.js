// A group's live parts: its seasons (templates/seasons/_group.html on the group page,
// templates/seasons/detail.html) and a tournament's page (templates/tournaments/detail.html). When a game
// a season counts ends, a season closes, or a tournament starts, begins a round or ends, the header's
// notices socket hands over a `group_changed` message (static/js/notices.js) naming the part, and the
// page reads itself again and swaps in its parts of that name. One read at a time; a change heard
// during one reads once more after it.
const parts = () => document.querySelectorAll('[data-live-part][id]');

let reading = false;
let again = false;

async function refresh() {
  if (reading) {
    again = true;
    return;
  }
  reading = true;
  try {
    const answer = await fetch(location.href, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
    if (answer.ok) {
      const fresh = new DOMParser().parseFromString(await answer.text(), 'text/html');
      for (const part of parts()) {
        const next = fresh.getElementById(part.id);
        if (next) part.replaceWith(document.adoptNode(next));
      }
      document.dispatchEvent(new CustomEvent('dicehall:parts-replaced'));
    }
  } catch {
    // The network: the next change, or a reload, shows the table.
  } finally {
    reading = false;
    if (again) {
      again = false;
      refresh();
    }
  }
}

const first = parts()[0];
if (first) {
  const group = Number(first.dataset.group);
  document.addEventListener('dicehall:group-changed', (e) => {
    const { group: where, part } = e.detail;
    if (where === group && [...parts()].some((shown) => shown.dataset.livePart === part)) refresh();
  });
}
