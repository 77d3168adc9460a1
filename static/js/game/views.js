// The view modules by the name the server gives each game (the snapshot's game.view, the replay's
// view: the engine's declared view). A view module has play(app, sheet), the live game page's part
// (view.js), and replay(sheet), the read-only part of the replay: dice(state), moment(state),
// board(state), goal(state).

import { cardsView } from './cards-view.js';
import { farkleView } from './farkle-view.js';

const VIEWS = { cards: cardsView, farkle: farkleView };

export function viewModule(name) {
  const view = VIEWS[name];
  if (!view) throw new Error(`No view module called ${name}`);
  return view;
}
