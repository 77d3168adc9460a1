"""A notices socket's feed takes in a passed turn (notices.feed.Feed.with_turn): the orders of the
lists, a game that ended, a feed cut at its limit."""

from __future__ import annotations

from notices.feed import LIMIT, Feed, Row


def test_a_feed_cut_at_its_limit_is_read_again_when_a_turn_passes():
    rows = [Row(n, "farkle", {}, "bob", float(n), ["ann", "bob"], {}) for n in range(1, LIMIT + 1)]
    cut = Feed(sound=False, browser=False, turns=[], playing=rows, notices=[], cut=True)
    assert not cut.with_turn(Row(1, "farkle", {}, "ann", 99.0, ["ann", "bob"], {}), "ann")
    whole = Feed(sound=False, browser=False, turns=[], playing=rows[:3], notices=[])
    assert whole.with_turn(Row(2, "farkle", {}, "ann", 99.0, ["ann", "bob"], {}), "ann")
    assert [r.game for r in whole.turns] == [2] and [r.game for r in whole.playing] == [3, 1]
    assert whole.with_turn(Row(2, "farkle", {}, "", 100.0, ["ann", "bob"], {}, over=True), "ann")
    assert whole.turns == [] and whole.frame()["count"] == 0
