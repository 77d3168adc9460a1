"""A player's choice to hide the ratings at their table until the game is over."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games.models import Game
from ratings import selectors
from tests.factories import started_farkle_pair
from tests.games.sockets import Client as Tab

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_profile_form_keeps_the_choice(make_user):
    ann = make_user("ann")
    client = Client()
    client.force_login(ann)
    form = {"display_name": "", "email": "", "theme": "auto", "hide_ratings_in_game": "on"}
    assert client.post(reverse("accounts:profile"), form).status_code == 302
    ann.refresh_from_db()
    assert ann.hide_ratings_in_game


@pytest.mark.asyncio
async def test_the_ratings_at_the_table_come_at_the_end_for_the_player_who_hides_them(make_user):
    game_id, _mover = await database_sync_to_async(started_farkle_pair)(make_user)
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    ann, bob = [await database_sync_to_async(type(_mover).objects.get)(username=n) for n in ("ann", "bob")]
    ann.hide_ratings_in_game = True
    await database_sync_to_async(ann.save)(update_fields=["hide_ratings_in_game"])
    tabs = [Tab(ann, game.pk), Tab(bob, game.pk)]
    try:
        snapshots = [await tab.open() for tab in tabs]
        assert snapshots[0]["ratings"] is None
        assert set(snapshots[1]["ratings"]["players"]) == {"ann", "bob"}
    finally:
        for tab in tabs:
            await tab.comm.disconnect()
    await database_sync_to_async(Game.objects.filter(pk=game_id).update)(status=Game.Status.FINISHED)
    ended = await database_sync_to_async(selectors.for_game_id)(game_id, ann)
    assert set(ended["players"]) == {"ann", "bob"}
