"""The installable app's parts as the server gives them (play/pwa.py): the manifest, the service worker,
the offline page, the icons; the browser's side is tests/browser/test_installable.py."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from PIL import Image, ImageChops, ImageStat

from play.management.commands import make_icons

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_and_its_icons_in_the_readers_language(client: Client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == manifest["short_name"] == "DiceHall"
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == "de"
    assert manifest["description"] == "Würfelspiele mit Freunden: live an einem Tisch oder ein Zug am Tag."
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        with Image.open(path) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"] and image.format == "PNG"


def test_the_service_worker_controls_the_site_and_keeps_what_the_offline_page_needs(client: Client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    text = response.content.decode()
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text).group(1))
    offline = json.loads(re.search(r"const OFFLINE = (\".*?\");", text).group(1))
    assert offline == "/offline/"
    for url in precache:
        assert finders.find(url.removeprefix("/static/")), url
    # Pages are never answered from the cache: a navigation goes to the server, the offline page only
    # when it cannot be reached; the push message's page opens on a click.
    assert "request.mode === 'navigate'" in text and "event.respondWith(page(request))" in text
    assert "addEventListener('push'" in text and "addEventListener('notificationclick'" in text


def test_the_offline_page_stands_alone(client: Client):
    response = client.get("/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<script" not in html  # nothing it needs is left to fetch
    assert "DiceHall cannot be reached" in html


def test_every_page_links_the_manifest_and_the_worker(client: Client):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="service-worker" content="/sw.js">' in html
    assert "js/sw-register" in html


def test_the_csp_lets_the_manifest_and_the_worker_load(client: Client):
    policy = client.get("/")["Content-Security-Policy"]
    assert "manifest-src 'self'" in policy and "worker-src 'self'" in policy


@pytest.mark.parametrize("name", sorted(make_icons.ICONS))
def test_the_icons_are_what_make_icons_draws(name):
    size, maskable = make_icons.ICONS[name]
    drawn = make_icons.draw(size, maskable).convert("RGBA")
    with Image.open(finders.find(f"icons/{name}")) as shipped:
        difference = ImageChops.difference(drawn, shipped.convert("RGBA"))
    assert max(ImageStat.Stat(difference).mean) < 1.0  # the same picture, whatever the PNG encoder did
