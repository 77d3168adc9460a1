"""The production topology without Docker: Debian's nginx running deploy/nginx.conf in front of several
daphne processes started as docker-compose's `web` service starts them, on PostgreSQL and Redis.

What is taken from the deployment files, so that they cannot drift apart from what is tested:
- deploy/nginx.conf, whole, as the nginx image includes it (conf.d/default.conf inside the image's
  http block). Only the `upstream web` block's `resolver` and `server web:8000 resolve` lines (Docker's
  DNS, and `resolve` needs nginx 1.27.3+; Debian has 1.22) and the two `listen` ports change;
  `substitution_diff()` shows exactly that.
- docker-compose.yml's `web` service: its daphne command line (address and port changed) and its
  environment, each `${...}` filled in with this machine's values.
- The Dockerfile's collectstatic step, so that static files are served as in the image.
"""

from __future__ import annotations

import contextlib
import datetime
import difflib
import http.client
import itertools
import os
import re
import secrets
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

import yaml

from tests.reliability.conftest import ROOT, Daphne, free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HOST = "localhost"
# The image's own nginx.conf (nginx:1.27) around the site's file: mime types, sendfile, keep-alive, and
# `include conf.d/*.conf` inside `http`. Paths point into the test's own folder.
MAIN_CONF = """\
{user}worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    keepalive_timeout 65;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    include conf.d/default.conf;
}}
"""


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def site_conf() -> str:
    return (ROOT / "deploy" / "nginx.conf").read_text()


def substitute(conf: str, upstreams: list[int], http_port: int, https_port: int) -> str:
    """deploy/nginx.conf with local upstreams and ports; every replaced line must be found exactly once,
    so that a change to the file fails here instead of testing something else."""
    replacements = [
        (r"^    resolver 127\.0\.0\.11 valid=10s;\n", ""),
        (
            r"^    server web:8000 resolve;\n",
            "".join(f"    server 127.0.0.1:{port};\n" for port in upstreams),
        ),
        (r"^    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n"),
        (r"^    listen 443 ssl;\n", f"    listen 127.0.0.1:{https_port} ssl;\n"),
    ]
    for pattern, replacement in replacements:
        conf, count = re.subn(pattern, replacement, conf, flags=re.M)
        assert count == 1, f"deploy/nginx.conf: expected one line matching {pattern!r}, found {count}"
    return conf


def substitution_diff(used: str) -> str:
    return "".join(
        difflib.unified_diff(
            site_conf().splitlines(keepends=True),
            used.splitlines(keepends=True),
            "deploy/nginx.conf",
            "as run by the test",
        )
    )


def daphne_command(port: int) -> list[str]:
    """docker-compose's web command, its daphne part, bound to 127.0.0.1:port. Its `migrate` part is
    the test database's setup, done already."""
    command = shlex.split(compose()["services"]["web"]["command"])
    assert command[:2] == ["sh", "-c"], command
    daphne = shlex.split(command[2].split("&&")[-1])
    assert daphne[0] == "daphne", daphne
    args = daphne[1:]
    args[args.index("-b") + 1] = "127.0.0.1"
    args[args.index("-p") + 1] = str(port)
    return [sys.executable, "-m", "daphne", *args]


def web_environment(variables: dict[str, str], addresses: dict[str, str]) -> dict[str, str]:
    """The web service's environment: each `${NAME...}` filled in from `variables` (what an operator
    puts in `.env`), and the settings that name compose's services (`addresses`: DATABASE_URL, REDIS_URL)
    pointed at this machine's."""
    env = {}
    for name, value in compose()["services"]["web"]["environment"].items():
        value = re.sub(r"\$\{(\w+)(?::([-?])([^}]*))?\}", lambda m: _fill(m, variables), str(value))
        env[name] = addresses.get(name, value)
    missing = set(addresses) - set(env)
    assert not missing, f"docker-compose's web service has no {missing}"
    return env


def _fill(match: re.Match, variables: dict[str, str]) -> str:
    """One `${NAME}`, `${NAME:-default}` or `${NAME:?message}` as docker compose fills it in."""
    name, kind, rest = match.groups()
    if name in variables:
        return variables[name]
    assert kind == "-", f"docker-compose needs {name}: the test must give it"
    return rest


def self_signed(folder: Path) -> Path:
    """certs/fullchain.pem and certs/privkey.pem for localhost; returns the certificate's path."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(HOST)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fullchain.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "privkey.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return folder / "fullchain.pem"


class LogLine(NamedTuple):
    """One line of the access log in deploy/nginx.conf's `dicehall` format."""

    address: str
    request: str
    status: int
    upstreams: list[str]  # each replica nginx tried, in order ("-" when none: the redirect)


LOG_LINE = re.compile(
    r'(?P<address>\S+) \[[^\]]*\] "(?P<request>[^"]*)" (?P<status>\d{3}) \d+ '
    r"upstream=(?P<upstream>.+) time=[\d.]+$"
)


class Nginx:
    """Debian's nginx with the site's configuration, in its own folder, in the foreground."""

    def __init__(self, prefix: Path, upstreams: list[int]):
        self.prefix = prefix
        self.http_port, self.https_port = free_port(), free_port()
        self.conf = substitute(site_conf(), upstreams, self.http_port, self.https_port)
        self.replicas = {f"127.0.0.1:{port}" for port in upstreams}
        # Kept where deploy/nginx.conf puts it, shared with any other nginx of this machine: the test
        # reads what was appended since it looked, and tells its own lines by its replicas' ports.
        (log,) = set(re.findall(r"^\s*access_log (\S+) dicehall;$", self.conf, flags=re.M))
        self.access_log_path = Path(log)
        self.cert = self_signed(prefix / "conf" / "certs")
        self.proc: subprocess.Popen | None = None
        self.ssl_context = ssl.create_default_context(cafile=str(self.cert))

    @property
    def url(self) -> str:
        return f"https://{HOST}:{self.https_port}"

    def ws_url(self, game_id: int) -> str:
        return f"wss://{HOST}:{self.https_port}/ws/games/{game_id}/"

    def _write(self) -> Path:
        for sub in ("conf/conf.d", "tmp"):
            (self.prefix / sub).mkdir(parents=True, exist_ok=True)
        (self.prefix / "conf" / "conf.d" / "default.conf").write_text(self.conf)
        # Workers of a root master run as `nobody`, who cannot enter pytest's private folders.
        user = "user root;\n" if os.geteuid() == 0 else ""
        main = self.prefix / "conf" / "nginx.conf"
        main.write_text(MAIN_CONF.format(prefix=self.prefix, user=user))
        return main

    def start(self) -> None:
        main = self._write()
        base = [NGINX, "-p", str(self.prefix), "-c", str(main)]
        checked = subprocess.run([*base, "-t"], capture_output=True, text=True, check=False)
        assert checked.returncode == 0, f"nginx -t refused the configuration:\n{checked.stderr}"
        self.proc = subprocess.Popen([*base, "-g", "daemon off;"], stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not _listening(self.https_port):
            assert self.proc.poll() is None, f"nginx stopped: {self.error_log()}"
            assert time.monotonic() < deadline, "nginx did not listen within 10 s"
            time.sleep(0.05)

    def log_size(self) -> int:
        with contextlib.suppress(OSError):
            return self.access_log_path.stat().st_size
        return 0

    def access_log(self, since: int) -> list[LogLine]:
        """The lines appended to the access log since offset `since` (nginx appends whole lines)."""
        with contextlib.suppress(OSError), self.access_log_path.open("rb") as log:
            log.seek(since)
            matches = (LOG_LINE.match(line) for line in log.read().decode(errors="replace").splitlines())
            return [
                LogLine(m["address"], m["request"], int(m["status"]), m["upstream"].split(", "))
                for m in matches
                if m
            ]
        return []

    def logged(self, since: int, wanted, count: int = 1, seconds: float = 5) -> list[LogLine]:
        """The lines since `since` that `wanted` accepts, once there are `count` (or `seconds` have
        passed): nginx writes a request's line when it is done with it, just after the client has its
        answer."""
        deadline = time.monotonic() + seconds
        while len(lines := [line for line in self.access_log(since) if wanted(line)]) < count:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        return lines

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def error_log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.prefix / "error.log").read_text(errors="replace")[-4000:]
        return ""


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Web(Daphne):
    """One `web` replica: daphne as docker-compose starts it (production settings, --proxy-headers)."""

    def __init__(self, env: dict, name: str):
        super().__init__(env, name)
        self.command = daphne_command(self.port)

    def _argv(self) -> list[str]:
        return self.command

    def terminate(self) -> None:
        """SIGTERM, as `docker compose restart`/`stop` sends first; waits for the process to end."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(20)

    def established(self) -> int:
        """Connections open to this replica now (nginx's side of them), from /proc/net/tcp."""
        count = 0
        target = f"0100007F:{self.port:04X}"
        for path in ("/proc/net/tcp",):
            for line in Path(path).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[2] == target and fields[3] == "01":
                    count += 1
        return count


class Worker:
    """The `worker` service: docker-compose's command, with the web service's environment."""

    def __init__(self, env: dict, log_path: Path, args: tuple[str, ...] = ()):
        self.env = env
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None
        command = shlex.split(compose()["services"]["worker"]["command"])
        assert command[0] == "python", command
        self.command = [sys.executable, *command[1:], *args]

    def start(self) -> None:
        with self.log_path.open("a") as log:
            self.proc = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def collectstatic(env: dict) -> None:
    """The Dockerfile's collectstatic step (into the checkout's staticfiles/, as in the image)."""
    step = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if "collectstatic" in line)
    words = shlex.split(step.removeprefix("RUN "))
    settings_module = next(w.split("=", 1)[1] for w in words if w.startswith("DJANGO_SETTINGS_MODULE="))
    command = [sys.executable, *words[words.index("python") + 1 :]]
    subprocess.run(
        command,
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": settings_module},
        check=True,
        capture_output=True,
    )


def secret_key() -> str:
    return secrets.token_urlsafe(60)


# --- an HTTP client that behaves like a browser: cookies, CSRF token, Referer, its own address ----


class FormFields(HTMLParser):
    """The fields of the form posting to `action`, with the values a browser would send by default."""

    def __init__(self, action: str, page: str):
        super().__init__()
        self.action = action
        self.page = page
        self.inside = False
        self.fields: dict[str, str] = {}
        self.select: str | None = None
        self.first_option: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            # A form without an action posts to the page itself.
            self.inside = (a.get("action") or self.page) == self.action
        elif not self.inside:
            return
        elif tag == "input" and a.get("name") and a.get("type") not in ("submit", "button", "checkbox"):
            self.fields[a["name"]] = a.get("value") or ""
        elif tag == "select":
            self.select, self.first_option = a.get("name"), None
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = a.get("value", "")
                self.fields[self.select] = self.first_option
            if "selected" in a:
                self.fields[self.select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


_sources = (f"127.0.{n // 250 + 1}.{n % 250 + 1}" for n in itertools.count())


class Visitor:
    """One browser: its own cookies and its own address (127.0.x.y: every player is somewhere else)."""

    def __init__(self, site: Nginx, source: str | None = None):
        self.site = site
        self.source = source or next(_sources)
        self.cookies: dict[str, str] = {}
        self.username = ""

    def request(
        self,
        method: str,
        path: str,
        body: dict | None = None,
        headers: dict | None = None,
        https: bool = True,
    ) -> tuple[int, dict, bytes]:
        conn = self.connection(https)
        sent = {"Cookie": self.cookie_header(), **(headers or {})}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            sent.update(
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Origin": self.site.url,
                    "Referer": self.site.url + path,
                }
            )
        try:
            conn.request(method, path, body=data, headers=sent)
            response = conn.getresponse()
            content = response.read()
            for value in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            headers: dict[str, str] = {}
            for name, value in response.getheaders():  # a repeated header (Vary) as one list
                name = name.lower()
                headers[name] = f"{headers[name]}, {value}" if name in headers else value
            return response.status, headers, content
        finally:
            conn.close()

    def connection(self, https: bool = True) -> http.client.HTTPConnection:
        if https:
            return http.client.HTTPSConnection(
                HOST,
                self.site.https_port,
                context=self.site.ssl_context,
                timeout=30,
                source_address=(self.source, 0),
            )
        return http.client.HTTPConnection(
            HOST, self.site.http_port, timeout=30, source_address=(self.source, 0)
        )

    def post_bytes(self, path: str, size: int, send: bool = True) -> int:
        """POST `size` bytes to `path` (`send=False`: only announce them, as a client that waits for
        an answer before sending); the status."""
        conn = self.connection()
        try:
            conn.putrequest("POST", path)
            conn.putheader("Content-Type", "application/octet-stream")
            conn.putheader("Content-Length", str(size))
            conn.endheaders(b"x" * size if send else None)
            response = conn.getresponse()
            response.read()
            return response.status
        finally:
            conn.close()

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def get(self, path: str, **kw) -> tuple[int, dict, bytes]:
        return self.request("GET", path, **kw)

    def post_form(self, page: str, action: str, values: dict, headers: dict | None = None):
        """Open `page`, fill the form that posts to `action` with `values`, and send it."""
        status, _, content = self.get(page)
        assert status == 200, f"GET {page}: {status}"
        parser = FormFields(action, page)
        parser.feed(content.decode())
        fields = {**parser.fields, **values}
        assert "csrfmiddlewaretoken" in fields, f"no form posting to {action} on {page}"
        return self.request("POST", action, body=fields, headers=headers)

    def sign_up(self, username: str, password: str, email: str = "") -> None:
        status, _, _ = self.post_form(
            "/accounts/signup/",
            "/accounts/signup/",
            {"username": username, "password1": password, "password2": password, "email": email},
        )
        assert status == 302, f"sign-up of {username}: {status}"
        assert "sessionid" in self.cookies
        self.username = username

    def log_in(self, username: str, password: str, headers: dict | None = None) -> int:
        status, _, _ = self.post_form(
            "/accounts/login/", "/accounts/login/", {"username": username, "password": password}, headers
        )
        return status
