"""The server seed of a player's next game, committed before they bring a seed of their own.

A seed the server learns before it draws its own lets it choose its own to suit: commit-reveal holds
only when the server committed first. A joining player's page sends its seed after the table showed the
game's commitment. The creator's comes with the form that creates the game, and a solo game (or one
with computers only) starts at once: so the page with the creating forms commits the server seed of
the player's next game beforehand (a ``SeedCommitment`` row, its SHA-256 on the page; the session
holds only the row's id) and the form brings the seed the browser made (static/js/fair-seed.js). The
game, or the request to be paired, claims the row in its own transaction: deleted there, so one
committed seed serves one game, however many requests bring it at once (two tabs, a double press,
the lobby's form and "Play someone now"'s together). A request that finds its commitment used already
is refused, and its page shows a new one: its browser's seed was made beside a seed that is another
game's now, and taking a fresh one the player was never shown would let the server choose it after
seeing their seed."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.errors import Conflict
from games.models import SeedCommitment

SESSION_KEY = "fair_seed_commitment"
# Sessions from before the seed was kept in the database held the seed itself under this key.
_OLD_SESSION_KEY = "fair_next_server_seed"


def next_commitment(request: HttpRequest) -> str:
    """The SHA-256 of the server seed of this player's next game (committed now if there is none)."""
    request.session.pop(_OLD_SESSION_KEY, None)
    ref = request.session.get(SESSION_KEY)
    row = SeedCommitment.objects.filter(pk=ref, user=request.user).first() if isinstance(ref, int) else None
    if row is None:
        row = SeedCommitment.objects.create(user=request.user)
        request.session[SESSION_KEY] = row.pk
    return row.commitment


def from_form(request: HttpRequest) -> tuple[int | None, str]:
    """The reference of the seed committed to this session (``seed_claim`` claims it) and the seed the
    browser posted with the form (``client_seed``): the browser's counts only beside a server seed
    committed before it was made; (None, "") when the session was shown none."""
    ref = request.session.get(SESSION_KEY)
    if not isinstance(ref, int):
        return None, ""
    return ref, request.POST.get("client_seed", "")


class CommitmentUsed(Conflict):
    """The commitment a request brought serves another game or request already."""

    code = "seed_used"


def seed_claim(*, user, ref: int | None) -> str:
    """The server seed committed to ``user`` as ``ref``, used up in the caller's transaction (a service's
    ``atomic``): "" for no reference. CommitmentUsed when it is used already, by another game or request of
    the player's (a second request with it waits for the first one's transaction, then finds it gone)."""
    if ref is None:
        return ""
    row = SeedCommitment.objects.select_for_update().filter(pk=ref, user=user).first()
    if row is None:
        raise CommitmentUsed(
            _(
                "The fair-dice commitment this page showed has been used by another game of yours "
                "(another tab?). The page shows a new one now: please send the form again."
            )
        )
    row.delete()
    return row.server_seed
