"""The player's notices (the latest, read and unread), their notification settings, and the
one-click unsubscribe of the turn e-mails."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from notices import services
from notices.forms import PreferencesForm
from notices.models import preferences_of


@login_required
def notices_page(request: HttpRequest) -> HttpResponse:
    return render(request, "notices/list.html", {"notices": services.read_recent(request.user)})


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=preferences_of(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Notification settings saved."))
        return redirect("notices:settings")
    return render(request, "notices/settings.html", {"form": form, "has_email": bool(request.user.email)})


# Mail programs send the one-click unsubscribe as a POST without any cookie (RFC 8058): the signed
# token is the whole authority, and it can only turn e-mails off.
@csrf_exempt
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    user = services.unsubscribe(token)
    status = 200 if user is not None else 400
    return render(request, "notices/unsubscribed.html", {"unsubscribed": user}, status=status)
