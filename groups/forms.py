from django import forms
from django.utils.translation import gettext_lazy as _

from groups.models import Group


class GroupForm(forms.ModelForm):
    class Meta:
        model = Group
        fields = ("name", "description")
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        labels = {"name": _("Name"), "description": _("Description")}


class AddMemberForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Add a player by username"))
