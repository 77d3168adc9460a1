from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError

from . import throttle
from .models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional; needed only to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email")


class ThrottleMixin:
    """For sign-in forms: refuse at once while the username or address is locked out, count failures."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        ip = throttle.client_ip(self.request) if self.request else ""
        locked = throttle.locked_for(username, ip)
        self.throttled = locked is not None
        if locked is not None:
            # The password is not even checked: a guess made during the lock-out learns nothing.
            raise ValidationError(
                "%(message)s", code="throttled", params={"message": throttle.refusal_message(*locked)}
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            throttle.record_failure(username, ip)
            raise
        throttle.record_success(username, ip)
        return cleaned


class ThrottledAuthenticationForm(ThrottleMixin, AuthenticationForm):
    """The site's sign-in form."""


class ThrottledAdminAuthenticationForm(ThrottleMixin, AdminAuthenticationForm):
    """The admin's sign-in form: the same counts, so /admin/login/ is no way around the limit."""
