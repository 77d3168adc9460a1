"""The engines' messages (games.rules.messages) and the services' sentences in the reader's language.

The browser does the same for the log of a game from the same codes (static/js/game/messages.js, with
the catalogue of play.i18n), so that one broadcast serves readers of every language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils import formats
from django.utils.translation import get_language, gettext, ngettext

from games.rules import messages
from games.rules.errors import IllegalAction


def number(value: int) -> str:
    """A figure as the reader writes it: 10.350 in German; English keeps the engines' plain 10350."""
    language = get_language() or "en"
    return formats.number_format(value, use_l10n=True, force_grouping=not language.startswith("en"))


def figure(value: Any) -> Any:
    """A whole number as the reader writes it (see ``number``); any other value as it is."""
    return number(value) if isinstance(value, int) and not isinstance(value, bool) else value


MINUTE, HOUR, DAY = 60, 3600, 86400


def _counted(seconds: float, size: int) -> int | None:
    """How many of the unit ``size`` say ``seconds``: a whole number of them, or two or more."""
    if seconds >= 2 * size or (seconds >= size and seconds % size == 0):
        return round(seconds / size)
    return None


def duration(seconds: float) -> str:
    """A span of time in words, in the largest unit that says it well: "1 day", "23 hours",
    "2 minutes", "90 seconds"."""
    seconds = max(0, round(seconds))
    if (n := _counted(seconds, DAY)) is not None:
        return ngettext("%(count)s day", "%(count)s days", n) % {"count": number(n)}
    if (n := _counted(seconds, HOUR)) is not None:
        return ngettext("%(count)s hour", "%(count)s hours", n) % {"count": number(n)}
    if (n := _counted(seconds, MINUTE)) is not None:
        return ngettext("%(count)s minute", "%(count)s minutes", n) % {"count": number(n)}
    return ngettext("%(count)s second", "%(count)s seconds", seconds) % {"count": number(seconds)}


class Duration:
    """Seconds that a sentence says in words when it is said, in its reader's language (services raise
    their sentences on threads that know no reader: games.errors)."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __str__(self) -> str:
        return duration(self.seconds)


def _names(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return gettext(messages.template("list.and")) % {"first": ", ".join(words[:-1]), "last": words[-1]}


def _param(key: str, value: Any) -> Any:
    if isinstance(value, dict):
        return render([value])
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            painted = gettext(messages.template("die.painted"))
            return ", ".join(painted % {"colour": gettext(c), "face": f} for f, c in value)
        return _names([str(v) for v in value])
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value) if key in messages.NAMING else number(value)
    if key in messages.TRANSLATED and isinstance(value, str):
        return gettext(value)
    return value


def one(code: str, params: Mapping[str, Any]) -> str:
    entry = messages.MESSAGES[code]
    shown = {k: _param(k, v) for k, v in params.items()}
    if isinstance(entry, str):
        return gettext(entry) % shown
    singular, plural, count = entry
    return ngettext(singular, plural, params[count]) % shown


def render(parts: Iterable[Mapping[str, Any]]) -> str:
    """A list of engine messages as one text in the active language."""
    return " ".join(one(part["code"], part.get("params", {})) for part in parts)


def event_text(event: Mapping[str, Any] | None) -> str:
    """An event's sentence in the active language; an event stored before events had codes keeps its
    English text."""
    if not event:
        return ""
    parts = event.get("msg")
    return render(parts) if parts else event.get("text", "")


def refusal(exc: IllegalAction) -> str:
    return one(exc.code, exc.params) if exc.code else str(exc)


def sentence(template: Any, params: Mapping[str, Any]) -> str:
    """A service's sentence (a lazy translation, an engine's refusal or plain text) said now."""
    if isinstance(template, IllegalAction):
        return refusal(template)
    text = str(template)
    return text % {k: _param(k, v) for k, v in params.items()} if params else text
