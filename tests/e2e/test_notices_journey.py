"""Journey: never miss your turn. bob waits on the home page while ann plays; his header's count, his
tab's title and his home page's "Waiting for your turn" list follow at once, and, with the browser's
permission granted and the tab in the background, a browser notification says it is his turn."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e import ui
from tests.e2e.axe import check_axe

# Before any page script: the tab counts as hidden (another tab is in front), and every browser
# notification the page makes is recorded as well as made: the page gets the browser's own Notification
# (its permission granted to the context), only wrapped.
HIDDEN_TAB_AND_RECORDED_NOTIFICATIONS = """
Object.defineProperty(document, 'hidden', { get: () => true });
window.__notifications = [];
window.Notification = class extends window.Notification {
  constructor(title, options) {
    super(title, options);
    window.__notifications.push({ title, body: options?.body, permission: Notification.permission });
  }
};
"""


def test_the_turn_reaches_a_player_waiting_on_another_page(visit, dice, snap):
    ann, bob = visit("ann"), visit("bob")
    bob.context.grant_permissions(["notifications"])
    bob.context.add_init_script(HIDDEN_TAB_AND_RECORDED_NOTIFICATIONS)
    ui.sign_up(ann, "ann")
    ui.sign_up(bob, "bob")

    # bob asks for a sound and a browser notification in his settings.
    bob.goto("/notices/settings/")
    bob.get_by_label("Show a browser notification when it is my turn").check()
    bob.get_by_label("Play a sound when it is my turn").check()
    bob.get_by_role("button", name="Save").click()
    expect(bob.locator(".messages")).to_contain_text("Notification settings saved.")
    check_axe(bob, "notification settings")

    path = ui.new_game(ann, "Triple Quintzee", 2)
    ui.join_from_link(bob, ui.invite_link(ann))
    ann.reload()
    ui.start(ann, bob, seats=2)

    # bob leaves for the home page; ann (first to move) plays her turn.
    bob.goto("/")
    count = bob.locator("#notices .notices-count")
    expect(count).to_have_text("1")  # "ann started Triple Quintzee", not yet seen
    dice([1, 1, 1, 2, 3])
    ui.roll_and_score(ann, "ones", 1)
    expect(count).to_have_text("2")
    expect(bob).to_have_title("(2) Play dice with friends · DiceHall")
    waiting = bob.locator("[data-live-turns]")
    expect(waiting).to_contain_text("Triple Quintzee")
    expect(waiting).to_contain_text("ann, bob · bob to play · ann 3, bob 0")
    bob.wait_for_function("window.__notifications.length === 1")
    assert bob.evaluate("window.__notifications") == [
        {"title": "Your turn", "body": f"Triple Quintzee #{path.split('/')[2]}", "permission": "granted"}
    ]
    assert bob.evaluate("document.querySelector('link[rel=icon]').dataset.count") == "2"

    # The list: opening it marks the notice seen; the turn stays until bob moves.
    bob.locator("#notices summary").click()
    expect(bob.locator("#notices .notices-list")).to_contain_text("Your turn: Triple Quintzee")
    expect(count).to_have_text("1")
    snap(bob, "header-list")
    check_axe(bob, "home with the notifications list open")
    bob.locator("#notices .notices-list a", has_text="Your turn").click()
    dice([6, 6, 6, 6, 6])
    ui.roll_and_score(bob, "quintzee", 1)
    expect(count).to_be_hidden()
    expect(bob).to_have_title(f"Triple Quintzee #{path.split('/')[2]} · DiceHall")
