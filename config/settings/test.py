"""Settings for the test suite; DATABASE_URL and REDIS_URL still choose the real backends."""

import os

# One channel-layer prefix per test process: runs side by side on one Redis, and pytest-xdist's workers
# of one run, never hear each other's groups (a worker's notices and live tests would receive another's
# events). pytest-django reads these settings in xdist's controller too, whose environment the workers
# inherit: the run's id is set once there and each worker adds its own name. A prefix given from outside
# (a daphne subprocess started by a test) is kept.
_RUN = os.environ.setdefault("DICEHALL_TEST_RUN", str(os.getpid()))
if os.environ.get("CHANNEL_LAYER_PREFIX", f"test{_RUN}").startswith(f"test{_RUN}"):
    os.environ["CHANNEL_LAYER_PREFIX"] = f"test{_RUN}{os.environ.get('PYTEST_XDIST_WORKER', '')}"

from .base import *  # noqa: E402, F403
from .base import BASE_DIR, DATABASES, DICE_SOURCES  # noqa: E402

# The tests' dice (tests/dice_script.py): DICE_SOURCE=scripted takes the rolls in order from the JSON
# file DICE_SCRIPT_PATH; the servers the e2e journeys and browser tests start are given both. Wherever
# a test scripts none, it plays with production's fair dice (docs/fair-dice.md), on every backend.
DICE_SOURCES = {**DICE_SOURCES, "scripted": "tests.dice_script.ScriptedDice"}
DICE_SOURCE = env("DICE_SOURCE", default="fair")  # noqa: F405
DICE_SCRIPT_PATH = env("DICE_SCRIPT_PATH", default=str(BASE_DIR / "dice-script.json"))  # noqa: F405

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# In memory; the turn e-mails' journey gives its worker a real SMTP server on localhost instead.
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.locmem.EmailBackend")  # noqa: F405
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and "test-db" not in str(
    DATABASES["default"]["NAME"]
):
    # A file, never in-memory SQLite: consumers run their queries on other threads, which would
    # not see an in-memory database's data. One file per test run, so that runs side by side do not
    # delete each other's database; a server started by the browser tests is pointed at this file.
    _name = str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")
    DATABASES["default"]["NAME"] = _name
    DATABASES["default"]["TEST"] = {"NAME": _name}
# Serve static files from the finders, as in development: tests do not run collectstatic.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# --- Reliability and security -------------------------------------------------------------------
# Rate-limit counters of one test run never meet another run's in a shared Redis (each run has its own
# key prefix; daphne subprocesses started by a test are given the test's prefix explicitly).
if "RATE_LIMIT_KEY_PREFIX" not in os.environ:
    RATE_LIMIT_KEY_PREFIX = f"test-{os.getpid()}"
    CACHES["ratelimit"]["KEY_PREFIX"] = RATE_LIMIT_KEY_PREFIX  # noqa: F405

# Every sign-up of a test run comes from 127.0.0.1 (the journeys alone make dozens): the limit stays on,
# high enough for the suite; tests/accounts/test_signup_limit.py checks it with a small one.
SIGNUPS_PER_IP_PER_HOUR = env.int("SIGNUPS_PER_IP_PER_HOUR", default=10_000)  # noqa: F405
# The same for challenges and group additions: the tests of one player make many (tests/play/
# test_challenge.py and tests/groups check the limits with small ones).
CHALLENGES_PER_HOUR = env.int("CHALLENGES_PER_HOUR", default=10_000)  # noqa: F405
GROUP_ADDITIONS_PER_HOUR = env.int("GROUP_ADDITIONS_PER_HOUR", default=10_000)  # noqa: F405
REPORTS_PER_DAY = env.int("REPORTS_PER_DAY", default=10_000)  # noqa: F405

# The test process imports config.asgi too: leave its garbage collector as Python sets it (the daphne
# processes the browser tests start read SERVER_GC_TUNING from their environment).
SERVER_GC_TUNING = env.bool("SERVER_GC_TUNING", default=False)  # noqa: F405

# A local push service (web-push-testing, plain http on this machine) whose endpoints the browser
# journeys may subscribe to; production accepts https push services elsewhere only (notices.subscriptions).
PUSH_TEST_SERVICE = env("PUSH_TEST_SERVICE", default="")  # noqa: F405
