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
objects (protocols, consumers, scopes, tasks) for 381-732 ms. Freezing them too, as they settled, was
tried (bench/journal.md) and taken out: it had no five-run measurement behind it, and frozen
cyclic garbage of closed sockets is a leak unless something unfreezes it.
"""

from __future__ import annotations

import gc

from django.conf import settings

# The thresholds measured above: a young collection after this many allocations (Python: 700), a full
# one after this many generation-1 collections (Python: 10). Not settings: no operator has a reason to
# move them without the benchmark that chose them (docs/BENCHMARKS.md, the 5,000-socket step).
YOUNG = 200
FULL_AFTER = 350


def tune() -> bool:
    """Freeze and set the thresholds above if SERVER_GC_TUNING is on; True if it did."""
    if not settings.SERVER_GC_TUNING:
        return False
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, FULL_AFTER)
    return True
