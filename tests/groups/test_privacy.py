"""A private group's games stay private (group deleted or not), outsiders and staff learn
nothing of a group, who talks at a table, removing messages, a removed member's rights, a rematch's pace.

One rule decides who sees a game (games.access); these tests walk the places that show one."""

from __future__ import annotations

import importlib
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.test import Client
from django.utils import timezone

from chat import services as chat
from chat.models import Message
from coach import services as coach
from games.errors import Conflict, Forbidden, NotFound
from games.models import Game, Seat
from games.results.highscores import high_scores
from games.results.seed import seed_finished_games
from games.results.stats import player_stats
from games.tables import services as tables
from groups import services as groups
from groups.models import Membership
from play.routing import websocket_urlpatterns
from tests.factories import GameFactory
from tests.protocol import validate_client

SECRET = "our family secret"
GROUP_NAME = "The Hidden Dicers"


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _finish(game, loser) -> Game:
    tables.game_apply_action(game_id=game.pk, user=loser, client_id="resign", action={"type": "resign"})
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def family(make_user, scripted_dice):
    """ann created the group, bob and cy are members, olga is an outsider; ann and bob played a Farkle
    game of the group (goal 3000) with a secret said at the table: ann banked once, bob resigned."""
    ann, bob, cy, olga = (make_user(n) for n in ("ann", "bob", "cy", "olga"))
    group = groups.group_create(creator=ann, name=GROUP_NAME)
    for member in (bob, cy):
        groups.group_add_member(group_id=group.pk, user=ann, username=member.username)
    game = tables.game_create(creator=ann, kind="farkle", options={"goal": 3000}, group=group)
    tables.game_join(game_id=game.pk, user=bob)
    tables.game_start(game_id=game.pk, user=ann)
    scripted_dice([1, 1, 1, 5, 5, 2], [2, 2, 3, 4, 6, 6])
    for n, action in enumerate(({"type": "roll", "keep": []}, {"type": "bank", "keep": [0, 1, 2, 3, 4]})):
        tables.game_apply_action(game_id=game.pk, user=ann, client_id=f"ann-{n}", action=action)
    # bob's turn scores nothing: he has played, so his resignation ends a game, not an aborted one.
    tables.game_apply_action(
        game_id=game.pk, user=bob, client_id="bob-0", action={"type": "roll", "keep": []}
    )
    chat.post_to_game(game_id=game.pk, user=bob, text=SECRET)
    game = _finish(game, bob)
    return {"ann": ann, "bob": bob, "cy": cy, "olga": olga, "group": group, "game": game}


# --- 4: deleting a group opens none of its games -------------------------------------------------


@pytest.mark.django_db
def test_a_deleted_groups_games_stay_with_their_players(family):
    f = family
    replay = f"/games/{f['game'].pk}/replay/"
    assert _client(f["olga"]).get(replay).status_code == 404
    groups.group_delete(group_id=f["group"].pk, user=f["ann"])
    assert Game.objects.get(pk=f["game"].pk).group_id is None
    for outsider in ("olga", "cy"):  # cy was a member of the group, but never sat at this table
        response = _client(f[outsider]).get(replay)
        assert response.status_code == 404, outsider
        assert SECRET not in response.content.decode()
        assert _client(f[outsider]).get(f"/games/{f['game'].pk}/").status_code == 404
    for player in ("ann", "bob"):
        response = _client(f[player]).get(replay)
        assert response.status_code == 200 and SECRET in response.content.decode()
    history = _client(f["olga"]).get("/players/ann/history/").content.decode()
    assert f"/games/{f['game'].pk}/" not in history


@pytest.mark.django_db(transaction=True)
async def test_a_deleted_groups_running_game_is_watched_by_its_players_alone(make_user):
    ann, bob, olga = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "olga")]

    @database_sync_to_async
    def setup():
        group = groups.group_create(creator=ann, name=GROUP_NAME)
        groups.group_add_member(group_id=group.pk, user=ann, username="bob")
        game = tables.game_create(creator=ann, kind="farkle", group=group)
        tables.game_join(game_id=game.pk, user=bob)
        tables.game_start(game_id=game.pk, user=ann)
        groups.group_delete(group_id=group.pk, user=ann)
        return game

    game = await setup()
    for user, expected in ((olga, (False, 4404)), (bob, (True, None))):
        comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
        comm.scope["user"] = user
        connected, code = await comm.connect()
        assert (connected, None if connected else code) == expected, user.username
        if connected:
            assert json.loads(await comm.receive_from(timeout=5))["type"] == "snapshot"
            await comm.disconnect()


@pytest.mark.django_db
def test_the_migration_marks_the_games_that_still_have_their_group_private(family):
    migration = importlib.import_module("games.migrations.0005_game_private")
    Game.objects.filter(pk=family["game"].pk).update(private=False)  # as before the field existed
    migration.group_games_are_private(apps, None)
    assert Game.objects.get(pk=family["game"].pk).private


# --- 5: outsiders learn nothing of a private group -----------------------------------------------


@pytest.mark.django_db
def test_signed_out_a_private_game_looks_like_a_missing_one(family):
    f = family
    private = _client().get(f"/games/{f['game'].pk}/")
    missing = _client().get("/games/999999/")
    assert private.status_code == missing.status_code == 302
    assert private["Location"].startswith("/accounts/login/") and missing["Location"].startswith(
        "/accounts/login/"
    )
    page = _client().get(private["Location"]).content.decode()
    assert GROUP_NAME not in page and "ann" not in page


@pytest.mark.django_db
def test_an_outsider_gets_a_plain_404_for_the_group_and_its_games(family):
    f = family
    olga = _client(f["olga"])
    for target in (
        f"/groups/{f['group'].pk}/",
        f"/groups/{f['group'].pk}/edit/",
        f"/games/{f['game'].pk}/",
        f"/games/{f['game'].pk}/replay/",
        f"/games/{f['game'].pk}/computers/",
    ):
        response = olga.get(target)
        assert response.status_code == 404, target
        assert GROUP_NAME not in response.content.decode(), target
    response = olga.post(f"/groups/{f['group'].pk}/members/add/", {"username": "olga"})
    assert response.status_code == 404
    assert not Membership.objects.filter(group=f["group"], user=f["olga"]).exists()


@pytest.mark.django_db
def test_an_outsider_gets_the_same_answer_for_an_existing_and_a_missing_group(family):
    """Every POST on a group answers an outsider as for no group: a different answer for an existing
    one (it was a 302 for leave) tells which group numbers exist."""
    f = family
    olga = _client(f["olga"])
    missing = f["group"].pk + 1000
    for action in ("leave", "delete", "invite", "invite/revoke", f"members/{f['bob'].pk}/remove"):
        answers = {olga.post(f"/groups/{group}/{action}/").status_code for group in (f["group"].pk, missing)}
        assert answers == {404}, action
    assert Membership.objects.filter(group=f["group"]).count() == 3


@pytest.mark.django_db
def test_player_pages_and_figures_show_outsiders_no_private_game(family):
    f = family
    coach.review_game(game_id=f["game"].pk)
    game_link = f"/games/{f['game'].pk}/replay/"
    for viewer, shown in (("olga", False), ("cy", True), ("ann", True)):
        client = _client(f[viewer])
        page = client.get("/players/ann/stats/?kind=farkle&goal=3000").content.decode()
        assert (game_link in page) is shown, viewer
        api = client.get("/api/players/ann/stats/?kind=farkle&goal=3000").json()
        assert ([s["game"] for s in api["series"]] == [f["game"].pk]) is shown, viewer
        assert (api["games"] == 1) is shown, viewer
    assert player_stats(f["ann"], "farkle", goal=3000, viewer=f["olga"])["series"] == []


@pytest.mark.django_db
def test_high_scores_show_a_private_groups_results_to_its_members_alone(family):
    f = family
    seed_finished_games(40, [f["ann"], f["bob"]], groups=[f["group"]], seed=3)
    private = set(Game.objects.filter(group=f["group"]).values_list("pk", flat=True))
    listed = set()
    for kind in ("triple-quintzee", "triple-yahtzee-99", "painted-dicez"):
        everything = {e["game"] for e in high_scores(kind)["entries"]}
        listed |= everything & private
        public = {e["game"] for e in high_scores(kind, limit=1000)["entries"]} - private
        seen = {}
        for viewer in ("olga", "cy"):
            board = _client(f[viewer]).get(f"/api/highscores/?kind={kind}").json()
            seen[viewer] = {e["game"] for e in board["entries"]}
        assert seen["cy"] == everything, kind  # cy is in the group: every list as it is
        assert not seen["olga"] & private and seen["olga"] <= public, kind
    assert listed  # the seed put some of the group's games on the lists


# --- 11 (part): staff follow the same rule ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("superuser", [False, True])
def test_staff_see_a_private_group_and_its_games_as_outsiders_do(family, make_user, superuser):
    staff = make_user("root", is_staff=True, is_superuser=superuser)
    client = _client(staff)
    group_page = client.get(f"/groups/{family['group'].pk}/").status_code
    game_page = client.get(f"/games/{family['game'].pk}/").status_code
    replay = client.get(f"/games/{family['game'].pk}/replay/")
    assert (group_page, game_page, replay.status_code) == (404, 404, 404)
    assert SECRET not in replay.content.decode()


# --- 8: who talks at a table, removing messages, a removed member's rights --------------------


@pytest.fixture
def table(make_user):
    """A public game being played by ann and bob; cid is a spectator."""
    ann, bob, cid = (make_user(n) for n in ("ann", "bob", "cid"))
    game = GameFactory(creator=ann, players=[bob])
    return {"ann": ann, "bob": bob, "cid": cid, "game": game}


@pytest.mark.django_db
def test_only_the_players_talk_at_a_table_and_briefly_after_its_end(table):
    t = table
    chat.post_to_game(game_id=t["game"].pk, user=t["ann"], text="good luck")
    with pytest.raises(Forbidden):
        chat.post_to_game(game_id=t["game"].pk, user=t["cid"], text="spam from the rail")
    game = _finish(t["game"], t["bob"])
    chat.post_to_game(game_id=game.pk, user=t["bob"], text="good game")  # just after the end: yes
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - chat.CHAT_AFTER_GAME - timedelta(1))
    with pytest.raises(Forbidden):
        chat.post_to_game(game_id=game.pk, user=t["ann"], text="written into the replay for good")
    said = list(Message.objects.filter(game=game).values_list("text", flat=True))
    assert said == ["good luck", "good game"]


@pytest.mark.django_db(transaction=True)
async def test_a_player_removes_their_message_and_every_open_page_drops_it(table):
    t = table
    game = t["game"]
    comms = []
    for user in (t["ann"], t["cid"]):
        comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
        comm.scope["user"] = user
        assert (await comm.connect())[0]
        comms.append(comm)

    async def next_chat(comm) -> dict:
        while True:
            frame = json.loads(await comm.receive_from(timeout=5))
            if frame["type"] in ("chat", "error"):
                return frame

    author, spectator = comms
    await author.send_json_to(validate_client({"type": "say", "text": "oops, my address"}))
    said = (await next_chat(spectator))["message"]
    assert said["text"] == "oops, my address"
    assert (await next_chat(author))["message"] == said
    await spectator.send_json_to(validate_client({"type": "unsay", "message": said["id"]}))
    assert (await next_chat(spectator))["code"] == "forbidden"  # not the spectator's to remove
    await author.send_json_to(validate_client({"type": "unsay", "message": said["id"]}))
    for comm in comms:
        frame = await next_chat(comm)
        assert frame["type"] == "chat" and frame["message"]["id"] == said["id"]
        assert frame["message"]["removed"] and frame["message"]["text"] == ""
        await comm.disconnect()
    stored = await database_sync_to_async(Message.objects.get)(pk=said["id"])
    assert stored.removed and stored.text == ""


@pytest.mark.django_db
def test_the_replay_leaves_removed_messages_out_and_the_groups_creator_removes_any(family):
    f = family
    secret = Message.objects.get(text=SECRET)
    with pytest.raises(Forbidden):
        chat.remove_from_game(game_id=f["game"].pk, user=f["cy"], message_id=secret.pk)
    with pytest.raises(NotFound):
        chat.remove_from_game(game_id=f["game"].pk, user=f["olga"], message_id=secret.pk)
    chat.remove_from_game(game_id=f["game"].pk, user=f["ann"], message_id=secret.pk)  # the creator
    page = _client(f["bob"]).get(f"/games/{f['game'].pk}/replay/").content.decode()
    assert SECRET not in page and "removed" not in page
    own = chat.post_to_group(group_id=f["group"].pk, user=f["cy"], text="wrong group, sorry")
    chat.remove_from_group(group_id=f["group"].pk, user=f["cy"], message_id=own.pk)
    assert Message.objects.get(pk=own.pk).removed


@pytest.mark.django_db
def test_a_removed_member_loses_every_right_in_the_group(family, make_user):
    f = family
    ann, bob, cy, group = f["ann"], f["bob"], f["cy"], f["group"]
    token = groups.group_invite_create(group_id=group.pk, user=ann)
    running = tables.game_create(creator=ann, kind="farkle", seats=3, group=group)
    for member in (bob, cy):
        tables.game_join(game_id=running.pk, user=member)
    tables.game_start(game_id=running.pk, user=ann)
    waiting = tables.game_create(creator=ann, kind="farkle", seats=3, group=group)
    tables.game_join(game_id=waiting.pk, user=bob)
    own_table = tables.game_create(creator=bob, kind="farkle", seats=2, group=group)

    groups.group_remove_member(group_id=group.pk, user=ann, member_id=bob.pk)

    assert Seat.objects.get(game=running, user=bob).resigned
    assert Game.objects.get(pk=running.pk).status == Game.Status.PLAYING  # ann and cy play on
    assert not Seat.objects.filter(game=waiting, user=bob).exists()
    assert Game.objects.get(pk=own_table.pk).status == Game.Status.ABANDONED
    with pytest.raises(NotFound):
        tables.game_play_again(game_id=f["game"].pk, user=bob)
    response = _client(bob).post(f"/games/{f['game'].pk}/again/")
    assert response.status_code == 404
    assert not Game.objects.filter(rematch_of=f["game"]).exists()
    # ann's rematch asks the members still there: bob is neither seated nor asked, and a table of two
    # with nobody left to ask is no next game (nor a solo game behind anyone's back).
    with pytest.raises(Conflict):
        tables.game_play_again(game_id=f["game"].pk, user=ann)
    assert not Game.objects.filter(rematch_of=f["game"]).exists()
    # The old link is dead; the creator has a new one to share.
    group.refresh_from_db()
    assert group.invite_token not in (None, token)
    with pytest.raises(NotFound):
        groups.group_join_by_invite(token=token, user=bob)
    assert _client(bob).post(f"/groups/join/{token}/").status_code == 404


# --- 13: play again keeps the pace ---------------------------------------------------------------


@pytest.mark.django_db
def test_play_again_keeps_a_game_over_days(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = tables.game_create(creator=ann, kind="farkle", pace=Game.Pace.DAYS, absence_limit=2 * 86_400)
    tables.game_join(game_id=game.pk, user=bob)
    tables.game_start(game_id=game.pk, user=ann)
    game = _finish(game, bob)
    rematch = tables.game_play_again(game_id=game.pk, user=bob)
    assert (rematch.pace, rematch.absence_limit) == (Game.Pace.DAYS, 2 * 86_400)
