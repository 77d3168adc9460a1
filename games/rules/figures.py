"""Per-seat figures of a finished game and the statistics built from them (docs/engine.md).

An engine's ``figures`` turns one finished seat into a small JSON summary, stored on the seat when the
game ends, and turns many stored summaries into the figures of a player's statistics page and API. The
card games share one layout, parameterised by what differs (bonuses, five of a kind, columns); Farkle
has its own (farkle_figures).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from statistics import fmean
from typing import Any, NamedTuple

from .messages import gettext_noop


class Figure(NamedTuple):
    """One figure of a statistics page: ``key`` names it in the JSON; ``shown`` is "count", "rate"
    (a share, shown as a percentage) or "optional" (a dash while there is none)."""

    label: str
    key: str
    value: Any
    shown: str = "count"


class Table(NamedTuple):
    """A table of figures: one row per label, one value per column."""

    caption: str
    columns: list[str]
    rows: list[tuple[str, list]]


def rate(part: float, whole: float) -> float | None:
    return round(part / whole, 4) if whole else None


def average(total: float, n: int) -> float | None:
    return round(total / n, 2) if n else None


@dataclass(frozen=True)
class CardFigures:
    """Box values, bonuses, five of a kind, scratches (and upgrades) of a card game's seats.

    ``columns``: (1, 2, 3) for the triple games, whose boxes are keyed "column:box"; () for one column.
    ``bonuses(card)``: one flag per bonus slot; ``five_kinds(card)``: the card's five of a kinds;
    ``upgrades(card)``: upgraded columns, for a game that has them.
    """

    boxes: tuple[str, ...]
    labels: Mapping[str, str]
    five_label: str
    bonus_labels: tuple[str, ...]
    columns: tuple[int, ...]
    bonuses: Callable[[dict], list[bool]]
    five_kinds: Callable[[dict], int]
    upgrades: Callable[[dict], int] | None = None
    section = "card"
    needs_log = False

    def summary(self, state: dict, player: str, events: Iterable[dict] = ()) -> dict:
        card = state["cards"][player]
        boxes: dict[str, int] = {}
        for key, where, box in self._cells(card):
            if where.get(box) is not None:
                boxes[key] = where[box]
        return {
            "boxes": boxes,
            "bonuses": self.bonuses(card),
            "five_kinds": self.five_kinds(card),
            "scratches": sum(1 for v in boxes.values() if v == 0),
            "upgrades": self.upgrades(card) if self.upgrades else 0,
            # The last one standing may win with a card not yet full: such a result enters no list.
            "complete": card["complete"],
        }

    def _cells(self, card: dict):
        if not self.columns:
            return [(box, card["boxes"], box) for box in self.boxes]
        return [
            (f"{col['column']}:{box}", col["boxes"], box) for col in card["columns"] for box in self.boxes
        ]

    def stats(self, rows: list[dict]) -> dict:
        """The figures of many finished seats (rows with "summary")."""
        summaries = [r["summary"] for r in rows]
        n = len(summaries)
        sums: dict[str, float] = defaultdict(float)
        counts: dict[str, int] = defaultdict(int)
        filled = scratches = 0
        for s in summaries:
            for key, value in s["boxes"].items():
                sums[key] += value
                counts[key] += 1
            filled += len(s["boxes"])
            scratches += s["scratches"]
        bonus_rate = [
            rate(sum(1 for s in summaries if s["bonuses"][i]), n) for i in range(len(self.bonus_labels))
        ]
        return {
            "bonus_rate": bonus_rate,
            "five_kinds": sum(s["five_kinds"] for s in summaries),
            "average_per_box": self._averages(sums, counts),
            "scratch_rate": rate(scratches, filled),
            "upgrades": sum(s.get("upgrades", 0) for s in summaries) if self.upgrades else None,
        }

    def _averages(self, sums: dict, counts: dict) -> dict:
        if not self.columns:
            return {b: average(sums[b], counts[b]) for b in self.boxes}
        return {b: [average(sums[f"{c}:{b}"], counts[f"{c}:{b}"]) for c in self.columns] for b in self.boxes}

    def shown(self, stats: dict) -> list[Figure]:
        """The figures of ``stats`` as a statistics page lists them."""
        figures = [
            Figure(self.five_label, "five_kinds", stats["five_kinds"]),
            Figure(gettext_noop("Scratch rate"), "scratch_rate", stats["scratch_rate"], "rate"),
        ]
        for i, (label, value) in enumerate(zip(self.bonus_labels, stats["bonus_rate"], strict=True), 1):
            figures.append(Figure(label, f"bonus_{i}", value, "rate"))
        if stats["upgrades"] is not None:
            figures.append(Figure(gettext_noop("Column upgrades"), "upgrades", stats["upgrades"]))
        return figures

    def tables(self, stats: dict) -> list[Table]:
        """The average per box, in card order, one column per card column."""
        averages = stats["average_per_box"]
        rows = [(self.labels[b], averages[b] if self.columns else [averages[b]]) for b in self.boxes]
        columns = [f"Column {c}" for c in self.columns] or [gettext_noop("Average")]
        return [Table(gettext_noop("Average per box"), columns, rows)]


def column_bonuses(key: str) -> Callable[[dict], list[bool]]:
    """One bonus slot per column of a triple card, earned when ``key`` is above zero."""
    return lambda card: [col[key] > 0 for col in card["columns"]]


def mean_or_none(values: list[float], digits: int) -> float | None:
    return round(fmean(values), digits) if values else None
