"""The worker's part of tournaments: a tournament's announced start, and each round's start once the
round before has ended (enqueued in the transaction of the move that ended its last game)."""

from __future__ import annotations

from django_tasks import task

from tournaments import rounds


@task()
def start_tournament(tournament_id: int) -> None:
    rounds.tournament_start_due(tournament_id=tournament_id)


@task()
def start_round(tournament_id: int, number: int) -> None:
    rounds.round_start(tournament_id=tournament_id, number=number)
