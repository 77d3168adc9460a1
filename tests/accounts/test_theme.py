"""The colour theme: a player's choice kept on their account, rendered on <html>, and the palettes of
static/css/site.css (both dark blocks the same, every text colour at least 4.5:1 on its background)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

SITE_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"


def _html_tag(response) -> str:
    return re.search(r"<html[^>]*>", response.content.decode())[0]


@pytest.mark.django_db
def test_theme_is_saved_and_rendered(user_client, user):
    assert user.theme == "auto"
    page = user_client.get(reverse("accounts:profile"))
    assert 'data-theme="auto"' in _html_tag(page)
    assert '<input type="radio" name="theme" value="auto"' in page.content.decode()
    response = user_client.post(
        reverse("accounts:profile"), {"display_name": "", "email": "", "theme": "dark"}, follow=True
    )
    user.refresh_from_db()
    assert user.theme == "dark"
    assert 'data-theme="dark"' in _html_tag(response)
    assert '<meta name="color-scheme" content="dark">' in response.content.decode()
    # Every page, not only the profile.
    assert 'data-theme="dark"' in _html_tag(user_client.get(reverse("games:mine")))


@pytest.mark.django_db
def test_a_profile_form_without_the_theme_keeps_it(user_client, user):
    user.theme = "light"
    user.save()
    user_client.post(reverse("accounts:profile"), {"display_name": "Annie", "email": ""})
    user.refresh_from_db()
    assert (user.display_name, user.theme) == ("Annie", "light")


@pytest.mark.django_db
def test_an_unknown_theme_is_refused(user_client, user):
    response = user_client.post(
        reverse("accounts:profile"), {"display_name": "", "email": "", "theme": "pink"}
    )
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    user.refresh_from_db()
    assert user.theme == "auto"


@pytest.mark.django_db
def test_visitors_follow_the_device(client):
    response = client.get(reverse("home"))
    assert 'data-theme="auto"' in _html_tag(response)
    assert '<meta name="color-scheme" content="light dark">' in response.content.decode()


# --- the palettes ------------------------------------------------------------------------------------


def _declarations(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block))


def _palettes() -> tuple[dict, dict, dict]:
    css = SITE_CSS.read_text()
    light = re.search(r"^:root \{(.*?)^\}", css, re.S | re.M)[1]
    device = re.search(
        r'@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme="light"\]\) \{(.*?)\}', css, re.S
    )[1]
    chosen = re.search(r'^:root\[data-theme="dark"\] \{(.*?)^\}', css, re.S | re.M)[1]
    return _declarations(light), _declarations(device), _declarations(chosen)


def test_both_dark_blocks_are_the_same_palette():
    light, device, chosen = _palettes()
    assert device == chosen
    # Every colour of the light palette has its dark value (the radius and the focus ring are shared).
    assert set(light) - set(device) == {"--radius", "--focus"}


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# (text, background) pairs the stylesheets put together.
TEXT_ON = [
    ("--ink", "--bg"), ("--ink", "--panel"), ("--muted", "--bg"), ("--muted", "--panel"),
    ("--accent", "--bg"), ("--accent", "--panel"), ("--accent-ink", "--accent"), ("--good", "--panel"),
    ("--bad", "--panel"), ("--bad", "--error-bg"), ("--warn", "--panel"), ("--header-ink", "--header-bg"),
    ("--ink", "--info-bg"), ("--ink", "--success-bg"), ("--ink", "--error-bg"), ("--ink", "--mine-bg"),
    ("--ink", "--current-bg"), ("--muted", "--tag-bg"), ("--muted", "--divider-bg"), ("--ink", "--field-bg"),
    ("--die-ink", "--die-bg"),
]  # fmt: skip


@pytest.mark.parametrize("palette", ["light", "dark"])
@pytest.mark.parametrize(("text", "background"), TEXT_ON)
def test_text_keeps_4_5_to_1(palette, text, background):
    light, dark, _ = _palettes()
    colours = light if palette == "light" else dark
    ratio = _contrast(colours[text].strip(), colours[background].strip())
    assert ratio >= 4.5, f"{palette}: {text} on {background} is {ratio:.2f}:1"
