"""What one finished seat contributes to statistics, computed once when the game ends.

A summary is stored on the seat, so statistics over thousands of games read one small JSON value per
game instead of replaying logs. Card games summarise the final card; Farkle summarises the player's
events from the log.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.rules import painted_dicez, triple_quintzee, triple_yahtzee_99

# Boxes whose five of a kind counts as a Quintzee / Yahtzee / DiceZ in the statistics.
FIVE_KIND_BOX = {"triple-quintzee": "quintzee", "triple-yahtzee-99": "yahtzee", "painted-dicez": "dicez"}
# The boxes that count for the average per box and the scratch rate (waste and bonus boxes do not).
SCORING_BOXES = {
    "triple-quintzee": triple_quintzee.BOXES,
    "triple-yahtzee-99": triple_yahtzee_99.SCORING,
    "painted-dicez": painted_dicez.BOXES,
}


def card_summary(kind: str, card: dict) -> dict:
    """Per box values ("c:box" keys for the triple games), bonuses, five-of-a-kinds and scratches, and
    whether the card was complete (the last one standing may win with an incomplete card)."""
    boxes: dict[str, int] = {}
    if kind == "painted-dicez":
        for box in SCORING_BOXES[kind]:
            if card["boxes"].get(box) is not None:
                boxes[box] = card["boxes"][box]
        bonuses = [card["upper_bonus"] > 0, card["color_bonus"] > 0]
        five_kinds = 1 if card["boxes"].get("dicez") else 0
        upgrades = 0
    else:
        bonus_key = "top_bonus" if kind == "triple-quintzee" else "upper_bonus"
        bonuses = []
        five_kinds = 0
        for col in card["columns"]:
            for box in SCORING_BOXES[kind]:
                if col["boxes"].get(box) is not None:
                    boxes[f"{col['column']}:{box}"] = col["boxes"][box]
            bonuses.append(col[bonus_key] > 0)
            if col["boxes"].get(FIVE_KIND_BOX[kind]):
                five_kinds += 1
            if kind == "triple-quintzee":
                five_kinds += col["quintzee_bonus"] // triple_quintzee.QUINTZEE_BONUS
            elif col["boxes"].get("yahtzee_bonus"):
                five_kinds += 1
        upgrades = sum(1 for col in card["columns"] if col.get("upgraded"))
    return {
        "boxes": boxes,
        "bonuses": bonuses,
        "five_kinds": five_kinds,
        "scratches": sum(1 for v in boxes.values() if v == 0),
        "upgrades": upgrades,
        "complete": card["complete"],
    }


def farkle_summary(player: str, results: Iterable[dict]) -> dict:
    """Rolls, Farkles, hot dice and banked turns of one player, from the engine's events."""
    rolls = farkles = hot_dice = 0
    banks: list[int] = []
    for event in results:
        if event.get("player") != player:
            continue
        kind = event.get("type")
        if kind in ("roll", "farkle"):
            rolls += 1
            farkles += kind == "farkle"
            hot_dice += bool(event.get("hot_dice"))
        elif kind == "bank":
            banks.append(event.get("turn_points", 0))
    return {"rolls": rolls, "farkles": farkles, "hot_dice": hot_dice, "banks": banks}


def seat_summary(kind: str, state: dict, player: str, results: list[dict]) -> dict:
    if kind == "farkle":
        return farkle_summary(player, results)
    return card_summary(kind, state["cards"][player])
