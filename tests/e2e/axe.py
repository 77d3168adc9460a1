"""Accessibility checks of the journeys: axe-core (npm, package.json) run inside the page a journey is on.

`check_axe(page, label)` fails with every violation of WCAG 2.x A and AA and of axe's best practices on
the page as it is at that moment: the rule, its impact and the elements it found. A page checked clean
and not changed since (same address, colour scheme and document) is not checked again: a journey checks
a state by name and its screenshot helpers check every state they keep, often the same one.
"""

from __future__ import annotations

import hashlib
import weakref
from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
STATE = """() => [
    location.href, matchMedia("(prefers-color-scheme: dark)").matches, document.documentElement.outerHTML
]"""

_checked_clean: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # page -> its state when last clean


def _state(page: Page) -> str:
    return hashlib.sha256(repr(page.evaluate(STATE)).encode()).hexdigest()


def axe_violations(page: Page) -> list[dict]:
    """axe's violations on the page now (injected once per document)."""
    assert AXE.is_file(), f"{AXE} is missing: run `npm ci` (make test does)"
    if not page.evaluate("typeof window.axe === 'object'"):
        # Evaluated as DevTools would, not added as a <script>: the site's Content-Security-Policy
        # refuses inline scripts, and the test must not be the page's one violation of it.
        page.evaluate(AXE.read_text())
    return page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
            return result.violations.map((v) => ({
                id: v.id,
                impact: v.impact,
                help: v.help,
                targets: v.nodes.map((n) => n.target.join(" ")),
            }));
        }""",
        TAGS,
    )


def check_axe(page: Page, label: str) -> None:
    """No axe violation on the page as it is now; `label` names the page state in the failure."""
    if _checked_clean.get(page) == _state(page):
        return
    violations = axe_violations(page)
    lines = [
        f"  {v['id']} ({v['impact']}): {v['help']}; {len(v['targets'])} node(s): "
        + ", ".join(v["targets"][:8])
        + (" …" if len(v["targets"]) > 8 else "")
        for v in violations
    ]
    assert not violations, f"axe on {label} ({page.url}):\n" + "\n".join(lines)
    _checked_clean[page] = _state(page)
