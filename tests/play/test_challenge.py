"""The challenge from a profile (play.challenge): a two-seat table with the challenger seated
and the other player invited, a notice and a push message for them; refused for oneself, a computer,
a blocked pair either way round, and a game that does not exist, with a sentence and no table made."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.errors import BadRequest, Forbidden, NotFound
from games.models import Game, Seat
from notices import push
from notices.models import Notice
from pairing.models import Block
from play.challenge import challenge_create
from tests.push.conftest import device, vapid_keys  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def pushes_to(user) -> list:
    return [
        task
        for task in DBTaskResult.objects.filter(task_path=push.send_push.module_path)
        if set(task.args_kwargs["args"][0]) & set(user.push_subscriptions.values_list("pk", flat=True))
    ]


def test_a_challenge_seats_the_challenger_and_tells_the_other_player(
    make_user,
    device,  # noqa: F811
    vapid_keys,  # noqa: F811
):
    ann, bob = make_user("ann"), make_user("bob", language="de")
    device(bob)
    game = challenge_create(challenger=ann, username="bob", kind="farkle", options={"goal": 3000})

    assert game.status == Game.Status.OPEN and game.max_seats == 2 and game.creator == ann
    assert game.options["goal"] == 3000 and game.pace == Game.Pace.LIVE
    assert list(Seat.objects.filter(game=game).values_list("user__username", flat=True)) == ["ann"]
    (notice,) = Notice.objects.filter(user=bob)
    assert notice.url == game.get_absolute_url() and not notice.seen
    assert notice.message == "ann invites you to play Farkle (3000)."
    (task,) = pushes_to(bob)
    message = task.args_kwargs["args"][1]
    assert message["tag"] == f"invitation-{game.pk}" and message["url"].endswith(game.get_absolute_url())
    assert message["body"] == "ann lädt dich zu einer Partie Farkle (3000) ein."  # bob's own language
    assert not Notice.objects.filter(user=ann).exists()


def test_the_challenged_player_alone_takes_the_seat_and_nobody_else_sees_the_table(make_user):
    from games.tables import lobby
    from games.tables import services as tables

    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    game = challenge_create(challenger=ann, username="bob", kind="farkle", options={"goal": 3000})
    assert game.reserved_for == bob
    assert game not in lobby.open_games_for(cid) and game in lobby.open_games_for(bob)
    with pytest.raises(Forbidden) as refused:
        tables.game_join(game_id=game.pk, user=cid)
    assert "kept for the player who was challenged" in refused.value.message
    tables.game_join(game_id=game.pk, user=bob)
    assert list(game.seats.order_by("position").values_list("user__username", flat=True)) == ["ann", "bob"]


def test_a_challenge_over_days_takes_the_turn_limit(make_user):
    ann, _bob = make_user("ann"), make_user("bob")
    game = challenge_create(
        challenger=ann, username="bob", kind="triple-quintzee", pace="days", absence_limit=2 * 86_400
    )
    assert game.pace == Game.Pace.DAYS and game.absence_limit == 2 * 86_400


@pytest.mark.parametrize("who", ["blocker", "blocked"])
def test_a_blocked_pair_cannot_challenge_either_way(make_user, who):
    ann, bob = make_user("ann"), make_user("bob")
    if who == "blocker":
        Block.objects.create(blocker=ann, blocked=bob)
        said = "You blocked bob: unblock them to challenge them."
    else:
        Block.objects.create(blocker=bob, blocked=ann)
        said = "bob does not take challenges from you."
    with pytest.raises(Forbidden) as refused:
        challenge_create(challenger=ann, username="bob", kind="farkle")
    assert refused.value.message == said
    assert not Game.objects.exists() and not Notice.objects.exists()


def test_nobody_challenges_themselves_a_computer_or_nobody(make_user):
    ann = make_user("ann")
    make_user("computer-expert-1", computer="expert")
    with pytest.raises(BadRequest, match="yourself"):
        challenge_create(challenger=ann, username="ann", kind="farkle")
    with pytest.raises(BadRequest) as computer:
        challenge_create(challenger=ann, username="computer-expert-1", kind="farkle")
    assert "Computer players take no challenges" in computer.value.message
    with pytest.raises(NotFound):
        challenge_create(challenger=ann, username="nobody", kind="farkle")
    assert not Game.objects.exists() and not Notice.objects.exists()


def test_a_game_that_does_not_exist_is_a_clear_error_and_no_table(make_user):
    ann, _bob = make_user("ann"), make_user("bob")
    with pytest.raises(BadRequest) as bad:
        challenge_create(challenger=ann, username="bob", kind="chess")
    assert bad.value.message == "There is no game called 'chess'."
    with pytest.raises(BadRequest):
        challenge_create(challenger=ann, username="bob", kind="farkle", options={"goal": 7})
    assert not Game.objects.exists() and not Notice.objects.exists()


# --- the page's form ---------------------------------------------------------------------------------


def test_the_form_lands_the_challenger_at_the_new_table(make_user, client):
    ann, bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    response = client.post(
        reverse("players:challenge", args=["bob"]), {"kind": "farkle:5000", "pace": "days-1"}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.options["goal"] == 5000 and game.pace == "days" and game.absence_limit == 86_400
    assert Notice.objects.filter(user=bob, url=game.get_absolute_url()).exists()
    page = client.get(game.get_absolute_url()).content.decode()
    assert "bob is challenged" in page


@pytest.mark.parametrize("kind", ["chess", "farkle:7", "", "farkle:\x00"])
def test_a_bad_game_in_the_form_is_the_profile_again_with_why(make_user, client, kind):
    ann, _bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    response = client.post(reverse("players:challenge", args=["bob"]), {"kind": kind, "pace": "live"})
    assert response.status_code == 400
    assert response.context["challenge_form"].errors["kind"]
    assert 'id="challenge-form"' in response.content.decode()
    assert not Game.objects.exists()


def test_a_refused_challenge_says_why_on_the_profile(make_user, client):
    ann, bob = make_user("ann"), make_user("bob")
    Block.objects.create(blocker=bob, blocked=ann)
    client.force_login(ann)
    response = client.post(
        reverse("players:challenge", args=["bob"]), {"kind": "farkle:10000", "pace": "live"}, follow=True
    )
    assert response.redirect_chain == [(reverse("players:profile", args=["bob"]), 302)]
    assert "bob does not take challenges from you." in response.content.decode()
    assert not Game.objects.exists()


def test_only_a_signed_in_player_posts_a_challenge(make_user, client):
    make_user("bob")
    url = reverse("players:challenge", args=["bob"])
    assert client.post(url, {"kind": "farkle:10000", "pace": "live"}).status_code == 302
    assert not Game.objects.exists()
    client.force_login(make_user("ann"))
    assert client.get(url).status_code == 405
    nobody = reverse("players:challenge", args=["nobody"])
    assert client.post(nobody, {"kind": "farkle:10000", "pace": "live"}).status_code == 404


# --- accepted, declined, withdrawn, expired ----------------------------------------------------------


def test_the_challenger_cannot_start_or_fill_the_table_alone(make_user, client):
    """Started alone, the table was the challenger's solo game and the challenged player's notice led
    to a game she could only watch: it starts when she accepts, and takes no computer meanwhile."""
    from games.errors import Conflict
    from games.tables import services as tables

    ann, bob = make_user("ann"), make_user("bob")
    game = challenge_create(challenger=ann, username="bob", kind="farkle", options={"goal": 3000})
    with pytest.raises(Conflict, match="accepts it"):
        tables.game_start(game_id=game.pk, user=ann)
    with pytest.raises(Conflict, match="kept for the challenged player"):
        tables.game_add_computer(game_id=game.pk, user=ann, strength="good")
    client.force_login(ann)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="start-button"' not in page and 'id="add-computer"' not in page
    assert 'id="invite-link"' not in page and 'id="withdraw-button"' in page
    assert "Waiting for bob to accept your challenge" in page
    assert client.post(reverse("games:start", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.seats.count() == 1
    # bob's page: accept or decline; accepting starts the game with both.
    client.force_login(bob)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="accept-button"' in page and 'id="decline-button"' in page
    client.post(reverse("games:join", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.state["players"] == ["ann", "bob"]


def test_a_declined_challenge_is_cancelled_and_tells_the_challenger(make_user, client):
    from games.errors import Forbidden as Refused

    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    game = challenge_create(challenger=ann, username="bob", kind="farkle", options={"goal": 3000})
    client.force_login(cid)
    assert client.post(reverse("games:decline", args=[game.pk])).status_code == 302  # not hers
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    with pytest.raises(Refused):
        from play.challenge import challenge_decline

        challenge_decline(game_id=game.pk, user=ann)
    client.force_login(bob)
    response = client.post(reverse("games:decline", args=[game.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("games:lobby")
    game.refresh_from_db()
    assert game.is_cancelled
    (told,) = Notice.objects.filter(user=ann)
    assert told.message == "bob declined your challenge to Farkle (3000)."
    assert client.post(reverse("games:decline", args=[game.pk])).status_code == 302  # again: said, no 500


@pytest.mark.parametrize(("pace", "limit", "after"), [("live", None, 10 * 60), ("days", 86_400, 14 * 86_400)])
def test_an_unanswered_challenge_expires_and_tells_the_challenger(make_user, pace, limit, after):
    from datetime import timedelta

    from play.challenge import challenge_expire

    ann, _bob = make_user("ann"), make_user("bob")
    game = challenge_create(
        challenger=ann, username="bob", kind="farkle", options={"goal": 3000}, pace=pace, absence_limit=limit
    )
    (task,) = DBTaskResult.objects.filter(task_path="play.challenge.challenge_expire_task")
    assert task.args_kwargs["args"] == [game.pk] and task.run_after == game.created_at + timedelta(
        seconds=after
    )
    assert challenge_expire(game_id=game.pk, now=game.created_at + timedelta(seconds=after - 1)) is None
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    assert challenge_expire(game_id=game.pk, now=game.created_at + timedelta(seconds=after)) is not None
    assert Game.objects.get(pk=game.pk).is_cancelled
    (told,) = Notice.objects.filter(user=ann)
    assert told.message == "Your challenge to bob (Farkle (3000)) expired unanswered."
    assert challenge_expire(game_id=game.pk, now=game.created_at + timedelta(days=30)) is None  # once


def test_an_accepted_or_withdrawn_challenge_does_not_expire(make_user):
    from datetime import timedelta

    from games.tables import services as tables
    from play.challenge import challenge_expire

    ann, bob = make_user("ann"), make_user("bob")
    accepted = challenge_create(challenger=ann, username="bob", kind="farkle")
    tables.game_join(game_id=accepted.pk, user=bob)
    withdrawn = challenge_create(challenger=ann, username="bob", kind="farkle")
    tables.game_leave(game_id=withdrawn.pk, user=ann)
    later = accepted.created_at + timedelta(days=30)
    assert challenge_expire(game_id=accepted.pk, now=later) is None
    assert challenge_expire(game_id=withdrawn.pk, now=later) is None
    assert Game.objects.get(pk=accepted.pk).status == Game.Status.PLAYING
    # Nothing expired: ann is told only that bob's acceptance started the game.
    assert [n.message for n in Notice.objects.filter(user=ann)] == [
        f"bob started {accepted.kind_name} #{accepted.pk}."
    ]


@pytest.mark.parametrize("who", ["blocker", "blocked"])
def test_a_blocked_pair_sees_no_challenge_form_either_way(make_user, client, who):
    ann, bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    assert client.get(reverse("players:profile", args=["bob"])).context["challenge_form"] is not None
    if who == "blocker":
        Block.objects.create(blocker=ann, blocked=bob)
    else:
        Block.objects.create(blocker=bob, blocked=ann)
    page = client.get(reverse("players:profile", args=["bob"]))
    assert page.context["challenge_form"] is None and 'id="challenge-form"' not in page.content.decode()


def test_challenges_are_rate_limited(make_user, settings, fresh_limits):
    from games.errors import RateLimited

    settings.CHALLENGES_PER_HOUR = 3
    ann, _bob, _cid = make_user("ann"), make_user("bob"), make_user("cid")
    for _ in range(3):
        challenge_create(challenger=ann, username="bob", kind="farkle")
    with pytest.raises(RateLimited) as refused:
        challenge_create(challenger=ann, username="cid", kind="farkle")
    assert refused.value.retry_after > 0 and "many challenges" in refused.value.message
    assert Game.objects.count() == 3 and not Notice.objects.filter(user__username="cid").exists()


# --- what the table's sockets hear -------------------------------------------------------------------


@pytest.fixture
def challenged(make_user):
    ann, bob, wat = make_user("ann"), make_user("bob"), make_user("wat")
    return (
        ann,
        bob,
        wat,
        challenge_create(challenger=ann, username="bob", kind="farkle", options={"goal": 3000}),
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("answer", ["accept", "decline"])
async def test_the_tables_sockets_hear_the_answer(challenged, answer):
    """The challenger's page and a spectator's follow the answer: the game starts (accepted) or the
    table is cancelled (declined); nobody hears a start before the challenged player answers."""
    from channels.db import database_sync_to_async

    from games.errors import Conflict
    from games.tables import services as tables
    from play.challenge import challenge_decline
    from tests.games.sockets import Client

    ann, bob, wat, game = challenged
    tabs = [Client(ann, game.pk), Client(wat, game.pk)]
    try:
        for tab in tabs:
            await tab.open()
        with pytest.raises(Conflict, match="accepts it"):
            await database_sync_to_async(tables.game_start)(game_id=game.pk, user=ann)
        for tab in tabs:
            await tab.drain()
            assert not [m for m in tab.received if m["type"] == "lobby"], tab.user.username
        if answer == "accept":
            await database_sync_to_async(tables.game_join)(game_id=game.pk, user=bob)
        else:
            await database_sync_to_async(challenge_decline)(game_id=game.pk, user=bob)
        expected = "playing" if answer == "accept" else "abandoned"
        for tab in tabs:
            lobby = await tab.next("lobby")
            assert lobby["status"] == expected, tab.user.username
    finally:
        for tab in tabs:
            await tab.close()
