"""A small world for the permission matrices: one user per role, a group, and games in every state.

Roles (the issue's list):

- ``anonymous``: no session;
- ``outsider``: signed in, in no group and no game (``olga``);
- ``member``: a member of the group, seated nowhere (``gmember``);
- ``creator``: the group's creator, seated nowhere (``gcreator``);
- ``seated``: seated in every game below and the player to move (``ann``, also a group member);
- ``waiting``: seated in the playing games but not to move, the "player out of turn" (``bob``, member);
- ``spectator``: signed in, watching public games, in no group (``cid``);
- ``staff``: the site's administrator (``root``: is_staff and is_superuser, in no group).

Games (ann created each, so ann holds seat 0; bob holds seat 1 where there are two players):

- ``public-<kind>``: a public game of each kind, playing, ann to move;
- ``group``: a Farkle game of the group, playing, ann to move;
- ``group-open``: a Farkle table of the group waiting for players (ann seated);
- ``open``: a public Farkle table waiting for players (ann seated);
- ``finished``: a public Farkle game that is over (both played a turn, then the waiting player
  resigned; the seated one won).

The group has an invitation link (``world.group.invite_token``), a tournament its creator announced,
number 1, which ``seated`` and ``waiting`` have entered (``world.tournament``), a season running from
today for a week (``world.season``, its number) and one that starts in a month (``world.upcoming_season``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth.models import Group as AuthGroup
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from games.models import Game
from games.tables import services
from groups import services as group_services
from groups.models import Group
from notices.models import PushSubscription
from notices.services import unsubscribe_token
from notices.tasks import send_due_turn_mails
from seasons import services as seasons
from tests.factories import UserFactory
from tests.played import everyone_moves
from tournaments import services as tournament_services
from tournaments.models import Tournament

ROLES = ("anonymous", "outsider", "member", "creator", "seated", "waiting", "spectator", "staff")
USERNAMES = {
    "outsider": "olga",
    "member": "gmember",
    "creator": "gcreator",
    "seated": "ann",
    "waiting": "bob",
    "spectator": "cid",
    "staff": "root",
}
KINDS = ("farkle", "triple-quintzee", "triple-yahtzee-99", "painted-dicez")
FIRST_ACTION = {
    "farkle": {"type": "roll", "keep": []},
    "triple-quintzee": {"type": "roll", "hold": []},
    "triple-yahtzee-99": {"type": "roll", "hold": []},
    "painted-dicez": {"type": "roll", "hold": []},
}


@dataclass
class World:
    users: dict = field(default_factory=dict)  # role -> user (no "anonymous")
    games: dict = field(default_factory=dict)  # name -> Game
    group: Group | None = None
    season: int = 0  # the number of the group's season (seasons), running from today for a week
    upcoming_season: int = 0  # the number of one that starts in a month
    auth_group: AuthGroup | None = None
    task_id: str = ""  # a result of the worker's sweep (notices.tasks)
    push_device: int = 0  # the "seated" player's phone (notices.models.PushSubscription)
    unsubscribe_token: str = ""  # the turn e-mails' unsubscribe token of the "outsider"
    tournament: Tournament | None = None  # the group's, open for entries (tournaments)

    def user(self, role: str):
        return self.users.get(role)


def _table(creator, others, kind="farkle", group=None, start=True, seats=None) -> Game:
    game = services.game_create(
        creator=creator, kind=kind, seats=seats or max(2, 1 + len(others)), group=group
    )
    for other in others:
        services.game_join(game_id=game.pk, user=other)
    if start:
        services.game_start(game_id=game.pk, user=creator)
    return Game.objects.get(pk=game.pk)


def build() -> World:
    world = World()
    for role, name in USERNAMES.items():
        extra = {"is_staff": True, "is_superuser": True} if role == "staff" else {}
        world.users[role] = UserFactory(username=name, **extra)
    u = world.users
    group = group_services.group_create(creator=u["creator"], name="Friday dice", description="Fridays.")
    for role in ("member", "seated", "waiting"):
        group_services.group_add_member(group_id=group.pk, user=u["creator"], username=u[role].username)
    group.invite_token = group_services.group_invite_create(group_id=group.pk, user=u["creator"])
    world.group = group
    today = timezone.localdate()
    week = today + timedelta(days=6)
    world.season = seasons.season_open(
        group_id=group.pk, user=u["creator"], kind="farkle:3000", first_day=today, last_day=week
    ).number
    month = today + timedelta(days=30)
    world.upcoming_season = seasons.season_open(
        group_id=group.pk, user=u["creator"], kind="triple-quintzee", first_day=month, last_day=month
    ).number
    for kind in KINDS:
        world.games[f"public-{kind}"] = _table(u["seated"], [u["waiting"]], kind)
    world.games["group"] = _table(u["seated"], [u["waiting"]], group=group)
    world.games["group-open"] = _table(u["seated"], [], group=group, start=False, seats=3)
    world.games["open"] = _table(u["seated"], [], start=False, seats=3)
    finished = everyone_moves(_table(u["seated"], [u["waiting"]]))
    services.game_apply_action(
        game_id=finished.pk, user=u["waiting"], client_id="resign-waiting", action={"type": "resign"}
    )
    world.games["finished"] = Game.objects.get(pk=finished.pk)
    assert world.games["finished"].status == Game.Status.FINISHED
    world.auth_group = AuthGroup.objects.create(name="referees")
    world.task_id = str(send_due_turn_mails.enqueue().id)
    world.push_device = PushSubscription.objects.create(
        user=u["seated"],
        endpoint="https://push.example.com/send/seated-phone",
        p256dh="B" + "A" * 86,
        auth="A" * 22,
        device="Chrome on Android",
    ).pk
    world.unsubscribe_token = unsubscribe_token(u["outsider"])
    soon = timezone.now() + timedelta(days=1)
    world.tournament = tournament_services.tournament_create(
        group_id=group.pk,
        user=u["creator"],
        name="Friday Swiss",
        kind="farkle",
        options={"goal": 3000},
        starts_at=soon,
        entries_close_at=soon,
    )
    for role in ("seated", "waiting"):
        tournament_services.tournament_enter(tournament_id=world.tournament.pk, user=u[role])
    return world


def routes(resolver: URLResolver | None = None, prefix: str = "") -> list[str]:
    """Every URL pattern Django serves, as its route ("games/<id:game_id>/join/"), included ones too."""
    found = []
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            found += routes(pattern, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            found.append(prefix + str(pattern.pattern))
    # Django drops the ^ of a regex pattern when it joins routes (ResolverMatch.route); do the same.
    return [re.sub(r"(^|/)\^", r"\1", route) for route in found]
