"""The derivation of fair dice (games.fair_dice, docs/fair-dice.md): deterministic, changed by any of its
inputs, in range, and the same as the specification's worked example."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import fair_dice
from games.rules.dice import COLOURS

SEED = "00" * 31 + "01"
CLIENTS = ["alice-seed", "bob_seed"]


def test_the_colours_are_the_engines():
    assert fair_dice.COLOURS == COLOURS


def test_the_same_inputs_give_the_same_dice():
    a = fair_dice.action_rolls(SEED, CLIENTS, 7, [5, 3, 1], painted=False)
    b = fair_dice.action_rolls(SEED, CLIENTS, 7, [5, 3, 1], painted=False)
    assert a == b and [len(r) for r in a] == [5, 3, 1]


@pytest.mark.parametrize(
    "changed",
    [
        {"server_seed": "00" * 31 + "02"},
        {"client_seeds": ["alice-seed", "bob_seeD"]},
        {"client_seeds": ["bob_seed", "alice-seed"]},  # seat order counts
        {"seq": 8},
    ],
)
def test_a_changed_seed_client_seed_or_counter_changes_the_roll(changed):
    base = {"server_seed": SEED, "client_seeds": CLIENTS, "seq": 7}
    for painted in (False, True):
        before = fair_dice.action_rolls(**base, sizes=[6, 6, 6], painted=painted)
        after = fair_dice.action_rolls(**{**base, **changed}, sizes=[6, 6, 6], painted=painted)
        assert before != after


def test_the_bytes_are_hmac_sha256_of_the_documented_message():
    """docs/fair-dice.md's derivation, written out again by hand."""
    key = bytes.fromhex(SEED)
    stream = b"".join(
        hmac.new(key, f"v1:alice-seed,bob_seed:7:{n}".encode(), hashlib.sha256).digest() for n in range(4)
    )
    faces = [b % 6 + 1 for b in stream if b < 252][:20]
    assert fair_dice.action_rolls(SEED, CLIENTS, 7, [20], painted=False) == [faces]
    # Painted DiceZ: a face, then a colour, die after die, from the one stream.
    out, it = [], iter(stream)
    for _ in range(5):
        face = next(b for b in it if b < 252) % 6 + 1
        colour = COLOURS[next(b for b in it if b < 255) % 5]
        out.append([face, colour])
    assert fair_dice.action_rolls(SEED, CLIENTS, 7, [5], painted=True) == [out]


def test_the_worked_example_of_the_docs():
    """docs/fair-dice.md quotes these numbers; a change here is a change of the published derivation."""
    assert fair_dice.commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert fair_dice.action_rolls(SEED, CLIENTS, 1, [5], painted=False) == [[1, 4, 4, 5, 2]]
    assert fair_dice.action_rolls(SEED, CLIENTS, 1, [2], painted=True) == [[[1, "green"], [4, "blue"]]]


def test_rejected_bytes_are_skipped_not_folded():
    """A stream whose first bytes are all above the limits: the dice come from the first byte below."""

    class Fixed(fair_dice.ActionDice):
        def _stream(self):
            yield from [252, 253, 255, 251, 255, 254, 0]

    dice = Fixed(SEED, CLIENTS, 1)
    assert dice.face() == 251 % 6 + 1
    assert dice.colour() == COLOURS[254 % 5]


@pytest.mark.parametrize("seed", ["a", "A-z_09", "x" * 64])
def test_valid_client_seeds(seed):
    assert fair_dice.valid_client_seed(seed)


@pytest.mark.parametrize("seed", ["", "x" * 65, "a b", "a,b", "a:b", "é", None, 5])
def test_invalid_client_seeds(seed):
    assert not fair_dice.valid_client_seed(seed)


def test_new_seeds():
    seed = fair_dice.new_server_seed()
    assert len(bytes.fromhex(seed)) == 32 and seed != fair_dice.new_server_seed()
    assert fair_dice.valid_client_seed(fair_dice.new_client_seed())


def test_a_short_server_seed_is_refused():
    with pytest.raises(ValueError):
        fair_dice.ActionDice("00" * 16, CLIENTS, 1)


@given(
    key=st.binary(min_size=32, max_size=32),
    seeds=st.lists(st.from_regex(fair_dice.CLIENT_SEED_RE, fullmatch=True), min_size=1, max_size=6),
    seq=st.integers(min_value=1, max_value=10_000),
    sizes=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=4),
    painted=st.booleans(),
)
def test_every_die_is_in_range(key, seeds, seq, sizes, painted):
    rolls = fair_dice.action_rolls(key.hex(), seeds, seq, sizes, painted)
    assert [len(r) for r in rolls] == sizes
    for roll in rolls:
        for die in roll:
            face, colour = die if painted else (die, "blue")
            assert 1 <= face <= 6 and colour in COLOURS
