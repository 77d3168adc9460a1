from django.contrib import admin
from django.urls import include, path

from accounts.views import set_language
from config.health import healthz
from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from play import account_views, player_views, pwa
from play import views as game_views
from play.i18n import SiteCatalog

urlpatterns = [
    path("", game_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
    path("fair-dice/", game_views.fair_dice_page, name="fair-dice"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/<text:language>/", SiteCatalog.as_view(), name="javascript-catalog"),
    path("accounts/data.json", account_views.data_download, name="account_data"),
    path("accounts/delete/", account_views.account_delete, name="account_delete"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("play.urls")),
    path("play/", include("pairing.urls")),
    path("daily/", include("daily.urls")),
    path("groups/", include("groups.urls")),
    path("groups/<id:group_id>/seasons/", include("seasons.urls")),
    path("groups/<id:group_id>/tournaments/", include("tournaments.urls")),
    path("notices/", include("notices.urls")),
    path("chat/", include("chat.urls")),
    path("safety/", include("safety.urls")),
    path("players/", include("play.player_urls")),
    path("highscores/", player_views.highscores_page, name="highscores"),
    path("ratings/", player_views.ratings_page, name="ratings"),
    path("api/highscores/", player_views.highscores_json, name="api_highscores"),
    path("api/players/<text:username>/stats/", player_views.stats_json, name="api_player_stats"),
    path("admin/", admin.site.urls),
]
