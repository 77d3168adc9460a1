from django import forms

from groups.models import Group


class GroupForm(forms.ModelForm):
    class Meta:
        model = Group
        fields = ("name", "description")
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}


class AddMemberForm(forms.Form):
    username = forms.CharField(max_length=150, label="Add a player by username")
