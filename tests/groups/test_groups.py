"""Groups: creator-managed membership, and who may see and do what (anonymous, outsider, member, creator)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Action, Game
from games.tables import services as game_services
from groups import services
from groups.models import Group, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return {name: make_user(name) for name in ("creator", "member", "outsider")}


@pytest.fixture
def group(people):
    group = services.group_create(creator=people["creator"], name="Friday dice", description="Every Friday.")
    services.group_add_member(group_id=group.pk, user=people["creator"], username="member")
    return group


def client_for(client, user):
    if user is not None:
        client.force_login(user)
    return client


# (role, expected status) for every group URL; "anonymous" is redirected to log in.
# Outsiders get a plain 404: they learn nothing of a private group, not even its name.
DETAIL = {"anonymous": 302, "outsider": 404, "member": 200, "creator": 200}
EDIT = {"anonymous": 302, "outsider": 404, "member": 403, "creator": 200}


@pytest.mark.parametrize(("role", "status"), DETAIL.items())
def test_group_page_visibility(client, people, group, role, status):
    response = client_for(client, people.get(role)).get(reverse("groups:detail", args=[group.pk]))
    assert response.status_code == status
    if role == "outsider":
        assert b"Friday dice" not in response.content
        assert b"Every Friday" not in response.content
        assert b"member" not in response.content.replace(b"members", b"")
    if status == 200:
        assert b"Every Friday" in response.content
        assert b"member" in response.content


@pytest.mark.parametrize(("role", "status"), EDIT.items())
def test_only_the_creator_edits(client, people, group, role, status):
    c = client_for(client, people.get(role))
    assert c.get(reverse("groups:edit", args=[group.pk])).status_code == status
    response = c.post(reverse("groups:edit", args=[group.pk]), {"name": "Renamed", "description": ""})
    group.refresh_from_db()
    if role == "creator":
        assert response.status_code == 302 and group.name == "Renamed"
    else:
        assert response.status_code in (302, 403, 404) and group.name == "Friday dice"


@pytest.mark.parametrize("role", ["anonymous", "outsider", "member", "creator"])
def test_only_the_creator_adds_members(client, people, group, make_user, role):
    make_user("newbie")
    response = client_for(client, people.get(role)).post(
        reverse("groups:member_add", args=[group.pk]), {"username": "newbie"}
    )
    added = Membership.objects.filter(group=group, user__username="newbie").exists()
    assert added == (role == "creator")
    assert response.status_code == {"anonymous": 302, "outsider": 404, "member": 403, "creator": 302}[role]


@pytest.mark.parametrize("role", ["anonymous", "outsider", "member", "creator"])
def test_only_the_creator_removes_members(client, people, group, role):
    member = people["member"]
    response = client_for(client, people.get(role)).post(
        reverse("groups:member_remove", args=[group.pk, member.pk])
    )
    still = Membership.objects.filter(group=group, user=member).exists()
    assert still == (role != "creator")
    assert response.status_code == {"anonymous": 302, "outsider": 404, "member": 403, "creator": 302}[role]


@pytest.mark.parametrize("role", ["anonymous", "outsider", "member", "creator"])
def test_only_the_creator_deletes(client, people, group, role):
    response = client_for(client, people.get(role)).post(reverse("groups:delete", args=[group.pk]))
    assert Group.objects.filter(pk=group.pk).exists() == (role != "creator")
    assert response.status_code == {"anonymous": 302, "outsider": 404, "member": 403, "creator": 302}[role]


def test_member_may_leave_but_creator_may_not(client, people, group):
    client_for(client, people["member"]).post(reverse("groups:leave", args=[group.pk]))
    assert not Membership.objects.filter(group=group, user=people["member"]).exists()
    client.force_login(people["creator"])
    client.post(reverse("groups:leave", args=[group.pk]))
    assert Membership.objects.filter(group=group, user=people["creator"]).exists()


def test_add_member_errors(people, group):
    from games.errors import Conflict, NotFound

    with pytest.raises(NotFound):
        services.group_add_member(group_id=group.pk, user=people["creator"], username="ghost")
    with pytest.raises(Conflict):
        services.group_add_member(group_id=group.pk, user=people["creator"], username="member")


def test_group_games_are_for_members_only(client, people, group):
    game = game_services.game_create(creator=people["creator"], kind="farkle", seats=2, group=group)
    from games.errors import Forbidden, NotFound

    with pytest.raises(NotFound):  # to an outsider, a private table is no table
        game_services.game_join(game_id=game.pk, user=people["outsider"])
    game_services.game_join(game_id=game.pk, user=people["member"])
    assert (
        client_for(client, people["outsider"]).get(reverse("games:detail", args=[game.pk])).status_code == 404
    )
    with pytest.raises(Forbidden):
        game_services.game_create(creator=people["outsider"], kind="farkle", seats=2, group=group)


def test_removing_a_member_or_deleting_the_group_keeps_games_and_actions(people, group, scripted_dice):
    game = game_services.game_create(creator=people["creator"], kind="farkle", seats=2, group=group)
    game_services.game_join(game_id=game.pk, user=people["member"])
    game_services.game_start(game_id=game.pk, user=people["creator"])
    scripted_dice([5, 2, 3, 4, 6, 6])
    game_services.game_apply_action(
        game_id=game.pk, user=people["creator"], client_id="a", action={"type": "roll", "keep": []}
    )
    services.group_remove_member(group_id=group.pk, user=people["creator"], member_id=people["member"].pk)
    # The seat stays (the game's record), resigned for the removed member.
    assert game.seats.get(user=people["member"]).resigned
    from games.errors import Forbidden

    with pytest.raises(Forbidden):  # a removed member loses access to the group's games at once
        game_services.game_apply_action(
            game_id=game.pk, user=people["member"], client_id="b", action={"type": "resign"}
        )
    services.group_delete(group_id=group.pk, user=people["creator"])
    game.refresh_from_db()
    assert game.group_id is None
    assert list(Action.objects.filter(game=game).values_list("action__type", flat=True)) == ["roll", "resign"]
    assert Game.objects.filter(pk=game.pk).exists()


def test_group_list_and_create(client, people):
    c = client_for(client, people["outsider"])
    response = c.post(reverse("groups:list"), {"name": "Dice club", "description": ""})
    group = Group.objects.get(name="Dice club")
    assert response.status_code == 302
    assert group.creator == people["outsider"]
    assert Membership.objects.filter(group=group, user=people["outsider"]).exists()
    assert b"Dice club" in c.get(reverse("groups:list")).content
