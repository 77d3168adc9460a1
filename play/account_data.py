"""A player's own data: all of it as one JSON download (GDPR Art. 20), and the account's deletion on
request (Art. 17), by the player or the staff alike.

Deletion keeps the account's row under a placeholder name and takes the person out of it. The games
stay, for their other players' results, statistics, ratings and replays (lichess keeps a closed
account's games the same way): seats are PROTECTed and every game's stored state names its players, so
the row stays and its name is replaced, in the games' states too. What identifies or describes the
person goes: e-mail, display name, password, settings, devices, notices, blocks, follows, reviews,
sessions and sign-in records; what they wrote at tables and in groups is blanked and shown as removed
(the messages of others around it keep their place). Figures of the kept games (ratings, standings, tournament
entries, daily attempts) stay under the placeholder: they are no longer anyone's.

Every model with a foreign key to the user has its decision in ``ON_DELETE`` below, and a test fails
when one has none."""

from __future__ import annotations

import logging
import re
import secrets

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import ForeignKey, OneToOneField

from accounts import names
from chat.models import Message, Mute, TableChatOff
from coach.models import SeatReview
from friends.models import Follow
from games.errors import ReplayMismatch
from games.models import Action, Connection, Game, SeedCommitment
from games.results.replays import game_replay_states
from games.rules import IllegalAction
from games.tables import services as tables
from groups import services as groups
from groups.models import Group, Membership
from notices.models import Notice, Preferences, PushSubscription, TurnMail
from pairing.models import Block, Seek
from safety.models import Report
from seasons.models import Standing

logger = logging.getLogger(__name__)

# What deletion does with each model's foreign key to the user ("model label.field": decision).
ON_DELETE = {
    # Kept: the games and their figures, now under the placeholder name.
    "games.Seat.user": "kept (the games stay; their states renamed)",
    "games.Game.creator": "kept",
    "games.Game.reserved_for": "a challenge table still open for the person is cancelled",
    "daily.Attempt.user": "kept",
    "ratings.Rating.user": "kept",
    "ratings.RatingChange.user": "kept",
    "seasons.Season.opened_by": "kept",
    "seasons.Standing.user": "kept, its copy of the name replaced",
    "tournaments.Tournament.creator": "kept",
    "tournaments.Entry.user": "kept",
    "tournaments.Bye.user": "kept",
    "admin.LogEntry.user": "kept (the staff's record of what the staff did)",
    # Blanked: the person's words, in conversations that others keep.
    "chat.Message.author": "text blanked, shown as removed",
    # Handed over: a group the person created goes to its longest-standing other member.
    "dicegroups.Group.creator": "handed to the oldest other member; deleted (games kept) if none",
    # Deleted.
    "dicegroups.Membership.user": "deleted",
    "games.Connection.user": "deleted",
    "coach.SeatReview.user": "deleted",
    "pairing.Seek.user": "deleted",
    "pairing.Block.blocker": "deleted",
    "pairing.Block.blocked": "deleted",
    "friends.Follow.follower": "deleted",
    "friends.Follow.followed": "deleted",
    "notices.Preferences.user": "deleted",
    "notices.TurnMail.user": "deleted",
    "notices.Notice.user": "deleted",
    "notices.PushSubscription.user": "deleted",
    "games.SeedCommitment.user": "deleted (the seed of a next game never made)",
    "chat.Mute.muter": "deleted",
    "chat.Mute.muted": "deleted",
    "chat.TableChatOff.user": "deleted",
    "safety.Report.reporter": "deleted",
    # The moderators' record, as the admin's log: what was reported and decided stays.
    "safety.Report.reported": "kept (the moderators' record)",
    "safety.Decision.player": "kept (the moderators' record)",
    "safety.Decision.moderator": "kept (the moderators' record)",
}

# Rows about the player that name someone who must stay unknown to them, as "model label.field": the
# fields left out of the download (None: the rows left out). Nobody learns who blocked, reported or
# muted them, nor which moderator decided; what was decided and why is theirs (safety.Decision).
OTHERS_LEFT_OUT = {
    "pairing.Block.blocked": None,
    "chat.Mute.muted": None,
    "safety.Report.reported": None,
    "safety.Decision.player": {"moderator"},
}

# Left out of the download: secrets, not data about the player (the password's hash, a device's push
# keys, the server seeds: one known while its game can be played tells every roll to come, and a
# finished game's is in that game's own export), and the name's look-alike key.
SECRET_FIELDS = frozenset({"password", "p256dh", "auth", "name_key", "server_seed", "next_server_seed"})


def user_foreign_keys() -> list[tuple[type, str]]:
    """(model, field name) of every foreign key to the user model, in every installed app."""
    user_model = get_user_model()
    # Hidden relations included: most keys to the user have no reverse accessor (related_name "+").
    return [
        (relation.related_model, relation.field.name)
        for relation in user_model._meta.get_fields(include_hidden=True)
        if relation.auto_created
        and not relation.concrete
        and isinstance(relation.field, ForeignKey | OneToOneField)
        and not relation.related_model._meta.auto_created  # Django's own tables of many-to-many fields
    ]


def _rows(model, left_out=frozenset(), **where) -> list[dict]:
    hidden = SECRET_FIELDS | set(left_out)
    fields = [f.attname for f in model._meta.concrete_fields if f.name not in hidden]
    return list(model.objects.filter(**where).order_by("pk").values(*fields))


def account_export(user) -> dict:
    """Everything stored about ``user``: the account, then every row of every model that points to it
    (by each of its foreign keys), the actions of their seats, and the games they sat at."""
    user_model = get_user_model()
    data = {"account": _rows(user_model, pk=user.pk)[0]}
    for model, field in user_foreign_keys():
        label = f"{model._meta.label}.{field}"
        if label in OTHERS_LEFT_OUT and OTHERS_LEFT_OUT[label] is None:
            continue
        data[label] = _rows(model, OTHERS_LEFT_OUT.get(label, frozenset()), **{field: user})
    data["games.Action"] = list(
        Action.objects.filter(seat__user=user)
        .order_by("game_id", "seq")
        .values("game_id", "seq", "action", "dice", "result", "created_at")
    )
    data["games"] = list(
        Game.objects.filter(seats__user=user)
        .order_by("pk")
        .values("pk", "kind", "options", "status", "created_at", "started_at", "finished_at", "rated")
    )
    data["notices"] = [
        {"message": notice.message, "url": notice.url, "at": notice.created_at, "seen": notice.seen}
        for notice in Notice.objects.filter(user=user).order_by("pk")
    ]
    return data


def _placeholder() -> str:
    """A name nobody else has had or will have: the prefix is refused at sign-up (accounts.names), and
    the row keeps the name for good."""
    user_model = get_user_model()
    while True:
        name = f"{names.DELETED_PREFIX}{secrets.token_hex(4)}"
        if not user_model.objects.filter(name_key=names.username_key(name)).exists():
            return name


def _renamed(value, old: str, new: str):
    """``value`` (JSON) with ``old`` as ``new``: keys equal to it, and in strings wherever it stands as
    a word of its own (the engines' sentences name players: "ann wins after 1 lap")."""
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, str):
        return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", lambda _match: new, value)
    return value


def _rename_in_games(user, old_name: str) -> None:
    """Each stored state and logged event names the players: rebuild them from the log under the
    account's new name (the engine decides where a name goes). A game whose log does not replay (none
    should) has its name replaced wherever it stands as a word instead."""
    for game in Game.objects.filter(seats__user=user).exclude(state=None).order_by("pk"):
        try:
            states = game_replay_states(game)
        except (ReplayMismatch, IllegalAction, ValueError):
            logger.warning("game %s does not replay; the deleted account's name is replaced", game.pk)
            game.state = _renamed(game.state, old_name, user.username)
            game.save(update_fields=["state"])
            for action in game.actions.all():
                action.result = _renamed(action.result, old_name, user.username)
                action.save(update_fields=["result"])
            continue
        game.state = states[-1]
        game.save(update_fields=["state"])
        for action in game.actions.order_by("seq"):
            action.result = states[action.seq].get("last_event") or {}
            action.save(update_fields=["result"])


def _hand_over_groups(user) -> None:
    for group in Group.objects.filter(creator=user).order_by("pk"):
        heir = Membership.objects.filter(group=group).exclude(user=user).order_by("joined_at", "pk").first()
        if heir is None:
            groups.group_delete(group_id=group.pk, user=user)
        else:
            Group.objects.filter(pk=group.pk).update(creator=heir.user)


def account_delete(*, user) -> str:
    """Delete ``user``'s account as the module says; return the placeholder name it now has. Deleting a
    deleted account again changes nothing. Its sockets close (User.save, as on a new password)."""
    user_model = get_user_model()
    with transaction.atomic():
        user = user_model.objects.select_for_update().get(pk=user.pk)
        if names.is_deleted_name(user.username):
            return user.username
        tables.give_up_seats(user=user, client_id="account-deleted")
        _hand_over_groups(user)
        old_name = user.username
        user.username = _placeholder()
        user.email = user.first_name = user.last_name = user.display_name = user.language = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.theme = user_model.Theme.AUTO
        user.quick_scoring = False
        user.last_login = None
        user.set_unusable_password()  # every session of theirs ends with the old password's hash
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        _rename_in_games(user, old_name)
        Standing.objects.filter(user=user).update(username=user.username)
        Message.objects.filter(author=user).update(text="", removed=True)
        for model in (
            Membership,
            Connection,
            SeatReview,
            Seek,
            Preferences,
            TurnMail,
            Notice,
            PushSubscription,
            SeedCommitment,
        ):
            model.objects.filter(user=user).delete()
        Block.objects.filter(blocker=user).delete()
        Block.objects.filter(blocked=user).delete()
        Follow.objects.filter(follower=user).delete()
        Follow.objects.filter(followed=user).delete()
        Mute.objects.filter(muter=user).delete()
        Mute.objects.filter(muted=user).delete()
        TableChatOff.objects.filter(user=user).delete()
        Report.objects.filter(reporter=user).delete()
        for model in (AccessAttempt, AccessLog, AccessFailureLog):
            model.objects.filter(username=old_name).delete()
    return user.username
