from django.apps import AppConfig


class DailyConfig(AppConfig):
    name = "daily"
    verbose_name = "Daily challenge"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from coach import hints
        from daily import seeds, tasks  # noqa: F401 - tasks: the close of each day, for the worker
        from games import models
        from games.tables import services

        # A daily game's seed is its day's, shared with every game of that day still to be played.
        models.hold_seed_back.register(seeds.holds_seed)
        # A contest of each player's own play, graded by the coach afterwards.
        hints.refuse_hints.register(seeds.no_hints)
        # Private only until the day closes: a "Play again" of one is an ordinary, public game.
        services.private_for_now.register(seeds.is_daily)
