"""A player's first steps: "Play solo now" is one click from a solo table of the
game chosen, an invited player sees who invites them and the way in before anything else, a solo game
ends with its total (and a personal best) instead of a win, and starting one's own game tells oneself
nothing. At 1280x800 and as a 390x844 touch phone, light and dark, in English and in German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.tables import services
from notices.models import Notice
from tests.browser.helpers import die, off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _shot, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import check_axe

pytestmark = pytest.mark.browser

DEVICES = {"desktop": DESKTOP, "phone": PHONE}
CASES = [
    ("en", "desktop", "light"),
    ("en", "phone", "dark"),
    ("de", "phone", "light"),
    ("de", "desktop", "dark"),
]


def _latest(user) -> Game:
    return off_loop(lambda: Game.objects.filter(creator=user).latest("pk"))


# --- Play solo now ---------------------------------------------------------------------------------------

SOLO = {
    "en": {
        "button": "Play solo now",
        "heading": "Play solo",
        "game": "What to play",
        "goal": "Farkle goal",
        "start": "Start the solo game",
        "turn": "Your turn",
    },
    "de": {
        "button": "Jetzt allein spielen",
        "heading": "Allein spielen",
        "game": "Was gespielt wird",
        "goal": "Farkle-Ziel",
        "start": "Spiel allein starten",
        "turn": "Du bist dran",
    },
}


@pytest.mark.parametrize(("language", "device", "scheme"), CASES)
def test_play_solo_now_is_one_click_from_a_solo_table(open_as, make_user, language, device, scheme):  # noqa: F811
    words = SOLO[language]
    ann = make_user("ann", language=language)
    page = open_as(ann, DEVICES[device], scheme)
    page.goto("/")
    page.locator("main").get_by_role("link", name=words["button"]).click()
    # The page's first card is the solo form: its heading is the page's one h1.
    expect(page.get_by_role("heading", level=1)).to_have_text(words["heading"])
    form = page.locator("#solo-form")
    assert form.bounding_box()["y"] < page.locator("#computer-form").bounding_box()["y"]
    # Nothing but what a solo table needs: the game and its own options.
    expect(form.locator("select:visible, input:visible")).to_have_count(1)
    expect(form.get_by_label(words["goal"])).to_be_hidden()
    form.get_by_label(words["game"]).select_option("farkle")
    expect(form.get_by_label(words["goal"])).to_be_visible()
    form.get_by_label(words["goal"]).select_option("3000")
    _shot(page, f"solo-card-{language}-{device}-{scheme}")
    check_axe(page, f"the solo card ({language}, {device}, {scheme})")
    form.get_by_role("button", name=words["start"]).click()
    # One click: the table is set and started, the player's first roll waits.
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Farkle (3000)")
    expect(page.locator("#g-turn")).to_have_text(words["turn"])
    game = _latest(ann)
    assert (game.max_seats, game.status, game.options) == (1, "playing", {"goal": 3000, "dice": 6})


# --- the invitation link, signed in ----------------------------------------------------------------------

INVITED = {
    "en": {
        "invites": "ann invites you to play Farkle (5000)",
        "join": "Join this game",
        "share": "Invite friends with this link:",
        "seated": "You have a seat. Wait for the start.",
    },
    "de": {
        "invites": "ann lädt dich zu einer Partie Farkle (5000) ein",
        "join": "Mitspielen",
        "share": "Lade Freunde mit diesem Link ein:",
        "seated": "Du hast einen Platz. Warte auf den Start.",
    },
}


@pytest.mark.parametrize(("language", "device", "scheme"), CASES)
def test_an_invited_player_sees_who_invites_them_and_joins_first(
    open_as,  # noqa: F811
    make_user,
    language,
    device,
    scheme,
):
    words = INVITED[language]
    ann, bob = make_user("ann"), make_user("bob", language=language)
    game = off_loop(lambda: services.game_create(creator=ann, kind="farkle", options={"goal": 5000}, seats=3))
    page = open_as(bob, DEVICES[device], scheme)
    page.goto(f"/games/{game.pk}/")
    room = page.locator("#waiting-room")
    invitation = room.get_by_role("heading", level=2).first
    expect(invitation).to_have_text(words["invites"])
    join = room.get_by_role("button", name=words["join"])
    expect(join).to_be_visible()
    # The invitation and its button come first; passing the link on is for those seated.
    assert join.bounding_box()["y"] < room.locator("#seat-list").bounding_box()["y"]
    expect(room).not_to_contain_text(words["share"])
    expect(room.locator("[data-share]")).to_have_count(0)
    _shot(page, f"invited-{language}-{device}-{scheme}")
    check_axe(page, f"the invitation, signed in ({language}, {device}, {scheme})")
    join.click()
    expect(page.locator(".messages")).to_contain_text(words["seated"])
    expect(room.get_by_role("button", name=words["join"])).to_have_count(0)
    expect(room).to_contain_text(words["share"])
    expect(room.locator("[data-share-copy]")).to_be_visible()
    _shot(page, f"invited-seated-{language}-{device}-{scheme}")
    check_axe(page, f"the waiting room, seated ({language}, {device}, {scheme})")


# --- a solo game's end -------------------------------------------------------------------------------------

END = {
    "en": {
        "title": "Game over: 10000 points after 1 lap",
        "best": "A personal best: your best Farkle (3000) result so far!",
        "last": "The game is over: ann reached the goal with 10000 points after 1 lap.",
        "goal": "ann reached the goal of 3000.",
    },
    "de": {
        "title": "Spiel vorbei: 10.000 Punkte nach 1 Runde",
        "best": "Persönliche Bestleistung: dein bisher bestes Ergebnis in Farkle (3000)!",
        "last": "Das Spiel ist aus: ann hat das Ziel mit 10.000 Punkten nach 1 Runde erreicht.",
        "goal": "ann hat das Ziel von 3000 erreicht.",
    },
}


@pytest.fixture
def dice_here(dice, dice_script, settings):
    """The scripted dice for the services this test calls itself, as for the served site."""
    settings.DICE_SOURCE = "scripted"
    settings.DICE_SCRIPT_PATH = str(dice_script)
    return dice


def _solo_to_the_goal(user, dice, farkles: int) -> None:
    """A finished solo game to 3000: ``farkles`` lost laps, then five 1s banked (10000)."""

    def play():
        game = services.game_create(creator=user, kind="farkle", options={"goal": 3000}, seats=1)
        for n in range(farkles):
            dice([2, 2, 3, 3, 4, 6])
            services.game_apply_action(game_id=game.pk, user=user, client_id=f"f{n}", action={"type": "roll"})
        dice([1, 1, 1, 1, 1, 2])
        services.game_apply_action(game_id=game.pk, user=user, client_id="r", action={"type": "roll"})
        keep = {"type": "bank", "keep": [0, 1, 2, 3, 4]}
        services.game_apply_action(game_id=game.pk, user=user, client_id="b", action=keep)

    off_loop(play)


@pytest.mark.parametrize(("language", "device", "scheme"), CASES)
def test_a_finished_solo_game_says_its_total_and_a_personal_best(
    open_as,  # noqa: F811
    make_user,
    dice_here,
    language,
    device,
    scheme,
):
    words = END[language]
    ann = make_user("ann", language=language)
    _solo_to_the_goal(ann, dice_here, farkles=1)  # an earlier game: 2 laps
    game = off_loop(lambda: services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=1))
    page = open_as(ann, DEVICES[device], scheme)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")
    dice_here([1, 1, 1, 1, 1, 2])
    page.locator("#roll-button").click()
    expect(die(page, 6)).to_have_attribute("aria-label", re.compile("two|zwei"))
    for n in range(1, 6):
        die(page, n).click()
    page.locator("#bank-button").click()
    end = page.locator("#g-end")
    expect(end.get_by_role("heading", level=2)).to_have_text(words["title"])
    expect(end.locator("#personal-best")).to_have_text(words["best"])
    expect(page.locator("#g-last")).to_have_text(re.compile(re.escape(words["last"]) + "$"))
    # The goal as the game's name writes it, in every language; the points as the reader writes them.
    expect(page.locator("#g-last")).to_contain_text(words["goal"])
    for text in (end, page.locator("#g-last"), page.locator("#g-log"), page.locator("#g-players")):
        expect(text).not_to_contain_text(re.compile("win|gewinnt|Sieg", re.IGNORECASE))
    _shot(page, f"solo-end-best-{language}-{device}-{scheme}")
    check_axe(page, f"a solo game's end ({language}, {device}, {scheme})")
    # A reload says the same: the snapshot brings the seat's personal best.
    page.reload()
    expect(page.locator("#g-end #personal-best")).to_have_text(words["best"])


def test_a_solo_game_that_is_no_best_says_only_its_total(open_as, make_user, dice_here):  # noqa: F811
    ann = make_user("ann")
    _solo_to_the_goal(ann, dice_here, farkles=0)
    _solo_to_the_goal(ann, dice_here, farkles=2)
    page = open_as(ann, PHONE)
    page.goto(f"/games/{_latest(ann).pk}/")
    end = page.locator("#g-end")
    expect(end.get_by_role("heading", level=2)).to_have_text("Game over: 10000 points after 3 laps")
    expect(end.locator("#personal-best")).to_have_count(0)
    expect(end).not_to_contain_text("win")


# --- starting one's own game --------------------------------------------------------------------------


def test_starting_ones_own_game_adds_no_notice_to_oneself(open_as, make_user):  # noqa: F811
    """Notices are for what others did: a solo game, one against the computer, one with a friend (whom
    its start is told) and the next game of it, asked for by the starter, leave the starter's bell as it
    was; the friend's acceptance, which starts that next game, is the friend's doing and is told."""
    ann, bob = make_user("ann"), make_user("bob")
    page = open_as(ann, DESKTOP)
    page.goto("/games/?seats=1")
    page.locator("#solo-form").get_by_role("button").click()
    expect(page.locator("#g-turn")).to_have_text("Your turn")
    page.goto("/games/")
    page.locator("#computer-form").get_by_role("button").click()
    expect(page.locator("#g-turn")).to_be_visible()
    friends = off_loop(lambda: services.game_create(creator=ann, kind="farkle", seats=2))
    off_loop(lambda: services.game_join(game_id=friends.pk, user=bob))
    page.goto(f"/games/{friends.pk}/")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#g-turn")).to_have_text("Your turn")
    off_loop(
        lambda: services.game_apply_action(
            game_id=friends.pk, user=ann, client_id="r", action={"type": "resign"}
        )
    )
    page.reload()
    page.locator("#play-again").click()
    expect(page.locator("#waiting-room")).to_be_visible()
    assert off_loop(lambda: list(Notice.objects.filter(user=ann))) == []  # nothing of her own doing
    # bob, asked, presses too: his press starts the next game, ann to move, and ann is told he did.
    nxt = off_loop(lambda: services.game_play_again(game_id=friends.pk, user=bob))
    told = off_loop(lambda: [(n.text % n.params) for n in Notice.objects.filter(user=ann)])
    assert told == [f"bob started {nxt.kind_name} #{nxt.pk}."]
    # ann's waiting room hears the start and shows the game; then she leaves for the home page.
    expect(page.locator("#g-turn")).to_have_text("Your turn")
    page.goto("/")
    page.locator("#notices summary").click()
    # bob's start, and ann's turn in that game (bob waits for her); no notice of her own doing.
    expect(page.locator("#notices .notices-list li")).to_have_count(2)
    expect(page.locator("#notices .notices-list")).to_contain_text("Your turn")
    expect(page.locator("#notices .notices-list")).to_contain_text(f"bob started {nxt.kind_name} #{nxt.pk}.")
