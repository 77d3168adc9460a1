"""The games as the site presents them, read from the engines' declarations (docs/engine.md).

Pages, forms, statistics and high scores ask a GameKind what they need (name, pitch, options, how
results rank, the per-seat figures) instead of knowing any game by its slug.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from games import rules
from games.rules import declare


@dataclass(frozen=True)
class GameKind:
    engine: Any

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def family_name(self) -> str:
        """The name without the option that names the game ("Farkle"), where that option is chosen
        apart on the same page (statistics, ratings, high scores: "Goal 3000")."""
        return declare.family_name(self.engine)

    @property
    def pitch(self) -> str:
        return gettext(self.engine.pitch)

    @property
    def min_players(self) -> int:
        return self.engine.min_players

    @property
    def max_players(self) -> int:
        return self.engine.max_players

    @property
    def options(self) -> tuple[declare.Option, ...]:
        return self.engine.options

    @property
    def ranking(self) -> declare.Ranking:
        return self.engine.ranking

    @property
    def figures(self) -> Any:
        return self.engine.FIGURES

    @property
    def separating(self) -> declare.Option | None:
        """The option that keeps results apart (Farkle's goal): its own lists and statistics."""
        return declare.separating_option(self.engine)

    def variant(self, raw: Any = None) -> int | None:
        """The separating option's value from ``raw`` (a query value; its default when absent);
        None for a game without one. ValueError for a value that is not one of its choices."""
        option = self.separating
        if option is None:
            return None
        if raw in (None, ""):
            return option.default
        value = option.parse(raw)
        if value is None:
            raise ValueError(f"no such {option.name}")
        return value

    def variants(self) -> tuple[int | None, ...]:
        """One value per separate list of results: the separating option's choices, else (None,)."""
        option = self.separating
        return option.values if option is not None else (None,)

    def variant_text(self, variant: int) -> str:
        """One value of the separating option as a player reads it: "Goal 3000" (plain digits in every
        language, as the game's name writes it: games.rules.messages.NAMING)."""
        return gettext(self.separating.text).format(value=variant)

    def display_name(self, variant: int | None) -> str:
        """The name of one list of results, as its games are named: "Farkle (3000)"."""
        option = self.separating
        if option is None or variant is None:
            return self.name
        return declare.game_name(self.engine, {option.name: variant})


def kinds() -> list[GameKind]:
    """Every game the site offers, in the engines' order."""
    return [GameKind(engine) for engine in rules.ENGINES.values()]


def resolve(kind: str | GameKind) -> GameKind:
    """A GameKind for a slug (KeyError for an unknown one), or the GameKind itself."""
    return kind if isinstance(kind, GameKind) else GameKind(rules.get(kind))


def kind(slug: str) -> GameKind | None:
    engine = rules.ENGINES.get(slug)
    return GameKind(engine) if engine is not None else None
