"""The profile page's challenge: which game (one list of results each: Farkle by its goal) and its pace."""

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
