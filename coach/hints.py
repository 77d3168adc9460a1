"""The Hint button: the expert's move for the player's current decision, only where no other person
sits at the table (a solo game, or one against computers) and the game is not rated: elsewhere it would
be help from outside, and a rating won with the expert's moves would be the expert's (docs/ratings.md)."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from coach import judge
from games import bots, i18n
from games.errors import Conflict, Forbidden, InvalidAction, NotFound
from games.models import Game
from infra.hooks import Hook

REFUSED = _("Hints are only for solo games and games against the computer: another person is at this table.")
RATED = _("No hints in a rated game: its rating is for your own play. Start an unrated table for hints.")


def rated(game: Game) -> bool:
    """Whether the game's end changes ratings (a solo game's never does)."""
    return game.rated and not game.is_solo


# Games in which no hint is given although nobody else sits at the table (the daily challenge: a contest
# of each player's own play, graded by the coach afterwards).
refuse_hints = Hook(
    "coach.hints.refuse_hints",
    "Why no hint is given in a game although nobody else sits at it.",
    receives="the `Game`",
    returns="why not (a sentence), or None; the first answer refuses",
    runs="outside any move: on the game's page and on every ask for a hint",
)


def refusal(game: Game) -> Any:
    """Why no hint is given in ``game`` although nobody else sits at it, or None."""
    return refuse_hints.first(game)


def offered(seats, user) -> bool:
    """Whether the game page offers the button: the user sits at the table, every other seat is a
    computer's, the game is not rated and no app refuses hints in it (the server checks again on every
    ask). ``seats``: the game's seats, as its ``seats`` manager reads them (each knows its game)."""
    mine = [s for s in seats if s.user_id == user.pk]
    if not mine or not all(s.user.computer for s in seats if s.user_id != user.pk):
        return False
    return not rated(mine[0].game) and refusal(mine[0].game) is None


def hint_situation(*, game_id: int, user) -> tuple[str, dict, dict, int]:
    """The (kind, state, options, seq) a hint is asked for, after every check; raises a GameError."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no such game."))
    seats = list(game.seats.select_related("user"))
    if not any(s.user_id == user.pk for s in seats):
        raise Forbidden(_("Only a player at the table can ask for a hint."))
    if not all(s.user.computer for s in seats if s.user_id != user.pk):
        raise Forbidden(REFUSED)
    if rated(game):
        raise Forbidden(RATED)
    if (why := refusal(game)) is not None:
        raise Forbidden(why)
    if game.status != Game.Status.PLAYING or not game.state:
        raise Conflict(_("This game is not being played."), "not_playing")
    if game.engine.current_player(game.state) != user.username:
        raise InvalidAction(_("It is not your turn: a hint is for your own decision."))
    return game.kind, game.state, game.options, game.seq


def hint_frame(kind: str, state: dict, options: dict, seq: int, language: str = "en") -> dict:
    """The hint as the socket sends it (docs/protocol.md), its text in the asker's ``language``: pure
    computation, run off the event loop."""
    stake = bots.stake(kind, state)
    best = stake.best
    with translation.override(language):
        text = i18n.render([judge.said(kind, state, best.action)])
    return {
        "type": "hint",
        "seq": seq,
        "action": best.action,
        "text": text,
        "value": round(best.value * (100 if stake.measure == "win" else 1), 1),
        "measure": stake.measure,
        "decision": bots.decision(kind, state),
    }
