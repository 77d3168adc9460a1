from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from notices import handlers  # noqa: F401 - registers the handlers of games.effects
