from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("", views.notices_page, name="list"),
    path("settings/", views.settings_page, name="settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
