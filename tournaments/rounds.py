"""A tournament's start and its rounds: who is still in, the seating of each round (tournaments.pairing),
its games created and started, its players told where to sit, and the results so far.

The worker's tasks (tournaments.tasks) call ``tournament_start_due`` and ``round_start``; the creator's
"Start now" calls ``tournament_start_now``. Nothing here enqueues a task (tournaments.services does),
so that the tasks and this module do not import each other.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.errors import Conflict, Forbidden, NotFound
from games.models import Game
from games.results.places import places
from games.tables import services as tables
from groups.models import Membership
from notices import feed
from notices import services as notices
from ratings import kinds, skill
from ratings.models import Rating
from tournaments import pairing, standings
from tournaments.models import Bye, Entry, Round, Table, Tournament

SEAT_FIELDS = ("user_id", "final_score", "winner", "resigned", "laps")
OVER = Game.OVER


def is_member(group_id: int, user_id: int) -> bool:
    return Membership.objects.filter(group_id=group_id, user_id=user_id).exists()


def locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("There is no such tournament."))
    return tournament


def creator_only(tournament: Tournament, user, refusal) -> None:
    """Only the group's creator manages its tournaments; a non-member learns nothing of them."""
    if not is_member(tournament.group_id, user.pk):
        raise NotFound(_("There is no such tournament."))
    if tournament.group.creator_id != user.pk:
        raise Forbidden(refusal)


def tournament_start_now(*, tournament_id: int, user, now: datetime | None = None) -> Round:
    """The creator closes the entries and starts at once (everyone is there)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        creator_only(tournament, user, _("Only the group's creator can start a tournament."))
        if tournament.status != Tournament.Status.OPEN:
            raise Conflict(_("This tournament has already started or ended."), "started")
        if len(_entrants(tournament, now)) < 2:
            raise Conflict(_("A tournament needs at least two players."), "too_few")
        return _begin(tournament, now)


def tournament_start_due(*, tournament_id: int, now: datetime | None = None) -> Round | None:
    """The announced start (the worker's task): the first round, or the tournament cancelled when
    fewer than two members entered. Nothing for one that has started or was cancelled."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.OPEN:
            return None
        if len(_entrants(tournament, now)) < 2:
            tournament.status = Tournament.Status.CANCELLED
            tournament.cancelled_because = "too_few"
            tournament.finished_at = now
            tournament.save(update_fields=["status", "cancelled_because", "finished_at"])
            refresh_pages(tournament)
            return None
        return _begin(tournament, now)


def _entrants(tournament: Tournament, now: datetime) -> list[Entry]:
    """The entries still in play: a player no longer a member of the group is withdrawn (for good)."""
    entries = list(
        Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
        .select_related("user")
        .order_by("entered_at", "pk")
    )
    members = set(
        Membership.objects.filter(
            group_id=tournament.group_id, user_id__in=[e.user_id for e in entries]
        ).values_list("user_id", flat=True)
    )
    gone = [e.pk for e in entries if e.user_id not in members]
    if gone:
        Entry.objects.filter(pk__in=gone).update(withdrawn_at=now)
    return [e for e in entries if e.user_id in members]


def _begin(tournament: Tournament, now: datetime) -> Round | None:
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    fields = ["status", "started_at"]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        players = [e.user_id for e in _entrants(tournament, now)]
        schedule = pairing.round_robin(players, tournament.table_size)
        tournament.schedule = [[list(t) for t in r.tables] for r in schedule]
        tournament.rounds = len(schedule)
        fields += ["schedule", "rounds"]
    tournament.save(update_fields=fields)
    return _start_round(tournament, 1, now)


def round_start(*, tournament_id: int, number: int, now: datetime | None = None) -> Round | None:
    """Round ``number`` (the worker's task, enqueued when the round before ended): its games created
    and started, its players told. Nothing if it has started already or the round before is not done."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.RUNNING:
            return None
        if Round.objects.filter(tournament=tournament, number=number).exists():
            return None
        before = Round.objects.filter(tournament=tournament, number=number - 1).first()
        if number > 1 and (before is None or before.status != Round.Status.DONE):
            return None
        return _start_round(tournament, number, now)


PAGE_PART = "tournaments"


def refresh_pages(tournament: Tournament) -> None:
    """The tournament's page, open in members' browsers, reads itself again once this transaction has
    committed (static/js/group-live.js): it started, a round began, it ended or was called off."""
    members = Membership.objects.filter(group_id=tournament.group_id).values_list("user__username", flat=True)
    notices.group_changed(list(members), tournament.group_id, PAGE_PART)


def _start_round(tournament: Tournament, number: int, now: datetime) -> Round | None:
    refresh_pages(tournament)
    entries = _entrants(tournament, now)
    if number > tournament.rounds or len(entries) < 2:
        finish(tournament, now)
        return None
    users = {e.user_id: e.user for e in entries}
    if tournament.format == Tournament.Format.SWISS:
        seating = _swiss(tournament, list(users))
    else:
        seating = _scheduled(tournament, number, set(users))
    round_ = Round.objects.create(tournament=tournament, number=number, started_at=now)
    table_number = 0
    for table in seating.tables:
        if len(table) < 2:  # a round robin's table emptied by players who left the group
            seating.byes.extend(table)
            continue
        table_number += 1
        people = [users[uid] for uid in table]
        game = tables.game_create(
            creator=people[0],
            others=people[1:],
            kind=tournament.kind,
            options=tournament.options,
            seats=len(people),
            group=tournament.group,
            pace=tournament.pace,
            absence_limit=tournament.absence_limit,
        )
        Table.objects.create(round=round_, number=table_number, game=game)
        for person in people:
            _tell_seat(tournament, round_, person, game)
    Bye.objects.bulk_create([Bye(round=round_, user_id=uid) for uid in seating.byes])
    if not table_number:  # only byes: the round is over as it starts, and the next one begins
        round_.status = Round.Status.DONE
        round_.finished_at = now
        round_.save(update_fields=["status", "finished_at"])
        return _start_round(tournament, number + 1, now)
    return round_


def _tell_seat(tournament: Tournament, round_: Round, person, game: Game) -> None:
    """Where to sit: a notice (the header and the notices page), and a push message to the player's
    devices that take tournament rounds (notices.services.tournament_round)."""
    text = gettext_noop("Round %(round)s of %(name)s: your table is %(game)s #%(number)s.")
    params = {"round": round_.number, "name": tournament.name, "game": game.kind_name, "number": game.pk}
    feed.tell(person, text, game.get_absolute_url(), params)
    feed.tell_users_on_commit([person.username])
    notices.tournament_round(person, game)


def _swiss(tournament: Tournament, players: list[int]) -> pairing.Round:
    lines, met, byes = _so_far(tournament)
    points = standings.points_of(lines)
    had = standings.byes_of(byes)
    ratings = ratings_of(tournament, players)
    return pairing.swiss_round(
        [pairing.Standing(p, points.get(p, 0.0), ratings[p], had.get(p, 0)) for p in players],
        tournament.table_size,
        met,
    )


def _scheduled(tournament: Tournament, number: int, active: set[int]) -> pairing.Round:
    """The round robin's round as scheduled, without the players who left; everyone active who has
    no table in it sits out."""
    planned = [[uid for uid in table if uid in active] for table in tournament.schedule[number - 1]]
    seated = {uid for table in planned for uid in table}
    return pairing.Round(tables=[t for t in planned if t], byes=sorted(active - seated))


def ratings_of(tournament: Tournament, user_ids: list[int]) -> dict[int, int]:
    """The players' shown ratings in the tournament's kind (a newcomer's 1500 for one without)."""
    found = dict(
        Rating.objects.filter(
            kind=kinds.key(tournament.kind, tournament.options), user_id__in=user_ids
        ).values_list("user_id", "display")
    )
    newcomer = skill.display(*skill.initial())
    return {uid: found.get(uid, newcomer) for uid in user_ids}


def _so_far(tournament: Tournament) -> tuple[list[standings.Line], set[frozenset], list[int]]:
    """The standings of the games played so far, every pair that has met, and every bye."""
    results, seatings = results_of(tournament)
    byes = list(Bye.objects.filter(round__tournament=tournament).values_list("user_id", flat=True))
    players = Entry.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    lines = standings.standings(players, results, byes, tournament.table_size)
    return lines, standings.met_pairs(seatings), byes


def results_of(tournament: Tournament) -> tuple[list[standings.Result], list[list[int]]]:
    """The results of the tournament's games that are over, and every table's players (all games)."""
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .values_list("game_id", "game__status", *(f"game__seats__{f}" for f in SEAT_FIELDS))
        .order_by("game_id", "game__seats__position")
    )
    games: dict[int, tuple[str, list[dict]]] = {}
    for game_id, status, *seat in rows:
        games.setdefault(game_id, (status, []))[1].append(dict(zip(SEAT_FIELDS, seat, strict=True)))
    ranking = tournament.engine.ranking
    results, seatings = [], []
    for status, seats in games.values():
        players = [s["user_id"] for s in seats]
        seatings.append(players)
        if status in OVER:
            results.append(
                standings.Result(players, places(ranking, seats), [s["final_score"] or 0 for s in seats])
            )
    return results, seatings


def finish(tournament: Tournament, now: datetime) -> None:
    Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.RUNNING).update(
        status=Tournament.Status.FINISHED, finished_at=now
    )
    refresh_pages(tournament)
