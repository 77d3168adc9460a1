from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)
from pairing import views

app_name = "pairing"

urlpatterns = [
    path("", views.now_page, name="now"),
    path("ask/", views.now_ask, name="ask"),
    path("leave/", views.now_leave, name="leave"),
    path("block/<text:username>/", views.block, name="block"),
]
