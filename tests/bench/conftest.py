"""Scratch copies of the benchmarks' figures and their document, for the tests that write them."""

from __future__ import annotations

import pytest


@pytest.fixture
def bench_files(tmp_path, monkeypatch):
    """bench.bots's bots.json and BENCHMARKS.md copied to ``tmp_path`` and put in their place (what
    bench.win_play and bench.value_iteration write through); returns the two copies."""
    from bench import bots as bb

    figures, doc = tmp_path / "bots.json", tmp_path / "BENCHMARKS.md"
    figures.write_text(bb.JSON_OUT.read_text())
    doc.write_text(bb.DOC.read_text())
    monkeypatch.setattr(bb, "JSON_OUT", figures)
    monkeypatch.setattr(bb, "DOC", doc)
    return figures, doc
