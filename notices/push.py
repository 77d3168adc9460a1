"""Web Push: the player's devices that take push messages, and the worker's task that sends one.

What a message says and when one is sent is decided in notices.services (a turn, a group, a table's
invitation, a tournament round); here each device that wants that kind gets a ``send_push`` task,
written in the caller's transaction (django-tasks' database backend) so that a message is stored with
what it is about or not at all, and sent by the worker, never in a request or on the event loop.

A message is the JSON ``{"title", "body", "url", "tag"}`` the site's service worker shows (title and
body; a click opens ``url``; ``tag`` replaces an earlier message with the same tag), encrypted for the
device (RFC 8291, aes128gcm) and signed with the site's VAPID key (RFC 8292) by pywebpush."""

from __future__ import annotations

import json
import logging

import requests
from django.conf import settings
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from pywebpush import WebPushException, webpush

from notices import vapid
from notices.models import PushSubscription, TurnMail

logger = logging.getLogger(__name__)

# The kinds of message, each a switch of every subscription (PushSubscription's fields of that name).
KINDS = ("turn", "invitation", "group", "tournament")
# A push service that answers these has forgotten the subscription (RFC 8030: 404, 410): it goes.
GONE = {404, 410}
TIMEOUT = 10  # seconds for a push service's answer


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
    """A task per device of ``user`` that takes ``kind`` (none when the site has no VAPID keys), in the
    caller's transaction; how many. A turn's tasks name its e-mail, which they mark told when a push
    service took the message."""
    if not enabled():
        return 0
    targets = devices(user, kind)
    # At once, in the order of time with the worker's other tasks (a task with no run_after would
    # wait behind every one that has one: django-tasks-db orders by it).
    now = timezone.now()
    for pk in targets:
        send_push.using(run_after=now).enqueue(pk, message, turn_mail.pk if turn_mail is not None else None)
    return len(targets)


def outstanding(mail_id: int) -> bool:
    """Whether a push about this turn's e-mail is still to be sent (waiting or running): the e-mail waits
    for its outcome, so that the two never both go unless the push was not delivered."""
    return (
        DBTaskResult.objects.filter(task_path=send_push.module_path, args_kwargs__args__2=mail_id)
        .filter(status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING])
        .exists()
    )


@task()
def send_push(subscription_id: int, payload: dict, turn_mail_id: int | None = None) -> str:
    """Send one message to one device: "delivered" (a push service took it), "gone" (the service has
    forgotten the subscription, which is removed), "failed" (logged; a turn's e-mail stays due) or
    "skipped" (no subscription, no keys, or the turn it is about is over)."""
    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    pair = vapid.keys()
    if subscription is None or pair is None:
        return "skipped"
    if turn_mail_id is not None and not _turn_still_waits(turn_mail_id):
        return "skipped"
    outcome = deliver(subscription, payload, pair)
    now = timezone.now()
    if outcome == "delivered":
        PushSubscription.objects.filter(pk=subscription.pk).update(last_used_at=now)
        if turn_mail_id is not None:
            TurnMail.objects.filter(pk=turn_mail_id, pushed_at__isnull=True).update(pushed_at=now)
    elif outcome == "gone":
        PushSubscription.objects.filter(pk=subscription.pk).delete()
    return outcome


def _turn_still_waits(mail_id: int) -> bool:
    mail = TurnMail.objects.select_related("game").filter(pk=mail_id).first()
    return (
        mail is not None
        and mail.status == TurnMail.Status.PENDING
        and mail.game.turn_started_at == mail.turn_started_at
    )


def deliver(subscription: PushSubscription, message: dict, pair: vapid.Keys) -> str:
    """Encrypt, sign and post ``message`` to the subscription's push service; what became of it."""
    try:
        webpush(
            subscription_info=subscription.info,
            data=json.dumps(message, ensure_ascii=False),
            vapid_private_key=pair.signer(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=settings.PUSH_TTL,
            timeout=TIMEOUT,
            # Urgent: a turn is waited for (RFC 8030 5.3; a phone on battery delivers it at once). The
            # body is opaque ciphertext; pywebpush names no type, and some services want one.
            headers={"Urgency": "high", "Content-Type": "application/octet-stream"},
        )
    except WebPushException as exc:
        if exc.status_code in GONE:
            logger.info("push subscription %s is gone (%s): removed", subscription.pk, exc.status_code)
            return "gone"
        logger.warning("push to subscription %s failed: %s", subscription.pk, exc.message)
        return "failed"
    except (requests.RequestException, ValueError) as exc:  # unreachable service; keys it cannot use
        logger.warning("push to subscription %s failed: %s", subscription.pk, exc)
        return "failed"
    logger.info("push sent to subscription %s", subscription.pk)
    return "delivered"
