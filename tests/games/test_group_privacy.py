"""A group's games are its members' alone, results included (an entry's score and game id once told
outsiders of the private game): high scores and statistics hold a private game only for those who may
see it (games.access), and then with its group; staff are no exception."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.rules import painted_dicez
from games.tables import services
from groups import services as group_services

pytestmark = pytest.mark.django_db

RAINBOW_STRAIGHT = [[1, "blue"], [2, "red"], [3, "pink"], [4, "green"], [5, "yellow"]]
BOARD = {"kind": "painted-dicez"}


def painted_solo(user, scripted_dice, group=None) -> Game:
    game = services.game_create(creator=user, kind="painted-dicez", seats=1, group=group)
    scripted_dice(*([RAINBOW_STRAIGHT] * 20))
    for n, box in enumerate(painted_dicez.BOXES):
        for action in ({"type": "roll", "hold": []}, {"type": "score", "box": box}):
            client_id = f"{box}-{n}-{action['type']}"
            services.game_apply_action(game_id=game.pk, user=user, client_id=client_id, action=action)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def world(make_user, scripted_dice):
    """ann's solo game in her group "Secret"; bob's public solo game; eve belongs to neither."""
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    group = group_services.group_create(creator=ann, name="Secret")
    return {
        "ann": ann,
        "bob": bob,
        "eve": eve,
        "group": group,
        "secret": painted_solo(ann, scripted_dice, group=group),
        "public": painted_solo(bob, scripted_dice),
    }


def groups_by_game(board: dict) -> dict[int, int | None]:
    return {e["game"]: e["group"] for e in board["entries"]}


def group_values(data) -> list:
    """Every value under a "group" key, anywhere in a JSON document."""
    if isinstance(data, dict):
        own = [data["group"]] if "group" in data else []
        return own + [v for value in data.values() for v in group_values(value)]
    if isinstance(data, list):
        return [v for item in data for v in group_values(item)]
    return []


def board_json(client, user, **params) -> dict:
    client.force_login(user)
    response = client.get(reverse("api_highscores"), {**BOARD, **params})
    assert response.status_code == 200
    return response.json()


def test_an_outsider_sees_no_entry_of_the_private_game(client, world):
    board = board_json(client, world["eve"])
    assert groups_by_game(board) == {world["public"].pk: None}


def test_a_member_sees_the_group_of_the_entry(client, world):
    board = board_json(client, world["ann"])
    assert groups_by_game(board) == {world["secret"].pk: world["group"].pk, world["public"].pk: None}
    assert board["viewer_best"]["group"] == world["group"].pk


def test_staff_see_the_lists_as_outsiders_do(client, world, make_user):
    board = board_json(client, make_user("sam", is_staff=True))
    assert groups_by_game(board) == {world["public"].pk: None}


def test_a_removed_member_no_longer_sees_the_groups_games_their_own_included(client, world, scripted_dice):
    ann, bob, group = world["ann"], world["bob"], world["group"]
    group_services.group_add_member(group_id=group.pk, user=ann, username="bob")
    game = painted_solo(bob, scripted_dice, group=group)
    assert groups_by_game(board_json(client, bob))[game.pk] == group.pk
    group_services.group_remove_member(group_id=group.pk, user=ann, member_id=bob.pk)
    board = board_json(client, bob)
    assert game.pk not in groups_by_game(board)
    assert all(g is None for g in group_values(board))


def test_the_per_group_list_is_for_members_only(client, world):
    group = world["group"]
    board = board_json(client, world["ann"], group=group.pk)
    assert board["group"] == group.pk
    assert groups_by_game(board) == {world["secret"].pk: group.pk}
    client.force_login(world["eve"])
    assert client.get(reverse("api_highscores"), {**BOARD, "group": group.pk}).status_code == 404


def test_the_high_score_page_names_no_foreign_group(client, world):
    client.force_login(world["eve"])
    page = client.get(reverse("highscores"), BOARD)
    assert page.status_code == 200
    assert reverse("games:replay", args=[world["secret"].pk]).encode() not in page.content
    assert reverse("games:replay", args=[world["public"].pk]).encode() in page.content
    assert b"Secret" not in page.content
    assert reverse("groups:detail", args=[world["group"].pk]).encode() not in page.content


def test_statistics_carry_no_foreign_group(client, world):
    ann, group = world["ann"], world["group"]
    client.force_login(world["eve"])
    data = client.get(reverse("api_player_stats", args=[ann.username]), BOARD).json()
    assert data["games"] == 0 and data["series"] == []  # ann's only game is her group's
    assert all(g is None for g in group_values(data))
    assert "Secret" not in str(data)
    page = client.get(reverse("players:stats", args=[ann.username]), BOARD)
    assert page.status_code == 200
    assert b"Secret" not in page.content
    assert reverse("groups:detail", args=[group.pk]).encode() not in page.content
