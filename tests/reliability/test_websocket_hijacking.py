"""Cross-site websocket hijacking: the whole ASGI stack (origin check, session auth) as daphne runs it.

A page on another site can make a browser open a websocket to us carrying our session cookie; only the
Origin header tells. config.asgi wraps every socket in config.websocket_origin.SiteOriginValidator and
the session authentication (UserMiddlewareStack): these tests go through config.asgi.application itself,
and once through a real daphne to see the handshake refused on the wire. The rule is Django's CSRF rule
for forms: the Origin must be the site's own, whole (scheme, host and port as the connection has them, no
userinfo), or one of CSRF_TRUSTED_ORIGINS.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from config.asgi import application
from config.routing import websocket_urlpatterns
from config.websocket_origin import SiteOriginValidator
from games.live.sockets import UserMiddlewareStack
from tests.protocol import check_server_frame
from tests.reliability import world as W
from tests.reliability.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

ALLOWED = b"http://127.0.0.1"
NOTICES = "/ws/notices/"


def communicator(
    path: str,
    origin: bytes | None,
    cookie: str | None,
    host: bytes = b"127.0.0.1",
    scheme: str | None = None,
    headers: tuple = (),
    app=application,
):
    """A handshake on `path`; `scheme` "wss" is a TLS connection (daphne serving TLS itself)."""
    sent = [(b"host", host), *headers]
    if origin is not None:
        sent.append((b"origin", origin))
    if cookie is not None:
        sent.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(app, path, headers=sent)
    if scheme is not None:
        comm.scope["scheme"] = scheme
    return comm


@pytest.fixture
def world():
    return W.build()


def game_path(game_id: int) -> str:
    return f"/ws/games/{game_id}/"


async def handshake(where, origin, cookie, **options) -> tuple[bool, int | None]:
    """`where`: a game's id, or a socket's path (the notices socket)."""
    path = where if isinstance(where, str) else game_path(where)
    comm = communicator(path, origin, cookie, **options)
    connected, code = await comm.connect(timeout=5)
    if connected:
        first = await comm.receive_json_from(timeout=5)
        # A game socket starts with the game's snapshot, the notices socket with the player's feed.
        assert ("count" in first) if path == NOTICES else (first["type"] == "snapshot"), first
        await comm.disconnect()
    return connected, code


@pytest.fixture
def seated(world):
    """The seated player's session cookie, and the two sockets a page of theirs opens."""

    async def make():
        cookie = await database_sync_to_async(session_cookie)(world.users["seated"])
        return cookie, (world.games["group"].pk, NOTICES)

    return make


@pytest.mark.parametrize(
    "origin",
    [
        b"http://evil.example",
        b"https://evil.example",
        b"http://127.0.0.1.evil.example",
        b"http://evil.example:80",
        b"null",
        b"file://",
        None,  # no Origin at all
        # The host alone used to be compared (Channels' AllowedHostsOriginValidator): another port or
        # scheme of the same host, or the host behind a userinfo, is another origin.
        b"http://127.0.0.1:9999",
        b"https://127.0.0.1",  # on this plain (ws) connection
        b"http://user@127.0.0.1",
        b"http://user:secret@127.0.0.1",
        b"http://localhost",  # allowed as a host, but not the one this connection asked for
        b"http://127.0.0.1:80",  # no browser names a default port; Django's CSRF check refuses it too
        b"http://127.0.0.1/",
        b"ws://127.0.0.1",
    ],
)
async def test_foreign_or_missing_origin_is_refused_even_with_a_valid_session(world, origin):
    cookie = await database_sync_to_async(session_cookie)(world.users["seated"])
    for name in ("public-farkle", "group"):
        connected, _code = await handshake(world.games[name].pk, origin, cookie)
        assert not connected, (origin, name)
    assert await handshake(NOTICES, origin, cookie) == (False, 1000), origin


async def test_the_sites_own_origin_with_a_session_is_accepted(seated):
    cookie, sockets = await seated()
    for where in sockets:
        assert await handshake(where, ALLOWED, cookie) == (True, None), where
        # A server on a port of its own (make run, the browser tests): the port is part of the origin.
        on_8000 = {"host": b"127.0.0.1:8000"}
        assert await handshake(where, b"http://127.0.0.1:8000", cookie, **on_8000) == (True, None), where
        assert not (await handshake(where, ALLOWED, cookie, **on_8000))[0], where
        assert not (await handshake(where, b"http://127.0.0.1:8001", cookie, **on_8000))[0], where


async def test_a_tls_connection_takes_the_https_origin_only(seated):
    cookie, sockets = await seated()
    for where in sockets:
        assert await handshake(where, b"https://127.0.0.1", cookie, scheme="wss") == (True, None), where
        assert not (await handshake(where, ALLOWED, cookie, scheme="wss"))[0], where


async def test_behind_the_proxy_its_forwarded_scheme_decides(seated, settings):
    """daphne --proxy-headers puts no scheme in a websocket's scope: behind nginx a wss socket reaches
    daphne as plain ws, and X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER, as for pages) says it was TLS."""
    cookie, sockets = await seated()
    https = {"headers": ((b"x-forwarded-proto", b"https"),)}
    for where in sockets:
        # Without SECURE_PROXY_SSL_HEADER (development) the header is anyone's to send, and ignored.
        assert not (await handshake(where, b"https://127.0.0.1", cookie, **https))[0], where
        assert await handshake(where, ALLOWED, cookie, **https) == (True, None), where
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # as production sets it
    for where in sockets:
        assert await handshake(where, b"https://127.0.0.1", cookie, **https) == (True, None), where
        assert not (await handshake(where, ALLOWED, cookie, **https))[0], where
        plain = {"headers": ((b"x-forwarded-proto", b"http"),)}
        assert await handshake(where, ALLOWED, cookie, **plain) == (True, None), where


async def test_a_host_outside_allowed_hosts_is_refused_whatever_its_origin(seated):
    """DNS rebinding: a page of evil.example whose name now points at us has its own origin as Origin
    and evil.example as Host; Django would answer its requests 400, and its sockets are refused."""
    cookie, sockets = await seated()
    for where in sockets:
        refused = await handshake(where, b"http://evil.example", cookie, host=b"evil.example")
        assert refused == (False, 1000), where


async def test_csrf_trusted_origins_are_accepted_as_django_reads_them(seated, settings):
    """Behind a proxy that does not pass the port on (nginx's $host), the browser's Origin names a port
    the Host lacks: CSRF_TRUSTED_ORIGINS lets it in, for sockets as for forms, whole or by wildcard."""
    settings.CSRF_TRUSTED_ORIGINS = ["https://localhost:8443", "https://*.dice.example"]
    app = SiteOriginValidator(UserMiddlewareStack(URLRouter(websocket_urlpatterns)))
    cookie, sockets = await seated()
    for where in sockets:
        for origin in (b"https://localhost:8443", b"https://play.dice.example", b"https://dice.example"):
            assert await handshake(where, origin, cookie, app=app) == (True, None), (where, origin)
        for origin in (
            b"http://localhost:8443",
            b"https://localhost",
            b"https://localhost:8444",
            b"https://user@localhost:8443",
            b"http://play.dice.example",
            b"https://play.dice.example:8443",
            b"https://user@play.dice.example",
            b"https://notdice.example",
        ):
            assert not (await handshake(where, origin, cookie, app=app))[0], (where, origin)


@pytest.mark.parametrize("cookie", [None, "sessionid=forged-session-key", "sessionid="])
async def test_a_socket_without_a_session_watches_nothing(world, cookie):
    """Not a public game, not a group game: unauthenticated sockets are closed with 4401."""
    for name in ("public-farkle", "group", "open", "finished"):
        assert await handshake(world.games[name].pk, ALLOWED, cookie) == (False, 4401), name


async def test_a_session_of_an_outsider_cannot_watch_a_group_game(world):
    cookie = await database_sync_to_async(session_cookie)(world.users["outsider"])
    # Refused as a missing game is: a private game shows nothing of itself.
    assert await handshake(world.games["group"].pk, ALLOWED, cookie) == (False, 4404)
    assert (await handshake(world.games["public-farkle"].pk, ALLOWED, cookie))[0]


async def test_a_logged_out_session_no_longer_works(world, client):
    from django.conf import settings

    user = world.users["seated"]
    await database_sync_to_async(client.force_login)(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    assert (await handshake(world.games["group"].pk, ALLOWED, cookie))[0]
    await database_sync_to_async(client.post)("/accounts/logout/")
    assert await handshake(world.games["group"].pk, ALLOWED, cookie) == (False, 4401)


@pytest.mark.slow_subprocess
async def test_real_daphne_refuses_a_foreign_origin_at_the_handshake(world, daphne):
    server = await asyncio.to_thread(daphne, "origin")
    cookie = await database_sync_to_async(session_cookie)(world.users["seated"])
    game = world.games["group"].pk
    with pytest.raises(InvalidStatus) as refused:
        await connect(
            server.ws_url(game), origin="http://evil.example", additional_headers={"Cookie": cookie}
        )
    assert refused.value.response.status_code == 403
    another_port = server.url.rsplit(":", 1)[0] + ":1"
    with pytest.raises(InvalidStatus) as refused:
        await connect(server.ws_url(game), origin=another_port, additional_headers={"Cookie": cookie})
    assert refused.value.response.status_code == 403
    ws = await connect(server.ws_url(game), origin=server.url, additional_headers={"Cookie": cookie})
    assert check_server_frame(await asyncio.wait_for(ws.recv(), 10))["type"] == "snapshot"
    await ws.close()
