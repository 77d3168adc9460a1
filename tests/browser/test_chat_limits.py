"""A chat's limits are said, not silent, at the table and in a group: the characters
left show as the limit nears (and reach a screen reader once typing pauses); a message over the limit is
refused with a word, not cut; writing too fast is refused beside the chat's input, not under the dice,
and the refused text stays in the input. At 1280x800 and as a 390x844 touch phone, light and dark,
English and German, without an axe violation. Screenshots under artifacts/screenshots/site/."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from groups import services as groups
from tests.browser.helpers import LOOKS, off_loop
from tests.browser.test_game_ui import start_game
from tests.browser.test_site_ui import DESKTOP, PHONE, _overflow, _shot, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import axe_violations

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "left": "40 characters left",
        "none": "0 characters left",
        "over": "5 characters too many",
        "long": "A message is at most 500 characters: this one is 5 characters too long.",
        "fast": re.compile(r"^You are writing too fast: wait \d+ s\.$"),
    },
    "de": {
        "left": "Noch 40 Zeichen",
        "none": "Noch 0 Zeichen",
        "over": "5 Zeichen zu viel",
        "long": "Eine Nachricht hat höchstens 500 Zeichen: Diese ist 5 Zeichen zu lang.",
        "fast": re.compile(r"^Du schreibst zu schnell: warte \d+ s\.$"),
    },
}


class Chat:
    """One chat on a page: the table's (game/chat.js) or a group's (group-chat.js)."""

    def __init__(self, page: Page, where: str):
        self.page = page
        prefix = "g-chat" if where == "table" else "group-chat"
        table = where == "table"
        self.panel = page.locator("#g-chat-title").locator("xpath=..") if table else page.locator("#chat")
        self.input = page.locator(f"#{prefix}-text")
        self.list = page.locator("#g-chat" if where == "table" else "#group-chat")
        self.count = self.panel.locator(".chat-count")
        self.heard = page.locator(f"#{prefix}-text-count")
        self.note = page.locator(f"#{prefix}-text-note")

    def send(self, text: str) -> None:
        self.input.fill(text)
        self.input.press("Enter")


def _limits_are_said(chat: Chat, words: dict, shot: str) -> None:
    page = chat.page
    chat.input.fill("x" * 449)
    expect(chat.count).to_be_hidden()  # 51 left: nothing to say yet
    chat.input.fill("x" * 460)
    expect(chat.count).to_have_text(words["left"])
    expect(chat.heard).to_have_text(words["left"])  # once typing pauses, for a screen reader
    assert chat.input.get_attribute("aria-describedby").split()[0] == chat.heard.get_attribute("id")
    chat.input.fill("x" * 505)
    expect(chat.count).to_have_text(words["over"])
    chat.input.press("Enter")
    expect(chat.note).to_have_text(words["long"])
    assert len(chat.input.input_value()) == 505  # nothing cut, nothing sent
    expect(chat.list.locator("li[data-id]")).to_have_count(0)
    assert axe_violations(page) == []
    assert _overflow(page) <= 0
    _shot(page, f"{shot}-too-long")
    chat.input.fill("x" * 500)
    expect(chat.note).to_have_count(0)
    expect(chat.count).to_have_text(words["none"])


def _too_fast_is_said_beside_the_input(chat: Chat, words: dict, shot: str) -> None:
    page = chat.page
    for n in range(settings.CHAT_MESSAGES_PER_MINUTE):
        chat.send(f"message {n}")
        expect(chat.list.locator("li[data-id]")).to_have_count(n + 1)
        expect(chat.input).to_have_value("")
    chat.send("one too many")
    expect(chat.note).to_have_text(words["fast"])
    expect(chat.input).to_have_value("one too many")  # kept, to send again after the wait
    expect(chat.panel.locator(".chat-note")).to_have_count(1)  # beside this chat's input
    expect(chat.list.locator("li[data-id]")).to_have_count(settings.CHAT_MESSAGES_PER_MINUTE)
    if page.locator("#g-error").count():
        expect(page.locator("#g-error")).to_be_empty()  # not under the dice
    assert axe_violations(page) == []
    _shot(page, f"{shot}-too-fast")


@pytest.mark.parametrize(("device", "scheme", "language"), LOOKS)
def test_the_tables_chat_says_its_limits(open_as, make_user, device, scheme, language):  # noqa: F811
    ann = make_user("ann", language=language)
    game = start_game("farkle", ann)
    page = open_as(ann, DESKTOP if device == "desktop" else PHONE, scheme)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")
    chat = Chat(page, "table")
    shot = f"chat-table-{device}-{language}-{scheme}"
    _limits_are_said(chat, WORDS[language], shot)
    _too_fast_is_said_beside_the_input(chat, WORDS[language], shot)


@pytest.mark.parametrize(("device", "scheme", "language"), LOOKS)
def test_a_groups_chat_says_its_limits(open_as, make_user, device, scheme, language):  # noqa: F811
    dave = make_user("dave", language=language)
    group = off_loop(groups.group_create, creator=dave, name="Dave's table")
    page = open_as(dave, DESKTOP if device == "desktop" else PHONE, scheme)
    open_as.allow(r"status of 429")  # the browser logs the refusal's answer (Too Many Requests)
    page.goto(f"/groups/{group.pk}/")
    page.evaluate("window.stillTheSamePage = true")
    chat = Chat(page, "group")
    shot = f"chat-group-{device}-{language}-{scheme}"
    _limits_are_said(chat, WORDS[language], shot)
    _too_fast_is_said_beside_the_input(chat, WORDS[language], shot)
    # Sent without leaving the page, and refused without a message at its top.
    assert page.evaluate("window.stillTheSamePage") is True
    expect(page.locator(".messages")).to_have_count(0)
