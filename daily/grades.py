"""A daily game's grade: a letter for the coach's accuracy (docs/coach.md), so that a result can be shared
in one word. Pure: no Django."""

from __future__ import annotations

# The least accuracy (per cent) of each letter, best first. The coach's accuracy is the mean of each
# decision's 100 % * exp(-cost / (T / 4)), T the expected points of one turn played well: a decision
# that gives away a twentieth of a turn keeps 82 %, a tenth 67 %, a quarter 37 %. An A (90 %) is a game
# whose decisions each gave away, roughly, less than a fortieth of a turn.
GRADES: tuple[tuple[float, str], ...] = (
    (90.0, "A"),
    (80.0, "B"),
    (70.0, "C"),
    (60.0, "D"),
    (float("-inf"), "E"),
)


def letter(accuracy: float | None) -> str | None:
    """The grade of a game's accuracy (0 to 100); None when there is none (no decision to judge)."""
    if accuracy is None:
        return None
    return next(grade for least, grade in GRADES if accuracy >= least)
