"""Dice as every page draws them: ``{% dice example %}`` for a row of dice with its accessible name,
``{% die d %}`` for one die, plain or painted (colour as a class and as a letter, never by sight alone).

Both take the drawn form that ``games.rulebook.shared`` builds: a row has ``shown`` and ``aria``, a die
has ``face``, ``colour`` and ``letter`` (the last two empty for a plain die).
"""

from __future__ import annotations

from collections.abc import Mapping

from django import template
from django.utils.translation import gettext

register = template.Library()


@register.inclusion_tag("games/_dice.html")
def dice(row: Mapping) -> dict:
    return {"shown": row["shown"], "aria": row["aria"]}


@register.inclusion_tag("games/_die.html")
def die(d: Mapping, hidden: bool = False) -> dict:
    """One die; ``hidden`` keeps it from screen readers where the text beside it says the same."""
    return {"d": d, "hidden": hidden}


@register.filter
def either(values) -> str:
    """Choices as a sentence says them: "10000, 5000 or 3000" (the "or" in the reader's language)."""
    words = [str(v) for v in values]
    if len(words) <= 1:
        return "".join(words)
    return gettext("%(first)s or %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}
