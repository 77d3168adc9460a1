"""The hot path's JSON (infra.jsontext): compact, keys as json writes them, and text that is not
valid Unicode (a lone surrogate a client sent) written as the escape it arrived as."""

from __future__ import annotations

import json

from infra.jsontext import dumps, loads


def test_compact_and_the_same_data_as_the_standard_library():
    value = {"a": [1, 2.5, None, True], "ü": "Würfel", 3: {"x": "y"}}
    text = dumps(value)
    assert " " not in text.replace("Würfel", "")
    assert json.loads(text) == json.loads(json.dumps(value)) == loads(text)


def test_a_lone_surrogate_is_escaped_not_refused():
    assert dumps({"id": "lone\ud800"}) == '{"id":"lone\\ud800"}'
