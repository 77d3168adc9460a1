"""Where the websocket consumers' database work runs: several threads, each game always on the same one.

Channels' ``database_sync_to_async`` runs every call of a process in one thread. Every move ends with
a commit that waits for PostgreSQL to write its log to disk (1.5 to 4 ms on the benchmark machine), so
with one thread a process applies one move at a time however idle its CPU is, and each table's move
queues behind every other table's commit (docs/BENCHMARKS.md). Here a process has WS_DB_THREADS
threads, each taking a connection from the process's pool for a call (config/settings/base.py,
DB_POOL_SIZE), and PostgreSQL flushes the commits of concurrent transactions together.

A game's calls always go to the same thread (its id picks it), so within a process they still run
one after another in arrival order, and so do their broadcasts: events leave in seq order, as with
one thread. WS_DB_THREADS = 1 is channels' own single thread (the default on SQLite, one writer).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections

from games.live import broadcast

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


def shutdown() -> None:
    """Close every database thread's connections and stop the threads (a test run's end, before its
    database is dropped; a later call starts new threads)."""
    with _lock:
        executors = list(_executors)
        _executors.clear()
    for executor in executors:
        executor.submit(connections.close_all).result()
        executor.shutdown()
    # Channels' own thread (WS_DB_THREADS = 1, and every database_sync_to_async outside this module)
    # lives as long as the process: close its connections, keep the thread.
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


def _collecting(func):
    """``func`` returning (outcome, messages its transactions sent): see games.live.broadcast.collected."""

    def call(*args, **kwargs):
        with broadcast.collected() as messages:
            try:
                return func(*args, **kwargs), None, messages
            except Exception as exc:  # noqa: BLE001 - re-raised on the event loop, after the messages are out
                return None, exc, messages

    return call


def database_sync_to_async(func, key: int):
    """``channels.db.database_sync_to_async`` on the thread for ``key`` (a game id); what the call's
    transactions broadcast is sent from the event loop once it returns."""
    if settings.WS_DB_THREADS <= 1:
        call = DatabaseSyncToAsync(_collecting(func))
    else:
        call = DatabaseSyncToAsync(_collecting(func), thread_sensitive=False, executor=_executor(key))

    async def run(*args, **kwargs):
        result, exc, messages = await call(*args, **kwargs)
        if messages:
            await broadcast.publish(messages)
        if exc is not None:
            raise exc
        return result

    run.call = call
    return run
