"""A player's data: the download of all of it, and the account's deletion, by the player (with the
password) or the staff (play.account_data). The games stay, under a placeholder name; the person's data
goes; no one acts on another's account."""

from __future__ import annotations

import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection, connections
from django.test import Client

from accounts.models import User
from chat import services as chat
from chat.models import Message
from coach.models import SeatReview
from config.asgi import application
from games.models import Connection, Game, SeedCommitment
from games.results.replays import game_verify_replay
from games.tables import services as tables
from groups import services as groups
from groups.models import Group, Membership
from notices import feed
from notices.models import Notice, Preferences, PushSubscription, TurnMail
from pairing.models import Block, Seek
from play import account_data
from ratings.models import Rating, RatingChange
from tests.factories import PASSWORD
from tests.played import everyone_moves

SECRET = "my phone number is 0151 2345678"
GROUP = "The Dicers"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def world(make_user, scripted_dice):
    """ann created a group with bob; ann and bob played a Farkle game of it (ann banked, said a secret,
    bob rolled and resigned: finished); ann is playing a public game with cy, has a device, a notice,
    settings and a block of dan; bob has a notice that names ann."""
    ann = make_user("ann", email="ann@example.com", display_name="Ann Example")
    bob, cy, dan = make_user("bob"), make_user("cy"), make_user("dan")
    group = groups.group_create(creator=ann, name=GROUP)
    groups.group_add_member(group_id=group.pk, user=ann, username="bob")
    game = tables.game_create(creator=ann, kind="farkle", options={"goal": 3000}, group=group)
    tables.game_join(game_id=game.pk, user=bob)
    tables.game_start(game_id=game.pk, user=ann)
    scripted_dice([1, 1, 1, 5, 5, 2], [1, 2, 3, 4, 6, 6])
    for n, action in enumerate(({"type": "roll", "keep": []}, {"type": "bank", "keep": [0, 1, 2, 3, 4]})):
        tables.game_apply_action(game_id=game.pk, user=ann, client_id=f"ann-{n}", action=action)
    chat.post_to_game(game_id=game.pk, user=ann, text=SECRET)
    chat.post_to_game(game_id=game.pk, user=bob, text="see you")
    # bob rolls before he resigns: a game ended before both had moved would be aborted, and unrated.
    tables.game_apply_action(
        game_id=game.pk, user=bob, client_id="bob-0", action={"type": "roll", "keep": []}
    )
    tables.game_apply_action(game_id=game.pk, user=bob, client_id="bye", action={"type": "resign"})
    playing = tables.game_create(creator=ann, kind="farkle", options={"goal": 3000})
    tables.game_join(game_id=playing.pk, user=cy)
    tables.game_start(game_id=playing.pk, user=ann)
    PushSubscription.objects.create(
        user=ann,
        endpoint="https://fcm.googleapis.com/fcm/send/ann-device",
        p256dh="k" * 87,
        auth="a" * 22,
        device="Pixel",
    )
    feed.tell(ann, "Welcome", "/")
    feed.tell(bob, "%(name)s added you to a group", "/groups/", {"name": "ann"})
    Preferences.objects.create(user=ann)
    Block.objects.create(blocker=ann, blocked=dan)
    if not Rating.objects.filter(user=ann).exists():  # ratings follow a rated game's end
        raise AssertionError("the finished rated game gave ann no rating")
    return {"ann": ann, "bob": bob, "cy": cy, "dan": dan, "group": group, "game": game, "playing": playing}


# --- the download ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_download_holds_every_kind_of_the_players_data_and_no_secret(world):
    ann = world["ann"]
    response = _client(ann).get("/accounts/data.json")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["Cache-Control"] == "no-store"
    data = json.loads(response.content)
    assert data["account"]["username"] == "ann"
    assert data["account"]["email"] == "ann@example.com"
    assert data["account"]["display_name"] == "Ann Example"
    assert "password" not in data["account"] and "name_key" not in data["account"]
    assert {row["game_id"] for row in data["games.Seat.user"]} == {world["game"].pk, world["playing"].pk}
    assert {game["pk"] for game in data["games"]} == {world["game"].pk, world["playing"].pk}
    assert [a["seq"] for a in data["games.Action"] if a["game_id"] == world["game"].pk] == [1, 2]
    assert [m["text"] for m in data["chat.Message.author"]] == [SECRET]
    assert data["ratings.Rating.user"] and data["ratings.RatingChange.user"]
    (device,) = data["notices.PushSubscription.user"]
    assert device["device"] == "Pixel" and "p256dh" not in device and "auth" not in device
    assert [n["message"] for n in data["notices"]] == ["Welcome"]
    assert data["dicegroups.Membership.user"] and data["dicegroups.Group.creator"][0]["name"] == GROUP
    assert data["pairing.Block.blocker"][0]["blocked_id"] == world["dan"].pk
    assert data["notices.Preferences.user"]


@pytest.mark.django_db
def test_the_download_reveals_no_seed_a_game_can_still_be_played_with(world):
    """A seed revealed while its game can be played lets the player work out every roll to come: the
    download holds no server seed (a finished game's is in its own export), nor the commitment of the
    player's next game."""
    ann = world["ann"]
    client = _client(ann)
    assert client.get("/games/").status_code == 200  # the lobby draws the seed of ann's next game
    playing = Game.objects.get(pk=world["playing"].pk)
    text = client.get("/accounts/data.json").content.decode()
    secrets = [
        playing.server_seed,
        playing.next_server_seed,
        *SeedCommitment.objects.values_list("server_seed", flat=True),
    ]
    assert len(secrets) == 3 and all(secrets)
    assert not [seed for seed in secrets if seed in text]


@pytest.mark.django_db
def test_a_second_account_downloads_its_own_data_alone(world):
    data = json.loads(_client(world["bob"]).get("/accounts/data.json").content)
    assert data["account"]["username"] == "bob"
    text = json.dumps(data)
    assert "ann@example.com" not in text and SECRET not in text and "Pixel" not in text
    assert Client().get("/accounts/data.json").status_code == 302  # signed out: to the sign-in


# --- deletion ------------------------------------------------------------------------------------------


def _delete(client: Client, password: str = PASSWORD):
    return client.post("/accounts/delete/", {"password": password})


@pytest.mark.django_db
def test_deleting_keeps_the_games_under_a_placeholder_and_takes_the_persons_data(world):
    ann, bob = world["ann"], world["bob"]
    client = _client(ann)
    assert client.get("/accounts/delete/").status_code == 200
    response = _delete(client)
    assert response.status_code == 302 and response["Location"] == "/"
    assert client.get("/accounts/profile/").status_code == 302  # signed out
    gone = User.objects.get(pk=ann.pk)
    placeholder = gone.username
    assert placeholder.startswith("deleted-")
    assert (gone.email, gone.display_name, gone.is_active, gone.has_usable_password()) == (
        "",
        "",
        False,
        False,
    )
    # The games stay, readable by the others, under the placeholder; their logs still replay.
    for game in (world["game"], world["playing"]):
        game = Game.objects.get(pk=game.pk)
        assert game.state["players"][0] == placeholder
        assert "ann" not in json.dumps(game.state)
        game_verify_replay(game_id=game.pk)
    page = _client(bob).get(f"/games/{world['game'].pk}/replay/")
    assert page.status_code == 200
    assert placeholder in page.content.decode() and ">ann<" not in page.content.decode()
    assert _client(bob).get(f"/games/{world['game'].pk}/").status_code == 200
    # The game being played was resigned; as nobody at it had moved yet, it is aborted, unrated
    # (docs/ratings.md).
    playing = Game.objects.get(pk=world["playing"].pk)
    assert playing.status == Game.Status.ABORTED
    assert not RatingChange.objects.filter(game_id=playing.pk).exists()
    # The person's data is gone from the tables.
    for model in (PushSubscription, Notice, Preferences, TurnMail, Membership, Connection, SeatReview, Seek):
        assert not model.objects.filter(user=gone).exists(), model
    assert not Block.objects.filter(blocker=gone).exists()
    assert list(Message.objects.filter(author=gone).values_list("text", "removed")) == [("", True)]
    assert Message.objects.filter(author=bob, text="see you").exists()
    # The group lives on with bob, its other member, as its creator.
    assert Group.objects.get(pk=world["group"].pk).creator == bob
    # Figures of the kept games stay, under the placeholder.
    assert Rating.objects.filter(user=gone).exists()
    # The old password no longer signs in; the placeholder can never be signed up.
    for name in (placeholder, "ann"):
        signing_in = Client().post("/accounts/login/", {"username": name, "password": PASSWORD})
        assert signing_in.status_code == 200, name  # the form again, with its error
    password = "dice-are-nice-42"
    refused = Client().post(
        "/accounts/signup/", {"username": placeholder, "password1": password, "password2": password}
    )
    assert (
        refused.status_code == 200
        and not User.objects.filter(username=placeholder).exclude(pk=ann.pk).exists()
    )


@pytest.mark.django_db
def test_deletion_asks_for_the_password_and_acts_on_oneself_alone(world):
    ann, bob = world["ann"], world["bob"]
    assert _delete(_client(ann), "not-my-password").status_code == 400
    assert _delete(_client(bob), PASSWORD + "x").status_code == 400
    assert User.objects.get(pk=ann.pk).username == "ann"
    assert User.objects.get(pk=bob.pk).username == "bob"
    # bob's own password deletes bob, never ann; signed out, nothing is deleted.
    assert _delete(Client()).status_code == 302
    assert _delete(_client(bob)).status_code == 302
    assert User.objects.get(pk=ann.pk).username == "ann"
    assert User.objects.get(pk=bob.pk).username.startswith("deleted-")


@pytest.mark.django_db
def test_the_staff_delete_an_account_with_games_through_the_same_service(world, make_user):
    admin = make_user("boss", is_staff=True, is_superuser=True)
    client = _client(admin)
    url = f"/admin/accounts/user/{world['ann'].pk}/delete/"
    page = client.get(url)
    assert page.status_code == 200 and "protected" not in page.content.decode().lower()
    assert client.post(url, {"post": "yes"}).status_code == 302
    gone = User.objects.get(pk=world["ann"].pk)
    assert gone.username.startswith("deleted-") and gone.email == ""
    assert Game.objects.filter(pk=world["game"].pk).exists()
    # The changelist's bulk action too.
    changelist = client.post(
        "/admin/accounts/user/",
        {"action": "delete_selected", "_selected_action": [world["cy"].pk], "post": "yes"},
    )
    assert changelist.status_code == 302
    assert User.objects.get(pk=world["cy"].pk).username.startswith("deleted-")


def test_every_foreign_key_to_the_user_has_its_decision():
    found = {f"{model._meta.label}.{field}" for model, field in account_data.user_foreign_keys()}
    assert found == set(account_data.ON_DELETE)


@pytest.mark.django_db(transaction=True)
async def test_deleting_closes_the_accounts_sockets(make_user):
    ann, cy = await database_sync_to_async(lambda: (make_user("ann"), make_user("cy")))()

    def setup():
        game = tables.game_create(creator=ann, kind="farkle", options={"goal": 3000})
        tables.game_join(game_id=game.pk, user=cy)
        tables.game_start(game_id=game.pk, user=ann)
        client = Client()
        client.force_login(ann)
        return game.pk, client

    game_id, client = await database_sync_to_async(setup)()
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    comm = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1"), (b"cookie", cookie.encode())],
    )
    assert (await comm.connect(timeout=5))[0]
    await comm.receive_json_from(timeout=5)
    assert (await sync_to_async(_delete)(client)).status_code == 302
    while (output := await comm.receive_output(timeout=10))["type"] != "websocket.close":
        pass
    assert output["code"] == 4401
    await comm.disconnect()


@pytest.mark.django_db
def test_a_game_whose_log_does_not_replay_has_the_name_replaced_all_the_same(world):
    """No game should fail to replay; one that does (its log damaged) has the name replaced where it
    stands as a word (in keys, lists and the engine's sentences), and the deletion goes through."""
    game = world["game"]
    game.actions.filter(seq=1).update(dice=[])  # the roll's dice lost: the log no longer replays
    placeholder = account_data.account_delete(user=world["ann"])
    game = Game.objects.get(pk=game.pk)
    assert game.state["players"][0] == placeholder and "ann" not in json.dumps(game.state)
    assert all("ann" not in json.dumps(a.result) for a in game.actions.all())


@pytest.mark.django_db(transaction=True)
def test_two_deletions_at_once_make_one_placeholder(make_user):
    """Two tabs press Delete at the same moment: the account row is locked, the second finds the
    account deleted and changes nothing."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite locks the whole database: the two never overlap")
    ann, cy = make_user("ann"), make_user("cy")
    game = tables.game_create(creator=ann, kind="farkle", options={"goal": 3000})
    tables.game_join(game_id=game.pk, user=cy)
    tables.game_start(game_id=game.pk, user=ann)
    everyone_moves(game)  # so that the deletion's resignation finishes the game, not aborts it
    start, names, errors = threading.Barrier(2), [], []

    def delete() -> None:
        try:
            start.wait(10)
            names.append(account_data.account_delete(user=ann))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=delete) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors and len(names) == 2 and names[0] == names[1]
    assert User.objects.get(pk=ann.pk).username == names[0]
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.state["players"][0] == names[0]
    game_verify_replay(game_id=game.pk)
