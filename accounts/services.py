"""Players' accounts: which names may be given, and making an account. Every way a username is made or
changed asks ``username_check``: the sign-up form, the admin's forms; the computer players' accounts
(games/computers/players.py) hold the names it keeps for them."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from accounts import names
from accounts.models import User


def username_check(username: str, *, user: User | None = None, reserved_ok: bool = False) -> None:
    """Raise ValidationError if ``username`` may not be given to ``user`` (None: a new account).

    Refused: a name that reads as a computer player's; one of the site's own words, unless
    ``reserved_ok`` (the staff, in the admin, may give them); a look-alike of another account's name
    (one indexed query)."""
    if names.reads_as_a_computer(username):
        raise ValidationError(
            _("Names starting with “computer-” belong to the computer players."), code="computer"
        )
    if names.is_deleted_name(username):
        raise ValidationError(_("Names starting with “deleted-” belong to deleted accounts."), code="deleted")
    if not reserved_ok and names.is_reserved(username):
        raise ValidationError(_("This name is reserved for the site."), code="reserved")
    holders = User.objects.filter(name_key=names.username_key(username))
    if user is not None:
        holders = holders.exclude(pk=user.pk)
    holder = holders.values_list("username", flat=True).first()
    if holder is not None:
        raise ValidationError(
            _("This name looks too much like “%(name)s”, the name of another player."),
            code="lookalike",
            params={"name": holder},
        )


def user_sign_up(*, username: str, email: str, password: str) -> User:
    """A new player's account. Raises ValidationError (for the username) when the name may not be
    given, also when another sign-up took it or a look-alike of it meanwhile: the check and the insert
    are two statements, and the unique name key decides between two sign-ups at the same moment."""
    username_check(username)
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        username_check(username)  # names the account that won
        raise
