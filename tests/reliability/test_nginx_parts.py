"""tests/reliability/nginx_parts.py stays true to deploy/nginx.conf and test_topology.py: a directive added
to the file must be listed as exercised (by which test, checking what) or not (and why)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.reliability import nginx_parts

TOPOLOGY_TEST = Path(__file__).with_name("test_topology.py")


def test_every_directive_is_in_exactly_one_part():
    owners, stale = nginx_parts.coverage(nginx_parts.CONF.read_text())
    unlisted = [d for d, names in owners.items() if not names]
    assert not unlisted, f"deploy/nginx.conf: say whether test_topology.py exercises {unlisted}"
    twice = {d: names for d, names in owners.items() if len(names) > 1}
    assert not twice, f"listed in more than one part: {twice}"
    assert not stale, f"nginx_parts.py names directives deploy/nginx.conf no longer has: {stale}"


def test_every_cited_test_exists():
    tree = ast.parse(TOPOLOGY_TEST.read_text())
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    for name, part in nginx_parts.EXERCISED.items():
        assert part.tests, f"{name}: exercised by no test"
        assert set(part.tests) <= defined, f"{name}: no {set(part.tests) - defined} in test_topology.py"
        assert part.checks


def test_directives_are_named_by_their_blocks():
    text = """
    map $a $b { default x; "" y; }  # a comment; not a directive {
    server { access_log off; listen 127.0.0.1:8443 ssl;
        location /ws/ { proxy_pass http://web; }
    }
    log_format f 'one'
               'two';
    """
    assert nginx_parts.directives(text) == [
        "map $a $b",
        "map $a $b > default x",
        'map $a $b > "" y',
        "server :8443",
        "server :8443 > access_log off",
        "server :8443 > listen 127.0.0.1:8443 ssl",
        "server :8443 > location /ws/",
        "server :8443 > location /ws/ > proxy_pass http://web",
        "log_format f 'one' 'two'",
    ]


def test_an_entry_covers_by_its_first_words_within_the_same_blocks():
    assert nginx_parts.covers("server :443 > gzip", "server :443 > gzip on")
    assert not nginx_parts.covers("server :443 > gzip", "server :443 > gzip_types text/css")
    assert not nginx_parts.covers("server :443", "server :443 > gzip on")
    assert not nginx_parts.covers("server :80 > access_log", "server :443 > access_log x dicehall")


def test_the_artifact_lists_every_part():
    text = nginx_parts.markdown(nginx_parts.CONF.read_text())
    for name in {**nginx_parts.EXERCISED, **nginx_parts.NOT_EXERCISED}:
        assert f"### {name}\n" in text
