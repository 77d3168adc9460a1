"""Shared by the tournaments' tests: a group of members, a tournament announced in it, and its games
ended as their players would end them (a resignation is a move like any other)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Game
from games.tables import services as tables
from tests.factories import GroupFactory, UserFactory
from tournaments import services
from tournaments.models import Round, Tournament


def group_of(names: list[str]):
    """A group created by the first name, with the others as members; (group, users by name)."""
    users = {name: UserFactory(username=name) for name in names}
    group = GroupFactory(creator=users[names[0]], members=[users[n] for n in names[1:]])
    return group, users


def announce(group, creator, now=None, **kw) -> Tournament:
    now = now or timezone.now()
    arguments = {
        "name": "Friday Swiss",
        "kind": "farkle",
        "options": {"goal": 3000},
        "format": "swiss",
        "rounds": 3,
        "table_size": 2,
        "pace": "live",
        "starts_at": now + timedelta(hours=1),
        "entries_close_at": now + timedelta(minutes=50),
    }
    arguments.update(kw)
    return services.tournament_create(group_id=group.pk, user=creator, now=now, **arguments)


def everyone_enters(tournament: Tournament, users) -> None:
    for user in users:
        services.tournament_enter(tournament_id=tournament.pk, user=user)


def round_games(tournament: Tournament, number: int) -> list[Game]:
    round_ = Round.objects.get(tournament=tournament, number=number)
    return [t.game for t in round_.tables.select_related("game").order_by("number")]


def end(game: Game, loser=None) -> None:
    """The game ends: every seat but the first resigns (or ``loser`` alone, at a table of two)."""
    seats = list(game.seats.select_related("user").order_by("position"))
    leaving = [loser] if loser is not None else [s.user for s in seats[1:]]
    for user in leaving:
        tables.game_apply_action(
            game_id=game.pk, user=user, client_id=f"resign-{user.pk}", action={"type": "resign"}
        )
