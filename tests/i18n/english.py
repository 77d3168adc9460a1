"""What English looks like to the German tests: the English side of the project's catalogues, and
the English words that no German sentence of the site contains."""

from __future__ import annotations

import ast
import functools
import re
from html.parser import HTMLParser
from pathlib import Path

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES"
_PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}|%s")
# Words of English sentences that no German sentence of the site uses (names aside).
ENGLISH_WORDS = re.compile(r"\b(the|your|you|with|and|this|is|are|has|not|of|for|at|here|yet)\b")


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file: msgid, msgid_plural, msgstr (a list) and flags."""
    entries, entry, field = [], None, None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry and entry["msgid"] is not None:
                entries.append(entry)
            entry, field = None, None
            continue
        entry = entry or {"msgid": None, "plural": None, "msgstr": {}, "flags": ""}
        if line.startswith("#,"):
            entry["flags"] += line
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural "):
            entry["plural"], field = ast.literal_eval(line[13:]), ("plural",)
        elif line.startswith("msgid "):
            entry["msgid"], field = ast.literal_eval(line[6:]), ("msgid",)
        elif line.startswith("msgstr"):
            key, _, value = line.partition(" ")
            index = int(key[7:-1]) if "[" in key else 0
            entry["msgstr"][index], field = ast.literal_eval(value), ("msgstr", index)
        elif line.startswith('"'):
            value = ast.literal_eval(line)
            if field[0] == "msgstr":
                entry["msgstr"][field[1]] += value
            else:
                entry[field[0]] += value
    return [e for e in entries if e["msgid"]]


@functools.cache
def fragments() -> frozenset[str]:
    """Pieces of English sentences (between placeholders, of two words or more) whose German differs.

    Read once a run: the German tests ask for every event of hundreds of random games, and reading the
    catalogues each time made tests/i18n/test_engine_messages.py take six minutes a pass."""
    out = set()
    for domain in ("django", "djangojs"):
        for e in read_po(LOCALE / f"{domain}.po"):
            for english, german in ((e["msgid"], e["msgstr"][0]), (e["plural"], e["msgstr"].get(1))):
                if not english or english == german:
                    continue
                for piece in _PLACEHOLDER.split(english):
                    piece = piece.strip(" .,:;!?()·")
                    if len(piece) >= 10 and " " in piece and piece not in (german or ""):
                        out.add(piece)
    return frozenset(out)


class _Text(HTMLParser):
    """A page's words as a reader meets them: text, and the alt, title, aria-label and placeholder."""

    SKIP = {"script", "style"}
    SAID = ("alt", "title", "aria-label", "placeholder", "data-empty", "value")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        for name, value in attrs:
            # A button's or submit's value is read; a hidden field's or an input's is data.
            if name in self.SAID and value and not (name == "value" and tag != "button"):
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def english_left(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English found in ``text``: catalogue sentences kept as such, and English words."""
    for name in names:
        text = text.replace(name, " ")
    found = sorted(piece for piece in fragments() if piece in text)
    found += sorted({m.group(0) for m in ENGLISH_WORDS.finditer(text)})
    return found
