"""What a subscription can make the site's worker do, against real listeners on loopback: post only to
the browsers' push services (an address of this machine in any spelling, stored before the check, is
never connected to, and its row goes), never follow a redirect, never read or log a big body, give up
on a service that never answers or drips its answer within PUSH_DEADLINE, with all of a player's
devices at once; keys that cannot encrypt are refused and dropped; a player keeps at most
PUSH_DEVICES_MAX devices; no push task ever fails with an exception."""

from __future__ import annotations

import asyncio
import logging
import socket
import time

import pytest
from django.core.management import call_command
from django.test import Client
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from notices import push
from notices.models import PushSubscription
from notices.vapid import b64url
from tests.push import listeners
from tests.push.browser_subscription import browser_keys, subscription_json

pytestmark = pytest.mark.django_db(transaction=True)
MESSAGE = {"title": "Your turn", "body": "The others wait.", "url": "http://127.0.0.1:8000/", "tag": "t"}
# Seconds: the deadline these tests give a push (short, so that they are quick), and how long a push
# may take before it counts as one that did not give up (the old code took 10 s per read, for ever).
DEADLINE = 2.0
GAVE_UP_WITHIN = 20.0


@pytest.fixture
def listener():
    made = []

    def make(answer, host="127.0.0.1", port=0):
        made.append(listeners.Listener(answer, host, port))
        return made[-1]

    yield make
    for one in made:
        one.close()


@pytest.fixture
def short_deadline(settings):
    settings.PUSH_DEADLINE = DEADLINE


def stored(user, endpoint: str, **keys) -> PushSubscription:
    """A row as one stored before the endpoint check existed (or before the allow-list shrank)."""
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, device="a browser", **(keys or browser_keys())
    )


def send_to(user) -> float:
    """One message to every device of ``user``, sent by the worker; seconds it took."""
    push.enqueue(user, "turn", MESSAGE)
    started = time.monotonic()
    call_command("worker", batch=True, verbosity=0)
    return time.monotonic() - started


def push_tasks_failed() -> list[str]:
    """The push tasks that ended in an exception rather than an outcome."""
    return [
        f"{row.exception_class_path}: {row.traceback[-300:]}"
        for row in DBTaskResult.objects.filter(task_path=push.send_push.module_path)
        if row.status != TaskResultStatus.SUCCESSFUL
    ]


# --- 2. where the worker posts ----------------------------------------------------------------------


def spellings_of_this_machine(port: int) -> list[str]:
    """This machine's addresses as a subscription could name them: short, decimal, hex and octal
    forms of 127.0.0.1, 0, its own name, localhost with a trailing dot, IPv6 loopback and the IPv6
    forms that carry 127.0.0.1 (mapped, 6to4, NAT64)."""
    return [
        f"https://{host}:{port}/push/x"
        for host in (
            "127.1",
            "0",
            "2130706433",
            "0x7f000001",
            "0x7f.0.0.1",
            "0177.0.0.1",
            "127.0.0.1",
            "localhost.",
            "localhost",
            socket.gethostname(),
            "[::1]",
            "[::ffff:127.0.0.1]",
            "[2002:7f00:1::1]",
            "[64:ff9b::7f00:1]",
        )
    ]


def test_a_stored_endpoint_on_this_machine_is_never_connected_to_and_goes(make_user, vapid_keys, listener):
    """The worker checks each endpoint again before it sends: no spelling of this machine reaches a
    connection, the rows go (they can never be sent to), and no task fails with an exception (an IPv6
    endpoint used to fail the task with VapidException)."""
    v4 = listener(listeners.black_hole)
    v6 = listener(listeners.black_hole, host="::1", port=v4.port)
    bob = make_user("bob")
    endpoints = spellings_of_this_machine(v4.port)
    for endpoint in endpoints:
        stored(bob, endpoint)
    send_to(bob)
    assert (v4.connections, v6.connections) == (0, 0)
    assert not PushSubscription.objects.filter(user=bob).exists()
    assert push_tasks_failed() == []


def test_the_endpoint_check_takes_the_push_services_and_nothing_else(settings):
    settings.PUSH_TEST_SERVICE = ""
    for endpoint in (
        "https://fcm.googleapis.com/fcm/send/dW:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAAB",
        "https://web.push.apple.com/QGx1",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
        "https://fcm.googleapis.com:443/fcm/send/x",
    ):
        assert push.service_url(endpoint)
    for endpoint in (
        *spellings_of_this_machine(443),
        "http://fcm.googleapis.com/fcm/send/x",  # not TLS
        "https://fcm.googleapis.com:8443/fcm/send/x",  # another port of theirs
        "https://fcm.googleapis.com./fcm/send/x",  # a trailing dot: another name to a resolver
        "https://FCM.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com.evil.example/x",
        "https://evil.example/fcm.googleapis.com/x",
        "https://fcm.googleapis.com@evil.example/x",
        "https://user@fcm.googleapis.com/x",
        "https://push.apple.com/x",  # "*." is one label or more
        "https://a..push.apple.com/x",
        "https://notify.windows.com.evil.example/x",
        "https://[::1]/x",
        "https://fcm.googleapis.com\\@evil.example/x",
        "javascript:alert(1)",
        "https:///x",
    ):
        with pytest.raises(push.Refused):
            push.service_url(endpoint)


def test_with_the_test_service_named_anything_else_is_still_refused(settings):
    settings.PUSH_TEST_SERVICE = "http://127.0.0.1:9"
    assert push.service_url("http://127.0.0.1:9/push/1")
    for endpoint in (
        "javascript:alert(1)",
        "/push/1",
        "http://127.0.0.1:9",
        "http://127.0.0.1:99/push/1",
        "http://127.0.0.1:9@127.0.0.1:22/x",
        "https://127.0.0.1:9/push/1",
        *spellings_of_this_machine(9),
    ):
        with pytest.raises(push.Refused):
            push.service_url(endpoint)


def test_production_settings_never_name_a_local_push_service():
    """Even with PUSH_TEST_SERVICE in the environment, production's settings leave it empty."""
    import os
    import subprocess
    import sys

    from tests.reliability.conftest import ROOT

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "x" * 64,
        "PUSH_TEST_SERVICE": "http://127.0.0.1:9/",
    }
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings;"
            " print(repr(settings.PUSH_TEST_SERVICE))",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == "''"


def test_a_name_is_connected_to_only_at_its_public_addresses():
    """The resolver the worker connects through: this machine's names have no public address, so the
    lookup fails instead of returning one to connect to."""
    resolver = push.PublicResolver()
    for name in ("localhost", "127.0.0.1", "::1", socket.gethostname()):
        with pytest.raises(OSError, match="no public address"):
            asyncio.run(resolver.resolve(name, 443, socket.AF_UNSPEC))
    for address in (
        "127.0.0.1",
        "10.1.2.3",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",  # noqa: S104 - an address refused, never bound
        "::1",
        "fe80::1",
        "fc00::1",
        "::ffff:10.0.0.1",
        "2002:a00:1::1",
        "64:ff9b::a00:1",
        "2001:db8::1",
        "224.0.0.1",
    ):
        assert not push.public(address), address
    for address in ("142.250.185.74", "2a00:1450:4001:82b::200a", "64:ff9b::8efa:b94a"):
        assert push.public(address), address


# --- 2. redirects and bodies --------------------------------------------------------------------------


def test_a_redirect_is_not_followed(make_user, vapid_keys, listener, settings):
    """A push service that answers 307 to a plain-http port of this machine: the worker does not post
    there; the push failed (the device stays: a failure is not a goodbye)."""
    inside = listener(listeners.black_hole)
    service = listener(listeners.redirect_to(f"http://127.0.0.1:{inside.port}/admin/"))
    settings.PUSH_TEST_SERVICE = service.origin
    bob = make_user("bob")
    kept = stored(bob, f"{service.origin}/push/1")
    send_to(bob)
    assert len(service.requests) == 1
    assert inside.connections == 0
    assert PushSubscription.objects.filter(pk=kept.pk, last_used_at=None).exists()
    assert push_tasks_failed() == []


def test_a_big_error_body_is_neither_read_whole_nor_logged(make_user, vapid_keys, listener, settings, caplog):
    size = 64 * 2**20
    service = listener(listeners.big_error(size))
    settings.PUSH_TEST_SERVICE = service.origin
    bob = make_user("bob")
    stored(bob, f"{service.origin}/push/1")
    with caplog.at_level(logging.DEBUG):
        send_to(bob)
    service.wait_until(lambda: service.done == 1, "the service's answer to end")
    assert service.sent < size // 4  # the worker closed the connection; the rest was never taken
    records = [record.getMessage() for record in caplog.records]
    assert records and max(len(text) for text in records) < 500
    assert not any(listeners.BODY_MARK.decode() in text for text in records)
    assert any("500" in text for text in records if "push to subscription" in text)


# --- 3. a deadline per push, all of a player's devices at once -----------------------------------------


def test_a_service_that_never_answers_is_given_up_within_the_deadline(
    make_user, vapid_keys, listener, settings, short_deadline
):
    service = listener(listeners.black_hole)
    settings.PUSH_TEST_SERVICE = service.origin
    bob = make_user("bob")
    for n in range(5):
        stored(bob, f"{service.origin}/push/{n}")
    took = send_to(bob)
    assert service.connections == 5
    assert took < GAVE_UP_WITHIN
    assert PushSubscription.objects.filter(user=bob).count() == 5
    assert push_tasks_failed() == []


def test_a_service_that_drips_its_answer_is_given_up_within_the_deadline(
    make_user, vapid_keys, listener, settings, short_deadline
):
    """A byte every second never lets a read time out; the deadline is for the whole request."""
    service = listener(listeners.drip(every=1.0))
    settings.PUSH_TEST_SERVICE = service.origin
    bob = make_user("bob")
    stored(bob, f"{service.origin}/push/1")
    took = send_to(bob)
    assert service.sent > 0  # it had begun to answer
    assert took < GAVE_UP_WITHIN
    assert push_tasks_failed() == []


# --- 10. keys that cannot encrypt; the devices of one account ----------------------------------------


def not_a_point() -> dict:
    """65 bytes that look like an uncompressed P-256 point (0x04, x, y) and are not on the curve."""
    return {"p256dh": b64url(b"\x04" + b"\x01" * 64), "auth": b64url(b"\x02" * 16)}


def test_keys_that_are_not_a_point_are_refused_on_subscribe(user_client, vapid_keys):
    data = {**subscription_json(), "keys": not_a_point()}
    answer = user_client.post("/notices/push/subscribe/", data, content_type="application/json")
    assert answer.status_code == 400 and "p256dh" in answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_stored_subscription_whose_keys_cannot_encrypt_goes(make_user, vapid_keys, listener, settings):
    service = listener(listeners.black_hole)
    settings.PUSH_TEST_SERVICE = service.origin
    bob = make_user("bob")
    stored(bob, f"{service.origin}/push/1", **not_a_point())
    send_to(bob)
    assert not PushSubscription.objects.exists()
    assert service.connections == 0
    assert push_tasks_failed() == []


def test_an_eleventh_device_drops_the_one_longest_without_a_message(user, vapid_keys, settings):
    from datetime import timedelta

    from django.utils import timezone

    client = Client()
    client.force_login(user)
    made = []
    for n in range(settings.PUSH_DEVICES_MAX):
        data = subscription_json(500 + n)
        assert (
            client.post("/notices/push/subscribe/", data, content_type="application/json").status_code == 201
        )
        made.append(data["endpoint"])
    # All subscribed two days ago; the first took a message an hour ago, the others never did: the
    # second is the one longest without a message (the first of those subscribed).
    PushSubscription.objects.update(created_at=timezone.now() - timedelta(days=2))
    PushSubscription.objects.filter(endpoint=made[0]).update(last_used_at=timezone.now() - timedelta(hours=1))
    eleventh = subscription_json(600)
    assert (
        client.post("/notices/push/subscribe/", eleventh, content_type="application/json").status_code == 201
    )
    left = set(PushSubscription.objects.filter(user=user).values_list("endpoint", flat=True))
    assert len(left) == settings.PUSH_DEVICES_MAX
    assert eleventh["endpoint"] in left and made[0] in left and made[1] not in left


def test_a_push_services_name_that_resolves_inside_is_not_connected_to(
    make_user, vapid_keys, settings, caplog
):
    """Were a listed push service's name to resolve to this machine (a poisoned or misconfigured name
    server), the send-time lookup refuses it: here "localhost" is put on the list for the test."""
    settings.PUSH_TEST_SERVICE = ""
    settings.PUSH_SERVICE_HOSTS = ["localhost"]
    bob = make_user("bob")
    kept = stored(bob, "https://localhost/push/1")
    with caplog.at_level(logging.WARNING, logger="notices.push"):
        send_to(bob)
    assert any("has no public address" in record.getMessage() for record in caplog.records)
    assert PushSubscription.objects.filter(pk=kept.pk).exists()  # a failure, the list may be right
    assert push_tasks_failed() == []


def test_a_stored_ipv6_endpoint_ends_the_task_with_an_outcome_not_an_exception(make_user, vapid_keys):
    """A public IPv6 literal: the old send failed the task with VapidException (its "aud" claim)."""
    bob = make_user("bob")
    stored(bob, "https://[2001:4860:4860::8888]/push/1")
    send_to(bob)
    assert push_tasks_failed() == []
    assert not PushSubscription.objects.exists()
