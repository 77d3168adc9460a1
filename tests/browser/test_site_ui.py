"""The site's pages in a real browser: the phone header's menu, the light and dark themes, form errors,
and every page this work changed at 1280x800 and as a 390x844 touch phone, light and dark, never
scrolling sideways and without an axe violation. Screenshots: artifacts/screenshots/site/ (git-ignored)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.results.seed import seed_finished_games
from games.tables import services
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import ConsoleWatch, off_loop, sign_in
from tests.e2e.axe import axe_violations
from tests.games.test_stats import farkle_solo

SITE_SHOTS = SHOTS / "site"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LIGHT_BG, DARK_BG = "rgb(246, 244, 239)", "rgb(17, 21, 28)"


@pytest.fixture
def open_as(browser, server, transactional_db):
    """open_as(user or None, PHONE, "dark") -> a page on the server, signed in as the user (None: a
    visitor), with the device's colour scheme; a page error or console error fails the test."""
    watch = ConsoleWatch()
    contexts = []

    def make(user, device: dict, scheme: str = "light", **options) -> Page:
        context = browser.new_context(base_url=server, color_scheme=scheme, **device, **options)
        contexts.append(context)
        if user is not None:
            sign_in(context, user, server)
        page = watch.watch(context.new_page(), user.username if user else "visitor")
        page.set_default_timeout(10_000)
        return page

    make.allow = watch.allow
    yield make
    watch.check()
    for context in contexts:
        context.close()


def _shot(page: Page, name: str) -> None:
    SITE_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SITE_SHOTS / f"{name}.png"), full_page=True)


def _overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def _background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


# --- the phone header --------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_phone_header_is_compact_and_its_menu_opens(open_as, make_user, scheme):
    page = open_as(make_user("ann"), PHONE, scheme)
    page.goto("/games/mine/")
    header = page.locator(".site-header")
    assert header.bounding_box()["height"] <= 56
    nav = page.get_by_role("navigation", name="Main")
    button = nav.get_by_role("button", name="Menu")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(nav.get_by_role("link", name="Stats")).to_be_hidden()
    _shot(page, f"header-phone-closed-{scheme}")

    button.tap()
    expect(button).to_have_attribute("aria-expanded", "true")
    for name in ("Play", "Your games", "Groups", "High scores", "Stats", "Triple Quintzee"):
        expect(nav.get_by_role("link", name=name)).to_be_visible()
    # Every row is a comfortable target for a finger.
    assert nav.get_by_role("link", name="Groups").bounding_box()["height"] >= 40
    _shot(page, f"header-phone-open-{scheme}")
    assert not axe_violations(page)

    page.keyboard.press("Escape")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(button).to_be_focused()
    button.tap()
    nav.get_by_role("link", name="Groups").tap()
    expect(page).to_have_url(re.compile(r"/groups/$"))
    expect(page.get_by_role("navigation", name="Main").get_by_role("button", name="Menu")).to_have_attribute(
        "aria-expanded", "false"
    )


LONG_NAME = "a_very_long_username_x"


@pytest.mark.parametrize(
    ("username", "language", "rows", "links"),
    [
        (
            "ann",
            "en",
            2,
            ("Triple Quintzee", "Quintzee", "Farkle (10000)", "Play", "Daily", "Stats", "ann, your profile"),
        ),
        (
            "pfarkle",
            "en",
            2,
            ("Triple Quintzee", "Farkle (10000)", "Play", "Stats", "pfarkle, your profile"),
        ),
        (LONG_NAME, "en", 2, ("Painted DiceZ", "High scores", f"{LONG_NAME}, your profile")),
        ("pfarkle", "de", 2, ("Triple Quintzee", "Spielen", "Bestenlisten", "pfarkle, dein Profil")),
    ],
)
def test_desktop_header_keeps_the_players_links_and_bell_on_its_first_row(
    open_as, make_user, username, language, rows, links
):
    """The header is one row when everything fits; a signed-in player's no longer does since the five
    games' names and the daily challenge's link (its width is at most 1200 px): the games' links make a
    second row, and the player's links and the notifications' bell stay on the first, beside the brand.
    A long name is cut on screen, its whole text in the link's name."""
    page = open_as(make_user(username, language=language), DESKTOP)
    page.goto("/")
    nav = page.locator("nav.nav")
    expect(nav.locator(".menu-button")).to_be_hidden()
    for name in links:
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    if rows == 2:
        expect(nav).to_have_class(re.compile(r"\btwo-rows\b"))
    else:
        expect(nav).not_to_have_class(re.compile(r"\btwo-rows\b"))
    height = page.locator(".site-header").bounding_box()["height"]
    assert height < (60 if rows == 1 else 90), height

    def middle(selector: str) -> float:
        box = page.locator(selector).bounding_box()
        return box["y"] + box["height"] / 2

    first_row = middle(".brand")
    for selector in (".nav-notices", ".nav-user li:first-child", ".nav-name"):
        assert abs(middle(selector) - first_row) < 12, selector
    assert (middle(".nav-games") > first_row + 20) == (rows == 2)
    bell = page.locator(".nav-notices").bounding_box()
    assert bell["x"] + bell["width"] <= 1280
    _shot(page, f"header-desktop-{username}-{language}")


def test_without_scripts_the_phone_links_stay_open(open_as, make_user):
    page = open_as(make_user("ann"), PHONE, java_script_enabled=False)
    page.goto("/")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("button", name="Menu")).to_be_hidden()
    expect(nav.get_by_role("link", name="Your games")).to_be_visible()
    assert _overflow(page) <= 0


# --- the theme -----------------------------------------------------------------------------------------


def test_visitors_follow_the_device(open_as):
    light, dark = open_as(None, DESKTOP, "light"), open_as(None, DESKTOP, "dark")
    for page in (light, dark):
        page.goto("/")
    assert (_background(light), _background(dark)) == (LIGHT_BG, DARK_BG)


@pytest.mark.parametrize(
    ("theme", "device", "shown"),
    [
        ("light", "dark", LIGHT_BG),
        ("dark", "light", DARK_BG),
        ("auto", "dark", DARK_BG),
        ("auto", "light", LIGHT_BG),
    ],
)
def test_a_players_choice_wins_over_the_device(open_as, make_user, theme, device, shown):
    page = open_as(make_user("ann", theme=theme), DESKTOP, device)
    page.goto("/games/mine/")
    assert _background(page) == shown


def test_the_theme_is_chosen_on_the_profile(open_as, make_user):
    page = open_as(make_user("ann"), PHONE, "light")
    page.goto("/accounts/profile/")
    page.get_by_label("Dark").check()
    page.get_by_role("button", name="Save profile").click()
    expect(page.locator(".messages")).to_contain_text("Profile saved.")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert _background(page) == DARK_BG


# --- form errors ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_form_errors_stand_apart_from_help_text(open_as, scheme):
    page = open_as(None, PHONE, scheme)
    page.goto("/accounts/signup/")
    page.get_by_label("Username:", exact=True).fill("two words")
    page.get_by_label("Password:", exact=True).fill("six-dice-and-a-cup")
    page.get_by_label("Password confirmation:", exact=True).fill("six-dice-and-a-cup")
    page.get_by_role("button", name="Sign up").click()
    field = page.get_by_label("Username:", exact=True)
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_attribute("aria-describedby", re.compile(r"\bid_username_error\b"))
    error, help_text = page.locator("#id_username_error"), page.locator("#id_username_helptext")
    style = "e => { const s = getComputedStyle(e); return [s.color, s.fontWeight, s.fontSize]; }"
    error_colour, error_weight, error_size = error.evaluate(style)
    help_colour, _, help_size = help_text.evaluate(style)
    bad = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bad').trim()")
    assert error_colour != help_colour and int(error_weight) >= 700
    assert float(error_size.removesuffix("px")) > float(help_size.removesuffix("px"))
    assert error_colour == page.evaluate(
        "c => { const e = document.createElement('i'); e.style.color = c; document.body.append(e);"
        " const v = getComputedStyle(e).color; e.remove(); return v; }",
        bad,
    )
    _shot(page, f"form-errors-phone-{scheme}")


# --- every changed page, both sizes, both themes ------------------------------------------------------


@pytest.fixture
def site_data(make_user, scripted_dice):
    ann, bob = make_user("ann"), make_user("bob")
    seed_finished_games(60, [ann, bob, make_user("cy")])
    # A game with a log, for its replay: five 1s (10000) banked reach goal 3000 in one turn.
    solo = off_loop(
        farkle_solo,
        ann,
        [
            ([1, 1, 1, 1, 1, 2], {"type": "roll", "keep": []}),
            (None, {"type": "bank", "keep": [0, 1, 2, 3, 4]}),
        ],
        scripted_dice,
    )
    off_loop(services.game_create, creator=bob, kind="farkle", options={"goal": 3000}, seats=3)
    cancelled = off_loop(services.game_create, creator=ann, kind="triple-quintzee", seats=2)
    off_loop(services.game_leave, game_id=cancelled.pk, user=ann)
    assert Game.objects.get(pk=cancelled.pk).is_cancelled
    return ann, solo


PAGES = [
    ("home-visitor", None, "/"),
    ("home", "ann", "/"),
    ("lobby", "ann", "/games/"),
    ("your-games", "ann", "/games/mine/"),
    ("stats-triple-quintzee", "ann", "/players/ann/stats/?kind=triple-quintzee"),
    ("stats-triple-yahtzee-99", "ann", "/players/ann/stats/?kind=triple-yahtzee-99"),
    ("stats-painted-dicez", "ann", "/players/ann/stats/?kind=painted-dicez"),
    ("stats-quintzee", "ann", "/players/ann/stats/?kind=quintzee"),
    ("stats-farkle-3000", "ann", "/players/ann/stats/?kind=farkle&goal=3000"),
    ("player-profile", "ann", "/players/ann/"),
    ("history", "ann", "/players/ann/history/"),
    ("highscores-farkle-3000", "ann", "/highscores/?kind=farkle&goal=3000"),
    ("profile", "ann", "/accounts/profile/"),
    ("rules-painted-dicez", None, "/games/painted-dicez/rules/"),
    ("rules-quintzee", None, "/games/quintzee/rules/"),
    ("replay", "ann", "/games/{solo}/replay/"),
    ("404", None, "/no/such/page/"),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_changed_pages_in_both_themes(open_as, site_data, device, scheme):
    ann, solo = site_data
    open_as.allow(r"status of 404 \(Not Found\)")  # the 404 page's own status, asserted below
    visitor = open_as(None, DESKTOP if device == "desktop" else PHONE, scheme)
    player = open_as(ann, DESKTOP if device == "desktop" else PHONE, scheme)
    problems = {}
    for name, who, path in PAGES:
        page = player if who else visitor
        response = page.goto(path.format(solo=solo.pk))
        assert response.status == (404 if name == "404" else 200), name
        page.wait_for_load_state("networkidle")
        assert _background(page) == (DARK_BG if scheme == "dark" else LIGHT_BG), name
        assert _overflow(page) <= 0, f"{name} scrolls sideways on a {device}"
        _shot(page, f"{name}-{device}-{scheme}")
        problems[name] = [f"{v['id']}: {', '.join(v['targets'][:4])}" for v in axe_violations(page)]
    # axe (WCAG 2.x AA, contrast included) in both palettes.
    assert not any(problems.values()), {k: v for k, v in problems.items() if v}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_german_statistics_group_figures_on_the_page_and_on_the_charts_axes(
    open_as, site_data, device, scheme
):
    ann, _ = site_data
    ann.language = "de"
    off_loop(ann.save, update_fields=["language"])
    page = open_as(ann, DESKTOP if device == "desktop" else PHONE, scheme)
    page.goto("/players/ann/stats/?kind=farkle&goal=3000")
    expect(page.locator('[data-stat="best"]')).to_have_text(re.compile(r"^\d{1,2}\.\d{3}$"))
    page.wait_for_function("() => window.Chart && Chart.getChart('series-chart')?.scales?.y?.ticks?.length")
    ticks = page.evaluate("() => Chart.getChart('series-chart').scales.y.ticks.map((t) => t.label)")
    big = [t for t in ticks if len(re.sub(r"\D", "", str(t))) >= 4]
    assert big and all("." in t and "," not in t for t in big), ticks
    buckets = page.evaluate("() => Chart.getChart('histogram-chart').data.labels")
    assert any(re.search(r"\d\.\d{3}", b) for b in buckets), buckets
    days = page.evaluate("() => Chart.getChart('series-chart').data.labels")
    assert days and all(re.fullmatch(r"\d\d\.\d\d\.\d{4}", d) for d in days), days
    assert _overflow(page) <= 0
    _shot(page, f"stats-farkle-3000-german-{device}-{scheme}")


@pytest.mark.parametrize(("username", "language"), [("ann", "en"), ("ann", "de"), ("pfarkle", "en")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_bell_stays_on_the_first_row_once_its_count_shows(open_as, make_user, username, language, scheme):
    """At 1280 px the bell went alone to a second row when its count appeared (the header
    was measured before the count was drawn, and not again)."""
    from notices import feed

    user = make_user(username, language=language)
    off_loop(feed.tell, user, "bob added you to the group Dave's table.", "/groups/")
    page = open_as(user, DESKTOP, scheme)
    page.goto("/")
    expect(page.locator(".notices-count")).to_have_text("1")

    def middle(selector: str) -> float:
        box = page.locator(selector).bounding_box()
        return box["y"] + box["height"] / 2

    first_row = middle(".brand")
    for selector in (".nav-notices", ".nav-user li:first-child", ".nav-name"):
        assert abs(middle(selector) - first_row) < 12, selector
    assert page.locator(".site-header").bounding_box()["height"] < 90
    _shot(page, f"header-desktop-count-{username}-{language}-{scheme}")


NOTICE = "bob added you to the group Dave's table."


@pytest.mark.parametrize(
    ("device", "language", "scheme"),
    [
        ("desktop", "en", "light"),
        ("desktop", "de", "dark"),
        ("phone", "en", "dark"),
        ("phone", "de", "light"),
    ],
)
def test_an_opened_notice_stays_listed_and_the_notices_page_keeps_them(
    open_as, make_user, device, language, scheme
):
    """Opening the bell marked the notice seen and the list then said "Nothing waiting for
    you"; now it stays, read, and the notices page lists the latest, read and unread."""
    from groups import services as groups

    bob, dave = make_user("bob"), make_user("dave", language=language)
    group = off_loop(groups.group_create, creator=bob, name="Dave's table")
    off_loop(groups.group_add_member, group_id=group.pk, user=bob, username="dave")
    page = open_as(dave, DESKTOP if device == "desktop" else PHONE, scheme)
    page.goto("/")
    count = page.locator("#notices .notices-count")
    expect(count).to_have_text("1")
    text = NOTICE if language == "en" else "bob hat dich zur Gruppe Dave's table hinzugefügt."
    page.locator("#notices summary").click()
    expect(count).to_be_hidden()  # read: the frame that says so redraws the list too
    listed = page.locator("#notices .notices-list")
    expect(listed).to_contain_text(text)
    expect(listed).not_to_contain_text("Nothing waiting" if language == "en" else "Nichts wartet")
    assert axe_violations(page) == []
    _shot(page, f"notices-open-{device}-{language}-{scheme}")

    page.locator("#notices").get_by_role(
        "link", name="All notices" if language == "en" else "Alle Mitteilungen"
    ).click()
    expect(page.locator("h1")).to_have_text("Notices" if language == "en" else "Mitteilungen")
    expect(page.locator(".notices-page")).to_contain_text(text)
    assert axe_violations(page) == []
    _shot(page, f"notices-page-{device}-{language}-{scheme}")


@pytest.mark.parametrize(
    ("device", "language", "scheme"), [("desktop", "en", "light"), ("phone", "de", "dark")]
)
def test_games_nobody_else_waits_for_are_not_your_turn(open_as, make_user, device, language, scheme):
    """Solo games and games against computers only filled "Waiting for your turn" and the
    badge; only a game where another person waits is counted."""
    alice, bob = make_user("alice", language=language), make_user("bob")

    def games():
        solo = services.game_create(creator=alice, kind="farkle", seats=1)
        robots = services.game_create(
            creator=alice, kind="triple-quintzee", seats=2, computers=1, strength="easy"
        )
        people = services.game_create(creator=alice, kind="painted-dicez", seats=2)
        services.game_join(game_id=people.pk, user=bob)
        services.game_start(game_id=people.pk, user=alice)
        return solo, robots, people

    solo, robots, people = off_loop(games)
    page = open_as(alice, DESKTOP if device == "desktop" else PHONE, scheme)
    for path in ("/", "/games/mine/"):
        page.goto(path)
        expect(page.locator("#notices")).to_have_attribute("data-count", "1")  # the feed has come
        waiting = page.locator("[data-live-turns]")
        expect(waiting).to_contain_text(f"Painted DiceZ #{people.pk}")
        expect(waiting).not_to_contain_text(f"#{solo.pk}")
        expect(waiting).not_to_contain_text(f"#{robots.pk}")
        expect(page.locator("#notices .notices-count")).to_have_text("1")
        assert axe_violations(page) == []
    page.goto("/games/mine/")
    expect(page.locator("main")).to_contain_text(f"Triple Quintzee #{robots.pk}")  # still in progress
    _shot(page, f"your-turn-mine-{device}-{language}-{scheme}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("device", "language"), [("phone", "en"), ("phone", "de"), ("desktop", "en")])
def test_the_open_notices_panel_lies_inside_the_viewport(open_as, make_user, device, language, scheme):
    """At 390 px the panel began 56 px left of the screen, every notice cut at its start."""
    from notices import feed

    dave = make_user("dave", language=language)
    off_loop(feed.tell, dave, NOTICE, "/groups/")
    page = open_as(dave, DESKTOP if device == "desktop" else PHONE, scheme)
    page.goto("/")
    expect(page.locator("#notices .notices-count")).to_have_text("1")
    page.locator("#notices summary").click()
    panel = page.locator("#notices .notices-panel")
    expect(panel).to_be_visible()
    box = panel.bounding_box()
    width = page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (box, width)
    assert box["width"] >= min(300, width - 40)  # room for a notice's words, not a sliver
    assert _overflow(page) <= 0
    _shot(page, f"notices-panel-{device}-{language}-{scheme}")
