"""Site-wide fixes seen by players: games named by their options, the lobby's labels, cancelled games."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.views.defaults import permission_denied, server_error

from games import catalogue, i18n
from games.errors import GameError
from games.models import Game
from games.rules import declare, farkle, painted_dicez, triple_quintzee
from games.tables import services
from tests.games.test_stats import FIVE_RED_SIXES, RAINBOW_STRAIGHT, act, farkle_game, painted_solo

pytestmark = pytest.mark.django_db

NO_DATA = "\N{EN DASH}"  # what a statistics page shows where there is no figure yet


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
    # The result, then the rating's change: none for a game never played.
    assert cells[3] == "cancelled"
    assert cells[4] == '<span class="muted">\u2013</span>'


# --- statistics speak the engine's words ------------------------------------------------------------


def _code_names(text: str) -> set[str]:
    return set(re.findall(r"\b[a-z]+_[a-z_]+\b", text))


def test_card_statistics_show_the_engine_labels_and_real_zeros(client, ann, scripted_dice):
    painted_solo(ann, RAINBOW_STRAIGHT, scripted_dice)
    painted_solo(ann, FIVE_RED_SIXES, scripted_dice)
    client.force_login(ann)
    response = client.get(reverse("players:stats", args=["ann"]), {"kind": "painted-dicez"})
    text = _text(response)
    assert not _code_names(text)
    for label in painted_dicez.LABELS.values():
        assert f" {label} " in text
    heat = {
        label: value
        for label, value in re.findall(
            r'<th scope="row">([^<]+)</th><td class="num heat" data-value="[^"]*">([^<]+)</td>',
            response.content.decode(),
        )
    }
    # Full house was scratched in both games: an average of 0, which is a value, not "no data".
    assert heat["Full House"] == "0" and heat["Sixes"] == "15" and heat["Straight"] == "20"


def test_card_statistics_dash_only_where_there_is_no_data(client, ann, scripted_dice):
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=1)
    # Every roll a small straight; all 39 boxes: the three columns' boxes are never empty at the end.
    scripted_dice(*([[1, 2, 3, 4, 6]] * 39))
    for column in (1, 2, 3):
        for box in triple_quintzee.BOXES:
            act(game, ann, {"type": "roll", "hold": []})
            act(game, ann, {"type": "score", "box": box, "column": column})
    client.force_login(ann)
    html = client.get(reverse("players:stats", args=["ann"]), {"kind": "triple-quintzee"}).content.decode()
    rows = dict(re.findall(r'<th scope="row">([^<]+)</th>(.*?)</tr>', html, re.S))
    cells = {label: re.findall(r'data-value="([^"]*)">([^<]+)<', row) for label, row in rows.items()}
    assert cells["Sixes"] == [("6.0", "6")] * 3
    assert cells["Quintzee"] == [("0.0", "0")] * 3  # scratched: a real 0
    assert NO_DATA not in "".join(v for row in cells.values() for _, v in row)


def test_farkle_statistics_tabs_use_the_option_text(client, ann, bob, scripted_dice):
    farkle_game(ann, bob, scripted_dice)
    client.force_login(bob)
    response = client.get(reverse("players:stats", args=["bob"]), {"kind": "farkle", "goal": 3000})
    html = response.content.decode()
    assert 'aria-label="Farkle goal"' in html
    assert re.search(r'<a href="\?kind=farkle&goal=3000" aria-current="page">Goal 3000</a>', html)
    figures = dict(re.findall(r"<dt>([^<]+)</dt><dd[^>]*>([^<]+)</dd>", html))
    assert figures["Best (fewest) laps"] == NO_DATA  # bob never won: no data
    assert figures["Farkle rate per roll"] == "33%"
    assert not _code_names(_text(response))
    empty = client.get(reverse("players:stats", args=["bob"]), {"kind": "farkle", "goal": 5000})
    # The games are named by their goal, as everywhere.
    assert "No finished Farkle (5000) games yet." in _text(empty)
    assert "<title>bob · Farkle (5000) statistics" in empty.content.decode()


def test_statistics_json_carries_the_labels(client, ann, scripted_dice):
    painted_solo(ann, RAINBOW_STRAIGHT, scripted_dice)
    client.force_login(ann)
    data = client.get(reverse("api_player_stats", args=["ann"]), {"kind": "painted-dicez"}).json()
    figures = {f["key"]: f["label"] for f in data["shown"]["figures"]}
    assert figures["five_kinds"] == "DiceZ" and figures["scratch_rate"] == "Scratch rate"
    (table,) = data["shown"]["tables"]
    assert table["caption"] == "Average per box" and table["columns"] == ["Average"]
    assert [r["label"] for r in table["rows"]] == list(painted_dicez.LABELS.values())
    assert {"label": "Full House", "values": [0.0]} in table["rows"]


# --- the home page tells a visitor what the site is ------------------------------------------------


def test_home_shows_a_visitor_the_site(client, settings):
    response = client.get(reverse("home"))
    html = response.content.decode()
    text = _text(response)
    assert "DiceHall is a free place to play five dice games" in text
    for kind in catalogue.kinds():
        assert f"<h3>{kind.name}</h3>" in html and kind.pitch in text
    # The picture of a real game, small enough for a phone on a slow line.
    src = re.search(r'<img src="([^"]+\.webp)" width="1280" height="800"\s+alt="A game of ', html)[1]
    picture = Path(settings.BASE_DIR) / "static" / src.removeprefix(settings.STATIC_URL)
    assert picture.read_bytes()[8:12] == b"WEBP" and picture.stat().st_size < 120_000
    # Play solo now: sign up, then the lobby with one seat chosen.
    solo = reverse("games:lobby") + "?seats=1"
    assert f'href="{reverse("accounts:signup")}?next={quote(solo)}">Play solo now</a>' in html


def test_play_solo_now_signs_up_and_lands_in_the_lobby_set_for_one(client):
    solo = reverse("games:lobby") + "?seats=1"
    response = client.post(
        reverse("accounts:signup") + "?next=" + quote(solo, safe=""),
        {"username": "newcomer", "password1": "six-dice-and-a-cup", "password2": "six-dice-and-a-cup"},
    )
    assert response.status_code == 302 and response["Location"] == solo
    lobby = client.get(solo)
    # The solo form comes first; the form for any table below it keeps its usual seats.
    assert lobby.context["solo"] is True
    html = lobby.content.decode()
    assert html.index('id="solo-form"') < html.index('id="computer-form"') < html.index('id="new-game-form"')
    assert '<input type="hidden" name="seats" value="1">' in html


def test_home_for_a_player_offers_solo_play(client, ann):
    client.force_login(ann)
    html = client.get(reverse("home")).content.decode()
    assert f'<a class="button" href="{reverse("games:lobby")}?seats=1">Play solo now</a>' in html
    assert "hero-picture" not in html


# --- branded error pages (DEBUG is off in the test settings) ----------------------------------------


def test_404_is_branded(client, settings):
    assert settings.DEBUG is False
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert [t.name for t in response.templates][:2] == ["404.html", "_error.html"]
    text = _text(response)
    assert "DiceHall" in text and "No page here" in text and "Go to the home page" in text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in response.content.decode()


def test_403_is_branded(rf, ann):
    request = rf.get("/somewhere/")
    request.user = ann
    response = permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    assert "This page is not for you" in text and "DiceHall" in text


def test_500_is_branded_without_a_request_context(rf):
    response = server_error(rf.get("/"))
    assert response.status_code == 500
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    assert "Something went wrong on our side" in text and "Go to the home page" in text


def test_a_refused_form_is_branded_too(ann):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    response = client.post(reverse("games:new"), {"kind": "triple-quintzee", "seats": 2})
    assert response.status_code == 403
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))
    assert "This form could not be sent" in text and "DiceHall" in text


# --- words as the rule sheets and players say them ----------------------------


def test_a_list_of_players_has_no_space_before_its_commas(client, ann, bob):
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=2)
    services.game_join(game_id=game.pk, user=bob)
    client.force_login(ann)
    text = _text(client.get(reverse("games:mine")))
    assert "ann, bob" in text and "ann , bob" not in text


def test_painted_dicez_card_spells_color_as_its_rule_sheet_does():
    labels = [row["label"] for row in painted_dicez.SHEET["rows"] if "label" in row]
    assert "4 of a Color" in labels and "Color subtotal" in labels and "Color bonus (63+)" in labels
    assert not [label for label in labels if "Colour" in label]


def test_a_leaderboard_names_the_game_it_links_to(client, ann, bob, scripted_dice):
    game = farkle_game(ann, bob, scripted_dice)
    client.force_login(ann)
    page = client.get(reverse("highscores") + "?kind=farkle&goal=3000").content.decode()
    assert f'">Game #{game.pk}</a>' in page and ">multiplayer<" not in page


# --- a game's pace and waits in words -----------------------------------------


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(1, "1 second"), (90, "90 seconds"), (120, "2 minutes"), (3600, "1 hour"), (5400, "90 minutes"),
     (86399, "24 hours"), (86400, "1 day"), (3 * 86400, "3 days")],
)  # fmt: skip
def test_durations_in_words(seconds, words):
    assert i18n.duration(seconds) == words


def test_a_refused_skip_says_the_wait_in_words(ann, bob):
    game = services.game_create(creator=ann, kind="farkle", seats=2, pace=Game.Pace.DAYS, absence_limit=86400)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    with pytest.raises(GameError) as refused:
        services.game_apply_action(game_id=game.pk, user=bob, client_id="skip-1", action={"type": "skip"})
    # A moment after the turn began: the whole day, or a second less.
    assert re.search(r"once they have been away (1 day|24 hours) longer\.$", refused.value.message)
    with translation.override("de"):
        assert re.search(r"noch (1 Tag|24 Stunden) länger weg ist\.$", refused.value.message)


def test_the_game_page_says_its_pace(client, ann, bob):
    days = services.game_create(
        creator=ann, kind="farkle", seats=2, pace=Game.Pace.DAYS, absence_limit=172800
    )
    live = services.game_create(creator=ann, kind="farkle", seats=2, absence_limit=120)
    solo = services.game_create(creator=ann, kind="farkle", seats=1)
    client.force_login(ann)
    assert "Played over days: 2 days per turn" in _text(client.get(reverse("games:detail", args=[days.pk])))
    assert "Live: a player away for 2 minutes may be skipped" in _text(
        client.get(reverse("games:detail", args=[live.pk]))
    )
    assert 'id="game-pace"' not in client.get(reverse("games:detail", args=[solo.pk])).content.decode()
