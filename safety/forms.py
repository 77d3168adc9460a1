"""The report's form: a reason from the list and a sentence."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from infra.params import id_field
from safety.models import TEXT_MAX, Decision, Report
from safety.services import DURATIONS


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("Why"), choices=Report.Reason.choices, widget=forms.RadioSelect)
    text = forms.CharField(
        label=_("What happened, in a sentence"),
        max_length=TEXT_MAX,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=_("Only the moderators read it. %(name)s is not told who reported them."),
    )
    message = id_field(required=False, widget=forms.HiddenInput)
    game = id_field(required=False, widget=forms.HiddenInput)
    next = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)

    def __init__(self, *args, player: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["text"].help_text = self.fields["text"].help_text % {"name": player}


def _hours_label(hours: int) -> str:
    days = hours // 24
    if days >= 365:
        return _("A year")
    if days >= 30:
        return _("A month")
    if days >= 7:
        return _("A week")
    return _("A day")


class DecisionForm(forms.Form):
    kind = forms.ChoiceField(label=_("Decision"), choices=Decision.Kind.choices)
    hours = forms.TypedChoiceField(
        label=_("For (a mute or a bar)"),
        choices=[(h, _hours_label(h)) for h in DURATIONS],
        coerce=int,
        required=False,
        empty_value=None,
    )
    reason = forms.CharField(
        label=_("Why (the player reads it)"),
        max_length=TEXT_MAX,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
