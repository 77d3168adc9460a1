// Step-through replay of a finished game, rebuilt on the server from the action log through the engine.
// The page carries the first step whole and each later one as a JSON Patch (RFC 6902), gzipped
// (games/results/replays.py): every state is rebuilt here, once, by applying the patches in order.
import { applyPatch } from "../vendor/fast-json-patch/core.mjs";
import { checkRolls, available as canCheck, resultText } from "./fair-dice.js";
import { decimal, diceWords, eventText, fmt, gettext } from "./i18n.js";

async function unpack(packed) {
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  const json = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(json).text());
}

// The live game screen's renderers draw the cards; the replay falls back to a summary without them.
async function renderer() {
  try {
    return await import("./game/replay-view.js");
  } catch (err) {
    return null;
  }
}

const page = JSON.parse(document.getElementById("replay-data").textContent);
// Everything the page waits for is awaited here, together, and nothing below awaits: the log's lines,
// the first drawing and the handlers then arrive in one task. A line put on the screen before the board
// was drawn moved under the reader's pointer when it was (a press there lost its click, and the page's
// own first step stayed), and a control clicked before its handler existed did nothing.
const [{ first, patches, entries }, view] = await Promise.all([unpack(page.packed), renderer()]);
const frames = [first];
// Not in place: each step is a document of its own.
for (const patch of patches) frames.push(applyPatch(frames.at(-1), patch, false, false).newDocument);
const data = {
  ...page,
  entries,
  states: frames.map((f) => f.state),
  scores: frames.map((f) => f.scores),
  winners: frames.map((f) => f.winners),
};
const board = document.getElementById("replay-board");
const log = document.getElementById("replay-log");
const position = document.getElementById("replay-position");
let step = data.states.length - 1;

// The coach's review (coach.selectors.replay_review), when it is ready: what it says of each decision.
const coachData = document.getElementById("coach-data");
const notes = coachData ? JSON.parse(coachData.textContent) : {};
const coachLine = document.getElementById("replay-coach");

function badge(note) {
  const span = document.createElement("span");
  span.className = `coach-badge ${note.best ? "best" : "cost"}`;
  span.textContent = note.best ? "✓" : `−${decimal(note.cost)}`;
  const lost = note.measure === "win"
    ? gettext("%(cost)s percentage points of winning chance given away")
    : gettext("%(cost)s expected points given away");
  span.title = note.best ? gettext("The expert's choice") : fmt(lost, { cost: decimal(note.cost) });
  return span;
}

function coachText(n) {
  const note = notes[String(n)];
  if (!note) return "";
  // The moves' words are the page's language already (coach.selectors).
  const said = { player: note.player, move: note.text, expert: note.expert_text, cost: decimal(note.cost) };
  // A decision is made on the dice before its step, and the board shows the step's own (a roll's new
  // dice, a scored card): the line names the dice it speaks of.
  const before = data.states[n - 1]?.dice || [];
  if (before.length) {
    said.dice = diceWords(before);
    if (note.best) return fmt(gettext("Coach, on %(dice)s: %(player)s played the expert's choice (%(expert)s)."), said);
    if (note.measure === "win") {
      return fmt(gettext("Coach, on %(dice)s: %(player)s chose to %(move)s. Expert: %(expert)s (−%(cost)s percentage points of winning chance)."), said);
    }
    return fmt(gettext("Coach, on %(dice)s: %(player)s chose to %(move)s. Expert: %(expert)s (−%(cost)s expected points)."), said);
  }
  if (note.best) return fmt(gettext("Coach: %(player)s played the expert's choice (%(expert)s)."), said);
  if (note.measure === "win") {
    return fmt(gettext("Coach: %(player)s chose to %(move)s. Expert: %(expert)s (−%(cost)s percentage points of winning chance)."), said);
  }
  return fmt(gettext("Coach: %(player)s chose to %(move)s. Expert: %(expert)s (−%(cost)s expected points)."), said);
}

data.entries.forEach((entry, i) => {
  const li = document.createElement("li");
  li.dataset.step = String(i + 1);
  li.textContent = eventText(entry) || `${entry.player}: ${entry.action.type}`;
  const note = notes[String(i + 1)];
  if (note) li.append(" ", badge(note));
  li.addEventListener("click", () => show(i + 1));
  log.appendChild(li);
});

let draw = null;
try {
  draw = view ? view.replayer(data) : null;
} catch (err) {
  draw = null;
}

function fallback(state, scores) {
  const rows = Object.entries(scores)
    .map(([player, score]) => `<tr><th scope="row">${player}</th><td class="num">${score}</td></tr>`)
    .join("");
  const dice = (state.dice || []).map((d) => (Array.isArray(d) ? `${d[0]}${d[1][0].toUpperCase()}` : d)).join(" ");
  board.innerHTML = `<table class="data"><thead><tr><th scope="col">${gettext("Player")}</th><th scope="col" class="num">${gettext("Score")}</th></tr></thead><tbody>${rows}</tbody></table>
    <p>${gettext("Dice:")} <span class="replay-dice">${dice || "–"}</span></p>`;
}

function show(n) {
  step = Math.max(0, Math.min(data.states.length - 1, n));
  const state = data.states[step];
  if (draw) draw(board, step);
  else fallback(state, data.scores[step]);
  position.textContent = fmt(gettext("Step %(step)s of %(steps)s"), { step, steps: data.states.length - 1 });
  if (coachLine) {
    coachLine.textContent = coachText(step) || (step ? gettext("Coach: no decision at this step.") : "");
    coachLine.classList.toggle("cost", Boolean(notes[String(step)] && !notes[String(step)].best));
  }
  log.querySelectorAll("li").forEach((li) => {
    const current = Number(li.dataset.step) === step;
    li.classList.toggle("current", current);
    if (current) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  });
  // Scroll the log alone: scrolling the window would carry a phone's screen away from the board.
  const current = log.querySelector("li.current");
  if (current) {
    const item = current.getBoundingClientRect();
    const box = log.getBoundingClientRect();
    if (item.top < box.top) log.scrollTop -= box.top - item.top;
    else if (item.bottom > box.bottom) log.scrollTop += item.bottom - box.bottom;
  }
}

const moves = { first: () => 0, prev: () => step - 1, next: () => step + 1, last: () => data.states.length - 1 };
// The buttons only: the log's lines carry a step number in the same attribute and move by themselves.
document.querySelectorAll("button[data-step]").forEach((button) => {
  button.addEventListener("click", () => show(moves[button.dataset.step]()));
});
document.querySelectorAll("button[data-goto-step]").forEach((button) => {
  button.addEventListener("click", () => {
    show(Number(button.dataset.gotoStep));
    document.getElementById("replay-position").scrollIntoView({ block: "nearest" });
  });
});
document.addEventListener("keydown", (event) => {
  const key = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
  // Alt+Left is the browser's Back; typing in a field keeps its keys.
  if (!key || event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea")) return;
  event.preventDefault();
  show(moves[key]());
});
show(step);

// Fair dice: every roll checked here against the revealed seed (static/js/fair-dice.js).
const fairLine = document.getElementById("fair-check");

async function checkFairDice() {
  if (!fairLine || !page.fair_dice || !page.fair_dice.server_seed) return;
  if (!canCheck()) {
    fairLine.textContent = gettext(
      "This browser cannot check the rolls on this page (it needs a secure connection); download the game and check it with tools/check_dice.py.",
    );
    return;
  }
  let result;
  try {
    result = await checkRolls(page.fair_dice, page.dice_kind, data.entries);
  } catch (err) {
    fairLine.textContent = gettext("The rolls could not be checked in this browser.");
    return;
  }
  fairLine.classList.add(result.ok ? "fair-ok" : "fair-bad");
  fairLine.dataset.result = result.ok ? "ok" : "mismatch";
  fairLine.textContent = resultText(result);
  if (!result.ok && result.reason === "roll") {
    fairLine.dataset.seq = String(result.seq);
    const go = document.createElement("button");
    go.type = "button";
    go.className = "link-button";
    go.id = "fair-show-step";
    go.textContent = fmt(gettext("Show step %(step)s"), { step: result.seq });
    go.addEventListener("click", () => show(result.seq));
    fairLine.append(" ", go);
    const li = log.querySelector(`li[data-step="${result.seq}"]`);
    if (li) li.classList.add("fair-mismatch");
  }
}
checkFairDice();
// Disabled in the page until now (templates/games/replay.html): a click before this would be lost.
document.querySelectorAll("button[data-step], button[data-goto-step]").forEach((button) => {
  button.disabled = false;
});
