"""Writing a game's review: every person's decisions rebuilt from the stored actions and dice, judged
by the expert (coach.judge), stored once (coach.models)."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from coach import judge
from coach.models import Review, SeatReview
from games.models import Game
from games.results.replays import game_replay_states

ENDED = Game.OVER


def reviewable():
    """Games that ended after being played and have no review yet, the latest first."""
    return Game.objects.filter(
        status__in=ENDED, started_at__isnull=False, state__isnull=False, review__isnull=True
    ).order_by("-finished_at")


def seat_decisions(game: Game) -> dict[int, list[dict]]:
    """Each person's seat (by pk) -> their judged decisions, in the order played. Deterministic: the
    states come from the log and its dice (games.results.replays)."""
    states = game_replay_states(game)
    seats = {s.pk: s for s in game.seats.select_related("user")}
    out: dict[int, list[dict]] = {pk: [] for pk, s in seats.items() if not s.user.computer}
    logged_actions = list(game.actions.order_by("seq").only("seq", "seat_id", "action"))
    where = _turns_and_rolls(game, states, logged_actions, seats)
    for logged in logged_actions:
        if logged.seat_id not in out:
            continue
        before = states[logged.seq - 1]
        player = seats[logged.seat_id].user.username
        if not judge.judged(game.kind, before, player, logged.action):
            continue
        j = judge.judge(game.kind, before, logged.action, game.options)
        turn, roll = where[logged.seq]
        out[logged.seat_id].append(
            {
                "seq": logged.seq,
                "turn": turn,
                "roll": roll,
                "action": j.action,
                "text": j.text,
                "expert": j.expert,
                "expert_text": j.expert_text,
                "say": j.say,
                "expert_say": j.expert_say,
                "expert_value": round(j.expert_value, 3),
                "value": round(j.value, 3),
                "cost": round(j.cost, 3),
                "accuracy": round(j.accuracy, 2),
                "measure": j.measure,
            }
        )
    return out


def _turns_and_rolls(game: Game, states: list, logged_actions: list, seats: dict) -> dict[int, tuple]:
    """seq -> (turn, roll) as the player to move counts them: their own turns (the first is 1) and
    the rolls already made in this one. The engines' shared `turn` counter (games/rules/turns.py)
    counts every seat's turns together, which is not what a player counts."""
    engine = game.engine
    own_turns: dict[int, int] = {}
    counted: dict[int, int] = {}  # seat -> the shared turn number of its latest turn
    rolls, turn_of_rolls = 0, None
    where = {}
    for logged in logged_actions:
        before = states[logged.seq - 1]
        if before.get("turn") != turn_of_rolls:
            rolls, turn_of_rolls = 0, before.get("turn")
        seat = logged.seat_id
        if engine.current_player(before) == seats[seat].user.username and counted.get(seat) != before.get(
            "turn"
        ):
            counted[seat] = before.get("turn")
            own_turns[seat] = own_turns.get(seat, 0) + 1
        where[logged.seq] = (own_turns.get(seat), rolls)
        if logged.action.get("type") == "roll":
            rolls += 1
    return where


def review_game(*, game_id: int) -> str:
    """Review the game once: "reviewed", or "exists" / "not_ended" when there is nothing to do."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status not in ENDED or game.started_at is None or game.state is None:
        return "not_ended"
    if Review.objects.filter(game_id=game_id).exists():
        return "exists"
    decisions = seat_decisions(game)
    seats = {s.pk: s for s in game.seats.all()}
    try:
        with transaction.atomic():
            review = Review.objects.create(game=game)
            SeatReview.objects.bulk_create(
                _seat_review(review, seats[pk], game, judged) for pk, judged in decisions.items()
            )
    except IntegrityError:  # another worker wrote it meanwhile: the game is reviewed once
        return "exists"
    return "reviewed"


def _seat_review(review: Review, seat, game: Game, judged: list[dict]) -> SeatReview:
    accuracy = judge.game_accuracy([d["accuracy"] for d in judged])
    return SeatReview(
        review=review,
        seat=seat,
        user_id=seat.user_id,
        kind=game.kind,
        finished_at=game.finished_at,
        decision_count=len(judged),
        best_count=judge.best_count(judged),
        # Expected points only: a decision judged by the chance of winning has its cost in percent.
        total_cost=round(sum(d["cost"] for d in judged if d.get("measure", "points") == "points"), 3),
        accuracy=None if accuracy is None else round(accuracy, 2),
        decisions=judged,
    )
