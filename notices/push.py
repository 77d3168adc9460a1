"""Web Push: the player's devices that take push messages, and the task that sends a message to them.

What a message says and when one is sent is decided in notices.services (a turn, a group, a table's
invitation, a tournament round); here the devices of the player that want that kind get one
``send_push`` task, written in the caller's transaction (django-tasks' database backend) so that a
message is stored with what it is about or not at all, and sent by the worker, never in a request or
on the event loop. The task runs on a queue of its own (``QUEUE``), which the worker serves on a
thread of its own: a push service that is slow, or an endpoint that never answers, holds other pushes
at most, never a computer's move, a turn e-mail or the daily close.

A message is the JSON ``{"title", "body", "url", "tag"}`` the site's service worker shows (title and
body; a click opens ``url``; ``tag`` replaces an earlier message with the same tag), encrypted for the
device (RFC 8291, aes128gcm) and signed with the site's VAPID key (RFC 8292), both by pywebpush and
py-vapid. The request itself is ours (aiohttp): pywebpush's follows redirects, reads and logs whole
response bodies and bounds each read rather than the whole request, and it posts to any address a
browser (or anyone posting to the subscribe endpoint) names. Here:

- only the push services browsers subscribe with are posted to (``PUSH_SERVICE_HOSTS``, what the big
  push libraries' users allow: web-push-libs/web-push#801), checked when a subscription is stored and
  again before every send (rows stored before the list existed, or a list that shrank);
- the service's name is resolved once per connection by ``PublicResolver``, which drops every address
  that is not global, and the connection goes to an address it returned (aiohttp connects to what its
  resolver answers; TLS still checks the certificate against the name): a push service whose name
  came to resolve into this network is refused, not connected to;
- a redirect is an answer (a failure), never followed; no body is read beyond aiohttp's small buffer,
  and none is logged (the status and at most ``REASON_MAX`` characters of its reason);
- every device's request, from the name lookup to the status line, is over within ``PUSH_DEADLINE``
  seconds, and one message's devices are sent to at once.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
import re
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from django.conf import settings
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from py_vapid import VapidException
from pywebpush import WebPusher, WebPushException
from yarl import URL

from notices import vapid
from notices.models import PushSubscription, TurnMail

logger = logging.getLogger(__name__)

# The kinds of message, each a switch of every subscription (PushSubscription's fields of that name).
KINDS = ("turn", "invitation", "group", "tournament")
# The django-tasks queue of the push messages, which the worker runs on a thread of its own.
QUEUE = "push"
# A push service that answers these has forgotten the subscription (RFC 8030: 404, 410): it goes.
GONE_STATUSES = {404, 410}
# What became of one device's message. "refused": its endpoint is no push service's (or names one
# outside the allow-list); "unusable": its keys cannot encrypt a message (not a P-256 point): both
# are for ever, so the subscription goes, as a gone one does.
DELIVERED, GONE, FAILED, REFUSED, UNUSABLE = "delivered", "gone", "failed", "refused", "unusable"
DROPPED = {GONE, REFUSED, UNUSABLE}
# Characters of a push service's reason phrase that reach the log (it is theirs, not ours).
REASON_MAX = 60
# Characters of a connection's error that reach the log.
ERROR_MAX = 160
# Bytes aiohttp takes off the socket at a time (its read buffer): a body is never read past this.
READ_BUFFER = 4096
# The name lookups of PublicResolver, on threads of their own: asyncio's default executor is shut down
# (waited for) when a message's loop closes, and a lookup the deadline gave up on would hold that.
_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="push-dns")


class Refused(ValueError):
    """An endpoint that is no push service's: the site never posts to it."""


def payload(*, title: str, body: str, url: str, tag: str) -> dict:
    """The message as the service worker reads it; ``url`` is made absolute on the site's address."""
    if url.startswith("/"):
        url = settings.SITE_URL + url
    return {"title": str(title), "body": str(body), "url": url, "tag": tag}


def enabled() -> bool:
    return vapid.keys() is not None


def devices(user, kind: str) -> list[int]:
    """The user's subscriptions that take ``kind``."""
    if kind not in KINDS:
        raise ValueError(f"no push kind {kind!r}")
    return list(PushSubscription.objects.filter(user=user, **{kind: True}).values_list("pk", flat=True))


def enqueue(user, kind: str, message: dict, *, turn_mail: TurnMail | None = None) -> int:
    """One task for the devices of ``user`` that take ``kind`` (none when the site has no VAPID keys,
    or the player no such device), in the caller's transaction; how many devices. A turn's task names
    its e-mail, which it marks told when a push service took the message."""
    if not enabled():
        return 0
    targets = devices(user, kind)
    if targets:
        # At once, in the order of time with the queue's other tasks (a task with no run_after would
        # wait behind every one that has one: django-tasks-db orders by it).
        send_push.using(run_after=timezone.now()).enqueue(
            targets, message, turn_mail.pk if turn_mail is not None else None
        )
    return len(targets)


def outstanding(mail_id: int) -> bool:
    """Whether a push about this turn's e-mail is still to be sent (waiting or running): the e-mail waits
    for its outcome, so that the two never both go unless the push was not delivered."""
    return (
        DBTaskResult.objects.filter(task_path=send_push.module_path, args_kwargs__args__2=mail_id)
        .filter(status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING])
        .exists()
    )


# --- where the site posts: the push services' hosts, and their public addresses -------------------

_HOST = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)*")


def _test_service() -> URL | None:
    """The one local push service the test settings may name (web-push-testing, plain http on this
    machine); production's settings set it empty whatever the environment says."""
    named = getattr(settings, "PUSH_TEST_SERVICE", "")
    return URL(named.rstrip("/")) if named else None


def _listed(host: str) -> bool:
    for allowed in settings.PUSH_SERVICE_HOSTS:
        if allowed.startswith("*."):
            if host.endswith(allowed[1:]) and _HOST.fullmatch(host[: -len(allowed) + 1]):
                return True
        elif host == allowed:
            return True
    return False


def service_url(endpoint: str) -> URL:
    """The endpoint as the request is made to it, if it is a push service's: https, on port 443, no
    user, a host of ``PUSH_SERVICE_HOSTS`` spelt exactly (lower case, no trailing dot: an address
    literal in any of its forms never is one); Refused otherwise. Parsed by the parser the request
    uses (yarl), so that what is checked is what is connected to."""
    try:
        url = URL(endpoint, encoded=True)
        host, port = url.raw_host or "", url.explicit_port
    except (ValueError, TypeError):  # yarl's own, and IDNA's UnicodeError
        raise Refused("not a URL") from None
    test = _test_service()
    if (
        test is not None
        and url.absolute
        and url.origin() == test.origin()
        and endpoint.startswith(f"{test}/")
    ):
        return url
    if url.scheme != "https" or port not in (None, 443) or url.raw_user is not None or url.raw_password:
        raise Refused("not an https address on the standard port")
    if not (_HOST.fullmatch(host) and _listed(host)):
        raise Refused("not a push service's host")
    return url


def public(address: str) -> bool:
    """Whether the site may connect to this address: a global one, and for an IPv6 address that carries
    an IPv4 one (IPv4-mapped, 6to4, Teredo, NAT64's 64:ff9b::/96) the IPv4 one global too."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if not ip.is_global or ip.is_multicast:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in ipaddress.IPv6Network("64:ff9b:1::/48"):  # NAT64 for local use (RFC 8215)
            return False
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if ip in ipaddress.IPv6Network("64:ff9b::/96"):
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if inner is not None and not public(str(inner)):
            return False
    return True


class PublicResolver(AbstractResolver):
    """aiohttp's name lookup for the push services: the addresses of the name that are public, or an
    OSError (aiohttp's ClientConnectorError) when none is. aiohttp connects to the addresses its
    resolver answers, so the address checked is the address connected to, with no second lookup a
    name server could answer differently. ``exempt``: the test settings' local push service."""

    def __init__(self, exempt: str | None = None) -> None:
        self.exempt = exempt

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        loop = asyncio.get_running_loop()
        lookup = functools.partial(socket.getaddrinfo, host, port, family=family, type=socket.SOCK_STREAM)
        found = []
        for fam, _type, proto, _name, address in await loop.run_in_executor(_LOOKUPS, lookup):
            if host == self.exempt or public(address[0]):
                found.append(
                    ResolveResult(
                        hostname=host,
                        host=address[0],
                        port=address[1],
                        family=fam,
                        proto=proto,
                        flags=socket.AI_NUMERICHOST | socket.AI_NUMERICSERV,
                    )
                )
        if not found:
            # As a name with no address is told (aiohttp's DNS error names its strerror).
            raise socket.gaierror(socket.EAI_NONAME, f"{host} has no public address")
        return found

    async def close(self) -> None:
        return None


# --- sending -------------------------------------------------------------------------------------


@task(queue_name=QUEUE)
def send_push(subscription_ids: list[int], payload: dict, turn_mail_id: int | None = None) -> dict:
    """Send one message to a player's devices; how many of them came to each outcome: "delivered" (a
    push service took it), "gone", "refused", "unusable" (the subscription is removed), "failed"
    (logged; a turn's e-mail stays due unless another device took it). Nothing when there is nothing
    to send: no subscription left, no keys, or the turn it is about is over."""
    if isinstance(subscription_ids, int):  # a task written when there was one per device
        subscription_ids = [subscription_ids]
    subscriptions = list(PushSubscription.objects.filter(pk__in=subscription_ids).order_by("pk"))
    pair = vapid.keys()
    if not subscriptions or pair is None:
        return {}
    if turn_mail_id is not None and not _turn_still_waits(turn_mail_id):
        return {}
    outcomes = deliver(subscriptions, payload, pair)
    now = timezone.now()
    delivered = [pk for pk, outcome in outcomes.items() if outcome == DELIVERED]
    if delivered:
        PushSubscription.objects.filter(pk__in=delivered).update(last_used_at=now)
        if turn_mail_id is not None:
            TurnMail.objects.filter(pk=turn_mail_id, pushed_at__isnull=True).update(pushed_at=now)
    PushSubscription.objects.filter(pk__in=[pk for pk, o in outcomes.items() if o in DROPPED]).delete()
    counts: dict[str, int] = {}
    for outcome in outcomes.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def _turn_still_waits(mail_id: int) -> bool:
    mail = TurnMail.objects.select_related("game").filter(pk=mail_id).first()
    return (
        mail is not None
        and mail.status == TurnMail.Status.PENDING
        and mail.game.turn_started_at == mail.turn_started_at
    )


@dataclass(frozen=True, slots=True)
class Request:
    """One device's message, ready to post: the checked address, the encrypted body, the headers."""

    pk: int
    url: URL
    body: bytes
    headers: dict


def prepare(subscription: PushSubscription, message: dict, pair: vapid.Keys) -> Request | str:
    """The device's request, or why there is none (REFUSED, UNUSABLE, FAILED), logged."""
    try:
        url = service_url(subscription.endpoint)
    except Refused as exc:
        logger.info("push subscription %s removed: its endpoint is %s", subscription.pk, exc)
        return REFUSED
    try:
        body = WebPusher(subscription.info).encode(json.dumps(message, ensure_ascii=False).encode())["body"]
    except (WebPushException, ValueError, TypeError) as exc:  # not a P-256 point; a key of no size
        logger.info(
            "push subscription %s removed: its keys cannot encrypt (%s)", subscription.pk, type(exc).__name__
        )
        return UNUSABLE
    claims = {
        "sub": settings.VAPID_SUBJECT,
        "aud": str(url.origin()),
        # Within the day RFC 8292 allows; the request is over within seconds.
        "exp": int(time.time()) + 12 * 3600,
    }
    try:
        headers = pair.signer().sign(claims)
    except VapidException as exc:
        logger.warning("push to subscription %s not signed: %s", subscription.pk, type(exc).__name__)
        return FAILED
    headers.update(
        {
            "TTL": str(settings.PUSH_TTL),
            "Content-Encoding": "aes128gcm",
            # Urgent: a turn is waited for (RFC 8030 5.3; a phone on battery delivers it at once). The
            # body is opaque ciphertext; some services want its type named.
            "Urgency": "high",
            "Content-Type": "application/octet-stream",
        }
    )
    return Request(pk=subscription.pk, url=url, body=body, headers=headers)


def deliver(subscriptions: list[PushSubscription], message: dict, pair: vapid.Keys) -> dict[int, str]:
    """Encrypt, sign and post ``message`` to each subscription's push service, all at once; what became
    of each (by the subscription's id). Never raises for what a device or its service does."""
    outcomes: dict[int, str] = {}
    requests = []
    for subscription in subscriptions:
        prepared = prepare(subscription, message, pair)
        if isinstance(prepared, Request):
            requests.append(prepared)
        else:
            outcomes[subscription.pk] = prepared
    if requests:
        outcomes.update(_run(_send_all, requests))
    return outcomes


def _run(coroutine_function, *args):
    """The coroutine's result, on an event loop of its own: this thread's (the worker's threads run
    none), or, when this thread already runs one (an async caller, a browser test's thread), a
    thread of its own, since a thread runs one loop at a time."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine_function(*args))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="push-send") as pool:
        return pool.submit(asyncio.run, coroutine_function(*args)).result()


async def _send_all(requests: list[Request]) -> dict[int, str]:
    test = _test_service()
    connector = aiohttp.TCPConnector(
        resolver=PublicResolver(exempt=test.raw_host if test is not None else None),
        # One connection per request, closed after it: nothing of an answer lingers for the next.
        force_close=True,
        limit=0,
    )
    async with aiohttp.ClientSession(connector=connector, read_bufsize=READ_BUFFER) as session:
        results = await asyncio.gather(*(_send(session, request) for request in requests))
    return {request.pk: outcome for request, outcome in zip(requests, results, strict=True)}


async def _send(session: aiohttp.ClientSession, request: Request) -> str:
    deadline = settings.PUSH_DEADLINE
    try:
        async with asyncio.timeout(deadline):
            status, reason = await post(session, request.url, request.body, request.headers)
    except TimeoutError:
        logger.warning("push to subscription %s failed: no answer within %g s", request.pk, deadline)
        return FAILED
    except (aiohttp.ClientError, OSError) as exc:  # unreachable, refused, TLS, a malformed answer
        # Its text may quote a malformed answer: a short piece of it, on one line.
        said = str(exc)[:ERROR_MAX].encode("ascii", "replace").decode().replace("\n", " ")
        logger.warning("push to subscription %s failed: %s: %s", request.pk, type(exc).__name__, said)
        return FAILED
    if 200 <= status <= 202:
        logger.info("push sent to subscription %s", request.pk)
        return DELIVERED
    reason = reason[:REASON_MAX].encode("ascii", "replace").decode()
    if status in GONE_STATUSES:
        logger.info("push subscription %s is gone (%s): removed", request.pk, status)
        return GONE
    logger.warning("push to subscription %s failed: %s %r", request.pk, status, reason)
    return FAILED


async def post(session: aiohttp.ClientSession, url: URL, body: bytes, headers: dict) -> tuple[int, str]:
    """Post one message; the answer's status and reason. A redirect is the answer (never followed);
    the body is not read (the connection is closed with it)."""
    async with session.post(url, data=body, headers=headers, allow_redirects=False) as response:
        status, reason = response.status, response.reason or ""
        response.close()
    return status, reason
