"""A notices socket's feed takes in a passed turn (notices.feed.Feed.with_turn): the orders of the
lists, a game that ended, lists cut at their limit."""

from __future__ import annotations

from notices.feed import LIMIT, Feed, Row


def row(game: int, current: str, since: float, over: bool = False) -> Row:
    return Row(game, "farkle", {}, current, since, ["ann", "bob"], {}, over)


def test_a_turn_moves_its_game_between_the_lists_in_their_orders():
    playing = [row(n, "bob", n) for n in (3, 2, 1)]
    feed = Feed(sound=False, browser=False, turns=[], playing=playing, notices=[])
    assert feed.with_turn(row(2, "ann", 99.0), "ann")
    assert [r.game for r in feed.turns] == [2] and [r.game for r in feed.playing] == [3, 1]
    assert feed.with_turn(row(1, "ann", 100.0), "ann")
    assert [r.game for r in feed.turns] == [2, 1]  # the longest waiting first
    assert feed.with_turn(row(2, "", 101.0, over=True), "ann")
    assert [r.game for r in feed.turns] == [1] and feed.frame()["count"] == 1


def test_lists_cut_at_their_limit():
    playing = [row(n, "bob", float(n)) for n in range(LIMIT, 0, -1)]  # the latest turn first
    feed = Feed(sound=False, browser=False, turns=[], playing=playing, notices=[], cut=frozenset({"playing"}))
    # A game stays in the cut list: it goes first, the last one shown drops out of sight.
    assert feed.with_turn(row(1, "cid", 50.0), "ann")
    assert [r.game for r in feed.playing][:2] == [1, LIMIT] and len(feed.playing) == LIMIT
    # A game of the cut list not shown comes in first too.
    assert feed.with_turn(row(99, "cid", 60.0), "ann")
    assert feed.playing[0].game == 99 and len(feed.playing) == LIMIT
    # A game leaves the cut list: which game takes its place only the database knows.
    assert not feed.with_turn(row(99, "ann", 70.0), "ann")
