"""bench/ratings_predict.py: a tiny run covers every rating kind with chances that add up to one, rates
through the site's own places and update, and its Brier scores and reliability table are what a hand
count gives."""

from __future__ import annotations

import pytest

from bench import ratings_predict as rp
from games import rules
from games.results.places import final_places, places, seat_results
from ratings import kinds, skill


def _game(chances, places_):
    return rp.Played(
        players=[f"p{i}" for i in range(len(chances))],
        strengths=["easy"] * len(chances),
        before=[(25.0, 25 / 3)] * len(chances),
        chances=chances,
        naive=[1 / len(chances)] * len(chances),
        places=places_,
        won=rp.outcomes(places_),
        seconds=0.0,
    )


def test_a_tiny_run_covers_every_kind_with_chances_that_add_up_to_one():
    runs = [rp.play_kind(kind, 3, seed=5) for kind in rp.every_kind()]
    summary = rp.summarise(runs, burn_in=0)

    assert list(summary["kinds"]) == kinds.every()
    assert {"triple-quintzee", "farkle:10000", "farkle:3000"} <= set(summary["kinds"])
    for run in runs:
        assert len(run.games) == 3
        for game in run.games:
            n = len(game.players)
            assert n in rp.SEATS and len(set(game.players)) == n
            assert sum(game.chances) == pytest.approx(1)
            assert sum(game.won) == pytest.approx(1)
            assert game.naive == [pytest.approx(1 / n)] * n
            assert sorted(game.places)[0] == 1 and all(1 <= p <= n for p in game.places)
        # Everyone starts a newcomer: the first game's chances are the naive ones.
        assert run.games[0].chances == pytest.approx(run.games[0].naive)
        # The recorded places, replayed through the site's update, arrive at the players' ratings.
        replayed = {p.name: skill.initial() for p in run.players}
        for game in run.games:
            assert game.before == [replayed[name] for name in game.players]
            after = skill.update([replayed[name] for name in game.players], game.places)
            replayed.update(zip(game.players, after, strict=True))
        assert {p.name: (p.mu, p.sigma) for p in run.players} == replayed
        assert sum(p.games for p in run.players) == sum(len(g.players) for g in run.games)
        k = summary["kinds"][run.kind]
        assert [r["strength"] for r in k["strengths"]] == ["easy", "good", "expert"]
        for r in k["strengths"]:
            assert r["place"] is None or 0 <= r["place"] <= 1
        assert k["calibration"]["seats"] == sum(len(g.players) for g in run.games)
        assert sum(r["count"] for r in k["reliability"]) == k["calibration"]["seats"]
        by_size = [share["seats"] for r in k["by_seats"] for share in r["strengths"].values()]
        assert sum(by_size) == sum(r["seats"] for r in k["by_seats"]) == k["calibration"]["seats"]
    text = rp.markdown(summary)
    for kind in kinds.every():
        assert f"| {kinds.name(kind)} |" in text


def test_the_same_seed_plays_the_same_games():
    first = rp.play_kind("farkle:3000", 4, seed=9)
    again = rp.play_kind("farkle:3000", 4, seed=9)
    other = rp.play_kind("farkle:3000", 4, seed=10)

    def seen(run):
        return [(g.players, g.places) for g in run.games]

    assert seen(first) == seen(again) != seen(other)


def test_the_places_of_a_played_game_are_the_sites():
    engine = rules.get("farkle")
    seated = [rp.Player(name, "good", 25.0, 8.0) for name in ("ann", "bob", "cy")]
    state = rp.play("farkle", {"goal": 3000}, seated, "places")

    order = final_places(engine, state)
    assert order == places(engine.ranking, seat_results(engine, state))
    first = [p for p, place in zip(state["players"], order, strict=True) if place == 1]
    assert first == engine.winners(state)


def test_shared_wins_share_the_outcome():
    assert rp.outcomes([1, 2]) == [1.0, 0.0]
    assert rp.outcomes([2, 1, 1]) == [0.0, 0.5, 0.5]


def test_brier_and_reliability_by_hand():
    games = [_game([0.7, 0.3], [1, 2]), _game([0.5, 0.3, 0.2], [2, 1, 3])]

    c = rp.calibration(games)
    # Model: 0.3², 0.3², 0.5², 0.7², 0.2² over five seats; naive: 0.5², 0.5², (1/3)², (2/3)², (1/3)².
    assert c["brier"] == pytest.approx((0.09 + 0.09 + 0.25 + 0.49 + 0.04) / 5)
    assert c["naive"] == pytest.approx((0.25 + 0.25 + 1 / 9 + 4 / 9 + 1 / 9) / 5)
    assert c["skill"] == pytest.approx(1 - 0.192 / (7 / 30))
    assert (c["games"], c["seats"]) == (2, 5)
    assert rp.brier([(1.0, 1.0), (0.0, 0.0)]) == 0.0

    rows = {round(r["low"], 1): (r["count"], r["predicted"], r["observed"]) for r in rp.reliability(games)}
    assert rows == {
        0.2: (1, pytest.approx(0.2), 0.0),
        0.3: (2, pytest.approx(0.3), 0.5),
        0.5: (1, pytest.approx(0.5), 0.0),
        0.7: (1, pytest.approx(0.7), 1.0),
    }
    assert rp.reliability([_game([1.0, 0.0], [1, 2])])[-1]["high"] == 1.0  # a chance of 1 in the last bin


def test_the_burn_in_skips_the_first_games_and_the_order_is_read_from_the_intervals():
    games = [_game([0.5, 0.5], [1, 2]) for _ in range(10)]
    assert len(rp.after_burn_in(games, 0.2)) == 8

    def row(mean, lowest, highest, low, high):
        return {"mean": mean, "lowest": lowest, "highest": highest, "low": low, "high": high}

    apart = [
        row(1400, 1390, 1410, 1350, 1450),
        row(1500, 1490, 1510, 1460, 1540),
        row(1600, 1590, 1610, 1550, 1650),
    ]
    assert rp.order(apart) == {"means": True, "players": True, "intervals": True}
    close = [
        row(1400, 1390, 1410, 1350, 1450),
        row(1420, 1380, 1460, 1340, 1500),
        row(1600, 1590, 1610, 1550, 1650),
    ]
    assert rp.order(close) == {"means": True, "players": False, "intervals": False}


def test_the_seats_are_drawn_from_every_strength():
    run = rp.play_kind("farkle:3000", 30, seed=3)
    seen = {s for g in run.games for s in g.strengths}
    assert seen == {"easy", "good", "expert"}
    assert {len(g.players) for g in run.games} == set(rp.SEATS)
