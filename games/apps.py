from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games.computers import tasks  # noqa: F401 - registers the handler of effects.ComputerToMove
