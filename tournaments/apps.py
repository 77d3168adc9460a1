from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The group's page lists its tournaments: added from here, so that groups imports nothing of us.
        from games.models import never_abort
        from groups import pages
        from tournaments import handlers  # noqa: F401 - registers the handler of games.effects.GameEnded
        from tournaments.selectors import group_page_part, is_tournament_game

        pages.add_part(group_page_part)
        # A tournament's game is owed a result (a player who never moved loses it): never aborted, as
        # lichess holds tournament games mandatory.
        never_abort(is_tournament_game)
