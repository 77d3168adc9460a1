from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games import effects
        from games.computers import tasks
        from games.live import catchup
        from infra import layer

        effects.on(effects.ComputerToMove).register(tasks.computer_to_move)  # its task is enqueued
        # This process's sockets are caught up with the database when the channel layer's subscriptions
        # come back after their Redis connection broke.
        layer.on_resubscribed.register(catchup.everyone)
