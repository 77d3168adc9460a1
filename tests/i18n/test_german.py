"""The site in German: every page, e-mail and protocol message, with no English left; the
catalogues complete and compiled; English still the default."""

from __future__ import annotations

import gettext
import re

import pytest
from channels.db import database_sync_to_async
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import i18n
from games.rules import messages
from games.rules.errors import refused
from games.tables import services
from notices import feed
from tests.games.sockets import Client as Tab
from tests.games.sockets import new_table
from tests.i18n.english import LOCALE, english_left, read_po, visible_text
from tests.reliability import world as W
from tests.reliability.test_permissions import GET_CASES

# Pages the German test does not read: JSON, the health probe, Django's admin (Django's own German) and
# the JavaScript catalogue (its English keys are the point).
NOT_PAGES = re.compile(r"^(api-|admin-|healthz|jsi18n)")
ROLES = ("anonymous", "seated", "creator")


# --- the catalogues --------------------------------------------------------------------------------


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_catalogue_is_complete_and_the_compiled_one_matches_it(domain):
    entries = read_po(LOCALE / f"{domain}.po")
    assert len(entries) > 50
    assert [e["msgid"] for e in entries if "fuzzy" in e["flags"]] == []
    assert [e["msgid"] for e in entries if not all(e["msgstr"].values())] == []
    with (LOCALE / f"{domain}.mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)._catalog
    for e in entries:
        if e["plural"] is None:
            assert catalog.get(e["msgid"]) == e["msgstr"][0], (
                f"{domain}.mo is older than its .po: {e['msgid']!r}"
            )
        else:
            for n, text in e["msgstr"].items():
                assert catalog.get((e["msgid"], n)) == text, (
                    f"{domain}.mo is older than its .po: {e['msgid']!r}"
                )


def test_every_engine_message_and_word_is_in_the_catalogue():
    msgids = {e["msgid"] for e in read_po(LOCALE / "django.po")}
    for code, entry in messages.MESSAGES.items():
        assert (entry if isinstance(entry, str) else entry[0]) in msgids, code
    assert set(messages.WORDS) <= msgids


# --- every page ------------------------------------------------------------------------------------


def german_client(w, role: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    if role != "anonymous":
        user = w.users[role]
        user.language = "de"
        user.save(update_fields=["language"])
        client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_every_page_is_in_german(role):
    w = W.build()
    client = german_client(w, role)
    names = (*tuple(u.username for u in w.users.values()), "Friday dice", "Fridays.", "DiceHall")
    wrong, read = [], 0
    for case in GET_CASES:
        if NOT_PAGES.match(case.id):
            continue
        response = client.get(case.url(w), follow=True)
        if response.status_code in (405, 500) or "<html" not in response.content.decode():
            continue
        read += 1
        html = response.content.decode()
        assert '<html lang="de"' in html, case.id
        left = english_left(visible_text(html), names)
        if left:
            wrong.append(f"{case.id}: {left}")
    assert read > 20
    assert not wrong, "English on German pages:\n" + "\n".join(wrong)


@pytest.mark.django_db
def test_farkles_rules_page_is_in_german():
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get(reverse("games:rules", args=["farkle"])).content.decode()
    assert "Farkle (10000): so wird gespielt" in page
    assert "Heiße Würfel: bestätigen" in page
    assert english_left(visible_text(page), ("Ann", "Bob", "ann", "bob", "DiceHall")) == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("slug", "heading", "sentence"),
    [
        (
            "triple-quintzee",
            "Triple Quintzee: so wird gespielt",
            "Große Würfe nach rechts (die Rechts-außen-Regel)",
        ),
        ("triple-yahtzee-99", "Triple Yahtzee 99: so wird gespielt", "Yahtzee-Bonus, in Spalte 3 gewählt"),
        (
            "painted-dicez",
            "Painted DiceZ: so wird gespielt",
            'aria-label="Würfel 6 blau, 3 blau, 6 rot, 2 grün, 5 grün"',
        ),
        ("quintzee", "Quintzee: so wird gespielt", "also sind fünf Vieren ein Joker: 25, dazu 100."),
    ],
)
def test_the_card_games_rules_pages_are_in_german(slug, heading, sentence):
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get(reverse("games:rules", args=[slug])).content.decode()
    assert heading in page and sentence in page
    assert english_left(visible_text(page), ("DiceHall",)) == []


@pytest.mark.django_db
def test_a_browser_that_asks_for_nothing_or_english_gets_english():
    for header in ({}, {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.8"}, {"HTTP_ACCEPT_LANGUAGE": "fr"}):
        page = Client(**header).get(reverse("home")).content.decode()
        assert '<html lang="en"' in page and "Dice games with your friends, live." in page


@pytest.mark.django_db
def test_the_switch_keeps_the_language_on_the_player(make_user):
    ann = make_user("ann")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ann)
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.language == "de"
    # Another device of the same player, whose browser asks for English, gets German too.
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    other.force_login(ann)
    assert "Würfelspiele" not in other.get("/").content.decode()  # signed in: the player's home
    assert '<html lang="de"' in other.get("/").content.decode()
    # A visitor's choice is the cookie.
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    visitor.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert "Würfelspiele mit deinen Freunden, live." in visitor.get("/").content.decode()


# --- e-mails ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_password_reset_mail_is_in_german(make_user):
    make_user("ann", email="ann@example.com")
    Client(HTTP_ACCEPT_LANGUAGE="de").post(reverse("accounts:password_reset"), {"email": "ann@example.com"})
    (sent,) = mail.outbox
    assert "Wähle hier ein neues Passwort:" in sent.body
    assert english_left(sent.subject + " " + sent.body, ("ann", "DiceHall")) == []


@pytest.mark.django_db(transaction=True)
def test_the_turn_mail_is_in_the_players_language(make_user, settings):
    from tests.notices.test_turn_mail import at_table, end_turn, table, worker

    settings.TURN_MAIL_DAYS_AFTER = 0
    game, ann, bob = table(make_user)
    bob.language = "de"
    bob.save(update_fields=["language"])
    at_table(game, ann)
    end_turn(game, ann)
    worker()
    (sent,) = mail.outbox
    assert sent.subject == f"Du bist am Zug in Triple Quintzee #{game.pk}"
    assert "1 Tag pro Zug" in sent.body
    assert english_left(sent.body, ("bob", "DiceHall", "Triple Quintzee")) == []


@pytest.mark.django_db
def test_notices_are_read_in_the_readers_language_of_the_moment(make_user):
    ann, bob = make_user("ann"), make_user("bob", language="de")
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    german = f"ann hat Farkle (10000) #{game.pk} gestartet."
    assert [n["text"] for n in feed.read(bob, "de").notices] == [german]
    # bob changes his language afterwards: the notice written before is read in the new one.
    assert [n["text"] for n in feed.read(bob, "en").notices] == [f"ann started Farkle (10000) #{game.pk}."]
    with translation.override("de"):
        assert [n.message for n in feed.recent(bob)] == [german]


# --- protocol messages -----------------------------------------------------------------------------


NAMED = ("player", "by", "winner", "game", "box", "option", "action", "field")


def _sample(code: str) -> dict:
    entry = messages.MESSAGES[code]
    template = entry if isinstance(entry, str) else entry[1]
    params = {}
    for name in re.findall(r"%\((\w+)\)s", template):
        params[name] = {
            "label": "Full House",
            "dice": [[3, "blue"], [5, "red"]],
            "winners": ["ann", "bob"],
            "names": ["roll", "bank"],
        }.get(
            name,
            2
            if name not in ("player", "by", "winner", "game", "box", "option", "action", "field")
            else "ann",
        )
    return params


@pytest.mark.parametrize("code", sorted(messages.MESSAGES))
def test_every_engine_message_reads_in_german(code):
    params = _sample(code)
    with translation.override("en"):
        english = i18n.one(code, params)
    with translation.override("de"):
        german = i18n.one(code, params)
    assert english == messages.english([messages.msg(code, **params)])
    if code not in ("die.painted",):
        assert german != english, code
    assert english_left(german, ("ann", "bob", "Full House", "roll", "bank")) == [], german


def test_a_refusal_keeps_its_english_and_says_german_from_its_code():
    exc = refused("farkle.minimum", minimum=300, points=250)
    assert str(exc) == "You need at least 300 points to bank; this turn has 250."
    with translation.override("de"):
        assert i18n.refusal(exc) == "Zum Aufschreiben brauchst du mindestens 300 Punkte; dieser Zug hat 250."
        assert i18n.number(10350) == "10.350"
    with translation.override("en"):
        assert i18n.number(10350) == "10350"


@pytest.mark.django_db(transaction=True)
async def test_each_socket_hears_errors_in_its_readers_language_and_events_carry_codes(
    make_user, scripted_dice
):
    ann = await database_sync_to_async(make_user)("ann", language="de")
    bob = await database_sync_to_async(make_user)("bob")
    game = await new_table(ann, [bob], "farkle", {"goal": 3000})
    scripted_dice([5, 2, 3, 4, 6, 6])
    a, b = Tab(ann, game.pk), Tab(bob, game.pk)
    await a.open()
    await b.open()
    refused_bob = await b.act({"type": "roll", "keep": []})
    assert refused_bob["message"] == "It is not your turn."
    ack = await a.act({"type": "bank", "keep": []})
    assert ack["message"] == "Würfle, bevor du aufschreibst."
    await a.act({"type": "roll", "keep": []})
    event = await b.until_seq(1)
    said = event["result"]["msg"]
    assert said == [{"code": "rolled", "params": {"player": "ann", "dice": "5 2 3 4 6 6"}}]
    with translation.override("de"):
        assert i18n.render(said) == "ann würfelte 5 2 3 4 6 6."
    assert event["result"]["text"] == "ann rolled 5 2 3 4 6 6."
    await a.close()
    await b.close()


@pytest.mark.django_db
def test_the_javascript_catalogue_of_each_language():
    german = Client().get(reverse("javascript-catalog", args=["de"]))
    assert german["Cache-Control"] == "public, max-age=3600"
    text = german.content.decode()
    assert '"%(player)s rolled %(dice)s.": "%(player)s w\\u00fcrfelte %(dice)s."' in text
    assert '"Your turn": "Du bist dran"' in text
    assert '"farkle.kept": "%(player)s set aside' in text  # the English template of each code
    asked_in_german = Client(HTTP_ACCEPT_LANGUAGE="de")
    english = asked_in_german.get(reverse("javascript-catalog", args=["en"])).content.decode()
    assert "Du bist dran" not in english and '"language": "en"' in english
