"""A player's own data: the download of all of it, and deleting the account (play.account_data). Both
act on the signed-in player alone: no URL names another account."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from play import account_data
from play.forms import AccountDeleteForm


@login_required
@require_GET
def data_download(request: HttpRequest) -> HttpResponse:
    body = json.dumps(
        account_data.account_export(request.user), cls=DjangoJSONEncoder, indent=1, ensure_ascii=False
    )
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="dicehall-{request.user.pk}.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        account_data.account_delete(user=request.user)
        logout(request)
        messages.success(
            request, _("Your account is deleted. Your games stay, under a name that is no one's.")
        )
        return redirect("home")
    status = 400 if form.errors else 200
    return render(request, "accounts/delete.html", {"form": form}, status=status)
