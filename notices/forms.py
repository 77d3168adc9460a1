from django import forms

from notices.models import Preferences


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = ("email_turns", "sound", "browser", "mute_chat")
