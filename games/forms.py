"""The form for creating a game: kind, seats, Farkle options, absence limit, optional group."""

from __future__ import annotations

from django import forms

from games.catalogue import KINDS

FARKLE_GOALS = [(10000, "10,000"), (5000, "5,000"), (3000, "3,000")]


class GameCreateForm(forms.Form):
    kind = forms.ChoiceField(choices=[(k.slug, k.name) for k in KINDS])
    seats = forms.IntegerField(
        min_value=1, max_value=6, initial=2, help_text="1 plays solo and starts at once."
    )
    goal = forms.TypedChoiceField(
        choices=FARKLE_GOALS, coerce=int, initial=10000, required=False, label="Farkle goal"
    )
    dice = forms.TypedChoiceField(
        choices=[(6, "6 dice"), (5, "5 dice")], coerce=int, initial=6, required=False, label="Farkle dice"
    )
    absence_limit = forms.IntegerField(
        min_value=10,
        max_value=7 * 24 * 3600,
        initial=120,
        label="Absence limit (seconds)",
        help_text="After this long away, the others may skip the absent player's turn.",
    )
    group = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Group (optional)")

    def __init__(self, *args, groups=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["group"].choices = [("", "No group: anyone may join"), *((g.pk, g.name) for g in groups)]

    def engine_options(self) -> dict:
        if self.cleaned_data["kind"] != "farkle":
            return {}
        return {"goal": self.cleaned_data.get("goal") or 10000, "dice": self.cleaned_data.get("dice") or 6}
