"""Hooks: the one way an app plugs into code below it, which must not import it (apps depend one way).

A hook is a named point, declared as a module-level ``Hook`` where it is used: the game core asks
whether a game's seed is held back (``games.models.hold_seed_back``), runs what follows a move
(``games.effects.on(GameEnded)``), and so on. An app above registers its handlers with
``hook.register(handler)`` in its ``AppConfig.ready``; they run in the order registered (the order of
INSTALLED_APPS), each once however often it is registered. What a handler receives and returns, and
where it runs (inside the move's transaction or not, on the event loop or not), is part of the hook.

Every hook declared is in ``HOOKS`` by name once its module is imported; ``markdown()`` is their list
with their handlers, as docs/effects.md shows it (``python manage.py hooks --write``).
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import Any

# Every hook declared, by name, in the order their modules declared them.
HOOKS: dict[str, Hook] = {}

BEGIN = "<!-- hooks: begin (python manage.py hooks --write; tests/config/test_hooks.py) -->"
END = "<!-- hooks: end -->"


class Hook:
    """A named point where apps above register handlers (see the module's docstring).

    ``name``: how code reaches it (``games.models.hold_seed_back``); ``doc``: what it is for, in one
    line; ``receives`` and ``returns``: a handler's arguments and answer; ``runs``: where it is called
    (inside the move's transaction, with or without the database, on the event loop). ``single``: the
    hook takes one handler at most (a model named, not called)."""

    __slots__ = ("doc", "handlers", "name", "receives", "returns", "runs", "single")

    def __init__(self, name: str, doc: str, *, receives: str, returns: str, runs: str, single: bool = False):
        if name in HOOKS:
            raise ValueError(f"a hook named {name} exists already")
        self.name, self.doc, self.receives, self.returns, self.runs = name, doc, receives, returns, runs
        self.single = single
        self.handlers: list = []  # in the order registered; read, never changed, by the hook's caller
        HOOKS[name] = self

    def __repr__(self) -> str:
        return f"<Hook {self.name}>"

    def register(self, handler: Any) -> Any:
        """Add ``handler`` (once, however often it is registered); returns it, as a decorator."""
        if handler in self.handlers:
            return handler
        if self.single and self.handlers:
            raise ValueError(f"{self.name} takes one handler: {qualified(self.handlers[0])} is registered")
        self.handlers.append(handler)
        return handler

    def unregister(self, handler: Any) -> None:
        """Remove ``handler``, if registered."""
        if handler in self.handlers:
            self.handlers.remove(handler)

    def only(self) -> Any:
        """The one handler of a ``single`` hook, or None."""
        return self.handlers[0] if self.handlers else None

    def first(self, *args: Any) -> Any:
        """The first truthy answer of the handlers called with ``args``, in order (the rest are not
        called), or None."""
        for handler in self.handlers:
            if answer := handler(*args):
                return answer
        return None

    def any(self, *args: Any) -> bool:
        """Whether a handler called with ``args`` answers truthy (the rest are not called)."""
        return self.first(*args) is not None

    def each(self, *args: Any) -> None:
        """Call every handler with ``args``, in order."""
        for handler in self.handlers:
            handler(*args)


def qualified(handler: Any) -> str:
    """A handler's dotted name: ``module.function`` (or class, or module)."""
    if isinstance(handler, types.ModuleType):
        return handler.__name__
    module = getattr(handler, "__module__", None)
    name = getattr(handler, "__qualname__", None)
    return f"{module}.{name}" if module and name else repr(handler)


def markdown(hooks: Iterable[Hook] | None = None) -> str:
    """The table of ``hooks`` (every hook declared, by name) and their handlers, as Markdown."""
    found = sorted(HOOKS.values() if hooks is None else hooks, key=lambda hook: hook.name)
    lines = [
        "| hook | what | a handler receives | and returns | runs | handlers, in order |",
        "|---|---|---|---|---|---|",
    ]
    for hook in found:
        handlers = ", ".join(f"`{qualified(h)}`" for h in hook.handlers) or "none"
        cells = [f"`{hook.name}`", hook.doc, hook.receives, hook.returns, hook.runs, handlers]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def replace_list(text: str, listing: str) -> str:
    """``text`` (a Markdown page) with what stands between BEGIN and END replaced by ``listing``."""
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the page has no {BEGIN} ... {END} markers")
    return f"{head}{BEGIN}\n{listing}{END}{tail}"


def listed(text: str) -> str:
    """What stands between BEGIN and END in ``text`` (the list as the page shows it)."""
    _, begin, rest = text.partition(BEGIN)
    middle, end, _ = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the page has no {BEGIN} ... {END} markers")
    return middle.removeprefix("\n")
