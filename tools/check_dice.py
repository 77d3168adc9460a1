#!/usr/bin/env python3
"""Check that every roll of a DiceHall game is the one its committed seeds give (docs/fair-dice.md).

    python3 tools/check_dice.py game-123.json

The file is the game's JSON export (/games/<id>/export.json) of a game that is over, so that it holds
the revealed server seed. Standard library only, and independent of the site's code on purpose: it is
the specification written out again, which anyone can read and run. Exit status 0 when every roll
matches, 1 when one does not (the first is named), 2 when the file cannot be checked.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys

COLOURS = ("blue", "red", "pink", "green", "yellow")


def stream(server_seed: bytes, client_seeds: list[str], seq: int):
    """The bytes of action ``seq``: HMAC-SHA256(server seed, "v1:<seeds,>:<seq>:<block>"), block 0, 1 ..."""
    block = 0
    while True:
        text = "v1:" + ",".join(client_seeds) + ":" + str(seq) + ":" + str(block)
        yield from hmac.new(server_seed, text.encode("ascii"), hashlib.sha256).digest()
        block += 1


def draw(source, outcomes: int) -> int:
    """One outcome of ``outcomes`` by rejection sampling: bytes at or above 256 - 256 % n are skipped."""
    limit = 256 - 256 % outcomes
    return next(b for b in source if b < limit) % outcomes


def derive(server_seed: bytes, client_seeds: list[str], seq: int, sizes: list[int], painted: bool) -> list:
    source = stream(server_seed, client_seeds, seq)
    rolls = []
    for n in sizes:
        if painted:
            rolls.append([[draw(source, 6) + 1, COLOURS[draw(source, 5)]] for _ in range(n)])
        else:
            rolls.append([draw(source, 6) + 1 for _ in range(n)])
    return rolls


class Unchecked(Exception):
    """The export cannot be checked (no fair dice, no revealed seed, a malformed file)."""


def check(export: dict) -> tuple[bool, str, int]:
    """(every roll matches, what to say, how many rolls were checked)."""
    fair = export.get("fair_dice")
    if not fair:
        raise Unchecked("this game was played before fair dice: there is no seed to check its rolls with")
    if fair.get("version") != "v1":
        raise Unchecked(f"unknown derivation version {fair.get('version')!r}")
    if not fair.get("server_seed"):
        raise Unchecked("the server seed is not revealed yet: the game is not over")
    seed = bytes.fromhex(fair["server_seed"])
    if hashlib.sha256(seed).hexdigest() != fair["commitment"]:
        return False, "the server seed does not match its commitment", 0
    painted = export["game"]["dice_kind"] == "painted"
    checked = 0
    for action in export["actions"]:
        recorded = action["dice"]
        derived = derive(seed, fair["client_seeds"], action["seq"], [len(r) for r in recorded], painted)
        for number, (got, want) in enumerate(zip(recorded, derived, strict=True), 1):
            checked += 1
            if got != want:
                return (
                    False,
                    f"roll {checked} (action {action['seq']}, roll {number} of {action['player']}) does not "
                    f"match the committed seed: recorded {json.dumps(got)}, derived {json.dumps(want)}",
                    checked,
                )
    return True, f"every one of the {checked} rolls matches the committed seed", checked


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: check_dice.py GAME-EXPORT.json\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8") as fh:
            ok, said, _ = check(json.load(fh))
    except (OSError, ValueError, KeyError, TypeError, Unchecked) as exc:
        sys.stderr.write(f"cannot check: {exc}\n")
        return 2
    sys.stdout.write(said + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
