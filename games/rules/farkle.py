"""Farkle ("10000"): set scoring dice aside and roll the rest, or bank; the goal ends the round.

Rulings: rules/RULINGS.md section 4; the project's additions: docs/rules-engines.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from . import farkle_figures, turns
from .declare import Option, Ranking
from .dice import FACES, Dice, check_indices, counts, shown
from .errors import IllegalAction, refused
from .messages import Message, english, gettext_noop, msg

slug = "farkle"
name = "Farkle (10000)"
min_players = 1
max_players = turns.MAX_PLAYERS

GOALS = (10000, 5000, 3000)
DICE_COUNTS = (6, 5)
BANK_MINIMUM = 300

_ACTION_KEYS = {
    "roll": frozenset({"type", "keep"}),
    "bank": frozenset({"type", "keep"}),
}
_TURNS = turns.Turns(slug, name, _ACTION_KEYS)

State = dict[str, Any]

# ---------------------------------------------------------------------------
# Scoring


def _three(face: int) -> int:
    return 1000 if face == 1 else face * 100


def _combinations() -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every combination of the RULINGS table as (count of each face 1..6, value)."""
    table: dict[tuple[int, ...], int] = {}

    def add(faces: list[int], value: int) -> None:
        key = tuple(faces.count(f) for f in FACES)
        # Four of a kind + a pair is also three pairs: the same dice keep the better value.
        table[key] = max(table.get(key, 0), value)

    add([1], 100)
    add([5], 50)
    for f in FACES:
        t = _three(f)
        add([f] * 3, t)
        add([f] * 4, 2 * t)
        add([f] * 5, 10000 if f == 1 else 5 * t)
        add([f] * 6, 20000 if f == 1 else 10000)
        for g in FACES:
            if g == f:
                continue
            add([f] * 3 + [g] * 2, 2 * t)
            add([f] * 4 + [g] * 2, 2 * (2 * t))
            add([f] * 4 + [g] * 2, 1000)
            if g > f:
                add([f] * 3 + [g] * 3, 2 * (t + _three(g)))
    for f, g, h in combinations(FACES, 3):
        add([f, f, g, g, h, h], 1000)
    add([1, 2, 3, 4, 5, 6], 1000)
    add([1, 2, 3, 4, 5], 500)
    add([2, 3, 4, 5, 6], 500)
    return tuple(table.items())


_COMBINATIONS = _combinations()


@cache
def _best(face_counts: tuple[int, ...]) -> int:
    """Best split of these dice into combinations; -1 when some die cannot be used."""
    first = next((i for i, n in enumerate(face_counts) if n), None)
    if first is None:
        return 0
    best = -1
    # Every die must be in some combination, so only those with the lowest face present need trying.
    for combo, value in _COMBINATIONS:
        if combo[first] and all(have >= need for have, need in zip(face_counts, combo, strict=True)):
            rest = _best(tuple(have - need for have, need in zip(face_counts, combo, strict=True)))
            if rest >= 0:
                best = max(best, value + rest)
    return best


@cache
def _score_sorted(faces: tuple[int, ...]) -> int:
    return max(_best(tuple(faces.count(f) for f in FACES)), 0)


def _is_face(f: Any) -> bool:
    return isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6


def score(dice: Iterable[int]) -> int:
    """The value of setting aside exactly these dice from one roll; 0 if any die does not contribute."""
    faces = tuple(dice)
    if not faces or not all(_is_face(f) for f in faces):
        return 0
    return _score_sorted(tuple(sorted(faces)))


def has_score(dice: Iterable[int]) -> bool:
    """Whether a roll holds at least one scoring die (False: a Farkle)."""
    faces = list(dice)
    c = counts(faces)
    if c[1] or c[5] or any(n >= 3 for n in c.values()):
        return True
    # Every straight holds a 1 or a 5; what is left is three pairs (four of a kind + a pair counts).
    return len(faces) == 6 and sorted(c.values()) in ([2, 2, 2], [2, 4])


@cache
def _sorted_keeps(faces: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every scoring selection of positions in the sorted roll ``faces``, with its value."""
    out = []
    for size in range(1, len(faces) + 1):
        for idx in combinations(range(len(faces)), size):
            value = _score_sorted(tuple(faces[i] for i in idx))
            if value:
                out.append((idx, value))
    return tuple(out)


@cache
def _sorted_sets(faces: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The combinations of the RULINGS table found in the sorted roll ``faces``, each once, with its
    value: the highest value first, then the fewer dice, then the lower faces."""
    have = tuple(faces.count(f) for f in FACES)
    found = [
        (tuple(f for f, n in zip(FACES, combo, strict=True) for _ in range(n)), value)
        for combo, value in _COMBINATIONS
        if all(need <= n for need, n in zip(combo, have, strict=True))
    ]
    found.sort(key=lambda item: (-item[1], len(item[0]), item[0]))
    return tuple(found)


def scoring_sets(dice: Iterable[int]) -> list[dict[str, Any]]:
    """The scoring sets of one roll, as the player picks from them: every combination of the RULINGS
    table that these dice hold, each once, the highest value first, as ``dice`` (its faces), ``keep``
    (the indices in ``dice`` of one choice of those faces) and ``value``. Any scoring selection of the
    roll is worth the sum of some of these sets, taken from different dice."""
    roll = list(dice)
    if not all(_is_face(f) for f in roll):
        return []
    out = []
    for faces, value in _sorted_sets(tuple(sorted(roll))):
        free = list(range(len(roll)))
        keep = []
        for f in faces:
            i = next(i for i in free if roll[i] == f)
            free.remove(i)
            keep.append(i)
        out.append({"dice": list(faces), "keep": sorted(keep), "value": value})
    return out


@lru_cache(maxsize=1024)
def _keeps(roll: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every scoring selection of indices of ``roll`` with its value, smallest selections first."""
    # Cached by the sorted roll (a few hundred of them) and mapped back to this roll's order, as the
    # 6**6 orders of a roll would not stay in a cache.
    order = sorted(range(len(roll)), key=roll.__getitem__)
    out = [
        (tuple(sorted([order[i] for i in idx])), value)
        for idx, value in _sorted_keeps(tuple(roll[i] for i in order))
    ]
    out.sort(key=lambda keep: (len(keep[0]), keep[0]))
    return tuple(out)


# ---------------------------------------------------------------------------
# New game and queries


def _check_options(options: Mapping[str, Any]) -> tuple[int, int]:
    goal = options["goal"]
    dice_count = options["dice"]
    # type() rather than isinstance: True and 6.0 must not pass for a number of points or dice.
    if type(goal) is not int or goal not in GOALS:
        raise refused("options.goal")
    if type(dice_count) is not int or dice_count not in DICE_COUNTS:
        raise refused("options.dice")
    return goal, dice_count


def _turn_fields(dice_count: int) -> State:
    """The per-turn part of the state as it is before a turn's first roll."""
    return {
        "dice": [],
        "dice_left": dice_count,
        "turn_points": 0,
        "set_aside": [],
        "aside": [],
        "rolls": 0,
        "hot_dice_count": 0,
        "confirm_roll": False,
    }


def new_game(players: Any, options: Mapping[str, Any] | None = None) -> State:
    """A new game; ``options``: ``goal`` 10000 (default), 5000 or 3000, ``dice`` 6 (default) or 5.

    State layout (plain JSON):
    - ``goal``, ``dice_count``; ``banked`` ``{player: points}``; ``turns_taken`` ``{player: turns}``.
    - ``laps``: rounds started (the first at once); a round is finished when the last active player in
      seat order has had their turn. The final figure is the high-score number (lower is better).
    - ``ending``: an active player has banked the goal, so this round is the last.
    - the turn: ``dice`` (the latest roll, which ``keep`` indexes; ``[]`` before the first roll),
      ``dice_left`` (dice not set aside: still to roll, or on the table), ``turn_points``,
      ``set_aside`` (one list of faces per roll of this turn), ``aside`` (the faces set aside since the
      last hot dice), ``rolls`` (rolls this turn), ``hot_dice_count`` (times every die scored this turn)
      and ``confirm_roll`` (the dice on the table are the roll of all dice after hot dice).
    - ``last_event``: ``player``, ``type`` (roll, farkle, bank, resign, skip), ``dice`` (the dice rolled,
      else those on the table), ``kept`` (faces set aside), ``points`` (their value), ``turn_points``
      (the turn's points after setting them aside: banked, lost or still running), ``banked``, ``lost``,
      ``total`` (the player's banked total), ``farkle``, ``hot_dice`` (this action set every die aside and
      rolled them all again), ``by`` (who sent a skip), ``msg`` (what happened, as messages:
      games.rules.messages) and ``text`` (the same in English).
    """
    state, chosen = turns.start(_TURNS, players, options, _DEFAULTS)
    goal, dice_count = _check_options(chosen)
    seats = state["players"]
    return {
        **state,
        "goal": goal,
        "dice_count": dice_count,
        "banked": dict.fromkeys(seats, 0),
        "turns_taken": dict.fromkeys(seats, 0),
        "laps": 1,
        "ending": False,
        **_turn_fields(dice_count),
    }


current_player = turns.current_player
is_over = turns.is_over


def scores(state: State) -> dict[str, int]:
    """Each player's banked points."""
    return dict(state["banked"])


def _reached(state: State, alive: list[str]) -> list[str]:
    return [p for p in alive if state["banked"][p] >= state["goal"]]


def winners(state: State) -> list[str]:
    """Once the game is over: the last player standing, else every active player who reached the goal.

    The game ends only at the end of the round in which someone first reached the goal, so these
    all reached it in the same, fewest, number of laps.
    """
    return turns.winners(state, _reached)


def turn_points(state: State) -> int:
    """The points set aside in the current turn so far."""
    return state["turn_points"]


def legal_actions(state: State) -> list[dict[str, Any]]:
    """Every roll and bank the current player may make (without resign and skip)."""
    if state["over"]:
        return []
    if not state["rolls"]:
        return [{"type": "roll", "keep": []}]
    n = len(state["dice"])
    points = state["turn_points"]
    keeps = _keeps(tuple(state["dice"]))
    rolls = [{"type": "roll", "keep": list(idx)} for idx, _ in keeps]
    banks = [
        {"type": "bank", "keep": list(idx)}
        for idx, value in keeps
        if len(idx) < n and points + value >= BANK_MINIMUM
    ]
    return rolls + banks


def preview(state: State) -> dict[str, Any]:
    """What the current player's screen needs beyond the state.

    ``scoring``: indices of the dice on the table that some scoring selection uses; ``can_roll``,
    ``can_bank``: whether some roll or bank is legal; ``must_confirm``: every die on the table scores
    together, so setting them all aside means rolling all dice again (banking then is not allowed);
    ``first_roll``: the turn has not rolled yet; ``best``: the highest value a selection can take.
    ``sets``: the scoring sets of the dice on the table with their worth (``scoring_sets``), for the
    player to see before picking; ``keeps``: every scoring selection of them, ``{"keep": [i, ...],
    "value": n}`` (the ``keep`` of each roll in ``legal_actions``), so that a screen reads the value of
    a selection, and which dice can still join it, from the engine instead of scoring dice itself.
    """
    out = {
        "scoring": [],
        "can_roll": False,
        "can_bank": False,
        "must_confirm": False,
        "first_roll": False,
        "best": 0,
        "sets": [],
        "keeps": [],
        "turn_points": state["turn_points"],
        "bank_minimum": BANK_MINIMUM,
    }
    if state["over"]:
        return out
    if not state["rolls"]:
        out.update(can_roll=True, first_roll=True)
        return out
    n = len(state["dice"])
    keeps = _keeps(tuple(state["dice"]))
    out.update(
        scoring=sorted({i for idx, _ in keeps for i in idx}),
        can_roll=bool(keeps),
        can_bank=any(len(idx) < n and state["turn_points"] + v >= BANK_MINIMUM for idx, v in keeps),
        must_confirm=any(len(idx) == n for idx, _ in keeps),
        best=max((v for _, v in keeps), default=0),
        sets=scoring_sets(state["dice"]),
        keeps=[{"keep": list(idx), "value": v} for idx, v in keeps],
    )
    return out


def selection_value(state: State, keep: Any) -> int:
    """The value of setting aside these indices of the latest roll; 0 if invalid or not all scoring."""
    try:
        idx = check_indices(keep, len(state["dice"]))
    except IllegalAction:
        return 0
    return score(state["dice"][i] for i in idx)


# ---------------------------------------------------------------------------
# Actions


def apply(state: State, player: Any, action: Any, dice: Dice) -> State:
    """The state after ``player`` takes ``action``; ``state`` is left as it was."""
    kind = turns.check_action(_TURNS, state, player, action)
    if kind == "resign":
        return _resign(state, player)
    if kind == "skip":
        return _skip(state, player)
    keep = action.get("keep", [])
    if not state["rolls"]:
        if kind == "bank":
            raise refused("farkle.bank_first")
        if not isinstance(keep, list):
            check_indices(keep, 0)  # raises its own sentence for anything but a list
        if keep:
            raise refused("farkle.keep_first")
        return _roll(state, [], 0, dice)
    idx = check_indices(keep, len(state["dice"]))
    if not idx:
        raise refused("farkle.keep_none")
    faces = [state["dice"][i] for i in idx]
    value = score(faces)
    if not value:
        raise refused("farkle.no_score", dice=_show(faces))
    if kind == "roll":
        return _roll(state, faces, value, dice)
    return _bank(state, faces, value)


def _copy(state: State) -> State:
    """A copy deep enough that changing it never touches ``state`` (faster than deepcopy)."""
    s = dict(state)
    s["players"] = list(state["players"])
    s["resigned"] = list(state["resigned"])
    s["dice"] = list(state["dice"])
    s["set_aside"] = [list(faces) for faces in state["set_aside"]]
    s["aside"] = list(state["aside"])
    s["banked"] = dict(state["banked"])
    s["turns_taken"] = dict(state["turns_taken"])
    return s


def _show(faces: Iterable[int]) -> str:
    return " ".join(str(f) for f in faces)


def _event(s: State, player: str, kind: str, **fields: Any) -> dict[str, Any]:
    event = {
        "player": player,
        "type": kind,
        "dice": [],
        "kept": [],
        "points": 0,
        "turn_points": 0,
        "banked": 0,
        "lost": 0,
        "total": s["banked"][player],
        "farkle": False,
        "hot_dice": False,
        "msg": [],
    }
    event.update(fields)
    event["text"] = english(event["msg"])
    return event


def _roll_dice(dice: Dice, n: int) -> list[int]:
    roll = list(dice(n))
    if len(roll) != n or not all(_is_face(f) for f in roll):
        raise RuntimeError(f"the dice source returned {roll!r} for {n} dice")
    return roll


def _roll(state: State, faces: list[int], value: int, dice: Dice) -> State:
    s = _copy(state)
    player = s["current"]
    if faces:
        s["set_aside"].append(faces)
        s["aside"].extend(faces)
        s["turn_points"] += value
        left = len(state["dice"]) - len(faces)
    else:
        left = s["dice_count"]
    hot = bool(faces) and left == 0
    if hot:
        left = s["dice_count"]
        s["aside"] = []
        s["hot_dice_count"] += 1
    roll = _roll_dice(dice, left)
    s["dice"] = roll
    s["dice_left"] = left
    s["rolls"] += 1
    s["confirm_roll"] = hot
    points = s["turn_points"]
    said = {"player": player, "dice": _show(roll)}
    if hot:
        said = msg("farkle.hot_dice", kept=_show(faces), value=value, turn=points, count=left, **said)
    elif faces:
        said = msg("farkle.kept", kept=_show(faces), value=value, turn=points, **said)
    else:
        said = msg("rolled", **said)
    text = [said]
    farkle = not has_score(roll)
    if farkle:
        text.append(msg("farkle.farkle_lost", points=points) if points else msg("farkle.farkle"))
    s["last_event"] = _event(
        s,
        player,
        "farkle" if farkle else "roll",
        dice=roll,
        kept=faces,
        points=value,
        turn_points=points,
        lost=points if farkle else 0,
        farkle=farkle,
        hot_dice=hot,
        msg=text,
    )
    if farkle:
        _end_turn(s, counted=True)
    return s


def _bank(state: State, faces: list[int], value: int) -> State:
    if len(faces) == len(state["dice"]):
        raise refused("farkle.confirm")
    points = state["turn_points"] + value
    if points < BANK_MINIMUM:
        raise refused("farkle.minimum", minimum=BANK_MINIMUM, points=points)
    s = _copy(state)
    player = s["current"]
    s["set_aside"].append(faces)
    s["aside"].extend(faces)
    s["turn_points"] = points
    s["banked"][player] += points
    total = s["banked"][player]
    text = [msg("farkle.banked", player=player, kept=_show(faces), value=value, points=points, total=total)]
    if total >= s["goal"] and state["banked"][player] < s["goal"]:
        text.append(msg("farkle.goal", player=player, goal=s["goal"]))
    s["last_event"] = _event(
        s,
        player,
        "bank",
        dice=list(state["dice"]),
        kept=faces,
        points=value,
        turn_points=points,
        banked=points,
        msg=text,
    )
    _end_turn(s, counted=True)
    return s


def _resign(state: State, player: str) -> State:
    turns.check_resign(state, player)
    s = _copy(state)
    s["resigned"].append(player)
    in_turn = player == state["current"]
    lost = state["turn_points"] if in_turn else 0
    s["last_event"] = _event(
        s,
        player,
        "resign",
        dice=list(state["dice"]) if in_turn else [],
        turn_points=lost,
        lost=lost,
        msg=[msg("resigned", player=player)],
    )
    alone = turns.left_alone(s)
    if in_turn or alone:
        # The turn is abandoned, not played: it does not count in turn or turns_taken.
        _end_turn(s, counted=False, alone=alone)
    else:
        s["ending"] = _ending(s)
    return s


def _skip(state: State, player: str) -> State:
    turns.check_skip(state, player)
    s = _copy(state)
    skipped = s["current"]
    lost = state["turn_points"]
    s["last_event"] = _event(
        s,
        skipped,
        "skip",
        dice=list(state["dice"]),
        turn_points=lost,
        lost=lost,
        by=player,
        msg=[
            msg("farkle.skipped_lost", by=player, player=skipped, points=lost)
            if lost
            else msg("farkle.skipped", by=player, player=skipped)
        ],
    )
    _end_turn(s, counted=True)
    return s


def _ending(s: State) -> bool:
    return any(s["banked"][p] >= s["goal"] for p in s["players"] if p not in s["resigned"])


def _end_turn(s: State, *, counted: bool, alone: bool = False) -> None:
    """Clear the turn and pass it to the next active seat; finish the game at the end of the last round.

    A round ends when the turn passes the last seat. If by then an active player has reached the goal,
    the game is over; a player who resigned is skipped and never wins, so the game goes on if the only
    one who reached the goal resigns. ``alone``: a resignation has just left one player of several (or
    nobody), which ends the game at once.
    """
    player = s["current"]
    if counted:
        s["turn"] += 1
        s["turns_taken"][player] += 1
    s.update(_turn_fields(s["dice_count"]))
    seats = s["players"]
    resigned = s["resigned"]
    i = seats.index(player)
    following = next((p for p in seats[i + 1 :] if p not in resigned), None)
    wrapped = following is None
    if wrapped:
        following = next((p for p in seats[: i + 1] if p not in resigned), None)
    s["ending"] = _ending(s)
    if alone or following is None or (wrapped and s["ending"]):
        turns.finish(s)
        event = s["last_event"]
        solo = s["banked"][seats[0]] if len(seats) == 1 else None
        event["msg"].append(turns.outcome(winners(s), s["laps"], solo=solo))
        event["text"] = english(event["msg"])
        return
    if wrapped:
        s["laps"] += 1
    s["current"] = following


# --- what the site asks of this game (docs/engine.md, "Declarations") --------------------------------

pitch = gettext_noop(
    "Six dice, push your luck: bank 300 or more, confirm hot dice, reach the goal in fewest laps."
)
dice_kind = "plain"
view = "farkle"
options = (
    Option(
        "goal",
        gettext_noop("Farkle goal"),
        # Plain digits in every language, not for translation: a goal is written as it names the game
        # ("Farkle (3000)"), on every page, notice and e-mail alike (messages.NAMING).
        ((10000, "10000"), (5000, "5000"), (3000, "3000")),
        GOALS[0],
        text=gettext_noop("Goal {value}"),
        separates_results=True,
        # The game is known as "10000" after its usual goal: a game to 3000 is "Farkle (3000)".
        names_game="Farkle ({value})",
    ),
    Option(
        "dice",
        gettext_noop("Farkle dice"),
        # Spelt out, not built, so that the site finds them in its catalogue to translate.
        ((6, gettext_noop("6 dice")), (5, gettext_noop("5 dice"))),
        DICE_COUNTS[0],
        text=gettext_noop("{value} dice"),
    ),
)
# new_game fills in what a caller leaves out from the declared options, their one source of defaults.
_DEFAULTS = {o.name: o.default for o in options}
ranking = Ranking(
    order=("laps", "-final_score"),
    winners_only=True,
    text=gettext_noop(
        "Winners ranked by fewest laps to the goal; ties go to the higher final score, then the earlier game."
    ),
)
FIGURES = farkle_figures.FIGURES
SHEET = None  # no card: the "farkle" view draws the table of set-aside dice
# Its computer players (and the coach's expert) and its rules page, named rather than imported, so that
# the engine stays pure (games/declaration.py loads them when the site first asks).
PLAYERS = "games.bots.farkle.PLAYERS"
RULEBOOK = "games.rulebook.farkle.RULEBOOK"


def words(state: State, action: dict[str, Any]) -> Message:
    """An action before it is played, in words a player understands (the coach's hint and review): "set
    aside 5 5 5 and roll 3 dice", "set aside 5 1 and bank 450", as a message (games.rules.messages)."""
    keep = action.get("keep", [])
    if not state["rolls"]:
        return msg("coach.roll")
    points = state["turn_points"] + score(state["dice"][i] for i in keep)
    aside = shown(state["dice"], keep)
    if action["type"] == "bank":
        return msg("coach.farkle.bank", dice=aside, points=points)
    left = len(state["dice"]) - len(keep)
    if not left:
        return msg("coach.farkle.roll_all", dice=aside, count=state["dice_count"], points=points)
    return msg("coach.farkle.roll", dice=aside, left=left, points=points)
