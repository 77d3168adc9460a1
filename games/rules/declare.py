"""What an engine declares about its game for the rest of the site (docs/engine.md, "Declarations").

Pure data and small pure functions: the site asks an engine for its options, how its results rank and
how a set of options reads, instead of knowing any game by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .messages import gettext_noop


@dataclass(frozen=True)
class Option:
    """One option of ``new_game``: its choices as (value, label) pairs and its default value.

    ``separates_results``: finished games with different values are not compared (own high-score lists
    and statistics), as Farkle's goal. ``text`` shows a chosen value ("Goal {value}", "{value} dice").
    ``names_game``: the game's name with a chosen value ("Farkle ({value})"), for an option that tells
    games apart by name; empty for one that does not.
    """

    name: str
    label: str
    choices: tuple[tuple[int, str], ...]
    default: int
    text: str
    separates_results: bool = False
    names_game: str = ""

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(value for value, _ in self.choices)

    def parse(self, raw: Any) -> int | None:
        """``raw`` (a query-string value, say) as one of the choices, else None."""
        try:
            value = int(raw)
        except (TypeError, ValueError):
            return None
        return value if value in self.values else None


@dataclass(frozen=True)
class Ranking:
    """How finished seats rank: ``order`` is over the seat's fields ``final_score`` and ``laps``, a
    leading ``-`` meaning higher is better. ``winners_only``: only winning seats are ranked."""

    order: tuple[str, ...]
    winners_only: bool
    text: str

    @property
    def uses_laps(self) -> bool:
        return any(key.lstrip("-") == "laps" for key in self.order)

    def key(self, figures: Mapping[str, int]) -> tuple[int, ...]:
        """A sort key for one seat's ``figures`` (its ``final_score`` and ``laps``): lower ranks first."""
        return tuple(-figures[k[1:]] if k.startswith("-") else figures[k] for k in self.order)


BY_SCORE = Ranking(order=("-final_score",), winners_only=False, text=gettext_noop("Ranked by final total."))


def full_options(engine: Any, options: Mapping[str, Any] | None) -> dict[str, int]:
    """Every declared option of ``engine`` with its value in ``options`` or its default."""
    options = options or {}
    return {o.name: options.get(o.name, o.default) for o in engine.options}


def separating_option(engine: Any) -> Option | None:
    """The option whose values keep results apart (Farkle's goal), if the engine has one."""
    return next((o for o in engine.options if o.separates_results), None)


def option_text(engine: Any, options: Mapping[str, Any] | None, say: Any = str, show: Any = None) -> str:
    """The chosen options as a player reads them: "Goal 3000 · 6 dice"; "" for a game without options.
    ``say`` translates each option's text and ``show`` writes each value (the site passes gettext, and
    leaves the values as they are: a goal names the game, "Ziel 3000" as "Farkle (3000)")."""
    chosen = full_options(engine, options)
    shown = show or (lambda value: value)
    return " · ".join(say(o.text).format(value=shown(chosen[o.name])) for o in engine.options)


def family_name(engine: Any) -> str:
    """The game's name without the option that names it ("Farkle" for "Farkle ({value})"), for a list
    of games beside which that option is chosen apart ("Goal 3000"); the engine's name otherwise."""
    for o in engine.options:
        if o.names_game:
            return o.names_game.split("{value}")[0].rstrip(" (").strip() or engine.name
    return engine.name


def game_name(engine: Any, options: Mapping[str, Any] | None) -> str:
    """A game's name with its options: "Farkle (3000)" for a goal of 3000; the engine's name for a game
    whose options do not change it."""
    chosen = full_options(engine, options)
    for o in engine.options:
        if o.names_game:
            return o.names_game.format(value=chosen[o.name])
    return engine.name
