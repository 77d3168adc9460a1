"""Settings are chosen from the environment: SQLite vs PostgreSQL, in-memory vs Redis layer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({'db': settings.DATABASES['default']['ENGINE'], "
    "'name': str(settings.DATABASES['default']['NAME']), "
    "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], "
    "'hosts': [h['address'] if isinstance(h, dict) else h "
    "for h in settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('hosts') or []] or None, "
    "'connect': [h['redis_connect_func'].__module__ + '.' + h['redis_connect_func'].__name__ "
    "for h in settings.CHANNEL_LAYERS['default'].get('CONFIG', {}).get('hosts') or []], "
    "'debug': settings.DEBUG}))"
)


def probe(module: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"}}
    clean.update(env, DJANGO_SETTINGS_MODULE=module)
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def settings_for(module: str, **env: str) -> dict:
    result = probe(module, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_embedded_default_is_sqlite_file_and_in_memory_layer():
    s = settings_for("config.settings.local")
    assert s["db"] == "django.db.backends.sqlite3"
    assert s["name"].endswith("db.sqlite3")
    assert s["layer"] == "channels.layers.InMemoryChannelLayer"
    assert s["debug"] is True


def test_database_url_selects_postgresql():
    s = settings_for("config.settings.local", DATABASE_URL="postgres://u:p@db.example:5432/dice")
    assert s["db"] == "django.db.backends.postgresql"
    assert s["name"] == "dice"


def test_redis_url_selects_the_pipelined_pubsub_layer():
    s = settings_for("config.settings.local", REDIS_URL="redis://cache.example:6379/2")
    assert s["layer"] == "infra.pipelined_layer.PipelinedLayer"  # measured
    assert s["hosts"] == ["redis://cache.example:6379/2"]
    assert s["connect"] == ["infra.layer.connected"]


def test_the_shipped_pubsub_layer_takes_the_same_configuration():
    s = settings_for(
        "config.settings.local",
        REDIS_URL="redis://cache.example:6379/2",
        CHANNEL_LAYER_BACKEND="channels_redis.pubsub.RedisPubSubChannelLayer",
    )
    assert s["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert s["hosts"] == ["redis://cache.example:6379/2"]
    assert s["connect"] == ["infra.layer.connected"]


def test_layer_class_can_be_overridden():
    s = settings_for(
        "config.settings.local",
        REDIS_URL="redis://cache.example:6379/0",
        CHANNEL_LAYER_BACKEND="channels_redis.core.RedisChannelLayer",
    )
    assert s["layer"] == "channels_redis.core.RedisChannelLayer"


def test_production_refuses_to_start_without_secret_key():
    result = probe("config.settings.production")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_the_development_key():
    result = probe("config.settings.production", SECRET_KEY="dev-only-" + "x" * 60)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.slow_subprocess
def test_production_passes_check_deploy_without_warnings():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="k" * 20 + "Qz9!x7Lm2#vB4nR8tY6wE1uI3oP5aS0dF" + "j" * 10,
        ALLOWED_HOSTS="dice.example.com",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


MOVE_PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({k: getattr(settings, k) for k in "
    "('WS_ASYNC_MOVES', 'WS_DB_THREADS', 'CHANNEL_LAYERS', 'WS_MAX_MESSAGE_BYTES', 'DATABASES')}, "
    "default=lambda f: f.__module__ + '.' + f.__qualname__))"
)


def _move_settings(module: str, env: dict, argv: tuple[str, ...] = ()) -> dict:
    """The settings as a process started with ``argv`` (``manage.py worker``, say) reads them."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("WS_", "CONN_", "DJANGO_"))}
    clean.update(env, DJANGO_SETTINGS_MODULE=module)
    probe = f"import sys; sys.argv[:] = {list(argv) or ['-c']!r}; {MOVE_PROBE}"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.slow_subprocess
def test_the_suites_make_moves_the_way_production_does():
    """Tests run what production runs: on the same database and layer, the test settings move, thread
    and broadcast as production's do (the suite's PostgreSQL pass thus plays on the event loop)."""
    env = {
        "DATABASE_URL": "postgres://u:p@db.example:5432/dice",
        "REDIS_URL": "redis://cache.example:6379/0",
        "SECRET_KEY": "x" * 60,
    }
    production = _move_settings("config.settings.production", env)
    assert production["WS_ASYNC_MOVES"] is True
    assert _move_settings("config.settings.test", env) == production


@pytest.mark.slow_subprocess
def test_connections_come_from_a_bounded_pool_whatever_conn_max_age_says():
    """Under ASGI a connection Django keeps past its request is orphaned (a thread and context
    per request), so Django keeps none; on PostgreSQL every thread borrows from one pool of
    DB_POOL_SIZE, and CONN_MAX_AGE is how long an idle one of it stays open."""
    env = {
        "DATABASE_URL": "postgres://u:p@db.example:5432/dice",
        "SECRET_KEY": "x" * 60,
        "CONN_MAX_AGE": "60",
    }
    db = _move_settings("config.settings.production", env)["DATABASES"]["default"]
    assert db["CONN_MAX_AGE"] == 0
    assert db["CONN_HEALTH_CHECKS"] is True
    assert db["OPTIONS"]["pool"] == {
        "min_size": 1,
        "max_size": 16,
        "max_idle": 60,
        "timeout": 30.0,
        "name": "django",
    }
    # The worker waits for a connection at most half its outage limit, so that it notices an outage
    # within the limit (play/management/commands/worker.py).
    worker = _move_settings(
        "config.settings.production", {**env, "WORKER_DB_OUTAGE_LIMIT": "3"}, ("manage.py", "worker")
    )
    assert worker["DATABASES"]["default"]["OPTIONS"]["pool"]["timeout"] == 1.5
    sized = _move_settings("config.settings.production", {**env, "DB_POOL_SIZE": "5", "CONN_MAX_AGE": "0"})
    assert sized["DATABASES"]["default"]["OPTIONS"]["pool"]["max_size"] == 5
    assert sized["DATABASES"]["default"]["OPTIONS"]["pool"]["max_idle"] == 1
    assert sized["DATABASES"]["default"]["CONN_MAX_AGE"] == 0
    lite = _move_settings(
        "config.settings.local", {"CONN_MAX_AGE": "60", "DATABASE_URL": "sqlite:///x.sqlite3"}
    )["DATABASES"]["default"]
    assert lite["CONN_MAX_AGE"] == 0 and "pool" not in lite.get("OPTIONS", {})
