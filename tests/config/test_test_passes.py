"""The two passes of .ci/run (TEST_PASS, tests/conftest.py) together run every test of the suite, and
the browser tests only in the second, on production's backends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BROWSER_DIRS = ("tests/browser/", "tests/e2e/")

pytestmark = pytest.mark.slow_subprocess


def _collect(test_pass: str, path: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TEST_PASS": test_pass, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", path],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def collected(test_pass: str) -> set[str]:
    result = _collect(test_pass, "tests")
    result.check_returncode()
    return {line for line in result.stdout.splitlines() if "::" in line}


def test_the_passes_cover_the_suite_and_browser_tests_run_on_the_real_backends():
    everything, embedded, real = collected(""), collected("embedded"), collected("real")
    assert embedded | real == everything
    browser = {test for test in everything if test.startswith(BROWSER_DIRS)}
    assert browser and browser <= real
    assert not browser & embedded
    # The rules' tests reach no backend: they run once, in the embedded pass.
    rules = {test for test in everything if test.startswith("tests/games/rules/")}
    assert rules and rules <= embedded and not rules & real


def test_an_unknown_pass_is_refused():
    result = _collect("both", "tests/config")
    assert result.returncode != 0
    assert "TEST_PASS is 'both'" in result.stdout + result.stderr
