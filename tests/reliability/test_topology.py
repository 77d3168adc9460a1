"""The production topology, run here without Docker: nginx with deploy/nginx.conf in front of three
daphne processes started as docker-compose's `web` service (production settings, a real secret, DEBUG
off, --proxy-headers), PostgreSQL and Redis (tests/reliability/topology.py builds it). Everything goes
through nginx over HTTPS: sign-up, games whose seats sit on different daphne processes, static files,
/healthz, the admin, sign-in lock-out by the player's address, a rolling restart, and a websocket
left idle for five minutes.

The figures go to artifacts/reliability-topology.json; docs/RELIABILITY.md quotes them. Which parts of
deploy/nginx.conf these tests exercise, and why the others are not, goes to
artifacts/topology-nginx-exercised.md (the list is tests/reliability/nginx_parts.py).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from websockets.exceptions import ConnectionClosed

from games.models import Action, Game
from games.results import replays
from notices.models import TurnMail
from tests.browser.helpers import wait_for_disconnects
from tests.reliability import nginx_parts
from tests.reliability.conftest import ARTIFACTS, ROOT, Socket, database_url, real_backends
from tests.reliability.players import Ledger, Tab, choose, ledger_problems, reconnect
from tests.reliability.topology import (
    NGINX,
    Nginx,
    Visitor,
    Web,
    Worker,
    collectstatic,
    secret_key,
    substitution_diff,
    web_environment,
)

# Each test's rows are flushed after it (transaction=True): the servers commit what the test reads.
pytestmark = [*real_backends, pytest.mark.django_db(transaction=True)]
# Twice the longest timer an idle socket meets short of nginx's own (proxy_read_timeout 1h): the
# presence cut-off (PRESENCE_TIMEOUT, 75 s), nginx's 60 s default were that override lost, daphne's
# pings (every 20 s, 30 s to answer). A socket that outlives it has outlived each of them.
IDLE_SECONDS = 2 * max(75, 60, 20 + 30)
LOCK_AFTER = 4  # failed sign-ins from one address (LOGIN_FAILURES_PER_IP for these servers)
SIGNUP_LIMIT = 3  # sign-ups from one address an hour (SIGNUPS_PER_IP_PER_HOUR for these servers)
FIGURES: dict = {}


def nginx_or_fail() -> None:
    if os.path.exists(NGINX):
        return
    message = "nginx is not installed (apt-get install nginx; .ci/run does)"
    if os.environ.get("REQUIRE_REAL_BACKENDS") == "1":
        pytest.fail(message)
    pytest.skip(message)


class Site:
    def __init__(self, nginx: Nginx, webs: list[Web]):
        self.nginx = nginx
        self.webs = webs
        self.idle: Idle | None = None
        self.env: dict = {}
        self.worker = None


@pytest.fixture(scope="session")
def site(django_db_setup, django_db_blocker, tmp_path_factory):
    """The topology, up from this module's first test to the end of the run: its idle socket is
    checked by the run's last test (tests/conftest.py), so that its five minutes pass while the rest of
    the suite runs instead of in a sleep. Only the worker stops with this module (below)."""
    nginx_or_fail()
    with django_db_blocker.unblock():
        db_url = database_url()
    prefix = tmp_path_factory.mktemp("nginx")
    names = ("a", "b", "c")
    webs = [Web({}, f"topology-{name}") for name in names]
    nginx = Nginx(prefix, [web.port for web in webs])
    env = {
        **os.environ,
        **web_environment(
            {
                "SECRET_KEY": secret_key(),
                "ALLOWED_HOSTS": "localhost",
                # The test's nginx listens on a port of its own, which the browser's Origin names.
                "CSRF_TRUSTED_ORIGINS": nginx.url,
                "POSTGRES_PASSWORD": "",
            },
            {"DATABASE_URL": db_url, "REDIS_URL": os.environ["REDIS_URL"]},
        ),
        # The test run's own names on the shared Redis, and a lock-out this test can reach quickly.
        "CHANNEL_LAYER_PREFIX": f"topology{uuid.uuid4().hex[:8]}",
        "RATE_LIMIT_KEY_PREFIX": settings.RATE_LIMIT_KEY_PREFIX,
        "LOGIN_FAILURES_PER_IP": str(LOCK_AFTER),
        # The worker's e-mails go to files the test reads, soon after they are due.
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(prefix / "mail"),
        "TURN_MAIL_DAYS_AFTER": "1",
        "NOTICE_SWEEP_EVERY": "1",
        "SIGNUPS_PER_IP_PER_HOUR": str(SIGNUP_LIMIT),
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
    }
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    collectstatic(env)
    for web in webs:
        web.env = env
        if web.log_path.exists():
            web.log_path.unlink()
    # First, so that they are there even when the topology fails to come up.
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "topology-nginx.diff").write_text(substitution_diff(nginx.conf))
    (ARTIFACTS / "topology-nginx-exercised.md").write_text(nginx_parts.markdown(nginx_parts.CONF.read_text()))
    site = Site(nginx, webs)
    site.env = env
    site.worker = Worker(env, ARTIFACTS / "topology-worker.log")
    try:
        FIGURES["start_s"] = [round(web.start(), 2) for web in webs]
        site.worker.start()
        nginx.start()
        site.idle = Idle(site)
        yield site
    finally:
        nginx.stop()
        site.worker.stop()
        for web in webs:
            web.stop()
        (ARTIFACTS / "reliability-topology.json").write_text(json.dumps(FIGURES, indent=2))


@pytest.fixture(scope="module", autouse=True)
def _worker_for_this_module_only(site):
    """The topology's worker sends turn e-mails and plays computers' turns of whatever games the test
    database holds: stopped once this module's tests are done, before the rest of the suite runs."""
    yield
    site.worker.stop()


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:6]}"


PASSWORD = "a long enough passphrase 7"


def create_game(host: Visitor, kind: str, seats: int, **options: str) -> int:
    status, headers, _ = host.post_form(
        "/games/", "/games/new/", {"kind": kind, "seats": str(seats), **options}
    )
    assert status == 302, status
    match = re.search(r"/games/(\d+)/$", headers["location"])
    assert match, headers["location"]
    return int(match.group(1))


def table(site: Site, kind: str = "farkle", **options: str) -> tuple[int, dict[str, Visitor]]:
    """Two players sign up through nginx; the first creates a two-seat game, the second joins, it starts."""
    visitors = {}
    for role in ("host", "guest"):
        visitor = Visitor(site.nginx)
        visitor.sign_up(unique(role), PASSWORD)
        visitors[role] = visitor
    game_id = create_game(visitors["host"], kind, 2, **options)
    for who, path in (("guest", "join"), ("host", "start")):
        status, _, _ = visitors[who].post_form(f"/games/{game_id}/", f"/games/{game_id}/{path}/", {})
        assert status == 302, (who, path, status)
    return game_id, visitors


# --- the plain site -------------------------------------------------------------------------------


def test_https_static_health_and_admin(site):
    web = Visitor(site.nginx)
    status, headers, _ = web.get("/games/", https=False)
    assert status == 301 and headers["location"].startswith("https://localhost/games/")
    assert web.get("/healthz", https=False)[0] == 200  # a load balancer's check stays on HTTP
    status, headers, body = web.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and json.loads(body) == {"database": "ok", "channel_layer": "ok"}
    assert "content-encoding" not in headers, "under gzip_min_length: not worth compressing"
    check_access_log(site, web)

    # As through a load balancer, which adds Via: nginx compresses such requests (gzip_proxied any).
    status, headers, body = web.get("/", headers={"Accept-Encoding": "gzip", "Via": "1.1 balancer"})
    assert status == 200
    assert headers.get("content-encoding") == "gzip" and "Accept-Encoding" in headers.get("vary", "")
    page = gzip.decompress(body).decode()
    assert "DiceHall" in page
    assert "max-age=31536000" in headers["strict-transport-security"]
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page)
    assert stylesheet, "production serves hashed static names (the Dockerfile's collectstatic)"
    status, headers, css = web.get(stylesheet.group(1), headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert "immutable" in headers["cache-control"] and "max-age=315360000" in headers["cache-control"]
    plain_size = len(web.get(stylesheet.group(1))[2])
    FIGURES["static_css_bytes"] = {"plain": plain_size, "gzip": len(css)}
    FIGURES["home_bytes"] = {"plain": len(page.encode()), "gzip": len(body)}

    # client_max_body_size 2m: more than nginx's default 1 MB reaches Django (which wants a CSRF
    # token); a body announced over the limit is refused by nginx before it is sent.
    passed = web.post_bytes("/accounts/login/", 1_500_000)
    assert passed != 413 and passed < 500, passed
    assert web.post_bytes("/accounts/login/", 3_000_000, send=False) == 413
    FIGURES["request_body"] = {"1.5 MB": passed, "3 MB announced": 413}

    # As an operator makes one (README): manage.py with the web service's settings.
    name = unique("root")
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "createsuperuser",
            "--noinput",
            "--username",
            name,
            "--email",
            "r@example.com",
        ],
        cwd=ROOT,
        env={**site.env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD},
        check=True,
        capture_output=True,
    )
    admin = Visitor(site.nginx)
    status, headers, _ = admin.post_form(
        "/admin/login/?next=/admin/", "/admin/login/?next=/admin/", {"username": name, "password": PASSWORD}
    )
    assert status == 302 and headers["location"] == "/admin/"
    status, _, content = admin.get("/admin/")
    assert status == 200 and b"Site administration" in content
    assert all(morsel for morsel in admin.cookies), admin.cookies


def check_access_log(site: Site, web: Visitor) -> None:
    """A /healthz over HTTP and one over HTTPS each leave a line naming the visitor and the replica."""
    marker = uuid.uuid4().hex[:12]
    since = site.nginx.log_size()
    for https in (False, True):
        assert web.get(f"/healthz?probe={marker}", https=https)[0] == 200
    logged = site.nginx.logged(since, lambda line: marker in line.request, count=2)
    assert len(logged) == 2, logged
    for line in logged:
        assert line.request == f"GET /healthz?probe={marker} HTTP/1.1" and line.status == 200, line
        assert line.address == web.source, line
        assert len(line.upstreams) == 1 and line.upstreams[0] in site.nginx.replicas, line


def test_lockout_and_rate_limits_count_the_players_address_not_the_proxys(site):
    """nginx replaces any X-Forwarded-For the client sends with the address it sees; daphne
    (--proxy-headers) makes that REMOTE_ADDR, which sign-in lock-out and the sign-up limit count.
    (The websockets' rate limits count per socket and per user, wherever they connect from.)"""
    from axes.models import AccessAttempt

    player = Visitor(site.nginx)
    player.sign_up(unique("pat"), PASSWORD)
    name = player.username
    guesser = Visitor(site.nginx, source="127.0.9.7")
    for attempt in range(LOCK_AFTER):
        forged = {"X-Forwarded-For": f"10.9.8.{attempt}", "X-Real-IP": f"10.9.7.{attempt}"}
        assert guesser.log_in(unique("nobody"), "wrong", headers=forged) == 200
    addresses = set(AccessAttempt.objects.values_list("ip_address", flat=True))
    assert addresses == {"127.0.9.7"}, addresses
    # The right password from the guessing address is refused; from another address it works.
    assert Visitor(site.nginx, source="127.0.9.7").log_in(name, PASSWORD) == 429
    assert Visitor(site.nginx, source="127.0.9.8").log_in(name, PASSWORD) == 302

    # A script signing up from one address, forging a new X-Forwarded-For each time, is stopped.
    statuses = []
    for n in range(SIGNUP_LIMIT + 1):
        script = Visitor(site.nginx, source="127.0.9.9")
        forged = {"X-Forwarded-For": f"10.9.6.{n}"}
        statuses.append(
            script.post_form(
                "/accounts/signup/",
                "/accounts/signup/",
                {"username": unique("bot"), "password1": PASSWORD, "password2": PASSWORD},
                headers=forged,
            )[0]
        )
    assert statuses == [302] * SIGNUP_LIMIT + [429], statuses
    Visitor(site.nginx, source="127.0.9.10").sign_up(unique("friend"), PASSWORD)
    FIGURES["by_address"] = {
        "failed_sign_ins_before_lock": LOCK_AFTER,
        "recorded_addresses": sorted(addresses),
        "sign_up_statuses_from_one_address": statuses,
    }


# --- games through nginx --------------------------------------------------------------------------


def cookie_of(visitor: Visitor) -> str:
    return f"sessionid={visitor.cookies['sessionid']}"


async def open_tabs(site: Site, game_id: int, visitors: dict[str, Visitor], ledger: Ledger) -> dict[str, Tab]:
    """One tab per player; each socket's replica is recorded (they must differ)."""
    tabs, replicas = {}, {}
    for role, visitor in visitors.items():
        sock = Socket(site.nginx, game_id, cookie_of(visitor), role)
        tab = Tab(sock, visitor.username, ledger, f"{role}-{game_id}")
        loop = asyncio.get_running_loop()
        before = [web.established() for web in site.webs]
        await tab.open()
        replicas[role] = await loop.run_in_executor(None, grown_replica, site, before)
        tabs[visitor.username] = tab
    return tabs, replicas


def grown_replica(site: Site, before: list[int]) -> str:
    deadline = time.monotonic() + 5
    while True:
        grown = [web.name for web, b in zip(site.webs, before, strict=True) if web.established() > b]
        if len(grown) == 1 or time.monotonic() > deadline:
            return grown[0] if len(grown) == 1 else "?"
        time.sleep(0.02)


async def surely(tab: Tab, step):
    """Run `step()` on the tab; whenever its socket is lost (a replica stopped), reconnect through
    nginx (another replica takes it) and run the step again."""
    while True:
        try:
            return await step()
        except (ConnectionClosed, OSError, TimeoutError) as exc:
            tab.ledger.errors[f"lost:{type(exc).__name__}"] += 1
            await reconnect(tab, wait=60)


async def settle(tab: Tab, seq: int) -> None:
    """The tab has seen `seq`: from the broadcast, as a page would, or else through a sync."""
    deadline = time.monotonic() + 2
    while tab.seq < seq and time.monotonic() < deadline:
        await tab.pump(0.1)
    if tab.seq < seq:
        await tab.catch_up(seq, wait=30)


async def play_to_the_end(
    tabs: dict[str, Tab], rng: random.Random, progress: list[int], endless_until: asyncio.Event | None = None
) -> int:
    """Legal moves until the game is over; an action whose answer was lost is re-sent with its id,
    and one refused for going too fast is re-sent after the wait the server asks for. Until
    ``endless_until`` is set, no bank brings a player near the goal: the game cannot end meanwhile."""
    any_tab = next(iter(tabs.values()))
    n = 0
    while any_tab.state and any_tab.status == "playing":
        mover = tabs[any_tab.state["current"]]
        endless = endless_until is not None and not endless_until.is_set()
        action = choose(mover.state, rng, endless=endless)
        n += 1
        client_id = f"{mover.name}-{n}"
        while True:
            (answer,) = await surely(mover, lambda m=mover, a=action, c=client_id: m.act(a, client_id=c))
            if answer["type"] != "error" or answer["code"] != "rate_limited":
                break
            await asyncio.sleep(answer["retry_after"])
        assert answer["type"] == "ack", answer
        progress.append(answer["seq"])
        for tab in tabs.values():
            await surely(tab, lambda t=tab, s=answer["seq"]: settle(t, s))
        await asyncio.sleep(0.02)  # a quick player's pace, well inside the rate limits
    return any_tab.seq


def client_ids(game_id: int) -> list[str]:
    return list(Action.objects.filter(game_id=game_id).values_list("client_id", flat=True))


async def close_all(tabs) -> None:
    """Close the sockets and let the servers forget them before the test's rows are flushed: their
    writes and the flush's TRUNCATE can deadlock on PostgreSQL (tests/browser/helpers.py)."""
    for tab in tabs:
        await tab.close()
    await database_sync_to_async(wait_for_disconnects)(timeout=15)


async def check_game(game_id: int, tabs: dict[str, Tab], ledger: Ledger) -> dict:
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    assert game.status == "finished"
    problems = await database_sync_to_async(ledger_problems)(ledger, game_id)
    assert not problems, problems
    ids = await database_sync_to_async(client_ids)(game_id)
    assert len(ids) == len(set(ids)) == game.seq, "every action stored exactly once"
    await database_sync_to_async(replays.game_verify_replay)(game_id=game_id)
    for tab in tabs.values():
        assert tab.seq == game.seq
        assert json.dumps(tab.state, sort_keys=True) == json.dumps(game.state, sort_keys=True), tab.name
    return {"actions": game.seq, "acked_new": sum(1 for a in ledger.acks if not a[2]), "duplicates_in_log": 0}


async def test_two_players_on_two_replicas(site):
    game_id, visitors = await asyncio.to_thread(table, site, "farkle", goal="3000")
    ledger = Ledger()
    tabs, replicas = await open_tabs(site, game_id, visitors, ledger)
    assert len(set(replicas.values())) == 2, f"both seats on one replica: {replicas}"
    # least_conn: the idle socket's replica is the busiest, so neither seat goes there.
    assert site.idle.replica not in replicas.values(), (site.idle.replica, replicas)
    await play_to_the_end(tabs, random.Random(5), [])
    FIGURES["two_replicas"] = {"replicas": replicas, **await check_game(game_id, tabs, ledger)}
    await close_all(tabs.values())
    FIGURES["stats_json_bytes"] = await asyncio.to_thread(check_json_gzipped, visitors["host"])


def check_json_gzipped(player: Visitor) -> dict:
    """application/json is in gzip_types: the player's statistics, now with a finished game, come
    compressed by nginx (Django compresses nothing)."""
    path = f"/api/players/{player.username}/stats/?kind=farkle&goal=3000"
    status, headers, plain = player.get(path)
    assert status == 200 and headers["content-type"] == "application/json", (status, headers)
    assert len(plain) > 512, f"under gzip_min_length, nothing to show: {plain!r}"
    status, headers, body = player.get(path, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("content-encoding") == "gzip", headers
    assert gzip.decompress(body) == plain
    return {"plain": len(plain), "gzip": len(body)}


class Prober(threading.Thread):
    """A signed-in player's browser loading pages through nginx all along: every status it gets, and
    for a 5xx whether asking again at once fixed it."""

    def __init__(self, visitor: Visitor, paths: list[str]):
        super().__init__(daemon=True)
        self.visitor = visitor
        self.paths = paths
        self.statuses: dict[int, int] = {}
        self.unfixed: list[tuple[str, int]] = []
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            for path in self.paths:
                status = self.get(path)
                if status >= 500 and self.get(path) >= 500:
                    self.unfixed.append((path, status))
                time.sleep(0.02)

    def get(self, path: str) -> int:
        try:
            status = self.visitor.get(path)[0]
        except OSError:
            status = 599  # nginx itself never fails to answer; counted as a failure all the same
        self.statuses[status] = self.statuses.get(status, 0) + 1
        return status


async def until(condition, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_rolling_restart(site):
    """Two games played through nginx while one replica gets SIGTERM and is started again, then another
    gets SIGKILL and is started again (the replica holding the idle socket is left alone)."""
    targets = [web for web in site.webs if web.name != site.idle.replica]
    assert len(targets) == 2
    tables = [await asyncio.to_thread(table, site, "farkle") for _ in range(2)]
    ledgers = [Ledger() for _ in tables]
    opened = [
        await open_tabs(site, game_id, visitors, ledger)
        for (game_id, visitors), ledger in zip(tables, ledgers, strict=True)
    ]
    progress: list[list[int]] = [[] for _ in tables]
    log_since = site.nginx.log_size()
    prober = Prober(tables[0][1]["host"], ["/", f"/games/{tables[0][0]}/", "/healthz", "/games/mine/"])
    prober.start()
    rounds = []
    # The games go on through both restarts, however quickly the server moves them: they end after.
    restarted = asyncio.Event()

    async def restarts():
        for signal_name, web in (("SIGTERM", targets[0]), ("SIGKILL", targets[1])):
            mark = min(len(p) for p in progress) + 15
            await until(lambda m=mark: min(len(p) for p in progress) >= m)
            sockets = web.established()
            began = time.monotonic()
            await asyncio.to_thread(web.terminate if signal_name == "SIGTERM" else web.kill)
            stopped = time.monotonic() - began
            # Requests while it is down: least_conn tries the replica with no connection first (this one)
            # unless an earlier request already found it refusing; either way one is passed on.
            for _ in range(3):
                await asyncio.to_thread(prober.get, "/healthz")
            restart = await asyncio.to_thread(web.start)
            rounds.append(
                {
                    "signal": signal_name,
                    "replica": web.name,
                    "sockets_on_it": sockets,
                    "stop_s": round(stopped, 2),
                    "back_after_s": round(stopped + restart, 2),
                    "actions_so_far": [len(p) for p in progress],
                }
            )
            assert all(tab.status == "playing" for tabs, _ in opened for tab in tabs.values()), (
                "a game ended before the restart: nothing was tested"
            )
        restarted.set()

    try:
        await asyncio.gather(
            restarts(),
            *(
                play_to_the_end(tabs, random.Random(i), progress[i], restarted)
                for i, (tabs, _) in enumerate(opened)
            ),
        )
    finally:
        prober.halt.set()
        await asyncio.to_thread(prober.join, 30)
    games = [
        await check_game(game_id, tabs, ledger)
        for (game_id, _), (tabs, _), ledger in zip(tables, opened, ledgers, strict=True)
    ]
    lost = sum(sum(v for k, v in ledger.errors.items() if k.startswith("lost:")) for ledger in ledgers)
    assert not prober.unfixed, f"5xx that a retry did not fix: {prober.unfixed}"
    assert sum(r["sockets_on_it"] for r in rounds) >= 2, rounds
    # After the sockets close: nginx logs a websocket's request (and its retry) only when it ends.
    await close_all(tab for tabs, _ in opened for tab in tabs.values())
    passed_on = passed_on_by_nginx(site, log_since)
    stopped = {f"127.0.0.1:{web.port}" for web in targets}
    assert passed_on, "the access log shows no request nginx passed on from a stopped replica"
    assert all(line.upstreams[0] in stopped for line in passed_on), passed_on
    FIGURES["rolling_restart"] = {
        "rounds": rounds,
        "games": games,
        "actions_played": sum(g["actions"] for g in games),
        "sockets_lost_and_reconnected": lost,
        "lost_actions": 0,
        "duplicated_actions": 0,
        "http_statuses": {str(k): v for k, v in sorted(prober.statuses.items())},
        "http_5xx_not_fixed_by_a_retry": len(prober.unfixed),
        "requests_nginx_passed_on_to_another_replica": len(passed_on),
    }


def passed_on_by_nginx(site: Site, since: int) -> list:
    """This nginx's requests that a replica failed and nginx passed to another (its default
    proxy_next_upstream): the access log names each replica tried."""
    return [
        line
        for line in site.nginx.access_log(since)
        if len(line.upstreams) > 1 and set(line.upstreams) <= site.nginx.replicas
    ]


def test_an_idle_websocket_outlives_every_idle_timer(site):
    """Opened when the topology came up, untouched since (daphne's pings, answered by the client
    library, are all that crossed it): still open, and it answers."""
    idle = site.idle
    left = IDLE_SECONDS - (time.monotonic() - idle.opened_at)
    if left > 0:
        time.sleep(left)
    from websockets.sync.client import ClientConnection

    ws: ClientConnection = idle.ws
    ws.send(json.dumps({"type": "ping"}))
    deadline = time.monotonic() + 10
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "pong":
            break
    idle_s = round(time.monotonic() - idle.opened_at)
    FIGURES["idle_socket"] = {"idle_s": idle_s, "replica": idle.replica, "open": True}
    ws.close()
    wait_for_disconnects(timeout=15)


class Idle:
    """A player's game page left open: one websocket through nginx that nothing is sent on."""

    def __init__(self, site: Site):
        from websockets.sync.client import connect

        visitor = Visitor(site.nginx)
        visitor.sign_up(unique("idle"), PASSWORD)
        game_id = create_game(visitor, "farkle", 2)
        before = [web.established() for web in site.webs]
        self.ws = connect(
            site.nginx.ws_url(game_id),
            ssl=site.nginx.ssl_context,
            origin=site.nginx.url,
            additional_headers={"Cookie": cookie_of(visitor)},
            open_timeout=10,
            ping_interval=None,
            max_size=None,
        )
        assert json.loads(self.ws.recv(timeout=10))["type"] == "snapshot"
        self.opened_at = time.monotonic()
        self.replica = grown_replica(site, before)
        assert self.replica != "?"


def mails_to(folder, address: str) -> list[str]:
    texts = [path.read_text() for path in sorted(folder.glob("*.log"))] if folder.exists() else []
    return [m for text in texts for m in text.split("-" * 79) if f"To: {address}" in m]


def test_turn_mail_waits_for_a_stopped_worker_and_is_sent_once(site):
    """Over days, the first player is not at the table: the turn's e-mail is due a second later. The
    worker is stopped (SIGTERM) meanwhile, so nothing is sent; started again, it sends the e-mail; killed
    (SIGKILL) and started once more, it sends nothing twice. The e-mail's links work through nginx."""
    folder = site.nginx.prefix / "mail"
    site.worker.stop()
    host, guest = Visitor(site.nginx), Visitor(site.nginx)
    address = f"{unique('host')}@example.com"
    host.sign_up(unique("host"), PASSWORD, email=address)
    guest.sign_up(unique("guest"), PASSWORD, email=f"{unique('guest')}@example.com")
    game_id = create_game(host, "farkle", 2, pace="days-1")
    assert guest.post_form(f"/games/{game_id}/", f"/games/{game_id}/join/", {})[0] == 302
    assert host.post_form(f"/games/{game_id}/", f"/games/{game_id}/start/", {})[0] == 302
    time.sleep(3)
    assert mails_to(folder, address) == [], "the worker is down: nothing can have been sent"

    site.worker.start()
    deadline = time.monotonic() + 30
    while not mails_to(folder, address):
        assert time.monotonic() < deadline, "the restarted worker sent no e-mail"
        time.sleep(0.2)
    sent_after = round(time.monotonic() - deadline + 30, 1)
    # The file is written inside the transaction that records the sending (notices.services.deliver):
    # killed before that commit, a worker sends the e-mail again when it starts (at least once, never
    # lost). The kill comes once the sending is recorded, as it would in any later moment.
    while not TurnMail.objects.filter(game_id=game_id, status=TurnMail.Status.SENT).exists():
        assert time.monotonic() < deadline, "the worker sent the e-mail and did not record it"
        time.sleep(0.05)
    site.worker.stop(signal.SIGKILL)
    site.worker.start()
    time.sleep(4)
    (mail,) = mails_to(folder, address)
    assert "Subject: Your turn in Farkle" in mail
    assert f"https://localhost/games/{game_id}/" in mail
    unsubscribe = re.search(r"https://localhost(/notices/unsubscribe/[^/\s]+/)", mail).group(1)
    assert Visitor(site.nginx).get(unsubscribe)[0] == 200
    FIGURES["turn_mail"] = {"worker_down_s": 3, "sent_within_s_of_restart": sent_after, "mails": 1}
