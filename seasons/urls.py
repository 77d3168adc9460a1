from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> converter)

from . import views

app_name = "seasons"

# Under /groups/<id:group_id>/seasons/ (config/urls.py).
urlpatterns = [
    path("new/", views.season_new, name="new"),
    path("<id:number>/", views.season_detail, name="detail"),
    path("<id:number>/end/", views.season_end, name="end"),
    path("<id:number>/delete/", views.season_delete, name="delete"),
]
