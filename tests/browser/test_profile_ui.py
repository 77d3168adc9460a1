"""A player's profile in a real browser: the ratings, the latest games, the accuracy chart and
the groups in common, at 1280x800 and on a 390x844 touch phone, light and dark, without an axe
violation or sideways scrolling; a challenge that lands at the new table and tells the other player;
blocking and unblocking from the profile. Screenshots: artifacts/screenshots/profile/."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from coach.models import Review, SeatReview
from games.models import Game, Seat
from games.results.seed import seed_finished_games
from groups import services as group_services
from notices.models import Notice
from pairing.models import Block
from ratings.services import ratings_rebuild
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - open_as is a fixture
from tests.e2e.axe import axe_violations

SHOTS_DIR = SHOTS / "profile"


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def shoot(page, name: str) -> None:
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"{name}.png"), full_page=True)


def reviewed(user) -> None:
    """A coach's review of each of the player's finished games (accuracy only: what the chart reads)."""
    rng = random.Random(3)
    for seat in Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).select_related("game"):
        review = Review.objects.create(game=seat.game)
        SeatReview.objects.create(
            review=review,
            seat=seat,
            user=user,
            kind=seat.game.kind,
            finished_at=seat.game.finished_at,
            decision_count=30,
            total_cost=12.5,
            accuracy=round(rng.uniform(70, 99), 1),
        )


@pytest.fixture
def world(make_user):
    ann, bob, cy = make_user("ann", display_name="Annie"), make_user("bob"), make_user("cy")
    group = off_loop(group_services.group_create, creator=ann, name="Friday Dice")
    off_loop(group_services.group_add_member, group_id=group.pk, user=ann, username="bob")
    seed_finished_games(40, [ann, bob, cy], groups=[group], seed=5)
    off_loop(ratings_rebuild)
    reviewed(ann)
    return ann, bob, cy, group


@pytest.mark.parametrize(("device", "size"), [(DESKTOP, "1280"), (PHONE, "390")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_profile_of_another_player(open_as, world, device, size, scheme):  # noqa: F811
    _ann, bob, _cy, group = world
    page = open_as(bob, device, scheme)
    page.goto("/players/ann/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("ann")
    ratings = page.locator("#profile-ratings dl > div")
    expect(ratings.first).to_be_visible()
    assert ratings.count() >= 3
    expect(page.locator("#recent-games tbody tr")).to_have_count(10)
    expect(page.locator("#profile-groups")).to_contain_text(group.name)
    expect(page.get_by_role("heading", name="Challenge ann")).to_be_visible()
    expect(page.get_by_role("button", name="Block ann")).to_be_visible()
    # The chart is drawn (Chart.js): twenty reviewed games, each a point between 0 and 100.
    page.wait_for_function("() => window.Chart && Chart.getChart('accuracy-chart')")
    values = page.evaluate("() => Chart.getChart('accuracy-chart').data.datasets[0].data")
    assert len(values) == 20 and all(0 <= v <= 100 for v in values)
    assert not axe_violations(page) and no_sideways_scroll(page)
    shoot(page, f"profile-{size}-{scheme}")

    # One's own: no challenge, no block; "Your groups".
    page.goto("/players/bob/")
    expect(page.get_by_role("heading", name="Your groups")).to_be_visible()
    expect(page.locator("#challenge-form")).to_have_count(0)
    expect(page.locator("#no-accuracy")).to_contain_text("No reviewed game yet")
    assert not axe_violations(page) and no_sideways_scroll(page)
    shoot(page, f"own-{size}-{scheme}")


@pytest.mark.parametrize(("device", "size", "scheme"), [(DESKTOP, "1280", "light"), (PHONE, "390", "dark")])
def test_a_challenge_and_a_block_from_the_profile(open_as, world, device, size, scheme):  # noqa: F811
    ann, bob, _cy, _group = world
    page = open_as(bob, device, scheme)
    page.goto("/players/ann/")
    page.get_by_label("Game", exact=True).select_option(label="Farkle (3000)")
    page.get_by_label("Pace", exact=True).select_option("days-1")
    page.get_by_role("button", name="Challenge", exact=True).click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator(".messages")).to_contain_text("ann is challenged")
    game = Game.objects.get(pk=int(re.search(r"/games/(\d+)/", page.url)[1]))
    assert game.options["goal"] == 3000 and game.pace == "days" and game.creator == bob
    assert Notice.objects.filter(user=ann, url=game.get_absolute_url()).exists()
    assert not axe_violations(page)
    # The challenger waits for the answer: no start, no computer, no invitation link to pass on.
    expect(page.locator("#challenge-waiting")).to_contain_text("Waiting for ann to accept your challenge")
    for absent in ("#start-button", "#add-computer", "#invite-link"):
        expect(page.locator(absent)).to_have_count(0)
    expect(page.locator("#withdraw-button")).to_be_visible()
    shoot(page, f"challenged-{size}-{scheme}")
    # ann's notice leads to a table she can accept or decline.
    hers = open_as(ann, device, scheme)
    hers.goto(game.get_absolute_url())
    expect(hers.locator("#challenge")).to_contain_text("bob challenges you to play Farkle (3000)")
    expect(hers.locator("#accept-button")).to_be_visible()
    expect(hers.locator("#decline-button")).to_be_visible()
    assert not axe_violations(hers) and no_sideways_scroll(hers)
    shoot(hers, f"challenge-answer-{size}-{scheme}")

    page.goto("/players/ann/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Block ann").click()
    expect(page).to_have_url(re.compile(r"/players/ann/$"))
    expect(page.locator("#blocked-note")).to_contain_text("You blocked ann")
    expect(page.locator("#challenge-form")).to_have_count(0)
    assert Block.objects.filter(blocker=bob, blocked=ann).exists()
    assert not axe_violations(page) and no_sideways_scroll(page)
    shoot(page, f"blocked-{size}-{scheme}")
    page.get_by_role("button", name="Unblock ann").click()
    expect(page.locator("#challenge-form")).to_be_visible()
    assert not Block.objects.exists()

    # Blocked by ann: the challenge is refused, and the profile says why.
    Block.objects.create(blocker=ann, blocked=bob)
    page.get_by_role("button", name="Challenge", exact=True).click()
    expect(page).to_have_url(re.compile(r"/players/ann/$"))
    expect(page.locator(".messages")).to_contain_text("ann does not take challenges from you.")
    assert Game.objects.filter(creator=bob).count() == 1
    assert not axe_violations(page)
    shoot(page, f"refused-{size}-{scheme}")


@pytest.mark.parametrize(("device", "size", "scheme"), [(DESKTOP, "1280", "dark"), (PHONE, "390", "light")])
def test_the_profile_in_german(open_as, world, device, size, scheme):  # noqa: F811
    _ann, bob, _cy, _group = world
    bob.language = "de"
    off_loop(bob.save, update_fields=["language"])
    page = open_as(bob, device, scheme)
    page.goto("/players/ann/")
    expect(page.get_by_role("heading", name="ann herausfordern")).to_be_visible()
    expect(page.get_by_role("heading", name="Letzte Spiele")).to_be_visible()
    expect(page.get_by_role("button", name="ann blockieren")).to_be_visible()
    page.wait_for_function("() => window.Chart && Chart.getChart('accuracy-chart')")
    days = page.evaluate("() => Chart.getChart('accuracy-chart').data.labels")
    assert days and all(re.fullmatch(r"\d\d\.\d\d\.\d{4}", d) for d in days), days
    assert not axe_violations(page) and no_sideways_scroll(page)
    shoot(page, f"german-{size}-{scheme}")
