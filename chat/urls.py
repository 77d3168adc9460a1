from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("groups/<int:group_id>/", views.post, name="group_post"),
    path("groups/<int:group_id>/<int:message_id>/remove/", views.remove, name="group_remove"),
]
