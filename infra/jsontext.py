"""JSON text for the hot path of live play: every move encodes the game state (for its row and its
event) and every reply, so the encoder is orjson, several times faster than the standard library's
(docs/BENCHMARKS.md). Compact, UTF-8 as it is (no \\u escapes), dict keys that are not strings
written as strings like ``json.dumps`` does."""

from __future__ import annotations

import json

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value) -> str:
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        # Text that is not valid Unicode (a lone surrogate a client sent in an escape, echoed in an
        # error) has no UTF-8 form; the standard library writes it as an escape, as it arrived.
        return json.dumps(value, separators=(",", ":"))


loads = orjson.loads
