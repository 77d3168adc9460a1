"""A session that ends on one server process closes its sockets on another (accounts/sockets.py): two
daphne processes on PostgreSQL + Redis, the sign-out and the password change sent over HTTP to one,
the sockets open on the other."""

from __future__ import annotations

import asyncio
import re
import urllib.parse
import urllib.request

import pytest
from channels.db import database_sync_to_async
from websockets.exceptions import ConnectionClosed

from games.models import Action, Game
from tests.factories import PASSWORD, started_farkle_pair
from tests.reliability.conftest import Socket, requires_real_backends, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "a-brand-new-password-77"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def post_form(server, path: str, cookie: str, form: dict) -> int:
    """A form's POST as the browser sends it: the page first (its CSRF token and cookie), then the form."""
    opener = urllib.request.build_opener(NoRedirect)
    page_path = "/accounts/profile/" if path.endswith("logout/") else path
    with opener.open(
        urllib.request.Request(server.url + page_path, headers={"Cookie": cookie}),  # noqa: S310 - ours
        timeout=10,
    ) as page:
        html = page.read().decode()
        csrf_cookie = re.search(r"csrftoken=([^;]+)", page.headers.get("Set-Cookie", "")).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **form}).encode()
    request = urllib.request.Request(  # noqa: S310 - ours
        server.url + path,
        data=body,
        headers={"Cookie": f"{cookie}; csrftoken={csrf_cookie}", "Origin": server.url},
    )
    try:
        with opener.open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as answer:  # the redirect, not followed
        return answer.code


@database_sync_to_async
def setup(make_user):
    game_id, mover = started_farkle_pair(make_user)
    return game_id, session_cookie(mover), session_cookie(mover)


async def closed_with(socket: Socket) -> int:
    try:
        while True:
            await socket.recv(10)
    except ConnectionClosed as closed:
        return closed.rcvd.code


async def stored(game_id: int) -> tuple[int, int]:
    def read():
        return Game.objects.get(pk=game_id).seq, Action.objects.filter(game_id=game_id).count()

    return await database_sync_to_async(read)()


@requires_real_backends
@pytest.mark.parametrize("ending", ["logout", "password change"])
async def test_a_session_ended_on_one_process_closes_its_sockets_on_the_other(make_user, daphne, ending):
    one, two = await asyncio.gather(asyncio.to_thread(daphne, "one"), asyncio.to_thread(daphne, "two"))
    game_id, ended_cookie, other_cookie = await setup(make_user)
    ended = Socket(two, game_id, ended_cookie, "ended")
    other = Socket(two, game_id, other_cookie, "other")
    await ended.open()
    await other.open()
    before = await stored(game_id)
    if ending == "logout":
        status = await asyncio.to_thread(post_form, one, "/accounts/logout/", ended_cookie, {})
    else:
        # The other session changes the password: the first one's sockets end, its own stay.
        form = {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
        status = await asyncio.to_thread(post_form, one, "/accounts/password/change/", other_cookie, form)
    assert status == 302
    assert await closed_with(ended) == 4401
    assert await stored(game_id) == before
    # The other session's socket, on the same process, is still open and answered.
    await other.send({"type": "ping"})
    await other.next("pong")
    await ended.close()
    await other.close()
    for server in (one, two):
        assert server.alive() and "Traceback" not in server.log_text(), server.log_tail()
