"""When the site sends a push message, and what becomes of the turn's e-mail (notices.services and
notices.push): at once for a turn of a player on no page, never for a game nobody waits in, never for
a kind the device switched off; the e-mail dropped when a push service took the message, sent when
none did."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.errors import InvalidAction
from games.models import Connection, Game
from games.tables import services
from groups import services as group_services
from notices import push
from notices import services as notices
from notices.models import Preferences, PushSubscription, TurnMail
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)
SEND = push.send_push.module_path


def table(make_user, pace="days", limit=86_400):
    ann = make_user("ann", email="ann@example.com")
    bob = make_user("bob", email="bob@example.com", language="de")
    game = GameFactory(
        creator=ann, kind="triple-quintzee", players=[bob], pace=pace, absence_limit=limit, start=False
    )
    Connection.objects.create(game=game, user=ann, channel_name="ann.tab", seen_at=timezone.now())
    services.game_start(game_id=game.pk, user=ann)
    return Game.objects.get(pk=game.pk), ann, bob


def end_turn(game: Game, user, n=[0]):  # noqa: B006 - a counter of client ids across the module
    from games import rules

    engine = rules.get(game.kind)
    for kind in ("roll", "score"):
        state = Game.objects.get(pk=game.pk).state
        action = next(a for a in engine.legal_actions(state) if a["type"] == kind)
        n[0] += 1
        services.game_apply_action(game_id=game.pk, user=user, client_id=f"p{n[0]}", action=action)


def pushes() -> list:
    return list(DBTaskResult.objects.filter(task_path=SEND).order_by("enqueued_at"))


def worker():
    call_command("worker", batch=True, verbosity=0)


def make_due():
    TurnMail.objects.update(due_at=timezone.now() - timedelta(seconds=1))


def test_a_turn_passing_to_a_player_on_no_page_pushes_at_once_in_their_language(
    make_user, device, vapid_keys, transport
):
    game, ann, bob = table(make_user)
    device(bob)
    end_turn(game, ann)
    (task,) = pushes()  # written with the move, to run at once
    assert task.run_after.year == 9999 or task.run_after <= timezone.now()  # 9999: the backend's "no wait"
    worker()
    (message,) = transport.messages
    assert message == {
        "title": f"Du bist am Zug in Triple Quintzee #{game.pk}",
        "body": message["body"],
        "url": f"http://127.0.0.1:8000/games/{game.pk}/",
        "tag": f"turn-{game.pk}-{int(Game.objects.get(pk=game.pk).turn_started_at.timestamp())}",
    }
    assert set(message) == {"title", "body", "url", "tag"} and message["body"]
    assert TurnMail.objects.get(user=bob).pushed_at is not None


def test_no_push_and_the_mail_as_before_for_a_player_without_a_device(make_user, vapid_keys, transport):
    game, ann, _bob = table(make_user)
    end_turn(game, ann)
    assert pushes() == []
    make_due()
    worker()
    assert transport.sent == []
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def test_the_mail_is_not_sent_when_the_push_was_delivered(make_user, device, vapid_keys, transport):
    game, ann, bob = table(make_user)
    device(bob)
    end_turn(game, ann)
    worker()  # the push, at once; the e-mail is not due yet
    make_due()
    worker()
    assert len(transport.sent) == 1
    assert mail.outbox == []
    promised = TurnMail.objects.get(user=bob)
    assert (promised.status, promised.why) == (TurnMail.Status.DROPPED, "told by push")


def test_the_mail_is_sent_when_the_push_failed(make_user, device, vapid_keys, transport):
    transport.status = 500
    game, ann, bob = table(make_user)
    kept = device(bob)
    end_turn(game, ann)
    worker()
    make_due()
    worker()
    assert len(transport.sent) == 1
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert TurnMail.objects.get(user=bob).status == TurnMail.Status.SENT
    assert PushSubscription.objects.filter(pk=kept.pk).exists()  # a failure is not a goodbye


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_knows_is_removed(
    make_user, device, vapid_keys, transport, status
):
    transport.status = status
    game, ann, bob = table(make_user)
    device(bob)
    end_turn(game, ann)
    worker()
    assert not PushSubscription.objects.exists()
    make_due()
    worker()
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def test_one_device_that_took_it_is_enough(make_user, device, vapid_keys, transport):
    game, ann, bob = table(make_user)
    device(bob)
    device(bob)
    end_turn(game, ann)
    (task,) = pushes()  # one message, to both devices at once
    assert len(task.args_kwargs["args"][0]) == 2
    worker()
    assert len(transport.sent) == 2
    make_due()
    worker()
    assert mail.outbox == []


def test_a_device_with_turns_switched_off_gets_none(make_user, device, vapid_keys, transport):
    game, ann, bob = table(make_user)
    device(bob, turn=False)
    wanted = device(bob)
    end_turn(game, ann)
    worker()
    assert [endpoint for endpoint, _data in transport.sent] == [wanted.endpoint]


def test_no_push_after_the_player_switched_turns_off_everywhere(make_user, device, vapid_keys, transport):
    game, ann, bob = table(make_user)
    device(bob, turn=False)
    end_turn(game, ann)
    worker()
    assert pushes() == [] and transport.sent == []
    make_due()
    worker()
    assert len(mail.outbox) == 1  # the e-mail, as for a player without push


def test_no_push_to_a_player_on_a_page_of_the_site(make_user, device, vapid_keys, transport):
    game, ann, bob = table(make_user)
    device(bob)
    Preferences.objects.create(user=bob, seen_at=timezone.now())  # bob's notices socket pings
    end_turn(game, ann)
    assert pushes() == []


def test_no_push_without_vapid_keys(make_user, device, settings, tmp_path, transport):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_KEYS_FILE = tmp_path / "none.json"
    game, ann, bob = table(make_user)
    device(bob)
    end_turn(game, ann)
    assert pushes() == []


def test_no_push_in_a_solo_game(make_user, device, vapid_keys, transport):
    from games.live import presence

    ann = make_user("ann", email="ann@example.com")
    device(ann)
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=1)
    Connection.objects.create(game=game, user=ann, channel_name="ann.solo", seen_at=timezone.now())
    presence.connection_close(channel_name="ann.solo", user=ann)
    worker()
    assert pushes() == [] and transport.sent == []


def test_no_push_in_a_game_against_computers_only(make_user, device, vapid_keys, transport, settings):
    settings.COMPUTER_PAUSE = settings.COMPUTER_PAUSE_UNWATCHED = 0
    ann = make_user("ann", email="ann@example.com")
    device(ann)
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=3, computers=2, strength="easy")
    end_turn(game, ann)
    worker()
    assert Game.objects.get(pk=game.pk).current_player == "ann"
    assert pushes() == [] and transport.sent == []


def test_a_player_who_leaves_a_live_game_during_their_turn_is_pushed_at_once(
    make_user, device, vapid_keys, transport
):
    from games.live import presence

    game, ann, _bob = table(make_user, pace="live", limit=300)
    device(ann)
    TurnMail.objects.all().delete()
    # ann's own page pinged a moment ago: leaving it is what matters here.
    Preferences.objects.create(user=ann, seen_at=timezone.now())
    presence.connection_close(channel_name="ann.tab", user=ann)
    worker()
    (message,) = transport.messages
    assert message["url"].endswith(game.get_absolute_url())
    assert TurnMail.objects.get(user=ann).pushed_at is not None


def test_the_skip_counts_a_delivered_push_as_told(make_user, device, vapid_keys, transport, settings):
    game, ann, bob = table(make_user, pace="live", limit=10)
    device(bob)
    Connection.objects.filter(user=ann).delete()
    end_turn(game, ann)
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(turn_started_at=game.turn_started_at - timedelta(seconds=60))
    TurnMail.objects.update(turn_started_at=game.turn_started_at - timedelta(seconds=60))
    from games import effects
    from notices.handlers import refuse_untold_skip

    skip = effects.SkipAsked(game=Game.objects.get(pk=game.pk), user=ann, player="bob", player_id=bob.pk)
    Preferences.objects.update_or_create(user=bob, defaults={"seen_at": None})
    with pytest.raises(InvalidAction):
        refuse_untold_skip(skip)
    TurnMail.objects.update(pushed_at=timezone.now())
    refuse_untold_skip(skip)  # told by the push: may be skipped


def test_added_to_a_group_pushes_the_groups_page(make_user, device, vapid_keys, transport):
    ann, bob = make_user("ann"), make_user("bob")
    device(bob)
    group = group_services.group_create(creator=ann, name="Dicers")
    group_services.group_add_member(group_id=group.pk, user=ann, username="bob")
    worker()
    (message,) = transport.messages
    assert message["url"] == f"http://127.0.0.1:8000/groups/{group.pk}/"
    assert "ann" in message["body"] and "Dicers" in message["body"]
    assert message["tag"] == f"group-{group.pk}"


def test_a_device_with_groups_switched_off_hears_nothing_of_them(make_user, device, vapid_keys, transport):
    ann, bob = make_user("ann"), make_user("bob")
    device(bob, group=False)
    group = group_services.group_create(creator=ann, name="Dicers")
    group_services.group_add_member(group_id=group.pk, user=ann, username="bob")
    assert pushes() == []


def test_the_invitation_and_the_tournament_round_are_ready(make_user, device, vapid_keys, transport):
    game, ann, bob = table(make_user)
    device(bob, invitation=False)
    device(bob, tournament=False)
    assert notices.invited_to_table(bob, game, ann) == 1
    assert notices.tournament_round(bob, game) == 1
    worker()
    titles = sorted(json.loads(data)["tag"] for _e, data in transport.sent if "turn" not in data)
    assert f"invitation-{game.pk}" in titles and f"tournament-{game.pk}" in titles


def test_no_tournament_push_for_a_game_nobody_waits_in(make_user, device, vapid_keys):
    ann = make_user("ann")
    device(ann)
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=1)
    assert notices.tournament_round(ann, game) == 0


def test_a_due_mail_waits_for_the_push_still_to_be_sent(make_user, device, vapid_keys, transport):
    """A worker running late: the e-mail is due before the turn's push has gone. It waits for it."""
    game, ann, bob = table(make_user)
    device(bob)
    end_turn(game, ann)
    make_due()
    promised = TurnMail.objects.get(user=bob)
    assert notices.deliver(promised.pk) == "waiting for its push"
    assert TurnMail.objects.get(pk=promised.pk).status == TurnMail.Status.PENDING
    worker()  # the push first (enqueued earlier), then the sweep
    assert len(transport.sent) == 1 and mail.outbox == []
    assert TurnMail.objects.get(pk=promised.pk).why == "told by push"
