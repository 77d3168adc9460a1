"""The import graph of the project's apps, and what our code reads of its dependencies' private parts.

Apps depend one way (zero two-way pairs between apps), no import circle among modules, and no private
attribute of a dependency is read anywhere. The goal is zero of each: the lists
below (KNOWN_TWO_WAY, KNOWN_CIRCLES, KNOWN_PRIVATE, KNOWN_PATCHES) only document what is left today.
Each is exact and may only shrink: the test fails when something new appears, and also when a listed
entry is no longer true, so that whoever removes one removes it from the list too.

Everything is read from the syntax trees of the project's code (every top-level package but tests/,
migrations left out); nothing is imported.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = sorted(
    path.name
    for path in ROOT.iterdir()
    if path.is_dir() and (path / "__init__.py").exists() and path.name != "tests"
)

# Pairs of apps that do not depend one way: each pair imports the other (at any nesting
# level, inside functions and `if TYPE_CHECKING` included). The goal is none; the list may only shrink.
KNOWN_TWO_WAY: set[frozenset[str]] = set()

# Circles of modules. At import time there is none, and none may come
# (test_no_circle_of_modules_at_import_time: top-level statements and class bodies, imports inside
# functions and under `if TYPE_CHECKING` left out). Counting those too, these modules still import each
# other around a circle, which a local import or a type-only one only hides. The goal is none; the list
# may only shrink.
KNOWN_CIRCLES: set[frozenset[str]] = set()

# Private attributes (one leading underscore, not a dunder) of a dependency (or of the standard
# library) that our code reads or writes, as (file, attribute). The goal is none; the list may only
# shrink.
KNOWN_PRIVATE: set[tuple[str, str]] = set()

# Dependencies changed by our code (monkey patches), as (file, attribute): an attribute set on a
# third-party module or class, or a method of a third-party object replaced by a function of ours. A
# plain value set on a library's object (a form field's `required`) is not listed. The goal is none;
# the list may only shrink.
KNOWN_PATCHES: set[tuple[str, str]] = set()

# Names with a leading underscore that their library documents as public API: Django's model _meta API
# (docs: ref/models/meta), a model instance's _state (docs: ref/models/instances, "Model._state") and
# namedtuple's methods (named so "to prevent conflicts with field names").
DOCUMENTED = {"_meta", "_state", "_replace", "_asdict", "_fields", "_make", "_field_defaults"}


# ---------------------------------------------------------------------------------------------------
# The project's modules and their imports


@dataclass
class _Code:
    """Modules by dotted name: their files (relative to the root) and syntax trees."""

    files: dict[str, str]
    trees: dict[str, ast.Module]

    @classmethod
    def of(cls, sources: dict[str, str]) -> _Code:
        """From {relative path: source}."""
        files, trees = {}, {}
        for path, source in sources.items():
            parts = list(Path(path).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
            trees[".".join(parts)] = ast.parse(source, filename=path)
        return cls(files, trees)

    @property
    def apps(self) -> set[str]:
        return {module.split(".")[0] for module in self.files}

    def is_package(self, module: str) -> bool:
        return self.files[module].endswith("__init__.py")

    def absolute(self, module: str, node: ast.ImportFrom) -> str:
        """The module a ``from ... import`` names, relative ones resolved."""
        if not node.level:
            return node.module or ""
        package = module.split(".") if self.is_package(module) else module.split(".")[:-1]
        base = package[: len(package) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))

    def imported(self, module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
        """The project's modules an import statement names: ``import a.b`` and ``from a import b`` (b
        a module) name a.b; ``from a import name`` names a. The packages Python runs on the way (a's
        ``__init__`` for a.b) are not counted: a package that imports its own modules would otherwise
        make a circle with each of them."""
        if isinstance(node, ast.Import):
            return {alias.name for alias in node.names if alias.name in self.files}
        base = self.absolute(module, node)
        targets = set()
        for alias in node.names:
            if f"{base}.{alias.name}" in self.files:
                targets.add(f"{base}.{alias.name}")
            elif base in self.files:
                targets.add(base)
        return targets

    def third_party(self, dotted: str) -> bool:
        top = dotted.split(".")[0]
        return top not in self.apps and top not in sys.stdlib_module_names


@cache
def _code() -> _Code:
    sources = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" not in relative.parts:
                sources[relative.as_posix()] = path.read_text(encoding="utf-8")
    return _Code.of(sources)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_time_statements(body: list[ast.stmt]):
    """The import statements that run when the module is imported: top-level ones, in class bodies and
    in blocks, not in functions and not under ``if TYPE_CHECKING``."""
    for stmt in body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            yield stmt
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        elif isinstance(stmt, ast.If) and _is_type_checking(stmt.test):
            yield from _import_time_statements(stmt.orelse)
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                yield from _import_time_statements(case.body)
        else:
            for name in ("body", "orelse", "finalbody"):
                yield from _import_time_statements(getattr(stmt, name, []))
            for handler in getattr(stmt, "handlers", []):
                yield from _import_time_statements(handler.body)


def _every_import(tree: ast.Module):
    return (node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom))


def _graph(code: _Code, import_time_only: bool) -> dict[str, dict[str, int]]:
    """module -> {imported module: line}."""
    graph = {}
    for module, tree in code.trees.items():
        statements = _import_time_statements(tree.body) if import_time_only else _every_import(tree)
        graph[module] = {
            target: node.lineno
            for node in statements
            for target in sorted(code.imported(module, node))
            if target != module
        }
    return graph


def _app_imports(code: _Code) -> dict[tuple[str, str], list[str]]:
    """(importing app, imported app): where (file:line), for every import at any nesting level."""
    edges = defaultdict(list)
    for module, targets in _graph(code, import_time_only=False).items():
        for target, line in targets.items():
            source_app, target_app = module.split(".")[0], target.split(".")[0]
            if source_app != target_app:
                edges[source_app, target_app].append(f"{code.files[module]}:{line}")
    return edges


def _circles(graph: dict[str, dict[str, int]]) -> set[frozenset[str]]:
    """The graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


# ---------------------------------------------------------------------------------------------------
# What our code reads of its dependencies
#
# A light data flow over each module, to a fixed point: a value is a dependency's when it is a name
# imported from a third-party package, an attribute, item, call result or iteration of such a value,
# ``super()`` in a class derived from a third-party class, or an attribute of ``self`` in such a class
# that the project's classes never define. It flows through assignments, ``for`` and ``with``
# targets, ``isinstance`` checks, arguments of the project's functions and classes (into their
# parameters), their return values and attributes set on ``self``. A private attribute read on such a
# value is listed; so is ``self._x`` (or ``Class._x``) in a class derived from a third-party class
# when the project's classes never define ``_x``, and any ``x._y`` whose name ``_y`` the project
# defines nowhere (it can only be a dependency's or the standard library's). Left alone: a name some
# class of ours defines (the object is then taken for one of ours, as a model instance a manager
# returns), the names in DOCUMENTED, and enum's ``_sunder_`` names. What reaches an object through a
# container or another module's global is not followed; the last rule catches most of that.


def _is_private(name: str) -> bool:
    return (
        name.startswith("_")
        and not name.startswith("__")
        and not (name.endswith("_") and len(name) > 2)  # enum's _sunder_ names
        and name not in DOCUMENTED
    )


def _functions(body: list[ast.stmt]):
    """The functions defined directly in a body (not in nested functions or classes)."""
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            yield stmt


def _own_nodes(scope: ast.AST):
    """The nodes of a function or module body, not those of the functions and classes inside it."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))


def _bindings(code: _Code, body_nodes, module: str) -> dict[str, tuple]:
    """Names bound by imports: ("ext", dotted), ("mod", project module) or ("name", module, attribute)."""
    bound = {}
    for node in body_nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name if alias.asname else alias.name.split(".")[0]
                local = alias.asname or name
                if name.split(".")[0] in code.apps:
                    bound[local] = ("mod", name)
                else:
                    bound[local] = ("ext", name)
        elif isinstance(node, ast.ImportFrom):
            base = code.absolute(module, node)
            for alias in node.names:
                local = alias.asname or alias.name
                if base.split(".")[0] not in code.apps:
                    bound[local] = ("ext", f"{base}.{alias.name}")
                elif f"{base}.{alias.name}" in code.files:
                    bound[local] = ("mod", f"{base}.{alias.name}")
                else:
                    bound[local] = ("name", base, alias.name)
    return bound


@dataclass
class _Class:
    key: str
    module: str
    node: ast.ClassDef
    defined: set[str] = field(default_factory=set)  # names the class itself defines
    set_from_dependency: set[str] = field(default_factory=set)  # self.x = a dependency's value


_PARTIAL = ("functools.partial", "functools.partialmethod")


def _self_name(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    decorators = {getattr(d, "id", getattr(d, "attr", None)) for d in function.decorator_list}
    positional = function.args.posonlyargs + function.args.args
    if "staticmethod" in decorators or not positional:
        return None
    return positional[0].arg


def _setattr_name(node: ast.Call) -> str | None:
    """The attribute a ``setattr(x, "name", ...)`` or ``object.__setattr__(x, "name", ...)`` sets."""
    name = getattr(node.func, "id", getattr(node.func, "attr", None))
    if name in ("setattr", "__setattr__") and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
        return node.args[1].value
    return None


class _Project:
    def __init__(self, code: _Code) -> None:
        self.code = code
        self.classes: dict[str, _Class] = {}
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.owner: dict[ast.AST, _Class] = {}  # method -> its class
        self.module_bindings = {m: _bindings(code, _own_nodes(t), m) for m, t in code.trees.items()}
        self.names: set[str] = set()  # every name the project defines, anywhere
        for module, tree in code.trees.items():
            for function in _functions(tree.body):
                self.functions[f"{module}.{function.name}"] = function
            for node in ast.walk(tree):
                self._collect_name(node)
                if isinstance(node, ast.ClassDef):
                    self._add_class(module, node)
        # Every name a project class defines: an object that has one is taken for one of ours.
        self.class_names = {name for info in self.classes.values() for name in info.defined}
        self.tainted_params: dict[ast.AST, set[str]] = defaultdict(set)
        self.returns_dependency: set[ast.AST] = set()
        self.private: dict[tuple[str, str], set[int]] = defaultdict(set)
        self.patches: dict[tuple[str, str], set[int]] = defaultdict(set)

    def _collect_name(self, node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            self.names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            self.names.add(node.attr)
        elif isinstance(node, ast.arg):
            self.names.add(node.arg)
        elif isinstance(node, ast.alias):
            self.names.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.Call) and _setattr_name(node):
            self.names.add(_setattr_name(node))

    def _add_class(self, module: str, node: ast.ClassDef) -> None:
        info = _Class(f"{module}.{node.name}", module, node)
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                info.defined.add(stmt.name)
            for target in getattr(stmt, "targets", [getattr(stmt, "target", None)]):
                if isinstance(target, ast.Name):
                    info.defined.add(target.id)
        for function in _functions(node.body):
            self.owner[function] = info
            self.functions[f"{info.key}.{function.name}"] = function
            me = _self_name(function)
            for inner in ast.walk(function):
                if isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store):
                    if isinstance(inner.value, ast.Name) and inner.value.id == me:
                        info.defined.add(inner.attr)
                elif isinstance(inner, ast.Call) and _setattr_name(inner):
                    first = inner.args[0]
                    if isinstance(first, ast.Name) and first.id == me:
                        info.defined.add(_setattr_name(inner))
        self.classes.setdefault(info.key, info)

    # -- names and classes

    def resolve(self, module: str, expr: ast.expr, local: dict | None = None, depth: int = 0):
        """What a name or dotted name stands for: ("ext", dotted), ("mod", module), ("class", key),
        ("function", key) or None."""
        if depth > 5:
            return None
        if isinstance(expr, ast.Subscript):
            return self.resolve(module, expr.value, local, depth)
        if isinstance(expr, ast.Name):
            return self._lookup(module, expr.id, local, depth)
        if isinstance(expr, ast.Attribute):
            base = self.resolve(module, expr.value, local, depth)
            if base and base[0] == "ext":
                return ("ext", f"{base[1]}.{expr.attr}")
            if base and base[0] == "mod":
                return self._lookup(base[1], expr.attr, None, depth + 1)
        return None

    def _lookup(self, module: str, name: str, local: dict | None, depth: int):
        if local and name in local:
            bound = local[name]
        elif f"{module}.{name}" in self.classes:
            return ("class", f"{module}.{name}")
        elif f"{module}.{name}" in self.functions:
            return ("function", f"{module}.{name}")
        else:
            bound = self.module_bindings.get(module, {}).get(name)
        if bound is None:
            return None
        if bound[0] in ("ext", "mod"):
            return bound
        return self._lookup(bound[1], bound[2], None, depth + 1) if depth < 5 else None

    @cache  # noqa: B019 - one project per test run
    def bases(self, key: str) -> tuple[tuple, ...]:
        info = self.classes[key]
        return tuple(filter(None, (self.resolve(info.module, base) for base in info.node.bases)))

    @cache  # noqa: B019
    def mro(self, key: str) -> tuple[str, ...]:
        """The class and its project ancestors."""
        found = [key]
        for base in self.bases(key):
            if base[0] == "class" and base[1] in self.classes:
                found += [k for k in self.mro(base[1]) if k not in found]
        return tuple(found)

    @cache  # noqa: B019
    def derived_from_dependency(self, key: str) -> bool:
        return any(
            (base[0] == "ext" and self.code.third_party(base[1]))
            or (base[0] == "class" and base[1] in self.classes and self.derived_from_dependency(base[1]))
            for base in self.bases(key)
        )

    def defines(self, key: str, name: str) -> bool:
        return any(name in self.classes[k].defined for k in self.mro(key))

    def method(self, key: str, name: str):
        for k in self.mro(key):
            if f"{k}.{name}" in self.functions:
                return self.functions[f"{k}.{name}"]
        return None

    # -- the data flow

    def run(self) -> _Project:
        while True:
            before = self._state()
            self.private.clear()
            self.patches.clear()
            for module, tree in self.code.trees.items():
                _Scope(self, module, tree, None, None, set()).run()
            if self._state() == before:
                return self

    def _state(self):
        return (
            sum(len(v) for v in self.tainted_params.values()),
            len(self.returns_dependency),
            sum(len(c.set_from_dependency) for c in self.classes.values()),
        )


class _Scope:
    """One function's (or the module's own) statements, with the names holding a dependency's value."""

    def __init__(
        self, project: _Project, module: str, node: ast.AST, cls: _Class | None, me, outer: set[str]
    ):
        self.project, self.module, self.node, self.cls, self.me = project, module, node, cls, me
        decorators = [getattr(d, "id", None) for d in getattr(node, "decorator_list", [])]
        self.classmethod = "classmethod" in decorators
        self.local = dict(project.module_bindings[module]) if isinstance(node, ast.Module) else {}
        if not isinstance(node, ast.Module):
            self.local = _bindings(project.code, _own_nodes(node), module)
        module_level = {n for n, b in project.module_bindings[module].items() if b[0] == "ext"}
        self.dependency = {n for n in module_level | outer if self._third_party_name(n)}
        self.dependency |= {
            n for n, b in self.local.items() if b[0] == "ext" and project.code.third_party(b[1])
        }
        self.dependency |= project.tainted_params.get(node, set())

    def _third_party_name(self, name: str) -> bool:
        bound = self.local.get(name) or self.project.module_bindings[self.module].get(name)
        return bound is None or bound[0] != "ext" or self.project.code.third_party(bound[1])

    def resolve(self, expr: ast.expr):
        return self.project.resolve(self.module, expr, self.local)

    def is_me(self, expr: ast.expr) -> bool:
        return isinstance(expr, ast.Name) and expr.id == self.me

    def is_instance(self, expr: ast.expr) -> bool:
        """``expr`` is ``self`` in an instance method (not ``cls``, not a class's name)."""
        return isinstance(expr, ast.Name) and expr.id == self.me and not self.classmethod

    def self_class(self, expr: ast.expr) -> _Class | None:
        """The project class ``expr`` is ``self``, ``cls`` or the name of, if any."""
        if isinstance(expr, ast.Name) and self.cls is not None and expr.id == self.me:
            return self.cls
        if isinstance(expr, ast.Name) and expr.id not in self.dependency:
            found = self.resolve(expr)
            if found and found[0] == "class":
                return self.project.classes.get(found[1])
        return None

    def is_dependency(self, expr: ast.expr) -> bool:
        project = self.project
        if isinstance(expr, ast.Name):
            return expr.id in self.dependency
        if isinstance(expr, ast.Attribute):
            owner = self.self_class(expr.value)
            if owner is not None:
                if any(expr.attr in project.classes[k].set_from_dependency for k in project.mro(owner.key)):
                    return True
                # What the library's base class gives our instance (a consumer's scope, a view's
                # request); not what our class has from it (a model's manager gives our objects).
                return (
                    self.is_instance(expr.value)
                    and project.derived_from_dependency(owner.key)
                    and not project.defines(owner.key, expr.attr)
                )
            return self.is_dependency(expr.value)
        if isinstance(expr, ast.Call):
            if isinstance(expr.func, ast.Name) and expr.func.id == "super":
                return self.cls is not None and project.derived_from_dependency(self.cls.key)
            callee = self.callee(expr)
            if callee is not None and callee[0] in project.returns_dependency:
                return True
            return self.is_dependency(expr.func)
        if isinstance(expr, ast.Subscript | ast.Await | ast.Starred):
            return self.is_dependency(expr.value)
        if isinstance(expr, ast.BoolOp):
            return any(self.is_dependency(v) for v in expr.values)
        if isinstance(expr, ast.IfExp):
            return self.is_dependency(expr.body) or self.is_dependency(expr.orelse)
        return False

    def callee(self, call: ast.Call):
        """The project function a call runs and how many of its first parameters the call does not
        fill (``self``): (function, skipped) or None."""
        func = call.func
        if isinstance(func, ast.Attribute):
            owner = self.self_class(func.value)
            if owner is not None:
                method = self.project.method(owner.key, func.attr)
                return (method, 1) if method is not None else None
        found = self.resolve(func) if isinstance(func, ast.Name | ast.Attribute) else None
        if found and found[0] == "function":
            function = self.project.functions[found[1]]
            return (function, 1 if function in self.project.owner else 0)
        if found and found[0] == "class":
            init = self.project.method(found[1], "__init__")
            return (init, 1) if init is not None else None
        return None

    def mark(self, target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.dependency.add(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self.mark(element)
        elif isinstance(target, ast.Starred):
            self.mark(target.value)
        elif isinstance(target, ast.Attribute) and self.cls is not None and self.is_me(target.value):
            self.cls.set_from_dependency.add(target.attr)

    def run(self) -> None:
        nodes = list(_own_nodes(self.node))
        self.assigned = {}  # attribute target -> the value assigned to it
        for node in nodes:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self.assigned[target] = node.value
        while True:
            before = len(self.dependency)
            for node in nodes:
                self.flow(node)
            if len(self.dependency) == before:
                break
        for node in nodes:
            self.check(node)
        for node in nodes:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):  # a closure: same self
                _Scope(self.project, self.module, node, self.cls, self.me, self.dependency).run()
            elif isinstance(node, ast.ClassDef):
                info = self.project.classes.get(f"{self.module}.{node.name}")
                for function in _functions(node.body):
                    me = _self_name(function)
                    _Scope(self.project, self.module, function, info, me, self.dependency).run()

    def flow(self, node: ast.AST) -> None:
        if isinstance(node, ast.Assign) and self.is_dependency(node.value):
            for target in node.targets:
                self.mark(target)
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            if self.is_dependency(node.value):
                self.mark(node.target)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension) and self.is_dependency(node.iter):
            self.mark(node.target)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            if self.is_dependency(node.context_expr):
                self.mark(node.optional_vars)
        elif isinstance(node, ast.Call):
            narrowed = node.args[0] if getattr(node.func, "id", None) == "isinstance" else None
            if isinstance(narrowed, ast.Name) and self.is_dependency(node.args[1]):
                self.dependency.add(narrowed.id)  # isinstance(x, LibraryClass): x is the library's
            self.into_callee(node)
        elif isinstance(node, ast.Return) and node.value is not None and self.is_dependency(node.value):
            self.project.returns_dependency.add(self.node)

    def into_callee(self, call: ast.Call) -> None:
        found = self.callee(call)
        if found is None:
            return
        function, skipped = found
        positional = [a.arg for a in function.args.posonlyargs + function.args.args][skipped:]
        for name, argument in zip(positional, call.args, strict=False):
            if isinstance(argument, ast.Starred):
                break
            if self.is_dependency(argument):
                self.project.tainted_params[function].add(name)
        for keyword in call.keywords:
            if keyword.arg and self.is_dependency(keyword.value):
                self.project.tainted_params[function].add(keyword.arg)

    def check(self, node: ast.AST) -> None:
        if isinstance(node, ast.Attribute):
            self.check_access(node.value, node.attr, node.lineno)
            if isinstance(node.ctx, ast.Store | ast.Del):
                self.check_patch(node.value, node.attr, self.assigned.get(node), node.lineno)
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
            name = getattr(node.func, "id", None)
            if name in ("getattr", "hasattr", "setattr", "delattr") and isinstance(node.args[1].value, str):
                self.check_access(node.args[0], node.args[1].value, node.lineno)
                if name in ("setattr", "delattr"):
                    value = node.args[2] if len(node.args) > 2 else None
                    self.check_patch(node.args[0], node.args[1].value, value, node.lineno)

    def check_patch(self, target: ast.expr, attribute: str, value: ast.expr | None, line: int) -> None:
        """A dependency's module or class changed, or a method of its object replaced by ours."""
        if self.self_class(target) is not None:
            return
        found = self.resolve(target) if isinstance(target, ast.Name | ast.Attribute) else None
        changed = bool(found) and found[0] == "ext" and self.project.code.third_party(found[1])
        replaced = (
            self.is_dependency(target)
            and attribute not in self.project.class_names
            and self.is_function(value)
        )
        if changed or replaced:
            self.project.patches[self.project.code.files[self.module], attribute].add(line)

    def is_function(self, value: ast.expr | None) -> bool:
        if isinstance(value, ast.Lambda):
            return True
        if isinstance(value, ast.Call):
            found = self.resolve(value.func) if isinstance(value.func, ast.Name | ast.Attribute) else None
            return bool(found) and found[0] == "ext" and found[1] in _PARTIAL
        if isinstance(value, ast.Name | ast.Attribute):
            found = self.resolve(value)
            return bool(found) and found[0] == "function"
        return False

    def check_access(self, value: ast.expr, attribute: str, line: int) -> None:
        if not _is_private(attribute):
            return
        project = self.project
        owner = self.self_class(value)
        if owner is not None:
            read = project.derived_from_dependency(owner.key) and not project.defines(owner.key, attribute)
        elif isinstance(value, ast.Call) and getattr(value.func, "id", None) == "super" and self.cls:
            ancestors = project.mro(self.cls.key)[1:]  # what super() reaches: not our own class
            read = project.derived_from_dependency(self.cls.key) and not any(
                attribute in project.classes[k].defined for k in ancestors
            )
        elif self.is_dependency(value):
            read = attribute not in project.class_names
        else:
            found = self.resolve(value) if isinstance(value, ast.Name | ast.Attribute) else None
            read = not (found and found[0] == "mod") and attribute not in project.names
        if read:
            project.private[self.project.code.files[self.module], attribute].add(line)


@cache
def _project() -> _Project:
    return _Project(_code()).run()


def _differences(found: set, known: set, describe) -> str:
    lines = [f"new (remove its cause): {describe(item)}" for item in sorted(found - known, key=str)]
    lines += [f"gone (take it off the list): {describe(item)}" for item in sorted(known - found, key=str)]
    return "\n".join(lines)


def _describe_circle(graph: dict[str, dict[str, int]]):
    def describe(circle: frozenset[str]) -> str:
        edges = [
            f"{module} -> {target} (line {line})"
            for module in sorted(circle)
            for target, line in graph.get(module, {}).items()
            if target in circle
        ]
        return "{" + ", ".join(sorted(circle)) + "}: " + "; ".join(edges)

    return describe


def _describe_at(found: dict):
    def describe(item: tuple[str, str]) -> str:
        return f"{item[0]}: {item[1]} (lines {sorted(found.get(item, []))})"

    return describe


# ---------------------------------------------------------------------------------------------------
# The project


def test_the_scan_sees_every_app():
    assert {"accounts", "chat", "coach", "config", "games", "groups", "notices"} <= set(APPS)
    assert "games.live.moves" in _code().files
    assert not any("migrations" in path for path in _code().files.values())


def test_no_circle_of_modules_at_import_time():
    graph = _graph(_code(), import_time_only=True)
    circles = _circles(graph)

    assert circles == set(), _differences(circles, set(), _describe_circle(graph))


def test_the_circles_of_every_import_are_the_known_ones():
    graph = _graph(_code(), import_time_only=False)
    circles = _circles(graph)

    assert circles == KNOWN_CIRCLES, _differences(circles, KNOWN_CIRCLES, _describe_circle(graph))


def test_the_two_way_pairs_of_apps_are_the_known_ones():
    edges = _app_imports(_code())
    two_way = {frozenset((a, b)) for a, b in edges if (b, a) in edges}

    def describe(pair: frozenset[str]) -> str:
        a, b = sorted(pair)
        return (
            f"{a} <-> {b}: {a} -> {b} at {', '.join(edges.get((a, b), [])[:5])}; "
            f"{b} -> {a} at {', '.join(edges.get((b, a), [])[:5])}"
        )

    assert two_way == KNOWN_TWO_WAY, _differences(two_way, KNOWN_TWO_WAY, describe)


# The layers, lowest first: each package imports only from its own layer or the ones below it. infra
# is the shared platform; accounts the players; games the game core; the apps that depend on it; the
# apps built on those (seasons: on groups, notices and ratings; friends: on notices and pairing;
# safety, reports and moderation: through chat, pairing and notices); play the pages and the game's
# socket, which put the apps together, and read safety's data; config wires everything; bench measures
# it from outside.
LAYERS = [
    {"infra"},
    {"accounts"},
    {"games"},
    {"chat", "coach", "daily", "groups", "notices", "ratings", "pairing", "tournaments"},
    {"seasons", "friends", "safety"},
    {"play"},
    {"config"},
    {"bench"},
]


def test_every_package_has_its_layer_and_imports_none_above_it():
    layer_of = {app: i for i, layer in enumerate(LAYERS) for app in layer}
    assert set(APPS) == set(layer_of), "a package without a layer, or a layer's package gone"
    upward = {
        f"{a} -> {b} at {', '.join(where[:3])}"
        for (a, b), where in _app_imports(_code()).items()
        if layer_of[b] > layer_of[a]
    }
    assert upward == set()


def test_the_private_attributes_of_dependencies_read_are_the_known_ones():
    found = _project().private

    assert set(found) == KNOWN_PRIVATE, _differences(set(found), KNOWN_PRIVATE, _describe_at(found))


def test_the_patches_of_dependencies_are_the_known_ones():
    found = _project().patches

    assert set(found) == KNOWN_PATCHES, _differences(set(found), KNOWN_PATCHES, _describe_at(found))


# ---------------------------------------------------------------------------------------------------
# The detectors, on code written for them


def test_a_circle_at_import_time_is_found_and_one_through_a_function_or_type_checking_only_counts_as_any():
    code = _Code.of(
        {
            "one/__init__.py": "from one import a, b  # a package importing its own modules\n",
            "one/a.py": "from one.b import thing\n",
            "one/b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from one.c import Kind\n"
                "thing = 1\n"
                "def later():\n    from . import a\n"
            ),
            "one/c.py": "from one import b\nclass Kind:\n    from two import x\n",
            "two/__init__.py": "",
            "two/x.py": "import one.c\n",
        }
    )

    assert _circles(_graph(code, import_time_only=True)) == {frozenset({"one.c", "two.x"})}
    assert _circles(_graph(code, import_time_only=False)) == {frozenset({"one.a", "one.b", "one.c", "two.x"})}
    edges = _app_imports(code)
    assert set(edges) == {("one", "two"), ("two", "one")}
    assert edges["one", "two"] == ["one/c.py:3"]


def test_the_private_reads_found_and_those_left_alone():
    code = _Code.of(
        {
            "app/__init__.py": "",
            "app/ours.py": "class Ours:\n    def __init__(self):\n        self._mine = 1\n",
            "app/layer.py": """
import gettext
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.db import models
from django.utils.functional import LazyObject
from app import ours


class Layer(RedisPubSubChannelLayer):
    def _get_layer(self):
        layer = super()._get_layer()  # reads the library's _get_layer
        for shard in layer._shards:
            Holder(shard)
        self._own = 1
        return layer

    def send(self):
        layer = self._get_layer()  # ours: no finding, but what it returns is the library's
        self._own  # ours
        self._config  # the library's
        return layer._get_shard("x")


class Holder:
    def __init__(self, shard):
        self.shard = shard

    def use(self):
        self.shard._lock
        self._private_of_ours = 1
        return self._private_of_ours


class Model(models.Model):
    def save(self):
        return self._state.adding, Model._meta, Model._default_manager


def unwrap(user):
    if isinstance(user, LazyObject):
        return user._wrapped
    return ours.Ours()._mine, ours._helper


def catalogue(found):
    return found._catalog, gettext.translation("x")._catalog


def _helper():
    return RedisPubSubChannelLayer.__init__, RedisPubSubChannelLayer._private_method
""",
        }
    )
    found = _Project(code).run().private

    assert {name for _, name in found} == {
        "_get_layer",
        "_shards",
        "_config",
        "_get_shard",
        "_lock",
        "_default_manager",  # not _state nor _meta: Django documents both
        "_wrapped",
        "_catalog",
        "_private_method",
    }


def test_a_patch_is_a_dependency_changed_not_our_object_or_its_values_set():
    code = _Code.of(
        {
            "app/__init__.py": "",
            "app/patch.py": """
import functools
from daphne import server
from channels_redis.pubsub import RedisPubSubChannelLayer


def sweep(self):
    pass


server.Server.application_checker = sweep
setattr(server, "logger", None)


class Layer(RedisPubSubChannelLayer):
    def setup(self, response):
        self.extra = 1  # our own instance
        for shard in self._shards:
            shard.subscribe = functools.partial(sweep, shard)
            shard.ours = object()  # a value of ours hung on it: not a patch
        response.content = b""  # not a dependency's object as far as we can tell
""",
        }
    )
    found = _Project(code).run().patches

    assert set(found) == {
        ("app/patch.py", "application_checker"),
        ("app/patch.py", "logger"),
        ("app/patch.py", "subscribe"),
    }
