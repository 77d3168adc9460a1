from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from play import player_views as views

app_name = "players"

urlpatterns = [
    path("<text:username>/", views.profile_page, name="profile"),
    path("<text:username>/stats/", views.stats_page, name="stats"),
    path("<text:username>/history/", views.history_page, name="history"),
    path("<text:username>/challenge/", views.challenge, name="challenge"),
]
