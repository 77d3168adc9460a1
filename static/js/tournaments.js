// Tournament pages (tournaments/): the form shows a game's own options only while that game is chosen
// (data-kinds), the rounds only for Swiss and the start only for a live tournament (data-needs), and
// sends the browser's time zone, in which the server reads the two times; the pages show times in it.
const form = document.getElementById('tournament-form');
if (form) {
  const value = (name) => form.elements[name]?.value ?? '';
  const applies = (field) => {
    if (field.dataset.kinds !== undefined && !field.dataset.kinds.split(' ').includes(value('kind'))) return false;
    const needs = (field.dataset.needs || '').split(' ');
    if (needs.includes('swiss') && value('format') !== 'swiss') return false;
    if (needs.includes('live') && value('pace') !== 'live') return false;
    return true;
  };
  const sync = () => form.querySelectorAll('[data-kinds], [data-needs]').forEach((field) => {
    const shown = applies(field);
    field.closest('div').hidden = !shown;
    field.disabled = !shown;
  });
  form.addEventListener('input', sync);
  form.addEventListener('change', sync);
  sync();
  const zone = form.elements.tz;
  if (zone) zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || '';
}
const lang = document.documentElement.lang || undefined;
function localTimes() {
  for (const time of document.querySelectorAll('time[data-local]')) {
    const when = new Date(time.getAttribute('datetime'));
    if (!Number.isNaN(when.getTime())) {
      time.textContent = when.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
    }
  }
}
localTimes();
// The page read again (static/js/group-live.js) comes with the server's UTC times.
document.addEventListener('dicehall:parts-replaced', localTimes);
