"""One object per event loop, made on first use: daphne runs one loop, and each test has its own, so
what holds loop-bound things (Redis clients, tasks, batches flushed by timers) is kept per loop."""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def per_loop(factory: Callable[[], T]) -> Callable[[], T]:
    instances: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @functools.wraps(factory)
    def get() -> T:
        loop = asyncio.get_running_loop()
        instance = instances.get(loop)
        if instance is None:
            instance = instances[loop] = factory()
        return instance

    return get
