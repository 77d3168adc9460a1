from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = "Seasons"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The group's page shows its seasons, and a game that ends refreshes a season's table on the
        # pages that show it: seasons adds both, so that groups and games import nothing of seasons.
        from groups import pages
        from seasons import handlers  # noqa: F401 - registers the handler of games.effects.GameEnded
        from seasons.parts import group_page_part

        pages.add_part(group_page_part)
