"""A group's tournament in real browsers: the creator announces a 3-round Swiss Farkle
tournament from the group's page, five members (two on touch phones) enter on its page, the creator
starts it, and it is played to the end. Every round every player sees their seat (or their bye) on the
tournament's page; one game of each round is played in the browsers, the other through the same move
service the sockets use (the browser would prove nothing new there); the real worker starts rounds 2
and 3 as each round's last game ends. At the end every player sees the final standings and the winner.

Screenshots (artifacts/screenshots/tournaments/): the form, a seat and the final standings at 1280x800
and 390x844 (touch), light and dark, each checked by axe and for sideways scrolling.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import Game
from games.tables import services as tables
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import die, off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - open_as is a fixture
from tests.e2e.axe import axe_violations
from tests.factories import GroupFactory
from tournaments.models import Round, Tournament

ROOT = Path(__file__).resolve().parents[2]
SHOTS_DIR = SHOTS / "tournaments"
NAMES = ["cora", "dan", "eve", "fay", "gus"]
LOOKS = {  # device and colour scheme of each player's browser
    "cora": (DESKTOP, "light"),
    "dan": (PHONE, "dark"),
    "eve": (DESKTOP, "dark"),
    "fay": (PHONE, "light"),
    "gus": (DESKTOP, "light"),
}
# The first player sets aside five 1s (10000: past the goal of 3000) and banks; the other player's last
# turn of the lap is a Farkle, and the game is over.
WINNING_ROLL, FARKLE = [1, 1, 1, 1, 1, 2], [2, 3, 4, 6, 2, 4]


@pytest.fixture
def worker(server_env):
    """The real worker command, running for the whole journey."""
    log = (ROOT / "artifacts" / "worker-tournament-journey.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "worker"],
        cwd=ROOT,
        env=server_env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    yield proc
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
    log.close()


@pytest.fixture(autouse=True)
def _patient_expect():
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


def shot(page: Page, name: str) -> None:
    assert not axe_violations(page), (name, axe_violations(page))
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} overflows by {overflow} px"
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"{name}.png"), full_page=True)


def field(page: Page, label: str):
    """The form's field of this label (Django writes it with a colon)."""
    return page.get_by_label(re.compile(rf"^{re.escape(label)}:?$"))


def tap(page: Page, locator) -> None:
    """A phone's player taps, a desktop's clicks."""
    locator.tap() if page.viewport_size["width"] < 500 else locator.click()


def wait_for_round(tournament: Tournament, number: int, timeout: float = 60) -> Round:
    deadline = time.monotonic() + timeout
    while True:
        found = Round.objects.filter(tournament=tournament, number=number).first()
        if found is not None:
            return found
        assert time.monotonic() < deadline, f"round {number} never started (artifacts/worker-*.log)"
        time.sleep(0.1)


def play_in_browser(pages: dict[str, Page], game: Game, dice) -> None:
    first, second = [s.user.username for s in game.seats.select_related("user").order_by("position")]
    a, b = pages[first], pages[second]
    for page in (a, b):
        page.get_by_role("link", name=re.compile(rf"#{game.pk}$")).first.click()
        expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    dice(WINNING_ROLL, FARKLE)
    expect(a.locator("#g-turn")).to_have_text("Your turn")
    tap(a, a.get_by_role("button", name="Roll 6 dice"))
    for n in range(1, 6):
        tap(a, die(a, n))
    tap(a, a.get_by_role("button", name=re.compile(r"^Bank ")))
    expect(b.locator("#g-turn")).to_have_text("Your turn")
    tap(b, b.get_by_role("button", name="Roll 6 dice"))
    for page in (a, b):
        expect(page.locator("#g-end .verdict")).to_be_visible()


def play_through_the_service(game: Game, dice) -> None:
    first, second = [s.user for s in game.seats.select_related("user").order_by("position")]
    dice(WINNING_ROLL, FARKLE)
    moves = [
        (first, {"type": "roll", "keep": []}),
        (first, {"type": "bank", "keep": [0, 1, 2, 3, 4]}),
        (second, {"type": "roll", "keep": []}),
    ]
    for n, (user, action) in enumerate(moves):
        off_loop(
            tables.game_apply_action,
            game_id=game.pk,
            user=user,
            client_id=f"svc-{game.pk}-{n}",
            action=action,
        )
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_a_creator_runs_a_three_round_swiss_farkle_tournament_for_five(
    open_as,  # noqa: F811
    make_user,
    dice,
    dice_script,
    settings,
    worker,
):
    # The moves this test makes itself roll the same scripted dice as the server.
    settings.DICE_SOURCE = "scripted"
    settings.DICE_SCRIPT_PATH = str(dice_script)
    users = {name: make_user(name) for name in NAMES}
    group = GroupFactory(creator=users["cora"], name="Friday dice", members=[users[n] for n in NAMES[1:]])
    pages = {name: open_as(users[name], *LOOKS[name]) for name in NAMES}
    cora = pages["cora"]

    # The creator announces it from the group's page.
    cora.goto(f"/groups/{group.pk}/")
    cora.get_by_role("link", name="Announce a tournament").click()
    expect(cora.get_by_role("heading", name="Announce a tournament")).to_be_visible()
    field(cora, "Name").fill("Friday Swiss")
    field(cora, "Game").select_option("farkle")
    field(cora, "Farkle goal").select_option("3000")
    field(cora, "Format").select_option("swiss")
    field(cora, "Rounds").select_option("3")
    field(cora, "Players at each table").select_option("2")
    field(cora, "Pace").select_option("live")
    start = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    field(cora, "Start").fill(start)
    field(cora, "Entries close").fill(start)
    shot(cora, "form-1280-light")
    cora.get_by_role("button", name="Announce").click()
    expect(cora.get_by_role("heading", name="Friday Swiss")).to_be_visible()
    tournament = Tournament.objects.get(group=group)
    url = tournament.get_absolute_url()
    assert cora.url.endswith(url)

    # Every member enters on its page, the phones by tapping; the group's page lists it.
    for name in NAMES:
        page = pages[name]
        page.goto(f"/groups/{group.pk}/")
        page.get_by_role("link", name="Friday Swiss").click()
        tap(page, page.get_by_role("button", name="Enter"))
        expect(page.get_by_text("You entered the tournament.")).to_be_visible()
        expect(page.get_by_role("button", name="Leave the tournament")).to_be_visible()
    shot(pages["dan"], "entered-390-dark")

    cora.on("dialog", lambda dialog: dialog.accept())
    cora.get_by_role("button", name="Start now").click()
    expect(cora.get_by_text("The tournament has started: round 1.")).to_be_visible()

    for number in (1, 2, 3):
        round_ = wait_for_round(tournament, number)
        games = [t.game for t in round_.tables.select_related("game").order_by("number")]
        assert len(games) == 2
        (bye,) = round_.byes.values_list("user__username", flat=True)
        for name in NAMES:
            page = pages[name]
            page.goto(url)
            seat = page.locator("#my-seat")
            if name == bye:
                expect(seat).to_contain_text(f"A bye in round {number}")
            else:
                expect(seat).to_contain_text(f"Your table in round {number}")
                game = next(g for g in games if g.seats.filter(user__username=name).exists())
                expect(seat.get_by_role("link")).to_have_attribute("href", f"/games/{game.pk}/")
            if number == 1:
                device, scheme = LOOKS[name]
                size = "390" if device is PHONE else "1280"
                shot(page, f"seat-{size}-{scheme}-{name}")
        play_in_browser(pages, games[0], dice)
        play_through_the_service(games[1], dice)

    # The end: everyone sees the final standings and the winner.
    deadline = time.monotonic() + 30
    while Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED:
        assert time.monotonic() < deadline, "the tournament never finished"
        time.sleep(0.1)
    for name in NAMES:
        page = pages[name]
        page.goto(url)
        expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
        expect(page.locator("#winner")).to_be_visible()
        expect(page.locator("#standings tbody tr")).to_have_count(5)
        expect(page.locator("#tie-breaks")).to_contain_text("Buchholz")
        device, scheme = LOOKS[name]
        size = "390" if device is PHONE else "1280"
        shot(page, f"final-{size}-{scheme}-{name}")
    # Every game of the tournament links to its replay.
    expect(cora.locator(".tournament-round a[href$='/replay/']")).to_have_count(6)
    # The group's page lists it as finished.
    cora.goto(f"/groups/{group.pk}/")
    expect(cora.locator(".group-tournaments")).to_contain_text("Finished")
    shot(cora, "group-page-1280-light")


@pytest.mark.parametrize(("device", "size"), [(DESKTOP, "1280"), (PHONE, "390")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_form_and_an_open_tournament_on_every_device(open_as, make_user, device, size, scheme):  # noqa: F811
    users = {name: make_user(name) for name in NAMES[:3]}
    group = GroupFactory(creator=users["cora"], name="Friday dice", members=[users["dan"], users["eve"]])
    page = open_as(users["cora"], device, scheme)
    page.goto(f"/groups/{group.pk}/tournaments/new/")
    field(page, "Format").select_option("round-robin")
    expect(field(page, "Rounds")).to_be_hidden()
    field(page, "Pace").select_option("days-2")
    expect(field(page, "Start")).to_be_hidden()
    shot(page, f"form-{size}-{scheme}")
    field(page, "Name").fill("Weekly round robin")
    field(page, "Entries close").fill((timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M"))
    tap(page, page.get_by_role("button", name="Announce"))
    expect(page.get_by_text("Tournament announced: members may enter now.")).to_be_visible()
    expect(page.locator("#tournament-terms")).to_contain_text("Round robin")
    expect(page.locator("#tournament-terms")).to_contain_text("2 days per turn")
    tap(page, page.get_by_role("button", name="Enter"))
    expect(page.get_by_role("button", name="Leave the tournament")).to_be_visible()
    shot(page, f"open-{size}-{scheme}")
    tournament = Tournament.objects.get(group=group)
    assert (tournament.format, tournament.pace, tournament.absence_limit) == (
        "round-robin",
        "days",
        2 * 86_400,
    )


@pytest.mark.parametrize(("look", "size", "scheme"), [(PHONE, "390", "dark"), (DESKTOP, "1280", "light")])
def test_a_member_on_the_page_sees_the_tournament_start(open_as, make_user, look, size, scheme):  # noqa: F811
    """A member who opened the page while entries were open read "Open for entries" until they
    reloaded it: now the page reads itself again when the tournament starts, and shows their table."""
    from tournaments import services as tournaments

    cora, dan = make_user("cora"), make_user("dan")
    group = GroupFactory(creator=cora, name="Friday dice", members=[dan])
    later = timezone.now() + timedelta(days=1)
    tournament = off_loop(
        tournaments.tournament_create,
        group_id=group.pk,
        user=cora,
        name="Friday Swiss",
        kind="farkle",
        options={"goal": 3000},
        starts_at=later,
        entries_close_at=later,
    )
    for user in (cora, dan):
        off_loop(tournaments.tournament_enter, tournament_id=tournament.pk, user=user)
    member, creator = open_as(dan, look, scheme), open_as(cora, DESKTOP)
    member.goto(tournament.get_absolute_url())
    expect(member.locator("#tournament-status")).to_have_text("Open for entries")
    expect(member.locator("time[data-local]").first).not_to_contain_text("UTC")  # the browser's zone
    group_page = open_as(dan, look, scheme)
    group_page.goto(f"/groups/{group.pk}/")
    expect(group_page.locator(".group-tournaments")).to_contain_text("Open for entries")

    creator.goto(tournament.get_absolute_url())
    creator.on("dialog", lambda dialog: dialog.accept())
    creator.get_by_role("button", name="Start now").click()
    expect(creator.get_by_text("The tournament has started: round 1.")).to_be_visible()

    expect(member.locator("#tournament-status")).to_have_text("Under way")
    expect(member.locator("#my-seat")).to_contain_text("Your table in round 1")
    expect(member.get_by_role("button", name="Leave the tournament")).to_have_count(0)
    expect(group_page.locator(".group-tournaments")).to_contain_text("Under way")
    shot(member, f"started-live-{size}-{scheme}")
