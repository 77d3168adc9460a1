"""The test folders have no __init__.py, so pytest imports each test module by its file name: two of one
name in different folders stop the collection of the second ("import file mismatch")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_module_has_a_name_of_its_own():
    names = Counter(
        path.name for path in TESTS.rglob("*.py") if path.name not in ("__init__.py", "conftest.py")
    )
    assert [name for name, count in names.items() if count > 1] == []
