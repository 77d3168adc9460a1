"""Dice anyone can prove fair: every die of a game derived from a committed server seed and the players'
client seeds (docs/fair-dice.md is the specification; tools/check_dice.py checks a game with it).

Pure and standard library only: no Django, no clock, no global random state. The dice source that rolls
with it in production is games.live.dice_source.FairDice.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Sequence

VERSION = "v1"
SEED_BYTES = 32
# Players' client seeds: 1 to 64 letters, digits, "-" or "_" (so that "," and ":" can separate them in
# the HMAC message without escaping).
CLIENT_SEED_MAX = 64
CLIENT_SEED_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
COLOURS = ("blue", "red", "pink", "green", "yellow")  # games.rules.dice.COLOURS, in that order
# Rejection sampling: a byte at or above the largest multiple of the number of outcomes is skipped, so
# that every outcome has exactly the same number of bytes (no modulo bias).
FACE_LIMIT = 256 - 256 % 6  # 252
COLOUR_LIMIT = 256 - 256 % len(COLOURS)  # 255


def new_server_seed() -> str:
    """A fresh server seed: 32 bytes from ``secrets``, as 64 lowercase hexadecimal digits."""
    return secrets.token_hex(SEED_BYTES)


def new_client_seed() -> str:
    """A client seed made by the server (computer players, and any seat whose page sent none)."""
    return secrets.token_urlsafe(16)


def commitment(server_seed: str) -> str:
    """The SHA-256 of the server seed's 32 bytes, in hexadecimal: shown from the game's creation on."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def valid_client_seed(seed: object) -> bool:
    return isinstance(seed, str) and CLIENT_SEED_RE.fullmatch(seed) is not None


def message(client_seeds: Sequence[str], seq: int, block: int) -> bytes:
    """The HMAC message of one 32-byte block of the dice of action ``seq``."""
    return f"{VERSION}:{','.join(client_seeds)}:{seq}:{block}".encode("ascii")


def block(server_seed: str, client_seeds: Sequence[str], seq: int, number: int) -> bytes:
    key = bytes.fromhex(server_seed)
    return hmac.new(key, message(client_seeds, seq, number), hashlib.sha256).digest()


class ActionDice:
    """The dice of one action (its ``seq``): the bytes of blocks 0, 1, 2 ... in order, each die taking
    the bytes it needs by rejection sampling. Every roll the engine makes for the action continues the
    same stream, so an action that rolls twice gets different dice each time."""

    def __init__(self, server_seed: str, client_seeds: Sequence[str], seq: int):
        if len(bytes.fromhex(server_seed)) != SEED_BYTES:
            raise ValueError("a server seed is 32 bytes (64 hexadecimal digits)")
        self._key = bytes.fromhex(server_seed)
        self._seeds = list(client_seeds)
        self._seq = seq
        self._bytes = self._stream()

    def _stream(self) -> Iterator[int]:
        number = 0
        while True:
            yield from hmac.new(self._key, message(self._seeds, self._seq, number), hashlib.sha256).digest()
            number += 1

    def _below(self, limit: int) -> int:
        for byte in self._bytes:
            if byte < limit:
                return byte
        raise AssertionError("unreachable: the stream is endless")

    def face(self) -> int:
        return self._below(FACE_LIMIT) % 6 + 1

    def colour(self) -> str:
        return COLOURS[self._below(COLOUR_LIMIT) % len(COLOURS)]

    def roll(self, n: int, painted: bool = False) -> list:
        """``n`` dice: faces 1..6, or for Painted DiceZ ``[face, colour]`` pairs (the face first)."""
        if painted:
            return [[self.face(), self.colour()] for _ in range(n)]
        return [self.face() for _ in range(n)]


def action_rolls(
    server_seed: str, client_seeds: Sequence[str], seq: int, sizes: Sequence[int], painted: bool
) -> list[list]:
    """The rolls of action ``seq`` for rolls of ``sizes`` dice in order (what a checker compares with
    the recorded dice)."""
    dice = ActionDice(server_seed, client_seeds, seq)
    return [dice.roll(n, painted) for n in sizes]
