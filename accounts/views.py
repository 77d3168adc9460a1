"""Sign-up, sign-in and the player's own profile.

Sign-in is Django's own view, which then honours an invitation opened signed out (accounts/arrivals.py);
log out and passwords are Django's own views, the reset one limited (accounts/throttle.py); django-axes
locks out password guessing (accounts/lockout.py).
"""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import arrivals

from . import services, sockets
from .forms import ProfileForm, SignUpForm
from .throttle import limit_password_resets, limit_signups


def safe_next(request: HttpRequest) -> str:
    """``?next=`` when it stays on this site (and on HTTPS if the request is), else "": the parameter
    comes from whoever wrote the link, so it must not send a new player elsewhere."""
    target = request.GET.get("next")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def _next_or(request: HttpRequest, default: str) -> HttpResponse:
    target = safe_next(request)
    # Not through redirect(): a user's string must not be looked up as a URL name.
    return HttpResponseRedirect(target) if target else redirect(default)


@limit_signups
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except ValidationError as refusal:  # the name, or a look-alike, was taken meanwhile
            form.add_error("username", refusal)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s!") % {"name": user.username})
            # An invitation's page comes before ?next= (the invitation links carry the same page anyway).
            landing = arrivals.honour(request)
            return HttpResponseRedirect(landing) if landing else _next_or(request, "home")
    context = {"form": form, "next": safe_next(request), "invitation": arrivals.describe(request)}
    return render(request, "accounts/signup.html", context)


class LoginView(auth_views.LoginView):
    """Django's sign-in; a visitor who opened an invitation signed out lands in its seat or group."""

    def get_context_data(self, **kwargs):
        return super().get_context_data(invitation=arrivals.describe(self.request), **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        landing = arrivals.honour(self.request)
        return HttpResponseRedirect(landing) if landing else response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset, which never says whether an account has the address, with a limit per e-mail
    address and per client address (accounts/throttle.py)."""

    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        return limit_password_resets(self.request, form.cleaned_data["email"]) or super().form_valid(form)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change; the session that changes it keeps its sockets, every other session's
    close (accounts.sockets), as Django keeps this session signed in and ends the others."""

    success_url = reverse_lazy("accounts:password_change_done")

    def form_valid(self, form):
        form.user.keep_sockets_of = sockets.session_mark(self.request.session.session_key)
        return super().form_valid(form)


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Profile saved."))
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch (the cookie, for visitors), kept on the player too when signed in, so
    that e-mails and every device speak the player's language."""
    response = django_set_language(request)
    chosen = request.POST.get("language", "")
    if request.user.is_authenticated and check_for_language(chosen) and request.user.language != chosen:
        request.user.language = chosen
        request.user.save(update_fields=["language"])
    return response
