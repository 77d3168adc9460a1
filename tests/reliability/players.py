"""Scripted players over real websockets, as a browser tab would be: a view of the game kept from
events and snapshots, actions with client ids, sync on a gap, and a ledger of every answer.

Used by the concurrency hammer, the restart test and the Redis-outage test.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from games import rules
from games.models import Action, Game
from tests.protocol import check_server_frame
from tests.reliability.conftest import Socket

# Never bank to within this many points of the goal: the hammer's game must not end.
BANK_MARGIN = 4000


@dataclass
class Ledger:
    acks: list = field(default_factory=list)  # (client_id, seq, duplicate, username)
    errors: Counter = field(default_factory=Counter)
    sent: int = 0
    late_events: int = 0  # events that arrived after a later one (the client drops them)
    gaps: int = 0  # events that arrived with a gap before them (the client syncs)
    syncs: int = 0


def choose(state: dict, rng: random.Random, endless: bool = True) -> dict:
    """A legal action of the player to move; with `endless` no bank can bring anyone near the goal."""
    engine = rules.get(state["slug"])
    actions = engine.legal_actions(state)
    if state["slug"] == "farkle":
        player = state["current"]
        room = state["goal"] - state["banked"][player] - state["turn_points"]
        banks = [a for a in actions if a["type"] == "bank"]
        rolls = [a for a in actions if a["type"] == "roll"]
        if banks and (not endless or room > BANK_MARGIN) and rng.random() < 0.35:
            return rng.choice(banks)
        return rng.choice(rolls or actions)
    finishing = [a for a in actions if a["type"] == "score"]
    if finishing and rng.random() < 0.5:
        return rng.choice(finishing)
    return rng.choice(actions)


class Tab:
    """One socket of one player."""

    def __init__(self, sock: Socket, username: str, ledger: Ledger, name: str):
        self.sock = sock
        self.username = username
        self.ledger = ledger
        self.name = name
        self.seq = 0
        self.state: dict | None = None
        self.status = ""
        self.max_seen = 0
        self.n = 0
        self.sync_pending = False

    async def open(self, wait: float = 10) -> None:
        snapshot = await self.sock.open(wait)
        self._snapshot(snapshot)

    def _snapshot(self, snapshot: dict) -> None:
        self.sync_pending = False
        if snapshot["seq"] >= self.seq:
            self.seq, self.state, self.status = snapshot["seq"], snapshot["state"], snapshot["game"]["status"]
        self.max_seen = max(self.max_seen, snapshot["seq"])

    async def handle(self, message: dict) -> None:
        kind = message["type"]
        if kind == "snapshot":
            self._snapshot(message)
        elif kind == "event":
            seq = message["seq"]
            if seq < self.max_seen:
                self.ledger.late_events += 1
            self.max_seen = max(self.max_seen, seq)
            if seq == self.seq + 1:
                self.seq, self.state, self.status = seq, message["state"], message["status"]
            elif seq > self.seq + 1 and not self.sync_pending:
                self.ledger.gaps += 1
                await self.sync()

    async def sync(self) -> None:
        self.sync_pending = True
        self.ledger.syncs += 1
        await self.sock.send({"type": "sync", "seq": self.seq})

    async def pump(self, wait: float) -> dict | None:
        """Handle the next message, if one comes within `wait` seconds."""
        try:
            message = check_server_frame(await asyncio.wait_for(self.sock.ws.recv(), wait))
        except TimeoutError:
            return None
        await self.handle(message)
        return message

    async def act(self, action: dict, client_id: str | None = None, twice: bool = False) -> list[dict]:
        """Send an action (twice in a row if asked) and return its answers, handling all else meanwhile."""
        if client_id is None:
            self.n += 1
            client_id = f"{self.name}-{self.n}"
        frame = {"type": "action", "id": client_id, "action": action}
        for _ in range(2 if twice else 1):
            await self.sock.send(frame)
            self.ledger.sent += 1
        answers = []
        deadline = time.monotonic() + 20
        while len(answers) < (2 if twice else 1):
            message = await self.pump(max(0.01, deadline - time.monotonic()))
            if message is None:
                raise AssertionError(f"{self.name}: no answer to {client_id} in 20 s")
            if message["type"] in ("ack", "error") and message.get("id") == client_id:
                answers.append(message)
                if message["type"] == "ack":
                    self.ledger.acks.append((client_id, message["seq"], message["duplicate"], self.username))
                else:
                    self.ledger.errors[message["code"]] += 1
                    if message["code"] == "illegal_action" and not self.sync_pending:
                        await self.sync()  # our view is stale: catch up
        return answers

    async def catch_up(self, target: int, wait: float = 20) -> None:
        """sync until this tab has reached `target` (the database's seq), as a client does after a gap."""
        deadline = time.monotonic() + wait
        while self.seq < target:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} did not catch up: at {self.seq} of {target}")
            await self.sync()
            resend = time.monotonic() + 1
            while self.seq < target and time.monotonic() < resend:
                await self.pump(0.2)

    async def close(self) -> None:
        await self.sock.close()


def my_turn(tab: Tab) -> bool:
    return bool(tab.state) and tab.status == "playing" and tab.state.get("current") == tab.username


def ledger_problems(ledger: Ledger, game_id: int) -> list[str]:
    """Check every ack against the log; the log against itself. Runs in a thread (ORM)."""
    problems = []
    rows = {
        seq: (client_id, username)
        for seq, client_id, username in Action.objects.filter(game_id=game_id).values_list(
            "seq", "client_id", "seat__user__username"
        )
    }
    game = Game.objects.get(pk=game_id)
    if sorted(rows) != list(range(1, len(rows) + 1)) or game.seq != len(rows):
        problems.append(f"the log has a gap or duplicate: {len(rows)} rows, game.seq {game.seq}")
    first_acks: dict[int, tuple] = {}
    for client_id, seq, duplicate, username in ledger.acks:
        if rows.get(seq) != (client_id, username):
            problems.append(f"ack {client_id} of {username} says seq {seq}, the log has {rows.get(seq)}")
        if not duplicate:
            if seq in first_acks:
                problems.append(f"seq {seq} acked as new twice: {first_acks[seq]} and {client_id}")
            first_acks[seq] = (client_id, username)
    return problems


def log_figures(game_id: int) -> dict:
    return {"log_entries": Action.objects.filter(game_id=game_id).count()}


async def reconnect(tab: Tab, wait: float = 30) -> float:
    """Reopen the tab's socket with back-off until the server answers, then sync; seconds it took."""
    began = time.monotonic()
    delay = 0.05
    while True:
        tab.sock = Socket(tab.sock.server, tab.sock.game_id, tab.sock.cookie, tab.sock.name)
        try:
            snapshot = await tab.sock.open(5)
            break
        except Exception as exc:  # refused while the server is down; handshake errors while it starts
            if time.monotonic() - began > wait:
                raise AssertionError(f"{tab.name} could not reconnect: {exc!r}") from exc
        await asyncio.sleep(delay)
        delay = min(delay * 2, 1.0)
    tab._snapshot(snapshot)
    await tab.sync()
    return time.monotonic() - began
