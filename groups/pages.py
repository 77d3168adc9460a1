"""What other apps put on a group's page, without groups importing them (apps depend one way).

An app that adds to the page registers a part (``parts.register``) in its AppConfig.ready: a function
of (request, group) that returns context for the page's template. The group's chat is one (chat/apps.py).
"""

from __future__ import annotations

from django.http import HttpRequest

from groups.models import Group
from infra.hooks import Hook

parts = Hook(
    "groups.pages.parts",
    "What an app puts on a group's page.",
    receives="the request and the `Group`",
    returns="context for the page's template (a dict), merged in the order registered",
    runs="on the group page's request",
)


def context(request: HttpRequest, group: Group) -> dict:
    """The context every registered part gives the group's page, in the order they were added."""
    found: dict = {}
    for part in parts.handlers:
        found.update(part(request, group))
    return found
