"""Every game in play at 1280x800 and as a 390x844 touch phone, in the light and the dark theme: nothing
scrolls sideways, the dice and the card are on screen, the theme is the device's, and axe finds nothing.
Screenshots: artifacts/screenshots/themes/<game>-<size>-<theme>.png (what the screen shows, no scrolling)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import SHOTS
from tests.e2e import ui
from tests.e2e.axe import check_axe

GAMES = {
    "triple-quintzee": ("Triple Quintzee", [1, 2, 3, 4, 6]),
    "triple-yahtzee-99": ("Triple Yahtzee 99", [2, 2, 5, 5, 5]),
    "painted-dicez": ("Painted DiceZ", [[1, "blue"], [2, "red"], [3, "pink"], [4, "green"], [6, "yellow"]]),
    "quintzee": ("Quintzee", [2, 3, 4, 5, 5]),
    "farkle": ("Farkle (10000)", [1, 5, 2, 3, 4, 6]),
}
SIZES = {"1280x800": (1280, 800, False), "390x844": (390, 844, True)}
FOLDER = SHOTS / "themes"


def luminance(rgb: str) -> float:
    r, g, b = (int(v) for v in rgb[rgb.index("(") + 1 : -1].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_at_both_sizes_in_both_themes(visit, dice, slug):
    name, roll = GAMES[slug]
    player = visit(f"{slug}-player")
    ui.sign_up(player, f"p{slug.replace('-', '')[:10]}")
    ui.new_game(player, name, 1)
    expect(player.locator("#g-turn")).to_contain_text("Your turn")
    dice(roll)
    player.get_by_role("button", name="Roll", exact=False).first.click()
    expect(player.locator("#g-dice .g-face.empty")).to_have_count(0)
    path = player.url
    FOLDER.mkdir(parents=True, exist_ok=True)
    for size, (width, height, touch) in SIZES.items():
        for scheme in ("light", "dark"):
            page = visit(
                f"{slug}-{size}-{scheme}", width, height, touch=touch, scheme=scheme, signed_in=player
            )
            page.goto(path)
            expect(page.locator("#g-dice .g-face.empty")).to_have_count(0)
            expect(page.locator("#g-turn")).to_contain_text("Your turn")
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (size, scheme)
            background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
            assert (luminance(background) < 0.3) == (scheme == "dark"), (scheme, background)
            for part in ("#g-dice", "#g-board" if slug != "farkle" else "#g-controls"):
                box = page.locator(part).bounding_box()
                assert box and box["y"] < height and box["x"] >= 0, (part, size, scheme, box)
            check_axe(page, f"{name} at {size}, {scheme}")
            page.screenshot(path=str(FOLDER / f"{slug}-{size}-{scheme}.png"))
            page.close()
