"""Bad input in any URL or form answers 4xx, never 500.

``ROUTES`` says, for every URL pattern Django serves (the admin's own aside), good values for its path
parameters, the query parameters its view reads and the fields of the form it reads from a POST. The walk
puts each bad value of ``BAD`` (a NUL byte, a lone surrogate, a 5,000-digit number, negative numbers,
numbers just past a PostgreSQL integer and bigint) in each of them in turn, the others good, signed out
and as the signed-in user who owns the objects, by GET and by POST (a view that takes no POST answers
405), and asserts that no answer is a 500.

The table cannot fall behind: ``test_every_url_pattern_is_in_the_table`` fails for a pattern it lacks,
and ``test_the_table_names_every_parameter_and_form_field_the_views_read`` requests each route once with a
recorder on ``request.GET`` and ``request.POST`` and fails if the view (its forms, its templates) reads a
name the table leaves out.

A lone surrogate cannot be written in HTTP: the test client refuses to encode a raw ``"\\ud800"`` in a
path, a query or a form, as every client must (UTF-8 has no bytes for it), and daphne decodes a path's
escapes with errors="replace". What a client can send is the bytes Python's "surrogatepass" gives it,
%ED%A0%80, which is what the walk sends; the raw ``"\\ud800"`` reaches the server only inside JSON (its
escape), on the websockets: tests/games/test_consumers.py and tests/notices/test_notices_socket.py.

Every request runs in a savepoint that is rolled back, so that one world serves the whole walk (a POST
that succeeds with one bad field, say a group named "-1", changes nothing the next request sees).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from http.cookies import SimpleCookie
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.http import QueryDict
from django.test import Client, override_settings
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from chat import services as chat_services
from daily import days
from tests.reliability import world as W

BAD = {
    "nul": "\x00",
    "nul-inside": "ann\x00",
    "lone-surrogate": "\ud800",
    "5000-digits": "9" * 5000,
    "negative": "-1",
    "below-bigint": str(-(2**63) - 1),
    "past-int": str(2**31),
    "past-bigint": str(2**63),
}

PASSWORD = "correct-horse-battery"
NEW_PASSWORD = "another-horse-battery-7"


def quoted(value: str) -> str:
    """A value as a client puts it in a URL or a form: UTF-8, percent-escaped (a lone surrogate as the
    three bytes "surrogatepass" gives it: UTF-8 has none)."""
    return quote(value, safe="", errors="surrogatepass")


@dataclass(frozen=True)
class Route:
    """How to fill one URL pattern: good values of its path parameters (from the world), the query
    parameters its view reads, and the fields of the form it reads from a POST."""

    args: Callable[[W.World], dict] = lambda w: {}
    owner: str = "seated"  # the role that owns the objects the good values name
    query: dict = field(default_factory=dict)  # name -> good value
    form: dict = field(default_factory=dict)  # name -> good value
    prime: Callable[[Client, W.World], None] | None = None  # done before each request (a session)
    # Extra spellings of a path parameter's bad values (a uid is base64 of the text it decodes to).
    spell: dict = field(default_factory=dict)


def game(name: str) -> Callable:
    return lambda w: {"game_id": w.games[name].pk}


def group(w: W.World) -> dict:
    return {"group_id": w.group.pk}


def season(w: W.World) -> dict:
    return {"group_id": w.group.pk, "number": w.season}


def a_tournament(w: W.World) -> dict:
    return {"group_id": w.group.pk, "number": w.tournament.number}


def reset_link(w: W.World) -> tuple[str, str]:
    ann = w.users["seated"]
    return urlsafe_base64_encode(force_bytes(ann.pk)), default_token_generator.make_token(ann)


def open_reset_link(client: Client, w: W.World) -> None:
    """Django's reset view keeps the link's token in the session and sends to .../set-password/."""
    uid, token = reset_link(w)
    assert client.get(f"/accounts/reset/{uid}/{token}/").status_code == 302


NEW_GAME = {
    "kind": "farkle",
    "seats": "2",
    "goal": "10000",
    "dice": "6",
    "computers": "0",
    "strength": "good",
    "absence_limit": "120",
    "pace": "live",
    "group": "",
    "rated": "on",
}
_SOON = (timezone.now() + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M")
NEW_TOURNAMENT = {
    "name": "Spring cup",
    "kind": "farkle",
    "goal": "3000",
    "dice": "6",
    "format": "swiss",
    "rounds": "3",
    "table_size": "2",
    "pace": "live",
    "starts_at": _SOON,
    "entries_close_at": _SOON,
    "tz": "Europe/Berlin",
}
NEW_PASSWORDS = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
BOARD = {"kind": "farkle", "period": "all", "goal": "10000"}

ROUTES: dict[str, Route] = {
    "": Route(),
    "healthz": Route(),
    # The installable app (play/pwa.py): read nothing.
    "manifest.webmanifest": Route(),
    "sw.js": Route(),
    "offline/": Route(),
    # The fair dice page: its checker reads the game's number in the browser, the server nothing.
    "fair-dice/": Route(),
    # Push messages: the settings page's script posts JSON (its body, no form field); a device's form.
    "notices/push/subscribe/": Route(),
    "notices/push/unsubscribe/": Route(),
    "notices/push/devices/<device_id>/": Route(
        lambda w: {"device_id": w.push_device},
        form={"action": "save", "turn": "on", "invitation": "on", "group": "on", "tournament": "on"},
    ),
    "i18n/setlang/": Route(form={"language": "de", "next": "/"}, query={"next": "/"}),
    "jsi18n/<language>/": Route(lambda w: {"language": "de"}),
    "accounts/signup/": Route(
        owner="anonymous",
        query={"next": "/"},
        form={"username": "newcomer", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    ),
    "accounts/profile/": Route(
        form={
            "display_name": "Ann",
            "email": "",
            "theme": "auto",
            "quick_scoring": "on",
            "hide_ratings_in_game": "on",
        }
    ),
    "accounts/login/": Route(
        owner="anonymous", query={"next": "/"}, form={"username": "ann", "password": PASSWORD, "next": "/"}
    ),
    "accounts/logout/": Route(query={"next": "/"}, form={"next": "/"}),
    "accounts/password/change/": Route(form={"old_password": PASSWORD, **NEW_PASSWORDS}),
    "accounts/password/change/done/": Route(),
    "accounts/password/reset/": Route(owner="anonymous", form={"email": "ann@example.com"}),
    "accounts/password/reset/done/": Route(owner="anonymous"),
    "accounts/reset/<uidb64>/<token>/": Route(
        lambda w: {"uidb64": reset_link(w)[0], "token": "set-password"},
        owner="anonymous",
        form=NEW_PASSWORDS,
        prime=open_reset_link,
        spell={"uidb64": lambda value: urlsafe_base64_encode(value.encode(errors="surrogatepass"))},
    ),
    "accounts/reset/done/": Route(owner="anonymous"),
    "accounts/data.json": Route(),
    "accounts/delete/": Route(form={"password": PASSWORD}),
    "games/": Route(query={"kind": "farkle", "group": "", "seats": "2"}),
    "games/new/": Route(form=NEW_GAME),
    "games/mine/": Route(),
    "games/<game_id>/": Route(game("public-farkle")),
    "games/<game_id>/join/": Route(game("open"), owner="outsider", form={"client_seed": "from-the-browser"}),
    "games/<game_id>/seed/": Route(game("open"), form={"seed": "my-own_seed"}),
    "games/<game_id>/leave/": Route(game("open")),
    "games/<game_id>/start/": Route(game("open")),
    "games/<game_id>/decline/": Route(game("open")),
    "games/<game_id>/again/": Route(game("finished"), form={"client_seed": "from-the-browser"}),
    "games/<game_id>/computers/": Route(game("public-farkle")),
    "games/<game_id>/computers/add/": Route(game("open"), form={"strength": "easy"}),
    "games/<game_id>/computers/remove/": Route(game("open"), form={"username": "computer-easy"}),
    "games/<game_id>/replay/": Route(game("finished")),
    "games/<game_id>/export.json": Route(game("finished")),
    "games/<slug>/rules/": Route(lambda w: {"slug": "farkle"}),
    "groups/": Route(owner="creator", form={"name": "Saturday dice", "description": ""}),
    "groups/<group_id>/": Route(group, owner="creator"),
    "groups/<group_id>/head-to-head/": Route(group, owner="member"),
    "groups/<group_id>/edit/": Route(group, owner="creator", form={"name": "Renamed", "description": ""}),
    "groups/<group_id>/delete/": Route(group, owner="creator"),
    "groups/<group_id>/leave/": Route(group, owner="member"),
    "groups/<group_id>/members/add/": Route(group, owner="creator", form={"username": "olga"}),
    "groups/<group_id>/members/<user_id>/remove/": Route(
        lambda w: {"group_id": w.group.pk, "user_id": w.users["member"].pk}, owner="creator"
    ),
    "groups/<group_id>/invite/": Route(group, owner="creator"),
    "groups/<group_id>/invite/revoke/": Route(group, owner="creator"),
    "groups/join/<token>/": Route(lambda w: {"token": w.group.invite_token}, owner="outsider"),
    "groups/<group_id>/seasons/new/": Route(
        group,
        owner="creator",
        form={"kind": "painted-dicez", "first_day": str(date.today()), "last_day": str(date.today())},
    ),
    "groups/<group_id>/seasons/<number>/": Route(season, owner="member"),
    "groups/<group_id>/seasons/<number>/end/": Route(season, owner="creator"),
    "groups/<group_id>/seasons/<number>/delete/": Route(
        lambda w: {"group_id": w.group.pk, "number": w.upcoming_season}, owner="creator"
    ),
    # A group's tournaments (tournaments/): the creator's form and buttons, a member's entry.
    "groups/<group_id>/tournaments/new/": Route(group, owner="creator", form=NEW_TOURNAMENT),
    "groups/<group_id>/tournaments/<number>/": Route(a_tournament, owner="creator"),
    "groups/<group_id>/tournaments/<number>/enter/": Route(a_tournament, owner="member"),
    "groups/<group_id>/tournaments/<number>/leave/": Route(a_tournament, owner="seated"),
    "groups/<group_id>/tournaments/<number>/start/": Route(a_tournament, owner="creator"),
    "groups/<group_id>/tournaments/<number>/cancel/": Route(a_tournament, owner="creator"),
    "notices/": Route(),
    "notices/settings/": Route(
        form={"email_turns": "on", "sound": "on", "browser": "on", "mute_chat": ""},
    ),
    "notices/unsubscribe/<token>/": Route(lambda w: {"token": w.unsubscribe_token}, owner="outsider"),
    "chat/groups/<group_id>/": Route(group, owner="creator", form={"text": "Who brings the dice?"}),
    "chat/groups/<group_id>/<message_id>/remove/": Route(
        lambda w: {"group_id": w.group.pk, "message_id": w.chat_message_id}, owner="creator"
    ),
    # A table's chat turned off or on for oneself; a player's chat muted or unmuted.
    "chat/games/<game_id>/": Route(game("public-farkle"), form={"action": "off"}),
    "chat/mute/<username>/": Route(lambda w: {"username": "bob"}, form={"action": "mute", "next": "/"}),
    # The profile reads "kind" only to send the statistics' old links to their page.
    "players/<username>/": Route(lambda w: {"username": "ann"}, query={"kind": "farkle"}),
    "players/<username>/stats/": Route(
        lambda w: {"username": "ann"}, query={"kind": "farkle", "goal": "10000", "opponents": "all"}
    ),
    "players/<username>/challenge/": Route(
        lambda w: {"username": "bob"}, form={"kind": "farkle:10000", "pace": "live"}
    ),
    # Following a player from the profile; the players one follows; finding a player by name.
    "players/<username>/follow/": Route(lambda w: {"username": "bob"}, form={"action": "follow"}),
    "players/following/": Route(),
    "players/search/": Route(query={"q": "an"}),
    "players/<username>/history/": Route(
        lambda w: {"username": "ann"},
        query={"kind": "farkle", "period": "all", "group": "", "page": "1"},
    ),
    # Play someone now (pairing): the form, leaving, blocking a player.
    "play/": Route(query={"kind": "farkle"}),
    "play/ask/": Route(
        form={
            "kind": "farkle",
            "goal": "3000",
            "dice": "6",
            "seats": "2",
            "pace": "live",
            "computers_after": "60",
            "client_seed": "from-the-browser",
        },
        prime=lambda client, w: client.get("/play/"),  # the page commits a server seed in the session
    ),
    "play/leave/": Route(),
    "play/block/<username>/": Route(
        lambda w: {"username": "bob"}, form={"action": "block", "next": "/play/"}
    ),
    # Reporting a player (safety): the form, and what it is about (a message or a game of theirs).
    "safety/report/<username>/": Route(
        lambda w: {"username": "bob"},
        query={"message": "", "game": "", "next": "/"},
        form={"reason": "unfair", "text": "Stalls every turn.", "message": "", "game": "", "next": "/"},
    ),
    # The moderators' pages: the reported players, and one player's reports with the decision's form.
    "safety/moderation/": Route(owner="staff"),
    # The fair-play screen, for one game (``kind``) or every game.
    "safety/screening/": Route(owner="staff", query={"kind": "farkle"}),
    "safety/moderation/<username>/": Route(
        lambda w: {"username": "bob"}, owner="staff", form={"kind": "warn", "reason": "Be kind.", "hours": ""}
    ),
    # The daily challenge: a day's page (its date in the path) and Play.
    "daily/": Route(),
    "daily/<day>/": Route(lambda w: {"day": days.today().isoformat()}),
    "daily/play/": Route(form={"kind": "triple-quintzee"}),
    "highscores/": Route(query={**BOARD, "group": ""}),
    "ratings/": Route(query={"kind": "farkle", "goal": "10000", "group": ""}),
    "api/highscores/": Route(query={**BOARD, "group": ""}),
    "api/players/<username>/stats/": Route(
        lambda w: {"username": "ann"}, query={"kind": "farkle", "goal": "10000", "opponents": "all"}
    ),
}

PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


def walked_routes() -> list[str]:
    """Every route the walk must cover: all of Django's, less the admin's own (its bad input is Django's
    to answer, and tests/reliability/test_permissions.py sends everyone else away from it), each with
    its parameters' names alone ("games/<game_id>/join/"): which converter reads them is for the walk
    to test, not to know."""
    return [PARAMETER.sub(r"<\1>", route) for route in W.routes() if not route.startswith("admin/")]


def url(route: str, args: dict, query: dict | None = None) -> str:
    path = "/" + PARAMETER.sub(lambda m: quoted(str(args[m[1]])), route)
    if query:
        path += "?" + "&".join(f"{quoted(k)}={quoted(v)}" for k, v in query.items())
    return path


def form_body(data: dict) -> bytes:
    return "&".join(f"{quoted(k)}={quoted(v)}" for k, v in data.items()).encode("ascii")


def build_world() -> W.World:
    w = W.build()
    message = chat_services.post_to_group(group_id=w.group.pk, user=w.users["creator"], text="Hello")
    w.chat_message_id = message.pk
    w.users["seated"].email = "ann@example.com"
    w.users["seated"].save(update_fields=["email"])
    return w


# --- what a view reads ---------------------------------------------------------------------------


class _Recording(QueryDict):
    """request.GET or request.POST that notes every name the view (its form, its template) asks for."""

    def __init__(self, original: QueryDict, reads: set):
        super().__init__(mutable=True, encoding=original.encoding)
        for key, values in original.lists():
            self.setlist(key, values)
        self._mutable = False
        self._reads = reads

    def __getitem__(self, key):
        self._reads.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._reads.add(key)
        return super().get(key, default)

    def getlist(self, key, default=None):
        self._reads.add(key)
        return super().getlist(key, default)

    def __contains__(self, key):
        self._reads.add(key)
        return super().__contains__(key)


class RecordReads:
    """Test-only middleware, innermost: the view sees the recording dictionaries, and the names it read
    stay on the request (``response.wsgi_request.reads``; Django imports this module under another name
    than pytest does, so nothing module-wide would be shared)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.reads = {"GET": set(), "POST": set()}
        request.GET = _Recording(request.GET, request.reads["GET"])
        request.POST = _Recording(request.POST, request.reads["POST"])
        return self.get_response(request)


# --- requests ------------------------------------------------------------------------------------


def client_for(w: W.World, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(w.users[role])
    return client


def send(client: Client, w: W.World, route: Route, method: str, target: str, data: dict):
    """One request in a savepoint rolled back afterwards, the client's cookies put back as they were
    (a sign-up or a log-out changes the session): the response, or the exception a 500 came from."""
    cookies = SimpleCookie(client.cookies.output(header="", sep="\n"))
    try:
        with transaction.atomic():
            if route.prime:
                route.prime(client, w)
            if method == "get":
                response = client.get(target)
            else:
                body = form_body(data)
                response = client.post(target, body, content_type="application/x-www-form-urlencoded")
            transaction.set_rollback(True)
    except Exception as exc:  # noqa: BLE001 - the walk reports every failure, not just the first
        return f"{type(exc).__name__}: {str(exc)[:160]}"
    finally:
        client.cookies = cookies
    return response


def bad_values(route: Route, name: str) -> list[tuple[str, str]]:
    values = list(BAD.items())
    if name in route.spell:
        values += [(f"{label} ({name})", route.spell[name](value)) for label, value in BAD.items()]
    return values


def variations(route_name: str, route: Route, w: W.World, method: str):
    """(what was changed, URL, form) for each bad value in each path parameter, query parameter and
    (by POST) form field, the others good."""
    args = route.args(w)
    form = route.form if method == "post" else {}
    for name in args:
        for label, value in bad_values(route, name):
            yield f"path {name}={label}", url(route_name, {**args, name: value}, route.query), form
    for name in route.query:
        for label, value in BAD.items():
            yield f"query {name}={label}", url(route_name, args, {**route.query, name: value}), form
    for name in form:
        for label, value in BAD.items():
            yield f"form {name}={label}", url(route_name, args, route.query), {**form, name: value}


# --- tests ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_url_pattern_is_in_the_table():
    served = set(walked_routes())
    assert not served - set(ROUTES), (
        f"URL patterns the bad-input walk cannot fill: {sorted(served - set(ROUTES))}"
    )
    assert not set(ROUTES) - served, f"rows for URL patterns that are gone: {sorted(set(ROUTES) - served)}"


@pytest.mark.django_db
@override_settings(MIDDLEWARE=[*settings.MIDDLEWARE, "tests.reliability.test_bad_input.RecordReads"])
def test_the_table_names_every_parameter_and_form_field_the_views_read():
    """Each route once with the table's good values, signed out and as its owner, by GET and by POST: a
    name the view reads that the table leaves out, or one it names that the view never reads, fails."""
    w = build_world()
    wrong = []
    for route_name, route in ROUTES.items():
        read = {"GET": set(), "POST": set()}
        for role in {"anonymous", route.owner}:
            client = client_for(w, role)
            for method in ("get", "post"):
                # The good values, and a name no view reads: a form bound only to a non-empty POST
                # (``Form(request.POST or None)``) reads its fields then too.
                target = url(route_name, route.args(w), route.query)
                response = send(client, w, route, method, target, {**route.form, "unread": "1"})
                if isinstance(response, str):
                    wrong.append(f"{method.upper()} {route_name} as {role}: {response}")
                    continue
                reads = response.wsgi_request.reads
                read["GET"] |= reads["GET"]
                read["POST"] |= reads["POST"]
                if reads["GET"] - set(route.query):
                    lacks = sorted(reads["GET"] - set(route.query))
                    wrong.append(f"{route_name} reads query parameters the table lacks: {lacks}")
                if reads["POST"] - set(route.form):
                    lacks = sorted(reads["POST"] - set(route.form))
                    wrong.append(f"{route_name}'s form has fields the table lacks: {lacks}")
        # And nothing in the table that the view no longer reads (the walk would test nothing there).
        if set(route.query) - read["GET"] or set(route.form) - read["POST"]:
            stale = sorted((set(route.query) - read["GET"]) | (set(route.form) - read["POST"]))
            wrong.append(f"{route_name}: the table names what its view does not read: {stale}")
    assert not wrong, "\n".join(sorted(set(wrong)))


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "owner"])
def test_bad_input_in_every_url_and_form_answers_4xx(signed_in, method):
    w = build_world()
    clients = {}
    failures = []
    count = 0
    for route_name, route in ROUTES.items():
        role = route.owner if signed_in else "anonymous"
        client = clients.get(role) or clients.setdefault(role, client_for(w, role))
        for what, target, form in variations(route_name, route, w, method):
            response = send(client, w, route, method, target, form)
            count += 1
            if isinstance(response, str) or response.status_code >= 500:
                got = response if isinstance(response, str) else response.status_code
                failures.append(f"{method.upper()} {route_name} {what} as {role}: {got}")
    assert count > 300
    assert not failures, f"{len(failures)} of {count} requests failed:\n" + "\n".join(failures)


NINES = "9" * 5000
EXACT = [
    # (role, method, URL, form, status): the issue's requests, and what each answers now.
    ("anonymous", "get", "/groups/join/%00/", None, 404),
    ("seated", "get", "/groups/join/%00/", None, 404),
    ("seated", "get", "/players/%00/", None, 404),
    ("seated", "get", "/players/%00/history/", None, 404),
    ("seated", "get", "/api/players/%00/stats/?kind=farkle", None, 404),
    ("seated", "get", "/players/%ED%A0%80/", None, 404),
    ("creator", "post", "/groups/{w.group.pk}/members/add/", {"username": "\x00"}, 400),
    ("creator", "post", "/groups/{w.group.pk}/members/add/", {"username": "x" * 151}, 400),
    ("seated", "post", "/games/{w.games[open].pk}/computers/remove/", {"username": "\x00"}, 400),
    ("seated", "post", "/games/{w.games[open].pk}/computers/add/", {"strength": "\x00"}, 400),
    # A number a form field does not take is a bad request; an id no row can have is no such thing.
    ("seated", "get", f"/games/?seats={NINES}", None, 400),
    ("seated", "get", "/games/?seats=7", None, 400),
    ("seated", "get", "/games/?seats=1", None, 200),
    ("seated", "get", f"/games/?group={2**63}", None, 404),
    ("seated", "get", f"/api/highscores/?kind=farkle&group={NINES}", None, 404),
    ("seated", "get", f"/highscores/?kind=farkle&group={2**63}", None, 404),
    ("seated", "get", f"/players/ann/history/?group={NINES}", None, 404),
    ("seated", "get", "/players/ann/history/?group={w.group.pk}", None, 200),
    ("seated", "get", f"/games/{2**63}/", None, 404),
    ("seated", "get", f"/games/{2**63 - 1}/", None, 404),
    ("creator", "post", f"/groups/{{w.group.pk}}/members/{2**63}/remove/", {}, 404),
    ("creator", "post", f"/chat/groups/{2**63}/1/remove/", {}, 404),
]


@pytest.mark.django_db
def test_the_issue_s_requests_answer_as_decided():
    w = build_world()
    wrong = []
    for role, method, target, form, status in EXACT:
        target = target.format(w=w)
        client = client_for(w, role)
        with transaction.atomic():
            if method == "get":
                response = client.get(target)
            else:
                body = form_body(form)
                response = client.post(target, body, content_type="application/x-www-form-urlencoded")
            transaction.set_rollback(True)
        if response.status_code != status:
            wrong.append(
                f"{method.upper()} {target[:80]} as {role}: {response.status_code}, expected {status}"
            )
        elif status == 400 and "members/add" in target:
            if "username" not in response.context["add_form"].errors:  # the group's page, with why
                wrong.append(f"{target}: the group's page without the form's error")
        elif status == 400 and "400.html" not in [t.name for t in response.templates]:
            wrong.append(f"{target}: not the 400 page")
    assert not wrong, "\n".join(wrong)


# The push endpoints read a JSON body, not a form: what they answer to the bad values inside JSON (its
# escapes carry a NUL and a lone surrogate to the server) and to JSON nested deeper than Python's parser
# recurses. (name, URL, body, status)
_POINT = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
_KEYS = f'"keys": {{"p256dh": "{_POINT}", "auth": "tBHItJI5svbpez7KI4CCXg"}}'
_FCM = "https://fcm.googleapis.com/fcm/send/"
PUSH_JSON = [
    ("endpoint with NUL", "subscribe", f'{{"endpoint": "{_FCM}a\\u0000b", {_KEYS}}}', 400),
    ("endpoint with a lone surrogate", "subscribe", f'{{"endpoint": "{_FCM}\\ud800", {_KEYS}}}', 400),
    (
        "p256dh with NUL",
        "subscribe",
        f'{{"endpoint": "{_FCM}x", "keys": {{"p256dh": "\\u0000", "auth": "x"}}}}',
        400,
    ),
    (
        "auth a lone surrogate",
        "subscribe",
        f'{{"endpoint": "{_FCM}x", "keys": {{"p256dh": "B", "auth": "\\udfff"}}}}',
        400,
    ),
    ("nested 3,000 deep", "subscribe", "[" * 3000 + "]" * 3000, 400),
    ("object nested 3,000 deep", "subscribe", '{"a":' * 3000 + "1" + "}" * 3000, 400),
    ("endpoint with NUL", "unsubscribe", '{"endpoint": "https://x.example/\\u0000"}', 400),
    ("endpoint a lone surrogate", "unsubscribe", '{"endpoint": "https://x.example/\\ud800"}', 400),
    ("nested 3,000 deep", "unsubscribe", "[" * 3000 + "]" * 3000, 400),
    ("a good one", "subscribe", f'{{"endpoint": "{_FCM}good", {_KEYS}}}', 201),
    ("its removal", "unsubscribe", f'{{"endpoint": "{_FCM}good"}}', 200),
]


@pytest.mark.django_db
def test_the_push_endpoints_answer_bad_json_400(settings):
    from notices import vapid

    pair = vapid.generate()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = pair.private, pair.public
    w = build_world()
    client = client_for(w, "seated")
    wrong = []
    for name, action, body, status in PUSH_JSON:
        response = client.post(f"/notices/push/{action}/", body, content_type="application/json")
        if response.status_code != status:
            wrong.append(f"{action} {name}: {response.status_code}, expected {status}")
        elif status == 400 and not response.json().get("error"):
            wrong.append(f"{action} {name}: a 400 that does not say what is wrong")
    assert not wrong, "\n".join(wrong)


@pytest.mark.django_db
@pytest.mark.parametrize("header", ["HTTP_USER_AGENT", "HTTP_ACCEPT", "HTTP_ACCEPT_LANGUAGE", "HTTP_REFERER"])
def test_a_nul_in_a_header_is_a_bad_request(header):
    """HTTP forbids NUL in a header's value (RFC 9110, 5.5): a failed sign-in stored its User-Agent in
    axes' AccessAttempt, which PostgreSQL refused (500)."""
    w = build_world()
    body = form_body({"username": "nobody", "password": "wrong"})
    for client in (Client(), client_for(w, "seated")):
        response = client.post(
            "/accounts/login/", body, content_type="application/x-www-form-urlencoded", **{header: "a\x00b"}
        )
        assert response.status_code == 400
        assert client.get("/", **{header: "a\x00b"}).status_code == 400
    assert client.get("/", HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64)").status_code == 200
