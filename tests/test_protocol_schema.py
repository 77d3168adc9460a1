"""docs/protocol.schema.json against docs/protocol.md, the server's source and the client messages.

The schema is what every received frame is validated with (tests/protocol.py, hooked in
tests/conftest.py); these tests keep it honest: the messages, error codes, close codes and examples of
protocol.md are the schema's and the other way round, every error code the server's source can send is
in the schema's enum (and no other), and the client messages are accepted when right and refused when
wrong.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from games import errors, rules
from games.live.dice_source import COLOURS
from games.live.moves import MAX_CLIENT_ID
from games.models import Game
from tests.protocol import message_types, schema, validate_client, validate_server

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL_MD = ROOT / "docs" / "protocol.md"
SECTIONS = {"server": "Server to client", "client": "Client to server"}


def doc() -> str:
    return PROTOCOL_MD.read_text()


def section(title: str) -> str:
    """The text of protocol.md's `## title` section, up to the next `## ` heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc(), re.MULTILINE | re.DOTALL)
    assert match, f"protocol.md has no '## {title}' section"
    return match.group(1)


def table(header: str) -> list[list[str]]:
    """The rows (cells stripped) of the markdown table whose header line starts with `header`."""
    lines = doc().splitlines()
    start = next((n for n, line in enumerate(lines) if line.startswith(header)), None)
    assert start is not None, f"protocol.md has no table starting {header!r}"
    rows = []
    for line in lines[start + 2 :]:  # after the header and its |---| line
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


# --- the schema itself ---------------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_each_message_definition_is_named_after_its_type():
    defs = schema()["$defs"]
    server, client = message_types("server"), message_types("client")
    assert not set(server) & set(client)
    for kind in server + client:
        assert defs[kind]["properties"]["type"] == {"const": kind}
        assert "type" in defs[kind]["required"]


def test_every_card_sheet_follows_the_schema():
    sheet = Draft202012Validator({"$defs": schema()["$defs"], "$ref": "#/$defs/sheet"})
    for engine in rules.ENGINES.values():
        if engine.SHEET is not None:
            sheet.validate(engine.SHEET)


def test_the_envelope_enums_are_the_servers():
    defs = schema()["$defs"]
    # The schema names no game (a game is declared by its engine alone); every engine's slug fits it.
    kind = defs["game"]["properties"]["kind"]
    assert "enum" not in kind
    assert all(re.fullmatch(kind["pattern"], slug) for slug in rules.ENGINES)
    assert not re.fullmatch(kind["pattern"], "Farkle (10000)")
    assert set(defs["game"]["properties"]["view"]["enum"]) == {e.view for e in rules.ENGINES.values()}
    assert defs["sheet_box"]["properties"]["colour"]["enum"] == list(COLOURS)
    assert set(defs["game_status"]["enum"]) == set(Game.Status.values)
    assert defs["die"]["else"]["prefixItems"][1]["enum"] == list(COLOURS)
    assert defs["client_id"]["maxLength"] == MAX_CLIENT_ID
    assert defs["error"]["properties"]["id"]["maxLength"] == MAX_CLIENT_ID


# --- client messages -----------------------------------------------------------------------------

GOOD_CLIENT_MESSAGES = [
    {"type": "action", "id": "b-17", "action": {"type": "roll", "keep": [0, 2]}},
    {"type": "action", "id": "x", "action": {"type": "score", "box": "full_house", "column": 2}},
    {"type": "action", "id": "i" * 64, "action": {"type": "resign"}},
    {"type": "sync", "seq": 3},
    {"type": "sync", "seq": 0},
    {"type": "sync"},
    {"type": "ping"},
    {"type": "say", "text": "good game"},
    {"type": "say", "id": "b-19", "text": "good game"},
    {"type": "client_seed", "seed": "my-lucky_seed42"},
]

BAD_CLIENT_MESSAGES = {
    "action without id": {"type": "action", "action": {"type": "roll", "keep": []}},
    "id of 65 characters": {"type": "action", "id": "i" * 65, "action": {"type": "resign"}},
    "empty id": {"type": "action", "id": "", "action": {"type": "resign"}},
    "numeric id": {"type": "action", "id": 17, "action": {"type": "resign"}},
    "action without action": {"type": "action", "id": "b-1"},
    "action not an object": {"type": "action", "id": "b-1", "action": "roll"},
    "engine action without type": {"type": "action", "id": "b-1", "action": {"keep": []}},
    "sync with seq -1": {"type": "sync", "seq": -1},
    "sync with a string seq": {"type": "sync", "seq": "3"},
    "sync with a fractional seq": {"type": "sync", "seq": 2.5},
    "ping with extra keys": {"type": "ping", "seq": 1},
    "say with an empty id": {"type": "say", "id": "", "text": "hi"},
    "unknown type": {"type": "dance"},
    "client seed with a space": {"type": "client_seed", "seed": "my seed"},
    "client seed of 65 characters": {"type": "client_seed", "seed": "s" * 65},
    "no type": {"seq": 3},
    "a server message": {"type": "pong"},
}


@pytest.mark.parametrize("message", GOOD_CLIENT_MESSAGES, ids=lambda m: json.dumps(m)[:40])
def test_a_correct_client_message_is_accepted(message):
    validate_client(message)
    Draft202012Validator(schema()).validate(message)  # the whole schema: a message of either direction


@pytest.mark.parametrize("message", BAD_CLIENT_MESSAGES.values(), ids=BAD_CLIENT_MESSAGES.keys())
def test_a_wrong_client_message_is_refused(message):
    with pytest.raises(AssertionError, match="client message"):
        validate_client(message)


def test_a_refusal_says_where_and_why():
    with pytest.raises(AssertionError) as refused:
        validate_client(BAD_CLIENT_MESSAGES["id of 65 characters"])
    assert "$.id" in str(refused.value)
    assert "is too long" in str(refused.value)
    with pytest.raises(AssertionError) as refused:
        validate_server({"type": "error", "id": None, "code": "rate_limited", "message": "Wait."})
    assert "'retry_after' is a required property" in str(refused.value)


# --- protocol.md and the schema ------------------------------------------------------------------


@pytest.mark.parametrize("direction", SECTIONS)
def test_protocol_md_documents_exactly_the_schemas_messages(direction):
    headings = re.findall(r"^### (.*)$", section(SECTIONS[direction]), re.MULTILINE)
    documented = {name for heading in headings for name in re.findall(r"`([a-z_]+)`", heading)}
    assert documented == set(message_types(direction))


def test_the_error_table_lists_exactly_the_schemas_codes():
    documented = [code for row in table("| code |") for code in re.findall(r"`([a-z_]+)`", row[0])]
    assert len(documented) == len(set(documented)), "a code is in the table twice"
    assert set(documented) == set(schema()["$defs"]["error_code"]["enum"])


def test_the_close_code_table_lists_exactly_the_schemas_close_codes():
    documented = {row[0] for row in table("| close code |")}
    assert documented == set(schema()["x-close-codes"])


def examples() -> list[tuple[str, str, dict]]:
    """(direction, where, message) of every example in protocol.md: each object of a ```json block
    (one per line or spread over several), and inline `{...}` code that is a message."""
    text = doc()
    headings = [(m.start(), m.group(1)) for m in re.finditer(r"^## (.*)$", text, re.MULTILINE)]
    directions = {title: direction for direction, title in SECTIONS.items()}

    def direction_at(position: int) -> str | None:
        titles = [title for start, title in headings if start < position]
        return directions.get(titles[-1]) if titles else None

    found = []
    decoder = json.JSONDecoder()
    for block in re.finditer(r"^```json\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        body, at = block.group(1), 0
        line = text.count("\n", 0, block.start()) + 1
        while True:
            while at < len(body) and body[at].isspace():
                at += 1
            if at == len(body):
                break
            try:
                message, end = decoder.raw_decode(body, at)
            except ValueError as exc:
                pytest.fail(f"protocol.md line {line}: a json block that is not JSON objects: {exc}")
            where = f"protocol.md line {line + body.count(chr(10), 0, at)}"
            found.append((direction_at(block.start()), where, message))
            at = end
    for span in re.finditer(r"`(\{[^`\n]*\})`", text):
        try:
            message = json.loads(span.group(1))
        except ValueError:
            continue  # a sketch such as {"type": "roll", "hold": [indices]}
        kinds = message_types("server") + message_types("client")
        if isinstance(message, dict) and message.get("type") in kinds:
            found.append(
                (
                    direction_at(span.start()),
                    f"protocol.md line {text.count(chr(10), 0, span.start()) + 1}",
                    message,
                )
            )
    return found


def test_every_example_in_protocol_md_follows_the_schema():
    found = examples()
    assert len(found) >= 10
    covered = set()
    whole = Draft202012Validator(schema())
    for direction, where, message in found:
        if direction is None:
            direction = "server" if message.get("type") in message_types("server") else "client"
        validate = validate_server if direction == "server" else validate_client
        try:
            validate(message)
        except AssertionError as exc:
            raise AssertionError(f"{where}: {exc}") from None
        assert whole.is_valid(message), where
        covered.add(message["type"])
    # Every message has an example.
    assert covered == set(message_types("server") + message_types("client"))


# --- the server's source and the error codes -----------------------------------------------------

# The modules a frame goes through on the socket; of games/tables/services.py, the functions the
# consumer calls (and what they call in turn). Errors raised in connect() close the handshake rather
# than answering, so this over-approximates what a client can get, which is what an enum must cover.
SOCKET_MODULES = [
    "play/consumers.py",
    "games/live/sockets.py",
    "games/live/moves.py",
    "games/live/move_async.py",
    "games/live/move_sql.py",
    "infra/ratelimit.py",
    "games/live/broadcast.py",
    "games/live/selectors.py",
    "games/live/game_threads.py",
    "games/live/presence.py",
]


def _string(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return node.func.id if isinstance(node.func, ast.Name) else None


def _forwarded(node) -> bool:
    """Codes counted where they are chosen: `code` (send_error's parameter), `<a GameError>.code`, or
    `*error` (a (code, message) pair of GameConsumer.parse)."""
    return (
        (isinstance(node, ast.Name) and node.id == "code")
        or (isinstance(node, ast.Attribute) and node.attr == "code")
        or isinstance(node, ast.Starred)
    )


def codes_in(nodes, problems: list[str], where: str) -> set[str]:
    """The error codes the code under `nodes` can send: send_error("code", ...) calls, "code": "..."
    items, GameError subclasses raised (their class code, or the one given), and the (code, message)
    pairs of GameConsumer.parse."""
    classes = {
        name: cls.code
        for name, cls in vars(errors).items()
        if isinstance(cls, type) and issubclass(cls, errors.GameError)
    }
    codes = set()
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Call) and _called(node) == "send_error" and node.args:
                if _string(node.args[0]) is not None:
                    codes.add(_string(node.args[0]))
                elif not _forwarded(node.args[0]):
                    problems.append(f"{where} line {node.lineno}: a send_error with a computed code")
            elif isinstance(node, ast.Call) and _called(node) in classes:
                given = next((k.value for k in node.keywords if k.arg == "code"), None)
                if given is None and len(node.args) > 1:
                    given = node.args[1]
                if given is None:
                    codes.add(classes[_called(node)])
                elif _string(given) is not None:
                    codes.add(_string(given))
                else:
                    problems.append(f"{where} line {node.lineno}: a {_called(node)} with a computed code")
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if _string(key) == "code":
                        if _string(value) is not None:
                            codes.add(_string(value))
                        elif not _forwarded(value):
                            problems.append(f"{where} line {node.lineno}: a computed 'code'")
            elif isinstance(node, ast.FunctionDef) and node.name == "parse":
                for pair in ast.walk(node):
                    if isinstance(pair, ast.Tuple) and len(pair.elts) == 2 and _string(pair.elts[0]):
                        codes.add(_string(pair.elts[0]))
    return codes


def service_functions_of_the_socket() -> list[ast.FunctionDef]:
    consumers = ast.parse((ROOT / "play" / "consumers.py").read_text())
    wanted = {
        node.attr
        for node in ast.walk(consumers)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "services"
    }
    services = ast.parse((ROOT / "games" / "tables" / "services.py").read_text())
    functions = {node.name: node for node in services.body if isinstance(node, ast.FunctionDef)}
    assert wanted and wanted <= set(functions), wanted - set(functions)
    todo, seen = list(wanted), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in ast.walk(functions[name]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
                todo.append(node.func.id)
    return [functions[name] for name in sorted(seen)]


def test_the_error_codes_the_server_can_send_are_exactly_the_schemas():
    problems: list[str] = []
    sent = set()
    for module in SOCKET_MODULES:
        tree = ast.parse((ROOT / module).read_text())
        sent |= codes_in([tree], problems, module)
    sent |= codes_in(service_functions_of_the_socket(), problems, "games/tables/services.py")
    assert not problems, "codes the schema cannot be checked against:\n" + "\n".join(problems)
    enum = set(schema()["$defs"]["error_code"]["enum"])
    assert sent - enum == set(), "codes the server sends that the schema (and protocol.md) lack"
    assert enum - sent == set(), "codes in the schema that nothing in the server sends"


# --- the notices socket --------------------------------------------------------------------------


def test_the_notices_sockets_messages_are_server_messages_the_doc_names():
    notices = message_types("notices")
    assert notices and set(notices) <= set(message_types("server"))
    paragraph = next(p for p in section("Connecting").split("\n\n") if p.startswith("The notices socket"))
    assert set(re.findall(r"`([a-z_]+)`", paragraph)) >= set(notices)


def sent_types(tree: ast.AST) -> set[str]:
    """The "type" of every dict literal under ``tree`` given to send_json (or returned, for a frame
    built by a function of its own)."""
    types = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node) == "send_json" and node.args:
            built = node.args[0]
        elif isinstance(node, ast.Return):
            built = node.value
        else:
            continue
        if isinstance(built, ast.Dict):
            types |= {
                _string(v) for k, v in zip(built.keys, built.values, strict=True) if _string(k) == "type"
            }
    return types


def test_the_notices_socket_sends_exactly_the_schemas_notices_messages_and_codes():
    """What notices/consumers.py can send, read from its source: its own frames, the feed's frame
    (notices.feed.Feed.frame) and its error codes (its _error calls, and those of the shared parse)."""
    consumer = ast.parse((ROOT / "notices" / "consumers.py").read_text())
    feed = ast.parse((ROOT / "notices" / "feed.py").read_text())
    shared = ast.parse((ROOT / "games" / "live" / "sockets.py").read_text())  # PlayerSocket's errors
    (frame,) = [node for node in ast.walk(feed) if isinstance(node, ast.FunctionDef) and node.name == "frame"]
    assert sent_types(consumer) | sent_types(frame) | sent_types(shared) == set(message_types("notices"))

    problems: list[str] = []
    codes = codes_in(
        [ast.parse((ROOT / "games" / "live" / "sockets.py").read_text())], problems, "sockets.py"
    )
    for node in [*ast.walk(consumer), *ast.walk(shared)]:
        if isinstance(node, ast.Call) and _called(node) == "_error" and node.args:
            first = node.args[0]
            if _string(first) is not None:
                codes.add(_string(first))
            elif not _forwarded(first):
                problems.append(f"notices/consumers.py line {node.lineno}: an _error with a computed code")
    assert not problems, "\n".join(problems)
    assert codes <= set(schema()["$defs"]["error_code"]["enum"])
    assert {"bad_json", "bad_request", "rate_limited", "unknown_type"} <= codes


def test_the_queue_socket_sends_exactly_the_schemas_queue_messages():
    """What pairing/consumers.py can send, read from its source: its own frames, the queue's state
    (pairing.services.queue_state) and the shared socket's errors; the doc's paragraph names them."""
    consumer = ast.parse((ROOT / "pairing" / "consumers.py").read_text())
    services = ast.parse((ROOT / "pairing" / "services.py").read_text())
    (state,) = [n for n in ast.walk(services) if isinstance(n, ast.FunctionDef) and n.name == "queue_state"]
    shared = ast.parse((ROOT / "games" / "live" / "sockets.py").read_text())
    assert sent_types(consumer) | sent_types(state) | sent_types(shared) == set(message_types("queue"))
    paragraph = next(p for p in section("Connecting").split("\n\n") if p.startswith("The queue socket"))
    assert set(re.findall(r"`([a-z_]+)`", paragraph)) >= set(message_types("queue"))
    assert not [n for n in ast.walk(consumer) if isinstance(n, ast.Call) and _called(n) == "_error"]
