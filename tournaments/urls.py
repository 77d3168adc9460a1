from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)

from . import views

app_name = "tournaments"

# Under /groups/<id:group_id>/tournaments/ (config/urls.py).
urlpatterns = [
    path("new/", views.tournament_new, name="new"),
    path("<id:number>/", views.tournament_detail, name="detail"),
    path("<id:number>/enter/", views.tournament_enter, name="enter"),
    path("<id:number>/leave/", views.tournament_leave, name="leave"),
    path("<id:number>/start/", views.tournament_start, name="start"),
    path("<id:number>/cancel/", views.tournament_cancel, name="cancel"),
]
