"""Every write to a game: one transaction per action, validating first and acting second.

Views, consumers, the admin and commands call these functions; none of them saves game state itself.
Players are known to the engines by username (what other players see); a seat's position is its index
in the engine's `players`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import access, effects, fair_dice, fair_seeds, rules
from games.access import can_watch
from games.bots import STRENGTHS
from games.computers import players as computer_players
from games.errors import BadRequest, Conflict, Forbidden, GameError, NotFound
from games.live import moves
from games.live.broadcast import send_on_commit
from games.live.moves import ActionOutcome
from games.live.selectors import seat_list
from games.models import Game, Seat
from games.rules import declare
from infra.hooks import Hook

logger = logging.getLogger(__name__)

# --- lifecycle -------------------------------------------------------------------------------


def _check_member(group, user) -> None:
    if not access.is_member(group.pk if group is not None else None, user):
        raise Forbidden(_("Only members of this group can play its games."))


DAYS_LIMITS = (86_400, 2 * 86_400, 3 * 86_400)


def game_create(
    *,
    creator,
    kind: str,
    options: dict | None = None,
    seats: int = 2,
    group=None,
    absence_limit: int | None = None,
    pace: str = Game.Pace.LIVE,
    computers: int = 0,
    strength: str = "good",
    rated: bool = True,
    server_seed: str = "",
    seed_ref: int | None = None,
    shared_seed: bool = False,
    client_seed: str = "",
    others: Sequence = (),
    others_seeds: Sequence[str] = (),
    reserved_for=None,
    private: bool = False,
) -> Game:
    """Create a game with the creator in seat 0, the people ``others`` in the next seats (a table that
    pairing filled), and ``computers`` computer players of ``strength`` after them; a table that is full
    from the start (solo, the creator and computers, a paired table) starts at once. Over days
    (``pace``), ``absence_limit`` is 1, 2 or 3 days. ``rated``: the game's end changes its players'
    ratings (never a solo game's). The dice's server seed is the one committed to the creator beforehand
    as ``seed_ref`` (games.fair_seeds: claimed in this transaction, Conflict if another game has it), or
    ``server_seed`` (a seed the caller committed: a pairing request's, a day's with ``shared_seed``,
    which other games share on purpose); the creator's seed ``client_seed`` if they brought one; each
    is drawn from the server's random source otherwise; ``others_seeds``, the seeds
    the ``others`` brought ("" for none), in their order. ``reserved_for``: the one player who may take
    the seats left (a challenge). ``private``: a game without a group that its players alone may see (a
    daily challenge's, until its day is over: ``games_make_public``); a group's game is always private."""
    try:
        engine = rules.get(kind)
    except KeyError:
        raise BadRequest(_("There is no game called %(kind)s."), kind=repr(kind)) from None
    options = dict(options or {})
    try:
        engine.new_game(["probe"], options)  # the engine is the judge of its options
    except rules.IllegalAction as exc:
        raise BadRequest(exc) from None
    if not isinstance(seats, int) or not engine.min_players <= seats <= engine.max_players:
        raise BadRequest(
            _("%(game)s takes %(min)s to %(max)s players."),
            game=declare.game_name(engine, options),
            min=engine.min_players,
            max=engine.max_players,
        )
    # Stored in full, so that pages, statistics and high-score lists never guess a default.
    options = declare.full_options(engine, options)
    limit = settings.GAME_DEFAULT_ABSENCE_LIMIT if absence_limit is None else absence_limit
    if pace not in Game.Pace.values:
        raise BadRequest(_("There is no pace called %(pace)s."), pace=repr(pace))
    if pace == Game.Pace.DAYS and limit not in DAYS_LIMITS:
        raise BadRequest(_("A game over days gives 1, 2 or 3 days per turn."))
    if not 10 <= limit <= 7 * 24 * 3600:
        raise BadRequest(_("The absence limit must be between 10 seconds and a week."))
    _check_computers(computers, strength, seats - len(others))
    if client_seed and not fair_dice.valid_client_seed(client_seed):
        _bad_seed()
    if rated and seats > 1 and not others:  # a table one player opens (pairing and rounds seat others)
        refuse_if_barred(creator)
    with transaction.atomic():
        if group is not None:
            _check_member(group, creator)
        if seed_ref is not None:
            server_seed = fair_seeds.seed_claim(user=creator, ref=seed_ref)
        game = Game.objects.create(
            kind=kind,
            options=options,
            max_seats=seats,
            group=group,
            private=group is not None or bool(private),
            creator=creator,
            absence_limit=limit,
            pace=pace,
            rated=bool(rated),
            reserved_for=reserved_for,
            shared_seed=bool(shared_seed),
            **({"server_seed": server_seed} if server_seed else {}),
        )
        Seat.objects.create(
            game=game, user=creator, position=0, **({"client_seed": client_seed} if client_seed else {})
        )
        taken = [creator.username]
        for position, other in enumerate(others, start=1):
            seed = others_seeds[position - 1] if position <= len(others_seeds) else ""
            Seat.objects.create(
                game=game, user=other, position=position, **({"client_seed": seed} if seed else {})
            )
            taken.append(other.username)
        for position in range(len(taken), len(taken) + computers):
            computer = computer_players.free_computer(strength, taken)
            Seat.objects.create(game=game, user=computer, position=position)
            taken.append(computer.username)
        if seats == len(taken):
            # A table the site filled (``others``) is started by the site, not by its first seat.
            _start(game, by=None if others else creator)
    return game


def games_make_public(*, game_ids: Sequence[int]) -> int:
    """Open games that were created private without a group (``game_create(private=True)``: a daily
    challenge's, once its day is over) to everyone signed in; a group's games stay private. The number
    of games opened."""
    with transaction.atomic():
        return Game.objects.filter(pk__in=list(game_ids), private=True, group__isnull=True).update(
            private=False
        )


def _check_computers(count, strength: str, seats: int) -> None:
    if not isinstance(count, int) or not 0 <= count < seats:
        raise BadRequest(_("Computer players take the seats beside yours: at most one fewer than the seats."))
    if count and strength not in STRENGTHS:
        raise BadRequest(_("There is no computer strength %(strength)s."), strength=repr(strength))


def _check_host_of_open(game: Game, user) -> None:
    if game.creator_id != user.pk:
        raise Forbidden(_("Only the player who created the game can seat computer players."))
    if game.status != Game.Status.OPEN:
        raise Conflict(_("This game has already started."))
    if game.reserved_for_id is not None:
        raise Conflict(_("A challenge's other seat is kept for the challenged player."))


def game_add_computer(*, game_id: int, user, strength: str) -> Seat:
    """The creator seats a computer player of ``strength`` at their open table."""
    if strength not in STRENGTHS:
        raise BadRequest(_("There is no computer strength %(strength)s."), strength=repr(strength))
    with transaction.atomic():
        game = _locked(game_id)
        _check_host_of_open(game, user)
        seats = list(game.seats.select_related("user"))
        if len(seats) >= game.max_seats:
            raise Conflict(_("This game is full."))
        computer = computer_players.free_computer(strength, [s.user.username for s in seats])
        taken = {s.position for s in seats}
        position = next(p for p in range(game.max_seats) if p not in taken)
        seat = Seat.objects.create(game=game, user=computer, position=position)
        _announce_lobby(game)
    return seat


def game_remove_computer(*, game_id: int, user, username: str) -> None:
    """The creator takes a computer player's seat away before the start."""
    with transaction.atomic():
        game = _locked(game_id)
        _check_host_of_open(game, user)
        seat = game.seats.filter(user__username=username).exclude(user__computer="").first()
        if seat is None:
            raise NotFound(_("There is no such computer player at this table."))
        seat.delete()
        _close_gaps(game)
        _announce_lobby(game)


# Who may sit at one table with whom, as an app sees it (pairing's blocks: a blocked pair never sits
# together, whoever blocked whom).
refuse_seating = Hook(
    "games.tables.services.refuse_seating",
    "Why a player may not sit at one table with the people already seated there.",
    receives="the player and the other people (no computers) seated or asked, a list of users",
    returns="why not (a sentence), or None; the first answer refuses",
    runs="inside the seat's (or the next table's) transaction; may read the database",
)


def refuse_if_barred(user) -> None:
    """A player a moderator barred from rated play (accounts.User.rated_barred_until) plays no rated
    game with others until the bar ends: pairing, challenges, and rated tables of the lobby."""
    if user.is_authenticated and user.barred_from_rated():
        raise Forbidden(
            _("A moderator barred you from rated games until %(until)s."),
            until=user.rated_barred_until.strftime("%Y-%m-%d %H:%M UTC"),
        )


def seating_refusal(user, others: Sequence) -> Any:
    """Why ``user`` may not sit at one table with the people ``others``, or None."""
    people = [o for o in others if o.pk != user.pk and not o.computer]
    if not people:
        return None
    return refuse_seating.first(user, people)


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(_("There is no such game.")) from None


def game_join(*, game_id: int, user, client_seed: str = "") -> Seat:
    """A seat at an open table. A "Play again" table takes the players of the game before it alone, a
    challenge's the challenged player alone; both start once every seat is taken (the challenge is
    accepted). Nobody sits with a player an app refuses them (``refuse_seating``: a block).
    ``client_seed``: the seed the player's page made (docs/fair-dice.md), taken with the seat."""
    if client_seed and not fair_dice.valid_client_seed(client_seed):
        _bad_seed()
    with transaction.atomic():
        game = _locked(game_id)
        if not can_watch(game, user):
            raise NotFound(_("There is no such game."))
        existing = game.seats.filter(user=user).first()
        if existing:
            return existing
        if game.status != Game.Status.OPEN:
            raise Conflict(_("This game has already started."))
        if game.reserved_for_id is not None and game.reserved_for_id != user.pk:
            raise Forbidden(_("This seat is kept for the player who was challenged."))
        if (
            game.rematch_of_id is not None
            and not Seat.objects.filter(game_id=game.rematch_of_id, user=user).exists()
        ):
            raise Forbidden(_("This table is kept for the players of the game before it."))
        _check_member(game.group, user)
        if game.rated and game.max_seats > 1:
            refuse_if_barred(user)
        seated = list(game.seats.select_related("user"))
        if (why := seating_refusal(user, [s.user for s in seated])) is not None:
            raise Forbidden(why)
        taken = [s.position for s in seated]
        if len(taken) >= game.max_seats:
            raise Conflict(_("This game is full."))
        position = next(p for p in range(game.max_seats) if p not in taken)
        seat = Seat.objects.create(
            game=game, user=user, position=position, **({"client_seed": client_seed} if client_seed else {})
        )
        asked = game.rematch_of_id is not None or game.reserved_for_id == user.pk
        if asked and len(taken) + 1 == game.max_seats:
            _start(game, by=user)  # everyone asked is in (a challenge accepted): the game begins
        else:
            _announce_lobby(game)
    return seat


def game_leave(*, game_id: int, user) -> None:
    """Leave before the start; the creator leaving cancels the game (it is abandoned)."""
    with transaction.atomic():
        game = _locked(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise Forbidden(_("You are not seated in this game."))
        if game.status != Game.Status.OPEN:
            raise Conflict(_("The game has started: resign instead of leaving."))
        if game.creator_id == user.pk:
            game.status = Game.Status.ABANDONED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at"])
        else:
            seat.delete()
            _close_gaps(game)
        _announce_lobby(game)


def _cancel(game: Game) -> None:
    """The open table is given up before it started (a cancelled game: never played)."""
    game.status = Game.Status.ABANDONED
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "finished_at"])
    _announce_lobby(game)


def game_decline(*, game_id: int, user) -> Game:
    """The player a table is kept for (a challenge's) declines it: the table is cancelled."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.reserved_for_id != user.pk:
            raise Forbidden(_("Only the challenged player can decline a challenge."))
        if game.status != Game.Status.OPEN:
            raise Conflict(_("This challenge is no longer open."))
        _cancel(game)
    return game


def game_cancel_unanswered(*, game_id: int, created_before) -> Game | None:
    """Cancel a table kept for a player (a challenge's) who has not taken it, if it was made before
    ``created_before``; None when there was nothing to cancel (taken, withdrawn, declined, younger)."""
    with transaction.atomic():
        game = _locked(game_id)
        if (
            game.status != Game.Status.OPEN
            or game.reserved_for_id is None
            or game.created_at > created_before
        ):
            return None
        _cancel(game)
    return game


def _bad_seed():
    raise BadRequest(
        _("A client seed is 1 to %(max)s letters, digits, hyphens or underscores."),
        "bad_seed",
        max=fair_dice.CLIENT_SEED_MAX,
    )


def seat_set_client_seed(*, game_id: int, user, seed: str) -> Seat:
    """A seated player's own client seed (docs/fair-dice.md), accepted until the game starts; once it
    is over, their seed for its "Play again" (whose server seed it committed from the start), accepted
    until that game exists."""
    if not fair_dice.valid_client_seed(seed):
        _bad_seed()
    with transaction.atomic():
        game = _locked(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise Forbidden(_("You are not seated in this game."))
        if game.is_over:
            # Too late once the next game exists (it has its seeds), and an older game commits to none.
            if game.next_server_seed and not Game.objects.filter(rematch_of=game).exists():
                seat.next_client_seed = seed
                seat.save(update_fields=["next_client_seed"])
            return seat
        if game.status != Game.Status.OPEN:
            raise Conflict(_("The game has started: the client seeds are fixed."), "seeds_fixed")
        seat.client_seed = seed
        seat.save(update_fields=["client_seed"])
        _announce_lobby(game)
    return seat


def _close_gaps(game: Game) -> None:
    """Positions stay 0..n-1 in joining order when a seat is given up."""
    for position, other in enumerate(game.seats.order_by("position")):
        if other.position != position:
            Seat.objects.filter(pk=other.pk).update(position=position)


def game_start(*, game_id: int, user) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if game.creator_id != user.pk:
            raise Forbidden(_("Only the player who created the game can start it."))
        if game.status != Game.Status.OPEN:
            raise Conflict(_("This game has already started."))
        if game.reserved_for_id is not None:
            # A challenge is the challenged player's to accept: started alone it was the
            # challenger's solo game, and the challenged player's notice led to one she could only watch.
            raise Conflict(_("A challenge starts when the challenged player accepts it."))
        if game.seats.count() < game.engine.min_players:
            raise Conflict(_("Not enough players to start."))
        _start(game, by=user)
    return game


def _start(game: Game, *, by) -> None:
    seats = list(game.seats.select_related("user").order_by("position"))
    # Seats fill the gaps left by players who left: number them 0..n-1 before the engine sees them.
    for position, seat in enumerate(seats):
        if seat.position != position:
            Seat.objects.filter(pk=seat.pk).update(position=position)
    now = timezone.now()
    # Fair dice (docs/fair-dice.md): the client seeds are fixed from here on, in seat order.
    game.client_seeds = [seat.client_seed for seat in seats]
    game.state = game.engine.new_game([s.user.username for s in seats], game.options)
    game.status = Game.Status.PLAYING
    game.max_seats = len(seats)
    game.started_at = now
    game.turn_started_at = now
    game.save()
    started = [effects.GameStarted(game, by)]
    if computer_players.is_computer_name(game.current_player):
        started.append(effects.ComputerToMove(game))
    effects.handle(started)
    _announce_lobby(game)


def _announce_lobby(game: Game) -> None:
    send_on_commit(game.pk, {"type": "lobby", "status": game.status, "seats": seat_list(game)})


# The games an app keeps private for a while for a reason of its own (the daily challenge: its games
# until their day closes). Such a game's "Play again" is not that app's: it is public, as a new game is
# unless asked otherwise.
private_for_now = Hook(
    "games.tables.services.private_for_now",
    "Whether a private game's privacy is an app's for a while, not its players' choice.",
    receives="the `Game`",
    returns='truthy when it is (its "Play again" is then public)',
    runs='without the database, inside the "Play again" transaction',
)


def _next_private(old: Game) -> bool:
    return old.private and not private_for_now.any(old)


def game_play_again(*, game_id: int, user, client_seed: str = "") -> Game:
    """The next game of the same kind, options, pace, group and rating: a table with the presser seated
    and the computer players of the game before, to which its other people are invited (a notice and
    a push message: effects.InvitedToTable) and which each takes a seat at by pressing too; it starts
    once every seat is taken (or when its creator starts it). Nobody is seated without asking, nor
    invited to sit with a player an app refuses them (``refuse_seating``: a block, either way round);
    in a group's game only those still members of the group are asked. A second press (another
    player's, or a second tab's) finds the table the first made: one next game per game. Its dice: the
    server seed the game before committed to, and each player's seed their page sent once that game was
    over (``client_seed``: the presser's, with the press), or the seed they played it with if none came
    (docs/fair-dice.md)."""
    if client_seed and Seat.objects.filter(game_id=game_id, user=user).exists():
        with contextlib.suppress(Conflict):  # the next game exists already: the press joins it
            seat_set_client_seed(game_id=game_id, user=user, seed=client_seed)
    with transaction.atomic():
        old = _locked(game_id)
        if not can_watch(old, user):
            raise NotFound(_("There is no such game."))
        seats = list(old.seats.select_related("user").order_by("position"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise Forbidden(_("Only the players of this game can start the next one."))
        if old.status not in Game.OVER:
            raise Conflict(_("This game is not over yet."))
        existing = Game.objects.filter(rematch_of=old).first()
        if existing is not None:
            if existing.status == Game.Status.OPEN and not existing.seats.filter(user=user).exists():
                game_join(
                    game_id=existing.pk, user=user, client_seed=mine.next_client_seed or mine.client_seed
                )
                existing.refresh_from_db()
            return existing
        if old.group_id is not None:
            members = access.member_ids(old.group_id)
            seats = [s for s in seats if s.user.computer or s.user_id in members]
        computers = [s for s in seats if s.user.computer]
        asked = [
            s
            for s in seats
            if not s.user.computer and s.user_id != user.pk and seating_refusal(s.user, [user]) is None
        ]
        size = 1 + len(computers) + len(asked)
        if size < old.engine.min_players or (old.max_seats > 1 and size < 2):
            raise Conflict(_("Nobody from this table can play again with you."))
        new = Game.objects.create(
            kind=old.kind,
            options=old.options,
            max_seats=size,
            group=old.group,
            private=_next_private(old),
            creator=user,
            absence_limit=old.absence_limit,
            pace=old.pace,
            rated=old.rated,
            rematch_of=old,
            **({"server_seed": old.next_server_seed} if old.next_server_seed else {}),
        )
        # The seeds sent for the next game or, failing those, the last game's.
        for position, seat in enumerate(s for s in seats if s.user.computer or s.user_id == user.pk):
            seed = seat.next_client_seed or seat.client_seed
            Seat.objects.create(game=new, user=seat.user, position=position, client_seed=seed)
        if not asked:
            _start(new, by=user)  # the presser and computers: nobody to wait for
        else:
            effects.handle([effects.InvitedToTable(new, s.user, user) for s in asked])
            _announce_lobby(new)
        invited = [s.user.username for s in asked]
        send_on_commit(old.pk, {"type": "next_game", "game": new.pk, "by": user.username, "invited": invited})
    return new


# --- actions ---------------------------------------------------------------------------------


def game_apply_action(*, game_id: int, user, client_id: str, action: dict) -> ActionOutcome:
    """Apply one player action in one transaction and broadcast it after the commit (games.live.moves:
    the one function that decides a move, which the websockets' event loop runs as well)."""
    return moves.apply_action(game_id=game_id, user=user, client_id=client_id, action=action)


def give_up_seats(*, user, client_id: str) -> None:
    """Give up the person's seats in games not over, their account deleted or closed: a table waiting
    for players is left (cancelled if it was theirs), a game being played resigned (``client_id``: the
    resignation's), as leaving a group does; a challenge table kept for them is cancelled."""
    unfinished = Seat.objects.filter(
        user=user, resigned=False, game__status__in=[Game.Status.OPEN, Game.Status.PLAYING]
    ).select_related("game")
    for seat in list(unfinished):
        try:
            if seat.game.status == Game.Status.OPEN:
                game_leave(game_id=seat.game_id, user=user)
            else:
                game_apply_action(
                    game_id=seat.game_id, user=user, client_id=client_id, action={"type": "resign"}
                )
        except GameError:
            # The game moved on meanwhile (it ended, or the player already resigned): nothing to give up.
            logger.info("game %s: nothing to give up for %s", seat.game_id, client_id)
    open_for_them = Game.objects.filter(reserved_for=user, status=Game.Status.OPEN)
    open_for_them.update(status=Game.Status.ABANDONED, finished_at=timezone.now())
