"""Fair dice in Chromium (docs/fair-dice.md): a player's client seed made by the browser at the join and
typed on the table page, then the replay of the finished game checking every roll with WebCrypto, and
pointing at the first roll that does not match once one stored roll is changed."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

from games import fair_dice
from games.models import Action, Game, Seat
from games.tables import services
from tests.browser.helpers import ConsoleWatch, off_loop
from tests.e2e.axe import axe_violations
from tests.games.test_replays import longest, play_out


@pytest.fixture
def players(transactional_db, make_user):
    return make_user("ann"), make_user("bob")


def test_the_seeds_the_replays_check_and_a_tampered_roll(players, login_as, shot):
    ann, bob = players
    game = off_loop(services.game_create, creator=ann, kind="painted-dicez", seats=2)
    watch = ConsoleWatch()
    page = watch.watch(login_as(bob), "bob")

    # The invitation: the join form carries a seed the browser made.
    page.goto(f"/games/{game.pk}/")
    made = page.locator("#waiting-room input[name='client_seed']")
    expect(made).to_have_value(re.compile(r"^[A-Za-z0-9_-]{22}$"))
    browser_seed = made.input_value()
    page.locator("#join-button").click()
    expect(page.locator("#fair-commitment")).to_have_text(game.seed_commitment)
    assert Seat.objects.get(game=game, user=bob).client_seed == browser_seed
    expect(page.locator("#client-seed")).to_have_value(browser_seed)
    assert game.server_seed not in page.content()

    # Bob types his own.
    page.locator("#client-seed").fill("bobs-own_seed-42")
    page.locator("#client-seed-form button").click()
    expect(page.locator("#client-seed")).to_have_value("bobs-own_seed-42")
    assert Seat.objects.get(game=game, user=bob).client_seed == "bobs-own_seed-42"
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#fair-dice").scroll_into_view_if_needed()
        shot(page, f"table-fair-dice-{width}")
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    page.set_viewport_size({"width": 1280, "height": 800})

    # The game, played out through the services with the derived dice.
    off_loop(services.game_start, game_id=game.pk, user=ann)
    game = off_loop(play_out, Game.objects.get(pk=game.pk), [ann, bob], longest(random.Random(3)))
    assert game.status == Game.Status.FINISHED and game.client_seeds == [
        Seat.objects.get(game=game, user=ann).client_seed,
        "bobs-own_seed-42",
    ]
    rolls = sum(len(a.dice) for a in game.actions.all())

    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#fair-server-seed")).to_have_text(game.server_seed)

    page.goto(f"/games/{game.pk}/replay/")
    check = page.locator("#fair-check")
    expect(check).to_have_text(f"Every one of the {rolls} rolls matches the committed seed.")
    expect(check).to_have_attribute("data-result", "ok")
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.locator("#fair-dice details").evaluate("d => { d.open = true; }")
            page.locator("#fair-dice").scroll_into_view_if_needed()
            shot(page, f"replay-fair-dice-{width}-{scheme}")
            overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, f"the replay scrolls sideways at {width} px"
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 1280, "height": 800})

    # One die of one roll in the middle changed in the log: the page names that roll.
    actions = [a for a in game.actions.order_by("seq") if a.dice]
    target = actions[len(actions) // 2]
    before = sum(len(a.dice) for a in actions if a.seq < target.seq)
    dice = [list(map(list, roll)) for roll in target.dice]
    dice[0][0][0] = dice[0][0][0] % 6 + 1
    Action.objects.filter(pk=target.pk).update(dice=dice)
    page.reload()
    expect(check).to_have_attribute("data-result", "mismatch")
    expect(check).to_contain_text(f"Roll {before + 1} does not match the committed seed: step {target.seq} ")
    page.locator("#fair-show-step").click()
    expect(page.locator("#replay-position")).to_have_text(re.compile(rf"^Step {target.seq} of "))
    shot(page, "replay-fair-dice-mismatch-1280")
    assert fair_dice.commitment(game.server_seed) == game.seed_commitment
    watch.check()


def test_the_end_reveals_the_seed_on_the_open_game_page(players, login_as):
    """The page that watches the game end shows the server seed without a reload: the ending event
    carries it (docs/protocol.md); before, the page holds the commitment alone."""
    ann, bob = players
    game = off_loop(services.game_create, creator=ann, kind="farkle", seats=2)
    off_loop(services.game_join, game_id=game.pk, user=bob)
    off_loop(services.game_start, game_id=game.pk, user=ann)
    watch = ConsoleWatch()
    page = watch.watch(login_as(bob), "bob")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#fair-revealed")).to_be_hidden()
    expect(page.locator("#fair-server-seed")).to_have_text("")
    assert game.server_seed not in page.content()
    page.click("#resign-button")
    page.click("#resign-confirm")
    expect(page.locator("#g-end-title")).to_have_text("Game aborted")  # bob resigned before moving
    expect(page.locator("#fair-server-seed")).to_have_text(game.server_seed)
    # Inside the panel (a closed <details> until the reader opens it).
    assert page.locator("#fair-revealed").evaluate("el => el.hidden") is False
    assert page.locator("#fair-pending").evaluate("el => el.hidden") is True
    page.locator("#fair-dice summary").click()
    expect(page.locator("#fair-revealed")).to_be_visible()
    expect(page.locator("#fair-pending")).to_be_hidden()
    watch.check()


def test_the_page_brings_a_new_seed_to_play_again_after_the_end(players, login_as):
    """Once the game is over, bob's page makes a seed in the browser for its "Play again" (whose server
    seed the game committed to from its creation: next_commitment) and sends it; the Play again form
    brings the same seed, and the next game is dealt with it."""
    ann, bob = players
    game = off_loop(services.game_create, creator=ann, kind="farkle", seats=2)
    off_loop(services.game_join, game_id=game.pk, user=bob)
    off_loop(services.game_start, game_id=game.pk, user=ann)
    watch = ConsoleWatch()
    page = watch.watch(login_as(bob), "bob")
    page.goto(f"/games/{game.pk}/")
    page.click("#resign-button")
    page.click("#resign-confirm")
    expect(page.locator("#g-end-title")).to_have_text("Game aborted")  # bob resigned before moving
    sent = page.locator("#g-end form.again input[name=client_seed]")
    expect(sent).to_have_count(1)
    seed = sent.get_attribute("value")
    assert fair_dice.valid_client_seed(seed)
    deadline = time.monotonic() + 10
    while Seat.objects.get(game=game, user=bob).next_client_seed != seed:
        assert time.monotonic() < deadline, "the page's seed for the next game never arrived"
        time.sleep(0.1)
    page.click("#play-again")
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    new = Game.objects.get(rematch_of=game)
    # bob's press seats him alone (ann is asked), with the seed his page made once the game was over.
    assert Seat.objects.get(game=new, user=bob).client_seed == seed
    assert new.server_seed == Game.objects.get(pk=game.pk).next_server_seed
    watch.check()


def test_the_fair_dice_page_explains_and_checks_a_game_by_its_number(
    players, login_as, browser, server, shot
):
    """The panels spoke in seeds and hex and ended with "docs/fair-dice.md" (no link): they now say it
    plainly first and link the fair dice page, which explains and checks a game in the browser."""
    ann, bob = players
    game = off_loop(services.game_create, creator=ann, kind="painted-dicez", seats=2)
    off_loop(services.game_join, game_id=game.pk, user=bob)
    off_loop(services.game_start, game_id=game.pk, user=ann)
    running = off_loop(services.game_create, creator=ann, kind="quintzee", seats=1)
    game = off_loop(play_out, Game.objects.get(pk=game.pk), [ann, bob], longest(random.Random(5)))
    rolls = sum(len(a.dice) for a in game.actions.all())
    watch = ConsoleWatch()
    page = watch.watch(login_as(ann), "ann")

    page.goto(f"/games/{game.pk}/replay/")
    panel = page.locator("#fair-dice")
    expect(panel.locator(".fair-plain")).to_contain_text("Nobody could choose these dice")
    panel.locator("details").evaluate("d => { d.open = true; }")
    panel.get_by_role("link", name="How fair dice work, and how to check them yourself").click()
    expect(page.get_by_role("heading", name="Fair dice", level=1)).to_be_visible()
    result = page.locator("#fair-result")
    expect(result).to_have_text(f"Game {game.pk}: Every one of the {rolls} rolls matches the committed seed.")
    expect(result).to_have_attribute("data-result", "ok")

    page.goto(f"/games/{running.pk}/")
    page.locator("#fair-dice summary").click()
    page.locator("#fair-dice").get_by_role("link", name="How fair dice work").click()
    expect(result).to_contain_text(f"Game {running.pk} is not over yet")

    # A changed roll is named, by the same words as the replay's.
    target = [a for a in game.actions.order_by("seq") if a.dice][3]
    before = sum(len(a.dice) for a in game.actions.filter(seq__lt=target.seq))
    dice = [list(map(list, roll)) for roll in target.dice]
    dice[0][0][0] = dice[0][0][0] % 6 + 1
    Action.objects.filter(pk=target.pk).update(dice=dice)
    page.locator("#fair-game").fill(str(game.pk))
    page.get_by_role("button", name="Check the rolls").click()
    expect(result).to_have_attribute("data-result", "mismatch")
    expect(result).to_contain_text(f"Roll {before + 1} does not match the committed seed: step {target.seq} ")
    watch.allow(r"status of 404 \(Not Found\)")  # the missing game's record, asked for below
    page.locator("#fair-game").fill("999999")
    page.get_by_role("button", name="Check the rolls").click()
    expect(result).to_have_text("There is no game 999999 that you may see.")
    watch.check()

    # A visitor reads it too: a finished public game is a public page, checked by its number as a
    # player checks it; one still being played asks the visitor to sign in.
    for width, height, touch in ((1280, 800, False), (390, 844, True)):
        for scheme in ("light", "dark"):
            context = browser.new_context(
                base_url=server,
                viewport={"width": width, "height": height},
                has_touch=touch,
                is_mobile=touch,
                color_scheme=scheme,
            )
            visitor = context.new_page()
            if (width, scheme) == (1280, "light"):
                visitor.goto(f"/fair-dice/?game={game.pk}")
                expect(visitor.locator("#fair-result")).to_have_attribute("data-result", "mismatch")
                expect(visitor.locator("#fair-result")).to_contain_text(f"Roll {before + 1} does not match")
            visitor.goto(f"/fair-dice/?game={running.pk}")
            expect(visitor.locator("#fair-result")).to_have_text(
                "Sign in to check a game by its number, or choose a game file you downloaded."
            )
            overflow = visitor.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, f"the page scrolls sideways at {width} px"
            assert axe_violations(visitor) == [], (width, scheme)
            shot(visitor, f"fair-dice-page-{width}-{scheme}")
            context.close()
