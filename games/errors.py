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


class RateLimited(GameError):
    """Too many of something in too little time; ``retry_after`` seconds until it is allowed again."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after
