"""config/daphne_sweep.py: daphne's connection sweep without a tuple per connection, with the same
outcome as daphne's own for every kind of connection."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

import daphne
from daphne import server as daphne_server

from config import daphne_sweep

NOW = 1_000_000.0
CLOSE_TIMEOUT = 10.0


class Protocol:
    def __init__(self, name: str):
        self.name = name
        self.exceptions: list[BaseException] = []

    def handle_exception(self, exception: BaseException) -> None:
        self.exceptions.append(exception)

    def __repr__(self) -> str:
        return self.name


class FakeServer:
    """The parts of daphne.server.Server the sweep reads."""

    application_close_timeout = CLOSE_TIMEOUT

    def __init__(self, connections: dict):
        self.connections = connections
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True

    def application_checker(self) -> None:
        """What the sweep schedules again (a sweep under test is called directly)."""


def _connections(loop: asyncio.AbstractEventLoop) -> tuple[dict, dict]:
    """One connection of every kind the sweep tells apart, by name."""

    def future(outcome=None):
        f = loop.create_future()
        if outcome == "result":
            f.set_result(None)
        elif outcome == "cancelled":
            f.cancel()
        elif isinstance(outcome, BaseException):
            f.set_exception(outcome)
        return f

    kinds = {
        "running": {"application_instance": future()},
        "finished": {"application_instance": future("result")},
        "finished_and_closed": {"application_instance": future("result"), "disconnected": NOW - 1},
        "cancelled": {"application_instance": future("cancelled")},
        "failed": {"application_instance": future(ValueError("boom"))},
        "failed_and_closed": {"application_instance": future(ValueError("late")), "disconnected": NOW - 1},
        "interrupted": {"application_instance": future(KeyboardInterrupt())},
        "closing": {"application_instance": future(), "disconnected": NOW - 1},
        "too_slow_to_close": {"application_instance": future(), "disconnected": NOW - CLOSE_TIMEOUT - 1},
        "closed_without_application": {"disconnected": NOW - 1},
        "open_without_application": {},
    }
    protocols = {name: Protocol(name) for name in kinds}
    return {protocols[name]: details for name, details in kinds.items()}, protocols


def _outcome(checker, monkeypatch) -> dict:
    monkeypatch.setattr(time, "time", lambda: NOW)
    rescheduled = []
    monkeypatch.setattr(daphne_sweep.reactor, "callLater", lambda delay, f: rescheduled.append(delay))
    monkeypatch.setattr(daphne_server.reactor, "callLater", lambda delay, f: rescheduled.append(delay))
    loop = asyncio.new_event_loop()
    try:
        connections, protocols = _connections(loop)
        futures = {
            p.name: d["application_instance"] for p, d in connections.items() if "application_instance" in d
        }
        server = FakeServer(connections)
        checker(server)
        return {
            "rescheduled": rescheduled,
            "stopped": server.stopped,
            "left": {p.name: sorted(details) for p, details in server.connections.items()},
            "cancelled": sorted(name for name, f in futures.items() if f.cancelled()),
            "handled": {p.name: [repr(e) for e in p.exceptions] for p in protocols.values() if p.exceptions},
        }
    finally:
        loop.close()


def test_the_sweep_leaves_every_kind_of_connection_as_daphnes_own_does(monkeypatch, caplog):
    ours = _outcome(daphne_sweep.application_checker, monkeypatch)
    theirs = _outcome(daphne_sweep._original, monkeypatch)

    assert ours == theirs
    assert ours["left"] == {
        "running": ["application_instance"],
        "finished": [],
        "cancelled": [],
        "failed": [],
        "interrupted": [],
        "closing": ["application_instance", "disconnected"],
        "open_without_application": [],
    }
    assert ours["handled"] == {"failed": ["ValueError('boom')"]}
    assert ours["stopped"] and ours["rescheduled"] == [1]
    assert "too_slow_to_close" in ours["cancelled"]
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors.count("Exception inside application: boom") == 2  # once for each sweep
    assert errors.count("Exception inside application: late") == 2


def test_a_sweep_makes_no_container_per_connection(monkeypatch):
    monkeypatch.setattr(daphne_sweep.reactor, "callLater", lambda delay, f: None)
    monkeypatch.setattr(daphne_server.reactor, "callLater", lambda delay, f: None)
    loop = asyncio.new_event_loop()
    try:
        running = loop.create_future()
        server = FakeServer({Protocol(f"p{n}"): {"application_instance": running} for n in range(5000)})

        def young_collections(checker) -> int:
            gc.collect()
            before = gc.get_stats()[0]["collections"]
            checker(server)
            return gc.get_stats()[0]["collections"] - before

        assert young_collections(daphne_sweep._original) >= 5  # 5,000 tuples, 700 to a collection
        assert young_collections(daphne_sweep.application_checker) == 0
    finally:
        loop.close()


def test_it_is_installed_only_on_the_daphne_it_was_written_for(monkeypatch):
    pinned = next(
        line.split("==")[1].strip()
        for line in (Path(__file__).parents[2] / "requirements" / "base.txt").read_text().splitlines()
        if line.startswith("daphne==")
    )
    assert pinned == daphne.__version__ == daphne_sweep.DAPHNE_VERSION, (
        "check the sweep against the new daphne"
    )
    monkeypatch.setattr(daphne_server.Server, "application_checker", daphne_sweep._original)
    assert daphne_sweep.install() is True
    assert daphne_server.Server.application_checker is daphne_sweep.application_checker
    monkeypatch.setattr(daphne_sweep.daphne, "__version__", "9.9.9")
    monkeypatch.setattr(daphne_server.Server, "application_checker", daphne_sweep._original)
    assert daphne_sweep.install() is False
    assert daphne_server.Server.application_checker is daphne_sweep._original


def test_the_served_application_installs_it():
    import config.asgi  # noqa: F401

    assert daphne_server.Server.application_checker is daphne_sweep.application_checker
