"""Farkle's per-seat figures (rolls, Farkles, hot dice, banked turns) and the statistics built on them.

Unlike a card, a Farkle state keeps no history, so a seat's summary is read from the game's events.
"""

from __future__ import annotations

from collections.abc import Iterable

from .figures import Figure, Table, mean_or_none, rate
from .messages import gettext_noop


class FarkleFigures:
    section = "farkle"
    needs_log = True

    def summary(self, state: dict, player: str, events: Iterable[dict] = ()) -> dict:
        rolls = farkles = hot_dice = 0
        banks: list[int] = []
        for event in events:
            if event.get("player") != player:
                continue
            kind = event.get("type")
            if kind in ("roll", "farkle"):
                rolls += 1
                farkles += kind == "farkle"
                hot_dice += bool(event.get("hot_dice"))
            elif kind == "bank":
                banks.append(event.get("turn_points", 0))
        # The last one standing may win under the goal: such a result enters no list.
        complete = state["banked"][player] >= state["goal"]
        return {
            "rolls": rolls,
            "farkles": farkles,
            "hot_dice": hot_dice,
            "banks": banks,
            "complete": complete,
        }

    def stats(self, rows: list[dict]) -> dict:
        """Rows carry "summary", "laps" and "winner" of one finished seat each."""
        rolls = sum(r["summary"]["rolls"] for r in rows)
        farkles = sum(r["summary"]["farkles"] for r in rows)
        banks = [b for r in rows for b in r["summary"]["banks"]]
        won_laps = [r["laps"] for r in rows if r["winner"]]
        laps = [r["laps"] for r in rows if r["laps"] is not None]
        return {
            "average_laps": mean_or_none(laps, 2),
            "best_laps": min(won_laps) if won_laps else None,
            "farkle_rate": rate(farkles, rolls),
            "rolls": rolls,
            "farkles": farkles,
            "hot_dice": sum(r["summary"]["hot_dice"] for r in rows),
            "average_bank": mean_or_none(banks, 1),
            "best_turn": max(banks) if banks else None,
            "turns_banked": len(banks),
        }

    def shown(self, stats: dict) -> list[Figure]:
        return [
            Figure(gettext_noop("Average laps"), "average_laps", stats["average_laps"]),
            Figure(gettext_noop("Best (fewest) laps"), "best_laps", stats["best_laps"], "optional"),
            Figure(gettext_noop("Farkle rate per roll"), "farkle_rate", stats["farkle_rate"], "rate"),
            Figure(gettext_noop("Hot dice"), "hot_dice", stats["hot_dice"]),
            Figure(gettext_noop("Average banked turn"), "average_bank", stats["average_bank"], "optional"),
            Figure(gettext_noop("Best turn"), "best_turn", stats["best_turn"], "optional"),
        ]

    def tables(self, stats: dict) -> list[Table]:
        return []


FIGURES = FarkleFigures()
