"""A channel layer on Redis pub/sub that sends what waits in one pipeline: channels-redis's pub/sub layer's
behaviour, on redis-py's public API only.

Why not the layer as shipped: a move sends two group messages, and ``RedisPubSubChannelLayer`` publishes
each as a command of its own under its shard's lock, one round trip after the other. A process that is
busy with moves spends its one core on those commands: with the shipped layer the saturated load step
reached 0.655 of the bare Channels baseline, with messages sent in batches 0.760; more shards of the
shipped layer did not help; this layer, against the shipped one on one tree, five alternating runs
each: 487 against 411 moves a second at saturation (medians), p99 42 against 160 ms at 250 tables
(docs/BENCHMARKS.md, "History", 2026-12-05 and 2026-12-06; the sessions in bench/journal.md). So it is
the site's default with Redis (CHANNEL_LAYER_BACKEND), and the shipped layer the alternative. Here
every message that waits while a pipeline is on its way goes in the next one, so a busy process sends
many moves' messages per round trip, and subscriptions the same way (one SUBSCRIBE naming every channel
that waited).

What it keeps of the shipped layer: the Channels layer API with the ``groups`` and ``flush`` extensions;
one state per event loop (daphne has one, tests have many); a group is a Redis channel of its own, so a
message published to it is heard by every process that has a member of it; msgpack on the wire; a
consumer's channel is unsubscribed when its ``receive`` is cancelled (Channels has no other call when a
consumer ends). Calls of one loop are sent in the order they were made, and each returns once its
message is out (or raises what sending it raised). redis-py's pub/sub connects again and subscribes every
channel anew after its connection broke; ``redis_connect_func`` in a host's options is handed to
redis-py as it is (infra.layer.connected tells games.live.catchup).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
import weakref
from collections.abc import Iterable

import msgpack
from channels.layers import BaseChannelLayer
from redis import asyncio as aioredis

logger = logging.getLogger(__name__)

# After the reading connection failed (Redis gone), the reader waits this long before it tries again.
READ_RETRY_PAUSE = 1.0


def _pack(message: dict) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


def _unpack(data: bytes) -> dict:
    return msgpack.unpackb(data, raw=False)


class _Batches:
    """Items to send, in order of arrival, and the one task that sends everything waiting at each turn;
    each ``put`` returns once its item was sent (or raises what sending its batch raised)."""

    def __init__(self, send) -> None:
        self._send = send
        self._waiting: list[tuple[object, asyncio.Future]] = []
        self._sender: asyncio.Task | None = None

    async def put(self, item) -> None:
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((item, done))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.ensure_future(self._serve())
        await done

    async def _serve(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            failure = None
            try:
                await self._send([item for item, _ in batch])
            except Exception as exc:  # noqa: BLE001 - handed to every caller of the batch
                failure = exc
            for _, done in batch:
                if done.done():  # its caller stopped waiting (a timeout); it was sent all the same
                    continue
                if failure is None:
                    done.set_result(None)
                else:
                    done.set_exception(failure)

    def cancel(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
        for _, done in self._waiting:
            done.cancel()
        self._waiting = []


class _LoopLayer:
    """The layer's state on one event loop: a client that publishes, a pub/sub connection that hears."""

    def __init__(self, host: dict, prefix: str) -> None:
        options = {key: value for key, value in host.items() if key != "address"}
        self.prefix = prefix
        self.redis = aioredis.Redis.from_url(host["address"], **options)
        self.pubsub = self.redis.pubsub()
        self.queues: dict[str, asyncio.Queue] = {}
        self.groups: dict[str, set[str]] = {}
        self.subscribed: set[str] = set()
        self.outbox = _Batches(self._publish)
        self.changes = _Batches(self._subscribe)
        self.reader: asyncio.Task | None = None
        self.listening = asyncio.Event()

    # --- sending ----------------------------------------------------------------------------------

    async def _publish(self, messages: list[tuple[str, bytes]]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for channel, data in messages:
            pipe.publish(channel, data)
        await pipe.execute()

    async def publish(self, channel: str, message: dict) -> None:
        await self.outbox.put((channel, _pack(message)))

    # --- subscriptions ----------------------------------------------------------------------------

    async def _subscribe(self, changes: list[tuple[bool, str]]) -> None:
        for subscribe, channels in _runs(changes):
            # Only what is not subscribed yet (or still is): a run may name a channel twice.
            wanted = [c for c in dict.fromkeys(channels) if (c in self.subscribed) != subscribe]
            if not wanted:
                continue
            if subscribe:
                await self.pubsub.subscribe(*wanted)
                self.subscribed.update(wanted)
                self.listening.set()
            else:
                await self.pubsub.unsubscribe(*wanted)
                self.subscribed.difference_update(wanted)
        if self.reader is None or self.reader.done():
            self.reader = asyncio.ensure_future(self._read())

    async def subscribe(self, channel: str) -> None:
        await self.changes.put((True, channel))

    async def unsubscribe(self, channel: str) -> None:
        await self.changes.put((False, channel))

    # --- hearing ----------------------------------------------------------------------------------

    async def _read(self) -> None:
        while True:
            try:
                if not self.pubsub.subscribed:
                    self.listening.clear()
                    await self.listening.wait()
                message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis gone: redis-py connects again on the next read
                logger.warning("the channel layer lost Redis; listening again in %.1f s", READ_RETRY_PAUSE)
                await asyncio.sleep(READ_RETRY_PAUSE)
                continue
            if message is not None:
                self._deliver(message["channel"], message["data"])

    def _deliver(self, name: bytes | str, data: bytes) -> None:
        if isinstance(name, bytes):
            name = name.decode()
        queue = self.queues.get(name)
        if queue is not None:
            queue.put_nowait(data)
            return
        for channel in self.groups.get(name, ()):
            queue = self.queues.get(channel)
            if queue is not None:
                queue.put_nowait(data)

    async def close(self) -> None:
        self.outbox.cancel()
        self.changes.cancel()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader
        await self.pubsub.aclose()
        await self.redis.aclose()


def _runs(changes: Iterable[tuple[bool, str]]) -> list[tuple[bool, list[str]]]:
    """Consecutive changes of one kind together, in order: [(True, [a, b]), (False, [a]) ...]."""
    runs: list[tuple[bool, list[str]]] = []
    for subscribe, channel in changes:
        if runs and runs[-1][0] == subscribe:
            runs[-1][1].append(channel)
        else:
            runs.append((subscribe, [channel]))
    return runs


class PipelinedLayer(BaseChannelLayer):
    """The Channels layer: ``CONFIG = {"hosts": [{"address": "redis://...", **redis-py options}],
    "prefix": "..."}`` (one host: Redis's pub/sub reaches every subscriber of the server)."""

    extensions = ["groups", "flush"]

    def __init__(self, hosts=None, prefix: str = "asgi", **kwargs) -> None:
        super().__init__(**kwargs)
        hosts = list(hosts or [{"address": "redis://localhost:6379"}])
        if len(hosts) != 1:
            raise ValueError("PipelinedLayer talks to one Redis server: give one host")
        host = hosts[0]
        self.host = {"address": host} if isinstance(host, str) else dict(host)
        self.prefix = prefix
        self._loops: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _here(self) -> _LoopLayer:
        loop = asyncio.get_running_loop()
        state = self._loops.get(loop)
        if state is None:
            state = self._loops[loop] = _LoopLayer(self.host, self.prefix)
        return state

    def _group_channel(self, group: str) -> str:
        # The shipped layer's names, so that an operator's view of Redis (PUBSUB CHANNELS) reads the same.
        return f"{self.prefix}__group__{group}"

    async def send(self, channel: str, message: dict) -> None:
        self.require_valid_channel_name(channel)
        await self._here().publish(channel, message)

    async def new_channel(self, prefix: str = "specific.") -> str:
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        state = self._here()
        state.queues[channel] = asyncio.Queue()
        await state.subscribe(channel)
        return channel

    async def receive(self, channel: str) -> dict:
        self.require_valid_channel_name(channel)
        state = self._here()
        queue = state.queues.get(channel)
        if queue is None:
            queue = state.queues[channel] = asyncio.Queue()
            await state.subscribe(channel)
        try:
            data = await queue.get()
        except (TimeoutError, asyncio.CancelledError, GeneratorExit):
            # Channels cancels a consumer's receive when the consumer ends, and says nothing else.
            if state.queues.pop(channel, None) is not None:
                try:
                    await state.unsubscribe(channel)
                except BaseException:
                    logger.exception("the channel layer could not unsubscribe %s", channel)
            raise
        return _unpack(data)

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        state = self._here()
        if channel not in state.queues:
            raise RuntimeError("group_add() takes a channel of this process (from new_channel())")
        name = self._group_channel(group)
        state.groups.setdefault(name, set()).add(channel)
        await state.subscribe(name)

    async def group_discard(self, group: str, channel: str) -> None:
        state = self._here()
        name = self._group_channel(group)
        members = state.groups.get(name)
        if not members or channel not in members:
            return
        members.discard(channel)
        if not members:
            del state.groups[name]
            await state.unsubscribe(name)

    async def group_send(self, group: str, message: dict) -> None:
        self.require_valid_group_name(group)
        await self._here().publish(self._group_channel(group), message)

    async def flush(self) -> None:
        """Forget every channel and group of this loop and close its connections (opened again on use)."""
        loop = asyncio.get_running_loop()
        state = self._loops.pop(loop, None)
        if state is not None:
            await state.close()

    async def close(self) -> None:
        await self.flush()
