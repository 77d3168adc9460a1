"""The server seed of a player's next game is committed in the lobby before their browser makes its own
seed (games/fair_seeds.py): the game created from the lobby's form has exactly that server seed (its page
shows the commitment the lobby showed) and the creator's seat the seed the form brought."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from games import fair_dice
from games.errors import BadRequest
from games.models import Game
from games.tables import services
from pairing.models import Seek

pytestmark = pytest.mark.django_db


def shown_commitment(client: Client) -> str:
    html = client.get("/games/").content.decode()
    return re.search(r'id="fair-next".*?<code class="seed">([0-9a-f]{64})</code>', html, re.S).group(1)


def test_a_solo_game_from_the_lobby_has_the_committed_seed_and_the_browsers(client: Client, make_user):
    ann = make_user("ann")
    client.force_login(ann)
    committed = shown_commitment(client)
    assert shown_commitment(client) == committed  # the same until a game takes it

    response = client.post(
        "/games/new/", {"kind": "triple-quintzee", "seats": 1, "client_seed": "ann-typed-Or-made_1"}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == Game.Status.PLAYING  # a table of one starts
    assert game.seed_commitment == committed
    assert game.client_seeds == ["ann-typed-Or-made_1"]
    assert committed in client.get(f"/games/{game.pk}/").content.decode()
    assert shown_commitment(client) != committed  # the next game's is another


def test_a_seed_sent_without_a_commitment_shown_first_is_not_taken(client: Client, make_user):
    """A form posted without the lobby having committed a seed to this session: the server would learn
    the player's seed before drawing its own, so it draws both."""
    client.force_login(make_user("ann"))
    client.post("/games/new/", {"kind": "triple-quintzee", "seats": 1, "client_seed": "chosen-first"})
    assert Game.objects.get().client_seeds != ["chosen-first"]


def test_a_malformed_seed_is_refused_with_the_rule(make_user):
    with pytest.raises(BadRequest) as refused:
        services.game_create(creator=make_user("ann"), kind="farkle", seats=2, client_seed="no spaces here")
    assert refused.value.code == "bad_seed"
    assert not Game.objects.exists()


def test_a_game_created_without_seeds_draws_both(make_user):
    game = services.game_create(creator=make_user("ann"), kind="farkle", seats=2)
    assert len(game.server_seed) == 2 * fair_dice.SEED_BYTES
    assert fair_dice.valid_client_seed(game.seats.get().client_seed)


# --- one committed seed, one game ----------------------------------------------------------------

FARKLE_TABLE = {"kind": "farkle", "goal": "3000", "dice": "6", "seats": "2", "pace": "live", "rated": "on"}
SEEK = {"kind": "farkle", "goal": "3000", "dice": "6", "seats": "2", "pace": "live", "computers_after": ""}


def test_a_second_form_with_a_used_commitment_is_refused_and_shown_a_new_one(client: Client, make_user):
    """Two tabs of one session showed one commitment: the first form's game takes its seed; the second
    form is refused (its browser's seed was made beside that seed, now another game's), and its page
    commits a new seed, which the form sent again takes."""
    client.force_login(make_user("ann"))
    committed = shown_commitment(client)
    first = client.post("/games/new/", {**FARKLE_TABLE, "client_seed": "tab-one"})
    second = client.post("/games/new/", {**FARKLE_TABLE, "client_seed": "tab-two"})
    assert first.status_code == 302
    assert second.status_code == 409
    page = second.content.decode()
    assert "has been used by another game of yours" in page
    fresh = re.search(r'id="fair-next".*?<code class="seed">([0-9a-f]{64})</code>', page, re.S).group(1)
    assert fresh != committed
    assert [g.seed_commitment for g in Game.objects.all()] == [committed]
    again = client.post("/games/new/", {**FARKLE_TABLE, "client_seed": "tab-two"})
    assert again.status_code == 302
    assert sorted(g.seed_commitment for g in Game.objects.all()) == sorted([committed, fresh])


def test_the_lobby_and_play_someone_now_cannot_both_take_one_commitment(client: Client, make_user):
    client.force_login(make_user("ann"))
    committed = shown_commitment(client)
    assert client.post("/games/new/", {**FARKLE_TABLE, "client_seed": "lobby"}).status_code == 302
    asked = client.post("/play/ask/", {**SEEK, "client_seed": "play-now"})
    assert asked.status_code == 409
    assert "has been used by another game of yours" in asked.content.decode()
    assert not Seek.objects.exists()
    assert Game.objects.get().seed_commitment == committed


def test_a_double_press_of_play_someone_now_is_the_same_request(client: Client, make_user):
    """The second press brings the commitment the first one used: it gets the first one's seek."""
    client.force_login(make_user("ann"))
    client.get("/play/")
    assert client.post("/play/ask/", {**SEEK, "client_seed": "one"}).status_code == 302
    assert client.post("/play/ask/", {**SEEK, "client_seed": "one"}).status_code == 302
    assert Seek.objects.count() == 1 and Seek.objects.get().client_seed == "one"


def test_one_server_seed_serves_one_game_unless_it_is_shared_on_purpose(make_user):
    ann = make_user("ann")
    seed = fair_dice.new_server_seed()
    services.game_create(creator=ann, kind="farkle", seats=2, server_seed=seed)
    with pytest.raises(IntegrityError), transaction.atomic():
        services.game_create(creator=ann, kind="farkle", seats=2, server_seed=seed)
    # Games from before fair dice have none; the daily challenge's share their day's.
    Game.objects.create(kind="farkle", creator=ann, server_seed="")
    Game.objects.create(kind="farkle", creator=ann, server_seed="")
    day = fair_dice.new_server_seed()
    Game.objects.create(kind="farkle", creator=ann, server_seed=day, shared_seed=True)
    Game.objects.create(kind="farkle", creator=ann, server_seed=day, shared_seed=True)
    assert Game.objects.filter(server_seed=seed).count() == 1


def test_a_cancelled_tables_revealed_seed_is_no_playable_games(client: Client, make_user):
    """Cancelling a table reveals its seed in the export; nothing else that can be played has it: the
    next table's commitment is another one, and no game can be created with the revealed seed."""
    ann = make_user("ann")
    client.force_login(ann)
    shown_commitment(client)
    client.post("/games/new/", {**FARKLE_TABLE, "client_seed": "a"})
    cancelled = Game.objects.get()
    assert client.get(f"/games/{cancelled.pk}/export.json").json()["fair_dice"]["server_seed"] is None
    services.game_leave(game_id=cancelled.pk, user=ann)
    revealed = client.get(f"/games/{cancelled.pk}/export.json").json()["fair_dice"]["server_seed"]
    assert revealed == cancelled.server_seed
    assert fair_dice.commitment(revealed) != shown_commitment(client)
    client.post("/games/new/", {**FARKLE_TABLE, "client_seed": "b"})
    playable = Game.objects.get(status=Game.Status.OPEN)
    assert playable.server_seed != revealed
    assert client.get(f"/games/{playable.pk}/export.json").json()["fair_dice"]["server_seed"] is None
    for path in (
        f"/games/{playable.pk}/",
        f"/games/{playable.pk}/replay/",
        f"/games/{playable.pk}/export.json",
    ):
        answer = client.get(path)
        assert answer.status_code < 500
        assert playable.server_seed not in answer.content.decode()
        assert revealed not in answer.content.decode()
    with pytest.raises(IntegrityError), transaction.atomic():
        services.game_create(creator=ann, kind="farkle", seats=2, server_seed=revealed)


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_seeds_already_shared_and_the_constraint_holds_for_the_rest(make_user):
    """Existing games keep their seeds: those that share one already (a day's daily games, two games
    that took one commitment before it was claimed once) are marked as sharing it; games without a
    seed ("") are left alone; every other seed serves one game from then on."""
    ann = make_user("ann")
    executor = MigrationExecutor(connection)
    before = [("games", "0010_game_kind_quintzee")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("games", "Game")
    day, own = fair_dice.new_server_seed(), fair_dice.new_server_seed()
    for seed in (day, day, day, own, "", ""):
        old.objects.create(kind="farkle", creator_id=ann.pk, server_seed=seed)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # every app: going back took dependants with it
    shared = dict(Game.objects.values_list("server_seed", "shared_seed").distinct())
    assert shared == {day: True, own: False, "": False}
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(kind="farkle", creator=ann, server_seed=own)
