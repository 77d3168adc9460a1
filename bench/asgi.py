"""The load benchmark's server: the site's ASGI application (config.asgi) plus the baseline's bare
Channels fan-out at /ws/bench/<id>/ (bench/baseline_consumer.py), so that the site never routes to bench/.
"""

from config.asgi import django_asgi_app  # first: sets Django up, sweeps and tunes as the site's server

# isort: split
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from bench.baseline_consumer import websocket_urlpatterns as baseline_patterns
from config.routing import websocket_urlpatterns
from games.live.sockets import UserMiddlewareStack

# The baseline's paths first: the site's list ends with a pattern that refuses every other path.
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            UserMiddlewareStack(URLRouter([*baseline_patterns, *websocket_urlpatterns]))
        ),
    }
)
