"""Model factories (factory_boy) for the rows tests make most: players, groups and their members.

A game is made through the services (games.tables.services: game_create, game_join, game_start), as a
player makes one: its state comes from its engine, never from a factory's guess.
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


def started_farkle_pair(make_user) -> tuple[int, object]:
    """ann and bob at a started two-seat Farkle game (goal 10000): its id and the player to move."""
    from games.tables import services

    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", seats=2, options={"goal": 10000})
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    game.refresh_from_db()
    return game.pk, ann if game.state["current"] == "ann" else bob
