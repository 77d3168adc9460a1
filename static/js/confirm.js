// A form with data-confirm asks before it is sent: leaving or deleting a group, removing a member.
// The question is written by the template, in the reader's language; without scripts the form is sent
// as it is (the action itself is undoable by the creator: a member can be added again).
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
