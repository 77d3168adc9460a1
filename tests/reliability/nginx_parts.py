"""Which parts of deploy/nginx.conf tests/reliability/test_topology.py exercises, and which it does not.

The topology test runs Debian's nginx (1.22), so the file's `server web:8000 resolve` cannot
run as written. `topology-nginx.diff` shows how the upstream is substituted; this list says what the
rest of the file is checked for, by which test, and why the parts left out are left out. The topology
test writes it to artifacts/topology-nginx-exercised.md, and test_nginx_parts.py fails when a directive
of the file is in neither list (or in both), or when the list names a test that does not exist.

A directive is named by the blocks around it and its own words, e.g.
`server :443 > location /ws/ > proxy_read_timeout 1h` (a server block by its `listen` port). A list
entry names a directive by its blocks and the first words of the directive itself, so
`server :443 > gzip_types` stands for the whole list of types.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


class Exercised(NamedTuple):
    directives: tuple[str, ...]  # (): a behaviour with no directive of its own
    tests: tuple[str, ...]  # functions of test_topology.py
    checks: str  # what they assert


class NotExercised(NamedTuple):
    directives: tuple[str, ...]
    reason: str


H80 = "server :80 > location = /healthz"
WS = "server :443 > location /ws/"
PAGES = "server :443 > location /"
STATIC_TEST = "test_https_static_health_and_admin"
TWO = "test_two_players_on_two_replicas"
RESTART = "test_rolling_restart"
IDLE = "test_an_idle_websocket_outlives_every_idle_timer"
LOCKOUT = "test_lockout_and_rate_limits_count_the_players_address_not_the_proxys"

EXERCISED: dict[str, Exercised] = {
    "port 80: redirect to HTTPS": Exercised(
        ("server :80", "server :80 > listen", "server :80 > location /", "server :80 > location / > return"),
        (STATIC_TEST,),
        "GET /games/ over plain HTTP answers 301 to https://localhost/games/ (the port is the test's own).",
    ),
    "/healthz on port 80": Exercised(
        (H80, f"{H80} > proxy_pass", f"{H80} > proxy_set_header Host"),
        (STATIC_TEST,),
        "GET /healthz over plain HTTP answers 200 from a replica, not the redirect; Django accepts the "
        "request only because nginx passes Host: localhost (its default would be `web`, not allowed).",
    ),
    "/healthz on 443": Exercised(
        (),
        (STATIC_TEST, RESTART),
        "GET /healthz over HTTPS (location /) answers 200 with the database and channel layer ok; the "
        "rolling restart's visitor loads it all along.",
    ),
    "TLS": Exercised(
        (
            "server :443",
            "server :443 > listen",
            "server :443 > ssl_certificate",
            "server :443 > ssl_certificate_key",
        ),
        (STATIC_TEST, TWO),
        "Every request is HTTPS (sockets wss) to the port of `listen 443 ssl`, the client verifying the "
        "certificate nginx reads from certs/ beside its configuration.",
    ),
    "HSTS header (Django's, passed through)": Exercised(
        (),
        (STATIC_TEST,),
        "The home page carries Strict-Transport-Security max-age=31536000: Django's header reaches the "
        "browser (nginx adds none of its own).",
    ),
    "static files: caching headers and whitenoise's gzip passed through": Exercised(
        (),
        (STATIC_TEST,),
        "The hashed stylesheet comes with whitenoise's Content-Encoding: gzip and Cache-Control "
        "max-age=315360000, immutable.",
    ),
    "gzip of pages": Exercised(
        ("server :443 > gzip on", "server :443 > gzip_vary", "server :443 > gzip_proxied"),
        (STATIC_TEST,),
        "The home page, asked with Accept-Encoding: gzip and a Via header (a load balancer in front, "
        "which gzip_proxied any lets through), comes gzipped by nginx with Vary: Accept-Encoding "
        "(Django's own Vary has no Accept-Encoding).",
    ),
    "gzip_min_length": Exercised(
        ("server :443 > gzip_min_length",),
        (STATIC_TEST,),
        "/healthz's 41 bytes of JSON (a type gzip_types lists) come uncompressed though gzip is asked for.",
    ),
    "gzip_types": Exercised(
        ("server :443 > gzip_types",),
        (TWO,),
        "A player's statistics (application/json, over 512 bytes) come gzipped by nginx. The other types "
        "are static files that whitenoise has compressed already; text/html is compressed whatever the list.",
    ),
    "request body limit": Exercised(
        ("server :443 > client_max_body_size",),
        (STATIC_TEST,),
        "A 1.5 MB POST reaches Django (nginx's default limit is 1 MB); one announcing 3 MB gets nginx's 413.",
    ),
    "upstream: least_conn over three replicas (servers substituted, see the diff)": Exercised(
        ("upstream web", "upstream web > least_conn"),
        (TWO,),
        "The two seats' sockets land on the two replicas the idle socket is not on: each goes to the "
        "least busy replica (round robin could put one beside the idle socket).",
    ),
    "retry of a refused connection (nginx's default proxy_next_upstream)": Exercised(
        (),
        (RESTART,),
        "The access log shows requests that nginx passed on to another replica after a stopped one failed "
        "them (upstream=<stopped>, <live>); no 5xx outlives the visitor's one retry.",
    ),
    "access log naming the upstream": Exercised(
        ("log_format dicehall", "server :80 > access_log", "server :443 > access_log"),
        (STATIC_TEST, RESTART),
        "A marked /healthz over HTTP and one over HTTPS each leave a line in /var/log/nginx/access.log "
        "(the file's own path, kept by the test) with the visitor's address, 200 and "
        "upstream=<a replica's address>; the rolling restart's lines name both replicas a request tried.",
    ),
    "websocket upgrade": Exercised(
        (
            "map $http_upgrade $connection_upgrade",
            "map $http_upgrade $connection_upgrade > default upgrade",
            WS,
            f"{WS} > proxy_pass",
            f"{WS} > proxy_http_version 1.1",
            f"{WS} > proxy_set_header Upgrade",
            f"{WS} > proxy_set_header Connection",
        ),
        (TWO, RESTART, IDLE),
        "Sockets open through nginx and carry whole games; the socket left idle 300 s still answers a ping.",
    ),
    "pages: location / and its Host": Exercised(
        (PAGES, f"{PAGES} > proxy_pass", f"{PAGES} > proxy_set_header Host"),
        (STATIC_TEST,),
        "Pages answer 200 only because Django gets Host: localhost (ALLOWED_HOSTS=localhost).",
    ),
    "pages: X-Forwarded-For $remote_addr": Exercised(
        (f"{PAGES} > proxy_set_header X-Forwarded-For",),
        (LOCKOUT,),
        "A forged X-Forwarded-For is replaced: sign-in lock-out and the sign-up limit count the "
        "visitor's own address (127.0.9.7), never the forged ones.",
    ),
    "pages: X-Forwarded-Proto $scheme": Exercised(
        (f"{PAGES} > proxy_set_header X-Forwarded-Proto",),
        (STATIC_TEST,),
        "Production settings redirect any request Django does not see as HTTPS: pages answer 200.",
    ),
}

NOT_EXERCISED: dict[str, NotExercised] = {
    "Docker's DNS and `resolve`": NotExercised(
        ("upstream web > resolver", "upstream web > server web:8000 resolve"),
        "Replaced by three `server 127.0.0.1:<port>;` lines (topology-nginx.diff): `resolve` needs nginx "
        "1.27.3+ (Debian has 1.22) and 127.0.0.11 is Docker's DNS, so following a scaled `web` needs Docker.",
    ),
    "shared zone": NotExercised(
        ("upstream web > zone",),
        "It shares the replicas' connection counts and failures (and `resolve`'s addresses) among nginx's "
        "worker processes; the test's nginx has one worker, so nothing is shared.",
    ),
    "port 80 /healthz: X-Forwarded-For and X-Forwarded-Proto": NotExercised(
        (f"{H80} > proxy_set_header X-Forwarded-For", f"{H80} > proxy_set_header X-Forwarded-Proto"),
        "The health check reads neither (it is exempt from the HTTPS redirect).",
    ),
    "websocket: Host, X-Forwarded-For, X-Forwarded-Proto": NotExercised(
        (
            f"{WS} > proxy_set_header Host",
            f"{WS} > proxy_set_header X-Forwarded-For",
            f"{WS} > proxy_set_header X-Forwarded-Proto",
        ),
        "Nothing behind a socket reads them: the origin check reads Origin, and the sockets' rate limits "
        "count per connection and per user.",
    ),
    "websocket: Connection: close without Upgrade": NotExercised(
        ('map $http_upgrade $connection_upgrade > "" close',),
        "No test sends /ws/ a request without Upgrade.",
    ),
    "websocket timeouts": NotExercised(
        (f"{WS} > proxy_read_timeout", f"{WS} > proxy_send_timeout"),
        "daphne pings every socket every 20 s, so the socket left idle 300 s would stay open under nginx's "
        "60 s defaults too; showing 1 h would take an hour without pings.",
    ),
    "TLS versions": NotExercised(
        ("server :443 > ssl_protocols",),
        "This machine's OpenSSL 3.0 cannot do TLS 1.0/1.1 at its default security level, with or without "
        "the line, so a refusal would show nothing; 1.2 and 1.3 are accepted either way.",
    ),
    "TLS session cache": NotExercised(
        ("server :443 > ssl_session_cache",),
        "A client resumes through TLS 1.3 session tickets as well, so no client can tell the cache at work.",
    ),
    "gzip level": NotExercised(
        ("server :443 > gzip_comp_level",),
        "The compressed sizes are recorded (figures: home_bytes); nothing asserts the level.",
    ),
}


def directives(text: str) -> list[str]:
    """Every directive and block of an nginx file (each ending in `;` or `{`), named by its blocks."""
    found: list[tuple[list[list[str]], list[str] | None, str]] = []
    blocks: list[list[str]] = []  # a block's name is a one-item list, renamed once its `listen` is seen
    words: list[str] = []
    for line in text.splitlines():
        for token in re.split(r"([;{}])", re.sub(r"#.*", "", line)):
            if token == "}":
                blocks = blocks[:-1]
            elif token in (";", "{"):
                statement, words = " ".join(words), []
                block = [statement] if token == "{" else None
                found.append((blocks, block, statement))
                if block:
                    blocks = [*blocks, block]
                elif blocks and blocks[-1][0] == "server" and statement.startswith("listen "):
                    blocks[-1][0] = "server :" + statement.split()[1].rsplit(":", 1)[-1]
            else:
                words += token.split()
    return [" > ".join([b[0] for b in path] + [block[0] if block else s]) for path, block, s in found]


def covers(entry: str, directive: str) -> bool:
    """Same blocks, and the entry's words begin the directive's own."""
    *blocks, own = directive.split(" > ")
    *entry_blocks, entry_own = entry.split(" > ")
    return blocks == entry_blocks and own.split()[: len(entry_own.split())] == entry_own.split()


def parts() -> dict[str, tuple[str, ...]]:
    return {
        **{name: part.directives for name, part in EXERCISED.items()},
        **{name: part.directives for name, part in NOT_EXERCISED.items()},
    }


def coverage(text: str) -> tuple[dict[str, list[str]], list[str]]:
    """Each directive of the file with the parts whose entries cover it, and the entries covering none."""
    found = directives(text)
    listed = parts()
    owners = {
        d: [name for name, entries in listed.items() if any(covers(e, d) for e in entries)] for d in found
    }
    stale = [e for entries in listed.values() for e in entries if not any(covers(e, d) for d in found)]
    return owners, stale


def markdown(text: str) -> str:
    """The list as the artifact gives it, each part with the file's directives it stands for."""
    found = directives(text)

    def lines_of(entries: tuple[str, ...]) -> list[str]:
        shown = [f"- `{d}`" for d in found if any(covers(e, d) for e in entries)]
        return shown or ["- (no directive of its own)"]

    lines = [
        "# deploy/nginx.conf: what tests/reliability/test_topology.py exercises",
        "",
        "How the upstream and ports were substituted: topology-nginx.diff. The list is "
        "tests/reliability/nginx_parts.py; tests/reliability/test_nginx_parts.py keeps it complete.",
        "",
        "## Exercised",
    ]
    for name, part in EXERCISED.items():
        lines += ["", f"### {name}", "", *lines_of(part.directives)]
        lines += ["", f"Tests: {', '.join(f'`{t}`' for t in part.tests)}.", "", part.checks]
    lines += ["", "## Not exercised"]
    for name, part in NOT_EXERCISED.items():
        lines += ["", f"### {name}", "", *lines_of(part.directives), "", part.reason]
    return "\n".join(lines) + "\n"
