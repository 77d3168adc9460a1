"""The players one follows, and what they are doing now (friends.selectors); finding a player by name
from the header's search field (a plain GET form: it works without JavaScript)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from friends import selectors
from infra.params import query_value

# A username is at most 150 characters (accounts.User); a longer query finds nobody, so it is refused
# (400), as is a NUL byte (CharField's own validator).
QUERY_FIELD = forms.CharField(max_length=150, strip=True)


@login_required
def following_page(request: HttpRequest) -> HttpResponse:
    """The players the viewer follows: who is playing (watch), who is online, and the others."""
    entries = selectors.following_now(request.user)
    return render(request, "players/following.html", {"entries": entries})


@login_required
def search_page(request: HttpRequest) -> HttpResponse:
    """Players whose name starts with ``?q=`` (case ignored), at most SEARCH_LIMIT of them."""
    query = query_value(request, "q", QUERY_FIELD) or ""
    players = selectors.search_players(query)
    context = {
        "query": query,
        "players": players,
        "following": selectors.following_among(request.user, players),
        "limit": selectors.SEARCH_LIMIT,
        "more": len(players) == selectors.SEARCH_LIMIT,
    }
    return render(request, "players/search.html", context)
