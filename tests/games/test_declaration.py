"""A game's declaration (games/declaration.py): the parts each shipped engine names, and the generic ones
an engine gets when it names none (a card game's players from its RULES, the greedy player, the plain
words, a rules page made from its declarations)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from django.urls import reverse

from coach import judge
from games import bots, rulebook, rules
from games.bots import anycard, cards, greedy
from games.declaration import declaration
from games.rules import farkle
from tests.games.extra import two_boxes

# Farkle's engine with the contract and declarations the site needs, but none of its own parts.
CONTRACT = (
    "name",
    "min_players",
    "max_players",
    "new_game",
    "apply",
    "legal_actions",
    "preview",
    "current_player",
    "scores",
    "is_over",
    "winners",
    "pitch",
    "dice_kind",
    "view",
    "options",
    "ranking",
    "FIGURES",
    "SHEET",
)
BARE = SimpleNamespace(slug="bare-farkle", **{n: getattr(farkle, n) for n in CONTRACT})


@pytest.fixture
def bare():
    rules.register(BARE)
    yield BARE
    rules.unregister(BARE.slug)


@pytest.fixture
def two():
    rules.register(two_boxes)
    yield two_boxes
    rules.unregister(two_boxes.slug)


def test_every_shipped_engine_names_its_own_players_and_rules_page():
    for slug, engine in rules.ENGINES.items():
        declared = declaration(slug)
        assert declared.engine is engine and declared is declaration(slug)
        assert declared.players is bots.players(slug)
        assert rulebook.template(slug) == f"games/rules/{slug}.html"
    assert isinstance(bots.players("triple-quintzee"), cards.CardPlayers)
    assert declaration("farkle").words is farkle.words


def test_a_card_game_without_players_of_its_own_is_played_on_its_rules(two):
    players = bots.players(two.slug)
    assert isinstance(players.game, anycard.RulesCard)
    state = two.apply(two.new_game(["ann"]), "ann", {"type": "roll", "hold": []}, lambda n: [6, 6, 6, 6, 6])
    # Sum 30 now beats every hold: five sixes are the most a Sum can hold.
    assert bots.best(two.slug, state) == bots.Choice({"type": "score", "box": "sum"}, 30.0)
    assert bots.value(two.slug, state, {"type": "score", "box": "pairs"}) == 10.0
    assert judge.describe(two.slug, state, {"type": "roll", "hold": [0, 1]}) == "hold 6 6 and roll"
    # A turn is worth more than the least a box takes and less than the most.
    assert 10 < bots.turn_worth(two.slug) < 30


@pytest.mark.parametrize("seed", range(6))
def test_an_engine_with_nothing_of_its_own_gets_the_greedy_player(bare, seed):
    rng = random.Random(seed)
    state = farkle.new_game(["ann", "bob"])
    dice = lambda n: [rng.randint(1, 6) for _ in range(n)]  # noqa: E731
    for _ in range(rng.randint(1, 12)):
        state = farkle.apply(state, state["current"], rng.choice(farkle.legal_actions(state)), dice)
    legal = farkle.legal_actions(state)
    for strength in (*bots.STRENGTHS, "random"):
        assert bots.choose(BARE.slug, state, strength, random.Random(seed)) in legal
    best = bots.best(BARE.slug, state)
    assert all(bots.value(BARE.slug, state, a) <= best.value for a in legal)
    assert bots.value(BARE.slug, state, best.action) == best.value
    assert bots.turn_worth(BARE.slug) >= 1
    assert judge.describe(BARE.slug, state, legal[0]) == f"play {legal[0]['type']}"


def test_the_greedy_player_values_a_bank_exactly_and_takes_it():
    state = farkle.apply(
        farkle.new_game(["ann"]), "ann", {"type": "roll", "keep": []}, lambda n: [1, 1, 1, 5, 2, 3]
    )
    players = greedy.for_engine(farkle)
    assert players.best(state) == bots.Choice({"type": "bank", "keep": [0, 1, 2, 3]}, 1050.0)
    assert players.value(state, {"type": "roll", "keep": [0, 1, 2]}) == 0


@pytest.mark.django_db
def test_an_engine_without_a_rules_page_gets_one_from_its_declarations(bare, client):
    response = client.get(reverse("games:rules", args=[BARE.slug]))
    assert response.status_code == 200
    assert "games/rules/generic.html" in [t.name for t in response.templates]
    page = response.content.decode()
    assert "Farkle goal: 10000, 5000, 3000; 10000 unless the table chooses another." in page
    assert "Farkle dice: 6 dice, 5 dice; 6 dice unless the table chooses another." in page
    assert "The card" not in page  # no card to show
