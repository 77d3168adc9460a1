"""The one exception every engine raises for an action the rules do not allow."""

from __future__ import annotations

from typing import Any

from .messages import english, msg


class IllegalAction(ValueError):
    """An action the rules refuse; ``str(exc)`` is a sentence a player can read (in English).

    ``code`` and ``params`` (games.rules.messages) are the same sentence for the site to say in its
    reader's language; an engine that gives only a sentence has an empty code, and is shown as it is.
    """

    def __init__(self, message: str = "", *, code: str = "", params: dict[str, Any] | None = None) -> None:
        self.code = code
        self.params = dict(params or {})
        super().__init__(message)

    def __str__(self) -> str:
        # Said when read, not when raised: the card games' previews try every box and catch a refusal
        # for each filled one, on every move (docs/BENCHMARKS.md).
        if self.code:
            return english([msg(self.code, **self.params)])
        return super().__str__()

    def __reduce__(self):
        return (type(self), self.args, {"code": self.code, "params": self.params})


def refused(code: str, **params: Any) -> IllegalAction:
    """The refusal of ``code`` (games.rules.messages.MESSAGES) with its parameters."""
    return IllegalAction(code=code, params=params)
