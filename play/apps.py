from django.apps import AppConfig


class PlayConfig(AppConfig):
    """The site's pages and the game's websocket: the transport above the game core and the apps that
    depend on it (chat, coach, groups, notices), which it puts together on a page or a socket."""

    name = "play"
    verbose_name = "Play"
