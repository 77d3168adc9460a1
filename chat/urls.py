from django.urls import path

from chat import views
from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)

app_name = "chat"

urlpatterns = [
    path("groups/<id:group_id>/", views.post, name="group_post"),
    path("groups/<id:group_id>/<id:message_id>/remove/", views.remove, name="group_remove"),
    path("games/<id:game_id>/", views.table_chat, name="table_chat"),
    path("mute/<text:username>/", views.mute, name="mute"),
]
