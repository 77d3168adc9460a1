from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from play import friend_views
from play import player_views as views

app_name = "players"

urlpatterns = [
    # Before the profile's pattern: these words are reserved as usernames (accounts.names).
    path("following/", friend_views.following_page, name="following"),
    path("search/", friend_views.search_page, name="search"),
    path("<text:username>/", views.profile_page, name="profile"),
    path("<text:username>/stats/", views.stats_page, name="stats"),
    path("<text:username>/history/", views.history_page, name="history"),
    path("<text:username>/challenge/", views.challenge, name="challenge"),
    path("<text:username>/follow/", views.follow, name="follow"),
]
