from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from games import effects
        from games.live import seen
        from notices import handlers

        effects.on(effects.AbsentPlayerToMove).register(handlers.promise_turn_mail)
        effects.on(effects.GameStarted).register(handlers.game_started)
        effects.on(effects.InvitedToTable).register(handlers.invited_to_table)
        effects.on(effects.LeftTable).register(handlers.left_table)
        effects.on(effects.SkipAsked).register(handlers.refuse_untold_skip)
        seen.records_site_pings.register(handlers.on_site)
        effects.announce(effects.TurnPassed).register(handlers.turn_rows)
