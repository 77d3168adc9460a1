"""A group's invitation link: the creator creates, replaces and revokes it; anyone signed in joins with
one button; signed out, sign-up or sign-in lands as a member (groups/invites.py)."""

from __future__ import annotations

import threading
import time
from urllib.parse import urlencode

import pytest
from django.contrib.messages import get_messages
from django.db import connection, transaction
from django.urls import reverse

from games.errors import Forbidden, NotFound
from groups import invites, services
from groups.models import Group, Membership

pytestmark = pytest.mark.django_db

PASSWORD = "dice-are-nice-42"


@pytest.fixture
def people(make_user):
    return {name: make_user(name, password=PASSWORD) for name in ("creator", "member", "outsider")}


@pytest.fixture
def group(people):
    group = services.group_create(creator=people["creator"], name="Friday dice")
    services.group_add_member(group_id=group.pk, user=people["creator"], username="member")
    return group


@pytest.fixture
def token(group, people):
    return services.group_invite_create(group_id=group.pk, user=people["creator"])


def link(token: str) -> str:
    return reverse("groups:invite", args=[token])


def members(group) -> list[str]:
    return sorted(group.memberships.values_list("user__username", flat=True))


def said(response) -> list[str]:
    return [m.message for m in get_messages(response.wsgi_request)]


# --- services ----------------------------------------------------------------------------------------


def test_a_new_link_replaces_the_old_one(group, people, token):
    group.refresh_from_db()
    assert group.invite_token == token and len(token) >= 24
    newer = services.group_invite_create(group_id=group.pk, user=people["creator"])
    assert newer != token
    with pytest.raises(NotFound, match=r"^This invitation is no longer valid\.$"):
        services.group_join_by_invite(token=token, user=people["outsider"])
    membership, joined = services.group_join_by_invite(token=newer, user=people["outsider"])
    assert joined and membership.group == group


def test_revoking_invalidates_the_link(group, people, token):
    services.group_invite_revoke(group_id=group.pk, user=people["creator"])
    group.refresh_from_db()
    assert group.invite_token is None
    with pytest.raises(NotFound):
        services.group_join_by_invite(token=token, user=people["outsider"])
    with pytest.raises(NotFound):
        services.group_join_by_invite(token="", user=people["outsider"])
    assert members(group) == ["creator", "member"]


@pytest.mark.parametrize("role", ["member", "outsider"])
def test_only_the_creator_creates_or_revokes(group, people, token, role):
    with pytest.raises(Forbidden):
        services.group_invite_create(group_id=group.pk, user=people[role])
    with pytest.raises(Forbidden):
        services.group_invite_revoke(group_id=group.pk, user=people[role])
    group.refresh_from_db()
    assert group.invite_token == token


def test_joining_twice_is_harmless(group, people, token):
    first, joined = services.group_join_by_invite(token=token, user=people["outsider"])
    again, joined_again = services.group_join_by_invite(token=token, user=people["outsider"])
    assert (joined, joined_again) == (True, False) and first == again
    assert Membership.objects.filter(group=group, user=people["outsider"]).count() == 1


# --- the creator's page ------------------------------------------------------------------------------


def test_the_creator_creates_copies_and_revokes_from_the_group_page(client, group, people):
    client.force_login(people["creator"])
    page = client.get(reverse("groups:detail", args=[group.pk])).content.decode()
    assert "Create an invitation link" in page and "data-share" not in page
    response = client.post(reverse("groups:invite_create", args=[group.pk]))
    assert response["Location"] == reverse("groups:detail", args=[group.pk])
    group.refresh_from_db()
    page = client.get(reverse("groups:detail", args=[group.pk])).content.decode()
    assert f'value="http://testserver{link(group.invite_token)}"' in page
    assert "Copy link" in page and "js/share.js" in page and "Revoke link" in page
    client.post(reverse("groups:invite_revoke", args=[group.pk]))
    group.refresh_from_db()
    assert group.invite_token is None


@pytest.mark.parametrize("role", ["member", "outsider"])
def test_others_cannot_create_or_revoke_and_never_see_the_link(client, group, people, token, role):
    client.force_login(people[role])
    for name in ("groups:invite_create", "groups:invite_revoke"):
        # A member is told no; an outsider learns nothing of the group.
        status = client.post(reverse(name, args=[group.pk])).status_code
        assert status == {"member": 403, "outsider": 404}[role]
    group.refresh_from_db()
    assert group.invite_token == token
    assert token not in client.get(reverse("groups:detail", args=[group.pk])).content.decode()


# --- the link ----------------------------------------------------------------------------------------


def test_signed_in_the_link_shows_the_group_and_joins_with_one_button(client, group, people, token):
    client.force_login(people["outsider"])
    page = client.get(link(token)).content.decode()
    assert "creator</span> invites you to the group “Friday dice”" in page
    assert "Join “Friday dice”</button>" in page
    assert members(group) == ["creator", "member"]  # a GET joins nobody
    response = client.post(link(token))
    assert response["Location"] == reverse("groups:detail", args=[group.pk])
    assert said(response) == ["Welcome to “Friday dice”!"]
    assert members(group) == ["creator", "member", "outsider"]
    again = client.post(link(token))
    assert said(again)[-1] == "You are already in “Friday dice”."  # (the first one is still unread)
    assert "You are already a member." in client.get(link(token)).content.decode()


def test_a_revoked_link_says_so(client, group, people, token):
    services.group_invite_revoke(group_id=group.pk, user=people["creator"])
    for who in (None, people["outsider"]):
        if who:
            client.force_login(who)
        page = client.get(link(token))
        assert page.status_code == 404
        assert b"This invitation is no longer valid" in page.content
        assert b"Friday dice" not in page.content
    assert client.post(link(token)).status_code == 404
    assert members(group) == ["creator", "member"]


def test_signed_out_the_link_leads_through_sign_up_into_the_group(client, group, token):
    page = client.get(link(token)).content.decode()
    assert "creator</span> invites you to the group “Friday dice”" in page
    next_query = urlencode({"next": link(token)})
    assert f'href="{reverse("accounts:signup")}?{next_query}">Sign up to join</a>' in page
    assert client.session[invites.SESSION_KEY]["group_token"] == token
    signup_page = client.get(f"{reverse('accounts:signup')}?{next_query}").content.decode()
    assert (
        "creator invites you to the group “Friday dice”: you are a member as soon as you are in."
        in signup_page
    )
    response = client.post(
        f"{reverse('accounts:signup')}?{next_query}",
        {"username": "dora", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response["Location"] == reverse("groups:detail", args=[group.pk])
    assert said(response) == ["Welcome, dora!", "Welcome to “Friday dice”!"]
    assert members(group) == ["creator", "dora", "member"]


def test_signed_out_the_link_leads_through_log_in_into_the_group(client, group, token):
    client.get(link(token))
    response = client.post(
        f"{reverse('accounts:login')}?{urlencode({'next': link(token)})}",
        {"username": "outsider", "password": PASSWORD},
    )
    assert response["Location"] == reverse("groups:detail", args=[group.pk])
    assert members(group) == ["creator", "member", "outsider"]


def test_a_link_revoked_while_signing_up_joins_nobody(client, group, people, token):
    client.get(link(token))
    services.group_invite_revoke(group_id=group.pk, user=people["creator"])
    response = client.post(reverse("accounts:login"), {"username": "outsider", "password": PASSWORD})
    assert response["Location"] == reverse("home")
    assert "This invitation is no longer valid." in said(response)
    assert members(group) == ["creator", "member"]


@pytest.mark.django_db(transaction=True)
def test_a_join_waiting_behind_a_revocation_adds_nobody(group, people, token):
    """The join locks the group by its token: one that reads the token while a revocation is still
    uncommitted waits for it, and then finds no group (PostgreSQL checks the condition again)."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite locks the whole database: the two never overlap")
    locked = threading.Event()

    def revoke_slowly():
        try:
            with transaction.atomic():
                row = Group.objects.select_for_update().get(pk=group.pk)
                row.invite_token = None
                row.save(update_fields=["invite_token"])
                locked.set()
                time.sleep(0.5)  # the join below reaches the row meanwhile
        finally:
            connection.close()

    revoker = threading.Thread(target=revoke_slowly)
    revoker.start()
    assert locked.wait(5)
    with pytest.raises(NotFound):
        services.group_join_by_invite(token=token, user=people["outsider"])
    revoker.join()
    assert members(group) == ["creator", "member"]
