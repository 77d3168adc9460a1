"""The load generator: tables of 4 signed-in websockets playing live games with random legal actions.

One step = G tables, each seating 4 users at a game of a random kind; a real websocket per seat (a Django
session cookie), spread over the server ports (seat i on port i mod P, so with two processes every
game's seats are split across both). Each seat plays like a person: when an event makes it the player to
move, it waits a think time drawn uniformly from [0.5, 1.5] x the mean (0: no wait), picks an action at
random from the engine's ``legal_actions`` and sends it. Tables start at random offsets.

Measured for every action: the time from sending it until its ``event`` has arrived at every seat of the
game. A step runs for a fixed time; after it no new action is sent, the last ones are waited for, and
every game's log is checked (every seat saw seq 1, 2, 3 ... with no gap or duplicate; the log holds
exactly the actions acknowledged; ``game_verify_replay`` rebuilds the stored state).

Modes: ``ours`` plays against /ws/games/<id>/ (the real consumer, database and rules); ``baseline``
against /ws/bench/<id>/ (bench/baseline_consumer.py: Channels' group_send and nothing else). In the
baseline the games are played out by the generator itself before the step: the acting seat sends the
very event the real server would have broadcast (same JSON, same size) and the consumer relays it.

Quiet sockets (``--quiet-notices N --quiet-watchers M``, default none): sockets that carry almost
nothing but hold server memory, as the pages of a real site do. Notices sockets (/ws/notices/, the header
of every page of a signed-in player): first one per busy seat's user (the game page has the header), then
extra users on other pages. Watchers: game pages of 4-seat games over days that nobody moves in (players
of long games keep their page open). Every quiet socket pings as the pages do and must stay open, get
its first frame and a pong for every ping. In the baseline the same numbers of idle /ws/bench/<id>/
sockets are opened: a notices socket is one alone in its group, watchers are four to a group.

A game that ends during a step is followed at once by the table's next game (new game, new sockets),
as when players start another. With a 1 s think time a game lasts minutes (Farkle to 3000 about 110
actions, Painted DiceZ about 270, the triple games 480 to 630 with 4 players), so a step plays a slice
of each; games end in the saturation steps.

    python -m bench.loadgen --mode ours --games 4 --think 0.2 --duration 5 --ports 8101
(needs a server; bench/run.py starts them, see docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import orjson
import uvloop

SEATS = 4
# kind -> (weight, options). Farkle to 3000 and Painted DiceZ, the shorter games, are played most.
KINDS: dict[str, tuple[float, dict]] = {
    "farkle": (0.40, {"goal": 3000, "dice": 6}),
    "painted-dicez": (0.30, {}),
    "triple-quintzee": (0.15, {}),
    "triple-yahtzee-99": (0.15, {}),
}
USER_PREFIX = "lb"
AT = "2026-01-01T00:00:00.000000+00:00"  # the baseline's events carry a fixed time stamp
MAX_ERROR_SAMPLES = 20
# The pages ping every 25 s: PING_EVERY_MS in static/js/notices.js and static/js/game/socket.js.
PING_EVERY_S = 25.0
PING = '{"type":"ping"}'
NOTICES_PREFIX = "lq"  # users who only have a notices socket open (other pages of the site)
WATCHER_PREFIX = "lw"  # the 4 players of an idle game over days, each with its game page open
BASELINE_NOTICES_ID = 2_000_000  # the baseline's idle groups: one per notices socket ...
BASELINE_WATCH_ID = 3_000_000  # ... and one per idle game


# --- pure helpers (tests/bench/test_loadgen_helpers.py) ----------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float | None:
    """The nearest-rank q-th percentile of an ascending list (None for an empty one)."""
    if not sorted_values:
        return None
    if not 0 <= q <= 100:
        raise ValueError("q must be between 0 and 100")
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def latency_summary(seconds: list[float]) -> dict:
    """count, p50/p95/p99/max/mean in milliseconds (None when there is nothing)."""
    values = sorted(seconds)

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 2)

    return {
        "count": len(values),
        "p50_ms": ms(percentile(values, 50)),
        "p95_ms": ms(percentile(values, 95)),
        "p99_ms": ms(percentile(values, 99)),
        "max_ms": ms(values[-1] if values else None),
        "mean_ms": ms(sum(values) / len(values) if values else None),
    }


def think_time(rng: random.Random, mean: float) -> float:
    """A think time uniform in [0.5, 1.5] x mean; 0 for a mean of 0 (saturation)."""
    if mean <= 0:
        return 0.0
    return rng.uniform(0.5 * mean, 1.5 * mean)


def choose_kind(rng: random.Random, kinds: dict[str, tuple[float, dict]] = KINDS) -> str:
    names = list(kinds)
    return rng.choices(names, weights=[kinds[n][0] for n in names])[0]


def seq_problems(seqs: list[int], start: int = 0) -> list[str]:
    """What is wrong with a stream of seq numbers that should run start+1, start+2, ... exactly."""
    problems = []
    expected = start + 1
    for seq in seqs:
        if seq < expected:
            problems.append(f"duplicate or old seq {seq} (expected {expected})")
        elif seq > expected:
            problems.append(f"gap: seq {seq} after {expected - 1}")
            expected = seq + 1
        else:
            expected += 1
    return problems


def log_problems(
    log_seqs: list[int], sent: list[int], acked: list[int], seen: dict[str, int], final_seq: int
) -> list[str]:
    """Compare one game's stored log with what the generator sent, was acknowledged and saw.

    ``log_seqs``: the seq of every stored action; ``sent``: the seq each action was sent as;
    ``acked``: the seq of every ack (None for the baseline, which has no acks); ``seen``: the last seq
    each seat received; ``final_seq``: the game's seq.
    """
    problems = seq_problems(log_seqs)
    if log_seqs and log_seqs[-1] != final_seq:
        problems.append(f"the game's seq is {final_seq} but its log ends at {log_seqs[-1]}")
    if sorted(sent) != log_seqs:
        problems.append(f"{len(sent)} actions sent, {len(log_seqs)} stored")
    if acked is not None and sorted(acked) != log_seqs:
        dupes = [s for s, n in Counter(acked).items() if n > 1]
        problems.append(f"{len(acked)} acks (duplicates: {dupes[:5]}) for {len(log_seqs)} stored actions")
    for seat, last in seen.items():
        if last != final_seq:
            problems.append(f"seat {seat} saw events up to {last}, the game is at {final_seq}")
    return problems


def split_quiet(total: int, busy_seats: int) -> tuple[int, int]:
    """(notices, watchers) for ``total`` quiet sockets: every busy seat's user has the header's notices
    socket open; what is left is split evenly between extra notices users and idle game pages."""
    first = min(total, busy_seats)
    extra = (total - first) // 2
    return first + extra, total - first - extra


def memory_per_socket_kb(fresh_kb: int | None, connected_kb: int | None, sockets: int) -> float | None:
    """(RSS with every socket connected - RSS of the fresh server) / sockets, in kB (None if unknown)."""
    if fresh_kb is None or connected_kb is None or sockets <= 0:
        return None
    return round((connected_kb - fresh_kb) / sockets, 1)


def raise_nofile() -> int:
    """Raise this process's open-file limit to its hard limit (5,000 sockets need more than 1,024)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


# --- baseline scripts: the events the real server would send, computed here ------------------------


class Script:
    """A game played out by the generator for the baseline: frame k-1 is the text of event k."""

    def __init__(self, kind: str, players: list[str], rng: random.Random):
        from games import rules
        from games.rules.dice import make_dice

        self.engine = rules.get(kind)
        self.players = players
        self.rng = rng
        self._dice = make_dice(rng, painted=kind == "painted-dicez")
        self.state = self.engine.new_game(players, KINDS[kind][1])
        self.initial = self.state
        self.frames: list[str] = []

    def extend(self, count: int) -> None:
        engine = self.engine
        for _ in range(count):
            if engine.is_over(self.state):
                return
            player = engine.current_player(self.state)
            action = self.rng.choice(engine.legal_actions(self.state))
            rolls: list = []

            def dice(n: int, rolls: list = rolls) -> list:
                rolled = self._dice(n)
                rolls.append(rolled)
                return rolled

            self.state = engine.apply(self.state, player, action, dice)
            over = engine.is_over(self.state)
            event = {
                "type": "event",
                "seq": len(self.frames) + 1,
                "seat": self.players.index(player),
                "player": player,
                "action": action,
                "dice": rolls,
                "result": self.state.get("last_event") or {},
                "at": AT,
                "status": "finished" if over else "playing",
                "state": self.state,
                "preview": {} if over else engine.preview(self.state),
            }
            self.frames.append(json.dumps(event, separators=(",", ":")))

    def frame(self, seq: int) -> str | None:
        while len(self.frames) < seq and not self.engine.is_over(self.state):
            self.extend(64)
        return self.frames[seq - 1] if seq <= len(self.frames) else None


# --- users, sessions and games (Django ORM; run outside the event loop or in the db thread) --------


def ensure_users(count: int, prefix: str = USER_PREFIX) -> list:
    """Users lb0000s0 ... for ``count`` tables (4 each), created in bulk when missing."""
    return ensure_named_users([f"{prefix}{t:04d}s{s}" for t in range(count) for s in range(SEATS)])


def ensure_named_users(names: list[str]) -> list:
    """These users, created in bulk when missing (no password: they sign in by session only)."""
    from django.contrib.auth import get_user_model

    model = get_user_model()
    have = {u.username: u for u in model.objects.filter(username__in=names)}
    missing = [n for n in names if n not in have]
    if missing:
        new = []
        for name in missing:
            user = model(username=name)
            user.set_unusable_password()
            new.append(user)
        model.objects.bulk_create(new, batch_size=1000)
        have.update({u.username: u for u in model.objects.filter(username__in=missing)})
    return [have[n] for n in names]


def session_cookies(users: list) -> dict[int, str]:
    """A signed-in session per user (as force_login would make), written in bulk: {user id: key}."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    # As force_login: the first backend that can load a user (django-axes' own comes first and cannot).
    backend = next(b for b in settings.AUTHENTICATION_BACKENDS if hasattr(load_backend(b), "get_user"))
    store = SessionStore()
    expires = timezone.now() + timedelta(days=1)
    rows, keys = [], {}
    for user in users:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        keys[user.pk] = key
    Session.objects.bulk_create(rows, batch_size=1000)
    return keys


def create_game(users: list, kind: str) -> tuple[int, dict]:
    """A started 4-seat game through the services (create, 3 joins, start): (id, state)."""
    from games.tables import services

    game = services.game_create(creator=users[0], kind=kind, options=KINDS[kind][1], seats=SEATS)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game = services.game_start(game_id=game.pk, user=users[0])
    return game.pk, game.state


def ensure_idle_games(count: int) -> list[tuple[int, list]]:
    """``count`` started 4-seat games over days (a day per turn, so nobody is timed out during a step)
    whose seats are users lw0000s0 ...; made once per database and reused: [(id, users)]."""
    from games.models import Game
    from games.tables import services

    users = ensure_users(count, WATCHER_PREFIX)
    creators = [users[g * SEATS] for g in range(count)]
    have = dict(
        Game.objects.filter(
            creator__in=creators, pace=Game.Pace.DAYS, status=Game.Status.PLAYING
        ).values_list("creator_id", "pk")
    )
    out = []
    for g, creator in enumerate(creators):
        seats = users[g * SEATS : (g + 1) * SEATS]
        game_id = have.get(creator.pk)
        if game_id is None:
            game = services.game_create(
                creator=creator,
                kind="farkle",
                options=KINDS["farkle"][1],
                seats=SEATS,
                pace=Game.Pace.DAYS,
                absence_limit=86_400,
            )
            for user in seats[1:]:
                services.game_join(game_id=game.pk, user=user)
            game_id = services.game_start(game_id=game.pk, user=creator).pk
        out.append((game_id, seats))
    return out


def verify_game(game_id: int) -> tuple[list[int], int, list[str]]:
    """(stored seqs, the game's seq, problems) after game_verify_replay."""
    from games.errors import ReplayMismatch
    from games.models import Action, Game
    from games.results import replays

    game = Game.objects.get(pk=game_id)
    seqs = list(Action.objects.filter(game_id=game_id).order_by("seq").values_list("seq", flat=True))
    problems = []
    try:
        replays.game_verify_replay(game_id=game_id)
    except ReplayMismatch as exc:
        problems.append(f"replay: {exc}")
    return seqs, game.seq, problems


# --- the generator's own garbage collector ----------------------------------------------------------


def quiet_collector() -> None:
    """Keep the generator's collector out of the measured window: with 5,000 sockets open its full
    collections took 270-585 ms, and young ones up to 68 ms, and every event in flight then looked
    that much slower (docs/BENCHMARKS.md). What is open by now lives to the end of the step (frozen);
    the cycles the window leaves wait for collector_back()."""
    gc.collect()
    gc.freeze()
    gc.disable()


def collector_back() -> None:
    gc.enable()
    gc.unfreeze()
    gc.collect()


# --- the step --------------------------------------------------------------------------------------


@dataclass
class Config:
    mode: str = "ours"  # or "baseline"
    games: int = 10  # tables
    think: float = 1.0  # mean think time, seconds; 0 = saturation
    duration: float = 20.0  # seconds during which actions are sent
    warmup: float = 2.0  # seconds at the start not counted in the figures (still checked)
    ports: list[int] = field(default_factory=lambda: [8101])
    host: str = "127.0.0.1"
    seed: int = 1
    start_spread: float | None = None  # table start offsets uniform in [0, this]; default: the think mean
    drain: float = 15.0  # seconds to wait for the last events after the step
    connect_concurrency: int = 50
    server_pids: list[int] = field(default_factory=list)
    on_measure: Any = None  # called when the measured window opens (the profiler starts then)
    quiet_notices: int = 0  # idle notices sockets (the first ones are the busy seats' users')
    quiet_watchers: int = 0  # idle game-page sockets on games over days, 4 to a game
    ping_every: float = PING_EVERY_S


@dataclass
class Pending:
    sent: float
    measured: bool
    arrived: int = 0


@dataclass
class SeatConn:
    index: int
    user: Any
    cookie: str
    port: int
    ws: Any = None
    reader: asyncio.Task | None = None
    last_seq: int = 0
    start_seq: int = 0
    state: dict | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    finished: bool = False
    closing: bool = False


@dataclass
class QuietConn:
    """A socket that only pings: a notices socket or a game page of a game nobody moves in."""

    kind: str  # "notices" or "watcher"
    path: str
    cookie: str
    port: int
    ws: Any = None
    reader: asyncio.Task | None = None
    pinger: asyncio.Task | None = None
    pings: int = 0
    pongs: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    closing: bool = False


@dataclass
class Play:
    """One game being played by one table."""

    table: int
    game_id: int
    kind: str
    seats: list[SeatConn]
    initial_state: dict | None = None
    script: Script | None = None
    pending: dict[int, Pending] = field(default_factory=dict)
    sent: list[int] = field(default_factory=list)
    acked: list[int] = field(default_factory=list)
    over: bool = False
    stopped: bool = False
    failed: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Step:
    def __init__(self, cfg: Config, users: list, cookies: dict[int, str]):
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.users = users
        self.cookies = cookies
        self.latencies: list[float] = []
        self.connect_times: list[float] = []
        self.completed = 0  # measured actions whose event reached every seat
        self.completed_all = 0
        self.errors: Counter[str] = Counter()
        self.error_samples: list[str] = []
        self.plays: list[Play] = []
        self.next_virtual_id = 1_000_000
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-db")
        self.rss_peak: dict[int, int] = {}
        self.event_bytes = 0
        self.events_received = 0
        self.stop_at = math.inf
        self.measure_from = math.inf
        self.quiet: list[QuietConn] = []
        self.quiet_connected = 0
        self.notices_frames = 0  # feeds pushed to notices sockets (notices_changed) during the step
        self.rss_fresh: dict[int, int] = {}
        self.rss_connected: dict[int, int] = {}

    # --- errors ---

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        if len(self.error_samples) < MAX_ERROR_SAMPLES:
            self.error_samples.append(f"{kind}: {detail}"[:300])

    # --- games ---

    def _table_users(self, table: int) -> list:
        return self.users[table * SEATS : (table + 1) * SEATS]

    def _new_play_sync(self, table: int) -> Play:
        users = self._table_users(table)
        kind = choose_kind(self.rng)
        seats = [
            SeatConn(index=i, user=u, cookie=self.cookies[u.pk], port=self.cfg.ports[i % len(self.cfg.ports)])
            for i, u in enumerate(users)
        ]
        if self.cfg.mode == "ours":
            game_id, state = create_game(users, kind)
            play = Play(table=table, game_id=game_id, kind=kind, seats=seats, initial_state=state)
        else:
            self.next_virtual_id += 1
            script = Script(kind, [u.username for u in users], random.Random(self.rng.random()))
            expected = 256 if self.cfg.think <= 0 else int(self.cfg.duration / (0.5 * self.cfg.think)) + 16
            script.extend(expected)
            play = Play(
                table=table,
                game_id=self.next_virtual_id,
                kind=kind,
                seats=seats,
                initial_state=script.initial,
                script=script,
            )
        self.plays.append(play)
        return play

    async def _new_play(self, table: int) -> Play:
        return await asyncio.get_running_loop().run_in_executor(self.db, self._new_play_sync, table)

    # --- sockets ---

    def _url(self, seat: SeatConn, play: Play) -> str:
        path = "games" if self.cfg.mode == "ours" else "bench"
        return f"ws://{self.cfg.host}:{seat.port}/ws/{path}/{play.game_id}/"

    async def _open(self, url: str, port: int, cookie: str):
        from django.conf import settings
        from websockets.asyncio.client import connect

        return await connect(
            url,
            origin=f"http://{self.cfg.host}:{port}",
            additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"},
            compression=None,
            proxy=None,
            ping_interval=None,
            open_timeout=30,
            close_timeout=5,
            max_size=4 * 2**20,
            max_queue=None,
        )

    async def _connect_seat(self, play: Play, seat: SeatConn, gate: asyncio.Semaphore) -> bool:
        async with gate:
            start = time.monotonic()
            try:
                seat.ws = await self._open(self._url(seat, play), seat.port, seat.cookie)
            except Exception as exc:  # noqa: BLE001 - any failure to connect is a counted error
                self.error("connect", f"game {play.game_id} seat {seat.index}: {exc!r}")
                return False
            seat.reader = asyncio.create_task(self._read(play, seat))
            try:
                await asyncio.wait_for(seat.ready.wait(), 30)
            except TimeoutError:
                self.error("connect", f"game {play.game_id} seat {seat.index}: no snapshot in 30 s")
                return False
            self.connect_times.append(time.monotonic() - start)
            return True

    async def _connect_play(self, play: Play, gate: asyncio.Semaphore) -> bool:
        results = await asyncio.gather(*(self._connect_seat(play, s, gate) for s in play.seats))
        if not all(results):
            play.failed = True
            await self._close_play(play)
            return False
        return True

    async def _close_play(self, play: Play) -> None:
        for seat in play.seats:
            seat.closing = True
        await asyncio.gather(*(s.ws.close() for s in play.seats if s.ws is not None), return_exceptions=True)
        for seat in play.seats:
            if seat.reader is not None:
                seat.reader.cancel()

    # --- quiet sockets ---

    def _quiet_sync(self) -> list[QuietConn]:
        """The quiet sockets' users (created when missing), sessions and paths."""
        cfg = self.cfg
        busy = self.users[: cfg.games * SEATS]
        extra = max(0, cfg.quiet_notices - len(busy))
        notice_users = (busy + ensure_named_users([f"{NOTICES_PREFIX}{i:05d}" for i in range(extra)]))[
            : cfg.quiet_notices
        ]
        idle_count = math.ceil(cfg.quiet_watchers / SEATS)
        if cfg.mode == "ours":
            idle = ensure_idle_games(idle_count)
        else:
            users = ensure_users(idle_count, WATCHER_PREFIX)
            idle = [(BASELINE_WATCH_ID + g, users[g * SEATS : (g + 1) * SEATS]) for g in range(idle_count)]
        watchers = [(game_id, u) for game_id, users in idle for u in users][: cfg.quiet_watchers]
        fresh = [u for u in notice_users + [u for _, u in watchers] if u.pk not in self.cookies]
        self.cookies.update(session_cookies(fresh))
        game_path = "games" if cfg.mode == "ours" else "bench"
        plan = [
            ("notices", "/ws/notices/" if cfg.mode == "ours" else f"/ws/bench/{BASELINE_NOTICES_ID + i}/", u)
            for i, u in enumerate(notice_users)
        ] + [("watcher", f"/ws/{game_path}/{game_id}/", u) for game_id, u in watchers]
        ports = cfg.ports
        return [
            QuietConn(kind=kind, path=path, cookie=self.cookies[u.pk], port=ports[i % len(ports)])
            for i, (kind, path, u) in enumerate(plan)
        ]

    async def _connect_quiet(self, q: QuietConn, gate: asyncio.Semaphore) -> None:
        async with gate:
            try:
                q.ws = await self._open(f"ws://{self.cfg.host}:{q.port}{q.path}", q.port, q.cookie)
            except Exception as exc:  # noqa: BLE001 - any failure to connect is a counted error
                self.error("quiet_connect", f"{q.kind} {q.path}: {exc!r}")
                return
            q.reader = asyncio.create_task(self._quiet_read(q))
            try:
                await asyncio.wait_for(q.ready.wait(), 30)
            except TimeoutError:
                self.error("quiet_connect", f"{q.kind} {q.path}: no first frame in 30 s")
                return
        self.quiet_connected += 1
        q.pinger = asyncio.create_task(self._quiet_ping(q))

    def _first_frame(self, q: QuietConn) -> str:
        """What a quiet socket must get first: the notices feed, the game's snapshot (the baseline: its
        ready frame)."""
        if self.cfg.mode == "ours" and q.kind == "notices":
            return "notices"
        return "snapshot"

    async def _quiet_read(self, q: QuietConn) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                kind = orjson.loads(await q.ws.recv(decode=False)).get("type")
                if not q.ready.is_set():
                    if kind != self._first_frame(q):
                        self.error("quiet_first_frame", f"{q.kind} {q.path}: first frame {kind!r}")
                    q.ready.set()
                elif kind == "pong":
                    q.pongs += 1
                elif kind == "notices":
                    self.notices_frames += 1
                elif kind == "error":
                    self.error("quiet_server_error", f"{q.kind} {q.path}")
        except ConnectionClosed as exc:
            if not q.closing:
                self.error("quiet_closed", f"{q.kind} {q.path}: {exc!r}")

    async def _quiet_ping(self, q: QuietConn) -> None:
        """Ping as the page does; the first one at a random point of the interval (pages load apart)."""
        await asyncio.sleep(self.rng.uniform(0, self.cfg.ping_every))
        while not q.closing:
            q.pings += 1
            try:
                await q.ws.send(PING)
            except Exception as exc:  # noqa: BLE001 - a send that fails is a counted error
                if not q.closing:
                    self.error("quiet_send", f"{q.kind} {q.path}: {exc!r}")
                return
            await asyncio.sleep(self.cfg.ping_every)

    async def _finish_quiet(self) -> None:
        """Stop pinging, wait (up to 10 s) for the last pongs, count the missing ones, close."""
        for q in self.quiet:
            if q.pinger is not None:
                q.pinger.cancel()
        deadline = time.monotonic() + 10
        waiting = [q for q in self.quiet if q.ws is not None]
        # A few polls at the end of a step: not worth an event per socket.
        while time.monotonic() < deadline and any(q.pongs < q.pings for q in waiting):  # noqa: ASYNC110
            await asyncio.sleep(0.2)
        for q in self.quiet:
            if q.ws is not None and q.pongs < q.pings:
                self.error("quiet_no_pong", f"{q.kind} {q.path}: {q.pings} pings, {q.pongs} pongs")
            q.closing = True
        await asyncio.gather(*(q.ws.close() for q in self.quiet if q.ws is not None), return_exceptions=True)
        for q in self.quiet:
            if q.reader is not None:
                q.reader.cancel()

    def _rss(self) -> dict[int, int]:
        from bench.procstat import status_kb

        return {pid: v for pid in self.cfg.server_pids if (v := status_kb(pid, "VmRSS")) is not None}

    # --- frames ---

    async def _read(self, play: Play, seat: SeatConn) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                raw = await seat.ws.recv(decode=False)  # bytes: orjson reads UTF-8 as it is
                now = time.monotonic()
                message = orjson.loads(raw)
                kind = message.get("type")
                if kind == "event":
                    self.event_bytes += len(raw)
                    self.events_received += 1
                    self._on_event(play, seat, message, now)
                elif kind == "ack":
                    self._on_ack(play, seat, message)
                elif kind == "snapshot":
                    if self.cfg.mode == "ours":
                        seat.last_seq = seat.start_seq = message["seq"]
                        seat.state = message["state"]
                    else:
                        seat.state = play.initial_state
                    seat.ready.set()
                elif kind == "error":
                    self._on_error(play, seat, message)
        except ConnectionClosed as exc:
            if not seat.closing:
                self.error("closed", f"game {play.game_id} seat {seat.index}: {exc!r}")
                play.stopped = play.failed = True
                self._maybe_done(play)

    def _on_event(self, play: Play, seat: SeatConn, message: dict, now: float) -> None:
        seq = message["seq"]
        if seq != seat.last_seq + 1:
            kind = "duplicate_event" if seq <= seat.last_seq else "gap"
            self.error(kind, f"game {play.game_id} seat {seat.index}: seq {seq} after {seat.last_seq}")
            if seq <= seat.last_seq:
                return
        seat.last_seq = seq
        seat.state = message["state"]
        pending = play.pending.get(seq)
        if pending is None:
            self.error("unexpected_event", f"game {play.game_id}: event {seq} that nobody sent")
        else:
            pending.arrived += 1
            if pending.arrived == SEATS:
                del play.pending[seq]
                self.completed_all += 1
                if pending.measured:
                    self.latencies.append(now - pending.sent)
                    self.completed += 1
        if message["status"] != "playing":
            seat.finished = True
            if all(s.finished for s in play.seats):
                play.over = True
            self._maybe_done(play)
            return
        if play.stopped:
            self._maybe_done(play)
            return
        if seat.state["current"] == seat.user.username:
            asyncio.create_task(self._act(play, seat, now))  # noqa: RUF006 - it ends by itself

    def _on_ack(self, play: Play, seat: SeatConn, message: dict) -> None:
        if message.get("duplicate"):
            self.error("duplicate_ack", f"game {play.game_id} seat {seat.index}: {message}")
        expected = message.get("id", "").rpartition("-")[2]
        if str(message.get("seq")) != expected:
            self.error("ack_mismatch", f"game {play.game_id}: {message}")
        play.acked.append(message.get("seq"))

    def _on_error(self, play: Play, seat: SeatConn, message: dict) -> None:
        self.error(f"server:{message.get('code')}", f"game {play.game_id} seat {seat.index}: {message}")
        client_id = message.get("id") or ""
        seq = client_id.rpartition("-")[2]
        if seq.isdigit() and int(seq) in play.pending:
            del play.pending[int(seq)]
            play.sent.remove(int(seq))  # refused: nothing was stored
        play.stopped = True  # the game cannot go on from here; stop it cleanly
        self._maybe_done(play)

    def _maybe_done(self, play: Play) -> None:
        if (play.over or play.stopped) and not play.pending:
            play.done.set()

    async def _act(self, play: Play, seat: SeatConn, since: float) -> None:
        wait = think_time(self.rng, self.cfg.think) - (time.monotonic() - since)
        if wait > 0:
            await asyncio.sleep(wait)
        if play.stopped or play.over:
            return
        if time.monotonic() >= self.stop_at:
            play.stopped = True
            self._maybe_done(play)
            return
        seq = seat.last_seq + 1
        if self.cfg.mode == "ours":
            from games import rules

            action = self.rng.choice(rules.get(play.kind).legal_actions(seat.state))
            frame = json.dumps({"type": "action", "id": f"{seat.index}-{seq}", "action": action})
        else:
            frame = play.script.frame(seq)
        now = time.monotonic()
        play.pending[seq] = Pending(sent=now, measured=now >= self.measure_from)
        play.sent.append(seq)
        try:
            await seat.ws.send(frame)
        except Exception as exc:  # noqa: BLE001 - a send that fails is a counted error
            self.error("send", f"game {play.game_id} seat {seat.index}: {exc!r}")
            play.pending.pop(seq, None)
            play.stopped = play.failed = True
            self._maybe_done(play)

    def _kick(self, play: Play) -> None:
        """Let the player to move in a freshly connected game start (after a think time)."""
        seat0 = play.seats[0]
        current = seat0.state and seat0.state.get("current")
        for seat in play.seats:
            if seat.user.username == current:
                asyncio.create_task(self._act(play, seat, time.monotonic()))  # noqa: RUF006
                return
        play.stopped = True
        play.done.set()

    async def _table(self, first: Play, offset: float, gate: asyncio.Semaphore) -> None:
        await asyncio.sleep(offset)
        play = first
        while True:
            self._kick(play)
            await play.done.wait()
            await self._close_play(play)
            if not play.over or time.monotonic() >= self.stop_at - 1:
                return
            play = await self._new_play(play.table)
            if not await self._connect_play(play, gate):
                return

    async def _sample_memory(self) -> None:
        from bench.procstat import status_kb

        while True:
            for pid in self.cfg.server_pids:
                rss = status_kb(pid, "VmRSS")
                if rss is not None:
                    self.rss_peak[pid] = max(self.rss_peak.get(pid, 0), rss)
            await asyncio.sleep(0.25)

    async def _run(self, meter) -> dict:
        cfg = self.cfg
        gate = asyncio.Semaphore(cfg.connect_concurrency)
        sampler = asyncio.create_task(self._sample_memory())
        loop = asyncio.get_running_loop()
        self.rss_fresh = self._rss()  # the fresh server, before any socket
        setup_start = time.monotonic()
        firsts = [await loop.run_in_executor(self.db, self._new_play_sync, t) for t in range(cfg.games)]
        self.quiet = await loop.run_in_executor(self.db, self._quiet_sync)
        setup_games = time.monotonic() - setup_start
        connect_start = time.monotonic()
        # The quiet sockets first, all of them before the measured window: their handshake storm is
        # not play.
        await asyncio.gather(*(self._connect_quiet(q, gate) for q in self.quiet))
        connect_quiet = time.monotonic() - connect_start
        connected = await asyncio.gather(*(self._connect_play(p, gate) for p in firsts))
        connect_all = time.monotonic() - connect_start
        self.rss_connected = self._rss()
        self.connect_times_initial = list(self.connect_times)
        quiet_collector()
        start = time.monotonic()
        self.measure_from = start + cfg.warmup
        self.stop_at = start + cfg.warmup + cfg.duration
        spread = cfg.think if cfg.start_spread is None else cfg.start_spread
        meter_started = False
        tables = [
            asyncio.create_task(self._table(p, self.rng.uniform(0, spread), gate))
            for p, ok in zip(firsts, connected, strict=True)
            if ok
        ]
        await asyncio.sleep(max(0.0, self.measure_from - time.monotonic()))
        if meter is not None:
            meter.start()
            meter_started = True
        if cfg.on_measure is not None:
            cfg.on_measure()
        done_measuring = asyncio.create_task(asyncio.sleep(max(0.0, self.stop_at - time.monotonic())))
        await done_measuring
        cpu = meter.stop() if meter_started else None
        _, late = await asyncio.wait(tables, timeout=cfg.drain + 5) if tables else (set(), set())
        lost = 0
        for play in self.plays:
            if play.pending:
                lost += len(play.pending)
                self.error(
                    "lost", f"game {play.game_id}: events {sorted(play.pending)[:5]} never reached every seat"
                )
        for task in late:
            task.cancel()
        collector_back()
        await asyncio.gather(*(self._close_play(p) for p in self.plays), return_exceptions=True)
        await self._finish_quiet()
        sampler.cancel()
        await loop.run_in_executor(self.db, _close_db)
        return {
            "setup_games_s": round(setup_games, 2),
            "connect_all_s": round(connect_all, 2),
            "connect_quiet_s": round(connect_quiet, 2),
            "lost": lost,
            "cpu": cpu,
        }

    def run(self, meter=None) -> dict:
        """Play the step; check every log; return the figures."""
        cfg = self.cfg
        started = time.time()
        # uvloop and orjson: the generator shares the machine's two cores with the servers, so every
        # millisecond it spends per action is taken from them (docs/BENCHMARKS.md, scale-out).
        raise_nofile()
        try:
            extra = uvloop.run(self._run(meter))
        finally:
            if not gc.isenabled():  # the step failed inside its measured window
                collector_back()
        self.db.shutdown()
        check = self._check_logs()
        if cfg.mode == "ours":
            end_games([p.game_id for p in self.plays])
        measured = self.latencies
        hwm = {}
        from bench.procstat import status_kb

        for pid in cfg.server_pids:
            value = status_kb(pid, "VmHWM")
            if value is not None:
                hwm[pid] = value
        errors = sum(self.errors.values()) + len(check["problems"])
        total = cfg.games * SEATS + len(self.quiet)
        fresh, connected = sum(self.rss_fresh.values()), sum(self.rss_connected.values())
        return {
            "mode": cfg.mode,
            "processes": len(cfg.ports),
            "games": cfg.games,
            "sockets": cfg.games * SEATS,
            "quiet_sockets": {"notices": cfg.quiet_notices, "watchers": cfg.quiet_watchers},
            "quiet_connected": self.quiet_connected,
            "sockets_total": total,
            "quiet_pings": sum(q.pings for q in self.quiet),
            "notices_frames": self.notices_frames,
            "server_rss_fresh_mb": round(fresh / 1024, 1) if self.rss_fresh else None,
            "server_rss_connected_mb": round(connected / 1024, 1) if self.rss_connected else None,
            "memory_per_socket_kb": memory_per_socket_kb(
                fresh if self.rss_fresh else None, connected if self.rss_connected else None, total
            ),
            "think_mean_s": cfg.think,
            "offered_actions_per_s": round(cfg.games / cfg.think, 1) if cfg.think > 0 else None,
            "duration_s": cfg.duration,
            "warmup_s": cfg.warmup,
            "started_at": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
            "actions": self.completed,
            "actions_all": self.completed_all,
            "actions_per_s": round(self.completed / cfg.duration, 1),
            "latency": latency_summary(measured),
            "connect": latency_summary(self.connect_times),
            "errors": errors,
            "error_kinds": dict(self.errors)
            | ({"log_check": len(check["problems"])} if check["problems"] else {}),
            "error_samples": self.error_samples + check["problems"][:MAX_ERROR_SAMPLES],
            "games_played": len([p for p in self.plays if not p.failed]),
            "games_finished": len([p for p in self.plays if p.over]),
            "mean_event_bytes": round(self.event_bytes / self.events_received)
            if self.events_received
            else None,
            "server_rss_peak_mb": [round(v / 1024, 1) for v in self.rss_peak.values()],
            "server_vmhwm_mb": [round(v / 1024, 1) for v in hwm.values()],
            "log_check": {"games": check["games"], "ok": not check["problems"]},
            **extra,
        }

    def _check_logs(self) -> dict:
        problems: list[str] = []
        checked = 0
        for play in self.plays:
            if play.failed and not play.sent:
                continue
            seen = {str(s.index): s.last_seq for s in play.seats if s.ready.is_set()}
            if self.cfg.mode == "ours":
                log, final, replay = verify_game(play.game_id)
                found = replay + log_problems(log, play.sent, play.acked, seen, final)
            else:
                # No server log: the seats' streams and what was sent must agree.
                final = max(play.sent, default=0)
                found = log_problems(sorted(play.sent), play.sent, None, seen, final)
            checked += 1
            problems += [f"game {play.game_id} ({play.kind}): {p}" for p in found]
        return {"games": checked, "problems": problems}


def end_games(game_ids: list[int]) -> None:
    """The step's tables get up and leave: their games still being played are given up, so that the
    users of the next step are not players of every earlier step's games at once (each turn of a
    game reaches every player's list of games: a player of dozens of live games is a heavier reader
    than the players the steps stand for)."""
    from django.utils import timezone

    from games.models import Game

    Game.objects.filter(pk__in=game_ids, status=Game.Status.PLAYING).update(
        status=Game.Status.ABANDONED, finished_at=timezone.now()
    )
    _close_db()


def _close_db() -> None:
    from django.db import connections

    connections.close_all()


def setup_django() -> None:
    """Django for the generator: the benchmark database, and no Redis (the generator broadcasts nothing
    anyone listens to: games are created before their sockets connect)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.loadgen", description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=("ours", "baseline"), default="ours")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--ports", default="8101", help="comma-separated daphne ports")
    parser.add_argument("--pids", default="", help="comma-separated server pids (memory)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet-notices", type=int, default=0, help="idle notices sockets")
    parser.add_argument("--quiet-watchers", type=int, default=0, help="idle game pages (games over days)")
    args = parser.parse_args(argv)
    setup_django()
    users = ensure_users(args.games)
    cookies = session_cookies(users)
    cfg = Config(
        mode=args.mode,
        games=args.games,
        think=args.think,
        duration=args.duration,
        warmup=args.warmup,
        ports=[int(p) for p in args.ports.split(",")],
        server_pids=[int(p) for p in args.pids.split(",") if p],
        seed=args.seed,
        quiet_notices=args.quiet_notices,
        quiet_watchers=args.quiet_watchers,
    )
    result = Step(cfg, users, cookies).run()
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
