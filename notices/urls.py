from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from notices import views

app_name = "notices"

urlpatterns = [
    path("", views.notices_page, name="list"),
    path("settings/", views.settings_page, name="settings"),
    path("unsubscribe/<text:token>/", views.unsubscribe, name="unsubscribe"),
]
