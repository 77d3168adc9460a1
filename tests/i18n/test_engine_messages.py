"""Property: every event of any game says in its codes exactly what its English text says, and reads
in German with every parameter filled and no English sentence left (hypothesis over random games)."""

from __future__ import annotations

import random

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import i18n, rules
from games.rules import messages
from tests.games.rules.test_properties import Game
from tests.i18n.english import english_left

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = ["ann", "bob", "cid"]
# Words that are the same in both languages: names of games, boxes and players.
NAMES = ("ann", "bob", "cid", "Full House", "Chance", "Quintzee", "Yahtzee", "DiceZ", "Flush")


@pytest.mark.parametrize("slug", sorted(rules.ENGINES))
@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1), skips=st.sampled_from([0.0, 0.05]), resigns=st.sampled_from([0.0, 0.02])
)
def test_every_event_says_its_text_in_codes_and_reads_in_german(slug, seed, skips, resigns):
    game = Game(slug, random.Random(seed), PLAYERS)
    for _ in range(400):
        if game.engine.is_over(game.state):
            break
        event = game.step(*game.choose(skips, resigns))["last_event"]
        assert event["msg"], event
        assert messages.english(event["msg"]) == event["text"]
        with translation.override("en"):
            assert i18n.event_text(event) == event["text"]
        with translation.override("de"):
            german = i18n.event_text(event)
        assert "%(" not in german and german != event["text"], german
        assert english_left(german, NAMES) == [], german
