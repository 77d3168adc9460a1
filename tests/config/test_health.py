"""/healthz really touches the database and the channel layer, and names what failed."""

from __future__ import annotations

import time

import pytest
from channels.layers import channel_layers

import config.health


@pytest.fixture(autouse=True)
def fresh_layers():
    # get_channel_layer() caches the layer per alias; tests that override CHANNEL_LAYERS need a new one.
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.mark.django_db(transaction=True)
def test_healthz_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "channel_layer": "ok"}


@pytest.mark.django_db(transaction=True)
def test_healthz_database_failure(client, monkeypatch):
    def broken():
        raise RuntimeError("database is down")

    monkeypatch.setattr(config.health, "_check_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["channel_layer"] == "ok"
    assert body["database"].startswith("error:")
    assert "database is down" in body["database"]


@pytest.mark.django_db(transaction=True)
def test_healthz_channel_layer_failure(client, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},  # nothing listens on port 1
        }
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["channel_layer"].startswith("error:")


@pytest.mark.django_db(transaction=True)
def test_healthz_says_503_within_two_seconds_while_redis_is_paused(client, settings, own_redis):
    """A hung Redis (SIGSTOP: the port accepts, nothing answers) is named within the probe's bound; a
    load balancer waits a few seconds for /healthz, and it took 8 s."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": settings.CHANNEL_LAYER_BACKEND,
            "CONFIG": {"hosts": [own_redis.url], "prefix": "healthz-paused"},
        }
    }
    assert client.get("/healthz").status_code == 200
    channel_layers.backends.clear()  # a new layer: no connection kept from the answer above
    own_redis.pause()
    began = time.monotonic()
    response = client.get("/healthz")
    took = time.monotonic() - began
    own_redis.resume()
    assert response.status_code == 503
    assert response.json()["database"] == "ok"
    assert response.json()["channel_layer"] == "error: no answer within 1.5 s"
    assert took < 2.5, took
