"""daphne's once-a-second sweep of its connections, without a new tuple for every connection.

daphne.server.Server.application_checker reaps the application instances that have finished and the
connections that have closed. It starts each sweep with ``list(self.connections.items())``: with 5,000
sockets open that is 5,000 new containers, which set off about seven young collections of the garbage
collector inside that one callback, and with a heap that size each young collection takes milliseconds.
In the 5,000-socket step the sweep was 5.7 % of daphne's samples, a 25-30 ms stall of the event loop
every second (bench/journal.md). The sweep below does the same, walking the dict (whose iterator
reuses its tuple) and copying only the connections it acts on.

Written for daphne DAPHNE_VERSION (requirements/base.txt pins it); tests/config/test_daphne_sweep.py
holds it to daphne's own sweep, case by case, and fails when the pin moves.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import CancelledError

import daphne
from daphne import server as daphne_server
from twisted.internet import reactor

logger = logging.getLogger(__name__)

DAPHNE_VERSION = "4.2.3"
_original = daphne_server.Server.application_checker


def application_checker(self) -> None:
    """daphne's sweep (Server.application_checker), with the same outcome for every connection."""
    now = time.time()
    acted_on = []
    for protocol, details in self.connections.items():
        disconnected = details.get("disconnected")
        application_instance = details.get("application_instance")
        if application_instance is not None:
            if application_instance.done() or _too_slow(self, disconnected, now):
                acted_on.append(protocol)
        elif disconnected:
            acted_on.append(protocol)
    for protocol in acted_on:
        _settle(self, protocol, self.connections[protocol], now)
    reactor.callLater(1, self.application_checker)


def _too_slow(server, disconnected: float | None, now: float) -> bool:
    """The socket closed longer ago than its application may take to shut down."""
    return bool(disconnected) and now - disconnected > server.application_close_timeout


def _settle(server, protocol, details: dict, now: float) -> None:
    """What daphne's loop body does for one connection."""
    disconnected = details.get("disconnected")
    application_instance = details.get("application_instance")
    if _too_slow(server, disconnected, now) and application_instance and not application_instance.done():
        daphne_server.logger.warning(
            "Application instance %r for connection %s took too long to shut down and was killed.",
            application_instance,
            repr(protocol),
        )
        application_instance.cancel()
    if application_instance and application_instance.done():
        try:
            exception = application_instance.exception()
        except (CancelledError, asyncio.CancelledError):
            pass
        else:
            if exception:
                if isinstance(exception, KeyboardInterrupt):
                    server.stop()
                else:
                    daphne_server.logger.error(
                        "Exception inside application: %s", exception, exc_info=exception
                    )
                    if not disconnected:
                        protocol.handle_exception(exception)
        del server.connections[protocol]["application_instance"]
        application_instance = None
    if not application_instance and disconnected:
        del server.connections[protocol]


def install() -> bool:
    """Use this sweep in daphne's Server; True if it did (only on the daphne it was written for)."""
    if daphne.__version__ != DAPHNE_VERSION:
        logger.warning(
            "daphne %s is not %s: its own connection sweep stays", daphne.__version__, DAPHNE_VERSION
        )
        return False
    daphne_server.Server.application_checker = application_checker
    return True
