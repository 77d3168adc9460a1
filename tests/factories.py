"""Model factories (factory_boy) for the rows tests make most: players, groups and their members, and
games.

A game is made through the services (games.tables.services: game_create, game_join, game_start), as a
player makes one: its state comes from its engine, never from a factory's guess (GameFactory).
"""

from __future__ import annotations

import factory

from groups.services import group_create

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    """A player, "player1", "player2"... unless named, who signs in with PASSWORD unless given another.

    Made by the manager's create_user, as a sign-up makes one: the name normalised, the password
    hashed and the look-alike key set (User.save). Other fields pass through: language="de",
    email=..., computer="expert" (a computer player's account), is_staff=True.
    """

    class Meta:
        model = "accounts.User"

    username = factory.Sequence(lambda n: f"player{n + 1}")
    password = PASSWORD

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return model_class._default_manager.create_user(*args, **kwargs)


class GroupFactory(factory.django.DjangoModelFactory):
    """A group made by groups.services.group_create (its creator is its first member); ``members=[...]``
    seats more players in it (MembershipFactory)."""

    class Meta:
        model = "dicegroups.Group"
        skip_postgeneration_save = True  # the hook below saves its own rows

    creator = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Group {n + 1}")
    description = ""

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return group_create(**kwargs)

    @factory.post_generation
    def members(group, create, extracted, **kwargs):
        for user in extracted or ():
            MembershipFactory(group=group, user=user)


class MembershipFactory(factory.django.DjangoModelFactory):
    """A player in a group, without the notice groups.services.group_add_member sends them: a test of
    that notice calls the service."""

    class Meta:
        model = "dicegroups.Membership"

    group = factory.SubFactory(GroupFactory)
    user = factory.SubFactory(UserFactory)


class GameFactory(factory.django.DjangoModelFactory):
    """A game at a point of its life, made through the services as players make one.

    ``GameFactory(creator=ann, players=[bob])``: ann's two-seat Farkle table, bob joined, started.
    ``players``: the people who join after the creator, in seat order; ``seats``: the table's size
    (1 + players + computers unless given: a bigger one stays open for others); ``start=False``: the
    players joined but nobody started it; ``moved=True``: then every person at it made a move
    (tests/played.py ``everyone_moves``: the game counts, docs/ratings.md), ``points=False`` with turns
    that score nothing. Everything else is
    game_create's: kind="painted-dicez", options={...}, computers=1, strength=..., group=...,
    pace="days", rated=False, private=True, reserved_for=..., absence_limit=... A table full from
    the start (solo, the creator and computers) starts at once, as game_create starts it.
    """

    class Meta:
        model = "games.Game"

    creator = factory.SubFactory(UserFactory)
    kind = "farkle"

    @classmethod
    def _create(
        cls, model_class, *args, players=(), seats=None, start=True, moved=False, points=True, **kwargs
    ):
        from games.tables import services
        from tests.played import everyone_moves

        players = list(players)
        seats = seats if seats is not None else 1 + len(players) + kwargs.get("computers", 0)
        game = services.game_create(seats=seats, **kwargs)
        for player in players:
            services.game_join(game_id=game.pk, user=player)
        game.refresh_from_db()
        if start and players and game.status == model_class.Status.OPEN:
            services.game_start(game_id=game.pk, user=game.creator)
            game.refresh_from_db()
        if moved:
            game = everyone_moves(game, points=points)
        game.creator = kwargs["creator"]  # the one given, as game_create's game has it (a refresh forgets it)
        return game


def started_farkle_pair(make_user) -> tuple[int, object]:
    """ann and bob at a started two-seat Farkle game (goal 10000): its id and the player to move."""
    ann, bob = make_user("ann"), make_user("bob")
    game = GameFactory(creator=ann, players=[bob], options={"goal": 10000})
    return game.pk, ann if game.state["current"] == "ann" else bob
