"""A pytest plugin that runs the engine-parametrized contract tests with Quintzee registered, before
Quintzee is one of rules.ENGINES: it registers the engine before collection and gives the tests' per-game
tables (each game's state parts, turns and action names) their Quintzee entries.

    python -m pytest -p tests.games.extra.quintzee_plugin tests/games/rules/test_properties.py \
        tests/games/rules/test_declarations.py tests/games/rules/test_sheets.py \
        tests/games/rules/test_turns.py tests/games/test_bots_contract.py

Every test passes but the two that assert exactly the four shipped games.
"""


def pytest_configure(config):
    from games import rules
    from games.rules import quintzee

    if quintzee.slug not in rules.ENGINES:
        rules.register(quintzee)


def _check_quintzee(state):
    from games.rules import quintzee as q

    for card in state["cards"].values():
        boxes = card["boxes"]
        top = sum(boxes[b] for b in q.TOP if boxes[b] is not None)
        bottom = sum(boxes[b] for b in q.BOTTOM if boxes[b] is not None)
        assert card["top_subtotal"] == top and card["bottom_subtotal"] == bottom
        assert card["top_bonus"] == (35 if top >= 63 else 0)
        assert card["quintzee_bonus"] % 100 == 0
        assert card["total"] == top + card["top_bonus"] + bottom + card["quintzee_bonus"]


def pytest_collection_finish(session):
    import sys

    for module in list(sys.modules.values()):
        path = str(getattr(module, "__file__", "") or "")
        if path.endswith("rules/test_properties.py"):
            module.PARTS["quintzee"] = _check_quintzee
            module.TURNS["quintzee"] = 13
        if path.endswith("rules/test_turns.py"):
            module.ACTIONS["quintzee"] = "roll, score, resign and skip"
            module.FIRST_ROLL["quintzee"] = "hold"
