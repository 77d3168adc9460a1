"""Dice as the player sees them, read from screenshots rather than from CSS values (Painted
DiceZ's blue, red and green dice were white squares, their white pips on a white face, while
every computed colour looked plausible to the tests and to axe, once).

On the game page of each of the four games, on a replay and on each rules page, in both themes, at
1280x800 and on a 390x844 touch phone, the test adds every face 1-6 of every colour the page's own code
draws (the game and replay pages' dice.js, the rules pages' {% die %} template), at every size those
pages use, beside the page's own dice (so under the page's real style sheets), takes one screenshot of
them and measures each die: its face colour (the commonest pixel inside its border), its ink (pips,
letter or digit: the commonest pixel far from the face) and the WCAG contrast between the two, which
must be at least 3:1 (non-text contrast, WCAG 1.4.11); faces of different colours must differ.
"""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from django.template.loader import render_to_string
from PIL import Image
from playwright.sync_api import expect

from tests.browser.fixtures import SHOTS
from tests.browser.helpers import ConsoleWatch, off_loop
from tests.games.test_services import act, table

COLOURS = ("blue", "red", "pink", "green", "yellow")
LETTER = {"blue": "B", "red": "R", "pink": "P", "green": "G", "yellow": "Y"}
PLAIN_KINDS = ("triple-yahtzee-99", "triple-quintzee", "farkle")
PAINTED = "painted-dicez"
SIZES = {
    "desktop": {"width": 1280, "height": 800, "touch": False},
    "phone": {"width": 390, "height": 844, "touch": True},
}
MIN_CONTRAST = 3.0
# Two faces whose colours are this close (Euclidean, 0-255 per channel) would pass for one colour.
MIN_FACE_DISTANCE = 40

# The sheet beside the page's own dice: the dice made by the module the page itself imported (the
# browser hands back the same module instance), large as on the table and small as in banners.
SHEET_JS = """async ([script, colours]) => {
    const src = document.querySelector(`script[src*="${script}"]`).src;
    const { dieFace } = await import(new URL("game/dice.js", src).href);
    const tray = document.querySelector("#g-dice, #replay-dice").closest(".g-tray");
    const sheet = document.createElement("div");
    sheet.id = "pixel-sheet";
    sheet.style.cssText = "display:flex;flex-direction:column;gap:8px;padding:8px";
    for (const small of [false, true]) {
        for (const colour of colours) {
            const row = document.createElement("div");
            row.className = "g-dice";
            for (let face = 1; face <= 6; face++) {
                const die = dieFace(colour ? [face, colour] : face, { small });
                die.dataset.probe = `${small ? "small" : "large"}:${colour || "plain"}:${face}`;
                row.append(die);
            }
            sheet.append(row);
        }
    }
    tray.after(sheet);
}"""

RULES_SHEET_JS = """(html) => {
    const anchor = document.querySelector(".dice");
    const sheet = document.createElement("div");
    sheet.id = "pixel-sheet";
    sheet.innerHTML = html;
    anchor.closest(".table-wrap, p, li, div").after(sheet);
}"""

BOXES_JS = """() => {
    const sheet = document.getElementById("pixel-sheet").getBoundingClientRect();
    return [...document.querySelectorAll("#pixel-sheet [data-probe]")].map((el) => {
        const r = el.getBoundingClientRect(), s = getComputedStyle(el);
        return {
            probe: el.dataset.probe, x: r.left - sheet.left, y: r.top - sheet.top, w: r.width, h: r.height,
            inset: Math.max(parseFloat(s.borderTopWidth), parseFloat(s.borderTopLeftRadius) * 0.45) + 1,
        };
    });
}"""


def luminance(rgb) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def measure(image: Image.Image, box: dict, scale: float) -> dict:
    """Face colour, ink colour, their contrast and how many pixels of ink, inside the die's border."""
    inset = box["inset"]
    left, top = round((box["x"] + inset) * scale), round((box["y"] + inset) * scale)
    right, bottom = round((box["x"] + box["w"] - inset) * scale), round((box["y"] + box["h"] - inset) * scale)
    pixels = [p[:3] for p in image.crop((left, top, right, bottom)).get_flattened_data()]
    face = Counter(pixels).most_common(1)[0][0]
    # Ink: pixels clearly apart from the face (anti-aliased edges fall in between and are left out).
    apart = [p for p in pixels if contrast(p, face) >= 1.5]
    ink = Counter(apart).most_common(1)[0][0] if apart else face
    return {"face": face, "ink": ink, "contrast": contrast(face, ink), "ink_pixels": len(apart)}


def sheet_faults(page, label: str) -> tuple[list[str], dict]:
    """Screenshot the sheet, measure every die on it; the faults found and each die's measure."""
    sheet = page.locator("#pixel-sheet")
    png = sheet.screenshot(path=str(SHOTS / "dice-pixels" / f"{label}.png"), animations="disabled")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    boxes = page.evaluate(BOXES_JS)
    scale = image.width / page.evaluate(
        "document.getElementById('pixel-sheet').getBoundingClientRect().width"
    )
    faults, measured = [], {}
    for box in boxes:
        m = measure(image, box, scale)
        measured[box["probe"]] = m
        if m["contrast"] < MIN_CONTRAST or m["ink_pixels"] < 4:
            faults.append(
                f"{label} {box['probe']}: ink {m['ink']} on face {m['face']}, "
                f"contrast {m['contrast']:.2f}:1, {m['ink_pixels']} ink pixels"
            )
    # Faces of different colours, compared size by size (face 1 of each colour stands for it).
    for size in {p.split(":")[0] for p in measured}:
        faces = {
            p.split(":")[1]: m["face"]
            for p, m in measured.items()
            if p.startswith(f"{size}:") and p.endswith(":1")
        }
        names = sorted(faces)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                distance = sum((x - y) ** 2 for x, y in zip(faces[a], faces[b], strict=True)) ** 0.5
                if distance < MIN_FACE_DISTANCE:
                    faults.append(f"{label} {size}: {a} and {b} faces look alike: {faces[a]} and {faces[b]}")
    return faults, measured


def rules_sheet(painted: bool) -> str:
    """Every face of every colour of a game, drawn by the rules pages' own die template."""
    colours = COLOURS if painted else ("",)
    rows = []
    for colour in colours:
        dice = "".join(
            render_to_string(
                "games/_die.html", {"d": {"face": face, "colour": colour, "letter": LETTER.get(colour, "")}}
            ).replace('class="die', f'data-probe="large:{colour or "plain"}:{face}" class="die', 1)
            for face in range(1, 7)
        )
        rows.append(f'<p><span class="dice">{dice}</span></p>')
    return "".join(rows)


@pytest.fixture
def pages_of_every_game(transactional_db, make_user):
    """A game in play of each kind (its page) and an abandoned painted one and plain one (their replays)."""
    ann = make_user("ann")

    def make():
        playing = {kind: table(ann, kind=kind) for kind in (*PLAIN_KINDS, PAINTED)}
        act(playing[PAINTED], ann, {"type": "roll"})  # its own dice on the table, in the full screenshot
        replays = {}
        for kind in (PAINTED, "triple-quintzee"):
            game = table(ann, kind=kind)
            act(game, ann, {"type": "roll"})
            act(game, ann, {"type": "resign"})
            replays[kind] = game
        return playing, replays

    playing, replays = off_loop(make)
    return ann, playing, replays


def test_every_die_is_readable_on_every_page_theme_and_size(pages_of_every_game, login_as):
    ann, playing, replays = pages_of_every_game
    (SHOTS / "dice-pixels").mkdir(parents=True, exist_ok=True)
    watch = ConsoleWatch()
    faults: list[str] = []
    checked = 0
    for size, view in SIZES.items():
        page = watch.watch(login_as(ann, view["width"], view["height"], touch=view["touch"]), f"ann-{size}")
        visits = [
            (f"game-{kind}", f"/games/{g.pk}/", "js/game.js", kind == PAINTED) for kind, g in playing.items()
        ]
        visits += [
            (f"replay-{kind}", f"/games/{g.pk}/replay/", "js/replay.js", kind == PAINTED)
            for kind, g in replays.items()
        ]
        visits += [
            (f"rules-{kind}", f"/games/{kind}/rules/", None, kind == PAINTED)
            for kind in (*PLAIN_KINDS, PAINTED)
        ]
        for name, url, script, painted in visits:
            page.emulate_media(color_scheme="light")
            page.goto(url)
            if script == "js/game.js":
                expect(page.locator("#game-root")).to_have_attribute("data-seq", re.compile(r"\d+"))
            elif script:
                expect(page.locator("#replay-dice")).to_be_visible()
            if script:
                # A painted game's page also draws a plain die, for the painted ones to be told from.
                page.evaluate(SHEET_JS, [script, ["", *COLOURS] if painted else [""]])
            else:
                page.evaluate(RULES_SHEET_JS, rules_sheet(painted))
            for theme in ("light", "dark"):
                page.emulate_media(color_scheme=theme)
                found, measured = sheet_faults(page, f"{name}-{theme}-{size}")
                if name == f"game-{PAINTED}":
                    page.screenshot(path=str(SHOTS / "dice-pixels" / f"page-{name}-{theme}-{size}.png"))
                faults += found
                checked += len(measured)
    watch.check()
    assert not faults, f"{len(faults)} unreadable or look-alike dice of {checked}:\n" + "\n".join(faults)
    # 4 games, 2 replays, 4 rules pages; 2 themes, 2 sizes.
    assert checked == 2 * 2 * (3 * 12 + 72 + 12 + 72 + 3 * 6 + 30)
