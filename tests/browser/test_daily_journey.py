"""The daily challenge in Chromium: two players play the same day's Triple Quintzee
and see the same first roll, read off the page in both browsers (one of them a 390x844 touch phone);
then one of them plays it to the end (through the services: the browser part proves nothing new there),
the worker reviews it, and the player sees the day's results, the review and the share text. A closed
day's page, to someone who never played: everyone's results, the seed revealed, and the replay checking
every roll against it. The site
here rolls the fair dice (docs/fair-dice.md), as production does: the day's seed deals them.
Screenshots at 1280x800 and as a 390x844 touch phone, light and dark, under
artifacts/screenshots/daily/."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.template.defaultfilters import floatformat
from django.utils import timezone
from playwright.sync_api import Page, expect

from coach import services as coach
from daily import closing, days, grades, seeds
from daily import services as daily_services
from daily.models import Day
from games import bots, fair_dice
from games.models import Game
from games.tables import services as game_services
from tests.browser.fixtures import SHOTS, Daphne
from tests.browser.helpers import ConsoleWatch, die, off_loop, sign_in
from tests.browser.test_coach import run_worker
from tests.browser.test_site_ui import DESKTOP, PHONE
from tests.e2e.axe import check_axe

DAILY_SHOTS = SHOTS / "daily"
FACES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
KIND = "triple-quintzee"


@pytest.fixture(scope="module")
def fair_env(server_env):
    return {**server_env, "DICE_SOURCE": "fair"}


@pytest.fixture(scope="module")
def fair_server(fair_env):
    """A daphne of its own that rolls production's fair dice (the shared one rolls scripted dice)."""
    daphne = Daphne(fair_env, log_name="daphne-daily.log")
    yield daphne.url
    daphne.stop()


@pytest.fixture
def open_fair(browser, fair_server, transactional_db):
    """open_fair(user, DESKTOP or PHONE) -> a signed-in page on the fair server; any page error, console
    error or broken game frame fails the test."""
    watch = ConsoleWatch()
    contexts = []

    def make(user, device: dict) -> Page:
        context = browser.new_context(base_url=fair_server, **device)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        contexts.append(context)
        sign_in(context, user, fair_server)
        page = watch.watch(context.new_page(), user.username)
        page.set_default_timeout(15_000)
        return page

    yield make
    watch.check()
    for context in contexts:
        context.close()


def shots(page: Page, name: str) -> None:
    """The page checked by axe and saved in both themes, at its device's size; it never scrolls sideways."""
    DAILY_SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        check_axe(page, f"{name} ({width} px, {scheme})")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{name} scrolls sideways by {overflow} px at {width} px"
        page.screenshot(path=str(DAILY_SHOTS / f"{name}-{width}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def first_roll(page: Page, tap: bool) -> list[int]:
    """Play today's Triple Quintzee from the daily page, roll, and read the five dice off the table."""
    play = page.locator(f"#daily-{KIND} [data-daily-play]")
    play.tap() if tap else play.click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    roll = page.locator("#roll-button")
    expect(roll).to_be_enabled()
    roll.tap() if tap else roll.click()
    labels = []
    for n in range(1, 6):
        expect(die(page, n)).to_have_attribute(
            "aria-label", re.compile(rf"^Die {n}: (one|two|three|four|five|six)")
        )
        labels.append(die(page, n).get_attribute("aria-label"))
    return [FACES[re.match(r"Die \d: (\w+)", label)[1]] for label in labels]


def play_to_the_end(game: Game, user) -> Game:
    """Every turn: the rolls left, then the box the engine lists first (what the coach will judge)."""
    for n in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        actions = game.engine.legal_actions(game.state)
        scores = [a for a in actions if a["type"] == "score"]
        action = scores[0] if scores and game.state["roll"] >= 2 else actions[0]
        game_services.game_apply_action(game_id=game.pk, user=user, client_id=f"end-{n}", action=action)
    raise AssertionError("the game did not end")


def test_two_players_see_the_same_first_roll_then_one_sees_results_review_and_share(
    open_fair, make_user, fair_env
):
    ann, bob = make_user("ann"), make_user("bob")
    today = days.today()

    desk = open_fair(ann, DESKTOP)
    desk.goto("/daily/")
    expect(desk.locator(f"#daily-{KIND} h2")).to_have_text("Triple Quintzee")
    day = Day.objects.get(date=today)
    expect(desk.locator("#daily-commitment")).to_have_text(day.commitment)
    shots(desk, "today")

    phone = open_fair(bob, PHONE)
    phone.goto("/daily/")
    shots(phone, "today")

    ann_roll = first_roll(desk, tap=False)
    bob_roll = first_roll(phone, tap=True)
    assert ann_roll == bob_roll
    # The dice of the day's seed and client seed, as anyone can derive them once the seed is revealed.
    assert ann_roll == fair_dice.ActionDice(day.server_seed, [seeds.client_seed(today, KIND)], 1).roll(5)
    for page in (desk, phone):
        expect(page.locator("#fair-commitment")).to_have_text(day.commitment)
        expect(page.locator("#hint-button")).to_have_count(0)  # no hints in the challenge
    shots(desk, "game-first-roll")
    shots(phone, "game-first-roll")

    # Ann plays it to the end; the worker writes the coach's review.
    ann_game = Game.objects.get(daily_attempt__user=ann)
    ann_game = off_loop(play_to_the_end, ann_game, ann)
    assert ann_game.status == Game.Status.FINISHED
    run_worker(fair_env)
    review = ann_game.seats.get().review
    grade = grades.letter(review.accuracy)
    score = ann_game.seats.get().final_score

    desk.goto("/daily/")
    mine = desk.locator(f"#daily-{KIND} [data-daily-mine]")
    expect(mine).to_contain_text(f"Your result: {score}")
    expect(mine).to_contain_text(f"Grade {grade}")
    results = desk.locator(f"#daily-{KIND} .daily-results")
    expect(results.locator("tr[data-player='ann']")).to_contain_text(str(score))
    expect(desk.locator(f"#daily-{KIND}")).to_contain_text("1 player is still playing.")
    share = desk.locator(f"#daily-share-{KIND}")
    text = f"DiceHall daily {today.isoformat()}, Triple Quintzee: {score} points, grade {grade}"
    expect(share).to_have_value(f"{text} -- {desk.url}{today.isoformat()}/")
    desk.locator(f"#daily-{KIND} [data-share-copy]").click()
    expect(desk.locator(f"#daily-{KIND} [data-share-status]")).to_have_text("Copied")
    assert desk.evaluate("navigator.clipboard.readText()") == share.input_value()
    desk.locator(f"#daily-{KIND}").scroll_into_view_if_needed()
    shots(desk, "today-played")

    # The review: the replay of her game, with the coach's figures.
    desk.locator(f"#daily-{KIND} [data-daily-review]").click()
    # As the page writes it (Django's floatformat rounds half up: 38.25 is 38.3, where Python's format
    # says 38.2).
    accuracy = floatformat(review.accuracy, 1)
    expect(desk.locator("#coach-review [data-coach='accuracy']")).to_have_text(f"{accuracy}%")
    shots(desk, "review")

    # On a phone too; and bob, still playing, sees how many played but nobody's score.
    ann_phone = open_fair(ann, PHONE)
    ann_phone.goto("/daily/")
    expect(ann_phone.locator(f"#daily-share-{KIND}")).to_have_value(re.compile(re.escape(text)))
    ann_phone.locator(f"#daily-{KIND}").scroll_into_view_if_needed()
    shots(ann_phone, "today-played")
    phone.goto("/daily/")
    hidden = phone.locator(f"#daily-{KIND} [data-results-hidden]")
    expect(hidden).to_contain_text("2 players have taken this challenge so far.")
    expect(phone.locator(f"#daily-{KIND}")).not_to_contain_text(str(score))
    expect(phone.locator(f"#daily-{KIND} [data-daily-continue]")).to_be_visible()
    shots(phone, "today-playing")


def play_as(game: Game, user, strength: str, seed: int) -> Game:
    """The game played to its end by a computer player's choices (games.bots) for ``user``."""
    rng = random.Random(seed)
    for n in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        action = bots.choose(game.kind, game.state, strength, rng)
        game_services.game_apply_action(game_id=game.pk, user=user, client_id=f"{strength}{n}", action=action)
    raise AssertionError("the game did not end")


def yesterday_s_challenge(ann, bob, cid, yesterday) -> Day:
    """Yesterday's Triple Quintzee and Farkle: ann plays both well, bob one badly, cid gives one up;
    the worker's reviews; then the day's close."""
    for user, kind, strength in ((ann, KIND, "expert"), (bob, KIND, "easy"), (ann, "farkle", "good")):
        play_as(daily_services.attempt_start(user=user, kind=kind), user, strength, seed=user.pk)
    given_up = daily_services.attempt_start(user=cid, kind=KIND)
    game_services.game_apply_action(game_id=given_up.pk, user=cid, client_id="bye", action={"type": "resign"})
    for game in Game.objects.filter(daily_attempt__day__date=yesterday):
        coach.review_game(game_id=game.pk)
    return Day.objects.get(date=yesterday)


def test_a_closed_day_shows_everyone_s_results_and_its_seed_and_the_replay_checks_the_dice(
    open_fair, make_user, time_machine
):
    ann, bob, cid, dan = (make_user(name) for name in ("ann", "bob", "cid", "dan"))
    today = days.today()
    yesterday = today - timedelta(days=1)
    time_machine.move_to(days.end_of(yesterday) - timedelta(hours=6), tick=True)
    day = off_loop(yesterday_s_challenge, ann, bob, cid, yesterday)
    time_machine.move_to(timezone.now() + timedelta(hours=7), tick=True)
    assert off_loop(closing.day_close, day=yesterday)
    day.refresh_from_db()

    # dan never played: a closed day shows him every result, the games and the seed.
    desk = open_fair(dan, DESKTOP)
    desk.goto(f"/daily/{yesterday.isoformat()}/")
    expect(desk.locator("#daily-server-seed")).to_have_text(day.server_seed)
    rows = desk.locator(f"#daily-{KIND} .daily-results tbody tr")
    expect(rows).to_have_count(3)
    assert [rows.nth(i).get_attribute("data-player") for i in range(3)] == ["ann", "bob", "cid"]
    expect(rows.nth(2)).to_contain_text("gave up")
    expect(desk.locator("#daily-farkle .daily-results")).to_contain_text("Laps")
    expect(desk.locator(f"#daily-{KIND}")).to_contain_text("You did not play it that day.")
    expect(desk.locator("[data-daily-play]")).to_have_count(0)
    shots(desk, "closed-day")

    # The replay of ann's game checks every roll against the revealed seed, as any game's.
    rows.nth(0).get_by_role("link", name="ann").click()
    check = desk.locator("#fair-check")
    expect(check).to_have_attribute("data-result", "ok")
    expect(check).to_contain_text("rolls matches the committed seed.")

    # In German, on a phone.
    phone = open_fair(ann, {**PHONE, "locale": "de-DE"})
    phone.goto(f"/daily/{yesterday.isoformat()}/")
    expect(phone.locator(f"#daily-{KIND} [data-daily-mine]")).to_contain_text("Dein Ergebnis:")
    german = rf"^DiceHall-Tages-Challenge {yesterday.isoformat()}, Triple Quintzee: [0-9.]+ Punkte, Note A"
    expect(phone.locator(f"#daily-share-{KIND}")).to_have_value(re.compile(german))
    shots(phone, "closed-day-de")
