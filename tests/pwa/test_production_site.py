"""The site as production serves it: `collectstatic` with production's manifest storage, DEBUG off, then
every page a visitor and a player can reach by its links, and every static file those pages (and the
static files themselves) name. The rest of the suite serves static files from the finders (the test
settings), so a page that works there can still fail on the hashed names of production.

The crawl runs in a process of its own under config.settings.production (a fresh SQLite file, the
in-memory layer): the settings are read once at start, and production's differ from the suite's."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"""(?:href|src|content|action)="(/[^"#]*)""")
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")
JS_IMPORT = re.compile(r"""(?:\bfrom\s+|\bimport\s*\(?\s*)['"](\.{1,2}/[^'"]+)['"]""")
# Not followed: signing out ends the crawl's session; the admin is staff's own site.
SKIP = ("/accounts/logout/", "/admin/")
MAX_PAGES = 400


def crawl(static_root: str) -> dict:
    """Collect the static files into ``static_root``, make a few players and games, and fetch every
    page reachable from the home page (as a visitor, then signed in) and every static URL named."""
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings

    assert not settings.DEBUG
    with override_settings(STATIC_ROOT=static_root):
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("migrate", interactive=False, verbosity=0)
        ann = _data()
        visitor, player = Client(raise_request_exception=False), Client(raise_request_exception=False)
        player.force_login(ann)
        report: dict = {"pages": {}, "static": {}, "head": {}}
        for client in (visitor, player):
            _walk(client, report)
        for path in ("/sw.js", "/manifest.webmanifest", "/offline/"):
            response = visitor.head(path, secure=True)
            report["head"][path] = response.status_code
    return report


def _data():
    """Players, a group, finished games for the statistics and charts, an open and a running table."""
    from accounts.models import User
    from games.results.seed import seed_finished_games
    from games.tables import services
    from groups.services import group_create

    ann, bob, cy = (User.objects.create_user(name, password="x-" + name * 4) for name in ("ann", "bob", "cy"))
    group = group_create(creator=ann, name="Tuesdays", description="")
    seed_finished_games(30, [ann, bob, cy], groups=[group])
    services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=3)
    running = services.game_create(creator=ann, kind="quintzee", seats=2)
    services.game_join(game_id=running.pk, user=bob)
    services.game_start(game_id=running.pk, user=ann)
    return ann


def _walk(client, report: dict) -> None:
    queue, seen = ["/", "/offline/", "/sw.js", "/manifest.webmanifest"], set()
    while queue and len(seen) < MAX_PAGES:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path, secure=True)
        report["pages"].setdefault(path, response.status_code)
        if response.status_code >= 500:
            report["pages"][path] = response.status_code
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            if path == "/sw.js" or path == "/manifest.webmanifest":
                _static_in(response.content.decode(), client, report)
            continue
        html = response.content.decode()
        _static_in(html, client, report)
        for link in LINK.findall(html):
            link = link.replace("&amp;", "&")
            if not link.startswith("/static/") and not link.startswith("//") and not link.startswith(SKIP):
                queue.append(link)


def _static_in(text: str, client, report: dict) -> None:
    """Fetch every /static/ URL the text names, and what those files name in turn (CSS url(), JS
    imports)."""
    pending = re.findall(r"/static/[^\"'\s)<>]+", text)
    while pending:
        url = pending.pop().split("?")[0].split("#")[0]
        if url in report["static"]:
            continue
        response = client.get(url, secure=True)
        report["static"][url] = response.status_code
        if response.status_code != 200:
            continue
        body = b"".join(response.streaming_content) if response.streaming else response.content
        if url.endswith(".css"):
            refs = CSS_URL.findall(body.decode())
        elif url.endswith(".js"):
            refs = JS_IMPORT.findall(body.decode())
        else:
            refs = []
        for ref in refs:
            if not ref.startswith("data:"):
                pending.append(urlsplit(urljoin(url, ref)).path)


@pytest.mark.slow_subprocess
def test_every_page_and_static_file_answers_under_production_settings(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="k" * 20 + "Qz9!x7Lm2#vB4nR8tY6wE1uI3oP5aS0dF" + "j" * 10,
        ALLOWED_HOSTS="testserver",
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        PYTHONPATH=str(ROOT),
    )
    script = (
        "import json, sys; from tests.pwa.test_production_site import crawl; "
        "print('REPORT ' + json.dumps(crawl(sys.argv[1])))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "static")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    report = json.loads(result.stdout.split("REPORT ", 1)[1])
    pages, static = report["pages"], report["static"]
    assert len(pages) > 40 and len(static) > 10, (len(pages), len(static))
    assert {p: s for p, s in pages.items() if s >= 500} == {}
    assert {u: s for u, s in static.items() if s != 200} == {}
    for path in ("/sw.js", "/manifest.webmanifest", "/offline/"):
        assert pages[path] == 200, path
    # A HEAD is a GET without its body (RFC 9110): link checkers and proxies ask it of these three.
    assert report["head"] == {"/sw.js": 200, "/manifest.webmanifest": 200, "/offline/": 200}
    # The hashed names are production's: the service worker keeps them, and names the prefix they share.
    assert any(re.search(r"\.[0-9a-f]{12}\.css$", url) for url in static), sorted(static)[:5]
