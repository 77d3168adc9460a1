"""Errors the game services raise; each carries a code and a sentence a player can read.

The sentence is said in the language that is active when ``message`` is read (the page's, or the
socket's reader's: play.consumers), not the one active where the error was raised: services run
on database threads that know no reader. A sentence is a ``gettext_lazy`` template with its
parameters, or an engine's refusal (games.rules.messages).
"""

from __future__ import annotations

from typing import Any


class Sentence:
    """A sentence to be said later, in the language active then: a lazy template and its parameters."""

    def __init__(self, template: Any, **params: Any):
        self.template = template
        self.params = params

    @property
    def message(self) -> str:
        from games import i18n

        return i18n.sentence(self.template, self.params)


class GameError(Exception):
    code = "error"

    def __init__(self, message: Any, code: str | None = None, **params: Any):
        super().__init__(message)
        self.template = message
        self.params = params
        if code:
            self.code = code

    @property
    def message(self) -> str:
        from games import i18n

        return i18n.sentence(self.template, self.params)


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

    def __init__(self, message: Any, retry_after: int, **params: Any):
        super().__init__(message, **params)
        self.retry_after = retry_after
