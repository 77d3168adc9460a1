"""Who may see a game: the one rule, as a query condition (``watchable``) and as a test of one game
(``can_watch``) that is that same condition, so that no page, socket, list or figure decides otherwise.

- a public game: anyone signed in; once it is over, anyone, a visitor without an account too (its
  replay and export are public pages, the shared link of a game);
- a private game (a group's, Game.private, fixed at its creation): the current members of its group;
  once the group is deleted, its players alone (deleting the group never opens its games to more
  people). A member removed from the group sees none of its games any more, seat or not;
- a private game without a group from its creation on (a daily challenge's: games.tables.services
  ``game_create(private=True)``): its players alone, until it is made public (``games_make_public``).

Staff are no exception: the site's pages show a private group's games to its members only (staff who
must look use the admin, whose model permissions decide).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from games.models import Game, Seat
from infra.hooks import Hook
from infra.orm_sql import column, exists_sql

# The membership of a game's group, which the groups app, above the game core, names when it starts
# (groups.apps). Without it a private game is its players'.
group_members = Hook(
    "games.access.group_members",
    "The model whose rows make a user a member of a game's group.",
    receives="nothing: the handler is the model itself (one at most), with `group_id` and `user`",
    returns="its rows, read by the ORM's conditions and compiled into the move's statements",
    runs="in every query of who may see or act in a group's game",
    single=True,
)


def _membership():
    """The membership model named, or None."""
    return group_members.only()


def _members(group, user):
    """The membership rows that make ``user`` (a pk or an expression) a member of ``group`` (a pk or
    an expression): the one statement of membership, read by the ORM and, compiled, by the move."""
    return _membership().objects.filter(group_id=group, user_id=user)


def may_act_as_member(user, via: str = "") -> Q:
    """Who may act in a game as far as its group is concerned, as a condition on a query of games (or
    of rows that lead to one through ``via``): a game without a group, or a member of its group now (a
    member removed from the group may not move in its games, seat or not)."""
    field = f"{via}__" if via else ""
    no_group = Q(**{f"{field}group__isnull": True})
    if _membership() is None:
        return no_group
    return no_group | Q(Exists(_members(OuterRef(f"{field}group_id"), getattr(user, "pk", user))))


def may_act_as_member_sql(group: str) -> str:
    """``may_act_as_member`` as SQL for a hand-written statement whose game's group is the column
    ``group`` (``g.group_id``); its one %s is the user's pk."""
    if _membership() is None:
        return f"({group} IS NULL AND %s IS NOT NULL)"  # the same one parameter, never a member
    return f"({group} IS NULL OR {exists_sql(_members(column(group), 0), params=1)})"


def is_member(group_id: int | None, user) -> bool:
    """``may_act_as_member`` for one group (None: a game without a group)."""
    if group_id is None:
        return True
    return _membership() is not None and _members(group_id, user.pk).exists()


def member_ids(group_id: int) -> set[int]:
    """The pks of the group's members now."""
    if _membership() is None:
        return set()
    return set(_membership().objects.filter(group_id=group_id).values_list("user_id", flat=True))


def watchable(user, via: str = "") -> Q:
    """The games ``user`` may see, as a condition on a query of games, or of rows that lead to one
    through ``via`` ("game" for seats, "seat__game" for a seat's review). Exists, not joins: a row
    is never repeated by the membership or the seat that lets it through."""
    field = f"{via}__" if via else ""
    if not user.is_authenticated:
        return Q(**{f"{field}private": False, f"{field}status__in": Game.OVER})
    game_pk = f"{via}_id" if via else "pk"
    player = Exists(Seat.objects.filter(game_id=OuterRef(game_pk), user=user))
    visible = Q(**{f"{field}private": False}) | (Q(**{f"{field}group__isnull": True}) & Q(player))
    if _membership() is not None:
        visible |= Q(Exists(_members(OuterRef(f"{field}group_id"), user.pk)))
    return visible


def can_watch(game: Game, user) -> bool:
    """Whether ``user`` may see ``game`` (its page, socket, replay, chat): ``watchable`` for one game."""
    if not user.is_authenticated:
        return not game.private and game.status in Game.OVER  # watchable's visitor's, without a query
    if not game.private:
        return True  # the first alternative of watchable, without a query
    return Game.objects.filter(watchable(user), pk=game.pk).exists()
