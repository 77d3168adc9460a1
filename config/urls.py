from django.contrib import admin
from django.urls import include, path

from config.health import healthz
from games import views as game_views

urlpatterns = [
    path("", game_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("groups/", include("groups.urls")),
    path("admin/", admin.site.urls),
]
