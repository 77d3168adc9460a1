"""The profile page's challenge: which game (one list of results each: Farkle by its goal) and its pace."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Game
from ratings import kinds

PACES = {"live": None, "days-1": 86_400, "days-2": 2 * 86_400, "days-3": 3 * 86_400}


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
        choices=[
            ("live", _("Live: everyone plays now")),
            ("days-1", _("Over days: 1 day per turn")),
            ("days-2", _("Over days: 2 days per turn")),
            ("days-3", _("Over days: 3 days per turn")),
        ],
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
        limit = PACES[self.cleaned_data["pace"]]
        return {
            "kind": kind.slug,
            "options": {option.name: variant} if option is not None else {},
            "pace": Game.Pace.LIVE if limit is None else Game.Pace.DAYS,
            "absence_limit": limit,
        }
