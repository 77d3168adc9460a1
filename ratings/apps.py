from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import effects
        from ratings import handlers

        effects.on(effects.GameEnded).register(handlers.game_ended)  # a rated game's ratings change
