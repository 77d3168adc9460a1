from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .forms import PlayerChangeForm, PlayerCreationForm
from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    form = PlayerChangeForm
    add_form = PlayerCreationForm
    fieldsets = (*UserAdmin.fieldsets, ("Profile", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
