"""Push messages for real, offline: the worker's task encrypts and signs a turn's message and posts it
to a local push service (npm's web-push-testing, which checks the VAPID signature, decrypts what it
receives and keeps it), and the message read back from the service is the game's link.

Needs Node.js and web-push-testing (package.json's devDependencies; `npm ci`): skipped where either
is missing, except in CI (CI or REQUIRE_NODE=1), where that is a failure."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from games.models import Connection, Game
from games.tables import services
from notices.models import PushSubscription, TurnMail

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.node]
ROOT = Path(__file__).resolve().parents[2]
# The package as `npm ci` installs it; WEB_PUSH_TESTING_DIR names another copy (a trial install).
PACKAGE = Path(os.environ.get("WEB_PUSH_TESTING_DIR") or ROOT / "node_modules" / "web-push-testing")
SERVER = PACKAGE / "src" / "bin" / "server.js"


def _missing(what: str):
    if os.environ.get("CI") or os.environ.get("REQUIRE_NODE") == "1":
        pytest.fail(
            f"{what} is missing: CI runs the push transport test (apt-get install nodejs npm; npm ci)"
        )
    pytest.skip(f"{what} is missing; `npm ci` (with Node.js) to run the push transport test")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def push_service():
    """The local push service on a free port (its server script, in the foreground: the CLI's
    `start` detaches it and keeps its pid in a file of the working directory); its base address."""
    node = shutil.which("node")
    if node is None:
        _missing("Node.js")
    if not SERVER.exists():
        _missing("web-push-testing")
    port = _free_port()
    process = subprocess.Popen(
        [node, str(SERVER), str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    base = f"http://localhost:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if requests.post(f"{base}/status", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    f"web-push-testing did not start: {process.stdout.read().decode(errors='replace')}"
                )
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def browser_subscribes(base: str, public_key: str) -> dict:
    """What a browser's pushManager.subscribe() gives: the service's endpoint and keys (+ its clientHash)."""
    answer = requests.post(
        f"{base}/subscribe", json={"userVisibleOnly": "true", "applicationServerKey": public_key}, timeout=5
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]


def received(base: str, client_hash: str) -> list[str]:
    answer = requests.post(f"{base}/get-notifications", json={"clientHash": client_hash}, timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]["messages"]


def end_turn(game: Game, user):
    from games import rules

    engine = rules.get(game.kind)
    for n, kind in enumerate(("roll", "score")):
        state = Game.objects.get(pk=game.pk).state
        action = next(a for a in engine.legal_actions(state) if a["type"] == kind)
        services.game_apply_action(game_id=game.pk, user=user, client_id=f"t{game.pk}-{n}", action=action)


@pytest.fixture
def local_service(push_service, settings):
    """The local push service, which the test settings alone may name as the one exception to the push
    services the site posts to (plain http, on this machine)."""
    settings.PUSH_TEST_SERVICE = push_service
    return push_service


def test_the_local_push_service_receives_the_turn_encrypted_and_it_decrypts_to_the_games_link(
    local_service, make_user, vapid_keys
):
    push_service = local_service
    ann = make_user("ann", email="ann@example.com")
    bob = make_user("bob", email="bob@example.com")
    subscription = browser_subscribes(push_service, vapid_keys.public)
    # Stored as the settings page stores a browser's toJSON() (the view takes a push service's https
    # endpoints only, and the test settings' PUSH_TEST_SERVICE: the service here is plain http).
    PushSubscription.objects.create(
        user=ann, endpoint=subscription["endpoint"], device="web-push-testing", **subscription["keys"]
    )
    game = services.game_create(
        creator=bob, kind="triple-quintzee", seats=2, pace="days", absence_limit=86_400
    )
    services.game_join(game_id=game.pk, user=ann)
    Connection.objects.create(game=game, user=bob, channel_name="bob.tab", seen_at=timezone.now())
    services.game_start(game_id=game.pk, user=bob)
    end_turn(Game.objects.get(pk=game.pk), bob)  # the turn passes to ann, on no page of the site
    assert received(push_service, subscription["clientHash"]) == []  # nothing in the request

    call_command("worker", batch=True, verbosity=0)

    game.refresh_from_db()
    (message,) = received(push_service, subscription["clientHash"])
    assert json.loads(message) == {
        "title": f"Your turn in {game.kind_name} #{game.pk}",
        "body": "The other players are waiting for your move.",
        "url": f"http://127.0.0.1:8000/games/{game.pk}/",
        "tag": f"turn-{game.pk}-{int(game.turn_started_at.timestamp())}",
    }
    promised = TurnMail.objects.get(user=ann)
    assert promised.pushed_at is not None
    TurnMail.objects.update(due_at=timezone.now())
    call_command("worker", batch=True, verbosity=0)
    assert mail.outbox == []  # told once: by the push
    assert TurnMail.objects.get(pk=promised.pk).why == "told by push"


def test_a_subscription_the_push_service_expired_is_removed_and_the_mail_goes(
    local_service, make_user, vapid_keys
):
    push_service = local_service
    ann = make_user("ann", email="ann@example.com")
    bob = make_user("bob", email="bob@example.com")
    subscription = browser_subscribes(push_service, vapid_keys.public)
    PushSubscription.objects.create(
        user=ann, endpoint=subscription["endpoint"], device="web-push-testing", **subscription["keys"]
    )
    answer = requests.post(f"{push_service}/expire-subscription/{subscription['clientHash']}", timeout=5)
    assert answer.status_code == 200
    game = services.game_create(
        creator=bob, kind="triple-quintzee", seats=2, pace="days", absence_limit=86_400
    )
    services.game_join(game_id=game.pk, user=ann)
    Connection.objects.create(game=game, user=bob, channel_name="bob.tab", seen_at=timezone.now())
    services.game_start(game_id=game.pk, user=bob)
    end_turn(Game.objects.get(pk=game.pk), bob)

    call_command("worker", batch=True, verbosity=0)  # the service answers 410

    assert not PushSubscription.objects.exists()
    TurnMail.objects.update(due_at=timezone.now())
    call_command("worker", batch=True, verbosity=0)
    assert [m.to for m in mail.outbox] == [["ann@example.com"]]
