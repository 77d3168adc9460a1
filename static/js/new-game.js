// The lobby's forms show only the fields that apply to what is chosen (games/tables/forms.py marks
// them): a game's own options while that game is chosen (data-kinds), and what needs other players
// (computers, pace, group; data-needs="others") or a live table (the wait for an absent player;
// "live") only while it does. A field that does not apply is disabled too, so it is not sent.
for (const form of document.querySelectorAll('#new-game-form, #computer-form, #solo-form, #seek-form')) {
  const value = (name) => form.elements[name]?.value ?? '';
  const applies = (field) => {
    if (field.dataset.kinds !== undefined && !field.dataset.kinds.split(' ').includes(value('kind'))) return false;
    const needs = (field.dataset.needs || '').split(' ');
    if (needs.includes('others') && Number(value('seats')) === 1) return false;
    if (needs.includes('live') && value('pace') && value('pace') !== 'live') return false;
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
}
