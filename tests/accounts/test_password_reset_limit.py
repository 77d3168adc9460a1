"""Password resets per e-mail address and per client address (without them, 31 requests sent 31
e-mails in 1.4 s). Counted for every address asked for, whether an account has it or not, so that
the refusal says nothing about who has an account."""

from __future__ import annotations

import itertools
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db
# Each test's own client addresses (TEST-NET-2) and e-mail addresses, so that counts of other tests
# (the cache lives as long as the test process) never meet these.
_clients = (f"198.51.100.{n}" for n in itertools.count(1))
_mailboxes = (f"reset{n}@example.com" for n in itertools.count(1))


def ask_reset(email: str, client_address: str | None = None, **headers):
    client = Client(REMOTE_ADDR=client_address or next(_clients), **headers)
    return client.post(reverse("accounts:password_reset"), {"email": email})


def test_an_address_gets_a_few_links_an_hour_and_another_address_still_gets_its_own(settings, make_user):
    settings.PASSWORD_RESETS_PER_EMAIL_PER_HOUR = 3
    busy, other = next(_mailboxes), next(_mailboxes)
    make_user(email=busy)
    make_user(email=other)
    for n in range(3):
        assert ask_reset(busy).status_code == 302
        assert len(mail.outbox) == n + 1
    refused = ask_reset(busy.upper())  # the address as the form matches it: any letter case
    assert refused.status_code == 429
    assert len(mail.outbox) == 3
    text = refused.content.decode()
    assert "Too many password reset requests for this e-mail address" in text
    assert re.search(r"try again in \d+ minutes?\.", text)
    assert ask_reset(other).status_code == 302
    assert [m.to for m in mail.outbox] == [[busy]] * 3 + [[other]]


def test_an_address_without_an_account_is_refused_alike(settings, make_user):
    """No account has it: the same redirects, then the same refusal, as for an account's address."""
    settings.PASSWORD_RESETS_PER_EMAIL_PER_HOUR = 2
    nobody = next(_mailboxes)
    assert [ask_reset(nobody).status_code for _ in range(3)] == [302, 302, 429]
    assert mail.outbox == []


def test_a_client_address_is_refused_after_its_limit_and_another_is_not(settings, make_user):
    settings.PASSWORD_RESETS_PER_IP_PER_HOUR = 4
    busy, other = next(_clients), next(_clients)
    mailboxes = [next(_mailboxes) for _ in range(6)]
    for mailbox in mailboxes:
        make_user(email=mailbox)
    for mailbox in mailboxes[:4]:
        assert ask_reset(mailbox, busy).status_code == 302
    refused = ask_reset(mailboxes[4], busy)
    assert refused.status_code == 429
    assert "Too many password reset requests from your network address" in refused.content.decode()
    assert len(mail.outbox) == 4
    assert ask_reset(mailboxes[4], other).status_code == 302
    assert len(mail.outbox) == 5


def test_the_refusal_is_in_the_readers_language(settings):
    settings.PASSWORD_RESETS_PER_EMAIL_PER_HOUR = 1
    mailbox = next(_mailboxes)
    assert ask_reset(mailbox, HTTP_ACCEPT_LANGUAGE="de").status_code == 302
    refused = ask_reset(mailbox, HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 429
    text = refused.content.decode()
    assert "Zu viele Anfragen" in text
    assert "Too many" not in text


def test_reading_the_form_and_a_form_with_errors_send_nothing_and_count_nothing(settings, make_user):
    settings.PASSWORD_RESETS_PER_EMAIL_PER_HOUR = 1
    mailbox = next(_mailboxes)
    make_user(email=mailbox)
    client = Client(REMOTE_ADDR=next(_clients))
    for _ in range(3):
        assert client.get(reverse("accounts:password_reset")).status_code == 200
        assert client.post(reverse("accounts:password_reset"), {"email": "not an address"}).status_code == 200
    assert client.post(reverse("accounts:password_reset"), {"email": mailbox}).status_code == 302
    assert client.post(reverse("accounts:password_reset"), {"email": mailbox}).status_code == 429
    assert len(mail.outbox) == 1
