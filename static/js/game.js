// The game page's entry point (templates/games/game.html); the modules live in ./game/.
import { GameApp } from './game/app.js';

const root = document.getElementById('game-root');
if (root) new GameApp(root).start();
