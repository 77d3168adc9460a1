"""Sign-up, sign-in (Django's view with throttling) and the player's own profile.

Log out and passwords are Django's own views.
"""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .forms import ProfileForm, SignUpForm, ThrottledAuthenticationForm


class ThrottledLoginView(LoginView):
    """Sign-in; answers 429 Too Many Requests while the username or address is locked out."""

    form_class = ThrottledAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if getattr(form, "throttled", False):
            response.status_code = 429
        return response


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}!")
        return redirect(request.GET.get("next") or "home")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Profile saved.")
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})
