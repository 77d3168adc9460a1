from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from accounts import arrivals
        from games.computers import tasks  # noqa: F401 - registers the handler of effects.ComputerToMove
        from games.tables import invites

        arrivals.welcomer(invites)  # an invitation opened signed out is honoured at sign-in
