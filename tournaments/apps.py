from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import effects, models
        from groups import pages
        from tournaments import handlers, selectors

        # The group's page lists its tournaments: added from here, so that groups imports nothing of us.
        pages.parts.register(selectors.group_page_part)
        # A tournament game's end may end its round.
        effects.on(effects.GameEnded).register(handlers.game_ended)
        # A tournament's game is owed a result (a player who never moved loses it): never aborted, as
        # lichess holds tournament games mandatory.
        models.never_abort.register(selectors.is_tournament_game)
