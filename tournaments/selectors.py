"""Reads for the pages: a group's tournaments on its page, and one tournament's page (entries, rounds
with their tables and byes, standings and the winner)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q

from games.models import Game, Seat
from games.results.places import places
from tournaments import rounds as running
from tournaments import standings
from tournaments.models import Bye, Entry, Round, Table, Tournament

SHOWN_ON_GROUP_PAGE = 10
FIGURES = ("final_score", "winner", "resigned", "laps")


def group_page_part(request, group) -> dict:
    """The group page's list of its latest tournaments (groups.pages), with the entries of each and
    whether the viewer entered: two queries."""
    found = list(
        Tournament.objects.filter(group=group)
        .annotate(entrants=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)))
        .order_by("-created_at")[:SHOWN_ON_GROUP_PAGE]
    )
    mine = set(
        Entry.objects.filter(tournament__in=[t.pk for t in found], user_id=request.user.pk).values_list(
            "tournament_id", flat=True
        )
    )
    for tournament in found:
        tournament.entered = tournament.pk in mine
    return {"tournaments": found}


def tournament_of(group_id: int, number: int) -> Tournament | None:
    return (
        Tournament.objects.select_related("group", "creator").filter(group_id=group_id, number=number).first()
    )


@dataclass
class Shown:
    """A standings line with its player."""

    line: standings.Line
    user: object
    withdrawn: bool


def tournament_page(tournament: Tournament, viewer) -> dict:
    """Everything the tournament's page shows."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    seats = Seat.objects.select_related("user").order_by("position")
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "tables",
                Table.objects.select_related("game").prefetch_related(Prefetch("game__seats", seats)),
            ),
            Prefetch("byes", Bye.objects.select_related("user")),
        )
    )
    results = []
    byes = []
    users = {e.user_id: e.user for e in entries}
    ranking = tournament.engine.ranking
    my_game = None
    for round_ in rounds:
        for table in round_.tables.all():
            game = table.game
            table_seats = list(game.seats.all())
            for seat in table_seats:
                users.setdefault(seat.user_id, seat.user)
                if seat.user_id == viewer.pk and round_.status == Round.Status.PLAYING:
                    my_game = game
            if game.status in running.OVER:
                figures = [
                    {f: getattr(s, f) for f in ("final_score", "winner", "resigned", "laps")}
                    for s in table_seats
                ]
                results.append(
                    standings.Result(
                        [s.user_id for s in table_seats],
                        places(ranking, figures),
                        [s.final_score or 0 for s in table_seats],
                    )
                )
        byes += [bye.user_id for bye in round_.byes.all()]
    withdrawn = {e.user_id for e in entries if e.withdrawn_at}
    lines = standings.standings([e.user_id for e in entries], results, byes, tournament.table_size)
    shown = [Shown(line, users.get(line.player), line.player in withdrawn) for line in lines]
    finished = tournament.status == Tournament.Status.FINISHED
    current = rounds[-1] if rounds and tournament.status == Tournament.Status.RUNNING else None
    my_bye = current is not None and any(b.user_id == viewer.pk for b in current.byes.all())
    return {
        "tournament": tournament,
        "entries": sorted(entries, key=lambda e: e.user.username.lower()),
        "entered": any(e.user_id == viewer.pk for e in entries),
        "rounds": rounds,
        "current_round": current,
        "standings": shown,
        "winners": [s for s in shown if s.line.place == 1] if finished else [],
        "my_game": my_game,
        "my_opponents": [s.user.username for s in my_game.seats.all() if s.user_id != viewer.pk]
        if my_game
        else [],
        "my_bye": my_bye,
        "game_over": Game.OVER,
    }


def is_tournament_game(game: Game) -> bool:
    """Whether ``game`` is one of a tournament's tables."""
    return Table.objects.filter(game_id=game.pk).exists()
