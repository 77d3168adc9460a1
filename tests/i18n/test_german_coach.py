"""The coach and the computer players in German: reviews said in the page's language from the messages
a review stores, the hint in its asker's language, the computers' badges and forms, no English left."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from coach import services as coach
from coach.models import SeatReview
from games.bots.farkle_expert import expected_turn
from games.tables import services as tables
from tests.coach.test_hint_socket import ask
from tests.coach.test_review import farkle_game
from tests.games.sockets import Client as Tab
from tests.games.sockets import new_table
from tests.i18n.english import english_left, visible_text

NAMES = ("ann", "bob", "DiceHall", "Farkle", "computer-expert-1", "computer-good-1")


def german(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    user.language = "de"
    user.save(update_fields=["language"])
    client.force_login(user)
    return client


def coach_data(page: str) -> dict:
    return json.loads(page.split('id="coach-data" type="application/json">')[1].split("</script>")[0])


@pytest.mark.django_db
def test_a_review_is_said_in_the_language_of_the_page(make_user, scripted_dice):
    ann = make_user("ann")
    game = farkle_game(ann, scripted_dice, first_bank=[0, 1, 2])
    coach.review_game(game_id=game.pk)
    stored = SeatReview.objects.get(seat__game=game).decisions[0]
    assert stored["say"] == {"code": "coach.farkle.bank", "params": {"dice": "1 1 1", "points": 1000}}
    assert stored["text"] == "set aside 1 1 1 and bank 1000"  # the English beside it
    url = reverse("games:replay", args=[game.pk])
    page = german(ann).get(url).content.decode()
    assert "Auswertung des Coachs" in page and "Beendet" in page  # the game's status too
    assert "1 1 1 rauslegen und 1.000 aufschreiben. Experte: 1 1 1 5 rauslegen und 1.050 aufschreiben" in page
    assert "(\u221250,0 erwartete Punkte)" in page
    assert "Zug 1, Wurf 1" in page  # as the player counts, not the log's step 2
    step = coach_data(page)["2"]
    assert (step["text"], step["expert_text"]) == (
        "1 1 1 rauslegen und 1.000 aufschreiben",
        "1 1 1 5 rauslegen und 1.050 aufschreiben",
    )
    assert english_left(visible_text(page), NAMES) == []
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(make_user("bob"))
    assert "Expert: set aside 1 1 1 5 and bank 1050" in english.get(url).content.decode()


@pytest.mark.django_db
def test_a_review_written_before_the_messages_keeps_its_english(make_user, scripted_dice):
    ann = make_user("ann")
    game = farkle_game(ann, scripted_dice, first_bank=[0, 1, 2])
    coach.review_game(game_id=game.pk)
    review = SeatReview.objects.get(seat__game=game)
    old = [{k: v for k, v in d.items() if k not in ("say", "expert_say")} for d in review.decisions]
    review.decisions = old
    review.save(update_fields=["decisions"])
    page = german(ann).get(reverse("games:replay", args=[game.pk])).content.decode()
    assert coach_data(page)["2"]["text"] == "set aside 1 1 1 and bank 1000"


@pytest.mark.django_db
def test_the_accuracy_chart_in_german_keeps_its_coordinates(make_user, scripted_dice):
    ann = make_user("ann")
    game = farkle_game(ann, scripted_dice, first_bank=[0, 1, 2])
    coach.review_game(game_id=game.pk)
    url = reverse("players:stats", args=["ann"]) + "?kind=farkle&goal=3000"
    page = german(ann).get(url).content.decode()
    assert "Genauigkeit im Zeitverlauf" in page and "Mittel im letzten ausgewerteten Spiel" in page
    svg = page.split("coach-chart", 1)[1].split("</svg>", 1)[0]
    # SVG numbers are written with a point in every language (a German comma would break the chart).
    coordinates = re.findall(r'(?:x1|y1|x2|y2)="([^"]*)"', svg)
    assert coordinates and all(re.fullmatch(r"-?\d+(\.\d+)?", c) for c in coordinates), coordinates
    assert english_left(visible_text(page), NAMES) == []


@pytest.mark.django_db
def test_the_computers_in_the_waiting_room_lobby_and_statistics_speak_german(make_user):
    ann = make_user("ann")
    client = german(ann)
    game = tables.game_create(creator=ann, kind="farkle", seats=3, computers=1, strength="expert")
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Computer · Experte" in page and "Einen Computerspieler dazusetzen" in page
    assert ">Leicht</option>" in page and "entfernen" in page
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "Jetzt gegen den Computer spielen" in lobby and "Stärke der Computer" in lobby
    stats = client.get(reverse("players:stats", args=["ann"]) + "?kind=farkle&opponents=computers")
    text = visible_text(stats.content.decode())
    assert "Mit Computerspielern" in text and "Noch keine beendeten Spiele Farkle" in text
    for shown in (page, lobby, stats.content.decode()):
        assert english_left(visible_text(shown), NAMES) == []


@pytest.mark.django_db
def test_a_service_refuses_about_computers_in_german(make_user):
    from django.utils import translation

    from games.errors import GameError

    ann = make_user("ann")
    with pytest.raises(GameError) as refused:
        tables.game_create(creator=ann, kind="farkle", seats=2, computers=2)
    with translation.override("de"):
        assert refused.value.message == (
            "Computerspieler nehmen die Plätze neben deinem: höchstens einer weniger als Plätze."
        )


@pytest.mark.django_db(transaction=True)
async def test_the_hint_is_said_in_the_askers_language(make_user, scripted_dice):
    from channels.db import database_sync_to_async

    ann = await database_sync_to_async(make_user)("ann", language="de")
    robot = await database_sync_to_async(make_user)("robot", computer="expert")
    game = await new_table(ann, [robot], "farkle", {"goal": 3000}, rated=False)
    scripted_dice([1, 1, 1, 5, 2, 3])
    tab = Tab(ann, game.pk)
    await tab.open()
    first = await ask(tab)
    assert (first["text"], first["value"]) == ("würfeln", round(expected_turn(6), 1))
    await tab.act({"type": "roll", "keep": []})
    hint = await ask(tab)
    assert hint["text"] == "1 1 1 5 rauslegen und 1.050 aufschreiben"
    assert hint["action"] == {"type": "bank", "keep": [0, 1, 2, 3]}
    await tab.close()
