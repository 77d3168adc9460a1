from datetime import date

from django.urls import path, register_converter

from daily import views


class DateConverter:
    """``<isodate:day>``: a calendar date written 2026-12-06; anything else matches no URL (404)."""

    regex = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)  # ValueError for 2026-13-40: no match

    def to_url(self, value: date) -> str:
        return value.isoformat()


register_converter(DateConverter, "isodate")

app_name = "daily"

urlpatterns = [
    path("", views.today_page, name="today"),
    path("play/", views.play, name="play"),
    path("<isodate:day>/", views.day_page, name="day"),
]
