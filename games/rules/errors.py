"""The one exception every engine raises for an action the rules do not allow."""


class IllegalAction(ValueError):
    """An action the rules refuse; ``str(exc)`` is a sentence a player can read."""
