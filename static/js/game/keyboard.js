// Keyboard play. Keys ask the server even when a button is greyed out, so a keyboard player who presses
// B too early hears why (the server's message) instead of nothing.

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

function typingIn(el) {
  return el && (TYPING.has(el.tagName) || el.isContentEditable);
}

// Buttons outside the table (resign, play again, card tabs) keep Space for themselves, as everywhere.
function ownsSpace(el) {
  if (!el || el === document.body) return false;
  if (el.closest('.g-dice') || el.closest('.scorecard') || el.id === 'roll-button') return false;
  return el.matches('button, a, summary, [role=button]');
}

export function bindKeys(app) {
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
    if (!app.state || app.over || !app.view) return;
    // Keys belong to the game only while focus is on the page itself or inside the game.
    if (e.target !== document.body && !app.root.contains(e.target)) return;
    if (e.key === ' ' || e.code === 'Space') {
      if (ownsSpace(e.target)) return;
      e.preventDefault();
      if (!e.repeat) app.roll();
    } else if (/^[1-9]$/.test(e.key) && Number(e.key) <= app.view.dieKeys) {
      e.preventDefault();
      app.toggleDie(Number(e.key) - 1);
    } else {
      // The game's own keys (arrows and Enter on a card, B to bank).
      app.view.key(e);
    }
  });
}
