from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from play import player_views, views

app_name = "games"

urlpatterns = [
    path("", views.lobby_page, name="lobby"),
    path("new/", views.game_new, name="new"),
    path("mine/", views.my_games, name="mine"),
    path("<id:game_id>/", views.game_detail, name="detail"),
    path("<id:game_id>/join/", views.game_join, name="join"),
    path("<id:game_id>/leave/", views.game_leave, name="leave"),
    path("<id:game_id>/seed/", views.game_client_seed, name="client_seed"),
    path("<id:game_id>/start/", views.game_start, name="start"),
    path("<id:game_id>/decline/", views.game_decline, name="decline"),
    path("<id:game_id>/again/", views.game_again, name="again"),
    path("<id:game_id>/computers/", views.game_computers, name="computers"),
    path("<id:game_id>/computers/add/", views.game_add_computer, name="add_computer"),
    path("<id:game_id>/computers/remove/", views.game_remove_computer, name="remove_computer"),
    path("<id:game_id>/replay/", player_views.replay_page, name="replay"),
    path("<id:game_id>/export.json", player_views.game_export, name="export"),
    path("<slug:slug>/rules/", views.rules_page, name="rules"),
]
