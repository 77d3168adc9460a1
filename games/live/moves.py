"""A move: the one function that decides it (``decide``), and the driver that runs it in a thread.

``decide`` is every rule of a move in one order: the envelope, the game locked, the mover (seat, an
earlier action with the same id, the group membership), a repeated id answered with its first outcome,
the game being played, the absence check of a skip, the engine with the dice rolled for it (once: they
are recorded and stored with the move), seq and turn clock, the resignation, the end of the game and
what it writes (every seat's score, result and summary), the event and its JSON, and what follows from
the move for the rest of the site as effects (games.effects, docs/effects.md: the turn passed, a
computer or an absent player to move, the game ended), which the apps handle. It is a generator
that talks to the database only by yielding a ``Batch`` of named statements (games.live.move_sql) and
receiving their rows, so that its transports differ in nothing but how they reach PostgreSQL:

- ``apply_action`` below runs it inside Django's ``transaction.atomic()`` on the calling thread (the
  services, tests, commands; the websockets on SQLite or with WS_ASYNC_MOVES off), runs the effects'
  handlers in that transaction, and broadcasts with ``transaction.on_commit``;
- ``games.live.move_async.apply_action`` runs it on the event loop with psycopg's async connections (the
  websockets on PostgreSQL), BEGIN sent with the first batch and COMMIT with the last; a move whose
  effects have handlers there is handed to the thread driver before it writes (``Handover``).

Given the game's row as the process's last move of it committed it (``Known``), a move of a player who
has moved in it before is decided on that row and written in one round trip, on condition that the row,
the seat, the membership and the action id are still as the long way would read them (move_sql
"known"); otherwise that attempt writes nothing and the long way decides the move on the row as it is,
taking the attempt's dice, which nobody saw. Both ways run the same steps (``_played``, ``_turn_write``,
``_outcome``); only what they read differs.

A ``GameError`` raised by ``decide`` rolls the transaction back: nothing is stored or broadcast.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import effects, i18n, rules
from games.computers.players import is_computer_name
from games.errors import BadRequest, Conflict, Forbidden, InvalidAction, NotFound
from games.live import broadcast, move_sql, seen
from games.live.broadcast import encode
from games.live.dice_source import RecordingDice, give_back
from games.live.records import Known, Logged, Mover
from games.live.selectors import event_payload
from games.models import Game
from games.results.places import seat_results
from infra.params import storable

MAX_CLIENT_ID = 64


@dataclass(frozen=True)
class ActionOutcome:
    seq: int
    duplicate: bool
    event: dict
    text: str | None = None  # the event as the JSON text every socket receives; None for a repeated id
    effects: tuple = ()  # what follows from the move (games.effects), handled in its transaction
    messages: tuple = ()  # what the effects' announcers send once it has committed: (group, message)
    known: Known | None = None  # the game as the move leaves it, once it has committed


class Handover(Exception):
    """Raised by a decision made with ``handover`` when the move's effects have handlers that must run in
    its transaction through the ORM (games.effects.needs_transaction), before anything was written: the
    caller makes the move in a database thread instead, the dice already rolled for it (``rolls``, which
    nobody saw) taken first."""

    def __init__(self, rolls: list):
        super().__init__("the move is made in a database thread")
        self.rolls = rolls


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


def decide(
    *,
    game_id: int,
    user,
    client_id: Any,
    action: Any,
    known: Known | None = None,
    handover: bool = False,
    spare: list | None = None,
) -> Decision:
    """The move of ``user`` in game ``game_id`` (see the module's docstring); ``known``: the game's
    state as the caller last saw it committed, if it holds one. ``handover``: the caller cannot run the
    effects' handlers in the transaction (the event loop's driver): such a move raises ``Handover``
    before it writes. ``spare``: dice rolled for this action by an attempt that stored nothing."""
    validate_envelope(client_id, action)
    if handover and action["type"] == "skip" and effects.handled(effects.SkipAsked):
        raise Handover(spare or [])  # a handler of SkipAsked may be asked (_check_absent)
    spare = list(spare or [])
    mover = known.mover(user) if known is not None else None
    if mover is not None and action["type"] not in LONG_WAY:
        game = move_sql.known_game(known)
        dice = RecordingDice(game, spare)
        outcome = yield from _known_move(known, game, mover, client_id, action, dice)
        if outcome is not None:
            return outcome
        spare = dice.rolls + spare  # nobody saw them: the long way takes them first
    try:
        return (yield from _long_way(game_id, user, client_id, action, known, spare, handover))
    finally:
        give_back(spare)  # what the long way did not take (a repeated id, a refusal)


def _long_way(
    game_id: int, user, client_id: str, action: dict, known: Known | None, spare: list, handover: bool
) -> Decision:
    """The move decided on the game's row as read, locked, in this transaction."""
    now = timezone.now()
    fresh = move_sql.to_datetime(seen.cutoff(now))
    game_rows, mover_rows = yield Batch(
        [
            ("game", move_sql.game_params(game_id, known)),
            ("mover", [client_id, user.pk, fresh, user.pk, game_id]),
        ],
        begin=True,
    )
    if not game_rows:
        raise NotFound(_("There is no such game."))
    game = move_sql.row_to_game(game_rows[0], known)
    seat_pk, position, earlier_seq, is_member, present = mover_rows[0]
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
    if action["type"] == "skip":
        yield from _check_absent(game, seat, now)
    dice = RecordingDice(game, spare)
    logged, passed = _played(game, seat, client_id, action, dice, now)
    state = game.state
    ended = game.engine.is_over(state)
    follows = _effects(game, passed, ended, present)
    if handover and effects.needs_transaction(follows):
        rolls = dice.rolls + spare
        spare.clear()
        raise Handover(rolls)
    writes: list[tuple[str, list]] = []
    if action["type"] == "resign":
        writes.append(("resign", [True, seat.pk]))
    if ended:
        writes += yield from _finish(game, state, now, logged)
    event = event_payload(game, logged, seat)
    state_json = encode(game.state)
    insert, update = move_sql.write_params(logged, state_json)
    answers = yield Batch([*writes, ("insert", insert), ("update", update)], last=True)
    version = answers[-1][0][0] if answers[-1] else None  # SQLite has none
    seats = known.seating(game, seat) if known is not None else {user.pk: (seat.pk, seat.position)}
    return _outcome(game, logged, event, state_json, follows, version, seats)


# Actions never decided on a known row: a skip reads the absent player's presence, a resignation may
# end the game for everyone.
LONG_WAY = frozenset({"skip", "resign"})


def _known_move(known: Known, game: Game, mover: Mover, client_id: str, action: dict, dice) -> Decision:
    """The move decided on the row as ``known`` holds it and written in one round trip if the row is
    still that version; None when it was not written (the row moved on, the engine refused the action,
    the game ends, which reads every seat, or a computer is to move): the long way then decides it on
    the row as it is. A move that passes the turn to a person writes only if that player is at the
    table; when they are not, the long way says so (effects.AbsentPlayerToMove)."""
    game = move_sql.known_game(known)
    if game.status != Game.Status.PLAYING:
        return None
    now = timezone.now()
    try:
        logged, passed = _played(game, mover, client_id, action, dice, now)
    except InvalidAction:
        return None  # said by the long way, on the row as it is now
    state = game.state
    if game.engine.is_over(state) or is_computer_name(game.engine.current_player(state)):
        return None
    state_json = encode(state)
    insert, update = move_sql.write_params(logged, state_json)
    guard = [mover.pk, mover.user.pk, mover.position, client_id]
    at_table = None
    if passed:
        at_table = [_position(game, state), move_sql.to_datetime(seen.cutoff(now))]
    params = move_sql.known_params(known, update, insert, guard, at_table)
    name = "known_passed" if passed else "known"
    (rows,) = yield Batch([(name, params)], begin=True, last=True)
    if not rows:
        return None  # the event (with its preview) is built only for a move that was written
    event = event_payload(game, logged, mover)
    follows = _effects(game, passed, False, None)
    return _outcome(game, logged, event, state_json, follows, rows[0][0], known.seating(game, mover))


def _position(game: Game, state: dict) -> int:
    """The seat position of the player to move."""
    return state["players"].index(game.engine.current_player(state))


def _effects(game: Game, passed: bool, ended: bool, present: int | None) -> list:
    """What follows from the move: ``present``, the positions of the players at the table as a bit mask
    (None: the player to move is known to be there)."""
    if ended:
        return [effects.GameEnded(game)]
    state = game.state
    follows: list = [effects.TurnPassed(game)] if passed else []
    if is_computer_name(game.engine.current_player(state)):  # its turn, or its own action goes on
        follows.append(effects.ComputerToMove(game))
    elif passed and present is not None and not present >> _position(game, state) & 1:
        follows.append(effects.AbsentPlayerToMove(game, _position(game, state)))
    return follows


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


def _outcome(game: Game, logged: Logged, event: dict, state_json: str, follows: list, version, seats):
    state = game.state
    return ActionOutcome(
        seq=logged.seq,
        duplicate=False,
        event=event,
        text=encode(event, state=state_json),
        effects=tuple(follows),
        messages=tuple(effects.messages(follows)),
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


def _check_absent(game: Game, sender: Mover, now) -> Decision:
    """A skip needs the player to move to have been away longer than the game's absence limit; one who
    has not been at the table since the turn began is asked about (effects.SkipAsked)."""
    current = game.engine.current_player(game.state)
    if current is None or current == sender.user.username:
        return  # the engine refuses it: the game is over, or it is the sender's own turn
    fresh = seen.cutoff(now)
    position = game.state["players"].index(current)
    turn = move_sql.to_datetime(game.turn_started_at or game.started_at or now)
    params = [move_sql.to_datetime(fresh), turn, game.pk, position]
    ((last_seen, connected, seen_since, computer, player_id),) = (yield Batch([("absence", params)]))[0]
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
    if not seen_since:
        effects.handle([effects.SkipAsked(game, sender.user, current, player_id)])


# Actions that are no move of the game: a seat whose only actions are these has not played in it.
NOT_PLAYED = frozenset({"resign", "skip"})


def _finish(game: Game, state: dict, now, last: Logged) -> Generator[Batch, list, list]:
    """The writes that end the game: its status, and every seat's score, result and summary. ``last``
    is the final action, which is not in the log yet.

    A game of several seats that ends before every person at it has made a move of the game is
    aborted (lichess's rule: a game both players have not moved in is aborted, not lost): a
    resignation at the first turn, or a table its players left at once, says nothing of anyone's play,
    and would otherwise be a rating, a win and a statistic for the taking. It is decided here, on the
    log read under the game's lock, so that a resignation and a first move at once are ordered by the
    lock: whichever came first is in the log the other reads."""
    engine = game.engine
    figures = engine.FIGURES
    statements = [("seats", [game.pk])] + ([("results", [game.pk])] if figures.needs_log else [])
    answers = yield Batch(statements)
    results = [move_sql.from_json(r) for (r,) in answers[1]] + [last.result] if figures.needs_log else []
    seats = seat_results(engine, state)  # by position: what the finishing order is read from
    players = state["players"]
    played = {position for _, position, has_played in answers[0] if has_played}
    if last.action["type"] not in NOT_PLAYED:
        played.add(last.seat.position)
    if len(played) < len(answers[0]) and game.abortable:
        game.status = Game.Status.ABORTED
    elif all(s["resigned"] for s in seats):
        game.status = Game.Status.ABANDONED
    else:
        game.status = Game.Status.FINISHED
    game.finished_at = now
    writes = [("finish_game", [game.status, move_sql.to_datetime(now), game.pk])]
    for seat_pk, position, _played in answers[0]:
        summary = encode(figures.summary(state, players[position], results))
        seat = seats[position]
        outcome = [seat["final_score"], seat["winner"], seat["resigned"], seat["laps"], summary]
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


def apply_action(
    *, game_id: int, user, client_id: Any, action: Any, spare: list | None = None
) -> ActionOutcome:
    """Make the move in one transaction and broadcast it once that has committed."""
    with transaction.atomic():
        outcome = make_move(game_id=game_id, user=user, client_id=client_id, action=action, spare=spare)
        if not outcome.duplicate:
            broadcast.send_on_commit_to(broadcast_messages(game_id, outcome))
    return outcome


def make_move(*, game_id: int, user, client_id: Any, action: Any, spare: list | None = None) -> ActionOutcome:
    """The move made on Django's connection and its effects handled; the caller holds the transaction."""
    outcome = run_sync(decide(game_id=game_id, user=user, client_id=client_id, action=action, spare=spare))
    if not outcome.duplicate:
        effects.handle(outcome.effects)
    return outcome


def broadcast_messages(game_id: int, outcome: ActionOutcome) -> list[tuple[str, dict]]:
    """What a committed move sends: its event to the game's sockets, then its effects' announcements."""
    event = broadcast.layer_message(outcome.event, outcome.text)
    return [(broadcast.group_name(game_id), event), *outcome.messages]
