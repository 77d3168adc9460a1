"""A condition written once with the ORM, as SQL text for the hand-written statements of the hot path.

The move's statements are plain SQL, prepared by name on PostgreSQL, with positional %s parameters
(games.live.move_sql). A rule they share with the ORM's queries (membership, presence) is a queryset
built by one function; its SQL is compiled here with Django's public ``QuerySet.query`` API, once, so
that the statement and the ORM cannot state the rule differently.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.db.models import IntegerField
from django.db.models.expressions import RawSQL


def column(reference: str) -> RawSQL:
    """A column of the hand-written statement around the condition (``g.group_id``), as an expression
    the queryset can compare with: the outer query's column, correlated as OuterRef does in the ORM."""
    return RawSQL(reference, (), output_field=IntegerField())  # noqa: S611 - our own column names


def exists_sql(queryset, params: int) -> str:
    """``EXISTS (...)`` of ``queryset`` as SQL text whose %s placeholders the statement fills, in their
    order: ``params`` of them (the values the queryset was built with are stand-ins and dropped). A
    count that differs means the rule gained a value the statement does not pass: an error at once."""
    sql, values = queryset.values("pk").query.sql_with_params()
    if len(values) != params:
        raise ImproperlyConfigured(f"{len(values)} parameters in {sql!r}, {params} expected")
    return f"EXISTS ({sql})"
