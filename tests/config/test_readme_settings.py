"""The configuration tables (docs/operations.md's and docs/RELIABILITY.md's) say what the settings read.

Every environment variable the site's settings (base, local, production: not the test settings) read
is documented, every documented one is read by something (the settings, the entry points, the Makefile,
docker-compose.yml), and a default the table writes as a value is the one the code has. The settings
are read by their syntax tree, so that what the test compares is what the code says, not what one
environment made of it.
"""

from __future__ import annotations

import ast
import operator
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = [ROOT / "config" / "settings" / f"{name}.py" for name in ("base", "local", "production")]
ENTRY_POINTS = [ROOT / "manage.py", ROOT / "config" / "asgi.py"]
TABLES = {
    "docs/operations.md": "| variable | default | meaning |",
    "docs/RELIABILITY.md": "| setting (environment variable) | default | meaning |",
}
NOT_LITERAL = object()
_ARITHMETIC = {ast.Mult: operator.mul, ast.Add: operator.add, ast.Sub: operator.sub}


def _literal(node: ast.expr | None):
    """The value of a default written as a literal (``16 * 1024`` counts), else NOT_LITERAL."""
    if node is None:
        return NOT_LITERAL
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _literal(node.left), _literal(node.right)
        if NOT_LITERAL in (left, right):
            return NOT_LITERAL
        return _ARITHMETIC[type(node.op)](left, right)
    try:
        return ast.literal_eval(node)
    except ValueError:
        return NOT_LITERAL


def _is_env(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id == "env") or (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "env"
    )


def _is_os_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def reads(path: Path) -> dict[str, list]:
    """Each environment variable the module reads, with the default of each read (NOT_LITERAL for none
    or a computed one)."""
    found: dict[str, list] = {}
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        name = default = None
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            if _is_env(func):
                name = node.args[0].value
                default = _literal(next((k.value for k in node.keywords if k.arg == "default"), None))
            elif isinstance(func, ast.Attribute) and (
                _is_os_environ(func.value) or (func.attr == "getenv" and isinstance(func.value, ast.Name))
            ):
                name = node.args[0].value
                default = _literal(node.args[1]) if len(node.args) > 1 else NOT_LITERAL
        elif (
            isinstance(node, ast.Subscript)
            and _is_os_environ(node.value)
            and isinstance(node.slice, ast.Constant)
        ):
            name, default = node.slice.value, NOT_LITERAL
        if isinstance(name, str):
            found.setdefault(name, []).append(default)
    return found


def settings_reads() -> dict[str, list]:
    merged: dict[str, list] = {}
    for path in SETTINGS:
        for name, defaults in reads(path).items():
            merged.setdefault(name, []).extend(defaults)
    return merged


def table(doc: str) -> dict[str, str]:
    """Variable -> the default cell as written; a row naming several variables gives each its part."""
    lines = (ROOT / doc).read_text().splitlines()
    start = lines.index(TABLES[doc]) + 2
    rows: dict[str, str] = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        names_cell, default_cell = (cell.strip() for cell in line.strip("|").split("|")[:2])
        names = re.findall(r"`([A-Z][A-Z0-9_]*)`", names_cell)
        parts = [p.strip() for p in default_cell.split(", ")] if len(names) > 1 else [default_cell]
        assert len(parts) == len(names), f"{doc}: one default per variable in {line[:80]!r}"
        rows.update(zip(names, parts, strict=True))
    return rows


def written(cell: str):
    """The value a default cell writes, or NOT_LITERAL for words ("a development key")."""
    cell = re.sub(r", off elsewhere$", "", cell)  # "on (production), off elsewhere": base.py's is off
    cell = re.sub(r"\s*\(.*\)$", "", cell)  # "`true` (production)": the remark is for the reader
    words = {"on": True, "true": True, "off": False, "false": False, "empty": ""}
    bare = cell.strip("`")
    if bare.lower() in words:
        return words[bare.lower()]
    if re.fullmatch(r"-?\d+(\.\d+)?", bare):
        return float(bare)
    if cell.startswith("`") and cell.endswith("`"):
        return bare
    return NOT_LITERAL


def same(code, doc) -> bool:
    if isinstance(code, bool) or isinstance(doc, bool):
        return code is doc
    if isinstance(code, int | float) and isinstance(doc, float):
        return float(code) == doc
    if isinstance(code, list):
        return doc == ",".join(code) or (doc == "" and not code)
    return code == doc


def test_every_variable_the_settings_read_is_documented():
    documented = set(table("docs/operations.md")) | set(table("docs/RELIABILITY.md"))
    missing = sorted(set(settings_reads()) - documented)
    assert not missing, f"read by config/settings but in no configuration table: {missing}"


def test_every_documented_variable_is_read():
    used = set(settings_reads())
    for path in ENTRY_POINTS:
        used |= set(reads(path))
    used |= set(re.findall(r"^([A-Z][A-Z0-9_]*) \?=", (ROOT / "Makefile").read_text(), flags=re.M))
    used |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", (ROOT / "docker-compose.yml").read_text()))
    for doc in TABLES:
        unread = sorted(set(table(doc)) - used)
        assert not unread, f"{doc} documents variables nothing reads: {unread}"


def test_the_tables_defaults_are_the_codes():
    code = settings_reads()
    checked = 0
    for doc in TABLES:
        for name, cell in table(doc).items():
            doc_value = written(cell)
            literals = [d for d in code.get(name, []) if d is not NOT_LITERAL]
            if doc_value is NOT_LITERAL or not literals:
                continue
            checked += 1
            assert any(same(d, doc_value) for d in literals), (
                f"{doc}: {name}'s default is {cell}, the code's {literals}"
            )
    assert checked >= 40  # the check compares most of the table, not a handful that happened to parse


def test_the_test_switches_are_not_read_by_the_sites_settings():
    """The scripted dice are the test settings' alone: no environment can load a deployment's dice."""
    assert not {"DICE_SOURCE", "DICE_SCRIPT_PATH", "BENCH_BASELINE"} & set(settings_reads())


def test_the_settings_have_one_table_for_the_operator():
    """The operator's table lives in docs/operations.md alone: a second copy in the README would drift."""
    assert TABLES["docs/operations.md"] not in (ROOT / "README.md").read_text()
