"""The daily challenge's pages (docs/daily.md): today's page and an earlier day's, the Play
button, who sees whose results when, the grade and the review, the share text without a die, and every
kind of the catalogue."""

from __future__ import annotations

import html
import re
from datetime import UTC, date, datetime

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from coach import services as coach
from coach.models import SeatReview
from daily import closing, grades, services
from daily.models import Day
from games import catalogue, rules
from games.models import Action, Game
from games.tables import services as game_services
from tests.games.extra import two_boxes

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
DAY = date(2026, 12, 6)
TODAY = "/daily/"
KIND = "triple-quintzee"


@pytest.fixture
def noon(time_machine):
    time_machine.move_to(NOON, tick=False)
    return time_machine


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


_ids = iter(range(10**9))


def act(game, user, action):
    return game_services.game_apply_action(
        game_id=game.pk, user=user, client_id=f"p{next(_ids)}", action=action
    )


def finish(game, user) -> Game:
    """The game played to its end: every turn the first roll, then the box listed first."""
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        actions = game.engine.legal_actions(game.state)
        scores = [a for a in actions if a["type"] in ("score", "bank")]
        act(game, user, scores[0] if scores else actions[0])
    raise AssertionError("the game did not end")


def kind_part(page: str, slug: str) -> str:
    """The section of one kind on a day's page."""
    match = re.search(rf'<section class="card daily-kind[^"]*" id="daily-{slug}".*?</section>', page, re.S)
    assert match, f"no section for {slug}"
    return match[0]


def page_of(client: Client, url: str = TODAY) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_the_page_shows_today_s_and_tomorrow_s_commitments_and_no_seed(noon, ann):
    page = page_of(signed_in(ann))

    today, tomorrow = Day.objects.get(date=DAY), Day.objects.get(date=date(2026, 12, 7))
    assert today.commitment in page and tomorrow.commitment in page
    assert today.server_seed not in page and tomorrow.server_seed not in page
    assert "daily-2026-12-06-" in page


def test_every_kind_of_the_catalogue_is_on_the_page_with_its_play_button(noon, ann):
    page = page_of(signed_in(ann))
    for kind in catalogue.kinds():
        part = kind_part(page, kind.slug)
        assert f'name="kind" value="{kind.slug}"' in part


def test_a_game_registered_later_is_on_the_page_and_playable(noon, ann):
    """Written over the catalogue of kinds: a game added with one registration is in the challenge."""
    rules.register(two_boxes)
    try:
        client = signed_in(ann)
        assert "Two Boxes" in kind_part(page_of(client), two_boxes.slug)
        response = client.post(reverse("daily:play"), {"kind": two_boxes.slug})
        game = Game.objects.get(kind=two_boxes.slug)
        assert response.status_code == 302 and response.url == game.get_absolute_url()
        assert game.client_seeds == ["daily-2026-12-06-two-boxes"]
    finally:
        rules.unregister(two_boxes.slug)


def test_play_starts_the_game_and_a_second_press_finds_it(noon, ann):
    client = signed_in(ann)
    first = client.post(reverse("daily:play"), {"kind": KIND})
    second = client.post(reverse("daily:play"), {"kind": KIND})

    game = Game.objects.get()
    assert first.url == second.url == game.get_absolute_url()
    part = kind_part(page_of(client), KIND)
    assert "Continue your game" in part and f'href="/games/{game.pk}/"' in part
    assert 'name="kind"' not in part


def test_no_second_attempt_once_it_is_over(noon, ann):
    client = signed_in(ann)
    client.post(reverse("daily:play"), {"kind": KIND})
    act(Game.objects.get(), ann, {"type": "resign"})

    response = client.post(reverse("daily:play"), {"kind": KIND})
    assert response.status_code == 302 and response.url == TODAY
    (message,) = get_messages(response.wsgi_request)
    assert message.level_tag == "error" and "one attempt a day" in message.message
    assert Game.objects.count() == 1
    part = kind_part(page_of(client), KIND)
    assert "You gave this one up." in part and 'name="kind"' not in part


def test_a_kind_the_site_does_not_have_is_an_error_message(noon, ann):
    response = signed_in(ann).post(reverse("daily:play"), {"kind": "chess"})
    assert response.status_code == 302 and response.url == TODAY
    (message,) = get_messages(response.wsgi_request)
    assert message.level_tag == "error"
    assert not Game.objects.exists()


def test_the_others_results_only_once_you_have_played_or_the_day_is_over(noon, make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    ann_game = finish(services.attempt_start(user=ann, kind=KIND), ann)

    # Bob has not played: how many did, nobody's score.
    part = kind_part(page_of(signed_in(bob)), KIND)
    assert "data-results-hidden" in part and "1 player has taken this challenge so far." in part
    assert 'data-player="ann"' not in part
    # Ann has: her row, no link to anyone else's game.
    part = kind_part(page_of(signed_in(ann)), KIND)
    assert 'data-player="ann"' in part and f"/games/{ann_game.pk}/replay/" in part

    bob_game = services.attempt_start(user=bob, kind=KIND)
    part = kind_part(page_of(signed_in(bob)), KIND)
    assert "data-results-hidden" in part  # playing is not having played
    finish(bob_game, bob)
    part = kind_part(page_of(signed_in(bob)), KIND)
    assert 'data-player="ann"' in part and 'data-player="bob"' in part
    assert f"/games/{ann_game.pk}/replay/" not in part  # ann's game is hers until the day is closed

    # After the day, everyone sees them, and the games once the day is closed.
    noon.move_to(datetime(2026, 12, 7, 9, 0, tzinfo=UTC), tick=False)
    closing.day_close(day=DAY)
    part = kind_part(page_of(signed_in(cid), "/daily/2026-12-06/"), KIND)
    assert 'data-player="ann"' in part and f"/games/{ann_game.pk}/replay/" in part
    assert "You did not play it that day." in part


def test_a_player_still_in_the_attempt_after_midnight_sees_no_results(noon, make_user):
    """With the worker down at midnight the day is not closed and an attempt goes on: its player saw
    the others' results (the day was over by the date) while still playing. Hidden until it ends."""
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    finish(services.attempt_start(user=ann, kind=KIND), ann)
    bob_game = services.attempt_start(user=bob, kind=KIND)
    noon.move_to(datetime(2026, 12, 7, 0, 5, tzinfo=UTC), tick=False)  # no close has run
    assert Game.objects.get(pk=bob_game.pk).status == Game.Status.PLAYING

    part = kind_part(page_of(signed_in(bob), "/daily/2026-12-06/"), KIND)
    assert "data-results-hidden" in part and 'data-player="ann"' not in part
    # Whoever is not playing sees them, the day being over.
    assert 'data-player="ann"' in kind_part(page_of(signed_in(cid), "/daily/2026-12-06/"), KIND)
    finish(bob_game, bob)
    part = kind_part(page_of(signed_in(bob), "/daily/2026-12-06/"), KIND)
    assert 'data-player="ann"' in part and 'data-player="bob"' in part


def test_the_results_rank_by_the_kind_s_ranking_and_list_who_gave_up(noon, make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    finish(services.attempt_start(user=ann, kind=KIND), ann)
    finish(services.attempt_start(user=bob, kind=KIND), bob)
    act(services.attempt_start(user=cid, kind=KIND), cid, {"type": "resign"})

    part = kind_part(page_of(signed_in(cid)), KIND)
    rows = re.findall(r'data-player="(\w+)"', part)
    assert rows == ["ann", "bob", "cid"]  # the same moves, the same dice: the same score, ann first
    assert "gave up" in part


def test_a_given_up_attempt_has_no_grade(noon, make_user):
    """docs/daily.md: a game given up is listed without a rank, a score or a grade, even once the coach
    has reviewed the moves made before it was given up."""
    ann, cid = make_user("ann"), make_user("cid")
    finish(services.attempt_start(user=ann, kind=KIND), ann)
    game = services.attempt_start(user=cid, kind=KIND)
    for _ in range(3):  # decisions for the coach to judge
        game.refresh_from_db()
        scores = [a for a in game.engine.legal_actions(game.state) if a["type"] == "score"]
        act(game, cid, scores[0] if scores else game.engine.legal_actions(game.state)[0])
    act(game, cid, {"type": "resign"})
    assert coach.review_game(game_id=game.pk) == "reviewed"
    assert SeatReview.objects.get(seat__game=game).accuracy is not None

    part = kind_part(page_of(signed_in(cid)), KIND)
    mine = re.search(r"<p class=\"daily-mine\" data-daily-mine>.*?</p>", part, re.S)[0]
    assert "You gave this one up." in mine
    assert "data-grade" not in mine and "Grade" not in mine and "grade follows" not in mine
    row = re.search(r'<tr[^>]*data-player="cid">.*?</tr>', part, re.S)[0]
    cell = re.search(r'<td class="daily-grade-cell">(.*?)</td>', row, re.S)[1]
    assert cell.strip() == "\u2013", cell  # a dash, as for a game with no decision to judge
    assert "soon" not in row


def test_the_grade_is_the_coach_s_accuracy_as_a_letter_with_the_review_linked(noon, ann):
    game = finish(services.attempt_start(user=ann, kind=KIND), ann)
    client = signed_in(ann)
    part = kind_part(page_of(client), KIND)
    assert "data-grade-pending" in part  # the worker has not reviewed it yet

    assert coach.review_game(game_id=game.pk) == "reviewed"
    review = SeatReview.objects.get(seat__game=game)
    grade = grades.letter(review.accuracy)
    part = kind_part(page_of(client), KIND)
    assert f'data-grade="{grade}"' in part and f"Grade {grade}" in part
    assert f'href="/games/{game.pk}/replay/#coach-review"' in part
    assert 'id="coach-review"' in page_of(client, f"/games/{game.pk}/replay/")


def test_the_share_text_names_the_score_and_the_grade_and_no_die(noon, ann):
    game = finish(services.attempt_start(user=ann, kind=KIND), ann)
    coach.review_game(game_id=game.pk)
    grade = grades.letter(SeatReview.objects.get(seat__game=game).accuracy)
    score = game.seats.get().final_score

    part = html.unescape(kind_part(page_of(signed_in(ann)), KIND))
    text = f"DiceHall daily 2026-12-06, Triple Quintzee: {score} points, grade {grade}"
    assert f">{text} -- http://testserver/daily/2026-12-06/</textarea>" in part
    assert f'data-share-text="{text}"' in part
    # Nothing in it but the date, the score and the link: no roll of the game.
    rest = text.replace("2026-12-06", "").replace(str(score), "")
    assert not re.search(r"\d", rest)
    rolls = {tuple(roll) for a in Action.objects.filter(game=game) for roll in a.dice}
    assert rolls and all(" ".join(map(str, roll)) not in part for roll in rolls)


def test_the_share_text_of_a_game_ranked_by_laps_names_them(noon, ann):
    """Farkle ranks by laps to the goal (its declared ranking): its result says them."""
    from daily.selectors import KindPart, Result
    from daily.views import share_text

    farkle = catalogue.kind("farkle")
    assert farkle.ranking.uses_laps
    mine = Result("ann", ann.pk, 1, "finished", 10150, 14, 93.4, True, False)
    assert share_text(KindPart(farkle, "Farkle (10000)", mine), DAY) == (
        "DiceHall daily 2026-12-06, Farkle (10000): 10150 points in 14 laps, grade A"
    )
    none = Result("ann", ann.pk, 1, "finished", 1, None, None, True, False)
    assert share_text(KindPart(catalogue.kind(KIND), "Triple Quintzee", none), DAY) == (
        "DiceHall daily 2026-12-06, Triple Quintzee: 1 point"
    )


def test_an_earlier_day_is_reachable_and_a_day_to_come_or_without_a_challenge_is_not(noon, ann):
    client = signed_in(ann)
    page_of(client)  # today's and tomorrow's days
    assert client.get("/daily/2026-12-06/").status_code == 200  # today, by its date
    assert client.get("/daily/2026-12-07/").status_code == 404  # to come
    assert client.get("/daily/2026-12-01/").status_code == 404  # nobody asked for it
    assert client.get("/daily/2026-13-40/").status_code == 404
    noon.move_to(datetime(2026, 12, 8, 9, 0, tzinfo=UTC), tick=False)
    page = page_of(client, "/daily/2026-12-06/")
    assert "challenge is over" in page and 'name="kind"' not in page
    assert 'href="/daily/2026-12-07/"' in page  # the next day
    assert 'href="/daily/2026-12-06/"' in page_of(client)  # today's lists the earlier days


def test_the_revealed_seed_is_on_a_closed_day_s_page(noon, ann):
    client = signed_in(ann)
    page_of(client)
    day = Day.objects.get(date=DAY)
    noon.move_to(datetime(2026, 12, 7, 0, 5, tzinfo=UTC), tick=False)
    assert day.server_seed not in page_of(client, "/daily/2026-12-06/")  # over, not closed yet
    closing.day_close(day=DAY)
    assert day.server_seed in page_of(client, "/daily/2026-12-06/")


def test_signed_out_visitors_are_asked_to_sign_in(noon):
    for url in (TODAY, "/daily/2026-12-06/"):
        response = Client().get(url)
        assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert Client().post(reverse("daily:play"), {"kind": KIND}).status_code == 302
    assert not Game.objects.exists()


def test_the_home_page_and_the_menu_link_the_challenge(ann):
    page = page_of(signed_in(ann), "/")
    assert page.count('href="/daily/"') >= 2


def test_a_daily_game_s_page_links_its_day_and_no_other_game_s_does(noon, ann):
    client = signed_in(ann)
    daily = services.attempt_start(user=ann, kind=KIND)
    solo = game_services.game_create(creator=ann, kind=KIND, seats=1, client_seed="daily-2026-12-06-x")

    page = page_of(client, f"/games/{daily.pk}/")
    assert 'id="game-daily"' in page and 'href="/daily/2026-12-06/"' in page
    assert 'data-hint="false"' in page
    page = page_of(client, f"/games/{solo.pk}/")
    assert 'id="game-daily"' not in page and 'data-hint="true"' in page
