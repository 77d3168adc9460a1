"""Draw the installable app's icons (static/icons/), the die of static/favicon.svg: a five on the
brand's dark blue. The PNGs are committed; this command is how they were made, and
tests/play/test_pwa.py checks that they still look like what it draws.

Pillow is a development dependency: only this command imports it."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

BRAND = (0x18, 0x23, 0x3D, 255)
PIP = (255, 255, 255, 255)
SUPERSAMPLE = 4  # drawn this many times larger, then reduced: smooth edges without an SVG renderer

# name: (size in pixels, maskable). A maskable icon fills its square and keeps the die inside the
# safe zone (the middle 80 %), since the phone may cut it to a circle.
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}


def draw(size: int, maskable: bool):
    from PIL import Image, ImageDraw

    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), BRAND if maskable else (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    # The favicon's 32-unit square: the die at (2, 2) to (30, 30), corner radius 6, pips of radius 3.
    inset = 0.1 if maskable else 0.0
    unit = big * (1 - 2 * inset) / 32
    left = big * inset

    def at(x: float) -> float:
        return left + x * unit

    if not maskable:
        pen.rounded_rectangle((at(2), at(2), at(30), at(30)), radius=6 * unit, fill=BRAND)
    for cx, cy in ((10, 10), (22, 10), (16, 16), (10, 22), (22, 22)):
        pen.ellipse((at(cx - 3), at(cy - 3), at(cx + 3), at(cy + 3)), fill=PIP)
    return image.resize((size, size), Image.Resampling.LANCZOS)


class Command(BaseCommand):
    help = "Draw the app's icons into static/icons/."

    def handle(self, *args, **options) -> None:
        folder = Path(settings.BASE_DIR) / "static" / "icons"
        folder.mkdir(parents=True, exist_ok=True)
        for name, (size, maskable) in ICONS.items():
            draw(size, maskable).save(folder / name, optimize=True)
            self.stdout.write(f"static/icons/{name}")
