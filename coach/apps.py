from django.apps import AppConfig


class CoachConfig(AppConfig):
    name = "coach"
    verbose_name = "Coach"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from coach import tasks
        from games import effects

        effects.on(effects.GameEnded).register(tasks.game_ended)  # its review is enqueued
