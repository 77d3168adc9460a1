from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), required=False, help_text=_("Optional; needed only to reset a forgotten password.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = super().clean_username()
        from games.computers.players import is_computer_name

        # The computer players' names: a person under one would be taken for a computer everywhere.
        if is_computer_name(username):
            raise forms.ValidationError(_("Names starting with “computer-” belong to the computer players."))
        return username


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email", "theme", "quick_scoring")
        widgets = {"theme": forms.RadioSelect}
        help_texts = {"theme": _("Follow the device: light or dark as your phone or computer is set.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A form that leaves the theme out (an older page, a script) keeps the one the player has.
        self.fields["theme"].required = False

    def clean_theme(self) -> str:
        return self.cleaned_data["theme"] or self.instance.theme
