"""Python's garbage collector, set for a server process that runs for days (docs/BENCHMARKS.md; the
measurements below are in bench/journal.md).

A full (generation 2) collection walks every container object the process holds and stops the event
loop while it does: 116-178 ms in a server holding 600 sockets, once or twice every 20 s at 150 moves a
second, which put every move in flight past 100 ms. Two changes, made once the application is loaded:

- gc.freeze(): the objects that exist after start-up (modules, classes, Django's settings, URL
  patterns, templates loaded so far) live as long as the process, so no collection looks at them
  again. The longest full collection fell to 47-60 ms.
- a full collection only after 100 collections of generation 1 instead of 10 (350 since the young
  threshold went from 700 to 200, below: the same number of allocations apart): cyclic garbage that
  outlives two young collections is rare here (nothing was ever found to grow), and a full collection
  at that rate comes every few minutes under load instead of several times a minute.

Raising the young threshold made each young collection as long as a full one (27-67 ms at 10,000).
Same step four times each way (150 tables, 1 s think time, one process): p99 60-93 ms with these
settings, 79-229 ms without.

In a big heap even a young collection is slow: it finds nothing to free, but every reference it
follows leads to an old object somewhere in hundreds of megabytes. With 5,000 sockets open and
Python's threshold of 700, young collections took 6 ms on average (up to 23) and generation-1 ones 39
(up to 49), one of those every second, and they were most of the event loop's stalls. A young
collection after 200 allocations instead of 700 keeps about the same total time in the collector,
cut into pieces of 1.5 ms (up to 4) and 7 ms (up to 13). Full collections then come after 350
generation-1 collections, as many allocations apart as before (bench/journal.md).

Sockets opened later are the rest of the heap: with 5,000 open, each full collection walked their
objects (protocols, consumers, scopes, tasks) for 381-732 ms, with every move in flight waiting. So
their objects are frozen as well, SETTLE seconds after a socket opens (a burst of connections makes
one freeze). Frozen cyclic garbage is not collected: a closed socket's cycles wait until as many
sockets have opened or closed since the last full collection as were open then (at least
RECLAIM_MIN); that churn brings one full collection of everything, at a rate the churn sets instead
of one every few thousand moves.
"""

from __future__ import annotations

import asyncio
import gc

from django.conf import settings

from infra.perloop import per_loop

SETTLE = 2.0  # seconds after a socket opens before its objects are frozen
RECLAIM_MIN = 500  # sockets opened or closed before frozen garbage is looked for, at the least


def tune() -> bool:
    """Apply the settings above if SERVER_GC_TUNING is on; True if it did."""
    if not settings.SERVER_GC_TUNING:
        return False
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(settings.SERVER_GC_YOUNG, middle, settings.SERVER_GC_FULL_AFTER)
    return True


class _Sockets:
    def __init__(self) -> None:
        self.open = 0
        self.open_at_reclaim = 0
        self.churn = 0  # sockets opened or closed since the last full collection
        self.freeze_scheduled = False


_sockets = per_loop(_Sockets)


def socket_opened() -> None:
    """A socket was accepted: its objects will live as long as it does; freeze them once settled."""
    if not settings.SERVER_GC_TUNING:
        return
    sockets = _sockets()
    sockets.open += 1
    _churned(sockets)
    if not sockets.freeze_scheduled:
        sockets.freeze_scheduled = True
        asyncio.get_running_loop().call_later(SETTLE, _freeze, sockets)


def socket_closed() -> None:
    """A socket closed: what it leaves in cycles is frozen; count it towards the next reclaim."""
    if not settings.SERVER_GC_TUNING:
        return
    sockets = _sockets()
    sockets.open = max(0, sockets.open - 1)
    _churned(sockets)


def _freeze(sockets: _Sockets) -> None:
    sockets.freeze_scheduled = False
    gc.collect(1)  # the young generations' garbage goes now rather than being frozen with the rest
    gc.freeze()


def _churned(sockets: _Sockets) -> None:
    sockets.churn += 1
    if sockets.churn >= max(RECLAIM_MIN, sockets.open_at_reclaim):
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        sockets.churn = 0
        sockets.open_at_reclaim = sockets.open
