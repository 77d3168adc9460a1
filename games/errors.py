"""Errors the game services raise; each carries a code and a sentence a player can read."""

from __future__ import annotations


class GameError(Exception):
    code = "error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class NotFound(GameError):
    code = "not_found"


class Forbidden(GameError):
    code = "forbidden"


class Conflict(GameError):
    code = "conflict"


class InvalidAction(GameError):
    code = "illegal_action"


class BadRequest(GameError):
    code = "bad_request"


class ReplayMismatch(GameError):
    code = "replay_mismatch"
