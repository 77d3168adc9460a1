// Fair dice checked in the browser (docs/fair-dice.md): every roll of a game recomputed with WebCrypto's
// HMAC-SHA256 from the revealed server seed, the client seeds and each action's seq, and compared with
// the roll the server recorded. The same derivation as games/fair_dice.py and tools/check_dice.py.

import { fmt, gettext } from "./i18n.js";

const COLOURS = ["blue", "red", "pink", "green", "yellow"];
const encoder = new TextEncoder();

function fromHex(hex) {
  return Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
}

function toHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The bytes of one action: HMAC-SHA256(server seed, "v1:<client seeds joined by ,>:<seq>:<block>") for
// blocks 0, 1, 2 ..., fetched as they are needed.
class ActionBytes {
  constructor(key, clientSeeds, seq) {
    this.key = key;
    this.prefix = `v1:${clientSeeds.join(",")}:${seq}:`;
    this.block = 0;
    this.bytes = new Uint8Array(0);
    this.at = 0;
  }

  async next() {
    if (this.at >= this.bytes.length) {
      const message = encoder.encode(this.prefix + this.block);
      this.bytes = new Uint8Array(await crypto.subtle.sign("HMAC", this.key, message));
      this.block += 1;
      this.at = 0;
    }
    return this.bytes[this.at++];
  }

  // One of `outcomes` equally likely values: bytes at or above 256 - 256 % outcomes are skipped.
  async draw(outcomes) {
    const limit = 256 - (256 % outcomes);
    for (;;) {
      const b = await this.next();
      if (b < limit) return b % outcomes;
    }
  }
}

async function derive(key, clientSeeds, seq, sizes, painted) {
  const bytes = new ActionBytes(key, clientSeeds, seq);
  const rolls = [];
  for (const n of sizes) {
    const roll = [];
    for (let i = 0; i < n; i += 1) {
      const face = (await bytes.draw(6)) + 1;
      roll.push(painted ? [face, COLOURS[await bytes.draw(5)]] : face);
    }
    rolls.push(roll);
  }
  return rolls;
}

export function available() {
  return Boolean(globalThis.crypto && crypto.subtle);
}

// { ok: true, rolls } when every roll matches; { ok: false, reason: "commitment" } when the seed is not
// the committed one; { ok: false, reason: "roll", rolls (checked so far), seq, number, player,
// recorded, derived } at the first roll that does not match.
export async function checkRolls(fair, diceKind, entries) {
  const seed = fromHex(fair.server_seed);
  if (toHex(await crypto.subtle.digest("SHA-256", seed)) !== fair.commitment) {
    return { ok: false, reason: "commitment", rolls: 0 };
  }
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const painted = diceKind === "painted";
  let rolls = 0;
  for (const entry of entries) {
    const recorded = entry.dice || [];
    if (!recorded.length) continue;
    const derived = await derive(key, fair.client_seeds, entry.seq, recorded.map((r) => r.length), painted);
    for (let i = 0; i < recorded.length; i += 1) {
      rolls += 1;
      if (JSON.stringify(recorded[i]) !== JSON.stringify(derived[i])) {
        return {
          ok: false,
          reason: "roll",
          rolls,
          seq: entry.seq,
          number: i + 1,
          player: entry.player,
          recorded: recorded[i],
          derived: derived[i],
        };
      }
    }
  }
  return { ok: true, rolls };
}

function dieText(roll) {
  return `[${roll.map((d) => (Array.isArray(d) ? `${d[0]} ${gettext(d[1])}` : String(d))).join(", ")}]`;
}

// What a check found, in a sentence a player reads (the replay and the fair dice page).
export function resultText(result) {
  if (result.ok) {
    return fmt(gettext("Every one of the %(count)s rolls matches the committed seed."), { count: result.rolls });
  }
  if (result.reason === "commitment") {
    return gettext("The revealed server seed does not match its commitment: no roll can be trusted.");
  }
  return fmt(
    gettext(
      "Roll %(roll)s does not match the committed seed: step %(seq)s (%(player)s) shows %(recorded)s, the seed gives %(derived)s.",
    ),
    {
      roll: result.rolls,
      seq: result.seq,
      player: result.player,
      recorded: dieText(result.recorded),
      derived: dieText(result.derived),
    },
  );
}
