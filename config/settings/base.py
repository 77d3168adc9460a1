"""Settings shared by every environment; values come from the environment (django-environ).

With no DATABASE_URL the database is a SQLite file; with no REDIS_URL the channel layer is the
in-memory one. Both defaults exist so that `make run` works on a machine with no servers.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import environ
from csp.constants import NONE, SELF

from infra import layer

BASE_DIR = Path(__file__).resolve().parents[2]

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me-0123456789abcdefghij")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "axes",
    # django-csp: its system checks catch settings of its 3.x form, which it would silently ignore.
    "csp",
    "accounts",
    "games",
    "groups",
    "notices",
    "chat",
    "coach",
    "ratings",
    "pairing",
    "daily",
    "tournaments",
    "seasons",
    "friends",
    "play",
    "safety",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before WhiteNoise, which answers static files itself: they get the policy too (an SVG opened
    # as a page could run its scripts otherwise).
    "csp.middleware.CSPMiddleware",
    # A NUL in a header is refused before anything stores it (infra/params.py).
    "infra.params.RefuseBadHeaders",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: the language cookie, else the browser's Accept-Language (visitors).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in player's own language (accounts.User.language) wins over the browser's.
    "accounts.middleware.PlayerLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a refused sign-in into the lock-out page (accounts/lockout.py).
    "axes.middleware.AxesMiddleware",
]
# django-axes' backend first: it refuses a locked-out username or address before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "play.context_processors.game_kinds",
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
# Never a connection kept by Django past its request: under ASGI each request runs in a
# thread and context of its own (asgiref's ThreadSensitiveContext), so a kept connection was never used
# again and stayed open until the garbage collector found it, which the tuned collector seldom does
# (infra/gc_tuning.py): one process held 96 of PostgreSQL's 100. Django's advice for ASGI: no
# persistent connections, the database driver's pool instead (below, once WS_DB_THREADS is known).
DATABASES["default"]["CONN_MAX_AGE"] = 0
# Seconds an idle connection of a pool stays open beyond the pool's first (psycopg_pool's max_idle,
# at least 1; it also paces the pool's shrinking): what "keep connections for a while" means now.
CONN_MAX_AGE = max(1, env.int("CONN_MAX_AGE", default=60))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Websocket consumers write from a thread pool while pages read: wait for the lock instead of
    # failing at once with "database is locked".
    # IMMEDIATE takes the write lock when a transaction starts, so that two actions on one game queue
    # up the way select_for_update makes them queue on PostgreSQL.
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# English is the default for a browser that asks for nothing we have; "10000" is played in German.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Each language's own date order ("1 Dec 2026" / "1. Dez. 2026"): templates name DATE_FORMAT etc.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Front-end libraries come from npm (package.json; `make run` runs `npm ci`), never copied into the repo:
# the folder of each that the pages load, as static/vendor/<name>/.
for _name, _folder in (("chart.js", "dist"), ("fast-json-patch", "module")):
    if (BASE_DIR / "node_modules" / _name / _folder).is_dir():
        STATICFILES_DIRS.append((f"vendor/{_name}", BASE_DIR / "node_modules" / _name / _folder))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="dice@localhost")
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=587)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = 20
EMAIL_FILE_PATH = env("EMAIL_FILE_PATH", default=str(BASE_DIR / "artifacts" / "mail"))  # the file backend
# Links in e-mails (no request to build them from): the site's address as players reach it.
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

# Background work (notices/tasks.py) on django-tasks with its database backend: the tasks live in the
# same PostgreSQL as the games, so a task is as durable as the move that asked for it, and a worker
# that is down only delays it. `manage.py worker` runs it (make run and docker-compose start one). The
# push messages have a queue of their own ("push", notices.push.QUEUE), which the worker runs on a
# thread of its own: a push service that does not answer never holds a computer's move.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "push"]}}
# Seconds after the turn passes to a player in a game over days before the turn's e-mail goes out, if
# they have not been on the game's page or any page of the site since (a player at the table needs
# none). In a live game the e-mail waits for the game's own limit.
TURN_MAIL_DAYS_AFTER = env.int("TURN_MAIL_DAYS_AFTER", default=120)
# How often the worker looks for e-mails that have become due (seconds).
NOTICE_SWEEP_EVERY = env.int("NOTICE_SWEEP_EVERY", default=30)
# Web Push (notices/push.py): the VAPID key pair that signs the site's push messages (base64url: the
# private key's 32 bytes, the public key's 65 of an uncompressed P-256 point, which the browsers take as
# applicationServerKey), and the contact the push services may write to. In production they come from
# the environment; `make run` makes a pair once with `manage.py vapid_keys` into VAPID_KEYS_FILE
# (git-ignored), read when the environment gives none. With neither, the site sends no push messages.
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY", default="")
VAPID_PUBLIC_KEY = env("VAPID_PUBLIC_KEY", default="")
VAPID_SUBJECT = env("VAPID_SUBJECT", default="mailto:dice@localhost")
VAPID_KEYS_FILE = BASE_DIR / "vapid-keys.json"
# Seconds a push service keeps a message for a device that is offline (after that the e-mail tells).
PUSH_TTL = 24 * 3600
# The push services the browsers subscribe with, the only hosts the site posts push messages to (an
# endpoint elsewhere is refused when subscribed and again when sent to): Chrome,
# Opera, Samsung Internet and the other Chromium browsers (FCM), Firefox (Mozilla's autopush), Safari
# (APNs' web push), Edge (WNS). "*." stands for one or more labels before the rest.
PUSH_SERVICE_HOSTS = [
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "*.push.apple.com",
    "*.notify.windows.com",
]
# Seconds one device's push may take, from the name lookup to the answer's status line, whatever the
# service does (a push service answers in well under a second; 5 s covers a slow TLS handshake ten
# times over). A message that misses it is a failure: the turn's e-mail then goes.
PUSH_DEADLINE = env.float("PUSH_DEADLINE", default=5.0)
# Devices one player may have push messages on; subscribing one more drops the one that went longest
# without a message (the new one is the one in the player's hand).
PUSH_DEVICES_MAX = 10
# Computer players (games/computers): the worker plays each of their actions. Seconds before it does when a
# person watches the game (so that each roll reaches the screens at a human pace), and when nobody does.
COMPUTER_PAUSE = env.float("COMPUTER_PAUSE", default=1.2)
COMPUTER_PAUSE_UNWATCHED = env.float("COMPUTER_PAUSE_UNWATCHED", default=0.0)
# Seconds a computer's action may be overdue before its game's page says the worker is not running.
COMPUTER_OVERDUE = env.float("COMPUTER_OVERDUE", default=4.0)
# Seconds the idle worker waits between looks for tasks: a computer's action waits for at most this long.
WORKER_POLL_INTERVAL = env.float("WORKER_POLL_INTERVAL", default=0.25)
# Seconds the worker goes on trying to reach PostgreSQL (reconnecting after a terminated backend, a
# restart, "too many clients") before it exits non-zero for its supervisor to start it again: longer
# than a database restart, short enough that a worker that cannot work does not look alive for long.
WORKER_DB_OUTAGE_LIMIT = env.float("WORKER_DB_OUTAGE_LIMIT", default=60.0)
# How long a thread waits for a pooled connection (psycopg_pool's timeout) before the database counts as
# failed. The worker waits at most half its outage limit: with psycopg's 30 s it learnt of an outage
# only after 30 s, and exited after twice that, whatever its limit.
DB_POOL_TIMEOUT = 30.0
if sys.argv[1:2] == ["worker"]:
    DB_POOL_TIMEOUT = min(DB_POOL_TIMEOUT, WORKER_DB_OUTAGE_LIMIT / 2)

REDIS_URL = env("REDIS_URL", default="")
# With Redis, a pub/sub layer: a group message fans out with one PUBLISH instead of one list push per
# member, one connection per process (no pool to exhaust when hundreds of sockets connect at once), no
# backlog for a socket that is gone (the protocol's `sync` and games.live.catchup cover it). The
# project's own (infra/pipelined_layer.py, on redis-py's public API) sends what waits in one pipeline;
# channels-redis's RedisPubSubChannelLayer, which awaits each PUBLISH in turn, measured 16 % fewer moves
# a second at saturation and a p99 over 100 ms at 250 tables in three runs of five (docs/BENCHMARKS.md,
# "History", 2026-12-06); it stays selectable here.
CHANNEL_LAYER_BACKEND = env("CHANNEL_LAYER_BACKEND", default="infra.pipelined_layer.PipelinedLayer")


def _site_key(database_name) -> str:
    """A short name of this site on a shared Redis, from its database's name: the same for every
    process of one site, different for two sites on one database server. Letters, digits and '-'
    only, as channel names allow, and a hash so that names differing only in other characters differ."""
    name = str(database_name)
    readable = re.sub(r"[^A-Za-z0-9-]+", "-", Path(name).stem if "/" in name else name).strip("-")[:24]
    return f"{readable or 'db'}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


SITE_KEY = _site_key(DATABASES["default"]["NAME"])
# Names on Redis start with this prefix. Redis's pub/sub ignores the database number in REDIS_URL, so
# two sites on one Redis server (or the load benchmark and a test run) hear each other's groups unless
# their prefixes differ: by default it comes from the database's name (docs/operations.md, "Two sites
# on one Redis server").
CHANNEL_LAYER_PREFIX = env("CHANNEL_LAYER_PREFIX", default=f"dicehall-{SITE_KEY}")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": CHANNEL_LAYER_BACKEND,
            "CONFIG": {
                # redis-py's public connect hook: infra.layer tells games.live.catchup when a
                # connection (a subscribing one among them) came back after Redis was lost.
                "hosts": [{"address": REDIS_URL, "redis_connect_func": layer.connected}],
                "prefix": CHANNEL_LAYER_PREFIX,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}

# Where dice come from (games/live/dice_source.py): fair dice, derived from each game's committed server
# seed and its players' client seeds (docs/fair-dice.md); secrets.SystemRandom for games created before
# them. The test settings add the scripted dice of tests and e2e journeys. Not read from the environment,
# so that no deployment can load the dice.
DICE_SOURCES = {"system": "games.live.dice_source.SystemDice", "fair": "games.live.dice_source.FairDice"}
DICE_SOURCE = "fair"

# Live play.
GAME_DEFAULT_ABSENCE_LIMIT = env.int("GAME_DEFAULT_ABSENCE_LIMIT", default=120)
WS_MAX_MESSAGE_BYTES = env.int("WS_MAX_MESSAGE_BYTES", default=16 * 1024)
PRESENCE_TIMEOUT = env.int("PRESENCE_TIMEOUT", default=75)
# Threads for the websockets' database work (games/live/game_threads.py), each taking a pooled
# connection per call: every move ends with a commit that waits for the disk, and with channels' single
# thread a process applied one move at a time (bench/journal.md). A game always uses the same thread.
# SQLite has one writer: one thread there.
# Moves on the event loop with psycopg's async connections instead of a database thread
# (games/live/move_async.py; PostgreSQL only). Both transports run games.live.moves.decide; off is for
# measuring.
WS_ASYNC_MOVES = env.bool("WS_ASYNC_MOVES", default=True)
WS_DB_THREADS = env.int(
    "WS_DB_THREADS", default=1 if DATABASES["default"]["ENGINE"].endswith("sqlite3") else 8
)
# On PostgreSQL every thread of a process (pages, the websockets' database threads, the worker) takes a
# connection from one psycopg pool for a request or a call and gives it back after: a process holds at
# most DB_POOL_SIZE of them, however many requests and sockets come, plus the WS_DB_THREADS of the pool
# of moves (games/live/move_async.py). The default leaves 8 for pages and channels' own thread (the
# websockets' sign-in) while every database thread works: with fewer, a burst of pages held them all
# while sockets' handshakes waited past daphne's 5 s (tests/reliability/test_db_connections.py). A
# thread waits for a free connection (psycopg_pool's 30 s at most) rather than opening one more.
# CONN_HEALTH_CHECKS: the pool checks a connection before it lends it, so that one whose backend was
# terminated (a restart, a fail-over, pg_terminate_backend) is replaced, not given to a page.
DB_POOL_SIZE = env.int("DB_POOL_SIZE", default=WS_DB_THREADS + 8)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DB_POOL_SIZE,
        "max_idle": CONN_MAX_AGE,
        "timeout": DB_POOL_TIMEOUT,
        "name": "django",
    }
# Garbage collection of a served process (infra/gc_tuning.py, its thresholds beside their measurement):
# start-up objects frozen, young collections in short pieces, full ones rarely.
SERVER_GC_TUNING = env.bool("SERVER_GC_TUNING", default=True)

# --- Reliability and security (docs/RELIABILITY.md) -----------------------------------------------
# GET /healthz's bound, both checks at once (config/health.py): a load balancer gives the probe a few
# seconds, and a hung Redis must be named within them.
HEALTHZ_TIMEOUT = env.float("HEALTHZ_TIMEOUT", default=1.5)
# Seconds a consumer waits for the channel layer (group_add/discard, presence) before it gives up: a
# stalled Redis must not hang a socket.
WS_LAYER_TIMEOUT = env.float("WS_LAYER_TIMEOUT", default=2.0)
# Websocket rate limits (infra/ratelimit.py), per 10 seconds. "messages" counts every frame (sync, ping,
# garbage and actions); "actions" counts action frames. No person plays 10 actions a second; the
# per-user limits cover all of a user's tabs together.
WS_RATE_ACTIONS_PER_10S = env.int("WS_RATE_ACTIONS_PER_10S", default=100)
WS_RATE_MESSAGES_PER_10S = env.int("WS_RATE_MESSAGES_PER_10S", default=200)
WS_RATE_USER_ACTIONS_PER_10S = env.int("WS_RATE_USER_ACTIONS_PER_10S", default=200)
WS_RATE_USER_MESSAGES_PER_10S = env.int("WS_RATE_USER_MESSAGES_PER_10S", default=400)
# The Content-Security-Policy of every response (django-csp): scripts, styles, images,
# fonts, fetches and websockets from this site alone (and data: images, below), no inline script or
# style attribute, no eval, no plugin, no framing by any page, forms sent to this site only. The
# templates have no inline script or handler and no style attribute; scripts set styles through the
# CSSOM (element.style), which the policy allows. 'self' in connect-src covers ws:/wss: to the page's
# own host and port (CSP Level 3). tests/config/test_csp.py checks the header; the browser tests fail
# on any violation.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # data: for the favicon with the count of notices drawn on it (static/js/notices.js).
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        # The installable app's manifest and service worker (play/pwa.py).
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Sign-in lockout (django-axes, configured in accounts/lockout.py): after this many failed sign-ins for
# one username, or from one address, with less than LOGIN_FAILURE_WINDOW seconds between one failure and
# the next, sign-ins for it are refused until that long after the last failure.
LOGIN_FAILURES_PER_USERNAME = env.int("LOGIN_FAILURES_PER_USERNAME", default=5)
LOGIN_FAILURES_PER_IP = env.int("LOGIN_FAILURES_PER_IP", default=30)
LOGIN_FAILURE_WINDOW = env.int("LOGIN_FAILURE_WINDOW", default=15 * 60)
# Chat messages one player may post per minute, tables and groups together (chat/services.py).
CHAT_MESSAGES_PER_MINUTE = env.int("CHAT_MESSAGES_PER_MINUTE", default=12)
# Challenges one player may send per hour (play/challenge.py), and players a group's creator may add
# to their groups per hour (groups/services.py): each is a notice and a push message to someone else.
CHALLENGES_PER_HOUR = env.int("CHALLENGES_PER_HOUR", default=20)
# Reports a player may send per day (safety/services.py): each one is a moderator's time to read.
REPORTS_PER_DAY = env.int("REPORTS_PER_DAY", default=10)
GROUP_ADDITIONS_PER_HOUR = env.int("GROUP_ADDITIONS_PER_HOUR", default=60)
# Sign-up attempts from one address per hour (accounts/throttle.py).
SIGNUPS_PER_IP_PER_HOUR = env.int("SIGNUPS_PER_IP_PER_HOUR", default=20)
# Password-reset e-mails asked for one address per hour (a few, as the big sites allow), and reset
# requests from one client address per hour (accounts/throttle.py).
PASSWORD_RESETS_PER_EMAIL_PER_HOUR = env.int("PASSWORD_RESETS_PER_EMAIL_PER_HOUR", default=3)
PASSWORD_RESETS_PER_IP_PER_HOUR = env.int("PASSWORD_RESETS_PER_IP_PER_HOUR", default=10)
AXES_HANDLER = "accounts.lockout.LockoutHandler"
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # the order accounts.lockout relies on
AXES_FAILURE_LIMIT = "accounts.lockout.failure_limit"
AXES_COOLOFF_TIME = "accounts.lockout.cool_off"
AXES_USERNAME_CALLABLE = "accounts.lockout.username"
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True
# A refused attempt does not move the end of the lock-out.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_DISABLE_ACCESS_LOG = True  # successful sign-ins are not recorded
AXES_VERBOSE = False
# No admin pages for axes' tables: `manage.py axes_list_attempts` lists locks, axes_reset_username lifts one.
AXES_ENABLE_ADMIN = False
# The websockets' per-user counters (infra/ratelimit.py), shared by every server process, live in
# this cache: in-process memory on the embedded default (one process), Redis when REDIS_URL is set, so
# that limits hold across daphne replicas. Short socket timeouts: if Redis is down the limits fail open
# (logged) instead of stalling play.
RATE_LIMIT_CACHE = "ratelimit"
# Two sites on one Redis database would otherwise count each other's sign-ups and chat (user ids repeat).
RATE_LIMIT_KEY_PREFIX = env("RATE_LIMIT_KEY_PREFIX", default=f"dicehall-{SITE_KEY}")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    RATE_LIMIT_CACHE: (
        {
            # django-redis: one connection pool per process, shared by every websocket's cache object.
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": RATE_LIMIT_KEY_PREFIX,
            "OPTIONS": {"SOCKET_TIMEOUT": 0.5, "SOCKET_CONNECT_TIMEOUT": 0.5},
        }
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "ratelimit",
            "KEY_PREFIX": RATE_LIMIT_KEY_PREFIX,
        }
    ),
}
