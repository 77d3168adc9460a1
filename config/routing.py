"""Websocket URL patterns of every app, gathered for config.asgi."""

from django.urls import path, re_path

from games.live.sockets import NoSuchPathConsumer
from notices.consumers import NoticesConsumer
from pairing.routing import websocket_urlpatterns as queue_patterns
from play.routing import websocket_urlpatterns as game_patterns

websocket_urlpatterns = [*game_patterns, *queue_patterns, path("ws/notices/", NoticesConsumer.as_asgi())]

# Last: every other path is refused at the handshake rather than failing in the router.
websocket_urlpatterns.append(re_path(r"", NoSuchPathConsumer.as_asgi()))
