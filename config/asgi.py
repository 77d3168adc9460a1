"""ASGI entry point: daphne serves HTTP through Django and websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
# Django must be set up before anything imports models, so this comes first.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.websocket_origin import SiteOriginValidator  # noqa: E402
from games.live.sockets import UserMiddlewareStack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Where Channels' AllowedHostsOriginValidator would stand: it checked the Origin's host alone, so a
        # page on another port or scheme of the host could open a socket with the player's cookie.
        "websocket": SiteOriginValidator(UserMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Last, so that everything the application loads at start-up is frozen with it.
from infra import gc_tuning  # noqa: E402

gc_tuning.tune()
