"""What other apps put on a group's page, without groups importing them (apps depend one way).

An app that adds to the page registers a part in its AppConfig.ready: a function of (request, group)
that returns context for the page's template. The group's chat is one (chat/apps.py).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest

from groups.models import Group

Part = Callable[[HttpRequest, Group], dict]

_parts: list[Part] = []


def add_part(part: Part) -> None:
    """Put ``part``'s context on every group page (once, however often it is added)."""
    if part not in _parts:
        _parts.append(part)


def context(request: HttpRequest, group: Group) -> dict:
    """The context every registered part gives the group's page, in the order they were added."""
    found: dict = {}
    for part in _parts:
        found.update(part(request, group))
    return found
