"""The player's notices (the latest, read and unread), their notification settings, and the
unsubscribe of the turn e-mails (a page with a button, and the mail program's one click)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

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


def _reader_language(request: HttpRequest, user) -> str:
    """The link names its player, whom the page addresses in their own language as it would were they
    signed in (accounts.middleware), unless this browser chose one with the switch at the page's foot
    (the language cookie); a player who never chose one reads the browser's."""
    own = getattr(user, "language", "")
    if not own or request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
        return translation.get_language()
    return own


# The link in the e-mail only asks (a GET changes nothing: mail scanners open every link they see);
# the page's button, and the mail program's one-click unsubscribe (RFC 8058: a POST with the body
# "List-Unsubscribe=One-Click" and no cookie at all), turn the e-mails off. Exempt from CSRF on
# purpose: neither the mail program nor a signed-out reader has the CSRF cookie, the signed token in the
# address is the whole authority, and all it can do is turn one player's e-mails off.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    stop = request.method == "POST"
    user = services.unsubscribe(token) if stop else services.unsubscribe_reader(token)
    with translation.override(_reader_language(request, user)):
        return render(
            request,
            "notices/unsubscribed.html",
            {"reader": user, "stopped": stop},
            status=200 if user is not None else 400,
        )
