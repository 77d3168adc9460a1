"""The profile page's forms: the challenge (which game, one list of results each: Farkle by its goal, and
its pace) and the deletion of one's account."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.tables.forms import PACE_CHOICES, pace_days
from ratings import kinds


def _games() -> list[tuple[str, str]]:
    """Every game two people can play, as the rating lists name them ("Farkle (3000)")."""
    shown = []
    for key in kinds.every():
        kind, _variant = kinds.split(key)
        if kind.min_players <= 2 <= kind.max_players:
            shown.append((key, kinds.name(key)))
    return shown


class ChallengeForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"))
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=PACE_CHOICES,
        initial="live",
        help_text=_("Over days, each player is told by e-mail when it is their turn."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = _games()

    def game(self) -> dict:
        """What the challenge service takes: the game's slug and options, its pace and turn limit."""
        kind, variant = kinds.split(self.cleaned_data["kind"])
        option = kind.separating
        pace, days = pace_days(self.cleaned_data["pace"])
        return {
            "kind": kind.slug,
            "options": {option.name: variant} if option is not None else {},
            "pace": pace,
            "absence_limit": None if days is None else days * 86_400,
        }


class AccountDeleteForm(forms.Form):
    """Deleting one's account asks for the password again: a session left open on a shared computer
    must not be enough."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password
