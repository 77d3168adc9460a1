"""Benchmark of the ratings' rebuild (the target: 100,000 games in under a minute).

Run: ``python -m bench.ratings [--games N] [--database-url URL]``. In a scratch database of its own
(a SQLite file under /tmp unless ``--database-url`` names another; never the site's), migrated, it
seeds finished games with games.results.seed (1 to 4 seats, so about four in five are rated) until
``--games`` rated ones are there, then times ``manage.py rebuild_ratings``'s own function twice: the
replay alone, in memory, and the whole rebuild (read, replay, delete, bulk writes).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ratings", description=__doc__)
    parser.add_argument("--games", type=int, default=100_000, help="rated games (default 100,000)")
    parser.add_argument("--players", type=int, default=2000, help="players (default 2000)")
    parser.add_argument("--database-url", default="sqlite:////tmp/dicehall-bench-ratings.sqlite3")
    args = parser.parse_args(argv)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import User
    from games.models import Game
    from games.results.seed import seed_finished_games
    from ratings.services import rated_seats, ratings_rebuild, replay

    out = sys.stdout
    call_command("migrate", verbosity=0)
    users = list(User.objects.filter(username__startswith="bench-rater-"))
    if len(users) < args.players:
        User.objects.bulk_create(
            [User(username=f"bench-rater-{i}") for i in range(len(users), args.players)], batch_size=2000
        )
        users = list(User.objects.filter(username__startswith="bench-rater-"))

    def rated() -> int:
        return Game.objects.filter(status=Game.Status.FINISHED, rated=True, max_seats__gt=1).count()

    seed = 1
    while (have := rated()) < args.games:
        start = time.perf_counter()
        made = seed_finished_games(min(50_000, int((args.games - have) * 1.25) + 10), users, seed=seed)
        out.write(f"seeded {made} games in {time.perf_counter() - start:.1f} s\n")
        seed += 1
    out.write(f"{rated()} rated games among {len(users)} players ({args.database_url.split(':')[0]})\n")

    start = time.perf_counter()
    rows = list(rated_seats())
    read = time.perf_counter() - start
    start = time.perf_counter()
    changes, current, info = replay(rows)
    replayed = time.perf_counter() - start
    out.write(
        f"read {len(rows)} seats: {read:.1f} s; replay of {info['games']} games in memory: {replayed:.1f} s "
        f"({len(changes)} changes, {len(current)} ratings)\n"
    )
    start = time.perf_counter()
    done = ratings_rebuild()
    out.write(
        f"rebuild_ratings: {done.games} games, {done.changes} changes"
        f" in {time.perf_counter() - start:.1f} s\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
