from django.urls import path

from games.web import player_views, views

app_name = "games"

urlpatterns = [
    path("", views.lobby_page, name="lobby"),
    path("new/", views.game_new, name="new"),
    path("mine/", views.my_games, name="mine"),
    path("<int:game_id>/", views.game_detail, name="detail"),
    path("<int:game_id>/join/", views.game_join, name="join"),
    path("<int:game_id>/leave/", views.game_leave, name="leave"),
    path("<int:game_id>/start/", views.game_start, name="start"),
    path("<int:game_id>/again/", views.game_again, name="again"),
    path("<int:game_id>/computers/", views.game_computers, name="computers"),
    path("<int:game_id>/computers/add/", views.game_add_computer, name="add_computer"),
    path("<int:game_id>/computers/remove/", views.game_remove_computer, name="remove_computer"),
    path("<int:game_id>/replay/", player_views.replay_page, name="replay"),
    path("<slug:slug>/rules/", views.rules_page, name="rules"),
]
