"""The fair-play screen: who plays the expert's choices far more often than the players at their rating.

The pure core (``screen``) compares each person's judged decisions at one game (coach.judge: the share
that cost nothing, the mean accuracy) with the other people of the same rating band at that game, by a
robust z-score (median and median absolute deviation, which a few cheaters in a band do not move). It
only lists: staff read the list (/safety/screening/) and decide; nothing here acts on anyone. The
benchmark (bench/screening.py) runs the same ``screen`` on seeded games (docs/safety.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from statistics import median

# Enough decisions to tell a habit from luck: about six Quintzee games or twenty Farkle games to 3000.
MIN_DECISIONS = 200
MIN_GAMES = 5  # "over many games": a few long games are not enough
BAND_WIDTH = 200  # rating points (the figure players read) per band
MIN_BAND = 20  # a band with fewer screened people is compared with the game's whole population
# 1.4826 x the median absolute deviation estimates a normal spread; the floors keep a band of players
# who all play alike (computers, a small band) from calling a small difference far.
MAD_SCALE = 1.4826
SHARE_FLOOR = 0.02
ACCURACY_FLOOR = 1.0
# Listed when both the share and the accuracy are this many spreads above the band's median (chosen
# by bench/screening.py: docs/benchmarks/screening.md).
THRESHOLD = 4.0


@dataclass(frozen=True)
class Record:
    """One person's judged decisions at one game in the window: ``best`` of ``decisions`` cost
    nothing; ``accuracy_sum`` is the sum of the decisions' accuracies; ``rating`` their rating at the
    game (None: not rated yet)."""

    player: str
    kind: str
    rating: int | None
    games: int
    decisions: int
    best: int
    accuracy_sum: float

    @property
    def share(self) -> float:
        return self.best / self.decisions if self.decisions else 0.0

    @property
    def accuracy(self) -> float:
        return self.accuracy_sum / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Screened:
    """A screened record against its population: ``band`` (its lower bound; None when compared with
    the game's whole population), ``population`` (how many), the population's medians, the z-scores,
    and whether the screen lists the person."""

    record: Record
    band: int | None
    population: int
    share_median: float
    accuracy_median: float
    share_z: float
    accuracy_z: float
    listed: bool


def band_of(rating: int | None) -> int | None:
    return None if rating is None else rating // BAND_WIDTH * BAND_WIDTH


def eligible(record: Record, min_decisions: int = MIN_DECISIONS) -> bool:
    return record.decisions >= min_decisions and record.games >= MIN_GAMES


def _robust_z(value: float, values: list[float], floor: float) -> tuple[float, float]:
    centre = median(values)
    spread = max(MAD_SCALE * median(abs(v - centre) for v in values), floor)
    return centre, (value - centre) / spread


def screen(
    records: Iterable[Record], *, min_decisions: int = MIN_DECISIONS, threshold: float = THRESHOLD
) -> list[Screened]:
    """Every eligible record against its band's (or, in a band of fewer than MIN_BAND, its game's)
    eligible records, the farthest first. A game with fewer than MIN_BAND eligible people is not
    screened: there is no distribution to be far from."""
    by_kind: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        if eligible(record, min_decisions):
            by_kind[record.kind].append(record)
    out = []
    for kind_records in by_kind.values():
        if len(kind_records) < MIN_BAND:
            continue
        bands: dict[int | None, list[Record]] = defaultdict(list)
        for record in kind_records:
            bands[band_of(record.rating)].append(record)
        for record in kind_records:
            band = band_of(record.rating)
            population = bands[band] if band is not None and len(bands[band]) >= MIN_BAND else kind_records
            shares = [r.share for r in population]
            accuracies = [r.accuracy for r in population]
            share_median, share_z = _robust_z(record.share, shares, SHARE_FLOOR)
            accuracy_median, accuracy_z = _robust_z(record.accuracy, accuracies, ACCURACY_FLOOR)
            out.append(
                Screened(
                    record=record,
                    band=band if population is not kind_records else None,
                    population=len(population),
                    share_median=share_median,
                    accuracy_median=accuracy_median,
                    share_z=share_z,
                    accuracy_z=accuracy_z,
                    listed=min(share_z, accuracy_z) >= threshold,
                )
            )
    out.sort(key=lambda s: (-min(s.share_z, s.accuracy_z), s.record.player, s.record.kind))
    return out


def relisted(screened: list[Screened], threshold: float) -> list[Screened]:
    """The same figures listed at another threshold (the benchmark's table of thresholds)."""
    return [replace(s, listed=min(s.share_z, s.accuracy_z) >= threshold) for s in screened]
