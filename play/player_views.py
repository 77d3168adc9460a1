"""Pages and JSON about players and results: the profile (and its challenge and follow), statistics,
history, high scores, ratings, replays."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from chat import selectors as chat_selectors
from coach import selectors as coach_selectors
from friends import selectors as friend_selectors
from friends import services as friend_services
from games import catalogue
from games.access import can_watch
from games.catalogue import GameKind
from games.errors import BadRequest, Forbidden, GameError, NotFound
from games.models import Game
from games.results import export, replays
from games.results.highscores import PERIODS, high_scores, shown_board
from games.results.history import finished_games, recent_games
from games.results.stats import OPPONENTS, player_stats
from games.rules.figures import Figure, Table
from groups import selectors as group_selectors
from groups.models import Group
from infra.params import query_id
from pairing.services import is_blocked
from play.challenge import challenge_create
from play.forms import ChallengeForm
from ratings import kinds as rating_kinds
from ratings import selectors as rating_selectors


def _kind(request: HttpRequest) -> GameKind:
    kind = catalogue.kind(request.GET.get("kind") or catalogue.kinds()[0].slug)
    if kind is None:
        raise Http404("No such game.")
    return kind


def _variant(request: HttpRequest, kind: GameKind) -> int | None:
    """The value of the kind's separating option (Farkle's goal) asked for, or its default."""
    option = kind.separating
    try:
        return kind.variant(request.GET.get(option.name) if option else None)
    except ValueError:
        raise Http404(f"No such {option.name}.") from None


def _opponents(request: HttpRequest) -> str:
    """Which games the statistics count: all, among people only, or with computer players."""
    opponents = request.GET.get("opponents") or "all"
    if opponents not in OPPONENTS:
        raise Http404("No such choice of opponents.")
    return opponents


def _player(username: str):
    return get_object_or_404(get_user_model(), username=username)


def _shown(kind: GameKind, stats: dict) -> tuple[list[Figure], list[Table]]:
    """The kind's own figures and tables as its engine labels them (none before a finished game)."""
    section = kind.figures.section
    if section not in stats:
        return [], []
    return kind.figures.shown(stats[section]), kind.figures.tables(stats[section])


_COLUMN = re.compile(r"Column (\d+)")


def _said(label: str) -> str:
    """An engine's label in the reader's language ("Column 2" is built, so it is said here)."""
    column = _COLUMN.fullmatch(label)
    return gettext("Column %(column)s") % {"column": column[1]} if column else gettext(label)


def _translated(figures: list[Figure], tables: list[Table]) -> tuple[list[Figure], list[Table]]:
    figures = [f._replace(label=_said(f.label)) for f in figures]
    tables = [
        t._replace(
            caption=_said(t.caption),
            columns=[_said(c) for c in t.columns],
            rows=[(_said(label), values) for label, values in t.rows],
        )
        for t in tables
    ]
    return figures, tables


def _no_games(name: str, stats: dict) -> str:
    """``name``: the games as the list names them, by their goal for Farkle ("Farkle (5000)")."""
    sentence = {
        "people": gettext("No finished %(name)s games among people yet."),
        "computers": gettext("No finished %(name)s games with computer players yet."),
    }.get(stats["opponents"], gettext("No finished %(name)s games yet."))
    return sentence % {"name": name}


def profile_page(request: HttpRequest, username: str) -> HttpResponse:
    """A player's profile: their ratings, latest games, accuracy, the groups the viewer shares with
    them, and (another person's) the challenge and block buttons. A public page: a visitor reads what
    any stranger signed in reads of it, the games among it those anyone may see (games.access)."""
    if "kind" in request.GET:
        # The statistics were at this address before the profile: links to them still work.
        target = reverse("players:stats", args=[username])
        return redirect(f"{target}?{request.META.get('QUERY_STRING', '')}")
    return _profile(request, _player(username), ChallengeForm())


def _profile(request: HttpRequest, player, form: ChallengeForm, status: int = 200) -> HttpResponse:
    viewer = request.user
    other_person = viewer.is_authenticated and player.pk != viewer.pk and not player.is_computer
    blocked = other_person and is_blocked(viewer, player)
    # Nor may a player the other blocked challenge them: the form is not shown either way round.
    blocked_by = other_person and not blocked and is_blocked(player, viewer)
    following = other_person and friend_selectors.is_following(viewer, player)
    games = recent_games(player, viewer)
    changes = rating_selectors.changes_of(player, [g.pk for g in games])
    for game in games:
        game.rating_change = changes.get(game.pk)
    context = {
        "player": player,
        "own": player.pk == viewer.pk,
        "ratings": [_rating_entry(row) for row in rating_selectors.player_ratings(player)],
        "games": games,
        "accuracy": coach_selectors.accuracy_trend(player, viewer=viewer),
        "groups": group_selectors.in_common(viewer, player),
        "other_person": other_person,
        "blocked": blocked,
        "following": following,
        # Unfollowing is always offered; following not across a block (friends.services).
        "may_follow": other_person and player.is_active and not blocked and not blocked_by,
        "muted": other_person and chat_selectors.is_muted(viewer, player),
        "challenge_form": form if other_person and not blocked and not blocked_by else None,
    }
    return render(request, "players/profile.html", context, status=status)


def _rating_entry(row: dict) -> dict:
    """A rating of the profile's list, with the query of its statistics page (Farkle: by the goal)."""
    kind, variant = rating_kinds.split(row["kind"])
    query = {"kind": kind.slug, **({kind.separating.name: variant} if variant is not None else {})}
    return {**row, "query": urlencode(query)}


@login_required
@require_POST
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    """A table of the chosen game with the viewer seated and ``username`` invited; the viewer lands at it."""
    player = _player(username)
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _profile(request, player, form, status=400)
    try:
        game = challenge_create(challenger=request.user, username=player.username, **form.game())
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("players:profile", username=player.username)
    messages.success(
        request,
        gettext("%(name)s is challenged: they have been told, and the game starts when they accept.")
        % {"name": player.username},
    )
    return redirect("games:detail", game_id=game.pk)


# What a refusal of the follow service answers when the profile is shown again with it.
_REFUSAL_STATUS = {BadRequest: 400, Forbidden: 403, NotFound: 404}


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    """Follow (``action=follow``) or unfollow (``action=unfollow``) a player; back to their profile. A
    refusal (oneself, a computer, a block) is said on the profile, with its status."""
    player = _player(username)
    action = request.POST.get("action", "follow")
    if action not in ("follow", "unfollow"):
        return _profile(request, player, ChallengeForm(), status=400)
    try:
        if action == "unfollow":
            friend_services.unfollow_player(user=request.user, username=player.username)
            done = gettext("You no longer follow %(name)s.")
        else:
            friend_services.follow_player(user=request.user, username=player.username)
            done = gettext("You follow %(name)s: see them in the players you follow.")
    except GameError as exc:
        messages.error(request, exc.message)
        return _profile(request, player, ChallengeForm(), status=_REFUSAL_STATUS.get(type(exc), 400))
    messages.success(request, done % {"name": player.username})
    return redirect("players:profile", username=player.username)


def stats_page(request: HttpRequest, username: str) -> HttpResponse:
    player = _player(username)
    kind = _kind(request)
    stats = player_stats(
        player, kind, goal=_variant(request, kind), opponents=_opponents(request), viewer=request.user
    )
    figures, tables = _translated(*_shown(kind, stats))
    option = kind.separating
    # The games these figures are of, named as each of them is: by the goal for Farkle.
    name = kind.display_name(stats["goal"])
    rating_key = rating_kinds.variant_key(kind, stats["goal"])
    return render(
        request,
        "players/stats.html",
        {
            "player": player,
            "kind": kind,
            "name": name,
            "stats": stats,
            "variants": [(v, kind.variant_text(v)) for v in kind.variants()] if option else [],
            "variant_text": kind.variant_text(stats["goal"]) if option else "",
            "figures": figures,
            "tables": tables,
            "chart_data": {"histogram": stats["histogram"], "series": stats["series"]},
            "accuracy": coach_selectors.accuracy_over_time(player, kind.slug, viewer=request.user),
            "opponent_choices": [
                ("all", gettext("All games")),
                ("people", gettext("Among people")),
                ("computers", gettext("With computer players")),
            ],
            "no_games": _no_games(name, stats),
            "rating": rating_selectors.rating_of(player, rating_key),
            "rating_data": {"series": rating_selectors.series(player, rating_key, viewer=request.user)},
        },
    )


@login_required
def stats_json(request: HttpRequest, username: str) -> JsonResponse:
    """The statistics, plus ``shown``: the same figures and tables with the labels the page gives
    them, so that a client never has to turn a box's code name into words."""
    player = _player(username)
    kind = _kind(request)
    stats = player_stats(
        player, kind, goal=_variant(request, kind), opponents=_opponents(request), viewer=request.user
    )
    figures, tables = _shown(kind, stats)
    shown = {
        "figures": [{"key": f.key, "label": f.label, "value": f.value, "shown": f.shown} for f in figures],
        "tables": [
            {
                "caption": t.caption,
                "columns": t.columns,
                "rows": [{"label": label, "values": values} for label, values in t.rows],
            }
            for t in tables
        ],
    }
    return JsonResponse({"player": player.username, **stats, "shown": shown})


def history_page(request: HttpRequest, username: str) -> HttpResponse:
    player = _player(username)
    kind = request.GET.get("kind") or None
    if kind and catalogue.kind(kind) is None:
        raise Http404("No such game.")
    period = request.GET.get("period") or "all"
    if period not in PERIODS:
        raise Http404("No such period.")
    groups = list(group_selectors.groups_of(request.user))
    # Only one of the viewer's groups narrows the list; another group is no filter.
    group_id = query_id(request, "group")
    if not any(g.pk == group_id for g in groups):
        group_id = None
    games = finished_games(player, request.user, kind=kind, group_id=group_id, period=period)
    page = Paginator(games, 25).get_page(request.GET.get("page"))
    # What each game of the page changed of the player's rating (one query for the page).
    page.object_list = list(page.object_list)
    changes = rating_selectors.changes_of(player, [g.pk for g in page.object_list])
    for game in page.object_list:
        game.rating_change = changes.get(game.pk)
    return render(
        request,
        "players/history.html",
        {
            "player": player,
            "page": page,
            "kind": kind,
            "period": period,
            "group_id": group_id,
            "groups": groups,
            "periods": PERIODS,
        },
    )


def _board_args(request: HttpRequest) -> dict:
    kind = _kind(request)
    period = request.GET.get("period") or "all"
    if period not in PERIODS:
        raise Http404("No such period.")
    group_id = query_id(request, "group")
    group = None
    if group_id is not None:
        group = Group.objects.filter(pk=group_id).first()
        if group is None or not group_selectors.is_member(group, request.user):
            raise Http404("No such group.")
    return {
        "kind": kind,
        "period": period,
        "goal": _variant(request, kind),
        "group_id": group.pk if group else None,
        "viewer": request.user,
    }


def highscores_page(request: HttpRequest) -> HttpResponse:
    args = _board_args(request)
    board = shown_board(**args)
    groups = group_selectors.groups_of(request.user)
    return render(
        request,
        "players/highscores.html",
        {"board": board, "kinds": catalogue.kinds(), "periods": PERIODS, "groups": groups},
    )


def ratings_page(request: HttpRequest) -> HttpResponse:
    """The rating list of one kind (Farkle: of one goal): people only, active ones only, global or
    among the members of one of the viewer's groups. A public page (a visitor's: the global list)."""
    kind = _kind(request)
    variant = _variant(request, kind)
    group_id = query_id(request, "group")
    group = None
    if group_id is not None:
        group = Group.objects.filter(pk=group_id).first()
        if group is None or not group_selectors.is_member(group, request.user):
            raise Http404("No such group.")
    key = rating_kinds.variant_key(kind, variant)
    entries = rating_selectors.rating_list(key, group=group)
    listed = any(e["player"] == request.user.username for e in entries)
    return render(
        request,
        "players/ratings.html",
        {
            "kind": kind,
            "goal": variant,
            "name": kind.display_name(variant),
            "entries": entries,
            # The viewer's own row below the list only when the list does not hold it already.
            "mine": None
            if listed or not request.user.is_authenticated
            else rating_selectors.rating_of(request.user, key),
            "computers": rating_selectors.computer_ratings(key),
            "group": group,
            "groups": group_selectors.groups_of(request.user),
            "kinds": catalogue.kinds(),
            "active_days": rating_selectors.ACTIVE_DAYS,
        },
    )


@login_required
def highscores_json(request: HttpRequest) -> JsonResponse:
    args = _board_args(request)
    return JsonResponse(high_scores(**args))


def _game_to_read(request: HttpRequest, game_id: int) -> Game | HttpResponse:
    """The game ``game_id`` if the reader may see it (games.access: a finished public game is anyone's,
    signed in or not); else the way on: a visitor asking for a public game still being played is sent
    to sign in; any other game the reader may not see is missing (404), telling nothing of it."""
    game = get_object_or_404(Game.objects.select_related("group", "creator"), pk=game_id)
    if can_watch(game, request.user):
        return game
    if not request.user.is_authenticated and not game.private:
        return redirect_to_login(request.get_full_path())
    raise Http404("No such game.")


def game_export(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game as one JSON document (games.results.export), for tools/check_dice.py and anyone's own
    checker; the server seed is in it once the game is over."""
    game = _game_to_read(request, game_id)
    if isinstance(game, HttpResponse):
        return game
    response = JsonResponse(export.game_export(game), json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="dicehall-game-{game.pk}.json"'
    return response


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game move by move, with the coach's review; a finished public game's is a public page. The
    table's chat is shown to the site's players only."""
    game = _game_to_read(request, game_id)
    if isinstance(game, HttpResponse):
        return game
    if game.status not in Game.OVER:
        return render(request, "games/replay_pending.html", {"game": game}, status=409)
    seats = list(game.seats.select_related("user").order_by("position"))
    replay = replays.game_replay_data(game)
    context = {
        "game": game,
        "seats": seats,
        "replay": replay,
        "chat": chat_selectors.for_replay(game.pk, request.user) if request.user.is_authenticated else [],
        "review": coach_selectors.replay_review(game),
        # The people at the table the reader may report for this game (safety: a report of a game).
        "reportable": [
            s.user.username
            for s in seats
            if request.user.is_authenticated
            and s.user
            and not s.user.is_computer
            and s.user.pk != request.user.pk
        ],
    }
    return render(request, "games/replay.html", context)
