"""Numbers and dates in the reader's format: German groups digits ("11.050") and writes its
own date order ("1. Dez. 2026", "01.12.2026, 17:26"); English reads exactly as it always has."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.games.test_services import act, table

pytestmark = pytest.mark.django_db

ENDED = datetime.datetime(2026, 12, 1, 17, 26, tzinfo=datetime.UTC)


@pytest.fixture
def finished(make_user, scripted_dice):
    """Ann's 11050 against Bob's 1500 with a goal of 3000, ended at a known minute."""
    ann, bob = make_user("ann"), make_user("bob")
    game = table(ann, bob, options={"goal": 3000})
    scripted_dice(
        [5, 2, 3, 4, 6, 6],
        [1, 1, 1, 2, 3],
        [2, 2, 3, 4, 6, 6],
        [1, 1, 1, 1, 1, 2],
        [1, 2, 3, 4, 5, 6],
        [5, 5, 5, 2, 3, 4],
    )
    act(game, ann, {"type": "roll", "keep": []})
    act(game, ann, {"type": "roll", "keep": [0]})
    act(game, ann, {"type": "bank", "keep": [0, 1, 2]})
    act(game, bob, {"type": "roll", "keep": []})
    act(game, ann, {"type": "roll", "keep": []})
    act(game, ann, {"type": "bank", "keep": [0, 1, 2, 3, 4]})
    act(game, bob, {"type": "roll", "keep": []})
    act(game, bob, {"type": "roll", "keep": [0, 1, 2, 3, 4, 5]})
    act(game, bob, {"type": "bank", "keep": [0, 1, 2]})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    Game.objects.filter(pk=game.pk).update(finished_at=ENDED)
    ann.date_joined = ENDED
    ann.save(update_fields=["date_joined"])
    return game, ann


def reader(user, language: str) -> Client:
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_german_pages_group_scores_and_write_german_dates(finished):
    game, ann = finished
    client = reader(ann, "de")
    replay = page(client, reverse("games:replay", args=[game.pk]))
    assert "11.050" in replay and "1.500" in replay and "01.12.2026, 17:26" in replay
    history = page(client, reverse("players:history", args=["ann"]))
    assert "11.050" in history and "01.12.2026, 17:26" in history
    assert "1. Dez. 2026" in page(client, reverse("games:mine"))
    stats = page(client, reverse("players:stats", args=["ann"]) + "?kind=farkle&goal=3000")
    # Scores are grouped; a goal is written as it names the game, "Farkle (3000)".
    assert 'data-stat="best">11.050<' in stats and "Ziel 3000" in stats and "Farkle (3000)" in stats
    assert "3000</option>" in page(client, reverse("highscores") + "?kind=farkle&goal=3000")
    assert "11.050" in page(client, reverse("highscores") + "?kind=farkle&goal=3000")
    assert "1. Dezember 2026" in page(client, reverse("accounts:profile"))
    assert "Ziel 3000" in Game.objects.get(pk=game.pk).option_text


def test_english_pages_read_as_before(finished):
    game, ann = finished
    client = reader(ann, "en")
    replay = page(client, reverse("games:replay", args=[game.pk]))
    assert "11050" in replay and "11,050" not in replay and "1 Dec 2026 17:26" in replay
    history = page(client, reverse("players:history", args=["ann"]))
    assert "11050" in history and "1 Dec 2026 17:26" in history
    assert "1 Dec 2026" in page(client, reverse("games:mine"))
    stats = page(client, reverse("players:stats", args=["ann"]) + "?kind=farkle&goal=3000")
    assert 'data-stat="best">11050<' in stats and "Goal 3000" in stats
    assert ">3000</option>" in page(client, reverse("highscores") + "?kind=farkle&goal=3000")
    assert "Member since 1 December 2026." in page(client, reverse("accounts:profile"))
    assert Game.objects.get(pk=game.pk).option_text.startswith("Goal 3000")


def test_a_goal_is_written_as_the_game_is_named_in_every_language():
    """Farkle's goal names the game ("Farkle (10000)"), so it is written in the same
    plain digits by every reader, in the engines' messages too, where the points are grouped as the
    reader groups them."""
    from django.utils import translation

    from games import i18n
    from games.rules.messages import msg

    said = [msg("farkle.goal", player="ann", goal=10000), msg("over.solo", player="ann", points=10350)]
    with translation.override("de"):
        assert i18n.render(said) == (
            "ann hat das Ziel von 10000 erreicht. Das Spiel ist aus: ann kommt auf 10.350 Punkte."
        )
    with translation.override("en"):
        assert i18n.render(said) == (
            "ann reached the goal of 10000. The game is over: ann finished with 10350 points."
        )
