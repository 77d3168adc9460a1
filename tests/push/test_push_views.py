"""The push endpoints of the settings page (notices.views): a browser's subscription stored for the
signed-in player, bad input answered 400 with a sentence (never 500), CSRF as every POST of the site,
and each device's switches on the settings page."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from notices.models import PushSubscription
from tests.push.browser_subscription import subscription_json

pytestmark = pytest.mark.django_db
SUBSCRIBE = reverse("notices:push_subscribe")
UNSUBSCRIBE = reverse("notices:push_unsubscribe")
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"


def post_json(client, url, body, **headers):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(url, data, content_type="application/json", **headers)


def test_a_browsers_subscription_is_stored_with_a_device_label(user_client, user, vapid_keys):
    data = subscription_json()
    answer = post_json(user_client, SUBSCRIBE, data, HTTP_USER_AGENT=FIREFOX)
    assert answer.status_code == 201
    assert answer.json()["kinds"] == {"turn": True, "invitation": True, "group": True, "tournament": True}
    (device,) = PushSubscription.objects.all()
    assert (device.user, device.endpoint, device.device) == (user, data["endpoint"], "Firefox on Linux")
    assert (device.p256dh, device.auth) == (data["keys"]["p256dh"], data["keys"]["auth"])


def test_the_same_browser_again_keeps_its_switches(user_client, vapid_keys):
    data = subscription_json()
    post_json(user_client, SUBSCRIBE, data)
    PushSubscription.objects.update(group=False)
    answer = post_json(user_client, SUBSCRIBE, data)
    assert answer.status_code == 200 and answer.json()["kinds"]["group"] is False
    assert PushSubscription.objects.count() == 1


def test_a_browser_that_changed_hands_belongs_to_its_new_player(client, make_user, vapid_keys):
    ann, bob = make_user("ann"), make_user("bob")
    data = subscription_json()
    client.force_login(ann)
    post_json(client, SUBSCRIBE, data)
    PushSubscription.objects.update(turn=False)
    client.force_login(bob)
    assert post_json(client, SUBSCRIBE, data).status_code == 201
    (device,) = PushSubscription.objects.all()
    assert device.user == bob and device.turn is True


def _broken(**change):
    data = subscription_json()
    keys = data["keys"]
    for name, value in change.items():
        if name in keys:
            keys[name] = value
        else:
            data[name] = value
    return data


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("not json", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        ("[1, 2]", "JSON object"),
        ({}, "no endpoint"),
        (_broken(endpoint=7), "no endpoint"),
        (_broken(endpoint="http://push.example.com/x"), "https"),
        (_broken(endpoint="https:///nohost"), "https"),
        (_broken(endpoint="javascript:alert(1)"), "https"),
        (_broken(endpoint="https://localhost:8443/push"), "https"),
        (_broken(endpoint="https://127.0.0.1/push"), "https"),
        (_broken(endpoint="https://10.0.0.7/push"), "https"),
        (_broken(endpoint="https://[::1]/push"), "https"),
        (_broken(endpoint="https://push.example.com:port/x"), "https"),
        (_broken(endpoint="https://[::1/x"), "https"),
        (_broken(endpoint="https://push.example.com/" + "x" * 1000), "too long"),
        (_broken(keys=None), "no keys"),
        (_broken(keys="abc"), "no keys"),
        (_broken(p256dh="short"), "p256dh"),
        (_broken(p256dh=None), "p256dh"),
        (_broken(p256dh="A" * 87), "p256dh"),  # 65 bytes, but not an uncompressed point (0x04 ...)
        (_broken(auth="!!!!"), "auth"),
        (_broken(auth="ünïcode"), "auth"),
        (_broken(auth="AAAA"), "auth"),
    ],
)
def test_bad_input_is_answered_400_with_what_is_wrong(user_client, vapid_keys, body, says):
    answer = post_json(user_client, SUBSCRIBE, body)
    assert answer.status_code == 400
    assert says in answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_subscription_needs_a_signed_in_player_and_a_post(user_client, vapid_keys):
    assert post_json(Client(), SUBSCRIBE, subscription_json()).status_code == 302  # to the sign-in page
    assert user_client.get(SUBSCRIBE).status_code == 405
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_the_site_says_push_is_not_set_up(user_client, settings, tmp_path):
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_KEYS_FILE = tmp_path / "none.json"
    answer = post_json(user_client, SUBSCRIBE, subscription_json())
    assert answer.status_code == 409 and "not set up" in answer.json()["error"]


def test_csrf_is_checked_as_on_every_post(user, vapid_keys):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert post_json(strict, SUBSCRIBE, subscription_json()).status_code == 403
    page = strict.get(reverse("notices:settings"))
    token = page.cookies["csrftoken"].value
    answer = post_json(strict, SUBSCRIBE, subscription_json(), HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 201
    assert post_json(strict, UNSUBSCRIBE, {"endpoint": "https://x.example/"}).status_code == 403


def test_unsubscribe_removes_only_the_players_own(client, make_user, device, vapid_keys):
    ann, bob = make_user("ann"), make_user("bob")
    anns, bobs = device(ann), device(bob)
    client.force_login(ann)
    assert post_json(client, UNSUBSCRIBE, {"endpoint": bobs.endpoint}).json() == {"removed": False}
    assert post_json(client, UNSUBSCRIBE, {"endpoint": anns.endpoint}).json() == {"removed": True}
    assert list(PushSubscription.objects.all()) == [bobs]
    assert post_json(client, UNSUBSCRIBE, "{").status_code == 400


def test_the_settings_page_lists_the_devices_and_the_public_key(user_client, user, device, vapid_keys):
    mine = device(user)
    page = user_client.get(reverse("notices:settings")).content.decode()
    assert f'<meta name="vapid-public-key" content="{vapid_keys.public}">' in page
    assert f'data-endpoint="{mine.endpoint}"' in page
    assert "js/push-settings.js" in page
    for kind in ("turn", "invitation", "group", "tournament"):
        assert f'name="{kind}" id="device-{mine.pk}-{kind}"' in page


def test_a_devices_switches_are_saved_per_device(user_client, user, device, vapid_keys):
    phone, laptop = device(user), device(user)
    url = reverse("notices:push_device", args=[phone.pk])
    answer = user_client.post(url, {"turn": "on", "group": "on"})
    assert answer.status_code == 302
    phone.refresh_from_db()
    laptop.refresh_from_db()
    assert (phone.turn, phone.invitation, phone.group, phone.tournament) == (True, False, True, False)
    assert (laptop.turn, laptop.invitation, laptop.group, laptop.tournament) == (True, True, True, True)


def test_a_device_is_removed_from_the_settings_page(user_client, user, device, vapid_keys):
    phone = device(user)
    user_client.post(reverse("notices:push_device", args=[phone.pk]), {"action": "remove"})
    assert not PushSubscription.objects.exists()


def test_another_players_device_is_not_found(client, make_user, device, vapid_keys):
    ann, bob = make_user("ann"), make_user("bob")
    bobs = device(bob)
    client.force_login(ann)
    url = reverse("notices:push_device", args=[bobs.pk])
    assert client.post(url, {"action": "remove"}).status_code == 404
    assert PushSubscription.objects.filter(pk=bobs.pk).exists()
