from django.urls import path

from pairing.consumers import QueueConsumer

websocket_urlpatterns = [path("ws/queue/", QueueConsumer.as_asgi())]
