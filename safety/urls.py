from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from safety import views

app_name = "safety"

urlpatterns = [
    path("report/<text:username>/", views.report, name="report"),
    path("screening/", views.screening, name="screening"),
    path("moderation/", views.moderation, name="moderation"),
    path("moderation/<text:username>/", views.moderation_player, name="moderation_player"),
]
