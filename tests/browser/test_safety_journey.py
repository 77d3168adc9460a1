"""Safe with strangers in a real browser: on a phone a player reports a rude line of the table's chat
and mutes its writer from the page (the writer's lines go, and a new one never arrives); a moderator
mutes the writer from the report's page, and the writer is told. The pages at 1280x800 and 390x844,
light and dark, without an axe violation or sideways scrolling. Screenshots: artifacts/screenshots/safety/."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chat import services as chat
from notices.models import Notice
from safety import services
from safety.models import Decision, Report
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - open_as is a fixture
from tests.e2e.axe import axe_violations
from tests.factories import started_farkle_pair
from tests.safety.test_screening import seeded_records, stored

SHOTS_DIR = SHOTS / "safety"


def shot(page: Page, name: str) -> None:
    assert not axe_violations(page), name
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_report_and_mute_from_the_table_then_a_moderator_mutes_the_writer(open_as, make_user, scheme):  # noqa: F811
    game_id, mover = off_loop(started_farkle_pair, make_user)
    ann, bob = (type(mover).objects.get(username=n) for n in ("ann", "bob"))
    rita = make_user("rita", is_staff=True)
    rude = off_loop(chat.post_to_game, game_id=game_id, user=bob, text="you play like a potato")

    a = open_as(ann, PHONE, scheme)
    a.goto(f"/games/{game_id}/")
    line = a.locator(f'#g-chat li[data-id="{rude.pk}"]')
    expect(line).to_contain_text("you play like a potato")
    shot(a, f"table-chat-390-{scheme}")
    line.get_by_role("link", name="Report bob's message").tap()
    expect(a.get_by_role("heading", name="Report bob")).to_be_visible()
    expect(a.locator(".reported-message")).to_have_text("you play like a potato")
    expect(a.get_by_label("Abuse in chat")).to_be_checked()
    a.get_by_label("What happened, in a sentence").fill("Insults at the table.")
    shot(a, f"report-390-{scheme}")
    a.get_by_role("button", name="Send the report").tap()
    expect(a).to_have_url(f"/games/{game_id}/")
    expect(a.locator(".messages")).to_contain_text("a moderator will read your report")
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.message_id) == (ann, bob, rude.pk)

    # Mute from the chat: bob's line goes at once; his next one never arrives, ann's own does.
    a.locator(f'#g-chat li[data-id="{rude.pk}"]').get_by_role("button", name="Mute bob").tap()
    expect(a.locator(f'#g-chat li[data-id="{rude.pk}"]')).to_have_count(0)
    off_loop(chat.post_to_game, game_id=game_id, user=bob, text="still a potato")
    a.locator("#g-chat-text").fill("good game anyway")
    a.locator("#g-chat-text").press("Enter")
    expect(a.locator("#g-chat")).to_contain_text("good game anyway")
    expect(a.locator("#g-chat")).not_to_contain_text("potato")
    a.reload()
    expect(a.locator("#g-chat")).to_contain_text("good game anyway")
    expect(a.locator("#g-chat")).not_to_contain_text("potato")

    # The moderator, on a phone: the reports grouped by player, bob's page, a day's mute.
    m = open_as(rita, PHONE, scheme)
    m.goto("/safety/moderation/")
    expect(m.locator('[data-player="bob"]')).to_contain_text("1 open report")
    shot(m, f"moderation-390-{scheme}")
    m.locator('[data-player="bob"]').get_by_role("link", name="bob").tap()
    expect(m.locator(".reported-message")).to_have_text("you play like a potato")
    m.locator("#id_kind").select_option("mute")
    m.get_by_label("For (a mute or a bar)").select_option(label="A day")
    m.get_by_label("Why (the player reads it)").fill("Insults at the table.")
    shot(m, f"moderation-player-390-{scheme}")
    m.get_by_role("button", name="Decide and tell the player").tap()
    expect(m.locator(".messages")).to_contain_text("Decided and logged")
    expect(m.locator('[data-decision="mute"]')).to_contain_text("Insults at the table.")
    assert Decision.objects.get().kind == "mute"

    # The writer is told what and why, and writes no more.
    b = open_as(bob, PHONE, scheme)
    b.goto("/notices/")
    expect(b.locator("main")).to_contain_text("A moderator muted you in chat until")
    expect(b.locator("main")).not_to_contain_text("rita")
    assert Notice.objects.filter(user=bob, text__startswith="A moderator muted").count() == 1
    b.goto(f"/games/{game_id}/")
    expect(b.locator("#g-chat")).to_contain_text("still a potato")  # the socket's snapshot is in
    b.locator("#g-chat-text").fill("hello?")
    b.locator("#g-chat-text").press("Enter")
    expect(b.locator(".chat-note")).to_contain_text("A moderator muted you in chat")


@pytest.mark.parametrize(("device", "size"), [(DESKTOP, "1280"), (PHONE, "390")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_profile_and_moderation_pages_look_right(open_as, make_user, device, size, scheme):  # noqa: F811
    ann, _bob = make_user("ann"), make_user("bob")
    rita = make_user("rita", is_staff=True)
    off_loop(services.report, reporter=ann, username="bob", reason="name", text="A rude name.")
    a = open_as(ann, device, scheme)
    a.goto("/players/bob/")
    expect(a.locator("#report-link")).to_be_visible()
    a.get_by_role("button", name="Mute bob in chat").click()
    expect(a.locator("#muted-note")).to_be_visible()
    shot(a, f"profile-{size}-{scheme}")
    m = open_as(rita, device, scheme)
    m.goto("/safety/moderation/bob/")
    shot(m, f"moderation-player-{size}-{scheme}")


@pytest.mark.parametrize(("device", "size"), [(DESKTOP, "1280"), (PHONE, "390")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_fair_play_screen_looks_right(open_as, make_user, device, size, scheme):  # noqa: F811
    off_loop(stored, seeded_records(), make_user)
    m = open_as(make_user("rita", is_staff=True), device, scheme)
    m.goto("/safety/moderation/")
    m.locator("#screening-link").click()
    expect(m.locator('#screened-players li[data-player="cheat"]')).to_be_visible()
    expect(m.locator("#screened-players li")).to_have_count(1)
    shot(m, f"screening-{size}-{scheme}")
