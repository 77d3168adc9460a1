// The fair dice page's checker (templates/games/fair_dice.html): a game's record, fetched by its number
// (as the reader may see it) or read from a downloaded file, and every roll computed again here
// (static/js/fair-dice.js), never taken on the server's word. ?game=N checks that game at once.
import { checkRolls, available, resultText } from "./fair-dice.js";
import { fmt, gettext } from "./i18n.js";

const form = document.getElementById("fair-check-form");
const field = document.getElementById("fair-game");
const file = document.getElementById("fair-file");
const line = document.getElementById("fair-result");

function say(text, result = "") {
  line.textContent = text;
  line.classList.toggle("fair-ok", result === "ok");
  line.classList.toggle("fair-bad", result === "mismatch");
  if (result) line.dataset.result = result;
  else delete line.dataset.result;
}

async function check(record, name) {
  const fair = record && record.fair_dice;
  if (!record || !record.game || !Array.isArray(record.actions)) {
    say(gettext("This is not a DiceHall game record."));
    return;
  }
  if (!fair) {
    say(fmt(gettext("%(game)s was played before fair dice: its rolls cannot be checked."), { game: name }));
    return;
  }
  if (!fair.server_seed) {
    say(fmt(gettext("%(game)s is not over yet, or its seed is held back (a daily challenge's until the day ends): its rolls can be checked once the seed is revealed."), { game: name }));
    return;
  }
  if (!available()) {
    say(gettext("This browser cannot check rolls on this page (it needs a secure connection)."));
    return;
  }
  say(gettext("Checking every roll…"));
  try {
    const result = await checkRolls(fair, record.game.dice_kind, record.actions);
    say(`${name}: ${resultText(result)}`, result.ok ? "ok" : "mismatch");
  } catch (err) {
    say(gettext("The rolls could not be checked in this browser."));
  }
}

async function byNumber(number) {
  const name = fmt(gettext("Game %(number)s"), { number });
  say(gettext("Fetching the game…"));
  let answer;
  try {
    answer = await fetch(`/games/${number}/export.json`, { credentials: "same-origin", headers: { Accept: "application/json" } });
  } catch (err) {
    say(gettext("The site could not be reached."));
    return;
  }
  if (answer.redirected || answer.status === 401 || answer.status === 403) {
    say(gettext("Sign in to check a game by its number, or choose a game file you downloaded."));
    return;
  }
  if (!answer.ok) {
    say(fmt(gettext("There is no game %(number)s that you may see."), { number }));
    return;
  }
  await check(await answer.json(), name);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const number = Number(field.value);
  if (Number.isSafeInteger(number) && number > 0) byNumber(number);
});

file.addEventListener("change", async () => {
  const chosen = file.files[0];
  if (!chosen) return;
  let record = null;
  try {
    record = JSON.parse(await chosen.text());
  } catch (err) {
    record = null;
  }
  await check(record, record?.game?.id ? fmt(gettext("Game %(number)s"), { number: record.game.id }) : chosen.name);
});

const asked = Number(new URLSearchParams(location.search).get("game"));
if (Number.isSafeInteger(asked) && asked > 0) {
  field.value = String(asked);
  byNumber(asked);
}
