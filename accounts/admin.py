from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .forms import ThrottledAdminAuthenticationForm
from .models import User

# Password guessing through /admin/login/ is throttled like the site's own sign-in.
admin.site.login_form = ThrottledAdminAuthenticationForm


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (*UserAdmin.fieldsets, ("Profile", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
