"""Computer players at the site's tables: their accounts (players.py) and the worker's task that moves
them (tasks.py). What a computer plays is games.bots' choice; how it is played is games.live.moves'
one move path, as for a person."""
