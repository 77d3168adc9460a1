"""What the header's notification list shows a player: the games waiting for their move, and their
latest notices, read or not (opening the list marks them read; it never takes them away);
and the channel-layer group through which their pages hear of changes.

A notices socket reads its player's feed from the database when it opens and when a notice comes; when
a turn passes in one of the player's games, the move tells it what changed (``turn_message``) and the
socket updates the feed it holds (``Feed.with_turn``) instead of reading it again: every turn of every
game reaches the notices sockets of all its players, and thousands of those sockets are open at once
(docs/BENCHMARKS.md). The move sends that once, to the game's group of notices sockets
(``game_group``), which each socket joins for every game its player is playing; not once to each
player's own group (so a turn is two channel-layer messages with the game's event, not five)."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from datetime import datetime

from django.urls import reverse
from django.utils import timezone, translation

from games import rules
from games.computers.players import is_computer_name
from games.live import broadcast
from games.models import Game
from games.rules.declare import game_name
from games.tables import lobby
from notices.models import Notice, preferences_of

LIMIT = 10
LISTS = (("turns", "your_turn"), ("playing", "playing"))  # the feed's lists and lobby.my_games' keys


def game_group(game_id: int) -> str:
    """The group of the notices sockets of a game's players: they hear its turns there."""
    return f"turns.{game_id}"


def playing_ids(user) -> set[int]:
    """The games the player is playing: those whose turns their notices sockets hear."""
    return set(Game.objects.filter(seats__user=user, status=Game.Status.PLAYING).values_list("pk", flat=True))


def user_group(username: str) -> str:
    """The group of one player's notices sockets. Named from the username (every move names its
    players by it) through a digest, since group names take fewer characters than usernames."""
    return "user." + hashlib.sha256(username.encode()).hexdigest()[:24]


@dataclass(frozen=True)
class Row:
    """One game in a player's lists: the facts its entry is drawn from."""

    game: int
    kind: str
    options: dict
    current: str
    since: float | None  # when the turn began (epoch seconds)
    players: list[str]
    scores: dict
    over: bool = False

    @classmethod
    def of(cls, game, players: list[str] | None = None) -> Row:
        """A game's row, its players read from its seats unless given (a move has them in its state)."""
        since = game.turn_started_at.timestamp() if game.turn_started_at else None
        players = [s.user.username for s in game.seats.all()] if players is None else players
        over = game.status != game.Status.PLAYING
        current = game.current_player or ""
        return cls(game.pk, game.kind, game.options, current, since, players, game.scores, over)

    def entry(self, now: float) -> dict:
        name = game_name(rules.get(self.kind), self.options)
        return {
            "game": self.game,
            "title": f"{name} #{self.game}",
            "url": reverse("games:detail", args=[self.game]),
            "current": self.current,
            "waiting": int(now - (self.since or now)),
            "players": self.players,
            "scores": self.scores,
        }


@dataclass
class Feed:
    sound: bool
    browser: bool
    turns: list[Row]
    playing: list[Row]
    notices: list[dict]
    cut: frozenset[str] = frozenset()  # the lists that held more than LIMIT games when read

    def frame(self, now: datetime | None = None) -> dict:
        at = (now or timezone.now()).timestamp()
        return {
            "type": "notices",
            "sound": self.sound,
            "browser": self.browser,
            "count": len(self.turns) + sum(1 for n in self.notices if not n["seen"]),
            "turns": [r.entry(at) for r in self.turns],
            "playing": [r.entry(at) for r in self.playing],
            "notices": self.notices,
        }

    def with_turn(self, row: Row, username: str) -> bool:
        """Take in a turn that passed in one of the player's games; False if the feed must be read again:
        the game left a list that was cut at LIMIT, whose next game only the database knows."""
        # As lobby.games_waiting_for: the player's turn waits only where another person sits.
        waits = row.current == username and any(
            p != username and not is_computer_name(p) for p in row.players
        )
        target = None if row.over else "turns" if waits else "playing"
        for name in ("turns", "playing"):
            rows = getattr(self, name)
            kept = [r for r in rows if r.game != row.game]
            if len(kept) < len(rows) and name != target and name in self.cut:
                return False
            setattr(self, name, kept)
        if target is not None:
            getattr(self, target).append(row)
        # The orders of lobby.my_games (the longest waiting first; the latest turn first), at most LIMIT.
        self.turns = sorted(self.turns, key=lambda r: r.since or 0)[:LIMIT]
        self.playing = sorted(self.playing, key=lambda r: -(r.since or 0))[:LIMIT]
        return True


def read(user, language: str | None = None) -> Feed:
    """The player's feed, its notices in ``language`` (the reading page's; the active one if None)."""
    mine = lobby.my_games(user, finished=False)
    latest = list(Notice.objects.filter(user=user)[:LIMIT])
    prefs = preferences_of(user)
    with translation.override(language or translation.get_language()):
        notices = [notice_entry(n) for n in latest]
    return Feed(
        sound=prefs.sound,
        browser=prefs.browser,
        turns=[Row.of(g) for g in mine["your_turn"][:LIMIT]],
        playing=[Row.of(g) for g in mine["playing"][:LIMIT]],
        notices=notices,
        cut=frozenset(name for name, key in LISTS if len(mine[key]) > LIMIT),
    )


def feed(user) -> dict:
    return read(user).frame()


# The header of every page (notices.consumers) hears that a player's list changed; it reads it anew.
CHANGED = {"type": "notices.changed"}


def messages_to(usernames, message: dict | None = None) -> list[tuple[str, dict]]:
    """The channel-layer messages that tell these players' notices sockets ``message`` (their lists of
    games changed, by default)."""
    return [(user_group(name), message or CHANGED) for name in usernames]


def tell_users_on_commit(usernames, message: dict | None = None) -> None:
    """Tell these players' notices sockets once the transaction has committed."""
    broadcast.send_on_commit_to(messages_to(usernames, message))


def turn_message(game) -> dict:
    """The channel-layer message a move sends its players' notices sockets when the turn passed: the
    game's row as the move leaves it (Feed.with_turn)."""
    return {"type": "notices.turn", "row": asdict(Row.of(game, players=list(game.state["players"])))}


def notice_entry(notice: Notice) -> dict:
    return {
        "id": notice.pk,
        "text": notice.message,
        "url": notice.url,
        "at": notice.created_at.isoformat(),
        "seen": notice.seen,
    }


def recent(user, limit: int = 50) -> list[Notice]:
    """The notices page: a player's latest notices, read and unread, the newest first."""
    return list(Notice.objects.filter(user=user)[:limit])


def mark_seen(user, ids: list[int]) -> None:
    Notice.objects.filter(user=user, pk__in=ids).update(seen=True)


def tell(user, text: str, url: str, params: dict | None = None) -> Notice:
    """A notice for ``user``: ``text`` is the English sentence of the catalogue (marked with
    gettext_noop), ``params`` its values; it is translated each time it is read."""
    return Notice.objects.create(user=user, text=text, params=params or {}, url=url)
