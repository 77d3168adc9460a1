"""A move: the one function that decides it (``decide``), and the driver that runs it in a thread.

``decide`` is every rule of a move in one order: the envelope, the game locked, the mover (seat, an
earlier action with the same id, the group membership), a repeated id answered with its first outcome,
the game being played, the absence check of a skip, the engine with the dice rolled for it (once: they
are recorded and stored with the move), seq and turn clock, the resignation, the end of the game and
what it writes (every seat's score, result and summary), the event and its JSON. It is a generator
that talks to the database only by yielding a ``Batch`` of named statements (games.live.move_sql) and
receiving their rows, so that its transports differ in nothing but how they reach PostgreSQL:

- ``apply_action`` below runs it inside Django's ``transaction.atomic()`` on the calling thread (the
  services, tests, commands; the websockets on SQLite or with WS_ASYNC_MOVES off), and broadcasts with
  ``transaction.on_commit``;
- ``games.live.move_async.apply_action`` runs it on the event loop with psycopg's async connections (the
  websockets on PostgreSQL), BEGIN sent with the first batch and COMMIT with the last.

Given the game's row as the process's last move of it committed it (``Known``), a move of a player who
has moved in it before is decided on that row and written in one round trip, on condition that the row,
the seat, the membership and the action id are still as the long way would read them (move_sql
"known"); otherwise that attempt writes nothing and the long way decides the move on the row as it is,
taking the attempt's dice, which nobody saw. Both ways run the same steps (``_played``, ``_turn_write``,
``_outcome``); only what they read differs.

A ``GameError`` raised by ``decide`` rolls the transaction back: nothing is stored or broadcast.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Generator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.params import storable
from games import i18n, rules
from games.computers import PLAY_TASK
from games.computers.players import is_computer_name
from games.errors import BadRequest, Conflict, Forbidden, InvalidAction, NotFound
from games.live import broadcast, move_sql
from games.live.broadcast import encode
from games.live.dice_source import RecordingDice, give_back
from games.live.selectors import event_payload
from games.models import Game
from notices.feed import turn_message
from notices.services import turn_mail_delay

MAX_CLIENT_ID = 64


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


@dataclass(frozen=True)
class ActionOutcome:
    seq: int
    duplicate: bool
    event: dict
    text: str | None = None  # the event as the JSON text every socket receives; None for a repeated id
    notify: tuple[str, ...] = ()  # players whose lists of games changed (the turn passed)
    notice: dict | None = None  # what their notices sockets hear then (notices.feed.turn_message)
    known: Known | None = None  # the game as the move leaves it, once it has committed


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


@dataclass(frozen=True)
class Batch:
    """Named statements (games.live.move_sql) with their parameters, sent in one round trip where the
    database allows it; answered with the rows of each (None for a statement without rows).
    ``last``: the move's final writes (the async driver sends COMMIT with them). A move decided on a
    known row is one batch, both first and last; when it wrote nothing, the long way begins anew."""

    statements: list[tuple[str, list]]
    last: bool = False
    begin: bool = False  # the first of a transaction (the async driver sends BEGIN with it)


Decision = Generator[Batch, list, ActionOutcome]


# --- the decision ----------------------------------------------------------------------------------


def validate_envelope(client_id: Any, action: Any) -> None:
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= MAX_CLIENT_ID or not storable(client_id):
        raise BadRequest(_("An action needs an id: a string of 1 to %(max)s characters."), max=MAX_CLIENT_ID)
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest(_("An action must be an object with a type."))


def decide(*, game_id: int, user, client_id: Any, action: Any, known: Known | None = None) -> Decision:
    """The move of ``user`` in game ``game_id`` (see the module's docstring); ``known``: the game's
    state as the caller last saw it committed, if it holds one."""
    validate_envelope(client_id, action)
    spare: list = []
    mover = known.mover(user) if known is not None else None
    if mover is not None and action["type"] not in LONG_WAY:
        dice = RecordingDice(known.row[_KIND])
        outcome = yield from _known_move(known, mover, client_id, action, dice)
        if outcome is not None:
            return outcome
        spare = dice.rolls  # nobody saw them: the long way takes them first
    try:
        return (yield from _long_way(game_id, user, client_id, action, known, spare))
    finally:
        give_back(spare)  # what the long way did not take (a repeated id, a refusal)


def _long_way(game_id: int, user, client_id: str, action: dict, known: Known | None, spare: list) -> Decision:
    """The move decided on the game's row as read, locked, in this transaction."""
    game_rows, mover_rows = yield Batch(
        [("game", move_sql.game_params(game_id, known)), ("mover", [client_id, user.pk, user.pk, game_id])],
        begin=True,
    )
    if not game_rows:
        raise NotFound(_("There is no such game."))
    game = move_sql.row_to_game(game_rows[0], known)
    seat_pk, position, earlier_seq, is_member = mover_rows[0]
    if seat_pk is None:
        raise Forbidden(_("Spectators can watch but not play: you have no seat in this game."), "spectator")
    # The event names the player: the user we already have saves a query.
    seat = Mover(pk=seat_pk, user=user, position=position)
    if not is_member:
        raise Forbidden(_("You are no longer a member of this game's group."))
    if earlier_seq is not None:
        return (yield from _repeated(game, seat, earlier_seq))
    if game.status != Game.Status.PLAYING:
        raise Conflict(_("This game is not being played."), "not_playing")
    now = timezone.now()
    if action["type"] == "skip":
        yield from _check_absent(game, seat, now)
    logged, passed = _played(game, seat, client_id, action, RecordingDice(game.kind, spare), now)
    state = game.state
    writes: list[tuple[str, list]] = []
    if action["type"] == "resign":
        writes.append(("resign", [True, seat.pk]))
    if game.engine.is_over(state):
        writes += yield from _finish(game, state, now, logged.result)
    elif turn := _turn_write(game, state, now, passed):
        writes.append(turn)
    event = event_payload(game, logged, seat)
    state_json = encode(game.state)
    insert, update = move_sql.write_params(logged, state_json)
    answers = yield Batch([*writes, ("insert", insert), ("update", update)], last=True)
    version = answers[-1][0][0] if answers[-1] else None  # SQLite has none
    seats = known.seating(game, seat) if known is not None else {user.pk: (seat.pk, seat.position)}
    return _outcome(game, logged, event, state_json, passed, version, seats)


# Actions never decided on a known row: a skip reads the absent player's presence, a resignation may
# end the game for everyone.
LONG_WAY = frozenset({"skip", "resign"})
_KIND = move_sql.FIELDS.index("kind")


def _known_move(known: Known, mover: Mover, client_id: str, action: dict, dice) -> Decision:
    """The move decided on the row as ``known`` holds it and written in one round trip if the row is
    still that version; None when it was not written (the row moved on, the engine refused the action
    or the game ends, which reads every seat): the long way then decides it on the row as it is."""
    game = move_sql.known_game(known)
    if game.status != Game.Status.PLAYING:
        return None
    now = timezone.now()
    try:
        logged, passed = _played(game, mover, client_id, action, dice, now)
    except InvalidAction:
        return None  # said by the long way, on the row as it is now
    if game.engine.is_over(game.state):
        return None
    turn = _turn_write(game, game.state, now, passed)
    state_json = encode(game.state)
    insert, update = move_sql.write_params(logged, state_json)
    guard = [mover.pk, mover.user.pk, mover.position, client_id]
    params = move_sql.known_params(known, update, insert, guard)
    name = move_sql.KNOWN_WITH[turn[0] if turn else None]
    (rows,) = yield Batch([(name, params + (turn[1] if turn else []))], begin=True, last=True)
    if not rows:
        return None  # the event (with its preview) is built only for a move that was written
    event = event_payload(game, logged, mover)
    return _outcome(game, logged, event, state_json, passed, rows[0][0], known.seating(game, mover))


def _played(game: Game, seat: Mover, client_id: str, action: dict, dice, now) -> tuple[Logged, bool]:
    """The action applied to ``game`` in memory, as it will be stored; whether the turn passed."""
    play(game, seat.user, action, dice, now)
    logged = Logged(
        game=game,
        seq=game.seq,
        seat=seat,
        client_id=client_id,
        action=action,
        dice=dice.rolls,
        result=game.state.get("last_event") or {},
        created_at=now,
    )
    return logged, game.turn_started_at == now  # play() restarts the turn clock when the turn passes


def _turn_write(game: Game, state: dict, now, passed: bool) -> tuple[str, list] | None:
    """The write a move that does not end the game may add: a computer's next action, or the e-mail of
    a turn that passed to a person."""
    if is_computer_name(game.engine.current_player(state)):
        return "computer_turn", _computer_turn_params(game, state, now)
    if passed:
        return "turn_mail", _turn_mail_params(game, state, now)
    return None


def _outcome(game: Game, logged: Logged, event: dict, state_json: str, passed: bool, version, seats):
    state = game.state
    # When the turn passes, every player's lists of games (whose turn, the scores) change.
    return ActionOutcome(
        seq=logged.seq,
        duplicate=False,
        event=event,
        text=encode(event, state=state_json),
        notify=tuple(state["players"]) if passed else (),
        notice=turn_message(game) if passed else None,
        known=Known(game.created_at, game.seq, state, move_sql.game_values(game), version, seats),
    )


def play(game: Game, user, action: dict, dice, now) -> dict:
    """Apply the action to the game in memory (state, seq, turn clock); the new state."""
    before = game.engine.current_player(game.state)
    try:
        state = game.engine.apply(game.state, user.username, action, dice)
    except rules.IllegalAction as exc:
        raise InvalidAction(exc) from None
    game.seq += 1
    game.state = state
    if game.engine.current_player(state) != before:
        game.turn_started_at = now
    return state


def _repeated(game: Game, seat: Mover, seq: int) -> Decision:
    """A repeated action id (a resend, a second tab): the first outcome again, nothing written."""
    ((seq, action, dice, result, created_at),) = (yield Batch([("earlier", [game.pk, seq])]))[0]
    earlier = Logged(
        game=game,
        seq=seq,
        seat=seat,
        action=move_sql.from_json(action),
        dice=move_sql.from_json(dice),
        result=move_sql.from_json(result),
        created_at=move_sql.from_datetime(created_at),
    )
    return ActionOutcome(seq=seq, duplicate=True, event=event_payload(game, earlier, seat))


def _turn_mail_params(game: Game, state: dict, now) -> list:
    """The turn has passed to another player: the "turn_mail" statement's parameters."""
    position = state["players"].index(game.engine.current_player(state))
    due = now + timedelta(seconds=turn_mail_delay(game))
    fresh = now - timedelta(seconds=settings.PRESENCE_TIMEOUT)
    at = move_sql.to_datetime
    return [at(now), at(due), game.pk, position, at(fresh)]


def _computer_turn_params(game: Game, state: dict, now) -> list:
    """A computer is to move after this action: the "computer_turn" statement's parameters (its task
    plays the action after ``game.seq``, the one being stored)."""
    position = state["players"].index(game.engine.current_player(state))
    args = json.dumps({"args": [game.pk, game.seq], "kwargs": {}})
    fresh = now - timedelta(seconds=settings.PRESENCE_TIMEOUT)
    watched = now + timedelta(seconds=settings.COMPUTER_PAUSE)
    unwatched = now + timedelta(seconds=settings.COMPUTER_PAUSE_UNWATCHED)
    at = move_sql.to_datetime
    task = [uuid.uuid4().hex, at(now), args, PLAY_TASK]
    return [*task, at(fresh), at(watched), at(unwatched), game.pk, position]


def _check_absent(game: Game, sender: Mover, now) -> Decision:
    """A skip needs the player to move to have been away longer than the game's absence limit."""
    current = game.engine.current_player(game.state)
    if current is None or current == sender.user.username:
        return  # the engine refuses it: the game is over, or it is the sender's own turn
    fresh = now - timedelta(seconds=settings.PRESENCE_TIMEOUT)
    position = game.state["players"].index(current)
    turn = move_sql.to_datetime(game.turn_started_at or game.started_at or now)
    params = [move_sql.to_datetime(fresh), turn, turn, turn, game.pk, position]
    ((last_seen, connected, reached, computer),) = (yield Batch([("absence", params)]))[0]
    if computer:
        # The worker plays a computer's turn; one that is late is waiting for the worker, not away.
        raise InvalidAction(
            _("%(player)s is a computer player: it never leaves the table."), "not_absent", player=current
        )
    away = 0.0
    if not connected:
        since = [game.turn_started_at, move_sql.from_datetime(last_seen), game.started_at]
        away = (now - max(t for t in since if t is not None)).total_seconds()
    if away < game.absence_limit:
        wait = int(game.absence_limit - away) + 1
        raise InvalidAction(
            _(
                "%(player)s is still in the game; you may skip their turn once they have been away "
                "%(wait)s longer."
            ),
            "not_absent",
            player=current,
            wait=i18n.Duration(wait),
        )
    if not reached:
        # A turn is never taken from a player who was not told of it (notices.TurnMail).
        raise InvalidAction(
            _("%(player)s has not been told it is their turn yet; an e-mail is on its way."),
            "not_absent",
            player=current,
        )


def _finish(game: Game, state: dict, now, last_result: dict) -> Generator[Batch, list, list]:
    """The writes that end the game: its status, and every seat's score, result and summary.
    ``last_result`` is the result of the final action, which is not in the log yet."""
    engine = game.engine
    figures = engine.FIGURES
    statements = [("seats", [game.pk])] + ([("results", [game.pk])] if figures.needs_log else [])
    answers = yield Batch(statements)
    results = [move_sql.from_json(r) for (r,) in answers[1]] + [last_result] if figures.needs_log else []
    winners = set(engine.winners(state))
    scores = engine.scores(state)
    resigned = set(state.get("resigned", []))
    players = state["players"]
    game.status = Game.Status.ABANDONED if all(p in resigned for p in players) else Game.Status.FINISHED
    game.finished_at = now
    writes = [("finish_game", [game.status, move_sql.to_datetime(now), game.pk])]
    for seat_pk, position in answers[0]:
        player = players[position]
        summary = encode(figures.summary(state, player, results))
        laps = state.get("laps") if engine.ranking.uses_laps else None
        outcome = [scores.get(player, 0), player in winners, player in resigned, laps, summary]
        writes.append(("finish_seat", [*outcome, seat_pk]))
    return writes


# --- the driver in a thread ------------------------------------------------------------------------


def run_sync(decision: Decision) -> ActionOutcome:
    """Run a decision on Django's connection; the caller holds the transaction."""
    answer = None
    with connection.cursor() as cursor:
        while True:
            try:
                batch = decision.send(answer)
            except StopIteration as stop:
                return stop.value
            answer = _execute(cursor, batch)


def _execute(cursor, batch: Batch) -> list:
    if connection.vendor != "postgresql":  # SQLite runs one statement per call
        answers = []
        for name, params in batch.statements:
            cursor.execute(move_sql.sql(name), params)
            answers.append(cursor.fetchall() if cursor.description else None)
        return answers
    cursor.execute(
        ";\n".join(move_sql.sql(name) for name, _ in batch.statements),
        [value for _, params in batch.statements for value in params],
    )
    answers = []
    for i in range(len(batch.statements)):
        if i:
            cursor.nextset()
        answers.append(cursor.fetchall() if cursor.description else None)
    return answers


def apply_action(*, game_id: int, user, client_id: Any, action: Any) -> ActionOutcome:
    """Make the move in one transaction and broadcast it once that has committed."""
    with transaction.atomic():
        outcome = run_sync(decide(game_id=game_id, user=user, client_id=client_id, action=action))
        if not outcome.duplicate:
            transaction.on_commit(lambda: broadcast.send_now(game_id, outcome.event, outcome.text))
            broadcast.tell_users_on_commit(outcome.notify, outcome.notice)
    return outcome
