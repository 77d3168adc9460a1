"""Replays: every state of a game rebuilt from its action log, and the check that the log gives the
stored state."""

from __future__ import annotations

import copy
import json

from games import rules
from games.errors import ReplayMismatch
from games.live.dice_source import ReplayDice
from games.models import Game


def game_replay_states(game: Game) -> list[dict]:
    """Every state of the game, from new_game through each logged action (index = seq)."""
    players = [s.user.username for s in game.seats.select_related("user").order_by("position")]
    engine = game.engine
    state = engine.new_game(players, game.options)
    states = [state]
    for logged in game.actions.select_related("seat__user").order_by("seq"):
        dice = ReplayDice(logged.dice)
        state = engine.apply(state, logged.seat.user.username, logged.action, dice)
        if not dice.exhausted:
            raise ReplayMismatch(f"action {logged.seq} recorded more rolls than the engine made")
        states.append(state)
    return states


def game_verify_replay(*, game_id: int) -> dict:
    """Rebuild the game from its log and check it equals the stored state; return the state."""
    game = Game.objects.get(pk=game_id)
    if game.state is None:
        return {}
    seqs = list(game.actions.order_by("seq").values_list("seq", flat=True))
    if seqs != list(range(1, len(seqs) + 1)) or (seqs and seqs[-1] != game.seq) or (not seqs and game.seq):
        raise ReplayMismatch(f"the log of game {game_id} has gaps or duplicates: {seqs[:5]}...")
    try:
        rebuilt = game_replay_states(game)[-1]
    except (rules.IllegalAction, ValueError) as exc:
        raise ReplayMismatch(f"the log of game {game_id} does not replay: {exc}") from None
    if json.dumps(rebuilt, sort_keys=True) != json.dumps(game.state, sort_keys=True):
        raise ReplayMismatch(f"replaying game {game_id} gives a different state than the stored one")
    return copy.deepcopy(rebuilt)
