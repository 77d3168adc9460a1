"""Sign-up and the player's own profile.

Sign-in, log out and passwords are Django's own views; django-axes locks out password guessing
(accounts/lockout.py).
"""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from .forms import ProfileForm, SignUpForm
from .throttle import limit_signups


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
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}!")
        return _next_or(request, "home")
    return render(request, "accounts/signup.html", {"form": form, "next": safe_next(request)})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Profile saved.")
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})
