// Farkle scoring for the live "value of your selection" display: a port of games/rules/farkle.py
// (score, from the table in RULINGS section 4). The server still judges every action; a browser test
// compares this module with the Python engine on every multiset of one to six dice.

const FACES = [1, 2, 3, 4, 5, 6];

function three(face) {
  return face === 1 ? 1000 : face * 100;
}

function buildCombinations() {
  const table = new Map();
  const add = (faces, value) => {
    const key = FACES.map((f) => faces.filter((x) => x === f).length).join('');
    // Four of a kind + a pair is also three pairs: the same dice keep the better value.
    table.set(key, Math.max(table.get(key) ?? 0, value));
  };
  const times = (face, n) => Array(n).fill(face);
  add([1], 100);
  add([5], 50);
  for (const f of FACES) {
    const t = three(f);
    add(times(f, 3), t);
    add(times(f, 4), 2 * t);
    add(times(f, 5), f === 1 ? 10000 : 5 * t);
    add(times(f, 6), f === 1 ? 20000 : 10000);
    for (const g of FACES) {
      if (g === f) continue;
      add([...times(f, 3), ...times(g, 2)], 2 * t);
      add([...times(f, 4), ...times(g, 2)], 4 * t);
      add([...times(f, 4), ...times(g, 2)], 1000);
      if (g > f) add([...times(f, 3), ...times(g, 3)], 2 * (t + three(g)));
    }
  }
  for (let a = 1; a <= 6; a++) {
    for (let b = a + 1; b <= 6; b++) {
      for (let c = b + 1; c <= 6; c++) add([a, a, b, b, c, c], 1000);
    }
  }
  add([1, 2, 3, 4, 5, 6], 1000);
  add([1, 2, 3, 4, 5], 500);
  add([2, 3, 4, 5, 6], 500);
  return [...table].map(([key, value]) => [Array.from(key, Number), value]);
}

const COMBINATIONS = buildCombinations();
const best = new Map();

// The best split of these face counts into combinations; -1 when some die cannot be used.
function bestSplit(counts) {
  const key = counts.join('');
  if (best.has(key)) return best.get(key);
  const first = counts.findIndex((n) => n > 0);
  let result = first === -1 ? 0 : -1;
  if (first !== -1) {
    for (const [combo, value] of COMBINATIONS) {
      // Every die must be in some combination, so only combinations using the lowest face need trying.
      if (!combo[first] || combo.some((need, i) => need > counts[i])) continue;
      const rest = bestSplit(counts.map((have, i) => have - combo[i]));
      if (rest >= 0) result = Math.max(result, value + rest);
    }
  }
  best.set(key, result);
  return result;
}

// The value of setting aside exactly these faces from one roll; 0 if any die does not contribute.
export function farkleScore(faces) {
  if (!faces.length || !faces.every((f) => Number.isInteger(f) && f >= 1 && f <= 6)) return 0;
  return Math.max(bestSplit(FACES.map((f) => faces.filter((x) => x === f).length)), 0);
}
