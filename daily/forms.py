from __future__ import annotations

from django import forms

from games import catalogue


class PlayForm(forms.Form):
    """Play today's game of one kind: the kinds are the catalogue's, read when the form is made."""

    kind = forms.ChoiceField(choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(kind.slug, kind.name) for kind in catalogue.kinds()]
