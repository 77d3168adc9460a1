"""The checker in the repository (tools/check_dice.py, standard library only) passes a real exported game
and fails a tampered one at the tampered roll; the export and the pages reveal the server seed only once
the game is over."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.models import Game
from games.tables import services
from tests.games.conftest import random_legal_action

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import check_dice  # noqa: E402

pytestmark = pytest.mark.django_db


def played(make_user, kind: str, moves: int = 30, end: bool = True) -> tuple[Game, dict]:
    ann, bob = make_user("ann"), make_user("bob")
    # Fixed seeds: the same dice every run (a random walk that ends the game early must not depend on them).
    game = services.game_create(
        creator=ann, kind=kind, seats=2, server_seed="5eed" * 16, client_seed="ann-chose-this"
    )
    services.game_join(game_id=game.pk, user=bob)
    services.seat_set_client_seed(game_id=game.pk, user=bob, seed="bob-chose-this")
    services.game_start(game_id=game.pk, user=ann)
    users, rng = {"ann": ann, "bob": bob}, random.Random(kind)
    for n in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        action = random_legal_action(game.state, rng)
        services.game_apply_action(
            game_id=game.pk, user=users[game.current_player], client_id=f"m{n}", action=action
        )
    if end:
        for name in ("ann", "bob"):
            game.refresh_from_db()
            if game.status == Game.Status.PLAYING:
                services.game_apply_action(
                    game_id=game.pk, user=users[name], client_id="r", action={"type": "resign"}
                )
    game.refresh_from_db()
    return game, users


def export_of(client, game: Game, user) -> dict:
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize("kind", ["farkle", "painted-dicez"])
def test_a_real_exported_game_passes(client, make_user, kind, tmp_path):
    game, users = played(make_user, kind)
    assert game.status == Game.Status.FINISHED
    data = export_of(client, game, users["ann"])
    assert data["fair_dice"]["server_seed"] == game.server_seed
    assert data["fair_dice"]["client_seeds"][1] == "bob-chose-this"
    ok, said, rolls = check_dice.check(data)
    assert ok and rolls == sum(len(a.dice) for a in game.actions.all()) > 0
    assert said == f"every one of the {rolls} rolls matches the committed seed"
    # As a script, from the file.
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_dice.py"), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (run.returncode, run.stdout.strip()) == (0, said)


def test_a_tampered_export_fails_at_the_tampered_roll(client, make_user, tmp_path):
    game, users = played(make_user, "farkle")
    data = export_of(client, game, users["ann"])
    rolled = [(i, r) for i, a in enumerate(data["actions"]) for r in range(len(a["dice"]))]
    assert len(rolled) >= 4
    index, roll = rolled[len(rolled) // 2]
    tampered = copy.deepcopy(data)
    die = tampered["actions"][index]["dice"][roll]
    die[0] = die[0] % 6 + 1  # one die shows another face
    ok, said, checked = check_dice.check(tampered)
    seq = tampered["actions"][index]["seq"]
    assert not ok and checked == len(rolled) // 2 + 1
    assert said.startswith(f"roll {checked} (action {seq}, roll {roll + 1} ")
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered))
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_dice.py"), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1 and f"action {seq}" in run.stdout


def test_a_changed_seed_or_client_seed_fails(client, make_user):
    game, users = played(make_user, "farkle", moves=10)
    data = export_of(client, game, users["ann"])
    wrong_seed = copy.deepcopy(data)
    wrong_seed["fair_dice"]["server_seed"] = "00" * 32
    assert check_dice.check(wrong_seed)[1] == "the server seed does not match its commitment"
    wrong_client = copy.deepcopy(data)
    wrong_client["fair_dice"]["client_seeds"][0] += "x"
    assert not check_dice.check(wrong_client)[0]


def test_the_checker_agrees_with_the_sites_derivation():
    from games import fair_dice

    seed, seeds = "ab" * 32, ["one", "two-2", "three_3"]
    for seq in range(1, 40):
        for painted in (False, True):
            sizes = [5, 3, 1]
            assert check_dice.derive(
                bytes.fromhex(seed), seeds, seq, sizes, painted
            ) == fair_dice.action_rolls(seed, seeds, seq, sizes, painted)


def test_no_page_or_export_of_a_game_in_progress_holds_the_seed(client, make_user):
    game, users = played(make_user, "farkle", moves=12, end=False)
    assert game.status == Game.Status.PLAYING
    client.force_login(users["ann"])
    for url in (
        f"/games/{game.pk}/",
        f"/games/{game.pk}/replay/",
        f"/games/{game.pk}/export.json",
        f"/games/{game.pk}/computers/",
    ):
        content = client.get(url).content.decode()
        assert game.server_seed not in content, url
    assert game.seed_commitment in client.get(f"/games/{game.pk}/").content.decode()
    with pytest.raises(check_dice.Unchecked):
        check_dice.check(client.get(f"/games/{game.pk}/export.json").json())


def test_a_cancelled_game_reveals_its_seed(client, make_user):
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    client.force_login(ann)
    assert game.server_seed not in client.get(f"/games/{game.pk}/").content.decode()
    services.game_leave(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert game.is_cancelled
    assert game.server_seed in client.get(f"/games/{game.pk}/").content.decode()
    data = client.get(f"/games/{game.pk}/export.json").json()
    assert data["fair_dice"]["server_seed"] == game.server_seed
    assert check_dice.check(data) == (True, "every one of the 0 rolls matches the committed seed", 0)
