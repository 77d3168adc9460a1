"""Reads of live games as plain data for sockets and pages: snapshots, events, seats, presence."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.live import seen
from games.models import Action, Game, Seat
from games.results.highscores import personal_bests

if TYPE_CHECKING:
    from games.live.records import Logged, Mover

RECENT_EVENTS = 40


def connected_usernames(game_id: int) -> list[str]:
    names = (
        seen.connections(game=game_id, since=seen.cutoff())
        .values_list("user__username", flat=True)
        .distinct()
    )
    return sorted(names)


def seat_list(game: Game) -> list[dict]:
    """The seats as the protocol sends them; ``best``: the seat's result is its player's personal best
    (games.results.highscores.personal_bests), known once the game is finished."""
    bests = personal_bests(game) if game.status == Game.Status.FINISHED else set()
    return [
        {
            "position": s.position,
            "user": s.user.username,
            "computer": s.user.computer,
            "resigned": s.resigned,
            "final_score": s.final_score,
            "winner": s.winner,
            "laps": s.laps,
            "best": s.user.username in bests,
            "last_seen": s.last_seen.isoformat() if s.last_seen else None,
            "client_seed": s.client_seed,
        }
        for s in Seat.objects.filter(game=game).select_related("user").order_by("position")
    ]


def game_info(game: Game) -> dict:
    return {
        "id": game.pk,
        "kind": game.kind,
        "name": game.kind_name,
        "status": game.status,
        "options": game.options,
        "max_seats": game.max_seats,
        "group": game.group_id,
        "creator": game.creator.username if game.creator_id else None,
        "absence_limit": game.absence_limit,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "turn_started_at": game.turn_started_at.isoformat() if game.turn_started_at else None,
        "view": game.engine.view,
        "sheet": game.engine.SHEET,
        # Fair dice (docs/fair-dice.md): the commitment from the creation on, the server seed only once
        # the game is over (Game.revealed_seed).
        "fair_dice": game.fair_dice_info(),
    }


def standing(game: Game, state: dict | None) -> dict:
    """The engine's scores and winners for ``state``, so that no client works them out again."""
    if not state:
        return {"scores": {}, "winners": []}
    return {"scores": game.engine.scores(state), "winners": game.engine.winners(state)}


def preview_for(game: Game, state: dict | None) -> dict:
    if not state or game.engine.is_over(state):
        return {}
    return game.engine.preview(state)


def log_entry(logged: Action | Logged, username: str) -> dict:
    return {
        "seq": logged.seq,
        "seat": logged.seat.position,
        "player": username,
        "action": logged.action,
        "dice": logged.dice,
        "result": logged.result,
        "at": logged.created_at.isoformat(),
    }


def event_payload(game: Game, logged: Logged, seat: Mover) -> dict:
    """The `event` every socket of the game receives for one stored action."""
    return {
        "type": "event",
        **log_entry(logged, seat.user.username),
        "status": game.status,
        "turn_started_at": game.turn_started_at.isoformat() if game.turn_started_at else None,
        "state": game.state,
        **standing(game, game.state),
        "preview": preview_for(game, game.state),
        # The event that ends the game reveals the server seed (docs/fair-dice.md); no other does.
        **({"fair_dice": game.fair_dice_info()} if game.revealed_seed else {}),
    }


def events_since(game_id: int, seq: int, limit: int = 500) -> list[dict]:
    rows = (
        Action.objects.filter(game_id=game_id, seq__gt=seq)
        .select_related("seat__user")
        .order_by("seq")[:limit]
    )
    return [log_entry(a, a.seat.user.username) for a in rows]


def game_snapshot(game: Game, viewer, since: int | None = None) -> dict:
    """Everything a client needs to draw the game from scratch; nothing in these games is hidden. The
    game's socket (play.consumers) adds the chat beside it."""
    seats = seat_list(game)
    you = next((s["position"] for s in seats if s["user"] == viewer.username), None)
    start = max(0, game.seq - RECENT_EVENTS) if since is None else since
    return {
        "type": "snapshot",
        "game": game_info(game),
        "seq": game.seq,
        "seats": seats,
        "connected": connected_usernames(game.pk),
        "state": game.state,
        **standing(game, game.state),
        "preview": preview_for(game, game.state),
        "you": {"user": viewer.username, "seat": you},
        "events": events_since(game.pk, start),
    }
