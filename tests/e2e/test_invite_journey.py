"""End-to-end journeys of an invitation (issue: invited friends reach their seat).

ann copies her table's link; friends open it in browsers that have never seen the site (one a touch
phone), read who invites them to what, sign up, and are seated without another click, while ann's
waiting room fills live. Then a group's invitation link: created, used by a newcomer, revoked.
Screenshots go to artifacts/screenshots/e2e/<journey>/.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from playwright.sync_api import Page, expect

from games.rules import triple_quintzee as tq
from tests.browser.helpers import ConsoleWatch, wait_for_disconnects
from tests.e2e import ui
from tests.e2e.axe import check_axe

PHONE = {"width": 390, "height": 844}


@contextmanager
def phone(browser, server, who: str, init_script: str | None = None):
    """A fresh visitor on a 390x844 touch phone; like `visit`, any page or console error fails."""
    watch = ConsoleWatch()
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, base_url=server)
    if init_script:
        context.add_init_script(init_script)
    try:
        page = watch.watch(context.new_page(), who)
        page.set_default_timeout(15_000)
        yield page
        watch.check()
    finally:
        context.close()
        wait_for_disconnects()


def sign_up_here(page: Page, username: str) -> None:
    """The sign-up form the page shows (reached from an invitation, so not through the home page)."""
    expect(page.get_by_role("heading", name="Create your account")).to_be_visible()
    check_axe(page, "sign-up form, reached from an invitation")
    page.get_by_label("Username:", exact=True).fill(username)
    page.get_by_label("Password:", exact=True).fill(ui.PASSWORD)
    page.get_by_label("Password confirmation:", exact=True).fill(ui.PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def copy_link(page: Page, label: str) -> str:
    """The Copy link button next to the link; returns what reached the clipboard."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    box = page.locator("[data-share]")
    box.get_by_role("button", name="Copy link").click()
    expect(box.get_by_role("status")).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.get_by_label(label, exact=True).input_value()
    # Share appears only where the browser has the Web Share API (not desktop Chromium on Linux).
    has_share = page.evaluate("typeof navigator.share === 'function'")
    expect(box.get_by_role("button", name="Share")).to_be_visible(visible=has_share)
    return copied


def texts(turns) -> list[str]:
    """The log line of each turn (one roll, one score in column 1), from the engine itself."""
    state = tq.new_game([player for player, *_ in turns], None)
    lines = []
    for player, box, rolled in turns:
        state = tq.apply(state, player, {"type": "roll", "hold": []}, lambda n, rolled=rolled: list(rolled))
        state = tq.apply(state, player, {"type": "score", "box": box, "column": 1}, lambda n: [])
        lines.append(state["last_event"]["text"])
    return lines


def test_invited_friends_sign_up_from_the_link_and_land_in_their_seats(visit, browser, server, dice, snap):
    ann = visit("ann")
    ui.sign_up(ann, "ann")
    ui.new_game(ann, "Triple Quintzee", seats=3)
    link = copy_link(ann, "Invite link")
    assert link == ui.invite_link(ann)
    snap(ann, "ann-copied-the-link")

    # bob, signed out on a desktop browser, opens the link: who invites him to what, not a bare login.
    bob = visit("bob")
    bob.goto(link)
    expect(bob.get_by_role("heading", level=1)).to_have_text("ann invites you to play Triple Quintzee")
    expect(bob.locator("#invite-seats")).to_have_text("1 of 3 taken · 2 free")
    check_axe(bob, "invitation, signed out")
    snap(bob, "bob-opens-the-invitation")
    bob.get_by_role("link", name="Sign up to take your seat").click()
    note = "ann invites you to play Triple Quintzee: you take your seat as soon as you are in."
    expect(bob.locator(".invitation-note")).to_have_text(note)
    snap(bob, "bob-signs-up")
    sign_up_here(bob, "bob")
    expect(bob).to_have_url(link)
    expect(bob.locator(".messages")).to_contain_text("Welcome, bob!")
    expect(bob.locator(".messages")).to_contain_text("You have a seat. Wait for the start.")
    expect(bob.locator("#seat-list li")).to_have_text(["ann host", "bob"])
    expect(bob.get_by_role("button", name="Leave")).to_be_visible()
    expect(ann.locator("#seat-list li")).to_have_text(["ann host", "bob"])  # live, without a reload
    check_axe(bob, "waiting room, seated through the link")
    snap(bob, "bob-lands-in-his-seat")

    # cid, on a touch phone, goes the other way round: Log in, then "Sign up" from the sign-in page.
    with phone(browser, server, "cid") as cid:
        cid.goto(link)
        expect(cid.get_by_role("heading", level=1)).to_have_text("ann invites you to play Triple Quintzee")
        expect(cid.locator("#invite-seats")).to_have_text("2 of 3 taken · 1 free")
        overflow = cid.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the invitation overflows the phone by {overflow} px"
        check_axe(cid, "invitation, signed out, phone")
        snap(cid, "cid-opens-the-invitation-on-a-phone")
        cid.get_by_role("main").get_by_role("link", name="Log in").tap()
        expect(cid.get_by_role("heading", name="Log in")).to_be_visible()
        expect(cid.locator(".invitation-note")).to_have_text(note)
        check_axe(cid, "log-in form with the invitation note, phone")
        cid.get_by_role("main").get_by_role("link", name="Sign up").tap()
        sign_up_here(cid, "cid")
        expect(cid).to_have_url(link)
        expect(cid.locator(".messages")).to_contain_text("You have a seat. Wait for the start.")
        expect(cid.locator("#seat-list li")).to_have_text(["ann host", "bob", "cid"])
        for page in (ann, bob):
            expect(page.locator("#seat-list li")).to_have_text(["ann host", "bob", "cid"])
        check_axe(cid, "waiting room, seated through the link, phone")
        snap(cid, "cid-lands-in-his-seat-on-a-phone")

        # ann starts; everyone plays a move, and everyone sees every move.
        turns = [
            ("ann", "ones", [1, 1, 1, 2, 3]),
            ("bob", "sixes", [6, 6, 6, 2, 3]),
            ("cid", "chance", [5, 5, 4, 4, 3]),
        ]
        dice(*[d for *_, d in turns])
        ui.start(ann, bob, cid, seats=3)
        pages = {"ann": ann, "bob": bob, "cid": cid}
        for (player, box, _), line in zip(turns, texts(turns), strict=True):
            ui.roll_and_score(pages[player], box, 1)
            for page in pages.values():
                expect(page.locator("#g-last")).to_have_text(line)
        for page in pages.values():
            expect(page.locator("#g-log li[data-seq]")).to_have_count(6)
        snap(cid, "cid-after-the-first-lap-on-a-phone")
    snap(ann, "ann-after-the-first-lap")

    # Someone who opens the link now learns that the game has started, and is seated nowhere.
    dan = visit("dan")
    dan.goto(link)
    expect(dan.locator(".invitation-closed")).to_contain_text("This game has already started.")
    expect(dan.get_by_role("link", name="Sign up to take your seat")).to_have_count(0)
    check_axe(dan, "invitation to a game already started")
    snap(dan, "dan-comes-too-late")


def test_a_group_invitation_link_is_used_then_revoked(visit, browser, server, snap):
    ann = visit("ann")
    ui.sign_up(ann, "ann")
    group_path = ui.create_group(ann, "Friday Dice")
    ann.get_by_role("button", name="Create an invitation link").click()
    expect(ann.locator(".messages")).to_contain_text("Your group's invitation link is ready")
    link = copy_link(ann, "Group invitation link")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/groups/join/[\w-]{24}/", link), link
    snap(ann, "ann-has-a-group-link")

    with phone(browser, server, "dora") as dora:
        dora.goto(link)
        expect(dora.get_by_role("heading", level=1)).to_have_text(
            "ann invites you to the group “Friday Dice”"
        )
        check_axe(dora, "group invitation, signed out, phone")
        snap(dora, "dora-opens-the-group-link-on-a-phone")
        dora.get_by_role("link", name="Sign up to join").tap()
        sign_up_here(dora, "dora")
        expect(dora).to_have_url(re.compile(re.escape(group_path) + "$"))
        expect(dora.locator(".messages")).to_contain_text("Welcome to “Friday Dice”!")
        expect(dora.locator(".member-list li")).to_have_text(["ann creator", "dora"])
        check_axe(dora, "group page, joined through the link, phone")
        snap(dora, "dora-is-a-member")

    # A signed-in player outside the group joins with one button.
    eve = visit("eve")
    ui.sign_up(eve, "eve")
    eve.goto(link)
    check_axe(eve, "group join page, signed in")
    snap(eve, "eve-sees-the-join-button")
    eve.get_by_role("button", name="Join “Friday Dice”").click()
    expect(eve.get_by_role("heading", level=1)).to_have_text("Friday Dice")
    expect(eve.locator(".member-list li")).to_have_text(["ann creator", "dora", "eve"])

    # ann revokes the link: whoever opens it now is told that it is no longer valid.
    ann.reload()
    ann.get_by_role("button", name="Revoke link").click()
    expect(ann.locator(".messages")).to_contain_text("The invitation link is revoked")
    expect(ann.get_by_role("button", name="Create an invitation link")).to_be_visible()
    visit.allow(r"Failed to load resource: the server responded with a status of 404")
    fay = visit("fay")
    fay.goto(link)
    expect(fay.get_by_role("heading", level=1)).to_have_text("This invitation is no longer valid")
    expect(fay.locator("main")).not_to_contain_text("Friday Dice")
    check_axe(fay, "group invitation, revoked")
    snap(fay, "fay-finds-the-link-revoked")


# Chromium on Linux has no Web Share API; a phone's browser has one. This stand-in keeps what the page
# asks it to share, so that the test can check the button's presence and what it hands over. And, as on
# a site served over plain http on a LAN address, there is no clipboard API.
PHONE_ON_PLAIN_HTTP = """
navigator.share = async (data) => { window.sharedData = data; };
Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
"""


def test_the_host_on_a_phone_shares_the_link_or_selects_it(browser, server, transactional_db, snap):
    with phone(browser, server, "ann", init_script=PHONE_ON_PLAIN_HTTP) as ann:
        ui.sign_up(ann, "ann")
        ann.goto("/games/")
        ui.fill_lobby(ann, "Farkle (10000)", seats=2, goal="3000", named="Farkle (3000)")
        link = ui.invite_link(ann)
        box = ann.locator("[data-share]")
        box.get_by_role("button", name="Share").tap()
        ann.wait_for_function("window.sharedData !== undefined")
        assert ann.evaluate("window.sharedData") == {
            "title": "Farkle (3000)",
            "text": "ann invites you to play Farkle (3000).",
            "url": link,
        }
        # Without a clipboard, Copy selects the whole link and says how to copy it.
        box.get_by_role("button", name="Copy link").tap()
        expect(box.get_by_role("status")).to_have_text(
            "The link is selected: copy it with Ctrl+C (or a long press)."
        )
        field = ann.get_by_label("Invite link", exact=True)
        expect(field).to_be_focused()
        assert field.evaluate("f => f.value.slice(f.selectionStart, f.selectionEnd)") == link
        check_axe(ann, "waiting room, host, link selected, phone")
        snap(ann, "ann-shares-from-her-phone")
