from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from play.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
]
