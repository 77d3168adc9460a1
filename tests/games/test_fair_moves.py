"""Moves roll fair dice (docs/fair-dice.md): every stored roll is the one derived from the game's server
seed, its client seeds and the action's seq; the client seeds are the players' until the start, then
fixed."""

from __future__ import annotations

import random

import pytest

from games import fair_dice, rules
from games.errors import BadRequest, Conflict, Forbidden
from games.live.dice_source import FairDice, source
from games.models import Game, Seat
from games.tables import services
from tests.games.conftest import random_legal_action

pytestmark = pytest.mark.django_db


def play_out(game: Game, users: dict, rng: random.Random, limit: int = 400) -> Game:
    for n in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        action = random_legal_action(game.state, rng)
        player = users[game.current_player]
        services.game_apply_action(game_id=game.pk, user=player, client_id=f"m{n}", action=action)
    game.refresh_from_db()
    return game


def check_every_roll(game: Game) -> int:
    painted = game.engine.dice_kind == "painted"
    rolls = 0
    for action in game.actions.order_by("seq"):
        sizes = [len(r) for r in action.dice]
        derived = fair_dice.action_rolls(game.server_seed, game.client_seeds, action.seq, sizes, painted)
        assert action.dice == derived, f"action {action.seq}"
        rolls += len(sizes)
    return rolls


def test_production_and_the_tests_roll_fair_dice(settings):
    assert settings.DICE_SOURCE == "fair"
    assert source() is FairDice


@pytest.mark.parametrize("kind", sorted(rules.ENGINES))
def test_every_stored_roll_is_the_derived_one(make_user, kind):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind=kind, seats=2)
    assert len(bytes.fromhex(game.server_seed)) == 32
    services.game_join(game_id=game.pk, user=bob)
    services.seat_set_client_seed(game_id=game.pk, user=bob, seed="bobs-own_seed")
    services.game_start(game_id=game.pk, user=ann)
    game.refresh_from_db()
    seats = list(game.seats.order_by("position"))
    assert game.client_seeds == [s.client_seed for s in seats] and game.client_seeds[1] == "bobs-own_seed"
    game = play_out(game, {"ann": ann, "bob": bob}, random.Random(kind), limit=60)
    assert check_every_roll(game) > 0


def test_computers_roll_fair_dice_too(make_user, settings):
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2, computers=1)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert all(fair_dice.valid_client_seed(s) for s in game.client_seeds)
    computer = game.seats.get(position=1).user
    game = play_out(game, {"ann": ann, computer.username: computer}, random.Random(3), limit=40)
    assert check_every_roll(game) > 0


def test_a_changed_client_seed_is_refused_once_the_game_has_started(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    with pytest.raises(Conflict) as refused:
        services.seat_set_client_seed(game_id=game.pk, user=bob, seed="too-late")
    assert refused.value.code == "seeds_fixed"
    assert Seat.objects.get(game=game, user=bob).client_seed != "too-late"


@pytest.mark.parametrize("seed", ["", "x" * 65, "with space", "a,b", "ümlaut", 7])
def test_a_bad_client_seed_is_refused_with_a_sentence(make_user, seed):
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    with pytest.raises(BadRequest) as refused:
        services.seat_set_client_seed(game_id=game.pk, user=ann, seed=seed)
    assert refused.value.code == "bad_seed" and "1 to 64" in refused.value.message


def test_only_a_seated_player_sets_a_client_seed(make_user):
    ann, eve = make_user("ann"), make_user("eve")
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    with pytest.raises(Forbidden):
        services.seat_set_client_seed(game_id=game.pk, user=eve, seed="mine")


def ended_table(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.seat_set_client_seed(game_id=game.pk, user=ann, seed="anns-seed")
    services.game_start(game_id=game.pk, user=ann)
    return game, ann, bob


def test_the_next_games_seed_is_committed_from_the_creation_and_its_seeds_come_after_the_end(make_user):
    game, ann, bob = ended_table(make_user)
    committed = game.fair_dice_info()["next_commitment"]
    assert (
        committed == fair_dice.commitment(game.next_server_seed) and game.next_server_seed != game.server_seed
    )
    with pytest.raises(Conflict):  # while it is played, a seed is for this game and too late
        services.seat_set_client_seed(game_id=game.pk, user=bob, seed="early")
    services.game_apply_action(game_id=game.pk, user=ann, client_id="r", action={"type": "resign"})
    services.seat_set_client_seed(game_id=game.pk, user=bob, seed="bobs-next")
    new = services.game_play_again(game_id=game.pk, user=ann, client_seed="anns-next")
    assert new.fair_dice_info()["commitment"] == committed
    assert new.server_seed == Game.objects.get(pk=game.pk).next_server_seed
    assert new.next_server_seed not in (new.server_seed, game.server_seed)
    # Once the next game exists, a seed for it from the game before is ignored; bob's press takes his
    # seat with the seed he sent once the game was over, and the game starts.
    services.seat_set_client_seed(game_id=game.pk, user=bob, seed="too-late")
    assert services.game_play_again(game_id=game.pk, user=bob, client_seed="later").pk == new.pk
    assert Game.objects.get(pk=new.pk).client_seeds == ["anns-next", "bobs-next"]


def test_a_player_whose_page_sent_no_seed_keeps_the_last_one(make_user):
    game, ann, bob = ended_table(make_user)
    services.game_apply_action(game_id=game.pk, user=ann, client_id="r", action={"type": "resign"})
    new = services.game_play_again(game_id=game.pk, user=bob)
    services.game_play_again(game_id=game.pk, user=ann)  # ann's press seats her: the game starts
    new.refresh_from_db()
    assert new.client_seeds[1] == "anns-seed"
    assert new.server_seed == Game.objects.get(pk=game.pk).next_server_seed


def test_an_older_game_without_a_next_seed_draws_one_for_its_next_game(make_user):
    game, ann, bob = ended_table(make_user)
    Game.objects.filter(pk=game.pk).update(next_server_seed="")
    services.game_apply_action(game_id=game.pk, user=ann, client_id="r", action={"type": "resign"})
    services.seat_set_client_seed(game_id=game.pk, user=bob, seed="ignored")
    assert Game.objects.get(pk=game.pk).fair_dice_info()["next_commitment"] is None
    new = services.game_play_again(game_id=game.pk, user=bob)
    services.game_play_again(game_id=game.pk, user=ann)
    new.refresh_from_db()
    assert new.client_seeds[1] == "anns-seed" and len(new.server_seed) == 64
    assert new.client_seeds[0] == Seat.objects.get(game=game, user=bob).client_seed


def test_the_play_again_form_brings_the_pressers_seed(make_user, client):
    game, ann, bob = ended_table(make_user)
    services.game_apply_action(game_id=game.pk, user=ann, client_id="r", action={"type": "resign"})
    client.force_login(bob)
    response = client.post(f"/games/{game.pk}/again/", {"client_seed": "bob_pressed"})
    new = Game.objects.get(rematch_of=game)
    assert response.status_code == 302 and response["Location"] == f"/games/{new.pk}/"
    assert Seat.objects.get(game=new, user=bob).client_seed == "bob_pressed"
    bad = client.post(f"/games/{game.pk}/again/", {"client_seed": "not a seed"})
    assert bad.status_code == 302  # back to the game with the reason


def test_a_game_without_a_server_seed_rolls_the_systems_dice(make_user):
    """Games created before fair dice have none: they go on with secrets.SystemRandom."""
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="farkle", seats=1)
    Game.objects.filter(pk=game.pk).update(server_seed="")
    services.game_apply_action(game_id=game.pk, user=ann, client_id="r", action={"type": "roll", "keep": []})
    game.refresh_from_db()
    assert game.fair_dice_info() is None and len(game.actions.get().dice[0]) == 6


@pytest.mark.django_db(transaction=True)
def test_a_move_tried_on_a_stale_row_gets_the_dice_of_the_seq_it_is_stored_with(make_user):
    """On PostgreSQL a move is first tried on the row as the process last knew it (games.live.moves): when
    the row has moved on, the long way makes it with the next seq, and derives that seq's dice rather
    than reusing the attempt's (which are the dice of the seq it expected)."""
    from django.db import connection, transaction

    from games.live import moves

    if connection.vendor != "postgresql":
        pytest.skip("moves are tried on a known row on PostgreSQL only")
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=1)
    roll = {"type": "roll", "hold": []}
    first = services.game_apply_action(game_id=game.pk, user=ann, client_id="r1", action=roll)
    services.game_apply_action(game_id=game.pk, user=ann, client_id="r2", action=roll)  # the row moves on
    with transaction.atomic():
        decision = moves.decide(game_id=game.pk, user=ann, client_id="r3", action=roll, known=first.known)
        outcome = moves.run_sync(decision)
    assert outcome.seq == 3
    game.refresh_from_db()
    assert check_every_roll(game) == 3
    dice = {a.seq: a.dice for a in game.actions.all()}
    assert dice[3] != dice[2]
