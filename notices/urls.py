from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from notices import views

app_name = "notices"

urlpatterns = [
    path("", views.notices_page, name="list"),
    path("settings/", views.settings_page, name="settings"),
    path("unsubscribe/<text:token>/", views.unsubscribe, name="unsubscribe"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path("push/devices/<id:device_id>/", views.push_device, name="push_device"),
]
