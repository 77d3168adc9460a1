"""Python's garbage collector, set for a server process that runs for days (docs/BENCHMARKS.md).

A full (generation 2) collection walks every container object the process holds and stops the event
loop while it does: 116-178 ms in a server holding 600 sockets, once or twice every 20 s at 150 moves a
second, which put every move in flight past 100 ms. Two changes, made once the application is loaded:

- gc.freeze(): the objects that exist after start-up (modules, classes, Django's settings, URL
  patterns, templates loaded so far) live as long as the process, so no collection looks at them
  again. The longest full collection fell to 47-60 ms.
- a full collection only after 100 collections of generation 1 instead of 10: cyclic garbage that
  outlives two young collections is rare here (nothing was ever found to grow), and a full collection
  at that rate comes every few minutes under load instead of several times a minute.

The young generations keep Python's thresholds: raising them made each young collection as long as a
full one (27-67 ms at 10,000). Same step four times each way (150 tables, 1 s think time, one process):
p99 60-93 ms with these settings, 79-229 ms without.
"""

from __future__ import annotations

import gc

from django.conf import settings


def tune() -> bool:
    """Apply the settings above if SERVER_GC_TUNING is on; True if it did."""
    if not settings.SERVER_GC_TUNING:
        return False
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, settings.SERVER_GC_FULL_AFTER)
    return True
