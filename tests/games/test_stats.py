"""Statistics, high scores, history and replays on games played through the services with scripted dice.

Expected figures are worked out by hand in the comments.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.results.highscores import high_scores
from games.results.stats import histogram, player_stats
from games.tables import services
from groups import services as group_services

pytestmark = pytest.mark.django_db

PD_BOXES = [
    "ones", "twos", "threes", "fours", "fives", "sixes", "blues", "reds", "pinks", "greens", "yellows",
    "four_of_a_kind", "four_of_a_color", "full_house", "painted_house", "straight", "rainbow", "flush",
    "dicez", "chance",
]  # fmt: skip
RAINBOW_STRAIGHT = [[1, "blue"], [2, "red"], [3, "pink"], [4, "green"], [5, "yellow"]]
FIVE_RED_SIXES = [[6, "red"]] * 5


def act(game, user, action, _ids=iter(range(10**9))):  # noqa: B008 - a shared counter is the point
    return services.game_apply_action(game_id=game.pk, user=user, client_id=f"s{next(_ids)}", action=action)


def painted_solo(user, roll, scripted_dice) -> Game:
    game = services.game_create(creator=user, kind="painted-dicez", seats=1)
    scripted_dice(*([roll] * 20))
    for box in PD_BOXES:
        act(game, user, {"type": "roll", "hold": []})
        act(game, user, {"type": "score", "box": box})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def farkle_game(ann, bob, scripted_dice, group=None) -> Game:
    """ann: 1050 then 10000 (11050, 2 laps, wins); bob: Farkle, then 1500 after confirmed hot dice."""
    game = services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2, group=group)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    scripted_dice(
        [5, 2, 3, 4, 6, 6], [1, 1, 1, 2, 3], [2, 2, 3, 4, 6, 6], [1, 1, 1, 1, 1, 2],
        [1, 2, 3, 4, 5, 6], [5, 5, 5, 2, 3, 4],
    )  # fmt: skip
    for user, action in [
        (ann, {"type": "roll", "keep": []}),
        (ann, {"type": "roll", "keep": [0]}),
        (ann, {"type": "bank", "keep": [0, 1, 2]}),
        (bob, {"type": "roll", "keep": []}),
        (ann, {"type": "roll", "keep": []}),
        (ann, {"type": "bank", "keep": [0, 1, 2, 3, 4]}),
        (bob, {"type": "roll", "keep": []}),
        (bob, {"type": "roll", "keep": [0, 1, 2, 3, 4, 5]}),
        (bob, {"type": "bank", "keep": [0, 1, 2]}),
    ]:
        act(game, user, action)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


FARKLE = [2, 2, 3, 4, 6, 6]  # nothing scores: the turn ends with no points


def first_turns(game, scripted_dice, *users) -> None:
    """Each of ``users``, in turn, plays a first turn (Farkle: a roll that scores nothing; Painted
    DiceZ: a rainbow straight scored as ones, 1 point), so that a resignation no longer aborts the game."""
    for user in users:
        if game.kind == "farkle":
            scripted_dice(FARKLE)
            act(game, user, {"type": "roll", "keep": []})
        else:
            scripted_dice(RAINBOW_STRAIGHT)
            act(game, user, {"type": "roll", "hold": []})
            act(game, user, {"type": "score", "box": "ones"})


def farkle_solo(user, rolls_and_actions, scripted_dice) -> Game:
    game = services.game_create(creator=user, kind="farkle", options={"goal": 3000}, seats=1)
    for roll, action in rolls_and_actions:
        if roll:
            scripted_dice(roll)
        act(game, user, action)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_painted_dicez_statistics(ann, scripted_dice):
    # Game 1, every roll B1 R2 P3 G4 Y5: ones..fives 1+2+3+4+5 = 15, sixes 0; colours 1+2+3+4+5 = 15;
    # straight 40, rainbow 40, chance 15, the other six lower boxes 0. Total 125, 7 scratches, no bonus.
    painted_solo(ann, RAINBOW_STRAIGHT, scripted_dice)
    # Game 2, every roll five red 6s: sixes 30, reds 30, 4 of a kind 30, 4 of a colour 30, flush 50,
    # dicez 50, chance 30. Total 250, 13 scratches (5 faces, 4 colours, FH, PH, straight, rainbow).
    painted_solo(ann, FIVE_RED_SIXES, scripted_dice)
    stats = player_stats(ann, "painted-dicez")
    assert stats["games"] == 2 and stats["solo_games"] == 2
    assert stats["wins"] == 2 and stats["win_rate"] == 1.0
    assert (stats["average"], stats["best"], stats["worst"]) == (187.5, 250, 125)
    card = stats["card"]
    assert card["bonus_rate"] == [0.0, 0.0]
    assert card["five_kinds"] == 1
    assert card["scratch_rate"] == 0.5  # (7 + 13) / 40
    assert card["average_per_box"]["sixes"] == 15.0  # (0 + 30) / 2
    assert card["average_per_box"]["straight"] == 20.0
    assert card["average_per_box"]["flush"] == 25.0
    assert [p["score"] for p in stats["series"]] == [125, 250]
    assert sum(stats["histogram"]["counts"]) == 2


def test_farkle_statistics(ann, bob, scripted_dice):
    farkle_game(ann, bob, scripted_dice)
    a = player_stats(ann, "farkle", goal=3000)
    # ann rolled 3 times (two in turn 1, one in turn 3), never farkled, banked 1050 and 10000.
    assert (a["games"], a["wins"], a["best"]) == (1, 1, 11050)
    assert a["farkle"] == {
        "average_laps": 2, "best_laps": 2, "farkle_rate": 0.0, "rolls": 3, "farkles": 0, "hot_dice": 0,
        "average_bank": 5525.0, "best_turn": 10000, "turns_banked": 2,
    }  # fmt: skip
    b = player_stats(bob, "farkle", goal=3000)
    # bob: a Farkle (1 roll), then a straight (1 roll) set aside with a hot-dice re-roll (1 roll), banked
    # 1000 + 500 = 1500. Never won, so no best laps.
    assert (b["games"], b["wins"], b["best"]) == (1, 0, 1500)
    assert b["farkle"]["rolls"] == 3 and b["farkle"]["farkles"] == 1 and b["farkle"]["hot_dice"] == 1
    assert b["farkle"]["farkle_rate"] == 0.3333
    assert b["farkle"]["best_turn"] == 1500 and b["farkle"]["best_laps"] is None
    assert player_stats(ann, "farkle", goal=10000)["games"] == 0


def test_farkle_high_scores_rank_by_laps_then_score_then_date(ann, bob, make_user, scripted_dice):
    cid, dan = make_user("cid"), make_user("dan")
    farkle_game(ann, bob, scripted_dice)  # ann: 2 laps, 11050
    # cid: five 1s at once, 10000 in 1 lap.
    farkle_solo(
        cid,
        [
            ([1, 1, 1, 1, 1, 2], {"type": "roll", "keep": []}),
            (None, {"type": "bank", "keep": [0, 1, 2, 3, 4]}),
        ],
        scripted_dice,
    )
    # dan: 1000 in lap 1, then 10000 in lap 2: 11000 in 2 laps.
    farkle_solo(
        dan,
        [
            ([1, 1, 1, 2, 3, 4], {"type": "roll", "keep": []}),
            (None, {"type": "bank", "keep": [0, 1, 2]}),
            ([1, 1, 1, 1, 1, 2], {"type": "roll", "keep": []}),
            (None, {"type": "bank", "keep": [0, 1, 2, 3, 4]}),
        ],
        scripted_dice,
    )
    board = high_scores("farkle", goal=3000)
    rows = [(e["rank"], e["player"], e["laps"], e["score"], e["solo"]) for e in board["entries"]]
    assert rows == [(1, "cid", 1, 10000, True), (2, "ann", 2, 11050, False), (3, "dan", 2, 11000, True)]
    assert "bob" not in [e["player"] for e in board["entries"]]  # only winners are on a Farkle list
    top1 = high_scores("farkle", goal=3000, viewer=dan, limit=1)
    assert len(top1["entries"]) == 1
    assert top1["viewer_best"]["rank"] == 3 and top1["viewer_best"]["player"] == "dan"
    assert high_scores("farkle", goal=10000)["entries"] == []


def test_card_high_scores_periods_and_ties(ann, bob, scripted_dice):
    old = painted_solo(ann, FIVE_RED_SIXES, scripted_dice)  # 250
    painted_solo(bob, FIVE_RED_SIXES, scripted_dice)  # 250, ties with ann: same rank
    painted_solo(bob, RAINBOW_STRAIGHT, scripted_dice)  # 125
    board = high_scores("painted-dicez")
    assert [(e["rank"], e["player"], e["score"]) for e in board["entries"]] == [
        (1, "ann", 250), (1, "bob", 250), (3, "bob", 125),
    ]  # fmt: skip
    Game.objects.filter(pk=old.pk).update(finished_at=timezone.now() - timedelta(days=40))
    month = high_scores("painted-dicez", period="month")
    assert [e["player"] for e in month["entries"]] == ["bob", "bob"]
    assert high_scores("painted-dicez", period="month", viewer=ann)["viewer_best"] is None


def test_the_last_one_standing_wins_but_enters_no_high_score_list(ann, bob, scripted_dice):
    """RULINGS: the last player standing wins as they stand; an incomplete card, or a Farkle total
    short of the goal, enters no high-score list."""
    painted_solo(ann, RAINBOW_STRAIGHT, scripted_dice)  # 125, a complete card
    for kind, options in (("painted-dicez", {}), ("farkle", {"goal": 3000})):
        game = services.game_create(creator=ann, kind=kind, options=options, seats=2)
        services.game_join(game_id=game.pk, user=bob)
        services.game_start(game_id=game.pk, user=ann)
        first_turns(game, scripted_dice, ann, bob)
        act(game, ann, {"type": "resign"})
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert [s.user for s in game.seats.filter(winner=True)] == [bob]
    assert [e["player"] for e in high_scores("painted-dicez")["entries"]] == ["ann"]
    assert high_scores("farkle", goal=3000)["entries"] == []
    assert player_stats(bob, "painted-dicez")["wins"] == 1


def test_group_leaderboard_only_counts_the_groups_games(ann, bob, scripted_dice):
    group = group_services.group_create(creator=ann, name="G")
    group_services.group_add_member(group_id=group.pk, user=ann, username="bob")
    farkle_game(ann, bob, scripted_dice, group=group)
    farkle_game(ann, bob, scripted_dice)
    assert len(high_scores("farkle", goal=3000, group_id=group.pk)["entries"]) == 1
    assert len(high_scores("farkle", goal=3000)["entries"]) == 2


def test_histogram_bins():
    assert histogram([]) == {"edges": [], "width": 0, "counts": []}
    h = histogram([125, 250, 130, 249])
    assert h["width"] == 20 and h["edges"][0] == 120 and sum(h["counts"]) == 4


def test_pages_and_json(client, ann, bob, scripted_dice):
    game = farkle_game(ann, bob, scripted_dice)
    client.force_login(bob)
    stats = client.get(reverse("players:stats", args=["ann"]), {"kind": "farkle", "goal": 3000})
    assert stats.status_code == 200 and b"11050" in stats.content
    data = client.get(reverse("api_player_stats", args=["ann"]), {"kind": "farkle", "goal": 3000}).json()
    assert data["player"] == "ann" and data["best"] == 11050 and data["farkle"]["best_laps"] == 2
    board = client.get(reverse("api_highscores"), {"kind": "farkle", "goal": 3000}).json()
    assert [e["player"] for e in board["entries"]] == ["ann"]
    assert client.get(reverse("highscores"), {"kind": "farkle", "goal": 3000}).status_code == 200
    history = client.get(reverse("players:history", args=["ann"]), {"kind": "farkle"})
    assert history.status_code == 200 and f"#{game.pk}".encode() in history.content
    replay = client.get(reverse("games:replay", args=[game.pk]))
    assert replay.status_code == 200 and b"replay-data" in replay.content
    assert client.get(reverse("api_highscores"), {"kind": "chess"}).status_code == 404
    assert client.get(reverse("players:stats", args=["nobody"])).status_code == 404


def test_group_game_history_is_hidden_from_outsiders(client, ann, bob, make_user, scripted_dice):
    group = group_services.group_create(creator=ann, name="Secret")
    group_services.group_add_member(group_id=group.pk, user=ann, username="bob")
    game = farkle_game(ann, bob, scripted_dice, group=group)
    client.force_login(make_user("eve"))
    history = client.get(reverse("players:history", args=["ann"]))
    # The game's link as the history writes it: a bare "#18" is in the page's theme colour (#18233d).
    assert f"#{game.pk}</a>".encode() not in history.content
    assert client.get(reverse("games:replay", args=[game.pk])).status_code == 404  # as no game
    assert client.get(reverse("api_highscores"), {"kind": "farkle", "group": group.pk}).status_code == 404


def test_head_to_head_in_a_group(ann, bob, make_user, scripted_dice):
    from groups.selectors import head_to_head

    cid = make_user("cid")
    group = group_services.group_create(creator=bob, name="H2H")
    for name in ("ann", "cid"):
        group_services.group_add_member(group_id=group.pk, user=bob, username=name)
    farkle_game(ann, bob, scripted_dice, group=group)  # ann 11050 beats bob 1500
    farkle_game(ann, bob, scripted_dice, group=group)
    resigned = services.game_create(creator=cid, kind="farkle", options={"goal": 3000}, seats=2, group=group)
    services.game_join(game_id=resigned.pk, user=bob)
    services.game_start(game_id=resigned.pk, user=cid)
    first_turns(resigned, scripted_dice, cid, bob)
    act(resigned, cid, {"type": "resign"})  # cid resigns: bob, the last one standing, wins
    farkle_game(ann, bob, scripted_dice)  # outside the group: not counted
    assert head_to_head(group) == [
        {"a": "ann", "b": "bob", "games": 2, "a_wins": 2, "b_wins": 0, "draws": 0},
        {"a": "bob", "b": "cid", "games": 1, "a_wins": 1, "b_wins": 0, "draws": 0},
    ]


def test_the_group_page_shows_the_viewers_own_records_and_a_page_every_pair(
    client, ann, bob, make_user, scripted_dice
):
    from groups.selectors import group_page, records_of

    cid = make_user("cid")
    group = group_services.group_create(creator=bob, name="H2H")
    for name in ("ann", "cid"):
        group_services.group_add_member(group_id=group.pk, user=bob, username=name)
    farkle_game(ann, bob, scripted_dice, group=group)  # ann beats bob
    resigned = services.game_create(creator=cid, kind="farkle", options={"goal": 3000}, seats=2, group=group)
    services.game_join(game_id=resigned.pk, user=bob)
    services.game_start(game_id=resigned.pk, user=cid)
    first_turns(resigned, scripted_dice, cid, bob)
    act(resigned, cid, {"type": "resign"})  # bob beats cid
    assert records_of(group, cid) == [
        {"a": "cid", "b": "bob", "games": 1, "a_wins": 0, "b_wins": 1, "draws": 0}
    ]
    # Seen by bob, each record has bob on the left: against ann 0-1, against cid 1-0.
    assert group_page(group, bob)["head_to_head"] == [
        {"a": "bob", "b": "ann", "games": 1, "a_wins": 0, "b_wins": 1, "draws": 0},
        {"a": "bob", "b": "cid", "games": 1, "a_wins": 1, "b_wins": 0, "draws": 0},
    ]
    client.force_login(cid)
    page = client.get(reverse("groups:detail", args=[group.pk])).content.decode()
    assert "<td>bob</td>" in page and "ann vs bob" not in page
    every = client.get(reverse("groups:head_to_head", args=[group.pk])).content.decode()
    assert "ann vs bob" in every and "bob vs cid" in every


def test_the_group_pages_lists_are_kept_until_a_game_of_the_group_ends(ann, bob, scripted_dice):
    from groups.selectors import leaderboards

    group = group_services.group_create(creator=bob, name="Boards")
    group_services.group_add_member(group_id=group.pk, user=bob, username="ann")

    def farkle_3000() -> dict:
        return next(b for b in leaderboards(group) if b["kind"] == "farkle" and b["goal"] == 3000)

    first = farkle_game(ann, bob, scripted_dice, group=group)
    assert [e["game"] for e in farkle_3000()["entries"]] == [first.pk]
    farkle_game(ann, bob, scripted_dice)  # outside the group: the kept lists stand
    assert [e["game"] for e in farkle_3000()["entries"]] == [first.pk]
    second = farkle_game(ann, bob, scripted_dice, group=group)
    assert [e["game"] for e in farkle_3000()["entries"]] == [first.pk, second.pk]
