"""What a rating is kept per: a game and, for a game with a separating option (Farkle's goal), one
value of it. A Farkle game to 3000 is a shorter, luckier game than one to 10,000, so a player has a
rating for each, as the high-score lists and the statistics keep them apart (games.catalogue).

The key is the game's slug, then ``:`` and the option's value when there is one: "farkle:10000",
"triple-quintzee".
"""

from __future__ import annotations

from collections.abc import Mapping

from games import catalogue
from games.catalogue import GameKind


def key(slug: str, options: Mapping | None) -> str:
    """The rating kind of a game of ``slug`` with ``options`` (a separating option left out: its
    default, as games store every option in full)."""
    kind = catalogue.resolve(slug)
    option = kind.separating
    if option is None:
        return slug
    return f"{slug}:{(options or {}).get(option.name, option.default)}"


def of(game) -> str:
    return key(game.kind, game.options)


def variant_key(kind: GameKind, variant: int | None) -> str:
    """The key of one list of results (a GameKind and its separating option's value, as the pages'
    ``goal`` parameter gives them)."""
    return kind.slug if variant is None else f"{kind.slug}:{variant}"


def split(key_: str) -> tuple[GameKind, int | None]:
    """The GameKind and the separating option's value of a key (KeyError for an unknown game)."""
    slug, _, variant = key_.partition(":")
    return catalogue.resolve(slug), int(variant) if variant else None


def name(key_: str) -> str:
    """The kind as players read it: "Farkle (3000)"."""
    kind, variant = split(key_)
    return kind.display_name(variant)


def every() -> list[str]:
    """Every rating kind the site has, in the engines' order."""
    return [variant_key(kind, variant) for kind in catalogue.kinds() for variant in kind.variants()]
