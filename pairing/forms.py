"""The "Play someone now" form: the game and its options, the seats, the pace, and how long to wait
before computers take the seats nobody took."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games import catalogue
from games.tables.forms import PACE_CHOICES, _option_fields, pace_days
from pairing.services import COMPUTER_WAITS


def _wait_label(seconds: int) -> str:
    if seconds < 60:
        return _("After %(n)s seconds") % {"n": seconds}
    return _("After %(n)s minutes") % {"n": seconds // 60} if seconds > 60 else _("After 1 minute")


class SeekForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"))
    seats = forms.TypedChoiceField(
        label=_("Players at the table"), choices=[(n, str(n)) for n in (2, 3, 4)], coerce=int, initial=2
    )
    pace = forms.ChoiceField(label=_("Pace"), choices=PACE_CHOICES, initial="live")
    computers_after = forms.TypedChoiceField(
        label=_("Computer players"),
        choices=[("", _("Never: people only")), *((s, "") for s in COMPUTER_WAITS)],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("If the table is not full by then, computers take the seats left."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k.slug, k.name) for k in catalogue.kinds()]
        self.fields["computers_after"].choices = [
            ("", _("Never: people only")),
            *((s, _wait_label(s)) for s in COMPUTER_WAITS),
        ]
        fields = list(self.fields.items())
        self.fields = dict(fields[:1] + list(_option_fields().items()) + fields[1:])

    def engine_options(self) -> dict:
        kind = catalogue.kind(self.cleaned_data["kind"])
        return {o.name: self.cleaned_data.get(o.name) or o.default for o in kind.options}

    def pace_and_days(self) -> tuple[str, int | None]:
        return pace_days(self.cleaned_data["pace"])
