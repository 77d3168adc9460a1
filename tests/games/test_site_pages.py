"""Site-wide fixes seen by players: games named by their options, the lobby's labels, cancelled games."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import catalogue
from games.models import Game
from games.rules import declare, farkle
from games.tables import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(make_user):
    return make_user("ann")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def _text(response) -> str:
    """The page as a reader sees it: tags, scripts and runs of spaces gone."""
    html = re.sub(r"<script.*?</script>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- a Farkle game is named by its goal -----------------------------------------------------------


@pytest.mark.parametrize(
    ("goal", "name"), [(10000, "Farkle (10000)"), (5000, "Farkle (5000)"), (3000, "Farkle (3000)")]
)
def test_farkle_is_named_by_its_goal(goal, name):
    assert declare.game_name(farkle, {"goal": goal}) == name
    assert Game(kind="farkle", options={"goal": goal, "dice": 6}).kind_name == name


def test_a_game_whose_options_do_not_name_it_keeps_the_engine_name():
    assert Game(kind="triple-quintzee", options={}).kind_name == "Triple Quintzee"
    assert Game(kind="farkle", options={}).kind_name == farkle.name  # the default goal


def test_high_score_list_is_named_like_its_games():
    assert catalogue.kind("farkle").display_name(3000) == "Farkle (3000)"
    assert catalogue.kind("painted-dicez").display_name(None) == "Painted DiceZ"


def test_pages_name_a_goal_3000_game_by_its_goal(client, ann, bob):
    game = services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2)
    client.force_login(bob)
    assert f"Farkle (3000) #{game.pk}" in _text(client.get(reverse("games:detail", args=[game.pk])))
    lobby = _text(client.get(reverse("games:lobby")))
    assert "Farkle (3000)" in lobby and "Farkle (10000) Goal 3000" not in lobby


# --- the lobby's form speaks the player's words --------------------------------------------------


def test_lobby_form_labels(client, ann):
    client.force_login(ann)
    response = client.get(reverse("games:lobby"))
    form = response.context["form"]
    assert form["kind"].label == "Game"
    assert form["absence_limit"].label == "Time to wait for an absent player"
    html = response.content.decode()
    assert '<label for="id_kind">Game:</label>' in html
    assert "Kind" not in _text(response) and "(seconds)" not in html
    assert '<option value="300">5 minutes</option>' in html


def test_absence_choice_reaches_the_game_in_seconds(client, ann):
    client.force_login(ann)
    client.post(reverse("games:new"), {"kind": "triple-quintzee", "seats": 2, "absence_limit": 900})
    assert Game.objects.get().absence_limit == 900


def test_an_absence_outside_the_choices_is_refused(client, ann):
    client.force_login(ann)
    response = client.post(reverse("games:new"), {"kind": "triple-quintzee", "seats": 2, "absence_limit": 7})
    assert response.status_code == 400
    assert "Select a valid choice" in _text(response)
    assert not Game.objects.exists()


# --- a game cancelled before its start is not a finished game -------------------------------------


def _cancelled(ann, bob) -> Game:
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_leave(game_id=game.pk, user=ann)  # the host leaving cancels the table
    game.refresh_from_db()
    return game


def test_cancelled_game_is_listed_as_cancelled_in_your_games(client, ann, bob):
    cancelled = _cancelled(ann, bob)
    assert cancelled.is_cancelled
    client.force_login(bob)
    response = client.get(reverse("games:mine"))
    assert [g.pk for g in response.context["cancelled"]] == [cancelled.pk]
    assert response.context["finished"] == []
    text = _text(response)
    assert "No finished games yet." in text
    section = text[text.index("Cancelled") :]
    assert f"Triple Quintzee #{cancelled.pk}" in section and "cancelled" in section


def test_a_game_abandoned_after_its_start_stays_with_the_finished(client, ann, bob):
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED)
    client.force_login(ann)
    response = client.get(reverse("games:mine"))
    assert [g.pk for g in response.context["finished"]] == [game.pk]
    assert response.context["cancelled"] == []
    assert "abandoned" in _text(response)


def test_cancelled_game_in_history_says_cancelled(client, ann, bob):
    cancelled = _cancelled(ann, bob)
    client.force_login(ann)
    response = client.get(reverse("players:history", args=["ann"]))
    row = re.search(
        rf"<tr>\s*<td><a href=\"[^\"]*\">Triple Quintzee #{cancelled.pk}</a>.*?</tr>",
        response.content.decode(),
        re.S,
    )
    assert row is not None
    cells = re.findall(r"<td>(.*?)</td>", row[0], re.S)
    assert cells[-1] == "cancelled"
