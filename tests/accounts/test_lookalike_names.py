"""Look-alike and reserved usernames: a new name is compared with every other by
its UTS #39 confusable skeleton after NFKC and case folding, and the site keeps its own words and the
computer players' prefix."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import username_key
from games.computers import players
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "dice-are-nice-42"


def sign_up(name: str, client: Client | None = None):
    return (client or Client()).post(
        reverse("accounts:signup"), {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )


def username_errors(response) -> list[str]:
    form = response.context["form"]
    return [str(e) for e in form.errors.get("username", [])]


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u0430nn",  # CYRILLIC SMALL LETTER A
        "a\u0578n",  # ARMENIAN SMALL LETTER VO
        "\uff41\u0578\uff4e",  # fullwidth a and n around the Armenian vo
        "\u0410NN",  # CYRILLIC CAPITAL LETTER A, Latin capitals: case is folded too
        "\u0391\u039dN",  # Greek capital alpha and nu
    ],
)
def test_a_lookalike_of_an_existing_name_is_refused(make_user, lookalike):
    make_user("ann")
    response = sign_up(lookalike)
    assert response.status_code == 200
    assert username_errors(response) == ["This name looks too much like “ann”, the name of another player."]
    assert User.objects.count() == 1
    # A name that only resembles one is still free.
    assert sign_up("anna").status_code == 302


@pytest.mark.parametrize(
    ("existing", "capitals"),
    [
        ("kate", "\u041a\u0410\u0422\u0415"),
        ("bob", "\u0412\u041e\u0412"),
        ("nina", "\u039d\u0399\u039d\u0391"),
    ],
)
def test_capitals_of_other_scripts_that_read_as_latin_capitals_are_lookalikes(make_user, existing, capitals):
    """Cyrillic and Greek capitals spelling KATE, BOB and NINA: their small letters look like nothing
    Latin, or like other Latin letters (the Greek nu like v)."""
    make_user(existing)
    assert username_errors(sign_up(capitals)) == [
        f"This name looks too much like “{existing}”, the name of another player."
    ]


def test_digits_that_read_as_letters_are_lookalikes_too(make_user):
    make_user("bill")
    response = sign_up("\uff42\uff49\uff11\uff11")  # fullwidth "bi11"
    assert username_errors(response) == ["This name looks too much like “bill”, the name of another player."]


@pytest.mark.parametrize("lookalike", ["aIice", "ALlCE", "AIice"])
def test_a_capital_i_reads_as_a_small_l(make_user, lookalike):
    """Pages draw I and l alike; the capital I was folded to i before the skeleton could read it as l."""
    make_user("alice")
    assert username_errors(sign_up(lookalike)) == [
        "This name looks too much like “alice”, the name of another player."
    ]
    assert User.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_the_new_reading_to_existing_names(django_user_model):
    """Keys stored under the old reading are made again: an old "aIice" beside an "alice" stays, the older
    account holds the key, and a new look-alike of either is refused."""
    executor = MigrationExecutor(connection)
    before = [("accounts", "0007_user_name_key_unique")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("accounts", "User")
    for name in ("alice", "aIice", "bill"):
        old.objects.create(username=name, password="!", name_key=f"old-{name}")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # every app: going back took dependants with it
    keys = dict(django_user_model.objects.values_list("username", "name_key"))
    assert keys == {"alice": username_key("alice"), "aIice": None, "bill": username_key("bill")}
    assert username_errors(sign_up("ALlCE")) == [
        "This name looks too much like “alice”, the name of another player."
    ]
    assert username_errors(sign_up("BlIl")) == [
        "This name looks too much like “bill”, the name of another player."
    ]


@pytest.mark.parametrize(
    "name",
    [
        "admin",
        "ADMIN",
        "Adm\u0456n",  # CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
        "root",
        "\uff52\uff4f\uff4f\uff54",  # fullwidth "root"
        "Administrator",
        "support",
        "moderator",
        "dicehall",
        "DiceHall",
        "api",
        "static",
        "accounts",
        "players",
        "null",
        "anonymous",
        "everyone",
        "computer",
        "c\u043emputer",  # CYRILLIC SMALL LETTER O
    ],
)
def test_the_sites_own_words_are_refused(name):
    response = sign_up(name)
    assert response.status_code == 200
    assert username_errors(response) == ["This name is reserved for the site."]
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "name",
    [
        "c\u043emputer-easy-9",  # CYRILLIC SMALL LETTER O: passed the old reservation
        "\uff23\u041e\uff2dPUTER-good-1",  # fullwidth C and M around a CYRILLIC CAPITAL LETTER O
        "cornputer-expert-1",  # r n reads as m
    ],
)
def test_the_computer_players_prefix_is_compared_by_skeleton(name):
    response = sign_up(name)
    assert username_errors(response) == ["Names starting with “computer-” belong to the computer players."]
    assert not User.objects.exists()


def test_every_user_holds_the_key_of_their_name_and_computers_too(make_user):
    ann = make_user("Ann")
    computer = players.computer_user("easy", 1)
    assert ann.name_key == username_key("\u0430nn")
    assert computer.name_key == username_key("c\u043emputer-easy-1")
    ann.username = "ANN"
    ann.save(update_fields=["username"])
    assert User.objects.get(pk=ann.pk).name_key == username_key("ann")
    ann.username = "hannah"
    ann.save(update_fields=["username"])
    assert User.objects.get(pk=ann.pk).name_key == username_key("hannah")


@pytest.mark.django_db(transaction=True)
def test_a_race_lost_to_a_lookalike_is_a_form_error_not_a_server_error():
    """Two sign-ups at once: the second checks its name while the first's account is written but not
    committed, so its check passes; the database's unique key on the skeleton makes its insert wait for
    the first and then fail, and the page answers with the form's error, not a 500."""
    answer = {}

    def second() -> None:
        try:
            answer["response"] = sign_up("\u0430nn", Client(raise_request_exception=True))
        finally:
            connection.close()

    with transaction.atomic():
        UserFactory(username="ann", password=PASSWORD)
        thread = threading.Thread(target=second)
        thread.start()
        wait_until_it_waits_for_the_first(thread)
    thread.join(30)
    response = answer["response"]
    assert response.status_code == 200
    assert username_errors(response) == ["This name looks too much like “ann”, the name of another player."]
    assert list(User.objects.values_list("username", flat=True)) == ["ann"]


def wait_until_it_waits_for_the_first(thread: threading.Thread) -> None:
    """On PostgreSQL, until the second sign-up's insert waits for a lock (so its check has passed);
    SQLite cannot say, and the second's BEGIN IMMEDIATE waits for the first's transaction: a second
    is ample for a sign-up's check."""
    deadline = time.monotonic() + 10
    if connection.vendor != "postgresql":
        time.sleep(1)
        return
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline and thread.is_alive():
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("the second sign-up never waited for the first")


def test_the_admin_refuses_lookalikes_on_creation_and_rename(make_user, admin_client):
    make_user("ann")
    bob = make_user("bob")
    add = admin_client.post(
        reverse("admin:accounts_user_add"),
        {"username": "\u0430nn", "usable_password": "true", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert add.status_code == 200
    assert "This name looks too much like “ann”" in add.content.decode()
    change_url = reverse("admin:accounts_user_change", args=[bob.pk])
    data = {
        "username": "a\u0578n",
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "12:00",
    }
    rename = admin_client.post(change_url, data)
    assert rename.status_code == 200
    assert "This name looks too much like “ann”" in rename.content.decode()
    bob.refresh_from_db()
    assert bob.username == "bob"
    # A new case of one's own name is no look-alike of anybody else's.
    rename = admin_client.post(change_url, {**data, "username": "Bob"})
    assert rename.status_code == 302
    bob.refresh_from_db()
    assert bob.username == "Bob"
    # The site's own words are the staff's to give (an official "support" account); look-alikes of
    # players' names and the computers' prefix are not.
    official = admin_client.post(
        reverse("admin:accounts_user_add"),
        {"username": "support", "usable_password": "true", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert official.status_code == 302
    assert User.objects.filter(username="support").exists()
    computer = admin_client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "c\u043emputer-easy-1",
            "usable_password": "true",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert "belong to the computer players" in computer.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_existing_lookalikes_but_gives_the_key_to_the_first(django_user_model):
    """Accounts made before the check stay as they are; the first of a look-alike group holds the key,
    the others none (so the unique index holds), and a person under a computer's look-alike holds none
    either, so that the computer account can still be made."""
    executor = MigrationExecutor(connection)
    before = [("accounts", "0005_user_quick_scoring")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("accounts", "User")
    for name in ("ann", "\u0430nn", "bob", "c\u043emputer-easy-1"):
        old.objects.create(username=name, password="!")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # every app: going back took dependants with it
    keys = dict(django_user_model.objects.values_list("username", "name_key"))
    assert keys["ann"] == username_key("ann")
    assert keys["bob"] == username_key("bob")
    assert keys["\u0430nn"] is None
    assert keys["c\u043emputer-easy-1"] is None
    assert players.computer_user("easy", 1).name_key == username_key("computer-easy-1")
    assert username_errors(sign_up("a\u0578n")) == [
        "This name looks too much like “ann”, the name of another player."
    ]
    # The kept look-alike can still sign in, change its profile and be saved.
    kept = django_user_model.objects.get(username="\u0430nn")
    kept.display_name = "Anna"
    kept.save()
    kept.refresh_from_db()
    assert kept.name_key is None and kept.display_name == "Anna"


@pytest.mark.parametrize("name", ["Ann", "ann_2", "anna", "b0b", "Zoë", "Ödön", "李小龍", "Анна"])
def test_ordinary_names_of_any_script_are_free_when_nobody_has_a_lookalike(name):
    response = sign_up(name)
    assert response.status_code == 302, username_errors(response)
    assert User.objects.get().name_key == username_key(name)
