"""One committed server seed, one game, across two daphne processes (docs/fair-dice.md): two requests of
one session that bring the same commitment at the same instant, one through each process (two tabs,
a double press, the lobby's form and "Play someone now" together). One of them takes the seed; the
other is refused with a clear 409 and a page committing a new seed, never a second game, request or
rated table with that seed."""

from __future__ import annotations

import re
import threading

import pytest

from games import fair_dice
from games.models import Game
from pairing.models import Seek
from tests.reliability.conftest import form_page, post_form, requires_real_backends, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
ROUNDS = 4
FORMS = {
    "/games/new/": {"kind": "farkle", "goal": 3000, "dice": 6, "seats": 2, "pace": "live", "rated": "on"},
    "/play/ask/": {
        "kind": "farkle",
        "goal": 3000,
        "dice": 6,
        "seats": 2,
        "pace": "live",
        "computers_after": "",
    },
}
COMMITMENT = re.compile(r'id="fair-next".*?<code class="seed">([0-9a-f]{64})</code>', re.S)


def _page(server, path: str, cookie: str) -> tuple[str, str, str]:
    """The page's commitment, its CSRF form token and the cookie header that goes with it."""
    html, token, with_csrf = form_page(server, path, cookie)
    return COMMITMENT.search(html).group(1), token, with_csrf


def _post(server, path: str, cookie: str, token: str, client_seed: str) -> tuple[int, str]:
    return post_form(
        server, path, cookie, {**FORMS[path], "csrfmiddlewaretoken": token, "client_seed": client_seed}
    )


def _at_once(posts: list[tuple]) -> list[tuple[int, str]]:
    """Every (server, path, cookie, token, seed) posted at the same instant, one thread each."""
    barrier = threading.Barrier(len(posts))
    answers: list[tuple[int, str]] = [(0, "")] * len(posts)

    def go(i: int) -> None:
        barrier.wait()
        answers[i] = _post(*posts[i])

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(posts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    return answers


def _users_of(commitment: str) -> tuple[int, int]:
    """How many games and how many requests to be paired have the seed of this commitment."""
    games = sum(1 for g in Game.objects.exclude(server_seed="") if g.seed_commitment == commitment)
    seeks = sum(
        1 for s in Seek.objects.exclude(server_seed="") if fair_dice.commitment(s.server_seed) == commitment
    )
    return games, seeks


@requires_real_backends
@pytest.mark.parametrize("second", ["/games/new/", "/play/ask/"], ids=["lobby-twice", "lobby-and-play-now"])
def test_one_commitment_posted_twice_at_once_through_two_processes_serves_one_game(make_user, daphne, second):
    servers = [daphne("a"), daphne("b")]
    for round_ in range(ROUNDS):
        # A player of their own each round: a request to be paired waits on, and would be the same one.
        user = make_user(f"twice{round_}")
        cookie = session_cookie(user)
        committed, token, with_csrf = _page(servers[0], "/games/", cookie)
        answers = _at_once(
            [
                (servers[0], "/games/new/", with_csrf, token, "first-tab"),
                (servers[1], second, with_csrf, token, "second-tab"),
            ]
        )
        statuses = sorted(status for status, _ in answers)
        assert statuses == [302, 409], (round_, statuses)
        refused = next(body for status, body in answers if status == 409)
        assert "has been used by another game of yours" in refused
        fresh = COMMITMENT.search(refused).group(1)
        assert fresh != committed
        games, seeks = _users_of(committed)
        assert games + seeks == 1, (round_, games, seeks)
        assert _users_of(fresh) == (0, 0)  # committed, not yet used
    for server in servers:
        assert "Traceback" not in server.log_text()
