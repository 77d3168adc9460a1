from django.urls import path

from games.live.consumers import GameConsumer
from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)

websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
]
