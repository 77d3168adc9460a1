from django import forms

from notices.models import Preferences, PushSubscription


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = ("email_turns", "sound", "browser", "mute_chat")


class DeviceForm(forms.ModelForm):
    """The kinds of push message one device takes (notices.push.KINDS)."""

    class Meta:
        model = PushSubscription
        fields = ("turn", "invitation", "group", "tournament")
