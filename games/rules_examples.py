"""Worked examples for the rules pages, their numbers computed by the engines at render time.

Every number a rules page shows comes from the game's engine through the contract in ENGINE.md only
(``score``, ``has_score``, ``new_game``, ``apply``, ``scores``), so the pages cannot drift from the
rules the server plays by. The result is plain data (lists of dicts) that the templates just loop
over. Engines are pure, so each slug's examples are computed once per process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from games import rules

# The colour letter is printed on every Painted DiceZ die, so the colour never relies on sight alone.
COLOUR_LETTERS = {"blue": "B", "red": "R", "pink": "P", "green": "G", "yellow": "Y"}
YOU = "you"


# --- presentation helpers --------------------------------------------------------------------------


def _shown(dice: Sequence[Any]) -> list[dict]:
    """Each die as the templates draw it: the face, and for painted dice the colour and its letter."""
    out = []
    for die in dice:
        if isinstance(die, list | tuple):
            face, colour = die
            out.append({"face": face, "colour": colour, "letter": COLOUR_LETTERS[colour]})
        else:
            out.append({"face": die, "colour": "", "letter": ""})
    return out


def _aria(dice: Sequence[Any]) -> str:
    """The accessible name of a group of dice: "dice 2 2 2 5 5" or "dice 5 blue, 4 red, ..."."""
    if not dice:
        return "no dice"
    if isinstance(dice[0], list | tuple):
        return "dice " + ", ".join(f"{face} {colour}" for face, colour in dice)
    return "dice " + " ".join(str(d) for d in dice)


def _ex(
    dice: Sequence[Any], value: int | None, *, box: str = "", label: str = "", note: str = "", **extra
) -> dict:
    """One example row: the dice (engine form and display form), where they went, and what they are worth."""
    return {
        "dice": [list(d) if isinstance(d, list | tuple) else d for d in dice],
        "shown": _shown(dice),
        "aria": _aria(dice),
        "box": box,
        "label": label,
        "value": value,
        "note": note,
        **extra,
    }


def _p(*pairs: tuple[int, str]) -> list[list]:
    """Painted dice from (face, colour) pairs."""
    return [[face, colour] for face, colour in pairs]


# --- playing scripted turns through the contract --------------------------------------------------


class _Scripted:
    """A ``dice(n)`` callable that hands out the given rolls in order, as the contract lets tests do."""

    def __init__(self, *rolls: Sequence[Any]) -> None:
        self._rolls = [list(r) for r in rolls]

    def __call__(self, n: int) -> list:
        if not self._rolls:
            raise RuntimeError(f"the engine asked for {n} dice but no roll is scripted")
        roll = self._rolls.pop(0)
        if len(roll) != n:
            raise RuntimeError(f"the engine asked for {n} dice; the scripted roll is {roll}")
        return roll


def _card_turn(
    engine, state: dict, roll: Sequence[Any], box: str, column: int | None = None
) -> tuple[dict, int]:
    """Roll ``roll`` once and score it in ``box``; return the new state and what the total gained."""
    before = engine.scores(state)[YOU]
    state = engine.apply(state, YOU, {"type": "roll", "hold": []}, _Scripted(roll))
    action: dict[str, Any] = {"type": "score", "box": box}
    if column is not None:
        action["column"] = column
    state = engine.apply(state, YOU, action, _Scripted())
    return state, engine.scores(state)[YOU] - before


def _refused(engine, state: dict, player: str, action: dict, *rolls: Sequence[Any]) -> bool:
    """Whether the engine refuses ``action`` (the contract's IllegalAction)."""
    try:
        engine.apply(state, player, action, _Scripted(*rolls))
    except rules.IllegalAction:
        return True
    return False


def _rows(engine, labels: dict[str, str], texts: dict[str, str], samples: dict[str, list]) -> list[dict]:
    """The scorecard table: every box with what it scores and one sample roll valued by the engine."""
    return [
        _ex(samples[box], engine.score(box, samples[box]), box=box, label=labels[box], note=texts[box])
        for box in labels
    ]


# --- Triple Quintzee --------------------------------------------------------------------------------

TQ_LABELS = {
    "ones": "Ones",
    "twos": "Twos",
    "threes": "Threes",
    "fours": "Fours",
    "fives": "Fives",
    "sixes": "Sixes",
    "three_of_a_kind": "3 of a Kind",
    "four_of_a_kind": "4 of a Kind",
    "full_house": "Full House",
    "small_straight": "Small Straight",
    "large_straight": "Large Straight",
    "quintzee": "Quintzee",
    "chance": "Chance",
}
TQ_TEXTS = {
    "ones": "Add up the dice that show 1.",
    "twos": "Add up the dice that show 2.",
    "threes": "Add up the dice that show 3.",
    "fours": "Add up the dice that show 4.",
    "fives": "Add up the dice that show 5.",
    "sixes": "Add up the dice that show 6.",
    "three_of_a_kind": "Three or more dice alike: all five dice added up.",
    "four_of_a_kind": "Four or more dice alike: all five dice added up.",
    "full_house": "Three alike and a pair of another face, or all five alike: a flat 25.",
    "small_straight": "Four faces in a row anywhere among the dice (1-4, 2-5 or 3-6): 30.",
    "large_straight": "Five faces in a row (1-5 or 2-6): 40. Five alike never counts here.",
    "quintzee": "All five dice alike: 50.",
    "chance": "Anything at all: all five dice added up.",
}
TQ_SAMPLES = {
    "ones": [1, 4, 1, 6, 1],
    "twos": [2, 5, 2, 3, 2],
    "threes": [3, 3, 1, 6, 4],
    "fours": [4, 4, 4, 4, 2],
    "fives": [5, 1, 5, 2, 3],
    "sixes": [6, 6, 6, 2, 6],
    "three_of_a_kind": [4, 4, 1, 4, 6],
    "four_of_a_kind": [2, 2, 6, 2, 2],
    "full_house": [3, 6, 3, 6, 3],
    "small_straight": [1, 2, 3, 4, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "quintzee": [5, 5, 5, 5, 5],
    "chance": [6, 5, 4, 3, 3],
}
TOP_FACES = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
# Three of each face: exactly the 63 the top bonus asks for.
PAR_ROLLS = {
    "ones": [1, 1, 1, 2, 3],
    "twos": [2, 2, 2, 1, 3],
    "threes": [3, 3, 3, 1, 2],
    "fours": [4, 4, 4, 1, 2],
    "fives": [5, 5, 5, 1, 2],
    "sixes": [6, 6, 6, 1, 2],
}


def _triple_quintzee(engine) -> dict:
    score = engine.score

    # The right-most rule: a full house picked in column 1 lands in column 3 of an empty card.
    state = engine.new_game([YOU])
    fh = [2, 2, 2, 5, 5]
    state, fh_gain = _card_turn(engine, state, fh, "full_house", 1)
    fh_value = score("full_house", fh)
    # On an otherwise empty card the gain is the value times the multiplier of the column it landed in.
    fh_column = fh_gain // fh_value
    right_most = _ex(
        fh,
        fh_value,
        box="full_house",
        label="Full House, picked in column 1",
        note=f"Worth {fh_value}, so it goes to the right-most empty Full House box, column {fh_column}: "
        f"{fh_value} x {fh_column} = {fh_gain}.",
        gain=fh_gain,
        column=fh_column,
    )
    # A scratch stays in the column picked, even with an empty Full House box to its right.
    scratch_dice = [1, 2, 4, 4, 6]
    second_dice = [6, 6, 1, 1, 1]
    state, scratch_gain = _card_turn(engine, state, scratch_dice, "full_house", 1)
    state, second_gain = _card_turn(engine, state, second_dice, "full_house", 2)
    second_value = score("full_house", second_dice)
    right_most_more = [
        _ex(
            scratch_dice,
            score("full_house", scratch_dice),
            box="full_house",
            label="Full House, picked in column 1",
            note="Not a full house, so it is a scratch: the 0 stays in column 1, as picked, "
            "although column 2 is still empty.",
            gain=scratch_gain,
        ),
        _ex(
            second_dice,
            second_value,
            box="full_house",
            label="Full House, picked in column 2",
            note=f"The last empty Full House box: "
            f"{second_value} x {second_gain // second_value} = {second_gain}.",
            gain=second_gain,
        ),
    ]

    examples = [
        _ex(
            [3, 3, 3, 3, 3],
            score("three_of_a_kind", [3] * 5),
            box="three_of_a_kind",
            label="3 of a Kind",
            note="Five alike is also three alike: all five dice count.",
        ),
        _ex(
            [3, 3, 3, 3, 3],
            score("full_house", [3] * 5),
            box="full_house",
            label="Full House",
            note="Five alike may be used as a full house.",
        ),
        _ex(
            [3, 4, 5, 6, 6],
            score("small_straight", [3, 4, 5, 6, 6]),
            box="small_straight",
            label="Small Straight",
            note="3-4-5-6 is in there; the spare 6 does not matter.",
        ),
        _ex(
            [2, 3, 4, 4, 6],
            score("small_straight", [2, 3, 4, 4, 6]),
            box="small_straight",
            label="Small Straight",
            note="2-3-4 and a 6: no run of four, so 0.",
        ),
        _ex(
            [1, 2, 3, 4, 5],
            score("large_straight", [1, 2, 3, 4, 5]),
            box="large_straight",
            label="Large Straight",
            note="Five in a row.",
        ),
        _ex(
            [4, 4, 4, 4, 4],
            score("large_straight", [4] * 5),
            box="large_straight",
            label="Large Straight",
            note="Five alike is no straight: 0.",
        ),
        _ex(
            [6, 6, 6, 6, 6],
            score("sixes", [6] * 5),
            box="sixes",
            label="Sixes",
            note="Five alike in the top section: just the sum of the sixes.",
        ),
        _ex(
            [4, 4, 4, 4, 4],
            score("twos", [4] * 5),
            box="twos",
            label="Twos",
            note="Allowed, but it scores 0 (and earns no Quintzee bonus).",
        ),
    ]

    # Top bonus: three of each face in column 2, played through the engine.
    state = engine.new_game([YOU])
    top_rows = []
    total = 0
    for box, roll in PAR_ROLLS.items():
        state, gain = _card_turn(engine, state, roll, box, 2)
        total += gain
        top_rows.append(_ex(roll, score(box, roll), box=box, label=TQ_LABELS[box], gain=gain, running=total))
    subtotal = sum(r["value"] for r in top_rows)
    column_total = engine.scores(state)[YOU]
    top_bonus = {
        "column": 2,
        "rows": top_rows,
        "subtotal": subtotal,
        "bonus": column_total // 2 - subtotal,
        "total": column_total,
        "without": 2 * subtotal,
    }

    # On-track number: each filled top box against three of its face.
    track_rows = []
    for box, roll in (("ones", [1, 1, 2, 3, 4]), ("fives", [5, 5, 5, 5, 2]), ("sixes", [6, 6, 1, 2, 3])):
        value = score(box, roll)
        par = 3 * TOP_FACES[box]
        track_rows.append(_ex(roll, value, box=box, label=TQ_LABELS[box], par=par, diff=value - par))
    on_track = {"rows": track_rows, "number": sum(r["diff"] for r in track_rows)}

    # Quintzee bonus: fill the three Quintzee boxes, then score more five-of-a-kinds.
    state = engine.new_game([YOU])
    script = [
        ([6] * 5, "quintzee", 1, "The first Quintzee goes to the right-most empty box: column 3, 50 x 3."),
        ([6] * 5, "quintzee", 1, "The next one lands in column 2: 50 x 2."),
        ([2] * 5, "quintzee", 1, "The last Quintzee box, column 1: 50 x 1. All three are now filled."),
        ([4] * 5, "fours", 2, "Five 4s in Fours, column 2: 20 plus the 100 bonus, both doubled."),
        ([3] * 5, "large_straight", 3, "Five 3s in Large Straight score 0, so no bonus."),
        ([5] * 5, "chance", 3, "Five 5s in Chance, column 3: 25 plus the 100 bonus, both tripled."),
    ]
    bonus_steps = []
    for roll, box, column, note in script:
        state, gain = _card_turn(engine, state, roll, box, column)
        bonus_steps.append(
            _ex(
                roll,
                score(box, roll),
                box=box,
                label=f"{TQ_LABELS[box]}, column {column}",
                note=note,
                gain=gain,
                running=engine.scores(state)[YOU],
            )
        )

    return {
        "card": _rows(engine, TQ_LABELS, TQ_TEXTS, TQ_SAMPLES),
        "right_most": right_most,
        "right_most_more": right_most_more,
        "examples": examples,
        "top_bonus": top_bonus,
        "on_track": on_track,
        "quintzee_bonus": bonus_steps,
    }


# --- Triple Yahtzee 99 ------------------------------------------------------------------------------

TY_LABELS = {
    "ones": "Ones",
    "xtra_ones": "Xtra Ones",
    "twos": "Twos",
    "threes": "Threes",
    "fours": "Fours",
    "fives": "Fives",
    "sixes": "Sixes",
    "waste_upper": "Waste-A-Turn (upper)",
    "two_pairs": "2 Pairs",
    "three_of_a_kind": "3 of a Kind",
    "four_of_a_kind": "4 of a Kind",
    "full_house": "Full House",
    "small_straight": "Small Straight",
    "large_straight": "Large Straight",
    "yahtzee": "Yahtzee",
    "yahtzee_bonus": "Yahtzee Bonus",
    "first_chance": "1st Chance",
    "second_chance": "2nd Chance",
    "waste_lower": "Waste-A-Turn (lower)",
}
TY_TEXTS = {
    "ones": "Add up the dice that show 1.",
    "xtra_ones": "A second Ones box: add up the 1s again. It never counts toward an upgrade.",
    "twos": "Add up the dice that show 2.",
    "threes": "Add up the dice that show 3.",
    "fours": "Add up the dice that show 4.",
    "fives": "Add up the dice that show 5.",
    "sixes": "Add up the dice that show 6.",
    "waste_upper": "Spend the turn without scoring: an X, no points. Optional.",
    "two_pairs": "Only the two best pairs are added up (a three or four of a kind supplies pairs too).",
    "three_of_a_kind": "Three or more alike: all five dice added up.",
    "four_of_a_kind": "Four or more alike: all five dice added up.",
    "full_house": "Three alike and a pair, or five alike: the dice total, but never less than 25.",
    "small_straight": "A run of four: 30 for 1-4, 35 for 2-5, 40 for 3-6. Five alike is a joker.",
    "large_straight": "A run of five: 40 for 1-5, 50 for 2-6. Five alike is a joker.",
    "yahtzee": "Five alike: 50 for 1s to 3s, 60 for 4s and 5s, 75 for 6s.",
    "yahtzee_bonus": "Five alike, once all three Yahtzee boxes are filled: 100, 120 or 150.",
    "first_chance": "Anything: all five dice added up.",
    "second_chance": "A second Chance box, used the same way.",
    "waste_lower": "A second waste box in the lower part of the column. Optional.",
}
TY_SAMPLES = {
    "ones": [1, 1, 1, 4, 6],
    "xtra_ones": [1, 1, 3, 5, 6],
    "twos": [2, 2, 4, 5, 6],
    "threes": [3, 3, 3, 3, 5],
    "fours": [4, 4, 4, 1, 2],
    "fives": [5, 5, 5, 6, 6],
    "sixes": [6, 6, 6, 6, 1],
    "waste_upper": [1, 2, 4, 4, 6],
    "two_pairs": [2, 2, 5, 5, 6],
    "three_of_a_kind": [5, 5, 5, 2, 1],
    "four_of_a_kind": [3, 3, 3, 3, 6],
    "full_house": [2, 2, 2, 3, 3],
    "small_straight": [1, 3, 4, 5, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "yahtzee": [4, 4, 4, 4, 4],
    "yahtzee_bonus": [4, 4, 4, 4, 4],
    "first_chance": [6, 5, 4, 2, 1],
    "second_chance": [3, 3, 5, 6, 2],
    "waste_lower": [1, 1, 2, 3, 6],
}

# One column's worth of fills that meets every upgrade minimum with its last box: four upper boxes with
# three of their face (54 points), four counted lower boxes with three or more alike, and a large straight
# to lift the lower total over 200 (215). Before the multiplier the column holds 269.
UPGRADE_RECIPE: tuple[tuple[str, list[int]], ...] = (
    ("threes", [3, 3, 3, 1, 2]),
    ("fours", [4, 4, 4, 1, 2]),
    ("fives", [5, 5, 5, 1, 2]),
    ("sixes", [6, 6, 6, 1, 2]),
    ("large_straight", [2, 3, 4, 5, 6]),
    ("three_of_a_kind", [6, 6, 6, 6, 6]),
    ("four_of_a_kind", [6, 6, 6, 6, 6]),
    ("full_house", [6, 6, 6, 6, 6]),
    ("yahtzee", [6, 6, 6, 6, 6]),
)
UPGRADE_ORDERS = (
    ((1, 2, 3), "Left to right"),
    ((3, 1, 2), "Column 3 first"),
    ((2, 1, 3), "Column 2 first"),
)
# Upper-section fills for the bonus tiers (column 1, no lower boxes, so the multiplier stays 1).
UPPER_TIERS: tuple[tuple[str, tuple[tuple[str, list[int]], ...]], ...] = (
    (
        "Two 1s instead of three",
        (
            ("ones", [1, 1, 2, 3, 4]),
            ("twos", [2, 2, 2, 1, 3]),
            ("threes", [3, 3, 3, 1, 2]),
            ("fours", [4, 4, 4, 1, 2]),
            ("fives", [5, 5, 5, 1, 2]),
            ("sixes", [6, 6, 6, 1, 2]),
        ),
    ),
    ("Three of every face", tuple(PAR_ROLLS.items())),
    (
        "Four 4s, and three 1s in Xtra Ones",
        (
            *((b, r) for b, r in PAR_ROLLS.items() if b != "fours"),
            ("fours", [4, 4, 4, 4, 1]),
            ("xtra_ones", [1, 1, 1, 2, 3]),
        ),
    ),
    (
        "Five 6s, and a single 1 in Xtra Ones",
        (
            *((b, r) for b, r in PAR_ROLLS.items() if b != "sixes"),
            ("sixes", [6, 6, 6, 6, 6]),
            ("xtra_ones", [1, 2, 3, 4, 5]),
        ),
    ),
)


def _ty_upgrades(engine) -> dict:
    score = engine.score
    raw = sum(score(box, roll) for box, roll in UPGRADE_RECIPE)
    recipe = [_ex(roll, score(box, roll), box=box, label=TY_LABELS[box]) for box, roll in UPGRADE_RECIPE]
    orders = []
    for order, title in UPGRADE_ORDERS:
        state = engine.new_game([YOU])
        columns = []
        for column in order:
            before = engine.scores(state)[YOU]
            for box, roll in UPGRADE_RECIPE:
                state, _ = _card_turn(engine, state, roll, box, column)
            worth = engine.scores(state)[YOU] - before
            columns.append(
                {"column": column, "base": column, "multiplier": worth // raw, "worth": worth, "raw": raw}
            )
        orders.append(
            {"title": title, "order": list(order), "columns": columns, "total": engine.scores(state)[YOU]}
        )
    return {"recipe": recipe, "raw": raw, "orders": orders}


def _triple_yahtzee_99(engine) -> dict:
    score = engine.score

    def ex(dice: list[int], box: str, note: str = "") -> dict:
        return _ex(dice, score(box, dice), box=box, label=TY_LABELS[box], note=note)

    two_pairs = [
        ex([2, 2, 5, 5, 6], "two_pairs", "Two pairs: only the four paired dice count."),
        ex([3, 3, 3, 6, 6], "two_pairs", "A full house: the three 3s give one pair."),
        ex([4, 4, 4, 4, 2], "two_pairs", "Four of a kind counts as two pairs of 4s."),
        ex([6, 6, 6, 6, 6], "two_pairs", "Five 6s: two pairs of 6s, the fifth die left over."),
        ex([6, 6, 5, 5, 2], "two_pairs", "The 2 is not part of a pair, so it is left out."),
        ex([2, 2, 3, 4, 5], "two_pairs", "Only one pair: 0."),
    ]
    full_house = [
        ex([2, 2, 2, 3, 3], "full_house", "The dice add up to 12, so the 25 floor applies."),
        ex([6, 6, 6, 5, 5], "full_house", "The dice add up to more than 25: the sum counts."),
        ex([5, 5, 5, 5, 5], "full_house", "Five alike is accepted: exactly 25."),
        ex([6, 6, 6, 6, 6], "full_house", "Five 6s: 30."),
        ex([6, 6, 6, 6, 5], "full_house", "Four and one is not a full house: 0."),
    ]
    straights = [
        ex([1, 2, 3, 4, 6], "small_straight", "1-2-3-4."),
        ex([2, 3, 4, 5, 5], "small_straight", "2-3-4-5."),
        ex([1, 3, 4, 5, 6], "small_straight", "3-4-5-6, the best run of four."),
        ex([1, 2, 3, 4, 5], "large_straight", "1-2-3-4-5."),
        ex([2, 3, 4, 5, 6], "large_straight", "2-3-4-5-6."),
        ex([2, 3, 4, 5, 6], "small_straight", "The run 3-4-5-6 is inside, so the small straight gets 40."),
    ]
    jokers = []
    for face in range(1, 7):
        five = [face] * 5
        jokers.append(
            _ex(
                five,
                score("yahtzee", five),
                face=face,
                yahtzee=score("yahtzee", five),
                bonus=score("yahtzee_bonus", five),
                small=score("small_straight", five),
                large=score("large_straight", five),
            )
        )

    tiers = []
    for title, fills in UPPER_TIERS:
        state = engine.new_game([YOU])
        for box, roll in fills:
            state, _ = _card_turn(engine, state, roll, box, 1)
        subtotal = sum(score(box, roll) for box, roll in fills)
        total = engine.scores(state)[YOU]
        fills_shown = [_ex(roll, score(box, roll), box=box, label=TY_LABELS[box]) for box, roll in fills]
        tiers.append({"title": title, "fills": fills_shown, "subtotal": subtotal, "bonus": total - subtotal})

    # The Yahtzee bonus order: refused before all three Yahtzee boxes are filled, then columns 1, 2, 3.
    state = engine.new_game([YOU])
    rolled = engine.apply(state, YOU, {"type": "roll", "hold": []}, _Scripted([6] * 5))
    early_refused = _refused(engine, rolled, YOU, {"type": "score", "box": "yahtzee_bonus", "column": 1})
    bonus_steps = []
    for roll, box, column, note in (
        ([2] * 5, "yahtzee", 1, "Yahtzee, column 1: 50 x 1."),
        ([3] * 5, "yahtzee", 2, "Yahtzee, column 2: 50 x 2."),
        ([1] * 5, "yahtzee", 3, "Yahtzee, column 3: 50 x 3. All three Yahtzee boxes are filled now."),
        (
            [6] * 5,
            "yahtzee_bonus",
            3,
            "Picked in column 3, but the first bonus always goes to column 1: 150 x 1.",
        ),
        ([5] * 5, "yahtzee_bonus", 3, "The second bonus goes to column 2: 120 x 2."),
    ):
        state, gain = _card_turn(engine, state, roll, box, column)
        bonus_steps.append(
            _ex(
                roll,
                score(box, roll),
                box=box,
                label=f"{TY_LABELS[box]}, picked in column {column}",
                note=note,
                gain=gain,
                running=engine.scores(state)[YOU],
            )
        )

    # A waste box: the turn passes, nothing changes.
    state = engine.new_game([YOU])
    waste_dice = [1, 2, 4, 4, 6]
    state, waste_gain = _card_turn(engine, state, waste_dice, "waste_upper", 1)
    waste = _ex(
        waste_dice,
        score("waste_upper", waste_dice),
        box="waste_upper",
        label=TY_LABELS["waste_upper"],
        note="An X: the turn is used and the total does not move.",
        gain=waste_gain,
    )

    xtra = [
        ex(
            [1, 1, 1, 5, 6],
            "xtra_ones",
            "Three 1s score 3 here, but this box never counts as a three of a kind.",
        ),
        ex([1, 1, 1, 5, 6], "ones", "The same dice in Ones score 3 and do count toward an upgrade."),
    ]

    return {
        "card": _rows(engine, TY_LABELS, TY_TEXTS, TY_SAMPLES),
        "two_pairs": two_pairs,
        "full_house": full_house,
        "straights": straights,
        "by_face": jokers,
        "tiers": tiers,
        "yahtzee_bonus_refused_early": early_refused,
        "yahtzee_bonus": bonus_steps,
        "waste": waste,
        "xtra_ones": xtra,
        "upgrade": _ty_upgrades(engine),
    }


# --- Painted DiceZ ----------------------------------------------------------------------------------

PD_LABELS = {
    "ones": "Ones",
    "twos": "Twos",
    "threes": "Threes",
    "fours": "Fours",
    "fives": "Fives",
    "sixes": "Sixes",
    "blues": "Blues",
    "reds": "Reds",
    "pinks": "Pinks",
    "greens": "Greens",
    "yellows": "Yellows",
    "four_of_a_kind": "4 of a Kind",
    "four_of_a_color": "4 of a Color",
    "full_house": "Full House",
    "painted_house": "Painted House",
    "straight": "Straight",
    "rainbow": "Rainbow",
    "flush": "Flush",
    "dicez": "DiceZ",
    "chance": "Chance",
}
PD_TEXTS = {
    "ones": "Add up the dice that show 1, whatever their colour.",
    "twos": "Add up the dice that show 2.",
    "threes": "Add up the dice that show 3.",
    "fours": "Add up the dice that show 4.",
    "fives": "Add up the dice that show 5.",
    "sixes": "Add up the dice that show 6.",
    "blues": "Add up the faces of the blue dice.",
    "reds": "Add up the faces of the red dice.",
    "pinks": "Add up the faces of the pink dice.",
    "greens": "Add up the faces of the green dice.",
    "yellows": "Add up the faces of the yellow dice.",
    "four_of_a_kind": "Four or more dice with one face: all five dice added up.",
    "four_of_a_color": "Four or more dice with one colour: all five faces added up.",
    "full_house": "Exactly three of one face and two of another: 25. Five alike does not count.",
    "painted_house": "Exactly three dice of one colour and two of another: 25.",
    "straight": "Five faces in a row (1-5 or 2-6): 40.",
    "rainbow": "All five colours showing, one die each: 40.",
    "flush": "All five dice in one colour: 50.",
    "dicez": "All five dice with one face: 50.",
    "chance": "Anything: all five faces added up.",
}
B, R, P, G, Y = "blue", "red", "pink", "green", "yellow"
PD_SAMPLES = {
    "ones": _p((1, B), (1, R), (3, G), (4, Y), (6, P)),
    "twos": _p((2, G), (5, G), (2, B), (2, R), (3, Y)),
    "threes": _p((3, P), (3, P), (1, B), (6, G), (4, R)),
    "fours": _p((4, Y), (4, B), (6, R), (5, P), (4, G)),
    "fives": _p((5, R), (1, R), (5, B), (2, Y), (3, G)),
    "sixes": _p((6, B), (6, G), (6, P), (2, R), (1, Y)),
    "blues": _p((5, B), (6, B), (2, R), (4, B), (3, G)),
    "reds": _p((6, R), (3, R), (1, B), (6, Y), (2, P)),
    "pinks": _p((2, P), (5, P), (5, P), (1, G), (3, B)),
    "greens": _p((4, G), (6, G), (3, Y), (4, R), (5, G)),
    "yellows": _p((1, Y), (6, Y), (6, B), (3, Y), (2, Y)),
    "four_of_a_kind": _p((4, B), (4, R), (4, G), (4, Y), (2, P)),
    "four_of_a_color": _p((6, G), (2, G), (5, G), (3, G), (1, R)),
    "full_house": _p((5, B), (5, R), (5, R), (2, G), (2, Y)),
    "painted_house": _p((1, P), (4, P), (6, P), (3, Y), (2, Y)),
    "straight": _p((3, R), (1, B), (4, G), (2, R), (5, P)),
    "rainbow": _p((6, B), (5, R), (4, P), (3, G), (2, Y)),
    "flush": _p((6, Y), (2, Y), (4, Y), (3, Y), (1, Y)),
    "dicez": _p((3, B), (3, R), (3, P), (3, G), (3, Y)),
    "chance": _p((6, B), (4, R), (3, P), (2, G), (5, Y)),
}


def _painted_dicez(engine) -> dict:
    score = engine.score

    def ex(dice: list[list], box: str, note: str = "") -> dict:
        return _ex(dice, score(box, dice), box=box, label=PD_LABELS[box], note=note)

    all_blue = _p((4, B), (4, B), (4, B), (2, B), (6, B))
    fives = _p((5, B), (5, R), (5, P), (5, G), (5, Y))
    rainbow_straight = _p((2, G), (3, Y), (4, B), (5, P), (6, R))
    mixed = _p((6, B), (3, B), (6, R), (2, G), (5, G))
    houses = [
        ex(all_blue, "painted_house", "Five blue dice are not three of one colour and two of another: 0."),
        ex(all_blue, "flush", "The same dice are a flush: 50."),
        ex(all_blue, "four_of_a_color", "Five of one colour is also at least four: the faces add up."),
        ex(all_blue, "full_house", "Three 4s and a 2 and a 6: no full house by face, 0."),
    ]
    kinds = [
        ex(fives, "full_house", "Five 5s are not a full house here: 0."),
        ex(fives, "dicez", "They are a DiceZ: 50."),
        ex(fives, "rainbow", "All five colours show, so the same roll is a rainbow too."),
        ex(fives, "four_of_a_kind", "And at least four alike: the faces add up."),
    ]
    colours = [
        ex(mixed, "blues", "Only the blue 6 and the blue 3 count."),
        ex(mixed, "greens", "The green 2 and the green 5."),
        ex(mixed, "reds", "One red die, a 6."),
        ex(mixed, "sixes", "By face instead: the two 6s, whatever their colour."),
        ex(mixed, "pinks", "No pink die: 0."),
    ]
    rainbow = [
        ex(rainbow_straight, "rainbow", "One die of every colour."),
        ex(rainbow_straight, "straight", "The same dice also run 2-6: a straight."),
    ]

    def bonus_game(fills: list[tuple[str, list[list]]]) -> dict:
        state = engine.new_game([YOU])
        shown = []
        for box, roll in fills:
            state, gain = _card_turn(engine, state, roll, box)
            shown.append(_ex(roll, score(box, roll), box=box, label=PD_LABELS[box], gain=gain))
        subtotal = sum(f["value"] for f in shown)
        total = engine.scores(state)[YOU]
        return {"fills": shown, "subtotal": subtotal, "bonus": total - subtotal, "total": total}

    upper_fills = [
        ("ones", _p((1, B), (1, R), (1, G), (2, Y), (3, P))),
        ("twos", _p((2, B), (2, R), (2, G), (1, Y), (3, P))),
        ("threes", _p((3, B), (3, R), (3, G), (1, Y), (2, P))),
        ("fours", _p((4, B), (4, R), (4, G), (1, Y), (2, P))),
        ("fives", _p((5, B), (5, R), (5, G), (1, Y), (2, P))),
        ("sixes", _p((6, B), (6, R), (6, G), (1, Y), (2, P))),
    ]
    colour_fills = [
        ("blues", _p((6, B), (6, B), (6, B), (6, B), (6, B))),
        ("reds", _p((6, R), (6, R), (6, R), (6, R), (6, R))),
        ("pinks", _p((3, P), (1, B), (2, G), (4, Y), (5, R))),
    ]
    return {
        "card": _rows(engine, PD_LABELS, PD_TEXTS, PD_SAMPLES),
        "colours": colours,
        "houses": houses,
        "kinds": kinds,
        "rainbow": rainbow,
        "upper_bonus": bonus_game(upper_fills),
        "colour_bonus": bonus_game(colour_fills),
        "letters": [{"colour": c, "letter": letter} for c, letter in COLOUR_LETTERS.items()],
    }


# --- Farkle -----------------------------------------------------------------------------------------

FARKLE_TABLE: tuple[tuple[str, str, list[int]], ...] = (
    ("Single 1", "100 each", [1]),
    ("Single 5", "50 each", [5]),
    ("Three of a kind", "face x 100", [4, 4, 4]),
    ("Three 1s", "1000", [1, 1, 1]),
    ("Four of a kind", "twice the three", [6, 6, 6, 6]),
    ("Five of a kind", "five times the three", [3, 3, 3, 3, 3]),
    ("Five 1s", "10000", [1, 1, 1, 1, 1]),
    ("Six of a kind", "10000", [2, 2, 2, 2, 2, 2]),
    ("Six 1s", "20000", [1, 1, 1, 1, 1, 1]),
    ("Three of a kind and a pair", "twice the three", [4, 4, 4, 2, 2]),
    ("Four of a kind and a pair", "twice the four", [5, 5, 5, 5, 3, 3]),
    ("Two threes of a kind", "twice both threes", [3, 3, 3, 6, 6, 6]),
    ("Three pairs", "1000", [2, 2, 4, 4, 6, 6]),
    ("Four of a kind and a pair, taken as three pairs", "1000 when that is more", [2, 2, 2, 2, 3, 3]),
    ("Straight 1 to 6", "1000", [1, 2, 3, 4, 5, 6]),
    ("Straight 1 to 5", "500", [1, 2, 3, 4, 5]),
    ("Straight 2 to 6", "500", [2, 3, 4, 5, 6]),
)
# The examples RULINGS.md gives, with the value it states (the tests hold the engine to them).
FARKLE_RULINGS: tuple[tuple[list[int], int, str], ...] = (
    ([1, 1, 1, 4, 4], 2000, "Three 1s with a pair of 4s: the pair doubles the 1000."),
    ([2, 2, 2, 5, 5], 400, "Three 2s with a pair of 5s: twice 200."),
    ([5, 5], 100, "Two single 5s."),
    ([2, 2, 2, 3, 3, 3], 1000, "Two threes of a kind: twice (200 + 300)."),
    ([2, 3, 4, 5, 6, 5], 550, "A 2-to-6 straight and a single 5."),
    ([1, 1, 1, 1, 1], 10000, "Five 1s."),
    ([2, 3], 0, "Neither die scores, so they cannot be set aside."),
)
GOAL_CHOICES = (10000, 5000, 3000)
DICE_CHOICES = (6, 5)


def _farkle_play(
    engine, state: dict, player: str, steps: list[dict], table: Sequence[int] = (), turn: int = 0
) -> tuple[dict, list[dict]]:
    """Play ``steps`` (a roll or a bank, the indices kept, the scripted next roll) and describe each.

    Each row: the dice set aside and their value, the turn's points after setting them aside, whether
    the engine would have let the player bank at that point, the roll that followed (and whether it was
    a Farkle), and the player's banked total afterwards. When ``state`` is in the middle of a turn,
    ``table`` is the latest roll and ``turn`` the points set aside so far.
    """
    rows = []
    table = list(table)
    for step in steps:
        kind, keep, roll = step["type"], step.get("keep", []), step.get("roll")
        kept = [table[i] for i in keep]
        value = engine.score(kept) if kept else 0
        turn += value
        row: dict[str, Any] = {
            "player": player,
            "kind": kind,
            "kept": _ex(kept, value),
            "turn": turn,
            "note": step.get("note", ""),
            "can_bank": None,  # None: nothing set aside yet (the first roll of a turn)
            "rolled": None,
            "lost": 0,
        }
        if keep:
            row["can_bank"] = not _refused(engine, state, player, {"type": "bank", "keep": keep})
        state = engine.apply(
            state, player, {"type": kind, "keep": keep}, _Scripted(*([roll] if roll else []))
        )
        if roll:
            farkle = not engine.has_score(roll)
            row["rolled"] = _ex(roll, None, farkle=farkle)  # a roll has no value until dice are kept
            table = list(roll)
            if farkle:
                row["lost"] = turn
                turn = 0
        row["banked"] = engine.scores(state)[player]
        rows.append(row)
    return state, rows


def _farkle(engine) -> dict:
    score = engine.score
    table = [{"name": name, "rule": rule, **_ex(dice, score(dice))} for name, rule, dice in FARKLE_TABLE]
    rulings = [_ex(dice, score(dice), stated=stated, note=note) for dice, stated, note in FARKLE_RULINGS]
    not_counting = [
        _ex(
            [5, 5, 2],
            score([5, 5, 2]),
            note="The 2 does not help, so this set is not allowed; keep just the 5s.",
        ),
        _ex(
            [1, 1, 1, 1], score([1, 1, 1, 1]), note="Four 1s together: twice 1000, better than four singles."
        ),
        _ex([1, 5], score([1, 5]), note="Two singles from the same roll."),
    ]
    rolls = [
        _ex(roll, None, farkle=not engine.has_score(roll), note=note)
        for roll, note in (
            ([2, 2, 3, 4, 6, 6], "No 1, no 5, nothing three alike, no straight and only two pairs."),
            ([2, 2, 3, 3, 4, 4], "Three pairs score, so this is not a Farkle."),
            ([6, 4, 3, 3, 2, 6], "Two pairs are not three pairs: a Farkle."),
            ([4, 4, 4, 2, 3, 6], "Three 4s: not a Farkle."),
        )
    ]

    # Minimum to bank: 100 and 200 are refused, 400 is banked.
    state = engine.new_game([YOU])
    _, minimum = _farkle_play(
        engine,
        state,
        YOU,
        [
            {"type": "roll", "roll": [1, 2, 3, 3, 4, 6], "note": "The turn's first roll."},
            {
                "type": "roll",
                "keep": [0],
                "roll": [5, 5, 2, 3, 6],
                "note": "Set the 1 aside and roll the other five.",
            },
            {
                "type": "roll",
                "keep": [0, 1],
                "roll": [1, 1, 4],
                "note": "Set the two 5s aside and roll the last three.",
            },
            {"type": "bank", "keep": [0, 1], "note": "Set the two 1s aside and bank."},
        ],
    )

    # Hot dice: every die set aside, then the confirmation roll decides.
    state = engine.new_game([YOU])
    state, hot = _farkle_play(
        engine,
        state,
        YOU,
        [
            {"type": "roll", "roll": [1, 1, 1, 5, 2, 3], "note": "The turn's first roll."},
            {
                "type": "roll",
                "keep": [0, 1, 2, 3],
                "roll": [5, 1],
                "note": "Set three 1s and a 5 aside; two dice are left to roll.",
            },
        ],
    )
    hot_bank_refused = _refused(engine, state, YOU, {"type": "bank", "keep": [0, 1]})
    lost_state, lost = _farkle_play(
        engine,
        state,
        YOU,
        [
            {
                "type": "roll",
                "keep": [0, 1],
                "roll": [2, 2, 3, 4, 6, 6],
                "note": "Both dice score: hot dice. All six are rolled again, and nothing scores.",
            }
        ],
        table=[5, 1],
        turn=hot[-1]["turn"],
    )
    _, kept = _farkle_play(
        engine,
        state,
        YOU,
        [
            {
                "type": "roll",
                "keep": [0, 1],
                "roll": [5, 2, 2, 3, 6, 6],
                "note": "Both dice score: hot dice. All six are rolled again, and a 5 shows.",
            },
            {"type": "bank", "keep": [0], "note": "Set the 5 aside and bank."},
        ],
        table=[5, 1],
        turn=hot[-1]["turn"],
    )

    # Laps: the round is finished after someone reaches the goal; then the game ends.
    goal = 3000
    state = engine.new_game(["ann", "bob"], {"goal": goal})
    state, ann = _farkle_play(
        engine,
        state,
        "ann",
        [
            {"type": "roll", "roll": [1, 1, 1, 1, 1, 4], "note": "Ann rolls five 1s."},
            {
                "type": "bank",
                "keep": [0, 1, 2, 3, 4],
                "note": "She banks them: past the goal in the first lap.",
            },
        ],
    )
    state, bob = _farkle_play(
        engine,
        state,
        "bob",
        [
            {"type": "roll", "roll": [6, 6, 6, 2, 3, 4], "note": "Bob still has his turn in the same lap."},
            {"type": "bank", "keep": [0, 1, 2], "note": "He banks three 6s."},
        ],
    )
    laps = {
        "goal": goal,
        "rows": ann + bob,
        "scores": engine.scores(state),
        # The game is over once the lap is finished: the engine refuses Ann another turn.
        "over_after_one_lap": _refused(
            engine, state, "ann", {"type": "roll", "keep": []}, [1, 2, 3, 4, 6, 6]
        ),
    }

    goals = [g for g in GOAL_CHOICES if _accepts(engine, {"goal": g})]
    dice_counts = [n for n in DICE_CHOICES if _accepts(engine, {"dice": n})]
    return {
        "table": table,
        "rulings": rulings,
        "sets": not_counting,
        "rolls": rolls,
        "minimum": minimum,
        "hot": hot,
        "hot_bank_refused": hot_bank_refused,
        "hot_turn": lost[0]["turn"],
        "hot_lost_points": lost[0]["lost"],
        "hot_lost": hot + lost,
        "hot_lost_total": engine.scores(lost_state)[YOU],
        "hot_kept": hot + kept,
        "laps": laps,
        "goals": goals,
        "default_goal": goals[0] if goals else None,
        "dice_counts": dice_counts,
    }


def _accepts(engine, options: dict) -> bool:
    try:
        engine.new_game([YOU], options)
    except rules.IllegalAction:
        return False
    return True


# --- entry point ------------------------------------------------------------------------------------

BUILDERS: dict[str, Callable[[Any], dict]] = {
    "triple-quintzee": _triple_quintzee,
    "triple-yahtzee-99": _triple_yahtzee_99,
    "painted-dicez": _painted_dicez,
    "farkle": _farkle,
}


@lru_cache(maxsize=len(BUILDERS))
def examples(slug: str) -> dict:
    """Every worked example of a game's rules page, valued by that game's engine (KeyError if unknown).

    The result is shared between requests: treat it as read-only.
    """
    return BUILDERS[slug](rules.get(slug))
