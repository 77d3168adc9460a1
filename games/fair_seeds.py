"""The server seed of a player's next game, committed before they bring a seed of their own (issue 36).

A seed the server learns before it draws its own lets it choose its own to suit: commit-reveal holds
only when the server committed first. A joining player's page sends its seed after the table showed the
game's commitment. The creator's comes with the form that creates the game, and a solo game (or one
with computers only) starts at once: so the lobby draws the server seed of the player's next game
beforehand, keeps it secret in their session and shows its SHA-256 on the page the creating forms are
on; the form brings the seed the browser made (static/js/fair-seed.js), and the game is created with
both. The game page then shows the same commitment the lobby showed."""

from __future__ import annotations

from django.http import HttpRequest

from games import fair_dice

SESSION_KEY = "fair_next_server_seed"


def next_commitment(request: HttpRequest) -> str:
    """The SHA-256 of the server seed of this player's next game (drawn now if there is none)."""
    seed = request.session.get(SESSION_KEY)
    if not seed:
        seed = request.session[SESSION_KEY] = fair_dice.new_server_seed()
    return fair_dice.commitment(seed)


def take(request: HttpRequest) -> str:
    """The committed seed for the game being created ("" if the player was shown none); used once."""
    return request.session.pop(SESSION_KEY, "") or ""


def from_form(request: HttpRequest) -> tuple[str, str]:
    """The committed server seed and the seed the browser posted with the form (``client_seed``): the
    browser's counts only beside a server seed committed before it was made; ("", "") without one."""
    server_seed = take(request)
    return server_seed, request.POST.get("client_seed", "") if server_seed else ""
