"""The creator's form to open a season: which game (one list of results each: Farkle by its goal) and
its first and last day."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings import kinds


class DayInput(forms.DateInput):
    """The browser's own date picker; it posts the ISO form (2026-12-31) whatever the reader's language."""

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


def _games() -> list[tuple[str, str]]:
    """Every game more than one person can play, as the rating lists name them ("Farkle (3000)")."""
    shown = []
    for key in kinds.every():
        kind, _variant = kinds.split(key)
        if kind.max_players >= 2:
            shown.append((key, kinds.name(key)))
    return shown


class SeasonForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"))
    first_day = forms.DateField(label=_("First day"), widget=DayInput, input_formats=["%Y-%m-%d"])
    last_day = forms.DateField(
        label=_("Last day"),
        widget=DayInput,
        input_formats=["%Y-%m-%d"],
        help_text=_("Both days count, in the site's time zone."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = _games()
