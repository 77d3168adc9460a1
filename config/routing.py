"""Websocket URL patterns of every app, gathered for config.asgi."""

from games.routing import websocket_urlpatterns as game_patterns

websocket_urlpatterns = [*game_patterns]
