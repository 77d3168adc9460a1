"""The player's notices (the latest, read and unread), their notification settings, and the
unsubscribe of the turn e-mails (a page with a button, and the mail program's one click)."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notices import push, services, subscriptions, vapid
from notices.forms import DeviceForm, PreferencesForm
from notices.models import PushSubscription, preferences_of


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
    pair = vapid.keys()
    devices = [
        # Each device's form posts to its own address: plain field names, ids of its own on the page.
        (device, DeviceForm(instance=device, auto_id=f"device-{device.pk}-%s"))
        for device in PushSubscription.objects.filter(user=request.user).order_by("created_at")
    ]
    return render(
        request,
        "notices/settings.html",
        {
            "form": form,
            "has_email": bool(request.user.email),
            "vapid_public_key": pair.public if pair else "",
            "devices": devices,
        },
    )


# --- push messages: the settings page's script (static/js/push-settings.js) subscribes this device ----
# JSON in, JSON out; CSRF as every POST of the site (the script sends the page's token in X-CSRFToken).


def _json_error(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _json_body(request: HttpRequest) -> dict:
    """The request's JSON object. Arrays nested thousands deep exceed Python's recursion limit in the
    parser (RecursionError): no subscription is nested, so that is malformed too."""
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise subscriptions.Invalid(_("The request is not JSON.")) from None
    if not isinstance(body, dict):
        raise subscriptions.Invalid(_("The request must be a JSON object."))
    return body


@login_required
@require_http_methods(["POST"])
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """This browser's PushSubscription.toJSON() (endpoint, keys.p256dh, keys.auth): stored for the
    signed-in player (201; 200 when it was known, its switches kept)."""
    if not push.enabled():
        return _json_error(_("Push messages are not set up on this site."), status=409)
    try:
        device, created = subscriptions.subscribe(
            user=request.user, data=_json_body(request), user_agent=request.headers.get("User-Agent", "")
        )
    except subscriptions.Invalid as exc:
        return _json_error(str(exc))
    return JsonResponse(subscriptions.describe(device), status=201 if created else 200)


@login_required
@require_http_methods(["POST"])
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this browser's subscription ({"endpoint": ...}), if it is the player's."""
    try:
        endpoint = subscriptions.endpoint_text(_json_body(request))
    except subscriptions.Invalid as exc:
        return _json_error(str(exc))
    removed = subscriptions.unsubscribe(user=request.user, endpoint=endpoint)
    return JsonResponse({"removed": removed})


@login_required
@require_http_methods(["POST"])
def push_device(request: HttpRequest, device_id: int) -> HttpResponse:
    """The settings page's form of one device: its switches, or (the remove button) the device gone."""
    device = get_object_or_404(PushSubscription, pk=device_id, user=request.user)
    if request.POST.get("action") == "remove":
        device.delete()
        messages.success(request, _("This device gets no more push messages."))
        return redirect("notices:settings")
    form = DeviceForm(request.POST, instance=device)
    if form.is_valid():
        form.save()
        messages.success(request, _("Push messages of %(device)s saved.") % {"device": device.device})
    return redirect("notices:settings")


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
