"""Every sentence the engines say, as a code with parameters: the site turns a code into a sentence in
its reader's language (games/i18n.py, static/js/game/messages.js); ``english`` gives the engines'
own English, which ``str(IllegalAction)`` and each event's ``text`` keep.

A message is ``{"code": ..., "params": {...}}``; an event's ``msg`` is a list of them, read one after
the other. A parameter is an int (a number), a string (shown as it is, but a ``label`` or ``colour``
is one of the words below and is translated), a list of strings (names, joined with "and"), a list of
``[face, colour]`` pairs (painted dice) or a message of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Message = dict[str, Any]


def gettext_noop(message: str) -> str:
    """Marks a sentence for the site's catalogue (makemessages looks for this name); translates nothing."""
    return message


def ngettext_lazy(singular: str, plural: str, count: str) -> tuple[str, str, str]:
    """A sentence with a plural, chosen later by the parameter ``count`` names (as with Django's
    ngettext_lazy, the name makemessages looks for)."""
    return singular, plural, count


# code -> English template, or (singular, plural, the parameter that chooses between them).
MESSAGES: dict[str, str | tuple[str, str, str]] = {
    # --- refusals (IllegalAction) ---
    "players.list": gettext_noop("The players must be a list of player ids."),
    "players.count": gettext_noop("%(game)s is for %(min)s to %(max)s players."),
    "players.empty_id": gettext_noop("Every player id must be a non-empty string."),
    "players.twice": gettext_noop("A player can take only one seat."),
    "options.mapping": gettext_noop("The options must be a mapping."),
    "options.unknown": gettext_noop("%(game)s has no option %(option)s; the options are %(names)s."),
    "options.none": gettext_noop("%(game)s has no option %(option)s; it takes no options."),
    "options.goal": gettext_noop("The goal must be 10000, 5000 or 3000 points."),
    "options.dice": gettext_noop("Farkle is played with 6 or 5 dice."),
    "game.wrong": gettext_noop("This is not a %(game)s game."),
    "game.over": gettext_noop("The game is over."),
    "game.not_seated": gettext_noop("You are not playing in this game."),
    "turn.not_yours": gettext_noop("It is not your turn."),
    "action.not_object": gettext_noop("An action must be an object with a type."),
    "action.unknown": gettext_noop("%(game)s has no action %(action)s; the actions are %(names)s."),
    "action.unknown_shape": gettext_noop("%(game)s has no action; the actions are %(names)s."),
    "action.extra_field": gettext_noop("A %(action)s action has no field %(field)s."),
    "resign.again": gettext_noop("You have already resigned."),
    "skip.resigned": gettext_noop("You have resigned, so you cannot skip a turn."),
    "skip.own": gettext_noop("You cannot skip your own turn."),
    "dice.not_list": gettext_noop("The die positions must be a list."),
    "dice.not_whole": gettext_noop("Die positions must be whole numbers."),
    "dice.no_position": gettext_noop(
        "There is no die at position %(index)s; positions run from 0 to %(last)s."
    ),
    "dice.twice": gettext_noop("The die at position %(index)s is named twice."),
    "dice.hold_all": gettext_noop("You held every die; release at least one to roll."),
    "farkle.bank_first": gettext_noop("Roll the dice before you bank."),
    "farkle.keep_first": gettext_noop("Nothing can be set aside before the first roll of a turn."),
    "farkle.keep_none": gettext_noop("Set aside at least one scoring die."),
    "farkle.no_score": gettext_noop("Those dice do not score: %(dice)s. Every die set aside must count."),
    "farkle.confirm": gettext_noop(
        "All your dice have scored: roll them all again to confirm before you bank."
    ),
    "farkle.minimum": gettext_noop("You need at least %(minimum)s points to bank; this turn has %(points)s."),
    "card.rolls_used": gettext_noop("You have used all three rolls; choose a box."),
    "card.hold_first": gettext_noop("Roll the dice first; there are no dice to hold yet."),
    "card.roll_first": gettext_noop("Roll the dice first."),
    "card.no_box": gettext_noop("There is no box called %(box)s in %(game)s."),
    "card.choose_column": gettext_noop("Choose a column: 1, 2 or 3."),
    "card.no_column": gettext_noop("There is no column %(column)s; the columns are 1, 2 and 3."),
    "card.filled": gettext_noop("%(label)s is already filled."),
    "card.filled_column": gettext_noop("%(label)s in column %(column)s is already filled."),
    "card.row_full": gettext_noop("All three %(label)s boxes are filled."),
    "yahtzee.bonus_closed": gettext_noop(
        "The Yahtzee Bonus opens only once all three Yahtzee boxes are filled."
    ),
    "yahtzee.bonus_full": gettext_noop("All three Yahtzee Bonus boxes are filled."),
    "yahtzee.bonus_five": gettext_noop("The Yahtzee Bonus takes only a five of a kind."),
    # --- events (last_event.msg) ---
    "rolled": gettext_noop("%(player)s rolled %(dice)s."),
    "resigned": gettext_noop("%(player)s resigned."),
    "farkle.kept": gettext_noop(
        "%(player)s set aside %(kept)s for %(value)s (turn: %(turn)s) and rolled %(dice)s."
    ),
    "farkle.hot_dice": gettext_noop(
        "%(player)s set aside %(kept)s for %(value)s (turn: %(turn)s): hot dice! "
        "%(player)s rolled all %(count)s dice again: %(dice)s."
    ),
    "farkle.farkle": gettext_noop("Farkle!"),
    "farkle.farkle_lost": gettext_noop("Farkle! %(points)s points lost."),
    "farkle.banked": gettext_noop(
        "%(player)s set aside %(kept)s for %(value)s and banked %(points)s (total: %(total)s)."
    ),
    "farkle.goal": gettext_noop("%(player)s reached the goal of %(goal)s."),
    "farkle.skipped": gettext_noop("%(by)s skipped %(player)s's turn."),
    "farkle.skipped_lost": gettext_noop("%(by)s skipped %(player)s's turn; %(points)s points lost."),
    "card.held": ngettext_lazy(
        "%(player)s held %(count)s die and rolled again: %(dice)s (roll %(roll)s of %(rolls)s).",
        "%(player)s held %(count)s dice and rolled again: %(dice)s (roll %(roll)s of %(rolls)s).",
        "count",
    ),
    "card.rerolled": gettext_noop(
        "%(player)s rolled all five dice again: %(dice)s (roll %(roll)s of %(rolls)s)."
    ),
    "card.scored": gettext_noop("%(player)s scored %(points)s in %(label)s."),
    "card.scored_column": gettext_noop("%(player)s scored %(points)s in %(label)s, column %(column)s."),
    "card.skipped": gettext_noop("%(by)s skipped %(player)s's turn; %(label)s is scratched."),
    "card.skipped_column": gettext_noop(
        "%(by)s skipped %(player)s's turn; %(label)s, column %(column)s is scratched."
    ),
    "quintzee.right_most": gettext_noop("It goes to column %(column)s, the right-most empty %(label)s box."),
    "quintzee.bonus": gettext_noop("Quintzee bonus: %(points)s more in column %(column)s."),
    "yahtzee.bonus_column": gettext_noop("It goes to column %(column)s, the next Yahtzee Bonus box."),
    "yahtzee.wasted": gettext_noop("%(player)s wasted the turn: %(label)s, column %(column)s."),
    "yahtzee.upgraded": gettext_noop("Column %(column)s is upgraded to %(multiplier)sx."),
    "yahtzee.blocked": gettext_noop(
        "Column %(column)s meets the upgrade minimums before column %(previous)s upgraded, "
        "so it can never upgrade."
    ),
    "over.nobody": gettext_noop("The game is over with no winner."),
    "over.winner": gettext_noop("The game is over: %(winner)s wins."),
    "over.shared": gettext_noop("The game is over: %(winners)s share the win."),
    "over.winner_laps": ngettext_lazy(
        "The game is over: %(winner)s wins after %(laps)s lap.",
        "The game is over: %(winner)s wins after %(laps)s laps.",
        "laps",
    ),
    "over.solo": gettext_noop("The game is over: %(player)s finished with %(points)s points."),
    "over.solo_laps": ngettext_lazy(
        "The game is over: %(player)s reached the goal with %(points)s points after %(laps)s lap.",
        "The game is over: %(player)s reached the goal with %(points)s points after %(laps)s laps.",
        "laps",
    ),
    "over.shared_laps": ngettext_lazy(
        "The game is over: %(winners)s share the win after %(laps)s lap.",
        "The game is over: %(winners)s share the win after %(laps)s laps.",
        "laps",
    ),
    # --- the coach's words for a move (coach.judge): a hint, a review's decisions ---
    "coach.roll": gettext_noop("roll the dice"),
    "coach.farkle.bank": gettext_noop("set aside %(dice)s and bank %(points)s"),
    "coach.farkle.roll": ngettext_lazy(
        "set aside %(dice)s and roll %(left)s die (%(points)s so far)",
        "set aside %(dice)s and roll %(left)s dice (%(points)s so far)",
        "left",
    ),
    "coach.farkle.roll_all": gettext_noop(
        "set aside %(dice)s and roll all %(count)s dice again (%(points)s so far)"
    ),
    "coach.card.hold": gettext_noop("hold %(dice)s and roll"),
    "coach.card.reroll": gettext_noop("roll all the dice again"),
    "coach.card.score": gettext_noop("score %(label)s (+%(gain)s)"),
    "coach.card.score_column": gettext_noop("score %(label)s in column %(column)s (+%(gain)s)"),
    "coach.action": gettext_noop("play %(action)s"),
    # --- pieces of sentences ---
    "list.and": gettext_noop("%(first)s and %(last)s"),
    "die.painted": gettext_noop("%(colour)s %(face)s"),
}

# Parameters whose value is one of these English words, translated by the site.
WORDS = (
    gettext_noop("blue"),
    gettext_noop("red"),
    gettext_noop("pink"),
    gettext_noop("green"),
    gettext_noop("yellow"),
)
TRANSLATED = frozenset({"label", "colour"})
# Parameters whose number names a game's variant (Farkle's goal: "Farkle (3000)"): written in plain
# digits in every language, as the game's name writes it, where other numbers are grouped as their
# reader groups them (10.350 in German).
NAMING = frozenset({"goal"})


def msg(code: str, **params: Any) -> Message:
    if code not in MESSAGES:
        raise KeyError(f"no message {code!r}")
    return {"code": code, "params": params}


def template(code: str, count: int | None = None) -> str:
    entry = MESSAGES[code]
    if isinstance(entry, str):
        return entry
    singular, plural, _ = entry
    return singular if count == 1 else plural


def count_of(code: str, params: Mapping[str, Any]) -> int | None:
    entry = MESSAGES[code]
    return None if isinstance(entry, str) else params[entry[2]]


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return template("list.and") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def _value(value: Any) -> Any:
    if isinstance(value, dict):
        return english([value])
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            return ", ".join(template("die.painted") % {"colour": c, "face": f} for f, c in value)
        return _join([str(v) for v in value])
    return value


def english(parts: Iterable[Message]) -> str:
    """The engines' own English for a list of messages."""
    out = []
    for part in parts:
        params = part["params"]
        out.append(
            template(part["code"], count_of(part["code"], params)) % {k: _value(v) for k, v in params.items()}
        )
    return " ".join(out)
