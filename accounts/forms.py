from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from . import services
from .models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), required=False, help_text=_("Optional; needed only to reset a forgotten password.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str | None:
        username = super().clean_username()  # None when the name is taken already, with its error
        if username:
            services.username_check(username)
        return username


class PlayerCreationForm(AdminUserCreationForm):
    """The admin's new account: the staff may give the site's own words, nobody a look-alike."""

    def clean_username(self) -> str | None:
        username = super().clean_username()
        if username:
            services.username_check(username, reserved_ok=True)
        return username


class PlayerChangeForm(UserChangeForm):
    """The admin's account page: a new name is checked as a new account's (the account's own name
    excepted, so that "Ann" may become "ann")."""

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if username != self.instance.username:
            services.username_check(username, user=self.instance, reserved_ok=True)
        return username


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email", "theme", "quick_scoring", "hide_ratings_in_game")
        widgets = {"theme": forms.RadioSelect}
        help_texts = {"theme": _("Follow the device: light or dark as your phone or computer is set.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A form that leaves the theme out (an older page, a script) keeps the one the player has.
        self.fields["theme"].required = False

    def clean_theme(self) -> str:
        return self.cleaned_data["theme"] or self.instance.theme
