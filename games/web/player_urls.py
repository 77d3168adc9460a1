from django.urls import path

from games.web import player_views as views

app_name = "players"

urlpatterns = [
    path("<str:username>/", views.stats_page, name="stats"),
    path("<str:username>/history/", views.history_page, name="history"),
]
