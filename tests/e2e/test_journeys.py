"""End-to-end journeys: new players on the real site in a real browser, one test per journey.

Each journey goes through what a person sees and clicks: the sign-up form, the menus, the group and
lobby forms, the invite link, the game screen's buttons and keys, and the results pages. The server
is daphne on the test database (`server`); its dice come from a script the test lines up (`dice`), so
that every game goes exactly where the journey needs it to. A journey about a late moment of a long game
reaches it through the game core's services (`served`), which play the turns between the ones it clicks:
what each of those turns does is the engine's and the conformance tests' to prove, not a browser's.
Screenshots of the key moments go to artifacts/screenshots/e2e/<journey>/.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from games.rules import painted_dicez as pdz
from games.rules import triple_quintzee as tq
from games.rules import triple_yahtzee_99 as ty
from tests.browser.helpers import cell, die, score_box, score_of, screens
from tests.e2e import ui
from tests.e2e.axe import check_axe

# --- journey 1: sign up, make a group, add a friend -------------------------------------------------


def test_two_visitors_sign_up_and_meet_in_a_group(visit, snap):
    ann = visit("ann")
    bob = visit("bob", width=390, height=844)  # bob is on his phone
    ann.goto("/")
    check_axe(ann, "home, signed out")
    ann.get_by_role("link", name="Create an account").click()
    check_axe(ann, "sign-up form")
    ui.sign_up(ann, "ann", email="ann@example.com")
    check_axe(ann, "home, signed in, welcome message")
    snap(ann, "ann-signed-up")
    ui.sign_up(bob, "bob")

    ui.create_group(ann, "Friday Dice", "Dice on Friday evenings.")
    ann.get_by_label("Add a player by username:", exact=True).fill("nobody")
    ann.get_by_role("button", name="Add member").click()
    expect(ann.locator(".messages")).to_contain_text("There is no player called 'nobody'.")
    check_axe(ann, "group page, creator, error message")
    ui.add_member(ann, "bob")
    expect(ann.locator(".group-head")).to_contain_text("Created by ann · 2 members")
    snap(ann, "ann-adds-bob")
    ann.get_by_role("link", name="Your profile").click()
    check_axe(ann, "profile")

    ui.log_out(bob)
    ui.main_nav(bob).get_by_role("link", name="Log in").click()
    check_axe(bob, "log-in form, phone")
    ui.log_in(bob, "bob")
    ui.main_nav(bob).get_by_role("link", name="Groups").click()
    expect(bob.locator(".group-list")).to_have_text("Friday Dice")
    check_axe(bob, "group list, phone")
    bob.get_by_role("link", name="Friday Dice").click()
    expect(bob.get_by_role("heading", level=1)).to_have_text("Friday Dice")
    expect(bob.locator(".member-list li")).to_have_text(["ann creator", "bob"])
    # A member, not the creator: no member management, a way out instead.
    expect(bob.get_by_role("button", name="Add member")).to_have_count(0)
    expect(bob.get_by_role("button", name="Leave group")).to_be_visible()
    expect(bob.get_by_role("link", name="New group game")).to_be_visible()
    check_axe(bob, "group page, member, phone")
    screens(bob, snap, "bob-sees-the-group")

    # Someone outside the group who has its address learns nothing of it, not even its name.
    cid = visit("cid")
    ui.sign_up(cid, "cid")
    visit.allow(r"Failed to load resource: the server responded with a status of 404")
    assert cid.goto(bob.url).status == 404
    expect(cid.get_by_role("heading", level=1)).to_have_text("No page here")
    expect(cid.locator("main")).not_to_contain_text("Friday Dice")
    expect(cid.locator(".member-list")).to_have_count(0)
    check_axe(cid, "private group, outsider")

    # The rules of every game, from the menu, on the phone (their wide tables scroll there), and an
    # address that leads nowhere.
    for kind in ("Triple Quintzee", "Triple Yahtzee 99", "Painted DiceZ", "Quintzee", "Farkle (10000)"):
        ui.main_nav(bob).get_by_role("link", name=kind, exact=True).click()
        expect(bob.get_by_role("heading", level=1)).to_contain_text(f"{kind}: how to play")
        check_axe(bob, f"rules of {kind}, phone")
    visit.allow(r"Failed to load resource: the server responded with a status of 404")
    assert cid.goto("/no-such-page/").status == 404
    expect(cid.get_by_role("heading", level=1)).to_have_text("No page here")
    check_axe(cid, "404")


# --- journey 2: a Farkle group game, live in two browsers, to the results pages ------------------


FACE_WORDS = ["none", "one", "two", "three", "four", "five", "six"]


def watch_die(page: Page, n: int, face: int) -> None:
    """Wait until die n shows `face` on this page: the roll has reached it."""
    expect(die(page, n)).to_have_attribute("aria-label", re.compile(rf"^Die {n}: {FACE_WORDS[face]}\b"))


def test_farkle_group_game_from_invite_to_high_scores(visit, dice, snap):
    ann, bob = visit("ann"), visit("bob")
    ui.sign_up(ann, "ann")
    ui.sign_up(bob, "bob")
    group_path = ui.create_group(ann, "Friday Dice")
    ui.add_member(ann, "bob")

    ann.get_by_role("link", name="New group game").click()
    check_axe(ann, "lobby")
    game_path = ui.fill_lobby(
        ann, "Farkle (10000)", seats=2, goal="3000", group="Friday Dice", named="Farkle (3000)"
    )
    expect(ann.locator(".game-head")).to_contain_text("Group Friday Dice · Goal 3000 · 6 dice")
    link = ui.invite_link(ann)
    check_axe(ann, "waiting room, host")
    snap(ann, "waiting-room")
    bob.goto(link)
    check_axe(bob, "waiting room, invited")
    ui.join_from_link(bob, link)
    expect(ann.locator("#seat-list")).to_contain_text("bob")  # live, without a reload
    check_axe(ann, "waiting room, full")
    ui.start(ann, bob, seats=2)
    check_axe(bob, "Farkle, the other's turn")
    snap(bob, "bob-follows-into-the-game")

    dice(
        [1, 5, 2, 3, 6, 6],  # ann: 1 and 5 (150); banking refused under 300
        [5, 5, 5, 2],  # ann: three fives, banks 650
        [1, 2, 3, 4, 6, 6],  # bob: keeps the 1 ...
        [2, 3, 4, 6, 2],  # ... and Farkles: 100 lost; lap 2 begins
        [1, 1, 1, 5, 5, 5],  # ann: every die scores (two triples: 3000): hot dice
        [5, 2, 3, 3, 6, 6],  # ann: the confirming roll of all six; the 5, banks 3050: 3700
        [5, 5, 5, 2, 3, 4],  # bob: his turn after ann reached the goal: banks 500; the lap ends the game
    )

    # Lap 1, ann: a bank under 300 is refused with the server's reason, then she banks 650.
    expect(ann.locator("#g-turn")).to_have_text("Your turn")
    expect(bob.locator("#g-turn")).to_have_text("ann's turn")
    ann.get_by_role("button", name="Roll 6 dice").click()
    watch_die(bob, 1, 1)
    watch_die(bob, 6, 6)
    die(ann, 1).click()
    die(ann, 2).click()
    expect(ann.locator("#selection-value")).to_have_text("Selected: 150")
    expect(ann.locator("#bank-button")).to_be_disabled()
    ann.keyboard.press("b")
    expect(ann.get_by_role("alert")).to_have_text("You need at least 300 points to bank; this turn has 150.")
    check_axe(ann, "Farkle, dice set aside, a refusal")
    snap(ann, "bank-under-300-refused")
    ann.get_by_role("button", name="Set aside, roll 4 dice").click()
    watch_die(bob, 1, 5)
    expect(bob.locator("#g-board .aside-list li")).to_have_count(1)
    for n in (1, 2, 3):
        die(ann, n).click()
    expect(ann.locator("#turn-points")).to_have_text("Turn: 150 + 500 = 650")
    ann.get_by_role("button", name="Bank 650").click()
    expect(score_of(bob, "ann")).to_have_text("650")
    expect(bob.locator("#g-log")).to_contain_text("ann set aside 5 5 5 for 500 and banked 650 (total: 650).")

    # Lap 1, bob: a Farkle loses his 100.
    expect(bob.locator("#g-turn")).to_have_text("Your turn")
    bob.get_by_role("button", name="Roll 6 dice").click()
    watch_die(ann, 1, 1)
    die(bob, 1).click()
    bob.get_by_role("button", name="Set aside, roll 5 dice").click()
    expect(bob.locator("#g-moment.farkle")).to_contain_text("You rolled no scoring dice: 100 points lost.")
    expect(ann.locator("#g-moment.farkle")).to_contain_text("bob rolled no scoring dice: 100 points lost.")
    check_axe(ann, "Farkle, a Farkle")
    snap(ann, "bob-farkles")
    for page in (ann, bob):
        expect(page.locator("#lap-counter")).to_have_text("Lap 2")

    # Lap 2, ann: all six dice score; she must roll them all again before banking, then reaches 3000.
    expect(ann.locator("#g-turn")).to_have_text("Your turn")
    ann.keyboard.press("Space")
    # Her own page too: the roll's answer may reach bob's page first, and a key pressed before the
    # dice are on her page picks nothing.
    for page in (ann, bob):
        watch_die(page, 6, 5)
    for n in range(1, 7):
        ann.keyboard.press(str(n))
    expect(ann.locator("#selection-value")).to_have_text("Selected: 3000")
    expect(ann.locator("#bank-button")).to_be_disabled()
    expect(ann.locator("#bank-why")).to_contain_text("roll them all again to confirm")
    check_axe(ann, "Farkle, hot dice to confirm")
    snap(ann, "hot-dice-to-confirm")
    ann.get_by_role("button", name="Hot dice! Roll all 6").click()
    for page in (ann, bob):
        expect(page.locator("#g-moment.hot")).to_contain_text("Hot dice!")
    watch_die(bob, 6, 6)
    expect(ann.locator("#g-hint")).to_have_text(
        "Hot dice confirmed: set aside scoring dice, then roll or bank."
    )
    die(ann, 1).click()
    ann.get_by_role("button", name="Bank 3050").click()
    for page in (ann, bob):
        expect(score_of(page, "ann")).to_have_text("3700")
        expect(page.locator(".final-round")).to_have_text("Final round: the goal has been reached.")
    expect(bob.locator("#g-log")).to_contain_text("ann reached the goal of 3000.")
    # The lap is not over: bob still has his turn.
    expect(bob.locator("#g-turn")).to_have_text("Your turn")
    expect(ann.locator("#g-turn")).to_have_text("bob's turn")
    check_axe(bob, "Farkle, final round")
    snap(bob, "final-round-bob-to-play")

    bob.get_by_role("button", name="Roll 6 dice").click()
    watch_die(ann, 1, 5)
    for n in (1, 2, 3):
        die(bob, n).click()
    bob.get_by_role("button", name="Bank 500").click()
    expect(ann.locator("#g-end .verdict")).to_have_text("You win with 3700 points after 2 laps!")
    expect(bob.locator("#g-end .verdict")).to_have_text("ann wins with 3700 points after 2 laps!")
    for page in (ann, bob):
        expect(page.locator("#g-end .standings li")).to_have_text(
            [re.compile(r"ann\s*winner\s*3700"), re.compile(r"bob\s*500")]
        )
        expect(page.locator("#g-log")).to_contain_text("The game is over: ann wins after 2 laps.")
    # Every move reached both pages: the same ten lines in both logs.
    lines = ann.locator("#g-log li[data-seq]")
    expect(lines).to_have_count(10)
    expect(bob.locator("#g-log li[data-seq]")).to_have_text(lines.all_text_contents())
    check_axe(ann, "Farkle, game over")
    screens(ann, snap, "farkle-over-ann")
    screens(bob, snap, "farkle-over-bob")
    game_id = re.search(r"/games/(\d+)/", game_path)[1]

    # Both histories.
    for page, name, result in ((ann, "ann", "won"), (bob, "bob", "lost")):
        ui.main_nav(page).get_by_role("link", name="Stats").click()
        page.get_by_role("link", name="Finished games").click()
        expect(page).to_have_url(re.compile(rf"/players/{name}/history/$"))
        row = page.locator("#history tbody tr").filter(has_text=f"#{game_id}")
        expect(row).to_contain_text("Farkle (3000)")
        expect(row).to_contain_text("Friday Dice")
        expect(row).to_contain_text("ann 3700 (2 laps)")
        expect(row.locator("td").nth(3)).to_have_text(result)
        # The game was rated: the last column says what it did to the player's rating.
        expect(row.locator("td").last).to_have_text(re.compile(r"^[+\u2212]\d+, now \d+\?$"))
    check_axe(bob, "history")
    snap(bob, "bob-history")

    # Both players' statistics for goal 3000, reached through the page's tabs.
    figures = {
        "ann": {
            "games": "1",
            "wins": "1",
            "best": "3700",
            "best_laps": "2",
            "hot_dice": "1",
            "best_turn": "3050",
        },
        "bob": {"games": "1", "wins": "0", "best": "500", "farkle_rate": "33%", "hot_dice": "0"},
    }
    for page, name in ((ann, "ann"), (bob, "bob")):
        page.get_by_role("link", name="Statistics").click()
        page.get_by_role("navigation", name="Game").get_by_role("link", name="Farkle").click()
        page.get_by_role("navigation", name="Goal").get_by_role("link", name="Goal 3000").click()
        expect(page).to_have_url(re.compile(rf"/players/{name}/stats/\?kind=farkle&goal=3000$"))
        for stat, value in figures[name].items():
            expect(page.locator(f"#stats-figures dd[data-stat='{stat}']")).to_have_text(value)
    check_axe(ann, "statistics")
    snap(ann, "ann-statistics")

    # The group's leaderboard.
    ui.main_nav(ann).get_by_role("link", name="Groups").click()
    ann.get_by_role("link", name="Friday Dice").click()
    expect(ann).to_have_url(re.compile(rf"{group_path}$"))
    board = ann.locator("table.board").filter(has=ann.locator("caption", has_text="Farkle (3000)"))
    expect(board.locator("tbody tr")).to_have_count(1)
    expect(board.locator("tbody tr td")).to_have_text(["1", "ann", "2", "3700", re.compile(r"^Game #\d+")])
    # Her own record against bob on the group's page; every pair on the head-to-head page.
    expect(ann.locator("section[aria-labelledby=h2h-heading] tbody tr td")).to_have_text(
        ["bob", "1", "1\u20130", "0"]
    )
    check_axe(ann, "group page with results")
    screens(ann, snap, "group-leaderboard")
    ann.get_by_role("link", name="Every pair of members").click()
    expect(ann.locator("main tbody tr td")).to_have_text(["ann vs bob", "1", "1\u20130", "0"])
    check_axe(ann, "head to head")
    ann.go_back()

    # The replay, from the group's recent results: the Farkle and the hot dice again, then the end.
    ann.get_by_role("link", name=f"Farkle (3000) #{game_id}").click()
    position = ann.locator("#replay-position")
    expect(position).to_have_text("Step 10 of 10")
    expect(ann.locator("#replay-turn")).to_have_text("Game over")
    expect(ann.locator("#replay-board .replay-players li")).to_have_text(
        [re.compile(r"ann\s*winner\s*3700"), re.compile(r"bob\s*500")]
    )
    expect(ann.locator("#replay-board .farkle-info")).to_contain_text("Goal 3000")
    expect(ann.locator("#lap-counter")).to_have_text("Lap 2")
    check_axe(ann, "Farkle replay, last step")
    for _ in range(5):
        ann.keyboard.press("ArrowLeft")
    expect(position).to_have_text("Step 5 of 10")
    expect(ann.locator("#replay-board .g-moment.farkle")).to_contain_text(
        "bob rolled no scoring dice: 100 points lost."
    )
    ann.get_by_role("button", name="Next step").click()
    ann.get_by_role("button", name="Next step").click()
    expect(position).to_have_text("Step 7 of 10")
    expect(ann.locator("#replay-board .g-moment.hot")).to_contain_text("Hot dice!")
    expect(ann.locator("#replay-board .aside-list li")).to_have_count(1)
    expect(ann.locator("#replay-board .turn-total")).to_have_text("Turn points: 3000")
    check_axe(ann, "Farkle replay, hot dice")
    screens(ann, snap, "farkle-replay-hot-dice")

    # The high-score list for goal 3000, chosen with the list's own filters.
    ui.main_nav(bob).get_by_role("link", name="High scores").click()
    check_axe(bob, "high scores")
    bob.get_by_label("Game").select_option(label="Farkle")
    bob.get_by_label("Farkle goal").select_option("3000")
    bob.get_by_role("button", name="Show").click()
    expect(bob).to_have_url(re.compile(r"/highscores/\?kind=farkle&goal=3000"))
    rows = bob.locator("#highscores tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator("td")).to_have_text(["1", "ann", "2", "3700", re.compile(r"^Game #\d+")])
    check_axe(bob, "high scores, Farkle goal 3000")
    snap(bob, "farkle-high-scores")


# --- journey 3: a solo Triple Quintzee game and its replay --------------------------------------

TQ_DICE = {
    "ones": [1, 1, 1, 1, 2],
    "twos": [2, 2, 2, 2, 1],
    "threes": [3, 3, 3, 3, 1],
    "fours": [4, 4, 4, 4, 1],
    "fives": [5, 5, 5, 5, 1],
    "sixes": [6, 6, 6, 6, 1],
    "three_of_a_kind": [6, 6, 6, 2, 3],
    "four_of_a_kind": [5, 5, 5, 5, 2],
    "full_house": [3, 3, 3, 2, 2],
    "small_straight": [1, 2, 3, 4, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "quintzee": [6, 6, 6, 6, 6],
    "chance": [6, 6, 5, 5, 4],
}


def tq_plan() -> list[tuple[str, int, list[int]]]:
    """39 turns (box, column clicked, dice): Ones first, by keyboard; the three Quintzees, each clicked
    in column 1 (the right-most rule moves them to 3, 2, then 1); then five fives in Fives, column 3,
    for a Quintzee bonus; then every other box, the right-most rows always clicked in column 1."""
    plan = [("ones", 1, TQ_DICE["ones"])]
    plan += [("quintzee", 1, TQ_DICE["quintzee"])] * 3
    plan.append(("fives", 3, [5, 5, 5, 5, 5]))
    for column in tq.COLUMNS:
        for box in tq.BOXES:
            if (box, column) in {("ones", 1), ("fives", 3)} or box == "quintzee":
                continue
            plan.append((box, 1 if box in tq.RIGHT_MOST else column, TQ_DICE[box]))
    assert len(plan) == tq.CARD_BOXES == 39
    return plan


def tq_by_hand(plan) -> tuple[list[int], int]:
    """Where each turn lands and the final total, worked out here rather than by the engine: a right-most
    box takes the right-most empty one; each column is its multiplier times (top, plus 35 from 63 on,
    plus bottom, plus 100 for each five of a kind scored once the three Quintzee boxes are full)."""
    filled: dict[int, dict[str, int]] = {c: {} for c in tq.COLUMNS}
    bonus = dict.fromkeys(tq.COLUMNS, 0)
    landed = []
    for box, picked, dice in plan:
        value = tq.score(box, dice)
        column = picked
        if value and box in tq.RIGHT_MOST:
            column = max(c for c in tq.COLUMNS if box not in filled[c])
        if len(set(dice)) == 1 and value and all("quintzee" in filled[c] for c in tq.COLUMNS):
            bonus[column] += 100
        filled[column][box] = value
        landed.append(column)
    total = 0
    for c in tq.COLUMNS:
        top = sum(filled[c][b] for b in tq.TOP)
        bottom = sum(filled[c][b] for b in tq.BOTTOM)
        total += c * (top + (35 if top >= 63 else 0) + bottom + bonus[c])
    return landed, total


def test_solo_triple_quintzee_and_its_replay(visit, dice, served, snap):
    page = visit("cleo")
    ui.sign_up(page, "cleo")
    plan = tq_plan()
    landed, total = tq_by_hand(plan)
    assert total == 2325  # 335 + 670 + 1320: the bonus column is worth three times its 440
    dice(*[d for _, _, d in plan])

    game_path = ui.new_game(page, "Triple Quintzee", seats=1)
    expect(page.locator("#g-turn")).to_have_text("Your turn")
    expect(page.locator(".g-keys")).to_contain_text("Space rolls")
    check_axe(page, "Triple Quintzee, solo start")
    snap(page, "solo-start")

    # cleo plays turns 1 to 5 (the keyboard, the right-most rule, the bonus) and the last; the game
    # core's services play the turns between.
    last = len(plan)
    for turn, ((box, picked, dice_), column) in enumerate(zip(plan, landed, strict=True), start=1):
        value = tq.score(box, dice_)
        if 5 < turn < last:
            continue
        if turn == last:
            served(game_path, card_moves(("cleo", b, c, d) for b, c, d in plan[5:-1]), page)
        if turn == 1:
            # Keyboard only: Space rolls, the first arrow brings focus to Ones, column 1; Enter scores.
            page.keyboard.press("Space")
            expect(page.locator("#roll-count")).to_have_text("1 of 3 rolls used")
            page.keyboard.press("ArrowDown")
            expect(page.locator("#g-board td:focus")).to_have_attribute(
                "aria-label", "Ones, column 1, empty, would score 4 \u00d7 1 = 4"
            )
            check_axe(page, "Triple Quintzee, rolled, a box in focus")
            page.keyboard.press("Enter")
        else:
            ui.roll_and_score(page, box, picked)
        expect(cell(page, box, column)).to_have_text(str(value))
        if turn == 4:
            snap(page, "right-most-rule")
        if turn == 5:
            expect(page.locator("#g-moment.bonus")).to_contain_text("Quintzee bonus!")
            expect(page.locator("#g-last")).to_contain_text("Quintzee bonus: 100 more in column 3.")
            check_axe(page, "Triple Quintzee, a bonus")
            snap(page, "quintzee-bonus")

    # Every box holds what that turn scored, where the right-most rule put it.
    for (box, _, dice_), column in zip(plan, landed, strict=True):
        expect(cell(page, box, column)).to_have_text(str(tq.score(box, dice_)))
    # Played alone, the game ends with its total, not a win.
    expect(page.locator("#g-end h2")).to_have_text(f"Game over: {total} points")
    expect(page.locator("#g-end")).not_to_contain_text("win")
    expect(score_of(page, "cleo")).to_have_text(str(total))
    expect(page.locator("#g-board tfoot")).to_contain_text(str(total))
    check_axe(page, "Triple Quintzee, game over")
    screens(page, snap, "solo-game-over")

    # The replay, from the player's finished games.
    ui.main_nav(page).get_by_role("link", name="Stats").click()
    page.get_by_role("link", name="Finished games").click()
    row = page.locator("#history tbody tr").first
    expect(row).to_contain_text(f"cleo {total}")
    expect(row.locator(".tag")).to_have_text("solo")
    row.get_by_role("link", name=re.compile(r"Triple Quintzee #\d+")).click()
    check_tq_replay(page, snap, total)


def check_tq_replay(page: Page, snap, total: int) -> None:
    steps = 2 * tq.CARD_BOXES
    position = page.locator("#replay-position")
    ones = page.locator("#replay-board td[data-box='ones'][data-col='1']")
    expect(position).to_have_text(f"Step {steps} of {steps}")
    expect(page.locator("#replay-turn")).to_have_text("Game over")
    expect(page.locator(".replay-card .card-caption")).to_have_text(f"cleo · {total} points")
    expect(page.locator("#replay-board tfoot")).to_contain_text(str(total))
    # Read-only: nothing on the card can be chosen or reached with Tab.
    expect(page.locator("#replay-board td.choosable, #replay-board td[tabindex='0']")).to_have_count(0)
    check_axe(page, "Triple Quintzee replay, last step")
    screens(page, snap, "replay-last-step")

    page.get_by_role("button", name="First step").click()
    expect(position).to_have_text(f"Step 0 of {steps}")
    expect(page.locator("#replay-turn")).to_have_text("The game begins: cleo to play")
    expect(ones).to_have_text("")
    expect(page.locator("#replay-board tfoot")).to_contain_text("0")

    page.get_by_role("button", name="Next step").click()
    expect(position).to_have_text(f"Step 1 of {steps}")
    expect(page.locator("#replay-event")).to_have_text("cleo rolled 1, 1, 1, 1, 2.")
    expect(page.locator("#replay-dice [data-key='5']")).to_have_attribute("aria-label", "Die 5: two")
    check_axe(page, "Triple Quintzee replay, a roll")

    page.get_by_role("button", name="Next step").click()
    expect(position).to_have_text(f"Step 2 of {steps}")
    expect(ones).to_have_text("4")
    expect(ones).to_have_class(re.compile(r"\bjust-scored\b"))

    page.get_by_role("button", name="Previous step").click()
    expect(position).to_have_text(f"Step 1 of {steps}")
    expect(ones).to_have_text("")

    keys = page.keyboard
    keys.press("ArrowRight")
    keys.press("ArrowRight")
    expect(position).to_have_text(f"Step 3 of {steps}")
    expect(page.locator("#replay-board td[data-box='quintzee'][data-col='3']")).to_have_text("")
    keys.press("ArrowRight")
    expect(position).to_have_text(f"Step 4 of {steps}")
    expect(page.locator("#replay-board td[data-box='quintzee'][data-col='3']")).to_have_text("50")
    keys.press("ArrowLeft")
    expect(position).to_have_text(f"Step 3 of {steps}")
    keys.press("End")
    expect(position).to_have_text(f"Step {steps} of {steps}")
    keys.press("ArrowRight")
    expect(position).to_have_text(f"Step {steps} of {steps}")
    keys.press("Home")
    expect(position).to_have_text(f"Step 0 of {steps}")
    keys.press("ArrowLeft")
    expect(position).to_have_text(f"Step 0 of {steps}")

    # A line of the log jumps to its step: the Quintzee bonus (turn 5's score is step 10).
    page.locator("#replay-log li[data-step='10']").click()
    expect(position).to_have_text(f"Step 10 of {steps}")
    expect(page.locator("#replay-log li.current")).to_have_attribute("data-step", "10")
    expect(page.locator("#replay-board .g-moment.bonus")).to_contain_text("Quintzee bonus!")
    expect(page.locator("#replay-board td[data-box='fives'][data-col='3']")).to_have_text("25")
    check_axe(page, "Triple Quintzee replay, a bonus")
    screens(page, snap, "replay-quintzee-bonus")

    page.get_by_role("button", name="Last step").click()
    expect(position).to_have_text(f"Step {steps} of {steps}")


# --- journey 4: Triple Yahtzee 99 with upgrades and Painted DiceZ with both bonuses, two players --


def scripted(rolls):
    """A dice source for the engine that hands out `rolls` in order, as the server's script does."""
    queue = [list(r) for r in rolls]

    def roll(n):
        out = queue.pop(0)
        assert len(out) == n
        return out

    return roll


def engine_texts(engine, players, turns) -> list[str]:
    """The log line of each turn's score, from the engine (turns: (player, box, column, dice)); the pages
    must show exactly these."""
    state = engine.new_game(players, None)
    texts = []
    for player, box, column, dice_ in turns:
        state = engine.apply(state, player, {"type": "roll", "hold": []}, scripted([dice_]))
        action = {"type": "score", "box": box} | ({"column": column} if column else {})
        state = engine.apply(state, player, action, scripted([]))
        texts.append(state["last_event"]["text"])
    assert state["over"]
    return texts


def play_card_game(pages: dict[str, Page], turns, texts, *, after=None, first: int = 0) -> None:
    """Both players take their turns in seat order with one roll and one click each; after every turn
    the other player's page must show the turn's log line (it saw the move live). ``first``: the index of
    the first of these turns in the game (``after`` is given the game's index)."""
    for i, ((player, box, column, _), text) in enumerate(zip(turns, texts, strict=True), start=first):
        page = pages[player]
        ui.roll_and_score(page, box, column)
        for other in pages.values():
            expect(other.locator("#g-last")).to_have_text(text)
        if after:
            after(i, player, text)


def card_moves(turns) -> list[tuple[str, dict]]:
    """The turns (player, box, column, dice) as the moves a page sends: a roll, then the box."""
    moves = []
    for player, box, column, _ in turns:
        moves.append((player, {"type": "roll", "hold": []}))
        moves.append((player, {"type": "score", "box": box} | ({"column": column} if column else {})))
    return moves


def log_shows_the_last_turns(pages: dict[str, Page], texts, at_least: int) -> None:
    """Each page's log (the recent part a page loads, and what came live since) ends with the score
    lines the engine wrote for the game's last turns, those the services played among them, in order."""
    for page in pages.values():
        lines = page.locator("#g-log li[data-seq]")
        expect(lines.last).to_have_text(texts[-1])
        scores = [line for line in lines.all_text_contents() if not re.match(r"^\w+ rolled ", line)]
        assert len(scores) >= at_least, scores
        assert scores == texts[-len(scores) :]


TY_DICE = {
    "ones": [1, 1, 1, 1, 2],
    "xtra_ones": [1, 1, 1, 1, 2],
    "twos": [2, 2, 2, 2, 1],
    "threes": [3, 3, 3, 3, 1],
    "fours": [4, 4, 4, 4, 1],
    "fives": [5, 5, 5, 5, 1],
    "sixes": [6, 6, 6, 6, 1],
    "two_pairs": [6, 6, 5, 5, 1],
    "three_of_a_kind": [6, 6, 6, 5, 4],
    "four_of_a_kind": [6, 6, 6, 6, 5],
    "full_house": [6, 6, 6, 5, 5],
    "small_straight": [3, 4, 5, 6, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "yahtzee": [6, 6, 6, 6, 6],
    "first_chance": [6, 6, 6, 5, 5],
    "second_chance": [6, 6, 6, 5, 4],
}
# Both fill a column at a time with the same dice: ann left to right, so each column upgrades as it
# meets the minimums (x2, x3, x5); bob starts with column 2, which meets them before column 1 upgraded,
# so columns 2 and 3 are blocked for good (column 1 still upgrades to x2).
TY_ORDER = {"ann": (1, 2, 3), "bob": (2, 1, 3)}


def ty_turns():
    boxes = [b for b in ty.SCORING]
    turns = []
    for k in range(3):
        for box in boxes:
            for player in ("ann", "bob"):
                turns.append((player, box, TY_ORDER[player][k], TY_DICE[box]))
    assert len(turns) == 2 * ty.CARD_BOXES == 96
    return turns


def ty_by_hand(player: str) -> int:
    """Each column: 88 up top (bonus 70 from 76 on) and 326 below, times its final multiplier."""
    upper = sum(ty.score(b, TY_DICE[b]) for b in ty.UPPER)
    lower = sum(ty.score(b, TY_DICE[b]) for b in ty.LOWER if b != "yahtzee_bonus")
    assert (upper, ty.upper_bonus(upper), lower) == (88, 70, 326)
    multipliers = {"ann": (2, 3, 5), "bob": (2, 2, 3)}[player]
    return sum(m * (upper + ty.upper_bonus(upper) + lower) for m in multipliers)


def pd(*dice_):
    """Painted dice from short codes: pd("1b", "6r") is [[1, "blue"], [6, "red"]]."""
    colours = {c[0]: c for c in pdz.COLOURS}
    return [[int(d[0]), colours[d[1]]] for d in dice_]


PD_DICE = {
    "ones": pd("1b", "1r", "1p", "1g", "2y"),
    "twos": pd("2b", "2r", "2p", "2g", "1y"),
    "threes": pd("3b", "3r", "3p", "3g", "1y"),
    "fours": pd("4b", "4r", "4p", "4g", "1y"),
    "fives": pd("5b", "5r", "5p", "5g", "1y"),
    "sixes": pd("6b", "6r", "6p", "6g", "1y"),
    "blues": pd("6b", "6b", "5b", "5b", "2r"),
    "reds": pd("6r", "6r", "4r", "3r", "1g"),
    "pinks": pd("5p", "5p", "4p", "2y", "1b"),
    "greens": pd("6g", "3g", "2b", "1r", "4y"),
    "yellows": pd("5y", "3y", "2g", "1p", "6b"),
    "four_of_a_kind": pd("3b", "3r", "3p", "3g", "2y"),
    "four_of_a_color": pd("1g", "2g", "3g", "6g", "5b"),
    "full_house": pd("2b", "2r", "5p", "5g", "5y"),
    "painted_house": pd("1b", "3b", "4r", "6r", "2r"),
    "straight": pd("1b", "2r", "3p", "4g", "5b"),
    "rainbow": pd("1b", "3r", "4p", "6g", "6y"),
    "flush": pd("1p", "3p", "4p", "5p", "6p"),
    "dicez": pd("4b", "4r", "4p", "4g", "4y"),
    "chance": pd("6r", "6b", "5g", "5y", "4p"),
}
# bob's five of a kind is one short: he scratches DiceZ.
PD_BOB = {"dicez": pd("4b", "4r", "4p", "4g", "3y")}


def pd_turns():
    return [
        (player, box, 0, (PD_BOB if player == "bob" else {}).get(box, PD_DICE[box]))
        for box in pdz.BOXES
        for player in ("ann", "bob")
    ]


def pd_by_hand(player: str) -> tuple[int, int, int]:
    """(upper bonus, colour bonus, total): 35 each for 63 or more."""
    dice_ = PD_DICE | (PD_BOB if player == "bob" else {})
    value = {b: pdz.score(b, dice_[b]) for b in pdz.BOXES}
    upper = sum(value[b] for b in pdz.UPPER)
    colour = sum(value[b] for b in pdz.CENTER)
    bonuses = (35 if upper >= 63 else 0, 35 if colour >= 63 else 0)
    return (*bonuses, upper + colour + sum(bonuses) + sum(value[b] for b in pdz.LOWER))


def column_status(page: Page, owner: str, column: int, status: str, multiplier: str) -> None:
    expect(page.locator(f"#g-board button[data-player='{owner}']")).to_have_attribute("aria-pressed", "true")
    head = page.locator("#g-board thead th.col-head").nth(column - 1)
    expect(head).to_have_class(re.compile(rf"\b{status}\b"))
    expect(head.locator(".col-mult")).to_have_text(multiplier)
    expect(head.locator(".col-note")).to_have_text(status)


def two_player_table(ann: Page, bob: Page, kind: str) -> None:
    """ann opens a table from the lobby, bob joins from the invite link, ann starts."""
    ui.new_game(ann, kind, seats=2)
    ui.join_from_link(bob, ui.invite_link(ann))
    ui.start(ann, bob, seats=2)


def test_triple_yahtzee_99_and_painted_dicez_played_to_the_end(visit, dice, served, snap):
    ann, bob = visit("ann"), visit("bob")
    ui.sign_up(ann, "ann")
    ui.sign_up(bob, "bob")
    pages = {"ann": ann, "bob": bob}

    # Triple Yahtzee 99: 96 turns, of which the players click the first two, the three where columns
    # change status (ann's column 1 upgrades at turn 26, bob's columns 2 and 3 are blocked at turn 27,
    # and the next turn shows bob's card) and the last lap; the game core's services play the others.
    turns = ty_turns()
    texts = engine_texts(ty, ["ann", "bob"], turns)
    upgrade, last_lap = 26, len(turns) - 2
    assert texts[upgrade].endswith("Column 1 is upgraded to 2x.")
    assert "can never upgrade" in texts[upgrade + 1]
    dice(*[d for *_, d in turns])
    two_player_table(ann, bob, "Triple Yahtzee 99")
    game_path = ann.url
    expect(ann.locator("#g-board thead")).to_contain_text("\u2192 \u00d72")

    # The pages show the card of the player to move: a column's new status is checked on both pages
    # once its owner is next to play. The player who has just scored still sees their own card (until
    # the next player's first roll), and turns to the owner's with its tab.
    checks: dict[str, list] = {}

    def milestones(i, player, text):
        for name, statuses in checks.items():
            for page in (ann, bob):
                if page is pages[player]:
                    tab = page.locator(f"#g-board button[data-player='{player}']")
                    expect(tab).to_have_attribute("aria-pressed", "true")
                    page.locator(f"#g-board button[data-player='{statuses[0][0]}']").click()
                for owner, column, status, multiplier in statuses:
                    column_status(page, owner, column, status, multiplier)
                # A click beside the tabs: Space is the pressed tab's own key while it has the focus.
                page.locator("#g-turn").click()
            check_axe(bob, name)
            snap(bob, name)
        checks.clear()
        if text.endswith("Column 1 is upgraded to 2x.") and player == "ann":
            checks["ty99-ann-column-1-upgraded"] = [("ann", 1, "upgraded", "\u00d72")]
        if "can never upgrade" in text:
            assert player == "bob" and "Column 2 meets the upgrade minimums before column 1" in text
            checks["ty99-bob-columns-2-3-blocked"] = [
                ("bob", 2, "blocked", "\u00d72"),
                ("bob", 3, "blocked", "\u00d73"),
            ]
        if i == 10:
            check_axe(ann, "Triple Yahtzee 99, early")
            snap(ann, "ty99-early")

    play_card_game(pages, turns[:2], texts[:2], after=milestones)
    served(game_path, card_moves(turns[2:11]), ann, bob)
    for page in (ann, bob):
        expect(page.locator("#g-last")).to_have_text(texts[10])
    milestones(10, turns[10][0], texts[10])
    served(game_path, card_moves(turns[11:upgrade]), ann, bob)
    play_card_game(
        pages, turns[upgrade : upgrade + 3], texts[upgrade : upgrade + 3], after=milestones, first=upgrade
    )
    assert not checks
    served(game_path, card_moves(turns[upgrade + 3 : last_lap]), ann, bob)
    play_card_game(pages, turns[last_lap:], texts[last_lap:], after=milestones, first=last_lap)
    log_shows_the_last_turns(pages, texts, at_least=10)
    ty_totals = {p: ty_by_hand(p) for p in pages}
    assert ty_totals == {"ann": 4840, "bob": 3388}
    expect(ann.locator("#g-end .verdict")).to_have_text(f"You win with {ty_totals['ann']} points!")
    expect(bob.locator("#g-end .verdict")).to_have_text(f"ann wins with {ty_totals['ann']} points!")
    for page in (ann, bob):
        for player, total in ty_totals.items():
            expect(score_of(page, player)).to_have_text(str(total))
    for player in ("ann", "bob"):
        ann.locator(f"#g-board button[data-player='{player}']").click()
        expect(ann.locator("#g-board tfoot")).to_contain_text(str(ty_totals[player]))
        statuses = ann.locator("#g-board thead th.col-head .col-note")
        expected = ["upgraded"] * 3 if player == "ann" else ["upgraded", "blocked", "blocked"]
        expect(statuses).to_have_text(expected)
    ann.locator("#g-board button[data-player='ann']").click()
    check_axe(ann, "Triple Yahtzee 99, game over")
    screens(ann, snap, "ty99-over")

    # Painted DiceZ: 40 turns; ann's first is played by keyboard, the services play on to the last lap,
    # which both click.
    turns = pd_turns()
    texts = engine_texts(pdz, ["ann", "bob"], turns)
    last_lap = len(turns) - 2
    dice(*[d for *_, d in turns])
    two_player_table(ann, bob, "Painted DiceZ")
    game_path = ann.url
    expect(ann.locator("#g-turn")).to_contain_text("Your turn")
    ann.keyboard.press("Space")
    expect(ann.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    check_axe(ann, "Painted DiceZ, rolled")
    check_axe(bob, "Painted DiceZ, the other's turn")
    score_box(ann, turns[0][1], 0)
    expect(bob.locator("#g-last")).to_have_text(texts[0])
    served(game_path, card_moves(turns[1:last_lap]), ann, bob)
    play_card_game(pages, turns[last_lap:], texts[last_lap:])
    log_shows_the_last_turns(pages, texts, at_least=10)
    pd_totals = {p: pd_by_hand(p) for p in pages}
    assert pd_totals == {"ann": (35, 35, 513), "bob": (35, 35, 463)}
    expect(ann.locator("#g-end .verdict")).to_have_text("You win with 513 points!")
    expect(bob.locator("#g-end .verdict")).to_have_text("ann wins with 513 points!")
    for player, (upper_bonus, colour_bonus, total) in pd_totals.items():
        bob.locator(f"#g-board button[data-player='{player}']").click()
        card = bob.locator("#g-board")
        expect(card.locator("tr.sum-row", has_text="Upper bonus (63+)").locator("td")).to_have_text(
            str(upper_bonus)
        )
        expect(card.locator("tr.sum-row", has_text="Color bonus (63+)").locator("td")).to_have_text(
            str(colour_bonus)
        )
        expect(card.locator("tfoot")).to_contain_text(str(total))
    expect(cell(bob, "dicez")).to_have_text("0")  # bob's card is on show: his scratched DiceZ
    bob.locator("#g-board button[data-player='ann']").click()
    check_axe(bob, "Painted DiceZ, game over")
    screens(bob, snap, "painted-dicez-over")

    # The replay shows both cards side by side, read-only, with the last box scored marked.
    ui.main_nav(bob).get_by_role("link", name="Stats").click()
    bob.get_by_role("link", name="Finished games").click()
    bob.get_by_role("link", name=re.compile(r"^Painted DiceZ #\d+$")).click()
    expect(bob.locator("#replay-position")).to_have_text("Step 80 of 80")
    expect(bob.locator(".replay-card .card-caption")).to_have_text(["ann · 513 points", "bob · 463 points"])
    expect(bob.locator(".replay-card[data-player='bob'] td.just-scored")).to_have_attribute(
        "data-box", "chance"
    )
    bob.keyboard.press("ArrowLeft")
    expect(bob.locator("#replay-event")).to_have_text("bob rolled red 6, blue 6, green 5, yellow 5, pink 4.")
    expect(bob.locator("#replay-dice [data-key='1']")).to_have_attribute("aria-label", "Die 1: six, red")
    check_axe(bob, "Painted DiceZ replay")
    screens(bob, snap, "painted-dicez-replay")


# --- journey 5: the creator removes a member ----------------------------------------------------


def group_table_with_bob(ann: Page, bob: Page) -> tuple[str, str]:
    """Both sign up; ann makes the group "Friday Dice" with bob in it and starts a two-seat Triple
    Quintzee table of the group with him. Returns the group's and the game's paths."""
    ui.sign_up(ann, "ann")
    ui.sign_up(bob, "bob")
    group_path = ui.create_group(ann, "Friday Dice")
    ui.add_member(ann, "bob")
    ann.get_by_role("link", name="New group game").click()
    game_path = ui.fill_lobby(ann, "Triple Quintzee", seats=2, group="Friday Dice")
    ui.join_from_link(bob, ui.invite_link(ann))
    ui.start(ann, bob, seats=2)
    return group_path, game_path


def test_a_removed_member_loses_the_group_and_its_games_at_once(visit, dice, snap):
    ann, bob = visit("ann"), visit("bob")
    visit.allow(r"Failed to load resource: the server responded with a status of 403")
    visit.allow(r"Failed to load resource: the server responded with a status of 404")
    group_path, game_path = group_table_with_bob(ann, bob)
    dice([2, 2, 4, 5, 6])
    ann.keyboard.press("Space")
    watch_die(bob, 5, 6)

    # ann manages the group in another tab while the game stays open in the first.
    admin = visit.tab(ann, "ann")
    admin.goto(group_path)
    admin.once("dialog", lambda dialog: dialog.accept())  # "Remove bob from …?"
    admin.get_by_role("button", name="Remove bob").click()
    expect(admin.locator(".messages")).to_contain_text("Member removed.")
    expect(admin.locator(".member-list li")).to_have_text(["ann creator"])
    snap(admin, "ann-removed-bob")

    # bob's open game page is cut off at once, and says why; it does not try to reconnect.
    expect(bob.locator("#g-conn")).to_have_text("This game belongs to a group you are not a member of.")
    expect(bob.get_by_role("alert")).to_have_text("You are no longer a member of this game's group.")
    expect(bob.locator("#game-root")).to_have_attribute("data-conn", "closed")
    expect(bob.locator(".g-layout")).to_have_css("pointer-events", "none")  # greyed out, nothing to press
    expect(ann.locator("#g-players li[data-player='bob'] .dot")).to_have_class(re.compile(r"\boffline\b"))
    check_axe(bob, "game page, cut off")
    snap(bob, "bob-cut-off")

    # A reload, the group page and the group list: all closed to him now, as if they were not there
    # (a private group shows nothing of itself to outsiders).
    response = bob.reload()
    assert response.status == 404
    expect(bob.get_by_role("heading", level=1)).to_have_text("No page here")
    expect(bob.locator("main")).not_to_contain_text("Friday Dice")
    expect(bob.locator("#game-root")).to_have_count(0)
    check_axe(bob, "game page, not his any more")
    snap(bob, "bob-game-404")
    response = bob.goto(group_path)
    assert response.status == 404
    expect(bob.locator("main")).not_to_contain_text("Friday Dice")
    ui.main_nav(bob).get_by_role("link", name="Groups").click()
    expect(bob.locator("main")).to_contain_text("You are not in a group yet.")
    check_axe(bob, "group list, empty")
    assert game_path in ann.url
    # Removed, bob resigned from the group's game; he had not moved yet, so the game is
    # aborted rather than won (docs/ratings.md).
    expect(ann.locator("#g-end-title")).to_have_text("Game aborted")
    expect(ann.locator("#g-players li[data-player='bob']")).to_contain_text("resigned")


def test_a_member_removed_while_offline_is_told_why_when_back(visit, dice, snap):
    """The refusal at the handshake reaches a browser without its close code (HTTP 403): the page asks
    the game page why, instead of retrying for ever."""
    ann, bob = visit("ann"), visit("bob")
    visit.allow(r"Failed to load resource: the server responded with a status of 403")
    visit.allow(r"Failed to load resource: the server responded with a status of 404")
    visit.allow(r"WebSocket connection to .* failed")
    group_path, _ = group_table_with_bob(ann, bob)

    bob.context.set_offline(True)
    expect(bob.locator("#g-conn")).to_have_text("Reconnecting…")
    admin = visit.tab(ann, "ann")
    admin.goto(group_path)
    admin.once("dialog", lambda dialog: dialog.accept())  # "Remove bob from …?"
    admin.get_by_role("button", name="Remove bob").click()
    expect(admin.locator(".messages")).to_contain_text("Member removed.")

    bob.context.set_offline(False)
    expect(bob.locator("#g-conn")).to_have_text("There is no such game, or it is not open to you.")
    expect(bob.get_by_role("alert")).to_have_text("You can no longer see this game.")
    expect(bob.locator("#game-root")).to_have_attribute("data-conn", "closed")
    snap(bob, "bob-refused-on-reconnect")


# --- journey 6: the network drops mid-turn -------------------------------------------------------


def test_a_dropped_connection_catches_up_without_a_reload(visit, dice, snap):
    ann, bob = visit("ann"), visit("bob")
    visit.allow(r"WebSocket connection to .* failed")
    ui.sign_up(ann, "ann")
    ui.sign_up(bob, "bob")
    two_player_table(ann, bob, "Triple Quintzee")
    dice([3, 3, 2, 5, 1], [3, 6, 6], [6, 6, 6, 6, 6], [4, 4, 1, 2, 3], [4, 4, 4])
    for page in (ann, bob):
        page.evaluate("window.stillTheSamePage = true")

    ann.keyboard.press("Space")
    watch_die(bob, 1, 3)

    # bob's network drops while ann is in the middle of her turn.
    bob.context.set_offline(True)
    expect(bob.locator("#g-conn")).to_have_text("Reconnecting…")
    # ann holds the threes, rolls again and scores a full house while bob is away.
    die(ann, 1).click()
    die(ann, 2).click()
    ann.get_by_role("button", name="Roll 2 of 3").click()
    expect(ann.locator("#roll-count")).to_have_text("2 of 3 rolls used")
    score_box(ann, "full_house", 1)
    expect(score_of(ann, "ann")).to_have_text("75")
    expect(bob.locator("#roll-count")).to_have_text("1 of 3 rolls used")  # bob's page cannot know yet
    expect(score_of(bob, "ann")).to_have_text("0")
    check_axe(bob, "game page, reconnecting")
    snap(bob, "bob-reconnecting")

    bob.context.set_offline(False)
    expect(bob.locator("#game-root")).to_have_attribute("data-conn", "open")
    expect(bob.locator("#g-conn")).to_be_hidden()
    expect(score_of(bob, "ann")).to_have_text("75")
    expect(bob.locator("#g-turn")).to_have_text("Your turn")
    log = bob.locator("#g-log li[data-seq]")
    expect(log).to_have_text(
        [
            "ann rolled 3, 3, 2, 5, 1.",
            "ann held 2 dice and rolled again: 3, 3, 3, 6, 6 (roll 2 of 3).",
            "ann scored 25 in Full House, column 3."
            " It goes to column 3, the right-most empty Full House box.",
        ]
    )
    expect(ann.locator("#g-players li[data-player='bob'] .dot")).to_have_class(re.compile(r"\bonline\b"))
    assert bob.evaluate("window.stillTheSamePage") is True
    snap(bob, "bob-caught-up")

    # And the connection works both ways again: bob's Quintzee reaches ann live.
    ui.roll_and_score(bob, "quintzee", 1)
    expect(ann.locator("#g-last")).to_have_text(
        "bob scored 50 in Quintzee, column 3. It goes to column 3, the right-most empty Quintzee box."
    )

    # Now ann's own network drops in the middle of her turn: the roll she asks for while offline goes
    # out when she is back, once.
    ann.keyboard.press("Space")
    watch_die(bob, 5, 3)
    ann.context.set_offline(True)
    expect(ann.locator("#g-conn")).to_have_text("Reconnecting…")
    die(ann, 1).click()
    die(ann, 2).click()
    ann.keyboard.press("Space")
    # The page says that the roll waits, beside the buttons, until it is sent and acknowledged.
    expect(ann.locator("#g-queued")).to_have_text("Your roll will be sent as soon as you are back online.")
    snap(ann, "ann-rolls-while-offline")
    expect(bob.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    ann.context.set_offline(False)
    for page in (ann, bob):
        expect(page.locator("#roll-count")).to_have_text("2 of 3 rolls used")
        expect(die(page, 5)).to_have_attribute("aria-label", "Die 5: four")
        expect(page.locator("#g-log li[data-seq]")).to_have_count(7)
    expect(ann.locator("#g-conn")).to_be_hidden()
    expect(ann.locator("#g-queued")).to_be_empty()
    assert ann.evaluate("window.stillTheSamePage") is True
