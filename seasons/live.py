"""The pages that show a season's table hear when it changes (a counted game ended, the season
closed): each member's notices socket is told once the change has committed, and the page reads its
seasons anew (static/js/group-live.js)."""

from __future__ import annotations

from notices import services as notices

PART = "seasons"


def refresh_on_commit(group_id: int, usernames) -> None:
    notices.group_changed(list(usernames), group_id, PART)
