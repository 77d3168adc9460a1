"""docs/BENCHMARKS.md as `make bench` and `make bench-bots` rewrite it: the method, the targets and the
history written by hand stay where they are, the generated parts go between their markers, and the
dated sessions live in the lab journal (bench/journal.md), not in docs/."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench import bots, quintzee, run, value_iteration, win_play

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "BENCHMARKS.md"
JOURNAL = ROOT / "bench" / "journal.md"
BY_HAND = ["## Running it", "## Method", "## Reading the figures", "## Where the targets stand", "## History"]


def test_the_page_has_its_markers_once_each_and_its_sections_by_hand():
    text = DOC.read_text()

    assert text.count(run.BEGIN) == 1 and text.count(run.END) == 1
    assert text.index(run.BEGIN) < text.index(run.END)
    for writer in (bots, quintzee, win_play, value_iteration):
        # Each benchmark that writes a section finds its own heading and replaces that section in place.
        assert text.count(writer.SECTION + "\n") == 1, writer.__name__
    for heading in BY_HAND:
        assert text.count(heading + "\n") == 1, heading


def test_make_bench_and_make_bench_bots_rewrite_only_their_own_parts(tmp_path, monkeypatch):
    copy = tmp_path / "BENCHMARKS.md"
    original = DOC.read_text()
    copy.write_text(original)
    monkeypatch.setattr(run, "MD_OUT", copy)
    monkeypatch.setattr(bots, "DOC", copy)

    run.write_markdown(f"{run.BEGIN}\n\nA new run.\n\n{run.END}")
    figures = json.loads((ROOT / "docs" / "benchmarks" / "bots.json").read_text())
    bots.write_doc(figures, "python -m bench.bots")

    text = copy.read_text()
    assert "A new run." in text
    assert text.startswith(original.split(run.BEGIN)[0])
    for heading in BY_HAND:
        assert text.count(heading + "\n") == 1, heading
    assert text.index("## History") > text.index(run.END)


def test_the_dated_sessions_are_in_the_journal_not_in_docs():
    journal = JOURNAL.read_text()

    assert "bench/journal.md" in DOC.read_text()
    for session in (
        "(2026-12-01, 23:17-23:47)",
        "(2026-12-02, 15:10-15:42)",
        "(2026-12-03, 07:05-09:03)",
        "(2026-12-04, 22:24-22:57)",
        "(2026-12-06, 04:11-05:00)",
        "CI's time (2026-12-06)",
    ):
        assert session in journal
        assert not any(session in path.read_text() for path in (ROOT / "docs").glob("*.md"))


def test_the_page_is_reference_of_at_most_300_lines():
    """The method, the current figures and a short history: the sessions' story is the journal's, and
    things are named by what they are, not by the issue or the stop that made them."""
    text = DOC.read_text()

    assert len(text.splitlines()) <= 300
    assert not re.search(r"\b(issue|stop) \d+|\b(first|second|third|fourth|fifth) stop\b", text, re.I)


def test_the_generated_run_is_what_make_bench_writes_from_its_json():
    """The block between the markers is bench.run's page report of docs/benchmarks/latest.json, so the
    next `make bench` replaces it like for like (every step's table stays in the JSON, `--report`)."""
    text = DOC.read_text()
    report = json.loads(run.JSON_OUT.read_text())
    block = text[text.index(run.BEGIN) : text.index(run.END) + len(run.END)]

    assert block == run.markdown(report, every_step=False)
    assert "### Every step" in run.markdown(report) and "### Every step" not in block
