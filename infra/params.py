"""What a request may carry to the database, in one place: ids an id column can
hold and text a text column can hold. The URL converters hold paths to it, ``query_id`` and
``query_value`` query strings, and the forms' fields what is posted (a CharField refuses NUL itself).

A value past these limits used to reach Python's int() (which refuses more than 4,300 digits) or the
database (PostgreSQL refuses NUL in text, a bigint past 2**63 - 1; SQLite an integer past 64 bits; and
Django guards only some lookups), and the page answered 500.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import BadRequest, ValidationError
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.shortcuts import resolve_url
from django.urls import register_converter
from django.utils.http import url_has_allowed_host_and_scheme

# Every id column is a bigint (DEFAULT_AUTO_FIELD is BigAutoField): no row has an id past this.
MAX_ID = 2**63 - 1


def storable(text: str) -> bool:
    """Text PostgreSQL can store: no NUL, and valid UTF-8 (no lone surrogate, which a JSON escape or
    an ASGI path can carry)."""
    if "\x00" in text:
        return False
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


class IdConverter:
    """``<id:name>``: an id a row can have, 1 to MAX_ID; any other number matches no URL (404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= MAX_ID:
            raise ValueError("no row has this id")  # Django: the pattern does not match
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class TextConverter:
    """``<text:name>``: a path segment the database can be asked about (a username, a token); one
    with a NUL or a lone surrogate matches no URL (404)."""

    regex = "[^/]+"

    def to_python(self, value: str) -> str:
        if not storable(value):
            raise ValueError("no text column holds this")
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IdConverter, "id")
register_converter(TextConverter, "text")


def id_field(**kwargs) -> forms.IntegerField:
    """A form field for an id: a whole number a row can have (Django's IntegerField refuses what int()
    cannot read, more than 4,300 digits included, without raising)."""
    return forms.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def query_value(request: HttpRequest, name: str, field: forms.Field):
    """``?name=`` cleaned by ``field`` (its type and its limits): None when absent or empty, a bad
    request (400) when the field refuses it."""
    raw = request.GET.get(name)
    if raw in (None, ""):
        return None
    try:
        return field.clean(raw)
    except ValidationError:
        raise BadRequest(f"Bad value for {name}.") from None


def query_id(request: HttpRequest, name: str) -> int | None:
    """``?name=`` as an id: None when absent or empty; not found (404) when no row can have it."""
    try:
        return query_value(request, name, id_field())
    except BadRequest:
        raise Http404(f"No such {name}.") from None


def posted_next(request: HttpRequest) -> str:
    """The form's ``next`` when it is a path on this site (and on HTTPS if the request is), else ""."""
    nxt = request.POST.get("next", "")
    safe = (
        nxt.startswith("/")
        and nxt.isprintable()
        and url_has_allowed_host_and_scheme(
            nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    )
    return nxt if safe else ""


def next_or(request: HttpRequest, default: str) -> HttpResponseRedirect:
    """Back to the form's ``next`` (a path on this site), else to ``default`` (a URL or its name)."""
    return HttpResponseRedirect(posted_next(request) or resolve_url(default))


class RefuseBadHeaders:
    """A request whose header carries text no column holds is a bad request (400), before any view or
    library stores it. HTTP forbids NUL in a header's value (RFC 9110, 5.5), but daphne passes it on,
    and django-axes stored a failed sign-in's User-Agent, which PostgreSQL refused (a 500)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if not all(storable(value) for name, value in request.META.items() if name.startswith("HTTP_")):
            raise BadRequest("A header holds a character HTTP does not allow.")
        return self.get_response(request)
