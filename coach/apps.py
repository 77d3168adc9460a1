from django.apps import AppConfig


class CoachConfig(AppConfig):
    name = "coach"
    verbose_name = "Coach"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from coach import tasks  # noqa: F401 - registers the handler of games.effects.GameEnded
