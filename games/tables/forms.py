"""The form for creating a game: kind, seats, the engines' own options, absence limit, optional group."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games import catalogue
from games.computers.players import MAX_PER_TABLE, STRENGTH_CHOICES


def _option_fields() -> dict[str, forms.Field]:
    """One choice field per option the engines declare; ``data-kinds`` names the games that have it, so
    the page shows it only for them."""
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


# Seconds, as the services and Game.absence_limit count them; a player picks a length, not a number.
ABSENCE_CHOICES = (
    (60, _("1 minute")),
    (120, _("2 minutes")),
    (300, _("5 minutes")),
    (900, _("15 minutes")),
    (3600, _("1 hour")),
    (86400, _("1 day")),
)


# A table's pace as its forms offer it (the lobby's, Play someone now's, a challenge's): live, or a
# game over days with 1, 2 or 3 days per turn.
PACE_CHOICES = [
    ("live", _("Live: everyone plays now")),
    ("days-1", _("Over days: 1 day per turn")),
    ("days-2", _("Over days: 2 days per turn")),
    ("days-3", _("Over days: 3 days per turn")),
]


def pace_days(choice: str | None) -> tuple[str, int | None]:
    """A pace choice as the game takes it: ("live", None) or ("days", days per turn)."""
    if choice and choice.startswith("days-"):
        return "days", int(choice.removeprefix("days-"))
    return "live", None


class GameCreateForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"))
    seats = forms.IntegerField(
        label=_("Seats"), min_value=1, max_value=6, initial=2, help_text=_("1 plays solo and starts at once.")
    )
    computers = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(MAX_PER_TABLE + 1)],
        coerce=int,
        initial=0,
        required=False,
        label=_("Computer players"),
        help_text=_("They take seats beside yours; with every seat taken, the game starts at once."),
    )
    strength = forms.ChoiceField(
        choices=STRENGTH_CHOICES,
        initial="good",
        required=False,
        label=_("Computer strength"),
    )
    absence_limit = forms.TypedChoiceField(
        choices=ABSENCE_CHOICES,
        coerce=int,
        initial=120,
        # Left out (the page leaves out what does not apply: a solo game, one over days): the default.
        required=False,
        empty_value=None,
        label=_("Time to wait for an absent player"),
        help_text=_("After this long away, the others may skip the absent player's turn."),
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=PACE_CHOICES,
        initial="live",
        required=False,  # left out: live, as before there was a choice
        help_text=_("Over days, each player is told by e-mail when it is their turn."),
    )
    group = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=_("Group (optional)"))
    # A form that leaves it out (an unchecked box) makes an unrated table; the page checks it.
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Rated game"),
        help_text=_("The result changes the players' ratings. A solo game is never rated."),
    )

    def __init__(self, *args, groups=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k.slug, k.name) for k in catalogue.kinds()]
        # The engines' options go after the number of seats, where the page has always shown them.
        fields = list(self.fields.items())
        self.fields = dict(fields[:2] + list(_option_fields().items()) + fields[2:])
        # What applies only to a table with other players, and only to a live one: the page shows
        # these fields while it does (static/js/new-game.js).
        for name in ("computers", "strength", "pace", "group", "rated"):
            self.fields[name].widget.attrs["data-needs"] = "others"
        self.fields["absence_limit"].widget.attrs["data-needs"] = "others live"
        self.fields["group"].choices = [
            ("", _("No group: anyone may join")),
            *((g.pk, g.name) for g in groups),
        ]

    def pace_and_limit(self) -> tuple[str, int]:
        """The game's pace and its turn limit in seconds (a live game's is the absence limit)."""
        pace, days = pace_days(self.cleaned_data["pace"])
        if days is not None:
            return pace, days * 86_400
        return pace, self.cleaned_data["absence_limit"] or settings.GAME_DEFAULT_ABSENCE_LIMIT

    def option_widgets(self, prefix: str) -> list[tuple]:
        """The engines' option fields again for another form on the page (the quick game against the
        computer): (label, id, the select with that id), each showing for its games only."""
        out = []
        for name in _option_fields():
            bound = self[name]
            field_id = f"{prefix}-{name}"
            out.append((bound.label, field_id, bound.as_widget(attrs={"id": field_id})))
        return out

    def engine_options(self) -> dict:
        """The chosen game's options, each its default when left out."""
        kind = catalogue.kind(self.cleaned_data["kind"])
        return {o.name: self.cleaned_data.get(o.name) or o.default for o in kind.options}


class AddComputerForm(forms.Form):
    """The table's creator seats a computer player (the game page's select)."""

    strength = forms.ChoiceField(choices=STRENGTH_CHOICES)


class RemoveComputerForm(forms.Form):
    """The table's creator gives a computer player's seat back (its name, a hidden field of the page)."""

    username = forms.CharField(max_length=150)  # accounts.User.username's length; no NUL (CharField)
