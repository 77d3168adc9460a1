"""Computer players at the site's tables: their accounts (players.py) and the worker's task that moves
them (tasks.py). What a computer plays is games.bots' choice; how it is played is games.live.moves'
one move path, as for a person."""

# The worker's task that plays a computer's next action (tasks.play): named here for the move core, which
# writes its rows by hand (games.live.move_sql "computer_turn") and must not import the task's module.
PLAY_TASK = "games.computers.tasks.play"
