// Fair dice (docs/fair-dice.md): the client seed a player brings to the table is made here, in the
// browser, with crypto.getRandomValues, so that the server never chose it. It goes with the join form;
// the player may type their own in the table's "Fair dice" panel until the game starts.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

export function randomSeed(length = 22) {
  // 64 symbols: a byte's low six bits pick one without bias.
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b & 63]).join("");
}

for (const input of document.querySelectorAll("input[data-fair-seed]")) {
  if (!input.value) input.value = randomSeed();
}
