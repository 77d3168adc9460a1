"""The review on the replay page and the accuracy on the statistics page; the Hint button's offer."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from coach import services
from tests.coach.test_review import farkle_game
from tests.games.test_services import table

pytestmark = pytest.mark.django_db


def test_the_replay_says_the_review_is_being_prepared_then_shows_it(user, user_client, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    url = reverse("games:replay", args=[game.pk])
    page = user_client.get(url).content.decode()
    assert "being prepared" in page and 'id="coach-data"' not in page
    services.review_game(game_id=game.pk)
    response = user_client.get(url)
    page = response.content.decode()
    assert "being prepared" not in page
    assert "Coach&#x27;s review" in page or "Coach's review" in page
    summary = response.context["review"]["seats"][0]
    assert summary["player"] == user.username and summary["total_cost"] == 50
    assert summary["worst"][0]["seq"] == 2
    assert "Expert: set aside 1 1 1 5 and bank 1050" in page
    steps = json.loads(page.split('id="coach-data" type="application/json">')[1].split("</script>")[0])
    assert set(steps) == {"2", "5"} and steps["2"]["cost"] == 50 and steps["5"]["best"]


def test_the_statistics_page_shows_accuracy_over_time(user, user_client, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    url = reverse("players:stats", args=[user.username]) + "?kind=farkle&goal=3000"
    assert "No reviewed game yet" in user_client.get(url).content.decode()
    services.review_game(game_id=game.pk)
    response = user_client.get(url)
    accuracy = response.context["accuracy"]
    assert [g["game"] for g in accuracy["games"]] == [game.pk]
    assert accuracy["mean"] == accuracy["games"][0]["accuracy"] < 100
    page = response.content.decode()
    assert "<polyline" in page and f"#{game.pk}</a>" in page


def test_the_hint_button_is_offered_only_without_another_person(make_user, client):
    ann, bob, robot = make_user("ann"), make_user("bob"), make_user("robot", computer="expert")
    client.force_login(ann)
    solo = table(ann)
    against_computer = table(ann, robot, rated=False)
    rated_against_computer = table(ann, robot)
    with_bob = table(ann, bob, rated=False)
    assert client.get(solo.get_absolute_url()).context["hint"] is True
    assert client.get(against_computer.get_absolute_url()).context["hint"] is True
    assert client.get(with_bob.get_absolute_url()).context["hint"] is False
    # A rated game gives no hint (its rating is the player's own play): the page offers no button.
    page = client.get(rated_against_computer.get_absolute_url())
    assert page.context["hint"] is False and 'data-hint="false"' in page.content.decode()
    client.force_login(bob)  # watching a solo game: no seat, no hint
    assert client.get(solo.get_absolute_url()).context["hint"] is False
