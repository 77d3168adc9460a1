"""Where the websocket consumers' database work runs: several threads, each game always on the same one.

Channels' ``database_sync_to_async`` runs every call of a process in one thread. Every move ends with
a commit that waits for PostgreSQL to write its log to disk (1.5 to 4 ms on the benchmark machine), so
with one thread a process applies one move at a time however idle its CPU is, and each table's move
queues behind every other table's commit (docs/BENCHMARKS.md). Here a process has WS_DB_THREADS
threads, each with its own connection (kept CONN_MAX_AGE seconds), and PostgreSQL flushes the commits
of concurrent transactions together.

A game's calls always go to the same thread (its id picks it), so within a process they still run
one after another in arrival order, and so do their broadcasts: events leave in seq order, as with
one thread. WS_DB_THREADS = 1 is channels' own single thread (the default on SQLite, one writer).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from channels.db import DatabaseSyncToAsync
from django.conf import settings

_lock = threading.Lock()
_executors: list[ThreadPoolExecutor] = []


def _executor(key: int) -> ThreadPoolExecutor:
    with _lock:
        if not _executors:
            _executors.extend(
                ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"ws-db-{i}")
                for i in range(settings.WS_DB_THREADS)
            )
    return _executors[key % len(_executors)]


def database_sync_to_async(func, key: int):
    """``channels.db.database_sync_to_async`` on the thread for ``key`` (a game id)."""
    if settings.WS_DB_THREADS <= 1:
        return DatabaseSyncToAsync(func)
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_executor(key))
