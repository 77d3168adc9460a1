"""A game as one JSON document: its settings, seats, fair dice and every action with its dice, for anyone
to keep or check (tools/check_dice.py; docs/fair-dice.md)."""

from __future__ import annotations

from games.models import Game

FORMAT = "dicehall-game"


def game_export(game: Game) -> dict:
    """The export of ``game``; the server seed is in it only once the game is over (Game.fair_dice_info)."""
    seats = list(game.seats.select_related("user").order_by("position"))
    actions = game.actions.select_related("seat__user").order_by("seq")
    return {
        "format": FORMAT,
        "version": 1,
        "game": {
            "id": game.pk,
            "kind": game.kind,
            "name": game.kind_name,
            "options": game.options,
            "status": game.status,
            "dice_kind": game.engine.dice_kind,
            "created_at": game.created_at.isoformat(),
            "started_at": game.started_at.isoformat() if game.started_at else None,
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        },
        "seats": [
            {
                "position": s.position,
                "user": s.user.username,
                "computer": s.user.computer,
                "final_score": s.final_score,
                "winner": s.winner,
            }
            for s in seats
        ],
        "fair_dice": game.fair_dice_info(),
        "actions": [
            {
                "seq": a.seq,
                "seat": a.seat.position,
                "player": a.seat.user.username,
                "action": a.action,
                "dice": a.dice,
                "at": a.created_at.isoformat(),
            }
            for a in actions
        ],
    }
