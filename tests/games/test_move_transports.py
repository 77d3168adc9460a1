"""The same scripted games through every transport a move has, compared with each other and with the
engines: what is stored, what each sender is told, and what every socket receives.

Transports: ``service`` (games.tables.services.game_apply_action called directly: Django's atomic block),
``thread`` (the websocket with WS_ASYNC_MOVES off: the same driver in a database thread) and ``loop``
(the websocket on PostgreSQL with WS_ASYNC_MOVES on: games.live.move_async on the event loop). The
reference is the engine itself, fed the same actions and dice in memory. The scenarios end a game in
every way one can end: a last score, a last bank, a Farkle on the final lap's last roll, hot dice
confirmed on the last turn, a skip, a resignation (with a winner, and with nobody left).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

from games import rules
from games.errors import GameError
from games.models import Action, Game, Seat
from games.rules.dice import COLOURS
from games.tables import services
from tests.games.sockets import Client

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ("ann", "bob")
TEN = [1, 1, 1, 1, 1, 2]  # five ones: 10000, the goal at once


@dataclass
class Step:
    player: str
    kind: str  # "act" (expected to be applied), "refused", "resend" (a repeated id), "away"
    action: dict | None = None
    client_id: str | None = None


@dataclass
class Script:
    """A game played on the engine alone: its steps, the dice it rolled and the state after each seq."""

    kind: str
    options: dict
    players: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)
    rolls: list[list] = field(default_factory=list)
    states: list[dict] = field(default_factory=list)
    forced: list[list] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def __post_init__(self):
        self.engine = rules.get(self.kind)
        self.states.append(self.engine.new_game(list(self.players), self.options))

    @property
    def state(self) -> dict:
        return self.states[-1]

    def _dice(self, n: int) -> list:
        if self.forced:
            roll = self.forced.pop(0)
            assert len(roll) == n
        elif self.kind == "painted-dicez":
            roll = [[self.rng.randint(1, 6), self.rng.choice(COLOURS)] for _ in range(n)]
        else:
            roll = [self.rng.randint(1, 6) for _ in range(n)]
        self.rolls.append(roll)
        return list(roll)

    def act(self, player: str, action: dict) -> None:
        self.states.append(self.engine.apply(self.state, player, action, self._dice))
        self.steps.append(Step(player, "act", action, f"{player}-{len(self.steps)}"))

    def refused(self, player: str, action: dict) -> None:
        before = len(self.rolls)
        with pytest.raises(rules.IllegalAction):
            self.engine.apply(self.state, player, action, self._dice)
        assert len(self.rolls) == before
        self.steps.append(Step(player, "refused", action, f"{player}-{len(self.steps)}"))

    def resend(self, player: str) -> None:
        earlier = next(s for s in reversed(self.steps) if s.player == player and s.kind == "act")
        self.steps.append(Step(player, "resend", earlier.action, earlier.client_id))

    def away(self, player: str) -> None:
        self.steps.append(Step(player, "away"))

    def card_turn(self) -> None:
        """One turn of a card game: a roll, up to two re-rolls with random holds, a random box."""
        player = self.engine.current_player(self.state)
        self.act(player, {"type": "roll", "hold": []})
        while True:
            legal = self.engine.legal_actions(self.state)
            scores = [a for a in legal if a["type"] == "score"]
            rolls = [a for a in legal if a["type"] == "roll"]
            if rolls and (not scores or self.rng.random() < 0.4):
                self.act(player, self.rng.choice(rolls))
            else:
                self.act(player, self.rng.choice(scores))
                return


def card_game(kind: str, players: tuple[str, ...], *, skip_last: bool = False) -> Script:
    script = Script(kind, {}, players)
    first = script.engine.current_player(script.state)
    script.act(first, {"type": "roll", "hold": []})
    script.resend(first)
    script.refused(first, {"type": "score", "box": "no-such-box"})
    script.card_turn()  # the rest of the first turn
    while not script.engine.is_over(script.state):
        last_turn = all(
            sum(v is None for col in _columns(card) for v in col["boxes"].values()) <= 1
            for card in script.state["cards"].values()
        )
        current = script.engine.current_player(script.state)
        if skip_last and last_turn and current == players[-1]:
            script.away(current)
            script.act(players[0], {"type": "skip"})
        else:
            script.card_turn()
    return script


def _columns(card: dict) -> list[dict]:
    return card.get("columns", [card])


def farkle(ending: str) -> Script:
    script = Script("farkle", {"goal": 3000}, PLAYERS)
    script.forced = [TEN]
    script.refused("bob", {"type": "roll", "keep": []})  # not his turn
    script.act("ann", {"type": "roll", "keep": []})
    script.refused("ann", {"type": "bank", "keep": [5]})  # a 2 does not score
    script.act("ann", {"type": "bank", "keep": [0, 1, 2, 3, 4]})
    script.resend("ann")
    if ending == "last bank":
        script.forced = [[1, 1, 1, 2, 3, 4]]
        script.act("bob", {"type": "roll", "keep": []})
        script.act("bob", {"type": "bank", "keep": [0, 1, 2]})
    elif ending == "farkle on the last roll":
        script.forced = [[2, 2, 3, 3, 4, 6]]
        script.act("bob", {"type": "roll", "keep": []})
    elif ending == "hot dice confirmed on the last turn":
        script.forced = [[1, 1, 1, 5, 5, 5], [5, 2, 3, 4, 6, 6]]
        script.act("bob", {"type": "roll", "keep": []})
        script.refused("bob", {"type": "bank", "keep": [0, 1, 2, 3, 4, 5]})  # confirm first
        script.act("bob", {"type": "roll", "keep": [0, 1, 2, 3, 4, 5]})
        script.act("bob", {"type": "bank", "keep": [0]})
    elif ending == "skip":
        script.away("bob")
        script.act("ann", {"type": "skip"})
    elif ending == "resignation":
        script.forced = [[1, 2, 3, 4, 6, 6]]
        script.act("bob", {"type": "roll", "keep": []})
        script.act("bob", {"type": "resign"})
    return script


def last_one_standing() -> Script:
    script = Script("triple-quintzee", {}, PLAYERS)
    script.act("ann", {"type": "roll", "hold": []})
    script.act("bob", {"type": "resign"})
    return script


def solo_resign() -> Script:
    script = Script("triple-quintzee", {}, ("ann",))
    script.act("ann", {"type": "roll", "hold": []})
    script.act("ann", {"type": "resign"})
    return script


SCENARIOS = {
    "triple-quintzee: last score": lambda: card_game("triple-quintzee", ("ann",)),
    "triple-yahtzee-99: last score": lambda: card_game("triple-yahtzee-99", ("ann",)),
    "painted-dicez: the last turn skipped": lambda: card_game("painted-dicez", PLAYERS, skip_last=True),
    "triple-quintzee: the last one standing": last_one_standing,
    "triple-quintzee: a solo resign": solo_resign,
    **{f"farkle: {ending}": (lambda e=ending: farkle(e)) for ending in (
        "last bank", "farkle on the last roll", "hot dice confirmed on the last turn", "skip", "resignation",
    )},
}  # fmt: skip


# --- one transport ---------------------------------------------------------------------------------


def _normal(frame: dict) -> dict:
    """A frame without what differs between two runs of the same game: times, and the seeds of the
    ending event's fair dice (each run is a game of its own); that the ending event has them stays."""
    normal = {k: v for k, v in frame.items() if k not in ("at", "turn_started_at")}
    if "fair_dice" in normal:
        normal["fair_dice"] = sorted(normal["fair_dice"])
    return normal


@database_sync_to_async
def _table(script: Script, users: dict) -> Game:
    creator, *others = (users[p] for p in script.players)
    game = services.game_create(
        creator=creator, kind=script.kind, options=script.options, seats=len(script.players), absence_limit=10
    )
    for other in others:
        services.game_join(game_id=game.pk, user=other)
    if others:
        services.game_start(game_id=game.pk, user=creator)
    return game


@database_sync_to_async
def _make_away(game: Game) -> None:
    long_ago = timezone.now() - timedelta(hours=1)
    Game.objects.filter(pk=game.pk).update(turn_started_at=long_ago, started_at=long_ago)
    Seat.objects.filter(game=game).update(last_seen=long_ago)


@database_sync_to_async
def _service_move(game: Game, user, step: Step) -> dict:
    try:
        outcome = services.game_apply_action(
            game_id=game.pk, user=user, client_id=step.client_id, action=step.action
        )
    except GameError as exc:
        return {"type": "error", "id": step.client_id, "code": exc.code, "message": exc.message}
    return {"type": "ack", "id": step.client_id, "seq": outcome.seq, "duplicate": outcome.duplicate}


@database_sync_to_async
def _stored(game: Game) -> dict:
    game.refresh_from_db()
    return {
        "status": game.status,
        "seq": game.seq,
        "state": game.state,
        "actions": [
            (a.seq, a.seat.position, a.client_id, a.action, a.dice, a.result)
            for a in Action.objects.filter(game=game).select_related("seat").order_by("seq")
        ],
        "seats": [
            (s.position, s.final_score, s.winner, s.resigned, s.laps, s.summary)
            for s in Seat.objects.filter(game=game).order_by("position")
        ],
    }


async def play(transport: str, script: Script, users: dict, scripted_dice, settings) -> dict:
    settings.WS_ASYNC_MOVES = transport == "loop"
    # A whole game in a few seconds is faster than any person plays: no rate limit here.
    settings.WS_RATE_ACTIONS_PER_10S = settings.WS_RATE_USER_ACTIONS_PER_10S = 10**6
    settings.WS_RATE_MESSAGES_PER_10S = settings.WS_RATE_USER_MESSAGES_PER_10S = 10**6
    scripted_dice(*script.rolls)
    game = await _table(script, users)
    sockets = {}
    if transport != "service":
        for name in (*script.players, "cid"):
            sockets[name] = Client(users[name], game.pk)
            await sockets[name].open()
    replies = []
    for step in script.steps:
        if step.kind == "away":
            if step.player in sockets:
                await sockets.pop(step.player).close()
            await _make_away(game)
            continue
        if transport == "service":
            reply = await _service_move(game, users[step.player], step)
        else:
            reply = await sockets[step.player].act(step.action, step.client_id)
            if reply["type"] == "ack":
                for client in sockets.values():
                    await client.until_seq(reply["seq"])
        replies.append(reply)
    for client in sockets.values():
        await client.drain()
        await client.close()
    left = json.loads(scripted_dice.path.read_text())
    return {
        "replies": replies,
        "stored": await _stored(game),
        "events": {name: [_normal(e) for e in c.events()] for name, c in sockets.items()},
        "dice left": left,
    }


# --- the comparison --------------------------------------------------------------------------------


@pytest.fixture
def users(make_user):
    return {name: make_user(name) for name in (*PLAYERS, "cid")}


def transports() -> list[str]:
    return ["service", "thread", "loop"] if connection.vendor == "postgresql" else ["service", "thread"]


@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_every_transport_stores_tells_and_broadcasts_the_same_game(
    scenario, users, scripted_dice, settings
):
    script = SCENARIOS[scenario]()
    assert script.engine.is_over(script.state), "the scenario must end the game"
    runs = {}
    for transport in transports():
        runs[transport] = await play(transport, script, users, scripted_dice, settings)

    reference = runs["service"]
    stored = reference["stored"]
    # The engine's game: every state, every result and every roll, in order.
    applied = [s for s in script.steps if s.kind == "act"]
    assert stored["seq"] == len(applied) == len(script.states) - 1
    assert stored["state"] == script.state
    assert [a[5] for a in stored["actions"]] == [s["last_event"] for s in script.states[1:]]
    assert [roll for a in stored["actions"] for roll in a[4]] == script.rolls
    assert stored["status"] in Game.OVER  # an ending before bob moved is aborted, alike on each transport
    assert reference["dice left"] == []
    # Each sender was told the same, step by step: an ack, a duplicate ack, or the same refusal.
    for step, reply in zip([s for s in script.steps if s.kind != "away"], reference["replies"], strict=True):
        expected = {"act": ("ack", False), "resend": ("ack", True), "refused": ("error", None)}[step.kind]
        assert (reply["type"], reply.get("duplicate")) == expected, (step, reply)
    for transport, run in runs.items():
        assert run["replies"] == reference["replies"], transport
        assert run["stored"] == stored, transport
        assert run["dice left"] == [], transport
    # Every socket saw every event of the game, in order, each with the state the engine reached.
    sockets = {t: r["events"] for t, r in runs.items() if t != "service"}
    for transport, events in sockets.items():
        for name, seen in events.items():
            if name in {s.player for s in script.steps if s.kind == "away"}:
                continue  # a player who left before the end
            assert [e["seq"] for e in seen] == list(range(1, stored["seq"] + 1)), (transport, name)
            assert [e["state"] for e in seen] == script.states[1:], (transport, name)
        assert events == next(iter(sockets.values())), transport
