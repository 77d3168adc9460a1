"""The notices websocket at /ws/notices/, open on every page of a signed-in player: the count and list
of the header (games waiting for your move, unseen notices), sent again whenever they change.

Frames in: {"type": "ping"} (answered with a pong; it also records that the player is on the site, so a
game over days can tell that its turn reached them) and {"type": "seen", "ids": [...]} (the notices the
player has opened the list on). Everything else is answered with an error, as on the game socket."""

from __future__ import annotations

import logging

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext_lazy as _

from accounts.language import scope_language
from games.errors import Sentence
from games.live import seen
from games.live.game_threads import database_sync_to_async
from games.live.sockets import CLOSE_UNAUTHENTICATED, CLOSE_UNAVAILABLE, PlayerSocket
from infra import jsontext
from infra.params import MAX_ID
from infra.ratelimit import ConnectionLimiter
from notices import feed, services

logger = logging.getLogger(__name__)
MAX_IDS = 50


class NoticesConsumer(PlayerSocket, AsyncJsonWebsocketConsumer):
    NAME = "notices"

    @classmethod
    async def encode_json(cls, content) -> str:
        # A feed frame goes to every player of a game each time its turn passes: orjson, as the games'.
        return jsontext.dumps(content)

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.joined = False
        self.language = scope_language(self.scope)
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.group = feed.user_group(self.user.username)
        self.limiter = ConnectionLimiter(self.user.pk)
        self.following: set[int] = set()
        # The player's own group first: a game that starts from now on is told there (notices.changed).
        if (
            not await self._layer("group_add", self.group)
            or not await self._layer("group_add", self.account_group())
            or not await self._follow()
        ):
            await self._leave_groups()
            await self.close(code=CLOSE_UNAVAILABLE)
            return
        self.joined = True
        self.feed: feed.Feed | None = None
        await self.accept()
        await self._send_feed(await self._db(self._seen_and_read)())

    async def disconnect(self, code: int) -> None:
        if self.joined:
            self.joined = False
            await self._leave_groups()
            await self._db(services.seen_on_site)(self.user)

    async def _follow(self) -> bool:
        """Hear the turns of every game the player is playing (feed.game_group), before the feed that
        shows them is read: a turn that passes meanwhile is in that read or heard after it."""
        games = await self._db(feed.playing_ids)(self.user)
        for game in games - self.following:
            if not await self._layer("group_add", feed.game_group(game)):
                return False
            self.following.add(game)
        for game in self.following - games:
            await self._unfollow(game)
        return True

    async def _unfollow(self, game: int) -> None:
        self.following.discard(game)
        await self._layer("group_discard", feed.game_group(game))

    async def _leave_groups(self) -> None:
        for game in list(self.following):
            await self._unfollow(game)
        await self._layer("group_discard", self.group)
        await self._layer("group_discard", self.account_group())

    def _db(self, func):
        """``func`` on the database thread of this player (games.live.game_threads): a restarted server's
        thousands of pages reconnecting at once read their feeds side by side, not all on one thread."""
        return database_sync_to_async(func, self.user.pk)

    def _seen_and_read(self) -> feed.Feed:
        services.seen_on_site(self.user)
        return feed.read(self.user, self.language)

    async def _send_feed(self, fresh: feed.Feed | None = None) -> None:
        """Send the feed: ``fresh``, or read anew from the database."""
        self.feed = fresh or await self._db(feed.read)(self.user, self.language)
        await self.send_json(self.feed.frame())

    async def on_ping(self, message: dict) -> None:
        seen.notices_socket(self.user.pk)
        await self.send_json({"type": "pong"})

    async def on_seen(self, message: dict) -> None:
        ids = _ids(message.get("ids"))
        if ids is None:
            await self._error(
                "bad_request", Sentence(_("ids must be a list of at most %(max)s notice ids."), max=MAX_IDS)
            )
            return
        await self._db(feed.mark_seen)(self.user, ids)
        await self._send_feed()

    HANDLERS = {"ping": on_ping, "seen": on_seen}

    # --- channel-layer handlers ---------------------------------------------------------------------

    async def notices_chat(self, event: dict) -> None:
        """A message in one of the player's groups (the group page shows it live)."""
        await self.send_json({"type": "group_chat", "group": event["group"], "message": event["message"]})

    async def notices_group_changed(self, event: dict) -> None:
        """A part of one of the player's groups' pages changed (a season's table): the page reads it anew."""
        await self.send_json({"type": "group_changed", "group": event["group"], "part": event["part"]})

    async def notices_changed(self, event: dict) -> None:
        """The player's lists changed: a game of theirs may have started, so follow it before reading."""
        if not await self._follow():
            logger.warning("a notices socket could not follow its player's games")
        await self._send_feed()

    async def notices_turn(self, event: dict) -> None:
        """A turn passed in one of the player's games: the move said how the game stands now."""
        row = feed.Row(**event["row"])
        if row.over:
            await self._unfollow(row.game)
        if self.feed is not None and self.feed.with_turn(row, self.user.username):
            await self.send_json(self.feed.frame())
        else:
            await self._send_feed()


def _ids(value) -> list[int] | None:
    if not isinstance(value, list) or len(value) > MAX_IDS:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_ID for v in value):
        return None
    return value
