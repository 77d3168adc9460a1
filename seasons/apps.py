from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = "Seasons"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The group's page shows its seasons, and a game that ends refreshes a season's table on the
        # pages that show it: seasons adds both, so that groups and games import nothing of seasons.
        from games import effects
        from groups import pages
        from seasons import handlers, parts

        effects.on(effects.GameEnded).register(handlers.game_ended)
        pages.parts.register(parts.group_page_part)
