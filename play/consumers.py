"""The game websocket at /ws/games/<id>/: parse, authorise, call one service, reply.

The protocol is written down in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.language import scope_language
from chat import selectors as chat_selectors
from chat import services as chat
from coach import hints
from games.access import can_watch
from games.errors import BadRequest, Forbidden, GameError, NotFound, RateLimited, Sentence
from games.live import catchup, move_async, presence, seen, selectors
from games.live.broadcast import group_name, publish
from games.live.game_threads import database_sync_to_async
from games.live.moves import MAX_CLIENT_ID, ActionOutcome
from games.live.sockets import (
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_UNAUTHENTICATED,
    CLOSE_UNAVAILABLE,
    AccountSocket,
    NoConnectionHop,
    parse,
)
from games.tables import services
from infra.jsontext import dumps
from infra.ratelimit import ConnectionLimiter, Refusal
from ratings import selectors as rating_selectors

logger = logging.getLogger(__name__)

_move_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def _opened(*, game_id: int, user, channel_name: str) -> dict:
    """The socket recorded as open; its first snapshot, with the game's chat."""
    return _with_chat(
        presence.connection_open(game_id=game_id, user=user, channel_name=channel_name), game_id, user
    )


def _with_chat(snapshot: dict, game_id: int, user) -> dict:
    """A snapshot of the game with its latest chat messages as ``user`` reads them (the chat app's,
    shown beside the game: none of those they muted, none if they turned the table's chat off), and
    the table's ratings (the ratings app's: beside each name, and what the game's end changed; at its
    end only for a player who hides them during a game)."""
    return {
        **snapshot,
        "chat": chat_selectors.recent_for_game(game_id, user),
        "ratings": rating_selectors.for_game_id(game_id, user),
    }


class GameConsumer(AccountSocket, NoConnectionHop, AsyncWebsocketConsumer):
    game_id: int
    group: str

    # --- connection ------------------------------------------------------------------------

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        # An id past MAX_ID never gets here: the route (infra.params) sends it to NoSuchPathConsumer.
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = group_name(self.game_id)
        self.joined = False
        self.sent_seq = 0  # the last seq this socket was sent (snapshot or event): see catch_up
        self.language = scope_language(self.scope)
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.limiter = ConnectionLimiter(self.user.pk)
        # Join the group before reading the snapshot so that no event falls between the two; an event
        # the snapshot already holds arrives with an old seq and is not sent (game_message).
        # The player's group too, which a sign-out elsewhere closes the socket through (AccountSocket).
        if not await self._layer_call(
            "group_add", self.group, self.channel_name
        ) or not await self._layer_call("group_add", self.account_group(), self.channel_name):
            # Without the group this socket would never hear of other players' moves: refuse it, and
            # let the client reconnect with back-off (docs/protocol.md).
            await self._leave_groups()
            await self.close(code=CLOSE_UNAVAILABLE)
            return
        try:
            snapshot = await database_sync_to_async(_opened, self.game_id)(
                game_id=self.game_id, user=self.user, channel_name=self.channel_name
            )
        except (NotFound, Forbidden) as exc:
            await self._leave_groups()
            await self.close(code=CLOSE_NOT_FOUND if isinstance(exc, NotFound) else CLOSE_FORBIDDEN)
            return
        self.joined = True
        await self.accept()
        self.sent_seq = snapshot["seq"]
        catchup.opened(self)
        await self.send_json(snapshot)
        await self._announce_presence(online=True, connected=snapshot["connected"])

    async def disconnect(self, code: int) -> None:
        if not getattr(self, "joined", False):
            return
        self.joined = False
        catchup.closed(self)
        await self._leave_groups()
        connected = await database_sync_to_async(presence.connection_close, self.game_id)(
            channel_name=self.channel_name, user=self.user
        )
        await self._announce_presence(online=False, connected=connected)

    async def _leave_groups(self) -> None:
        await self._layer_call("group_discard", self.group, self.channel_name)
        await self._layer_call("group_discard", self.account_group(), self.channel_name)

    async def _layer_call(self, method: str, *args) -> bool:
        """Call the channel layer with a time limit; False (logged) if it failed or hung.

        A channel layer that is down (Redis gone) or stalled (Redis paused) must not take the socket,
        or the process's shared layer connection, down with it.
        """
        try:
            async with asyncio.timeout(settings.WS_LAYER_TIMEOUT):
                await getattr(self.channel_layer, method)(*args)
        except Exception:
            logger.warning("channel layer %s for game %s failed", method, self.game_id, exc_info=True)
            return False
        return True

    async def _announce_presence(self, *, online: bool, connected: list[str]) -> None:
        payload = {"type": "presence", "user": self.user.username, "online": online, "connected": connected}
        await publish([(self.group, {"type": "game.message", "payload": payload})])

    # --- incoming frames -------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.ended:  # its session ended (AccountSocket): nothing more is done for it
            return
        message, error = parse(text_data, bytes_data)
        is_action = message is not None and message["type"] == "action"
        client_id = message.get("id") if message is not None and isinstance(message.get("id"), str) else None
        handler = None if message is None else self.HANDLERS.get(message["type"])
        # Every frame counts, garbage included; actions count in their own bucket as well.
        buckets = ("messages", "actions") if is_action else ("messages",)
        refusal = await self.limiter.check(*buckets)
        if refusal is not None:
            await self.send_refusal(refusal, client_id)
            return
        if error is not None:
            await self.send_error(*error)
            return
        if handler is None:
            shown = repr(message["type"][:40])
            await self.send_error("unknown_type", Sentence(_("Unknown message type %(type)s."), type=shown))
            return
        if message.get("game", self.game_id) != self.game_id:
            # A socket serves one game; a frame aimed at another (a forged chat line, say) is refused
            # rather than quietly applied to this one.
            await self.send_error(
                "bad_request",
                Sentence(_("This connection is for game %(game)s only."), game=self.game_id),
                client_id,
            )
            return
        try:
            await handler(self, message)
        except RateLimited as exc:
            # The frame's id, if it gave one (a `say` does): the page puts the refusal beside the chat's
            # input and the text back in it.
            shown = client_id[:MAX_CLIENT_ID] if client_id else None
            with translation.override(self.language):
                error = {"type": "error", "id": shown, "code": exc.code, "message": exc.message}
            await self.send_json({**error, "retry_after": exc.retry_after})
        except GameError as exc:
            await self.send_error(exc.code, exc, client_id)
        except Exception:
            logger.exception("game %s: unhandled error on %r", self.game_id, message.get("type"))
            await self.send_error(
                "server_error", _("Something went wrong on the server; try again."), client_id
            )

    def _db(self, func):
        """``func`` on this game's database thread."""
        return database_sync_to_async(func, self.game_id)

    async def send_refusal(self, refusal: Refusal, client_id: str | None) -> None:
        await self.send_json(
            {
                "type": "error",
                "id": client_id[:MAX_CLIENT_ID] if client_id else None,
                "code": "rate_limited",
                "message": self._said(lambda: refusal.message),
                "retry_after": refusal.retry_after,
            }
        )

    async def on_action(self, message: dict) -> None:
        client_id, action = message.get("id"), message.get("action")
        if move_async.enabled():
            outcome = await self._move_on_loop(client_id, action)
        else:
            outcome = await self._db(services.game_apply_action)(
                game_id=self.game_id, user=self.user, client_id=client_id, action=action
            )
        await self.send_json(
            {"type": "ack", "id": client_id, "seq": outcome.seq, "duplicate": outcome.duplicate}
        )

    async def _move_on_loop(self, client_id, action) -> ActionOutcome:
        """The move on the event loop (games.live.move_async)."""
        # One move of a game at a time in this process, so that its events leave in seq order.
        lock = _move_locks.get(self.game_id)
        if lock is None:
            lock = _move_locks[self.game_id] = asyncio.Lock()
        async with lock:
            return await move_async.apply_action(
                game_id=self.game_id, user=self.user, client_id=client_id, action=action
            )

    async def on_sync(self, message: dict) -> None:
        seq = message.get("seq", 0)
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise BadRequest(_("sync needs seq: the last sequence number you have (0 for none)."))
        try:
            snapshot = await self._db(self._snapshot_since)(seq)
        except Forbidden as exc:
            await self.send_error(exc.code, exc)
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.sent_seq = max(self.sent_seq, snapshot["seq"])
        await self.send_json(snapshot)

    async def catch_up(self, seq: int | None = None) -> None:
        """If the game as stored (its seq: ``seq``, or read now) is ahead of what this socket was sent,
        send what `sync` would answer: a broadcast was lost to the channel layer (games.live.catchup)."""
        if seq is None:
            seq = await catchup.stored_seq(self.game_id)
        if seq is None or seq <= self.sent_seq:
            return
        since = self.sent_seq
        try:
            snapshot = await self._db(self._snapshot_since)(since)
        except Forbidden as exc:
            await self.send_error(exc.code, exc)
            await self.close(code=CLOSE_FORBIDDEN)
            return
        # An event may have been sent meanwhile (this runs beside the socket's own messages): a
        # snapshot no newer than it would only take the page back.
        if snapshot["seq"] > self.sent_seq:
            self.sent_seq = snapshot["seq"]
            await self.send_json(snapshot)

    def _snapshot_since(self, seq: int) -> dict:
        from games.models import Game

        game = Game.objects.select_related("creator", "group").filter(pk=self.game_id).first()
        if game is None:
            raise NotFound(_("There is no such game."))
        # Access is checked again: a member removed while the channel layer was down never got the
        # access_revoked message that closes their socket.
        if not can_watch(game, self.user):
            raise Forbidden(_("You are no longer a member of this game's group."))
        return _with_chat(
            selectors.game_snapshot(game, self.user, since=min(seq, game.seq)), game.pk, self.user
        )

    async def on_ping(self, message: dict) -> None:
        seen.game_socket(self.channel_name)
        try:
            await self.catch_up()
        except (NotFound, Forbidden):
            pass  # the game's page says so at its next sync; a ping is still answered
        except Exception:
            logger.warning("game %s: catching up at a ping failed", self.game_id, exc_info=True)
        await self.send_json({"type": "pong"})

    async def on_chat(self, message: dict) -> None:
        await self._db(chat.post_to_game)(game_id=self.game_id, user=self.user, text=message.get("text"))

    async def on_unsay(self, message: dict) -> None:
        await self._db(chat.remove_from_game)(
            game_id=self.game_id, user=self.user, message_id=message.get("message")
        )

    async def on_hint(self, message: dict) -> None:
        """The expert's move, to the asker alone; its checks read the database on the game's thread,
        the expert thinks in a thread of its own so that a slow one holds up no move of the game."""
        situation = await self._db(hints.hint_situation)(game_id=self.game_id, user=self.user)
        await self.send_json(await asyncio.to_thread(hints.hint_frame, *situation, self.language))

    async def on_client_seed(self, message: dict) -> None:
        """The player's own client seed for the game's dice, before the start (docs/fair-dice.md); the
        table hears it as a `lobby` message."""
        await self._db(services.seat_set_client_seed)(
            game_id=self.game_id, user=self.user, seed=message.get("seed")
        )

    HANDLERS = {
        "action": on_action,
        "client_seed": on_client_seed,
        "sync": on_sync,
        "ping": on_ping,
        "say": on_chat,
        "unsay": on_unsay,
        "ask_hint": on_hint,
    }

    # --- outgoing --------------------------------------------------------------------------

    async def send_json(self, content: dict) -> None:
        await self.send_text(dumps(content))

    async def send_text(self, text: str) -> None:
        try:
            await self.send(text_data=text)
        except Exception as exc:  # noqa: BLE001 - whatever the server raises for a socket it has closed
            # The connection is already gone (daphne raises when a broadcast or a reply meets a socket
            # it has just dropped, e.g. after an oversized frame). Raising here would end this consumer
            # before its disconnect() runs, leaving its presence row and group subscription behind.
            logger.info("game %s: a message for a closed socket was dropped (%r)", self.game_id, exc)

    def _said(self, say) -> str:
        with translation.override(self.language):
            return say()

    async def send_error(self, code: str, message, client_id: str | None = None) -> None:
        """``message``: a lazy sentence or a GameError, said here in this socket's reader's language."""
        shown = client_id[:MAX_CLIENT_ID] if client_id else None
        with translation.override(self.language):
            text = message.message if isinstance(message, GameError | Sentence) else str(message)
        await self.send_json({"type": "error", "id": shown, "code": code, "message": text})

    # --- channel-layer handlers ------------------------------------------------------------

    async def game_message(self, event: dict) -> None:
        if self.user.pk in event.get("hidden_for", ()):  # a chat line this reader muted (chat.services)
            return
        if "text" in event:  # a payload encoded once for every socket (games.live.broadcast.layer_message)
            seq = event.get("seq")
            move_async.heard(self.game_id, seq)
            if seq is not None:
                # This socket has it already: in its snapshot or a catch-up, or a broadcast sent again
                # (games.live.broadcast) after a layer call timed out that had gone out after all.
                if seq <= self.sent_seq:
                    return
                self.sent_seq = seq
            await self.send_text(event["text"])
            return
        payload = event["payload"]
        if payload["type"] == "access_revoked":
            if payload["user"] == self.user.username:
                await self.send_error("forbidden", _("You are no longer a member of this game's group."))
                await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.send_json(payload)
