from django.urls import path

from config import params  # noqa: F401 (registers the <id:> and <text:> converters)
from games.live.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
]
