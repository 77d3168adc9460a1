"""infra/gc_tuning.py: what a served process does to its garbage collector."""

import gc

import pytest

from infra import gc_tuning


@pytest.fixture
def restore_gc():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_a_served_process_freezes_its_start_up_objects_and_collects_in_full_rarely(settings, restore_gc):
    settings.SERVER_GC_TUNING = True
    _, middle, _ = gc.get_threshold()
    loaded_at_start_up = type("Kept", (), {})()
    assert gc.is_tracked(loaded_at_start_up)

    assert gc_tuning.tune() is True

    assert gc.get_freeze_count() > 0
    # Frozen objects sit in the permanent generation, which no collection (and get_objects) visits.
    assert not any(obj is loaded_at_start_up for obj in gc.get_objects())
    # Young collections more often, each shorter; full ones after as many allocations as Python's
    # (700, 10) thresholds with 100 generation-1 collections between them.
    assert gc.get_threshold() == (200, middle, 350)


def test_it_can_be_switched_off(settings, restore_gc):
    settings.SERVER_GC_TUNING = False
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()

    assert gc_tuning.tune() is False

    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen


class Cycle:
    """Garbage only the cyclic collector can free: it refers to itself."""

    def __init__(self) -> None:
        self.me = self
