"""The turn core (games/rules/turns.py) as every engine shows it: the same wrong action gets the same
sentence in all five games, checked in the same order; resign, skip and the last player standing."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rules
from games.rules import IllegalAction
from games.rules.dice import make_dice
from tests.games.conftest import random_legal_action

SLUGS = list(rules.ENGINES)
# Each game's own actions, as its "no such action" sentence lists them.
ACTIONS = {
    "triple-quintzee": "roll, score, resign and skip",
    "triple-yahtzee-99": "roll, score, resign and skip",
    "painted-dicez": "roll, score, resign and skip",
    "quintzee": "roll, score, resign and skip",
    "farkle": "roll, bank, resign and skip",
}
# What a roll names its dice with.
FIRST_ROLL = dict.fromkeys(ACTIONS, "hold") | {"farkle": "keep"}


def never(n):
    pytest.fail(f"a refused action rolled {n} dice")


def first_roll(slug: str) -> dict:
    return {"type": "roll", FIRST_ROLL[slug]: []}


def refusal(slug: str, state: dict, player, action) -> str:
    """The sentence the engine refuses ``action`` with; ``state`` must come back untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as exc:
        rules.get(slug).apply(state, player, action, never)
    assert state == before
    return str(exc.value)


def resign(slug: str, state: dict, player: str) -> dict:
    return rules.get(slug).apply(state, player, {"type": "resign"}, never)


def over(slug: str) -> dict:
    """A finished game: bob resigned and ann, the last one standing, won."""
    return resign(slug, rules.get(slug).new_game(["ann", "bob"]), "bob")


# --- the same sentence in every game -----------------------------------------------------------------

FIRST = "<the game's first roll>"
SAME = [
    ("bob", FIRST, "It is not your turn."),
    ("bob", {"type": "score", "box": "chance", "column": 1}, "It is not your turn."),
    ("bob", {"type": "bank", "keep": [0]}, "It is not your turn."),
    ("bob", None, "It is not your turn."),
    ("bob", {"type": "dance"}, "It is not your turn."),
    ("zed", FIRST, "You are not playing in this game."),
    ("zed", {"type": "resign"}, "You are not playing in this game."),
    ("zed", {"type": "skip"}, "You are not playing in this game."),
    (None, FIRST, "You are not playing in this game."),
    (["ann"], FIRST, "You are not playing in this game."),
    ("ann", None, "An action must be an object with a type."),
    ("ann", "roll", "An action must be an object with a type."),
    ("ann", ["roll"], "An action must be an object with a type."),
    ("ann", 7, "An action must be an object with a type."),
    ("ann", {"type": "resign", "keep": []}, "A resign action has no field 'keep'."),
    ("ann", {"type": "skip", "by": "bob"}, "A skip action has no field 'by'."),
    ("ann", {"type": "roll", "points": 50}, "A roll action has no field 'points'."),
    ("ann", {"type": "roll", 1: 2}, "A roll action has no field 1."),
    ("ann", {"type": "skip"}, "You cannot skip your own turn."),
]


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize(("player", "action", "sentence"), SAME)
def test_the_same_mistake_gets_the_same_sentence(slug, player, action, sentence):
    if action == FIRST:
        action = first_roll(slug)
    state = rules.get(slug).new_game(["ann", "bob"])
    assert refusal(slug, state, player, action) == sentence


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("kind", ["dance", "Roll", "", "hold", "x" * 30])
def test_an_unknown_action_names_the_game_and_its_actions(slug, kind):
    engine = rules.get(slug)
    sentence = refusal(slug, engine.new_game(["ann"]), "ann", {"type": kind})
    assert sentence == f"{engine.name} has no action {kind!r}; the actions are {ACTIONS[slug]}."


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("kind", [None, 3, ["roll"], {"type": "roll"}, "x" * 31])
def test_an_action_type_that_is_no_short_text_is_not_quoted(slug, kind):
    engine = rules.get(slug)
    action = {"type": kind} if kind is not None else {}
    sentence = refusal(slug, engine.new_game(["ann"]), "ann", action)
    assert sentence == f"{engine.name} has no action; the actions are {ACTIONS[slug]}."


def test_each_game_refuses_the_other_games_actions():
    for slug in SLUGS:
        engine = rules.get(slug)
        other = "score" if slug == "farkle" else "bank"
        sentence = refusal(slug, engine.new_game(["ann"]), "ann", {"type": other})
        assert sentence.startswith(f"{engine.name} has no action {other!r};")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_game_is_over_comes_first(slug):
    state = over(slug)
    for player, action in [
        ("ann", first_roll(slug)),
        ("ann", {"type": "resign"}),
        ("bob", {"type": "skip"}),
        ("zed", None),
        (None, {"type": "dance"}),
    ]:
        assert refusal(slug, state, player, action) == "The game is over."


@pytest.mark.parametrize("slug", SLUGS)
def test_the_order_of_checks(slug):
    """Game over, then the seat, then the turn, then the action's type, then its fields."""
    engine = rules.get(slug)
    state = engine.new_game(["ann", "bob"])
    assert refusal(slug, state, "zed", {"type": "dance", "x": 1}) == "You are not playing in this game."
    assert refusal(slug, state, "bob", {"type": "dance", "x": 1}) == "It is not your turn."
    assert refusal(slug, state, "ann", {"type": "dance", "x": 1}).startswith(f"{engine.name} has no action")
    assert refusal(slug, state, "ann", {"type": "resign", "x": 1}) == "A resign action has no field 'x'."
    assert refusal(slug, state, "bob", {"type": "skip", "x": 1}) == "A skip action has no field 'x'."


@pytest.mark.parametrize("slug", SLUGS)
def test_a_state_of_another_game_is_refused(slug):
    engine = rules.get(slug)
    other = next(s for s in SLUGS if s != slug)
    state = rules.get(other).new_game(["ann"])
    assert refusal(slug, state, "ann", first_roll(slug)) == f"This is not a {engine.name} game."


# --- resign and skip ---------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_a_resigned_player_can_neither_resign_nor_skip_nor_play(slug):
    state = resign(slug, rules.get(slug).new_game(["ann", "bob", "cy"]), "bob")
    assert state["resigned"] == ["bob"]
    assert refusal(slug, state, "bob", {"type": "resign"}) == "You have already resigned."
    assert refusal(slug, state, "bob", {"type": "skip"}) == "You have resigned, so you cannot skip a turn."
    assert refusal(slug, state, "bob", first_roll(slug)) == "It is not your turn."


@pytest.mark.parametrize("slug", SLUGS)
def test_a_skip_passes_the_turn_to_the_next_seat(slug):
    engine = rules.get(slug)
    state = engine.apply(engine.new_game(["ann", "bob", "cy"]), "cy", {"type": "skip"}, never)
    event = state["last_event"]
    assert (event["type"], event["player"], event["by"]) == ("skip", "ann", "cy")
    assert engine.current_player(state) == "bob"
    assert state["turn"] == 1


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("leaver", ["ann", "bob"])
def test_the_last_player_standing_wins_at_once(slug, leaver):
    """RULINGS: a game started by two or more ends when only one player has not resigned."""
    engine = rules.get(slug)
    state = resign(slug, engine.new_game(["ann", "bob"]), leaver)
    stayer = "bob" if leaver == "ann" else "ann"
    assert engine.is_over(state)
    assert engine.current_player(state) is None
    assert engine.winners(state) == [stayer]
    assert engine.legal_actions(state) == []
    text = state["last_event"]["text"]
    assert text.startswith(f"{leaver} resigned. The game is over: {stayer} wins")
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize("slug", SLUGS)
def test_resigning_one_of_three_plays_on_and_the_second_ends_it(slug):
    engine = rules.get(slug)
    state = resign(slug, engine.new_game(["ann", "bob", "cy"]), "ann")
    assert not engine.is_over(state)
    assert engine.current_player(state) == "bob"
    assert engine.winners(state) == []
    state = resign(slug, state, "cy")
    assert engine.is_over(state)
    assert engine.winners(state) == ["bob"]


@pytest.mark.parametrize("slug", SLUGS)
def test_a_solo_resign_ends_the_game_without_a_winner(slug):
    engine = rules.get(slug)
    state = resign(slug, engine.new_game(["ann"]), "ann")
    assert engine.is_over(state) and engine.winners(state) == []
    assert state["last_event"]["text"] == "ann resigned. The game is over with no winner."


@pytest.mark.parametrize("slug", SLUGS)
def test_a_solo_game_ends_with_its_total_and_no_win(slug):
    """Played alone, a game has nobody to beat: its last event says the total (Farkle: and the laps to
    the goal), not a win, though the player is its winner for the statistics."""
    engine = rules.get(slug)
    rng = random.Random(slug)
    dice = make_dice(rng, painted=engine.dice_kind == "painted")
    state = engine.new_game(["ann"], {"goal": 3000} if slug == "farkle" else None)
    while not engine.is_over(state):
        state = engine.apply(state, "ann", random_legal_action(state, rng), dice)
    total = engine.scores(state)["ann"]
    assert engine.winners(state) == ["ann"]
    last = state["last_event"]["msg"][-1]
    if slug == "farkle":
        assert last == {
            "code": "over.solo_laps",
            "params": {"player": "ann", "points": total, "laps": state["laps"]},
        }
        laps = f"{state['laps']} lap{'s' if state['laps'] != 1 else ''}"
        said = f"The game is over: ann reached the goal with {total} points after {laps}."
    else:
        assert last == {"code": "over.solo", "params": {"player": "ann", "points": total}}
        said = f"The game is over: ann finished with {total} points."
    assert state["last_event"]["text"].endswith(said)
    assert "win" not in state["last_event"]["text"]


# --- a new game --------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize(
    ("players", "sentence"),
    [
        ("ann", "The players must be a list of player ids."),
        (None, "The players must be a list of player ids."),
        ({"ann": 1}, "The players must be a list of player ids."),
        ([], "{name} is for 1 to 6 players."),
        (["a", "b", "c", "d", "e", "f", "g"], "{name} is for 1 to 6 players."),
        (["ann", ""], "Every player id must be a non-empty string."),
        (["ann", 7], "Every player id must be a non-empty string."),
        (["ann", "ann"], "A player can take only one seat."),
    ],
)
def test_bad_players_get_the_same_sentence(slug, players, sentence):
    engine = rules.get(slug)
    with pytest.raises(IllegalAction) as exc:
        engine.new_game(players)
    assert str(exc.value) == sentence.format(name=engine.name)


@pytest.mark.parametrize("slug", SLUGS)
def test_bad_options_get_the_same_sentence(slug):
    engine = rules.get(slug)
    known = "the options are goal and dice" if slug == "farkle" else "it takes no options"
    for options, sentence in [
        ({"colour": "red"}, f"{engine.name} has no option 'colour'; {known}."),
        ({1: 2}, f"{engine.name} has no option 1; {known}."),
        (["goal"], "The options must be a mapping."),
        ("goal=5000", "The options must be a mapping."),
    ]:
        with pytest.raises(IllegalAction) as exc:
            engine.new_game(["ann"], options)
        assert str(exc.value) == sentence
    # Players are checked before options.
    with pytest.raises(IllegalAction, match="list of player ids"):
        engine.new_game("ann", {"colour": "red"})


@pytest.mark.parametrize("slug", SLUGS)
def test_every_engine_starts_with_the_same_core_keys(slug):
    engine = rules.get(slug)
    state = engine.new_game(("ann", "bob"), None)
    core = ("slug", "players", "current", "resigned", "over", "turn", "last_event")
    assert {k: state[k] for k in core} == {
        "slug": slug,
        "players": ["ann", "bob"],
        "current": "ann",
        "resigned": [],
        "over": False,
        "turn": 0,
        "last_event": None,
    }
    assert (engine.min_players, engine.max_players) == (1, 6)


# --- property: the engines agree on any mistake that is not a game's own ------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=4,
)
shared_types = st.sampled_from(["resign", "skip", "dance", "Roll", "", "x" * 40]) | json_values
attempts = st.tuples(
    st.sampled_from(["ann", "bob", "cy", "zed"]) | json_values,
    json_values
    | st.fixed_dictionaries(
        {"type": shared_types}, optional={"x": json_values, "keep": json_values, "hold": json_values}
    ),
)


def _normal(slug: str, sentence: str) -> str:
    return sentence.replace(rules.get(slug).name, "GAME").replace(ACTIONS[slug], "ACTIONS")


@settings(max_examples=200, deadline=None)
@given(attempt=attempts, ended=st.booleans(), n=st.integers(1, 3))
def test_the_four_engines_answer_a_shared_mistake_alike(attempt, ended, n):
    player, action = attempt
    outcomes = set()
    for slug in SLUGS:
        engine = rules.get(slug)
        state = engine.new_game(["ann", "bob", "cy"][:n])
        if ended:
            state = resign(slug, state, "ann")
        try:
            new = engine.apply(state, player, action, never)
        except IllegalAction as exc:
            outcomes.add(_normal(slug, str(exc)))
        else:
            # Only a resign or a skip without a roll can pass here, and it does in every game.
            outcomes.add((new["last_event"]["type"], new["over"], tuple(engine.winners(new))))
    assert len(outcomes) == 1, (player, action, outcomes)
