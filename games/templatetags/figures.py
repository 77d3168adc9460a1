"""Figures and dates in the reader's language: ``{{ score|figure }}`` is 11000 in English and 11.000 in
German, ``{{ average|figure:"-1" }}`` rounds as floatformat does and groups the same way, and
``{{ day|long_date }}`` is "1 December 2026" / "1. Dezember 2026" (config/formats)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django import template
from django.template.defaultfilters import floatformat
from django.utils import dateformat, formats, timezone
from django.utils.translation import get_language

from games.i18n import number

register = template.Library()


def _english() -> bool:
    return (get_language() or "en").startswith("en")


@register.filter
def figure(value, digits: str = ""):
    """A number grouped where the active language groups; anything else (None, a dash) as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return value
    if digits:
        return floatformat(value, digits if _english() else f"{digits}g")
    return number(value) if isinstance(value, int) else floatformat(value, "-2" if _english() else "-2g")


@register.filter
def long_date(value):
    """A date (or a moment: its day in the site's time zone) as a sentence says it, in the active
    language's LONG_DATE_FORMAT."""
    if not value:
        return ""
    shown = timezone.localtime(value) if isinstance(value, datetime) and timezone.is_aware(value) else value
    for module in formats.get_format_modules(get_language()):
        if hasattr(module, "LONG_DATE_FORMAT"):
            return dateformat.format(shown, module.LONG_DATE_FORMAT)
    return dateformat.format(shown, "j F Y")


@register.filter
def signed_figure(value):
    """A change with its sign, as ``figure`` writes the number: "+14", "\u221217", "\u00b10"."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return value
    sign = "+" if value > 0 else "\u2212" if value < 0 else "\u00b1"
    return f"{sign}{figure(abs(value))}"
