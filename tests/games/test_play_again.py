"""Play again seats only the player who presses it: the game's other players are asked (a notice, and
the old table's sockets), each takes a seat by pressing too, and a blocked pair is never seated
together nor asked, whoever blocked whom."""

from __future__ import annotations

import pytest

from games.errors import Conflict, Forbidden
from games.models import Game
from games.tables import services
from notices.models import Notice
from pairing.services import block_player
from tests.games.sockets import Client, new_table
from tests.played import everyone_moves

GOAL = {"goal": 3000}


def ended(ann, bob) -> Game:
    game = services.game_create(creator=ann, kind="farkle", options=GOAL, seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    everyone_moves(game, points=False)
    services.game_apply_action(game_id=game.pk, user=bob, client_id="bob-resigns", action={"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def invitations(user) -> int:
    return Notice.objects.filter(user=user, text__contains="invites you").count()


@pytest.mark.django_db
def test_play_again_asks_the_others_and_seats_them_when_they_press(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = ended(ann, bob)
    before = invitations(bob)
    new = services.game_play_again(game_id=game.pk, user=ann)
    assert new.status == Game.Status.OPEN and [s.user for s in new.seats.all()] == [ann]
    assert invitations(bob) == before + 1  # asked, not seated
    services.game_play_again(game_id=game.pk, user=bob)
    new.refresh_from_db()
    assert new.status == Game.Status.PLAYING and new.state["players"] == ["ann", "bob"]


@pytest.mark.django_db
@pytest.mark.parametrize("blocker", ["bob", "ann"])
def test_play_again_never_seats_or_asks_a_blocked_pair(make_user, blocker):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    game = ended(ann, bob)
    users = {"ann": ann, "bob": bob}
    block_player(user=users[blocker], username="ann" if blocker == "bob" else "bob")
    before = invitations(bob)
    with pytest.raises(Conflict, match="Nobody from this table"):
        services.game_play_again(game_id=game.pk, user=ann)  # nobody left to ask: no game
    assert not Game.objects.filter(rematch_of=game).exists() and invitations(bob) == before
    # Nor does bob sit at any table of ann's: the join refuses the pair, whoever blocked whom.
    table = services.game_create(creator=ann, kind="farkle", seats=2)
    with pytest.raises(Forbidden):
        services.game_join(game_id=table.pk, user=bob)
    assert cy.pk  # a third player, unblocked, is untouched by it
    services.game_join(game_id=table.pk, user=cy)


@pytest.mark.django_db
def test_a_blocked_player_presses_play_again_after_the_other(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", options=GOAL, seats=3)
    cy = make_user("cy")
    services.game_join(game_id=game.pk, user=bob)
    services.game_join(game_id=game.pk, user=cy)
    services.game_start(game_id=game.pk, user=ann)
    everyone_moves(game, points=False)
    for user in (bob, cy):
        services.game_apply_action(
            game_id=game.pk, user=user, client_id=f"r-{user}", action={"type": "resign"}
        )
    block_player(user=bob, username="ann")
    new = services.game_play_again(game_id=game.pk, user=ann)
    assert new.max_seats == 2 and [s.user for s in new.seats.all()] == [ann]  # cy asked, bob not
    with pytest.raises(Forbidden):
        services.game_play_again(game_id=game.pk, user=bob)
    with pytest.raises(Forbidden):
        services.game_join(game_id=new.pk, user=bob)
    assert not new.seats.filter(user=bob).exists()
    services.game_play_again(game_id=game.pk, user=cy)
    new.refresh_from_db()
    assert new.status == Game.Status.PLAYING and new.state["players"] == ["ann", "cy"]


@pytest.fixture
def trio(make_user):
    return make_user("ann"), make_user("bob"), make_user("wat")


def _end_with_block(ann, bob, game_id):
    game = Game.objects.get(pk=game_id)
    everyone_moves(game, points=False)
    services.game_apply_action(game_id=game_id, user=bob, client_id="bob-resigns", action={"type": "resign"})


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("blocked", [False, True])
async def test_every_socket_hears_who_is_asked(trio, blocked):
    """The old table's sockets hear the next table with the players asked: bob, unless he blocked ann
    (then nobody is asked and, the table being of two, there is no next game at all)."""
    from channels.db import database_sync_to_async

    ann, bob, watcher = trio
    game = await new_table(ann, [bob], "farkle", GOAL)
    await database_sync_to_async(_end_with_block)(ann, bob, game.pk)
    tabs = [Client(user, game.pk) for user in (ann, bob, watcher)]
    try:
        for tab in tabs:
            await tab.open()
        if blocked:
            await database_sync_to_async(block_player)(user=bob, username="ann")
            with pytest.raises(Conflict, match="Nobody from this table"):
                await database_sync_to_async(services.game_play_again)(game_id=game.pk, user=ann)
            for tab in tabs:
                await tab.drain()
                assert not [m for m in tab.received if m["type"] == "next_game"], tab.user.username
            return
        new = await database_sync_to_async(services.game_play_again)(game_id=game.pk, user=ann)
        for tab in tabs:
            heard = await tab.next("next_game")
            assert heard == {"type": "next_game", "game": new.pk, "by": "ann", "invited": ["bob"]}
    finally:
        for tab in tabs:
            await tab.close()
