"""Dice arithmetic shared by the engines: counting faces, straights, sums, re-rolls.

Only logic that is really the same in several games lives here; each game's own
scoring stays in its module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .errors import refused

Dice = Callable[[int], list]

FACES = (1, 2, 3, 4, 5, 6)


def counts(faces: Iterable[int]) -> Counter[int]:
    """How many dice show each face."""
    return Counter(faces)


def most_of_a_kind(faces: Sequence[int]) -> int:
    """The size of the largest group of equal faces (0 for no dice)."""
    c = counts(faces)
    return max(c.values()) if c else 0


def is_five_of_a_kind(faces: Sequence[int]) -> bool:
    return len(faces) == 5 and len(set(faces)) == 1


def sum_of_face(faces: Iterable[int], face: int) -> int:
    return sum(f for f in faces if f == face)


def contains_run(faces: Iterable[int], run: Iterable[int]) -> bool:
    """Whether every face of ``run`` shows on at least one die."""
    return set(run) <= set(faces)


def is_full_house(faces: Sequence[int]) -> bool:
    """Exactly three of one face and two of another (five of a kind is not one)."""
    return sorted(counts(faces).values()) == [2, 3]


def check_indices(indices: Any, n: int) -> list[int]:
    """Validate a client's list of dice indices into ``n`` dice; return it sorted.

    Raises IllegalAction for anything but a list of distinct ints in 0..n-1.
    """
    if not isinstance(indices, list):
        raise refused("dice.not_list")
    seen: set[int] = set()
    for i in indices:
        # bool is an int subclass; True must not pass for die 1.
        if not isinstance(i, int) or isinstance(i, bool):
            raise refused("dice.not_whole")
        if not 0 <= i < n:
            raise refused("dice.no_position", index=i, last=n - 1)
        if i in seen:
            raise refused("dice.twice", index=i)
        seen.add(i)
    return sorted(seen)


def reroll(current: list, hold: list[int], dice: Dice) -> list:
    """Keep the dice at the ``hold`` indices and roll fresh ones for the rest, in place order.

    ``dice`` is called exactly once, with the number of dice rolled (never with 0).
    """
    free = [i for i in range(len(current)) if i not in hold]
    if not free:
        raise refused("dice.hold_all")
    fresh = list(dice(len(free)))
    if len(fresh) != len(free):
        raise RuntimeError("the dice source returned the wrong number of dice")
    out = list(current)
    for i, value in zip(free, fresh, strict=True):
        out[i] = value
    return out


COLOURS = ("blue", "red", "pink", "green", "yellow")


def shown(dice: Sequence, indices: Iterable[int]) -> str:
    """The dice at ``indices`` as a page writes them: "5 5 1", a painted die with its colour's initial
    ("5B")."""
    return " ".join(_shown(dice[i]) for i in indices)


def _shown(die: Any) -> str:
    return f"{die[0]}{str(die[1])[:1].upper()}" if isinstance(die, list | tuple) else str(die)


def make_dice(rng: Any, painted: bool = False) -> Dice:
    """A ``dice(n)`` source drawing from ``rng`` (a random.Random or secrets.SystemRandom).

    Painted DiceZ dice are ``[face, colour]`` pairs; every other game's are faces.
    """

    def dice(n: int) -> list:
        if painted:
            return [[rng.randint(1, 6), rng.choice(COLOURS)] for _ in range(n)]
        return [rng.randint(1, 6) for _ in range(n)]

    return dice
