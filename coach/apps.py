from django.apps import AppConfig


class CoachConfig(AppConfig):
    name = "coach"
    verbose_name = "Coach"
    default_auto_field = "django.db.models.BigAutoField"
