"""The websocket protocol's JSON Schema (docs/protocol.schema.json) as the tests check frames with it.

``validate_server(frame)``, ``validate_client(frame)`` and ``validate_notices(frame)`` (what the notices
socket sends: the schema's notices_message) raise AssertionError, with the schema's complaints and the
frame, when a message does not follow the protocol. ``check_server_frame(data, socket)`` does the same
for a frame as received (text) from a game socket or the notices socket, after checking that it is one
JSON object.

tests/conftest.py runs every frame received in-process through ``check_server_frame``; the real
websocket clients of the reliability and browser tests do as well.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "protocol.schema.json"
# The kinds of frame the schema lists: each direction's, and the part of the server's that the notices
# socket (/ws/notices/) sends.
DIRECTIONS = {
    "server": "server_message",
    "client": "client_message",
    "notices": "notices_message",
    "queue": "queue_message",
}


@functools.cache
def schema() -> dict:
    loaded = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(loaded)
    return loaded


def message_types(direction: str) -> list[str]:
    """The message types of one direction ("server" or "client"), or of the notices socket ("notices"),
    as the schema lists them."""
    return [ref["$ref"].rsplit("/", 1)[1] for ref in schema()["$defs"][DIRECTIONS[direction]]["oneOf"]]


@functools.cache
def _validators(direction: str) -> dict[str, Draft202012Validator]:
    """One validator per message type: the errors of the message's own definition are the readable
    ones (a oneOf over every message would mostly say that none matched)."""
    root = schema()
    return {
        kind: Draft202012Validator(
            {"$schema": root["$schema"], "$defs": root["$defs"], "$ref": f"#/$defs/{kind}"}
        )
        for kind in message_types(direction)
    }


def _shown(frame, limit: int = 600) -> str:
    text = json.dumps(frame, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _problem(error: ValidationError) -> str:
    # "... is not valid under any of the given schemas" says little: add the likeliest reason.
    reason = best_match(error.context) if error.context else None
    because = f" ({reason.json_path}: {reason.message})" if reason is not None else ""
    return f"  {error.json_path}: {error.message}{because}"


def _validate(frame, direction: str) -> dict:
    validators = _validators(direction)
    kind = frame.get("type") if isinstance(frame, dict) else None
    validator = validators.get(kind) if isinstance(kind, str) else None
    if validator is None:
        raise AssertionError(
            f"not a {direction} message of {SCHEMA_PATH.name}: its type must be one of "
            f"{', '.join(validators)}\n  frame: {_shown(frame)}"
        )
    errors = sorted(validator.iter_errors(frame), key=lambda e: (list(e.absolute_path), e.message))
    if errors:
        problems = "\n".join(_problem(e) for e in errors[:10])
        more = f"\n  ... and {len(errors) - 10} more" if len(errors) > 10 else ""
        raise AssertionError(
            f"{direction} message {kind!r} does not follow {SCHEMA_PATH.name}:\n{problems}{more}\n"
            f"  frame: {_shown(frame)}"
        )
    return frame


def validate_server(frame: dict) -> dict:
    """Check a message the server sent; returns it."""
    return _validate(frame, "server")


def validate_client(frame: dict) -> dict:
    """Check a message a client sends; returns it."""
    return _validate(frame, "client")


def validate_notices(frame: dict) -> dict:
    """Check a message the notices socket sent; returns it."""
    return _validate(frame, "notices")


def check_server_frame(data: str | bytes, socket: str = "game") -> dict:
    """A frame the server sent on a ``socket`` ("game", "notices" or "queue"), as received: one JSON
    object in a text frame that follows the schema."""
    if not isinstance(data, str):
        raise AssertionError(f"the server sent a binary frame; every frame is JSON text: {data[:200]!r}")
    try:
        frame = json.loads(data)
    except ValueError as exc:
        raise AssertionError(f"the server sent a frame that is not JSON ({exc}): {data[:200]!r}") from None
    if socket in ("notices", "queue"):
        return _validate(frame, socket)
    return validate_server(frame)
