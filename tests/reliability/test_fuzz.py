"""Hostile frames: thousands of random and malformed frames over real connections change nothing.

Every frame is built to be refused: garbage, binary, wrong types, huge numbers, negative and duplicate
indices, unknown boxes, payloads of 2 MB, deeply nested JSON, other engines' actions, another game's
ids; every action in it carries at least one fault the server must catch (a field the action does not
have, a bad index, a bad id...), so that no frame may change a game. The server must answer each frame
with exactly one reply (an error, or the pong/snapshot a well-formed ping/sync asks for) or close that
socket; it must never fail (no ``server_error``), keep answering other sockets while it is flooded, let
a real game go on meanwhile, and leave the attacked games' state and log exactly as they were.

Two transports: the consumer in-process (WebsocketCommunicator) and a real daphne subprocess, whose
own frame-size limit (1 MiB) closes the socket on a 2 MB frame and whose UTF-8 check closes it on an
invalid text frame. The figures of the last run are written to artifacts/reliability-fuzz.json.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import random
import time
from collections import Counter

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection
from websockets.exceptions import ConnectionClosed

from games import rules
from games.models import Action, Game
from games.results import replays
from games.tables import services
from play.routing import websocket_urlpatterns
from tests.reliability.conftest import ARTIFACTS, Socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

UNLIMITED = 10**9
NEVER_LEGAL_KEYS = ("x", "game", "seq", "player", "dice", "points", "__proto__", "", "boxes", "column2")
BAD_INDICES = [-1, -(10**20), 6, 99, 10**30, 1.0, 0.5, True, False, "0", None, [0], {"i": 0}, 2**63]
BAD_COLUMNS = [0, 4, -1, "1", 1.5, True, None, 10**40, [1]]


# --- the frames ----------------------------------------------------------------------------------


def _nested(depth: int, leaf=0):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _base_actions(kind: str, rng: random.Random) -> dict:
    """A well-formed action of the engine (which the caller then spoils)."""
    if kind == "farkle":
        return rng.choice(
            [
                {"type": "roll", "keep": []},
                {"type": "roll", "keep": [rng.randrange(6)]},
                {"type": "bank", "keep": sorted(rng.sample(range(6), rng.randint(1, 3)))},
                {"type": "resign"},
                {"type": "skip"},
            ]
        )
    engine = rules.get(kind)
    box = rng.choice(list(engine.BOXES))
    score = {"type": "score", "box": box}
    if kind.startswith("triple"):
        score["column"] = rng.randint(1, 3)
    return rng.choice(
        [
            {"type": "roll", "hold": sorted(rng.sample(range(5), rng.randint(0, 4)))},
            score,
            {"type": "resign"},
            {"type": "skip"},
        ]
    )


def _spoil(action: dict, kind: str, rng: random.Random) -> dict:
    """At least one fault that makes the action illegal whatever the state."""
    action = dict(action)
    indices = "keep" if kind == "farkle" else "hold"
    faults = ["extra"]
    if indices in action:
        faults += ["bad_index", "duplicate", "not_a_list"]
    if action["type"] == "score":
        faults += ["bad_box"] + (["bad_column"] if kind.startswith("triple") else ["column"])
    faults += ["type"]
    fault = rng.choice(faults)
    if fault == "extra":
        action[rng.choice(NEVER_LEGAL_KEYS)] = rng.choice([1, "x", None, [1, 2], {"a": 1}, _nested(50)])
    elif fault == "bad_index":
        action[indices] = [*action[indices], rng.choice(BAD_INDICES)]
        rng.shuffle(action[indices])
    elif fault == "duplicate":
        i = rng.randrange(5)
        action[indices] = [i, i]
    elif fault == "not_a_list":
        action[indices] = rng.choice(["0", 0, {"0": 1}, None, "all", 10**25, _nested(30)])
    elif fault == "bad_box":
        action["box"] = rng.choice(
            ["", "Chance", "box'; DROP TABLE games_action;--", 7, None, ["chance"], "x" * 500]
        )
    elif fault == "bad_column":
        action["column"] = rng.choice(BAD_COLUMNS)
    elif fault == "column":
        action["column"] = 1  # Painted DiceZ has no columns
    else:
        action["type"] = rng.choice(
            ["fly", "ROLL", "", "roll ", 3, None, ["roll"], "score" if kind == "farkle" else "bank"]
        )
    return action


def _foreign_action(kind: str, rng: random.Random) -> dict:
    """Another engine's action, which this engine refuses by its shape."""
    if kind == "farkle":
        return rng.choice(
            [
                {"type": "roll", "hold": [0, 1]},
                {"type": "score", "box": "chance"},
                {"type": "roll", "hold": []},
            ]
        )
    return rng.choice(
        [{"type": "roll", "keep": [0]}, {"type": "bank", "keep": [0]}, {"type": "roll", "keep": []}]
    )


TWO_MB = json.dumps({"type": "action", "id": "m", "action": {"type": "roll", "keep": [0] * 700_000}})


@functools.cache
def _padded_ping(size: int, filler: str) -> str:
    """A ping padded to about `size` bytes of UTF-8."""
    count = size if filler == "x" else size // 3 + 1
    return json.dumps({"type": "ping", "pad": filler * count}, ensure_ascii=False)


def hostile_frames(rng: random.Random, kind: str, other_game: int, other_ids: list[str], real_server: bool):
    """Endless (label, frame) pairs; a frame is ("text", str), ("bytes", bytes) or ("badutf8", bytes)."""
    n = 0
    while True:
        n += 1
        pick = rng.random()
        if pick < 0.06:
            valid = json.dumps({"type": "action", "id": f"f{n}", "action": {"type": "roll", "keep": []}})
            yield (
                "bad_json",
                ("text", rng.choice([valid[: rng.randrange(1, len(valid))], "{", "}{", "nul", "'x'"])),
            )
        elif pick < 0.10:
            yield (
                "bad_json",
                ("text", "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 80)))),
            )
        elif pick < 0.14:
            yield "binary", ("bytes", rng.randbytes(rng.randrange(1, 300)))
        elif pick < 0.19:
            yield "not_object", ("text", json.dumps(rng.choice([[1, 2], 3, "ping", None, True, [], 1e300])))
        elif pick < 0.24:
            body = rng.choice(
                [{}, {"type": 1}, {"type": None}, {"type": ["ping"]}, {"type": {"a": 1}}, {"id": "x"}]
            )
            yield "bad_type", ("text", json.dumps(body))
        elif pick < 0.29:
            word = rng.choice(["dance", "", "PING", "action ", "admin", "x" * 300, "évènement", "\u0000"])
            yield "unknown_type", ("text", json.dumps({"type": word}))
        elif pick < 0.36:
            bad_id = rng.choice(["", "x" * 65, "y" * 5000, 123, None, [], {"id": 1}, True, 10**30])
            action = _base_actions(kind, rng)
            yield "bad_id", ("text", json.dumps({"type": "action", "id": bad_id, "action": action}))
        elif pick < 0.42:
            action = rng.choice(
                [None, "roll", 7, [], ["roll"], {}, {"keep": [0]}, {"type": 5}, {"type": None}]
            )
            yield (
                "bad_action_shape",
                ("text", json.dumps({"type": "action", "id": f"s{n}", "action": action})),
            )
        elif pick < 0.67:
            action = _spoil(_base_actions(kind, rng), kind, rng)
            yield "spoiled_action", ("text", json.dumps({"type": "action", "id": f"a{n}", "action": action}))
        elif pick < 0.72:
            yield (
                "foreign_action",
                ("text", json.dumps({"type": "action", "id": f"o{n}", "action": _foreign_action(kind, rng)})),
            )
        elif pick < 0.76:
            action = _spoil(_base_actions(kind, rng), kind, rng)
            frame = {"type": "action", "id": rng.choice(other_ids), "game": other_game, "action": action}
            yield "another_game", ("text", json.dumps(frame))
        elif pick < 0.80:
            seq = rng.choice([-1, -(10**20), "3", 1.5, None, [1], {"s": 1}, True])
            yield "bad_sync", ("text", json.dumps({"type": "sync", "seq": seq}))
        elif pick < 0.83:
            frame = rng.choice(
                [
                    {"type": "sync", "seq": rng.choice([0, 10**30, 2**64, 999999])},
                    {"type": "sync", "seq": 0, "game": other_game},
                    {"type": "ping", "junk": _nested(100)},
                    {"type": "ping"},
                ]
            )
            yield "odd_but_valid", ("text", json.dumps(frame))
        elif pick < 0.87:
            digits = "9" * rng.randrange(4400, 9000)
            frame = rng.choice(
                [
                    f'{{"type":"sync","seq":{digits}}}',
                    f'{{"type":"action","id":"h{n}","action":{{"type":"roll","keep":[{digits}]}}}}',
                    f'{{"type":"action","id":"i{n}","action":{{"type":"roll","keep":[1e999, -1e999]}}}}',
                    '{"type":"sync","seq":NaN}',
                ]
            )
            yield "huge_number", ("text", frame)
        elif pick < 0.91:
            depth = rng.choice([900, 3000, 7000])
            nested = "[" * depth + "]" * depth
            frame = rng.choice(
                [
                    nested,
                    f'{{"type":"action","id":"d{n}","action":{{"type":"roll","keep":{nested}}}}}',
                    json.dumps(
                        {"type": "action", "id": f"e{n}", "action": {"type": "roll", "keep": _nested(400)}}
                    ),
                ]
            )
            yield "deep", ("text", frame)
        elif pick < 0.95:
            size = rng.choice([16 * 1024 + 1, 40_000, 300_000, 1_000_000])
            yield "too_large", ("text", _padded_ping(size, rng.choice(["x", "€"])))
        elif pick < 0.97:
            # Fewer characters than the limit, more bytes (three per €).
            yield "multibyte", ("text", _padded_ping(18_000, "€"))
        elif pick < 0.985 or not real_server:
            # 2 MB: over daphne its 1 MiB frame limit closes the socket; in-process the consumer refuses it.
            yield "2mb", ("text", TWO_MB)
        else:
            yield "bad_utf8", ("badutf8", b'{"type":"ping","x":"\xff\xfe"}')


# --- the world -----------------------------------------------------------------------------------


def build(make_user):
    ann, bob, cid, dave, lea, leo = (make_user(n) for n in ("ann", "bob", "cid", "dave", "lea", "leo"))
    targets = {}
    for kind in ("farkle", "painted-dicez"):
        game = services.game_create(creator=ann, kind=kind, seats=2)
        services.game_join(game_id=game.pk, user=bob)
        services.game_start(game_id=game.pk, user=ann)
        first = {"type": "roll", "keep": []} if kind == "farkle" else {"type": "roll", "hold": []}
        services.game_apply_action(game_id=game.pk, user=ann, client_id=f"{kind}-1", action=first)
        targets[kind] = Game.objects.get(pk=game.pk)
    live = services.game_create(creator=lea, kind="farkle", seats=2, options={"goal": 10000})
    services.game_join(game_id=live.pk, user=leo)
    services.game_start(game_id=live.pk, user=lea)
    users = {"ann": ann, "bob": bob, "cid": cid, "dave": dave, "lea": lea, "leo": leo}
    return users, targets, Game.objects.get(pk=live.pk)


def fingerprint(game_id: int) -> dict:
    game = Game.objects.get(pk=game_id)
    return {
        "state": json.dumps(game.state, sort_keys=True),
        "seq": game.seq,
        "status": game.status,
        "log": list(
            Action.objects.filter(game_id=game_id).order_by("seq").values_list("pk", "seq", "client_id")
        ),
    }


# --- the two transports --------------------------------------------------------------------------


class InProcess:
    """The consumer itself, through a WebsocketCommunicator (no frame-size limit but the consumer's)."""

    app = URLRouter(websocket_urlpatterns)

    def __init__(self, user, game_id):
        self.user, self.game_id, self.comm = user, game_id, None

    async def open(self):
        self.comm = WebsocketCommunicator(self.app, f"/ws/games/{self.game_id}/")
        self.comm.scope["user"] = self.user
        connected, code = await self.comm.connect(timeout=10)
        assert connected, code
        assert json.loads(await self.comm.receive_from(timeout=10))["type"] == "snapshot"

    async def send(self, frame):
        how, data = frame
        await (self.comm.send_to(text_data=data) if how == "text" else self.comm.send_to(bytes_data=data))

    async def reply(self):
        """The next reply that is not a broadcast, or ("closed", code)."""
        while True:
            output = await self.comm.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                return "closed", output.get("code")
            message = json.loads(output["text"])
            if message["type"] not in ("presence", "event", "lobby"):
                return "reply", message

    async def close(self):
        with contextlib.suppress(Exception):
            await self.comm.disconnect()


class RealSocket:
    """A real websocket to a daphne subprocess."""

    def __init__(self, server, cookie, game_id):
        self.sock = Socket(server, game_id, cookie)

    async def open(self):
        await self.sock.open()

    async def send(self, frame):
        how, data = frame
        await self.sock.ws.send(data, text=how in ("text", "badutf8"))

    async def reply(self):
        try:
            while True:
                message = await self.sock.recv(10)
                if message["type"] not in ("presence", "event", "lobby"):
                    return "reply", message
        except ConnectionClosed as closed:
            # 1006: the connection ended without a close frame (daphne may drop a 2 MB sender at once).
            return "closed", closed.rcvd.code if closed.rcvd else 1006

    async def close(self):
        await self.sock.close()


async def attack(make_socket, frames, count: int, game_id: int, stats: Counter, problems: list) -> None:
    """Send `count` frames on one socket, one reply (or a close) for each; reconnect after a close."""
    sock = make_socket()
    await sock.open()
    for _ in range(count):
        label, frame = next(frames)
        stats["frames"] += 1
        stats[f"label:{label}"] += 1
        began = time.monotonic()
        try:
            await sock.send(frame)
        except ConnectionClosed as closed:
            # The server dropped the socket while the frame was still being written: on a busy machine
            # daphne refuses a 2 MB frame before its last bytes are sent. That close is its answer; for
            # any other frame it is a finding.
            kind, answer = "closed", closed.rcvd.code if closed.rcvd else 1006
            stats["closed_while_sending"] += 1
        else:
            kind, answer = await sock.reply()
        stats[f"time:{label}"] += time.monotonic() - began
        if kind == "closed":
            stats["closes"] += 1
            stats[f"close:{answer}"] += 1
            if label not in ("2mb", "bad_utf8"):
                problems.append(f"{label} closed the socket ({answer})")
            sock = make_socket()
            await sock.open()
            continue
        if answer["type"] == "error":
            stats["errors"] += 1
            stats[f"code:{answer['code']}"] += 1
            if answer["code"] in ("server_error", "rate_limited") or not answer.get("message"):
                problems.append(f"{label}: {answer}")
        elif answer["type"] == "ack" and label == "another_game" and answer["duplicate"]:
            # An id this player already used in this game: the earlier action's ack, nothing applied.
            stats["duplicate_acks"] += 1
        elif answer["type"] in ("pong", "snapshot") and label in ("odd_but_valid", "multibyte", "too_large"):
            stats[answer["type"]] += 1
            if answer["type"] == "snapshot" and answer["game"]["id"] != game_id:
                problems.append(f"a snapshot of game {answer['game']['id']} on a socket of game {game_id}")
            if label != "odd_but_valid":
                problems.append(f"{label} was accepted: {answer['type']}")
        else:
            problems.append(f"{label}: unexpected answer {answer}")
    await sock.close()


async def monitor(make_socket, stop: asyncio.Event, latencies: list) -> None:
    """Another socket pinging all along: the flood must not starve it."""
    sock = make_socket()
    await sock.open()
    while not stop.is_set():
        began = time.monotonic()
        await sock.send(("text", '{"type":"ping"}'))
        kind, answer = await sock.reply()
        assert kind == "reply" and answer["type"] == "pong", answer
        latencies.append(time.monotonic() - began)
        await asyncio.sleep(0.05)
    await sock.close()


async def play_meanwhile(sockets: dict, game: Game, stop: asyncio.Event, acks: list) -> None:
    """A real game goes on during the flood: random legal actions, each acked and broadcast."""
    engine = rules.get(game.kind)
    rng = random.Random(7)
    state = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).state
    n = 0
    while not stop.is_set() and not engine.is_over(state):
        player = engine.current_player(state)
        sock = sockets[player]
        n += 1
        action = rng.choice(engine.legal_actions(state))
        client_id = f"live-{n}"
        began = time.monotonic()
        await sock.send(("text", json.dumps({"type": "action", "id": client_id, "action": action})))
        while True:
            kind, answer = await sock.reply()
            assert kind == "reply", answer
            if answer.get("id") == client_id:
                break
        assert answer["type"] == "ack" and not answer["duplicate"], answer
        acks.append((answer["seq"], time.monotonic() - began))
        state = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).state


def record(name: str, figures: dict) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "reliability-fuzz.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[name] = figures
    path.write_text(json.dumps(data, indent=2, sort_keys=True))


async def run_fuzz(
    name, frames_total, make_attacker, make_monitor, live_sockets, targets, live, seed, real_server
):
    before = {k: await database_sync_to_async(fingerprint)(g.pk) for k, g in targets.items()}
    other_ids = ["live-1", "live-2", "farkle-1", "painted-dicez-1"]
    stats: Counter = Counter()
    problems: list[str] = []
    latencies: list[float] = []
    acks: list = []
    stop = asyncio.Event()
    # Attackers: the player to move and the one waiting, on both games, and a spectator.
    plan = [
        ("ann", "farkle"),
        ("bob", "farkle"),
        ("cid", "farkle"),
        ("ann", "painted-dicez"),
        ("bob", "painted-dicez"),
    ]
    per_socket = frames_total // len(plan) + 1
    began = time.monotonic()
    background = [
        asyncio.create_task(monitor(make_monitor, stop, latencies)),
        asyncio.create_task(play_meanwhile(live_sockets, live, stop, acks)),
    ]
    await asyncio.sleep(0.2)
    attackers = []
    for i, (who, kind) in enumerate(plan):
        game = targets[kind]
        frames = hostile_frames(random.Random(seed + i), kind, live.pk, other_ids, real_server)
        attackers.append(attack(make_attacker(who, game.pk, i), frames, per_socket, game.pk, stats, problems))
    await asyncio.gather(*attackers)
    stop.set()
    await asyncio.gather(*background)
    elapsed = time.monotonic() - began
    after = {k: await database_sync_to_async(fingerprint)(g.pk) for k, g in targets.items()}

    assert not problems, f"{len(problems)} bad answers, e.g. {problems[:10]}"
    assert stats["frames"] >= frames_total
    assert sum(v for k, v in stats.items() if k.startswith("label:")) == stats["frames"]
    answered = stats["errors"] + stats["closes"] + stats["pong"] + stats["snapshot"] + stats["duplicate_acks"]
    assert stats["frames"] == answered
    assert after == before, "a hostile frame changed a game"
    for game in [*targets.values(), live]:
        await database_sync_to_async(replays.game_verify_replay)(game_id=game.pk)
    assert len(latencies) >= 5, "the monitor socket got too few pongs"
    assert max(latencies) < 3.0, f"a pong took {max(latencies):.2f} s during the flood"
    assert acks, "the live game made no progress during the flood"
    live_log = await database_sync_to_async(
        lambda: list(Action.objects.filter(game_id=live.pk).order_by("seq").values_list("seq", flat=True))
    )()
    assert [seq for seq, _ in acks] == live_log == list(range(1, len(acks) + 1))
    figures = {
        "frames_sent": stats["frames"],
        "errors_received": stats["errors"],
        "closes": stats["closes"],
        "closed_while_sending": stats["closed_while_sending"],
        "pongs_and_snapshots_for_valid_frames": stats["pong"] + stats["snapshot"],
        "duplicate_acks_for_reused_ids": stats["duplicate_acks"],
        "error_codes": {k[5:]: v for k, v in sorted(stats.items()) if k.startswith("code:")},
        "close_codes": {k[6:]: v for k, v in sorted(stats.items()) if k.startswith("close:")},
        "frame_kinds": {k[6:]: v for k, v in sorted(stats.items()) if k.startswith("label:")},
        "reply_seconds_by_kind": {
            k[5:]: round(v, 1) for k, v in sorted(stats.items()) if k.startswith("time:")
        },
        "seconds": round(elapsed, 1),
        "monitor_pongs": len(latencies),
        "monitor_max_latency_ms": round(max(latencies) * 1000),
        "live_actions_acked_meanwhile": len(acks),
        "attacked_games_changed": 0,
    }
    record(f"{name} ({connection.vendor})", figures)
    return stats


async def test_fuzz_in_process(make_user, settings):
    for name in (
        "WS_RATE_ACTIONS_PER_10S",
        "WS_RATE_MESSAGES_PER_10S",
        "WS_RATE_USER_ACTIONS_PER_10S",
        "WS_RATE_USER_MESSAGES_PER_10S",
    ):
        setattr(settings, name, UNLIMITED)
    users, targets, live = await database_sync_to_async(build)(make_user)
    live_sockets = {name: InProcess(users[name], live.pk) for name in ("lea", "leo")}
    for sock in live_sockets.values():
        await sock.open()
    stats = await run_fuzz(
        "in_process",
        2_000,
        lambda who, game_id, _i: lambda: InProcess(users[who], game_id),
        lambda: InProcess(users["dave"], targets["farkle"].pk),
        live_sockets,
        targets,
        live,
        seed=1,
        real_server=False,
    )
    assert stats["closes"] == 0  # in-process nothing closes: 2 MB frames get too_large
    assert stats["code:too_large"] >= stats["label:2mb"] + stats["label:multibyte"]
    for sock in live_sockets.values():
        await sock.close()


@pytest.mark.slow_subprocess
async def test_fuzz_over_real_daphne(make_user, daphne):
    limits = {
        name: UNLIMITED
        for name in (
            "WS_RATE_ACTIONS_PER_10S",
            "WS_RATE_MESSAGES_PER_10S",
            "WS_RATE_USER_ACTIONS_PER_10S",
            "WS_RATE_USER_MESSAGES_PER_10S",
        )
    }
    # On PostgreSQL two server processes, attackers spread over both (the live game's players too). On
    # SQLite one: two processes would only queue on the database file's lock.
    count = 2 if connection.vendor == "postgresql" else 1
    servers = await asyncio.gather(*(asyncio.to_thread(daphne, f"fuzz-{i}", **limits) for i in range(count)))
    users, targets, live = await database_sync_to_async(build)(make_user)
    cookies = {name: await database_sync_to_async(session_cookie)(user) for name, user in users.items()}
    live_sockets = {
        name: RealSocket(servers[i % count], cookies[name], live.pk) for i, name in enumerate(("lea", "leo"))
    }
    for sock in live_sockets.values():
        await sock.open()
    stats = await run_fuzz(
        "daphne",
        int(os.environ.get("FUZZ_FRAMES", "10000")),
        lambda who, game_id, i: lambda: RealSocket(servers[i % count], cookies[who], game_id),
        lambda: RealSocket(servers[-1], cookies["dave"], targets["farkle"].pk),
        live_sockets,
        targets,
        live,
        seed=100,
        real_server=True,
    )
    # daphne's own limits: a frame over 1 MiB and invalid UTF-8 fail the connection; autobahn drops it
    # (1006, no close frame) rather than answer.
    assert stats["closes"] == stats["label:2mb"] + stats["label:bad_utf8"] > 0
    assert stats["closes"] == stats["close:1009"] + stats["close:1007"] + stats["close:1006"]
    for sock in live_sockets.values():
        await sock.close()
    for server in servers:
        assert server.alive(), "daphne died"
        log = server.log_text()
        assert "Traceback" not in log, log[-3000:]
