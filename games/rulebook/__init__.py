"""The rules pages: each game's template and its worked examples, every number valued or played by the
engine.

A game's rules page is part of its declaration (games/declaration.py): the four shipped games have a
module each here (``farkle``, ``painted_dicez``, ``triple_quintzee``, ``triple_yahtzee_99``), which their
engines name (``RULEBOOK``); any other game gets the page ``generic`` makes from what its engine declares.
A ``Rulebook``'s ``build()`` returns plain data (dicts and lists) that its template just loops over; the
engines are pure, so each game's examples are built once per process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from games import rules
from games.declaration import declaration


@dataclass(frozen=True, eq=False)
class Rulebook:
    """A game's rules page: its template, and the worked examples (``build()``) it is rendered with."""

    template: str
    build: Callable[[], dict]


def rulebook(slug: str) -> Rulebook:
    """The rules page of the game ``slug`` (KeyError for an unknown slug)."""
    return declaration(slug).rulebook


def template(slug: str) -> str:
    return rulebook(slug).template


def examples(slug: str) -> dict:
    """Every worked example of a game's rules page (KeyError for an unknown slug).

    The result is shared between requests: treat it as read-only.
    """
    return _examples(rulebook(slug))


@lru_cache(maxsize=32)
def _examples(book: Rulebook) -> dict:
    return book.build()


class _Builders(Mapping[str, Callable[[], dict]]):
    """Every offered game's ``build``, by slug: the rules pages there are (a view of ``rules.ENGINES``)."""

    def __getitem__(self, slug: str) -> Callable[[], dict]:
        return rulebook(slug).build

    def __iter__(self) -> Iterator[str]:
        return iter(rules.ENGINES)

    def __len__(self) -> int:
        return len(rules.ENGINES)


BUILDERS = _Builders()
