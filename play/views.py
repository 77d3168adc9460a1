"""Game pages: home, rules, the lobby, a game's page, and the player's own games."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST, require_safe

from chat import selectors as chat_selectors
from coach import hints
from daily import selectors as daily
from friends import selectors as friend_selectors
from games import catalogue, fair_seeds
from games.access import watchable
from games.computers.players import STRENGTH_CHOICES
from games.computers.tasks import waiting_for_worker
from games.errors import GameError, NotFound
from games.models import Game
from games.tables import lobby, services
from games.tables.forms import AddComputerForm, GameCreateForm, RemoveComputerForm
from groups import invites
from groups import selectors as group_selectors
from infra.params import query_id, query_value
from notices.models import preferences_of
from play import challenge

# How many of the players one follows the home page lists (the others: players:following).
HOME_FOLLOWING = 8


@require_safe
def fair_dice_page(request: HttpRequest) -> HttpResponse:
    """How the dice are made fair, in plain words and in the derivation's essentials, and a checker that
    recomputes a game's rolls in the reader's browser (static/js/fair-check.js): the check is the
    reader's own, not the server's word. Open to visitors; a game is fetched as the reader may see it."""
    return render(request, "games/fair_dice.html")


def home(request: HttpRequest) -> HttpResponse:
    # "Play solo now": the lobby with one seat chosen (a visitor signs up first and lands there).
    lobby_path = reverse("games:lobby")
    context = {"solo_url": f"{lobby_path}?seats=1", "computer_url": f"{lobby_path}#play-computer"}
    if request.user.is_authenticated:
        context["your_turn"] = lobby.games_waiting_for(request.user)[:5]
        # Of the players the viewer follows, those on the site or playing now (friends.selectors).
        followed = friend_selectors.following_now(request.user)
        context["following_now"] = [e for e in followed if e.online][:HOME_FOLLOWING]
        context["follows_anyone"] = bool(followed)
    return render(request, "home.html", context)


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    kind = catalogue.kind(slug)
    if kind is None:
        raise Http404("No such game.")
    from games import rulebook

    # The page is part of the game's declaration: its own, or one made from what its engine declares.
    return render(request, rulebook.template(slug), {"kind": kind, "ex": rulebook.examples(slug)})


@login_required
def lobby_page(request: HttpRequest) -> HttpResponse:
    # A link may choose the game, its seats (the home page's "Play solo now") and a group: the seats
    # are read by the form's own field (400 for a number it does not take), the group as an id.
    # One seat has a card of its own, first on the page; the form for any table below it keeps its
    # usual seats.
    seats = query_value(request, "seats", GameCreateForm.base_fields["seats"])
    initial = {
        "kind": request.GET.get("kind", catalogue.kinds()[0].slug),
        "group": query_id(request, "group"),
        "seats": seats if seats != 1 else None,
    }
    form = GameCreateForm(
        initial={k: v for k, v in initial.items() if v is not None},
        groups=group_selectors.groups_of(request.user),
    )
    return _lobby(request, form, solo=seats == 1)


def _lobby(request: HttpRequest, form: GameCreateForm, status: int = 200, solo: bool = False) -> HttpResponse:
    context = {
        "form": form,
        "open_games": lobby.open_games_for(request.user),
        "computer_options": form.option_widgets("computer"),
        "solo": solo or str(form["seats"].value()) == "1",
        "solo_options": form.option_widgets("solo"),
        "fair_commitment": fair_seeds.next_commitment(request),
    }
    return render(request, "games/lobby.html", context, status=status)


@login_required
@require_POST
def game_new(request: HttpRequest) -> HttpResponse:
    groups = list(group_selectors.groups_of(request.user))
    form = GameCreateForm(request.POST, groups=groups)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    group = next((g for g in groups if g.pk == form.cleaned_data["group"]), None)
    pace, limit = form.pace_and_limit()
    seed_ref, client_seed = fair_seeds.from_form(request)
    try:
        game = services.game_create(
            creator=request.user,
            kind=form.cleaned_data["kind"],
            options=form.engine_options(),
            seats=form.cleaned_data["seats"],
            group=group,
            absence_limit=limit,
            pace=pace,
            computers=form.cleaned_data["computers"] or 0,
            strength=form.cleaned_data["strength"] or "good",
            rated=form.cleaned_data["rated"],
            seed_ref=seed_ref,
            client_seed=client_seed,
        )
    except fair_seeds.CommitmentUsed as exc:
        # Said at the top of the page, whichever of its forms was sent; the page shows a new commitment.
        messages.error(request, exc.message)
        return _lobby(request, form, status=409)
    except GameError as exc:
        form.add_error(None, exc.message)
        return _lobby(request, form, status=400)
    return redirect("games:detail", game_id=game.pk)


def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's page, which is also its invitation link: signed out, the invitation to a public game
    (once it is over, its replay, a public page).
    A private game is told apart from a missing one by nobody who may not see it: signed out, both send
    to the sign-in; signed in, both are 404 (games.access)."""
    game = Game.objects.select_related("creator", "group", "reserved_for").filter(pk=game_id).first()
    if not request.user.is_authenticated:
        if game is None or game.private:
            return redirect_to_login(request.get_full_path())
        if game.is_over:  # a public page: the game move by move
            return redirect("games:replay", game_id=game.pk)
        return _invitation(request, game)
    if game is None or not services.can_watch(game, request.user):
        raise Http404("No such game.")
    seats = list(game.seats.select_related("user").order_by("position"))
    my_seat = next((s for s in seats if s.user_id == request.user.pk), None)
    invite_url = request.build_absolute_uri(game.get_absolute_url())
    return render(
        request,
        "games/game.html",
        {
            "game": game,
            "seats": seats,
            "my_seat": my_seat,
            "invite_url": invite_url,
            "share_text": _("%(host)s invites you to play %(game)s.")
            # A game whose creator's account is gone (or that the site started) is shared by the
            # player who shares it.
            % {"host": (game.creator or request.user).username, "game": game.kind_name},
            "kind": catalogue.kind(game.kind),
            "mute_chat": request.user.is_authenticated and preferences_of(request.user).mute_chat,
            "hint": game.status == Game.Status.PLAYING and hints.offered(seats, request.user),
            "strengths": STRENGTH_CHOICES,
            "moderator": game.group is not None and game.group.creator_id == request.user.pk,
            "chat_off": chat_selectors.table_chat_off(game.pk, request.user),
            # A daily challenge's game links its day's page (daily/).
            "daily_day": daily.game_day(game),
            # A challenge's table (play.challenge): accepted or declined by its player, until then.
            "challenge_expires": challenge.expires_at(game) if game.reserved_for_id else None,
        },
    )


def _invitation(request: HttpRequest, game: Game) -> HttpResponse:
    """Who invites the signed-out visitor to what, and the way in. Signing up or in from here takes the
    seat at once (groups/invites.py) while the table is open; the page names no player but the
    host, as the lobby would."""
    taken = game.seats.count()
    if game.status == Game.Status.OPEN:
        invites.remember_game(request, game)
    return render(
        request,
        "games/invite.html",
        {
            "game": game,
            "taken": taken,
            "free": max(game.max_seats - taken, 0),
            "kind": catalogue.kind(game.kind),
            "mute_chat": request.user.is_authenticated and preferences_of(request.user).mute_chat,
            "next": game.get_absolute_url(),
        },
    )


def _service_post(
    request: HttpRequest, game_id: int, call, ok: str | None = None, *, done: str | None = None
) -> HttpResponse:
    """The service's answer to a form on a game's page: its refusal said on the page (a game the user
    may not see is a 404), or ``ok`` said and the user sent on: to ``done``, the game it made, or the
    game's page."""
    try:
        result = call(game_id=game_id, user=request.user)
    except GameError as exc:
        # A game the user may not see is no game (games.access), whichever refusal the service found.
        if (
            isinstance(exc, NotFound)
            and not Game.objects.filter(watchable(request.user), pk=game_id).exists()
        ):
            raise Http404("No such game.") from None
        messages.error(request, exc.message)
        return redirect("games:detail", game_id=game_id)
    if ok:
        messages.success(request, ok)
    if done:
        return redirect(done)
    if isinstance(result, Game):
        return redirect("games:detail", game_id=result.pk)
    return redirect("games:detail", game_id=game_id)


@login_required
@require_POST
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    """A seat; with the client seed the page made in the browser (static/js/fair-seed.js), if it sent one."""
    seed = request.POST.get("client_seed", "")

    def join(*, game_id: int, user):
        if seed:  # before the seat: a seat that fills a challenge's or a next game's table starts it
            return services.game_join(game_id=game_id, user=user, client_seed=seed)
        return services.game_join(game_id=game_id, user=user)

    response = _service_post(request, game_id, join)
    if Game.objects.filter(pk=game_id, seats__user=request.user).exists():
        started = Game.objects.filter(pk=game_id, status=Game.Status.PLAYING).exists()
        messages.success(
            request, _("The game has started.") if started else _("You have a seat. Wait for the start.")
        )
    return response


@login_required
@require_POST
def game_client_seed(request: HttpRequest, game_id: int) -> HttpResponse:
    """The player's own client seed for the game's dice, typed on the table page before the start."""
    seed = request.POST.get("seed", "").strip()
    return _service_post(
        request,
        game_id,
        lambda **kw: services.seat_set_client_seed(seed=seed, **kw),
        _("Your client seed is set."),
    )


@login_required
@require_POST
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.game_leave(game_id=game_id, user=request.user)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("games:detail", game_id=game_id)
    messages.success(request, _("You left the game."))
    return redirect("games:lobby")


@login_required
@require_POST
def game_decline(request: HttpRequest, game_id: int) -> HttpResponse:
    """The challenged player declines a challenge: the table is cancelled, the challenger told."""
    return _service_post(
        request, game_id, challenge.challenge_decline, _("You declined the challenge."), done="games:lobby"
    )


@login_required
@require_POST
def game_start(request: HttpRequest, game_id: int) -> HttpResponse:
    return _service_post(request, game_id, services.game_start)


@login_required
@require_POST
def game_again(request: HttpRequest, game_id: int) -> HttpResponse:
    """The next game; with the seed the page made for it once this one was over (static/js/game)."""
    seed = request.POST.get("client_seed", "")
    return _service_post(request, game_id, lambda **kw: services.game_play_again(client_seed=seed, **kw))


@login_required
@require_POST
def game_add_computer(request: HttpRequest, game_id: int) -> HttpResponse:
    strength = _posted(request, AddComputerForm)["strength"]
    return _service_post(request, game_id, lambda **kw: services.game_add_computer(strength=strength, **kw))


@login_required
@require_POST
def game_remove_computer(request: HttpRequest, game_id: int) -> HttpResponse:
    username = _posted(request, RemoveComputerForm)["username"]
    return _service_post(
        request, game_id, lambda **kw: services.game_remove_computer(username=username, **kw)
    )


def _posted(request: HttpRequest, form_class) -> dict:
    """The form's cleaned data; a bad request (400) when it is not valid: the game page's buttons
    never send such a form, so there is no page to show it again on."""
    form = form_class(request.POST)
    if not form.is_valid():
        raise BadRequest(f"Bad {', '.join(form.errors)}.")
    return form.cleaned_data


@login_required
@require_GET
def game_computers(request: HttpRequest, game_id: int) -> HttpResponse:
    """How far the game is, and whether its computer players are waiting for the background worker (the
    game page asks while a computer's move is late: it syncs when the game is further than it knows,
    which it may not hear of without a shared channel layer)."""
    game = get_object_or_404(Game.objects.select_related("group"), pk=game_id)
    if not services.can_watch(game, request.user):
        raise Http404("No such game.")
    return JsonResponse({"seq": game.seq, "waiting_for_worker": waiting_for_worker(game)})


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    return render(request, "games/mine.html", lobby.my_games(request.user))
