"""Computer accounts: one per strength and number, made on demand, that nobody can sign in to.

Their usernames start with NAME_PREFIX, which accounts.names reserves for them (any case, any
look-alike), so that the move core can tell from a player's name alone whether the turn passes to a
computer (and only then asks the database, whose ``User.computer`` is the authority)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from accounts.names import COMPUTER_PREFIX as NAME_PREFIX
from games.bots import STRENGTHS

# The strengths as people read them: a choice in a form, and the word of a computer's badge
# ("computer · expert"), which the templates and the game page translate from the stored strength.
_LABELS = {"easy": _("Easy"), "good": _("Good"), "expert": _("Expert")}
STRENGTH_CHOICES = [(s, _LABELS[s]) for s in STRENGTHS]
STRENGTH_WORDS = (gettext_noop("easy"), gettext_noop("good"), gettext_noop("expert"))
# Enough for the largest table: every seat but its creator's.
MAX_PER_TABLE = 5


def is_computer_name(username: str | None) -> bool:
    return bool(username) and username.lower().startswith(NAME_PREFIX)


def username_for(strength: str, number: int) -> str:
    return f"{NAME_PREFIX}{strength}-{number}"


def computer_user(strength: str, number: int):
    """The account of computer ``number`` (1, 2 ...) of ``strength``, created the first time."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}")
    if not 1 <= number <= MAX_PER_TABLE:
        raise ValueError(f"no computer number {number}")
    user, created = get_user_model().objects.get_or_create(
        username=username_for(strength, number), defaults={"computer": strength}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def free_computer(strength: str, taken_usernames) -> object:
    """A computer of ``strength`` not already in ``taken_usernames`` (a table's players)."""
    taken = set(taken_usernames)
    for number in range(1, MAX_PER_TABLE + 1):
        if username_for(strength, number) not in taken:
            return computer_user(strength, number)
    raise ValueError("no free computer player")
