"""Properties every engine in rules.ENGINES keeps over random legal play of whole games (hypothesis)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules
from games.rules.dice import make_dice

SLUGS = list(rules.ENGINES)
CARD_GAMES = ("triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 20_000
TURN_ENDING = {"score", "skip", "bank", "farkle"}


def test_all_five_engines_are_covered():
    assert set(SLUGS) == {"triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee", "farkle"}
    assert set(PARTS) == set(SLUGS)


# ---------------------------------------------------------------------------
# Dice that remember what they rolled, so a step can be replayed from a round-tripped state


class RecordingDice:
    def __init__(self, rng: random.Random, slug: str):
        self._roll = make_dice(rng, painted=slug == "painted-dicez")
        self.rolls: list[list] = []

    def __call__(self, n: int) -> list:
        roll = self._roll(n)
        self.rolls.append(json.loads(json.dumps(roll)))
        return roll


class ReplayDice:
    def __init__(self, rolls: list[list]):
        self.rolls = [json.loads(json.dumps(r)) for r in rolls]

    def __call__(self, n: int) -> list:
        if not self.rolls:
            pytest.fail(f"the replay asked for {n} dice that the original step did not roll")
        roll = self.rolls.pop(0)
        if len(roll) != n:
            pytest.fail(f"the replay asked for {n} dice where the original step rolled {roll}")
        return roll


def _dump(state: Any) -> str:
    return json.dumps(state, sort_keys=True)


# ---------------------------------------------------------------------------
# What each engine's state shows, checked against its own parts


def _sum(boxes: dict, names) -> int:
    return sum(boxes[b] for b in names if boxes[b] is not None)


def _check_tq(state: dict) -> None:
    tq = rules.get("triple-quintzee")
    for card in state["cards"].values():
        for col in card["columns"]:
            boxes = col["boxes"]
            assert col["top_subtotal"] == _sum(boxes, tq.TOP)
            assert col["bottom_subtotal"] == _sum(boxes, tq.BOTTOM)
            assert col["top_bonus"] == (35 if col["top_subtotal"] >= 63 else 0)
            parts = col["top_subtotal"] + col["top_bonus"] + col["bottom_subtotal"] + col["quintzee_bonus"]
            assert col["total"] == col["column"] * parts
        assert card["total"] == sum(col["total"] for col in card["columns"])


def _check_ty99(state: dict) -> None:
    ty = rules.get("triple-yahtzee-99")
    for card in state["cards"].values():
        for col in card["columns"]:
            boxes = col["boxes"]
            assert col["upper_subtotal"] == _sum(boxes, ty.UPPER)
            assert col["lower_total"] == _sum(boxes, ty.LOWER)
            sub = col["upper_subtotal"]
            assert col["upper_bonus"] == (70 if sub >= 76 else 50 if sub >= 70 else 35 if sub >= 63 else 0)
            assert col["multiplier"] in ({1: (1, 2), 2: (2, 3), 3: (3, 5)}[col["column"]])
            parts = col["upper_subtotal"] + col["upper_bonus"] + col["lower_total"]
            assert col["total"] == col["multiplier"] * parts
        assert card["total"] == sum(col["total"] for col in card["columns"])


def _check_pd(state: dict) -> None:
    pd = rules.get("painted-dicez")
    for card in state["cards"].values():
        boxes = card["boxes"]
        assert card["upper_subtotal"] == _sum(boxes, pd.UPPER)
        assert card["color_subtotal"] == _sum(boxes, pd.CENTER)
        assert card["lower_subtotal"] == _sum(boxes, pd.LOWER)
        assert card["upper_bonus"] == (35 if card["upper_subtotal"] >= 63 else 0)
        assert card["color_bonus"] == (35 if card["color_subtotal"] >= 63 else 0)
        assert card["total"] == (
            card["upper_subtotal"]
            + card["upper_bonus"]
            + card["color_subtotal"]
            + card["color_bonus"]
            + card["lower_subtotal"]
        )


def _check_quintzee(state: dict) -> None:
    q = rules.get("quintzee")
    for card in state["cards"].values():
        boxes = card["boxes"]
        top, bottom = _sum(boxes, q.TOP), _sum(boxes, q.BOTTOM)
        assert card["top_subtotal"] == top and card["bottom_subtotal"] == bottom
        assert card["top_bonus"] == (35 if top >= 63 else 0)
        assert card["quintzee_bonus"] % 100 == 0
        assert card["quintzee_bonus"] == 0 or boxes["quintzee"] == 50
        assert card["total"] == top + card["top_bonus"] + bottom + card["quintzee_bonus"]


def _check_farkle(state: dict) -> None:
    assert set(state["banked"]) == set(state["players"])
    assert state["turn_points"] == sum(rules.get("farkle").score(faces) for faces in state["set_aside"])
    assert all(points % 50 == 0 and points >= 0 for points in state["banked"].values())


PARTS = {
    "triple-quintzee": _check_tq,
    "triple-yahtzee-99": _check_ty99,
    "painted-dicez": _check_pd,
    "quintzee": _check_quintzee,
    "farkle": _check_farkle,
}


def _scores_from_state(state: dict) -> dict[str, int]:
    if state["slug"] == "farkle":
        return dict(state["banked"])
    return {p: card["total"] for p, card in state["cards"].items()}


def _filled(state: dict) -> set[tuple]:
    """Every filled box of every card, as (player, column or None, box)."""
    out = set()
    for player, card in state["cards"].items():
        columns = card["columns"] if "columns" in card else [{"column": None, "boxes": card["boxes"]}]
        for col in columns:
            out.update((player, col["column"], box) for box, v in col["boxes"].items() if v is not None)
    return out


# ---------------------------------------------------------------------------
# Playing a game and checking every step


class Game:
    """A random game whose every step is checked; ``events`` keeps each step's last_event."""

    def __init__(self, slug: str, rng: random.Random, players: list[str], options: dict | None = None):
        self.slug = slug
        self.engine = rules.get(slug)
        self.rng = rng
        self.dice = RecordingDice(rng, slug)
        self.state = self.engine.new_game(players, options)
        self.events: list[dict] = []
        self.banked = Counter()
        self._check_state(self.state)

    def choose(self, skip_rate: float = 0.0, resign_rate: float = 0.0) -> tuple[str, dict]:
        state = self.state
        current = self.engine.current_player(state)
        active = [p for p in state["players"] if p not in state["resigned"]]
        others = [p for p in active if p != current]
        r = self.rng.random()
        if others and r < skip_rate:
            return self.rng.choice(others), {"type": "skip"}
        if r < skip_rate + resign_rate:
            return self.rng.choice(active), {"type": "resign"}
        legal = self.engine.legal_actions(state)
        assert legal, "a game that is not over must offer the current player an action"
        return current, self.rng.choice(legal)

    def step(self, player: str, action: dict) -> dict:
        engine, state = self.engine, self.state
        before = _dump(state)
        again = json.loads(before)
        assert again == state
        rolled = len(self.dice.rolls)
        new = engine.apply(state, player, action, self.dice)
        used = self.dice.rolls[rolled:]
        assert _dump(state) == before, "apply changed its input"
        # The round-tripped state offers the same actions and continues the game exactly the same.
        assert engine.legal_actions(again) == engine.legal_actions(state)
        replay = ReplayDice(used)
        assert engine.apply(again, player, action, replay) == new
        assert not replay.rolls
        self._check_step(state, new, action, used)
        self.state = new
        return new

    def play(self, skip_rate: float = 0.0, resign_rate: float = 0.0) -> dict:
        for _ in range(MAX_STEPS):
            if self.engine.is_over(self.state):
                return self.state
            self.step(*self.choose(skip_rate, resign_rate))
        pytest.fail(f"{self.slug}: no end after {MAX_STEPS} actions")

    def _check_state(self, state: dict) -> None:
        engine = self.engine
        assert json.loads(json.dumps(state)) == state
        for key in ("slug", "players", "current", "resigned", "over", "turn", "dice", "last_event"):
            assert key in state
        assert state["slug"] == self.slug
        assert engine.is_over(state) == state["over"]
        assert (engine.current_player(state) is None) == engine.is_over(state)
        if not engine.is_over(state):
            assert engine.current_player(state) not in state["resigned"]
            assert engine.winners(state) == []
        else:
            assert engine.legal_actions(state) == []
            assert set(engine.winners(state)) <= set(state["players"]) - set(state["resigned"])
        assert engine.scores(state) == _scores_from_state(state)
        assert set(engine.scores(state)) == set(state["players"])
        PARTS[self.slug](state)
        json.dumps(engine.preview(state))

    def _check_step(self, state: dict, new: dict, action: dict, used: list[list]) -> None:
        self._check_state(new)
        event = new["last_event"]
        assert {"player", "type", "dice", "points", "text"} <= set(event)
        assert isinstance(event["text"], str)
        assert event["text"]
        self.events.append(event)
        assert new["turn"] - state["turn"] == (1 if event["type"] in TURN_ENDING else 0)
        if action["type"] in ("resign", "skip"):
            assert event["type"] == action["type"]
            assert not used
        if self.slug == "farkle":
            self._check_farkle_step(state, new, event, used)
        else:
            self._check_card_step(state, new, event, used)

    def _check_card_step(self, state: dict, new: dict, event: dict, used: list[list]) -> None:
        added = _filled(new) - _filled(state)
        assert _filled(state) <= _filled(new), "a filled box was emptied"
        if event["type"] in ("score", "skip"):
            # Exactly one box per scoring turn, on the card of the player whose turn it was.
            assert len(added) == 1
            assert next(iter(added))[0] == event["player"] == state["current"]
            assert not used
        else:
            assert not added
        if event["type"] == "roll":
            assert len(used) == 1
            assert 1 <= len(used[0]) <= 5

    def _check_farkle_step(self, state: dict, new: dict, event: dict, used: list[list]) -> None:
        farkle = self.engine
        self.banked[event["player"]] += event.get("banked", 0)
        # Banked totals are exactly the sum of the banked turns in the log.
        assert new["banked"] == {p: self.banked[p] for p in new["players"]}
        assert event["farkle"] == (event["type"] == "farkle")
        if event["type"] in ("roll", "farkle"):
            assert len(used) == 1
            assert event["dice"] == used[0]
            assert farkle.has_score(used[0]) == (not event["farkle"])
            assert event["hot_dice"] == (len(event["kept"]) == len(state["dice"]) > 0)
        else:
            assert not used
        if event["type"] == "bank":
            assert event["banked"] == event["turn_points"] >= farkle.BANK_MINIMUM
            assert event["kept"]
        if event["type"] in ("farkle", "bank", "skip"):
            assert new["turns_taken"][event["player"]] == state["turns_taken"][event["player"]] + 1


def _players(n: int) -> list[str]:
    return ["ann", "bob", "cy"][:n]


def _options(slug: str, rng: random.Random) -> dict | None:
    if slug != "farkle":
        return None
    farkle = rules.get("farkle")
    return {"goal": rng.choice(farkle.GOALS), "dice": rng.choice(farkle.DICE_COUNTS)}


# ---------------------------------------------------------------------------
# Whole games


TURNS = {"triple-quintzee": 39, "painted-dicez": 20, "quintzee": 13}


def _check_end(game: Game) -> None:
    """Without resignations, the game lasts exactly as many turns as the rules give."""
    state, slug = game.state, game.slug
    turns = Counter(e["player"] for e in game.events if e["type"] in TURN_ENDING)
    if slug == "farkle":
        # The last round is played out: everyone has had the same number of turns, one per lap.
        assert set(state["turns_taken"].values()) == {state["laps"]}
        assert turns == Counter(state["turns_taken"])
        reached = [p for p in state["players"] if state["banked"][p] >= state["goal"]]
        assert reached
        assert game.engine.winners(state) == reached
        return
    filled = Counter(player for player, _, _ in _filled(state))
    assert turns == filled  # one box per turn
    for player, card in state["cards"].items():
        assert card["complete"]
        if slug in TURNS:
            assert turns[player] == TURNS[slug]
        else:
            ty = rules.get(slug)
            optional = sum(
                1
                for col in card["columns"]
                for box in (*ty.WASTE, "yahtzee_bonus")
                if col["boxes"][box] is not None
            )
            assert all(col["boxes"][box] is not None for col in card["columns"] for box in ty.SCORING)
            assert turns[player] == 48 + optional
    best = max(game.engine.scores(state).values())
    assert game.engine.winners(state) == [p for p, s in game.engine.scores(state).items() if s == best]


@pytest.mark.parametrize("slug", SLUGS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3))
def test_random_whole_games(slug, seed, n):
    rng = random.Random(seed)
    game = Game(slug, rng, _players(n), _options(slug, rng))
    # Skips (a turn ended for an absent player) count as turns like any other.
    game.play(skip_rate=0.02 if n > 1 else 0.0)
    _check_end(game)


@pytest.mark.parametrize("slug", SLUGS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3))
def test_random_games_with_resignations(slug, seed, n):
    rng = random.Random(seed)
    game = Game(slug, rng, _players(n), _options(slug, rng))
    state = game.play(skip_rate=0.02, resign_rate=0.01)
    won = game.engine.winners(state)
    assert not set(won) & set(state["resigned"])
    if set(state["resigned"]) == set(state["players"]):
        assert won == []
    else:
        assert won


# ---------------------------------------------------------------------------
# Garbage actions


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
index_lists = st.one_of(
    st.lists(st.one_of(st.integers(-2, 7), st.booleans(), st.none(), st.text(max_size=1)), max_size=7),
    json_values,
)
box_names = sorted(
    {box for slug in CARD_GAMES for box in rules.get(slug).LABELS} | {"yahtzee", "bonus", "total", ""}
)
garbage_actions = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["roll", "bank", "score", "resign", "skip", "hold", "Roll", ""])
            | json_values
        },
        optional={
            "keep": index_lists,
            "hold": index_lists,
            "box": st.sampled_from(box_names) | json_values,
            "column": st.integers(-1, 4) | json_values,
            "points": json_values,
        },
    ),
)


def _must_refuse(state: dict, engine: Any, player: Any, action: Any) -> bool:
    """Garbage that no engine may accept, whatever the dice on the table."""
    if engine.is_over(state) or not isinstance(action, dict):
        return True
    kinds = (
        ("roll", "bank", "resign", "skip")
        if state["slug"] == "farkle"
        else ("roll", "score", "resign", "skip")
    )
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        return True
    if not isinstance(player, str) or player not in state["players"]:
        return True
    return kind in ("roll", "bank", "score") and player != engine.current_player(state)


@pytest.mark.parametrize("slug", SLUGS)
@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 3),
    steps=st.integers(0, 400),
    attempts=st.lists(
        st.tuples(st.sampled_from(["ann", "bob", "cy", "zed"]) | json_values, garbage_actions),
        min_size=1,
        max_size=15,
    ),
)
def test_garbage_actions_raise_illegal_action_only(slug, seed, n, steps, attempts):
    rng = random.Random(seed)
    game = Game(slug, rng, _players(n), _options(slug, rng))
    for _ in range(steps):
        if game.engine.is_over(game.state):
            break
        game.step(*game.choose())
    engine, state = game.engine, game.state
    before = _dump(state)
    for player, action in attempts:
        try:
            new = engine.apply(state, player, action, game.dice)
        except rules.IllegalAction as exc:
            assert str(exc)
        else:
            assert not _must_refuse(state, engine, player, action), (player, action)
            assert json.loads(json.dumps(new)) == new
        assert _dump(state) == before
