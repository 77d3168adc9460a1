"""Hooks (infra.hooks): how one behaves, and the list of every hook and its handlers that docs/effects.md
shows, which must be the registry's once every app is ready (a plain ``django.setup()``, in a process of
its own: this one has imported and registered more than a site's process does)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from dataclasses import is_dataclass
from functools import cache
from importlib import import_module
from pathlib import Path

import pytest

from games import effects
from infra import hooks
from infra.hooks import Hook

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "effects.md"


@cache
def _listed_after_setup() -> str:
    """What ``python manage.py hooks`` prints: the list, after django.setup() alone."""
    done = subprocess.run(
        [sys.executable, "manage.py", "hooks"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _declared_names() -> set[str]:
    """The names of the hooks the project's code declares with a literal name (``Hook("a.b", ...)``)."""
    names = set()
    for package in ROOT.iterdir():
        if package.name == "tests" or not (package / "__init__.py").exists():
            continue
        for path in package.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Hook"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    names.add(node.args[0].value)
    return names


def _reached(name: str) -> Hook:
    """The hook code reaches by ``name``: ``module.attribute``, or ``games.effects.on(Kind)``."""
    if found := re.fullmatch(r"games\.effects\.(on|announce)\((\w+)\)", name):
        return getattr(effects, found[1])(getattr(effects, found[2]))
    module, _, attribute = name.rpartition(".")
    return getattr(import_module(module), attribute)


# --- the list ---------------------------------------------------------------------------------------


@pytest.mark.slow_subprocess
def test_docs_effects_lists_every_hook_and_its_handlers_as_they_are_once_the_apps_are_ready():
    assert hooks.listed(PAGE.read_text()) == _listed_after_setup(), (
        "docs/effects.md's list of hooks is not the registry's: python manage.py hooks --write"
    )


@pytest.mark.slow_subprocess
def test_every_hook_the_code_declares_is_in_the_list():
    listed = set(re.findall(r"^\| `([^`]+)` \|", _listed_after_setup(), flags=re.M))

    assert _declared_names() <= listed
    kinds = {kind.__name__ for kind in effects.KINDS}
    assert {f"games.effects.{how}({kind})" for kind in kinds for how in ("on", "announce")} <= listed


def test_every_effect_has_its_two_hooks():
    kinds = {
        value
        for value in vars(effects).values()
        if isinstance(value, type) and value.__module__ == effects.__name__ and is_dataclass(value)
    }

    assert kinds == set(effects.KINDS)
    assert all(effects.on(kind) is not effects.announce(kind) for kind in kinds)


def test_each_hook_is_reached_by_its_name():
    for name, hook in hooks.HOOKS.items():
        assert hook.name == name
        assert _reached(name) is hook, name


def test_every_app_registers_its_handlers_once_however_often_ready_runs():
    from django.apps import apps

    before = {name: list(hook.handlers) for name, hook in hooks.HOOKS.items()}
    for config in apps.get_app_configs():
        if Path(config.path).parent == ROOT:  # the project's apps, not Django's nor the libraries'
            config.ready()

    assert {name: list(hook.handlers) for name, hook in hooks.HOOKS.items()} == before


# --- a hook -----------------------------------------------------------------------------------------


@pytest.fixture
def registry(monkeypatch):
    """A registry of its own, so that the hooks made here are not the site's."""
    monkeypatch.setattr(hooks, "HOOKS", {})
    return hooks


def _hook(name: str = "tests.points", **kwargs) -> Hook:
    return Hook(name, "A point.", receives="a number", returns="an answer", runs="here", **kwargs)


def test_handlers_run_in_the_order_registered_each_once(registry):
    hook = _hook()
    heard = []

    def first(n):
        heard.append(("first", n))

    def second(n):
        heard.append(("second", n))

    assert hook.register(first) is first  # usable as a decorator
    hook.register(second)
    hook.register(first)
    hook.each(7)

    assert heard == [("first", 7), ("second", 7)]
    assert list(registry.HOOKS.values()) == [hook]


def test_first_is_the_first_truthy_answer_and_asks_no_further(registry):
    hook = _hook()
    asked = []

    def ask(answer):
        def check(n):
            asked.append(answer)
            return answer

        return check

    for answer in (None, "", "no: blocked", "no: later"):
        hook.register(ask(answer))

    assert hook.first(1) == "no: blocked"
    assert asked == [None, "", "no: blocked"]
    assert hook.any(1) is True
    assert _hook("tests.empty").first(1) is None
    assert _hook("tests.none").any(1) is False


def test_a_single_hook_takes_one_handler_and_unregister_takes_it_away(registry):
    hook = _hook(single=True)
    assert hook.only() is None

    hook.register(int)
    hook.register(int)
    with pytest.raises(ValueError, match=r"builtins\.int"):
        hook.register(str)
    assert hook.only() is int

    hook.unregister(int)
    hook.unregister(int)
    assert hook.only() is None


def test_two_hooks_of_one_name_are_refused(registry):
    _hook()
    with pytest.raises(ValueError, match=r"tests\.points"):
        _hook()


def test_the_list_names_handlers_by_module_and_function_and_replaces_only_its_part_of_the_page(registry):
    hook = _hook("tests.b")
    _hook("tests.a")
    hook.register(effects.handled)
    hook.register(hooks)
    listing = hooks.markdown()

    assert listing.splitlines()[2:] == [
        "| `tests.a` | A point. | a number | an answer | here | none |",
        "| `tests.b` | A point. | a number | an answer | here | `games.effects.handled`, `infra.hooks` |",
    ]
    page = f"# Title\n\nbefore\n\n{hooks.BEGIN}\nold list\n{hooks.END}\n\nafter\n"
    written = hooks.replace_list(page, listing)
    assert written == f"# Title\n\nbefore\n\n{hooks.BEGIN}\n{listing}{hooks.END}\n\nafter\n"
    assert hooks.listed(written) == listing
    with pytest.raises(ValueError, match="markers"):
        hooks.listed("# no markers\n")
