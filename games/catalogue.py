"""The four games as the site presents them: engine names plus a one-line pitch each."""

from __future__ import annotations

from dataclasses import dataclass

from games import rules

PITCHES = {
    "triple-quintzee": "Three columns worth 1x, 2x and 3x: 39 boxes to fill; big scores belong on the right.",
    "triple-yahtzee-99": "Triple Yahtzee with Xtra Ones, jokers and columns that upgrade to 2x, 3x and 5x.",
    "painted-dicez": "Every die has a colour too: flushes, rainbows and painted houses on a 20-box card.",
    "farkle": "Six dice, push your luck: bank 300 or more, confirm hot dice, reach the goal in fewest laps.",
}


@dataclass(frozen=True)
class GameKind:
    slug: str
    name: str
    pitch: str
    min_players: int
    max_players: int


KINDS: tuple[GameKind, ...] = tuple(
    GameKind(slug, engine.name, PITCHES[slug], engine.min_players, engine.max_players)
    for slug, engine in rules.ENGINES.items()
)
BY_SLUG = {kind.slug: kind for kind in KINDS}
