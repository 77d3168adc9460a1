from django.apps import AppConfig


class PairingConfig(AppConfig):
    name = "pairing"
    verbose_name = "Pairing"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A blocked pair never sits at one table, however the seat is asked for (a table's seat, a
        # "Play again"): the game core asks, and imports nothing of ours.
        from games.tables import services
        from pairing.services import seating_block

        services.refuse_seating.register(seating_block)
