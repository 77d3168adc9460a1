"""What seasons put on a group's page (groups.pages): its current seasons with their tables, and the
past ones with their champions."""

from __future__ import annotations

from django.utils import timezone

from seasons import closing
from seasons.models import Season, Standing
from seasons.selectors import CLOSED, Shown, shown


def group_page_part(request, group) -> dict:
    """The group page's seasons (groups/pages.py): those not closed with their live tables, and the
    past ones with their champions. A season past its end is closed here first, in case the worker
    that should have closed it was down."""
    closing.close_due(group_id=group.pk)
    now = timezone.now()
    seasons = list(Season.objects.filter(group=group).order_by("-number"))
    past = [s for s in seasons if s.closed_at is not None]
    champions: dict[int, list[str]] = {}
    for season_id, username in (
        Standing.objects.filter(season__in=[s.pk for s in past], rank=1)
        .order_by("season_id", "username")
        .values_list("season_id", "username")
    ):
        champions.setdefault(season_id, []).append(username)
    return {
        "seasons_current": [shown(s, now) for s in seasons if s.closed_at is None],
        "seasons_past": [Shown(s, CLOSED, champions=champions.get(s.pk, [])) for s in past],
    }
