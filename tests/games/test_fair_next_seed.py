"""The server seed of a player's next game is committed in the lobby before their browser makes its own
seed (games/fair_seeds.py): the game created from the lobby's form has exactly that server seed (its page
shows the commitment the lobby showed) and the creator's seat the seed the form brought."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import fair_dice
from games.errors import BadRequest
from games.models import Game
from games.tables import services

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
