"""The form a group's creator announces a tournament with: the game and its options (as the lobby
offers them: games.catalogue), the format, the tables, the pace, the start and the end of entries."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import catalogue
from games.tables.forms import PACE_CHOICES, pace_days
from tournaments.models import Tournament

LOCAL = "%Y-%m-%dT%H:%M"  # what <input type="datetime-local"> sends and shows


def _when(label, help_text="") -> forms.DateTimeField:
    return forms.DateTimeField(
        label=label,
        required=False,
        help_text=help_text,
        input_formats=[LOCAL, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL),
    )


def _option_fields() -> dict[str, forms.Field]:
    """One choice per option the engines declare, shown for the games that have it (``data-kinds``)."""
    fields: dict[str, forms.Field] = {}
    for kind in catalogue.kinds():
        for option in kind.options:
            field = fields.get(option.name)
            if field is None:
                field = forms.TypedChoiceField(
                    choices=[(value, _(label)) for value, label in option.choices],
                    coerce=int,
                    initial=option.default,
                    required=False,
                    label=_(option.label),
                )
                field.widget.attrs["data-kinds"] = ""
                fields[option.name] = field
            field.widget.attrs["data-kinds"] = f"{field.widget.attrs['data-kinds']} {kind.slug}".strip()
    return fields


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    kind = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices, initial="swiss")
    rounds = forms.TypedChoiceField(
        label=_("Rounds"),
        choices=[(n, str(n)) for n in range(1, 10)],
        coerce=int,
        initial=3,
        required=False,
        help_text=_("A round robin has as many rounds as it takes for everyone to meet everyone."),
    )
    table_size = forms.TypedChoiceField(
        label=_("Players at each table"), choices=[(n, str(n)) for n in (2, 3, 4)], coerce=int, initial=2
    )
    pace = forms.ChoiceField(label=_("Pace"), choices=PACE_CHOICES, initial="live")
    starts_at = _when(_("Start"), _("A live tournament's first round starts then."))
    entries_close_at = _when(
        _("Entries close"), _("Members enter until then; over days, the first round starts then.")
    )
    # The browser's time zone (static/js/tournaments.js), in which the two times above are read; UTC
    # without JavaScript.
    tz = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k.slug, k.name) for k in catalogue.kinds()]
        fields = list(self.fields.items())
        self.fields = dict(fields[:3] + list(_option_fields().items()) + fields[3:])
        self.fields["rounds"].widget.attrs["data-needs"] = "swiss"
        self.fields["starts_at"].widget.attrs["data-needs"] = "live"

    def clean(self):
        data = super().clean()
        zone = timezone.get_current_timezone()
        name = data.get("tz") or ""
        if name:
            try:
                zone = zoneinfo.ZoneInfo(name)
            except (ValueError, zoneinfo.ZoneInfoNotFoundError):
                zone = timezone.get_current_timezone()
        for field in ("starts_at", "entries_close_at"):
            value: datetime | None = data.get(field)
            if value is not None:
                try:
                    data[field] = value.replace(tzinfo=None).replace(tzinfo=zone).astimezone(UTC)
                except OverflowError:
                    self.add_error(field, _("Choose a date in the next year."))
        if data.get("entries_close_at") is None and "entries_close_at" not in self.errors:
            self.add_error("entries_close_at", _("Say when entries close."))
        pace, _days = pace_days(data.get("pace"))
        if pace == "live" and data.get("starts_at") is None and "starts_at" not in self.errors:
            self.add_error("starts_at", _("Say when a live tournament starts."))
        return data

    def service_arguments(self) -> dict:
        """The form as tournaments.services.tournament_create takes it."""
        data = self.cleaned_data
        kind = catalogue.kind(data["kind"])
        pace, days = pace_days(data["pace"])
        return {
            "name": data["name"],
            "kind": data["kind"],
            "options": {o.name: data.get(o.name) or o.default for o in kind.options},
            "format": data["format"],
            "rounds": data.get("rounds") or 3,
            "table_size": data["table_size"],
            "pace": pace,
            "days": days,
            "starts_at": data.get("starts_at"),
            "entries_close_at": data["entries_close_at"],
        }
