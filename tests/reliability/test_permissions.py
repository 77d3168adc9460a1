"""The permission matrix: every URL pattern and every websocket message, for every role, exact outcomes.

HTTP: ``CASES`` holds concrete requests; ``test_every_url_pattern_is_in_the_table`` walks Django's
resolver and fails if any pattern (admin included) is not reached by at least one case, so a new URL
cannot be added without deciding who may use it.

The admin rule, explicitly: every URL under ``admin/`` sends anonymous users and every non-staff role to
``/admin/login/?next=...``; only ``staff`` gets the page (the login page itself is shown to everyone, and
the log-out is POST only). The admin cases below reach every admin pattern with concrete URLs.

Websockets: for every role, every game of ``world.build()`` and every message type (an action of the
game's engine, a malformed action, sync, ping, an unknown type), the exact answer or the close code.
Roles and games are described in tests/reliability/world.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from urllib.parse import urlsplit

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.contrib.contenttypes.models import ContentType
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import resolve, reverse
from django.utils import timezone

from daily import days
from games.models import Action, Game
from play.routing import websocket_urlpatterns
from tests.factories import PASSWORD
from tests.reliability import world as W

ROLES = W.ROLES
MEMBERS = ("member", "creator", "seated", "waiting")
NON_MEMBERS = ("outsider", "spectator", "staff")
SEATED = ("seated", "waiting")


# --- outcomes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Go:
    """A redirect to a named URL (args computed from the world), with the message level it leaves."""

    name: str
    args: Callable | None = None
    level: str | None = "any"  # "success", "error", None (no message at all) or "any"


@dataclass(frozen=True)
class GoNew:
    """A redirect to an object the request created: /games/<new id>/ or /groups/<new id>/."""

    prefix: str


LOGIN, ADMIN_LOGIN = "login", "admin-login"


def roles(default, **override) -> dict:
    table = dict.fromkeys(ROLES, default)
    table.update(override)
    return table


def signed_in(default, **override) -> dict:
    return roles(default, anonymous=LOGIN, **override)


def staff_only(staff=200) -> dict:
    return roles(ADMIN_LOGIN, staff=staff)


def members(member, other, **override) -> dict:
    table = signed_in(other)
    table.update(dict.fromkeys(MEMBERS, member))
    table.update(override)
    return table


def game(name: str) -> Callable:
    return lambda w: [w.games[name].pk]


def group_args(w) -> list:
    return [w.group.pk]


def season_args(w) -> list:
    return [w.group.pk, w.season]


def upcoming_args(w) -> list:
    return [w.group.pk, w.upcoming_season]


def tournament(number: int) -> Callable:
    return lambda w: [w.group.pk, number]


@dataclass(frozen=True)
class Case:
    id: str
    url: Callable  # world -> path
    expected: dict
    method: str = "get"
    data: dict = field(default_factory=dict)


def url(name: str, args: Callable | None = None) -> Callable:
    return lambda w: reverse(name, args=args(w) if args else None)


def path(template: str) -> Callable:
    return lambda w: template.format(w=w)


def user_pk(role: str) -> Callable:
    return lambda w: w.users[role].pk


DETAIL_OPEN = Go("games:detail", game("open"), "error")
GROUP_DETAIL_ERR = Go("groups:detail", group_args, "error")

GET_CASES = [
    Case("home", url("home"), roles(200)),
    Case("healthz", url("healthz"), roles(200)),
    # The installable app (play/pwa.py): the same for everyone.
    Case("manifest", url("manifest"), roles(200)),
    Case("service-worker", url("service-worker"), roles(200)),
    Case("offline", url("offline"), roles(200)),
    # The fair dice page explains and checks in the browser: the same for everyone.
    Case("fair-dice", url("fair-dice"), roles(200)),
    # The pages' JavaScript catalogue (play.i18n) and the language switch (POST only).
    Case("jsi18n", url("javascript-catalog", lambda w: ["de"]), roles(200)),
    Case("jsi18n-unknown", path("/jsi18n/xx/"), roles(404)),
    Case("set-language-get", url("set_language"), roles(405)),
    Case("signup", url("accounts:signup"), roles(Go("home", level=None), anonymous=200)),
    Case("profile", url("accounts:profile"), signed_in(200)),
    Case("login", url("accounts:login"), roles(200)),
    # One's own data and account (play/account_views.py): no URL names another account.
    Case("account-data", url("account_data"), signed_in(200)),
    Case("account-delete-page", url("account_delete"), signed_in(200)),
    Case("logout-get", url("accounts:logout"), roles(405)),
    Case("password-change", url("accounts:password_change"), signed_in(200)),
    Case("password-change-done", url("accounts:password_change_done"), signed_in(200)),
    Case("password-reset", url("accounts:password_reset"), roles(200)),
    Case("password-reset-done", url("accounts:password_reset_done"), roles(200)),
    Case("password-reset-bad-link", path("/accounts/reset/MQ/not-a-token/"), roles(200)),
    Case("password-reset-complete", url("accounts:password_reset_complete"), roles(200)),
    Case("lobby", url("games:lobby"), signed_in(200)),
    Case("new-get", url("games:new"), signed_in(405)),
    Case("mine", url("games:mine"), signed_in(200)),
    # A game's page is its invitation link: signed out, the invitation (who invites you to what).
    Case("detail-public", url("games:detail", game("public-farkle")), roles(200)),
    # A private group's game is no game to those who may not see it (games.access): signed
    # out, the sign-in, as for a missing game; signed in, 404. Staff are no exception.
    Case("detail-group", url("games:detail", game("group")), members(200, 404)),
    Case("detail-group-open", url("games:detail", game("group-open")), members(200, 404)),
    Case("detail-open", url("games:detail", game("open")), roles(200)),
    # Signed out, a finished public game's link is its replay, a public page.
    Case(
        "detail-finished",
        url("games:detail", game("finished")),
        roles(200, anonymous=Go("games:replay", game("finished"), None)),
    ),
    Case("detail-missing", path("/games/999999/"), signed_in(404)),
    Case("join-get", url("games:join", game("open")), signed_in(405)),
    Case("leave-get", url("games:leave", game("open")), signed_in(405)),
    Case("start-get", url("games:start", game("open")), signed_in(405)),
    Case("decline-get", url("games:decline", game("open")), signed_in(405)),
    Case("again-get", url("games:again", game("finished")), signed_in(405)),
    # Whether a game's computer players wait for the worker: whoever may watch the game.
    Case("computers-public", url("games:computers", game("public-farkle")), signed_in(200)),
    Case("computers-group", url("games:computers", game("group")), members(200, 404)),
    Case("computers-missing", path("/games/999999/computers/"), signed_in(404)),
    Case("add-computer-get", url("games:add_computer", game("open")), signed_in(405)),
    Case("remove-computer-get", url("games:remove_computer", game("open")), signed_in(405)),
    # A finished public game's replay and export are public pages; a private game is missing to a
    # visitor as to an outsider; a public game still played asks the visitor to sign in.
    Case("replay-finished", url("games:replay", game("finished")), roles(200)),
    Case("replay-playing", url("games:replay", game("public-farkle")), signed_in(409)),
    Case("replay-group", url("games:replay", game("group")), members(409, 404, anonymous=404)),
    Case("replay-missing", path("/games/999999/replay/"), roles(404)),
    # The JSON export: whoever may watch the game (the server seed is in it once the game is over).
    Case("export-finished", url("games:export", game("finished")), roles(200)),
    Case("export-playing", url("games:export", game("public-farkle")), signed_in(200)),
    Case("export-group", url("games:export", game("group")), members(200, 404, anonymous=404)),
    Case("export-missing", path("/games/999999/export.json"), roles(404)),
    Case("client-seed-get", url("games:client_seed", game("open")), signed_in(405)),
    Case("rules", url("games:rules", lambda w: ["triple-quintzee"]), roles(200)),
    Case("rules-unknown", path("/games/chess/rules/"), roles(404)),
    Case("groups", url("groups:list"), signed_in(200)),
    # Outsiders (staff too) learn nothing of a private group, not even its name: 404.
    Case("group-detail", url("groups:detail", group_args), members(200, 404)),
    Case("group-head-to-head", url("groups:head_to_head", group_args), members(200, 404)),
    Case("group-missing", path("/groups/999999/"), signed_in(404)),
    Case("group-edit", url("groups:edit", group_args), members(403, 404, creator=200)),
    Case("group-invite-create-get", url("groups:invite_create", group_args), signed_in(405)),
    Case("group-invite-revoke-get", url("groups:invite_revoke", group_args), signed_in(405)),
    # The group's invitation link: its name and creator for everyone, a Join button once signed in.
    Case("group-invite", url("groups:invite", lambda w: [w.group.invite_token]), roles(200)),
    Case("group-invite-revoked", path("/groups/join/no-such-token/"), roles(404)),
    Case("group-delete-get", url("groups:delete", group_args), signed_in(405)),
    Case("group-leave-get", url("groups:leave", group_args), signed_in(405)),
    Case("member-add-get", url("groups:member_add", group_args), signed_in(405)),
    Case(
        "member-remove-get",
        url("groups:member_remove", lambda w: [w.group.pk, w.users["member"].pk]),
        signed_in(405),
    ),
    # A group's seasons (seasons): its members see them, its creator manages them; outsiders learn nothing.
    Case("season-new", url("seasons:new", group_args), members(403, 404, creator=200)),
    Case("season-detail", url("seasons:detail", season_args), members(200, 404)),
    Case("season-upcoming", url("seasons:detail", upcoming_args), members(200, 404)),
    Case("season-missing", path("/groups/{w.group.pk}/seasons/999999/"), members(404, 404)),
    Case("season-end-get", url("seasons:end", season_args), signed_in(405)),
    Case("season-delete-get", url("seasons:delete", season_args), signed_in(405)),
    # A group's tournaments: its members see them, its creator announces and manages them.
    Case("tournament-new", url("tournaments:new", group_args), members(403, 404, creator=200)),
    Case("tournament-detail", url("tournaments:detail", tournament(1)), members(200, 404)),
    Case("tournament-missing", url("tournaments:detail", tournament(999999)), signed_in(404)),
    Case("tournament-enter-get", url("tournaments:enter", tournament(1)), signed_in(405)),
    Case("tournament-leave-get", url("tournaments:leave", tournament(1)), signed_in(405)),
    Case("tournament-start-get", url("tournaments:start", tournament(1)), signed_in(405)),
    Case("tournament-cancel-get", url("tournaments:cancel", tournament(1)), signed_in(405)),
    # A player's profile, statistics and history, the rating and high-score lists: public pages, a
    # visitor's too; the games and reviews on them are the reader's to see (games.access).
    Case("player-profile", url("players:profile", lambda w: ["ann"]), roles(200)),
    Case("player-profile-unknown", path("/players/nobody-here/"), roles(404)),
    Case("challenge-get", url("players:challenge", lambda w: ["bob"]), signed_in(405)),
    # Following (friends): one's own list and the search for anyone signed in; following is POST only.
    Case("follow-get", url("players:follow", lambda w: ["bob"]), signed_in(405)),
    Case("following", url("players:following"), signed_in(200)),
    Case("player-search", url("players:search"), signed_in(200)),
    Case("stats", url("players:stats", lambda w: ["ann"]), roles(200)),
    Case("stats-unknown", path("/players/nobody-here/stats/"), roles(404)),
    Case("history", url("players:history", lambda w: ["ann"]), roles(200)),
    Case("highscores", url("highscores"), roles(200)),
    # The rating lists (ratings): global, and a group's only for its members.
    Case("ratings", url("ratings"), roles(200)),
    Case("ratings-group", path("/ratings/?kind=farkle&group={w.group.pk}"), members(200, 404, anonymous=404)),
    Case("api-highscores", url("api_highscores"), signed_in(200)),
    Case("api-stats", url("api_player_stats", lambda w: ["ann"]), signed_in(200)),
    # The admin: staff only (see the module docstring for the rule).
    Case("admin-index", url("admin:index"), staff_only()),
    Case("admin-login", url("admin:login"), roles(200, staff=Go("admin:index", level=None))),
    Case("admin-logout-get", url("admin:logout"), roles(Go("admin:index", level=None), staff=405)),
    Case("admin-password-change", url("admin:password_change"), staff_only()),
    Case("admin-password-change-done", url("admin:password_change_done"), staff_only()),
    Case("admin-autocomplete", url("admin:autocomplete"), staff_only(403)),
    Case("admin-jsi18n", url("admin:jsi18n"), staff_only()),
    Case(
        "admin-view-on-site",
        url(
            "admin:view_on_site",
            lambda w: [ContentType.objects.get_for_model(w.users["seated"]).pk, w.users["seated"].pk],
        ),
        staff_only(404),
    ),
    Case("admin-app", url("admin:app_list", lambda w: ["accounts"]), staff_only()),
    Case("admin-auth-groups", url("admin:auth_group_changelist"), staff_only()),
    Case("admin-auth-group-add", url("admin:auth_group_add"), staff_only()),
    Case(
        "admin-auth-group-change", url("admin:auth_group_change", lambda w: [w.auth_group.pk]), staff_only()
    ),
    Case(
        "admin-auth-group-history", url("admin:auth_group_history", lambda w: [w.auth_group.pk]), staff_only()
    ),
    Case(
        "admin-auth-group-delete", url("admin:auth_group_delete", lambda w: [w.auth_group.pk]), staff_only()
    ),
    Case(
        "admin-auth-group-bare",
        path("/admin/auth/group/{w.auth_group.pk}/"),
        staff_only(Go("admin:auth_group_change", lambda w: [w.auth_group.pk], None)),
    ),
    Case("admin-users", url("admin:accounts_user_changelist"), staff_only()),
    Case("admin-user-add", url("admin:accounts_user_add"), staff_only()),
    Case(
        "admin-user-change", url("admin:accounts_user_change", lambda w: [w.users["seated"].pk]), staff_only()
    ),
    Case(
        "admin-user-history",
        url("admin:accounts_user_history", lambda w: [w.users["seated"].pk]),
        staff_only(),
    ),
    Case(
        "admin-user-delete", url("admin:accounts_user_delete", lambda w: [w.users["seated"].pk]), staff_only()
    ),
    Case(
        "admin-user-password",
        url("admin:auth_user_password_change", lambda w: [w.users["seated"].pk]),
        staff_only(),
    ),
    Case(
        "admin-user-bare",
        path("/admin/accounts/user/{w.users[seated].pk}/"),
        staff_only(Go("admin:accounts_user_change", lambda w: [w.users["seated"].pk], None)),
    ),
    Case("admin-unknown", path("/admin/no/such/page/"), staff_only(404)),
    # The worker's task results (django-tasks' database backend): staff may read them, never edit.
    Case("admin-tasks", url("admin:django_tasks_database_dbtaskresult_changelist"), staff_only()),
    Case("admin-task-add", url("admin:django_tasks_database_dbtaskresult_add"), staff_only(403)),
    Case(
        "admin-task",
        url("admin:django_tasks_database_dbtaskresult_change", lambda w: [w.task_id]),
        staff_only(),
    ),
    Case(
        "admin-task-history",
        url("admin:django_tasks_database_dbtaskresult_history", lambda w: [w.task_id]),
        staff_only(),
    ),
    Case(
        "admin-task-delete",
        url("admin:django_tasks_database_dbtaskresult_delete", lambda w: [w.task_id]),
        staff_only(403),
    ),
    Case(
        "admin-task-bare",
        path("/admin/django_tasks_database/dbtaskresult/{w.task_id}/"),
        staff_only(Go("admin:django_tasks_database_dbtaskresult_change", lambda w: [w.task_id], None)),
    ),
    # Chat: a group's messages are posted and removed with POST only.
    Case("group-chat-get", url("chat:group_post", group_args), signed_in(405)),
    Case("group-chat-remove-get", url("chat:group_remove", lambda w: [w.group.pk, 1]), signed_in(405)),
    Case("table-chat-get", url("chat:table_chat", game("public-farkle")), signed_in(405)),
    Case("mute-get", url("chat:mute", lambda w: ["bob"]), signed_in(405)),
    # Notifications: one's own settings; the e-mails' unsubscribe link works with its token alone.
    Case("notices", url("notices:list"), signed_in(200)),
    Case("notice-settings", url("notices:settings"), signed_in(200)),
    Case("unsubscribe-bad-token", url("notices:unsubscribe", lambda w: ["not-a-token"]), roles(400)),
    Case("unsubscribe", url("notices:unsubscribe", lambda w: [w.unsubscribe_token]), roles(200)),
    # Play someone now (pairing): the page for everyone signed in; asking, leaving and blocking POST.
    Case("play-now", url("pairing:now"), signed_in(200)),
    Case("play-ask-get", url("pairing:ask"), signed_in(405)),
    Case("play-leave-get", url("pairing:leave"), signed_in(405)),
    Case("play-block-get", url("pairing:block", lambda w: ["bob"]), signed_in(405)),
    # Reporting a player (safety): the form for everyone signed in (bob cannot report himself: the
    # form says so when sent).
    Case("report-form", url("safety:report", lambda w: ["bob"]), signed_in(200)),
    # The moderators' pages: the staff alone; a player is refused, a visitor sent to sign in.
    Case("moderation", url("safety:moderation"), signed_in(403, staff=200)),
    Case("moderation-player", url("safety:moderation_player", lambda w: ["bob"]), signed_in(403, staff=200)),
    Case("screening", url("safety:screening"), signed_in(403, staff=200)),
    # The daily challenge (daily): today's page and an earlier day's for everyone signed in; a day to
    # come, or one nobody asked for, is no page; Play is POST only.
    Case("daily", url("daily:today"), signed_in(200)),
    Case("daily-today-by-date", lambda w: reverse("daily:day", args=[days.today()]), signed_in(200)),
    Case("daily-to-come", path("/daily/2999-01-01/"), signed_in(404)),
    Case("daily-without-challenge", path("/daily/2001-01-01/"), signed_in(404)),
    Case("daily-play-get", url("daily:play"), signed_in(405)),
    # Push messages: the settings page's script and forms POST (tests/push/test_push_views.py).
    Case("push-subscribe-get", url("notices:push_subscribe"), signed_in(405)),
    Case("push-unsubscribe-get", url("notices:push_unsubscribe"), signed_in(405)),
    Case("push-device-get", url("notices:push_device", lambda w: [1]), signed_in(405)),
]

NEW_GAME = {"kind": "farkle", "seats": "2", "goal": "10000", "dice": "6", "absence_limit": "120", "group": ""}
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


def _days_from_today(first: int, last: int) -> dict:
    today = date.today()
    return {
        "first_day": (today + timedelta(days=first)).isoformat(),
        "last_day": (today + timedelta(days=last)).isoformat(),
    }


NEW_SEASON = {"kind": "painted-dicez", **_days_from_today(1, 7)}

POST_CASES = [
    Case("new", url("games:new"), signed_in(GoNew("/games/")), "post", NEW_GAME),
    Case(
        "set-language",
        url("set_language"),
        roles(Go("home", level=None)),
        "post",
        {"language": "en", "next": "/"},
    ),
    Case(
        "join-open",
        url("games:join", game("open")),
        signed_in(Go("games:detail", game("open"), "success")),
        "post",
    ),
    Case(
        "join-playing",
        url("games:join", game("public-farkle")),
        signed_in(
            Go("games:detail", game("public-farkle"), "error"),
            seated=Go("games:detail", game("public-farkle"), "success"),
            waiting=Go("games:detail", game("public-farkle"), "success"),
        ),
        "post",
    ),
    Case(
        "join-group-open",
        url("games:join", game("group-open")),
        members(Go("games:detail", game("group-open"), "success"), 404),
        "post",
    ),
    Case(
        "leave-open",
        url("games:leave", game("open")),
        signed_in(DETAIL_OPEN, seated=Go("games:lobby", level="success")),
        "post",
    ),
    # A player's own client seed for the dice, before the start (docs/fair-dice.md).
    Case(
        "client-seed-open",
        url("games:client_seed", game("open")),
        signed_in(DETAIL_OPEN, seated=Go("games:detail", game("open"), "success")),
        "post",
        {"seed": "my-own_seed"},
    ),
    # Only the challenged player declines a challenge; nobody's table is declined by another.
    Case("decline-open", url("games:decline", game("open")), signed_in(DETAIL_OPEN), "post"),
    Case(
        "start-open",
        url("games:start", game("open")),
        signed_in(DETAIL_OPEN, seated=Go("games:detail", game("open"), None)),
        "post",
    ),
    # Only the table's creator seats computers, before the start.
    Case(
        "add-computer-open",
        url("games:add_computer", game("open")),
        signed_in(DETAIL_OPEN, seated=Go("games:detail", game("open"), None)),
        "post",
        {"strength": "easy"},
    ),
    Case(
        "add-computer-playing",
        url("games:add_computer", game("public-farkle")),
        signed_in(Go("games:detail", game("public-farkle"), "error")),
        "post",
        {"strength": "easy"},
    ),
    Case(
        "remove-computer-person",
        url("games:remove_computer", game("open")),
        signed_in(DETAIL_OPEN),
        "post",
        {"username": "ann"},
    ),
    Case(
        "again-finished",
        url("games:again", game("finished")),
        signed_in(
            Go("games:detail", game("finished"), "error"), seated=GoNew("/games/"), waiting=GoNew("/games/")
        ),
        "post",
    ),
    Case(
        "again-playing",
        url("games:again", game("public-farkle")),
        signed_in(Go("games:detail", game("public-farkle"), "error")),
        "post",
    ),
    # Anyone signed in may ask for a game and leave the queue; a block is one's own (bob may not block
    # himself: an error, back to the page).
    Case(
        "play-ask",
        url("pairing:ask"),
        signed_in(Go("pairing:now", level=None)),
        "post",
        {"kind": "farkle", "goal": "3000", "dice": "6", "seats": "2", "pace": "live", "computers_after": ""},
    ),
    Case("play-leave", url("pairing:leave"), signed_in(Go("pairing:now", level="success")), "post"),
    Case(
        "play-block",
        url("pairing:block", lambda w: ["bob"]),
        signed_in(Go("pairing:now", level="success"), waiting=Go("pairing:now", level="error")),
        "post",
        {"action": "block"},
    ),
    # Following a player from their profile: anyone signed in; bob cannot follow himself (400).
    Case(
        "follow",
        url("players:follow", lambda w: ["bob"]),
        signed_in(Go("players:profile", lambda w: ["bob"], "success"), waiting=400),
        "post",
        {"action": "follow"},
    ),
    Case(
        "report",
        url("safety:report", lambda w: ["bob"]),
        signed_in(Go("players:profile", lambda w: ["bob"], "success"), waiting=400),
        "post",
        {"reason": "name", "text": "A rude name."},
    ),
    Case(
        "moderation-decide",
        url("safety:moderation_player", lambda w: ["bob"]),
        signed_in(403, staff=Go("safety:moderation_player", lambda w: ["bob"], "success")),
        "post",
        {"kind": "warn", "reason": "Be kind at the table."},
    ),
    # A table's chat off for oneself (anyone who may watch the table); a mute is one's own (bob may not
    # mute himself: an error, back to the profile).
    Case(
        "table-chat-off",
        url("chat:table_chat", game("public-farkle")),
        signed_in(Go("games:detail", game("public-farkle"), None)),
        "post",
        {"action": "off"},
    ),
    Case(
        "mute",
        url("chat:mute", lambda w: ["bob"]),
        signed_in(
            Go("players:profile", lambda w: ["bob"], "success"),
            waiting=Go("players:profile", lambda w: ["bob"], "error"),
        ),
        "post",
        {"action": "mute"},
    ),
    # A challenge from a profile: a new table for the challenger; bob cannot challenge himself.
    Case(
        "challenge",
        url("players:challenge", lambda w: ["bob"]),
        signed_in(GoNew("/games/"), waiting=Go("players:profile", lambda w: ["bob"], "error")),
        "post",
        {"kind": "farkle:10000", "pace": "live"},
    ),
    Case(
        "group-create",
        url("groups:list"),
        signed_in(GoNew("/groups/")),
        "post",
        {"name": "New", "description": ""},
    ),
    Case(
        "group-edit-post",
        url("groups:edit", group_args),
        members(403, 404, creator=Go("groups:detail", group_args, "success")),
        "post",
        {"name": "Renamed", "description": ""},
    ),
    Case(
        "group-delete",
        url("groups:delete", group_args),
        members(403, 404, creator=Go("groups:list", level="success")),
        "post",
    ),
    Case(
        "group-leave",
        url("groups:leave", group_args),
        # An outsider gets the missing group's 404, not a redirect that tells the group exists.
        members(Go("groups:list", level="success"), 404, creator=GROUP_DETAIL_ERR),
        "post",
    ),
    Case(
        "group-invite-create",
        url("groups:invite_create", group_args),
        members(403, 404, creator=Go("groups:detail", group_args, "success")),
        "post",
    ),
    Case(
        "group-invite-revoke",
        url("groups:invite_revoke", group_args),
        members(403, 404, creator=Go("groups:detail", group_args, "success")),
        "post",
    ),
    Case(
        "group-invite-join",
        url("groups:invite", lambda w: [w.group.invite_token]),
        roles(Go("groups:detail", group_args, "success"), anonymous=200),
        "post",
    ),
    Case(
        "member-add",
        url("groups:member_add", group_args),
        members(403, 404, creator=Go("groups:detail", group_args, "success")),
        "post",
        {"username": "olga"},
    ),
    Case(
        "member-remove",
        url("groups:member_remove", lambda w: [w.group.pk, w.users["member"].pk]),
        members(403, 404, creator=Go("groups:detail", group_args, "success")),
        "post",
    ),
    # Seasons: the creator opens one (the group's third), ends the running one, deletes the upcoming one;
    # a running one is not deleted (its page, with why).
    Case(
        "season-open",
        url("seasons:new", group_args),
        members(403, 404, creator=Go("seasons:detail", lambda w: [w.group.pk, 3], "success")),
        "post",
        NEW_SEASON,
    ),
    Case(
        "season-end",
        url("seasons:end", season_args),
        members(403, 404, creator=Go("seasons:detail", season_args, "success")),
        "post",
    ),
    Case(
        "season-delete",
        url("seasons:delete", upcoming_args),
        members(403, 404, creator=Go("groups:detail", group_args, "success")),
        "post",
    ),
    Case(
        "season-delete-running",
        url("seasons:delete", season_args),
        members(403, 404, creator=Go("seasons:detail", season_args, "error")),
        "post",
    ),
    # Today's game of a kind in the daily challenge: a new game for anyone signed in.
    Case("daily-play", url("daily:play"), signed_in(GoNew("/games/")), "post", {"kind": "triple-quintzee"}),
    Case(
        "tournament-new-post",
        url("tournaments:new", group_args),
        members(403, 404, creator=Go("tournaments:detail", tournament(2), "success")),
        "post",
        NEW_TOURNAMENT,
    ),
    Case(
        "tournament-enter",
        url("tournaments:enter", tournament(1)),
        members(Go("tournaments:detail", tournament(1), "success"), 404),
        "post",
    ),
    Case(
        "tournament-leave",
        url("tournaments:leave", tournament(1)),
        members(
            Go("tournaments:detail", tournament(1), "error"),
            404,
            seated=Go("tournaments:detail", tournament(1), "success"),
            waiting=Go("tournaments:detail", tournament(1), "success"),
        ),
        "post",
    ),
    Case(
        "tournament-start",
        url("tournaments:start", tournament(1)),
        members(403, 404, creator=Go("tournaments:detail", tournament(1), "success")),
        "post",
    ),
    Case(
        "tournament-cancel",
        url("tournaments:cancel", tournament(1)),
        members(403, 404, creator=Go("tournaments:detail", tournament(1), "success")),
        "post",
    ),
    Case("logout", url("accounts:logout"), roles(Go("home", level=None)), "post"),
    Case("account-data-post", url("account_data"), signed_in(405), "post"),
    Case(
        "account-delete-wrong-password", url("account_delete"), signed_in(400), "post", {"password": "nope"}
    ),
    Case(
        "account-delete",
        url("account_delete"),
        signed_in(Go("home", level="success")),
        "post",
        {"password": PASSWORD},
    ),
    Case(
        "admin-logout",
        url("admin:logout"),
        roles(Go("admin:index", level=None), staff=Go("home", level=None)),
        "post",
    ),
]


def client_for(w: W.World, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(w.users[role])
    return client


def outcome_error(response, expected, w: W.World, path: str) -> str | None:
    """None if the response is the expected outcome, else a sentence saying what differs."""
    got = response.status_code
    location = response.get("Location", "")
    if isinstance(expected, int):
        return None if got == expected else f"status {got} (Location {location!r}), expected {expected}"
    if got != 302:
        return f"status {got}, expected a redirect ({expected})"
    if expected in (LOGIN, ADMIN_LOGIN):
        login_url = reverse("accounts:login") if expected == LOGIN else reverse("admin:login")
        want = redirect_to_login(path, login_url)["Location"]
        return None if location == want else f"redirect to {location!r}, expected {want!r}"
    if isinstance(expected, GoNew):
        target = urlsplit(location).path
        match = re.fullmatch(re.escape(expected.prefix) + r"(\d+)/", target)
        known = {g.pk for g in w.games.values()} if expected.prefix == "/games/" else {w.group.pk}
        if not match or int(match[1]) in known:
            return f"redirect to {location!r}, expected a new object under {expected.prefix}"
        return None
    want = reverse(expected.name, args=expected.args(w) if expected.args else None)
    if location != want:
        return f"redirect to {location!r}, expected {want!r}"
    levels = sorted({m.level_tag for m in get_messages(response.wsgi_request)})
    if expected.level == "any":
        return None
    if expected.level is None:
        return None if not levels else f"messages {levels}, expected none"
    return None if levels == [expected.level] else f"messages {levels}, expected {expected.level}"


ALL_CASES = GET_CASES + POST_CASES


def test_cases_have_unique_ids_and_every_role():
    ids = [c.id for c in ALL_CASES]
    assert len(ids) == len(set(ids))
    for case in ALL_CASES:
        assert set(case.expected) == set(ROLES), case.id


@pytest.mark.django_db
def test_every_url_pattern_is_in_the_table():
    """Every pattern Django serves is reached by at least one case: new URLs must be added to the table."""
    w = W.build()
    reached = set()
    for case in ALL_CASES:
        reached.add(resolve(urlsplit(case.url(w)).path).route)
    missing = sorted(set(W.routes()) - reached)
    assert not missing, f"URL patterns with no row in the permission table: {missing}"


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_get_matrix(role):
    """Every GET case for one role (GETs change nothing, so they share one world)."""
    w = W.build()
    client = client_for(w, role)
    wrong = []
    for case in GET_CASES:
        target = case.url(w)
        response = client.get(target)
        problem = outcome_error(response, case.expected[role], w, target)
        if problem:
            wrong.append(f"{case.id} {target}: {problem}")
    assert not wrong, f"{role}:\n" + "\n".join(wrong)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", POST_CASES, ids=lambda c: c.id)
def test_post_matrix(case, role):
    """Every state-changing request, for every role, each on a fresh world."""
    w = W.build()
    target = case.url(w)
    response = client_for(w, role).post(target, case.data)
    problem = outcome_error(response, case.expected[role], w, target)
    assert problem is None, f"{case.id} as {role}: {problem}"


@pytest.mark.django_db
def test_state_changing_requests_need_the_csrf_token():
    w = W.build()
    client = Client(enforce_csrf_checks=True)
    client.force_login(w.users["seated"])
    for target in (
        reverse("games:join", args=[w.games["open"].pk]),
        reverse("games:new"),
        reverse("groups:delete", args=[w.group.pk]),
        reverse("accounts:logout"),
    ):
        assert client.post(target, NEW_GAME).status_code == 403, target
    assert Game.objects.filter(pk=w.games["open"].pk, status="open").exists()


# --- websockets ----------------------------------------------------------------------------------

ws_app = URLRouter(websocket_urlpatterns)

# Message types sent on every game; "action" is the first legal action of the game's engine.
MESSAGES = ("ping", "sync", "unknown", "action-without-id", "action")
PLAYING = ("public-farkle", "public-triple-quintzee", "public-triple-yahtzee-99", "public-painted-dicez")
GROUP_GAMES = ("group", "group-open")
ALL_GAMES = (*PLAYING, "group", "group-open", "open", "finished")
SEATS = {"seated": set(ALL_GAMES), "waiting": {*PLAYING, "group", "finished"}}


def ws_expected(role: str, game_name: str, message: str) -> str:
    """The answer a role gets: a close code at the handshake, else the reply's type or error code."""
    if role == "anonymous":
        return "close 4401"
    if game_name in GROUP_GAMES and role in NON_MEMBERS:
        return "close 4404"  # as for a missing game, staff included
    answers = {
        "ping": "pong",
        "sync": "snapshot",
        "unknown": "unknown_type",
        "action-without-id": "bad_request",
    }
    if message in answers:
        return answers[message]
    if game_name not in SEATS.get(role, ()):
        return "spectator"
    if game_name in ("open", "group-open", "finished"):
        return "not_playing"
    return "ack" if role == "seated" else "illegal_action"


def _frame(message: str, kind: str, n: int) -> dict:
    action = W.FIRST_ACTION[kind]
    return {
        "ping": {"type": "ping"},
        "sync": {"type": "sync", "seq": 0},
        "unknown": {"type": "teleport"},
        "action-without-id": {"type": "action", "action": action},
        "action": {"type": "action", "id": f"matrix-{n}", "action": action},
    }[message]


async def _ws_outcomes(w: W.World, role: str) -> dict:
    results = {}
    user = w.users.get(role) or AnonymousUser()
    for n, name in enumerate(ALL_GAMES):
        g = w.games[name]
        comm = WebsocketCommunicator(ws_app, f"/ws/games/{g.pk}/")
        comm.scope["user"] = user
        connected, code = await comm.connect()
        if not connected:
            for message in MESSAGES:
                results[name, message] = f"close {code}"
            continue
        first = json.loads(await comm.receive_from(timeout=5))
        assert first["type"] == "snapshot"
        for message in MESSAGES:
            await comm.send_json_to(_frame(message, g.kind, n))
            while True:
                reply = json.loads(await comm.receive_from(timeout=5))
                if reply["type"] not in ("presence", "event"):
                    break
            results[name, message] = reply["code"] if reply["type"] == "error" else reply["type"]
            if message == "action" and reply["type"] == "error":
                assert reply["id"] == f"matrix-{n}" and reply["message"], reply
        await comm.disconnect()
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ROLES)
async def test_websocket_matrix(role):
    w = await database_sync_to_async(W.build)()
    before = await database_sync_to_async(lambda: {g.pk: g.seq for g in Game.objects.all()})()
    got = await _ws_outcomes(w, role)
    expected = {(name, m): ws_expected(role, name, m) for name in ALL_GAMES for m in MESSAGES}
    wrong = [
        f"{key}: got {got[key]!r}, expected {want!r}" for key, want in expected.items() if got[key] != want
    ]
    assert not wrong, f"{role}:\n" + "\n".join(wrong)
    # Only the player to move changed anything: one action in each playing game they are seated in.
    after = await database_sync_to_async(lambda: {g.pk: g.seq for g in Game.objects.all()})()
    changed = {pk for pk in after if after[pk] != before[pk]}
    if role == "seated":
        assert changed == {w.games[name].pk for name in (*PLAYING, "group")}
        assert (
            await database_sync_to_async(Action.objects.filter(client_id__startswith="matrix-").count)() == 5
        )
    else:
        assert not changed


@pytest.mark.django_db(transaction=True)
async def test_a_member_removed_while_the_layer_was_down_is_cut_off_at_the_next_sync():
    """The access_revoked broadcast can be lost (Redis down); sync checks access again."""
    from groups.models import Membership

    w = await database_sync_to_async(W.build)()
    member = w.users["member"]
    comm = WebsocketCommunicator(ws_app, f"/ws/games/{w.games['group'].pk}/")
    comm.scope["user"] = member
    assert (await comm.connect())[0]
    assert json.loads(await comm.receive_from(timeout=5))["type"] == "snapshot"
    # Removed without any broadcast, as when the channel layer is down.
    await database_sync_to_async(Membership.objects.filter(group=w.group, user=member).delete)()
    await comm.send_json_to({"type": "sync", "seq": 0})
    seen = []
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 4403
            break
        seen.append(json.loads(output["text"]))
    assert [m["code"] for m in seen if m["type"] == "error"] == ["forbidden"]
    assert not any(m["type"] == "snapshot" for m in seen)
    await comm.disconnect()
