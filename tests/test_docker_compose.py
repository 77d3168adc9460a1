"""docker-compose.yml cannot run here (no Docker engine); check that it parses and matches the operator's
reference, docs/operations.md."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_services_and_images():
    services = compose()["services"]
    assert set(services) >= {"postgres", "redis", "web", "proxy"}
    assert services["postgres"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"
    assert services["proxy"]["image"].startswith("nginx")


def test_web_runs_daphne_with_migrations_and_health_check():
    web = compose()["services"]["web"]
    assert "migrate" in web["command"] and "daphne" in web["command"]
    assert "/healthz" in " ".join(web["healthcheck"]["test"])
    env = web["environment"]
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    for name in ("SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS"):
        assert name in env
    assert env["DATABASE_URL"].startswith("postgres://")
    assert "ports" not in web, "replicas cannot share a host port; the proxy publishes it"


def test_proxy_forwards_websocket_upgrades_to_every_replica():
    proxy = compose()["services"]["proxy"]
    assert "80:80" in proxy["ports"]
    conf_path = proxy["volumes"][0].split(":")[0]
    conf = (ROOT / conf_path).read_text()
    assert "proxy_set_header Upgrade $http_upgrade" in conf
    assert re.search(r"server web:8000 resolve", conf)
    assert (ROOT / "Dockerfile").is_file()


def test_the_operations_page_names_only_what_compose_has():
    readme = (ROOT / "docs" / "operations.md").read_text()
    services = compose()["services"]
    for name in re.findall(r"`compose service: (\w+)`", readme):
        assert name in services
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, flags=re.M))
    example = (ROOT / ".env.example").read_text()
    for var in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "CHANNEL_LAYER_BACKEND"):
        assert var in documented, f"docs/operations.md does not document {var}"
        assert var in example
    web_env = set(services["web"]["environment"])
    assert web_env - {"DJANGO_SETTINGS_MODULE"} <= documented


def test_proxy_ends_tls_and_the_image_has_the_front_end_libraries():
    """nginx ends TLS (production settings redirect to HTTPS and trust its X-Forwarded-Proto), with the
    certificate mounted where deploy/nginx.conf reads it; the image installs package.json's libraries
    (chart.js) before collectstatic, as `make run` does."""
    proxy = compose()["services"]["proxy"]
    assert "443:443" in proxy["ports"]
    assert "./deploy/certs:/etc/nginx/certs:ro" in proxy["volumes"]
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "listen 443 ssl;" in conf and "ssl_certificate certs/fullchain.pem;" in conf
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in conf
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "npm ci" in dockerfile and "COPY --from=frontend /app/node_modules node_modules" in dockerfile
    assert dockerfile.index("node_modules node_modules") < dockerfile.index("collectstatic")
