"""Time the profile, statistics, history, high-score, rating, group, tournament and season pages over
many finished games.

    python manage.py bench_pages --games 20000      (run it on PostgreSQL: DATABASE_URL=postgres://...)

Seeds the games once (they are kept for the next run), rates them (ratings' rebuild: seeded games
end without a move, so nothing rated them) and gives every seat a coach's review (an accuracy without
decisions: the profile's chart reads no more), then renders each page several times and prints the
median and worst time and the number of queries.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from coach.models import Review, SeatReview
from games import catalogue
from games.models import Game, Seat
from games.results.seed import seed_finished_games
from groups import services as group_services
from groups.models import Group
from ratings import kinds as rating_kinds
from ratings.models import RatingChange
from ratings.services import ratings_rebuild
from seasons import services as season_services
from seasons.models import Season
from tournaments import services as tournament_services
from tournaments.models import Tournament

PREFIX = "bench"


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=20000)
        parser.add_argument("--players", type=int, default=60)
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args, games: int, players: int, repeat: int, **options):
        users = self._users(players)
        groups = self._groups(users)
        have = Game.objects.filter(seats__user__in=users).distinct().count()
        if have < games:
            start = time.perf_counter()
            seed_finished_games(games - have, users, groups=groups, seed=have + 1)
            self.stdout.write(f"seeded {games - have} games in {time.perf_counter() - start:.1f} s")
        if have < games or not RatingChange.objects.exists():
            start = time.perf_counter()
            rebuilt = ratings_rebuild()
            self.stdout.write(f"rated {rebuilt.games} games in {time.perf_counter() - start:.1f} s")
            if connection.vendor == "postgresql":
                # Bulk inserts leave the planner's statistics stale until autovacuum catches up.
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")
        reviewed = self._reviews(users)
        if reviewed:
            self.stdout.write(f"reviewed {reviewed} seats")
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")
        running = self._tournaments(groups[0])
        self._seasons(groups[1])
        total = Game.objects.filter(status=Game.Status.FINISHED).count()
        self.stdout.write(f"database: {connection.vendor}, finished games: {total}, players: {len(users)}")
        client = Client(HTTP_HOST="localhost")
        me = users[0]
        client.force_login(me)
        pages = [("home", reverse("home"), {})]
        first, *_, last = catalogue.kinds()
        for game_kind in catalogue.kinds():
            kind = game_kind.slug
            option = game_kind.separating
            params = {"kind": kind, **({option.name: option.default} if option else {})}
            pages += [
                (f"stats {kind}", reverse("players:stats", args=[me.username]), params),
                (f"highscores {kind}", reverse("highscores"), params),
                (f"highscores {kind} week", reverse("highscores"), {**params, "period": "week"}),
                (f"ratings {kind}", reverse("ratings"), params),
            ]
        pages += [
            ("profile, own", reverse("players:profile", args=[me.username]), {}),
            # Another player's, in two groups with the viewer: groups in common, the challenge, the
            # block, and only the games the viewer may see.
            ("profile of another player", reverse("players:profile", args=[users[1].username]), {}),
            ("history", reverse("players:history", args=[me.username]), {}),
            ("history page 10", reverse("players:history", args=[me.username]), {"page": 10}),
            ("group page", reverse("groups:detail", args=[groups[0].pk]), {}),
            ("tournament page", running.get_absolute_url(), {}),
            # A group with a season running over its last 100 days of games and a closed one before it.
            ("group page with seasons", reverse("groups:detail", args=[groups[1].pk]), {}),
            ("season page, running", reverse("seasons:detail", args=[groups[1].pk, 2]), {}),
            ("season page, closed", reverse("seasons:detail", args=[groups[1].pk, 1]), {}),
            ("ratings group " + first.slug, reverse("ratings"), {"kind": first.slug, "group": groups[0].pk}),
            ("api stats " + last.slug, reverse("api_player_stats", args=[me.username]), {"kind": last.slug}),
            ("api highscores", reverse("api_highscores"), {"kind": first.slug}),
        ]
        self.stdout.write(f"{'page':<34}{'median ms':>10}{'max ms':>10}{'queries':>9}")
        for name, url, params in pages:
            times = []
            for _ in range(repeat):
                with CaptureQueriesContext(connection) as queries:
                    start = time.perf_counter()
                    response = client.get(url, params)
                    times.append((time.perf_counter() - start) * 1000)
                if response.status_code != 200:
                    raise RuntimeError(f"{url} answered {response.status_code}")
            self.stdout.write(
                f"{name:<34}{statistics.median(times):>10.1f}{max(times):>10.1f}{len(queries.captured_queries):>9}"
            )

    def _reviews(self, users: list) -> int:
        """A review of each seeded game that has none, each seat with an accuracy, written in bulk."""
        games = list(
            Game.objects.filter(seats__user__in=users, review__isnull=True, status=Game.Status.FINISHED)
            .distinct()
            .values_list("pk", "kind", "finished_at")
        )
        if not games:
            return 0
        rng = random.Random(len(games))  # noqa: S311 - test data, not security
        reviews = Review.objects.bulk_create(
            [Review(game_id=pk) for pk, _kind, _at in games], batch_size=2000
        )
        review_of = {r.game_id: r.pk for r in reviews}
        facts = {pk: (kind, at) for pk, kind, at in games}
        rows = []
        for seat_id, game_id, user_id in Seat.objects.filter(game_id__in=list(facts)).values_list(
            "pk", "game_id", "user_id"
        ):
            kind, at = facts[game_id]
            rows.append(
                SeatReview(
                    review_id=review_of[game_id],
                    seat_id=seat_id,
                    user_id=user_id,
                    kind=kind,
                    finished_at=at,
                    decision_count=40,
                    total_cost=round(rng.uniform(0, 60), 1),
                    accuracy=round(rng.uniform(60, 100), 1),
                )
            )
        SeatReview.objects.bulk_create(rows, batch_size=2000)
        return len(rows)

    def _tournaments(self, group) -> Tournament:
        """The group's tournaments on its page: one open for entries and one under way (its first round's
        ten games being played), made once; the one under way."""
        found = Tournament.objects.filter(group=group, status=Tournament.Status.RUNNING).first()
        if found is not None:
            return found
        members = [m.user for m in group.memberships.select_related("user").order_by("user_id")]
        soon = timezone.now() + timedelta(days=7)
        made = []
        for name in (f"{PREFIX} cup", f"{PREFIX} swiss"):
            tournament = tournament_services.tournament_create(
                group_id=group.pk,
                user=group.creator,
                name=name,
                kind=next(iter(catalogue.kinds())).slug,
                starts_at=soon,
                entries_close_at=soon,
            )
            for member in members:
                tournament_services.tournament_enter(tournament_id=tournament.pk, user=member)
            made.append(tournament)
        tournament_services.tournament_start_now(tournament_id=made[1].pk, user=group.creator)
        made[1].refresh_from_db()
        return made[1]

    def _seasons(self, group) -> None:
        """Two seasons of the same game in ``group`` (once): the first closed (its table stored), the
        second running over the group's games of the last 100 days. Opened "in the past" (the services'
        injected clock), as a creator would have opened them then."""
        if Season.objects.filter(group=group).exists():
            return
        now = timezone.now()
        kind = rating_kinds.every()[0]
        first = now - timedelta(days=119)
        season_services.season_open(
            group_id=group.pk,
            user=group.creator,
            kind=kind,
            first_day=timezone.localdate(first),
            last_day=timezone.localdate(first) + timedelta(days=17),
            now=first,
        )
        second = now - timedelta(days=100)
        season_services.season_open(
            group_id=group.pk,
            user=group.creator,
            kind=kind,
            first_day=timezone.localdate(second),
            last_day=timezone.localdate(now) + timedelta(days=7),
            now=second,
        )

    def _users(self, n: int) -> list:
        model = get_user_model()
        users = []
        for i in range(n):
            user, created = model.objects.get_or_create(username=f"{PREFIX}{i:03d}")
            if created:
                user.set_unusable_password()
                user.save()
            users.append(user)
        return users

    def _groups(self, users: list) -> list:
        groups = list(Group.objects.filter(name__startswith=f"{PREFIX}-").order_by("pk"))
        while len(groups) < 3:
            group = group_services.group_create(creator=users[len(groups)], name=f"{PREFIX}-{len(groups)}")
            for user in users[:20]:
                if user.pk != group.creator_id:
                    group_services.group_add_member(
                        group_id=group.pk, user=group.creator, username=user.username
                    )
            groups.append(group)
        return groups
