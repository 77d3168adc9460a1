"""The records a move passes between its decision, its SQL and its event (games.live.moves decides it):
plain data, so that the modules that read them need not import the move itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.models import Game


@dataclass(frozen=True, slots=True)
class Known:
    """A game's state as of one row: the game (its id and its creation, which a reused id does not
    share) and its seq. A move given it reads the row without the state when they still match
    (games.live.move_sql); the engines never change a state they are given, so it can be shared.

    With the whole row (``row``, the model's fields), its version (PostgreSQL's xmin as the move that
    wrote it committed) and the seats of the players who have moved (user pk: seat pk, position), a
    move of one of them is decided on the row as held and written in one round trip, on condition that
    the row is still that version (move_sql "known"); when it is not, the move is made the long way."""

    created_at: Any
    seq: int
    state: dict
    row: tuple | None = None
    version: str | None = None
    seats: dict = field(default_factory=dict)

    def mover(self, user) -> Mover | None:
        """The seat of ``user`` if a move of theirs may be made on this row as held."""
        seat = self.seats.get(user.pk) if self.version is not None else None
        return None if seat is None else Mover(pk=seat[0], user=user, position=seat[1])

    def seating(self, game: Game, seat: Mover) -> dict:
        """The seats known after ``seat`` has moved in ``game`` (the same dict when nothing is new)."""
        if self.created_at != game.created_at:
            return {seat.user.pk: (seat.pk, seat.position)}
        if self.seats.get(seat.user.pk) == (seat.pk, seat.position):
            return self.seats
        return {**self.seats, seat.user.pk: (seat.pk, seat.position)}


@dataclass(frozen=True, slots=True)
class Mover:
    """The mover's seat as a move needs it. Not a ``Seat``: a Django model's ``__init__`` checks every
    foreign key it is given, and with the ``Action`` below that was about 27 us of every move, more
    than the rules of most moves (docs/BENCHMARKS.md)."""

    pk: int
    user: Any
    position: int


@dataclass(frozen=True, slots=True)
class Logged:
    """The action being stored, with the attributes of an ``Action`` that the event and the INSERT read
    (games.live.selectors.log_entry, games.live.move_sql.write_params)."""

    game: Game
    seq: int
    seat: Mover
    action: dict
    dice: list
    result: dict
    created_at: Any
    client_id: str = ""
