from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ratings import handlers  # noqa: F401 - registers the handler of games.effects.GameEnded
